"""Scripted strategies the lab uses to test a design for degenerate play (never offered to a server seat).

``new-rule-plan`` plays New Rule (``win=blob``) as ``docs/rules/new-rule.md`` ("Analysis: a team that plans
always wins") describes: the eight setup pennies go inside a1-c3 or b1-d3 (first on the six squares the two
blocks share, then, at the fourth penny of one colour, on the block with five squares of that colour), and the
first turn compresses the far corner h8, whose one moving penny leaves the board whichever way the coin falls.
It reads only its seat's view. The balance report then flags the game: the team wins every game, in a fraction
of random play's length (``boardlab balance new-rule --agents new-rule-plan``). Under the option ``win=heavy``
(the blob's block must hold 20 pennies, more than setup can bring) the same play never wins.

>>> from boardlab.lab.balance import balance
>>> r = balance("new-rule", agents=["new-rule-plan"], games=6, probe_points=0, reference_length=110.0)
>>> r.outcomes["team_wins"]["count"], sorted({f["kind"] for f in r.flags})
(6, ['dominant', 'quick'])
"""

from __future__ import annotations

import random
from typing import Any

from ..agents import register_agent
from ..core.game import Game
from ..core.view import SeatView
from ..games.new_rule import LABELS

INDEX = {label: i for i, label in enumerate(LABELS)}

#: The squares a1-c3 and b1-d3 share, by coin face (0 heads: dark squares; 1 tails: light squares).
SHARED = {0: ("c1", "b2", "c3"), 1: ("b1", "c2", "b3")}
#: The block that has five squares of a colour, the shared squares first.
BLOCKS = {
    0: ("c1", "b2", "c3", "a1", "a3", "b1", "c2", "b3", "a2"),
    1: ("b1", "c2", "b3", "d1", "d3", "c1", "b2", "c3", "d2"),
}
DARK_PROBE = "c1"  # a dark square: legal at a setup placement exactly when the coin showed heads


class NewRulePlan:
    """The planned setup and the corner turn; any other decision (settling) is a seeded random choice."""

    name = "new-rule-plan"

    def __init__(self, game: Game, seat: int = 0, seed: int | None = None) -> None:
        if game.id != "new-rule":
            raise ValueError(f"the new-rule-plan agent plays only new-rule, not {game.id!r}")
        self.rng = random.Random(seed)

    def step(self, view: SeatView) -> int:
        legal = view.legal_actions()
        labels = {view.action_to_string(a): a for a in legal}
        obs = view.observation()
        phase = obs["phase"]
        if phase == "setup-place":
            return self._place(obs, labels)
        if phase == "choose-square" and "h8" in labels:
            return labels["h8"]
        if phase == "direction":
            for d in ("N", "NE", "E", "SE"):  # from h8, north and north-east leave the board
                if d in labels:
                    return labels[d]
        return self.rng.choice(legal)

    def _place(self, obs: dict[str, Any], labels: dict[str, int]) -> int:
        face = 0 if DARK_PROBE in labels else 1
        counts = obs["counts"]
        stacked = {q for q in BLOCKS[0] + BLOCKS[1] if counts[INDEX[q]] > 1}
        shared = set(SHARED[0] + SHARED[1])
        block = next((f for f, b in BLOCKS.items() if any(q in stacked and q not in shared for q in b)), None)
        squares = BLOCKS[block] if block is not None else SHARED[face]
        fresh = [q for q in squares if q in labels and q not in stacked]
        if not fresh and block is None:  # the fourth penny of a colour: commit to its five-square block
            squares = BLOCKS[face]
            fresh = [q for q in squares if q in labels and q not in stacked]
        pick = fresh or [q for q in squares if q in labels]
        return labels[pick[0]] if pick else next(iter(labels.values()))


register_agent("new-rule-plan", lambda game, seat, seed, params: NewRulePlan(game, seat, seed))
