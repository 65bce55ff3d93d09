"""Player accounts (optional: guests play as before): passwords, sessions, seats bound to accounts, profiles.

Stored in the server's database next to the tables (their own SQLAlchemy metadata, created when the server
starts; several processes on PostgreSQL share them):

``accounts``
    one row per account: its public name, the name's key (compared without case), the Argon2id hash of its
    password (argon2-cffi; never the password), when it was made, and when it was deleted (then the name is gone,
    the hash and sessions too; the row stays so that the games it played keep their other players' history).
``sessions``
    a signed-in browser: the SHA-256 of the session id (the id itself travels only in the signed cookie), the
    account, when it was made and last seen. Signing out deletes the row; *sign out everywhere* deletes them all.
``signin_failures``
    failed sign-ins (and sign-ups) by address and by name, for the rate limit; old rows are dropped.
``table_players``
    which account plays which seat of which table (the table's game and whether it is rated kept with it).
``rated_tables``
    the tables created *rated*; ``rated_games`` (:mod:`boardlab.server.ratings`) holds each one's settlement.
``server_keys``
    the secret that signs session cookies and CSRF tokens, made once and shared by every process
    (``BOARDLAB_SECRET`` replaces it).

Security choices (docs: README, *Accounts and ratings*):

* Sessions: the cookie ``boardlab_session`` holds a random session id signed with :mod:`itsdangerous` (HttpOnly,
  SameSite=Lax); the server looks the id up in ``sessions``, so signing out anywhere takes effect everywhere, on
  every process. Signing in or up always makes a new session id (an id planted beforehand is dropped: no fixation).
* CSRF: every write authenticated by the cookie needs the header ``X-CSRF-Token``, an HMAC of the session id
  (the browser reads it from ``GET /api/account`` or the cookie ``boardlab_csrf``), and a cross-site ``Origin`` is
  refused. Requests with a seat's bearer token are unchanged: a cookie without the header is simply ignored there.
* No account enumeration at sign-in: an unknown name and a wrong password get the same 401 body, after the same
  Argon2 verification (against a dummy hash for an unknown name); the per-name rate limit counts unknown names too.
  Sign-up must say that a name is taken (409 ``name_taken``, names are public on profiles anyway) and says nothing
  else; sign-ups are rate-limited per address like failed sign-ins.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import os
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from itsdangerous import BadSignature, URLSafeTimedSerializer
from sqlalchemy import (
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection as DbConnection
from sqlalchemy.exc import IntegrityError

from .errors import ApiError, bad_request, conflict
from .seatnames import clean_name
from .store import Store

metadata = MetaData()

accounts_t = Table(
    "accounts",
    metadata,
    Column("id", String(24), primary_key=True),
    #: The name shown on profiles and leaderboards; NULL once the account is deleted.
    Column("name", String(64), nullable=True),
    #: The name compared without case (unique); ``deleted:<id>`` once deleted.
    Column("name_key", String(80), nullable=False, unique=True),
    Column("password_hash", Text, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("deleted_at", Float, nullable=True),
)

sessions_t = Table(
    "sessions",
    metadata,
    Column("id_hash", String(64), primary_key=True),
    Column("account_id", String(24), nullable=False, index=True),
    Column("created_at", Float, nullable=False),
    Column("seen_at", Float, nullable=False),
)

failures_t = Table(
    "signin_failures",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(120), nullable=False),
    Column("at", Float, nullable=False),
    Index("signin_failures_key", "key", "at"),
)

table_players_t = Table(
    "table_players",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", String(24), nullable=False, index=True),
    Column("game", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
)

rated_tables_t = Table(
    "rated_tables",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
)

#: Ratings per account and game, and each rated game's settlement (server/ratings.py reads and writes them).
ratings_t = Table(
    "ratings",
    metadata,
    Column("account_id", String(24), primary_key=True),
    Column("game", String(64), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
)

rated_games_t = Table(
    "rated_games",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    #: 1: the ratings were updated; 0: not rated after all (a human seat with no account, or a shared account).
    Column("counted", Integer, nullable=False),
    #: ``{account id: {"before", "after", "place"}}`` in display points (JSON).
    Column("changes", Text, nullable=False),
    Column("settled_at", Float, nullable=False),
)

keys_t = Table(
    "server_keys",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", String(128), nullable=False),
)

SESSION_COOKIE = "boardlab_session"
CSRF_COOKIE = "boardlab_csrf"
CSRF_HEADER = "x-csrf-token"
#: A session lasts this long without being used (seconds).
SESSION_DAYS = 30
SESSION_SECONDS = SESSION_DAYS * 24 * 3600
NAME_RE = re.compile(r"^[\w][\w .'-]{1,31}$")
PASSWORD_MIN = 8
PASSWORD_MAX = 256
#: The name shown instead of a deleted account's.
FORMER = "Former player"


@dataclass(frozen=True)
class SignInLimits:
    """Failed sign-ins allowed within ``window`` seconds: per address and per name (unknown names too)."""

    window: float = 15 * 60.0
    per_address: int = 20
    per_name: int = 8
    #: Sign-ups per address within the window.
    signups_per_address: int = 10


@dataclass(frozen=True)
class Account:
    id: str
    name: str


def _hash(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def name_key(name: str) -> str:
    return name.casefold()


def check_name(raw: Any) -> str:
    """An account name as people will see it (the seat-name rules, then letters, digits, spaces, ``. ' - _``)."""
    try:
        name = clean_name(raw)
    except ValueError as e:
        raise bad_request(f"name: {e}") from None
    if not NAME_RE.match(name) or name.casefold().startswith("deleted:") or name.casefold() == FORMER.casefold():
        raise bad_request(
            "name: 2 to 32 characters, starting with a letter or digit, of letters, digits, spaces and . ' - _"
        )
    return name


def check_password(raw: Any) -> str:
    if not isinstance(raw, str) or not PASSWORD_MIN <= len(raw) <= PASSWORD_MAX:
        raise bad_request(f"password: {PASSWORD_MIN} to {PASSWORD_MAX} characters")
    return raw


class Accounts:
    """Blocking, transactional account storage on the server's database (call from a thread)."""

    def __init__(self, store: Store, limits: SignInLimits | None = None, hasher: PasswordHasher | None = None) -> None:
        self.store = store
        self.engine = store.engine
        self.limits = limits or SignInLimits()
        self.hasher = hasher or PasswordHasher()
        store.create_tables(metadata)
        self.secret = os.environ.get("BOARDLAB_SECRET") or self._shared_secret()
        self.signer = URLSafeTimedSerializer(self.secret, salt="boardlab-session")
        #: Verified against when a name is unknown, so that answer takes as long as a wrong password's.
        self._dummy_hash = self.hasher.hash(secrets.token_urlsafe(16))

    def _shared_secret(self) -> str:
        """The cookie secret every process of this database uses: made by the first, read by the others."""
        with self.engine.begin() as c:
            row = c.execute(select(keys_t.c.value).where(keys_t.c.name == "cookie")).first()
            if row is not None:
                return str(row.value)
        try:
            with self.engine.begin() as c:
                c.execute(insert(keys_t).values(name="cookie", value=secrets.token_hex(32)))
        except IntegrityError:
            pass  # another process made it first
        with self.engine.begin() as c:
            return str(c.execute(select(keys_t.c.value).where(keys_t.c.name == "cookie")).scalar_one())

    # -- passwords and sign-in ------------------------------------------------------------
    def _failures(self, c: DbConnection, key: str, now: float) -> tuple[int, float]:
        since = now - self.limits.window
        n, first = c.execute(
            select(func.count(), func.min(failures_t.c.at)).where(failures_t.c.key == key, failures_t.c.at > since)
        ).one()
        return int(n or 0), float(first or now)

    def _check_rate(self, c: DbConnection, keys: list[tuple[str, int]], now: float) -> None:
        for key, allowed in keys:
            n, first = self._failures(c, key, now)
            if n >= allowed:
                wait = max(1, int(first + self.limits.window - now) + 1)
                raise ApiError(
                    429,
                    "too_many_attempts",
                    f"Too many attempts; try again in {max(1, round(wait / 60))} minutes.",
                    retry_after=wait,
                )

    def _fail(self, keys: list[str]) -> None:
        now = time.time()
        with self.engine.begin() as c:
            c.execute(delete(failures_t).where(failures_t.c.at < now - self.limits.window))
            for key in keys:
                c.execute(insert(failures_t).values(key=key, at=now))

    def sign_up(self, name: Any, password: Any, address: str) -> tuple[Account, str]:
        """A new account and a new session for it (its id)."""
        name = check_name(name)
        password = check_password(password)
        now = time.time()
        with self.engine.connect() as c:
            self._check_rate(c, [(f"signup:{address}", self.limits.signups_per_address)], now)
        password_hash = self.hasher.hash(password)
        account = Account(secrets.token_urlsafe(12), name)
        self._fail([f"signup:{address}"])  # counted whether it succeeds or not: sign-ups per address are limited
        try:
            with self.engine.begin() as c:
                c.execute(
                    insert(accounts_t).values(
                        id=account.id,
                        name=name,
                        name_key=name_key(name),
                        password_hash=password_hash,
                        created_at=now,
                    )
                )
        except IntegrityError:
            raise conflict("name_taken", "That name is taken; choose another.") from None
        return account, self.new_session(account.id)

    def sign_in(self, name: Any, password: Any, address: str) -> tuple[Account, str]:
        """The account whose name and password these are, and a new session for it; 401 ``wrong_sign_in`` for any
        mismatch (unknown name or wrong password alike), 429 past the rate limit."""
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > PASSWORD_MAX:
            raise bad_request("give a name and a password")
        key = name_key(name.strip())[:80]
        now = time.time()
        with self.engine.connect() as c:
            self._check_rate(
                c, [(f"ip:{address}", self.limits.per_address), (f"name:{key}", self.limits.per_name)], now
            )
            row = c.execute(
                select(accounts_t.c.id, accounts_t.c.name, accounts_t.c.password_hash).where(
                    accounts_t.c.name_key == key, accounts_t.c.deleted_at.is_(None)
                )
            ).first()
        stored = row.password_hash if row is not None and row.password_hash else self._dummy_hash
        try:
            ok = self.hasher.verify(stored, password) and row is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            ok = False
        if not ok or row is None:
            self._fail([f"ip:{address}", f"name:{key}"])
            raise ApiError(401, "wrong_sign_in", "That name and password do not match an account.")
        if self.hasher.check_needs_rehash(stored):  # the hasher's parameters were raised since: store a new hash
            with self.engine.begin() as c:
                c.execute(
                    update(accounts_t).where(accounts_t.c.id == row.id).values(password_hash=self.hasher.hash(password))
                )
        return Account(row.id, row.name), self.new_session(row.id)

    def check_password_of(self, account_id: str, password: Any) -> bool:
        with self.engine.connect() as c:
            stored = c.execute(select(accounts_t.c.password_hash).where(accounts_t.c.id == account_id)).scalar()
        try:
            return bool(stored) and isinstance(password, str) and self.hasher.verify(stored, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    # -- sessions ---------------------------------------------------------------------------
    def new_session(self, account_id: str) -> str:
        sid = secrets.token_urlsafe(32)
        now = time.time()
        with self.engine.begin() as c:
            c.execute(insert(sessions_t).values(id_hash=_hash(sid), account_id=account_id, created_at=now, seen_at=now))
        return sid

    def cookie_value(self, sid: str) -> str:
        return self.signer.dumps(sid)

    def csrf_token(self, sid: str) -> str:
        return hmac.new(self.secret.encode(), b"csrf:" + sid.encode(), hashlib.sha256).hexdigest()

    def session_id(self, cookie: str | None) -> str | None:
        """The session id a cookie carries, if its signature holds and it is not too old."""
        if not cookie:
            return None
        try:
            sid = self.signer.loads(cookie, max_age=SESSION_SECONDS)
        except BadSignature:
            return None
        return sid if isinstance(sid, str) else None

    def account_of(self, sid: str) -> Account | None:
        """The account signed in with this session id (``None``: signed out, expired, or never made)."""
        now = time.time()
        with self.engine.connect() as c:
            row = c.execute(
                select(accounts_t.c.id, accounts_t.c.name, sessions_t.c.seen_at)
                .join(accounts_t, accounts_t.c.id == sessions_t.c.account_id)
                .where(sessions_t.c.id_hash == _hash(sid), accounts_t.c.deleted_at.is_(None))
            ).first()
        if row is None or row.seen_at < now - SESSION_SECONDS:
            return None
        if row.seen_at < now - 3600:
            with self.engine.begin() as c:
                c.execute(update(sessions_t).where(sessions_t.c.id_hash == _hash(sid)).values(seen_at=now))
        return Account(row.id, row.name)

    def end_session(self, sid: str) -> None:
        with self.engine.begin() as c:
            c.execute(delete(sessions_t).where(sessions_t.c.id_hash == _hash(sid)))

    def end_all_sessions(self, account_id: str) -> int:
        with self.engine.begin() as c:
            return int(c.execute(delete(sessions_t).where(sessions_t.c.account_id == account_id)).rowcount or 0)

    # -- seats ------------------------------------------------------------------------------
    def mark_rated(self, table_id: str, game: str) -> None:
        with self.engine.begin() as c:
            c.execute(insert(rated_tables_t).values(table_id=table_id, game=game, created_at=time.time()))

    def is_rated(self, table_id: str) -> bool:
        with self.engine.connect() as c:
            return (
                c.execute(select(rated_tables_t.c.table_id).where(rated_tables_t.c.table_id == table_id)).first()
                is not None
            )

    def rated_among(self, table_ids: list[str]) -> list[str]:
        if not table_ids:
            return []
        with self.engine.connect() as c:
            rows = c.execute(select(rated_tables_t.c.table_id).where(rated_tables_t.c.table_id.in_(table_ids)))
            return [str(r.table_id) for r in rows]

    def players(self, table_id: str) -> dict[int, str]:
        """The table's seats bound to accounts: seat -> account id."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(table_players_t.c.seat, table_players_t.c.account_id).where(
                    table_players_t.c.table_id == table_id
                )
            )
            return {int(r.seat): str(r.account_id) for r in rows}

    def bind(self, table_id: str, seat: int, account_id: str, game: str) -> bool:
        """Bind a seat to an account unless it is bound already, or the account holds another seat of the table.

        ``True`` if bound now (or already bound to this account)."""
        with self.engine.begin() as c:
            rows = {
                int(r.seat): str(r.account_id)
                for r in c.execute(
                    select(table_players_t.c.seat, table_players_t.c.account_id).where(
                        table_players_t.c.table_id == table_id
                    )
                )
            }
            if rows.get(seat) == account_id:
                return True
            if seat in rows or account_id in rows.values():
                return False
            try:
                with c.begin_nested():
                    c.execute(
                        insert(table_players_t).values(
                            table_id=table_id, seat=seat, account_id=account_id, game=game, created_at=time.time()
                        )
                    )
            except IntegrityError:  # another process bound it in between
                return False
        return True

    def account_names(self, ids: list[str]) -> dict[str, str | None]:
        """Account id -> its name (``None``: deleted)."""
        if not ids:
            return {}
        with self.engine.connect() as c:
            rows = c.execute(select(accounts_t.c.id, accounts_t.c.name).where(accounts_t.c.id.in_(ids)))
            return {str(r.id): r.name for r in rows}

    def find(self, name: str) -> Account | None:
        with self.engine.connect() as c:
            row = c.execute(
                select(accounts_t.c.id, accounts_t.c.name).where(
                    accounts_t.c.name_key == name_key(name), accounts_t.c.deleted_at.is_(None)
                )
            ).first()
        return Account(row.id, row.name) if row is not None else None

    def created_at(self, account_id: str) -> float:
        with self.engine.connect() as c:
            return float(c.execute(select(accounts_t.c.created_at).where(accounts_t.c.id == account_id)).scalar_one())

    def tables_of(self, account_id: str) -> list[tuple[str, int]]:
        """Every (table, seat) the account plays or played."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(table_players_t.c.table_id, table_players_t.c.seat).where(
                    table_players_t.c.account_id == account_id
                )
            )
            return [(str(r.table_id), int(r.seat)) for r in rows]

    def delete(self, account_id: str) -> str:
        """Delete an account: its name, password hash, sessions and ratings go; its seats stay bound to the (now
        nameless) row, so its games stay in the other players' history. Returns the name it had."""
        with self.engine.begin() as c:
            name = c.execute(select(accounts_t.c.name).where(accounts_t.c.id == account_id)).scalar()
            c.execute(
                update(accounts_t)
                .where(accounts_t.c.id == account_id)
                .values(name=None, name_key=f"deleted:{account_id}", password_hash=None, deleted_at=time.time())
            )
            c.execute(delete(sessions_t).where(sessions_t.c.account_id == account_id))
            c.execute(delete(ratings_t).where(ratings_t.c.account_id == account_id))  # its settled games stay
        return str(name or "")


async def in_thread(fn: Any, *args: Any) -> Any:
    return await asyncio.to_thread(fn, *args)
