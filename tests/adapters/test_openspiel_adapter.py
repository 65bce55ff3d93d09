"""The OpenSpiel adapter: every boardlab game is a pyspiel game, and OpenSpiel's own algorithms play it."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

import boardlab
from boardlab.core.errors import IllegalActionError

pyspiel = pytest.importorskip("pyspiel")
bos = pytest.importorskip("boardlab.adapters.openspiel")
from open_spiel.python.algorithms import cfr, evaluate_bots, exploitability, ismcts, mcts  # noqa: E402
from open_spiel.python.bots.uniform_random import UniformRandomBot  # noqa: E402

from adapters import kuhn  # noqa: E402  (registers the tests' own Kuhn poker)

GT = pyspiel.GameType
GAMES = boardlab.games()
#: Smaller settings keep each case to about a second; games without them play their defaults.
SMALL: dict[str, dict] = {
    "blast-radius": {"board_side": 5},
    "greedy-fiefs": {"turn_limit": 60},
    "elephant-monkey-mice": {"turn_limit": 100},
    "triad": {"turn_cap": 40},
    "mata-mosca": {"turn_limit": 100},
    "flock-of-sheep": {"board_lines": 13, "move_limit": 100},
}
#: Every configuration with hidden information: the imperfect-information games, and hidden variants.
HIDDEN = [(g, SMALL.get(g, {})) for g in GAMES if not boardlab.make(g).perfect_information] + [
    ("posies", {"variant": "hidden_colour"}),
    ("kasta", {"hidden_hands": True}),
]
#: ISMCTSBot's games: the sequential ones with hidden information, and the simultaneous ones in turn-based form.
SEQUENTIAL_HIDDEN = [
    (g, o if boardlab.make(g, **o).game_type.dynamics.name == "SEQUENTIAL" else {**o, "turn_based": True})
    for g, o in HIDDEN
]
SIMULTANEOUS = [g for g in GAMES if boardlab.make(g).game_type.dynamics.name == "SIMULTANEOUS"]


def random_play(state: pyspiel.State, rng: np.random.RandomState, plies: int) -> pyspiel.State:
    """``plies`` random steps through OpenSpiel's API (or to the end)."""
    for _ in range(plies):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        elif state.is_simultaneous_node():
            state.apply_actions([int(rng.choice(state.legal_actions(p))) for p in range(state.num_players())])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_every_game_is_registered() -> None:
    names = {g.short_name for g in pyspiel.registered_games()}
    for game_id in GAMES:
        assert bos.short_name(game_id) in names
    assert bos.short_name("blast-radius") == "boardlab_blast_radius"
    assert len(GAMES) >= 25


@pytest.mark.parametrize("game_id", GAMES)
def test_game_type_is_the_declared_one(game_id: str) -> None:
    game = boardlab.make(game_id)
    spiel = bos.load(game_id)
    t, d = spiel.get_type(), game.game_type
    assert spiel.num_distinct_actions() == game.num_distinct_actions()
    assert spiel.max_game_length() == game.max_game_length()
    assert spiel.num_players() == (game.default_players or game.min_players)
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
    assert bos.load("dragon-fight").get_type().dynamics == GT.Dynamics.SIMULTANEOUS
    h = bos.load("hamlet").get_type()
    assert (h.chance_mode, h.information) == (GT.ChanceMode.EXPLICIT_STOCHASTIC, GT.Information.IMPERFECT_INFORMATION)
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
    assert s.information_state_string(0) == "seat 0\n[30]"  # perfect information: the history is the state
    c = s.clone()
    c.apply_action(c.legal_actions()[0])
    assert s.history() == [30] and len(c.history()) == 2  # the clone is independent
    assert s.legal_actions() == inner.legal_actions() == s.legal_actions(1) and s.legal_actions(0) == []
    assert s.action_to_string(1, 0) == inner.action_to_string(1, 0)
    with pytest.raises(IllegalActionError, match="e5 is not legal: that hex holds your opponent's tower"):
        s.apply_action(30)  # refused with the game's explanation, and nothing changed
    assert s.history() == [30] and bos.from_spiel(s).history() == [30]


def test_an_illegal_move_is_refused_and_changes_nothing_in_a_hidden_game() -> None:
    game = bos.load(kuhn.KuhnGame.id)
    s = game.new_initial_state()
    s.apply_action(2)
    s.information_state_string(0)  # the adapter now keeps each entry's view beside the state
    with pytest.raises(IllegalActionError, match="not a possible chance outcome"):
        s.apply_action(2)  # that card is already dealt
    s.apply_action(0)
    assert s.history() == [2, 0] and s.information_state_string(1).splitlines()[1:3] == [
        "-1 (False, 'dealt a card to Red')",
        "-1 (True, 'dealt the Jack to Blue')",
    ]


@pytest.mark.parametrize("game_id", GAMES)
def test_openspiel_random_simulation_checks(game_id: str) -> None:
    """OpenSpiel's own consistency checks (legal actions, chance, clones, serialisation, observations)."""
    pyspiel.random_sim_test(bos.load(game_id, **SMALL.get(game_id, {})), num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(("game_id", "options"), HIDDEN[len(HIDDEN) - 2 :])
def test_openspiel_random_simulation_checks_hidden_variants(game_id: str, options: dict) -> None:
    pyspiel.random_sim_test(bos.load(game_id, **options), num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("game_id", SIMULTANEOUS)
def test_simultaneous_games_in_turn_based_form(game_id: str) -> None:
    """``turn_based=True``: one decision per seat, in seat order, each seat blind to the earlier choices."""
    game = bos.load(game_id, turn_based=True, **SMALL.get(game_id, {}))
    assert game.get_type().dynamics == GT.Dynamics.SEQUENTIAL
    assert game.get_type().information == GT.Information.IMPERFECT_INFORMATION
    assert bos.load(game_id).get_type().dynamics == GT.Dynamics.SIMULTANEOUS  # the default is unchanged
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    s = game.new_initial_state()
    rng = np.random.RandomState(4)
    while not s.boardlab_state.is_simultaneous_node():
        random_play(s, rng, 1)
    before = s.boardlab_state.history()
    first = s.legal_actions(0)[-1]
    s.apply_action(first)
    assert s.current_player() == 1 and s.boardlab_state.history() == before  # not applied until all chose
    assert f"mine: {first}" in s.information_state_string(0)
    assert s.information_state_string(1).endswith("chosen: 1; mine: None")  # Blue does not see Red's choice
    world = s.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(9, 0.0, 1.0))
    assert world.information_state_string(1) == s.information_state_string(1)
    s.apply_action(s.legal_actions(1)[0])
    assert len(s.boardlab_state.history()) == len(before) + 1
    assert s.boardlab_state.history()[-1][0] in (first, None)  # seat 0's part (None where it had to pass)


@pytest.mark.parametrize("game_id", SIMULTANEOUS)
def test_flat_joint_actions_at_simultaneous_nodes(game_id: str) -> None:
    """OpenSpiel's convention: at a simultaneous node ``legal_actions()`` lists the flat joint actions (mixed radix
    over each seat's legal actions, seat 0 the lowest digit), and ``apply_action`` takes one as that joint action."""
    game = bos.load(game_id, **SMALL.get(game_id, {}))
    s = game.new_initial_state()
    rng = np.random.RandomState(3)
    nodes = 0
    while not s.is_terminal() and nodes < 4 and s.move_number() < 400:
        if not s.is_simultaneous_node():
            random_play(s, rng, 1)
            continue
        nodes += 1
        seats = [s.legal_actions(p) for p in range(s.num_players())]
        count = int(np.prod([len(a) for a in seats]))
        assert s.legal_actions() == list(range(count))
        # seat 0's choice varies fastest: the product of the seats' lists, last seat first, each tuple reversed
        joints = [list(reversed(j)) for j in itertools.product(*reversed(seats))] if count <= 5000 else None
        flat = int(rng.randint(count))
        joint = joints[flat] if joints else s.flat_joint_action_to_actions(flat)
        assert s.flat_joint_action_to_actions(flat) == joint
        sim = pyspiel.PlayerId.SIMULTANEOUS
        assert (
            s.action_to_string(sim, flat)
            == "[" + ", ".join(s.action_to_string(p, a) for p, a in enumerate(joint)) + "]"
        )
        by_joint, by_flat = s.clone(), s.clone()
        by_joint.apply_actions(joint)
        by_flat.apply_action(flat)
        assert by_flat.history() == by_joint.history()  # each seat's action, not the flat number
        assert bos.from_spiel(by_flat).history() == bos.from_spiel(by_joint).history()
        assert bos.from_spiel(s.child(flat)).history() == bos.from_spiel(by_joint).history()  # OpenSpiel's C++ path
        before = bos.from_spiel(s).history()
        with pytest.raises(IllegalActionError, match="joint action"):
            s.apply_action(count)
        assert bos.from_spiel(s).history() == before and s.legal_actions() == list(range(count))
        s = by_flat
    assert nodes > 0, f"{game_id}: no simultaneous node reached"


@pytest.mark.parametrize("game_id", GAMES)
def test_observation_tensor_is_the_games_own(game_id: str) -> None:
    """OpenSpiel's observation tensor is the game's own: the same numbers, of the game's shape."""
    options = SMALL.get(game_id, {})
    game, spiel = boardlab.make(game_id, **options), bos.load(game_id, **options)
    assert spiel.get_type().provides_observation_tensor
    assert tuple(spiel.observation_tensor_shape()) == game.observation_tensor_shape(spiel.num_players())
    s = random_play(spiel.new_initial_state(), np.random.RandomState(1), 12)
    for p in range(spiel.num_players()):
        assert s.observation_tensor(p) == pytest.approx(s.boardlab_state.observation_tensor(p))


def test_tensors_of_a_game_with_one() -> None:
    """Kuhn poker (the tests' own) writes a tensor: observation and information-state tensors through OpenSpiel."""
    game = bos.load(kuhn.KuhnGame.id)
    t = game.get_type()
    assert t.provides_observation_tensor and t.provides_information_state_tensor
    assert game.observation_tensor_shape() == [9]
    assert game.information_state_tensor_shape() == [9 + 5 * 2]  # + one row per own decision
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    s = game.new_initial_state()
    for a in (2, 0, 0, 1):  # Red holds the King, Blue the Jack; Red passes, Blue bets
        s.apply_action(a)
    assert s.observation_tensor(0) == [0, 0, 1, 1, 0, 0, 1, 0, 0]
    assert s.observation_tensor(1)[:3] == [1, 0, 0]  # each seat sees its own card only
    info = s.information_state_tensor(0)
    assert info[:9] == s.observation_tensor(0) and info[9:11] == [1, 0] and sum(info[11:]) == 0
    assert bos.load("hamlet").get_type().provides_information_state_tensor  # every game has a tensor now


@pytest.mark.parametrize(("game_id", "options"), HIDDEN)
def test_resample_from_infostate_keeps_what_the_seat_knows(game_id: str, options: dict) -> None:
    """OpenSpiel's resample gives a world with the same information state, drawn from the sampler's numbers."""
    game = bos.load(game_id, **options)
    rng = np.random.RandomState(5)
    s = game.new_initial_state()
    checked = 0
    for _ in range(60):
        if s.is_terminal():
            break
        seat = checked % s.num_players()
        if not s.is_chance_node() and checked < 4:
            before = s.information_state_string(seat)
            worlds = [s.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(k, 0.0, 1.0)) for k in (1, 1)]
            for w in worlds:
                assert isinstance(w, bos.BoardlabSpielState) and w.history() == bos.spiel_history(w.boardlab_state)
                assert w.information_state_string(seat) == before
                assert w.legal_actions(seat) == s.legal_actions(seat)
            assert worlds[0].history() == worlds[1].history()  # the same sampler's numbers: the same world
            assert s.information_state_string(seat) == before  # this state is unchanged
            checked += 1
        random_play(s, rng, 5)
    assert checked > 0


def test_information_state_strings_are_perfect_recall() -> None:
    """A seat's later information state extends its earlier one; the other seat's hidden draws change nothing."""
    game = bos.load("hamlet", first="seat0")
    rng = np.random.RandomState(2)
    s = game.new_initial_state()
    earlier: list[str] = []
    while not s.is_terminal():
        if not s.is_chance_node():
            text = s.information_state_string(0)
            assert all(text.startswith(e.rsplit("\n", 1)[0]) for e in earlier)
            earlier.append(text)
        random_play(s, rng, 1)
    # Two deals that differ only in the card Blue holds look the same to Red.
    a, b = game.new_initial_state(), game.new_initial_state()
    a.apply_action(0), b.apply_action(0)
    second = [x for x, _ in a.chance_outcomes()]
    a.apply_action(second[0]), b.apply_action(second[1])
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_string(1) != b.information_state_string(1)


#: MCTSBot searches the true state, so it applies to sequential perfect-information games (ISMCTSBot: the rest).
MCTS_GAMES = [
    g
    for g in GAMES
    if boardlab.make(g).perfect_information and boardlab.make(g).game_type.dynamics.name == "SEQUENTIAL"
]


@pytest.mark.parametrize("game_id", MCTS_GAMES)
def test_openspiel_mcts_bot_plays_every_sequential_game(game_id: str) -> None:
    """OpenSpiel's Python MCTSBot, unchanged, makes the first decisions of a game through the adapter (random
    play finishes it: a whole game of searches is minutes in the longest games)."""
    game = bos.load(game_id, **SMALL.get(game_id, {}))
    rng = np.random.RandomState(7)
    bot = mcts.MCTSBot(game, 2.0, 4, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    s = game.new_initial_state()
    searched = 0
    while not s.is_terminal():
        if searched < 4 and s.current_player() == 0:
            action = bot.step(s)
            assert action in s.legal_actions()
            s.apply_action(action)
            searched += 1
        else:
            random_play(s, rng, 1)
    assert searched == 4 or s.is_terminal()
    assert game.min_utility() <= min(s.returns()) <= max(s.returns()) <= game.max_utility()


def test_openspiel_mcts_bot_beats_random_at_blast_radius() -> None:
    game = bos.load("blast-radius", board_side=5)
    rng = np.random.RandomState(7)
    bot = mcts.MCTSBot(game, 2.0, 30, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    wins = 0
    for seat in (0, 1):
        bots = [UniformRandomBot(1 - seat, rng)]
        bots.insert(seat, bot)
        wins += evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)[seat] > 0
    assert wins == 2


def play_with_ismcts(
    game: pyspiel.Game, seat: int, rng: np.random.RandomState, sims: int, decisions: int | None = None
) -> list[float]:
    """One game: ``ISMCTSBot`` in ``seat`` (for its first ``decisions``, default all), random play elsewhere.

    ``evaluate_bots`` needs ``restart_at``, which OpenSpiel's Python ISMCTSBot lacks, so the loop is here."""
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, sims, random_state=rng)
    bot.set_resampler(bos.ismcts_resampler(rng))  # seeded: the game repeats exactly
    s = game.new_initial_state()
    searched = 0
    while not s.is_terminal():
        if s.current_player() == seat and (decisions is None or searched < decisions):
            action = bot.step(s)
            assert action in s.legal_actions()
            s.apply_action(action)
            searched += 1
        else:
            random_play(s, rng, 1)
    return s.returns()


@pytest.mark.parametrize(("game_id", "options"), SEQUENTIAL_HIDDEN)
def test_openspiel_ismcts_bot_plays_every_hidden_game(game_id: str, options: dict) -> None:
    """OpenSpiel's ISMCTSBot (which resamples the world through the adapter every simulation) plays each seat's
    first decisions of a game (random play finishes it; whole games: the slow test below); simultaneous games
    in their turn-based form."""
    game = bos.load(game_id, **options)
    rng = np.random.RandomState(3)
    for seat in range(2):
        returns = play_with_ismcts(game, seat, rng, sims=3, decisions=4)
        assert len(returns) == game.num_players()


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "options"), SEQUENTIAL_HIDDEN)
def test_openspiel_ismcts_bot_plays_whole_hidden_games(game_id: str, options: dict) -> None:
    """ISMCTSBot searches every decision of its seat in two whole games (up to a minute for Kasta's hidden hands)."""
    game = bos.load(game_id, **options)
    rng = np.random.RandomState(3)
    for seat in range(2):
        assert len(play_with_ismcts(game, seat, rng, sims=3)) == game.num_players()


def test_openspiel_ismcts_bot_beats_random_at_hamlet() -> None:
    game = bos.load("hamlet")
    rng = np.random.RandomState(11)
    wins = sum(play_with_ismcts(game, k % 2, rng, sims=20)[k % 2] > 0 for k in range(40))
    # Random play wins about 20 of 40; the search (20 simulations a move) won 26 with this seed, 30-33 with
    # seeds 1-5. Seeded (the bot's resampler too), so the games repeat exactly.
    assert wins >= 24


def test_openspiel_cfr_through_the_adapter_solves_kuhn_poker_exactly() -> None:
    """CFR needs exactly right information states: through the adapter it matches OpenSpiel's own Kuhn poker,
    iteration for iteration, and approaches the game's value of -1/18 for the first player."""
    ours, theirs = bos.load(kuhn.KuhnGame.id), pyspiel.load_game("kuhn_poker")
    solvers = [cfr.CFRSolver(ours), cfr.CFRSolver(theirs)]
    assert len(solvers[0].current_policy().state_lookup) == len(solvers[1].current_policy().state_lookup) == 12
    for _ in range(30):
        for solver in solvers:
            solver.evaluate_and_update_policy()
    gaps = [exploitability.exploitability(g, s.average_policy()) for g, s in zip((ours, theirs), solvers, strict=True)]
    assert gaps[0] == pytest.approx(gaps[1], abs=1e-12) and gaps[0] < 0.03
