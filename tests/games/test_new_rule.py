"""Scenario tests for New Rule; clause numbers (§n) refer to docs/rules/new-rule.md."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.core.constants import CHANCE, TERMINAL
from boardlab.core.errors import IllegalActionError
from boardlab.core.play import random_playout, sample_chance
from boardlab.core.wording import for_players
from boardlab.games.new_rule import LABELS, NewRuleState

SQ = {label: i for i, label in enumerate(LABELS)}

#: Setup pennies in the a1-c3 corner block (dark: a1 c1 a3 c3, light: b1 a2 c2 b3).
CORNER_SETUP = ["H", "a1", "H", "c1", "H", "a3", "H", "c3", "T", "b1", "T", "a2", "T", "c2", "T", "b3"]
#: Setup pennies spread over the board: eight stacks of two, no blob.
SPREAD_SETUP = ["H", "a1", "H", "c1", "H", "e1", "H", "g1", "H", "a7", "T", "h1", "T", "a8", "T", "g8"]
#: Three setup pennies on a1 (4 pennies there), the rest spread.
TALL_SETUP = ["H", "a1", "H", "a1", "H", "a1", "H", "h2", "H", "a7", "T", "h1", "T", "a8", "T", "g8"]


def new(players: int = 1, **options: object) -> NewRuleState:
    state = boardlab.make("new-rule", **options).new_initial_state(players)
    assert isinstance(state, NewRuleState)
    return state


def play(state: NewRuleState, *moves: str) -> None:
    """Apply moves: ``H``/``T`` are coin flips, anything else a seat's move label."""
    for m in moves:
        if m in ("H", "T"):
            assert state.current_player() == CHANCE, f"expected a coin flip before {m}"
            state.apply_action(0 if m == "H" else 1)
        else:
            state.apply_action(state.string_to_action(None, m))


def count(state: NewRuleState, label: str) -> int:
    return state.counts[SQ[label]]


def total(state: NewRuleState) -> int:
    return sum(state.counts) + state.pool + state.removed


def off_board_turn(state: NewRuleState) -> None:
    """Compress h8 (1 penny + 1) and send the extra penny off the board (N on heads, NE on tails)."""
    play(state, "h8")
    flip = random.Random(state.move_number()).choice("HT")
    play(state, flip, "N" if flip == "H" else "NE")


# -- §2 setup ------------------------------------------------------------------------------------


def test_setup_one_penny_per_square_and_pool_of_36_then_28() -> None:  # §2a, §2b, §2d
    s = new()
    assert s.counts == [1] * 64 and s.pool == 36 and total(s) == 100
    play(s, *SPREAD_SETUP)
    assert s.pool == 28 and total(s) == 100 and s.multi == 8
    assert s.phase == 2 and s.current_player() == 0  # the first turn (§3)


def test_setup_flip_chooses_the_square_colour() -> None:  # §2c
    s = new()
    assert s.current_player() == CHANCE and s.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    assert s.action_to_string(CHANCE, 0) == "heads (dark)"
    play(s, "H")
    dark = s.legal_actions()
    assert len(dark) == 32 and "a1" in [LABELS[a] for a in dark] and SQ["b1"] not in dark
    with pytest.raises(IllegalActionError, match="dark square"):
        s.apply_action(SQ["b1"])
    play(s, "a1", "T")
    light = s.legal_actions()
    assert len(light) == 32 and SQ["b1"] in light and SQ["a1"] not in light
    play(s, "b1")
    assert count(s, "a1") == 2 and count(s, "b1") == 2


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_setup_pennies_are_placed_in_seat_order(players: int) -> None:  # §2c
    s = new(players)
    seats = []
    for move in SPREAD_SETUP:
        if move not in ("H", "T"):
            seats.append(s.current_player())
        play(s, move)
    assert seats == [k % players for k in range(8)]


def test_no_win_or_loss_is_checked_at_the_end_of_setup() -> None:  # §6
    s = new()
    play(s, "H", "a1", "H", "a1", "H", "a1", "H", "a1", "H", "a1", "H", "a1", "H", "a1", "H", "a1")
    assert s.multi == 1 and not s.is_terminal()  # one stack only, yet play goes on to the first turn
    play(s, "h8", "H", "N")
    assert s.is_terminal() and "more than one penny" in s.reason  # §6b-ii, checked after the turn


# -- §4 compression -----------------------------------------------------------------------------


def test_compression_distances_5_4_3_2_from_the_example() -> None:  # §4a-§4f
    s = new()
    play(s, *TALL_SETUP)
    assert count(s, "a1") == 4
    play(s, "a1")
    assert count(s, "a1") == 5 and s.pool == 27  # §4a: one penny from the pool
    play(s, "H")
    assert s.legal_actions() == [64, 66, 68, 70]  # §4c: N E S W
    play(s, "N")  # 5 squares: a1 -> a6
    assert count(s, "a6") == 2 and count(s, "a1") == 4
    play(s, "T")
    assert [s.action_to_string(0, a) for a in s.legal_actions()] == ["NE", "SE", "SW", "NW"]
    play(s, "NE")  # 4 squares diagonally: a1 -> e5
    assert count(s, "e5") == 2
    play(s, "H", "E")  # 3 squares: a1 -> d1
    assert count(s, "d1") == 2
    play(s, "T", "NE")  # 2 squares diagonally: a1 -> c3
    assert count(s, "c3") == 2
    assert count(s, "a1") == 1  # §4f: the turn ends with one penny left
    assert s.turns == 1 and total(s) == 100 and s.removed == 0
    assert s.current_player() == 0 and s.round == 2  # nothing to settle; round 2 begins


def test_a_penny_whose_momentum_carries_it_off_the_board_leaves_play() -> None:  # §4e
    s = new()
    play(s, *TALL_SETUP, "a1", "H", "W")  # 5 squares west of a1: off the board
    assert s.removed == 1 and count(s, "a1") == 4 and total(s) == 100
    play(s, "T", "SW")  # off the board again
    assert s.removed == 2 and s.pool == 27


def test_arrivals_just_stack_with_no_chain_reaction() -> None:  # §4g
    s = new()
    play(s, *TALL_SETUP)
    s.counts[SQ["a3"]] = 6
    s.pool -= 5
    s._recount()
    play(s, "a1", "H", "N")  # a1 -> a6
    play(s, "T", "NE", "H", "N")  # a1 -> e5, then 3 north: a1 -> a4, passing over a3
    assert count(s, "a4") == 2 and count(s, "a3") == 6
    play(s, "T", "NE")  # a1 -> c3
    assert s.turns == 1 and count(s, "c3") == 2 and count(s, "a3") == 6 and total(s) == 100
    assert s.settling and s.active == SQ["a3"]  # only settling (§5) disperses the tall stack


def test_direction_must_match_the_coin() -> None:  # §4b, §4c
    s = new()
    play(s, *TALL_SETUP, "a1", "H")
    with pytest.raises(IllegalActionError, match="orthogonally"):
        s.apply_action(65)  # NE
    with pytest.raises(IllegalActionError, match="orthogonal direction"):
        s.apply_action(SQ["c3"])
    assert count(s, "a1") == 5 and s.current_player() == 0


# -- §5 settling -------------------------------------------------------------------------------


def _settling_position(players: int = 1, **options: object) -> NewRuleState:
    """After setup: a1 holds 4 (settles), a5 holds 3 (reaches 4 when a1's penny lands there)."""
    s = new(players, **options)
    play(s, *TALL_SETUP)
    s.counts[SQ["a5"]] = 3
    s._recount()
    s.pool -= 2  # keep the total at 100
    return s


def test_settling_disperses_one_penny_from_each_square_of_the_snapshot() -> None:  # §5a, §5c, §5e
    s = _settling_position()
    off_board_turn(s)
    pool = s.pool
    # §5b: a single square to settle is taken without asking; the coin is flipped for it.
    assert s.settling and s.current_player() == CHANCE and s.active == SQ["a1"]
    play(s, "H")
    assert s.scene(0)["prompt"] == "Settling, heads: move a penny 4 squares orthogonally from a1 — choose a direction."
    play(s, "N")  # 4 squares (a1's current count): a1 -> a5
    assert count(s, "a1") == 3 and count(s, "a5") == 4
    assert not s.settling and s.round == 2 and s.current_player() == 0  # a5 was not in the snapshot
    assert s.pool == pool and total(s) == 100  # §5e: settling takes nothing from the pool


def test_settle_dynamic_also_settles_squares_that_reach_four() -> None:  # §5d
    s = _settling_position(settle_dynamic=True)
    off_board_turn(s)
    play(s, "H", "N")
    assert s.settling and s.active == SQ["a5"] and s.current_player() == CHANCE
    play(s, "H", "E")  # 4 squares: a5 -> e5
    assert count(s, "a5") == 3 and count(s, "e5") == 2
    assert not s.settling and s.round == 2  # each square settles at most once


@pytest.mark.parametrize("players", [2, 3])
def test_the_settler_chooses_the_order_and_rotates_by_round(players: int) -> None:  # §5b
    s = _settling_position(players)
    s.counts[SQ["g8"]] = 5
    s.pool -= 3
    s._recount()
    for _ in range(players):
        off_board_turn(s)
    assert s.settling and s.phase == 5 and s.current_player() == 0  # round 1: seat 0 settles
    assert s.legal_actions() == sorted([SQ["a1"], SQ["g8"]])
    with pytest.raises(IllegalActionError, match="waiting to settle"):
        s.apply_action(SQ["c3"])
    play(s, "g8", "H", "S")  # 5 squares south of g8: g3
    assert count(s, "g8") == 4 and count(s, "g3") == 2
    assert s.active == SQ["a1"] and s.current_player() == CHANCE  # the last one needs no choice
    play(s, "H", "N")  # 4 squares: a1 -> a5, which now holds 4
    assert s.round == 2 and s.current_player() == 0
    for _ in range(players):
        off_board_turn(s)
    assert s.settling and s.current_player() == 1  # round 2: seat 1 settles
    assert s.legal_actions() == sorted([SQ["g8"], SQ["a5"]])


# -- §6 end: loss, win, order ------------------------------------------------------------------


def test_loss_when_the_pool_is_empty() -> None:  # §6b-i
    s = new(2)
    play(s, *SPREAD_SETUP)
    for _ in range(27):
        off_board_turn(s)
    assert not s.is_terminal() and s.pool == 1
    off_board_turn(s)
    assert s.is_terminal() and s.pool == 0 and "pool is empty" in s.reason
    assert s.returns() == [-1.0, -1.0] and s.round == 14


def test_loss_with_four_or_fewer_stacks() -> None:  # §6b-ii
    s = new()
    play(s, "H", "c1", "H", "c1", "H", "e1", "H", "e1", "H", "g1", "H", "g1", "H", "a7", "H", "a3")
    assert s.multi == 5
    off_board_turn(s)
    assert not s.is_terminal() and s.multi == 5  # five stacks are enough
    play(s, "a7", "H", "N", "H", "N")  # a7 (3 pennies): 3 and then 2 squares north, both off the board
    assert s.is_terminal() and s.multi == 4 and "only 4 squares" in s.reason and s.returns() == [-1.0]


def test_loss_after_25_rounds() -> None:  # §6b-iii
    s = new(1)
    play(s, *SPREAD_SETUP)
    for _ in range(24):
        off_board_turn(s)
    assert not s.is_terminal() and s.round == 25
    off_board_turn(s)
    assert s.is_terminal() and "25 rounds" in s.reason and s.returns() == [-1.0] and s.pool == 3


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_blob_win_on_the_first_turn(players: int) -> None:  # §6a (win=blob), §7
    s = new(players)
    play(s, *CORNER_SETUP)
    assert s.goal() == (True, "all 8 stacks lie within a1-c3")
    play(s, "h8", "H", "N")  # h8's extra penny leaves the board; the eight stacks stay in a1-c3
    assert s.is_terminal() and s.current_player() == TERMINAL
    assert s.returns() == [1.0] * players and "a1-c3" in s.reason


def _deliberate_setup(s: NewRuleState, flips: list[int]) -> None:
    """Place the setup pennies so that a1-c3 or b1-d3 ends up holding at least five stacks.

    Pennies go first on the squares both blocks share (c1 b2 c3 dark, b1 c2 b3 light); the fourth penny of
    a colour commits to the block with five squares of that colour (a1-c3: five dark, b1-d3: five light).
    """
    shared = {0: ["c1", "b2", "c3"], 1: ["b1", "c2", "b3"]}
    blocks = {
        0: ["c1", "b2", "c3", "a1", "a3", "b1", "c2", "b3", "a2"],
        1: ["b1", "c2", "b3", "d1", "d3", "c1", "b2", "c3", "d2"],
    }
    block: list[str] | None = None
    for flip in flips:
        s.apply_action(flip)
        legal = {LABELS[a] for a in s.legal_actions()}
        fresh = [q for q in (block or shared[flip]) if q in legal and count(s, q) == 1]
        if not fresh and block is None:
            block = blocks[flip]
            fresh = [q for q in block if q in legal and count(s, q) == 1]
        play(s, (fresh or [q for q in (block or shared[flip]) if q in legal])[0])


def test_a_deliberate_team_always_wins_on_its_first_turn() -> None:  # §6a (win=blob): a design finding
    for n in range(256):
        for last in ("H", "T"):
            s = new()
            _deliberate_setup(s, [(n >> k) & 1 for k in range(8)])
            play(s, "h8", last, "N" if last == "H" else "NE")  # from a corner, both flips can leave the board
            assert s.returns() == [1.0], (n, s.reason)


def test_blob_needs_five_stacks_inside_one_3x3_block() -> None:  # §6a
    s = new()
    play(s, *CORNER_SETUP)
    s.counts = [1] * 64
    for label in ("a1", "c1", "a3", "c3"):
        s.counts[SQ[label]] = 2
    s._recount()
    assert s.goal() == (False, "only 4 squares hold 2+ pennies (5 needed)")
    s.counts[SQ["d1"]] = 2
    s._recount()
    assert s.goal() == (False, "the 5 stacks span 4×3 squares")
    s.counts[SQ["d1"]] = 1
    s.counts[SQ["b2"]] = 9
    s._recount()
    assert s.goal()[0]


def test_literal_goal_is_unwinnable() -> None:  # §6a (win=literal)
    s = new(win="literal")
    play(s, *CORNER_SETUP, "h8", "H", "N")
    assert not s.is_terminal() and not s.goal()[0]  # the same line that wins under win=blob
    game = boardlab.make("new-rule", win="literal")
    rng = random.Random(4)
    for seed in range(12):
        st = game.new_initial_state(1 + seed % 4)
        assert isinstance(st, NewRuleState)
        while not st.is_terminal():
            assert min(st.counts) >= 1  # no square is ever emptied, so the goal cannot hold
            if st.current_player() == CHANCE:
                st.apply_action(sample_chance(st, rng))
            else:
                st.apply_action(rng.choice(st.legal_actions()))
        assert st.returns()[0] == -1.0 and not st.goal()[0]


def test_full_goal_needs_the_stacks_to_fill_one_block_exactly() -> None:  # §6a (win=full)
    s = new(win="full")
    play(s, *CORNER_SETUP)  # eight stacks in a1-c3; b2 holds one penny
    assert s.goal() == (False, "8 of the 9 squares of a 3×3 block are stacks")
    play(s, "h8", "H", "N")  # wins under win=blob, not here
    assert not s.is_terminal()
    s.counts[SQ["b2"]] = 2
    s.counts[SQ["e5"]] = 2
    s.pool -= 2
    s._recount()
    assert s.goal() == (False, "the 10 stacks span 5×5 squares")  # a stack outside the block spoils it
    s.counts[SQ["e5"]] = 1
    s.pool += 1
    s._recount()
    assert s.goal() == (True, "the stacks fill a1-c3")


def test_full_goal_is_won_on_the_first_heads_from_eight_stacks() -> None:  # §6a (win=full), §4e
    s = new(win="full")
    play(s, *CORNER_SETUP)
    for _ in range(3):  # from b4, tails throws the penny off the board (SW), harmlessly
        play(s, "b4", "T", "SW")
        assert not s.is_terminal() and count(s, "b2") == 1
    play(s, "b4", "H", "S")  # heads: 2 squares south lands on b2, the ninth square
    assert s.is_terminal() and s.returns() == [1.0] and "the stacks fill a1-c3" in s.reason


def test_heavy_goal_needs_20_pennies_in_the_blob_block() -> None:  # §6a (win=heavy)
    s = new(win="heavy")
    play(s, *CORNER_SETUP)  # eight stacks in a1-c3: 9 + 8 = 17 pennies, the most setup can bring
    assert s.goal() == (False, "the 8 stacks in a1-c3 hold 17 pennies with their block (20 needed)")
    play(s, "h8", "H", "N")  # wins under win=blob, not here
    assert not s.is_terminal()
    s.counts[SQ["b2"]] = 4  # three more pennies inside the block
    s.pool -= 3
    s._recount()
    assert s.goal() == (True, "all 9 stacks lie within a1-c3, holding 20 pennies with their block")
    s.counts[SQ["e5"]] = 2  # a stack outside the block spoils it, however heavy
    s.pool -= 1
    s._recount()
    assert s.goal() == (False, "the 10 stacks span 5×5 squares")


def test_heavy_goal_counts_the_stacks_and_one_penny_per_other_square() -> None:  # §6a (win=heavy)
    s = new(win="heavy")
    play(s, *CORNER_SETUP)
    s.counts = [1] * 64
    for label in ("b2", "c2", "d2", "b3", "c3"):  # a 3×2 box: any 3×3 block around it adds 4 single pennies
        s.counts[SQ[label]] = 3
    s._recount()
    assert s.goal() == (False, "the 5 stacks in b2-d3 hold 19 pennies with their block (20 needed)")
    s.counts[SQ["c3"]] = 4
    s._recount()
    assert s.goal() == (True, "all 5 stacks lie within b2-d3, holding 20 pennies with their block")


def test_the_planned_first_turn_no_longer_wins_under_heavy() -> None:  # §6a (win=heavy): the design finding
    for n in range(256):
        for last in ("H", "T"):
            s = new(win="heavy")
            _deliberate_setup(s, [(n >> k) & 1 for k in range(8)])
            play(s, "h8", last, "N" if last == "H" else "NE")  # wins every time under win=blob
            assert not s.is_terminal() and not s.goal()[0], (n, s.reason)


def test_heavy_goal_is_won_by_bringing_pool_pennies_into_the_block() -> None:  # §6a (win=heavy), §4d, §6
    s = new(win="heavy")
    play(s, *CORNER_SETUP)  # 17 pennies in a1-c3; b2 holds one
    play(s, "b4", "H", "S")  # the pool penny on b4 moves 2 squares south onto b2
    play(s, "b4", "H", "S")
    assert (
        not s.is_terminal()
        and count(s, "b2") == 3
        and s.goal()[1].endswith("hold 19 pennies with their block (20 needed)")
    )
    play(s, "b4", "H", "S")  # b2 reaches 4: checked after the turn, before settling could disperse it (§6)
    assert s.is_terminal() and s.returns() == [1.0] and "holding 20 pennies" in s.reason


@pytest.mark.parametrize(("win_before_loss", "result"), [(True, 1.0), (False, -1.0)])
def test_win_and_loss_at_the_same_check(win_before_loss: bool, result: float) -> None:  # §6c
    s = new(win_before_loss=win_before_loss)
    play(s, *CORNER_SETUP)
    s.pool = 1
    s.removed = 27  # keep the total at 100
    play(s, "h8", "H", "N")  # the blob holds and the pool is empty
    assert s.is_terminal() and s.returns() == [result]


# -- §3 rounds and turn order, and whole games -----------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_turn_order_and_game_length(players: int) -> None:  # §3, §6b
    game = boardlab.make("new-rule")
    rng = random.Random(players)
    s = game.new_initial_state(players)
    assert isinstance(s, NewRuleState)
    turns: list[tuple[int, int]] = []
    while not s.is_terminal():
        if s.phase == 2:
            turns.append((s.round, s.current_player()))
        assert total(s) == 100
        if s.current_player() == CHANCE:
            s.apply_action(sample_chance(s, rng))
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    assert turns == [(1 + k // players, k % players) for k in range(len(turns))]
    assert len(turns) == (25 if players == 1 else 28)  # 25 rounds bind alone; otherwise the pool (§6b)


def test_random_play_statistics_are_reproducible() -> None:  # for the rules doc's table
    game = boardlab.make("new-rule")
    a, _ = random_playout(game.new_initial_state(2), random.Random(9))
    b, _ = random_playout(game.new_initial_state(2), random.Random(9))
    assert a.history() == b.history() and a.returns() == b.returns()


# -- views ---------------------------------------------------------------------------------------


def test_scene_during_a_direction_choice() -> None:
    s = new()
    play(s, *TALL_SETUP, "a1", "H")
    scene = s.scene(0)
    assert scene["prompt"] == "Heads: move a penny 5 squares orthogonally from a1 — choose a direction."
    assert {(t["at"], t["label"]) for t in scene["targets"]} == {("a6", "N to a6"), ("f1", "E to f1")}
    assert {b["label"] for b in scene["buttons"]} == {"S (off the board)", "W (off the board)"}
    a1 = next(p for p in scene["pieces"] if p["at"] == "a1")
    assert a1["label"] == "5" and a1["height"] == 5 and len(scene["pieces"]) == 64
    assert {"at": "a1", "kind": "selected"} in scene["highlights"]
    assert next(c for c in scene["cells"] if c["id"] == "a1")["fill"] == "dark"
    assert "Pool: 27 pennies" in scene["status"] and "Squares with 2+ pennies: 6" in scene["status"]
    assert "Goal (blob): no, the 6 stacks span 8×8 squares" in scene["status"]
    spectator = s.scene(None)
    assert spectator["targets"] == [] and "Ann chooses the direction" in for_players(spectator["prompt"], ["Ann", "Bo"])


def test_scene_during_square_choice_and_at_the_end() -> None:
    s = new()
    play(s, *CORNER_SETUP)
    scene = s.scene(0)
    assert len(scene["targets"]) == 64 and scene["prompt"].startswith("Round 1: choose a square to compress")
    play(s, "h8", "H", "N")
    end = s.scene(0)
    assert end["prompt"].startswith("You win: the blob is complete") and end["targets"] == []
    assert {"at": "h8", "kind": "last"} in end["highlights"]


def test_observation_is_json_and_complete() -> None:
    s = new(2)
    play(s, *TALL_SETUP, "a1", "H")
    obs = s.observation(1)
    assert obs["phase"] == "direction" and obs["distance"] == 5 and obs["coin"] == "heads"
    assert obs["active"] == "a1" and obs["pool"] == 27 and obs["to_move"] == 0
    assert s.observation(0) == obs == s.observation(None)  # perfect information


# -- the AI's evaluation (docs/ai/new-rule.md) -----------------------------------------------------


def _with_stacks(labels: list[str], **options: object) -> NewRuleState:
    s = new(**options)
    play(s, *CORNER_SETUP)
    s.counts = [1] * 64
    for label in labels:
        s.counts[SQ[label]] = 2
    s._recount()
    return s


def test_evaluation_rises_as_the_stacks_gather_in_one_block() -> None:  # §6a (win=blob)
    scattered = _with_stacks(["a1", "h1", "a8", "h8", "d4", "e5"])
    gathering = _with_stacks(["a1", "c1", "a3", "h8", "d4", "e5"])
    nearly = _with_stacks(["a1", "c1", "a3", "c3", "h8"])
    held = _with_stacks(["a1", "c1", "a3", "c3", "b2"])
    values = [s.evaluate(0) for s in (scattered, gathering, nearly, held)]
    assert values == sorted(values) and len(set(values)) == 4
    assert values[-1] == pytest.approx(0.9) and held.goal()[0]  # the goal held: the best a position short of the end
    assert all(-0.9 <= v <= 0.9 for v in values)
    assert held.evaluate(0) == held.evaluate(0) == _with_stacks(["a1", "c1", "a3", "c3", "b2"]).evaluate(0)


def test_evaluation_follows_the_option_win() -> None:  # §6a (full, heavy, literal)
    five = ["a1", "c1", "a3", "c3", "b2"]
    nine = [f + r for f in "abc" for r in "123"]
    assert _with_stacks(five, win="full").evaluate(0) < _with_stacks(nine, win="full").evaluate(0) == pytest.approx(0.9)
    light = _with_stacks(five, win="heavy")
    heavy = _with_stacks(five, win="heavy")
    heavy.counts[SQ["b2"]] = 9
    assert light.evaluate(0) < heavy.evaluate(0) == pytest.approx(0.9)
    assert _with_stacks(nine, win="literal").evaluate(0) == -1.0


def test_a_finished_game_is_scored_by_its_result() -> None:  # §7
    s = new()
    play(s, *CORNER_SETUP, "h8", "H", "N")
    assert s.is_terminal() and s.evaluate(0) == s.returns()[0] == 1.0


def test_the_levels_cut_their_playouts_and_win_the_default_game() -> None:
    """The levels' playouts stop after ``rollout_depth`` steps and are scored by the evaluation; with it even
    ``easy`` wins the default game alone, where playouts to the end won none of 8 games (docs/ai/new-rule.md)."""
    from boardlab.agents import make_agent
    from boardlab.core.driver import agents_choose
    from boardlab.core.driver import play as drive

    game = boardlab.make("new-rule")
    assert game.rollout_depth == 8
    assert make_agent("easy", game, 0, 1).depth == 8 and make_agent("easy:depth=0", game, 0, 1).depth == 0
    assert make_agent("easy", boardlab.make("blast-radius"), 0, 1).depth == 0  # a game without the setting
    for seed in range(2):
        state = game.new_initial_state(1)
        drive(state, agents_choose([make_agent("easy", game, 0, seed)]), random.Random(seed))
        assert state.returns() == [1.0], state.reason
