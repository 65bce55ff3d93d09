"""The game protocol: :class:`Game` (rules and options) and :class:`State` (one position).

The vocabulary is OpenSpiel's, so adapters stay thin:

>>> import boardlab
>>> game = boardlab.make("blast-radius", board_side=5)
>>> state = game.new_initial_state()
>>> state.current_player()
0
>>> a = state.legal_actions()[0]
>>> state.action_to_string(0, a)
'a1'
>>> state.apply_action(a)
>>> state.history()
[0]

A game module subclasses both classes and fills in the ``_``-prefixed hooks;
the public methods here do the checking, the history and the bookkeeping, so
every game refuses bad input the same way and never changes on a refusal.

Hooks a game implements (``games/radius.py`` is a complete example that uses only
these hooks; copy its layout for a new game):

* ``current_player()`` and ``returns()``; ``is_terminal()`` is ``current_player() == TERMINAL``
  unless a game has a faster test
* ``_legal_actions(player)``: sorted legal actions of a seat at its decision
  (or at a simultaneous node)
* ``_is_legal(player, action)``: optional, whether one action is legal now; the
  default searches the list ``legal_actions()`` just gave on the same position (or
  ``_legal_actions(player)`` when it gave none), so a game whose test is cheaper
  (Blast Radius: two table look-ups) overrides it to speed up ``apply_action``;
  ``apply_action`` likewise checks a chance outcome against the list
  ``chance_outcomes()`` just gave
* ``_chance_outcomes()``: ``[(action, probability)]`` at chance nodes
* ``_apply(action)``: apply a validated seat or chance action
* ``_apply_joint(actions)``: apply validated simultaneous actions (one per seat)
* ``_action_to_string(player, action)``: by default the label from the game's
  ``action_space`` (set in ``Game._setup``; see :mod:`boardlab.core.actions`)
* on the game class: ``game_type``, its :class:`~boardlab.core.gametype.GameType`,
  and the sizes as data: ``max_length`` (a safety cap on the history length) and
  ``num_chance_outcomes`` (or a ``chance_space``), on the class or set in ``_setup()``
* the scene: a module-level function ``(game, observation, legal)`` marked
  ``@MyGame.draws_scene`` (see :meth:`Game.draws_scene`)
* ``observation(player)``: JSON-able view of what that seat (or a spectator) knows
* ``_seen(actor, entry)``: games with hidden information say who sees each
  history entry, and as what (see :mod:`boardlab.core.hidden`); the core
  derives each viewer's ``move_log`` and a default ``resample`` from it
* ``resample(player, rng)``: optional, a faster equivalent of the default
* ``_explain(player, action)``: optional, a specific reason an action is illegal
* ``evaluate(seat)``: optional, the game's own estimate of an unfinished position
* ``play_random(rnd, plies)``: optional, a faster equivalent of the default
  random playout that search agents run (it must choose exactly the same moves)

A new game from an empty file to a tested, playable one: ``docs/ADDING_A_GAME.md``.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Self

from . import hidden
from .actions import ActionSpace
from .constants import CHANCE, SIMULTANEOUS, TERMINAL, player_name
from .driver import draw_outcome, replay
from .errors import IllegalActionError, OutOfTurnError, UnknownActionString
from .gametype import GameType, Information, Utility
from .hidden import Seen
from .options import Option, in_players_words, validate_options
from .tensor import Tensor
from .wording import Said, said

Action = int
#: One history entry: an action, or a simultaneous node's actions (a tuple inside
#: the state, never changed; :meth:`State.history` gives it as a list).
HistoryEntry = int | tuple[int | None, ...]


class Game:
    """A game with its options fixed. Create one with :func:`boardlab.make`.

    Class attributes describe the game (they are the same for every option
    setting); ``params`` holds this instance's validated option values.

    ``game_type`` is declared on the class (a :class:`~boardlab.core.gametype.GameType`,
    with the variants that change it) and resolved for this object's options
    on the instance, with ``perfect_information`` and ``cooperative`` as plain
    bools derived from it. A game with an :class:`~boardlab.core.actions.ActionSpace`
    sets ``self.action_space`` in ``_setup()``; ``num_distinct_actions()`` and
    the default labels then come from it.
    """

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    #: Players when ``new_initial_state()`` is called without a count.
    default_players: ClassVar[int | None] = None
    #: Declared options (name, type, default, allowed values, description).
    options: ClassVar[tuple[Option, ...]] = ()
    rules_version: ClassVar[str] = "1"
    #: Earlier rules versions whose histories replay unchanged under this one (every action legal then is legal
    #: now, with the same effect: a rule change that only allows more), so their records, tables and states load.
    replays_versions: ClassVar[tuple[str, ...]] = ()
    #: Short tags shown by ``boardlab list`` and the lobby.
    mechanics: ClassVar[tuple[str, ...]] = ()
    playing_time: ClassVar[str] = ""
    #: The kind of game: declared on the class, resolved for the options on each instance.
    game_type: GameType = GameType()
    #: Derived from ``game_type``, never declared by a game: on the class, whether the game is
    #: perfect information (co-operative) under every option setting; on each instance, under its own.
    perfect_information: bool = True
    cooperative: bool = False
    #: The layout of seat actions, set by ``_setup()`` where the game has one.
    action_space: ActionSpace | None = None
    #: The layout of chance outcomes, where the game numbers them with an action space (``_setup()`` sets it);
    #: :meth:`max_chance_outcomes` is then its size.
    chance_space: ActionSpace | None = None
    #: Sizes, as data (on the class, or set in ``_setup()`` where the options change them); the core's
    #: :meth:`max_chance_outcomes` and :meth:`max_game_length` read them. ``num_chance_outcomes``: how many
    #: chance outcomes there are at most (0: no chance). ``max_length``: a safety cap on the history length for
    #: drivers, never a rule of the game (say in a comment how it is reached).
    num_chance_outcomes: int = 0
    max_length: int | None = None
    #: Plain statements of what is our invention rather than the designer's.
    inventions: ClassVar[tuple[str, ...]] = ()
    #: One-line summary for listings.
    summary: ClassVar[str] = ""
    #: Whether the game can end in a tie (every return 0), so players may agree a draw at a table; ``None``: the
    #: server derives it from the game's measured results (``docs/balance``; ``boardlab.server.endings``).
    draws: ClassVar[bool | None] = None
    #: One log line for the opening run of chance entries everyone sees ("The board was dealt.").
    setup_text: ClassVar[str] = ""
    #: Seats' names in logs (colours), when the game has them; else "seat N".
    seat_names: ClassVar[tuple[str, ...]] = ()
    #: How many steps the search's playouts take before scoring the position with ``State.evaluate``
    #: (``mcts``'s ``depth`` when a spec does not set it); 0 plays them to the end. A game whose random
    #: playouts say little (almost all of them lose) and whose evaluation says more sets it.
    rollout_depth: ClassVar[int] = 0
    state_class: ClassVar[type[State]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in ("perfect_information", "cooperative"):
            if name in cls.__dict__:
                raise TypeError(
                    f"{cls.__name__} sets {name}; declare game_type = GameType(...) instead "
                    f"(boardlab.core.gametype), and {name} is derived from it"
                )
        declared = cls.game_type
        cls.perfect_information = declared.values_of("information") == {Information.PERFECT}
        cls.cooperative = declared.values_of("utility") == {Utility.IDENTICAL}

    def __init__(self, **options: Any) -> None:
        self.params: dict[str, Any] = validate_options(self.id, self.options, options)
        self.game_type = type(self).game_type.resolve(self.params)
        self.perfect_information = self.game_type.perfect_information
        self.cooperative = self.game_type.cooperative
        self._setup()

    def _setup(self) -> None:
        """Precompute option-dependent tables (geometry, masks). Override as needed."""

    # -- sizes ------------------------------------------------------------
    def num_distinct_actions(self) -> int:
        """Seat actions are ``0 .. num_distinct_actions() - 1`` (the action space's size where there is one)."""
        if self.action_space is not None:
            return self.action_space.size
        raise NotImplementedError

    def max_chance_outcomes(self) -> int:
        """Chance actions are ``0 .. max_chance_outcomes() - 1`` (0 without chance): the declared
        :attr:`num_chance_outcomes`, or the size of :attr:`chance_space` where the game has one."""
        if self.chance_space is not None:
            return self.chance_space.size
        return self.num_chance_outcomes

    def max_game_length(self) -> int:
        """A safety cap on history length for drivers; never a rule of the game: the declared :attr:`max_length`."""
        if self.max_length is None:
            raise NotImplementedError(f"{type(self).__name__} declares no max_length")
        return self.max_length

    # -- states -----------------------------------------------------------
    def resolve_num_players(self, num_players: int | None) -> int:
        if num_players is None:
            num_players = self.default_players or self.min_players
        if isinstance(num_players, bool) or not isinstance(num_players, int):
            raise ValueError(f"number of players must be an integer; got {num_players!r}")
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(f"{self.id!r} is played by {self.players_text()} players; got {num_players}")
        return num_players

    def players_text(self) -> str:
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players}-{self.max_players}"

    def new_initial_state(self, num_players: int | None = None) -> State:
        return self.state_class(self, self.resolve_num_players(num_players))

    def state_from_history(self, history: Sequence[HistoryEntry], num_players: int | None = None) -> State:
        """Replay ``history`` (chance outcomes included) from the start; every step is checked.

        This is :func:`boardlab.core.driver.replay`; a bad step raises its ``ReplayError``.
        """
        return replay(self, history, num_players)

    def replays(self, version: str) -> bool:
        """Whether a history made under rules ``version`` replays under this game's rules (the same version, or
        one in :attr:`replays_versions`).

        >>> from boardlab.games import make_cached
        >>> make_cached("triad").replays("1"), make_cached("blast-radius").replays("0")
        (True, False)
        """
        return version == self.rules_version or version in self.replays_versions

    def state_from_json(self, text: str | Mapping[str, Any]) -> State:
        """Load a state written by :meth:`State.to_json`."""
        data = json.loads(text) if isinstance(text, str) else dict(text)
        if data.get("game") != self.id:
            raise ValueError(f"this state is of game {data.get('game')!r}, not {self.id!r}")
        if not self.replays(str(data.get("rules_version", self.rules_version))):
            raise ValueError(
                f"state written under rules version {data.get('rules_version')!r}; "
                f"this is {self.id!r} rules version {self.rules_version!r}"
            )
        options = data.get("options", {})
        if validate_options(self.id, self.options, options) != self.params:
            raise ValueError(f"state written with options {options!r}; this game has {self.params!r}")
        return self.state_from_history(data.get("history", []), data.get("num_players"))

    def observation_tensor_shape(self, num_players: int | None = None) -> tuple[int, ...]:
        """The fixed shape of :meth:`State.observation_tensor` for this game, options and player count."""
        return (len(self.new_initial_state(num_players).observation_tensor(0)),)

    def observation_tensor_layout(self, num_players: int | None = None) -> list[tuple[str, int, int]]:
        """``[(field name, offset, size)]`` of the observation tensor (see :mod:`boardlab.core.tensor`)."""
        s = self.new_initial_state(num_players)
        t = Tensor()
        s._observation_tensor(0, t)
        return t.layout()

    # -- presentation -----------------------------------------------------
    #: The game's scene function, ``(game, observation, legal) -> scene``, declared with :meth:`draws_scene`.
    _scene_function: ClassVar[Callable[..., dict[str, Any]] | None] = None

    @classmethod
    def draws_scene(cls, function: Callable[[Any, dict[str, Any], list[tuple[int, str]]], dict[str, Any]]) -> Any:
        """Declare ``function(game, observation, legal)`` as this game's :meth:`scene`; a decorator.

        A game module writes its scene function after its classes and marks it
        ``@MyGame.draws_scene``, instead of a ``scene`` method that only calls it:

        >>> class Tiny(Game):
        ...     id = "tiny"
        >>> @Tiny.draws_scene
        ... def _scene(game, obs, legal):
        ...     return {"title": game.id, "moves": len(legal)}
        >>> Tiny().scene({}, [(0, "a1")])
        {'title': 'tiny', 'moves': 1}
        """
        cls._scene_function = staticmethod(function)  # type: ignore[assignment]
        return function

    def scene(self, observation: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
        """Describe how ``observation`` looks (see :mod:`boardlab.core.scene`).

        ``legal`` lists ``(action, label)`` for the seat that observes. The
        scene must be built from these two arguments only. By default, the
        function the game declared with :meth:`draws_scene`.
        """
        function = type(self)._scene_function
        if function is None:
            raise NotImplementedError(f"{type(self).__name__} declares no scene function (Game.draws_scene)")
        return function(self, observation, legal)

    def timeout_rule(self) -> str:
        """What happens when a player's turn clock runs out, in players' words (the rules page says it).

        The default matches :meth:`State.timeout_action`'s: a game with a *pass* move passes where it may.
        A game that declares another default action says so here too.
        """
        space = self.action_space
        if space is not None and "pass" in {s.name for s in space.segments}:
            return (
                "When a player's time runs out, they pass if the rules let them pass at that moment; "
                "otherwise they lose the game."
            )
        return "When a player's time runs out, they lose the game."

    def metadata(self) -> dict[str, Any]:
        """JSON-able description for listings, the lobby and records."""
        return {
            "id": self.id,
            "title": self.title,
            "summary": self.summary,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "default_players": self.default_players or self.min_players,
            "mechanics": list(self.mechanics),
            "playing_time": self.playing_time,
            "perfect_information": self.perfect_information,
            "cooperative": self.cooperative,
            # This object's type, with the variants the class declares (what other option values change).
            "game_type": {
                **self.game_type.describe(),
                "variants": type(self).game_type.describe(self.options)["variants"],
            },
            "rules_version": self.rules_version,
            "inventions": [in_players_words(x, self.options) for x in self.inventions],
            "options": [o.describe() for o in self.options],
            "params": dict(self.params),
        }

    def __repr__(self) -> str:
        return f"boardlab.make({self.id!r}, **{self.params!r})"


class State:
    """One position of a game, with the full history that led to it."""

    #: Attributes that :meth:`clone` copies one level deep (lists, sets, dicts); every
    #: other attribute is shared between copies, so it must never be changed in
    #: place. ``None`` makes :meth:`clone` a deep copy (always right, but slow).
    copied: ClassVar[tuple[str, ...] | None] = None

    #: The legal actions that :meth:`legal_actions` last computed, as ``(history length, {seat: actions})``, and
    #: under ``CHANCE`` the outcomes :meth:`chance_outcomes` last gave (``(action, probability)`` pairs): the
    #: check of :meth:`apply_action` / :meth:`apply_actions` on the same position reads them instead of asking the
    #: game again (the usual caller asks for the list, then plays one of it). Only these two checks read it;
    #: a position differs from the memo's only after an action, which lengthens the history, and a copy
    #: (:meth:`clone`) starts without it.
    _legal_memo: tuple[int, dict[int, tuple[Any, ...]]] | None = None
    #: Whether this class's :meth:`_is_legal` searches the legal list (the default, or one that declares
    #: ``_is_legal_searches = True``), so that :meth:`legal_actions` keeps its list for the check; set per class.
    _memo_legal: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        owner = next(k for k in cls.__mro__ if "_is_legal" in vars(k))
        cls._memo_legal = owner is State or bool(vars(owner).get("_is_legal_searches", False))

    def __init__(self, game: Game, num_players: int) -> None:
        self.game = game
        self.num_players = num_players
        self._history: list[HistoryEntry] = []
        #: Who made each history entry: a seat, CHANCE or SIMULTANEOUS.
        self._actors: list[int] = []
        #: History length before which undo may not go (chance, reveals).
        self._barrier = 0

    # -- hooks ------------------------------------------------------------
    def current_player(self) -> int:
        raise NotImplementedError

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def returns(self) -> list[float]:
        raise NotImplementedError

    def _legal_actions(self, player: int) -> list[int]:
        raise NotImplementedError

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        raise NotImplementedError

    def _apply(self, action: int) -> None:
        raise NotImplementedError

    def _apply_joint(self, actions: list[int | None]) -> None:
        raise NotImplementedError

    def _action_to_string(self, player: int, action: int) -> str:
        space = self.game.action_space
        if space is not None and player != CHANCE and action in space:
            return space.label(action)
        return str(action)

    def _is_legal(self, player: int, action: int) -> bool:
        memo = self._legal_memo  # the list legal_actions() just gave on this position, if it did
        if memo is not None and memo[0] == len(self._history) and player in memo[1]:
            return action in memo[1][player]
        return action in self._legal_actions(player)

    def _explain(self, player: int, action: int) -> str | None:
        """A game-specific reason why ``action`` is illegal for ``player`` now, or ``None``."""
        return None

    def _parse_action(self, player: int, text: str) -> int | None:
        """Optional: an action that ``text`` names in another accepted spelling than its label, or ``None``.

        :meth:`string_to_action` tries the labels first and accepts the answer only when it is legal.
        """
        return None

    def observation(self, player: int | None = None) -> dict[str, Any]:
        raise NotImplementedError

    def _observation_tensor(self, player: int | None, t: Tensor) -> None:
        """Append what ``player`` (``None``: a spectator) may know here to ``t``, as numbers.

        The same fields in the same order in every state (see :mod:`boardlab.core.tensor`);
        nothing that :meth:`resample` for ``player`` could change.
        """
        raise NotImplementedError(f"{self.game.id} has no observation tensor")

    def _seen(self, actor: int, entry: int | tuple[int | None, ...]) -> Seen | tuple[Seen | None, ...]:
        """What viewers are shown of ``entry``, about to be applied here by ``actor``.

        Default: everyone sees the action's label (per seat at a simultaneous
        node). Games with hidden information override it (:mod:`boardlab.core.hidden`).
        """
        return hidden.default_seen(self, actor, entry)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """What ``player`` (``None``: a spectator) may know here, as a flat list of floats.

        Its length is the game's :meth:`Game.observation_tensor_shape`; the layout is
        :meth:`Game.observation_tensor_layout`. A state is never changed by reading it.
        """
        if player is not None and not 0 <= player < self.num_players:
            raise ValueError(f"no seat {player} in a {self.num_players}-player game")
        t = Tensor()
        self._observation_tensor(player, t)
        return t.values

    def seen_of(self, entry: int | Sequence[int | None]) -> Seen | tuple[Seen | None, ...]:
        """What viewers are shown of ``entry`` if it is applied next here (nothing is changed)."""
        if isinstance(entry, int):
            return self._seen(self.current_player(), entry)
        return self._seen(self.current_player(), tuple(entry))

    def move_log(self, viewer: int | None, *, reveal: bool | None = None) -> list[dict[str, Any]]:
        """The move log as ``viewer`` (a seat, ``None``: a spectator) may read it, in words.

        ``[{"step", "actor", "text"}]`` (see :func:`boardlab.core.hidden.log_lines`);
        ``reveal`` (default: whether the game is over) shows every entry exactly.
        """
        return hidden.move_log(self, viewer, reveal=reveal)

    def evaluate(self, seat: int) -> float | None:
        """The game's own estimate of ``returns()[seat]`` here, in the same scale; ``None``: the game has none.

        Optional (the default has none): search agents score a cut-off playout with it.
        """
        return None

    def timeout_action(self, seat: int) -> int | None:
        """What ``seat`` plays when its turn clock runs out here; ``None``: it loses the game (a table's rule).

        Optional (the default): the game's own *pass* (an action of a segment named ``"pass"``) when it is legal
        now, else ``None``. :meth:`Game.timeout_rule` words the same rule for the rules page.
        """
        space = self.game.action_space
        if space is None or "pass" not in {s.name for s in space.segments}:
            return None
        a = space.encode("pass")
        return a if a in self.legal_actions(seat) else None

    def resample(self, player: int | None, rng: random.Random) -> State:
        """A complete state consistent with everything ``player`` has observed.

        Perfect-information games return a copy. Otherwise the core redraws what
        ``player`` has not seen exactly and no later entry pins, by replaying the
        history through the checked path (:func:`boardlab.core.hidden.resample`);
        a game may override this with a faster equivalent, measured (its
        docstring says by how much).
        """
        if player is not None and not 0 <= player < self.num_players:
            raise ValueError(f"no seat {player} in a {self.num_players}-player game")
        if self.game.perfect_information:
            return self.clone()
        return hidden.resample(self, player, rng)

    def _mark_irreversible(self) -> None:
        """Call from ``_apply`` when the action being applied reveals hidden information."""
        self._barrier = len(self._history) + 1

    # -- public API -------------------------------------------------------
    def legal_actions(self, player: int | None = None) -> list[int]:
        """Sorted legal actions of ``player`` (default: the player to move).

        At a chance node, the chance outcomes; at a simultaneous node, the
        given seat's; ``[]`` for a seat that does not decide now.
        """
        cp = self.current_player()
        if cp >= 0:  # one seat decides: the usual case, first
            if player is not None and player != cp:
                return []
            legal = self._legal_actions(cp)
            if self._memo_legal:
                self._legal_memo = (len(self._history), {cp: tuple(legal)})
            return legal
        if player is None:
            player = cp
        if cp == TERMINAL:
            return []
        if cp == CHANCE:
            return [a for a, _ in self._chance_outcomes()] if player == CHANCE else []
        if cp == SIMULTANEOUS:
            if player < 0:
                raise ValueError("at a simultaneous node, ask legal_actions(seat) for each seat")
            if player >= self.num_players:
                return []
            legal = self._legal_actions(player)
            n, memo = len(self._history), self._legal_memo
            if memo is None or memo[0] != n:
                memo = self._legal_memo = (n, {})
            memo[1][player] = tuple(legal)
            return legal
        return []

    def legal_moves(self, player: int | None = None) -> list[tuple[int, str]]:
        """``[(action, label)]`` for ``player`` (default: the player to move)."""
        if player is None:
            player = self.current_player()
        return [(a, self.action_to_string(player, a)) for a in self.legal_actions(player)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(action, probability)]`` at a chance node, else ``[]``."""
        if self.current_player() != CHANCE:
            return []
        outcomes = self._chance_outcomes()
        self._legal_memo = (len(self._history), {CHANCE: tuple(outcomes)})
        return outcomes

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_simultaneous_node(self) -> bool:
        return self.current_player() == SIMULTANEOUS

    def apply_action(self, action: int, player: int | None = None) -> None:
        """Apply a seat's (or chance's) action.

        With ``player`` given, the action is refused with :class:`OutOfTurnError`
        unless it is that seat's decision. Illegal or malformed actions raise
        :class:`IllegalActionError` and leave the state unchanged.
        """
        cp = self.current_player()
        if player is not None and player != cp:
            raise OutOfTurnError(self._turn_text(player), player=player, action=action)
        if type(action) is not int:
            if isinstance(action, int) and not isinstance(action, bool):
                action = int(action)
            else:
                raise IllegalActionError(f"{action!r} is not an action number", player=cp, action=action)
        if cp >= 0:
            if not self._is_legal(cp, action):
                raise IllegalActionError(self.explain_illegal(cp, action), player=cp, action=action)
        elif cp == CHANCE:
            memo = self._legal_memo
            if memo is not None and memo[0] == len(self._history) and CHANCE in memo[1]:
                outcomes = memo[1][CHANCE]
            else:
                outcomes = self._chance_outcomes()
            for a, _ in outcomes:  # a plain loop: no generator on every chance step
                if a == action:
                    break
            else:
                raise IllegalActionError(f"{action} is not a possible chance outcome now", player=cp, action=action)
        elif cp == SIMULTANEOUS:
            raise IllegalActionError(
                "every seat decides at once now: use apply_actions([one action per seat])", player=cp, action=action
            )
        else:
            raise IllegalActionError("the game is over", player=cp, action=action)
        self._apply(action)
        self._history.append(action)
        self._actors.append(cp)
        if cp == CHANCE:
            self._barrier = len(self._history)

    def apply_legal(self, action: int) -> None:
        """Apply an action already known to be legal here, without checking it again.

        For search agents, on their own copies, with an action they just took from
        this very state's ``legal_actions()`` or ``chance_outcomes()``; it records
        the history exactly as :meth:`apply_action` does. Anything else (input from
        people, files, the network) must go through :meth:`apply_action`: an illegal
        action given here is not refused and leaves a state the rules do not allow.
        """
        cp = self.current_player()
        self._apply(action)
        self._history.append(action)
        self._actors.append(cp)
        if cp == CHANCE:
            self._barrier = len(self._history)

    def apply_actions(self, actions: Sequence[int | None]) -> None:
        """At a simultaneous node, apply one action per seat together.

        A seat with no legal action passes ``None``. Refused as a whole, with
        the state unchanged, if any seat's action is illegal.
        """
        cp = self.current_player()
        if cp != SIMULTANEOUS:
            raise IllegalActionError(
                "this is not a simultaneous decision; use apply_action", player=cp, action=list(actions)
            )
        if len(actions) != self.num_players:
            raise IllegalActionError(
                f"give exactly one action per seat ({self.num_players}); got {len(actions)}",
                player=cp,
                action=list(actions),
            )
        joint: list[int | None] = []  # the game's hook may keep it; the history keeps a tuple
        memo = self._legal_memo
        known = memo[1] if memo is not None and memo[0] == len(self._history) else {}
        for seat, a in enumerate(actions):
            legal = known[seat] if seat in known else self._legal_actions(seat)
            if not legal:
                if a is not None:
                    raise IllegalActionError(
                        f"{player_name(seat)} has no decision to make now; pass None", player=seat, action=a
                    )
                joint.append(None)
                continue
            if isinstance(a, bool) or not isinstance(a, int):
                raise IllegalActionError(f"{a!r} is not an action number", player=seat, action=a)
            if int(a) not in legal:
                raise IllegalActionError(self.explain_illegal(seat, int(a)), player=seat, action=a)
            joint.append(int(a))
        self._apply_joint(joint)
        self._history.append(tuple(joint))
        self._actors.append(SIMULTANEOUS)
        self._barrier = len(self._history)

    def history(self) -> list[HistoryEntry]:
        """Every action so far, chance outcomes included; joint actions are lists (fresh copies)."""
        return [h if isinstance(h, int) else list(h) for h in self._history]

    def actors(self) -> list[int]:
        """Who made each history entry (a seat, ``CHANCE`` or ``SIMULTANEOUS``)."""
        return list(self._actors)

    def move_number(self) -> int:
        return len(self._history)

    def __getstate__(self) -> dict[str, Any]:
        """What a copy or a pickle keeps: everything but the resample plan, which belongs to this position."""
        d = self.__dict__.copy()
        d.pop(hidden.PLAN_MEMO, None)
        return d

    def clone(self) -> Self:
        """An independent copy (the game object is shared).

        Fast when the game declares :attr:`copied`: a game with nested
        containers calls ``super().clone()`` and copies those deeper itself.
        """
        if self.copied is None:
            s = copy.deepcopy(self, {id(self.game): self.game})  # without the resample plan (__getstate__)
            s.__dict__.pop("_legal_memo", None)
            return s
        s = object.__new__(type(self))
        d = s.__dict__
        d.update(self.__dict__)
        d.pop("_legal_memo", None)
        d.pop(hidden.PLAN_MEMO, None)
        d["_history"] = self._history[:]  # entries are ints and tuples: shared safely
        d["_actors"] = self._actors[:]
        for name in self.copied:
            d[name] = d[name].copy()
        return s

    def play_random(self, rnd: Callable[[], float], plies: int) -> int:
        """Play on in place with uniformly random moves, for at most ``plies`` plies or to the end.

        Each seat's move is ``legal[int(rnd() * len(legal))]`` over its sorted legal
        actions (at a simultaneous node, seat by seat in seat order; a seat with no
        legal action passes ``None``); a chance outcome is drawn by its probability
        with one ``rnd()``. Returns the number of plies played. Search agents' rollouts
        call this, so a game may override it with a faster loop on its own tables;
        the override must draw the same numbers and make the same moves as this
        default (the conformance suite checks it), leaving an ordinary, valid state.

        >>> import random, boardlab
        >>> s = boardlab.make("blast-radius", board_side=5).new_initial_state()
        >>> s.play_random(random.Random(3).random, 10), s.move_number()
        (10, 10)
        """
        played = 0
        history, actors = self._history, self._actors
        while played < plies:
            cp = self.current_player()
            if cp >= 0:  # apply_legal's steps, with the seat already known
                legal = self._legal_actions(cp)
                a = legal[int(rnd() * len(legal))]
                self._apply(a)
                history.append(a)
                actors.append(cp)
            elif cp == TERMINAL:
                break
            elif cp == CHANCE:
                a = draw_outcome(self._chance_outcomes(), rnd())
                self._apply(a)
                history.append(a)
                actors.append(cp)
                self._barrier = len(history)
            else:
                joint: list[int | None] = []
                for p in range(self.num_players):
                    legal = self.legal_actions(p)
                    joint.append(legal[int(rnd() * len(legal))] if legal else None)
                self.apply_actions(joint)
            played += 1
        return played

    def child(self, action: int) -> State:
        s = self.clone()
        s.apply_action(action)
        return s

    def to_json(self) -> str:
        """The state as JSON: game, options, rules version, players and history."""
        return json.dumps(
            {
                "game": self.game.id,
                "options": self.game.params,
                "rules_version": self.game.rules_version,
                "num_players": self.num_players,
                "history": self.history(),
            }
        )

    def action_to_string(self, player: int | None, action: int) -> str:
        """The label of ``action`` for ``player`` (``CHANCE`` for chance outcomes)."""
        if player is None:
            player = self.current_player()
        return self._action_to_string(player, action)

    def string_to_action(self, player: int | None, text: str) -> int:
        """The legal action of ``player`` whose label is ``text`` (case and spaces ignored).

        A plain action number is accepted too.
        """
        if player is None:
            player = self.current_player()
        key = _norm(text)
        legal = self.legal_actions(player)
        for a in legal:
            if _norm(self._action_to_string(player, a)) == key:
                return a
        other = self._parse_action(player, text) if player >= 0 else None
        if other is not None and other in legal:
            return other
        if key.lstrip("-").isdigit() and int(key) in legal:
            return int(key)
        sample = ", ".join(self._action_to_string(player, a) for a in legal[:12])
        more = "…" if len(legal) > 12 else ""
        if not legal:
            raise UnknownActionString(f"{player_name(player)} has no move now", player=player, action=text)
        raise UnknownActionString(
            f"{text!r} is not a legal move now; legal: {sample}{more}", player=player, action=text
        )

    def explain_illegal(self, player: int | None, action: Any) -> str:
        """A sentence saying why ``action`` is not legal for ``player`` now (or that it is legal)."""
        cp = self.current_player()
        if player is None:
            player = cp
        if cp == TERMINAL:
            return "The game is over."
        if isinstance(action, bool) or not isinstance(action, int):
            return f"{action!r} is not an action number."
        if (cp >= 0 and player != cp) or (cp == CHANCE and player != CHANCE):
            return self._turn_text(player)
        if player >= 0 and not 0 <= action < self.game.num_distinct_actions():
            return f"{action} is not an action of this game (actions are 0-{self.game.num_distinct_actions() - 1})."
        if cp == SIMULTANEOUS and player >= 0 and not self._legal_actions(player):
            return f"{player_name(player).capitalize()} has no decision to make now."
        if action in self.legal_actions(player):
            return f"{self.action_to_string(player, action)} is legal now."
        reason = self._explain(player, action)
        label = self.action_to_string(player, action)
        if isinstance(reason, Said):
            return said(f"{label} is not legal: {reason}", *reason.clauses)
        if reason:
            return f"{label} is not legal: {reason}"
        return f"{label} is not one of the legal moves now."

    def _turn_text(self, player: int | None) -> str:
        cp = self.current_player()
        if cp == TERMINAL:
            return "The game is over."
        if cp == SIMULTANEOUS:
            return "Every seat decides at once now."
        if cp == CHANCE:
            return f"It is not {player_name(player)}'s turn: chance decides next."
        return f"It is not {player_name(player)}'s turn: seat {cp} is to move."

    def scene(self, player: int | None = None) -> dict[str, Any]:
        """How the game looks to ``player`` (``None``: spectator), with click targets."""
        legal = self.legal_moves(player) if player is not None and player >= 0 else []
        return self.game.scene(self.observation(player), legal)

    def undo_point(self, player: int | None, *, cross_seats: bool = True) -> int | None:
        """The history length to rewind to in order to take back ``player``'s last decision.

        ``player=None`` takes back the last decision of any seat. Never reaches
        back across a chance outcome, a simultaneous reveal or a reveal that the
        game marked. With ``cross_seats=False``, only while no other seat has
        acted since. ``None`` when there is nothing to take back.
        """
        for i in range(len(self._actors) - 1, self._barrier - 1, -1):
            actor = self._actors[i]
            if actor < 0:
                return None
            if player is None or actor == player:
                return i
            if not cross_seats:
                return None
        return None

    def __str__(self) -> str:
        return json.dumps(self.observation(None), sort_keys=True)

    def __repr__(self) -> str:
        return f"<{self.game.id} state after {len(self._history)} actions>"


def win_loss(winner: int | None, num_players: int = 2) -> list[float]:
    """Returns of a game that seat ``winner`` won (+1) and every other seat lost (-1).

    Any other ``winner`` (``None``, a negative number, a value past the last
    seat) means no winner: a draw, or a game not over, so all zeros.

    >>> win_loss(1), win_loss(-1), win_loss(2)
    ([-1.0, 1.0], [0.0, 0.0], [0.0, 0.0])
    """
    if winner is None or not 0 <= winner < num_players:
        return [0.0] * num_players
    return [1.0 if p == winner else -1.0 for p in range(num_players)]


def _norm(text: str) -> str:
    return " ".join(str(text).strip().lower().split())
