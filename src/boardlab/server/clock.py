"""Turn clocks: a table option, kept by the server as plain data (stored with the table, so it survives a restart).

A clock is ``None`` (no clock) or a dict:

``kind``
    ``"move"``: each decision must be made within ``seconds``; ``"game"``: each player has ``seconds`` in all;
    ``"days"``: turn-based (correspondence) play, each decision within ``days`` days (``seconds`` is that many days,
    kept like a move clock's: the same deadline, the same time-out).
``days``
    (``"days"`` only) the days a move.
``seconds``
    the limit.
``left``
    per seat, the seconds of its bank left (``"game"``; the full limit for ``"move"``), as of ``since``.
``since``
    the wall-clock time (``time.time()``, so it means the same after a restart) from which the seats to act are
    being timed; ``None`` while the clock is stopped (a free seat, or the game is over).
``forfeit``
    the seat that lost on time (no default action was possible), else ``None``.

Only human seats are timed (an AI move has its own limit). Everything here is a pure function of the clock and the
time it is given: :class:`~boardlab.server.tables.Platform` calls them, stores the result and arms a timer.

>>> c = new_clock({"kind": "game", "seconds": 60}, 2)
>>> c = start(c, 100.0)
>>> c = charge(c, [0], 110.0)
>>> c["left"], deadline(c, 0), deadline(c, 1)
([50.0, 60.0], 160.0, 170.0)
"""

from __future__ import annotations

from typing import Any

from .errors import bad_request

KINDS = ("none", "move", "game", "days")
#: Bounds on a clock's limit, in seconds: per move up to an hour, per game up to a day.
MAX_SECONDS = {"move": 3600.0, "game": 24 * 3600.0}
MIN_SECONDS = 1.0
#: Days a move at a turn-based (correspondence) table.
MAX_DAYS = 14
DAY = 24 * 3600.0


def new_clock(spec: dict[str, Any] | None, num_players: int, day: float = DAY) -> dict[str, Any] | None:
    """A stopped clock from a table's ``clock`` option ``{"kind", "seconds"}`` (``{"kind": "days", "days"}``);
    ``None`` for no clock; 400 if bad. ``day``: the seconds in a day (shorter in tests)."""
    if spec is None:
        return None
    kind = spec.get("kind", "none")
    if kind not in KINDS:
        raise bad_request(f"clock kind must be one of {', '.join(KINDS)}; got {kind!r}")
    if kind == "none":
        return None
    if kind == "days":
        days = spec.get("days")
        if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= MAX_DAYS:
            raise bad_request(f"a turn-based table takes 'days' a move, a whole number from 1 to {MAX_DAYS}")
        seconds = float(days * day)
        return {"kind": kind, "days": days, "seconds": seconds, "left": [seconds] * num_players, "since": None}
    seconds = spec.get("seconds")
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise bad_request("a clock needs 'seconds', a number")
    if not MIN_SECONDS <= seconds <= MAX_SECONDS[kind]:
        raise bad_request(f"a {kind} clock takes {MIN_SECONDS:g} to {MAX_SECONDS[kind]:g} seconds; got {seconds}")
    return {"kind": kind, "seconds": float(seconds), "left": [float(seconds)] * num_players, "since": None}


def start(clock: dict[str, Any], now: float) -> dict[str, Any]:
    """The clock running from ``now`` (if it was stopped)."""
    return clock if clock.get("since") is not None else {**clock, "since": now}


def stop(clock: dict[str, Any], acting: list[int], now: float) -> dict[str, Any]:
    """The clock stopped at ``now``, the seats that were acting charged."""
    return {**charge(clock, acting, now), "since": None}


def charge(clock: dict[str, Any], acting: list[int], now: float, new_turn: bool = True) -> dict[str, Any]:
    """A change at ``now``: the seats that were acting pay for the time since ``since`` (a game clock); the timing
    starts again from ``now`` (for a move clock, only on ``new_turn``: a sealed choice does not restart the others)."""
    since = clock.get("since")
    if since is None:
        return clock
    left = list(clock["left"])
    if clock["kind"] == "game":
        spent = max(0.0, now - since)
        for s in acting:
            left[s] = max(0.0, left[s] - spent)
        return {**clock, "left": left, "since": now}
    return {**clock, "since": now} if new_turn else clock


def deadline(clock: dict[str, Any], seat: int) -> float | None:
    """When ``seat``'s time runs out if it is acting now (wall-clock seconds); ``None`` while the clock is stopped."""
    since = clock.get("since")
    if since is None:
        return None
    return float(since) + (clock["left"][seat] if clock["kind"] == "game" else clock["seconds"])


def remaining(clock: dict[str, Any], seat: int, acting: list[int], now: float) -> float:
    """Seconds ``seat`` has left at ``now`` (its whole bank or the move limit when it is not acting)."""
    d = deadline(clock, seat)
    if d is None or seat not in acting:
        return float(clock["left"][seat] if clock["kind"] == "game" else clock["seconds"])
    return max(0.0, d - now)


def expired(clock: dict[str, Any], acting: list[int], now: float) -> list[int]:
    """The acting seats whose time has run out at ``now``."""
    return [s for s in acting if (d := deadline(clock, s)) is not None and d <= now]


def option(clock: dict[str, Any]) -> dict[str, Any]:
    """The table option that makes this clock again (a rematch's): ``{"kind", "seconds"}`` (``"days"`` too)."""
    out = {"kind": clock["kind"], "seconds": clock["seconds"]}
    if clock["kind"] == "days":
        out["days"] = clock.get("days", 1)
    return out


def describe(clock: dict[str, Any] | None) -> str:
    """The clock in players' words: "2 minutes per player", "30 seconds a move"."""
    if clock is None:
        return "no clock"
    if clock["kind"] == "days":
        days = clock.get("days", 1)
        return f"{days} day{'s' if days != 1 else ''} a move"
    secs = clock["seconds"]
    amount = f"{secs / 60:g} minute{'s' if secs != 60 else ''}" if secs >= 60 and secs % 60 == 0 else f"{secs:g} s"
    return f"{amount} a move" if clock["kind"] == "move" else f"{amount} per player for the game"
