"""Every boardlab game as a PettingZoo environment, for multi-agent reinforcement learning.

>>> from boardlab.adapters import pettingzoo as bpz
>>> env = bpz.env("blast-radius", board_side=5)
>>> env.reset(seed=1)
>>> env.agents
['player_0', 'player_1']
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape == env.observation_space("player_0")["observation"].shape
True
>>> int(obs["action_mask"].sum())                  # every cell of the side-5 board is free
61
>>> env.step(30)
>>> env.agent_selection
'player_1'

* :func:`env` is PettingZoo's AEC API for every registered game: :class:`raw_env`
  in the wrapper stack of PettingZoo's classic games (``TerminateIllegalWrapper``
  with ``illegal_action="lose"``, then ``AssertOutOfBoundsWrapper`` and
  ``OrderEnforcingWrapper``); :func:`parallel_env` its Parallel API, meant for
  games with simultaneous moves (``game.game_type.dynamics`` is
  ``SIMULTANEOUS``: Dragon Fight, Combat, Greedy Fiefs) and accepted for every
  game.
* Agents are ``player_0`` … ``player_{n-1}``, boardlab's seats in order;
  ``num_players=`` picks the count for games with several (the game's
  default otherwise). Every other keyword is a game option.
* Spaces: ``action_space(agent)`` is ``Discrete(game.num_distinct_actions())``
  (the engine's action numbers, unchanged); ``observation_space(agent)`` is a
  ``Dict`` of ``"observation"``, a float32 ``Box(0, 1)`` of the game's fixed
  :meth:`~boardlab.core.game.Game.observation_tensor_shape` holding
  :meth:`~boardlab.core.game.State.observation_tensor` of that seat (exactly
  what the seat may know: its own hidden cards, never another's), and
  ``"action_mask"``, an int8 ``Box(0, 1)`` with 1 at each legal action
  (PettingZoo's action-mask convention). Both are the same object on every
  call. A seat not deciding now has an all-zero mask.
* Chance is the engine's explicit chance node, drawn inside the environment
  from its generator ``np_random`` (seeded by ``reset(seed=…)``), so a seed
  reproduces an episode. The agents never see a chance node.
* Simultaneous decisions in the AEC API: each seat that decides is selected
  in turn and its choice is held, unseen by the others (their observations
  are unchanged), until the last one chooses; then all are applied together.
* Rewards follow PettingZoo's board-game convention: 0 on every step, and
  the game's ``returns()`` on the step that ends it (a co-operative game's
  shared result goes to every seat). ``terminations`` become true for every
  agent when the game ends; ``truncations`` when the game reaches its safety
  cap ``game.max_game_length()`` (history entries, chance included; give
  ``max_game_length=`` to shorten it), with reward 0. Each finished agent then
  steps once with ``None`` and leaves ``agents``.
* An illegal action raises :class:`~boardlab.core.errors.IllegalActionError`
  with the engine's explanation and changes nothing (``illegal_action="raise"``,
  the default); a number outside the action space fails
  ``AssertOutOfBoundsWrapper``'s check first (an ``AssertionError``), and
  ``OrderEnforcingWrapper`` refuses a step before ``reset``.
  ``illegal_action="lose"`` is PettingZoo's ``TerminateIllegalWrapper``
  convention instead: the game ends at once, the offender gets
  ``illegal_reward`` (-1) and every other seat 0. Through :func:`env` the
  wrapper does it (every agent terminated and truncated, as PettingZoo's
  classic games end); :class:`raw_env` and :func:`parallel_env` do it
  themselves, with ``terminations`` only, and ``infos[agent]["illegal_action"]``
  naming the offender (what random-action tests without a mask need, such as
  ``parallel_seed_test``).
* Parallel API: ``step(actions)`` takes one action per seat that decides now
  (an all-zero mask means the seat's action is ignored and may be left out):
  at a simultaneous node every deciding seat, at any other node only the seat
  to move (PettingZoo's convention for turn-based games in the Parallel API).
* ``render_mode="rgb_array"`` makes :meth:`render` return the spectator's
  scene drawn as an image, an ``(640, 640, 3)`` ``uint8`` array
  (:mod:`boardlab.adapters.scene_image`, drawn as the browser draws it; the
  same size every frame, so an episode makes a video); ``"ansi"`` returns it
  as text (the terminal front-end's drawing); ``"human"`` prints that text.
  ``metadata["render_modes"]`` lists the three.
  ``reset(options=…)`` is accepted and ignored: a game's options are fixed
  when the environment is made.

``pettingzoo`` and ``gymnasium`` are optional dependencies (the ``pettingzoo``
extra: ``pip install 'boardlab[pettingzoo]'``).
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium.utils import seeding
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

import boardlab
from boardlab.core.constants import CHANCE, SIMULTANEOUS
from boardlab.core.driver import pick_chance
from boardlab.core.errors import IllegalActionError
from boardlab.core.game import Game, State

ILLEGAL_ACTIONS = ("raise", "lose")
#: ``"rgb_array"``: an image of the board; ``"ansi"``: the board as text; ``"human"``: that text printed.
RENDER_MODES = ["rgb_array", "ansi", "human"]


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def deciding_seats(state: State) -> list[int]:
    """The seats with a decision now: the seat to move, or every seat with a legal action at a simultaneous node."""
    cp = state.current_player()
    if cp >= 0:
        return [cp]
    if cp == SIMULTANEOUS:
        return [p for p in range(state.num_players) if state.legal_actions(p)]
    return []


class _Session:
    """What both APIs share: the game, the state, the seeded generator, spaces, observations and the cap."""

    def __init__(
        self,
        game_id: str,
        num_players: int | None,
        render_mode: str | None,
        max_game_length: int | None,
        illegal_action: str,
        illegal_reward: float,
        options: dict[str, Any],
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES} or None, not {render_mode!r}")
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTIONS}, not {illegal_action!r}")
        self.game: Game = boardlab.make(game_id, **options)
        n = self.game.new_initial_state(num_players).num_players
        self.num_players = n
        self.cap = self.game.max_game_length() if max_game_length is None else int(max_game_length)
        if self.cap < 1:
            raise ValueError(f"max_game_length must be at least 1, not {self.cap}")
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.possible_agents = [agent_name(p) for p in range(n)]
        self.seat_of = {a: p for p, a in enumerate(self.possible_agents)}
        size = self.game.num_distinct_actions()
        shape = self.game.observation_tensor_shape(n)
        self.observation_spaces = {
            a: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(0.0, 1.0, shape, dtype=np.float32),
                    "action_mask": gymnasium.spaces.Box(0, 1, (size,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: gymnasium.spaces.Discrete(size) for a in self.possible_agents}
        self.np_random: np.random.Generator | None = None
        self.np_random_seed: int | None = None
        self.state: State = self.game.new_initial_state(n)

    def new_episode(self, seed: int | None) -> None:
        if seed is not None or self.np_random is None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        self.state = self.game.new_initial_state(self.num_players)
        self.resolve_chance()

    def resolve_chance(self) -> None:
        """Draw chance outcomes until a seat decides, the game ends or the cap is reached."""
        s = self.state
        assert self.np_random is not None
        while s.current_player() == CHANCE and s.move_number() < self.cap:
            s.apply_action(pick_chance(s, float(self.np_random.random())))

    def truncated(self) -> bool:
        return not self.state.is_terminal() and self.state.move_number() >= self.cap

    def mask(self, seat: int, deciding: list[int]) -> np.ndarray:
        m = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        if seat in deciding:
            m[self.state.legal_actions(seat)] = 1
        return m

    def observe(self, seat: int, deciding: list[int]) -> dict[str, np.ndarray]:
        return {
            "observation": np.asarray(self.state.observation_tensor(seat), dtype=np.float32),
            "action_mask": self.mask(seat, deciding),
        }

    def check(self, seat: int, action: Any) -> int:
        """``action`` as an engine action number, or :class:`IllegalActionError` (nothing changed)."""
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise IllegalActionError(f"{action!r} is not an action number", player=seat, action=action)
        a = int(action)
        if a not in self.state.legal_actions(seat):
            raise IllegalActionError(self.state.explain_illegal(seat, a), player=seat, action=a)
        return a

    def render(self) -> np.ndarray | str | None:
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() was called without a render_mode; give render_mode='rgb_array', 'ansi' or 'human'"
            )
            return None
        scene = self.state.scene(None)
        if self.render_mode == "rgb_array":
            from .scene_image import scene_image  # matplotlib, loaded only when an image is asked for

            return scene_image(scene)
        from boardlab.terminal import scene_text

        text = scene_text(scene)
        if self.render_mode == "human":
            print(text)
            return None
        return text


class _OverSession:
    """What the AEC and the Parallel environments share: one :class:`_Session`, its spaces, game and renderer."""

    metadata: ClassVar[dict[str, Any]]
    _s: _Session

    def _open(self, session: _Session) -> None:
        self._s = session
        self.metadata = dict(self.metadata, name=f"boardlab_{session.game.id.replace('-', '_')}")
        self.render_mode = session.render_mode
        self.possible_agents = list(session.possible_agents)
        self.agents = list(self.possible_agents)

    # -- spaces -----------------------------------------------------------------
    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self._s.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self._s.action_spaces[agent]

    @property
    def game(self) -> Game:
        return self._s.game

    @property
    def game_state(self) -> State:
        """The engine's state of the episode (read it, do not change it). PettingZoo's global ``state()`` is
        not offered: a hidden-information game has no tensor of everything, only each seat's."""
        return self._s.state

    @property
    def np_random(self) -> np.random.Generator:
        assert self._s.np_random is not None
        return self._s.np_random

    def render(self) -> np.ndarray | str | None:
        return self._s.render()

    def close(self) -> None:
        pass


class raw_env(_OverSession, AECEnv):
    """PettingZoo's AEC API over one boardlab game (see the module's description)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": RENDER_MODES,
        "render_fps": 1,
        "name": "boardlab",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game_id: str,
        num_players: int | None = None,
        render_mode: str | None = None,
        max_game_length: int | None = None,
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
        **options: Any,
    ) -> None:
        super().__init__()
        self._open(
            _Session(game_id, num_players, render_mode, max_game_length, illegal_action, illegal_reward, options)
        )
        self._pending: dict[int, int] = {}
        self._begin({})

    # -- episode ----------------------------------------------------------------
    def _begin(self, infos: dict[str, dict[str, Any]]) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: dict(infos.get(a, {})) for a in self.agents}
        self._pending = {}
        self.agent_selection = self.agents[0]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._s.new_episode(seed)
        self._begin({})
        self._after_move()

    def _deciding(self) -> list[int]:
        """Seats still to choose now (at a simultaneous node: those without a held choice)."""
        return [p for p in deciding_seats(self._s.state) if p not in self._pending]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self._s.observe(self._s.seat_of[agent], self._deciding())

    def _after_move(self) -> None:
        """Resolve chance, then select the next seat to choose, or end the episode."""
        s = self._s
        s.resolve_chance()
        if s.state.is_terminal():
            for a, r in zip(self.agents, s.state.returns(), strict=True):
                self.rewards[a] = float(r)
                self.terminations[a] = True
        elif s.truncated():
            for a in self.agents:
                self.truncations[a] = True
        else:
            self.agent_selection = agent_name(self._deciding()[0])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        s = self._s
        seat = s.seat_of[agent]
        try:
            a = s.check(seat, action)
        except IllegalActionError:
            if s.illegal_action == "raise":
                raise  # nothing changed
            a = None
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if a is None:
            self._lose(seat)
            return
        if s.state.current_player() == SIMULTANEOUS:
            self._pending[seat] = a
            if self._deciding():
                self.agent_selection = agent_name(self._deciding()[0])
                return
            joint = [self._pending.get(p) for p in range(s.num_players)]
            self._pending = {}
            s.state.apply_actions(joint)
        else:
            s.state.apply_action(a)
        self._after_move()
        self._accumulate_rewards()

    def _lose(self, seat: int) -> None:
        """PettingZoo's TerminateIllegalWrapper convention: the offender gets ``illegal_reward``, the game ends."""
        for a in self.agents:
            self.rewards[a] = self._s.illegal_reward if self._s.seat_of[a] == seat else 0.0
            self.terminations[a] = True
            self.infos[a]["illegal_action"] = agent_name(seat)
        self._pending = {}
        self._accumulate_rewards()


def env(game_id: str, **kwargs: Any) -> AECEnv:
    """The AEC environment of ``game_id`` (keywords: ``num_players``, ``render_mode``, ``max_game_length``,
    ``illegal_action``, ``illegal_reward``, and the game's options), in the wrappers of PettingZoo's classic games.

    :class:`raw_env` wrapped, innermost first, in ``TerminateIllegalWrapper(illegal_reward)`` (only with
    ``illegal_action="lose"``: with the default ``"raise"`` the environment refuses an illegal action itself),
    ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``. ``env(...).unwrapped`` is the :class:`raw_env`.
    """
    e: AECEnv = raw_env(game_id, **kwargs)
    session = e._s
    if session.illegal_action == "lose":
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=session.illegal_reward)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class parallel_env(_OverSession, ParallelEnv):
    """PettingZoo's Parallel API over one boardlab game (see the module's description)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": RENDER_MODES, "render_fps": 1, "name": "boardlab"}

    def __init__(
        self,
        game_id: str,
        num_players: int | None = None,
        render_mode: str | None = None,
        max_game_length: int | None = None,
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
        **options: Any,
    ) -> None:
        self._open(
            _Session(game_id, num_players, render_mode, max_game_length, illegal_action, illegal_reward, options)
        )

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        deciding = deciding_seats(self._s.state)
        return {a: self._s.observe(self._s.seat_of[a], deciding) for a in self.agents}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self._s.new_episode(seed)
        self.agents = list(self.possible_agents)
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        s = self._s
        if not self.agents:
            raise IllegalActionError("the episode is over: call reset()")
        deciding = deciding_seats(s.state)
        missing = [agent_name(p) for p in deciding if agent_name(p) not in actions]
        if missing:
            raise IllegalActionError(f"no action given for {', '.join(missing)}, who must decide now")
        unknown = sorted(set(actions) - set(self.agents))
        if unknown:
            raise IllegalActionError(f"no such agent in this episode: {', '.join(map(str, unknown))}")
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        rewards = dict.fromkeys(self.agents, 0.0)
        try:
            chosen = {p: s.check(p, actions[agent_name(p)]) for p in deciding}
        except IllegalActionError as e:
            if s.illegal_action == "raise":
                raise
            offender = agent_name(e.player) if isinstance(e.player, int) else agent_name(deciding[0])
            for a in self.agents:
                rewards[a] = s.illegal_reward if a == offender else 0.0
                infos[a]["illegal_action"] = offender
            return self._finish(rewards, True, False, infos)
        if s.state.current_player() == SIMULTANEOUS:
            s.state.apply_actions([chosen.get(p) for p in range(s.num_players)])
        else:
            s.state.apply_action(chosen[deciding[0]])
        s.resolve_chance()
        if s.state.is_terminal():
            rewards = {a: float(r) for a, r in zip(self.agents, s.state.returns(), strict=True)}
            return self._finish(rewards, True, False, infos)
        if s.truncated():
            return self._finish(rewards, False, True, infos)
        observations = self._observations()
        return observations, rewards, dict.fromkeys(self.agents, False), dict.fromkeys(self.agents, False), infos

    def _finish(self, rewards: dict, terminated: bool, truncated: bool, infos: dict) -> tuple:
        observations = self._observations()
        terms = dict.fromkeys(self.agents, terminated)
        truncs = dict.fromkeys(self.agents, truncated)
        self.agents = []
        return observations, rewards, terms, truncs, infos
