"""Chevrons scenarios, one group per clause of docs/rules/chevrons.md (cited as §n)."""

from __future__ import annotations

import math
import random

import pytest

import boardlab
from boardlab.core.errors import IllegalActionError, UnknownActionString
from boardlab.core.play import random_playout
from boardlab.core.scene import SEAT_COLOURS, check_scene
from boardlab.games.chevrons import AREA_FILLS, ChevronsState


def new(**options: object) -> ChevronsState:
    state = boardlab.make("chevrons", **options).new_initial_state()
    assert isinstance(state, ChevronsState)
    return state


def play(state: ChevronsState, *labels: str) -> None:
    """Apply edge labels in order: each pair is one chevron (first edge, second edge)."""
    for label in labels:
        state.apply_action(state.string_to_action(None, label))


def edge(state: ChevronsState, label: str) -> int:
    return state.game.board.edge_by_label[label]


def areas(state: ChevronsState) -> list[tuple[int, list[str], list[int]]]:
    return [(a["owner"], a["triangles"], a["edges"]) for a in state.observation()["areas"]]


# -- brute force: the rules recomputed from scratch -------------------------------------------------


def brute_chevrons(state: ChevronsState) -> set[frozenset[int]]:
    """Every chevron placeable now: two free edges at 120° at a shared point (§2, §4.2)."""
    b = state.game.board
    lat = b.lattice
    enclosed = {t for t, a in enumerate(state.area) if a >= 0}
    out = set()
    for v in range(len(lat.points)):
        es = lat.point_edges[v]
        for i, e in enumerate(es):
            for f in es[i + 1 :]:
                ends = [w for x in (e, f) for w in lat.edges[x] if w != v]
                ax, ay = b.xy[v]
                v1 = (b.xy[ends[0]][0] - ax, b.xy[ends[0]][1] - ay)
                v2 = (b.xy[ends[1]][0] - ax, b.xy[ends[1]][1] - ay)
                cos = (v1[0] * v2[0] + v1[1] * v2[1]) / (math.hypot(*v1) * math.hypot(*v2))
                if abs(cos + 0.5) > 1e-9:
                    continue
                ok = all(state.owner[x] < 0 and not any(t in enclosed for t in lat.edge_triangles[x]) for x in (e, f))
                if ok:
                    out.add(frozenset((e, f)))
    return out


def brute_areas(state: ChevronsState) -> list[tuple[frozenset[int], bool]]:
    """All areas (triangles joined through uncovered edges) and whether each is enclosed (§5)."""
    lat = state.game.board.lattice
    seen: set[int] = set()
    out = []
    for t0 in range(len(lat.triangles)):
        if t0 in seen:
            continue
        comp = {t0}
        stack = [t0]
        enclosed = True
        while stack:
            t = stack.pop()
            for e in lat.triangle_edges[t]:
                if state.owner[e] >= 0:
                    continue
                others = [u for u in lat.edge_triangles[e] if u != t]
                if not others:
                    enclosed = False
                for u in others:
                    if u not in comp:
                        comp.add(u)
                        stack.append(u)
        seen |= comp
        out.append((frozenset(comp), enclosed))
    return out


# -- §1 board -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("side", "points", "edges", "triangles"), [(3, 37, 90, 54), (4, 61, 156, 96), (5, 91, 240, 150)]
)
def test_s1_board_sizes(side: int, points: int, edges: int, triangles: int) -> None:
    game = boardlab.make("chevrons", board_side=side)
    b = game.board
    assert (len(b.lattice.points), b.num_edges, b.num_triangles) == (points, edges, triangles)
    assert sum(b.border) == 6 * side  # §1: the outline has 6n unit edges
    assert len(set(b.tri_labels)) == triangles and len(set(b.edge_labels)) == edges
    assert game.num_distinct_actions() == 2 * edges


def test_s1_default_side_and_labels() -> None:
    s = new()
    b = s.game.board
    assert s.game.params == {"board_side": 4, "count_internal_edges": False}
    assert b.point_labels[0] == "a1" and b.point_labels[-1] == "i5"
    assert "a1-a2" in b.edge_labels and b.tri_labels.count("A1") == 1
    assert sorted({lab[0] for lab in b.tri_labels}) == list("ABCDEFGH")  # 2n rows of triangles


# -- §2 chevrons ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("side", "count"), [(3, 144), (4, 264), (5, 420)])
def test_s2_chevron_count_on_the_empty_board(side: int, count: int) -> None:
    s = new(board_side=side)
    assert s.game.board.num_chevrons == count
    assert len(brute_chevrons(s)) == count


def test_s2_only_120_degree_pairs() -> None:
    s = new()
    play(s, "c2-c3")
    second = {s.action_to_string(0, a) for a in s.legal_actions()}
    assert second == {"b1-c2", "c2-d2", "b3-c3", "c3-d4"}
    # c2-c3 with c3-c4 is a straight line (180°), with b2-c3 it is 60°: neither is a chevron.
    for label in ("c3-c4", "b2-c3", "c1-c2"):
        a = s.game.num_edges + edge(s, label)
        with pytest.raises(IllegalActionError, match="120"):
            s.apply_action(a)


# -- §3 turn order --------------------------------------------------------------------------------------


def test_s3_red_opens_and_turns_alternate_after_the_second_edge() -> None:
    s = new()
    assert s.current_player() == 0
    play(s, "e5-e6")
    assert s.current_player() == 0  # §4.1: the same seat chooses the second edge
    play(s, "d4-e5")
    assert s.current_player() == 1
    assert s.owner[edge(s, "e5-e6")] == 0 and s.owner[edge(s, "d4-e5")] == 0
    play(s, "a1-a2", "a1-b1")
    assert s.current_player() == 0 and s.owner[edge(s, "a1-b1")] == 1


# -- §4 placement ---------------------------------------------------------------------------------------


def test_s4_1_first_edges_are_the_free_edges_with_a_mate() -> None:
    s = new()
    assert len(s.legal_actions()) == s.game.num_edges  # every edge starts some chevron on the empty board
    play(s, "a1-a2")
    assert all(a >= s.game.num_edges for a in s.legal_actions())
    assert s.observation()["selected"] == "a1-a2"


def test_s4_1_labels_accept_either_end_first() -> None:
    s = new()
    assert s.string_to_action(None, "D5-E5") == s.string_to_action(None, "e5-d5") == edge(s, "d5-e5")
    with pytest.raises(UnknownActionString):
        s.string_to_action(None, "a1-e5")


def test_s4_1_a_first_edge_without_free_mate_is_refused() -> None:
    # a1-b2 can only pair with b2-b3 or b2-c2 (nothing fits at a1, a corner).
    s = new()
    play(s, "b2-b3", "b3-c4", "b2-c2", "c2-d3")  # both mates of a1-b2 covered, a1-b2 itself free
    assert s.owner[edge(s, "a1-b2")] == -1 and edge(s, "a1-b2") not in s.legal_actions()
    before = s.history()
    with pytest.raises(IllegalActionError, match="no free edge meets it at 120"):
        s.apply_action(edge(s, "a1-b2"))
    assert s.history() == before


def test_s4_2_covered_edges_are_refused() -> None:
    s = new()
    play(s, "e5-e6", "d4-e5")
    with pytest.raises(IllegalActionError, match="already holds Red's chevron"):
        s.apply_action(edge(s, "e5-e6"))
    assert s.current_player() == 1 and s.first == -1


def test_s4_2_outline_edges_may_be_used() -> None:
    s = new()
    play(s, "a1-a2", "a1-b1")  # both edges lie on the outline: a corner chevron
    assert s.owner[edge(s, "a1-a2")] == 0 and s.game.board.border[edge(s, "a1-b1")]


def test_s4_2_nothing_goes_inside_an_enclosed_area() -> None:
    s = new()
    play(s, "a1-a2", "a1-b1", "b1-b2", "a2-b2")  # encloses the corner rhombus (§6.3)
    inner = edge(s, "a1-b2")
    assert s.owner[inner] == -1 and inner not in s.legal_actions()
    with pytest.raises(IllegalActionError, match="inside an enclosed area"):
        s.apply_action(inner)
    play(s, "b2-b3")
    assert s.game.num_edges + inner not in s.legal_actions()


# -- §5 areas and enclosure -----------------------------------------------------------------------------


def test_s5_2_the_outline_is_not_a_wall() -> None:
    s = new()
    play(s, "a2-b2", "b1-b2")  # the corner rhombus is walled off inside, but its outline edges are uncovered
    assert areas(s) == [] and s.score == [0, 0]
    assert s.observation()["open_triangles"] == 96


def test_s5_3_an_area_closed_by_the_mover_can_go_to_the_opponent() -> None:
    s = new()
    play(s, "a1-a2", "a1-b1")  # Red, corner
    play(s, "e5-e6", "d4-e5")  # Blue, elsewhere
    play(s, "a2-b2", "a2-a3")  # Red: triangle a1-a2-b2 has two Red edges
    play(s, "a1-b2", "b2-b3")  # Blue closes it
    assert areas(s) == [(0, ["A2"], [2, 1])]
    assert s.score == [1, 0]


def test_s5_3_one_placement_closes_areas_for_both_players() -> None:
    s = new()
    play(s, "a1-b2", "b2-b3")  # Red
    play(s, "a2-b2", "b2-c3")  # Blue
    play(s, "b1-b2", "b1-c1")  # Red
    assert areas(s) == []
    play(s, "a1-a2", "a1-b1")  # Blue's corner chevron closes both corner triangles at once
    assert sorted(areas(s)) == [(0, ["A1"], [2, 1]), (1, ["A2"], [1, 2])]
    assert s.score == [1, 1]


def test_s5_incremental_areas_match_a_full_recount() -> None:
    for side in (3, 4):
        game = boardlab.make("chevrons", board_side=side)
        rng = random.Random(side)
        for _ in range(6):
            s = game.new_initial_state()
            assert isinstance(s, ChevronsState)
            while not s.is_terminal():
                s.apply_action(rng.choice(s.legal_actions()))
                if s.first >= 0:
                    continue
                enclosed = {comp for comp, closed in brute_areas(s) if closed}
                assert enclosed == {frozenset(tris) for _, tris, _ in s.areas}
                for k, (owner, tris, counts) in enumerate(s.areas):
                    assert all(s.area[t] == k for t in tris)
                    boundary = {
                        e
                        for t in tris
                        for e in game.board.lattice.triangle_edges[t]
                        if not all(u in tris for u in game.board.lattice.edge_triangles[e])
                        or len(game.board.lattice.edge_triangles[e]) == 1
                    }
                    red = sum(1 for e in boundary if s.owner[e] == 0)
                    blue = sum(1 for e in boundary if s.owner[e] == 1)
                    assert red + blue == len(boundary) and counts == (red, blue)
                    assert owner == (0 if red > blue else 1 if blue > red else -1)
                assert sum(1 for a in s.area if a < 0) == sum(len(c) for c, closed in brute_areas(s) if not closed)
                chevrons = brute_chevrons(s)
                firsts = {e for c in chevrons for e in c}
                assert set(s.legal_actions()) == firsts


# -- §6 claiming ----------------------------------------------------------------------------------------


def test_s6_3_a_tied_area_is_neutral_and_closed() -> None:
    s = new()
    play(s, "a1-a2", "a1-b1", "b1-b2", "a2-b2")
    assert areas(s) == [(-1, ["A1", "A2"], [2, 2])]
    assert s.score == [0, 0]
    obs = s.observation()
    assert obs["areas"][0]["cube"] in ("A1", "A2") and obs["open_triangles"] == 94


# Ring of six edges around b2 (three Red, three Blue) plus a Red spoke a2-b2 dangling inside.
RING = ("a2-b2", "a2-a3", "c2-c3", "c3-d4", "a1-a2", "a2-b3", "c2-b1", "b1-a1", "b3-c3", "b3-b4")


def test_s6_1_edges_inside_the_area_do_not_count_by_default() -> None:
    s = new()
    play(s, *RING)
    assert areas(s) == [(-1, ["A1", "A2", "A3", "B2", "B3", "B4"], [3, 3])]
    assert s.score == [0, 0]


def test_s6_1_option_count_internal_edges() -> None:
    s = new(count_internal_edges=True)
    play(s, *RING)
    assert areas(s) == [(0, ["A1", "A2", "A3", "B2", "B3", "B4"], [4, 3])]
    assert s.score == [6, 0]


def test_s6_2_an_area_walled_by_one_colour_goes_to_it() -> None:
    s = new()
    play(s, "a1-a2", "a1-b1")  # Red
    play(s, "e5-e6", "d4-e5")  # Blue elsewhere
    play(s, "b2-a2", "b2-b1")  # Red closes the corner rhombus alone
    assert areas(s) == [(0, ["A1", "A2"], [4, 0])]
    assert s.score == [2, 0]


# -- §7 end, §8 score -----------------------------------------------------------------------------------


def test_s7_game_ends_when_no_chevron_fits() -> None:
    game = boardlab.make("chevrons", board_side=3)
    for seed in range(5):
        s, capped = random_playout(game.new_initial_state(), random.Random(seed))
        assert isinstance(s, ChevronsState)
        assert not capped and s.is_terminal() and s.legal_actions() == []
        assert brute_chevrons(s) == set()
        assert s.move_number() <= game.max_game_length() and s.move_number() % 2 == 0


def test_s8_score_and_returns() -> None:
    game = boardlab.make("chevrons", board_side=3)
    seen = set()
    for seed in [*range(20), 52, 67]:  # seeds 52 and 67 end in draws
        s, _ = random_playout(game.new_initial_state(), random.Random(seed))
        assert isinstance(s, ChevronsState)
        for seat in (0, 1):
            assert s.score[seat] == sum(len(tris) for owner, tris, _ in s.areas if owner == seat)
        r = s.returns()
        if s.score[0] == s.score[1]:
            assert r == [0.0, 0.0]
            seen.add("draw")
        else:
            w = 0 if s.score[0] > s.score[1] else 1
            assert r[w] == 1.0 and r[1 - w] == -1.0
            seen.add(w)
        assert "wins" in s.scene(None)["prompt"] or "Draw" in s.scene(None)["prompt"]
    assert seen == {0, 1, "draw"}


def test_s8_returns_are_zero_before_the_end() -> None:
    s = new()
    play(s, "a1-a2", "a1-b1", "e5-e6", "d4-e5", "b2-a2", "b2-b1")
    assert s.score == [2, 0] and s.returns() == [0.0, 0.0]


# -- views ----------------------------------------------------------------------------------------------


def test_scene_targets_highlights_and_cubes() -> None:
    s = new()
    scene = s.scene(0)
    assert check_scene(scene, s.legal_moves(0)) == [] and not scene["buttons"]
    assert {t["at"] for t in scene["targets"]} == set(s.game.board.edge_labels)
    assert sum(1 for c in scene["cells"] if c["kind"] == "point") == 61
    assert sum(1 for c in scene["cells"] if c["polygon"]) == 96
    play(s, "a1-a2")
    scene = s.scene(0)
    assert {"at": "a1-a2", "kind": "selected"} in scene["highlights"]
    assert {t["at"] for t in scene["targets"]} == {"a1-b1", "a2-b3"}
    assert "second edge" in scene["prompt"]
    assert s.scene(1)["targets"] == [] and "Red to move" in s.scene(1)["prompt"]
    play(s, "a1-b1", "b1-b2", "a2-b2")
    scene = s.scene(0)
    assert {"at": "b1-b2", "kind": "last"} in scene["highlights"]
    assert next(p for p in scene["pieces"] if p["kind"] == "cube")["owner"] is None  # neutral cube
    fills = {c["id"]: c["fill"] for c in scene["cells"]}
    assert fills["A1"] == fills["A2"] == "neutral"
    owners = {e["id"]: e["owner"] for e in scene["edges"]}
    assert owners["a1-a2"] == 0 and owners["b1-b2"] == 1 and owners["a1-b2"] is None


def test_scene_claimed_area_is_a_tint_under_its_cube() -> None:  # §6.2
    s = new()
    play(s, "a1-a2", "a1-b1", "e5-e6", "d4-e5", "b2-a2", "b2-b1")  # Red closes the corner rhombus alone
    scene = s.scene(None)
    fills = {c["id"]: c["fill"] for c in scene["cells"]}
    assert fills["A1"] == fills["A2"] == AREA_FILLS[0] != SEAT_COLOURS[0]
    cube = next(p for p in scene["pieces"] if p["kind"] == "cube")
    assert cube["owner"] == 0 and cube["label"] == "2" and fills[cube["at"]] == AREA_FILLS[0]
    assert scene["status"][0] == "Red: 2 triangles"


def test_clone_is_independent() -> None:
    s = new()
    play(s, "a1-a2", "a1-b1", "b1-b2")
    c = s.clone()
    play(c, "a2-b2")
    assert s.first == edge(s, "b1-b2") and s.areas == [] and c.areas and s.free[edge(s, "a1-b2")]


class _ReferenceChevrons(ChevronsState):
    """§5 as first written: every triangle beside the new edges searched from scratch."""

    def _apply(self, action: int) -> None:
        if self.first < 0:
            self.first = action
            return
        b = self.game.board
        p = self.to_move
        e, f = self.first, action - self.game.second0
        self.first = -1
        self.owner[e] = p
        self.owner[f] = p
        self._close(e)
        self._close(f)
        self.last = (e, f)
        self.placements += 1
        seen: set[int] = set()
        for x in (e, f):
            for t in b.lattice.edge_triangles[x]:
                if t not in seen and self.area[t] < 0:
                    comp = self._enclosed_area(t)
                    if comp is not None:
                        seen.update(comp)
                        self._claim(comp)
        if not self.starts:
            self.over = True
        self.to_move = 1 - p


@pytest.mark.parametrize("options", [{}, {"board_side": 3}, {"count_internal_edges": True}])
def test_areas_match_the_search_from_every_triangle(options: dict[str, object]) -> None:
    game = boardlab.make("chevrons", **options)
    claims = 0
    for seed in range(40):
        rng = random.Random(seed)
        s = game.new_initial_state()
        ref = s.clone()
        ref.__class__ = _ReferenceChevrons
        while not s.is_terminal():
            legal = s.legal_actions()
            assert legal == ref.legal_actions(), (seed, s.move_number())
            a = rng.choice(legal)
            s.apply_action(a)
            ref.apply_action(a)
            assert (s.areas, s.area, s.score, s.free) == (ref.areas, ref.area, ref.score, ref.free)
        assert ref.is_terminal() and s.returns() == ref.returns()
        claims += len(s.areas)
    assert claims > 200
