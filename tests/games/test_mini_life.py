"""Mini Game of Life scenarios; clause numbers refer to docs/rules/mini-life.md."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.cli.render import scene_text
from boardlab.core.constants import TERMINAL
from boardlab.core.errors import IllegalActionError
from boardlab.core.play import random_playout
from boardlab.core.scene import check_scene
from boardlab.games.mini_life import (
    BLUE,
    DECIDE,
    DIRECT,
    DIRECTION_NAMES,
    EMPTY,
    FRONT,
    LABELS,
    RAYS,
    RED,
    MiniLifeState,
    grow,
    kill,
)
from boardlab.games.mini_life import N as SQUARES

N_, NE, E, SE, S, SW, W, NW = range(8)


def game(**options: object) -> boardlab.Game:
    return boardlab.make("mini-life", **options)


def sq(label: str) -> int:
    return LABELS.index(label)


def position(g: boardlab.Game, cells: dict[str, tuple[int, int]], generation: int = 0, step: int = 0) -> MiniLifeState:
    """A hand-made decision-phase position ``{square: (owner, direction)}``; it has no history."""
    s = g.new_initial_state()
    assert isinstance(s, MiniLifeState)
    s.owner = [EMPTY] * 36
    s.facing = [0] * 36
    for label, (p, d) in cells.items():
        s.owner[sq(label)], s.facing[sq(label)] = p, d
    s.phase, s.generation, s.step = DECIDE, generation, step
    return s


def play(s: MiniLifeState, *labels: str) -> None:
    for label in labels:
        s.apply_action(s.string_to_action(None, label))


def labels_of(s: MiniLifeState) -> list[str]:
    return [label for _, label in s.legal_moves()]


def board(s: MiniLifeState) -> dict[str, tuple[int, str]]:
    return {LABELS[i]: (s.owner[i], DIRECTION_NAMES[s.facing[i]]) for i in range(36) if s.owner[i] != EMPTY}


def test_placement_order_and_directions() -> None:  # §1, §3
    s = game().new_initial_state()
    order = []
    for k, label in enumerate(["a1", "b1", "c1", "d1", "e1", "f1"]):
        order.append(s.current_player())
        assert len(s.legal_actions()) == 8 * (36 - k)
        play(s, f"place {label} facing NE")
    assert order == [BLUE, RED, RED, BLUE, RED, BLUE]
    assert board(s)["b1"] == (RED, "NE") and board(s)["f1"] == (BLUE, "NE")
    assert s.observation()["phase"] == "decide" and s.current_player() == BLUE
    with pytest.raises(IllegalActionError, match="placements are over"):
        s.apply_action(s.game.action_space.encode("place", sq("a6"), 0))


def test_a_placement_goes_on_an_empty_square() -> None:  # §3
    s = game().new_initial_state()
    play(s, "place c3 facing N")
    with pytest.raises(IllegalActionError, match="empty square"):
        s.apply_action(s.game.action_space.encode("place", sq("c3"), 2))


def test_move_one_square_keeping_the_direction() -> None:  # §4.2
    s = position(game(), {"c3": (BLUE, NE), "c4": (RED, S)})
    moves = [x for x in labels_of(s) if x.startswith("move")]
    assert moves == ["move c3 to b3", "move c3 to d3", "move c3 to c2"]
    play(s, "move c3 to d3")
    assert board(s)["d3"] == (BLUE, "NE") and "c3" not in board(s)
    assert s.current_player() == RED  # the order B R R B R B


def test_rook_moves_slide_over_empty_squares() -> None:  # §4.2, option move
    s = position(game(move="rook"), {"c3": (BLUE, NE), "c5": (RED, S)})
    moves = {x for x in labels_of(s) if x.startswith("move")}
    assert {"move c3 to c4", "move c3 to a3", "move c3 to f3", "move c3 to c1"} <= moves
    assert "move c3 to c5" not in moves and "move c3 to c6" not in moves
    with pytest.raises(IllegalActionError, match="row or column over empty squares"):
        s.apply_action(s.game.action_space.encode("move", sq("c3"), sq("c6")))


def test_turn_must_change_the_direction_and_only_own_cells() -> None:  # §4.3, §4.5
    s = position(game(), {"c3": (BLUE, N_), "d4": (RED, S)})
    turns = [x for x in labels_of(s) if x.startswith("turn")]
    assert len(turns) == 7 and "turn c3 to N" not in turns
    with pytest.raises(IllegalActionError, match="must change"):
        s.apply_action(s.game.action_space.encode("turn", sq("c3"), N_))
    with pytest.raises(IllegalActionError, match="no cell of yours"):
        s.apply_action(s.game.action_space.encode("turn", sq("d4"), N_))
    play(s, "turn c3 to SW")
    assert board(s)["c3"] == (BLUE, "SW")


def test_raise_needs_two_cells_pointing_at_an_empty_square() -> None:  # §4.4
    # a Blue cell on b2 and a Red cell on d2 both point at c3
    cells = {"b2": (BLUE, NE), "d2": (RED, NW), "f6": (BLUE, S)}
    s = position(game(), cells)
    raises = [x for x in labels_of(s) if x.startswith("raise")]
    assert raises == [f"raise c3 facing {d}" for d in DIRECTION_NAMES]
    play(s, "raise c3 facing W")
    assert board(s)["c3"] == (BLUE, "W")
    s = position(game(raise_by="own"), cells)
    assert not [x for x in labels_of(s) if x.startswith("raise")]
    with pytest.raises(IllegalActionError, match="two or more cells of yours pointing at c3; it has 1"):
        s.apply_action(s.game.action_space.encode("raise", sq("c3"), 0))


def test_the_growth_example() -> None:  # §5 example
    s = position(game(), {"b2": (BLUE, N_), "c2": (BLUE, N_), "d2": (RED, N_), "d3": (RED, N_)}, step=5)
    play(s, "turn b2 to NE")  # Blue's sixth move
    # b2 now points NE at c3: c3 gets a Blue cell from both b2 (NE) and c2 (N): Blue chooses its direction
    assert s.phase == DIRECT and s.current_player() == BLUE
    assert labels_of(s) == ["point c3 N", "point c3 NE"]
    play(s, "point c3 N")
    assert board(s) == {
        "b2": (BLUE, "NE"),
        "c2": (BLUE, "N"),
        "c3": (BLUE, "N"),
        "d2": (RED, "N"),
        "d3": (RED, "N"),
        "d4": (RED, "N"),
    }
    assert s.phase == DECIDE and s.generation == 1


def test_the_growth_example_as_written() -> None:  # §5 example
    g = grow(*_lists({"b2": (BLUE, N_), "c2": (BLUE, N_), "d2": (RED, N_), "d3": (RED, N_)}))
    assert g["lonely"] == [] and g["crowded"] == []
    assert sorted(LABELS[i] for i in g["born"]) == ["b3", "c3", "d4"] and g["pending"] == []
    assert kill(g["owner"], g["facing"]) == []


def _lists(cells: dict[str, tuple[int, int]]) -> tuple[list[int], list[int]]:
    owner, facing = [EMPTY] * 36, [0] * 36
    for label, (p, d) in cells.items():
        owner[sq(label)], facing[sq(label)] = p, d
    return owner, facing


def test_loneliness_then_crowding() -> None:  # §5.1, §5.2
    # a lone Blue cell on a1 dies; the Blue cell on c3 has three neighbours (b3, d3 Blue, c4 Red) and dies;
    # c4's Red cell has a Red neighbour c5 and survives
    cells = {
        "a1": (BLUE, N_),
        "b3": (BLUE, S),
        "c3": (BLUE, S),
        "d3": (BLUE, S),
        "c4": (RED, N_),
        "c5": (RED, N_),
    }
    g = grow(*_lists(cells))
    assert [LABELS[i] for i in g["lonely"]] == ["a1"]
    assert [LABELS[i] for i in g["crowded"]] == ["c3"]
    # crowding counts after loneliness: with a1 gone nothing changes for the others
    assert g["owner"][sq("b3")] == BLUE and g["owner"][sq("c4")] == RED


def test_growing_contested_squares() -> None:  # §5.3
    # c3 is pointed at by two Blue cells (b2 NE, b3 E) and one Red (d3 W): Blue grows there
    # e5 is pointed at by one Blue (e4 N, with a friend f4) and one Red (d5 E, friend d6): a tie, nothing grows
    cells = {
        "b2": (BLUE, NE),
        "b3": (BLUE, E),
        "d3": (RED, W),
        "d4": (RED, S),
        "e4": (BLUE, N_),
        "f4": (BLUE, SW),
        "d5": (RED, E),
        "d6": (RED, N_),
    }
    g = grow(*_lists(cells))
    assert g["owner"][sq("c3")] == BLUE
    assert g["owner"][sq("e5")] == EMPTY
    assert (sq("c3"), BLUE, (NE, E)) in g["pending"]
    assert [LABELS[i] for i in g["crowded"]] == ["d4"]  # d3, d5 and Blue's e4 around it
    assert g["owner"][sq("e3")] == BLUE and g["facing"][sq("e3")] == SW  # one parent: its direction
    # nothing grows off the board: d6 points N off the top
    assert sorted(LABELS[i] for i in g["born"]) == ["c3", "e3"]


def test_owner_any_chooses_every_new_direction() -> None:  # §5.3, option grow_dir
    s = position(
        game(grow_dir="owner_any"), {"b2": (BLUE, N_), "c2": (BLUE, N_), "e5": (RED, S), "e6": (RED, S)}, step=5
    )
    play(s, "turn b2 to S")
    # b2 -> b1 and c2 -> c3 grow Blue cells; e5 -> e4 grows a Red cell; every owner chooses freely,
    # in reading order: e4 (row 4), then c3, then b1
    assert s.phase == DIRECT and s.current_player() == RED and len(labels_of(s)) == 8
    play(s, "point e4 E")
    assert s.current_player() == BLUE
    play(s, "point c3 W")
    play(s, "point b1 N")
    assert board(s)["c3"] == (BLUE, "W") and board(s)["e4"] == (RED, "E")


def test_killing_and_pointing_back() -> None:  # §5.4
    # Blue c3 points E at Red d3, which points W back: neither dies; Blue b5 points E at Red c5, which points N:
    # c5 dies
    owner, facing = _lists({"c3": (BLUE, E), "d3": (RED, W), "b5": (BLUE, E), "c5": (RED, N_)})
    assert [LABELS[i] for i in kill(owner, facing)] == ["c5"]


def test_a_full_growth_phase_with_a_kill_and_the_end() -> None:  # §5, §6.1
    # the lone Red cell on f1 dies of loneliness; Blue's b2 and b3 grow a cell on c3: Red has no cell left
    cells = {"b2": (BLUE, E), "b3": (BLUE, E), "f1": (RED, N_)}
    s = position(game(), cells, step=5)
    play(s, "turn b2 to NE")  # b2 NE -> c3, b3 E -> c3: Blue chooses
    play(s, "point c3 E")
    assert s.is_terminal() and s.current_player() == TERMINAL and s.returns() == [1.0, -1.0]
    assert s.observation()["report"]["lonely"] == [sq("f1")]


def test_both_out_of_cells_is_a_draw() -> None:  # §6.1
    s = position(game(), {"a1": (BLUE, N_), "f6": (RED, S)}, step=5)
    play(s, "turn a1 to E")
    assert s.is_terminal() and s.returns() == [0.0, 0.0]


def test_the_order_swaps_after_each_growth_phase() -> None:  # §6.2
    cells = {"a1": (BLUE, E), "a2": (BLUE, E), "f5": (RED, W), "f6": (RED, W)}
    s = position(game(), cells)
    seen = []
    # every cell turns to point off the board: nothing grows, nothing dies
    for label in ("turn a1 to S", "turn f6 to N", "turn f5 to E", "turn a2 to W", "turn f6 to NE", "turn a1 to SW"):
        seen.append(s.current_player())
        play(s, label)
    assert seen == [BLUE, RED, RED, BLUE, RED, BLUE]
    assert not s.is_terminal() and s.generation == 1
    assert s.current_player() == RED and s.observation()["order"] == ["R", "B", "B", "R", "B", "R"]


def test_eighteen_moves_per_phase() -> None:  # §4.1, option moves_per_phase
    s = position(game(moves_per_phase=18), {"a1": (BLUE, E), "a2": (BLUE, E), "f5": (RED, W), "f6": (RED, W)})
    for _ in range(17):
        s.apply_action(s.legal_actions()[0])
    assert s.generation == 0 and s.step == 17


def test_the_generation_limit_counts_cells() -> None:  # §6.3
    g = game(generation_limit=20)
    s = position(
        g, {"a1": (BLUE, N_), "a2": (BLUE, S), "f5": (RED, N_), "f6": (RED, S), "e6": (RED, W)}, generation=19, step=5
    )
    assert s.current_player() == RED  # after 19 growth phases the order is swapped
    play(s, "turn f5 to W")
    assert s.is_terminal() and s.generation == 20 and s.counts()[RED] > s.counts()[BLUE]
    assert s.returns() == [-1.0, 1.0]
    assert g.max_game_length() == 6 + 20 * (6 + 36)


def test_random_games_end_by_the_rules() -> None:  # §6
    for seed in range(30):
        s, capped = random_playout(game().new_initial_state(), random.Random(seed))
        assert not capped and s.is_terminal()


def test_the_scene_shows_pointing_cells() -> None:
    s = position(game(), {"b2": (BLUE, NE), "d2": (RED, NW), "f6": (BLUE, S)})
    scene = s.scene(BLUE)
    assert check_scene(scene, s.legal_moves(BLUE)) == []
    facing = {p["at"]: p["facing"] for p in scene["pieces"]}
    assert facing == {"b2": 45.0, "d2": 315.0, "f6": 180.0}
    text = scene_text(scene, labels_of(s))
    assert "Move, turn or raise" in text


# -- the legal lists against the square-by-square rules -------------------------------------------------------


def reference_legal(s: MiniLifeState, player: int) -> list[int]:
    """The placement and decision lists as first written: every square and direction tested from scratch."""
    g = s.game
    if s.phase == "place":
        return [g.place0 + 8 * i + d for i in range(SQUARES) if s.owner[i] == EMPTY for d in range(8)]
    if s.phase != "decide":
        return s._legal_actions(player)
    pointed = [0] * SQUARES
    for j in range(SQUARES):
        p = s.owner[j]
        if p >= 0 and (not g.raise_own or p == player):
            f = FRONT[j][s.facing[j]]
            if f >= 0:
                pointed[f] += 1
    out = []
    for i in range(SQUARES):
        if s.owner[i] == player:
            for ray in RAYS[i]:
                for j in ray:
                    if s.owner[j] != EMPTY:
                        break
                    out.append(g.move0 + SQUARES * i + j)
                    if not g.rook:
                        break
            out += [g.turn0 + 8 * i + d for d in range(8) if d != s.facing[i]]
        elif s.owner[i] == EMPTY and pointed[i] >= 2:
            out += [g.raise0 + 8 * i + d for d in range(8)]
    return sorted(out)


@pytest.mark.parametrize(
    "options",
    [{}, {"move": "rook"}, {"raise_by": "own"}, {"move": "rook", "raise_by": "own", "moves_per_phase": 18}],
)
def test_legal_lists_match_the_square_by_square_rules(options: dict[str, object]) -> None:
    g = game(**options, generation_limit=20)
    steps = 0
    for seed in range(200):
        rng = random.Random(seed)
        s = g.new_initial_state()
        while s.current_player() != TERMINAL:
            legal = s.legal_actions()
            assert legal == reference_legal(s, s.current_player()), (seed, s.move_number())
            s.apply_action(rng.choice(legal))
            steps += 1
    assert steps > 2000
