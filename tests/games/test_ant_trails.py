"""Ant Trails scenarios, one group per clause of docs/rules/ant-trails.md (cited as §n)."""

from __future__ import annotations

import itertools
import math
import random
import time

import pytest

import boardlab
from boardlab.core.constants import CHANCE, TERMINAL
from boardlab.core.errors import IllegalActionError
from boardlab.core.play import random_playout, sample_chance
from boardlab.core.scene import INK_OF, check_scene
from boardlab.games.ant_trails import AntTrailsState

#: A fixed setup: 12 pairwise non-adjacent interior cells, four tiles of each value.
LAYOUT = {
    "b3": 3,
    "b6": 2,
    "d2": 1,
    "d5": 3,
    "d8": 2,
    "f4": 1,
    "f7": 3,
    "h2": 2,
    "h5": 1,
    "h8": 3,
    "j3": 2,
    "j6": 1,
}


def fresh(**options: object) -> AntTrailsState:
    state = boardlab.make("ant-trails", **options).new_initial_state()
    assert isinstance(state, AntTrailsState)
    return state


def new(layout: dict[str, int] | None = None, **options: object) -> AntTrailsState:
    """A game after the setup ``layout`` (cell label: value), Black to move."""
    state = fresh(**options)
    index = {label: i for i, label in enumerate(state.game.board.labels)}
    for label in sorted(layout or LAYOUT, key=lambda x: index[x]):
        state.apply_action(index[label] * 3 + (layout or LAYOUT)[label] - 1)
    return state


def cell(state: AntTrailsState, label: str) -> int:
    return state.game.board.labels.index(label)


def play(state: AntTrailsState, *labels: str) -> None:
    for label in labels:
        state.apply_action(state.string_to_action(None, label))


def turn(state: AntTrailsState, *labels: str) -> None:
    """Apply ``labels`` for the player to move, then end the turn with done if it has not ended."""
    p = state.current_player()
    play(state, *labels)
    if state.current_player() == p and state.phase == "food":
        play(state, "done" if (state.placed or state.acted) else "pass")
    assert state.current_player() != p or state.is_terminal()


def labels_of(state: AntTrailsState) -> list[str]:
    return [state.action_to_string(state.current_player(), a) for a in state.legal_actions()]


def position(ants: dict[str, int], food: dict[str, tuple[int, int]] | None = None, **options: object) -> AntTrailsState:
    """A hand-set position (no history): ``ants`` cell → seat, ``food`` cell → (value, holder or -1)."""
    state = fresh(**options)
    for label, seat in ants.items():
        state.ant[cell(state, label)] = seat
    for label, (value, holder) in (food or {}).items():
        state.tile_value.append(value)
        state.tile_cell.append(cell(state, label))
        state.tile_holder.append(holder)
    state._rebuild_tables()
    return state


def begin(state: AntTrailsState, seat: int = 0) -> AntTrailsState:
    state.to_move = seat
    state._start_turn()
    return state


# -- brute force: the rules recomputed from scratch -------------------------------------------------


def brute_trails(state: AntTrailsState, seat: int) -> list[set[int]]:
    nbrs = state.game.board.neighbours
    seen: set[int] = set()
    out = []
    for c in range(state.game.n):
        if state.ant[c] != seat or c in seen:
            continue
        comp = {c}
        stack = [c]
        while stack:
            x = stack.pop()
            for j in nbrs[x]:
                if state.ant[j] == seat and j not in comp:
                    comp.add(j)
                    stack.append(j)
        seen |= comp
        out.append(comp)
    return out


def brute_placements(state: AntTrailsState, seat: int) -> set[int]:
    """§5: every cell where ``seat`` may place an ant, from the definitions."""
    board = state.game.board
    nbrs = board.neighbours
    occupied = {c for t, c in enumerate(state.tile_cell) if c >= 0 and state.tile_holder[t] < 0}
    out = set()
    for c in range(state.game.n):
        if state.ant[c] >= 0 or c in occupied:
            continue
        friends = [j for j in nbrs[c] if state.ant[j] == seat]
        if not friends and not board.border[c]:
            continue
        if len(friends) > 2:
            continue
        if any(sum(1 for k in nbrs[j] if state.ant[k] == seat) >= 2 for j in friends):
            continue
        out.add(c)
    return out


def check_tables(state: AntTrailsState) -> None:
    """The incremental tables agree with a recomputation from scratch."""
    board = state.game.board
    nbrs = board.neighbours
    for seat in (0, 1):
        trails = brute_trails(state, seat)
        assert state.longest[seat] == max((len(t) for t in trails), default=0)
        for comp in trails:
            degrees = [sum(1 for j in nbrs[x] if state.ant[j] == seat) for x in comp]
            assert max(degrees) <= 2  # §5.5
            is_loop = all(d == 2 for d in degrees)
            roots = {state.find(x) for x in comp}
            assert len(roots) == 1 and state.loop[roots.pop()] == is_loop
        if state.phase in ("place", "food", "pass", "destination"):
            assert state.can_place[seat] == brute_placements(state, seat)
    for t, c in enumerate(state.tile_cell):
        if c >= 0 and state.tile_holder[t] >= 0:
            assert state.ant[c] == state.tile_holder[t]
            assert not state.is_exit(c)  # §7.1: food never rests on an exit


# -- §1 board and pieces ---------------------------------------------------------------------------


def test_board_and_food_tiles() -> None:  # §1
    game = boardlab.make("ant-trails")
    assert game.n == 91 and sum(game.board.border) == 30 and len(game.board.interior) == 61
    state = new()
    assert sorted(state.tile_value) == [1] * 4 + [2] * 4 + [3] * 4
    assert state.game.board.labels[0] == "a1" and state.game.board.labels[-1] == "k6"


# -- §2 setup ----------------------------------------------------------------------------------------


def test_setup_is_chance_on_interior_cells_never_adjacent() -> None:  # §2
    state = fresh()
    board = state.game.board
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    cells = {a // 3 for a, _ in outcomes}
    # Tiles go down in cell order, so the first one leaves room for eleven more after it.
    assert cells < set(board.interior) and board.interior[0] in cells
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-12
    rng = random.Random(3)
    while state.current_player() == CHANCE:
        for a, _ in state.chance_outcomes():
            c = a // 3
            assert not board.border[c]
            assert all(state.food_at[j] < 0 for j in board.neighbours[c])
        state.apply_action(sample_chance(state, rng))
    placed = [c for c in state.tile_cell]
    assert len(set(placed)) == 12
    assert all(j not in placed for c in placed for j in board.neighbours[c])
    assert sorted(state.tile_value) == [1] * 4 + [2] * 4 + [3] * 4
    assert state.current_player() == 0


def test_placement_counts_match_brute_force() -> None:  # §2
    board = fresh().game.board
    interior = board.interior
    adjacent = {(a, b) for a in interior for b in board.neighbours[a] if b in set(interior)}
    pairs = sum(1 for a, b in itertools.combinations(interior, 2) if (a, b) not in adjacent)
    triples = sum(
        1
        for a, b, c in itertools.combinations(interior, 3)
        if (a, b) not in adjacent and (a, c) not in adjacent and (b, c) not in adjacent
    )
    assert board.completions(0, 0, 1) == 61
    assert board.completions(0, 0, 2) == pairs
    assert board.completions(0, 0, 3) == triples
    assert board.completions(0, 0, 12) == 680_533_543


def test_every_arrangement_is_equally_likely() -> None:  # §2
    """The chance steps multiply to 1 / (arrangements × value deals) for any setup."""
    deals = math.factorial(12) // math.factorial(4) ** 3
    for seed in range(3):
        state = fresh()
        rng = random.Random(seed)
        prob = 1.0
        while state.current_player() == CHANCE:
            outcomes = dict(state.chance_outcomes())
            a = sample_chance(state, rng)
            prob *= outcomes[a]
            state.apply_action(a)
        assert prob == pytest.approx(1 / (680_533_543 * deals), rel=1e-9)


def test_values_are_dealt_from_what_is_left() -> None:  # §2
    state = fresh()
    index = {label: i for i, label in enumerate(state.game.board.labels)}
    for label in ("b3", "b6", "d2", "d5"):
        state.apply_action(index[label] * 3 + 2)  # four 3s
    values = {a % 3 + 1 for a, _ in state.chance_outcomes()}
    assert values == {1, 2}
    with pytest.raises(IllegalActionError):
        state.apply_action(index["f4"] * 3 + 2)


def test_setup_outcome_is_refused_on_bad_cells() -> None:  # §2
    state = new({k: v for k, v in list(LAYOUT.items())[:3]})
    assert state.current_player() == CHANCE
    for bad in ("a1", "d3", "b4"):  # border; adjacent to d2; before the last tile in cell order
        with pytest.raises(IllegalActionError):
            state.apply_action(cell(state, bad) * 3)


# -- §3 turn order -------------------------------------------------------------------------------------


def test_black_moves_first_then_turns_alternate() -> None:  # §3
    state = new()
    assert state.current_player() == 0 and state.observation()["colours"][0] == "Black"
    turn(state, "a1", "a2")
    assert state.current_player() == 1
    turn(state, "k1", "k2")
    assert state.current_player() == 0


# -- §4 a turn --------------------------------------------------------------------------------------------


def test_two_ants_are_compulsory() -> None:  # §4.1
    state = new()
    g = state.game
    assert g.done_action not in state.legal_actions() and g.pass_action not in state.legal_actions()
    with pytest.raises(IllegalActionError, match=r"§4\.1"):
        state.apply_action(g.pass_action)
    play(state, "a1")
    assert state.current_player() == 0 and state.phase == "place" and state.placed == 1
    play(state, "f1")
    assert state.current_player() == 1  # nothing to do with food: the turn ended by itself (§4.3)


def test_second_ant_is_judged_after_the_first() -> None:  # §4.1
    state = new()
    assert cell(state, "b2") not in state.legal_actions()  # interior, no friend yet
    play(state, "a1")
    assert cell(state, "b2") in state.legal_actions()
    play(state, "b2")
    assert state.ant[cell(state, "b2")] == 0


def test_only_one_ant_when_only_one_fits() -> None:  # §4.1
    ants = {label: 1 for label in fresh().game.board.labels}
    ants["a1"] = 0
    del ants["a2"]  # the only empty cell
    state = begin(position(ants))
    assert labels_of(state) == ["a2"]
    play(state, "a2")
    # The board is full: no second ant and no food, so the turn ended after one ant.
    assert state.ant[cell(state, "a2")] == 0 and state.longest[0] == 2
    assert state.current_player() == 1 and labels_of(state) == ["pass"]


def test_food_comes_after_the_ants() -> None:  # §4.2
    state = new()
    turn(state, "a2", "b2")  # b2 touches the 3 on b3
    turn(state, "k1", "k2")
    play(state, "a3")
    assert state.phase == "place"
    t = state.food_at[cell(state, "b3")]
    with pytest.raises(IllegalActionError, match=r"§4\.2"):
        state.apply_action(state.game.select0 + t)
    play(state, "a4")
    assert state.phase == "food"
    assert "pick 3 b3" in labels_of(state) and "done" in labels_of(state)


def test_done_ends_the_turn() -> None:  # §4.3
    state = new()
    play(state, "a2", "b2")
    assert state.phase == "food" and state.current_player() == 0
    play(state, "done")
    assert state.current_player() == 1 and state.food_at[cell(state, "b3")] >= 0


# -- §5 trails and placing ants ---------------------------------------------------------------------------


def test_start_a_trail_on_any_border_cell() -> None:  # §5.1
    state = new()
    board = state.game.board
    assert set(state.legal_actions()) == {c for c in range(91) if board.border[c]}
    with pytest.raises(IllegalActionError, match="not a border cell"):
        state.apply_action(cell(state, "e5"))


def test_extend_from_an_end_only() -> None:  # §5.2, §5.5
    state = new()
    turn(state, "a1", "b2")
    turn(state, "k1", "k2")
    legal = set(labels_of(state))
    # c2, c3 extend from the end b2; a2, b1 touch both ends and would close a loop
    assert {"c3", "c2", "b1", "a2"} <= legal
    turn(state, "c3", "c4")
    assert state.longest[0] == 4
    turn(state, "k6", "j7")
    # c3 is now in the middle of a1-b2-c3-c4: cells touching only c3 among friends are closed.
    assert cell(state, "d3") not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="third friendly neighbour"):
        state.apply_action(cell(state, "d3"))


def test_two_friends_that_are_not_ends_are_refused() -> None:  # §5.5
    state = position({"a1": 0, "a2": 0, "a3": 0, "b1": 0})  # a2 has a1 and a3: a middle ant
    begin(state)
    assert cell(state, "b2") not in state.legal_actions()  # touches a1, a2, a3, b1
    assert cell(state, "b3") not in state.legal_actions()  # touches a2 (middle) and a3


def test_join_two_trails() -> None:  # §5.3
    state = new()
    turn(state, "a1", "a3")
    turn(state, "k1", "k2")
    play(state, "a2")
    assert state.longest[0] == 3 and not state.loop[state.find(cell(state, "a2"))]
    assert state.find(cell(state, "a1")) == state.find(cell(state, "a3"))


def test_close_a_loop_and_loops_cannot_grow() -> None:  # §5.4, §5.5
    state = new()
    turn(state, "a1", "a2")
    turn(state, "k1", "k2")
    play(state, "b2")  # a1, a2, b2 are pairwise adjacent: a loop of three
    root = state.find(cell(state, "b2"))
    assert state.loop[root] and state.longest[0] == 3
    assert state.observation()["loops"] == ["a1", "a2", "b2"]
    for label in ("b1", "a3", "b3", "c2", "c3"):
        assert cell(state, label) not in state.legal_actions(), label


def test_a_loop_around_a_cell() -> None:  # §5.4
    state = begin(position({"a3": 0, "a4": 0, "b5": 0, "c5": 0, "c4": 0}))  # a path around b4, open at b3
    assert state.longest[0] == 5 and not state.loop[state.find(cell(state, "a3"))]
    assert cell(state, "b4") not in state.legal_actions()  # inside: touches all five
    play(state, "b3")  # touches a3 and c4, the two ends of the same trail
    root = state.find(cell(state, "b3"))
    assert state.loop[root] and state.size[root] == 6 and state.longest[0] == 6
    assert state.observation()["loops"] == ["a3", "a4", "b3", "b5", "c4", "c5"]


def test_enemy_ants_do_not_count_and_food_cells_are_not_empty() -> None:  # §5
    state = new()
    turn(state, "a2", "b2")
    play(state, "a1")  # Red next to Black's a2 and b2: allowed
    assert state.ant[cell(state, "a1")] == 1
    play(state, "b1")
    # Black: b3 holds food, so it is not empty.
    with pytest.raises(IllegalActionError, match="not empty"):
        state.apply_action(cell(state, "b3"))


def test_tables_match_a_recomputation_along_random_games() -> None:  # §5, §7.1
    game = boardlab.make("ant-trails")
    for seed in range(4):
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.current_player() >= 0:
                check_tables(state)
            if state.current_player() == CHANCE:
                state.apply_action(sample_chance(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        check_tables(state)


# -- §6 food ------------------------------------------------------------------------------------------------


def test_pick_up_onto_a_chosen_ant() -> None:  # §6.1
    state = position({"a2": 0, "b2": 0, "c3": 0}, {"b3": (3, -1)})  # the trail a2-b2-c3 wraps round b3
    state.can_place = [set(), set()]  # nothing to place, for a clean food phase
    begin(state)
    assert labels_of(state) == ["pick 3 b3", "pass"]
    play(state, "pick 3 b3")
    assert sorted(labels_of(state)) == ["to a2", "to b2", "to c3"]
    play(state, "to c3")
    assert state.tile_holder[0] == 0 and state.tile_cell[0] == cell(state, "c3")
    assert state.food_at[cell(state, "b3")] == -1 and state.banked == [0, 0]


def test_pick_up_frees_the_cell() -> None:  # §6.1
    state = new()
    turn(state, "a2", "b2")
    turn(state, "k1", "k2")
    turn(state, "a3", "a4", "pick 3 b3", "to b2")  # b2 is an interior end: no exit
    assert state.food_at[cell(state, "b3")] == -1 and state.tile_cell[state.tile_holder.index(0)] == cell(state, "b2")
    check_tables(state)  # b3 is empty again, for both players' placements
    turn(state, "b1", "c1")
    assert cell(state, "b3") not in state.legal_actions()  # it touches three Black ants: a2, a3, b2


def test_opponent_food_is_not_yours() -> None:  # §6.1, §6.2
    state = position({"a2": 0, "b2": 0, "c2": 1, "c3": 1}, {"b3": (3, 0), "d4": (2, -1)})
    state.can_place = [set(), set()]
    begin(state, 1)
    # Red may pick up d4 (next to c3) but never touch the 3 carried by Black's b2.
    assert labels_of(state) == ["pick 2 d4", "pass"]
    t = 0
    with pytest.raises(IllegalActionError, match="opponent"):
        state.apply_action(state.game.select0 + t)


def test_carry_one_step_toward_the_exit() -> None:  # §6.2, §6.4
    # Black trail a1-b2-c3-d4-e5 (a1 is a border end, an exit); the 3 rides on d4.
    state = position({"a1": 0, "b2": 0, "c3": 0, "d4": 0, "e5": 0}, {"d4": (3, 0)})
    state.can_place = [set(), set()]
    begin(state)
    assert labels_of(state) == ["move 3 d4", "pass"]
    play(state, "move 3 d4")
    assert labels_of(state) == ["to c3"]  # not back to e5
    play(state, "to c3")
    assert state.phase != "food" or "move 3 c3" not in labels_of(state)  # §6.5: once per turn
    assert state.current_player() == 1  # nothing left to do: the turn ended


def test_free_direction_option() -> None:  # §6.4
    state = position({"a1": 0, "b2": 0, "c3": 0, "d4": 0, "e5": 0}, {"d4": (3, 0)}, must_move_toward_border_end=False)
    state.can_place = [set(), set()]
    begin(state)
    play(state, "move 3 d4")
    assert sorted(labels_of(state)) == ["to c3", "to e5"]


def test_nearest_exit_and_equal_ways() -> None:  # §6.4
    # A path of seven with both ends on border cells: a2-b2-c2-d2-e2-f2-g1.
    trail = ["a2", "b2", "c2", "d2", "e2", "f2", "g1"]
    state = position({x: 0 for x in trail}, {"c2": (2, 0), "d2": (1, 0)})
    assert state.longest[0] == 7 and [state.deg[cell(state, x)] for x in trail] == [1, 2, 2, 2, 2, 2, 1]
    assert state.is_exit(cell(state, "a2")) and state.is_exit(cell(state, "g1"))
    labels = state.game.board.labels
    assert [labels[c] for c in state.steps_from(cell(state, "c2"))] == ["b2"]
    # d2 is three steps from either exit: either way
    assert sorted(labels[c] for c in state.steps_from(cell(state, "d2"))) == ["c2", "e2"]


def way_out(state: AntTrailsState, c: int) -> int | None:
    """Steps along the trail from ant ``c`` to its nearest exit (§6.6), by breadth-first search."""
    p = state.ant[c]
    dist = {c: 0}
    todo = [c]
    for x in todo:
        if state.is_exit(x):
            return dist[x]
        for j in state.game.board.neighbours[x]:
            if state.ant[j] == p and j not in dist:
                dist[j] = dist[x] + 1
                todo.append(j)
    return None


def test_every_step_shortens_the_way_out() -> None:  # §6.4, the termination argument of the Decisions
    """By default a carried tile only ever gets closer to an exit, so food moves cannot go on for ever."""
    game = boardlab.make("ant-trails")
    steps = 0
    for seed in range(3):
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_action(sample_chance(state, rng))
                continue
            if state.phase == "destination" and state.tile_holder[state.selected] >= 0:
                before = way_out(state, state.tile_cell[state.selected])
                assert before is not None  # a tile on a trail without an exit is never offered
                for dest in state.legal_actions():
                    after = way_out(state, dest)
                    assert after is not None and after < before
                steps += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert steps > 20


def test_free_direction_lets_a_tile_go_back() -> None:  # §6.4, why free direction is not the default
    ants = {"a1": 0, "b2": 0, "c3": 0, "d4": 0, "e5": 0}
    state = position(ants, {"c3": (3, 0)}, must_move_toward_border_end=False)
    state.can_place = [set(), set()]
    begin(state)
    turn(state, "move 3 c3", "to d4")  # away from the exit a1: still a turn, not a pass (§8.1)
    assert state.passes == 0
    state.can_place = [set(), set()]
    begin(state, 0)
    turn(state, "move 3 d4", "to c3")  # and back: such turns could go on for ever
    assert state.tile_cell[0] == cell(state, "c3") and not state.is_terminal()


def test_no_exit_no_move() -> None:  # §6.4
    state = position({"c3": 0, "d4": 0, "e5": 0}, {"d4": (3, 0)})
    state.can_place = [set(), set()]
    begin(state)
    assert labels_of(state) == ["pass"] and state.phase == "pass"


def test_several_tiles_on_one_ant_and_the_option() -> None:  # §6.3
    ants = {"a1": 0, "b2": 0, "c3": 0, "d4": 0}
    food = {"c3": (3, 0), "c4": (2, -1)}
    state = position(ants, food)
    state.can_place = [set(), set()]
    begin(state)
    play(state, "pick 2 c4")
    assert "to c3" in labels_of(state)  # c3 already carries the 3
    state = position(ants, food, one_tile_per_ant=True)
    state.can_place = [set(), set()]
    begin(state)
    play(state, "pick 2 c4")
    assert labels_of(state) == ["to d4"]


def test_identical_tiles_are_offered_once() -> None:  # §6
    state = position({"a1": 0, "b2": 0, "c3": 0, "d4": 0}, {"c3": (2, 0), "d4": (2, 0)})
    state.tile_cell[1] = cell(state, "c3")  # both 2s on c3
    state._rebuild_tables()
    state.can_place = [set(), set()]
    begin(state)
    assert labels_of(state) == ["move 2 c3", "pass"]
    with pytest.raises(IllegalActionError, match="same as the tile offered as 'move 2 c3'"):
        state.apply_action(state.game.select0 + 1)
    play(state, "move 2 c3", "to b2")
    assert labels_of(state) == ["move 2 c3", "done"]  # the other one may still move


def test_picked_up_food_waits_a_turn_unless_the_option() -> None:  # §6.5
    ants = {"a1": 0, "b2": 0, "c3": 0}
    food = {"c4": (2, -1)}
    state = position(ants, food)
    state.can_place = [set(), set()]
    begin(state)
    play(state, "pick 2 c4", "to c3")
    assert state.current_player() == 1  # the tile may not move again: nothing left, the turn ended
    state = position(ants, food, pickup_then_move=True)
    state.can_place = [set(), set()]
    begin(state)
    play(state, "pick 2 c4", "to c3")
    assert labels_of(state) == ["move 2 c3", "done"]
    play(state, "move 2 c3", "to b2")
    assert state.current_player() == 1


def test_each_tile_steps_once_per_turn() -> None:  # §6.5
    state = position({"a1": 0, "b2": 0, "c3": 0, "d4": 0}, {"d4": (3, 0)})
    state.can_place = [set(), set()]
    begin(state)
    play(state, "move 3 d4", "to c3")
    assert state.current_player() == 1
    state.can_place = [set(), set()]
    begin(state, 0)
    play(state, "move 3 c3", "to b2")
    assert state.tile_cell[0] == cell(state, "b2")


# -- §7 banking ---------------------------------------------------------------------------------------------


def test_food_reaching_a_border_end_is_banked() -> None:  # §6.6, §7.1
    state = position({"a1": 0, "b2": 0, "c3": 0}, {"b2": (3, 0)})
    state.can_place = [set(), set()]
    begin(state)
    play(state, "move 3 b2", "to a1")
    assert state.tile_cell[0] == -1 and state.banked == [3, 0] and state.score(0) == 3 + 3


def test_pick_up_straight_onto_an_exit_banks() -> None:  # §7.1
    state = new()
    play(state, "a3", "a4")  # a trail of two, both ends on the border; the 3 on b3 touches a3
    assert state.phase == "food"
    play(state, "pick 3 b3")
    assert labels_of(state) == ["to a3"]
    play(state, "to a3")
    assert state.banked == [3, 0] and state.current_player() == 1


def test_middle_of_a_path_on_the_border_is_no_exit() -> None:  # §6.6
    state = position({"a1": 0, "a2": 0, "a3": 0, "b4": 0})  # a1-a2-a3-b4: a2, a3 are in the middle
    assert not state.is_exit(cell(state, "a2")) and not state.is_exit(cell(state, "a3"))
    assert state.is_exit(cell(state, "a1")) and not state.is_exit(cell(state, "b4"))


def test_closing_a_loop_banks_food_on_its_border_ants() -> None:  # §6.6, §7.1
    # The path a3-a2-b2-c3-c4 carries a 2 on a2, a border cell in the middle of the path (no exit yet).
    loop_state = position({"a3": 0, "a2": 0, "b2": 0, "c3": 0, "c4": 0}, {"a2": (2, 0)})
    assert not loop_state.is_exit(cell(loop_state, "a2"))
    begin(loop_state)
    assert cell(loop_state, "b4") in loop_state.legal_actions()  # touches a3 and c4, the two ends
    play(loop_state, "b4")
    assert loop_state.loop[loop_state.find(cell(loop_state, "b4"))]
    assert loop_state.banked == [2, 0] and loop_state.tile_cell[0] == -1


def test_loops_have_no_exit_option() -> None:  # §6.6
    loop_state = position({"a3": 0, "a2": 0, "b2": 0, "c3": 0, "c4": 0}, {"a2": (2, 0)}, loops_have_no_exit=True)
    begin(loop_state)
    play(loop_state, "b4")
    assert loop_state.banked == [0, 0] and loop_state.tile_cell[0] == cell(loop_state, "a2")
    assert not loop_state.steps_from(cell(loop_state, "a2"))


# -- §8 passing and the end -------------------------------------------------------------------------------


def test_no_placement_but_food_moves_by_default() -> None:  # §8.1
    state = position({"a1": 0, "b2": 0, "c3": 0, "d4": 0}, {"d4": (3, 0)})
    state.can_place = [set(), set()]
    begin(state)
    assert state.phase == "food" and labels_of(state) == ["move 3 d4", "pass"]
    strict = position({"a1": 0, "b2": 0, "c3": 0, "d4": 0}, {"d4": (3, 0)}, pass_when_no_placement=True)
    strict.can_place = [set(), set()]
    begin(strict)
    assert strict.phase == "pass" and labels_of(strict) == ["pass"]


def test_pass_and_done_are_refused_at_the_wrong_time() -> None:  # §4.3, §8.1
    state = position({"a1": 0, "b2": 0, "c3": 0, "d4": 0}, {"d4": (3, 0)})
    state.can_place = [set(), set()]
    begin(state)
    with pytest.raises(IllegalActionError, match="pass instead"):
        state.apply_action(state.game.done_action)
    play(state, "move 3 d4")
    with pytest.raises(IllegalActionError, match="choose where the selected food tile goes"):
        state.apply_action(state.game.pass_action)


def test_two_passes_in_a_row_end_the_game() -> None:  # §8.2, §9
    ants = {label: (i % 2) for i, label in enumerate(fresh().game.board.labels)}
    state = position(ants)
    state.can_place = [set(), set()]
    begin(state)
    assert labels_of(state) == ["pass"]
    play(state, "pass")
    assert state.current_player() == 1 and state.passes == 1
    play(state, "pass")
    assert state.current_player() == TERMINAL and state.is_terminal()


def test_a_pass_then_a_real_turn_resets_the_count() -> None:  # §8.2
    state = new()
    turn(state, "a1", "a2")
    state.can_place[1] = set()
    begin(state, 1)
    play(state, "pass")
    assert state.passes == 1 and state.current_player() == 0
    turn(state, "a3", "a4")
    assert state.passes == 0 and not state.is_terminal()


# -- §9 scoring ---------------------------------------------------------------------------------------------


def test_score_is_longest_trail_plus_banked_food() -> None:  # §9.1, §9.2
    state = position({"a1": 0, "a2": 0, "a3": 0, "k1": 1}, {"e5": (3, -1)})
    state.banked = [2, 5]
    state._finish()
    assert state.score(0) == 3 + 2 and state.score(1) == 1 + 5
    assert state.returns() == [-1.0, 1.0]
    assert "Red wins 6 to 5" in state.scene(None)["prompt"]


def test_a_loop_counts_all_its_ants() -> None:  # §9.1
    state = position({"a1": 0, "a2": 0, "b2": 0})
    assert state.longest[0] == 3 and state.loop[state.find(cell(state, "a1"))]


def test_tie_is_a_draw_or_goes_to_banked_food() -> None:  # §9.3
    ants = {"a1": 0, "a2": 0, "a3": 0, "a4": 0, "k1": 1}
    state = position(ants)
    state.banked = [0, 3]
    state._finish()
    assert state.returns() == [0.0, 0.0] and "Draw" in state.scene(None)["prompt"]
    state = position(ants, tie_break="banked_food")
    state.banked = [0, 3]
    state._finish()
    assert state.returns() == [-1.0, 1.0]


# -- views, speed, termination ---------------------------------------------------------------------------


def test_scene_targets_highlights_and_trails() -> None:
    state = new()
    scene = state.scene(0)
    assert check_scene(scene, state.legal_moves(0)) == []
    assert {t["at"] for t in scene["targets"]} == {
        state.game.board.labels[c] for c in range(91) if state.game.board.border[c]
    }
    assert sum(1 for p in scene["pieces"] if p["kind"] == "food") == 12
    play(state, "a3", "a4")
    scene = state.scene(0)
    assert check_scene(scene, state.legal_moves(0)) == []
    trail = next(e for e in scene["edges"] if e["id"] == "a3-a4")
    assert trail["kind"] == "trail" and trail["stroke"] == scene["players"][0]["colour"]
    # Owners are seats; Black (seat 0) is drawn in black ink, Red in red.
    ant = next(p for p in scene["pieces"] if p["at"] == "a3")
    assert ant["owner"] == 0 and ant["colour"] == scene["players"][0]["colour"] == INK_OF["Black"]
    assert scene["players"][1]["colour"] == INK_OF["Red"]
    assert [z["owner"] for z in scene["zones"]] == [0, 1]
    t = state.food_at[cell(state, "b3")]
    assert {"at": "b3", "action": state.game.select0 + t, "label": "pick 3 b3"} in scene["targets"]
    assert any(b["label"] == "done" for b in scene["buttons"])
    assert {"at": "a3", "kind": "last"} in scene["highlights"]
    play(state, "pick 3 b3")
    scene = state.scene(0)
    assert {"at": "b3", "kind": "selected"} in scene["highlights"]
    assert [t["at"] for t in scene["targets"]] == ["a3"]
    assert scene["prompt"].startswith("Pick up the 3-point food")
    play(state, "to a3")
    scene = state.scene(None)
    assert [i["label"] for i in scene["zones"][0]["items"]] == ["3"]
    assert scene["status"][0] == "Black: trail 2 + food 3 = 5"


def test_labels_round_trip_and_explanations() -> None:
    state = new()
    assert state.action_to_string(CHANCE, cell(state, "d5") * 3 + 2) == "food 3 on d5"
    with pytest.raises(IllegalActionError, match="touches none of your ants"):
        state.apply_action(cell(state, "e5"))
    with pytest.raises(IllegalActionError):
        state.apply_action(state.game.done_action)


def test_random_games_are_fast_and_end() -> None:
    game = boardlab.make("ant-trails")
    start = time.perf_counter()
    for seed in range(20):
        state, capped = random_playout(game.new_initial_state(), random.Random(seed))
        assert not capped and state.is_terminal()
        assert len(state.history()) < game.max_game_length() // 4
    assert (time.perf_counter() - start) / 20 < 0.05


@pytest.mark.parametrize(
    "options",
    [
        {"must_move_toward_border_end": False},
        {"pickup_then_move": True},
        {"one_tile_per_ant": True},
        {"loops_have_no_exit": True},
        {"pass_when_no_placement": True},
    ],
)
def test_options_play_to_the_end(options: dict[str, object]) -> None:
    game = boardlab.make("ant-trails", **options)
    for seed in range(3):
        state, capped = random_playout(game.new_initial_state(), random.Random(seed))
        assert not capped and state.is_terminal()
        replay = game.state_from_history(state.history())
        assert replay.returns() == state.returns()
