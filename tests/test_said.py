"""Players' words carry the rules' clauses and the seats they name as structure, never in the words: no game's
explanation, log line, prompt or scene text says "§" or "seat 1" before the table names the seats
(``core.wording.for_players``); an explanation that cites the rules keeps its clauses beside its words (``Said``) for
developers and tests (``with_refs``). Parametrised over the registry, so a game added later is checked too."""

from __future__ import annotations

import json
import pickle
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

import boardlab
from boardlab.core.constants import CHANCE, SIMULTANEOUS
from boardlab.core.errors import IllegalActionError
from boardlab.core.wording import SEAT_CLOSE, SEAT_OPEN, Said, clauses_of, for_players, said, seat, with_refs

GAMES = boardlab.games()
#: What a game must not put in players' words: a clause sign, a seat by its number.
SLIP = re.compile(r"§|\b[Ss]eat \d")
#: Scene fields that are words for players (a players list's ``name`` is the server's seat label: it is replaced).
WORDS = ("prompt", "title", "label", "text", "detail", "status", "caption", "message", "legend")


def test_said_keeps_words_and_clauses_apart() -> None:
    why = said("towers may not touch", "4a", "§6b-iii")
    assert why == "towers may not touch" and isinstance(why, str) and why.clauses == ("4a", "6b-iii")
    assert with_refs(why) == "towers may not touch (§4a, §6b-iii)"
    assert with_refs(said("x", "4.2-4.4", "option move")) == "x (§4.2-§4.4, option move)"
    assert pickle.loads(pickle.dumps(why)).clauses == why.clauses  # states are copied and pickled
    assert f"{why}!" == "towers may not touch!" and clauses_of(why, "plain", said("y", "4a", "5")) == (
        "4a",
        "6b-iii",
        "5",
    )
    with pytest.raises(ValueError, match="clause"):
        said("towers may not touch (§4a)")


def test_a_seat_is_named_at_the_table() -> None:
    text = f"{seat(0)} drew a card; {seat(1)} wins"
    assert text.count(SEAT_OPEN) == text.count(SEAT_CLOSE) == 2
    assert for_players(text, ["Ann", "Bo"]) == "Ann drew a card; Bo wins"
    assert for_players(text, ["Ann", None]) == "Ann drew a card; Player 2 wins"
    assert for_players(text) == "Player 1 drew a card; Player 2 wins"


def test_an_illegal_move_error_gives_the_clauses_to_developers() -> None:
    e = IllegalActionError(said("the deck is empty: play your last card", "6"))
    assert str(e) == "the deck is empty: play your last card (§6)"
    assert e.explanation == "the deck is empty: play your last card" and e.explanation.clauses == ("6",)


def _strings(x: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """The scene's words for players, with the key they stand under."""
    if isinstance(x, str):
        if key in WORDS:
            yield key, x
    elif isinstance(x, dict):
        for k, v in x.items():
            if not (k == "name" and "seat" in x):  # a players list's seat label
                yield from _strings(v, str(k) if isinstance(v, str) or k in WORDS else key)
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from _strings(v, key)


def _texts(s: boardlab.State, rng: random.Random, whole_log: bool) -> Iterator[tuple[str, str]]:
    """What the state says to players now: explanations of a sample of moves, each seat's log (its last lines, or
    all of it), the scenes."""
    cp = s.current_player()
    n = s.game.num_distinct_actions()
    seats = list(range(s.num_players)) if cp == SIMULTANEOUS else [cp] if cp >= 0 else []
    for p in seats:
        for a in rng.sample(range(n), min(n, 12)) + s.legal_actions(p)[:3]:
            yield "explain_illegal", s.explain_illegal(p, a)
    for viewer in [None, *range(s.num_players)]:
        for line in s.move_log(viewer)[0 if whole_log else -3 :]:
            for t in [line.get("text"), *(line.get("parts") or [])]:
                if isinstance(t, str):
                    yield "log", t
        yield from _strings(s.scene(viewer))


@pytest.mark.parametrize("game_id", GAMES)
def test_no_clause_sign_nor_seat_number_in_players_words(game_id: str) -> None:
    rng = random.Random(7)
    slips: dict[str, str] = {}
    cited = 0
    for seed in (1, 2):
        s = boardlab.make(game_id).new_initial_state()
        r = random.Random(seed)
        for step in range(400):
            if step % 7 == 0 or s.is_terminal() or step == 399:
                for where, text in _texts(s, rng, whole_log=s.is_terminal() or step in (21, 399)):
                    cited += isinstance(text, Said) and bool(text.clauses)
                    if SLIP.search(text):
                        slips.setdefault(text, where)
            if s.is_terminal():
                break
            cp = s.current_player()
            if cp == CHANCE:
                s.apply_action(r.choice([a for a, _ in s.chance_outcomes()]))
            elif cp == SIMULTANEOUS:
                s.apply_actions(
                    [r.choice(s.legal_actions(p)) if s.legal_actions(p) else None for p in range(s.num_players)]
                )
            else:
                s.apply_action(r.choice(s.legal_actions()))
    meta = json.dumps(boardlab.make(game_id).metadata(), ensure_ascii=False)  # what the lobby shows of the game
    for text in re.findall(r'"((?:[^"\\]|\\.)*)"', meta):
        if SLIP.search(text):
            slips.setdefault(text, "metadata")
    assert not slips, f"{game_id}: {list(slips.items())[:6]}"
    assert cited or game_id == "hamlet", f"{game_id}: no explanation cites the rules (a Said with clauses)"
