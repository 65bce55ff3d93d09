"""Scenario tests for Triad; clause numbers (§n) refer to docs/rules/triad.md."""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest

from boardlab.cli.render import scene_text
from boardlab.core.constants import CHANCE
from boardlab.core.errors import IllegalActionError
from boardlab.core.scene import check_scene
from boardlab.games import triad as tr
from boardlab.games.triad import PAIRS, UNITS, TriadGame, TriadState, arrangements
from state_checks import random_step

ORANGE, BLUE = 0, 1


def pair(a: str, b: str) -> int:
    return PAIRS.index(tuple(sorted((UNITS.index(a), UNITS.index(b)))))


def act(s: TriadState, label: str) -> None:
    s.apply_action(s.string_to_action(None, label))


def start(
    orange: str,
    blue: str,
    o_ammo: tuple[str, str] = ("ICBM", "Aircraft"),
    b_ammo: tuple[str, str] = ("ICBM", "Aircraft"),
    o_split: str = "1 left, 1 right",
    b_split: str = "1 left, 1 right",
    **options: Any,
) -> TriadState:
    """Both sides set up (§3), Orange to move first; ``orange`` lists the units on a1..e1."""
    options.setdefault("first", "orange")
    s = TriadGame(**options).new_initial_state()
    assert isinstance(s, TriadState)
    s.apply_action(pair(*o_ammo))
    s.apply_action(pair(*b_ammo))
    act(s, f"ammo {o_split}")
    act(s, f"deploy {orange}")
    act(s, f"ammo {b_split}")
    act(s, f"deploy {blue}")
    return s


ORANGE_LINE = "Spy, Submarine, ICBM, Aircraft, ICBM"  # with Aircraft and Fleet drawn as ammunition
BLUE_LINE = "Spy, Submarine, Aircraft, Fleet, ICBM"  # with ICBM and Aircraft drawn


def basic() -> TriadState:
    return start(ORANGE_LINE, BLUE_LINE, o_ammo=("Aircraft", "Fleet"))


def test_ammunition_draw_is_chance_and_private() -> None:
    """§1c, §3a, §2a: two of seven units are drawn by chance; only their owner sees which."""
    s = TriadGame().new_initial_state()
    assert s.current_player() == CHANCE
    outcomes = dict(s.chance_outcomes())
    assert abs(sum(outcomes.values()) - 1) < 1e-12
    assert outcomes[pair("ICBM", "ICBM")] == pytest.approx(1 / 21)
    assert outcomes[pair("ICBM", "Spy")] == pytest.approx(2 / 21)
    assert pair("Spy", "Spy") not in outcomes  # only one Spy
    s.apply_action(pair("ICBM", "Spy"))
    assert s.move_log(ORANGE)[-1]["text"] == "Orange draws ICBM and Spy as ammunition"
    assert s.move_log(BLUE)[-1]["text"] == "Orange draws two units as ammunition"
    assert s.observation(ORANGE)["hand"] == ["ICBM", "Aircraft", "Aircraft", "Submarine", "Fleet"]
    assert s.observation(BLUE)["hand"] == []


def test_other_mix_option() -> None:
    """§1c, option mix: two Submarines and one Aircraft."""
    s = TriadGame(mix="I2S2A1F1P1").new_initial_state()
    assert pair("Submarine", "Submarine") in dict(s.chance_outcomes())
    assert pair("Aircraft", "Aircraft") not in dict(s.chance_outcomes())


def test_setup_split_and_hidden_deployment() -> None:
    """§3b, §3c, §2b: the split is public; the home row takes the five units left, face down to the opponent."""
    s = TriadGame(first="orange").new_initial_state()
    s.apply_action(pair("Aircraft", "Fleet"))
    s.apply_action(pair("ICBM", "Aircraft"))
    act(s, "ammo 2 left, 0 right")
    assert s.observation(BLUE)["ammo"] == {"b1": 2, "d1": 0, "b5": 0, "d5": 0}
    legal = s.legal_actions()
    assert len(legal) == len(arrangements(s.hand[ORANGE])) == 60  # ICBM ICBM Aircraft Submarine Spy
    with pytest.raises(IllegalActionError, match="five units you hold"):
        s.apply_action(s.game.action_space.encode("deploy", 3, 3, 3, 3, 3))
    act(s, f"deploy {ORANGE_LINE}")
    assert s.move_log(BLUE)[-1]["text"] == "places its units face down"
    view = s.observation(BLUE)["units"]
    assert [u["at"] for u in view] == ["a1", "b1", "c1", "d1", "e1"] and all(u["unit"] is None for u in view)
    assert [u["unit"] for u in s.observation(ORANGE)["units"]] == ORANGE_LINE.split(", ")
    rng = random.Random(1)
    kinds = {tuple(u[1] for u in s.resample(BLUE, rng).units) for _ in range(30)}
    assert len(kinds) > 5  # the AI's redraws place Orange's units anew


def test_icbm_moves_two_rows_forward_and_is_then_forced() -> None:
    """§5a, §4b: an ICBM goes two rows forward, straight or diagonally; once launched it must keep moving."""
    s = basic()
    moves = {lab for _, lab in s.legal_moves() if lab.startswith("move c1")}
    assert moves == {f"move c1 to {c}3" for c in "abcde"}
    act(s, "move c1 to c3")
    act(s, "move d5 to d4")  # Blue's Fleet
    labels = [lab for _, lab in s.legal_moves()]
    assert labels and all(lab.startswith("move c3 to") for lab in labels)
    with pytest.raises(IllegalActionError, match="launched ICBM must be moved"):
        s.apply_action(s.game.action_space.encode("flip", 1))  # the Submarine at b1 could flip otherwise


def test_worked_example_detonation_on_a_defence_centre() -> None:
    """§5a, §9b, §11 worked example: an ICBM detonates on an empty Defence Centre, scores 1 and stays, spent."""
    s = basic()
    act(s, "move e1 to e3")
    act(s, "move d5 to d4")  # Blue's Fleet leaves its Defence Centre
    act(s, "move e3 to d5")
    assert s.score == [1, 0]
    assert "d5" not in s.observation(BLUE)["intact"] and s.observation(BLUE)["ammo"]["d5"] == 0
    spent = next(u for u in s.observation(BLUE)["units"] if u["at"] == "d5")
    assert spent["unit"] == "ICBM" and spent["spent"]
    text = s.move_log(BLUE)[-1]["text"]
    assert "Orange's ICBM from e3 detonates at d5" in text and "(1 point)" in text
    assert "move d5 to" not in {lab for _, lab in s.legal_moves(BLUE)}


def test_worked_example_aircraft_shoots_down_an_icbm() -> None:
    """§6c worked example: an ICBM entering an Aircraft's square is shot down; the Capitol survives."""
    s = basic()
    act(s, "move c1 to c3")
    act(s, "move d5 to d4")
    act(s, "move c3 to c5")
    assert "Blue's Aircraft there shoots it down" in s.move_log(ORANGE)[-1]["text"]
    assert "c5" in s.observation(ORANGE)["intact"] and s.score == [0, 0]
    assert next(u for u in s.observation(ORANGE)["units"] if u["at"] == "c5")["unit"] == "Aircraft"  # revealed


def test_fleet_destroys_an_aircraft_that_attacks_it_and_a_defence_centre() -> None:
    """§6b, §6a, §9b: an Aircraft moving onto a Fleet is destroyed; a Fleet taking a Defence Centre scores 1."""
    s = basic()
    for blue in ("move d5 to d4", "move d4 to d3", "move d3 to d2"):
        act(s, "flip the submarine at b1")
        act(s, blue)
    act(s, "move d1 to c2")  # Orange's Aircraft steps aside
    act(s, "move d2 to d1")  # Blue's Fleet enters the empty Defence Centre
    assert s.score == [0, 1] and "d1" not in s.observation(ORANGE)["intact"]
    t = basic()
    for blue in ("move d5 to d4", "move d4 to d3", "move d3 to d2"):
        act(t, "flip the submarine at b1")
        act(t, blue)
    act(t, "move d1 to c2")
    act(t, "move d2 to c2")  # the Fleet attacks the Aircraft: it destroys it (§6a)
    assert "Blue's Fleet from d2 meets Orange's Aircraft at c2 and destroys it" in t.move_log(ORANGE)[-1]["text"]
    u = basic()
    for blue in ("move d5 to d4", "move d4 to d3", "move d3 to d2"):
        act(u, "flip the submarine at b1")
        act(u, blue)
    act(u, "move d1 to e2")
    act(u, "move b5 to b4")  # Blue's Submarine
    act(u, "move e2 to d3")
    act(u, "move b4 to b3")
    act(u, "move d3 to c2")
    act(u, "move d2 to d3")
    act(u, "move c2 to d3")  # an Aircraft cannot destroy a Fleet; the Fleet destroys it (§6b)
    assert "meets Blue's Fleet at d3 and is destroyed" in u.move_log(BLUE)[-1]["text"]


def test_spy_probe_defender_chooses_to_pay() -> None:
    """§7d, §7c: a Spy probing an Aircraft reveals it; the Aircraft's owner may pay one ammunition to destroy it."""
    for choice in ("pay an ammunition to destroy the Spy", "let the Spy go"):
        s = start(ORANGE_LINE, "Aircraft, Submarine, Spy, Fleet, ICBM", o_ammo=("Aircraft", "Fleet"))
        act(s, "move a1 to a5")  # Orange's Spy slides up the a file to Blue's Aircraft
        assert s.phase == "probe" and s.current_player() == BLUE
        assert s.observation(ORANGE)["units"][5]["unit"] == "Aircraft"
        act(s, choice)
        spy = [u for u in s.observation(BLUE)["units"] if u["owner"] == ORANGE and u["unit"] == "Spy"]
        if choice.startswith("pay"):
            assert spy == [] and s.observation(None)["ammo"]["b5"] + s.observation(None)["ammo"]["d5"] == 1
        else:
            assert spy[0]["at"] == "a1"
        assert s.current_player() == BLUE  # the probe was Orange's turn; now Blue's


def test_defence_centre_fire() -> None:
    """§8: a Defence Centre spends one ammunition to destroy an adjacent enemy unit."""
    s = basic()
    for blue in ("move d5 to d4", "move d4 to d3", "move d3 to d2"):
        act(s, "flip the submarine at b1")
        act(s, blue)
    act(s, "defence centre d1 fires at d2")
    assert "Orange's Defence Centre at d1 fires at d2 and destroys Blue's Fleet" in s.move_log(BLUE)[-1]["text"]
    assert s.observation(BLUE)["ammo"]["d1"] == 0


def test_defence_centre_shots_do_not_tell_a_submerged_submarine() -> None:
    """§8, §2b: two worlds Orange cannot tell apart, a submerged Submarine or a Spy face down on b2 beside Orange's
    Defence Centre b1, offer Orange the same moves: the shot is legal in both. At the Submarine it reveals it and
    misses, the ammunition spent; at the Spy it destroys it. Reproduction: the old rules refused the shot at the
    Submarine, so Orange had 16 legal moves in one world and 17 in the other."""
    worlds = {
        "Submarine": start(ORANGE_LINE, "Spy, Submarine, Aircraft, Fleet, ICBM", o_ammo=("Aircraft", "Fleet")),
        "Spy": start(ORANGE_LINE, "Submarine, Spy, Aircraft, Fleet, ICBM", o_ammo=("Aircraft", "Fleet")),
    }
    for s in worlds.values():
        for blue in ("move b5 to b4", "move b4 to b3", "move b3 to b2"):
            act(s, "flip the submarine at b1")
            act(s, blue)
    sub, spy = worlds["Submarine"], worlds["Spy"]
    assert sub.observation(ORANGE) == spy.observation(ORANGE)
    assert sub.move_log(ORANGE, reveal=False) == spy.move_log(ORANGE, reveal=False)
    assert sub.legal_actions(ORANGE) == spy.legal_actions(ORANGE)
    assert "defence centre b1 fires at b2" in [label for _, label in sub.legal_moves(ORANGE)]
    for kind, s in worlds.items():
        act(s, "defence centre b1 fires at b2")
        assert s.observation(BLUE)["ammo"]["b1"] == 0
        b2 = [u for u in s.observation(ORANGE)["units"] if u["at"] == "b2"]
        if kind == "Submarine":  # revealed, still there, still submerged
            assert b2 == [{**b2[0], "unit": "Submarine", "surfaced": False, "known": True}]
            assert s.move_log(ORANGE)[-1]["text"].endswith(
                "Orange's Defence Centre at b1 fires at b2: Blue's Submarine there is submerged and cannot be hit; "
                "the shot misses."
            )
        else:
            assert b2 == [] and "Spy" in s.observation(ORANGE)["lost"][BLUE]


def test_submarine_surfaces_and_attacks() -> None:
    """§4c, §7b, §5d: a surfaced Submarine is revealed, does not move, and destroys an adjacent Fleet."""
    s = basic()
    act(s, "flip the submarine at b1")
    assert s.observation(BLUE)["units"][1]["unit"] == "Submarine"
    assert not [lab for _, lab in s.legal_moves() if lab.startswith("move b1")]
    for blue, orange in (
        ("move d5 to d4", "move a1 to a2"),
        ("move d4 to d3", "move a2 to a1"),
        ("move d3 to c3", "move a1 to a2"),
    ):
        act(s, blue)
        act(s, orange)  # Orange's Spy waits
    act(s, "move c3 to c2")
    act(s, "submarine b1 fires at c2")
    assert "Orange's Submarine at b1 fires at c2 and destroys Blue's Fleet" in s.move_log(BLUE)[-1]["text"]


def test_illegal_move_is_explained_and_changes_nothing() -> None:
    """§5c: a Fleet moves along rows and columns only; the refusal names the rule."""
    s = basic()
    before = s.history()
    with pytest.raises(IllegalActionError, match=r"your ICBM cannot move to e2 \(§5\)"):
        s.apply_action(s.game.action_space.encode("move", 4, 9))  # e1 to e2: an ICBM makes two steps
    assert s.history() == before


def test_random_games_end_scored_and_draw() -> None:
    """§10, §11: random games end; the higher score wins, equal scores draw; views are drawn."""
    game = TriadGame()
    for seed in range(25):
        s = game.new_initial_state()
        rng = random.Random(seed)
        while not s.is_terminal():
            random_step(s, rng)
            assert s.move_number() <= game.max_game_length()
        a, b = s.score
        assert s.returns() == ([1.0, -1.0] if a > b else [-1.0, 1.0] if b > a else [0.0, 0.0])
        if seed < 3:
            for p in (0, 1, None):
                legal = s.legal_moves(p) if p is not None else []
                assert check_scene(s.scene(p), legal) == []
    s = basic()
    scene = s.scene(BLUE)
    downs = [p for p in scene["pieces"] if p["face_down"]]
    assert len(downs) == 5 and all(p["owner"] == ORANGE for p in downs)
    assert "Waiting for Orange." in scene_text(scene, [lab for _, lab in s.legal_moves(BLUE)])  # not its turn


def random_game(seed: int, moves: int, **options: Any) -> TriadState:
    """The first ``moves`` entries of a random game (``random_step`` with ``random.Random(seed)``)."""
    s = TriadGame(**options).new_initial_state()
    assert isinstance(s, TriadState)
    rng = random.Random(seed)
    while s.move_number() < moves and not s.is_terminal():
        random_step(s, rng)
    return s


def test_resample_keeps_the_seats_legal_moves() -> None:
    """§8, §2b: a resampled world keeps the seat's legal moves. Reproduction (rules version 1, when a Defence Centre
    could not fire at a submerged Submarine): seed 0, move 40, Blue to move may fire 'defence centre d5 fires at d4';
    the old resample redealt a submerged Submarine onto d4 (and at seed 38 it moved one off d2 for Orange, making an
    illegal shot legal)."""
    s = random_game(0, 40)
    assert s.current_player() == BLUE
    assert "defence centre d5 fires at d4" in [label for _, label in s.legal_moves(BLUE)]
    for k in range(20):
        r = s.resample(BLUE, random.Random(k))
        assert r.legal_actions(BLUE) == s.legal_actions(BLUE)
        assert r.observation(BLUE) == s.observation(BLUE)
    for seed in (0, 12, 38, 40, 54, 58):  # the seeds where the old resample changed a seat's legal moves
        s = TriadGame().new_initial_state()
        rng = random.Random(seed)
        while not s.is_terminal():
            p = s.current_player()
            if p in (ORANGE, BLUE) and s.phase == "turn":
                r = s.resample(p, random.Random(s.move_number()))
                assert r.legal_actions(p) == s.legal_actions(p), (seed, s.move_number())
            random_step(s, rng)


def test_spectator_resample_redeals_both_sides_without_the_core_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """§2: a spectator saw neither deployment. Reproduction: option first='orange', seed 4, moves 20 and 24: the old
    joint redeal of both sides found nothing in 300 tries and fell back to the core's search, which at move 24 gave
    up ('found no position consistent with what spectator saw within 200000 tries', after about three minutes)."""

    def no_core(*args: Any, **kwargs: Any) -> TriadState:
        raise AssertionError("fell back to the core's resample")

    monkeypatch.setattr(sys.modules[TriadState.__module__], "core_resample", no_core)
    for seed, moves in ((4, 20), (4, 24)):
        s = random_game(seed, moves, first="orange")
        for k in range(5):
            r = s.resample(None, random.Random(k))
            assert r.observation(None) == s.observation(None)
            assert r.move_log(None, reveal=False) == s.move_log(None, reveal=False)
    for seed in range(6):  # and throughout a few whole games
        s = TriadGame(first="orange").new_initial_state()
        rng = random.Random(seed)
        while not s.is_terminal():
            if s.move_number() % 6 == 0 and s.phase == "turn":
                r = s.resample(None, random.Random(seed))
                assert r.observation(None) == s.observation(None), (seed, s.move_number())
            random_step(s, rng)


def test_games_recorded_under_rules_version_1_replay_unchanged() -> None:
    """Version 2 only allows a shot version 1 refused, so a version-1 record replays to the same end (§8).

    The hard self-play samples in docs/balance were recorded under version 1."""
    import pathlib

    from boardlab.core.record import GameRecord

    samples = sorted((pathlib.Path(__file__).parents[2] / "docs/balance/samples").glob("triad.hard-*.json"))
    assert samples
    for path in samples:
        rec = GameRecord.from_json(path.read_text())
        assert rec.rules_version == "1"
        state = rec.replay()
        assert state.is_terminal() and state.history() == rec.history
    rec.rules_version = "0"
    with pytest.raises(ValueError, match="rules version 0"):
        rec.replay()


# -- the turn's legal list against the square-by-square rules ----------------------------------------------------


def ref_step(sq: int, dr: int, dc: int) -> int:
    r, c = divmod(sq, 5)
    r, c = r + dr, c + dc
    return r * 5 + c if 0 <= r < 5 and 0 <= c < 5 else -1


def ref_unit_moves(s: TriadState, i: int) -> list[int]:
    """§5 as first written: every step computed with divmod, every square asked through the state's helpers."""
    u = s.units[i]
    if u[tr.SQ] < 0 or u[tr.SPENT]:
        return []
    p, k, sq = u[tr.OWNER], u[tr.KIND], u[tr.SQ]
    out: list[int] = []
    if k == tr.ICBM:
        f = tr.forward(p)
        seen: set[int] = set()
        for d1 in (-1, 0, 1):
            q1 = ref_step(sq, f, d1)
            if q1 < 0 or s.blocked(q1, p):
                continue
            if s.unit_at(q1) is not None or s.enemy_structure(q1, p):
                seen.add(q1)
                continue
            for d2 in (-1, 0, 1):
                q2 = ref_step(q1, f, d2)
                if q2 >= 0 and not s.blocked(q2, p):
                    seen.add(q2)
        out = sorted(seen)
    elif k in (tr.AIRCRAFT, tr.FLEET):
        for dr, dc in tr.DIAG if k == tr.AIRCRAFT else tr.ORTHO:
            q = ref_step(sq, dr, dc)
            if q >= 0 and not s.blocked(q, p):
                out.append(q)
    elif k == tr.SUB:
        if not u[tr.SURFACED]:
            for dr, dc in tr.DIRS8:
                q = ref_step(sq, dr, dc)
                if q >= 0 and s.at[q] < 0:
                    out.append(q)
    else:
        for dr, dc in tr.DIRS8:
            q = ref_step(sq, dr, dc)
            while q >= 0 and not s.blocked(q, p):
                out.append(q)
                if s.at[q] >= 0 or s.enemy_structure(q, p):
                    break
                q = ref_step(q, dr, dc)
    return sorted(out)


def ref_turn_actions(s: TriadState, p: int) -> list[int]:
    """§4, §7b, §8 as first written."""
    units = s.units
    launched = [
        i
        for i, u in enumerate(units)
        if u[tr.OWNER] == p and u[tr.KIND] == tr.ICBM and u[tr.LAUNCHED] and u[tr.SQ] >= 0
    ]
    out: list[int] = []
    if launched:
        for i in launched:
            out += [tr.MOVE + 25 * units[i][tr.SQ] + q for q in ref_unit_moves(s, i)]
        if out:
            return sorted(out)
    for i, u in enumerate(units):
        if u[tr.OWNER] != p or u[tr.SQ] < 0 or u[tr.SPENT]:
            continue
        sq = u[tr.SQ]
        out += [tr.MOVE + 25 * sq + q for q in ref_unit_moves(s, i)]
        if u[tr.KIND] == tr.SUB:
            out.append(tr.FLIP + sq)
            if u[tr.SURFACED]:
                for dr, dc in tr.DIRS8:
                    q = ref_step(sq, dr, dc)
                    if q < 0:
                        continue
                    v = s.unit_at(q)
                    if (v is not None and v[tr.OWNER] != p and not v[tr.SPENT]) or (
                        v is None and s.enemy_structure(q, p)
                    ):
                        out.append(tr.ATTACK + 25 * sq + q)
    for d in tr.DC_SQUARES[p]:
        if not s.intact[d] or s.ammo[d] <= 0:
            continue
        for dr, dc in tr.DIRS8:
            q = ref_step(d, dr, dc)
            v = s.unit_at(q) if q >= 0 else None
            if v is not None and v[tr.OWNER] != p and not v[tr.SPENT]:
                out.append(tr.FIRE + 25 * d + q)
    return sorted(out) if out else [tr.PASS]


def test_turn_lists_match_the_square_by_square_rules() -> None:
    turns = 0
    for seed in range(60):
        s = TriadGame(**({"mix": "I2S2A1F1P1"} if seed % 2 else {})).new_initial_state()  # two Submarines
        assert isinstance(s, TriadState)
        rng = random.Random(seed)
        while not s.is_terminal():
            if s.phase == "turn":
                p = s.current_player()
                assert s.legal_actions() == ref_turn_actions(s, p), (seed, s.move_number())
                assert all(s.unit_moves(i) == ref_unit_moves(s, i) for i in range(len(s.units)))
                turns += 1
            random_step(s, rng)
    assert turns > 4000


def test_the_log_words_each_move_and_the_notation_stays() -> None:
    """The log tells a move as a sentence; the typed notation (the label) is unchanged."""
    from boardlab.games.triad import ACTIONS, SPLITS, words

    move = ACTIONS.encode("move", 24, 12)
    assert ACTIONS.label(move) == "move e5 to c3"
    assert words(move) == "moves the unit on e5 to c3"
    assert words(ACTIONS.encode("split", SPLITS.index("1 left, 1 right"))) == (
        "puts one ammunition behind each Defence Centre"
    )
    assert words(ACTIONS.encode("fire", 1, 6)).startswith("fires the Defence Centre on b1 at")
    assert words(ACTIONS.encode("spare")) == "lets the Spy go"
    assert words(ACTIONS.encode("pass")) == "passes"
