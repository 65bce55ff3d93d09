"""Records written before Core v2 (commit 597800e, every game, every option value) still replay, to the same end.

Core v2 kept every game's action numbers and rules, so these records load and replay with no rules-version
bump: every step is legal, each step offers the same number of legal actions as it did then, and the game ends
with the same returns. The records were made by random play (``tests/data/records-before-core-v2/``).
Games added since keep records the same way (``tests/data/records-since-core-v2/``), so a later change that
breaks them is caught too.
"""

from __future__ import annotations

import json
import pathlib

import pytest

from boardlab.core.constants import SIMULTANEOUS
from boardlab.core.driver import apply_entry
from boardlab.core.record import GameRecord

DATA = pathlib.Path(__file__).parent / "data"
#: Records written by earlier commits: before Core v2 (every game then), and of games added since.
RECORDS = sorted(DATA.glob("records-before-core-v2/*.json")) + sorted(DATA.glob("records-since-core-v2/*.json"))


#: The games registered before Core v2: each has old records. A game added later cannot have any.
GAMES_BEFORE_CORE_V2 = frozenset(
    ("ant-trails", "blast-radius", "chevrons", "dragon-fight", "hamlet", "new-rule", "posies", "radius", "trivalent")
)


#: The games registered before Core v2: each has old records. A game added later cannot have any.
GAMES_BEFORE_CORE_V2 = frozenset(
    ("ant-trails", "blast-radius", "chevrons", "dragon-fight", "hamlet", "new-rule", "posies", "radius", "trivalent")
)


def test_there_is_an_old_record_for_every_game() -> None:
    import boardlab

    have = {json.loads(p.read_text())["game"] for p in RECORDS}
    assert set(boardlab.games()) >= GAMES_BEFORE_CORE_V2
    assert have >= GAMES_BEFORE_CORE_V2


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_an_old_record_replays_to_the_same_end(path: pathlib.Path) -> None:
    rec = GameRecord.from_json(path.read_text())
    state = rec.replay(upto=0)
    n = state.num_players
    for entry, count in zip(rec.history, rec.meta["legal_counts"]):
        cp = state.current_player()
        now = [len(state.legal_actions(p)) for p in range(n)] if cp == SIMULTANEOUS else len(state.legal_actions(cp))
        assert now == count
        apply_entry(state, entry)
    assert state.history() == rec.history
    assert rec.result is not None and state.is_terminal()
    assert state.returns() == rec.result["returns"]
    again = rec.replay()
    assert again.history() == rec.history and again.returns() == state.returns()
