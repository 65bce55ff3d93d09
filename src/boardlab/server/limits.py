"""Per-client quotas: how fast one client may create tables and send moves, and how many sockets it may hold (on one
table, and over all tables together; a socket that never says hello is closed after ``hello_seconds``). A client is its address as the server sees it (behind a proxy, run uvicorn with its proxy-headers settings so
that is the player's address).

Rates are token buckets: a client may spend ``burst`` at once, then ``rate`` per second. A refusal says how long to
wait (the API's 429 with ``Retry-After``; on a socket, a refused acknowledgement with ``retry_after``).

>>> clock = iter([0.0, 0.0, 0.0, 0.5]).__next__
>>> b = Buckets(rate=2.0, burst=2, clock=clock)
>>> b.take("a"), b.take("a"), b.take("a")
(None, None, 0.5)
>>> b.take("a")  # half a second later one token has come back
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from .errors import ApiError

#: Clients whose buckets are remembered; beyond this, full (idle) buckets are forgotten first.
MAX_CLIENTS = 10_000


class Buckets:
    """One token bucket per client."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self._level: dict[str, tuple[float, float]] = {}  # client -> (tokens, when)

    def take(self, client: str) -> float | None:
        """Spend one token: ``None`` if allowed, else the seconds until one is back."""
        now = self.clock()
        tokens, when = self._level.get(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - when) * self.rate)
        if tokens < 1.0:
            self._level[client] = (tokens, now)
            return (1.0 - tokens) / self.rate
        self._level[client] = (tokens - 1.0, now)
        if len(self._level) > MAX_CLIENTS:
            self._forget(now)
        return None

    def _forget(self, now: float) -> None:
        full = [c for c, (t, w) in self._level.items() if t + (now - w) * self.rate >= self.burst]
        for c in full or list(self._level)[: len(self._level) // 2]:
            del self._level[c]


@dataclass(frozen=True)
class Quotas:
    """The limits of one server (``Settings`` carries them; 0 turns a limit off)."""

    tables_per_minute: float = 60.0
    tables_burst: int = 30
    moves_per_second: float = 20.0
    moves_burst: int = 40
    sockets_per_table: int = 16
    #: Live connections one address may hold over all tables together (those still to say hello included).
    sockets_per_address: int = 64
    chat_per_second: float = 1.0
    chat_burst: int = 5
    #: Seconds a new socket has to say hello before it is closed.
    hello_seconds: float = 5.0
    #: Lab runs one address may have playing or waiting at once, and start a minute (``BOARDLAB_LAB_PER_CLIENT`` and
    #: ``BOARDLAB_LAB_PER_MINUTE`` override them).
    lab_runs_per_address: int = 2
    lab_runs_per_minute: int = 6
    #: Seeks (quick play, server/seeks.py) one address may have waiting at once.
    seeks_per_address: int = 4


#: No limits (tests that create hundreds of tables from one client, trusted deployments).
NO_QUOTAS = Quotas(
    tables_per_minute=0,
    moves_per_second=0,
    sockets_per_table=0,
    sockets_per_address=0,
    chat_per_second=0,
    lab_runs_per_address=0,
    lab_runs_per_minute=0,
    seeks_per_address=0,
)


def too_many(what: str, retry_after: float) -> ApiError:
    """The 429 refusal, with the whole seconds to wait (sent as ``Retry-After``)."""
    wait = max(1, math.ceil(retry_after))
    return ApiError(429, "rate_limited", f"too many {what} from this address; try again in {wait} s", retry_after=wait)


def _take(buckets: Buckets | None, client: str, what: str) -> None:
    """One request of ``what`` from ``client`` (no buckets: no quota); ``ApiError`` 429 if it comes too fast."""
    wait = buckets.take(client) if buckets else None
    if wait is not None:
        raise too_many(what, wait)


class Limits:
    """The quotas of one server, checked by the API before it does any work."""

    def __init__(self, quotas: Quotas | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.quotas = q = quotas or Quotas()
        self._tables = Buckets(q.tables_per_minute / 60.0, q.tables_burst, clock) if q.tables_per_minute else None
        self._moves = Buckets(q.moves_per_second, q.moves_burst, clock) if q.moves_per_second else None
        self._chat = Buckets(q.chat_per_second, q.chat_burst, clock) if q.chat_per_second else None
        #: Live sockets per address, over all tables (in this process).
        self._sockets: dict[str, int] = {}

    def table_created(self, client: str) -> None:
        """``ApiError`` 429 if ``client`` creates tables too fast."""
        _take(self._tables, client, "new tables")

    def move_sent(self, client: str) -> None:
        """``ApiError`` 429 if ``client`` sends moves (or undos) too fast."""
        _take(self._moves, client, "moves")

    def chat_sent(self, client: str) -> None:
        """``ApiError`` 429 if ``client`` sends chat messages too fast."""
        _take(self._chat, client, "chat messages")

    def joined(self, client: str) -> None:
        """``ApiError`` 429 if ``client`` takes seats too fast (counted with new tables)."""
        _take(self._tables, client, "new seats")

    def may_open_socket(self, held: int) -> None:
        """``ApiError`` 429 if a client already holds ``held`` sockets on one table and that is the limit."""
        cap = self.quotas.sockets_per_table
        if cap and held >= cap:
            raise ApiError(429, "rate_limited", f"at most {cap} live connections to one table from one address")

    def socket_opened(self, client: str) -> None:
        """Count a new socket of ``client``; ``ApiError`` 429 (and not counted) if it holds as many as it may."""
        cap = self.quotas.sockets_per_address
        held = self._sockets.get(client, 0)
        if cap and held >= cap:
            raise ApiError(429, "rate_limited", f"at most {cap} live connections from one address to all tables")
        self._sockets[client] = held + 1

    def socket_closed(self, client: str) -> None:
        """A socket counted by :meth:`socket_opened` has closed."""
        held = self._sockets.get(client, 0) - 1
        if held > 0:
            self._sockets[client] = held
        else:
            self._sockets.pop(client, None)

    def sockets(self, client: str) -> int:
        """The live sockets ``client`` holds over all tables."""
        return self._sockets.get(client, 0)
