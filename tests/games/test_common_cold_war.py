"""Common Cold War scenarios; clause numbers refer to docs/rules/common-cold-war.md."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

import boardlab
from boardlab.cli.render import scene_text
from boardlab.core.constants import CHANCE, TERMINAL
from boardlab.core.errors import IllegalActionError
from boardlab.core.gametype import Information
from boardlab.core.scene import check_scene
from boardlab.games import common_cold_war as C

RED, BLUE = 0, 1
T = {
    name: k
    for k, name in enumerate(("T1", "T2", "T3", "T4", "T5", "T6", "T7", "Q1", "Q2", "Q3", "Q4", "Q5", "Q6", "Q7"))
}


def game(**options: object) -> boardlab.Game:
    return boardlab.make("common-cold-war", **options)


def play(s: boardlab.State, *labels: str) -> None:
    for label in labels:
        s.apply_action(s.string_to_action(None, label))


def labels(s: boardlab.State) -> list[str]:
    return [label for _, label in s.legal_moves()]


def dealt(red: list[str], blue: list[str], **options: object) -> C.CommonColdWarState:
    """§3.1: deal the named tiles, Red first, alternately."""
    s = game(**options).new_initial_state()
    for r, b in zip(red, blue, strict=True):
        s.apply_action(T[r])
        s.apply_action(T[b])
    return s


def example() -> C.CommonColdWarState:
    """§7: Red holds T1-T7, Blue Q1-Q7."""
    return dealt([f"T{k}" for k in range(1, 8)], [f"Q{k}" for k in range(1, 8)])


def colours(s: C.CommonColdWarState) -> dict[str, int]:
    return {s.game.names[t]: laid[0] for t, laid in s.table.items()}


def random_steps(seed: int, **options: object) -> Iterator[tuple[C.CommonColdWarState, int, C.CommonColdWarState]]:
    s = game(**options).new_initial_state()
    rng = random.Random(seed)
    while not s.is_terminal():
        before = s.clone()
        if s.current_player() == CHANCE:
            a = rng.choice([o for o, _ in s.chance_outcomes()])
        else:
            a = rng.choice(s.legal_actions())
        s.apply_action(a)
        yield before, a, s


# -- §1: the tiles ------------------------------------------------------------------------------------


def test_the_default_tile_set() -> None:
    """§1, §1.2: seven 2 x 1 and seven 2 x 2 tiles; Flip 31, Protection 10, Destroy, Return, Overtake 5 each."""
    g = game()
    assert g.sizes == ((2, 1),) * 7 + ((2, 2),) * 7
    symbols = "".join(g.edges)
    assert [symbols.count(c) for c in "FPDRO"] == [31, 10, 5, 5, 5]
    assert g.edges[T["T1"]] == "FFFF" and g.edges[T["Q1"]] == "FFFF"  # a pure flipper of each size
    data = json.loads(C.DATA.read_text())
    assert data["tilesets"]["default_v1"]["ours"] is True
    assert any("default_v1" in line for line in g.inventions)


def test_turning_a_tile_turns_its_symbols() -> None:
    """§4.1: a quarter turn right moves the north symbol to the east; a small tile then lies down."""
    assert C.turned("FDFP", 1) == "PFDF" and C.turned("FDFP", 2) == "FPFD"
    assert C.size_of((2, 1), 1) == (1, 2) and C.size_of((2, 2), 1) == (2, 2)


# -- §3: set-up and hidden hands ---------------------------------------------------------------------------


def test_the_deal_and_the_hands_are_open() -> None:
    """§3.1, §3.2: seven tiles each, Red first; every deal and both hands are seen by everyone."""
    s = example()
    assert s.hands == [tuple(range(7)), tuple(range(7, 14))] and s.current_player() == RED
    for viewer in (RED, BLUE, None):
        assert s.observation(viewer)["hands"] == [list(range(7)), list(range(7, 14))]
    assert [e["text"] for e in s.move_log(BLUE)] == ["The tiles were dealt, seven to each player."]
    fresh = game().new_initial_state()
    assert fresh.action_to_string(CHANCE, 0) == "deals T1 to Red"
    fresh.apply_action(0)
    assert fresh.action_to_string(CHANCE, 7) == "deals Q1 to Blue"
    assert game().game_type.information == Information.PERFECT


# -- §4: a turn ------------------------------------------------------------------------------------------


def test_the_first_tile_goes_in_the_middle() -> None:
    """§4.2, §4.6, §7.1: the tile, then its turn, then the one place: the middle."""
    s = example()
    assert labels(s) == [f"play T{k}" for k in range(1, 8)]
    play(s, "play T1")
    assert labels(s) == list(C.TURNS)
    play(s, "no turn")
    assert labels(s) == ["place at l12"]
    assert "goes in the middle" in s.explain_illegal(RED, s.game.action_space.encode("place", 0))


def test_a_tile_must_touch_and_not_overlap() -> None:
    """§4.2: every offered place shares a full unit edge with T1 and covers none of its squares."""
    s = example()
    play(s, "play T1", "no turn", "place at l12", "play Q1", "no turn")
    spots = [s.game.action_space.decode(a)[1][0] for a in s.legal_actions()]
    t1 = {11 * 24 + 11, 11 * 24 + 12}
    for spot in spots:
        x, y = spot % 24, spot // 24
        mine = {(y + dy) * 24 + x + dx for dy in range(2) for dx in range(2)}
        assert not mine & t1
        assert any(abs(a % 24 - b % 24) + abs(a // 24 - b // 24) == 1 for a in mine for b in t1)
    assert len(spots) == 10  # 2 x 2 next to a 2 x 1: 3 above, 3 below, 2 on each end
    space = s.game.action_space
    assert "lie on one another" in s.explain_illegal(BLUE, space.encode("place", 11 * 24 + 11))
    assert "share a full unit edge" in s.explain_illegal(BLUE, space.encode("place", 0))
    with pytest.raises(IllegalActionError, match="not legal"):
        s.apply_action(space.encode("place", 0))


def test_only_your_own_tiles_and_your_colour_up() -> None:
    """§4, §4.3: Blue plays from Blue's hand, blue face up."""
    s = example()
    play(s, "play T1", "no turn", "place at l12")
    assert s.table[T["T1"]][0] == RED
    assert "not in your hand" in s.explain_illegal(BLUE, s.game.action_space.encode("play", T["T2"]))
    play(s, "play Q2", "no turn", "place at l10")
    assert s.table[T["Q2"]][0] == BLUE


def test_the_handkerchief_limits_the_table() -> None:
    """§4.2: with board = 10x10 every tile lies inside the middle 10 x 10 squares."""
    for _, _, after in random_steps(4, board="10x10"):
        for _, x, y, w, h, _ in after.table.values():
            assert x >= 7 and x + w <= 17 and y >= 7 and y + h <= 17


def test_a_player_who_cannot_place_discards() -> None:
    """§4.4: when no tile of the hand fits anywhere, discarding one is the only move, and it leaves the game.

    A hand-made position: the 10 x 10 handkerchief is full (its squares marked as covered), so nothing fits."""
    s = dealt([f"T{k}" for k in range(1, 8)], [f"Q{k}" for k in range(1, 8)], board="10x10")
    s.cells = {y * C.TABLE + x: T["T7"] for y in range(7, 17) for x in range(7, 17)}
    s.occupied = sum(1 << c for c in s.cells)
    s._start_turn(RED)
    assert s.phase == C.DISCARD and labels(s) == [f"discard T{k}" for k in range(1, 8)]
    assert "must discard" in s.explain_illegal(RED, s.game.action_space.encode("play", T["T1"]))
    play(s, "discard T2")
    assert T["T2"] not in s.hands[RED] and s.observation(None)["discarded"] == [T["T2"]]
    assert s.current_player() == BLUE and s.phase == C.DISCARD


def test_an_empty_hand_is_skipped() -> None:
    """§4.5: once a player's hand is empty the other keeps playing until both are empty."""
    for seed in range(40):
        for before, _, after in random_steps(seed):
            if before.phase == C.PLACE and not after.is_terminal() and after.to_move == before.to_move:
                assert not after.hands[1 - before.to_move]
                return
    pytest.skip("no skipped turn in these games")


# -- §5: the resolution -----------------------------------------------------------------------------------


def test_flip() -> None:
    """§5.2, §5.3, §7.2: Q1's south edge (Flip) flips T1 to Blue; the log says so."""
    s = example()
    play(s, "play T1", "no turn", "place at l12", "play Q1", "no turn", "place at l10")
    assert colours(s) == {"T1": BLUE, "Q1": BLUE}
    assert s.move_log(None)[-1]["text"] == "places it at l10: Q1 flips T1 to Blue"


def test_destroy() -> None:
    """§5.3, §7.3: T3 turned half round shows Destroy to the west and destroys Q1."""
    s = example()
    play(s, "play T1", "no turn", "place at l12", "play Q1", "no turn", "place at l10")
    play(s, "play T3", "a half turn", "place at n10")
    assert colours(s) == {"T1": BLUE, "T3": RED}
    assert T["Q1"] not in s.hands[BLUE]  # it left the game
    assert s.move_log(None)[-1]["text"] == "places it at n10: T3 destroys Q1"


def test_flip_back_and_untouched_edges() -> None:
    """§5.2, §7.4: Q2's east edge flips T1 back to Red; its other edges touch nothing."""
    s = example()
    play(s, "play T1", "no turn", "place at l12", "play Q1", "no turn", "place at l10")
    play(s, "play T3", "a half turn", "place at n10", "play Q2", "no turn", "place at j12")
    assert colours(s) == {"T1": RED, "T3": RED, "Q2": BLUE}


def test_protection_shields_the_tile_showing_it() -> None:
    """§5.2: T2 shows Protection east and west: Q1 placed against its east edge cannot flip it."""
    s = example()
    play(s, "play T2", "no turn", "place at l12", "play Q1", "no turn", "place at n12")
    assert colours(s) == {"T2": RED, "Q1": BLUE}
    assert s.move_log(None)[-1]["text"] == "places it at n12"


def test_return_goes_to_the_colour_shown() -> None:
    """§5.3: T4 shows Return east; placed against Q1 it sends Q1 back to Blue's hand."""
    s = example()
    play(s, "play T1", "no turn", "place at l12", "play Q1", "no turn", "place at l10")
    play(s, "play T4", "no turn", "place at j10")  # T4's east edge (Return) touches Q1's west edge
    assert T["Q1"] in s.hands[BLUE] and T["Q1"] not in s.table
    assert "T4 returns Q1 to Blue" in s.move_log(None)[-1]["text"]


def test_overtake_makes_the_touched_tile_act_on_the_placed_one() -> None:
    """§5.3, §5.5: T5's east edge overtakes Q1, whose west edge (Flip) then flips T5 itself; each acts once."""
    s = example()
    play(s, "play T1", "no turn", "place at l12", "play Q1", "no turn", "place at l10")
    play(s, "play T5", "no turn", "place at j10")
    text = s.move_log(None)[-1]["text"]
    assert text == "places it at j10: T5 overtakes Q1; Q1 flips T1 to Red; Q1 flips T5 to Blue"
    assert colours(s) == {"T1": RED, "Q1": BLUE, "T5": BLUE}


def test_mirror_flip_swaps_the_long_edges() -> None:
    """§5.4: with flip = mirror a flipped small tile lying across swaps its north and south symbols."""
    assert C.mirrored("DFPF", 2, 1) == "PFDF" and C.mirrored("DFPF", 1, 2) == "DFPF"
    s = dealt([f"T{k}" for k in (6, 1, 2, 3, 4, 5, 7)], [f"Q{k}" for k in range(1, 8)], flip="mirror")
    play(s, "play T6", "no turn", "place at l12", "play Q1", "no turn", "place at l13")  # Q1 below T6
    # T6's south edge is Protection, so nothing happens; from the north Q1 flips it and its edges swap
    assert s.table[T["T6"]][5] == "DFPF"
    s = dealt([f"T{k}" for k in (6, 1, 2, 3, 4, 5, 7)], [f"Q{k}" for k in range(1, 8)], flip="mirror")
    play(s, "play T6", "no turn", "place at l12", "play Q1", "no turn", "place at l10")
    assert s.table[T["T6"]][0] == BLUE and s.table[T["T6"]][5] == "PFDF"
    plain = dealt([f"T{k}" for k in (6, 1, 2, 3, 4, 5, 7)], [f"Q{k}" for k in range(1, 8)])
    play(plain, "play T6", "no turn", "place at l12", "play Q1", "no turn", "place at l10")
    assert plain.table[T["T6"]][5] == "DFPF"


def test_chains_end_and_every_tile_acts_once() -> None:
    """§5.5: over random games every placement's report names each overtaken tile at most once."""
    for seed in range(30):
        for before, _, after in random_steps(seed):
            if before.phase == C.PLACE and after.report:
                overtaken = [w.split(" overtakes ")[1] for w in after.report.split("; ") if " overtakes " in w]
                assert len(overtaken) == len(set(overtaken))
                placed = before.game.names[before.held]
                assert placed not in overtaken


# -- §6: the end ---------------------------------------------------------------------------------------


def test_more_tiles_of_your_colour_win() -> None:
    """§6.1, §6.2: when both hands are empty, the colour showing on more tiles wins; equal is a draw."""
    results = set()
    for seed in range(30):
        *_, (_, _, s) = random_steps(seed)
        assert s.current_player() == TERMINAL and not any(s.hands)
        red, blue = s.counts()
        assert s.returns() == ([1.0, -1.0] if red > blue else [-1.0, 1.0] if blue > red else [0.0, 0.0])
        results.add(tuple(s.returns()))
        assert s.observation(RED)["hands"] == [[], []]
    assert len(results) == 3


def test_random_games_are_short() -> None:
    """§6.3: the safety cap of 80 plays is never reached in random games."""
    for seed in range(30):
        *_, (_, _, s) = random_steps(seed)
        assert s.plays < 30 and not s.observation(None)["capped"]


# -- the scene ---------------------------------------------------------------------------------------------------


def test_the_scene_draws_tiles_with_symbol_pictures() -> None:
    """§1.1, §3.2: hand tiles are pictures whose edges are drawn in their symbols' inks; both hands are shown."""
    s = example()
    play(s, "play T1", "no turn", "place at l12")
    scene = s.scene(BLUE)
    assert check_scene(scene, s.legal_moves(BLUE)) == []
    mine = next(z for z in scene["zones"] if z["id"] == "hand1")
    q7 = next(i for i in mine["items"] if i["value"] == "Q7")
    assert q7["picture"]["stroke_colours"] == [C.INKS[c] for c in "DPRO"]
    assert q7["detail"] == "north destroy, east protection, south return, west overtake"
    other = next(z for z in scene["zones"] if z["id"] == "hand0")
    assert [i["value"] for i in other["items"]] == [f"T{k}" for k in range(2, 8)]
    symbols = [e for e in scene["edges"] if e["kind"] == "symbol"]
    assert len(symbols) == 4 and all(e["stroke"] == C.INKS["F"] for e in symbols)
    text = scene_text(scene, labels(s))
    assert "play Q1" in text


# -- the fast rules against the plain ones ------------------------------------------------------------------------


def reference_places(cells: dict[int, int], area: tuple[int, int]) -> dict[tuple[int, int], tuple[int, ...]]:
    """§4.2 from scratch, as the rules were first written: for each tile size lying one way (2 x 1, 1 x 2, 2 x 2),
    its legal top-left squares, in order: every place next to a covered square that is free and in the area."""
    lo, hi = area
    near = set()
    for c in cells:
        cx, cy = c % C.TABLE, c // C.TABLE
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            near.add((cx + dx, cy + dy))
    out = {}
    for w, h in ((2, 1), (1, 2), (2, 2)):
        if not cells:
            cand = {((lo + hi - w) // 2, (lo + hi - h) // 2)}
        else:
            cand = {(nx - dx, ny - dy) for nx, ny in near for dx in range(w) for dy in range(h)}
        free = [
            (x, y)
            for x, y in cand
            if lo <= x
            and lo <= y
            and x + w <= hi
            and y + h <= hi
            and not any((y + dy) * C.TABLE + x + dx in cells for dy in range(h) for dx in range(w))
        ]
        out[(w, h)] = tuple(sorted(y * C.TABLE + x for x, y in free))
    return out


def reference_legal(s: C.CommonColdWarState) -> list[int]:
    """The legal actions of the seat to move, worked out from the table alone with :func:`reference_places`."""
    g = s.game
    places = reference_places(s.cells, g.area)

    def spots(tile: int) -> dict[int, tuple[int, ...]]:
        return {q: places[C.size_of(g.sizes[tile], q)] for q in range(4) if places[C.size_of(g.sizes[tile], q)]}

    hand = s.hands[s.to_move]
    if s.phase == C.PICK:
        return [g.play_base + t for t in hand if spots(t)]
    if s.phase == C.TURN:
        return [g.turn_base + q for q in sorted(spots(s.held))]
    if s.phase == C.PLACE:
        return [g.place_base + c for c in spots(s.held)[s.turn]]
    assert s.phase == C.DISCARD and not any(spots(t) for t in hand)  # §4.4: only when nothing fits
    return [g.discard_base + t for t in hand]


def test_places_on_any_table_match_the_rules_worked_out_from_scratch() -> None:
    """§4.2: on tables of squares covered at random, up to the table's edges, every shape has the places
    worked out afresh, for both play areas (the bits do not wrap round from one row to the next)."""
    rng = random.Random(3)
    for options in ({}, {"board": "10x10"}):
        g = game(**options)
        for k in range(300):
            lo, hi = (0, C.TABLE) if k % 3 else g.area  # some covered squares outside the handkerchief too
            cells = {y * C.TABLE + x: 0 for y in range(lo, hi) for x in range(lo, hi) if rng.random() < k / 600}
            fits = C.fitting(sum(1 << c for c in cells), g.allowed, g.first)
            expected = reference_places(cells, g.area)
            assert {size: tuple(C.squares_of(fits[C.SHAPE_OF[size]])) for size in C.SHAPES} == expected


@pytest.mark.parametrize("options", [{}, {"board": "10x10"}, {"flip": "mirror"}])
def test_the_kept_places_match_the_rules_worked_out_from_scratch(options: dict[str, str]) -> None:
    """§4.2: over many random games, at every step the legal actions are those worked out afresh from the table,
    in the same order, and the covered squares the state keeps as bits are the squares under its tiles."""
    for seed in range(40):
        for _, _, after in random_steps(seed, **options):
            assert after.occupied == sum(1 << c for c in after.cells)
            if after.current_player() >= 0:
                assert after.legal_actions() == reference_legal(after)


def test_a_single_action_is_checked_as_the_list_says() -> None:
    """Every action of the action space is accepted exactly when it is in the legal list, at every kind of step."""
    for seed in range(3):
        for _, _, s in random_steps(seed, board="10x10"):
            if s.current_player() < 0:
                continue
            legal = set(s.legal_actions())
            accepted = {a for a in range(s.game.num_distinct_actions()) if s._is_legal(s.current_player(), a)}
            assert accepted == legal
            assert not s._is_legal(s.current_player(), -1)


def test_a_copy_and_its_original_go_their_own_ways() -> None:
    """A clone and its original, played apart, each offer at every step what a fresh replay of its history does."""

    def seen(s: C.CommonColdWarState) -> tuple[object, ...]:
        return s.legal_actions(), s.observation(None), s.occupied

    rng = random.Random(11)
    for seed in range(8):
        for before, _, _ in random_steps(seed):
            if before.phase != C.PICK or rng.random() < 0.7:
                continue
            copy = before.clone()
            for s in (before, copy):  # different random continuations
                start, steps = s.move_number(), []
                while not s.is_terminal():
                    legal = s.legal_actions() if s.current_player() >= 0 else [a for a, _ in s.chance_outcomes()]
                    s.apply_action(rng.choice(legal))
                    steps.append(seen(s))
                replay = game().new_initial_state()
                for k, a in enumerate(s.history()):
                    replay.apply_action(a)
                    if k >= start:
                        assert seen(replay) == steps[k - start]
            break
