"""Finding an opponent: the quick-play seek pool, stored in the server's database (several processes share it).

A *seek* asks for a two-player online table of one game with given options, rated or casual, with a clock or none.
Seeks with the same game, options, rating choice and clock form a *pool*; two seeks of a pool match when

* both are still *waiting* and their browsers still there (each polls its seek, a heartbeat; a seek not heard of for
  :attr:`Seeks.timeout` seconds has *expired*),
* they are not the same account's,
* and, when rated, their ratings for the game (:mod:`boardlab.server.ratings`, as shown: a newcomer 1000) differ by at
  most each seek's accepted range, which starts at :data:`RANGE_START` points and widens by :data:`RANGE_PER_SECOND`
  a second of waiting, up to :data:`RANGE_MAX`. Casual seeks match in the order they came, whatever the ratings.

A rated seek needs an account (a guest seeks casual games only: a guest has no rating to match by and a rated table
seats accounts only). A match is *claimed* atomically: one ``UPDATE … WHERE status = 'waiting'`` of both rows that must
change both (on PostgreSQL the second of two processes claiming a seek waits for the first's row lock and then finds
it claimed), so a seek is matched at most once. The claiming process then makes the table (online, both seats human,
chance from a secret key, seats in a random order; rated: marked rated, each seat bound to its account) and stores
in each seek its seat. The seat's token is made from the seek's secret (an HMAC), fixed when the seek was posted: the
database holds only the secret's hash and the token's hash (the table's seat is made with it), so only the seeker's
next poll, at whichever process, can give the seat's link. A claim whose process went
away before it finished is released after :data:`CLAIM_SECONDS`.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Float, Index, Integer, MetaData, String, Table, Text, delete, func, select, update
from sqlalchemy.exc import DBAPIError

from .store import Store

metadata = MetaData()

seeks_t = Table(
    "seeks",
    metadata,
    Column("id", String(24), primary_key=True),
    #: SHA-256 of the seek's secret (the seeker's bearer token for polling and cancelling).
    Column("secret_hash", String(64), nullable=False),
    #: The pool: a hash of the game, its options, the number of players, rated or not and the clock.
    Column("pool", String(64), nullable=False),
    Column("game", String(64), nullable=False),
    #: JSON: ``{"options", "num_players", "clock"}`` (options as the game resolved them, defaults included).
    Column("spec", Text, nullable=False),
    Column("rated", Integer, nullable=False),
    Column("account_id", String(24), nullable=True),
    #: The seat name the seeker will have (an account's name; a guest's chosen name or none).
    Column("name", String(64), nullable=True),
    #: The rating for the game as shown (accounts; ``None`` for a guest).
    Column("rating", Float, nullable=True),
    Column("address", String(80), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("seen_at", Float, nullable=False),
    #: waiting, claimed, matched, cancelled or expired.
    Column("status", String(12), nullable=False),
    Column("claim", String(24), nullable=True),
    Column("claimed_at", Float, nullable=True),
    Column("table_id", String(32), nullable=True),
    Column("seat", Integer, nullable=True),
    #: The SHA-256 of the seat token this seek's secret makes (the matched table's seat is made with it).
    Column("token_hash", String(64), nullable=False),
    Column("opponent", String(64), nullable=True),
    Index("seeks_pool", "pool", "status"),
    Index("seeks_address", "address", "status"),
)

#: The rating difference a rated seek accepts at once, how fast that widens (points a second), and its widest.
RANGE_START = 100.0
RANGE_PER_SECOND = 10.0
RANGE_MAX = 600.0
#: A waiting seek not polled for this long has expired (its page is gone); pages poll every 2 s.
TIMEOUT_SECONDS = 15.0
#: A claim not completed in this long (its process went away) is released.
CLAIM_SECONDS = 60.0
#: Finished seeks are deleted after a day.
KEEP_SECONDS = 24 * 3600.0


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def seat_token(secret: str) -> str:
    """The seat token a seek's secret makes: only its seeker can give it (the database holds only its hash)."""
    digest = hmac.new(secret.encode(), b"boardlab seat token", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


def pool_key(game: str, options: dict[str, Any], num_players: int, rated: bool, clock: dict[str, Any] | None) -> str:
    canon = json.dumps([game, options, num_players, rated, clock], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canon.encode()).hexdigest()


def accepted_range(waited: float) -> float:
    """The rating difference a rated seek accepts after ``waited`` seconds."""
    return min(RANGE_MAX, RANGE_START + RANGE_PER_SECOND * max(0.0, waited))


@dataclass
class Seek:
    id: str
    game: str
    options: dict[str, Any]
    num_players: int
    clock: dict[str, Any] | None
    rated: bool
    account_id: str | None
    name: str | None
    rating: float | None
    address: str
    created_at: float
    seen_at: float
    status: str
    claim: str | None
    table_id: str | None
    seat: int | None
    token_hash: str
    opponent: str | None
    secret_hash: str
    pool: str


def _seek(r: Any) -> Seek:
    spec = json.loads(r.spec)
    return Seek(
        id=r.id,
        game=r.game,
        options=spec["options"],
        num_players=int(spec["num_players"]),
        clock=spec["clock"],
        rated=bool(r.rated),
        account_id=r.account_id,
        name=r.name,
        rating=r.rating,
        address=r.address,
        created_at=float(r.created_at),
        seen_at=float(r.seen_at),
        status=r.status,
        claim=r.claim,
        table_id=r.table_id,
        seat=r.seat,
        token_hash=r.token_hash,
        opponent=r.opponent,
        secret_hash=r.secret_hash,
        pool=r.pool,
    )


class Seeks:
    """Blocking, transactional storage of the seek pool (call from a thread). ``clock``: the wall clock (tests)."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.engine = store.engine
        self.clock = clock
        self.timeout = TIMEOUT_SECONDS
        store.create_tables(metadata)

    def add(
        self,
        game: str,
        options: dict[str, Any],
        num_players: int,
        clock: dict[str, Any] | None,
        rated: bool,
        account_id: str | None,
        name: str | None,
        rating: float | None,
        address: str,
    ) -> tuple[Seek, str]:
        """A new waiting seek and its secret."""
        now = self.clock()
        secret = secrets.token_urlsafe(24)
        seek_id = secrets.token_urlsafe(12)
        values = {
            "id": seek_id,
            "secret_hash": secret_hash(secret),
            "token_hash": secret_hash(seat_token(secret)),
            "pool": pool_key(game, options, num_players, rated, clock),
            "game": game,
            "spec": json.dumps({"options": options, "num_players": num_players, "clock": clock}),
            "rated": int(rated),
            "account_id": account_id,
            "name": name,
            "rating": rating,
            "address": address,
            "created_at": now,
            "seen_at": now,
            "status": "waiting",
        }
        with self.engine.begin() as c:
            c.execute(seeks_t.insert().values(**values))
            row = c.execute(select(seeks_t).where(seeks_t.c.id == seek_id)).one()
        return _seek(row), secret

    def get(self, seek_id: str) -> Seek | None:
        with self.engine.connect() as c:
            row = c.execute(select(seeks_t).where(seeks_t.c.id == seek_id)).first()
        return _seek(row) if row is not None else None

    def waiting_of(self, address: str | None = None, account_id: str | None = None, pool: str | None = None) -> int:
        """How many fresh waiting seeks this address (or this account, in this pool) has."""
        q = (
            select(func.count())
            .select_from(seeks_t)
            .where(seeks_t.c.status.in_(("waiting", "claimed")), seeks_t.c.seen_at > self.clock() - self.timeout)
        )
        if address is not None:
            q = q.where(seeks_t.c.address == address)
        if account_id is not None:
            q = q.where(seeks_t.c.account_id == account_id)
        if pool is not None:
            q = q.where(seeks_t.c.pool == pool)
        with self.engine.connect() as c:
            return int(c.execute(q).scalar_one())

    def in_pool(self, pool: str) -> int:
        """The fresh waiting seeks of a pool."""
        with self.engine.connect() as c:
            return int(
                c.execute(
                    select(func.count())
                    .select_from(seeks_t)
                    .where(
                        seeks_t.c.pool == pool,
                        seeks_t.c.status == "waiting",
                        seeks_t.c.seen_at > self.clock() - self.timeout,
                    )
                ).scalar_one()
            )

    def heartbeat(self, seek_id: str) -> Seek | None:
        """The seek's page is still there: a fresh waiting seek is seen now; one heard of too late has expired."""
        now = self.clock()
        with self.engine.begin() as c:
            c.execute(
                update(seeks_t)
                .where(seeks_t.c.id == seek_id, seeks_t.c.status == "waiting", seeks_t.c.seen_at <= now - self.timeout)
                .values(status="expired")
            )
            c.execute(
                update(seeks_t)
                .where(seeks_t.c.id == seek_id, seeks_t.c.status.in_(("waiting", "claimed")))
                .values(seen_at=now)
            )
        return self.get(seek_id)

    def cancel(self, seek_id: str) -> bool:
        """Cancel a waiting seek; ``False`` if it is no longer waiting (matched, being matched, gone)."""
        with self.engine.begin() as c:
            n = c.execute(
                update(seeks_t).where(seeks_t.c.id == seek_id, seeks_t.c.status == "waiting").values(status="cancelled")
            ).rowcount
        return bool(n)

    def tidy(self) -> None:
        """Expire the seeks whose pages went away, release claims whose process went away, drop old seeks."""
        now = self.clock()
        with self.engine.begin() as c:
            c.execute(
                update(seeks_t)
                .where(seeks_t.c.status == "waiting", seeks_t.c.seen_at <= now - self.timeout)
                .values(status="expired")
            )
            c.execute(
                update(seeks_t)
                .where(seeks_t.c.status == "claimed", seeks_t.c.claimed_at <= now - CLAIM_SECONDS)
                .values(status="waiting", claim=None, claimed_at=None, seen_at=now)
            )
            c.execute(
                delete(seeks_t).where(
                    seeks_t.c.status.in_(("matched", "cancelled", "expired")), seeks_t.c.seen_at <= now - KEEP_SECONDS
                )
            )

    def _fits(self, a: Seek, b: Seek, now: float) -> bool:
        if a.account_id is not None and a.account_id == b.account_id:
            return False
        if not a.rated:
            return True
        if a.rating is None or b.rating is None:
            return False
        gap = abs(a.rating - b.rating)
        return gap <= accepted_range(now - a.created_at) and gap <= accepted_range(now - b.created_at)

    def claim(self, seek_id: str) -> tuple[str, Seek, Seek] | None:
        """Claim this waiting seek and the best waiting seek it fits with (the oldest; rated: within both ranges).

        Returns the claim's id and both seeks (this one first), or ``None``. Atomic: both rows change together or
        neither does, so two processes never match one seek twice.
        """
        now = self.clock()
        me = self.get(seek_id)
        if me is None or me.status != "waiting" or me.seen_at <= now - self.timeout:
            return None
        with self.engine.connect() as c:
            rows = c.execute(
                select(seeks_t)
                .where(
                    seeks_t.c.pool == me.pool,
                    seeks_t.c.status == "waiting",
                    seeks_t.c.id != me.id,
                    seeks_t.c.seen_at > now - self.timeout,
                )
                .order_by(seeks_t.c.created_at, seeks_t.c.id)
                .limit(200)
            ).all()
        for other in (_seek(r) for r in rows):
            if not self._fits(me, other, now):
                continue
            claim = secrets.token_urlsafe(12)
            try:
                with self.engine.begin() as c:
                    n = c.execute(
                        update(seeks_t)
                        .where(seeks_t.c.id.in_(sorted((me.id, other.id))), seeks_t.c.status == "waiting")
                        .values(status="claimed", claim=claim, claimed_at=now)
                    ).rowcount
                    if n != 2:
                        raise _Lost
            except _Lost:
                continue  # the other was claimed meanwhile (or this one: then the next check says so)
            except DBAPIError:
                continue  # PostgreSQL gave up one of two crossing claims (a deadlock): the other claim stands
            return claim, me, other
        return None

    def matched(self, claim: str, seek_id: str, table_id: str, seat: int, opponent: str) -> bool:
        with self.engine.begin() as c:
            n = c.execute(
                update(seeks_t)
                .where(seeks_t.c.id == seek_id, seeks_t.c.claim == claim, seeks_t.c.status == "claimed")
                .values(status="matched", table_id=table_id, seat=seat, opponent=opponent)
            ).rowcount
        return bool(n)

    def release(self, claim: str) -> None:
        """A claim that could not make its table: both seeks wait again."""
        with self.engine.begin() as c:
            c.execute(
                update(seeks_t)
                .where(seeks_t.c.claim == claim, seeks_t.c.status == "claimed")
                .values(status="waiting", claim=None, claimed_at=None)
            )


class _Lost(Exception):
    pass


def check_secret(seek: Seek, secret: str | None) -> bool:
    return secret is not None and hmac.compare_digest(seek.secret_hash, secret_hash(secret))
