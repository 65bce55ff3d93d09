"""Scenario tests for Dragon Fight; clause numbers (§n) refer to docs/rules/dragon-fight.md."""

from __future__ import annotations

import json
import random

import pytest

import boardlab
from boardlab.core.constants import SIMULTANEOUS, TERMINAL
from boardlab.core.errors import IllegalActionError, OutOfTurnError
from boardlab.core.play import random_playout
from boardlab.games.dragon_fight import (
    ATTACKS,
    DIRS,
    FACE_BASE,
    INK,
    MOVES,
    WOUND_BASE,
    DragonFightState,
    attack_damage,
    cell_label,
)
from state_checks import fingerprint

FACINGS = "NESW"


def order(move: str, attack: str) -> int:
    return 4 * MOVES.index(move) + ATTACKS.index(attack)


def give(move: str) -> int:
    return WOUND_BASE + MOVES.index(move)


def xy(label: str) -> tuple[int, int]:
    return "abcde".index(label[0]), int(label[1:]) - 1


def new(**options: object) -> DragonFightState:
    state = boardlab.make("dragon-fight", **options).new_initial_state()
    assert isinstance(state, DragonFightState)
    return state


def place(state: DragonFightState, red: str, green: str) -> DragonFightState:
    """Test set-up: put the dragons at ``"c3 N"``-style places (turn 1, nothing else changes)."""
    for p, spec in enumerate((red, green)):
        label, facing = spec.split()
        state.x[p], state.y[p] = xy(label)
        state.f[p] = FACINGS.index(facing)
    return state


def where(state: DragonFightState, p: int) -> str:
    return f"{cell_label(state.x[p], state.y[p])} {FACINGS[state.f[p]]}"


def turn(state: DragonFightState, red: tuple[str, str], green: tuple[str, str]) -> None:
    state.apply_actions([order(*red), order(*green)])


# -- §2 setup and §3a orders ---------------------------------------------------------------
def test_setup_dragons_face_each_other_and_choose_at_once() -> None:
    s = new()
    assert where(s, 0) == "c1 N" and where(s, 1) == "c5 S"  # §2
    assert s.current_player() == SIMULTANEOUS  # §3a
    for p in (0, 1):
        legal = s.legal_actions(p)
        assert len(legal) == 24 and legal == list(range(24))
        assert s.action_to_string(p, order("veer left", "breathe fire")) == "veer left + breathe fire"
        assert s.string_to_action(p, "Strafe Right + Wing Buffet") == order("strafe right", "wing buffet")
    with pytest.raises(IllegalActionError):
        s.apply_action(0)  # a simultaneous node takes apply_actions only
    obs = s.observation(0)
    assert obs["damage"] == [0, 0] and obs["movement_tokens"][0] == list(MOVES) and obs["turn"] == 1


def test_chosen_starting_facing_option() -> None:
    """§2, option initial_facing=chosen: both riders pick a facing in secret, revealed together, before turn 1."""
    s = new(initial_facing="chosen")
    assert s.current_player() == SIMULTANEOUS
    assert s.legal_moves(0) == [(FACE_BASE + k, f"face {f}") for k, f in enumerate(FACINGS)]
    obs = s.observation(0)
    assert obs["choosing_facing"] and obs["dragons"][0]["facing"] is None
    scene = s.scene(1)
    assert "faces at the start" in scene["prompt"] and [b["label"] for b in scene["buttons"]] == [
        f"face {f}" for f in FACINGS
    ]
    assert all(p["facing"] is None for p in scene["pieces"])
    before = fingerprint(s)
    with pytest.raises(IllegalActionError, match=r"faces at the start \(§2\)"):
        s.apply_actions([order("forward", "claw"), FACE_BASE])
    assert fingerprint(s) == before
    s.apply_actions([FACE_BASE + FACINGS.index("E"), FACE_BASE + FACINGS.index("N")])
    assert where(s, 0) == "c1 E" and where(s, 1) == "c5 N"
    assert s.undo_point(0) is None  # the reveal is a barrier
    assert len(s.legal_actions(0)) == 24
    assert "chosen once" in s.explain_illegal(0, FACE_BASE)
    turn(s, ("forward", "claw"), ("forward", "claw"))  # Red to d1; Green flies off from c5 facing N
    assert s.is_terminal() and s.returns() == [1.0, -1.0]
    assert boardlab.make("dragon-fight").num_distinct_actions() == FACE_BASE  # the default has no facing actions
    assert "not an action" in new().explain_illegal(0, FACE_BASE)


# -- §4 movement tokens from each facing -------------------------------------------------
MOVE_TABLE = {
    "N": ("c4 N", "c4 S", "b4 W", "d4 E", "b3 N", "d3 N"),
    "E": ("d3 E", "d3 W", "d4 N", "d2 S", "c4 E", "c2 E"),
    "S": ("c2 S", "c2 N", "d2 E", "b2 W", "d3 S", "b3 S"),
    "W": ("b3 W", "b3 E", "b2 S", "b4 N", "c2 W", "c4 W"),
}


@pytest.mark.parametrize("facing", FACINGS)
@pytest.mark.parametrize("move", range(6))
def test_each_movement_token_from_each_facing(facing: str, move: int) -> None:
    """§4.1-§4.6 from c3, for every facing (§1b)."""
    s = place(new(), f"c3 {facing}", "a1 N")
    s.apply_actions([4 * move + ATTACKS.index("claw"), order("forward", "claw")])
    assert where(s, 0) == MOVE_TABLE[facing][move]
    assert where(s, 1) == "a2 N"


def test_moves_start_from_the_start_of_turn_squares() -> None:
    """§3b: both dragons move at once; a dragon may enter the square the other one leaves."""
    s = place(new(), "c2 N", "c3 E")
    turn(s, ("forward", "claw"), ("forward", "claw"))
    assert where(s, 0) == "c3 N" and where(s, 1) == "d3 E"
    assert s.log[-1]["event"] == "attacks"


# -- §3c flight ----------------------------------------------------------------------------
def test_flying_off_the_board_loses_at_once_and_attacks_stay_hidden() -> None:
    s = place(new(), "c1 S", "c2 S")  # Red flies off; Green's breath would have hit nothing anyway
    legal = s.legal_actions(0)
    assert order("forward", "breathe fire") in legal  # §4: a losing move is legal
    turn(s, ("forward", "breathe fire"), ("veer left", "tail whip"))
    assert s.current_player() == TERMINAL and s.returns() == [-1.0, 1.0]
    assert s.damage == [0, 0]
    assert s.observation(1)["log"][-1]["attacks"] == [None, "tail whip"]  # §8
    assert s.observation(0)["log"][-1]["attacks"] == ["breathe fire", None]
    assert s.observation(None)["log"][-1]["attacks"] == [None, None]
    assert "flew off" in s.scene(None)["prompt"]


def test_flight_beats_a_hit_that_would_have_been_dealt() -> None:
    """§3c, G8: Green leaves the board; Red's fire would have dealt 2 but attacks are never resolved."""
    s = place(new(), "c3 N", "e4 E")
    turn(s, ("forward", "breathe fire"), ("forward", "claw"))
    assert s.is_terminal() and s.returns() == [1.0, -1.0] and s.damage == [0, 0]


def test_both_dragons_flying_off_is_a_tie() -> None:
    s = place(new(), "a1 W", "e5 E")
    turn(s, ("forward", "claw"), ("forward", "claw"))
    assert s.is_terminal() and s.returns() == [0.0, 0.0] and s.winner == -1
    assert s.scene(0)["prompt"].startswith("Tie")


# -- §3d collisions ------------------------------------------------------------------------
def test_collision_deals_one_each_hides_attacks_and_dragons_stay() -> None:
    s = new()
    turn(s, ("forward", "claw"), ("forward", "claw"))  # c2 / c4, nothing hits
    assert s.damage == [0, 0]
    turn(s, ("forward", "breathe fire"), ("forward", "tail whip"))  # both reach c3
    assert s.damage == [1, 1] and s.log[-1]["event"] == "collision"
    assert where(s, 0) == "c3 N" and where(s, 1) == "c3 S"  # option after_collision = stay
    assert s.current_player() == SIMULTANEOUS and s.pending == [1, 1]  # §6b
    assert s.observation(0)["log"][-1]["attacks"] == ["breathe fire", None]
    assert s.observation(1)["log"][-1]["attacks"] == [None, "tail whip"]
    assert s.observation(None)["log"][-1]["attacks"] == [None, None]
    assert "(hidden attack)" in s.scene(0)["status"][-1]
    assert s.undo_point(0) is None  # the simultaneous reveal is an undo barrier


def test_collision_with_return_option_sends_dragons_back() -> None:
    s = new(after_collision="return")
    turn(s, ("forward", "claw"), ("forward", "claw"))
    turn(s, ("forward", "claw"), ("forward", "claw"))
    assert s.damage == [1, 1] and where(s, 0) == "c2 N" and where(s, 1) == "c4 S"


def test_dragons_on_one_square_cannot_hit_each_other_and_collide_again() -> None:
    """G3: after a collision both stand on c3; every order moves, meeting again collides again."""
    s = new()
    turn(s, ("forward", "claw"), ("forward", "claw"))
    turn(s, ("forward", "claw"), ("forward", "claw"))
    s.apply_actions([give("strafe left"), give("strafe right")])
    # Red (c3 N) strafes right to d3, Green (c3 S) strafes left (its left is E) to d3: a second collision.
    turn(s, ("strafe right", "claw"), ("strafe left", "claw"))
    assert s.damage == [2, 2] and where(s, 0) == "d3 N" and where(s, 1) == "d3 S"
    assert s.log[-1]["event"] == "collision"
    for attack in range(4):  # no attack reaches the attacker's own square
        for f in range(4):
            assert attack_damage(attack, 2, 2, f, 2, 2) == 0


@pytest.mark.parametrize("swap_collides", [False, True])
def test_swapping_squares(swap_collides: bool) -> None:
    """§3d, G5: a swap is not a collision unless option swap_collides."""
    s = place(new(swap_collides=swap_collides), "c2 N", "c3 S")
    turn(s, ("forward", "tail whip"), ("forward", "claw"))
    assert where(s, 0) == "c3 N" and where(s, 1) == "c2 S"
    if swap_collides:
        assert s.log[-1]["event"] == "swap collision" and s.damage == [1, 1]
        assert s.observation(1)["log"][-1]["attacks"] == [None, "claw"]
    else:  # attacks resolve: Red's tail whip hits Green straight behind it
        assert s.log[-1]["event"] == "attacks" and s.damage == [0, 1]
        assert s.observation(1)["log"][-1]["attacks"] == ["tail whip", "claw"]


# -- §5 attack geometry ----------------------------------------------------------------------
def hits(attack: str, at: str, facing: str, wing: str = "rays") -> dict[str, int]:
    ax, ay = xy(at)
    out = {}
    for x in range(5):
        for y in range(5):
            d = attack_damage(ATTACKS.index(attack), ax, ay, FACINGS.index(facing), x, y, wing)
            if d:
                out[cell_label(x, y)] = d
    return out


ATTACK_TABLE = {
    ("claw", "N"): {"a3": 1, "b3": 1, "d3": 1, "e3": 1},
    ("claw", "E"): {"c1": 1, "c2": 1, "c4": 1, "c5": 1},
    ("breathe fire", "N"): {"c4": 2, "c5": 1, "b4": 1, "d4": 1},
    ("breathe fire", "E"): {"d3": 2, "e3": 1, "d4": 1, "d2": 1},
    ("breathe fire", "S"): {"c2": 2, "c1": 1, "b2": 1, "d2": 1},
    ("breathe fire", "W"): {"b3": 2, "a3": 1, "b4": 1, "b2": 1},
    ("tail whip", "N"): {"c2": 1, "b2": 1, "d2": 1},
    ("tail whip", "E"): {"b3": 1, "b4": 1, "b2": 1},
    ("tail whip", "S"): {"c4": 1, "b4": 1, "d4": 1},
    ("tail whip", "W"): {"d3": 1, "d4": 1, "d2": 1},
}


@pytest.mark.parametrize(("attack", "facing"), list(ATTACK_TABLE))
def test_attack_geometry_from_c3(attack: str, facing: str) -> None:
    """§5.1-§5.3: the squares each attack reaches from c3, by facing."""
    assert hits(attack, "c3", facing) == ATTACK_TABLE[(attack, facing)]


@pytest.mark.parametrize(
    ("wing", "expected"),
    [
        ("rays", {"a4", "d1", "d4"}),
        ("chebyshev", {"a4", "b4", "c4", "d4", "d3", "d2", "d1"}),
        ("manhattan", {"a4", "b3", "c2", "d1"}),
    ],
)
def test_wing_buffet_distance_three_any_facing(wing: str, expected: set[str]) -> None:
    """§5.4 and option wing_buffet: exactly three squares away, whatever the facing."""
    for facing in FACINGS:
        assert hits("wing buffet", "a1", facing, wing) == dict.fromkeys(expected, 1)
    assert hits("wing buffet", "c3", "N") == {}  # nothing on the board lies three steps from the centre on a line


@pytest.mark.parametrize(
    ("green", "dealt"),
    [
        ("c5 S", {"rays": 0, "chebyshev": 1, "manhattan": 0}),  # Green ends on c4: (1, 3) from b1
        ("e5 S", {"rays": 1, "chebyshev": 1, "manhattan": 0}),  # e4: (3, 3), a diagonal
        ("c4 S", {"rays": 0, "chebyshev": 0, "manhattan": 1}),  # c3: (1, 2)
    ],
)
def test_wing_buffet_option_in_play(green: str, dealt: dict[str, int]) -> None:
    """§5.4: Red strafes to b1 and buffets; Green moves forward and claws at nothing."""
    for wing, expected in dealt.items():
        s = place(new(wing_buffet=wing), "a1 N", green)
        turn(s, ("strafe right", "wing buffet"), ("forward", "claw"))
        assert where(s, 0) == "b1 N"
        assert s.damage == [0, expected], wing


def test_breathe_fire_deals_two_and_victim_gives_two_tokens() -> None:
    """§5.2: two damage straight ahead; §6a: two wound tokens, one at a time, the used one allowed."""
    s = place(new(), "c2 N", "c5 S")
    turn(s, ("forward", "breathe fire"), ("forward", "claw"))  # Red c3, Green c4: straight ahead
    assert s.damage == [0, 2] and s.pending == [0, 2]
    assert s.current_player() == 1  # only Green decides
    assert s.legal_actions(0) == [] and s.legal_actions(1) == list(range(WOUND_BASE, WOUND_BASE + 6))
    with pytest.raises(OutOfTurnError):
        s.apply_action(give("forward"), player=0)
    s.apply_action(give("forward"))  # the token Green just used
    assert s.current_player() == 1 and give("forward") not in s.legal_actions(1)
    s.apply_action(give("veer left"))
    assert s.current_player() == SIMULTANEOUS and s.pending == [0, 0]
    assert s.observation(0)["wounds"] == [["forward", "veer left"], []]
    assert s.observation(1)["movement_tokens"][1] == [
        "forward & turn around",
        "veer right",
        "strafe left",
        "strafe right",
    ]
    assert len(s.legal_actions(1)) == 16 and len(s.legal_actions(0)) == 24


def test_both_hit_at_once_fire_two_and_claw_one() -> None:
    """§3e: damage is simultaneous; §6b: both give a token at once, then the one with more alone."""
    s = place(new(), "c2 N", "d4 W")
    turn(s, ("forward", "breathe fire"), ("forward", "tail whip"))  # Red c3 N; Green c4 W
    # Red is one square to Green's left: the tail whip misses, Red's fire hits straight ahead for 2.
    assert s.damage == [0, 2]
    s = place(new(), "c2 N", "d4 W")
    turn(s, ("forward", "breathe fire"), ("forward", "claw"))  # Green's claw reaches c3 (left, 1 square)
    assert s.damage == [1, 2] and s.pending == [1, 2]
    assert s.current_player() == SIMULTANEOUS
    s.apply_actions([give("strafe left"), give("strafe left")])
    assert s.current_player() == 1 and s.pending == [0, 1]
    s.apply_action(give("forward"))
    assert s.current_player() == SIMULTANEOUS
    assert s.wounds == [[4, 0], [4]]  # Red's area: Green's tokens; Green's area: Red's token
    assert s.log[-1]["given"] == [[4], [4, 0]]


# -- §6a wound tokens are lost -----------------------------------------------------------------
def test_given_token_is_unavailable_for_the_rest_of_the_match() -> None:
    s = new()
    turn(s, ("forward", "claw"), ("forward", "claw"))
    turn(s, ("forward", "claw"), ("forward", "claw"))  # collision at c3
    with pytest.raises(IllegalActionError, match="give up a movement token"):
        s.apply_actions([order("forward", "claw"), give("forward")])
    s.apply_actions([give("veer left"), give("forward")])
    assert order("veer left", "claw") not in s.legal_actions(0)
    assert order("forward", "claw") not in s.legal_actions(1)
    before = fingerprint(s)
    with pytest.raises(IllegalActionError) as info:
        s.apply_actions([order("veer left", "claw"), order("strafe left", "claw")])
    assert "veer left token was given to your opponent" in info.value.explanation and "§6a" in str(info.value)
    assert fingerprint(s) == before
    why = s.explain_illegal(0, give("strafe left"))
    assert "only for damage just taken" in why
    # later turns too
    turn(s, ("forward & turn around", "claw"), ("strafe right", "claw"))
    assert order("veer left", "wing buffet") not in s.legal_actions(0)


# -- §7 end of the game ------------------------------------------------------------------------
def test_simultaneous_third_damage_by_collisions_is_a_tie() -> None:
    """§7a and G6: collision damage counts; both reaching three at once is a tie (§6c: no wound asked)."""
    s = new()
    turn(s, ("forward", "claw"), ("forward", "claw"))  # c2 / c4
    turn(s, ("forward", "claw"), ("forward", "claw"))  # collide at c3: 1-1
    s.apply_actions([give("strafe left"), give("strafe left")])
    turn(s, ("forward & turn around", "claw"), ("forward & turn around", "claw"))  # c4 S / c2 N
    turn(s, ("forward", "claw"), ("forward", "claw"))  # collide at c3: 2-2
    s.apply_actions([give("strafe right"), give("strafe right")])
    turn(s, ("forward & turn around", "claw"), ("forward & turn around", "claw"))  # c2 N / c4 S
    assert s.damage == [2, 2]
    turn(s, ("forward", "wing buffet"), ("forward", "breathe fire"))  # collide at c3: 3-3
    assert s.is_terminal() and s.returns() == [0.0, 0.0] and s.damage == [3, 3]
    assert s.pending == [0, 0] and len(s.wounds[0]) == 2
    assert "third point" in s.scene(1)["prompt"]


def test_simultaneous_third_damage_by_attacks_is_a_tie() -> None:
    s = place(new(), "b2 N", "d2 N")
    s.damage = [2, 2]
    turn(s, ("forward", "claw"), ("forward", "claw"))  # b3 / d3: two squares apart, side by side
    assert s.is_terminal() and s.returns() == [0.0, 0.0]


def test_third_damage_wins_and_excess_needs_no_token() -> None:
    s = place(new(), "c2 N", "c5 S")
    s.damage = [0, 2]
    turn(s, ("forward", "breathe fire"), ("forward", "claw"))  # 2 more: Green at 4
    assert s.is_terminal() and s.returns() == [1.0, -1.0]
    assert s.current_player() == TERMINAL and s.legal_actions(1) == []
    assert "Red wins" in s.scene(None)["prompt"]


def test_a_player_never_runs_out_of_movement_tokens() -> None:
    """§7c: at most two tokens are ever given, so at least 4 x 4 orders remain."""
    game = boardlab.make("dragon-fight")
    for seed in range(200):
        s = game.new_initial_state()
        rng = random.Random(seed)
        while not s.is_terminal():
            for p in (0, 1):
                assert bin(s.owned[p]).count("1") >= 4
            if s.current_player() == SIMULTANEOUS:
                s.apply_actions([rng.choice(s.legal_actions(p)) if s.legal_actions(p) else None for p in (0, 1)])
            else:
                s.apply_action(rng.choice(s.legal_actions()))


# -- §8 hidden information -----------------------------------------------------------------------
def collided() -> DragonFightState:
    s = new()
    turn(s, ("forward", "claw"), ("forward", "claw"))
    turn(s, ("forward", "breathe fire"), ("forward", "tail whip"))
    return s


def test_resample_redraws_only_the_opponents_hidden_attacks() -> None:
    s = collided()
    rng = random.Random(3)
    seen = set()
    for _ in range(40):
        r = s.resample(0, rng)
        h = r.history()
        assert h[0] == s.history()[0]  # revealed turn unchanged
        assert h[1][0] == s.history()[1][0]  # Red's own order kept
        assert h[1][1] // 4 == MOVES.index("forward")  # Green's revealed movement kept
        seen.add(h[1][1] % 4)
        assert json.dumps(r.observation(0), sort_keys=True) == json.dumps(s.observation(0), sort_keys=True)
        assert json.dumps(r.scene(0), sort_keys=True) == json.dumps(s.scene(0), sort_keys=True)
        replayed = r.game.state_from_history(h)
        assert fingerprint(replayed) == fingerprint(r)
    assert seen == {0, 1, 2, 3}
    spectator = {tuple(x) for x in (s.resample(None, rng).history()[1] for _ in range(40))}
    assert len({a for a, _ in spectator}) > 1 and len({b for _, b in spectator}) > 1


def test_observations_differ_only_in_own_hidden_attacks() -> None:
    s = collided()
    o0, o1, spec = s.observation(0), s.observation(1), s.observation(None)
    assert o0["log"][0] == o1["log"][0] == spec["log"][0]  # a revealed turn is public
    assert o0["log"][1]["attacks"] == ["breathe fire", None] and o1["log"][1]["attacks"] == [None, "tail whip"]
    for o in (o0, o1):  # apart from the viewer and its own hidden attack, every seat sees the same
        o["seat"] = None
        o["log"][1]["attacks"] = [None, None]
    assert o0 == o1 == spec
    assert "tail whip" not in json.dumps(s.scene(0)["status"])


# -- scene ---------------------------------------------------------------------------------------
def test_scene_targets_the_squares_the_dragon_would_reach() -> None:
    s = new()
    scene = s.scene(0)
    assert scene["prompt"] == "Choose a movement token and an attack token, secretly."
    by_cell: dict[str, set[str]] = {}
    for t in scene["targets"]:
        by_cell.setdefault(t["at"], set()).add(t["label"])
    assert by_cell["c2"] == {f"{m} + {a}" for m in ("forward", "forward & turn around") for a in ATTACKS}
    assert by_cell["b2"] == {f"veer left + {a}" for a in ATTACKS}
    assert by_cell["d1"] == {f"strafe right + {a}" for a in ATTACKS}
    assert scene["buttons"] == []
    dragons = {p["owner"]: p for p in scene["pieces"]}
    assert dragons[0]["at"] == "c1" and dragons[0]["facing"] == 0.0 and dragons[1]["facing"] == 180.0
    assert s.scene(None)["targets"] == [] and "in secret" in s.scene(None)["prompt"]


def test_scene_draws_red_and_green() -> None:
    """§1a: the dragons, the players and the scoring areas are red and green, whatever the seat palette."""
    scene = new().scene(None)
    assert [p["colour"] for p in sorted(scene["pieces"], key=lambda p: p["owner"])] == list(INK)
    assert [p["colour"] for p in scene["players"]] == list(INK)
    borders = {e["id"]: e for e in scene["edges"]}
    assert [(borders[b]["owner"], borders[b]["stroke"]) for b in ("border-red", "border-green")] == [
        (0, INK[0]),
        (1, INK[1]),
    ]
    assert borders["border-red"]["from"][1] > 5 > borders["border-green"]["from"][1]  # Red's side at the bottom


def test_scene_warns_about_orders_that_fly_off() -> None:
    s = place(new(), "a1 N", "c5 S")
    buttons = {b["label"] for b in s.scene(0)["buttons"]}
    assert "strafe left + claw (flies off the board: you lose)" in buttons
    assert "veer left + claw (flies off the board: you lose)" in buttons
    assert len(buttons) == 8


def test_scene_wound_choice_targets_the_movement_tokens() -> None:
    s = place(new(), "c2 N", "c5 S")
    turn(s, ("forward", "breathe fire"), ("forward", "claw"))
    scene = s.scene(1)
    assert "give one of your movement tokens" in scene["prompt"]
    assert {t["at"] for t in scene["targets"]} == {f"move-1-{m}" for m in range(6)}
    assert "Green must give up" in s.scene(0)["prompt"]
    assert scene["status"][:2] == ["Red: 0 of 3 damage taken", "Green: 2 of 3 damage taken"]


def test_random_games_end_and_seats_are_balanced() -> None:
    game = boardlab.make("dragon-fight")
    wins = [0, 0, 0]
    for seed in range(300):
        s, capped = random_playout(game.new_initial_state(), random.Random(seed))
        assert not capped
        r = s.returns()
        wins[0 if r[0] > 0 else 1 if r[1] > 0 else 2] += 1
    assert abs(wins[0] - wins[1]) < 60 and wins[2] > 0


def reference_legal(s: DragonFightState, player: int) -> list[int]:
    """§2, §3a, §6a as first written: every token tested against the owned bits."""
    if s.over or not 0 <= player < 2:
        return []
    if s.choosing_facing:
        return [FACE_BASE + f for f in range(len(DIRS))]
    owned = s.owned[player]
    if s.pending[0] or s.pending[1]:
        if not s.pending[player]:
            return []
        return [WOUND_BASE + m for m in range(len(MOVES)) if owned >> m & 1]
    return [4 * m + k for m in range(len(MOVES)) if owned >> m & 1 for k in range(len(ATTACKS))]


@pytest.mark.parametrize("options", [{}, {"initial_facing": "chosen"}])
def test_legal_lists_match_the_token_by_token_rules(options: dict[str, object]) -> None:
    seen: set[tuple[int, ...]] = set()
    for seed in range(300):
        rng = random.Random(seed)
        s = new(**options)
        while s.current_player() != TERMINAL:
            lists = [s.legal_actions(p) for p in (0, 1)]
            assert lists == [reference_legal(s, p) for p in (0, 1)], (seed, s.move_number())
            seen.update(tuple(x) for x in lists)
            if s.current_player() == SIMULTANEOUS:
                s.apply_actions([rng.choice(x) if x else None for x in lists])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
    assert len(seen) > 20


def test_the_tensor_counts_damage_up_to_three_even_after_a_last_blow_of_two() -> None:
    """§7a: a dragon on 2 points that takes a blow of 2 ends on 4; the tensor stays in 0..1 (it counts up to 3)."""
    s = boardlab.make("dragon-fight").new_initial_state()
    s.damage = [4, 1]
    values = s.observation_tensor(0)
    assert all(0.0 <= v <= 1.0 for v in values)
