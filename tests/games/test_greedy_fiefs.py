"""Greedy Fiefs scenarios; clause numbers refer to docs/rules/greedy-fiefs.md."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import boardlab
from boardlab.cli.render import scene_text
from boardlab.core.constants import CHANCE, SIMULTANEOUS, TERMINAL
from boardlab.core.errors import IllegalActionError
from boardlab.core.scene import check_scene
from boardlab.games.greedy_fiefs import (
    ACTIONS,
    ADJ,
    BUILD,
    CAV,
    DISCARD,
    END,
    EXPLORE,
    HERO,
    KILL,
    LABELS,
    MOVE,
    MOVE_AT,
    ORDER,
    PLACE,
    REINFORCE,
    STACK_LIMIT,
    STRIKE,
    GreedyFiefsState,
    kill_options,
)

RED, BLACK = 0, 1
DRAGON, GOBLINS, HORROR, ARTIFACT = range(4)


def game(**options: object) -> boardlab.Game:
    return boardlab.make("greedy-fiefs", **options)


def sq(label: str) -> int:
    return LABELS.index(label)


def act(s: GreedyFiefsState, *labels: str) -> None:
    for label in labels:
        s.apply_action(s.string_to_action(None, label))


def moves(s: GreedyFiefsState, seat: int | None = None) -> list[str]:
    return [label for _, label in s.legal_moves(seat)]


def started(caves: tuple[int, ...] = (DRAGON, GOBLINS, HORROR, ARTIFACT), **options: object) -> GreedyFiefsState:
    """Caves dealt (a1, e1, a5, e5), Black in the north, Red in the south, everything on the Keeps but one
    infantry on each Village; Red to build."""
    s = game(**options).new_initial_state()
    assert isinstance(s, GreedyFiefsState)
    for c in caves:
        s.apply_action(c)
    act(s, "start in the north")
    act(s, "to the keep", "to the village", "to the keep", "to the keep")  # Black
    act(s, "to the keep", "to the village", "to the keep", "to the keep")  # Red
    return s


def army(s: GreedyFiefsState, seat: int, where: dict[str, tuple[int, int, int, int]]) -> None:
    """Replace a seat's troops on the board by ``where`` (hand-made, no history); the rest is in reserve."""
    total = [2, 2, 2, 1]
    for q in range(25):
        s.put(seat, q, (0, 0, 0, 0))
    for label, c in where.items():
        s.put(seat, sq(label), c)
        total = [total[t] - c[t] for t in range(4)]
    s.reserve[seat] = (total[0], total[1], total[2], total[3])


def to_move_phase(s: GreedyFiefsState) -> None:
    if s.phase == BUILD:
        act(s, "build nothing more")
    assert s.phase == MOVE


def refuse(s: GreedyFiefsState, action: int, match: str) -> None:
    before = s.observation(None)
    with pytest.raises(IllegalActionError, match=match):
        s.apply_action(action)
    assert s.observation(None) == before


def action(label: str) -> int:
    return next(a for a in range(ACTIONS.size) if ACTIONS.label(a) == label)


def test_board_layouts() -> None:  # §1
    g = game()
    assert [LABELS[g.keep[a]] for a in ("south", "north", "west", "east")] == ["c1", "c5", "a3", "e3"]
    assert [LABELS[g.village[a]] for a in ("south", "north", "west", "east")] == ["c2", "c4", "b3", "d3"]
    u = game(layout="unique_v1")
    assert [LABELS[u.keep[a]] for a in ("south", "north", "west", "east")] == ["c1", "c4", "a4", "e2"]
    assert [LABELS[u.village[a]] for a in ("south", "north", "west", "east")] == ["c2", "c5", "a2", "d3"]


def test_setup_caves_are_hidden_and_black_chooses() -> None:  # §3.1, §3.2, §3.3, §3.4
    s = game().new_initial_state()
    assert s.current_player() == -1 and len(s.chance_outcomes()) == 4
    for c in (ARTIFACT, DRAGON, GOBLINS, HORROR):
        s.apply_action(c)
    assert [c["state"] for c in s.observation(RED)["caves"]] == ["face down"] * 4
    assert [d["text"] for d in s.move_log(RED)][:4] == [f"a cave card was laid face down on {x}" for x in
                                                        ("a1", "e1", "a5", "e5")]  # fmt: skip
    assert s.current_player() == BLACK and moves(s) == [f"start in the {a}" for a in ("south", "north", "west", "east")]
    act(s, "start in the west")
    assert s.area == ["east", "west"] and s.phase == PLACE and s.current_player() == BLACK
    act(s, "to the village", "to the village", "to the village")
    assert moves(s) == ["to the village"]  # §3.3: the hero only where a troop stands
    refuse(s, action("to the keep"), r"Hero must stand with one of your troops \(§3.3\)")
    act(s, "to the village")
    assert s.at(BLACK, sq("b3")) == (1, 1, 1, 1) and s.current_player() == RED
    act(s, "to the keep", "to the keep", "to the keep", "to the keep")
    assert s.at(RED, sq("e3")) == (1, 1, 1, 1) and s.mover == RED and s.reserve[RED] == (1, 1, 1, 0)


def test_builds_from_villages_and_the_half_counter() -> None:  # §4.1, §4.2
    s = started()
    assert s.phase == MOVE and s.half[RED]  # one Village: half a build, kept on the counter
    act(s, "end movement")
    assert s.mover == BLACK and s.phase == MOVE and s.half[BLACK]
    act(s, "end movement")
    assert s.mover == RED and s.phase == BUILD and s.builds == 1  # Village + face-up counter = 1 build
    assert moves(s) == ["build cavalry", "build infantry", "build an archer", "build nothing more"]
    act(s, "build an archer")
    assert s.queue == (2,) and s.phase == MOVE and not s.half[RED]


def test_unspent_build_keeps_only_half() -> None:  # §4.2
    s = started()
    act(s, "end movement", "end movement")
    act(s, "build nothing more")
    assert s.half[RED]  # the whole build is lost but half of it is kept


def test_cavalry_moves_two_and_stops_at_the_enemy() -> None:  # §5.1, §5.2
    s = started()
    army(s, RED, {"b2": (1, 1, 0, 0), "a2": (1, 0, 0, 0)})
    army(s, BLACK, {"b4": (0, 1, 0, 0), "a3": (0, 1, 0, 0), "b3": (1, 0, 0, 0), "c5": (0, 0, 1, 1)})
    ms = moves(s)
    assert "cavalry b2-b4" not in ms and "cavalry b2-c4" not in ms  # a3 and b3 hold the enemy, c3 is the lake
    assert "cavalry b2-d4" not in ms  # two squares, but only over the lake
    assert "cavalry a2-a4" not in ms and "cavalry a2-a3" in ms  # a3 and b3 hold the enemy: it stops there
    assert "cavalry b2-c3" not in ms and "infantry b2-c3" not in ms  # the lake
    refuse(s, action("infantry b2-c3"), r"lake \(§5.2\)")
    refuse(s, action("infantry b2-d4"), r"one square")
    act(s, "cavalry b2-d2")
    assert not any(m.startswith("cavalry d2-") for m in moves(s))  # each troop moves once


def test_stacking_limit() -> None:  # §5.3
    s = started()
    army(s, RED, {"b2": (1, 1, 1, 0), "b1": (1, 0, 0, 0)})
    ms = moves(s)
    assert "cavalry b1-b2" not in ms
    refuse(s, action("cavalry b1-b2"), r"already holds 3 of your troops \(§5.3\)")


def test_lone_hero_is_removed() -> None:  # §5.4
    s = started()
    army(s, RED, {"b2": (1, 0, 0, 1), "d2": (1, 0, 0, 0)})
    act(s, "cavalry b2-b3")
    assert s.at(RED, sq("b2")) == (0, 0, 0, 1)  # the stack moves one troop at a time
    act(s, "end movement")
    assert s.at(RED, sq("b2")) == (0, 0, 0, 0) and s.reserve[RED][3] == 1  # alone at the end: removed


def test_worked_example() -> None:  # §8.1, §8.3, §8.5: the rulebook's example
    s = started()
    army(s, RED, {"b2": (1, 0, 1, 0), "c1": (1, 0, 0, 0)})
    army(s, BLACK, {"b3": (0, 2, 0, 1), "c5": (1, 0, 1, 0)})
    act(s, "cavalry b2-b3", "archer b2-b3", "end movement")
    assert s.phase == KILL and s.current_player() == SIMULTANEOUS
    assert moves(s, RED) == ["kill 1 infantry"]  # the cavalry can touch neither the hero nor infantry
    assert moves(s, BLACK) == ["kill 1 cavalry and 1 archer"]
    s.apply_actions([action("kill 1 infantry"), action("kill 1 cavalry and 1 archer")])
    assert s.at(BLACK, sq("b3")) == (0, 1, 0, 1) and s.at(RED, sq("b3")) == (0, 0, 0, 0)
    assert s.reserve[RED] == (1, 2, 2, 1) and s.reserve[BLACK][1] == 1


def test_kills_are_maximal_and_distinct() -> None:  # §8.3
    cav, inf, arc, hero = range(4)
    assert kill_options((cav, inf), (1, 1, 0, 0)) == ((1, 1, 0, 0),)
    assert kill_options((arc, arc), (1, 1, 0, 0)) == ((0, 1, 0, 0),)  # both archers, one infantry
    assert kill_options((hero,), (1, 1, 1, 1)) == ((0, 0, 0, 1), (0, 0, 1, 0), (0, 1, 0, 0), (1, 0, 0, 0))


def test_rounds_until_one_side_is_gone_with_a_secret_choice() -> None:  # §8, §8.3
    s = started()
    army(s, RED, {"b2": (1, 0, 0, 1), "c1": (1, 0, 0, 0)})
    army(s, BLACK, {"b3": (1, 1, 1, 0), "c5": (1, 0, 0, 1)})
    act(s, "cavalry b2-b3", "hero b2-b3", "end movement")
    assert s.current_player() == SIMULTANEOUS
    # Red's cavalry takes the cavalry or the archer, the hero anything else; Black can only kill the cavalry.
    assert set(moves(s, RED)) == {
        "kill 1 infantry and 1 archer",
        "kill 1 cavalry and 1 infantry",
        "kill 1 cavalry and 1 archer",
    }
    assert moves(s, BLACK) == ["kill 1 cavalry"]
    assert s.observation(BLACK)["battle"]["attackers"] == [1, 0, 0, 1]
    rng = random.Random(1)
    while s.phase == KILL:
        s.apply_actions([rng.choice(s.legal_actions(p)) if s.legal_actions(p) else None for p in (0, 1)])
    assert not (s.occupied(RED, sq("b3")) and s.occupied(BLACK, sq("b3")))


def test_simultaneous_choice_is_hidden_until_both_are_in() -> None:  # §8.3
    s = started()
    army(s, RED, {"b2": (1, 1, 1, 1), "c1": (1, 0, 0, 0)})
    army(s, BLACK, {"b3": (1, 1, 1, 0), "c5": (1, 0, 0, 1)})
    act(s, "cavalry b2-b3", "hero b2-b3", "end movement")
    before = s.observation(BLACK)
    with pytest.raises(IllegalActionError):
        s.apply_action(s.legal_actions(RED)[0])  # one seat alone cannot decide a simultaneous choice
    assert s.observation(BLACK) == before


def test_keep_strikes_first() -> None:  # §8.2
    s = started()
    army(s, RED, {"c4": (1, 1, 0, 0), "c1": (1, 0, 0, 0)})
    army(s, BLACK, {"c5": (0, 0, 1, 0), "a5": (1, 0, 0, 0)})
    act(s, "cavalry c4-c5", "infantry c4-c5", "end movement")
    assert s.phase == STRIKE and moves(s, BLACK) == ["kill 1 infantry", "kill 1 cavalry"]
    assert s.legal_actions(RED) == []  # Red has no first strike
    s.apply_actions([None, action("kill 1 cavalry")])
    # Then the round: Red's infantry against Black's archer, which is immune to it; the archer kills it.
    assert s.phase == KILL and moves(s, RED) == ["kill nothing"] and moves(s, BLACK) == ["kill 1 infantry"]
    s.apply_actions([action("kill nothing"), action("kill 1 infantry")])
    assert s.at(BLACK, sq("c5")) == (0, 0, 1, 0) and not s.occupied(RED, sq("c5"))


def test_the_artifact_cancels_the_keep_and_strikes_first() -> None:  # §8.2, §9.1
    s = started()
    army(s, RED, {"c4": (1, 0, 0, 1), "c1": (1, 0, 0, 0)})
    army(s, BLACK, {"c5": (0, 1, 1, 0), "a5": (1, 0, 0, 0)})
    s.carrier, s.artifact_home, s.cave_card[3] = RED, 3, -1
    act(s, "cavalry c4-c5", "hero c4-c5", "end movement")
    assert s.phase == STRIKE and s.legal_actions(BLACK) == []  # the Keep's kill is lost
    assert set(moves(s, RED)) == {"kill 1 infantry", "kill 1 archer"}
    s.apply_actions([action("kill 1 infantry"), None])
    assert s.phase == KILL  # the round: the hero has struck; the cavalry faces the archer, immune to it
    assert moves(s, RED) == ["kill 1 archer"] and moves(s, BLACK) == ["kill nothing"]
    s.apply_actions([action("kill 1 archer"), action("kill nothing")])
    assert s.is_terminal() and s.returns() == [1.0, -1.0]  # §11.1: Red holds Black's Keep


def test_defender_orders_the_stacks_and_excess_is_discarded() -> None:  # §7.2, §7.3
    s = started()
    army(s, RED, {"b2": (2, 1, 0, 0), "d2": (0, 1, 2, 0)})  # 2 cavalry and an infantry, 2 archers and one
    army(s, BLACK, {"c2": (0, 0, 0, 0), "d3": (0, 1, 0, 0), "c5": (1, 0, 0, 1)})
    s.put(BLACK, sq("c2"), (0, 0, 1, 0))
    s.reserve[BLACK] = (1, 1, 1, 0)
    act(s, "cavalry b2-c2", "cavalry b2-c2", "infantry b2-c2", "archer d2-c2", "infantry d2-c2", "end movement")
    assert s.phase == ORDER and s.current_player() == BLACK
    assert moves(s) == ["the stack from b2 fights first", "the stack from d2 fights first"]
    act(s, "the stack from d2 fights first")
    while s.phase == KILL:
        s.apply_actions([s.legal_actions(p)[0] if s.legal_actions(p) else None for p in (0, 1)])
    # Red's d2 stack (archer + infantry) beats the lone archer; the b2 stack joins: 4 troops, one too many.
    assert s.phase == DISCARD and s.current_player() == RED
    act(s, "discard a cavalry")
    assert sum(s.at(RED, sq("c2"))[:3]) == 3


def test_explore_a_monster_opponent_chooses_its_kills() -> None:  # §9, §9.2
    s = started(caves=(GOBLINS, DRAGON, HORROR, ARTIFACT))
    army(s, RED, {"b1": (1, 1, 0, 1), "c1": (1, 0, 0, 0)})
    act(s, "cavalry b1-a1", "hero b1-a1", "infantry b1-a1", "end movement")
    assert s.phase == EXPLORE and moves(s) == ["explore the cave", "leave the cave"]
    assert s.observation(BLACK)["caves"][0] == {"state": "face down"}
    seen = s.seen_of(action("explore the cave"))  # what the log shows of it: the reveal, to everyone
    assert seen.public == "explores the cave on a1 and finds the Goblin Horde" and seen.private is None
    act(s, "explore the cave")
    assert s.observation(BLACK)["caves"][0] == {"state": "open", "card": "Goblin Horde", "troops": [0, 2, 1, 0]}
    assert s.phase == KILL
    # The Goblin Horde (2 infantry, 1 archer) against cavalry, infantry and hero; Black picks the horde's kills.
    assert moves(s, BLACK) == ["kill 1 cavalry and 1 infantry"]
    while s.phase == KILL:
        s.apply_actions([s.legal_actions(p)[0] if s.legal_actions(p) else None for p in (0, 1)])
    left = s.observation(None)["caves"][0]
    assert left["state"] == "empty" or sum(left["troops"]) < 3 or not s.occupied(RED, sq("a1"))


def test_the_artifact_is_taken() -> None:  # §9.1
    s = started(caves=(ARTIFACT, DRAGON, HORROR, GOBLINS))
    army(s, RED, {"b1": (1, 0, 0, 1), "c1": (1, 0, 0, 0)})
    act(s, "cavalry b1-a1", "hero b1-a1", "end movement", "explore the cave")
    assert s.carrier == RED and s.observation(None)["caves"][0] == {"state": "empty"}
    assert s.observation(None)["carrier"] == RED


def test_reinforcement_squares() -> None:  # §10
    s = started()
    act(s, "end movement", "end movement", "build cavalry")
    army(s, RED, {"c2": (0, 1, 0, 0), "b2": (1, 0, 0, 1)})
    s.reserve[RED] = (0, 1, 2, 0)
    act(s, "end movement")
    assert s.phase == REINFORCE and moves(s) == ["reinforce c1", "reinforce c2"]  # own Keep, held Village
    act(s, "reinforce c2")
    assert s.at(RED, sq("c2")) == (1, 1, 0, 0) and s.mover == BLACK


def test_taking_the_enemy_keep_wins() -> None:  # §11.1
    s = started()
    army(s, RED, {"c4": (0, 1, 0, 0), "c1": (1, 0, 0, 0)})
    army(s, BLACK, {"a5": (1, 0, 0, 0)})
    act(s, "infantry c4-c5", "end movement")
    assert s.is_terminal() and s.returns() == [1.0, -1.0] and s.current_player() == TERMINAL


def test_no_troops_loses() -> None:  # §11.2
    s = started()
    army(s, RED, {"b3": (1, 0, 0, 0), "c1": (1, 0, 0, 0)})
    army(s, BLACK, {"b4": (1, 0, 0, 0)})
    act(s, "cavalry b3-b4", "end movement")
    s.apply_actions([action("kill 1 cavalry"), action("kill 1 cavalry")])  # both cavalry fall together
    assert s.is_terminal() and s.returns() == [1.0, -1.0]


def test_turn_limit() -> None:  # §11.4
    s = started(turn_limit=60)
    while not s.is_terminal():
        if s.phase == BUILD:
            act(s, "build nothing more")
        act(s, "end movement")
    assert s.turns == 60 and s.returns() == [0.0, 0.0]  # equal armies draw


def test_resample_redraws_only_face_down_cards() -> None:  # §3.1, §9
    s = started(caves=(ARTIFACT, DRAGON, HORROR, GOBLINS))
    army(s, RED, {"b1": (1, 0, 0, 1), "c1": (1, 0, 0, 0)})
    act(s, "cavalry b1-a1", "hero b1-a1", "end movement", "explore the cave")
    rng = random.Random(2)
    seen = set()
    for _ in range(40):
        r = s.resample(BLACK, rng)
        assert r.carrier == RED and r.history()[0] == ARTIFACT
        seen.add(tuple(r.cave_card))
        assert r.observation(BLACK) == s.observation(BLACK)
    assert len(seen) == 6  # the other three cards in any order


def test_scene() -> None:  # §1, §3.1: the board as drawn, caves face down
    s = started()
    scene = s.scene(RED)
    assert check_scene(scene, s.legal_moves(RED)) == []
    downs = [p for p in scene["pieces"] if p["face_down"]]
    assert {p["at"] for p in downs} == {"a1", "e1", "a5", "e5"}
    assert "Move your troops" in scene_text(scene, moves(s))


def test_random_games_end_and_keep_the_limits() -> None:  # §5.3, §5.4, §11
    g = game()
    for seed in range(10):
        rng = random.Random(seed)
        s = g.new_initial_state()
        while not s.is_terminal():
            cp = s.current_player()
            if cp == -1:
                s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
            elif cp == SIMULTANEOUS:
                s.apply_actions([rng.choice(s.legal_actions(p)) if s.legal_actions(p) else None for p in (0, 1)])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
            if s.phase == MOVE and not s.arrivals:
                for p in (0, 1):
                    for q in range(25):
                        c = s.at(p, q)
                        assert not c[3] or sum(c[:3])  # no lone hero
                        if p != s.mover:
                            assert sum(c[:3]) <= 3
                    total = [sum(s.at(p, q)[t] for q in range(25)) + s.reserve[p][t] + s.queue.count(t) * (
                        p == s.mover) for t in range(4)]  # fmt: skip
                    assert total == [2, 2, 2, 1]


@pytest.mark.parametrize(("layout", "reachable"), [("unique_v1", True), ("symmetric", False)])
def test_first_turn_cavalry_against_the_keep(layout: str, reachable: bool) -> None:  # §1.2 (decision)
    """With unique_v1 a Cavalry on Red's Village reaches Black's Keep on the first turn; the symmetric board
    keeps every Keep out of a first-turn reach."""
    s = game(layout=layout).new_initial_state()
    for c in range(4):
        s.apply_action(c)
    act(s, "start in the north")
    act(s, "to the keep", "to the keep", "to the keep", "to the keep")
    act(s, "to the village", "to the village", "to the village", "to the village")
    keep = LABELS[s.game.keep["north"]]
    village = LABELS[s.game.village["south"]]
    assert s.mover == RED and s.phase == MOVE
    assert (f"cavalry {village}-{keep}" in moves(s)) is reachable
    assert not any(m.startswith("cavalry") and m.endswith(f"-{keep}") for m in moves(s)) is not reachable


# -- the fast rules against the plain ones ------------------------------------------------------------------------


def reference_moves(s: GreedyFiefsState) -> list[int]:
    """§5.1-§5.3 as the rules were first written: every troop that has not moved, square by square, and each
    of its destinations; then the end of movement."""
    p, foe = s.mover, 1 - s.mover

    def destinations(t: int, q: int) -> list[int]:
        out = set(ADJ[q])
        if t == CAV:
            for m in ADJ[q]:
                if not s.occupied(foe, m):
                    out.update(ADJ[m])
        out.discard(q)
        if t == HERO:
            return sorted(out)
        return sorted(d for d in out if s.occupied(foe, d) or sum(s.at(p, d)[:3]) < STACK_LIMIT)

    out = []
    for q in range(25):
        fresh = s.fresh_units(q)
        for t in range(4):
            if fresh[t]:
                out += [MOVE_AT + (t * 25 + q) * 25 + d for d in destinations(t, q)]
    return [*sorted(out), END]


def random_states(seed: int, **options: object) -> Iterator[GreedyFiefsState]:
    """Every state of one seeded random game, in order."""
    rng = random.Random(seed)
    s = game(**options).new_initial_state()
    while not s.is_terminal():
        yield s
        cp = s.current_player()
        if cp == CHANCE:
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
        elif cp == SIMULTANEOUS:
            s.apply_actions([rng.choice(s.legal_actions(p)) if s.legal_actions(p) else None for p in (0, 1)])
        else:
            s.apply_action(rng.choice(s.legal_actions()))


@pytest.mark.parametrize("options", [{}, {"layout": "unique_v1"}])
def test_moves_match_the_rules_worked_out_square_by_square(options: dict[str, str]) -> None:
    """§5: over many random games, every movement step offers what the square-by-square rules offer, in order."""
    steps = 0
    for seed in range(40):
        for s in random_states(seed, turn_limit=60, **options):
            if s.phase == MOVE:
                assert s.legal_actions() == reference_moves(s)
                for t in range(4):
                    for q in range(25):
                        if s.fresh_units(q)[t]:
                            assert s.destinations(t, q) == sorted(
                                (a - MOVE_AT) % 25 for a in reference_moves(s)[:-1] if (a - MOVE_AT) // 25 == t * 25 + q
                            )
                steps += 1
    assert steps > 1000


def test_a_single_move_is_checked_as_the_list_says() -> None:
    """Every action of the action space is accepted during movement exactly when it is in the legal list."""
    for seed in range(4):
        for s in random_states(seed, turn_limit=60):
            if s.phase == MOVE:
                legal = set(s.legal_actions())
                p = s.current_player()
                assert {a for a in range(-1, s.game.num_distinct_actions() + 1) if s._is_legal(p, a)} == legal
