"""Fences scenarios; clause numbers refer to docs/rules/fences.md."""

from __future__ import annotations

import itertools
import json
import pathlib
import random
from collections.abc import Iterator

import pytest

import boardlab
from boardlab.cli.render import scene_text
from boardlab.core.constants import CHANCE, TERMINAL
from boardlab.core.errors import IllegalActionError
from boardlab.core.gametype import Information
from boardlab.core.scene import check_scene
from boardlab.core.wording import with_refs
from boardlab.games import fences as F

RED, BLUE, GREEN, YELLOW = range(4)


def game(**options: object) -> boardlab.Game:
    return boardlab.make("fences", **options)


def play(s: boardlab.State, *labels: str) -> None:
    for label in labels:
        s.apply_action(s.string_to_action(None, label))


def labels(s: boardlab.State) -> list[str]:
    return [label for _, label in s.legal_moves()]


def example(**options: object) -> boardlab.State:
    """§8.1: cards 1 and 2 turn up side A; Red lays card 1 upright in the middle; card 3 turns up side A."""
    s = game(**options).new_initial_state(2)
    play(s, "card 1 turns up on the deck, side A up", "card 2 turns up on the deck, side A up")
    play(s, "lay side A upright", "lay it on the empty table", "card 3 turns up on the deck, side A up")
    return s


def random_steps(n: int, seed: int, **options: object) -> Iterator[tuple[boardlab.State, int, boardlab.State]]:
    """(state before, action, state after) along one random game of ``n`` players."""
    g = game(**options)
    s = g.new_initial_state(n)
    rng = random.Random(seed)
    while not s.is_terminal():
        before = s.clone()
        if s.current_player() == CHANCE:
            outcomes = s.chance_outcomes()
            a = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            a = rng.choice(s.legal_actions())
        s.apply_action(a)
        yield before, a, s.clone()


def cycle_rank(s: F.FencesState, colour: int) -> int:
    """Independent loops in a colour's drawing: segments - points + pieces (§5.1), from the table alone."""
    segs: set[frozenset[tuple[int, int]]] = set()
    for sh_i, x, y in s.table.values():
        sh = s.game.shapes[sh_i]
        for a, b in itertools.pairwise(sh.paths[colour]):
            segs.add(frozenset({(x + a[0], y + a[1]), (x + b[0], y + b[1])}))
    points = {p for seg in segs for p in seg}
    parent = {p: p for p in points}

    def find(p: tuple[int, int]) -> tuple[int, int]:
        while parent[p] != p:
            p = parent[p]
        return p

    pieces = len(points)
    for seg in segs:
        a, b = (find(p) for p in seg)
        if a != b:
            parent[a] = b
            pieces -= 1
    return len(segs) - len(points) + pieces


# -- §1: the cards ---------------------------------------------------------------------------


def test_the_default_card_set_keeps_the_line_rules() -> None:
    """§1.1-§1.3: seven cards, fourteen different sides; one L or U per colour, ends on the edge, no shared
    segment, no loop on one side."""
    g = game()
    assert g.cards == 7 and g.card_names == ("1", "2", "3", "4", "5", "6", "7")
    sides = [side for pair in g.sides for side in pair]
    assert len({json.dumps(side, sort_keys=True) for side in sides}) == 14
    for side in sides:
        segs = []
        for key in F.COLOUR_KEYS:
            path = [tuple(p) for p in side[key]]
            for end in (path[0], path[-1]):
                assert end[0] in (0, 2) or end[1] in (0, 3)  # on the card's edge
            turns = sum(
                (b[0] - a[0], b[1] - a[1]) != (c[0] - b[0], c[1] - b[1]) for a, b, c in zip(path, path[1:], path[2:])
            )
            assert turns in (1, 2)  # an L or a U
            segs += [frozenset(pair) for pair in itertools.pairwise(path)]
            assert len(set(path)) == len(path)  # a path, no loop
        assert len(segs) == len(set(segs))


def test_a_bad_card_set_is_refused() -> None:
    """§1.1: a line must run along the card's grid, one per colour."""
    with pytest.raises(ValueError, match="unit grid"):
        F._check_side("X", {"R": [[0, 0], [2, 0]], "B": [[0, 0], [0, 1]], "G": [[1, 0], [1, 1]], "Y": [[2, 0], [2, 1]]})
    with pytest.raises(ValueError, match="one path for each"):
        F._check_side("X", {"R": [[0, 0], [1, 0]]})


def test_the_card_set_is_data_and_marked_as_ours() -> None:
    """§1.3: default_v1 lives in the data file, marked as our design; inventions say so."""
    data = json.loads(F.DATA.read_text())
    assert data["cardsets"]["default_v1"]["ours"] is True
    assert any("our card set" in line for line in game().inventions)
    assert [opt.allowed for opt in game().options if opt.name == "cardset"] == [tuple(data["cardsets"])]


# -- §2: players and set-up ------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_two_to_four_players_take_the_colours_in_order(n: int) -> None:
    """§2.1, §2.4: seats are Red, Blue, Green, Yellow; Red starts; five players are refused."""
    s = game().new_initial_state(n)
    obs = s.observation(0)
    assert obs["colours"] == list(F.NAMES[:n])
    play(s, "card 4 turns up on the deck, side B up", "card 6 turns up on the deck, side A up")
    assert s.current_player() == RED
    with pytest.raises(ValueError):
        game().new_initial_state(5)


def test_the_deck_turns_up_a_random_card_and_side() -> None:
    """§2.2: each card and side turns up with the same chance; the next card turns up when the top one goes."""
    s = game().new_initial_state(2)
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 14 and all(p == pytest.approx(1 / 14) for _, p in outcomes)
    play(s, "card 5 turns up on the deck, side B up")
    obs = s.observation(None)
    assert obs["top"] is None and obs["held"] == 4  # Red plays card 5 at once ...
    assert s.current_player() == CHANCE and len(s.chance_outcomes()) == 12  # ... and the next card turns up
    play(s, "card 2 turns up on the deck, side A up")
    assert s.observation(None)["top"] == [1, 0] and s.current_player() == RED


def test_nothing_is_hidden() -> None:
    """§2.3: perfect information: every seat and spectators see the same view."""
    g = game()
    assert g.game_type.information == Information.PERFECT
    s = example()
    views = [s.observation(p) for p in (0, 1, None)]
    for v in views:
        v.pop("viewer")
    assert views[0] == views[1] == views[2]


# -- §3: the card you play ------------------------------------------------------------------------


def test_a_deck_card_needs_no_choice_and_an_empty_table_takes_it_in_the_middle() -> None:
    """§3.2, §4.1, §4.2: Red's first decision is how to lay the deck card; eight ways; only the middle."""
    s = game().new_initial_state(2)
    play(s, "card 1 turns up on the deck, side A up", "card 2 turns up on the deck, side A up")
    assert labels(s) == [f"lay side {side} {turn}" for side in "AB" for turn in F.TURNS]
    play(s, "lay side A turned right")
    assert labels(s) == ["lay it on the empty table"]
    assert "the table is empty" in s.explain_illegal(RED, s.game.action_space.encode("place", 0, 3, 5))


def test_with_cards_in_hand_you_must_play_one_of_them() -> None:
    """§3.1: after taking a fence Blue must play a hand card, not the deck's top card."""
    s = example()
    play(s, "complete a fence", "lay side B upside down", "place 2 right and 1 down from card 1")
    play(s, "card 4 turns up on the deck, side A up", "lay side A upright", "lay it on the empty table")  # Red: 3
    assert s.current_player() == BLUE
    assert labels(s) == ["take card 1", "take card 2"]
    with pytest.raises(IllegalActionError, match="not in your hand"):
        s.apply_action(s.game.action_space.encode("take", 2))


def test_from_the_table_you_may_not_take_the_card_just_played() -> None:
    """§3.3: with no hand and no deck, a table card is picked up, but not the one the previous player just laid."""
    for seed in range(20):
        for _, _, after in random_steps(2, seed):
            if after.phase == F.TAKE and after.source == "table" and after.last_played in after.table:
                assert len(after.table) > 1
                choices = [after.game.action_space.decode(x)[1][0] for x in after.legal_actions()]
                assert after.last_played not in choices and set(choices) <= set(after.table)
                with pytest.raises(IllegalActionError, match="just played by the previous player"):
                    after.apply_action(after.game.action_space.encode("take", after.last_played))
                return
    pytest.fail("no table pick-up in these games")


def test_a_card_picked_up_may_go_back_where_it_was() -> None:
    """§3.3: the picked-up card is off the table while it is laid, so its old place is free again."""
    space = game().action_space
    for seed in range(20):
        for before, a, after in random_steps(2, seed):
            if before.phase == F.TAKE and before.source == "table" and after.phase == F.LAY:
                card = space.decode(a)[1][0]
                sh, x, y = before.table[card]
                assert card not in after.table
                side_turn = space.encode("lay", (sh % 8) // 4, sh % 4)
                if side_turn in after.legal_actions():
                    after.apply_action(side_turn)
                    if any(after.place_of(p) == (x, y) for p in after.legal_actions()):
                        return
    pytest.fail("no picked-up card could go back to its place in these games")


# -- §4: laying the card -----------------------------------------------------------------------------


def test_a_card_must_touch_and_must_not_overlap() -> None:
    """§4.2: every offered place touches a card along a full square side and covers none; others explained."""
    s = example()
    play(s, "lay without completing a fence", "lay side A upright")
    space = s.game.action_space
    covered = {(dx, dy) for dx in range(2) for dy in range(3)}  # card 1, upright, from the table's corner
    for a in s.legal_actions():
        at = s.place_of(a)
        assert at is not None
        mine = {(at[0] + dx, at[1] + dy) for dx in range(2) for dy in range(3)}
        assert not mine & covered
        assert any(abs(ax - bx) + abs(ay - by) == 1 for ax, ay in mine for bx, by in covered)
    here = F.REACH
    assert with_refs(s.explain_illegal(BLUE, space.encode("place", 0, here, here))).endswith(
        "lie on another card (§4.2)"
    )
    assert "must touch a card" in s.explain_illegal(BLUE, space.encode("place", 0, 0, 0))
    assert "card 5 is not on the table" in s.explain_illegal(BLUE, space.encode("place", 4, here + 2, here))
    assert "must touch a card" in s.explain_illegal(BLUE, s.game.start_action)


def test_you_may_not_complete_another_players_fence() -> None:
    """§4.3, §8.3: card 2 side A upright at i6 or h7 would complete a Red fence, so Blue may not lay it there."""
    s = example()
    assert s.current_player() == BLUE and s.observation(None)["held"] == 1
    play(s, "lay without completing a fence", "lay side A upright")
    assert "place 1 left and 3 up from card 1" not in labels(s) and "place 2 left and 2 up from card 1" not in labels(s)
    assert "place 3 up from card 1" in labels(s)
    why = s.explain_illegal(BLUE, s.game.action_space.encode("place", 0, F.REACH - 1, 0))
    assert with_refs(why).endswith("would complete a Red fence, and you may not complete another player's (§4.3)")


def test_you_are_asked_first_whether_to_complete_a_fence() -> None:
    """§4.4, §8.2: card 2 can complete a Blue fence and can be laid without; the answer narrows the choices."""
    s = example()
    assert labels(s) == ["complete a fence", "lay without completing a fence"]
    closing = s.clone()
    play(closing, "complete a fence")
    assert labels(closing) == ["lay side B upside down"]
    play(closing, "lay side B upside down")
    assert labels(closing) == ["place 2 right and 1 down from card 1"]
    plain = s.clone()
    play(plain, "lay without completing a fence", "lay side B upside down")
    assert "place 2 right and 1 down from card 1" not in labels(plain) and labels(plain)
    closes = plain.game.action_space.encode("place", 0, F.REACH + 2, F.REACH + 1)
    assert "you said it would not" in plain.explain_illegal(BLUE, closes)


def test_no_question_when_the_card_cannot_complete_a_fence() -> None:
    """§4.4: Red's first card cannot complete anything, so it goes straight to side and turn."""
    s = game().new_initial_state(2)
    play(s, "card 1 turns up on the deck, side A up", "card 2 turns up on the deck, side A up")
    assert s.phase == F.LAY


def test_a_player_with_no_legal_place_skips() -> None:
    """§3.4, §4.5: some random four-player games reach a turn where nothing can be played: skip is the only move."""
    for seed in range(60):
        for _, _, after in random_steps(4, seed):
            if after.phase == F.SKIP:
                assert labels(after) == ["skip the turn"]
                hands, top, table, mover = list(after.hands), after.top, dict(after.table), after.to_move
                play(after, "skip the turn")
                assert after.hands == hands and after.top == top and after.table == table
                assert after.is_terminal() or after.to_move == (mover + 1) % 4
                return
    pytest.skip("no skip in these games")


# -- §5: fences -------------------------------------------------------------------------------------------


def test_the_worked_example_fence() -> None:
    """§5.1, §5.2, §8.2: Blue's card 2 closes a Blue loop with card 1 and takes both cards; the log says so."""
    s = example()
    play(s, "complete a fence", "lay side B upside down", "place 2 right and 1 down from card 1")
    assert s.hands == [(), (0, 1)] and s.table == {}
    text = "lays the card 2 squares right and 1 square down from card 1: completes a Blue fence and takes cards 1, 2"
    assert s.move_log(None)[-1]["text"] == text
    assert s.observation(None)["held"] == 2 and s.current_player() == CHANCE  # Red plays card 3 from the deck
    play(s, "card 7 turns up on the deck, side B up", "lay side A upright")
    assert labels(s) == ["lay it on the empty table"]


def test_fences_by_the_independent_loop_count() -> None:
    """§4.3, §5.1, §5.2, §5.3: over random games, a placement adds a loop of a colour exactly when the engine
    says so: never in another player's colour, in the mover's colour only when it takes a fence, and a neutral
    loop has no effect."""
    seen_neutral = seen_own = 0
    for n, seed in itertools.product((2, 3, 4), range(6)):
        for before, a, after in random_steps(n, seed):
            if before.phase != F.PLACE:
                continue
            mover = before.to_move
            card = before.held
            probe = before.clone()  # the table with the card laid and nothing taken yet
            at = probe.place_of(a)
            assert at is not None
            probe._put(card, probe.shape, *at)
            for colour in range(4):
                gained = cycle_rank(probe, colour) > cycle_rank(before, colour)
                if colour == mover:
                    assert gained == (after.fence is not None)
                    seen_own += gained
                elif colour < n:
                    assert not gained
                elif gained:
                    seen_neutral += 1
                    assert after.fence is None or after.fence[1] == mover
            if after.fence is not None:
                taken = after.fence[2]
                assert card in taken and len(taken) >= 2
                assert not set(taken) & set(after.table)
    assert seen_own and seen_neutral


def test_whole_component_takes_at_least_the_shortest_loop() -> None:
    """§5.2: fence_cards = whole_component takes every card of the connected drawing, a superset."""
    bigger = False
    whole = game(fence_cards="whole_component")
    for n, seed in itertools.product((2, 3), range(30)):
        for before, a, after in random_steps(n, seed):
            if after.fence is not None and before.phase == F.PLACE:  # the first fence: replay it both ways
                other = whole.state_from_history(before.history(), n)
                other.apply_action(a)
                assert other.fence is not None and set(after.fence[2]) <= set(other.fence[2])
                bigger = bigger or set(after.fence[2]) < set(other.fence[2])
                break
    assert bigger


# -- §6, §7: the end ---------------------------------------------------------------------------------------


def test_four_cards_in_hand_win() -> None:
    """§6: the first player to hold four cards after a fence wins; the others share -1."""
    for n in (2, 3):
        for before, _, after in random_steps(n, 3):
            if after.is_terminal():
                w = after.winner
                assert len(after.hands[w]) >= 4 and after.fence is not None and after.fence[0] == w
                assert after.returns() == [1.0 if p == w else -1.0 / (n - 1) for p in range(n)]
                assert after.move_log(None)[-1]["text"].endswith(
                    f"{F.NAMES[w]} holds {len(after.hands[w])} cards and wins"
                )
                assert all(len(before.hands[p]) < 4 for p in range(n))


def test_the_turn_limit_ends_in_a_draw() -> None:
    """§7: with turn_limit 20 a long game stops as a draw after turn 20."""
    for seed in range(40):
        *_, (_, _, after) = random_steps(2, seed, turn_limit=20)
        if after.capped:
            assert after.winner == -1 and after.returns() == [0.0, 0.0] and after.turn == 21
            assert after.current_player() == TERMINAL
            assert "turn limit" in after.scene(0)["prompt"]
            return
    pytest.fail("no game reached 20 turns")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_games_end_well_before_the_limit(n: int) -> None:
    """§6, §7: random games at every player count end with a winner."""
    for seed in range(5):
        *_, (_, _, after) = random_steps(n, seed)
        assert after.winner >= 0 and not after.capped


# -- the scene ------------------------------------------------------------------------------------------------


def test_the_scene_draws_cards_with_coloured_line_pictures() -> None:
    """§1, §4.4: table lines are coloured edges; hand and deck cards are pictures with one ink per line."""
    s = example()
    sc_ = s.scene(BLUE)
    assert check_scene(sc_, s.legal_moves(BLUE)) == []
    fence_edges = [e for e in sc_["edges"] if e["kind"] == "fence"]
    assert {e["stroke"] for e in fence_edges} == set(F.INKS)
    top = next(z for z in sc_["zones"] if z["id"] == "deck")["items"][0]
    assert top["value"] == "3A" and top["picture"]["stroke_colours"] == list(F.INKS)
    assert len(top["picture"]["strokes"]) == 4
    assert [b["label"] for b in sc_["buttons"]] == ["complete a fence", "lay without completing a fence"]
    play(s, "complete a fence")
    sc_ = s.scene(BLUE)
    lay = next(z for z in sc_["zones"] if z["id"] == "lay")
    assert [i["label"] for i in lay["items"]] == ["card 2 side B, upside down"]
    assert {t["at"] for t in sc_["targets"]} == {"lay12"}
    play(s, "lay side B upside down")
    sc_ = s.scene(BLUE)
    corner = [t["at"] for t in sc_["targets"]]
    assert corner == ["g6"]  # the scene shows 4 squares around the cards: card 1's corner is e5
    assert next(c for c in sc_["cells"] if c["id"] == "e5")["fill"]
    text = scene_text(sc_, labels(s))
    assert "place 2 right and 1 down from card 1" in text and "3A" in text


def test_table_cards_are_clicked_to_pick_them_up() -> None:
    """§3.3: in the scene a table card's squares are the targets for taking it."""
    for _, _, after in random_steps(2, 11):
        if after.phase == F.TAKE and after.source == "table":
            scene = after.scene(after.to_move)
            assert check_scene(scene, after.legal_moves(after.to_move)) == []
            targets = {t["label"] for t in scene["targets"]}
            assert targets == set(labels(after))
            return
    pytest.fail("no table pick-up in this game")


# -- §4.2: the table has no edge -------------------------------------------------------------------------------


def drawn(s: F.FencesState, sh: int, x: int, y: int, colour: int) -> set[frozenset[tuple[int, int]]]:
    """The unit segments of ``colour`` that way ``sh`` of a card draws with its top-left square at (x, y)."""
    path = s.game.shapes[sh].paths[colour]
    return {frozenset({(x + a[0], y + a[1]), (x + b[0], y + b[1])}) for a, b in itertools.pairwise(path)}


def loops(segs: set[frozenset[tuple[int, int]]]) -> int:
    """Independent loops of a drawing: segments - points + pieces (§5.1)."""
    points = {p for seg in segs for p in seg}
    parent = {p: p for p in points}

    def find(p: tuple[int, int]) -> tuple[int, int]:
        while parent[p] != p:
            p = parent[p]
        return p

    pieces = len(points)
    for seg in segs:
        a, b = (find(p) for p in seg)
        if a != b:
            parent[a] = b
            pieces -= 1
    return len(segs) - len(points) + pieces


def reference_places(s: F.FencesState) -> dict[tuple[int, int, int], bool]:
    """Every way to lay the held card that §4.2 and §4.3 allow, found by brute force from the table alone:
    (way, x, y) → whether it completes a fence of the mover's. Each of the eight ways at every square near
    the cards: on no card, touching one along a square's side, and adding no loop in another player's colour."""
    shapes = s.game.shapes
    under = {(x + cx, y + cy) for sh, x, y in s.table.values() for cx, cy in shapes[sh].cells}
    colours = range(s.num_players)
    table = [set().union(*(drawn(s, sh, x, y, c) for sh, x, y in s.table.values())) for c in colours]
    before = [loops(segs) for segs in table]
    out = {}
    xs = [x for x, _ in under] or [0]
    ys = [y for _, y in under] or [0]
    for k in range(8 * s.held, 8 * s.held + 8):
        for x in range(min(xs) - 4, max(xs) + 2):
            for y in range(min(ys) - 4, max(ys) + 2):
                mine = {(x + cx, y + cy) for cx, cy in shapes[k].cells}
                if mine & under:
                    continue
                if under and not any((a + dx, b + dy) in under for a, b in mine for dx, dy in STEPS):
                    continue
                if not under and (x, y) != (0, 0):
                    continue
                gained = [loops(table[c] | drawn(s, k, x, y, c)) > before[c] for c in colours]
                if any(gained[c] for c in colours if c != s.to_move):
                    continue
                out[(k, x, y)] = gained[s.to_move]
    return out


STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def engine_places(s: F.FencesState) -> dict[tuple[int, int, int], bool]:
    """Every placement the engine offers for the held card, over every answer to §4.4 and every way (§4.1):
    (way, x, y) → whether it is offered as completing a fence of the mover's."""
    out: dict[tuple[int, int, int], bool] = {}
    starts = [s]
    if s.phase == F.AIM:
        starts = []
        for a in s.legal_actions():
            t = s.clone()
            t.apply_action(a)
            starts.append(t)
    for start in starts:
        for lay in start.legal_actions():
            t = start.clone()
            t.apply_action(lay)
            shapes = t.game.shapes
            under = {(x + cx, y + cy): c for c, (sh, x, y) in t.table.items() for cx, cy in shapes[sh].cells}
            for place in t.legal_actions():
                at = t.place_of(place)
                assert at is not None
                out[(t.shape, *at)] = t._square(*at) in t.closing.get(t.shape, ())
                if under:  # named from the lowest-numbered card it touches (§4.2)
                    mine = [(at[0] + cx, at[1] + cy) for cx, cy in shapes[t.shape].cells]
                    touched = {
                        under[(a + dx, b + dy)] for a, b in mine for dx, dy in STEPS if (a + dx, b + dy) in under
                    }
                    assert t.game.action_space.decode(place)[1][0] == min(touched)
    return out


def test_every_connected_placement_is_offered() -> None:
    """§4.2, §4.3: over random games of two to four players, at every turn the engine offers exactly the
    placements that a brute-force search allows, wherever the cards have drifted: the table has no edge."""
    turns = 0
    for n, seed in itertools.product((2, 3, 4), range(2)):
        for _, _, after in random_steps(n, seed):
            if after.phase == F.AIM or (after.phase == F.LAY and after.aim == F.ANY):
                assert engine_places(after) == reference_places(after)
                turns += 1
    assert turns > 100


def test_seven_cards_lie_in_a_row() -> None:
    """§4.2: seven cards laid crosswise in a row, 21 squares long, with room beyond both ends; a table of
    20 x 20 squares (rules version 1) could not hold them."""
    s = game().new_initial_state(2)
    play(s, "card 5 turns up on the deck, side B up", "card 3 turns up on the deck, side B up")
    play(s, "lay side A turned right", "lay it on the empty table", "card 2 turns up on the deck, side B up")
    row = [(5, "1B"), (3, "6A"), (2, "4A"), (1, "7B"), (6, ""), (4, "")]
    for before, turns_up in row:  # each card laid crosswise to the right of the one before
        if s.phase == F.AIM:
            play(s, "lay without completing a fence")
        play(s, "lay side A turned right", f"place 3 right from card {before}")
        if turns_up:
            play(s, f"card {turns_up[0]} turns up on the deck, side {turns_up[1]} up")
    assert sorted((x, y) for _, x, y in s.table.values()) == [(3 * k, 0) for k in range(7)]
    assert s.phase == F.TAKE and s.source == "table"  # no hand and no deck: a table card is picked up (§3.3)
    play(s, "take card 5")  # the leftmost card, laid first: it may go back to either end of the row
    ends = {(k, x, y) for k, x, y in engine_places(s) if k == F.shape_index(4, 0, 1)}
    assert {(x, y) for _, x, y in ends} >= {(-3, 0), (18, 0)}


def test_records_of_the_bounded_table_are_refused_clearly() -> None:
    """Rules version 2 names places differently, so a record made under version 1 is refused, not misread."""
    from boardlab.core.record import GameRecord

    path = pathlib.Path(__file__).parents[1] / "data" / "records-fences-rules-v1" / "fences.json"
    rec = GameRecord.from_json(path.read_text())
    assert rec.rules_version == "1" and game().rules_version == "2"
    with pytest.raises(ValueError, match="rules version 1; this is version 2"):
        rec.replay()


def test_the_log_tells_each_step_of_a_turn_as_a_sentence() -> None:
    """The log says what the player did in words; the typed notation stays as it was."""
    import random

    import boardlab
    from boardlab.core.constants import CHANCE

    s = boardlab.make("fences").new_initial_state()
    rng = random.Random(2)
    labels = set()
    while len(s.history()) < 40 and not s.is_terminal():
        if s.current_player() == CHANCE:
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
        else:
            a = rng.choice(s.legal_actions())
            labels.add(s.action_to_string(s.current_player(), a))
            s.apply_action(a)
    texts = [line["text"] for line in s.move_log(None) if line["actor"] >= 0]
    assert "lays the card on the empty table" in texts
    assert any(t.startswith("holds the card side ") for t in texts)
    assert any(t.startswith("lays the card ") and " squares " in t and " from card " in t for t in texts)
    assert "lay it on the empty table" in labels  # the notation is unchanged
    assert any(label.startswith("place ") and " from card " in label for label in labels)
