"""Kasta scenarios; clause numbers refer to docs/rules/kasta.md."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import boardlab
from boardlab.cli.render import scene_text
from boardlab.core import hidden
from boardlab.core.constants import CHANCE, TERMINAL
from boardlab.core.errors import IllegalActionError
from boardlab.core.play import random_playout
from boardlab.core.scene import check_scene
from boardlab.games.kasta import (
    FACE0,
    KIND0,
    KIND_SET,
    KIND_TURN,
    LAYER,
    LAYER_SIZES,
    PLACE_NAMES,
    SETS,
    KastaGame,
    KastaState,
    die_name,
    ranked_returns,
)
from state_checks import fingerprint, random_step

R, Y, G, B = range(4)


def die(colour: int, face: int) -> int:
    return colour * 6 + face - 1


#: A fixed pool: the colour cycles red, yellow, green, blue along reading order; the face climbs every four places.
POOL = [die(i % 4, (i // 4) % 6 + 1) for i in range(72)]


def game(**options: object) -> KastaGame:
    g = boardlab.make("kasta", **options)
    assert isinstance(g, KastaGame)
    return g


def laid_out(g: KastaGame | None = None, players: int = 2, pool: list[int] = POOL) -> KastaState:
    s = (g or game()).new_initial_state(players)
    assert isinstance(s, KastaState)
    for d in pool:
        s.apply_action(d)
    return s


def at(name: str) -> int:
    return PLACE_NAMES.index(name)


def play(s: KastaState, *labels: str) -> None:
    for label in labels:
        s.apply_action(s.string_to_action(None, label))


def labels(s: KastaState) -> list[str]:
    return [label for _, label in s.legal_moves()]


def layer_places(s: KastaState) -> list[str]:
    return [PLACE_NAMES[i] for i in range(72) if s.pool[i] >= 0 and LAYER[i] == s.current_layer()]


def plain_turn(s: KastaState) -> None:
    """Take the first three, give the next three dice offered, and end the turn if asked."""
    for verb in ("take", "take", "take", "give", "give", "give"):
        play(s, f"{verb} {layer_places(s)[0]}")
    if s.phase == "optional action":
        play(s, "end turn")


def test_the_pool_is_laid_out_by_chance_in_proportion_to_the_dice_left() -> None:
    """§1.1, §1.2: 72 dice, 18 of each colour, one chance step per place; every face equally likely."""
    s = game().new_initial_state()
    assert s.current_player() == CHANCE
    first = dict(s.chance_outcomes())
    assert len(first) == 24 and all(abs(p - 1 / 24) < 1e-12 for p in first.values())
    for _ in range(18):  # eighteen red sixes: no red die is left to lay out
        s.apply_action(die(R, 6))
    outcomes = dict(s.chance_outcomes())
    assert all(d // 6 != R for d in outcomes) and abs(sum(outcomes.values()) - 1) < 1e-12
    with pytest.raises(IllegalActionError):
        s.apply_action(die(R, 1))
    assert s.action_to_string(CHANCE, die(Y, 3)) == "a3 yellow 3"  # §1.3: the 19th place is a3


def test_places_are_named_by_column_and_row() -> None:
    """§1.3: a1 is the top left, i8 the bottom right."""
    assert PLACE_NAMES[0] == "a1" and PLACE_NAMES[8] == "i1" and PLACE_NAMES[71] == "i8" and len(PLACE_NAMES) == 72


def test_layers_are_rings_of_30_22_14_and_6() -> None:
    """§2: the layers are the rectangular rings of the pool, border first."""
    assert LAYER_SIZES == (30, 22, 14, 6)
    assert LAYER[at("a1")] == 0 and LAYER[at("b2")] == 1 and LAYER[at("c3")] == 2 and LAYER[at("e4")] == 3


def test_only_the_outermost_layer_may_be_taken_from() -> None:
    """§2: at the start only the 30 border dice are offered; an inner die is refused with the reason."""
    s = laid_out()
    assert len(s.legal_actions()) == 30 and all(label.startswith("take ") for label in labels(s))
    inner = s.game.action_space.encode("take", at("e4"))
    before = s.history()
    with pytest.raises(IllegalActionError, match="outermost layer"):
        s.apply_action(inner)
    assert s.history() == before


def test_a_turn_crosses_into_the_next_layer_when_the_outer_one_runs_out() -> None:
    """§2: 52 dice empty the first two layers; the ninth turn's fourth die, a gift, is the last of layer 2."""
    s = laid_out()
    for _ in range(8):
        plain_turn(s)
    assert s.current_layer() == 1 and len(layer_places(s)) == 4
    play(s, *(f"take {p}" for p in layer_places(s)[:3]))
    play(s, f"give {layer_places(s)[0]}")
    assert s.current_layer() == 2 and len(s.legal_actions()) == 14
    assert all(LAYER[at(label.split()[1])] == 2 for label in labels(s))


def test_taken_dice_go_to_the_hand_and_gifts_to_the_opponent_unturned() -> None:
    """§1.4, §3.1, §3.2: three takes for oneself, then three gifts to the player on the left."""
    s = laid_out()
    play(s, "take a1", "take b1", "take c1")
    assert s.phase == "give" and "take d1" not in labels(s)
    with pytest.raises(IllegalActionError, match="give three to Ben"):
        s.apply_action(s.game.action_space.encode("take", at("d1")))
    play(s, "give d1", "give e1", "give f1")
    assert sorted(die_name(d) for d in range(24) for _ in range(s.hand(0)[d])) == ["green 1", "red 1", "yellow 1"]
    assert sorted(die_name(d) for d in range(24) for _ in range(s.hand(1)[d])) == ["blue 1", "red 2", "yellow 2"]
    assert s.phase == "optional action" and s.to_move == 0


def test_with_three_players_gifts_and_turns_pass_to_the_left() -> None:
    """§3.2, §3.4: Ada gives to Ben, Ben to Cleo, Cleo to Ada."""
    s = laid_out(players=3)
    for seat, receiver in ((0, 1), (1, 2), (2, 0)):
        assert s.to_move == seat
        sizes = [sum(s.hand(k)) for k in range(3)]
        plain_turn(s)
        after = [sum(s.hand(k)) for k in range(3)]
        assert after[seat] == sizes[seat] + 3 and after[receiver] == sizes[receiver] + 3


def test_discard_a_die_puts_it_on_the_rack() -> None:
    """§4.1: the die leaves the hand for the rack."""
    s = laid_out()
    play(s, "take a1", "take b1", "take c1", "give d1", "give e1", "give f1")
    play(s, "discard a die")
    assert labels(s) == ["discard red 1", "discard yellow 1", "discard green 1"]
    play(s, "discard green 1")
    assert s.rack[die(G, 1)] == 1 and s.hand(0)[die(G, 1)] == 0 and s.to_move == 1


def test_turn_a_die_to_any_other_face() -> None:
    """§4.2: any other face (a 1 may become a 6); its own face is refused."""
    s = laid_out()
    play(s, "take a1", "take b1", "take c1", "give d1", "give e1", "give f1", "turn a die", "turn red 1")
    assert labels(s) == ["to 2", "to 3", "to 4", "to 5", "to 6"]
    with pytest.raises(IllegalActionError, match="already shows 1"):
        s.apply_action(s.game.action_space.encode("face", 0))
    play(s, "to 6")
    assert s.hand(0)[die(R, 6)] == 1 and s.hand(0)[die(R, 1)] == 0 and s.pips(0) == 8


def test_patterns_number_114() -> None:
    """§5: 24 four-alike, 6 one number in four colours, 12 one-colour runs, 72 four-colour runs."""
    names = [name for name, _ in SETS]
    assert len(SETS) == 114 and len(set(names)) == 114
    kinds = [sum(1 for n in names if n.startswith("four") and "colours" not in n)]
    kinds += [sum(1 for n in names if "in four colours" in n)]
    kinds += [sum(1 for n in names if " run " in n and not n.startswith("run"))]
    kinds += [sum(1 for n in names if n.startswith("run"))]
    assert kinds == [24, 6, 12, 72]


def test_a_pattern_in_hand_may_be_discarded() -> None:
    """§4.3, §5.2: four 1s of four colours are a pattern; they go to the rack together."""
    s = laid_out()
    play(s, "take a1", "take b1", "take c1", "give e1", "give f1", "give g1")
    assert "discard a pattern" not in labels(s)
    play(s, "end turn")
    play(s, "take h1", "take i1", "take a2", "give i2", "give a3", "give i3", "end turn")
    play(s, "take d1", "take a4", "take i4", "give a5", "give i5", "give a6")  # d1 is the blue 1
    play(s, "discard a pattern")
    assert labels(s) == ["pattern four 1s in four colours"]
    play(s, "pattern four 1s in four colours")
    assert [s.rack[die(c, 1)] for c in range(4)] == [1, 1, 1, 1]


def test_run_patterns_need_the_right_colours() -> None:
    """§5.3, §5.4: a run is one colour or four colours; two colours are no pattern."""
    needs = {name: dice for name, dice in SETS}
    assert needs["red run 2-5"] == (die(R, 2), die(R, 3), die(R, 4), die(R, 5))
    four = needs["run 1-4 of red 1, yellow 2, green 3, blue 4"]
    assert sorted(four) == sorted((die(R, 1), die(Y, 2), die(G, 3), die(B, 4)))
    mixed = tuple(sorted((die(R, 1), die(R, 2), die(Y, 3), die(Y, 4))))
    assert mixed not in set(needs.values())


def test_without_the_opening_action_the_first_turn_ends_after_the_gifts() -> None:
    """§4.5: opening_action=false takes the optional action away from each player's first turn of a round."""
    s = laid_out(game(opening_action=False))
    play(s, "take a1", "take b1", "take c1", "give d1", "give e1", "give f1")
    assert s.to_move == 1 and s.phase == "take"
    plain_turn(s)
    for verb in ("take", "take", "take", "give", "give", "give"):
        play(s, f"{verb} {layer_places(s)[0]}")
    assert s.phase == "optional action" and s.to_move == 0


def test_the_optional_action_may_come_first_with_action_first() -> None:
    """§4.6: with action_first the optional action may come before the first take; the turn then ends after the gifts."""
    s = laid_out(game(action_first=True))
    plain_turn(s)
    assert "turn a die" in labels(s)
    play(s, "turn a die", "turn red 2", "to 1", "take g1", "take h1", "take i1", "give a2", "give i2", "give a3")
    assert s.to_move == 0 and s.phase == "take" and s.hand(1)[die(R, 1)] == 1


def test_a_round_has_twelve_turns_then_last_patterns_then_scoring() -> None:
    """§6.1, §7: 72 dice, six a turn; each hand's pips are the round's score."""
    for players, turns in ((2, 6), (3, 4), (4, 3)):
        s = laid_out(players=players)
        for _ in range(12):
            plain_turn(s)
        while s.phase == "last patterns":
            play(s, "end turn")
        assert s.round == 2 and s.phase == "laying out the pool"
        assert s.round_scores[0] == tuple(s.totals) and sum(s.totals) == sum(d % 6 + 1 for d in POOL)
        assert all(len(t) for t in [s.round_scores])
        assert turns * players == 12


def test_last_turns_discard_one_pattern_by_default() -> None:
    """§6.2: each player may discard one pattern once the pool is empty; final_patterns=any allows more."""
    many = [die(R, 1)] * 18 + [die(Y, 1)] * 18 + [die(G, 1)] * 18 + [die(B, 1)] * 18
    for option, expected in (("one", 1), ("any", 8)):
        s = laid_out(game(final_patterns=option), pool=many)
        for _ in range(12):
            for verb in ("take", "take", "take", "give", "give", "give"):
                play(s, f"{verb} {layer_places(s)[0]}")
            play(s, "end turn")
        assert s.phase == "last patterns" and s.to_move == 0  # Ben emptied the pool; Ada is next
        discarded = 0
        while s.phase == "last patterns" and s.to_move == 0:
            play(s, labels(s)[1])
            discarded += 1
        assert discarded == expected and (option == "one" or not s.held_sets(0))


def test_the_first_player_rotates_each_round() -> None:
    """§3.4: Ben starts round 2 with rotate_first; Ada again without."""
    for option, first in ((True, 1), (False, 0)):
        s = laid_out(game(rotate_first=option))
        for _ in range(12):
            plain_turn(s)
        while s.phase == "last patterns":
            play(s, "end turn")
        for d in POOL:
            s.apply_action(d)
        assert s.to_move == first and s.round == 2


def test_lowest_total_wins_and_ties_share() -> None:
    """§8.1, §8.3, §8.4: winners share +1, the others share -1."""
    assert ranked_returns([30, 40], [0]) == [1.0, -1.0]
    assert ranked_returns([30, 30, 50], [0, 1]) == [0.5, 0.5, -1.0]
    assert ranked_returns([30, 30], [0, 1]) == [0.0, 0.0]


def tied_game(seed_range: range, **options: object) -> KastaState | None:
    g = game(**options)
    for seed in seed_range:
        s, _ = random_playout(g.new_initial_state(2), random.Random(seed))
        if len(s.round_scores) > 3:
            return s
    return None


def test_a_tie_after_three_rounds_plays_another_round() -> None:
    """§8.2: equal lowest totals after round 3 mean a fourth round; the game ends once one total is lowest."""
    s = tied_game(range(17, 18))  # random play with seed 17 ties after three rounds
    assert s is not None
    after3 = [sum(r[k] for r in s.round_scores[:3]) for k in range(2)]
    assert after3[0] == after3[1]
    assert s.is_terminal() and s.totals[0] != s.totals[1]
    winner = 0 if s.totals[0] < s.totals[1] else 1
    assert s.returns()[winner] == 1.0


def test_random_games_end_at_every_player_count() -> None:
    """§10: every game ends, within three rounds unless tied, at 2, 3 and 4 players."""
    g = game()
    for players in (2, 3, 4):
        for seed in range(4):
            s, capped = random_playout(g.new_initial_state(players), random.Random(seed))
            assert not capped and s.current_player() == TERMINAL and len(s.round_scores) >= 3
            assert abs(sum(s.returns())) < 1e-9


def test_hidden_hands_hide_only_the_new_face() -> None:
    """§9.2: the other player sees which die was turned, not its new face, and only the hand's size."""
    s = laid_out(game(hidden_hands=True))
    play(s, "take a1", "take b1", "take c1", "give d1", "give e1", "give f1", "turn a die", "turn red 1", "to 5")
    assert s.observation(1)["hands"][0] is None and s.observation(1)["hand_sizes"][0] == 3
    assert s.observation(0)["hands"][0][die(R, 5)] == 1
    ben = [line["text"] for line in s.move_log(1)][-2:]
    ada = [line["text"] for line in s.move_log(0)][-2:]
    assert ben == ["picks a red 1 to turn", "turned it in secret"] and ada == ["picks a red 1 to turn", "turns it to 5"]
    scene = s.scene(1)
    hidden = [it for z in scene["zones"] if z["id"] == "hand0" for it in z["items"]]
    assert len(hidden) == 3 and all(it["face_down"] for it in hidden)


def test_hidden_hands_are_shown_at_the_round_end() -> None:
    """§9.2, §7: the step that ends the round shows every hand and its pips to everyone."""
    s = laid_out(game(hidden_hands=True))
    for _ in range(12):
        plain_turn(s)
    assert s.phase == "last patterns"
    play(s, "end turn", "end turn")
    last = s.move_log(None)[-1]["text"]
    assert "round 1 ends: Ada keeps" in last and "pips" in last and "Ben keeps" in last


def secret_faces(s: KastaState, steps: list[int]) -> tuple[int, ...]:
    return tuple(s.history()[i] - FACE0 + 1 for i in steps)


def test_hidden_hands_resample_redraws_only_the_faces_a_viewer_did_not_see() -> None:
    """§9.2: a resample keeps what its viewer saw; the others' secret faces are redrawn as far as the public
    removals and the round end's reveal allow, and every redrawn world replays to what the viewer was shown."""
    g = game(hidden_hands=True)
    s = laid_out(g)
    play(s, "take a1", "take b1", "take c1", "give d1", "give e1", "give f1", "turn a die", "turn red 1", "to 5")
    first = s.move_number() - 1
    rng = random.Random(3)

    def draws(v: int | None, steps: list[int]) -> Counter[tuple[int, ...]]:
        out: Counter[tuple[int, ...]] = Counter()
        for k in range(200):
            r = s.resample(v, rng)
            if k < 10:
                assert fingerprint(g.state_from_history(r.history(), 2)) == fingerprint(r)
                assert r.observation(v) == s.observation(v) and r.move_log(v) == s.move_log(v)
            assert [a for i, a in enumerate(r.history()) if i not in steps] == [
                a for i, a in enumerate(s.history()) if i not in steps
            ]
            out[secret_faces(r, steps)] += 1
        return out

    assert set(draws(0, [first])) == {(5,)}  # Ada turned it: she keeps it
    assert set(draws(1, [first])) == set(draws(None, [first])) == {(2,), (3,), (4,), (5,), (6,)}  # never 1 again
    plain_turn(s)
    for verb in ("take", "take", "take", "give", "give", "give"):
        play(s, f"{verb} {layer_places(s)[0]}")
    play(s, "turn a die", "turn red 5", "to 2")  # her only red die: so the first secret face was a 5
    both = [first, s.move_number() - 1]
    assert set(draws(0, both)) == {(5, 2)}
    ben = draws(1, both)
    assert set(ben) == set(draws(None, both)) == {(5, 1), (5, 2), (5, 3), (5, 4), (5, 6)}
    core = Counter(secret_faces(hidden.resample(s, 1, rng), both) for _ in range(200))
    assert set(core) == set(ben)  # the core's search draws from the same worlds
    while s.phase != "last patterns":
        plain_turn(s)
    play(s, "end turn", "end turn")  # §9.2: the hands are shown, which pins both faces
    assert set(draws(1, both)) == set(draws(None, both)) == {(5, 2)}


def test_hidden_hands_resample_keeps_a_pattern_in_a_hand_that_chose_to_discard_one() -> None:
    """§4.3: a seat that chose "discard a pattern" holds one, though it has not said which yet and the pattern
    may mix colours: every redrawn world keeps that choice legal."""
    g = game(hidden_hands=True)
    rng = random.Random(4)  # a game where about half the worlds drawn colour by colour would hold no pattern
    s = g.new_initial_state(2)
    while not (s.phase == "discard a pattern" and s.to_move == 1 and s.round_scores):
        if s.current_player() == CHANCE:
            random_step(s, rng)
            continue
        legal = s.legal_actions()  # turn a die, or discard a pattern, whenever allowed
        s.apply_action(max([a for a in legal if a in (KIND0 + KIND_TURN, KIND0 + KIND_SET)], default=rng.choice(legal)))
    secret = [i for i, a in enumerate(s.history()) if s.actors()[i] == 1 and FACE0 <= a < FACE0 + 6]
    assert len(secret) > 1
    worlds = set()
    for v in (0, None):
        for _ in range(100):
            r = s.resample(v, rng)
            again = g.state_from_history(r.history(), 2)  # through the checked path: every step legal
            assert again.legal_actions() == r.legal_actions() and again.held_sets(1)
            worlds.add(secret_faces(r, secret))
    assert len(worlds) > 1


def test_hidden_hands_resample_is_fast_at_the_end_of_a_long_game() -> None:
    """A resample of a finished hidden-hands game (every round's reveal pins its faces) needs no search."""
    g = game(hidden_hands=True)
    s, _ = random_playout(g.new_initial_state(2), random.Random(5))
    rng = random.Random(1)
    for v in (0, 1, None):
        r = s.resample(v, rng)
        assert r.move_log(v, reveal=False) == s.move_log(v, reveal=False)
        assert fingerprint(g.state_from_history(r.history(), 2)) == fingerprint(r)


def test_the_scene_draws_dice_with_pips_and_marks_the_die_being_turned() -> None:
    """§1, §4.2: the pool is a board of dice with their pips, hands are dice items; the die being turned is marked."""
    s = laid_out()
    play(s, "take a1", "take b1", "take c1", "give d1", "give e1", "give f1", "turn a die", "turn yellow 1")
    scene = s.scene(0)
    assert check_scene(scene, s.legal_moves()) == []
    # the pool is a board: each die stands on its place as a piece showing its pips
    pieces = {p["at"]: p for p in scene["pieces"]}
    pool_die = pieces[f"p{at('h1')}"]
    assert pool_die["label"] == "2" and pool_die["colour"] == "#1565C0" and pool_die["name"] == "blue 2 on h1"
    assert len(pool_die["picture"]["fills"]) == 2
    assert f"p{at('a1')}" not in pieces and {c["id"] for c in scene["cells"]} >= {f"p{at('a1')}", f"p{at('i8')}"}
    assert not [z for z in scene["zones"] if z["id"].startswith("row")]
    assert {"at": f"h0-{die(Y, 1)}-0", "kind": "selected"} in scene["highlights"]
    text = scene_text(scene, labels(s))
    assert "⟨⚀ 1⟩" in str(text)


def test_every_random_step_keeps_the_scene_valid_at_four_players() -> None:
    """§3.4: four players' hands are drawn and every legal move is reachable."""
    s = game().new_initial_state(4)
    rng = random.Random(5)
    for k in range(400):
        random_step(s, rng)
        if k % 37 == 0 and s.current_player() >= 0:
            assert check_scene(s.scene(s.current_player()), s.legal_moves()) == []
