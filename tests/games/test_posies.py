"""Posies scenarios; clause numbers refer to docs/rules/posies.md."""

from __future__ import annotations

import itertools
import json
import math
import random
import time

import pytest

import boardlab
from boardlab.core.constants import CHANCE, TERMINAL
from boardlab.core.errors import IllegalActionError
from boardlab.core.play import random_playout, sample_chance
from boardlab.core.scene import check_scene
from boardlab.core.wording import for_players
from boardlab.games.posies import COLOURS, PER_COLOUR, PosiesGame, PosiesState
from boardlab.geometry.hexgrid import HEX_DIRECTIONS
from state_checks import fingerprint, random_step

PI, PU, GR = 0, 1, 2  # pink, purple, green


def game(**options: object) -> PosiesGame:
    g = boardlab.make("posies", **options)
    assert isinstance(g, PosiesGame)
    return g


def at(g: PosiesGame, label: str) -> int:
    return g.tables.labels.index(label)


def position(g: PosiesGame, posies: dict[str, int], to_move: int = 0, players: int = 2) -> PosiesState:
    """A hand-made position: ``{label: colour}``, every other point empty (no history: not replayable)."""
    s = g.new_initial_state(players)
    assert isinstance(s, PosiesState)
    colours = [-1] * g.n
    for label, c in posies.items():
        colours[at(g, label)] = c
    s._set_position(colours, to_move)
    return s


def play(s: PosiesState, *labels: str) -> None:
    for label in labels:
        s.apply_action(s.string_to_action(None, label))


def labels_of(s: PosiesState) -> list[str]:
    return sorted(label for _, label in s.legal_moves())


def partners(s: PosiesState, label: str) -> list[str]:
    c = s.clone()
    play(c, label)
    return labels_of(c)


def after_setup(g: PosiesGame, seed: int, players: int = 2) -> PosiesState:
    s = g.new_initial_state(players)
    assert isinstance(s, PosiesState)
    rng = random.Random(seed)
    while s.current_player() == CHANCE:
        s.apply_action(sample_chance(s, rng))
    return s


def brute_pairs(s: PosiesState) -> set[tuple[int, int]]:
    """Every pair of §4.1/§4.2, straight from the definition."""
    t = s.game.tables
    any_colour = s.game.any_colour
    out = set()
    for line in t.lines:
        for a, b in itertools.combinations(range(len(line)), 2):
            x, y = line[a], line[b]
            c = s.colour[x]
            if c < 0 or s.colour[y] != c:
                continue
            between = [s.colour[k] for k in line[a + 1 : b]]
            if all(k >= 0 for k in between) and (any_colour or c not in between):
                out.add((min(x, y), max(x, y)))
    return out


# -- §1 the board ---------------------------------------------------------------
def test_t51_board_matches_its_definition() -> None:  # §1.1
    t = game().tables
    assert t.n == 51 and not t.blocked
    rows = [sum(1 for label in t.labels if label[0] == r) for r in "abcdefg"]
    assert rows == [6, 7, 8, 9, 8, 7, 6]
    # The points are the axial lattice points with |r| <= 3, |q| <= 4, |q + r| <= 4, in reading order.
    pts = sorted(((q, r) for r in range(-3, 4) for q in range(-4, 5) if abs(q + r) <= 4), key=lambda p: (p[1], p[0]))
    assert len(pts) == 51
    index = {p: i for i, p in enumerate(pts)}
    for i, (q, r) in enumerate(pts):
        expected = {index[(q + dq, r + dr)] for dq, dr in HEX_DIRECTIONS if (q + dq, r + dr) in index}
        assert set(t.neighbours[i]) == expected
        x, y = t.board.xy[i]
        assert math.isclose(x, q + r / 2, abs_tol=1e-3) and math.isclose(y, r * math.sqrt(3) / 2, abs_tol=1e-3)
    assert max(len(nb) for nb in t.neighbours) == 6
    # 25 lines: 7 rows and 9 in each slanted direction; each is straight and maximal.
    assert len(t.lines) == 25
    for line in t.lines:
        d = (pts[line[1]][0] - pts[line[0]][0], pts[line[1]][1] - pts[line[0]][1])
        assert d in HEX_DIRECTIONS
        for a, b in itertools.pairwise(line):
            assert (pts[b][0] - pts[a][0], pts[b][1] - pts[a][1]) == d
        before = (pts[line[0]][0] - d[0], pts[line[0]][1] - d[1])
        after = (pts[line[-1]][0] + d[0], pts[line[-1]][1] + d[1])
        assert before not in index and after not in index
    assert t.board.unverified and t.source


def test_h51_board_is_a_honeycomb_with_three_blocked_corners() -> None:  # §1.2
    t = game(board="h51").tables
    assert t.n == 54 and len(t.playable) == 51
    assert sorted(t.labels[i] for i in t.blocked) == ["e3", "g3", "g4"]
    assert {len(nb) for nb in t.neighbours} == {2, 3}
    assert sum(len(nb) for nb in t.neighbours) // 2 == 72
    assert len(t.lines) == 18
    for line in t.lines:  # zigzags: consecutive points adjacent, turning alternately left and right
        for a, b in itertools.pairwise(line):
            assert b in t.neighbours[a]
        turns = []
        for a, b, c in zip(line, line[1:], line[2:]):
            (ax, ay), (bx, by), (cx, cy) = (t.board.xy[k] for k in (a, b, c))
            turns.append((bx - ax) * (cy - by) - (by - ay) * (cx - bx) > 0)
        assert all(u != v for u, v in itertools.pairwise(turns))
    # Every edge lies on two zigzag lines.
    on = {}
    for line in t.lines:
        for a, b in itertools.pairwise(line):
            on[frozenset((a, b))] = on.get(frozenset((a, b)), 0) + 1
    assert len(on) == 72 and set(on.values()) == {2}


def test_a_blocked_point_never_holds_a_posy() -> None:  # §1.2, §2.3
    g = game(board="h51")
    s = after_setup(g, 1)
    assert all(s.colour[i] < 0 for i in g.tables.blocked)
    assert sorted(s.colour.count(c) for c in range(3)) == [PER_COLOUR] * 3
    s = game(board="h51", setup="alternating_choice").new_initial_state()
    blocked = min(g.tables.blocked)
    assert blocked not in s.legal_actions()
    with pytest.raises(IllegalActionError, match="blocked"):
        s.apply_action(blocked)


# -- §2 setup -------------------------------------------------------------------
def test_random_setup_is_one_chance_step_per_point_in_reading_order() -> None:  # §2.1, §2.2
    g = game()
    s = g.new_initial_state()
    assert s.current_player() == CHANCE
    assert s.chance_outcomes() == [(PI, 1 / 3), (PU, 1 / 3), (GR, 1 / 3)]
    assert s.action_to_string(CHANCE, PU) == "a1 purple"
    s.apply_action(PU)
    assert s.colour[at(g, "a1")] == PU
    assert dict(s.chance_outcomes()) == pytest.approx({PI: 17 / 50, PU: 16 / 50, GR: 17 / 50})
    for _ in range(16):
        s.apply_action(PU)
    assert [a for a, _ in s.chance_outcomes()] == [PI, GR]  # no purple left to place
    s = after_setup(g, 5)
    assert [s.colour.count(c) for c in range(3)] == [17, 17, 17]
    assert s.current_player() == 0 and s.move_number() == 51


def test_random_setup_is_uniform_per_point() -> None:  # §2.2
    g = game()
    counts = [0, 0, 0]
    for seed in range(300):
        s = after_setup(g, seed)
        counts[s.colour[at(g, "g6")]] += 1  # the last point filled
    assert all(70 < c < 130 for c in counts)


def test_setup_by_choice() -> None:  # §2.3, §3
    g = game(setup="alternating_choice")
    s = g.new_initial_state()
    assert s.current_player() == 0 and len(s.legal_actions()) == 51
    assert s.observation(0)["place_colour"] == "pink"
    play(s, "d5")
    assert s.observation(0)["place_colour"] == "purple" and at(g, "d5") not in s.legal_actions()
    with pytest.raises(IllegalActionError, match="already holds"):
        s.apply_action(at(g, "d5"))
    play(s, "d6", "d7")
    assert [s.colour[at(g, x)] for x in ("d5", "d6", "d7")] == [PI, PU, GR]
    assert s.current_player() == 1 and s.observation(1)["place_colour"] == "pink"
    rng = random.Random(1)
    while s.observation(0)["phase"] == "placement":
        s.apply_action(rng.choice(s.legal_actions()))
    assert s.move_number() == 51 and [s.colour.count(c) for c in range(3)] == [17, 17, 17]
    assert s.current_player() == 0 and s.observation(0)["phase"] == "first posy"  # §3: seat 0 starts


# -- §3 turn order ------------------------------------------------------------------
def test_turns_rotate_through_three_seats() -> None:  # §3
    g = game()
    s = position(g, {"a1": PI, "a2": PI, "c1": PU, "c2": PU, "e1": GR, "e2": GR, "g1": PI, "g2": PI}, players=3)
    seats = []
    for pair in (("a1", "a2"), ("c1", "c2"), ("e1", "e2"), ("g1", "g2")):
        seats.append(s.current_player())
        play(s, *pair)
    assert seats == [0, 1, 2, 0]
    assert s.is_terminal()


# -- §4 pairs -------------------------------------------------------------------
def test_adjacent_pair() -> None:  # §4.2, §4.3
    g = game()
    s = position(g, {"d4": PI, "d5": PI, "d6": PU})
    assert labels_of(s) == ["d4", "d5"]
    assert partners(s, "d4") == ["d5"]
    play(s, "d4", "d5")
    assert s.colour[at(g, "d4")] == s.colour[at(g, "d5")] == -1
    assert s.store[0] == [2, 0, 0]
    assert s.observation(None)["last"] == [at(g, "d4"), at(g, "d5")]


def test_line_pair_over_posies_of_any_colour() -> None:  # §4.1
    g = game()
    s = position(g, {"d2": PI, "d3": GR, "d4": PU, "d5": PI, "d7": PI})
    assert partners(s, "d2") == ["d5"]  # d7 is beyond the empty d6
    assert partners(s, "d5") == ["d2"]
    with pytest.raises(IllegalActionError, match="d6"):
        c = s.clone()
        play(c, "d5")
        c.apply_action(at(g, "d7"))
    # A diagonal line: a2-b3-c4-d5.
    s = position(g, {"a2": GR, "b3": PI, "c4": PU, "d5": GR})
    assert partners(s, "a2") == ["d5"]


def test_same_colour_between() -> None:  # §4.1, option intermediate_any_colour
    posies = {"d2": PI, "d3": PI, "d4": PI}
    s = position(game(), posies)
    assert partners(s, "d2") == ["d3", "d4"]
    s = position(game(intermediate_any_colour=False), posies)
    assert partners(s, "d2") == ["d3"]
    c = s.clone()
    play(c, "d2")
    with pytest.raises(IllegalActionError, match="same colour lies between"):
        c.apply_action(at(c.game, "d4"))


def test_a_pair_must_be_one_colour_on_one_line() -> None:  # §4.1, §4.2
    g = game()
    s = position(g, {"d2": PI, "c5": PI, "d3": PU, "d4": PU})
    assert labels_of(s) == ["d3", "d4"]  # d2 and c5 share no line
    with pytest.raises(IllegalActionError, match="no pink posy pairs"):
        s.apply_action(at(g, "d2"))
    with pytest.raises(IllegalActionError, match="empty"):
        s.apply_action(at(g, "a1"))
    play(s, "d3")
    before = fingerprint(s)
    with pytest.raises(IllegalActionError, match="one colour"):
        s.apply_action(at(g, "d2"))
    with pytest.raises(IllegalActionError, match="not the same one"):
        s.apply_action(at(g, "d3"))
    assert fingerprint(s) == before


def test_a_blocked_point_breaks_a_line() -> None:  # §1.2, §4.1
    g = game(board="h51")
    s = position(g, {"c3": PI, "d3": PI, "f3": PI})  # the zigzag ... c3 d3 e3 f3 ...; e3 is blocked
    assert partners(s, "d3") == ["c3"]
    play(s, "d3")
    with pytest.raises(IllegalActionError, match=r"without a posy between \(e3\)"):
        s.apply_action(at(g, "f3"))


def test_only_posies_with_a_partner_are_offered() -> None:  # §4.4
    g = game()
    s = after_setup(g, 3)
    pairs = brute_pairs(s)
    assert sorted({x for p in pairs for x in p}) == s.legal_actions()
    x = s.legal_actions()[0]
    s.apply_action(x)
    assert s.legal_actions() == sorted({b if a == x else a for a, b in pairs if x in (a, b)})


@pytest.mark.parametrize("options", [{}, {"intermediate_any_colour": False}, {"board": "h51"}])
def test_incremental_pairs_match_the_definition(options: dict[str, object]) -> None:  # §4.1, §4.2
    g = game(**options)
    for seed in range(6):
        s = after_setup(g, seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            if s.observation(None)["phase"] == "first posy":
                pairs = brute_pairs(s)
                assert s.ends == sum(len(ends) for ends in s.line_ends)
                assert s.legal_actions() == sorted({x for p in pairs for x in p})
            s.apply_action(rng.choice(s.legal_actions()))
        assert not brute_pairs(s)  # §6


# -- §5 split rule -------------------------------------------------------------------
ROW = {"d1": GR, "d2": PI, "d3": PI, "d4": PU, "d5": GR, "d6": PU}


def test_a_split_gives_the_smallest_group_to_the_mover() -> None:  # §5.1
    g = game()
    s = position(g, ROW)
    play(s, "d2", "d3")  # leaves {d1} and {d4, d5, d6}
    assert s.colour[at(g, "d1")] == -1
    assert s.store[0] == [2, 0, 1]
    assert s.observation(None)["last_taken"] == [at(g, "d1")]
    assert s.current_player() == 1


def test_equal_smallest_groups_are_the_movers_choice() -> None:  # §5.2
    g = game()
    s = position(g, {"d1": GR, "d2": PU, "d3": PI, "d4": PI, "d5": PI, "d6": GR})
    play(s, "d3", "d4")  # leaves {d1, d2} and {d5, d6}
    assert s.current_player() == 0 and s.observation(0)["phase"] == "take a group"
    assert labels_of(s) == ["take d1+1", "take d5+1"]
    scene = s.scene(0)
    assert check_scene(scene, s.legal_moves()) == []
    assert {t["at"]: t["action"] for t in scene["targets"]} == {
        "d1": at(g, "d1"),
        "d2": at(g, "d1"),
        "d5": at(g, "d5"),
        "d6": at(g, "d5"),
    }
    with pytest.raises(IllegalActionError, match="chosen by its first point: 'take d1\\+1'"):
        s.apply_action(at(g, "d2"))
    with pytest.raises(IllegalActionError, match="smallest groups"):
        s.apply_action(at(g, "d3"))
    play(s, "take d5+1")
    assert s.store[0] == [3, 0, 1]
    assert s.colour[at(g, "d1")] == GR and s.colour[at(g, "d2")] == PU
    assert s.is_terminal()  # §6: seat 1 has no pair left


def test_no_split_no_extra_posies() -> None:  # §5.1, §5.3
    g = game()
    # A ring around d5: removing two of it leaves one connected arc.
    s = position(g, {"c4": PI, "c5": PI, "d4": GR, "d6": PU, "e4": GR, "e5": PU, "a1": GR, "b1": GR})
    play(s, "c4", "c5")
    assert s.store[0] == [2, 0, 0] and s.observation(None)["last_taken"] == []
    # Another group is never examined.
    s = position(g, {"d1": PI, "d2": PI, "f1": GR, "f3": GR, "f2": PU})
    play(s, "d1", "d2")
    assert s.store[0] == [2, 0, 0]


def test_a_split_into_three_takes_one_group() -> None:  # §5.1
    g = game()
    # A star: the pair d4-d5 in the middle, three arms of two.
    s = position(g, {"d4": PU, "d5": PU, "d3": PI, "d2": PI, "c5": GR, "b5": GR, "e5": GR, "f5": PI})
    play(s, "d4", "d5")
    assert labels_of(s) == ["take b5+1", "take d2+1", "take e5+1"]
    play(s, "take e5+1")
    assert s.store[0] == [1, 2, 1]
    assert s.current_player() == 1


# -- §6 end -------------------------------------------------------------------
def test_the_game_ends_when_the_player_to_move_has_no_pair() -> None:  # §6, §7
    g = game()
    s = position(g, {"d1": PI, "d2": PI, "f5": GR})
    play(s, "d1", "d2")
    assert s.current_player() == TERMINAL and s.legal_actions() == []
    assert s.returns() == [1.0, -1.0]
    assert for_players(s.scene(0)["prompt"], ["Ann"]) == "The game is over: Ann wins."
    with pytest.raises(IllegalActionError):
        s.apply_action(0)
    assert position(g, {"d1": PI, "f5": GR}).is_terminal()


# -- §7 scoring -------------------------------------------------------------------
TIE = {"d1": GR, "d2": GR, "f1": PU, "f2": PU, "f3": PU, "f4": PI, "f5": GR}


def tie_game(**options: object) -> PosiesState:
    s = position(game(**options), TIE)
    play(s, "d1", "d2")  # seat 0: 2 green = 6 points, 2 posies
    play(s, "f2", "f3")  # seat 1: 2 purple + f1 (split) = 6 points, 3 posies
    assert s.is_terminal()
    return s


def test_colour_values_and_a_tie_is_a_draw() -> None:  # §7.1, §7.2, §7.3
    s = tie_game()
    assert s.store == [[0, 0, 2], [0, 3, 0]]
    assert s.scores() == [6, 6]
    assert s.returns() == [0.0, 0.0]
    assert s.scene(None)["prompt"] == "The game is over: a draw."


def test_tie_break_by_posies() -> None:  # §7.3, option tie_break
    s = tie_game(tie_break="most_posies")
    assert s.returns() == [-1.0, 1.0]


def test_three_players_share_a_win() -> None:  # §7.3
    g = game()
    s = position(g, {"a1": PI, "a2": PI, "c1": PI, "c2": PI, "e1": PI}, players=3)
    play(s, "a1", "a2")
    play(s, "c1", "c2")
    assert s.is_terminal() and s.scores() == [2, 2, 0]
    assert s.returns() == [0.5, 0.5, -1.0]
    assert for_players(s.scene(2)["prompt"]) == "The game is over: Player 1 and Player 2 share the win."


def test_variant_1_counts_posies() -> None:  # §8.1
    s = tie_game(variant="most_posies")
    assert s.scores() == [2, 3] and s.returns() == [-1.0, 1.0]


# -- §8.2 variant 2: hidden colours -------------------------------------------------------
def hidden_game_at_play(seed: int, players: int = 2) -> PosiesState:
    return after_setup(game(variant="hidden_colour"), seed, players)


def test_each_seat_draws_a_secret_posy() -> None:  # §8.2
    g = game(variant="hidden_colour")
    assert not g.perfect_information and game().perfect_information and not PosiesGame.perfect_information
    assert not g.metadata()["perfect_information"]
    s = g.new_initial_state()
    rng = random.Random(2)
    for _ in range(51):
        s.apply_action(sample_chance(s, rng))
    assert s.current_player() == CHANCE and s.observation(None)["phase"] == "draw"
    assert s.chance_outcomes() == [(PI, 1 / 3), (PU, 1 / 3), (GR, 1 / 3)]
    assert s.action_to_string(CHANCE, GR) == "seat 0 draws green"
    s.apply_action(GR)
    assert s.chance_outcomes() == [(PI, 0.5), (PU, 0.5)]
    assert s.observation(0)["hidden"] == ["green", None]
    assert s.observation(1)["hidden"] == [None, None]
    s.apply_action(PI)
    assert s.current_player() == 0
    assert s.observation(0)["hidden"] == ["green", None]
    assert s.observation(1)["hidden"] == [None, "pink"]
    assert s.observation(None)["hidden"] == [None, None]
    assert s.observation(None)["drawn"] == [True, True] and s.observation(None)["bag"] == 1
    assert s.observation(1)["scores"] == [None, 3]  # only one's own score is known
    zone0 = s.scene(1)["zones"][0]["items"][-1]
    assert zone0["face_down"] and "green" not in zone0["label"]


def test_three_players_draw_the_whole_bag() -> None:  # §8.2
    s = hidden_game_at_play(4, players=3)
    assert sorted(s.hidden) == [PI, PU, GR] and s.bag == []


def test_hidden_scoring_and_the_reveal() -> None:  # §8.2
    g = game(variant="hidden_colour")
    s = position(g, {"d1": PI, "d2": PI, "f1": GR, "f2": GR, "a6": PU})
    s.hidden = [PI, GR]
    s.bag = [PU]
    play(s, "d1", "d2")
    assert s.observation(0)["scores"] == [9, None]
    play(s, "f1", "f2")
    assert s.is_terminal()
    # Seat 0: 3 * (2 pink + 1) = 9; seat 1: 3 * (2 green + 1) = 9.
    assert s.scores() == [9, 9] and s.returns() == [0.0, 0.0]
    for p in (0, 1, None):
        assert s.observation(p)["hidden"] == ["pink", "green"]
        assert s.observation(p)["scores"] == [9, 9]


def test_the_reveal_is_an_undo_barrier() -> None:  # §8.2
    s = hidden_game_at_play(8)
    rng = random.Random(8)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    assert s.undo_point(None) is None
    plain = after_setup(game(), 8)
    rng = random.Random(8)
    while not plain.is_terminal():
        plain.apply_action(rng.choice(plain.legal_actions()))
    assert plain.undo_point(None) is not None


def hidden_sampled_states(players: int, seed: int) -> list[PosiesState]:
    g = game(variant="hidden_colour")
    s = g.new_initial_state(players)
    rng = random.Random(seed)
    out = []
    while not s.is_terminal():
        if s.move_number() >= 50 and (s.move_number() < 56 or s.move_number() % 3 == 0):
            out.append(s.clone())
        random_step(s, rng)
    out.append(s)
    return out  # type: ignore[return-value]


@pytest.mark.parametrize("players", [2, 3])
def test_hidden_information_never_leaks_under_variant_2(players: int) -> None:  # §8.2
    """The conformance check, under variant 2: views identical on every resampled state."""
    g = game(variant="hidden_colour")
    rng = random.Random(17)
    varied = False
    for s in hidden_sampled_states(players, seed=players):
        for p in [*range(players), None]:
            obs = json.dumps(s.observation(p), sort_keys=True)
            scene = json.dumps(s.scene(p), sort_keys=True)
            for _ in range(3):
                r = s.resample(p, rng)
                assert json.dumps(r.observation(p), sort_keys=True) == obs
                assert json.dumps(r.scene(p), sort_keys=True) == scene
                assert r.current_player() == s.current_player()
                if p is not None and r.current_player() >= 0:
                    assert r.legal_actions(p) == s.legal_actions(p)
                # A resampled state is a real one: replaying its history gives it back.
                assert fingerprint(g.state_from_history(r.history(), players)) == fingerprint(r)
                if fingerprint(r) != fingerprint(s):
                    varied = True
                    assert not r.is_terminal()
    assert varied


@pytest.mark.parametrize("players", [2, 3])
def test_no_other_seats_posy_in_a_seats_view(players: int) -> None:  # §8.2
    """Every draw history a seat cannot tell apart gives it the same observation and scene."""
    g = game(variant="hidden_colour")
    s = hidden_game_at_play(11, players)
    rng = random.Random(11)
    for _ in range(6):
        s.apply_action(rng.choice(s.legal_actions()))
    history = s.history()
    for p in range(players):
        views = set()
        for draws in itertools.permutations(range(3), players):
            if draws[p] != s.hidden[p]:
                continue
            alt = g.state_from_history(history[:51] + list(draws) + history[51 + players :], players)
            views.add(json.dumps([alt.observation(p), alt.scene(p)], sort_keys=True))
        assert len(views) == 1
        obs = s.observation(p)
        assert [h is not None for h in obs["hidden"]] == [k == p for k in range(players)]
        scene = s.scene(p)
        for k in range(players):
            item = scene["zones"][k]["items"][-1]
            assert item["face_down"] == (k != p)
            if k != p:
                assert not any(name in item["label"] for name in COLOURS)


def test_resample_without_hidden_information_is_a_copy() -> None:  # §8.2
    s = after_setup(game(), 2)
    r = s.resample(0, random.Random(1))
    assert r is not s and fingerprint(r) == fingerprint(s)


# -- views, notation, the rest ---------------------------------------------------
def test_scene_shows_posies_targets_and_selection() -> None:  # §4.4
    g = game()
    s = position(g, {"d4": PI, "d5": PI, "d7": GR})
    scene = s.scene(0)
    assert check_scene(scene, s.legal_moves()) == []
    assert {t["at"] for t in scene["targets"]} == {"d4", "d5"}
    cell = next(c for c in scene["cells"] if c["id"] == "d7")
    assert cell["kind"] == "point" and cell["fill"] and cell["radius"]
    assert {p["at"]: p["label"] for p in scene["pieces"]} == {"d4": "Pi", "d5": "Pi", "d7": "Gr"}
    d7 = next(p for p in scene["pieces"] if p["at"] == "d7")
    assert d7["owner"] is None and d7["colour"] == cell["fill"] and d7["shape"] == "hex"
    assert len(scene["edges"]) == 128
    play(s, "d4")
    scene = s.scene(0)
    assert {"at": "d4", "kind": "selected"} in scene["highlights"]
    assert [t["at"] for t in scene["targets"]] == ["d5"]
    assert "pink posy to remove with d4" in scene["prompt"]
    assert s.scene(1)["targets"] == [] and s.scene(1)["buttons"] == []


def test_observation_refuses_unknown_seats() -> None:
    s = game().new_initial_state()
    with pytest.raises(ValueError, match="no seat"):
        s.observation(2)


@pytest.mark.parametrize(
    "options",
    [
        {"variant": "most_posies"},
        {"variant": "hidden_colour"},
        {"board": "h51"},
        {"setup": "alternating_choice", "variant": "hidden_colour"},
        {"intermediate_any_colour": False, "tie_break": "most_posies"},
    ],
)
def test_option_settings_play_to_the_end_and_replay(options: dict[str, object]) -> None:  # §9
    g = game(**options)
    for players in (2, 3):
        for seed in range(3):
            s, capped = random_playout(g.new_initial_state(players), random.Random(seed))
            assert not capped and s.is_terminal()
            assert s.move_number() <= 51 + 3 + 3 * 25
            assert fingerprint(g.state_from_json(s.to_json())) == fingerprint(s)
            assert check_scene(s.scene(0), []) == []


def test_random_playouts_are_fast() -> None:
    g = game()
    start = time.perf_counter()
    for seed in range(50):
        random_playout(g.new_initial_state(), random.Random(seed))
    assert (time.perf_counter() - start) / 50 < 0.02
