"""The game record: one JSON format for replays, simulations, bug reports and regression tests.

>>> import boardlab
>>> game = boardlab.make("blast-radius", board_side=5)
>>> state = game.new_initial_state()
>>> state.apply_action(30)
>>> rec = GameRecord.from_state(state, seats=["alice", "random"])
>>> GameRecord.from_json(rec.to_json()).replay().history()
[30]

The core imports no game: a record finds its game through ``make(game_id,
**options)``, passed in or (by default) the registry that :mod:`boardlab.games`
installs with :func:`use_registry` when it is imported (``import boardlab`` does).

>>> GameRecord.from_json(rec.to_json(), make=boardlab.make).replay(game=game).history()
[30]
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .driver import replay, replay_states
from .game import Game, HistoryEntry, State
from .options import check_json_types

#: ``make(game_id, **options) -> Game``, raising ``ValueError`` for an unknown game or option.
GameMaker = Callable[..., Game]

_registry: list[GameMaker] = []


def use_registry(make: GameMaker) -> None:
    """Install the game lookup that records use when none is passed (:mod:`boardlab.games` installs its ``make``)."""
    _registry[:] = [make]


def registry() -> GameMaker:
    """The installed game lookup; ``RuntimeError`` when none is (import :mod:`boardlab.games`, or pass ``make``)."""
    if not _registry:
        raise RuntimeError("no game registry installed: import boardlab (or pass make=boardlab.make)")
    return _registry[0]


#: The format every record names (records without one are read as this).
FORMAT = "boardlab-record/1"
#: Limits on what a record may carry beside its moves: seats, the length of a seat's name, meta as JSON text.
MAX_SEATS = 16
MAX_NAME = 64
MAX_META = 65_536


@dataclass
class GameRecord:
    game: str
    options: dict[str, Any]
    rules_version: str
    num_players: int
    history: list[HistoryEntry]
    seats: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_state(cls, state: State, seats: list[str] | None = None, **meta: Any) -> GameRecord:
        return cls(
            game=state.game.id,
            options=dict(state.game.params),
            rules_version=state.game.rules_version,
            num_players=state.num_players,
            history=state.history(),
            seats=list(seats) if seats else [f"seat {i}" for i in range(state.num_players)],
            result=result_of(state),
            meta=dict(meta),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "options": self.options,
            "rules_version": self.rules_version,
            "num_players": self.num_players,
            "seats": self.seats,
            "history": self.history,
            "result": self.result,
            "meta": self.meta,
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: dict[str, Any], make: GameMaker | None = None) -> GameRecord:
        """Check a record's JSON object (``ValueError`` saying what is wrong); ``make`` finds its game."""
        if not isinstance(data, dict):
            raise ValueError("a game record is a JSON object")
        missing = [k for k in ("game", "history") if k not in data]
        if missing:
            raise ValueError(f"game record lacks {', '.join(missing)}")
        if data.get("format", FORMAT) != FORMAT:
            raise ValueError(f"a record's format is {FORMAT!r}, not {data['format']!r}")
        seats = data.get("seats") or []
        if (
            not isinstance(seats, list)
            or len(seats) > MAX_SEATS
            or not all(isinstance(n, str) and 0 < len(n) <= MAX_NAME and n.isprintable() for n in seats)
        ):
            raise ValueError(f"a record's seats are at most {MAX_SEATS} names of 1-{MAX_NAME} printable characters")
        meta = data.get("meta") or {}
        if not isinstance(meta, dict) or len(json.dumps(meta)) > MAX_META:
            raise ValueError(f"a record's meta is a JSON object of at most {MAX_META:,} characters")
        history = data["history"]
        if not isinstance(history, list) or not all(
            (isinstance(h, int) and not isinstance(h, bool))
            or (isinstance(h, list) and all(x is None or (isinstance(x, int) and not isinstance(x, bool)) for x in h))
            for h in history
        ):
            raise ValueError("a record's history is a list of action numbers (lists for joint actions)")
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise ValueError("a record's options are a JSON object")
        game = (make or registry())(str(data["game"]), **options)
        check_json_types(game.id, game.options, options)  # a record is JSON: "6" for 6 is a mistake, not text
        num_players = data.get("num_players")
        return cls(
            game=game.id,
            options=dict(game.params),
            rules_version=str(data.get("rules_version", game.rules_version)),
            num_players=game.resolve_num_players(num_players),
            history=history,
            seats=list(seats),
            result=data.get("result"),
            meta=dict(meta),
        )

    @classmethod
    def from_json(cls, text: str, make: GameMaker | None = None) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"not valid JSON: {e}") from None
        return cls.from_dict(data, make)

    def game_of(self, make: GameMaker | None = None) -> Game:
        """The record's game (found by ``make``, default the registry); ``ValueError`` if its rules version differs."""
        game = (make or registry())(self.game, **self.options)
        if not game.replays(self.rules_version):
            raise ValueError(
                f"record made under {self.game} rules version {self.rules_version}; this is version {game.rules_version}"
            )
        return game

    def replay(self, upto: int | None = None, *, game: Game | None = None) -> State:
        """The state after the first ``upto`` actions (all by default); every step is checked.

        ``game`` is the record's game if the caller has it (else :meth:`game_of`);
        a bad step raises :class:`~boardlab.core.driver.ReplayError`.
        """
        game = game if game is not None else self.game_of()
        hist = self.history if upto is None else self.history[:upto]
        return replay(game, hist, self.num_players)

    def states(self, *, game: Game | None = None) -> list[State]:
        """Every state from the start to the end (for step-through viewers)."""
        return replay_states(game if game is not None else self.game_of(), self.history, self.num_players)


def outcome(returns: list[float]) -> dict[str, Any]:
    """Classify final returns: winners are seats with a positive return; a draw is all zeros."""
    winners = [i for i, r in enumerate(returns) if r > 0]
    draw = all(r == 0 for r in returns)
    return {"returns": list(returns), "winners": winners, "draw": draw}


def result_of(state: State) -> dict[str, Any] | None:
    if not state.is_terminal():
        return None
    return outcome(state.returns())
