"""Trivalent scenarios; clause numbers refer to docs/rules/trivalent.md."""

from __future__ import annotations

import itertools
import random
import time

import pytest

import boardlab
from boardlab.core.constants import TERMINAL
from boardlab.core.errors import IllegalActionError
from boardlab.core.play import random_playout
from boardlab.core.scene import check_scene
from boardlab.games.trivalent import BLOCKED, BLUE, EMPTY, ORANGE, TrivalentGame, TrivalentState, honeycomb


def game(**options: object) -> TrivalentGame:
    g = boardlab.make("trivalent", **options)
    assert isinstance(g, TrivalentGame)
    return g


def at(g: TrivalentGame, label: str) -> int:
    return g.board.index[label]


def play(s: boardlab.State, *labels: str) -> None:
    for label in labels:
        s.apply_action(s.string_to_action(None, label))


def position(
    g: TrivalentGame, blue: str = "", orange: str = "", *, to_move: int = BLUE, empty: str | None = None
) -> TrivalentState:
    """A hand-made position after Blue's and Orange's first turns (no pie swap left).

    ``blue``/``orange``: space-separated labels. With ``empty`` given, every other
    playable point is filled too, alternating colours along each column so that
    no group grows long.
    """
    s = g.new_initial_state()
    assert isinstance(s, TrivalentState)
    for label in blue.split():
        s.stone[at(g, label)] = BLUE
    for label in orange.split():
        s.stone[at(g, label)] = ORANGE
    if empty is not None:
        keep = {at(g, x) for x in empty.split()}
        for line in g.board.lines:
            for k, v in enumerate(line):
                if s.stone[v] == EMPTY and v not in keep:
                    s.stone[v] = k % 2
    s.colour_to_move = to_move
    s.turns = 4
    s._rebuild_tables()
    return s


def refuse(s: boardlab.State, label: str, match: str) -> None:
    """Applying the point ``label`` is refused with an explanation matching ``match``, changing nothing."""
    g = s.game
    assert isinstance(g, TrivalentGame)
    before = s.observation()
    with pytest.raises(IllegalActionError, match=match):
        s.apply_action(at(g, label))
    assert s.observation() == before


def labels_of(s: boardlab.State) -> set[str]:
    return {s.action_to_string(None, a) for a in s.legal_actions()}


def full_turns(s: TrivalentState) -> set[tuple[frozenset[int], int]]:
    """Every complete turn reachable through the decisions, as (mover's two points, opponent's point)."""
    out: set[tuple[frozenset[int], int]] = set()
    for a in s.legal_actions():
        if a == s.game.swap_action:
            continue
        s1 = s.clone()
        s1.apply_action(a)
        assert s1.legal_actions(), "a first stone led to a dead end (§3.4)"
        for b in s1.legal_actions():
            s2 = s1.clone()
            s2.apply_action(b)
            assert s2.legal_actions(), "a second stone led to a dead end (§3.4)"
            for c in s2.legal_actions():
                out.add((frozenset((a, b)), c))
    return out


def brute_turns(s: TrivalentState) -> set[tuple[frozenset[int], int]]:
    """The complete turns of §3, straight from the clauses."""
    g = s.game
    nb = g.board.neighbours
    free = [v for v in range(g.n) if s.stone[v] == EMPTY]
    triples = []
    if g.params["triple"] == "path":
        for b in free:
            for a, c in itertools.combinations([x for x in nb[b] if s.stone[x] == EMPTY], 2):
                triples.append((a, b, c))
    else:
        for v in range(g.n):
            if len(nb[v]) == 3 and all(s.stone[x] == EMPTY for x in nb[v]):
                triples.append(nb[v])
    me = s.colour_to_move
    used = [{g.col[v] for v in range(g.n) if s.stone[v] == c} for c in (BLUE, ORANGE)]
    out = set()
    for t in triples:
        for opp in t:
            a, b = (x for x in t if x != opp)
            rule = g.params["column_rule"]
            if rule != "off" and g.col[a] == g.col[b]:
                continue
            if rule == "global" and (g.col[a] in used[me] or g.col[b] in used[me] or g.col[opp] in used[1 - me]):
                continue
            out.add((frozenset((a, b)), opp))
    return out


# -- §1 the board ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("side", "points", "sides"), [(3, 54, 72), (4, 96, 132), (5, 150, 210)])
def test_board_is_the_corners_of_a_hexhex_of_hex_cells(side: int, points: int, sides: int) -> None:  # §1.1
    for orientation in ("pointy", "flat"):
        board, _ = honeycomb(side, orientation)
        assert len(board) == points == 6 * side * side and len(board.edges) == sides
        degrees = {len(nb) for nb in board.neighbours}
        assert degrees == {2, 3}  # trivalent: no point has more than three neighbours
        assert len(set(board.ids)) == points
    g = game(board_side=side)
    assert g.num_distinct_actions() == points + 1
    assert len(g.playable) == points - 3 and len(g.playable) % 3 == 0


def test_labels_are_column_letter_and_level() -> None:  # §1.4
    g = game()
    s = g.new_initial_state()
    moves = s.legal_moves()
    assert moves[0] == (0, "d1") and g.labels[-1] == "h12"
    assert all(g.labels[v][0] == g.col_names[v] for v in range(g.n))


def test_standard_blocked_points_take_no_stone() -> None:  # §1.2
    g = game()
    assert sorted(g.labels[v] for v in g.board.blocked) == ["e7", "f5", "g7"]
    board = g.metadata()["board"]
    assert board["unverified"] and board["playable"] == 51 and "reconstruction" in board["source"]
    s = g.new_initial_state()
    assert s.stone[at(g, "f5")] == BLOCKED
    assert "f5" not in labels_of(s)
    with pytest.raises(IllegalActionError, match="blocked"):
        s.apply_action(at(g, "f5"))
    # f4's only free neighbours are e3 and g3 (f5 is blocked), so e3-f4-g3 is the one path through f4 as its middle.
    s1 = s.clone()
    play(s1, "f4")
    assert labels_of(s1) == {"e3", "g3", "e2", "g2", "d4", "h4"}


def test_blocked_option() -> None:  # §1.2
    assert not game(blocked="none").board.blocked
    g = game(blocked="a6, k6")
    assert sorted(g.labels[v] for v in g.board.blocked) == ["a6", "k6"]
    assert "a6" not in labels_of(g.new_initial_state())
    with pytest.raises(ValueError, match="blocked"):
        game(blocked="z99")
    with pytest.raises(ValueError, match="blocked"):
        game(blocked=",".join(honeycomb(3)[0].ids))  # nothing left to play on


def test_columns_pointy_and_flat() -> None:  # §1.4
    g = game(blocked="none")
    assert len(g.board.lines) == 11
    for v in range(g.n):
        same = [x for x in g.board.neighbours[v] if g.col[x] == g.col[v]]
        assert len(same) <= 1  # one vertical side at most
    assert sum(1 for a, b in g.board.edges if g.col[a] == g.col[b]) == 72 // 3
    f = game(orientation="flat", blocked="none")
    assert len(f.board.lines) == 12
    assert not any(f.col[a] == f.col[b] for a, b in f.board.edges)  # flat-top cells have no vertical side


# -- §2 opening and the pie rule ------------------------------------------------------------------


def test_blue_opens_and_a_turn_is_three_decisions() -> None:  # §2.1, §3.4
    g = game()
    s = g.new_initial_state()
    assert s.current_player() == 0 and s.observation()["colours"] == ["Blue", "Orange"]
    play(s, "c3", "d4")
    assert s.current_player() == 0
    play(s, "e3")
    assert s.current_player() == 1 and s.observation()["colour_to_move"] == "Orange"
    assert [s.stone[at(g, x)] for x in ("c3", "d4", "e3")] == [BLUE, BLUE, ORANGE]
    assert s.observation()["last_turn"] == [at(g, "c3"), at(g, "d4"), at(g, "e3")]


def test_pie_swap() -> None:  # §2.2
    g = game()
    s = g.new_initial_state()
    assert "swap" not in labels_of(s)
    play(s, "c3", "d4", "e3")
    assert "swap" in labels_of(s)
    play(s, "swap")
    assert s.current_player() == 0  # seat 0 now plays Orange, and Orange is still to move
    assert s.observation()["colours"] == ["Orange", "Blue"] and s.observation()["colour_to_move"] == "Orange"
    assert [s.stone[at(g, x)] for x in ("c3", "d4", "e3")] == [BLUE, BLUE, ORANGE]  # stones stay
    assert "swap" not in labels_of(s)
    with pytest.raises(IllegalActionError, match="first decision"):
        s.apply_action(g.swap_action)
    play(s, "i3", "h4", "g3")
    assert s.current_player() == 1 and [s.stone[at(g, x)] for x in ("i3", "h4", "g3")] == [ORANGE, ORANGE, BLUE]


def test_swap_only_before_oranges_first_stone_and_off_without_pie() -> None:  # §2.2
    s = game().new_initial_state()
    play(s, "c3", "d4", "e3", "i3")
    assert "swap" not in labels_of(s)
    t = game(pie=False).new_initial_state()
    play(t, "c3", "d4", "e3")
    assert "swap" not in labels_of(t)
    with pytest.raises(IllegalActionError, match="pie rule is off"):
        t.apply_action(t.game.swap_action)  # type: ignore[attr-defined]


def test_swapped_game_scores_by_colour() -> None:  # §2.2, §5
    g = game()
    decided = set()
    for seed in range(20):
        s = g.new_initial_state()
        play(s, "c3", "d4", "e3", "swap")
        assert isinstance(s, TrivalentState)
        assert s.colour_of(1) == BLUE and s.seat_of(ORANGE) == 0
        random_playout(s, random.Random(seed))
        blue, orange = (s.group_sizes(c)[0] for c in (BLUE, ORANGE))
        if blue != orange:  # after the swap seat 1 plays Blue: the larger group's colour wins for its new seat
            assert s.returns() == ([-1.0, 1.0] if blue > orange else [1.0, -1.0])
            decided.add(blue > orange)
    assert decided == {True, False}  # both colours won at least once


# -- §3 a turn --------------------------------------------------------------------------------------


def test_second_and_third_stones_complete_a_path() -> None:  # §3.1, §3.2
    g = game()
    s = g.new_initial_state()
    play(s, "c6")  # neighbours b5, d5, c7
    # adjacent (then the opponent's stone at either end) or two steps away (opponent's stone between)
    assert labels_of(s) == {"b5", "d5", "b4", "a6", "d4", "e6", "b8", "d8"}
    refuse(s, "h12", "three adjacent")
    play(s, "d5")
    assert labels_of(s) == {"b5", "c7", "d4", "e6"}  # ends of b5-c6-d5, d5-c6-c7, c6-d5-d4, c6-d5-e6
    play(s, "b5")
    assert s.stone[at(g, "b5")] == ORANGE


def test_two_steps_away_puts_the_opponent_stone_between() -> None:  # §3.1, §3.2
    s = game().new_initial_state()
    play(s, "b5", "d5")
    assert labels_of(s) == {"c6"}


def test_column_rule_per_turn() -> None:  # §3.3
    g = game()
    s = g.new_initial_state()
    play(s, "c6")
    assert "c7" not in labels_of(s)  # c6-c7 is a vertical side: your two stones may not share column c
    refuse(s, "c7", "share a column")
    play(s, "b5")
    assert "c7" in labels_of(s)  # the opponent's stone may share a column with yours
    play(s, "c7")
    # Stones of earlier turns do not count: Orange may put its own stones in Blue's columns and vice versa.
    play(s, "c3", "d4", "c2")
    assert s.current_player() == 0


def test_research_counts_of_turns() -> None:  # §3.1-§3.3 on unblocked pointy-top boards
    for side, paths, legal in ((3, 126, 294), (4, 240, 560)):
        g = game(board_side=side, blocked="none")
        assert len(g.triples) == paths  # 3 colourings each: 378 and 720 before the column rule
        assert sum(len(p) for p in g.triple_patterns) == legal


def test_global_rule_explains_a_blocked_opponent_stone() -> None:  # §3.3 (global)
    g = game(column_rule="global")
    s = g.new_initial_state()
    play(
        s, *["i6", "h8", "i7", "j5", "k7", "k6", "d8", "c10", "d9", "f9", "e10", "e11", "g3", "f4", "g2", "b4"]
    )  # Orange's first stone on b4
    # b4-c3-c2 would need the Blue stone on c3, but Blue already holds column c (c10).
    refuse(s, "c2", "Blue stone could then go only in a column that already holds a Blue stone")


def test_column_rule_off() -> None:  # §3.3
    s = game(column_rule="off").new_initial_state()
    play(s, "c6")
    assert "c7" in labels_of(s)
    play(s, "c7", "d8")


def test_column_rule_global() -> None:  # §3.3
    g = game(column_rule="global")
    s = g.new_initial_state()
    play(s, "c6", "b5", "d5")  # Blue now holds columns b and c, Orange column d
    refuse(s, "d1", "Orange already has a stone in column d")
    play(s, "e2", "g2", "f1")  # Orange's own stones in e and g, the Blue stone in f
    assert "c3" not in labels_of(s)  # Blue already has column c
    play(s, "h4", "i3")
    assert labels_of(s) == {"h5", "i2", "j4"}  # Orange holds d, e and g, so the Orange stone may not go on g3
    refuse(s, "g3", "Orange already has a stone in column g")


def test_star_triple() -> None:  # §3.1
    g = game(triple="star")
    s = g.new_initial_state()
    play(s, "c2")  # c2 neighbours d1 (degree 2: no star) and c3 (with b4, d4)
    assert labels_of(s) == {"b4", "d4"}
    play(s, "b4")
    assert labels_of(s) == {"d4"}
    play(s, "d4")
    assert s.stone[at(g, "c3")] == EMPTY and s.stone[at(g, "d4")] == ORANGE


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"orientation": "flat"},
        {"triple": "star"},
        {"column_rule": "global"},
        {"column_rule": "off", "blocked": "none"},
        {"triple": "star", "column_rule": "global", "orientation": "flat"},
    ],
)
def test_decisions_reach_exactly_the_legal_turns(options: dict[str, object]) -> None:  # §3, §3.4
    g = game(**options)
    rng = random.Random(2)
    s = g.new_initial_state()
    while not s.is_terminal():
        assert isinstance(s, TrivalentState)
        if not s.placed:
            assert full_turns(s) == brute_turns(s)
        random_step = rng.choice(s.legal_actions())
        s.apply_action(random_step)
    assert isinstance(s, TrivalentState)
    assert not brute_turns(s)  # §4: it ended because the mover had no turn


# -- §4 end, §5 winner ------------------------------------------------------------------------------


def test_game_ends_when_the_mover_has_no_turn() -> None:  # §4
    g = game()
    s = position(g, empty="d4 e3")  # two adjacent empty points: no three
    assert s.is_terminal() and s.current_player() == TERMINAL and s.legal_actions() == []
    s = position(g, empty="c3 d4 e3")  # one path, three columns: three ways to colour it
    assert not s.is_terminal() and brute_turns(s) == full_turns(s) and len(full_turns(s)) == 3
    s = position(g, empty="c2 c3 d4")  # c2-c3 is vertical: the opponent's stone goes on one of them
    assert {g.labels[o] for _, o in full_turns(s)} == {"c2", "c3"}
    play(s, "d4", "c3", "c2")
    assert s.is_terminal()
    with pytest.raises(IllegalActionError, match="over"):
        s.apply_action(0)


def test_global_rule_can_end_the_game_with_empty_points_left() -> None:  # §4, §3.3
    g = game(column_rule="global")
    blue = "d1 e2 c2 b4 a6 f1 g2 h1 i2 j4"  # every column but k
    s = position(g, blue, to_move=BLUE)  # Blue's two stones need two free columns
    assert brute_turns(s) == set() and s.is_terminal()
    t = position(g, blue, to_move=ORANGE)  # Orange can still put the Blue stone in column k
    assert not t.is_terminal() and {g.labels[o] for _, o in full_turns(t)} == {"k6", "k7"}


def final(blue: str, orange: str, **options: object) -> TrivalentState:
    """A finished game on a board where only the given points are playable, all filled."""
    keep = set((blue + " " + orange).split())
    others = [x for x in honeycomb(3)[0].ids if x not in keep]
    g = game(blocked=",".join(others), **options)
    s = position(g, blue, orange)
    assert s.is_terminal()
    return s


def test_largest_group_wins() -> None:  # §5, §5.1
    s = final("c2 c3 d4 e3", "f1 g2 h1")  # Blue's c2-c3-d4-e3 (4) beats Orange's f1-g2-h1 (3)
    assert s.observation()["groups"] == [[4], [3]]
    assert s.returns() == [1.0, -1.0] and s.observation()["winner"] == 0
    s = final("c2 c3 d4", "f1 g2 h1 i2")
    assert s.returns() == [-1.0, 1.0]
    assert "The game is over: Orange wins" in s.scene(None)["prompt"]


def test_groups_connect_only_along_sides() -> None:  # §5.1
    s = final("c2 c3 e2 f1", "d1 g2 h1")  # c2-c3 and e2-f1 are apart (d1 between is Orange)
    assert s.observation()["groups"] == [[2, 2], [2, 1]]


def test_tie_is_a_draw_or_next_groups() -> None:  # §5.2
    s = final("c2 c3 d4 h4", "f1 g2 h1")
    assert s.observation()["groups"] == [[3, 1], [3]]
    assert s.returns() == [0.0, 0.0] and "draw" in s.scene(None)["prompt"]
    t = final("c2 c3 d4 h4", "f1 g2 h1", tie_break="next_groups")
    assert t.returns() == [1.0, -1.0]
    assert "next groups" in t.scene(None)["prompt"]
    u = final("c2 c3 d4", "f1 g2 h1", tie_break="next_groups")
    assert u.returns() == [0.0, 0.0]


# -- scene, views, speed ----------------------------------------------------------------------------


def test_scene_points_edges_targets_and_highlights() -> None:
    g = game()
    s = g.new_initial_state()
    scene = s.scene(0)
    assert check_scene(scene, s.legal_moves(0)) == []
    assert len(scene["cells"]) == 54 and all(c["kind"] == "point" and c["radius"] for c in scene["cells"])
    assert sum(1 for c in scene["cells"] if c["fill"] == "blocked") == 3
    assert len(scene["edges"]) == 72
    assert {t["at"] for t in scene["targets"]} == labels_of(s)
    assert "first Blue stone" in scene["prompt"]
    play(s, "c6")
    scene = s.scene(0)
    assert {"at": "c6", "kind": "selected"} in scene["highlights"]
    assert [p["at"] for p in scene["pieces"]] == ["c6"]
    assert scene["pieces"][0]["owner"] == 0 and scene["pieces"][0]["colour"] == "#0072B2"  # seat 0's, drawn blue
    play(s, "d5")
    scene = s.scene(0)
    assert "Orange stone" in scene["prompt"] and all("Orange stone" in t["label"] for t in scene["targets"])
    play(s, "b5")
    scene = s.scene(1)
    assert {h["at"] for h in scene["highlights"] if h["kind"] == "last"} == {"c6", "d5", "b5"}
    assert any(b["label"] == "swap sides (pie rule)" for b in scene["buttons"])
    assert s.scene(0)["targets"] == [] and "to move" in s.scene(0)["prompt"]
    assert [p["colour"] for p in scene["players"]] == ["#0072B2", "#D55E00"]
    play(s, "swap")  # seat 1 now plays Blue: its stones and its name are drawn blue, seat 0 orange
    scene = s.scene(0)
    assert [(p["at"], p["owner"], p["colour"]) for p in scene["pieces"] if p["at"] in ("c6", "b5")] == [
        ("b5", 0, "#D55E00"),
        ("c6", 1, "#0072B2"),
    ]
    assert [p["colour"] for p in scene["players"]] == ["#D55E00", "#0072B2"]
    assert scene["status"][:2] == ["Orange: largest group 1", "Blue: largest group 2"]


def test_random_games_end_well_within_the_cap_and_fast() -> None:  # §4
    g = game()
    start = time.perf_counter()
    for seed in range(200):
        s, capped = random_playout(g.new_initial_state(), random.Random(seed))
        assert not capped and s.is_terminal()
        assert s.move_number() <= len(g.playable) + 1
    assert (time.perf_counter() - start) / 200 < 0.02


def test_clone_and_replay() -> None:
    g = game()
    s, _ = random_playout(g.new_initial_state(), random.Random(9))
    r = g.state_from_history(s.history())
    assert r.observation() == s.observation() and r.returns() == s.returns()
    c = g.new_initial_state()
    play(c, "c6")
    d = c.clone()
    play(d, "d5", "b5")
    assert c.placed == [at(g, "c6")] and c.stone[at(g, "d5")] == EMPTY  # type: ignore[attr-defined]
