"""Elephant, Monkey & Mice scenarios; clause numbers refer to docs/rules/elephant-monkey-mice.md."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.cli.render import scene_text
from boardlab.core.constants import TERMINAL
from boardlab.core.errors import IllegalActionError
from boardlab.core.scene import check_scene
from boardlab.games.elephant_monkey_mice import (
    ACTIONS,
    ADD,
    ADJ,
    ELEPHANT,
    ELEPHANT_RETREAT,
    EXTRA,
    FORWARD,
    HOME,
    LABELS,
    LINES,
    MONKEY,
    MONKEY_RETREAT,
    MOUSE,
    NO,
    PASS,
    PATHS,
    TAKE,
    TURN,
    ElephantMonkeyMiceState,
    N,
    dist,
)

WH, BL = 0, 1


def game(**options: object) -> boardlab.Game:
    return boardlab.make("elephant-monkey-mice", **options)


def sq(label: str) -> int:
    return LABELS.index(label)


def position(
    elephants: tuple[str, str],
    monkeys: tuple[str, str],
    mice: tuple[tuple[str, ...], tuple[str, ...]],
    to_move: int = WH,
    reserve: tuple[int, int] | None = None,
    **options: object,
) -> ElephantMonkeyMiceState:
    """A hand-made position at the start of a turn (it has no history, so it cannot be replayed)."""
    s = game(**options).new_initial_state()
    assert isinstance(s, ElephantMonkeyMiceState)
    s.elephant = [sq(elephants[0]), sq(elephants[1])]
    s.monkey = [sq(monkeys[0]), sq(monkeys[1])]
    s.mice = [tuple((sq(m), False) for m in mice[0]), tuple((sq(m), False) for m in mice[1])]
    s.reserve = list(reserve) if reserve is not None else [4 - len(mice[0]), 4 - len(mice[1])]
    s.to_move = s.decider = to_move
    s._mark()
    return s


def play(s: ElephantMonkeyMiceState, *labels: str) -> None:
    for label in labels:
        s.apply_action(s.string_to_action(None, label))


def refuse(s: ElephantMonkeyMiceState, label: str, match: str) -> None:
    """Playing ``label`` is refused with an explanation matching ``match``, and nothing changes."""
    before = s.observation(None)
    with pytest.raises(IllegalActionError, match=match):
        s.apply_action(_action(label))
    assert s.observation(None) == before


def _action(label: str) -> int:
    return next(a for a in range(ACTIONS.size) if ACTIONS.label(a) == label)


def moves(s: ElephantMonkeyMiceState) -> list[str]:
    return [label for _, label in s.legal_moves()]


def test_setup_corners_and_inner() -> None:  # §1, §2
    s = game().new_initial_state()
    obs = s.observation(None)
    assert [LABELS[x] for x in obs["monkey"]] == ["a1", "e5"]
    assert [LABELS[x] for x in obs["elephant"]] == ["e1", "a5"]
    assert [[LABELS[m] for m, _ in obs["mice"][k]] for k in (0, 1)] == [["c1"], ["c5"]]
    assert obs["reserve"] == [3, 3] and s.current_player() == WH  # §2.2, §2.3
    inner = game(setup="inner").new_initial_state().observation(None)
    assert [LABELS[x] for x in inner["monkey"]] == ["b1", "d5"]
    assert [LABELS[x] for x in inner["elephant"]] == ["d1", "b5"]


def test_first_turn_actions() -> None:  # §3.1, §4.1, §5.1, §6.1, §6.5
    s = game().new_initial_state()
    assert moves(s) == [
        "elephant to d1", "elephant to d2", "elephant to e2",
        "monkey to b1", "monkey to c1", "monkey to a2", "monkey to b2", "monkey to a3", "monkey to c3",
        "mouse c1-b1", "mouse c1-d1", "mouse c1-b2", "mouse c1-c2", "mouse c1-d2",
        "add a mouse on a1", "add a mouse on b1", "add a mouse on d1",
    ]  # fmt: skip


def test_pass_only_when_blocked() -> None:  # §3.2
    s = game().new_initial_state()
    refuse(s, "pass", r"pass only when you have no legal action \(§3.2\)")


def test_elephant_may_not_enter_a_mouse_or_the_other_elephant() -> None:  # §4.1
    s = position(("c3", "c4"), ("a1", "e5"), (("b2",), ("d4",)))
    ms = moves(s)
    assert "elephant to c4" not in ms and "elephant to b2" not in ms and "elephant to d4" not in ms
    assert "elephant to d3" in ms
    refuse(s, "elephant to b2", r"onto a square with a Mouse \(§4.1\)")
    refuse(s, "elephant to c4", r"onto the other Elephant \(§4.1\)")


def test_elephant_next_to_the_monkey_makes_it_retreat_owner_chooses() -> None:  # §4.2, §7.2
    s = position(("c2", "a5"), ("a1", "c4"), (("e1",), ("e5",)))
    play(s, "elephant to c3")
    assert s.phase == MONKEY_RETREAT and s.current_player() == BL  # Black decides inside White's turn
    assert moves(s) == ["retreat to b5", "retreat to c5", "retreat to d5"]
    play(s, "retreat to d5")
    assert s.observation(None)["monkey"][BL] == sq("d5") and s.current_player() == BL and s.phase == TURN


def test_elephant_onto_the_monkey() -> None:  # §4.1 (decision): the other Monkey jumps two squares
    s = position(("c2", "a5"), ("a1", "c3"), (("e1",), ("e5",)))
    play(s, "elephant to c3")
    assert s.phase == MONKEY_RETREAT
    assert set(moves(s)) == {f"retreat to {x}" for x in ("a1", "a3", "a5", "c1", "c5", "e1", "e3", "e5")}


def test_monkey_lines_and_the_elephant() -> None:  # §5.1, §5.2
    s = position(("e1", "c4"), ("c2", "a5"), (("a1",), ("e5",)))
    ms = moves(s)
    # c3 and b3/d3 are next to the Elephant on c4; the line north is blocked at c4 itself only after c3.
    assert "monkey to c3" not in ms and "monkey to d3" not in ms and "monkey to b3" not in ms
    assert "monkey to a4" in ms and "monkey to e4" in ms  # over b3 and d3, next to c4, to safe squares
    assert "monkey to e2" in ms and "monkey to a2" in ms
    refuse(s, "monkey to c3", r"too afraid .* \(§5.2\)")
    refuse(s, "monkey to d4", r"one straight line \(§5.1\)")


def test_monkey_may_not_pass_the_elephant() -> None:  # §5.1
    s = position(("e1", "c3"), ("c2", "a5"), (("a1",), ("e5",)))
    refuse(s, "monkey to c4", r"onto or over the other Elephant \(§5.1\)")


@pytest.mark.parametrize(("flung", "reserve"), [("reserve", 3), ("removed", 2)])
def test_monkey_flings_a_mouse(flung: str, reserve: int) -> None:  # §5.4
    s = position(("e1", "a5"), ("c1", "e5"), (("c2",), ("c3",)), flung=flung, reserve=(3, 2))
    play(s, "monkey to c3")
    obs = s.observation(None)
    assert obs["mice"][BL] == [] and obs["reserve"][BL] == reserve
    assert obs["mice"][WH] == [[sq("c2"), False]]  # own Mice stay


def test_mouse_squares() -> None:  # §6.1, §6.2
    s = position(("b1", "a5"), ("d3", "c3"), (("c2", "d2"), ("b3",)))
    ms = moves(s)
    for bad in ("mouse c2-b1", "mouse c2-c3", "mouse c2-d2"):  # own Elephant, other Monkey, own Mouse
        assert bad not in ms
    assert "mouse c2-b3" in ms and "mouse c2-d3" in ms  # onto an opposing Mouse, onto the own Monkey
    refuse(s, "mouse c2-c3", r"onto the other Monkey \(§6.2\)")
    refuse(s, "mouse c2-b1", r"onto its own Elephant \(§6.2\)")


def test_mouse_push_straight_away_and_extra_mouse() -> None:  # §6.4, §7.1
    s = position(("e1", "c3"), ("a1", "e5"), (("c2",), ("a4",)))
    play(s, "mouse c2-c3")
    obs = s.observation(None)
    assert obs["elephant"][BL] == sq("c4")  # pushed straight on, no choice
    assert s.phase == EXTRA and moves(s) == ["extra mouse on b2", "extra mouse on d2", "no extra mouse"]
    play(s, "extra mouse on d2")
    obs = s.observation(None)
    assert sorted(m for m, _ in obs["mice"][WH]) == [sq("d2"), sq("c3")] and obs["reserve"][WH] == 2
    assert s.current_player() == BL


def test_the_worked_example() -> None:  # §7.1, §7.2, §6.4: the example under the rules
    s = position(("a1", "c3"), ("e4", "a5"), (("c2",), ("c4",)))
    play(s, "mouse c2-c3")
    assert s.phase == ELEPHANT_RETREAT and s.current_player() == BL  # c4 holds a Mouse: Black chooses
    assert moves(s) == [f"retreat to {x}" for x in ("b2", "c2", "d2", "b3", "d3", "b4", "d4")]
    play(s, "retreat to d4")
    assert s.phase == MONKEY_RETREAT and s.current_player() == WH
    assert moves(s) == ["retreat to c2", "retreat to e2"]
    play(s, "retreat to e2")
    assert s.phase == EXTRA and s.current_player() == WH
    assert moves(s) == ["extra mouse on b2", "extra mouse on d2", "no extra mouse"]
    play(s, "no extra mouse")
    assert s.current_player() == BL


def test_no_retreat_means_no_push() -> None:  # §6.3 (decision)
    # Black's Elephant in the corner a5; Mice on b5 (White's), b4 (both colours) and a4 (Black's).
    s = position(("e1", "a5"), ("c1", "e5"), (("b5", "b4"), ("a4", "b4")))
    ms = moves(s)
    assert "mouse b4-a5" not in ms  # b4 still holds Black's Mouse: nowhere to go
    assert "mouse b5-a5" in ms  # the Mouse leaving b5 frees it for the Elephant
    refuse(s, "mouse b4-a5", r"no square to retreat to \(§7.1\)")
    play(s, "mouse b5-a5")
    assert s.observation(None)["elephant"][BL] == sq("b5")


def test_extra_mouse_from_the_board_when_the_reserve_is_empty() -> None:  # §6.4
    s = position(("e1", "a5"), ("a1", "e5"), (("c2", "e3", "a3", "b4"), ("d5",)))
    play(s, "mouse c2-c3")
    play(s, "extra mouse on b2")
    assert s.phase == TAKE and moves(s) == [
        "take the mouse from a3", "take the mouse from e3", "take the mouse from b4",
    ]  # fmt: skip
    play(s, "take the mouse from e3")
    assert sorted(LABELS[m] for m, _ in s.observation(None)["mice"][WH]) == ["a3", "b2", "b4", "c3"]


def test_royal_mouse_makes_royal_extra_mouse() -> None:  # §6.4, §8
    s = position(("e1", "a5"), ("a1", "e3"), (("c4",), ("a3",)))
    play(s, "mouse c4-c5")
    obs = s.observation(None)
    assert obs["mice"][WH] == [[sq("c5"), True]]
    play(s, "extra mouse on b4")
    assert [sq("b4"), True] in s.observation(None)["mice"][WH]


def test_added_mouse_pushes_forward() -> None:  # §6.5, §7.1 (decision: the adder's forward direction)
    s = position(("e3", "c1"), ("a3", "e5"), ((), ("a5",)))
    assert "add a mouse on c1" in moves(s)
    play(s, "add a mouse on c1")
    obs = s.observation(None)
    assert obs["elephant"][BL] == sq("c2") and obs["mice"][WH] == [[sq("c1"), False]]
    assert obs["reserve"][WH] == 3


def test_short_game_goal_and_win() -> None:  # §9.1, §9.3, §9.4
    s = position(("b4", "a1"), ("c5", "e1"), (("d5",), ("e2",)))
    assert s.goals[WH] == 5  # Monkey and a Mouse have reached row 5
    play(s, "elephant to b5")
    assert s.is_terminal() and s.returns() == [1.0, -1.0] and s.current_player() == TERMINAL


def test_goal_stays_reached() -> None:  # §9.3
    s = position(("e1", "a5"), ("c5", "b1"), (("c2",), ("d4",)))
    assert s.goals[WH] == 1
    play(s, "monkey to c3")
    assert s.goals[WH] == 1 and not s.is_terminal()


def test_long_game_needs_royals_at_home() -> None:  # §9.2
    s = position(("b4", "a1"), ("c5", "e1"), (("d5",), ("e2",)), mode="long")
    play(s, "elephant to b5")
    assert not s.is_terminal() and s.goals[WH] == 0
    assert s.observation(None)["royal"][WH] == [True, True]


def test_both_complete_mover_wins() -> None:  # §9.4
    # Black has Monkey and Mouse on row 1; White's Mouse push drives Black's Elephant onto row 1.
    s = position(("e4", "c2"), ("a4", "b1"), (("c3", "d5"), ("d1",)))
    s.goals[WH] = 7  # White completed earlier in this turn (hand-made)
    play(s, "mouse c3-c2", "no extra mouse")
    assert s.observation(None)["elephant"][BL] == sq("c1")
    assert s.goals[BL] == 7 and s.is_terminal() and s.returns() == [1.0, -1.0]


def test_turn_limit_draw() -> None:  # §10
    s = game(turn_limit=100).new_initial_state()
    shuttle = ["elephant to d1", "elephant to b5", "elephant to e1", "elephant to a5"]
    for k in range(100):
        play(s, shuttle[k % 4])
    assert s.is_terminal() and s.returns() == [0.0, 0.0]
    assert "turn limit" in s.scene(WH)["prompt"]


def test_scene_and_terminal() -> None:  # §1, §2: the board as drawn
    s = game().new_initial_state()
    scene = s.scene(WH)
    assert check_scene(scene, s.legal_moves(WH)) == []
    kinds = {(p["kind"], p["at"]) for p in scene["pieces"]}
    assert ("elephant", "e1") in kinds and ("monkey", "e5") in kinds and ("mouse", "c5") in kinds
    text = scene_text(scene, moves(s))
    assert "White" in text and "Move your Elephant" in text


def test_random_games_keep_the_invariants() -> None:  # §4.1, §5.2, §6.2: no Elephant shares with a Mouse
    g = game()
    rng = random.Random(3)
    for _ in range(20):
        s = g.new_initial_state()
        while not s.is_terminal():
            a = rng.choice(s.legal_actions())
            s.apply_action(a)
            if s.phase == TURN:
                for seat in (0, 1):
                    assert not s.has_mouse(s.elephant[seat])
                    assert len(set(s.mouse_squares(seat))) == len(s.mice[seat])
                    assert dist(s.monkey[seat], s.elephant[1 - seat]) >= 2
                assert len(s.mice[0]) + s.reserve[0] == 4


def test_a_retreat_can_complete_the_other_players_goal() -> None:  # §9.4
    s = position(("e4", "c2"), ("a4", "b1"), (("c3", "d5"), ("d1",)))
    play(s, "mouse c3-c2", "no extra mouse")
    assert s.is_terminal() and s.returns() == [-1.0, 1.0]  # Black's Elephant was pushed home to c1


# -- the fast rules against the plain ones ------------------------------------------------------------------------


def reference_turn_actions(s: ElephantMonkeyMiceState, p: int) -> list[int]:
    """§3-§6 as the rules were first written: every action that starts a turn, square by square."""
    out: list[int] = []
    e, m = s.elephant[p], s.monkey[p]
    foe_e = s.elephant[1 - p]
    for t in ADJ[e]:
        if s.elephant_can_go(p, t):
            out.append(ELEPHANT + t)
    for line in LINES[m]:
        for t in line[:2]:
            if t in (NO, foe_e):
                break
            if s.monkey_can_go(p, t):
                out.append(MONKEY + t)
    for f, _ in s.mice[p]:
        for t in ADJ[f]:
            if s.mouse_can_go(p, t, ignore=f) and s._push_ok(p, f, t, vacated=f):
                out.append(MOUSE + f * N + t)
    if s.reserve[p]:
        for x in range(5):
            t = 5 * HOME[p] + x
            if s.mouse_can_go(p, t) and s._push_ok(p, t - FORWARD[p] * 5, t):
                out.append(ADD + t)
    return sorted(out)


@pytest.mark.parametrize("options", [{}, {"mode": "long", "setup": "inner"}, {"flung": "removed"}])
def test_turn_actions_match_the_rules_worked_out_square_by_square(options: dict[str, str]) -> None:
    """§3: over many random games, every turn offers what the square-by-square rules offer, in the same order."""
    g = game(**options, turn_limit=100)
    rng = random.Random(7)
    for _ in range(60):
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.phase == TURN:
                assert s.legal_actions() == (reference_turn_actions(s, s.to_move) or [PASS])
            s.apply_action(rng.choice(s.legal_actions()))


def test_a_single_action_is_checked_as_the_list_says() -> None:
    """Every action of the action space is accepted exactly when it is in the legal list, in every phase."""
    g = game(turn_limit=100)
    rng = random.Random(9)
    phases = set()
    for _ in range(4):
        s = g.new_initial_state()
        while not s.is_terminal():
            p = s.current_player()
            legal = s.legal_actions()
            assert {a for a in range(-1, g.num_distinct_actions() + 1) if s._is_legal(p, a)} == set(legal)
            phases.add(s.phase)
            s.apply_action(rng.choice(legal))
    assert {TURN, EXTRA} <= phases


def test_the_monkey_paths_are_straight_and_short() -> None:
    """§5.1: the table of Monkey moves: one or two squares in a straight line, each square on the way listed."""
    for a in range(25):
        for b in range(25):
            dx, dy = b % 5 - a % 5, b // 5 - a // 5
            straight = (dx == 0 or dy == 0 or abs(dx) == abs(dy)) and 1 <= max(abs(dx), abs(dy)) <= 2
            k = max(abs(dx), abs(dy))
            ux, uy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
            path = tuple(a + j * (ux + 5 * uy) for j in range(1, k + 1)) if straight else ()
            assert PATHS[a][b] == path, (LABELS[a], LABELS[b])
