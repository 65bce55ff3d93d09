"""The public-subgame solver (boardlab.lab.subgames) and Hamlet solved by rounds (boardlab.lab.by_rounds)."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
import two_hands

import boardlab
from adapters import kuhn
from boardlab.core.game import State
from boardlab.lab import by_rounds
from boardlab.lab import subgames as sg

KUHN = kuhn.KuhnGame.id


def kuhn_tree() -> sg.Tree:
    return sg.build_tree(boardlab.make(KUHN).new_initial_state(2))


def test_kuhn_tree_cfr_plus_value_and_uniform_exploitability() -> None:
    t = kuhn_tree()
    # 58 histories; 6 information states per seat (a card and the bets so far), 2 moves each.
    assert (t.size, len(t.info_start), t.slots) == (58, 12, 24)
    assert sg.exploitability(t, t.leaf_value, t.uniform()) == pytest.approx(11 / 24, abs=1e-12)
    sol = sg.cfr_plus(t, t.leaf_value, iterations=600, target=1e-3)
    assert sol.value == pytest.approx(-1 / 18, abs=2e-3) and sol.exploitability <= 1e-3
    # A best response really is one: no seat gains by deviating from it to the equilibrium's moves.
    v0, br0 = sg.best_response(t, t.leaf_value, sol.strategy, 0)
    assert v0 >= sol.value >= sg.best_response(t, t.leaf_value, sol.strategy, 1)[0]
    assert sg.evaluate(t, t.leaf_value, br0) == pytest.approx(v0, abs=1e-12)


def test_sequence_form_lp_gives_kuhn_value_exactly() -> None:
    pytest.importorskip("scipy")
    t = kuhn_tree()
    assert sg.sequence_form_value(t, t.leaf_value) == pytest.approx(-1 / 18, abs=1e-9)


def test_kuhn_best_response_matches_openspiel_on_its_cfr_policy() -> None:
    pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import cfr, exploitability

    from boardlab.adapters import openspiel as bos

    game = bos.load(KUHN)
    solver = cfr.CFRSolver(game)
    for _ in range(20):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    t = kuhn_tree()
    index = {k: i for i, k in enumerate(t.info_keys)}
    sigma = np.zeros(t.slots)
    for st in policy.states:
        seat = st.current_player()
        i = index[sg.information_key(st.boardlab_state, seat)]  # the adapter's states map onto our keys
        s0 = int(t.info_start[i])
        for k, a in enumerate(t.slot_action[s0 : s0 + int(t.info_size[i])]):
            sigma[s0 + k] = policy.action_probabilities(st)[int(a)]
    assert len(policy.states) == len(t.info_start)
    assert sg.exploitability(t, t.leaf_value, sigma) == pytest.approx(
        exploitability.exploitability(game, policy), abs=1e-12
    )


def test_two_hands_by_induction_equals_the_whole_game_at_once() -> None:
    root = boardlab.make(two_hands.TwoHandsGame.id).new_initial_state(2)
    whole = sg.build_tree(root)
    ind = sg.Induction(root, two_hands.position, iterations=3000, target=2e-4)
    ind.build()
    assert len(ind.trees) == 1 + 4  # the first hand, then its result: Red's chips ±1 or ±2 (the loser bets first)
    # The same strategy (uniform) is exactly as exploitable measured either way.
    uniform = {k: t.uniform() for k, t in ind.trees.items()}
    assert ind.exploitability(uniform) == pytest.approx(sg.exploitability(whole, whole.leaf_value, whole.uniform()))
    assert ind.values(uniform)[ind.root_key] == pytest.approx(sg.evaluate(whole, whole.leaf_value, whole.uniform()))
    # The equilibrium: both ways give the same value, and the composed strategy is hardly exploitable.
    value = ind.solve()
    at_once = sg.cfr_plus(whole, whole.leaf_value, iterations=3000, target=2e-4)
    assert value == pytest.approx(at_once.value, abs=2e-3)
    assert ind.exploitability(ind.strategies()) < 2e-3 and at_once.exploitability <= 2e-4
    assert ind.exploitability(uniform) > 0.2
    if importlib.util.find_spec("scipy"):  # the exact values agree to the LP's precision
        assert ind.exact_values()[ind.root_key] == pytest.approx(
            sg.sequence_form_value(whole, whole.leaf_value), abs=1e-9
        )
        assert ind.lp_gap() < 2e-3


def hamlet_round3() -> State:
    """Round 3 at 1-1 with Laertes, Ophelia and Polonius left: the Fools beat Claudius in round 1 (seat 1 wins),
    Gertrude beats Prince Hamlet in round 2 (seat 0 wins), every move a lock."""
    s = boardlab.make("hamlet", first="seat0").new_initial_state(2)
    for a in (0, 6, 0, 0, 2, 1, 0, 0):  # deal Claudius, the Fools; lock, lock; deal Hamlet, Gertrude; lock, lock
        s.apply_action(a)
    assert by_rounds.hamlet_position(s) == (3, (3, 4, 5), 0, (1, 1))
    return s


def test_hamlet_round_three_subgame() -> None:
    t = sg.build_tree(hamlet_round3(), by_rounds.hamlet_position)
    assert all(k is None for k in t.leaf_key)  # round 3 ends the game
    sol = sg.cfr_plus(t, t.leaf_value, iterations=3000, target=1e-5)
    assert -1.0 <= sol.value <= 1.0 and sol.exploitability <= 1e-5
    random_gap = sg.exploitability(t, t.leaf_value, t.uniform())
    assert random_gap > 0.1 > sol.exploitability
    # The round's winner wins the game if Laertes survives (§8a), its loser if Ophelia or Polonius does (§8b).
    assert {float(v) for v in t.leaf_value} == {-1.0, 1.0}
    if importlib.util.find_spec("scipy"):
        assert sol.value == pytest.approx(sg.sequence_form_value(t, t.leaf_value), abs=1e-4)


@pytest.mark.slow
def test_hamlet_rounds_two_and_three_decompose() -> None:
    """From a round-2 start, solving rounds 2 and 3 as one tree and by induction over round 3's starts agree:
    what a seat saw in round 2 (its draws) does not matter to round 3. (About 7 s.)"""
    s = boardlab.make("hamlet", first="seat0").new_initial_state(2)
    for a in (0, 1, 0, 0):
        s.apply_action(a)
    key = by_rounds.hamlet_position(s)
    assert key == (2, (2, 3, 4, 5, 6), 0, (1, 0))
    whole = sg.build_tree(s, None)
    ind = sg.Induction(s, by_rounds.hamlet_position)
    ind.build()
    assert len(ind.trees) == 1 + 2 * 10  # round 2, then round 3 by who won it and which 3 cards are left
    uniform = {k: t.uniform() for k, t in ind.trees.items()}
    assert ind.exploitability(uniform) == pytest.approx(sg.exploitability(whole, whole.leaf_value, whole.uniform()))
    value = ind.solve()
    at_once = sg.cfr_plus(whole, whole.leaf_value, iterations=400, target=1e-3)
    assert value == pytest.approx(at_once.value, abs=3e-3) and at_once.exploitability < 1e-2
    if importlib.util.find_spec("scipy"):
        assert ind.exact_values()[key] == pytest.approx(sg.sequence_form_value(whole, whole.leaf_value), abs=1e-7)


@pytest.mark.slow
def test_hamlet_whole_game_by_rounds() -> None:
    """The whole game (185 subgames and their LPs; about 25 s): fair under the coin, a composed equilibrium that is hardly
    exploitable, and random play far more exploitable."""
    ind = by_rounds.solve("hamlet", target=1e-5)
    eq = ind.strategies()
    firsts = [ind.positions[(1, tuple(range(7)), seat, (0, 0))].value for seat in (0, 1)]
    assert ind.positions[ind.root_key].value == pytest.approx(0.0, abs=1e-4)
    assert firsts[0] == pytest.approx(-firsts[1], abs=1e-4) and abs(firsts[0]) < 0.01
    assert ind.exploitability(eq) < 1e-4
    if importlib.util.find_spec("scipy"):  # the exact values, by the LP in every round game
        exact = ind.exact_values()
        assert exact[ind.root_key] == pytest.approx(0.0, abs=1e-9)
        assert exact[(1, tuple(range(7)), 0, (0, 0))] == pytest.approx(firsts[0], abs=1e-4)
    assert ind.exploitability({k: t.uniform() for k, t in ind.trees.items()}) > 0.5
    shares = by_rounds.choice_shares(ind, eq, by_rounds.BOUNDARIES["hamlet"][1])
    first = shares[(1, "first player", "any")]
    assert first["reach"] == pytest.approx(1.0) and sum(first[m] for m in ("lock", "trade", "draw")) == pytest.approx(1)


def test_command_line_refuses_unknown_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    from boardlab.lab import exact

    assert exact.main([]) == 2
    assert exact.main(["hamlet", "--rounds=2"]) == 2
    assert "unknown argument '--rounds=2'" in capsys.readouterr().out
