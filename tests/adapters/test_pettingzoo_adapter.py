"""The PettingZoo adapter: PettingZoo's own API and seed checks on every registered game, and the conventions
the adapter documents (masks, chance, simultaneous moves, rewards, truncation, illegal actions)."""

from __future__ import annotations

import importlib.util
import pathlib
import warnings

import numpy as np
import pytest

import boardlab
from boardlab.core.constants import SIMULTANEOUS
from boardlab.core.errors import IllegalActionError
from boardlab.core.gametype import Dynamics

pytest.importorskip("pettingzoo")
bpz = pytest.importorskip("boardlab.adapters.pettingzoo")
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test  # noqa: E402
from pettingzoo.utils import wrappers  # noqa: E402

GAMES = boardlab.games()
SIMULTANEOUS_GAMES = [g for g in GAMES if boardlab.make(g).game_type.dynamics is Dynamics.SIMULTANEOUS]
#: Small settings keep the checks quick; other games play their defaults.
SMALL = {"blast-radius": {"board_side": 5}, "chevrons": {"board_side": 3}}
ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _quiet() -> None:
    """PettingZoo's checks warn about what its own board games do too (a Dict observation, an all-zero mask)."""
    warnings.filterwarnings("ignore", module="pettingzoo")


def small(game_id: str) -> dict:
    return SMALL.get(game_id, {})


def test_simultaneous_games_are_found() -> None:
    assert "dragon-fight" in SIMULTANEOUS_GAMES


@pytest.mark.parametrize("game_id", GAMES)
def test_pettingzoo_api_test(game_id: str) -> None:
    api_test(bpz.env(game_id, **small(game_id)), num_cycles=40)


@pytest.mark.parametrize("game_id", GAMES)
def test_pettingzoo_seed_test(game_id: str) -> None:
    seed_test(lambda: bpz.env(game_id, **small(game_id)), num_cycles=40)


@pytest.mark.parametrize("game_id", [*SIMULTANEOUS_GAMES, "hamlet"])
def test_pettingzoo_parallel_api_test(game_id: str) -> None:
    """The Parallel API on the games with simultaneous moves, and on one sequential game (one seat acts)."""
    parallel_api_test(bpz.parallel_env(game_id, **small(game_id)), num_cycles=200)
    # PettingZoo's seed check draws actions without a mask: illegal ones end the episode, as its wrapper does.
    parallel_seed_test(lambda: bpz.parallel_env(game_id, illegal_action="lose", **small(game_id)), num_cycles=50)


def random_episode(game_id: str, seed: int, check: bool = True, **kwargs) -> tuple[bpz.raw_env, dict[str, float], list]:
    """Random legal moves through the AEC API; ``check``: every observation and mask against the engine."""
    env = bpz.env(game_id, **kwargs)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.agents, 0.0)
    space = env.observation_space(env.agents[0])["observation"]
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        seat = int(agent.split("_")[1])
        state = env.game_state
        totals[agent] += reward
        if check:
            assert obs["observation"].dtype == np.float32 and obs["observation"].shape == space.shape
            assert np.array_equal(obs["observation"], np.float32(state.observation_tensor(seat)))
        if terminated or truncated:
            assert not obs["action_mask"].any()
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        if check:
            cp = state.current_player()
            assert cp == seat or (cp == SIMULTANEOUS and state.legal_actions(seat)), "a seat acts out of turn"
            assert legal == state.legal_actions(seat)
        env.step(int(rng.choice(legal)))
    return env, totals, env.game_state.history()


@pytest.mark.parametrize("game_id", GAMES)
def test_a_random_episode_respects_the_mask_and_ends_with_the_returns(game_id: str) -> None:
    env, totals, history = random_episode(game_id, 7, **small(game_id))
    state = env.game_state
    assert env.agents == []
    if state.is_terminal():
        assert list(totals.values()) == state.returns()
    else:  # stopped by the safety cap: no result
        assert state.move_number() >= env.game.max_game_length() and set(totals.values()) == {0.0}
    again = random_episode(game_id, 7, check=False, **small(game_id))[2]
    assert again == history, "the same seed must play the same episode (chance included)"
    replay = env.game.state_from_history(history, state.num_players)
    assert replay.returns() == state.returns()


def assert_observations_in_space(env: bpz.raw_env, seed: int) -> None:
    """A random episode of ``env`` in which every agent's observation, at every step, lies in its declared space."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter():
        for other in env.possible_agents:
            obs = env.observe(other)
            space = env.observation_space(other)
            assert space.contains(obs), (
                f"{other}'s observation leaves its space: {obs['observation'].min()}..{obs['observation'].max()}"
            )
        _, _, terminated, truncated, _ = env.last()
        mask = env.observe(agent)["action_mask"]
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(mask))))


@pytest.mark.parametrize("game_id", GAMES)
def test_every_observation_lies_in_the_declared_space(game_id: str) -> None:
    """Every registered game: the observation space is ``Box(0, 1)`` and every observation of random games lies in it."""
    env = bpz.env(game_id, **small(game_id))
    box = env.observation_space(env.possible_agents[0])["observation"]
    assert (float(box.low.min()), float(box.high.max())) == (0.0, 1.0) and box.is_bounded()
    for seed in (1, 2):
        assert_observations_in_space(env, seed)


@pytest.mark.parametrize(
    ("game_id", "options", "reached"),
    [
        ("radius", {}, lambda s: s.passes > 2),  # passes were divided by 2; a blocked seat may pass more often
        ("blast-radius", {"board_side": 7}, lambda s: max(s.height) > 10),  # heights were divided by 10
        ("posies", {}, lambda s: s.is_terminal() and min(s.returns()) < 0),  # returns were written as -1..1
    ],
    ids=["radius-passes", "blast-radius-7-height", "posies-returns"],
)
def test_tensors_stay_in_range_at_the_top_of_a_field(game_id: str, options: dict, reached) -> None:
    """The fields that once left 0..1: states that reach their top, found by random play, and the space holds them."""
    env = bpz.env(game_id, **options)
    for seed in range(40):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()
            if reached(env.game_state):
                break
            mask = env.observe(agent)["action_mask"]
            env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(mask))))
        if reached(env.game_state):
            break
    state = env.game_state
    assert reached(state), "no random game reached the case"
    for seat in [*range(state.num_players), None]:
        values = np.asarray(state.observation_tensor(seat))
        assert values.min() >= 0.0 and values.max() <= 1.0
    assert all(env.observation_space(a).contains(env.observe(a)) for a in env.possible_agents)


def test_chance_comes_from_the_reset_seed() -> None:
    """Ant Trails' food tiles are dealt by chance before the first move: inside reset, from its seed."""
    env = bpz.env("ant-trails")
    deals = []
    for seed in (1, 2, 1):
        env.reset(seed=seed)
        deals.append(env.game_state.history())
        assert len(deals[-1]) == 12 and env.game_state.current_player() == 0
    assert deals[0] == deals[2] != deals[1]
    env.reset()  # no seed: the generator goes on, so (almost surely) another deal
    assert env.game_state.history() != deals[2]


def test_a_co_operative_game_gives_every_seat_the_shared_return() -> None:
    env, totals, _ = random_episode("new-rule", 3, num_players=3)
    assert len(totals) == 3 and len(set(totals.values())) == 1
    assert next(iter(totals.values())) == env.game_state.returns()[0] in (1.0, -1.0)


def test_the_player_count_and_the_spaces() -> None:
    env = bpz.env("posies", num_players=3)
    env.reset(seed=0)
    assert env.agents == env.possible_agents == ["player_0", "player_1", "player_2"]
    game = boardlab.make("posies")
    space = env.observation_space("player_2")
    assert space is env.observation_space("player_2") and env.action_space("player_1") is env.action_space("player_1")
    assert space["observation"].shape == game.observation_tensor_shape(3) != game.observation_tensor_shape(2)
    assert env.action_space("player_0").n == game.num_distinct_actions()
    assert space.contains(env.observe("player_2"))
    with pytest.raises(ValueError, match="no_such_option"):
        bpz.env("posies", no_such_option=1)
    with pytest.raises(ValueError):
        bpz.env("posies", num_players=4)


def test_truncation_at_the_cap() -> None:
    env = bpz.env("blast-radius", board_side=5, max_game_length=6)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    for _agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if truncated:
            assert reward == 0.0 and not terminated
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert steps == 6 and env.game_state.move_number() == 6 and not env.game_state.is_terminal() and env.agents == []
    par = bpz.parallel_env("blast-radius", board_side=5, max_game_length=2)
    obs, _ = par.reset(seed=0)
    for _ in range(2):
        agent = f"player_{par.game_state.current_player()}"
        action = int(np.flatnonzero(obs[agent]["action_mask"])[0])
        obs, rewards, terms, truncs, _ = par.step({agent: action})
    assert all(truncs.values()) and not any(terms.values()) and set(rewards.values()) == {0.0} and par.agents == []


def test_simultaneous_choices_are_held_unseen_until_both_have_chosen() -> None:
    env = bpz.env("dragon-fight")
    env.reset(seed=0)
    assert env.agent_selection == "player_0" and env.game_state.current_player() == SIMULTANEOUS
    before = env.observe("player_1")["observation"].copy()
    env.step(5)  # forward + a hidden attack choice, held
    assert env.game_state.history() == [] and env.agent_selection == "player_1"
    assert (env.observe("player_1")["observation"] == before).all()
    assert not env.observe("player_0")["action_mask"].any(), "a seat that has chosen has nothing left to choose"
    env.step(1)
    assert env.game_state.history() == [[5, 1]]


def test_parallel_steps_take_the_deciding_seats() -> None:
    par = bpz.parallel_env("dragon-fight")
    obs, infos = par.reset(seed=0)
    assert set(obs) == set(infos) == {"player_0", "player_1"}
    with pytest.raises(IllegalActionError, match="player_1"):
        par.step({"player_0": 5})
    obs, rewards, terms, truncs, infos = par.step({"player_0": 5, "player_1": 1})
    assert par.game_state.history() == [[5, 1]] and not any(terms.values()) and not any(truncs.values())
    assert set(rewards.values()) == {0.0} and infos == {"player_0": {}, "player_1": {}}
    seq = bpz.parallel_env("hamlet", first="seat0")
    obs, _ = seq.reset(seed=0)
    seat = seq.game_state.current_player()
    other = f"player_{1 - seat}"
    assert not obs[other]["action_mask"].any() and obs[f"player_{seat}"]["action_mask"].any()
    seq.step({f"player_{seat}": 0, other: 2})  # the seat not to move: its action is ignored
    assert seq.game_state.history()[-1] == 0


def test_an_illegal_action_is_refused_or_loses() -> None:
    env = bpz.env("blast-radius", board_side=5)
    env.reset(seed=0)
    env.step(30)
    with pytest.raises(IllegalActionError) as refused:
        env.step(30)  # taken already
    assert refused.value.explanation == env.game_state.explain_illegal(1, 30)
    with pytest.raises(IllegalActionError):
        env.step(True)
    assert env.game_state.history() == [30] and env.agent_selection == "player_1"
    env.step(np.int64(0))  # numpy integers are action numbers too
    with pytest.raises(AssertionError, match="action space"):
        env.step(62)  # not an action of the game: PettingZoo's AssertOutOfBoundsWrapper
    assert env.game_state.history() == [30, 0]
    lose = bpz.env("blast-radius", board_side=5, illegal_action="lose")  # PettingZoo's TerminateIllegalWrapper
    lose.reset(seed=0)
    lose.step(30)
    lose.step(30)
    assert lose.terminations == lose.truncations == {"player_0": True, "player_1": True}
    assert lose._cumulative_rewards == {"player_0": 0.0, "player_1": -1.0}
    raw = bpz.raw_env("blast-radius", board_side=5, illegal_action="lose")  # the same convention, unwrapped
    raw.reset(seed=0)
    raw.step(30)
    raw.step(30)
    assert raw.terminations == {"player_0": True, "player_1": True} and not any(raw.truncations.values())
    assert raw._cumulative_rewards == {"player_0": 0.0, "player_1": -1.0}
    assert raw.infos["player_0"]["illegal_action"] == "player_1"


def test_env_is_wrapped_as_pettingzoos_classic_games_are() -> None:
    """``env()``: raw_env in TerminateIllegalWrapper (illegal_action="lose"), AssertOutOfBoundsWrapper and
    OrderEnforcingWrapper, innermost first, as PettingZoo's classic games build theirs."""

    def chain(e) -> list[type]:
        out = []
        while hasattr(e, "env"):
            out.append(type(e))
            e = e.env
        return [*out, type(e)]

    plain = bpz.env("blast-radius", board_side=5)
    assert chain(plain) == [wrappers.OrderEnforcingWrapper, wrappers.AssertOutOfBoundsWrapper, bpz.raw_env]
    lose = bpz.env("blast-radius", board_side=5, illegal_action="lose", illegal_reward=-2)
    assert chain(lose) == [
        wrappers.OrderEnforcingWrapper,
        wrappers.AssertOutOfBoundsWrapper,
        wrappers.TerminateIllegalWrapper,
        bpz.raw_env,
    ]
    assert isinstance(plain.unwrapped, bpz.raw_env) and plain.unwrapped.game.id == "blast-radius"
    with pytest.raises(AttributeError, match="before reset"):
        _ = plain.agent_selection
    lose.reset(seed=0)
    lose.step(30)
    lose.step(30)
    assert lose.rewards == {"player_0": 0.0, "player_1": -2.0}


def test_render_draws_the_spectators_board() -> None:
    env = bpz.env("blast-radius", board_side=5, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "a1" in text
    with pytest.raises(ValueError, match="render_mode"):
        bpz.env("blast-radius", render_mode="video")


def near(image: np.ndarray, hex_colour: str) -> int:
    """How many pixels of ``image`` have about the colour ``#rrggbb``."""
    rgb = np.array([int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)])
    return int((np.abs(image.astype(int) - rgb).sum(axis=2) < 30).sum())


def test_render_rgb_array_draws_the_board_as_an_image() -> None:
    """``render_mode="rgb_array"``: an HxWx3 uint8 image of the spectator's scene, the same size every frame."""
    for make in (bpz.env, bpz.parallel_env, bpz.raw_env):
        assert set(make("blast-radius", board_side=5).metadata["render_modes"]) == {"rgb_array", "ansi", "human"}
    env = bpz.env("blast-radius", board_side=5, render_mode="rgb_array")
    env.reset(seed=0)
    before = env.render()
    assert isinstance(before, np.ndarray) and before.dtype == np.uint8 and before.ndim == 3 and before.shape[2] == 3
    assert len(np.unique(before.reshape(-1, 3), axis=0)) > 20, "a drawing, not a blank frame"
    red = env.game_state.scene(None)["players"][0]["colour"]
    env.step(30)  # Red's first tower, in the middle of the board
    after = env.render()
    assert after.shape == before.shape
    assert near(after, red) > near(before, red) + 200, "the new tower is drawn in Red's colour"
    par = bpz.parallel_env("dragon-fight", render_mode="rgb_array")
    par.reset(seed=0)
    assert par.render().shape == before.shape


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_renders_an_image(game_id: str) -> None:
    env = bpz.env(game_id, render_mode="rgb_array", **small(game_id))
    env.reset(seed=0)
    image = env.render()
    assert image.shape == (640, 640, 3) and image.dtype == np.uint8 and image.std() > 5


def test_the_readme_example_runs() -> None:
    """docs/research/pettingzoo_random.py, the README's "For researchers" example."""
    path = ROOT / "docs" / "research" / "pettingzoo_random.py"
    spec = importlib.util.spec_from_file_location("pettingzoo_random", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    totals = module.play("hamlet", 3)
    assert sorted(totals.values()) == [-1.0, 1.0]
    assert module.play("hamlet", 3) == totals
    readme = (ROOT / "README.md").read_text()
    assert "docs/research/pettingzoo_random.py" in readme
    section = readme.split("## For researchers", 1)[1].split("\n## ", 1)[0]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    scope: dict = {}
    exec(compile(code, "README.md", "exec"), scope)  # the README's own snippet plays one game
    assert scope["e"].agents == [] and scope["e"].game_state.is_terminal()
