"""Every boardlab game as an OpenSpiel (``pyspiel``) Python game, so OpenSpiel's algorithms run on it.

>>> from boardlab.adapters import openspiel as bos
>>> game = bos.load("blast-radius", board_side=5)            # a pyspiel.Game
>>> state = game.new_initial_state()
>>> state.legal_actions()[:3]
[0, 1, 2]

Each game registers under the short name ``boardlab_<id>`` (dashes become
underscores), with the game's options and ``players`` as OpenSpiel game
parameters (``pyspiel.load_game("boardlab_blast_radius", {"board_side": 5})``).

The OpenSpiel description is the game's declared
:class:`~boardlab.core.gametype.GameType`, resolved for the options of each
loaded game (nothing is guessed by playing):

* *dynamics*: ``SIMULTANEOUS`` or ``SEQUENTIAL`` as declared. At a
  simultaneous node a seat with nothing to decide has the single legal
  action ``0``, read as "pass" (OpenSpiel wants one action per seat).
* *chance mode*: ``EXPLICIT_STOCHASTIC`` for declared chance, else ``DETERMINISTIC``.
* *information*: ``PERFECT_INFORMATION`` for a sequential game typed perfect
  information, else ``IMPERFECT_INFORMATION`` (seats at a simultaneous node
  decide without seeing each other's choice).
* *utility*, ``min_utility``, ``max_utility`` and ``utility_sum``: as declared
  (``IDENTICAL`` for co-operative games).
* *observations*: the observation string is the seat's boardlab observation
  as canonical JSON (``player=None`` views give the spectator's); the
  information-state string is the sequence of distinct observations the seat
  has had (perfect recall), or simply the history and the observation in a
  perfect-information game; the tensor is the observation's numeric leaves in
  order (booleans as 0/1) when their number is the same in every position
  seen in a few seeded random games (a measurement of the observation's
  shape, which holds for fixed boards); strings stay in the string form.

Games are registered on import of this module (:func:`register_all`); later
games are picked up by calling it again. ``pyspiel`` is an optional dependency
(the ``openspiel`` extra).
"""

from __future__ import annotations

import copy
import json
import random
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pyspiel

import boardlab
from boardlab.core.constants import CHANCE, SIMULTANEOUS
from boardlab.core.driver import apply_entry, next_decision, replay
from boardlab.core.game import Game, HistoryEntry, State
from boardlab.core.gametype import Chance, Dynamics, Utility
from boardlab.core.play import sample_chance

_SHAPE_GAMES = 8
_SHAPE_SECONDS = 0.1  # per game: measuring stops here once 3 games are done
_SHAPE_SEED = 20240601
_GT = pyspiel.GameType
_DYNAMICS = {Dynamics.SEQUENTIAL: _GT.Dynamics.SEQUENTIAL, Dynamics.SIMULTANEOUS: _GT.Dynamics.SIMULTANEOUS}
_CHANCE = {Chance.NONE: _GT.ChanceMode.DETERMINISTIC, Chance.EXPLICIT: _GT.ChanceMode.EXPLICIT_STOCHASTIC}
_UTILITY = {
    Utility.ZERO_SUM: _GT.Utility.ZERO_SUM,
    Utility.CONSTANT_SUM: _GT.Utility.CONSTANT_SUM,
    Utility.GENERAL_SUM: _GT.Utility.GENERAL_SUM,
    Utility.IDENTICAL: _GT.Utility.IDENTICAL,
}


def short_name(game_id: str) -> str:
    """The OpenSpiel short name of a boardlab game: ``blast-radius`` → ``boardlab_blast_radius``."""
    return "boardlab_" + game_id.replace("-", "_")


def _leaves(obs: Any) -> Iterator[float]:
    """Numeric leaves of a JSON observation, depth first, keys sorted; strings and None skipped."""
    if isinstance(obs, bool):
        yield 1.0 if obs else 0.0
    elif isinstance(obs, int | float):
        yield float(obs)
    elif isinstance(obs, dict):
        for k in sorted(obs):
            yield from _leaves(obs[k])
    elif isinstance(obs, list | tuple):
        for v in obs:
            yield from _leaves(v)


def tensor_size(game: Game, games: int = _SHAPE_GAMES, seed: int = _SHAPE_SEED) -> int | None:
    """The number of numeric leaves of every observation in seeded random games, if it never changes."""
    rng = random.Random(seed)
    deadline = time.perf_counter() + _SHAPE_SECONDS
    sizes: set[int] = set()
    counts = list(range(game.min_players, game.max_players + 1))
    for i in range(games):
        if i >= 3 and time.perf_counter() > deadline:
            break
        s = game.new_initial_state(counts[i % len(counts)])
        cap = game.max_game_length()
        k = 0
        while not s.is_terminal() and s.move_number() < cap:
            cp = s.current_player()
            if k % 7 == 0:
                sizes.update(sum(1 for _ in _leaves(s.observation(p))) for p in range(s.num_players))
            if cp == CHANCE:
                s.apply_action(sample_chance(s, rng))
            elif cp == SIMULTANEOUS:
                s.apply_actions(
                    [rng.choice(legal) if (legal := s.legal_actions(p)) else None for p in range(s.num_players)]
                )
            else:
                s.apply_action(rng.choice(s.legal_actions()))
            k += 1
        sizes.update(sum(1 for _ in _leaves(s.observation(p))) for p in range(s.num_players))
        if len(sizes) > 1:
            return None
    return next(iter(sizes)) if len(sizes) == 1 else None


def game_type(game: Game, tensor: int | None) -> pyspiel.GameType:
    """The OpenSpiel ``GameType`` of a boardlab game: its declared type (see the module documentation)."""
    t = game.game_type
    perfect = t.perfect_information and t.dynamics is Dynamics.SEQUENTIAL
    spec: dict[str, Any] = {o.name: o.default for o in game.options}
    spec["players"] = game.default_players or game.min_players
    return _GT(
        short_name=short_name(game.id),
        long_name=f"boardlab {game.title}",
        dynamics=_DYNAMICS[t.dynamics],
        chance_mode=_CHANCE[t.chance],
        information=_GT.Information.PERFECT_INFORMATION if perfect else _GT.Information.IMPERFECT_INFORMATION,
        utility=_UTILITY[t.utility],
        reward_model=_GT.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=tensor is not None,
        parameter_specification=spec,
    )


class _Holder:
    """Holds the boardlab state inside the pyspiel state; OpenSpiel's clone deep-copies
    attributes one by one, and this turns that into the game's fast ``clone()``."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Holder:
        return _Holder(self.state.clone())


class BoardlabSpielGame(pyspiel.Game):
    """A boardlab game seen by OpenSpiel. Subclassed per game by :func:`register`."""

    boardlab_id: str = ""
    tensor_size: int | None
    default_params: dict[str, Any]
    spiel_type: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = params.pop("players", None)
        self.boardlab_game = boardlab.make(self.boardlab_id, **params)
        self.num_seats = self.boardlab_game.resolve_num_players(None if players is None else int(players))
        g = self.boardlab_game
        # The type follows this instance's options (a variant may hide information); so may the tensor shape.
        if g.params != self.default_params:
            key = (self.boardlab_id, json.dumps(g.params, sort_keys=True))
            if key not in _instance_tensor_sizes:
                _instance_tensor_sizes[key] = tensor_size(g)
            self.tensor_size = _instance_tensor_sizes[key]
        t = g.game_type
        info = pyspiel.GameInfo(
            num_distinct_actions=g.num_distinct_actions(),
            max_chance_outcomes=g.max_chance_outcomes(),
            num_players=self.num_seats,
            min_utility=t.min_utility,
            max_utility=t.max_utility,
            utility_sum=t.utility_sum,
            max_game_length=g.max_game_length(),
        )
        full = {o.name: o.default for o in g.options}
        full.update(g.params)
        full["players"] = self.num_seats
        super().__init__(game_type(g, self.tensor_size), info, full)

    def new_initial_state(self) -> BoardlabSpielState:
        return BoardlabSpielState(self, self.boardlab_game.new_initial_state(self.num_seats))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(self, iig_obs_type, params)


class BoardlabSpielState(pyspiel.State):
    """A boardlab state seen by OpenSpiel; ``boardlab_state`` is the state itself."""

    def __init__(self, game: BoardlabSpielGame, state: State) -> None:
        super().__init__(game)
        self._box = _Holder(state)

    @property
    def boardlab_state(self) -> State:
        return self._box.state

    def current_player(self) -> int:
        cp = self._box.state.current_player()
        if cp >= 0:
            return cp
        if cp == CHANCE:
            return pyspiel.PlayerId.CHANCE
        if cp == SIMULTANEOUS:
            return pyspiel.PlayerId.SIMULTANEOUS
        return pyspiel.PlayerId.TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        s = self._box.state
        if s.current_player() == SIMULTANEOUS:
            return s.legal_actions(player) or [0]  # 0 is "pass" for a seat with nothing to decide
        return s.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._box.state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        apply_entry(self._box.state, int(action))

    def _apply_actions(self, actions: list[int]) -> None:
        s = self._box.state
        deciding = next_decision(s).seats  # a seat with nothing to decide sent the "pass" action 0
        apply_entry(s, [int(a) if p in deciding else None for p, a in enumerate(actions)])

    def _action_to_string(self, player: int, action: int) -> str:
        s = self._box.state
        if player >= 0 and s.current_player() == SIMULTANEOUS and not s.legal_actions(player):
            return "pass"
        return s.action_to_string(player, int(action))

    def is_terminal(self) -> bool:
        return self._box.state.is_terminal()

    def returns(self) -> list[float]:
        return [float(r) for r in self._box.state.returns()]

    def __str__(self) -> str:
        return json.dumps(self._box.state.observation(None), sort_keys=True)


class Observer:
    """OpenSpiel's PyObserver interface over boardlab observations (see the module documentation)."""

    def __init__(self, game: BoardlabSpielGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info
        self.public = bool(iig_obs_type.public_info)
        size = game.tensor_size
        if size is not None and not self.perfect_recall and self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            self.tensor: np.ndarray | None = np.zeros(size, np.float32)
            self.dict: dict[str, np.ndarray] = {"observation": self.tensor}
        else:
            self.tensor = None
            self.dict = {}

    def _view(self, state: State, player: int) -> Any:
        if self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return state.observation(player)
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            return [state.observation(p) for p in range(state.num_players)]
        return state.observation(None)

    def set_from(self, state: BoardlabSpielState, player: int) -> None:
        if self.tensor is None:
            return
        values = list(_leaves(self._view(state.boardlab_state, player)))
        if len(values) != len(self.tensor):
            raise ValueError(
                f"this observation has {len(values)} numeric values, not {len(self.tensor)}; "
                "use the string form for this game"
            )
        self.tensor[:] = values

    def string_from(self, state: BoardlabSpielState, player: int) -> str:
        s = state.boardlab_state
        if not self.perfect_recall:
            return json.dumps(self._view(s, player), sort_keys=True)
        if s.game.perfect_information and self.private != pyspiel.PrivateInfoType.NONE:
            # Nothing is hidden: the history is the information state.
            return json.dumps(s.history()) + "\n" + json.dumps(self._view(s, player), sort_keys=True)
        # Perfect recall: the distinct successive observations of this seat since the start.
        seen: list[str] = []

        def look(before: State, _entry: HistoryEntry | None = None) -> None:
            text = json.dumps(self._view(before, player), sort_keys=True)
            if not seen or text != seen[-1]:
                seen.append(text)

        look(replay(s.game, s.history(), s.num_players, on_step=look))
        return "\n".join(seen)


_registered: dict[str, type[BoardlabSpielGame]] = {}
_instance_tensor_sizes: dict[tuple[str, str], int | None] = {}


def register(game_id: str) -> str:
    """Register one boardlab game with OpenSpiel (idempotent); returns its short name."""
    name = short_name(game_id)
    if game_id in _registered:
        return name
    game = boardlab.make(game_id)
    size = tensor_size(game)
    gtype = game_type(game, size)
    cls = type(
        f"Spiel_{game_id.replace('-', '_')}",
        (BoardlabSpielGame,),
        {"boardlab_id": game_id, "tensor_size": size, "spiel_type": gtype, "default_params": dict(game.params)},
    )
    pyspiel.register_game(gtype, cls)
    _registered[game_id] = cls
    return name


def register_all() -> list[str]:
    """Register every boardlab game (new ones too); returns their short names."""
    return [register(g) for g in boardlab.games()]


def load(game_id: str, **options: Any) -> pyspiel.Game:
    """The boardlab game ``game_id`` with ``options`` (and ``players``) as a ``pyspiel.Game``."""
    register(game_id)
    return pyspiel.load_game(short_name(game_id), options)


def from_spiel(state: pyspiel.State) -> State:
    """The boardlab state inside an adapter state (a copy, safe to change)."""
    if not isinstance(state, BoardlabSpielState):
        raise TypeError(f"not a boardlab state: {type(state).__name__}")
    return copy.deepcopy(state._box).state


register_all()
