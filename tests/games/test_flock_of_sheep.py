"""Flock of Sheep scenarios; clause numbers refer to docs/rules/flock-of-sheep.md."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.cli.render import scene_text
from boardlab.core.constants import CHANCE, TERMINAL
from boardlab.core.errors import IllegalActionError
from boardlab.core.play import random_playout
from boardlab.core.scene import check_scene
from boardlab.games.flock_of_sheep import (
    BLACK,
    COLUMN_LETTERS,
    PICTURED,
    TILES,
    WHITE,
    FlockOfSheepState,
    contact,
    initial_face,
)

#: Centres (x, y) where tiles not used by a scenario are parked (three apart: they never touch), the top and
#: bottom rows of a 19-line board first.
SPOTS = (1, 4, 7, 10, 13, 16)
PARKING = [(x, y) for y in (1, 16) for x in SPOTS] + [(x, y) for x in (1, 16) for y in SPOTS[1:-1]]


def game(**options: object) -> boardlab.Game:
    return boardlab.make("flock-of-sheep", **options)


def pt(x: int, y: int, lines: int = 19) -> str:
    """The label of the point (x, y): column from the left, row from the top."""
    return f"{COLUMN_LETTERS[x]}{lines - y}"


def dealt(g: boardlab.Game, order: list[int] | None = None) -> FlockOfSheepState:
    """A game after the deal: ``order[i]`` is the tile dealt into ring place i (default: 0, 1, …, 11)."""
    s = g.new_initial_state()
    assert isinstance(s, FlockOfSheepState)
    for t in order or list(range(TILES)):
        s.apply_action(t)
    return s


def position(
    g: boardlab.Game,
    sheep: dict[tuple[int, int], tuple[int, int]],
    flocked: tuple[int, ...] = (),
    dispersing: bool = False,
    to_move: int = BLACK,
) -> FlockOfSheepState:
    """A hand-made position: ``{centre (x, y): (tile, face)}``; other tiles are parked on the edges.

    Such a state has no history, so it cannot be replayed or saved."""
    s = dealt(g)
    b = s.game.board
    placed = {t for t, _ in sheep.values()}
    spots = iter(p for p in PARKING if all(abs(p[0] - x) > 2 or abs(p[1] - y) > 2 for x, y in sheep))
    at = dict(sheep)
    for t in range(TILES):
        if t not in placed:
            at[next(spots)] = (t, initial_face(t))
    for (x, y), (t, f) in at.items():
        s.pos[t] = b.anchor_of[y * b.lines + x]
        s.face[t] = f
    s.flocked = [t in flocked for t in range(TILES)]
    s.dispersing = dispersing
    s._rebuild()
    s.moves = 0
    s._start_turn(to_move)
    return s


def play(s: FlockOfSheepState, *labels: str) -> None:
    for label in labels:
        s.apply_action(s.string_to_action(None, label))


def refuse(s: FlockOfSheepState, point: str, match: str) -> None:
    """Playing the point ``point`` is refused with a reason matching ``match``, and changes nothing."""
    before = s.to_json()
    with pytest.raises(IllegalActionError, match=match):
        s.apply_action(s.game.board.labels.index(point))
    assert s.to_json() == before


def labels_of(s: FlockOfSheepState) -> list[str]:
    return [label for _, label in s.legal_moves()]


def centre_of(s: FlockOfSheepState, t: int) -> tuple[int, int]:
    x, y = s.game.board.xy(s.pos[t])
    return x + 1, y + 1


# -- §1 board and pieces ------------------------------------------------------------------------


def test_tiles_picture_seven_sheep_in_two_sets() -> None:  # §1.3
    assert PICTURED == ((6, 1), (5, 2), (4, 3), (3, 4), (2, 5), (1, 6))
    s = dealt(game())
    obs = s.observation()
    assert [x["kind"] for x in obs["sheep"]] == ["6:1", "5:2", "4:3", "3:4", "2:5", "1:6"] * 2
    black_up = sum(x["pictured"] for x in obs["sheep"] if x["face"] == BLACK)
    white_up = sum(x["pictured"] for x in obs["sheep"] if x["face"] == WHITE)
    assert black_up == white_up == 21  # §2


def test_points_are_named_as_on_a_go_board() -> None:  # §1.1
    g = game()
    assert g.board.labels[9 * 19 + 9] == "k10" and g.board.labels[0] == "a19" and g.board.labels[-1] == "t1"
    assert "i" not in "".join(g.board.labels)
    assert game(board_lines=13).board.labels[6 * 13 + 6] == "g7"
    with pytest.raises(ValueError, match="board_lines"):
        game(board_lines=9)


# -- §2 setup ---------------------------------------------------------------------------------------


def test_the_deal_fills_the_pen_at_random_and_is_one_log_line() -> None:  # §2
    g = game()
    s = g.new_initial_state()
    assert s.current_player() == CHANCE and len(s.chance_outcomes()) == 12
    assert s.action_to_string(CHANCE, 0) == "the 6:1 sheep, black side up"
    assert s.action_to_string(CHANCE, 11) == "the 1:6 sheep, white side up"
    s.apply_action(7)
    assert [a for a, _ in s.chance_outcomes()] == [t for t in range(12) if t != 7]
    for t in [t for t in range(12) if t != 7]:
        s.apply_action(t)
    assert s.current_player() == BLACK
    assert s.move_log(None)[0]["text"] == "The sheep were dealt around the pen."
    # the ring: 4x4 places minus the middle 2x2, around the nine central points j9-l11
    centres = {centre_of(s, t) for t in range(TILES)}
    assert centres == {(6 + 2 * c, 6 + 2 * r) for c in range(4) for r in range(4)} - {
        (8, 8),
        (10, 8),
        (8, 10),
        (10, 10),
    }
    assert centre_of(s, 7) == (6, 6)  # dealt into the first place


def test_the_pen_example_shared_edges_and_corners() -> None:  # §2 example, §5.1
    s = dealt(game())
    edge, corner = s.touching()
    assert edge == [4] * 12
    obs = s.observation()
    assert obs["shared_edge"] == 24 and obs["corner_touches"] == 4
    assert sum(corner) == 8 and obs["dispersing"]


# -- §3, §4 moving ------------------------------------------------------------------------------------


def test_black_moves_first_by_centre_then_landing_point() -> None:  # §3, §4.5
    s = position(game(), {(9, 9): (0, BLACK)})
    assert s.current_player() == BLACK
    assert "sheep k10" in labels_of(s)
    play(s, "k10")
    assert s.current_player() == BLACK and s.observation()["phase"] == "destination"
    play(s, "to p10")
    assert s.current_player() == WHITE and centre_of(s, 0) == (14, 9)


def test_five_steps_with_at_most_one_turn_reach_twenty_points() -> None:  # §4.1
    s = position(game(), {(9, 9): (0, BLACK)})
    play(s, "k10")
    dests = {centre_of_label(x) for x in labels_of(s)}
    assert len(dests) == 20 and all(abs(x - 9) + abs(y - 9) == 5 for x, y in dests)
    with pytest.raises(IllegalActionError, match="exactly five steps"):
        s.apply_action(s.game.board.labels.index(pt(12, 9)))


def centre_of_label(label: str) -> tuple[int, int]:
    point = label.split()[-1]  # "to k15" or "sheep k15"
    return COLUMN_LETTERS.index(point[0]), 19 - int(point[1:])


def test_a_sheep_stays_on_the_board() -> None:  # §4.1
    s = position(game(), {(3, 9): (0, BLACK)})  # three lines from the left edge: its side is on line 2
    play(s, pt(3, 9))
    dests = {centre_of_label(x) for x in labels_of(s)}
    assert (1, 6) in dests and (1, 12) in dests  # two steps left at most: the side reaches line 0
    assert all(x >= 1 for x, _ in dests) and len(dests) == 15  # the 5 points 3 or more steps left are off


def test_sheep_may_not_slide_through_others_but_may_turn_around_them() -> None:  # §4.2
    g = game()
    # a sheep two steps to the right blocks the straight move, but not a move that first goes up
    s = position(g, {(9, 9): (0, BLACK), (12, 9): (1, WHITE)})
    play(s, "k10")
    dests = {centre_of_label(x) for x in labels_of(s)}
    assert (14, 9) not in dests
    assert (12, 7) in dests  # up 2 then right 3 goes round it (right first would run into it)
    refuse(s, pt(14, 9), "in the way")
    # jumping: only the landing point must be free
    s = position(game(jump_allowed=True), {(9, 9): (0, BLACK), (12, 9): (1, WHITE)})
    play(s, "k10")
    assert (14, 9) in {centre_of_label(x) for x in labels_of(s)}


def test_a_turning_move_needs_one_free_way_round() -> None:  # §4.2
    g = game()
    # to (11, 12): right 2 then down 3, or down 3 then right 2; a sheep at (12, 9) blocks the first way only
    s = position(g, {(9, 9): (0, BLACK), (12, 9): (1, WHITE)})
    play(s, "k10")
    assert (11, 12) in {centre_of_label(x) for x in labels_of(s)}
    # a second sheep at (8, 12) blocks the other way too
    s = position(g, {(9, 9): (0, BLACK), (12, 9): (1, WHITE), (8, 12): (2, BLACK)})
    play(s, "k10")
    assert (11, 12) not in {centre_of_label(x) for x in labels_of(s)}
    refuse(s, pt(11, 12), "in the way")


def test_any_unflocked_sheep_or_only_ones_own_colour() -> None:  # §4.3
    sheep = {(9, 9): (0, BLACK), (9, 13): (6, WHITE)}
    s = position(game(), sheep)
    assert {"sheep k10", "sheep k6"} <= set(labels_of(s))
    s = position(game(who_moves="own_colour"), sheep)
    assert "sheep k10" in labels_of(s) and "sheep k6" not in labels_of(s)
    refuse(s, "k6", "only sheep showing Black")


def test_a_moved_sheep_flips() -> None:  # §4.4
    s = position(game(), {(9, 9): (0, BLACK)})
    play(s, "k10", "p10")
    assert s.face[0] == WHITE and s.observation()["sheep"][0]["pictured"] == 1


# -- §5 dispersing ------------------------------------------------------------------------------------


def test_the_sheep_with_most_shared_edge_moves_first() -> None:  # §5.2
    # 0 and 1 share 2 steps of edge; 2 and 3 share 1 step
    sheep = {(7, 9): (0, BLACK), (9, 9): (1, BLACK), (13, 12): (2, WHITE), (15, 13): (3, WHITE)}
    s = position(game(), sheep, dispersing=True)
    assert sorted(labels_of(s)) == ["sheep h10", "sheep k10"]
    refuse(s, pt(13, 12), "most shared edge must move")
    refuse(s, pt(1, 1), "only a sheep that touches another")


def test_the_move_must_loosen_the_pen() -> None:  # §5.3 (pareto), §5.5
    sheep = {(7, 9): (0, BLACK), (9, 9): (1, BLACK)}
    s = position(game(), sheep, dispersing=True)
    play(s, "k10")
    dests = {centre_of_label(x) for x in labels_of(s)}
    assert (14, 9) in dests  # right 5: it touches nothing
    assert (6, 11) in dests  # down 2, left 3: still one step of edge with tile 0, but the total falls from 2 to 1
    assert (9, 4) in dests and (10, 5) in dests
    play(s, "p10")
    assert s.face[1] == WHITE and not s.dispersing  # §5.5 flipped; §5.6 nothing touches: flocking begins


def test_pareto_forbids_trading_an_edge_for_a_corner() -> None:  # §5.3
    # tile 1 shares 2 with tile 0; landing at (12, 11) it would touch tile 2 at a corner only
    sheep = {(7, 9): (0, BLACK), (9, 9): (1, BLACK), (14, 13): (2, WHITE)}
    target = pt(12, 11)
    s = position(game(), sheep, dispersing=True)
    play(s, "k10")
    assert f"to {target}" not in labels_of(s)
    refuse(s, target, "shared edge would go from 2 to 0 and its corner touches from 0 to 1")
    s = position(game(dispersing="edges_first"), sheep, dispersing=True)
    play(s, "k10")
    assert f"to {target}" in labels_of(s)


def test_strict_both_needs_both_totals_to_fall() -> None:  # §5.3, §5.6
    sheep = {(7, 9): (0, BLACK), (9, 9): (1, BLACK)}  # one shared edge, no corner touch: nothing can fall twice
    s = position(game(dispersing="strict_both"), sheep, dispersing=True)
    assert not s.dispersing and s.observation()["phase"] == "pick"  # stuck: the flocking phase begins
    s = position(game(dispersing="strict_both", when_stuck="pass"), sheep, dispersing=True)
    assert s.dispersing and labels_of(s) == ["pass"]
    play(s, "pass")
    assert labels_of(s) == ["pass"]
    play(s, "pass")
    assert s.is_terminal() and s.returns() == [0.0, 0.0]  # §9.3: two passes; no flocks: a draw


def test_no_new_contact_option() -> None:  # §5.4
    # tiles 0 and 1 share 2 steps of edge; tile 1 moving right 5 would share 1 step with tile 2
    sheep = {(9, 9): (0, BLACK), (9, 7): (1, BLACK), (16, 8): (2, WHITE)}
    s = position(game(), sheep, dispersing=True)
    play(s, pt(9, 7))
    assert f"to {pt(14, 7)}" in labels_of(s)  # the total falls from 2 to 1: allowed
    s = position(game(phase1_no_new_contact=True), sheep, dispersing=True)
    play(s, pt(9, 7))
    assert f"to {pt(14, 7)}" not in labels_of(s)
    refuse(s, pt(14, 7), "not end touching a sheep it did not touch")


def test_dispersing_ends_when_nothing_touches() -> None:  # §5.6
    s = position(game(), {(7, 9): (0, BLACK), (9, 9): (1, BLACK)}, dispersing=True)
    assert s.dispersing
    play(s, "k10", "p10")
    assert not s.dispersing and s.observation()["shared_edge"] == 0


# -- §6 flocking ---------------------------------------------------------------------------------------


def test_the_flock_example() -> None:  # §6.2 example, §6.4, §10.1
    # a white-up 2:5 sheep (tile 4) lands against the right side of a white-up 4:3 sheep (tile 8)
    s = position(game(), {(9, 9): (8, WHITE), (16, 9): (4, WHITE)}, to_move=WHITE)
    play(s, pt(16, 9), pt(11, 9))
    assert s.flocked[4] and s.flocked[8] and s.face[4] == WHITE  # not flipped
    assert s.flocks(WHITE) == [[4, 8]] and s.score(WHITE) == 8
    assert s.observation()["last_flock"]


def test_no_flock_with_the_other_colour_or_at_a_corner() -> None:  # §6.2
    s = position(game(), {(9, 9): (8, WHITE), (16, 9): (4, BLACK)})
    play(s, pt(16, 9), pt(11, 9))
    assert not s.flocked[4] and s.face[4] == WHITE  # flipped to white next to a white sheep: still no flock
    s = position(game(), {(9, 9): (8, WHITE), (16, 11): (4, WHITE)})
    play(s, pt(16, 11), pt(11, 11))  # left 5: corner to corner with tile 8
    assert not s.flocked[4] and s.face[4] == BLACK


def test_a_half_edge_is_more_than_a_corner() -> None:  # §6.2
    s = position(game(), {(9, 9): (8, WHITE), (16, 10): (4, WHITE)})
    play(s, pt(16, 10), pt(11, 10))  # one step lower: they share one step of edge
    assert s.flocked[4] and s.flocked[8]


def test_every_same_colour_neighbour_joins_and_flocked_sheep_stay() -> None:  # §6.2, §6.3
    sheep = {(9, 9): (8, WHITE), (13, 9): (9, WHITE), (11, 14): (4, WHITE), (11, 7): (0, BLACK)}
    s = position(game(), sheep)
    play(s, pt(11, 14), pt(11, 9))  # up 5, between tiles 8 and 9
    assert s.flocked[4] and s.flocked[8] and s.flocked[9] and not s.flocked[0]
    assert s.flocks(WHITE) == [[4, 8, 9]]
    assert pt(9, 9) not in [label.split()[-1] for label in labels_of(s)]
    refuse(s, pt(9, 9), "in a flock")


def test_an_unflocked_sheeps_face_follows_its_place() -> None:  # §7
    # along a random game, each unflocked sheep keeps (x + y + face) mod 2
    s = dealt(game())
    start = {t: (sum(s.game.board.xy(s.pos[t])) + s.face[t]) % 2 for t in range(TILES)}
    rng = random.Random(5)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
        for t in range(TILES):
            if not s.flocked[t]:
                assert (sum(s.game.board.xy(s.pos[t])) + s.face[t]) % 2 == start[t]


# -- §8 no repetition ---------------------------------------------------------------------------------


def test_returning_the_sheep_just_moved_is_a_repetition() -> None:  # §8
    s = position(game(), {(9, 9): (0, BLACK)})
    play(s, "k10", "p10")
    play(s, "p10")  # White picks the same sheep
    assert "to k10" not in labels_of(s)
    refuse(s, "k10", "repeat an earlier position")


def test_identical_tiles_are_interchangeable() -> None:  # §8
    # tiles 0 and 6 are both 6:1 sheep; swapping them, same faces, is the same position
    s = position(game(), {(9, 9): (0, BLACK), (16, 9): (6, WHITE)})
    before = s._exact()
    s.pos[0], s.pos[6] = s.pos[6], s.pos[0]
    s.face[0], s.face[6] = s.face[6], s.face[0]
    assert s._exact() == before


# -- §9 passing and the end -----------------------------------------------------------------------------


def test_a_blocked_player_passes_and_two_passes_end() -> None:  # §9.1, §9.3
    # the last free sheep sits in the top-left corner, hemmed in by two flocked sheep
    sheep = {(1, 1): (0, BLACK), (3, 1): (1, BLACK), (1, 3): (2, WHITE)}
    s = position(game(), sheep, flocked=tuple(range(1, TILES)))
    assert labels_of(s) == ["pass"]
    with pytest.raises(IllegalActionError, match="no legal move, so you must pass"):
        s.apply_action(s.game.board.labels.index(pt(1, 1)))
    play(s, "pass")
    assert s.current_player() == WHITE and labels_of(s) == ["pass"]
    play(s, "pass")
    assert s.is_terminal()


def test_pass_only_when_blocked() -> None:  # §9.1
    s = position(game(), {(9, 9): (0, BLACK)})
    with pytest.raises(IllegalActionError, match="only when you have no legal move"):
        s.apply_action(s.game.pass_action)


def test_the_game_ends_when_every_sheep_is_flocked() -> None:  # §9.2, §10
    sheep = {(9, 9): (8, WHITE), (16, 9): (4, WHITE)}
    s = position(game(), sheep, flocked=tuple(t for t in range(TILES) if t != 4), to_move=WHITE)
    play(s, pt(16, 9), pt(11, 9))
    assert s.is_terminal() and s.current_player() == TERMINAL


def test_the_move_limit_ends_the_game() -> None:  # §9.3
    g = game(move_limit=100)
    s = position(g, {(9, 9): (0, BLACK)})
    s.moves = 98
    play(s, "k10", "p10")
    assert not s.is_terminal()
    play(s, "p10", "p5")
    assert s.is_terminal() and s.moves == 100
    assert g.max_game_length() == 12 + 300 + 2


def test_random_games_end_by_the_rules_not_the_cap() -> None:  # §9
    for lines in (19, 13):
        g = game(board_lines=lines)
        for seed in range(10):
            s, capped = random_playout(g.new_initial_state(), random.Random(seed))
            assert not capped and s.is_terminal()


# -- §10 scoring ------------------------------------------------------------------------------------------


def test_largest_flock_wins_and_tiles_or_tie_break() -> None:  # §10.1, §10.2
    # Black: one flock of tiles 0 (6) + 1 (5) = 11 sheep; White: a flock of 9 (3:4 white: 4), 10 (5), 11 (6)
    sheep = {
        (5, 5): (0, BLACK),
        (7, 5): (1, BLACK),
        (5, 13): (9, WHITE),
        (7, 13): (10, WHITE),
        (9, 13): (11, WHITE),
    }
    s = position(game(), sheep, flocked=(0, 1, 9, 10, 11))
    assert s.score(BLACK) == 11 and s.score(WHITE) == 15
    s._finish()
    assert s.returns() == [-1.0, 1.0]
    s = position(game(score_by="tiles"), sheep, flocked=(0, 1, 9, 10, 11))
    assert s.score(BLACK) == 2 and s.score(WHITE) == 3
    # equal best flocks: the tie-break counts all flocks
    sheep = {(5, 5): (5, BLACK), (5, 13): (6, WHITE), (13, 5): (4, BLACK)}  # 1, 1 and 2 pictured
    s = position(game(), sheep, flocked=(5, 6, 4))
    assert s.score(BLACK) == 2 and s.score(WHITE) == 1
    s = position(game(), {(5, 5): (5, BLACK), (5, 13): (6, WHITE), (13, 5): (11, BLACK)}, flocked=(5, 6, 11))
    assert s.score(BLACK) == s.score(WHITE) == 1 and s.total(BLACK) == 2
    s._finish()
    assert s.returns() == [1.0, -1.0]
    tie = {(5, 5): (5, BLACK), (5, 13): (6, WHITE), (13, 5): (11, BLACK)}
    s = position(game(tie_break=False), tie, flocked=(5, 6, 11))
    s._finish()
    assert s.returns() == [0.0, 0.0]


# -- views -------------------------------------------------------------------------------------------------


def test_the_scene_draws_sheep_and_targets_centres() -> None:
    s = dealt(game())
    for p in (BLACK, WHITE, None):
        assert check_scene(s.scene(p), s.legal_moves(p) if p is not None else []) == []
    scene = s.scene(BLACK)
    assert len([p for p in scene["pieces"] if p["kind"] == "sheep"]) == 12
    assert {t["at"] for t in scene["targets"]} <= {c["id"] for c in scene["cells"]}
    text = scene_text(scene, labels_of(s))
    assert "Dispersing" in text and "Black" in text


def test_dispersing_always_loosens_and_touching_matches_the_pairs() -> None:  # §5.1, §5.3, property
    """Along random games: every dispersing move lowers shared edge + corner touches, and each sheep's shared
    edge and corner touches (found from the board's squares) equal the sums over pairs of sheep."""
    for seed in range(4):
        s = dealt(game())
        rng = random.Random(seed)
        b = s.game.board
        while not s.is_terminal():
            edge, corner = s.touching()
            for t in range(TILES):
                pairs = [contact(*b.xy(s.pos[t]), *b.xy(s.pos[u])) for u in range(TILES) if u != t]
                assert edge[t] == sum(e for e, _ in pairs) and corner[t] == sum(c for _, c in pairs)
            before = (sum(edge) + sum(corner), s.dispersing, s.moves)
            s.apply_action(rng.choice(s.legal_actions()))
            if before[1] and s.moves > before[2] and s.dispersing:
                e2, c2 = s.touching()
                assert sum(e2) + sum(c2) < before[0]


# -- destinations against the rules written test by test -------------------------------------------------------


def reference_destinations(s: FlockOfSheepState, t: int, first_only: bool = False) -> tuple[int, ...]:
    """§4-§8 as first written: the path (``_path_free``), then the landing rules and repetition (``_ok``)."""
    a = s.pos[t]
    before = None
    if s.dispersing:
        before = (s._shared_edge(a), s._corner_touches(a), s._touched(t, a))
    out = []
    for d, sweeps in s.game.board.sweeps[a]:
        if s._path_free(d, sweeps) and s._ok(t, d, before):
            out.append(d)
            if first_only:
                break
    return tuple(out)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"board_lines": 13, "jump_allowed": True},
        {"dispersing": "edges_first", "phase1_no_new_contact": True},
        {"dispersing": "strict_both", "who_moves": "own_colour", "when_stuck": "pass"},
    ],
)
def test_destinations_match_the_rules_test_by_test(options: dict[str, object]) -> None:
    g = game(**options)
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        s = g.new_initial_state()
        while s.current_player() != TERMINAL:
            if s.current_player() != CHANCE and s.pos[0] >= 0:
                for t in range(12):
                    for first in (False, True):
                        assert s._destinations(t, first) == reference_destinations(s, t, first), (seed, t)
                checked += 1
            legal = s.legal_actions() if s.current_player() != CHANCE else [a for a, _ in s.chance_outcomes()]
            s.apply_action(rng.choice(legal))
    assert checked > 100
