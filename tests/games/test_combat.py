"""Scenario tests for Micro Play-Break: Combat; clause numbers (§n) refer to docs/rules/combat.md."""

from __future__ import annotations

import random
from typing import Any

import pytest

import boardlab
from boardlab.cli.render import scene_text
from boardlab.core.constants import CHANCE, SIMULTANEOUS
from boardlab.core.errors import IllegalActionError
from boardlab.core.scene import check_scene
from boardlab.games.combat import ACTIONS, SLOTS, TROOPS, CombatState, acting_step
from state_checks import random_step

ORANGE, BLUE = 0, 1


def new(**options: Any) -> CombatState:
    options.setdefault("first", "orange")
    s = boardlab.make("combat", **options).new_initial_state()
    assert isinstance(s, CombatState)
    return s


def act(s: CombatState, label: str) -> None:
    s.apply_action(s.string_to_action(None, label))


def both(s: CombatState, orange: str | None, blue: str | None) -> None:
    """A simultaneous choice: each commander's label, or None for one without a choice."""
    assert s.current_player() == SIMULTANEOUS
    joint = [None if lab is None else s.string_to_action(p, lab) for p, lab in enumerate((orange, blue))]
    s.apply_actions(joint)


def deploy(s: CombatState, orange: list[str], blue: list[str]) -> None:
    """Place ``"Archer front A"``-style troops in turn, the cycle's first deployer first (§4b)."""
    queues = {ORANGE: list(orange), BLUE: list(blue)}
    while queues[ORANGE] or queues[BLUE]:
        p = s.current_player()
        assert p in (ORANGE, BLUE), p
        troop, slot = queues[p].pop(0).split(" ", 1)
        act(s, f"place {troop} at {slot}")


def position(orange: list[str], blue: list[str], **options: Any) -> CombatState:
    """A cycle about to be deployed with these armies left, as after earlier losses (Orange deploys first)."""
    s = new(**options)
    s.army = [tuple(sorted(TROOPS.index(t) for t in army)) for army in (orange, blue)]
    s.cycle = 0
    s._new_cycle(ORANGE)
    return s


def fight(s: CombatState, **choices: str) -> None:
    """Play the simultaneous combat choices: ``aim_orange="Archer shoots the back troop"``, else the first legal."""
    while s.current_player() == SIMULTANEOUS:
        joint = []
        for p, name in enumerate(("orange", "blue")):
            moves = s.legal_moves(p)
            want = choices.get(f"{s.phase}_{name}")
            joint.append(None if not moves else (s.string_to_action(p, want) if want else moves[0][0]))
        s.apply_actions(joint)


FULL_O = ["Spearman front A", "Swordsman front B", "Archer front C", "Medic back A", "Shieldbearer back B"]
FULL_B = ["Swordsman front A", "Shieldbearer front B", "Archer front C", "Spearman back A", "Medic back B"]


def test_setup_each_commander_has_five_troops_and_chance_picks_the_first_deployer() -> None:
    """§1a, §2a: five troops each; with first=random chance decides, and that commander deploys first."""
    s = boardlab.make("combat").new_initial_state()
    assert s.current_player() == CHANCE
    assert s.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    assert s.action_to_string(CHANCE, 1) == "Blue deploys first"
    s.apply_action(1)
    assert s.current_player() == BLUE
    obs = s.observation(BLUE)
    assert obs["hand"] == list(TROOPS) and obs["armies"][ORANGE] == list(TROOPS)


def test_front_row_must_be_full_before_the_back_row() -> None:
    """§4c: the back row opens only once the front row (of the columns in use) is full; a refusal says why."""
    s = new()
    legal = {s.action_to_string(ORANGE, a) for a in s.legal_actions()}
    assert "place Archer at front A" in legal and not any("back" in lab for lab in legal)
    back = ACTIONS.encode("place", TROOPS.index("Archer"), SLOTS.index("back A"))
    with pytest.raises(IllegalActionError, match="front row must be full"):
        s.apply_action(back)
    assert s.move_number() == 0
    deploy(s, ["Archer front A", "Medic front B", "Spearman front C"], ["Swordsman front A", "Medic front B"])
    assert s.current_player() == BLUE
    assert s.open_slots(BLUE) == [2]
    assert s.open_slots(ORANGE) == [3, 4, 5]


def test_placements_alternate_and_the_last_commander_finishes_alone() -> None:
    """§4b, §4d: over random games, the commanders alternate while both have troops to place, and one with
    troops left places them all once the other is done; every troop is deployed."""
    game = boardlab.make("combat", first="orange", squads=2)
    checked = 0
    for seed in range(30):
        s = game.new_initial_state()
        rng = random.Random(seed)
        while not s.is_terminal():
            p = s.current_player()
            if s.phase == "deploy":
                other = 1 - p
                if s.hand[other] and sum(s.grid[p][k] >= 0 for k in range(6)) > sum(
                    s.grid[other][k] >= 0 for k in range(6)
                ):
                    raise AssertionError("a commander placed twice while the other still had troops")
                if not s.hand[other]:
                    checked += 1
                before = len(s.hand[0]) + len(s.hand[1])
                random_step(s, rng)
                if s.phase == "deploy" and s.cycle == s.cycle:
                    assert len(s.hand[0]) + len(s.hand[1]) in (before - 1, len(s.army[0]) + len(s.army[1]))
            else:
                random_step(s, rng)
    assert checked > 10


def test_placements_are_secret_until_every_troop_is_deployed() -> None:
    """§4f, §5a: the slot is public and the troop private; the last placement turns every troop face up."""
    s = new()
    act(s, "place Archer at front B")
    assert s.observation(BLUE)["grids"][ORANGE][1] == "face down"
    assert s.observation(ORANGE)["grids"][ORANGE][1]["troop"] == "Archer"
    assert s.observation(None)["grids"][ORANGE][1] == "face down"
    assert s.move_log(BLUE)[-1]["text"] == "placed a troop face down at front B"
    assert s.move_log(ORANGE)[-1]["text"] == "placed the Archer at front B"
    rng = random.Random(3)
    seen = {s.resample(BLUE, rng).grid[ORANGE][1] for _ in range(60)}
    assert seen == set(range(5))  # the AI's redraws put any of Orange's troops there
    s2 = new()
    deploy(s2, FULL_O, FULL_B)
    last = s2.move_log(BLUE)[9]["text"]
    assert "the troops are turned face up" in last and "Orange: Spearman front A, Swordsman front B" in last
    assert "Orange: Spearman front A" in s2.observation(BLUE)["report"][0]


def test_two_columns_when_both_have_four_or_fewer() -> None:
    """§4a: with both armies at four troops or fewer only columns A and B are used; a refusal says why."""
    s = position(["Archer", "Medic", "Spearman", "Swordsman"], ["Archer", "Medic", "Spearman", "Shieldbearer"])
    assert s.cols == 2 and s.open_slots(ORANGE) == [0, 1]
    c_slot = ACTIONS.encode("place", TROOPS.index("Archer"), SLOTS.index("front C"))
    with pytest.raises(IllegalActionError, match="only columns A and B"):
        s.apply_action(c_slot)
    assert position(list(TROOPS), ["Archer"]).cols == 3  # one army of five keeps three columns
    game = boardlab.make("combat")
    for seed in range(20):  # and in play: every deployment uses the columns §4a gives
        s = game.new_initial_state()
        rng = random.Random(seed)
        while not s.is_terminal():
            if s.phase == "deploy":
                assert s.cols == (2 if max(len(s.army[0]), len(s.army[1])) <= 4 else 3)
            random_step(s, rng)


def test_worked_example_first_strike_decides_a_duel() -> None:
    """§7b, §8a, §10b, §11b worked example: a front Spearman wounds the Swordsman first, which never strikes."""
    s = position(["Spearman"], ["Swordsman"])
    deploy(s, ["Spearman front A"], ["Swordsman front A"])
    assert s.is_terminal() and s.returns() == [1.0, -1.0]
    report = " ".join(s.observation(None)["report"])
    assert "Orange's Spearman at front A wounds Blue's Swordsman at front A." in report
    assert "Blue's Swordsman at front A wounds" not in report
    assert "Recovery: Blue's Swordsman at front A is wounded and leaves the battle." in report
    assert "Blue's army is routed" in report
    assert s.end_reason == "Blue's army is routed"


def test_step_order_front_then_back_and_simultaneous_within_a_step() -> None:
    """§7c-§7e, §8b: front-row troops strike together in step 2 (both wounded), back-row troops in step 3."""
    s = new()
    line = ["Swordsman front A", "Medic front B", "Shieldbearer front C", "Spearman back A", "Archer back B"]
    deploy(s, line, line)
    report = s.events
    assert "Step 1 (first strike):" not in report  # nobody has first strike
    i2, i3 = report.index("Step 2 (front row):"), report.index("Step 3 (back row):")
    assert "Orange's Swordsman at front A wounds Blue's Swordsman at front A." in report[i2:i3]
    assert "Blue's Swordsman at front A wounds Orange's Swordsman at front A." in report[i2:i3]
    assert "Orange's Spearman at back A wounds Blue's Swordsman at front A." in report[i3:]
    assert "Orange's Swordsman at front A has two wounds and is removed." in report[i3:]
    assert "Orange's Archer at back B wounds Blue's Medic at front B." in report[i3:]
    # §10b: the wounded Medics leave; each army keeps its Shieldbearer, Spearman and Archer (§11d).
    assert s.army == [(0, 2, 3), (0, 2, 3)] and s.phase == "deploy" and s.cycle == 2


def test_worked_example_front_shieldbearer_gives_its_column_immunity() -> None:
    """§8c worked example: a front Shieldbearer stops Archer and Spearman wounds in its column, itself included."""
    s = new()
    deploy(
        s,
        ["Archer front B", "Swordsman front A", "Medic front C", "Spearman back B", "Shieldbearer back A"],
        ["Swordsman front A", "Shieldbearer front B", "Spearman front C", "Medic back B", "Archer back A"],
    )
    assert s.phase == "aim" and s.legal_actions(BLUE) == []  # §6c: Orange's Archer has two targets
    fight(s, aim_orange="Archer shoots the back troop", shield_orange="keep the Shieldbearer")
    report = " ".join(s.events)
    assert "Orange's Archer at front B attacks Blue's Medic at back B, which the Shieldbearer protects." in report
    assert (
        "Orange's Spearman at back B attacks Blue's Shieldbearer at front B, which the Shieldbearer protects." in report
    )
    assert "Orange's Swordsman at front A wounds Blue's Swordsman at front A." in report  # a Swordsman is not stopped
    assert "wounds Blue's Medic" not in report


def test_wounded_shieldbearer_loses_its_immunity() -> None:
    """§8c: the protection is judged at the start of each step; a Shieldbearer wounded in step 2 protects no more."""
    s = new()
    deploy(
        s,
        ["Swordsman front B", "Medic front A", "Shieldbearer front C", "Archer back B", "Spearman back A"],
        ["Shieldbearer front B", "Medic front A", "Spearman front C", "Swordsman back B", "Archer back A"],
    )
    fight(s, grant_blue="first strike to front B")
    report = s.events
    i3 = report.index("Step 3 (back row):")
    assert (
        "Blue's Spearman at front C attacks Orange's Shieldbearer at front C, which the Shieldbearer protects."
        in report
    )
    assert "Orange's Swordsman at front B wounds Blue's Shieldbearer at front B." in report[:i3]
    assert "Orange's Archer at back B wounds Blue's Shieldbearer at front B." in report[i3:]
    assert "Blue's Shieldbearer at front B has two wounds and is removed." in report[i3:]


def test_back_swordsman_gives_first_strike_by_choice() -> None:
    """§7a, §7b, §7e: a back Swordsman's commander picks who strikes first; a troop wounded first never strikes."""
    s = new()
    deploy(
        s,
        ["Archer front A", "Medic front B", "Shieldbearer front C", "Swordsman back A", "Spearman back B"],
        ["Swordsman front A", "Spearman front B", "Archer front C", "Medic back A", "Shieldbearer back C"],
    )
    assert s.phase == "grant"
    assert [lab for _, lab in s.legal_moves(ORANGE)] == ["first strike to front A", "first strike to back B"]
    assert s.legal_actions(BLUE) == []
    both(s, "first strike to front A", None)
    assert s.phase == "aim"  # step 1: Orange's Archer, given first strike, is aimed
    both(s, "Archer shoots the front troop", None)
    report = s.events
    i1, i2 = report.index("Step 1 (first strike):"), report.index("Step 2 (front row):")
    assert "Orange's Swordsman at back A gives first strike to the Archer." in report[:i1]
    assert "Orange's Archer at front A wounds Blue's Swordsman at front A." in report[i1:i2]
    assert "Blue's Spearman at front B wounds Orange's Medic at front B." in report[i1:i2]
    fight(s)
    assert "Blue's Swordsman at front A wounds" not in " ".join(s.events)


def test_first_strike_on_a_troop_without_an_attack_does_nothing() -> None:
    """§7f: a Medic given first strike still never attacks."""
    s = new()
    deploy(
        s,
        ["Medic front A", "Archer front B", "Shieldbearer front C", "Swordsman back A", "Spearman back B"],
        ["Swordsman front A", "Spearman front B", "Archer front C", "Medic back A", "Shieldbearer back C"],
    )
    assert s.phase == "grant"
    both(s, "first strike to front A", None)
    assert "Orange's Swordsman at back A gives first strike to the Medic." in s.events
    fight(s)
    assert "Orange's Medic at front A wounds" not in " ".join(s.events)


def test_attack_on_an_empty_slot_does_nothing() -> None:
    """§7g: an attack at an empty slot does nothing and does not pass to the back row."""
    s = position(["Swordsman", "Medic"], ["Archer"])
    deploy(s, ["Swordsman front B", "Medic front A"], ["Archer front A"])
    report = " ".join(s.events)
    assert "Orange's Swordsman at front B finds no enemy in its column." in report
    assert "Blue's Archer at front A wounds Orange's Medic at front A." in report


def test_two_wounds_in_one_step_remove_at_once() -> None:
    """§8b: two attacks of one step on one troop remove it at once."""
    s = new()
    deploy(
        s,
        ["Spearman front A", "Medic front B", "Shieldbearer front C", "Archer back A", "Swordsman back B"],
        ["Medic front A", "Swordsman front B", "Shieldbearer front C", "Archer back A", "Spearman back B"],
    )
    both(s, "first strike to back A", None)
    report = s.events
    i1, i2 = report.index("Step 1 (first strike):"), report.index("Step 2 (front row):")
    assert "Orange's Spearman at front A wounds Blue's Medic at front A." in report[i1:i2]
    assert "Orange's Archer at back A wounds Blue's Medic at front A." in report[i1:i2]
    assert "Blue's Medic at front A has two wounds and is removed." in report[i1:i2]


SACRIFICE_O = ["Medic front A", "Archer front B", "Swordsman front C", "Shieldbearer back B", "Spearman back A"]
SACRIFICE_B = ["Medic front A", "Spearman front B", "Swordsman front C", "Archer back A", "Shieldbearer back C"]


def test_worked_example_sacrifice_of_a_back_shieldbearer() -> None:
    """§9b worked example: the back Shieldbearer is sacrificed, the wound cancelled, and the Archer attacks."""
    s = new()
    deploy(s, SACRIFICE_O, SACRIFICE_B)
    assert s.phase == "shield"
    assert [lab for _, lab in s.legal_moves(ORANGE)] == ["Shieldbearer shields front B", "keep the Shieldbearer"]
    assert s.legal_actions(BLUE) == []
    both(s, "Shieldbearer shields front B", None)
    assert "Orange's Shieldbearer at back B is sacrificed to save the Archer." in s.events
    assert TROOPS.index("Shieldbearer") not in s.army[ORANGE] and s.wounds[ORANGE][1] == 0
    fight(s)
    assert "Orange's Archer at front B wounds Blue's Spearman at front B." in s.events


def test_keeping_the_shieldbearer_lets_the_wound_land() -> None:
    """§9b: the sacrifice is a choice; keeping the Shieldbearer deals the wound, and the wounded Archer waits."""
    s = new()
    deploy(s, SACRIFICE_O, SACRIFICE_B)
    both(s, "keep the Shieldbearer", None)
    assert "Blue's Spearman at front B wounds Orange's Archer at front B." in s.events
    fight(s)
    assert "Orange's Archer at front B wounds" not in " ".join(s.events)


@pytest.mark.parametrize("allowed", [False, True])
def test_wounded_shieldbearer_sacrifice_option(allowed: bool) -> None:
    """§9b, option wounded_sacrifice: a wounded back Shieldbearer may be sacrificed only with the option."""
    s = new(wounded_sacrifice=allowed)
    deploy(
        s,
        ["Swordsman front A", "Medic front B", "Archer front C", "Shieldbearer back A", "Spearman back C"],
        ["Archer front A", "Medic front B", "Shieldbearer front C", "Spearman back A", "Swordsman back C"],
    )
    # Step 2: Blue's Archer shoots the Shieldbearer at back A; step 3: Blue's Spearman hits the Swordsman next to it.
    both(s, "Archer shoots the front troop", "Archer shoots the back troop")
    assert "Blue's Archer at front A wounds Orange's Shieldbearer at back A." in s.events
    if allowed:
        assert s.phase == "shield"
        assert [lab for _, lab in s.legal_moves(ORANGE)] == ["Shieldbearer shields front A", "keep the Shieldbearer"]
    else:
        assert s.phase != "shield"
        assert "Blue's Spearman at back A wounds Orange's Swordsman at front A." in s.events


def test_medic_heals_and_other_wounded_leave() -> None:
    """§10a, §10b: an unwounded Medic heals its one wounded neighbour; other wounded troops leave the battle."""
    s = new()
    deploy(
        s,
        ["Swordsman front A", "Shieldbearer front B", "Archer front C", "Medic back A", "Spearman back B"],
        ["Swordsman front A", "Shieldbearer front B", "Spearman front C", "Medic back A", "Archer back B"],
    )
    report = s.events
    assert "Blue's Spearman at front C wounds Orange's Archer at front C." in report
    assert "Recovery: Orange's Medic at back A heals the Swordsman." in report
    assert "Recovery: Blue's Medic at back A heals the Swordsman." in report
    assert "Recovery: Orange's Archer at front C is wounded and leaves the battle." in report
    assert TROOPS.index("Archer") not in s.army[ORANGE] and TROOPS.index("Swordsman") in s.army[ORANGE]


def test_medic_choice_between_two_wounded() -> None:
    """§10a: with two wounded neighbours the commander chooses which one the Medic heals."""
    s = new()
    deploy(
        s,
        ["Swordsman front A", "Archer front B", "Shieldbearer front C", "Spearman back A", "Medic back B"],
        ["Archer front A", "Swordsman front B", "Medic front C", "Shieldbearer back B", "Spearman back C"],
    )
    both(s, "Archer shoots the front troop", "Archer shoots the back troop")
    assert s.phase == "shield"  # Blue's Shieldbearer could save its Swordsman at front B
    both(s, None, "keep the Shieldbearer")
    assert s.phase == "heal"
    assert [lab for _, lab in s.legal_moves(ORANGE)] == ["Medic heals front B", "Medic heals back A"]
    assert s.legal_actions(BLUE) == []  # Blue's Medic has one wounded neighbour: no question
    both(s, "Medic heals back A", None)
    assert "Recovery: Orange's Medic at back B heals the Spearman." in s.events
    assert "Recovery: Orange's Archer at front B is wounded and leaves the battle." in s.events


def test_double_rout_more_troops_wins_and_equal_draws() -> None:
    """§11c: both routed: the army with more troops left wins; equal numbers draw. §10a saves a last fighter."""
    s = position(["Archer"], ["Swordsman"])
    deploy(s, ["Archer front A"], ["Swordsman front A"])
    assert s.is_terminal() and s.returns() == [0.0, 0.0]
    assert s.end_reason == "both armies are routed with 0 troops each: a draw"
    t = position(["Archer", "Shieldbearer"], ["Swordsman"])
    deploy(t, ["Archer front A", "Shieldbearer front B"], ["Swordsman front A"])
    assert t.is_terminal() and t.returns() == [1.0, -1.0]
    assert t.end_reason == "both armies are routed and Orange has more troops left (1 to 0)"
    u = position(["Archer", "Medic"], ["Swordsman"])
    deploy(u, ["Archer front A", "Medic front B"], ["Swordsman front A"])
    assert u.is_terminal() and u.returns() == [1.0, -1.0] and u.end_reason == "Blue's army is routed"


def test_cycle_cap_decides_a_stalemate() -> None:
    """§12: armies that cannot reach each other end at the cycle limit, decided as a double rout."""
    s = position(["Archer"], ["Swordsman"], cycle_cap=3)
    for _ in range(3):
        assert not s.is_terminal()
        deploy(s, ["Archer front A"], ["Swordsman front B"])
    assert s.is_terminal() and s.returns() == [0.0, 0.0]
    assert s.end_reason == "the cycle limit is reached with 1 troops each: a draw"


@pytest.mark.parametrize(("rule", "expected"), [("alternate", BLUE), ("same", ORANGE), ("loser", BLUE)])
def test_deploy_first_in_later_cycles(rule: str, expected: int) -> None:
    """§4e: later cycles alternate the first deployer; same keeps it; loser (equal armies) alternates too."""
    s = position(["Archer"], ["Swordsman"], deploy_first=rule)
    deploy(s, ["Archer front A"], ["Swordsman front B"])
    assert s.current_player() == expected


def test_deploy_first_loser_is_the_smaller_army() -> None:
    """§4e, deploy_first=loser: the commander with fewer troops left deploys first."""
    s = new(deploy_first="loser")
    line = ["Swordsman front A", "Medic front B", "Shieldbearer front C", "Spearman back A", "Archer back B"]
    deploy(s, line, ["Swordsman front A", "Medic front B", "Shieldbearer front C", "Archer back A", "Spearman back B"])
    assert len(s.army[ORANGE]) != len(s.army[BLUE]) or s.deployer == BLUE
    smaller = 0 if len(s.army[0]) < len(s.army[1]) else 1 if len(s.army[1]) < len(s.army[0]) else BLUE
    assert s.deployer == smaller


def test_battalion_fresh_squad_and_reinforcement() -> None:
    """§13b, §13c: a routed commander takes a fresh squad; the victor may bring back a lost troop type."""
    s = position(["Spearman"], ["Swordsman"], squads=2)
    deploy(s, ["Spearman front A"], ["Swordsman front A"])
    assert not s.is_terminal() and s.squads == [2, 1]
    assert s.army[BLUE] == tuple(range(5))
    assert s.phase == "reinforce" and s.current_player() == ORANGE
    labels = [lab for _, lab in s.legal_moves(ORANGE)]
    assert labels == [f"reinforce with the {t}" for t in TROOPS if t != "Spearman"] + ["no reinforcement"]
    act(s, "reinforce with the Archer")
    assert s.army[ORANGE] == (TROOPS.index("Spearman"), TROOPS.index("Archer"))
    assert s.phase == "deploy" and s.cols == 3  # Blue's fresh squad has five troops (§4a)


def test_battalion_ends_with_the_last_squad() -> None:
    """§13e: the game ends only when a commander's last squad is routed."""
    s = position(["Spearman"], ["Swordsman"], squads=2)
    deploy(s, ["Spearman front A"], ["Swordsman front A"])
    act(s, "no reinforcement")
    t = s.clone()
    rng = random.Random(5)
    while not t.is_terminal():
        random_step(t, rng)
    assert 0 in t.squads or t.end_reason.startswith("the cycle limit")
    assert "last squad" in t.end_reason or "cycle limit" in t.end_reason or "both" in t.end_reason


def test_random_games_end_and_scenes_are_drawn() -> None:
    """§11, §12: random games end; every view draws (face-down troops in their owner's colour)."""
    game = boardlab.make("combat")
    for seed in range(40):
        s = game.new_initial_state()
        rng = random.Random(seed)
        while not s.is_terminal():
            random_step(s, rng)
            assert s.move_number() < game.max_game_length()
        assert s.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
    s = new()
    act(s, "place Archer at front B")
    scene = s.scene(BLUE)
    assert check_scene(scene, s.legal_moves(BLUE)) == []
    downs = [p for p in scene["pieces"] if p["face_down"]]
    assert len(downs) == 1 and downs[0]["owner"] == ORANGE
    text = scene_text(scene, [lab for _, lab in s.legal_moves(BLUE)])
    assert "place Archer at front A" in text


def test_a_refused_choice_changes_nothing() -> None:
    """§9a: a commander without a choice passes None; a wrong choice is refused with the reason."""
    s = new()
    deploy(
        s,
        ["Archer front A", "Medic front B", "Shieldbearer front C", "Swordsman back A", "Spearman back B"],
        ["Swordsman front A", "Spearman front B", "Archer front C", "Medic back A", "Shieldbearer back C"],
    )
    before = s.history()
    with pytest.raises(IllegalActionError):
        s.apply_actions([ACTIONS.encode("grant", SLOTS.index("front C")), None])
    assert s.history() == before
    assert "no decision to make now" in s.explain_illegal(BLUE, ACTIONS.encode("grant", 0))
    assert "now your back-row Swordsman gives first strike" in s.explain_illegal(ORANGE, ACTIONS.encode("heal", 0))
    assert s.current_player() == SIMULTANEOUS


def reference_attackers(s: CombatState, step: int) -> list[tuple[int, int]]:
    """§7e as first written: every troop's step from :func:`acting_step`."""
    return [
        (p, slot)
        for p in (0, 1)
        for slot in range(6)
        if s.grid[p][slot] >= 0
        and s.wounds[p][slot] == 0
        and acting_step(s.grid[p][slot], slot, s.first_strike[p][slot]) == step
    ]


def test_attackers_match_the_troop_by_troop_rules() -> None:
    checked = 0
    for seed in range(150):
        rng = random.Random(seed)
        s = boardlab.make("combat").new_initial_state()
        assert isinstance(s, CombatState)
        while not s.is_terminal():
            for step in (0, 1, 2, 3):
                assert s.attackers(step) == reference_attackers(s, step), (seed, s.move_number())
            checked += 1
            random_step(s, rng)
    assert checked > 3000
