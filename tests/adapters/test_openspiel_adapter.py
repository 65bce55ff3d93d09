"""The OpenSpiel adapter: every boardlab game is a pyspiel game, and OpenSpiel's own algorithms play it."""

from __future__ import annotations

import json

import numpy as np
import pytest

import boardlab

pyspiel = pytest.importorskip("pyspiel")
bos = pytest.importorskip("boardlab.adapters.openspiel")
from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402
from open_spiel.python.bots.uniform_random import UniformRandomBot  # noqa: E402

GT = pyspiel.GameType
GAMES = boardlab.games()
#: Small settings keep OpenSpiel's (slow, Python) MCTS quick; games without them play their defaults.
SMALL = {"blast-radius": {"board_side": 5}}


def test_every_game_is_registered() -> None:
    names = {g.short_name for g in pyspiel.registered_games()}
    for game_id in GAMES:
        assert bos.short_name(game_id) in names
    assert bos.short_name("blast-radius") == "boardlab_blast_radius"


@pytest.mark.parametrize("game_id", GAMES)
def test_game_type_follows_the_boardlab_game(game_id: str) -> None:
    game = boardlab.make(game_id)
    spiel = bos.load(game_id)
    t = spiel.get_type()
    assert spiel.num_distinct_actions() == game.num_distinct_actions()
    assert spiel.max_game_length() == game.max_game_length()
    assert spiel.num_players() == (game.default_players or game.min_players)
    assert (t.chance_mode == GT.ChanceMode.EXPLICIT_STOCHASTIC) == (game.max_chance_outcomes() > 0)
    if game.cooperative:
        assert t.utility == GT.Utility.IDENTICAL
    if not game.perfect_information:
        assert t.information == GT.Information.IMPERFECT_INFORMATION
    assert spiel.min_utility() <= -1.0 and spiel.max_utility() >= 1.0


@pytest.mark.parametrize("game_id", GAMES)
def test_game_type_is_the_declared_one(game_id: str) -> None:
    game = boardlab.make(game_id)
    spiel = bos.load(game_id)
    t, d = spiel.get_type(), game.game_type
    assert t.dynamics.name == d.dynamics.name
    assert (t.chance_mode == GT.ChanceMode.EXPLICIT_STOCHASTIC) == (d.chance.name == "EXPLICIT")
    assert t.utility.name == d.utility.name
    perfect = d.perfect_information and d.dynamics.name == "SEQUENTIAL"
    assert (t.information == GT.Information.PERFECT_INFORMATION) == perfect
    assert (spiel.min_utility(), spiel.max_utility()) == (d.min_utility, d.max_utility)


def test_posies_is_typed_by_its_variant() -> None:
    """Posies' default game is perfect information; variant 2 (a secret colour) is not, per loaded game."""
    default = bos.load("posies").get_type()
    assert default.information == GT.Information.PERFECT_INFORMATION
    assert default.chance_mode == GT.ChanceMode.EXPLICIT_STOCHASTIC
    hidden = bos.load("posies", variant="hidden_colour")
    assert hidden.get_type().information == GT.Information.IMPERFECT_INFORMATION
    chosen = bos.load("posies", setup="alternating_choice").get_type()
    assert (chosen.information, chosen.chance_mode) == (
        GT.Information.PERFECT_INFORMATION,
        GT.ChanceMode.DETERMINISTIC,
    )
    pyspiel.random_sim_test(hidden, num_sims=2, serialize=False, verbose=False)


def test_reference_game_types() -> None:
    br = bos.load("blast-radius", board_side=5)
    assert br.num_distinct_actions() == 62 and br.get_parameters()["board_side"] == 5
    t = br.get_type()
    assert (t.dynamics, t.chance_mode, t.information, t.utility) == (
        GT.Dynamics.SEQUENTIAL,
        GT.ChanceMode.DETERMINISTIC,
        GT.Information.PERFECT_INFORMATION,
        GT.Utility.ZERO_SUM,
    )
    if "dragon-fight" in GAMES:
        assert bos.load("dragon-fight").get_type().dynamics == GT.Dynamics.SIMULTANEOUS
    if "hamlet" in GAMES:
        h = bos.load("hamlet").get_type()
        assert (h.chance_mode, h.information) == (
            GT.ChanceMode.EXPLICIT_STOCHASTIC,
            GT.Information.IMPERFECT_INFORMATION,
        )
    if "new-rule" in GAMES:
        nr = bos.load("new-rule", players=3)
        assert nr.num_players() == 3 and nr.get_type().utility == GT.Utility.IDENTICAL
    with pytest.raises(ValueError, match="board_side"):
        bos.load("blast-radius", board_side=4)


def test_states_views_and_clones() -> None:
    game = bos.load("blast-radius", board_side=5)
    s = game.new_initial_state()
    s.apply_action(30)
    inner = bos.from_spiel(s)
    assert inner.history() == [30] and s.history() == [30]
    assert json.loads(s.observation_string(1)) == inner.observation(1)
    assert s.information_state_string(0).startswith("[30]")
    tensor = np.array(s.observation_tensor(0))
    assert tensor.shape[0] > 0 and np.any(tensor != 0)
    c = s.clone()
    c.apply_action(c.legal_actions()[0])
    assert s.history() == [30] and len(c.history()) == 2  # the clone is independent
    assert s.legal_actions() == inner.legal_actions()
    assert s.action_to_string(1, 0) == inner.action_to_string(1, 0)


@pytest.mark.parametrize("game_id", GAMES)
def test_openspiel_random_simulation_checks(game_id: str) -> None:
    """OpenSpiel's own consistency checks (legal actions, chance, clones, serialisation, observations)."""
    pyspiel.random_sim_test(bos.load(game_id, **SMALL.get(game_id, {})), num_sims=1, serialize=True, verbose=False)


def test_hidden_information_stays_hidden_in_observations() -> None:
    if "hamlet" not in GAMES:
        pytest.skip("hamlet has not landed")
    game = bos.load("hamlet")
    rng = np.random.RandomState(3)
    s = game.new_initial_state()
    while not s.is_terminal():
        inner = bos.from_spiel(s)
        for p in range(2):
            assert json.loads(s.observation_string(p)) == inner.observation(p)
        actions, probs = zip(*s.chance_outcomes(), strict=True) if s.is_chance_node() else (s.legal_actions(), None)
        s.apply_action(int(rng.choice(actions, p=probs)))


MCTS_GAMES = [g for g in ("blast-radius", "hamlet") if g in GAMES]


@pytest.mark.parametrize("game_id", MCTS_GAMES)
def test_openspiel_mcts_bot_plays_full_games(game_id: str) -> None:
    """OpenSpiel's Python MCTSBot, unchanged, plays whole games through the adapter (as both seats, and vs random)."""
    game = bos.load(game_id, **SMALL.get(game_id, {}))
    rng = np.random.RandomState(7)

    def bot() -> mcts.MCTSBot:
        return mcts.MCTSBot(game, 2.0, 12, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)

    for bots in ([bot(), bot()], [bot(), UniformRandomBot(1, rng)]):
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        assert len(returns) == 2 and sum(returns) == 0 and max(returns) == 1.0
