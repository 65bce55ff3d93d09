"""Every boardlab game as an OpenSpiel (``pyspiel``) Python game, so OpenSpiel's algorithms run on it.

>>> from boardlab.adapters import openspiel as bos
>>> game = bos.load("blast-radius", board_side=5)            # a pyspiel.Game
>>> state = game.new_initial_state()
>>> state.legal_actions()[:3]
[0, 1, 2]

Each game registers under the short name ``boardlab_<id>`` (dashes become
underscores), with the game's options and ``players`` as OpenSpiel game
parameters (``pyspiel.load_game("boardlab_blast_radius", {"board_side": 5})``).

**Game type.** The OpenSpiel description is the game's declared
:class:`~boardlab.core.gametype.GameType`, resolved for the options of each
loaded game (nothing is guessed, by playing or from the mechanics text):

* *dynamics*: ``SIMULTANEOUS`` or ``SEQUENTIAL`` as declared. At a
  simultaneous node a seat with nothing to decide has the single legal
  action ``0``, read as "pass" (OpenSpiel wants one action per seat). As
  in OpenSpiel's own simultaneous-move games, ``legal_actions()`` with no
  seat lists the *flat joint actions* there, ``0 .. n0 * n1 * ... - 1``
  (mixed radix over each seat's legal actions, seat 0's the lowest digit;
  :func:`flat_joint_to_actions`), ``apply_action`` takes one as that joint
  action (the history then holds each seat's action) and
  ``action_to_string(SIMULTANEOUS, a)`` names it ``[seat 0's, seat 1's]``. A
  simultaneous game loaded with ``turn_based=True`` is ``SEQUENTIAL``
  instead: the seats decide one after another, each blind to the earlier
  choices at that node (:class:`TurnBasedSpielState`), so OpenSpiel's
  sequential algorithms (``ISMCTSBot``) play it.
* *chance mode*: ``EXPLICIT_STOCHASTIC`` for declared chance, else ``DETERMINISTIC``.
* *information*: ``PERFECT_INFORMATION`` for a sequential game typed perfect
  information, else ``IMPERFECT_INFORMATION`` (seats at a simultaneous node
  decide without seeing each other's choice).
* *utility*, ``min_utility``, ``max_utility`` and ``utility_sum``: as declared
  (``IDENTICAL`` for co-operative games).

**Observations** (strings always; tensors where the game writes them):

* *observation string*: the seat's boardlab observation as canonical JSON
  (``player=None``, or an observer without private information, gives the
  spectator's).
* *information-state string* (perfect recall): ``seat <p>`` and then, for a
  perfect-information game, the history (the whole position); otherwise one
  line per history entry with its actor and what the seat was shown of it
  (``boardlab.core.hidden.view_key``: whether it saw the entry exactly, and the
  text), then the seat's current observation. This is exactly the record that
  ``State.resample`` keeps fixed, so every state it draws has the same string,
  and a later string always extends an earlier one of the same game.
* *observation tensor*: ``State.observation_tensor(seat)``, of the game's
  ``Game.observation_tensor_shape()``; offered only by games that write one
  (``State._observation_tensor``).
* *information-state tensor*: the observation tensor followed by the seat's own
  past decisions, one one-hot row of ``num_distinct_actions`` per decision,
  ``max_game_length`` rows (zeros after the last): fixed-size, and perfect recall
  of the seat's own actions. Offered where the game has an observation tensor
  and those rows take at most :data:`INFOSTATE_TENSOR_LIMIT` values (Hamlet:
  19 × 3); elsewhere only the string is offered.

**Resampling.** ``state.resample_from_infostate(seat, sampler)`` is the
core's ``State.resample(seat, rng)`` (the game's own override or the core's
replaying default) with ``rng`` a :class:`random.Random` whose every draw is
one call of OpenSpiel's ``sampler`` (:class:`SamplerRandom`), so OpenSpiel's
randomness decides the world. The state returned is a fresh adapter state with
the drawn history applied, so OpenSpiel's own history agrees with it.
``ISMCTSBot`` runs on every sequential game with hidden information through it;
``bot.set_resampler(ismcts_resampler(bot_random_state))`` makes a seeded bot
repeat exactly (its default sampler is seeded afresh on every call).

Games are registered on import of this module (:func:`register_all`); later
games are picked up by calling it again. ``pyspiel`` is an optional dependency
(the ``openspiel`` extra).
"""

from __future__ import annotations

import copy
import json
import math
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

import boardlab
from boardlab.core import constants
from boardlab.core.constants import CHANCE, SIMULTANEOUS
from boardlab.core.errors import IllegalActionError
from boardlab.core.game import Game, State
from boardlab.core.gametype import Chance, Dynamics, Utility
from boardlab.core.hidden import EntrySeen, seens_of, view_key

#: The largest own-decision part (``max_game_length * num_distinct_actions``) of an information-state tensor.
INFOSTATE_TENSOR_LIMIT = 4096

_GT = pyspiel.GameType
_DYNAMICS = {Dynamics.SEQUENTIAL: _GT.Dynamics.SEQUENTIAL, Dynamics.SIMULTANEOUS: _GT.Dynamics.SIMULTANEOUS}
_CHANCE = {Chance.NONE: _GT.ChanceMode.DETERMINISTIC, Chance.EXPLICIT: _GT.ChanceMode.EXPLICIT_STOCHASTIC}
_UTILITY = {
    Utility.ZERO_SUM: _GT.Utility.ZERO_SUM,
    Utility.CONSTANT_SUM: _GT.Utility.CONSTANT_SUM,
    Utility.GENERAL_SUM: _GT.Utility.GENERAL_SUM,
    Utility.IDENTICAL: _GT.Utility.IDENTICAL,
}
# The core's special players are OpenSpiel's numbers, so current_player() passes through unchanged.
if (
    int(pyspiel.PlayerId.CHANCE),
    int(pyspiel.PlayerId.SIMULTANEOUS),
    int(pyspiel.PlayerId.TERMINAL),
) != (constants.CHANCE, constants.SIMULTANEOUS, constants.TERMINAL):
    raise ImportError("boardlab's special players no longer match OpenSpiel's PlayerId numbers")


def short_name(game_id: str) -> str:
    """The OpenSpiel short name of a boardlab game: ``blast-radius`` → ``boardlab_blast_radius``."""
    return "boardlab_" + game_id.replace("-", "_")


def observation_tensor_size(game: Game, num_players: int) -> int | None:
    """The length of the game's observation tensor, or ``None`` when the game writes none."""
    try:
        return game.observation_tensor_shape(num_players)[0]
    except NotImplementedError:
        return None


def infostate_tensor_size(game: Game, obs_size: int | None) -> int | None:
    """The information-state tensor's length (see the module documentation), or ``None`` when not offered."""
    rows = game.max_game_length() * game.num_distinct_actions()
    if obs_size is None or rows > INFOSTATE_TENSOR_LIMIT:
        return None
    return obs_size + rows


def game_type(game: Game, obs_size: int | None, info_size: int | None, turn_based: bool = False) -> pyspiel.GameType:
    """The OpenSpiel ``GameType`` of a boardlab game: its declared type (see the module documentation)."""
    t = game.game_type
    perfect = t.perfect_information and t.dynamics is Dynamics.SEQUENTIAL
    spec: dict[str, Any] = {o.name: o.default for o in game.options}
    spec["players"] = game.default_players or game.min_players
    if t.dynamics is Dynamics.SIMULTANEOUS:
        spec["turn_based"] = False
    return _GT(
        short_name=short_name(game.id),
        long_name=f"boardlab {game.title}",
        dynamics=_GT.Dynamics.SEQUENTIAL if turn_based else _DYNAMICS[t.dynamics],
        chance_mode=_CHANCE[t.chance],
        information=_GT.Information.PERFECT_INFORMATION if perfect else _GT.Information.IMPERFECT_INFORMATION,
        utility=_UTILITY[t.utility],
        reward_model=_GT.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=info_size is not None,
        provides_observation_string=True,
        provides_observation_tensor=obs_size is not None,
        parameter_specification=spec,
    )


def flat_joint_count(seat_actions: list[list[int]]) -> int:
    """How many flat joint actions a simultaneous node has: the product of the seats' numbers of legal actions."""
    return math.prod(len(a) for a in seat_actions)


def flat_joint_to_actions(seat_actions: list[list[int]], flat: int) -> list[int]:
    """The joint action a flat joint action stands for, OpenSpiel's mixed-radix numbering.

    Seat 0's choice is the lowest digit: ``flat = i0 + n0 * (i1 + n1 * (i2 + ...))``
    where ``ik`` indexes seat ``k``'s legal actions, ``nk`` of them
    (``SimMoveState::FlatJointActionToActions``).

    >>> flat_joint_to_actions([[3, 5], [0, 1, 2]], 3)
    [5, 1]
    """
    total = flat_joint_count(seat_actions)
    if isinstance(flat, bool) or not isinstance(flat, int | np.integer) or not 0 <= flat < total:
        raise IllegalActionError(
            f"{flat!r} is not a joint action here (flat joint actions are 0-{total - 1})", action=flat
        )
    out = []
    rest = int(flat)
    for legal in seat_actions:
        rest, digit = divmod(rest, len(legal))
        out.append(legal[digit])
    return out


class SamplerRandom(random.Random):
    """A :class:`random.Random` drawing every number from an OpenSpiel ``ProbabilitySampler``.

    Only :meth:`random` is overridden, so ``choice``, ``shuffle``, ``randrange``
    and the rest all go through it (Python then derives integers from ``random()``
    rather than from bits of its own generator).
    """

    def __init__(self, sampler: Callable[[], float]) -> None:
        super().__init__(0)
        self._sampler = sampler

    def random(self) -> float:
        return float(self._sampler())


class _Holder:
    """The boardlab state (and what the adapter keeps beside it) inside the pyspiel state.

    OpenSpiel's clone deep-copies a Python state's attributes one by one; this
    turns that into the game's fast ``clone()``. ``seens`` is each history
    entry's ``Seen`` (see :mod:`boardlab.core.hidden`), kept up to date once an
    information-state string was asked for in a hidden-information game, so later
    ones need no replay (``None``: not kept).
    """

    __slots__ = ("pending", "seens", "state")

    def __init__(self, state: State, seens: list[EntrySeen] | None = None, pending: tuple[int, ...] = ()) -> None:
        self.state = state
        self.seens = seens
        #: In the turn-based form: the actions already chosen at this simultaneous node, in seat order.
        self.pending = pending

    def __deepcopy__(self, memo: dict[int, Any]) -> _Holder:
        return _Holder(self.state.clone(), None if self.seens is None else list(self.seens), self.pending)


class BoardlabSpielGame(pyspiel.Game):
    """A boardlab game seen by OpenSpiel. Subclassed per game by :func:`register`."""

    boardlab_id: str = ""
    spiel_type: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = params.pop("players", None)
        self.turn_based = bool(params.pop("turn_based", False))
        self.boardlab_game = g = boardlab.make(self.boardlab_id, **params)
        self.num_seats = g.resolve_num_players(None if players is None else int(players))
        # The type follows this instance's options (a variant may hide information); so do the tensors.
        self.obs_size = observation_tensor_size(g, self.num_seats)
        self.info_size = infostate_tensor_size(g, self.obs_size)
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
        if t.dynamics is Dynamics.SIMULTANEOUS:
            full["turn_based"] = self.turn_based
            if self.turn_based:  # one entry per seat at each simultaneous node
                info = pyspiel.GameInfo(
                    num_distinct_actions=info.num_distinct_actions,
                    max_chance_outcomes=info.max_chance_outcomes,
                    num_players=info.num_players,
                    min_utility=info.min_utility,
                    max_utility=info.max_utility,
                    utility_sum=info.utility_sum,
                    max_game_length=g.max_game_length() * self.num_seats,
                )
        super().__init__(game_type(g, self.obs_size, self.info_size, self.turn_based), info, full)

    def new_initial_state(self) -> BoardlabSpielState:
        cls = TurnBasedSpielState if self.turn_based else BoardlabSpielState
        return cls(self, self.boardlab_game.new_initial_state(self.num_seats))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(self, iig_obs_type, params)


class BoardlabSpielState(pyspiel.State):
    """A boardlab state seen by OpenSpiel; ``boardlab_state`` is the state itself (read it, do not change it)."""

    def __init__(self, game: BoardlabSpielGame, state: State) -> None:
        super().__init__(game)
        self._box = _Holder(state)

    @property
    def boardlab_state(self) -> State:
        return self._box.state

    def current_player(self) -> int:
        return self._box.state.current_player()  # CHANCE, SIMULTANEOUS, TERMINAL are OpenSpiel's numbers

    # legal_actions, is_chance_node and is_simultaneous_node answer Python callers here, without the round
    # trip through C++ (a list converted twice); C++ algorithms reach the same answers through _legal_actions.
    def legal_actions(self, player: int | None = None) -> list[int]:
        s = self._box.state
        cp = s.current_player()
        if cp >= 0:
            return s.legal_actions(player)
        if cp == SIMULTANEOUS:
            return self._legal_actions(SIMULTANEOUS if player is None else player)
        if cp == CHANCE and (player is None or player == CHANCE):
            return [a for a, _ in s.chance_outcomes()]
        return []

    def is_chance_node(self) -> bool:
        return self._box.state.current_player() == CHANCE

    def is_simultaneous_node(self) -> bool:
        return self._box.state.current_player() == SIMULTANEOUS

    def _legal_actions(self, player: int) -> list[int]:
        s = self._box.state
        if s.current_player() == SIMULTANEOUS:
            if player == SIMULTANEOUS:  # the flat joint actions (OpenSpiel's convention at a simultaneous node)
                return list(range(flat_joint_count(self._seat_actions())))
            return s.legal_actions(player) or [0]  # [0]: "pass" for a seat with nothing to decide
        return s.legal_actions(player)

    def _seat_actions(self) -> list[list[int]]:
        """At a simultaneous node: each seat's legal actions, ``[0]`` (a pass) for a seat with nothing to decide."""
        s = self._box.state
        return [s.legal_actions(p) or [0] for p in range(s.num_players)]

    def flat_joint_action_to_actions(self, action: int) -> list[int]:
        """At a simultaneous node: the joint action (one per seat) that the flat joint action ``action`` stands for."""
        s = self._box.state
        if s.current_player() != SIMULTANEOUS:
            raise IllegalActionError("this is not a simultaneous decision", player=s.current_player(), action=action)
        return flat_joint_to_actions(self._seat_actions(), action)

    def apply_action(self, action: int) -> None:
        """Apply ``action``; at a simultaneous node a flat joint action, applied as the seats' joint action.

        As in OpenSpiel's simultaneous-move games, the history then holds each
        seat's action, not the flat number. (A C++ caller's flat action reaches
        :meth:`_apply_action` and is applied the same way, but OpenSpiel's C++
        history records it as one flat entry.)
        """
        if self.is_simultaneous_node():
            self.apply_actions(self.flat_joint_action_to_actions(action))
        else:
            super().apply_action(action)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._box.state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        box = self._box
        if box.state.current_player() == SIMULTANEOUS:  # a flat joint action from a C++ caller
            self._apply_actions(self.flat_joint_action_to_actions(action))
        elif box.seens is None:
            box.state.apply_action(action)  # checked: an illegal action is refused, nothing changes
        else:
            self._apply_kept(action)

    def _apply_actions(self, actions: list[int]) -> None:
        s = self._box.state
        # A seat with nothing to decide sent the "pass" action 0.
        joint: list[int | None] = [None if a == 0 and not s.legal_actions(p) else a for p, a in enumerate(actions)]
        if self._box.seens is None:
            s.apply_actions(joint)
        else:
            self._apply_kept(joint)

    def _apply_kept(self, entry: int | list[int | None]) -> None:
        box, s = self._box, self._box.state
        try:
            seen: EntrySeen | None = s.seen_of(entry)
        except Exception:  # an illegal entry: the checked apply below says why
            seen = None
        if isinstance(entry, list):
            s.apply_actions(entry)
        else:
            s.apply_action(entry)
        if seen is None:
            box.seens = None
        else:
            box.seens.append(seen)

    def _action_to_string(self, player: int, action: int) -> str:
        s = self._box.state
        if s.current_player() == SIMULTANEOUS:
            if player == SIMULTANEOUS:  # a flat joint action: "[seat 0's, seat 1's, ...]", as OpenSpiel writes it
                joint = self.flat_joint_action_to_actions(action)
                return "[" + ", ".join(self._action_to_string(p, a) for p, a in enumerate(joint)) + "]"
            if player >= 0 and not s.legal_actions(player):
                return "pass"
        return s.action_to_string(player, action)

    def is_terminal(self) -> bool:
        return self._box.state.is_terminal()

    def returns(self) -> list[float]:
        return [float(r) for r in self._box.state.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> BoardlabSpielState:
        """A state ``player_id`` cannot tell from this one, drawn with ``probability_sampler``'s numbers.

        See the module documentation; the result has the same information-state string for ``player_id``.
        """
        drawn = self._box.state.resample(int(player_id), SamplerRandom(probability_sampler))
        out = self.get_game().new_initial_state()
        for entry in drawn.history():
            if isinstance(entry, list | tuple):
                out.apply_actions([0 if a is None else a for a in entry])
            else:
                out.apply_action(entry)
        return out

    def __str__(self) -> str:
        return json.dumps(self._box.state.observation(None), sort_keys=True)


class TurnBasedSpielState(BoardlabSpielState):
    """A simultaneous game in turn-based form (game parameter ``turn_based=True``).

    Each simultaneous node becomes one decision per seat, in seat order (a seat
    with nothing to decide has the single action ``0``, a pass); the joint move is
    applied to the boardlab state once every seat has chosen. A seat never sees
    the choices made before its own at the same node: its information state
    holds only its own choice and how many seats have chosen. Resampling redraws
    those hidden choices uniformly among each seat's legal actions in the drawn
    world (as the core's resample draws another seat's unseen decision). So
    OpenSpiel's sequential algorithms (``ISMCTSBot``) play simultaneous games.
    Tensors are the game's own, without the choices pending at the node.
    """

    def current_player(self) -> int:
        box = self._box
        cp = box.state.current_player()
        return len(box.pending) if cp == SIMULTANEOUS else cp

    def is_simultaneous_node(self) -> bool:
        return False

    def legal_actions(self, player: int | None = None) -> list[int]:
        box = self._box
        if box.state.current_player() != SIMULTANEOUS:
            return super().legal_actions(player)
        seat = len(box.pending)
        if player is not None and player != seat:
            return []
        return box.state.legal_actions(seat) or [0]

    def _legal_actions(self, player: int) -> list[int]:
        return self.legal_actions(player)

    def _apply_action(self, action: int) -> None:
        box = self._box
        s = box.state
        if s.current_player() != SIMULTANEOUS:
            super()._apply_action(action)
            return
        seat = len(box.pending)
        if action not in self.legal_actions(seat):
            raise IllegalActionError(s.explain_illegal(seat, action), player=seat, action=action)
        pending = (*box.pending, action)
        if len(pending) < s.num_players:
            box.pending = pending
            return
        box.pending = ()
        super()._apply_actions(list(pending))

    def _action_to_string(self, player: int, action: int) -> str:
        s = self._box.state
        if player >= 0 and s.current_player() == SIMULTANEOUS and not s.legal_actions(player):
            return "pass"
        return s.action_to_string(player, action)

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> BoardlabSpielState:
        rng = SamplerRandom(probability_sampler)
        drawn = self._box.state.resample(int(player_id), rng)
        out = self.get_game().new_initial_state()
        for entry in drawn.history():
            for a in entry if isinstance(entry, list | tuple) else [entry]:
                out.apply_action(0 if a is None else a)
        for seat, a in enumerate(self._box.pending):  # the choices made already at this node
            out.apply_action(a if seat == player_id else rng.choice(out.legal_actions(seat)))
        return out


def ismcts_resampler(random_state: np.random.RandomState) -> Callable[[pyspiel.State, int], pyspiel.State]:
    """A resampler for ``ISMCTSBot.set_resampler`` drawing from ``random_state`` (pass the bot's own).

    OpenSpiel's ISMCTSBot otherwise resamples with a new ``UniformProbabilitySampler``
    each time, which is seeded afresh, so a bot with a fixed ``random_state`` would
    still not repeat its searches.
    """

    def resample(state: pyspiel.State, player: int) -> pyspiel.State:
        return state.resample_from_infostate(player, random_state.uniform)

    return resample


def information_state_string(box: _Holder, player: int) -> str:
    """The seat's information-state string (see the module documentation)."""
    s = box.state
    if s.game.perfect_information:
        return "\n".join([f"seat {player}", json.dumps(s.history()), *_pending_lines(box, player)])
    if box.seens is None:
        box.seens = list(seens_of(s))
    lines = [f"seat {player}"]
    lines.extend(f"{actor} {view_key(seen, player)!r}" for actor, seen in zip(s.actors(), box.seens, strict=True))
    lines.append(json.dumps(s.observation(player), sort_keys=True))
    lines.extend(_pending_lines(box, player))
    return "\n".join(lines)


def _pending_lines(box: _Holder, player: int) -> list[str]:
    """In the turn-based form: what ``player`` knows of the choices made so far at this simultaneous node."""
    if not box.pending:
        return []
    mine = box.pending[player] if player < len(box.pending) else None
    return [f"chosen: {len(box.pending)}; mine: {mine}"]


def own_decisions(state: State, player: int) -> list[int]:
    """The actions ``player`` chose so far, in order (its part of each simultaneous entry it decided)."""
    out = []
    for actor, entry in zip(state.actors(), state.history(), strict=True):
        if actor == player:
            out.append(entry)
        elif actor == SIMULTANEOUS and entry[player] is not None:
            out.append(entry[player])
    return out


class Observer:
    """OpenSpiel's PyObserver interface over boardlab observations (see the module documentation).

    Private information ``SINGLE_PLAYER`` is the seat's view; ``NONE`` the
    spectator's; ``ALL_PLAYERS`` is refused (a view of everything is no seat's).
    """

    def __init__(self, game: BoardlabSpielGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("boardlab views are one seat's or a spectator's: no view of all private information")
        self.single = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.game = game
        size = (game.info_size if self.perfect_recall else game.obs_size) if self.single else None
        if not self.perfect_recall and not self.single:
            size = game.obs_size  # the spectator's tensor has the seat's shape
        self.tensor: np.ndarray | None = None if size is None else np.zeros(size, np.float32)
        key = "info_state" if self.perfect_recall else "observation"
        self.dict: dict[str, np.ndarray] = {} if self.tensor is None else {key: self.tensor}

    def set_from(self, state: BoardlabSpielState, player: int) -> None:
        if self.tensor is None:
            return
        s = state.boardlab_state
        obs = s.observation_tensor(player if self.single else None)
        if not self.perfect_recall:
            self.tensor[:] = obs
            return
        g = s.game
        self.tensor[:] = 0.0
        self.tensor[: len(obs)] = obs
        actions = g.num_distinct_actions()
        for k, a in enumerate(own_decisions(s, player)):
            self.tensor[len(obs) + k * actions + a] = 1.0

    def string_from(self, state: BoardlabSpielState, player: int) -> str:
        s = state.boardlab_state
        if not self.single:
            return json.dumps(s.observation(None), sort_keys=True)
        if self.perfect_recall:
            return information_state_string(state._box, player)
        return "\n".join([json.dumps(s.observation(player), sort_keys=True), *_pending_lines(state._box, player)])


_registered: dict[str, type[BoardlabSpielGame]] = {}


def register(game_id: str) -> str:
    """Register one boardlab game with OpenSpiel (idempotent); returns its short name."""
    name = short_name(game_id)
    if game_id in _registered:
        return name
    game = boardlab.make(game_id)
    obs = observation_tensor_size(game, game.resolve_num_players(None))
    gtype = game_type(game, obs, infostate_tensor_size(game, obs))
    cls = type(
        f"Spiel_{game_id.replace('-', '_')}", (BoardlabSpielGame,), {"boardlab_id": game_id, "spiel_type": gtype}
    )
    globals()[cls.__name__] = cls  # pickle (OpenSpiel's serialisation) finds classes by module and name
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


def spiel_history(state: State) -> list[int]:
    """A boardlab history as OpenSpiel records it: flat, a joint entry as each seat's part (``0``: a pass)."""
    out: list[int] = []
    for e in state.history():
        if isinstance(e, list | tuple):
            out.extend(0 if a is None else a for a in e)
        else:
            out.append(e)
    return out


register_all()
