"""Replays: check an uploaded game record and serve its positions one step at a time.

A record is replayed once (every step checked by the engine) and kept in a
small LRU cache under the SHA-256 of its canonical JSON; the viewer then asks
for frames by that id. A frame is the scene at one step, seen by a chosen seat
or by a spectator, with the move log up to that step as that viewer read it
then (the core's per-viewer log, also at the end; the whole record's log when asked for).
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from ..core.constants import CHANCE, SIMULTANEOUS, TERMINAL
from ..core.driver import advance, replay, result_text
from ..core.game import HistoryEntry, State
from ..core.hidden import EntrySeen, log_lines, seat_label
from ..core.record import GameRecord, outcome
from ..core.scene import SEAT_COLOURS
from ..core.wording import for_players
from ..games import make_cached
from .endings import check_ended, ending_text
from .errors import bad_request, not_found
from .seatnames import base_name
from .views import log_rows, scene_words

MAX_STEPS = 20000
#: keep one position in this many (a frame replays at most this many steps)
EVERY = 32


@dataclass
class Replay:
    id: str
    record: GameRecord
    #: the state every ``EVERY`` steps (and the final one); other steps are replayed from the nearest
    checkpoints: list[State]
    final: State
    #: What each step showed its viewers (:mod:`boardlab.core.hidden`), computed once.
    seens: list[EntrySeen]
    names: list[str]

    @property
    def steps(self) -> int:
        return self.final.move_number()

    def state_at(self, step: int) -> State:
        """The position after ``step`` history entries (replayed from the nearest checkpoint)."""
        state = self.checkpoints[step // EVERY].clone()
        return advance(state, self.record.history[(step // EVERY) * EVERY : step])

    @property
    def ended(self) -> dict[str, Any] | None:
        """How the table ended the game after its last action (resign, draw, abort, claim, time), if the record
        says so (:func:`~boardlab.server.endings.check_ended`); ``None`` if it did not (or ended by its rules)."""
        if self.final.is_terminal():
            return None
        return check_ended(self.record.meta, self.final.num_players, self.steps)

    def summary(self) -> dict[str, Any]:
        final = self.final
        game = final.game
        ended = self.ended
        if ended is not None:
            result = outcome(ended["returns"]) if ended["returns"] is not None else None
            return {
                **self._summary(),
                "finished": True,
                "result": result,
                "ended": {**ended, "text": ending_text(game, ended, self.names)},
            }
        return self._summary()

    def _summary(self) -> dict[str, Any]:
        final = self.final
        game = final.game
        return {
            "id": self.id,
            "game": game.id,
            "title": game.title,
            "options": dict(game.params),
            "num_players": final.num_players,
            "perfect_information": game.perfect_information,
            "seats": self.names,
            "steps": self.steps,
            "finished": final.is_terminal(),
            "result": outcome(final.returns()) if final.is_terminal() else None,
            "ended": None,
        }

    def frame(self, step: int, seat: int | None, reveal: bool = False) -> dict[str, Any]:
        """The position after ``step`` steps as ``seat`` saw it (``None``: a spectator).

        The log is what that viewer read then, even once the game is over (a spectator never
        reads the cards dealt face down); ``reveal``: the whole record's log, every step in words.
        """
        steps = self.steps
        if not 0 <= step <= steps:
            raise bad_request(f"step must lie between 0 and {steps}; got {step}")
        state = self.state_at(step)
        n = state.num_players
        if seat is not None and not 0 <= seat < n:
            raise bad_request(f"seat must lie between 0 and {n - 1} (or be omitted for a spectator); got {seat}")
        scene = scene_words(state.game.scene(state.observation(seat), []), self.names)  # the record's names
        if isinstance(scene.get("prompt"), str):
            scene = {**scene, "prompt": for_players(scene["prompt"], self.names)}
        cp = state.current_player()
        if cp == TERMINAL:
            title = result_text(state.game, state.returns(), self.names, None)
        elif step == 0:
            title = "The start"
        else:
            title = f"After move {step} of {steps}"
        if cp >= 0:
            detail = f"Next: {self.names[cp]} to move."
        elif cp == SIMULTANEOUS:
            detail = "Next: everyone chooses at once."
        elif cp == CHANCE:
            detail = "Next: a chance event."
        else:
            detail = str(scene.get("prompt") or "")
        ended = self.ended if step == steps else None
        log = self.log(step, seat, reveal=reveal)
        if ended is not None:  # the table ended it after this last action: say how, as the table's log did
            text = ending_text(state.game, ended, self.names)
            returns = ended["returns"]
            title = "Game aborted" if returns is None else result_text(state.game, returns, self.names, None)
            detail = text
            who = ended.get("seat")
            log = [*log, [who if isinstance(who, int) else SIMULTANEOUS, text]]
        colours = [SEAT_COLOURS[s % len(SEAT_COLOURS)] for s in range(n)]
        for k, p in enumerate(scene.get("players") or []):
            owner = p.get("seat", k) if isinstance(p, dict) else None
            if isinstance(owner, int) and 0 <= owner < n and isinstance(p.get("colour"), str):
                colours[owner] = p["colour"]
        return {
            "step": step,
            "steps": steps,
            "seat": seat,
            "scene": scene,
            "banner": {
                "kind": "result" if cp == TERMINAL or ended is not None else "wait",
                "title": title,
                "detail": detail,
            },
            "log": log,
            "seats": [{"seat": s, "name": self.names[s], "colour": colours[s]} for s in range(n)],
            "terminal": cp == TERMINAL or ended is not None,
        }

    def log(self, upto: int, seat: int | None = None, *, reveal: bool = True) -> list[list[Any]]:
        """``[actor, text]`` per line of ``seat``'s log of the first ``upto`` steps (``reveal``: everything)."""
        game = self.final.game
        lines = log_lines(
            self.seens[:upto],
            self.final.actors()[:upto],
            seat,
            reveal=reveal,
            setup_text=game.setup_text,
            names=[seat_label(game, s) for s in range(self.final.num_players)],
        )
        return [[actor, for_players(str(text), self.names)] for actor, text in log_rows(lines, list(self.names))]


class ReplayCache:
    """The replays the server holds: at most ``size`` of them, weighing at most ``max_bytes`` together.

    A replay weighs the bytes of its record's canonical JSON (what was uploaded, less whitespace): the positions
    kept beside it are bounded by the record's length (one in every ``EVERY`` steps, at most ``MAX_STEPS`` steps).
    The least recently used go first.
    """

    def __init__(self, size: int = 32, max_bytes: int = 16_000_000) -> None:
        self.size = size
        self.max_bytes = max_bytes
        self._items: OrderedDict[str, Replay] = OrderedDict()
        self._weights: dict[str, int] = {}

    @property
    def bytes(self) -> int:
        """The weight of the replays held now."""
        return sum(self._weights.values())

    def add(self, data: Any) -> Replay:
        """Check a record (a JSON object) and keep its replay; ``ApiError`` 400 if it is not a valid record."""
        try:
            canonical = json.dumps(data, sort_keys=True, separators=(",", ":"))
        except (TypeError, ValueError):
            raise bad_request("a game record is a JSON object") from None
        rid = hashlib.sha256(canonical.encode()).hexdigest()[:32]
        if rid in self._items:
            self._items.move_to_end(rid)
            return self._items[rid]
        try:
            record = GameRecord.from_dict(data, make_cached)
        except (ValueError, TypeError) as e:
            raise bad_request(f"not a valid game record: {e}") from None
        if len(record.history) > MAX_STEPS:
            raise bad_request(f"a record may hold at most {MAX_STEPS} steps; this one has {len(record.history)}")
        try:
            checkpoints, final, seens = _replay(record)
        except ValueError as e:
            raise bad_request(f"the record does not replay: {e}") from None
        n = final.num_players
        names = (
            [str(x)[:48] for x in record.seats[:n]]
            if len(record.seats) >= n
            else [base_name(final.game, s) for s in range(n)]
        )
        replay = Replay(rid, record, checkpoints, final, seens, names)
        self._items[rid] = replay
        self._weights[rid] = len(canonical)
        while len(self._items) > 1 and (len(self._items) > self.size or self.bytes > self.max_bytes):
            old, _ = self._items.popitem(last=False)
            del self._weights[old]
        return replay

    def get(self, rid: str) -> Replay:
        replay = self._items.get(rid)
        if replay is None:
            raise not_found("this replay is no longer held by the server; upload the record again")
        self._items.move_to_end(rid)
        return replay


def _replay(record: GameRecord) -> tuple[list[State], State, list[EntrySeen]]:
    """Replay a record once (every step checked): the checkpoints, the final state and what each step showed."""
    game = record.game_of(make_cached)
    checkpoints: list[State] = []
    seens: list[EntrySeen] = []

    def step(state: State, entry: HistoryEntry) -> None:
        if state.move_number() % EVERY == 0:
            checkpoints.append(state.clone())
        cp = state.current_player()
        if isinstance(entry, list | tuple):
            ok = _legal_joint(state, list(entry))
        else:
            ok = (cp >= 0 or cp == CHANCE) and entry in state.legal_actions(cp)
        if ok:  # an illegal entry is refused by the replay right after this
            seens.append(state.seen_of(entry))

    final = replay(game, record.history, record.num_players, on_step=step)
    if final.move_number() % EVERY == 0:
        checkpoints.append(final.clone())
    return checkpoints, final, seens


def _legal_joint(state: State, entry: list[Any]) -> bool:
    """Whether ``entry`` is a legal simultaneous step here (checked before the game is asked what it shows)."""
    if state.current_player() != SIMULTANEOUS or len(entry) != state.num_players:
        return False
    return all(
        (a is None) == (not state.legal_actions(p)) and (a is None or a in state.legal_actions(p))
        for p, a in enumerate(entry)
    )
