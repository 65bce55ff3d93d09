"""Micro Play-Break: Combat: two small armies deploy face down, then fight by themselves in steps.

Rules: ``docs/rules/combat.md``; clause numbers are cited as ``§n``.

Troops are numbered 0-4 in the order of :data:`TROOPS`. A commander's grid has
six slots, numbered ``3 * row + column`` (row 0 the front, row 1 the back;
columns A, B, C are 0, 1, 2); column A of one grid faces column A of the other
(§1b). Seat actions are the segments of :data:`ACTIONS`:

* ``place`` (``0 .. 29``, ``6 * troop + slot``): deploy a troop face down (§4);
* ``grant`` (``30 .. 35``): a back-row Swordsman gives first strike to a slot (§7a);
* ``aim`` (``36 .. 37``): a front-row Archer shoots the front or the back troop (§6c);
* ``shield`` (``38 .. 43``), ``keep`` (``44``): sacrifice a back-row Shieldbearer
  to cancel a wound to a slot, or not (§9b);
* ``heal`` (``45 .. 50``): a Medic heals a slot (§10a);
* ``reinforce`` (``51 .. 55``, a troop), ``decline`` (``56``): the Battalion
  reinforcement (§13c).

Chance actions (option ``first`` = ``random``): ``0`` Orange deploys first,
``1`` Blue does (§2a). The combat choices are taken by both commanders at once
(simultaneous nodes, §9a); a commander with one possible choice is not asked.

Hidden information (§4f): a deployed troop's slot is public and its identity is
private to its owner until every troop is deployed and all are turned face up
(§5a). ``_seen`` says exactly that of each placement, and the last placement
shows the whole reveal, so the core's move log and resample follow; the
``resample`` override is its fast equivalent (it redraws which of a commander's
troops stand in the slots placed so far, uniformly, as the core does).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from ..core import scene as sc
from ..core.actions import ActionSpace, Segment
from ..core.constants import CHANCE, SIMULTANEOUS, TERMINAL
from ..core.game import Game, win_loss
from ..core.gametype import Chance, Dynamics, GameType, Information, when
from ..core.hidden import Seen
from ..core.options import Option
from ..core.phases import Phase, PhasedState, phase_table
from ..core.tensor import Tensor
from ..core.wording import said
from . import _tensors as tz

NAMES = ("Orange", "Blue")
#: The five troops (§1a), by troop number.
TROOPS = ("Shieldbearer", "Swordsman", "Spearman", "Archer", "Medic")
SHIELD, SWORD, SPEAR, ARCHER, MEDIC = range(5)
SHORT = ("Sh", "Sw", "Sp", "Ar", "Me")
#: §11a: the troops that keep an army in the fight.
COMBAT_TROOPS = frozenset({SWORD, SPEAR, ARCHER})
#: Each troop's two effects, front row then back row, in the words of §6 (shown on the cards).
EFFECTS = (
    (
        "Front row: own troops in its column are immune to wounds from Archers and Spearmen.",
        "Back row: may be sacrificed to cancel one wound to an adjacent troop.",
    ),
    ("Front row: wounds the enemy front troop in its column.", "Back row: gives one adjacent troop first strike."),
    (
        "Front row: first strike; wounds the enemy front troop in its column.",
        "Back row: wounds the enemy front troop in its column.",
    ),
    (
        "Front row: wounds either enemy troop in its column (front or back).",
        "Back row: wounds the enemy front troop in its column.",
    ),
    (
        "Front or back row: after combat, heals one adjacent wounded troop.",
        "Front or back row: after combat, heals one adjacent wounded troop.",
    ),
)
COLUMNS = ("A", "B", "C")
SLOTS = tuple(f"{row} {c}" for row in ("front", "back") for c in COLUMNS)
FRONT, BACK = 0, 1
STEP_NAMES = ("", "first strike", "front row", "back row")

ACTIONS = ActionSpace(
    Segment("place", (("troop", TROOPS), ("slot", SLOTS)), "place {troop} at {slot}"),
    Segment("grant", (("slot", SLOTS),), "first strike to {slot}"),
    Segment("aim", (("row", ("the front troop", "the back troop")),), "Archer shoots {row}"),
    Segment("shield", (("slot", SLOTS),), "Shieldbearer shields {slot}"),
    Segment("keep", (), "keep the Shieldbearer"),
    Segment("heal", (("slot", SLOTS),), "Medic heals {slot}"),
    Segment("reinforce", (("troop", TROOPS),), "reinforce with the {troop}"),
    Segment("decline", (), "no reinforcement"),
)
PLACE, GRANT, AIM, SHIELD_AT, KEEP, HEAL, REINFORCE, DECLINE = ACTIONS.offsets(
    "place", "grant", "aim", "shield", "keep", "heal", "reinforce", "decline"
)


def row_of(slot: int) -> int:
    return slot // 3


def col_of(slot: int) -> int:
    return slot % 3


def _adjacent(slot: int, cols: int) -> tuple[int, ...]:
    """§5b: the slots one step away, not diagonally, in the same grid and in the columns in use."""
    r, c = divmod(slot, 3)
    out = [(1 - r) * 3 + c] + [r * 3 + cc for cc in (c - 1, c + 1) if 0 <= cc < cols]
    return tuple(sorted(out))


#: ``ADJACENT[cols][slot]`` for 2 and 3 columns in use.
ADJACENT = {n: tuple(_adjacent(s, n) for s in range(6)) for n in (2, 3)}


def has_attack(troop: int, slot: int) -> bool:
    """§6: Spearmen and Archers attack from either row, Swordsmen from the front row only."""
    return troop in (SPEAR, ARCHER) or (troop == SWORD and row_of(slot) == FRONT)


def acting_step(troop: int, slot: int, first_strike: bool) -> int:
    """§7b-§7d: the step in which a troop attacks (1, 2 or 3), 0 for a troop without an attack (§7f)."""
    if not has_attack(troop, slot):
        return 0
    if first_strike or (troop == SPEAR and row_of(slot) == FRONT):
        return 1
    return 2 if row_of(slot) == FRONT else 3


#: ``ACTING[troop][slot][first_strike]``: :func:`acting_step` for every troop, slot and first-strike flag, computed once.
ACTING = tuple(tuple((acting_step(t, s, False), acting_step(t, s, True)) for s in range(6)) for t in range(len(TROOPS)))


def troop_list(troops: tuple[int, ...] | list[int]) -> str:
    return ", ".join(TROOPS[t] for t in sorted(troops)) or "no troops"


class CombatGame(Game):
    id = "combat"
    title = "Micro Play-Break: Combat"
    summary = (
        "Deploy five troops face down in turn on a two-row grid, then watch them fight in steps: first strike, "
        "front row, back row. Rout the enemy's fighters to win."
    )
    options = (
        Option.choice(
            "first",
            {"random": "Chance decides", "orange": "Orange", "blue": "Blue"},
            said("Who deploys first in the first cycle: chance, Orange or Blue.", "2a"),
        ),
        Option.choice(
            "deploy_first",
            {
                "alternate": "The commanders take turns",
                "same": "The first commander always",
                "loser": "The one with fewer troops left",
            },
            said(
                "Who deploys first in later cycles: the commanders alternate, the first one always, or the one with "
                "fewer troops left.",
                "4e",
            ),
        ),
        Option(
            "squads",
            int,
            1,
            (1, 2, 3, 4),
            said("Squads per commander: 1 is the standard game; 2-4 plays the Battalion variant.", "13"),
        ),
        Option.flag(
            "wounded_sacrifice", False, said("Whether a wounded back-row Shieldbearer may still be sacrificed.", "9b")
        ),
        Option(
            "cycle_cap",
            int,
            20,
            None,
            said("Cycles one battle may last before it is decided as if both armies were routed.", "12"),
            minimum=1,
            maximum=200,
        ),
    )
    mechanics = ("hidden deployment", "automatic combat", "simultaneous choices")
    playing_time = "5 min"
    game_type = GameType(
        dynamics=Dynamics.SIMULTANEOUS,
        chance=Chance.EXPLICIT,
        information=Information.IMPERFECT,
        variants=(when("first", ("orange", "blue"), chance=Chance.NONE),),
    )
    seat_names = NAMES
    inventions = (
        "Who deploys first in the first cycle is drawn by chance (option first); the rules ask for the commander "
        "who most recently played a war game.",
        "In later cycles the commanders take turns deploying first (option deploy_first).",
        "Columns are lettered A, B and C, the same letters on both grids; with two columns in use, A and B are used.",
        "A front-row Shieldbearer's immunity protects its whole column, itself included, and lapses once it is "
        "wounded.",
        "An attack on an empty slot does nothing; it never passes to the troop behind.",
        "A troop given first strike that has no attack gains nothing, and a front Spearman given it acts once.",
        "Choices inside a step (an Archer's target, a Shieldbearer's sacrifice) are made by both commanders at "
        "once; a sacrifice is decided after the step's wounds are known, before they are dealt.",
        "A wounded back-row Shieldbearer cannot be sacrificed (option wounded_sacrifice).",
        "A Medic always heals when it can; with two or more wounded neighbours its commander chooses.",
        "The rout is checked after Recovery.",
        "A battle that lasts cycle_cap cycles (20 by default) without a rout is decided as if both armies were "
        "routed: more troops wins, equal is a draw.",
        "Battalion variant: both commanders start with the same number of squads; a reinforcement is one of the "
        "victor's own troop types lost in its current squad, and may be declined; when both are routed at once, "
        "both lose a squad.",
    )
    num_chance_outcomes = 2

    def _setup(self) -> None:
        self.action_space = ACTIONS
        self.squads = self.params["squads"]
        self.cycle_cap = self.params["cycle_cap"]
        # §12, §13e: a battle lasts at most cycle_cap cycles and routes a squad; at most 2 * squads - 1 battles.
        # A cycle has at most 10 placements, one grant, three aims, three shields, one heal and one reinforcement.
        self.max_length = 1 + (2 * self.squads - 1) * self.cycle_cap * 19 + 1


class CombatState(PhasedState):
    game: CombatGame
    copied = ()  # clone() copies the containers itself (no deep copy)

    def __init__(self, game: CombatGame, num_players: int) -> None:
        super().__init__(game, num_players)
        n = game.squads
        self.squads = [n, n]
        self.army: list[tuple[int, ...]] = [tuple(range(5)), tuple(range(5))]  # §1a: the troops still in the squad
        self.hand: list[tuple[int, ...]] = [(), ()]  # not yet deployed this cycle
        self.grid: list[list[int]] = [[-1] * 6, [-1] * 6]
        self.wounds: list[list[int]] = [[0] * 6, [0] * 6]
        self.first_strike: list[list[bool]] = [[False] * 6, [False] * 6]
        self.placed: list[list[tuple[int, int]]] = [[], []]  # (history index, slot) of this cycle's placements
        self.cols = 3
        self.cycle = 0
        self.battle_cycles = 0  # cycles since the last rout (§12)
        self.battle = 1
        self.first = -1  # who deployed first in cycle 1
        self.deployer = -1  # who deploys first this cycle
        self.to_move = -1
        self.revealed = False
        self.step = 0  # the combat step under way (§7)
        self.aims: list[int] = [-1, -1]  # §6c: this step's chosen Archer targets
        self.hits: list[tuple[int, int, int, int]] = []  # (target seat, slot, attacker seat, attacker slot)
        self.victor = -1  # §13c: who may reinforce
        self.events: list[str] = []  # everything that happened in public, in order
        self.report_start = 0  # where this cycle's combat report starts in ``events``
        self.winner = -1
        self.over = False
        self.end_reason = ""
        first = game.params["first"]
        if first == "random":
            self.phase = "coin"
        else:
            self._start(0 if first == "orange" else 1)

    def clone(self) -> CombatState:
        s = super().clone()
        s.squads = self.squads[:]
        s.army = self.army[:]
        s.hand = self.hand[:]
        s.grid = [g[:] for g in self.grid]
        s.wounds = [w[:] for w in self.wounds]
        s.first_strike = [f[:] for f in self.first_strike]
        s.placed = [p[:] for p in self.placed]
        s.aims = self.aims[:]
        s.hits = self.hits[:]
        s.events = self.events[:]
        return s

    # -- start and deployment (§2, §4) -------------------------------------------------
    def _start(self, seat: int) -> None:
        """§2a: ``seat`` deploys first in the first cycle."""
        self.first = seat
        self._new_cycle(seat)

    def _new_cycle(self, deployer: int) -> None:
        """§4: every remaining troop goes back into its commander's hand; ``deployer`` places first."""
        self.cycle += 1
        self.deployer = self.to_move = deployer
        self.hand = [self.army[0], self.army[1]]
        self.grid = [[-1] * 6, [-1] * 6]
        self.wounds = [[0] * 6, [0] * 6]
        self.first_strike = [[False] * 6, [False] * 6]
        self.placed = [[], []]
        self.cols = 2 if len(self.army[0]) <= 4 and len(self.army[1]) <= 4 else 3  # §4a
        self.revealed = False
        self.phase = "deploy"

    def open_slots(self, p: int) -> list[int]:
        """§4c: empty slots of the columns in use; the back row only once the front row is full."""
        g, cols = self.grid[p], self.cols
        front = [c for c in range(cols) if g[c] < 0]
        return front if front else [3 + c for c in range(cols) if g[3 + c] < 0]

    def place(self, action: int) -> None:
        p = self.to_move
        troop, slot = divmod(action - PLACE, 6)
        self.placed[p].append((len(self._history), slot))
        self.grid[p][slot] = troop
        self.hand[p] = tuple(t for t in self.hand[p] if t != troop)
        other = 1 - p
        if self.hand[other]:  # §4b: alternate while both have troops to place
            self.to_move = other
        elif not self.hand[p]:
            self._reveal()

    # -- combat (§5-§9) ------------------------------------------------------------------
    def _reveal(self) -> None:
        """§5a: every troop is turned face up; §7a: back-row Swordsmen give first strike."""
        self.revealed = True
        self._mark_irreversible()
        self.report_start = len(self.events)
        self._say(f"Cycle {self.cycle}: the troops are turned face up. {self._line_up()}")
        self.step = 0
        if any(len(self.grant_choices(p)) > 1 for p in (0, 1)):
            self.phase = "grant"
            return
        for p in (0, 1):
            choices = self.grant_choices(p)
            if choices:
                self._grant(p, choices[0])
        self._next_step()

    def _line_up(self) -> str:
        parts = []
        for p in (0, 1):
            troops = [f"{TROOPS[t]} {SLOTS[s]}" for s, t in enumerate(self.grid[p]) if t >= 0]
            parts.append(f"{NAMES[p]}: {', '.join(troops)}")
        return "; ".join(parts) + "."

    def _say(self, text: str) -> None:
        self.events.append(text)

    def _troop(self, p: int, slot: int) -> str:
        return f"{NAMES[p]}'s {TROOPS[self.grid[p][slot]]} at {SLOTS[slot]}"

    def swordsman(self, p: int) -> int:
        """The slot of ``p``'s back-row Swordsman, or -1."""
        g = self.grid[p]
        return next((s for s in range(3, 6) if g[s] == SWORD), -1)

    def grant_choices(self, p: int) -> list[int]:
        """§7a: the adjacent own troops a back-row Swordsman may give first strike to."""
        sw = self.swordsman(p)
        if sw < 0:
            return []
        return [s for s in ADJACENT[self.cols][sw] if self.grid[p][s] >= 0]

    def _grant(self, p: int, slot: int) -> None:
        self.first_strike[p][slot] = True
        self._say(f"{self._troop(p, self.swordsman(p))} gives first strike to the {TROOPS[self.grid[p][slot]]}.")

    def apply_grants(self, actions: list[int | None]) -> None:
        for p in (0, 1):
            a = actions[p]
            choices = self.grant_choices(p)
            if a is not None:
                self._grant(p, a - GRANT)
            elif choices:
                self._grant(p, choices[0])
        self._next_step()

    def attackers(self, step: int) -> list[tuple[int, int]]:
        """§7e: the unwounded troops that attack in ``step``."""
        out = []
        for p in (0, 1):
            g, w, fs = self.grid[p], self.wounds[p], self.first_strike[p]
            for s in range(6):
                t = g[s]
                if t >= 0 and w[s] == 0 and ACTING[t][s][fs[s]] == step:
                    out.append((p, s))
        return out

    def targets(self, p: int, slot: int) -> list[int]:
        """§6, §7g: the enemy slots the troop at ``slot`` may wound (occupied ones only)."""
        troop, c, e = self.grid[p][slot], col_of(slot), self.grid[1 - p]
        if troop == ARCHER and row_of(slot) == FRONT:  # §6c: either troop in column
            return [x for x in (c, 3 + c) if e[x] >= 0]
        return [c] if e[c] >= 0 else []

    def aim_choice(self, p: int) -> bool:
        """Whether ``p`` has an Archer to aim in this step (§6c, §9a)."""
        return any(q == p and len(self.targets(q, s)) > 1 for q, s in self.attackers(self.step))

    def _next_step(self) -> None:
        """Go on to the next step of §7 that has anyone to act, then to Recovery (§10)."""
        while self.step < 3:
            self.step += 1
            if not self.attackers(self.step):
                continue
            self.aims = [-1, -1]
            if self.aim_choice(0) or self.aim_choice(1):
                self.phase = "aim"
                return
            self._strike()
            return
        self._recovery()

    def apply_aims(self, actions: list[int | None]) -> None:
        self.aims = [-1 if a is None else a - AIM for a in actions]
        self._strike()

    def _immune(self, target: int, slot: int, attacker: int) -> bool:
        """§8c: an unwounded front Shieldbearer shields its column from Archers and Spearmen."""
        c = col_of(slot)
        return attacker in (ARCHER, SPEAR) and self.grid[target][c] == SHIELD and self.wounds[target][c] == 0

    def _strike(self) -> None:
        """§7e: every troop of the step attacks at once; the wounds wait for any sacrifice (§9b)."""
        self.hits = []
        self._say(f"Step {self.step} ({STEP_NAMES[self.step]}):")
        for p, s in self.attackers(self.step):
            options = self.targets(p, s)
            if not options:
                self._say(f"{self._troop(p, s)} finds no enemy in its column.")
                continue
            tgt = options[self.aims[p]] if len(options) > 1 else options[0]
            e = 1 - p
            if self._immune(e, tgt, self.grid[p][s]):
                self._say(f"{self._troop(p, s)} attacks {self._troop(e, tgt)}, which the Shieldbearer protects.")
                continue
            self.hits.append((e, tgt, p, s))
        if any(self.shield_choices(p) for p in (0, 1)):
            self.phase = "shield"
            return
        self._deal([None, None])

    def shieldbearer(self, p: int) -> int:
        """The slot of ``p``'s back-row Shieldbearer able to be sacrificed (§9b), or -1."""
        g, w = self.grid[p], self.wounds[p]
        for s in range(3, 6):
            if g[s] == SHIELD and (w[s] == 0 or self.game.params["wounded_sacrifice"]):
                return s
        return -1

    def shield_choices(self, p: int) -> list[int]:
        """§9b: the adjacent own slots about to be wounded that the Shieldbearer may protect."""
        sb = self.shieldbearer(p)
        if sb < 0:
            return []
        near = ADJACENT[self.cols][sb]
        return sorted({s for q, s, _, _ in self.hits if q == p and s in near})

    def apply_shields(self, actions: list[int | None]) -> None:
        self._deal([None if a is None or a == KEEP else a - SHIELD_AT for a in actions])

    def _deal(self, shielded: list[int | None]) -> None:
        """§8: deal the step's wounds, less any cancelled by a sacrifice (§9b); two wounds remove a troop."""
        hits = self.hits
        for p in (0, 1):
            slot = shielded[p]
            if slot is None:
                continue
            sb = self.shieldbearer(p)
            self._say(f"{self._troop(p, sb)} is sacrificed to save the {TROOPS[self.grid[p][slot]]}.")
            self._remove(p, sb)
            k = next(i for i, h in enumerate(hits) if h[0] == p and h[1] == slot)
            hits = hits[:k] + hits[k + 1 :]
        for e, tgt, p, s in hits:
            if self.grid[e][tgt] < 0:  # a sacrificed Shieldbearer takes its wounds with it
                continue
            self.wounds[e][tgt] += 1
            self._say(f"{self._troop(p, s)} wounds {self._troop(e, tgt)}.")
        for e in (0, 1):
            for slot in range(6):
                if self.grid[e][slot] >= 0 and self.wounds[e][slot] >= 2:
                    self._say(f"{self._troop(e, slot)} has two wounds and is removed.")
                    self._remove(e, slot)
        self.hits = []
        self._next_step()

    def _remove(self, p: int, slot: int) -> None:
        """§10c: a removed troop leaves the squad for good."""
        troop = self.grid[p][slot]
        self.army[p] = tuple(t for t in self.army[p] if t != troop)
        self.grid[p][slot] = -1
        self.wounds[p][slot] = 0

    # -- recovery and the end of a cycle (§10-§13) ------------------------------------------
    def medic(self, p: int) -> int:
        g, w = self.grid[p], self.wounds[p]
        return next((s for s in range(6) if g[s] == MEDIC and w[s] == 0), -1)

    def heal_choices(self, p: int) -> list[int]:
        """§10a: the adjacent wounded own troops an unwounded Medic may heal."""
        m = self.medic(p)
        if m < 0:
            return []
        return [s for s in ADJACENT[self.cols][m] if self.grid[p][s] >= 0 and self.wounds[p][s] > 0]

    def _recovery(self) -> None:
        self.step = 4
        if any(len(self.heal_choices(p)) > 1 for p in (0, 1)):
            self.phase = "heal"
            return
        self.apply_heals([None, None])

    def apply_heals(self, actions: list[int | None]) -> None:
        """§10a a Medic heals one troop; §10b every other wounded troop is removed."""
        for p in (0, 1):
            choices = self.heal_choices(p)
            a = actions[p]
            slot = a - HEAL if a is not None else (choices[0] if choices else -1)
            if slot >= 0:
                self.wounds[p][slot] = 0
                self._say(f"Recovery: {self._troop(p, self.medic(p))} heals the {TROOPS[self.grid[p][slot]]}.")
        for p in (0, 1):
            for slot in range(6):
                if self.grid[p][slot] >= 0 and self.wounds[p][slot] > 0:
                    self._say(f"Recovery: {self._troop(p, slot)} is wounded and leaves the battle.")
                    self._remove(p, slot)
        self._end_cycle()

    def routed(self, p: int) -> bool:
        """§11a: an army with no Swordsman, Spearman or Archer is routed."""
        return not any(t in COMBAT_TROOPS for t in self.army[p])

    def _end_cycle(self) -> None:
        """§11, §12, §13: the rout check after Recovery."""
        self.battle_cycles += 1
        routed = [self.routed(0), self.routed(1)]
        capped = not any(routed) and self.battle_cycles >= self.game.cycle_cap
        if capped:  # §12
            self._say(said(f"The battle has lasted {self.battle_cycles} cycles: the cycle limit decides it.", "12"))
            routed = [True, True]
        for p in (0, 1):
            if routed[p] and not capped:
                self._say(f"{NAMES[p]}'s army is routed (left: {troop_list(self.army[p])}).")
        if not any(routed):
            self._new_cycle(self._next_deployer())
            return
        counts = (len(self.army[0]), len(self.army[1]))
        for p in (0, 1):
            if routed[p]:
                self.squads[p] -= 1
        if self.squads[0] > 0 and self.squads[1] > 0:  # §13b: fresh squads, play on
            self._say(self._squads_text(routed))
            loser = [p for p in (0, 1) if routed[p]]
            for p in loser:
                self.army[p] = tuple(range(5))
            self.battle += 1
            self.battle_cycles = 0
            if len(loser) == 1 and self.reinforcements(1 - loser[0]):
                self.victor = 1 - loser[0]
                self.phase = "reinforce"
                return
            self._new_cycle(self._next_deployer())
            return
        self._finish(routed, counts, capped)

    def _squads_text(self, routed: list[bool]) -> str:
        lost = " and ".join(NAMES[p] for p in (0, 1) if routed[p])
        return (
            f"{lost} {'lose' if all(routed) else 'loses'} a squad and {'take' if all(routed) else 'takes'} a "
            f"fresh one (squads left: {NAMES[0]} {self.squads[0]}, {NAMES[1]} {self.squads[1]})."
        )

    def _finish(self, routed: list[bool], counts: tuple[int, int], capped: bool) -> None:
        """§11b, §11c, §13e: the game ends."""
        self.over = True
        self.phase = "over"
        out = [p for p in (0, 1) if self.squads[p] <= 0] if self.game.squads > 1 else [p for p in (0, 1) if routed[p]]
        if len(out) == 1:
            self.winner = 1 - out[0]
            self.end_reason = f"{NAMES[out[0]]}'s {'last squad' if self.game.squads > 1 else 'army'} is routed"
        elif counts[0] != counts[1]:
            self.winner = 0 if counts[0] > counts[1] else 1
            how = "the cycle limit is reached" if capped else "both armies are routed"
            self.end_reason = f"{how} and {NAMES[self.winner]} has more troops left ({counts[0]} to {counts[1]})"
        else:
            how = "the cycle limit is reached" if capped else "both armies are routed"
            self.end_reason = f"{how} with {counts[0]} troops each: a draw"
        won = f"{NAMES[self.winner]} wins" if self.winner >= 0 else "the game is drawn"
        self._say(f"The game ends: {self.end_reason}; {won}.")

    def _next_deployer(self) -> int:
        """§4e: who deploys first in the next cycle."""
        rule = self.game.params["deploy_first"]
        if rule == "same":
            return self.first
        if rule == "loser":
            a, b = len(self.army[0]), len(self.army[1])
            if a != b:
                return 0 if a < b else 1
        return 1 - self.deployer

    def reinforcements(self, p: int) -> list[int]:
        """§13c: the victor's own troop types lost in its current squad."""
        return [t for t in range(5) if t not in self.army[p]]

    def apply_reinforce(self, action: int) -> None:
        p = self.victor
        if action != DECLINE:
            troop = action - REINFORCE
            self.army[p] = tuple(sorted((*self.army[p], troop)))
            self._say(f"{NAMES[p]} reinforces the squad with the {TROOPS[troop]}.")
        else:
            self._say(f"{NAMES[p]} does not reinforce the squad.")
        self.victor = -1
        self._new_cycle(self._next_deployer())

    # -- the end ---------------------------------------------------------------------------
    def returns(self) -> list[float]:
        return win_loss(self.winner) if self.over else [0.0, 0.0]

    # -- hidden information (§4f) -------------------------------------------------------------
    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        """The observation as numbers (docs/research/tensors-newer.md): seats from the viewer's, slots as in a grid."""
        o = self.observation(player)
        v = o["viewer"]
        tz.header(t, o, v, 2, PHASE_NAMES)
        t.counts("cycle", [o["cycle"]], 2 * o["cycle_cap"] * o["squads_total"])
        t.counts("battle", [o["battle"]], 2 * o["squads_total"])
        t.counts("battle_cycles", [o["battle_cycles"]], o["cycle_cap"] + 1)
        t.counts("squads", tz.rotate(o["squads"], v), o["squads_total"])
        for k, army in enumerate(tz.rotate(o["armies"], v)):
            t.bits(f"army{k}", [x in army for x in TROOPS])
        t.one_hot("cols", o["cols"] - 2, 2)
        for k, grid in enumerate(tz.rotate(o["grids"], v)):
            codes = [None if c is None else len(TROOPS) if c == "face down" else TROOPS.index(c["troop"]) for c in grid]
            tz.one_hots(t, f"grid{k}", codes, len(TROOPS) + 1)
            t.counts(f"grid{k}_wounds", [c["wounds"] if isinstance(c, dict) else 0 for c in grid], 2)
            t.bits(f"grid{k}_first_strike", [isinstance(c, dict) and c["first_strike"] for c in grid])
        t.bits("hand", [x in (o["hand"] or []) for x in TROOPS])
        t.counts("hand_sizes", tz.rotate(o["hand_sizes"], v), len(TROOPS))
        t.one_hot("deployer", tz.rel(o["deployer"], v, 2), 2)
        t.bits("revealed", [o["revealed"]])
        t.one_hot("step", o["step"], len(STEP_NAMES) + 1)
        t.one_hot("victor", tz.rel(o["victor"], v, 2), 2)
        t.one_hot("winner", tz.rel(o["winner"], v, 2), 2)
        t.bits("over", [o["over"]])

    def observation(self, player: int | None = None) -> dict[str, Any]:
        if player is not None and player not in (0, 1):
            raise ValueError(f"no seat {player!r} in Combat; seats are 0 and 1 (None: a spectator)")
        grids = []
        for p in (0, 1):
            row = []
            for s in range(6):
                t = self.grid[p][s]
                if t < 0:
                    row.append(None)
                elif self.revealed or p == player:
                    row.append(
                        {"troop": TROOPS[t], "wounds": self.wounds[p][s], "first_strike": self.first_strike[p][s]}
                    )
                else:
                    row.append("face down")
            grids.append(row)
        return {
            "viewer": player,
            "phase": self.phase,
            "to_move": self.current_player(),
            "cycle": self.cycle,
            "battle": self.battle,
            "battle_cycles": self.battle_cycles,
            "cycle_cap": self.game.cycle_cap,
            "squads": self.squads[:],
            "squads_total": self.game.squads,
            "armies": [[TROOPS[t] for t in a] for a in self.army],
            "cols": self.cols,
            "grids": grids,
            "hand": [TROOPS[t] for t in self.hand[player]] if player is not None else None,
            "hand_sizes": [len(h) for h in self.hand],
            "deployer": self.deployer,
            "revealed": self.revealed,
            "step": self.step,
            "report": self.events[self.report_start :],
            "victor": self.victor if self.victor >= 0 else None,
            "winner": self.winner if self.winner >= 0 else None,
            "over": self.over,
            "end_reason": self.end_reason,
        }

    def _seen(self, actor: int, entry: int | tuple[int | None, ...]) -> Seen | tuple[Seen | None, ...]:
        news = ""
        last = self.phase == "deploy" and len(self.hand[actor]) == 1 and not self.hand[1 - actor]
        if self.phase != "deploy" or last:  # a placement tells nothing more unless it starts the combat (§5a)
            after = self.clone()
            if isinstance(entry, int):
                after._apply(entry)
            else:
                after._apply_joint(list(entry))
            news = " ".join(after.events[len(self.events) :])
        if actor == SIMULTANEOUS:
            assert not isinstance(entry, int)
            parts: list[Seen | None] = [
                None if a is None else Seen(self._action_to_string(p, a)) for p, a in enumerate(entry)
            ]
            last = max(p for p, part in enumerate(parts) if part is not None)
            last_part = parts[last]
            assert last_part is not None
            parts[last] = Seen(f"{last_part.public}. {news}" if news else last_part.public)
            return tuple(parts)
        assert isinstance(entry, int)
        label = self._action_to_string(actor, entry)
        if self.phase == "deploy":  # §4f: the slot is public, the troop is its owner's secret
            troop, slot = divmod(entry - PLACE, 6)
            public = f"placed a troop face down at {SLOTS[slot]}"
            private = f"placed the {TROOPS[troop]} at {SLOTS[slot]}"
            if not news:
                return Seen(public, {actor: private})
            # §5a: the last placement turns every troop face up, so it pins every placement of the cycle
            pins = (*(i for placed in self.placed for i, _ in placed), len(self._history))
            return Seen(f"{public}. {news}", {actor: f"{private}. {news}"}, pins=pins)
        return Seen(f"{label}. {news}" if news else label)

    def resample(self, player: int | None, rng: random.Random) -> CombatState:
        """Redraw which of a commander's troops stand in the slots it has placed face down this cycle.

        Only a deployment under way hides anything (§4f): every earlier one was
        revealed (§5a). Each hidden commander's troops are dealt to its placed
        slots in a uniformly random order, the rest stay in its hand, and the
        placements in the history are rewritten to match (what the core's
        default resample draws, placement by placement).

        Kept, measured faster than the core's default (``bench/bench_resample.py combat``: 0.008-0.012 ms a call
        against the core's 1.3-1.8 ms, per viewer, 5 calls on each position of four seeded games; a random rollout from
        the same positions takes about 0.3 ms).
        """
        s = self.clone()
        if self.revealed or self.phase != "deploy":
            return s
        for o in (0, 1):
            if o == player or not self.placed[o]:
                continue
            troops = list(self.army[o])
            rng.shuffle(troops)
            for k, (index, slot) in enumerate(self.placed[o]):
                s.grid[o][slot] = troops[k]
                s._history[index] = PLACE + 6 * troops[k] + slot
            s.hand[o] = tuple(sorted(troops[len(self.placed[o]) :]))
        return s


# -- the phases ------------------------------------------------------------------------------


def _coin_label(s: CombatState, player: int, action: int) -> str | None:
    return f"{NAMES[action]} deploys first" if player == CHANCE and action in (0, 1) else None


def _deploy_legal(s: CombatState, p: int) -> list[int]:
    """§4b, §4c: any troop in hand, to any open slot."""
    slots = s.open_slots(p)
    return sorted(PLACE + 6 * t + slot for t in s.hand[p] for slot in slots)


def _deploy_explain(s: CombatState, p: int, action: int) -> str | None:
    if not PLACE <= action < GRANT:
        return said("troops are being deployed now: place one of yours in an open slot", "4")
    troop, slot = divmod(action - PLACE, 6)
    if troop not in s.hand[p]:
        return said(f"the {TROOPS[troop]} is not in your hand this cycle", "4d")
    if col_of(slot) >= s.cols:
        return said("only columns A and B are used while both commanders have four troops or fewer", "4a")
    if s.grid[p][slot] >= 0:
        return said(f"{SLOTS[slot]} is already taken", "4c")
    return said("the front row must be full before you use the back row", "4c")


def _joint_legal(choices: str) -> Callable[[CombatState, int], list[int]]:
    def legal(s: CombatState, p: int) -> list[int]:
        if choices == "grant":
            slots = s.grant_choices(p)
            return [GRANT + x for x in slots] if len(slots) > 1 else []
        if choices == "aim":
            return [AIM, AIM + 1] if s.aim_choice(p) else []
        if choices == "shield":
            slots = s.shield_choices(p)
            return sorted([SHIELD_AT + x for x in slots] + [KEEP]) if slots else []
        slots = s.heal_choices(p)
        return [HEAL + x for x in slots] if len(slots) > 1 else []

    return legal


def _explain_choice(s: CombatState, p: int, action: int) -> str | None:
    what = {
        "grant": said("your back-row Swordsman gives first strike to one adjacent troop of yours", "7a"),
        "aim": said("your front-row Archer shoots the front or the back enemy troop in its column", "6c"),
        "shield": said("your back-row Shieldbearer may cancel a wound to an adjacent troop of yours, or stay", "9b"),
        "heal": said("your Medic heals one adjacent wounded troop of yours", "10a"),
    }[s.phase]
    if not _joint_legal(s.phase)(s, p):
        return f"{NAMES[p]} has no choice to make now"
    return f"now {what}"


def _reinforce_legal(s: CombatState, p: int) -> list[int]:
    return [REINFORCE + t for t in s.reinforcements(p)] + [DECLINE] if p == s.victor else []


def _waiting(obs: dict[str, Any], what: str) -> str:
    return f"Cycle {obs['cycle']}: {what}."


def _deploy_prompt(game: Any, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    who = NAMES[obs["to_move"]]
    if legal:
        return (
            f"Cycle {obs['cycle']}: deploy a troop face down: pick it from your troops, then click a slot of your "
            "grid. The front row must be full before the back row."
        )
    return _waiting(obs, f"{who} is deploying a troop face down")


def _choice_prompt(kind: str) -> Callable[[Any, dict[str, Any], list[tuple[int, str]]], str]:
    def prompt(game: Any, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
        step = obs["step"]
        mine = {
            "grant": "Give first strike to a troop next to your back-row Swordsman.",
            "aim": f"Step {step} ({STEP_NAMES[step] if step <= 3 else ''}): aim your front-row Archer.",
            "shield": "Sacrifice your back-row Shieldbearer to cancel a wound next to it, or keep it.",
            "heal": "Recovery: choose the troop your Medic heals.",
        }[kind]
        if legal:
            return f"Cycle {obs['cycle']}: {mine} Both commanders choose at once."
        return _waiting(obs, "the other commander is choosing")

    return prompt


def _reinforce_prompt(game: Any, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    if legal:
        return "You routed the enemy squad: you may bring back one of your lost troops."
    return f"{NAMES[obs['victor']]} may bring back one of its lost troops."


def _over_prompt(game: Any, obs: dict[str, Any], legal: list[tuple[int, str]]) -> str:
    w = obs["winner"]
    if w is None:
        return f"Draw: {obs['end_reason']}."
    who = "You win" if w == obs["viewer"] else f"{NAMES[w]} wins"
    return f"{who}: {obs['end_reason']}."


PHASES = phase_table(
    Phase(
        "coin",
        CHANCE,
        outcomes=lambda s: [(0, 0.5), (1, 0.5)],  # §2a
        apply=CombatState._start,
        label=_coin_label,
        prompt=lambda game, obs, legal: "Chance decides who deploys first.",
    ),
    Phase(
        "deploy",
        lambda s: s.to_move,
        legal=_deploy_legal,
        apply=CombatState.place,
        explain=_deploy_explain,
        prompt=_deploy_prompt,
    ),
    *(
        Phase(
            kind,
            SIMULTANEOUS,
            legal=_joint_legal(kind),
            apply=apply,
            explain=_explain_choice,
            prompt=_choice_prompt(kind),
        )
        for kind, apply in (
            ("grant", CombatState.apply_grants),
            ("aim", CombatState.apply_aims),
            ("shield", CombatState.apply_shields),
            ("heal", CombatState.apply_heals),
        )
    ),
    Phase(
        "reinforce",
        lambda s: s.victor,
        legal=_reinforce_legal,
        apply=CombatState.apply_reinforce,
        explain=lambda s, p, a: said("choose one of your lost troop types, or no reinforcement", "13c"),
        prompt=_reinforce_prompt,
    ),
    Phase("over", TERMINAL, prompt=_over_prompt),
)
CombatState.phases = PHASES


# -- the scene ---------------------------------------------------------------------------------

CELL = 1.0
GAP = 0.5


def _cell_id(p: int, slot: int) -> str:
    return f"{NAMES[p].lower()}-{SLOTS[slot].replace(' ', '-')}"


def _troop_picture(t: int, unit: float | None = None) -> dict[str, Any]:
    """A troop's icon on a 1 x 1 grid: a shield, a sword, a spear, a bow and arrow, a red cross."""
    strokes: list[list[tuple[float, float]]] = []
    fills: list[list[tuple[float, float]]] = []
    if t == SHIELD:
        fills = [[(0.5, 0.08), (0.88, 0.22), (0.82, 0.58), (0.5, 0.92), (0.18, 0.58), (0.12, 0.22)]]
    elif t == SWORD:
        strokes = [[(0.22, 0.78), (0.8, 0.2)], [(0.3, 0.54), (0.46, 0.7)], [(0.12, 0.88), (0.24, 0.76)]]
    elif t == SPEAR:
        strokes = [[(0.14, 0.86), (0.68, 0.32)]]
        fills = [[(0.9, 0.1), (0.62, 0.24), (0.76, 0.38)]]
    elif t == ARCHER:
        bow = [
            (0.3 + 0.42 * math.cos(math.radians(a)), 0.5 + 0.42 * math.sin(math.radians(a))) for a in range(-75, 76, 15)
        ]
        strokes = [bow, [bow[0], bow[-1]], [(0.22, 0.5), (0.86, 0.5)], [(0.14, 0.4), (0.24, 0.5), (0.14, 0.6)]]
        fills = [[(0.94, 0.5), (0.8, 0.42), (0.8, 0.58)]]
    else:
        fills = [
            [
                (0.38, 0.14),
                (0.62, 0.14),
                (0.62, 0.38),
                (0.86, 0.38),
                (0.86, 0.62),
                (0.62, 0.62),
                (0.62, 0.86),
                (0.38, 0.86),
                (0.38, 0.62),
                (0.14, 0.62),
                (0.14, 0.38),
                (0.38, 0.38),
            ]
        ]
    return sc.picture((1, 1), strokes=strokes, fills=fills, colour="#C62828" if t == MEDIC else "#2b2823", unit=unit)


#: Pixels per unit of a troop card's picture (its icon).
TROOP_UNIT = 34


def _troop_card(id: str, name: str, owner: int | None = None) -> dict[str, Any]:
    t = TROOPS.index(name)
    front, back = EFFECTS[t]
    return sc.item(
        id, name, detail=f"{front} {back}", value=SHORT[t], owner=owner, picture=_troop_picture(t, TROOP_UNIT)
    )


@CombatGame.draws_scene
def _scene(game: CombatGame, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    viewer = obs["viewer"]
    prompt = PHASES[obs["phase"]].prompt(None, obs, legal)  # type: ignore[misc]
    bottom = viewer if viewer is not None else 0
    top = 1 - bottom
    # room on the left for the rows' names, above and below for the grids' owners
    s = sc.new_scene(prompt, (-1.25, -0.45, 3 * CELL + 1.45, 4 * CELL + GAP + 0.9))
    # The top grid shows its back row at the top, so the two front rows face each other (§1b).
    ys = {(top, BACK): 0.0, (top, FRONT): CELL, (bottom, FRONT): 2 * CELL + GAP, (bottom, BACK): 3 * CELL + GAP}
    for p in (top, bottom):
        for slot in range(6):
            x, y = col_of(slot) * CELL, ys[(p, row_of(slot))]
            used = col_of(slot) < obs["cols"]
            poly = [(x, y), (x + CELL, y), (x + CELL, y + CELL), (x, y + CELL)]
            fill = ("light" if p == bottom else "neutral") if used else "blocked"
            s["cells"].append(
                sc.cell(
                    _cell_id(p, slot),
                    (x + CELL / 2, y + CELL / 2),
                    poly,
                    fill=fill,
                )
            )
            t = obs["grids"][p][slot]
            if t is None:
                continue
            if t == "face down":
                s["pieces"].append(sc.piece(_cell_id(p, slot), p, "troop", face_down=True, shape="square"))
                continue
            wounded = t["wounds"] > 0
            label = SHORT[TROOPS.index(t["troop"])] + ("*" if t["first_strike"] else "")
            s["pieces"].append(
                sc.piece(
                    _cell_id(p, slot), p, t["troop"], label=label, shape="square", facing=90.0 if wounded else None
                )
            )
            if wounded:
                s["highlights"].append({"at": _cell_id(p, slot), "kind": "warning"})
    # whose grid, which row is the front (the two front rows face each other across the gap), the columns
    s["captions"] = []
    for p in (top, bottom):
        whose = f"Your troops ({NAMES[p]})" if p == viewer else f"{NAMES[p]}'s troops"
        y = -0.22 if p == top else 4 * CELL + GAP + 0.22
        s["captions"].append(sc.caption((1.5 * CELL, y), whose, size=0.22))
        for row in (FRONT, BACK):
            y = ys[(p, row)] + CELL / 2
            s["captions"].append(sc.caption((-0.08, y), "front" if row == FRONT else "back", size=0.2, anchor="end"))
    for c in range(3):
        s["captions"].append(sc.caption(((c + 0.5) * CELL, 2 * CELL + GAP / 2), COLUMNS[c], size=0.2))
    for a, label in legal:
        seg, idx = ACTIONS.decode(a)
        if seg == "place":  # two clicks: the troop's card, then the slot
            t = {"at": _cell_id(viewer, idx[1]), "action": a, "label": label, "with": f"hand-{TROOPS[idx[0]]}"}
            s["targets"].append(t)
        elif seg in ("grant", "shield", "heal"):
            s["targets"].append({"at": _cell_id(viewer, idx[0]), "action": a, "label": label})
        elif seg == "aim":
            archer = next(
                (
                    k
                    for k in range(3)
                    if isinstance(obs["grids"][viewer][k], dict) and obs["grids"][viewer][k]["troop"] == "Archer"
                ),
                -1,
            )
            if archer >= 0:
                s["targets"].append({"at": _cell_id(1 - viewer, archer + 3 * idx[0]), "action": a, "label": label})
    for p in (bottom, top):  # your troops to deploy first, nearest the board
        if obs["revealed"] or obs["over"]:
            continue
        if p == viewer:
            items = [_troop_card(f"hand-{TROOPS[t]}", TROOPS[t], p) for t in range(5) if TROOPS[t] in obs["hand"]]
            title = "Your troops to deploy: pick one, then click its slot"
        else:
            items = [sc.item(f"hand{p}-{k}", "a troop", face_down=True) for k in range(obs["hand_sizes"][p])]
            title = f"{NAMES[p]}'s troops to deploy"
        s["zones"].append(sc.zone(f"hand{p}", title, items, owner=p))
    s["zones"].append(sc.zone("troops", "The troops (front row / back row)", [dict(i) for i in _LEGEND]))
    status = [
        f"Cycle {obs['cycle']} (battle cycle {obs['battle_cycles'] + (0 if obs['over'] else 1)} of at most {obs['cycle_cap']})"
    ]
    if obs["squads_total"] > 1:
        status.append(f"Squads left: {NAMES[0]} {obs['squads'][0]}, {NAMES[1]} {obs['squads'][1]}")
    status += [f"{NAMES[p]}'s army: {', '.join(obs['armies'][p]) or 'none'}" for p in (0, 1)]
    if obs["report"]:
        status.append("Combat: " + " ".join(obs["report"]))
    s["status"] = status
    s["players"] = [
        sc.player(p, NAMES[p] + (" (you)" if p == viewer else ""), f"{len(obs['armies'][p])} troops") for p in (0, 1)
    ]
    return sc.finish_scene(s, legal)


_LEGEND = tuple(_troop_card(f"legend-{name}", name) for name in TROOPS)

CombatGame.state_class = CombatState
PHASE_NAMES = tuple(PHASES)

GAME_CLASS = CombatGame
