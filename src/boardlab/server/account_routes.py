"""The accounts, profiles and leaderboards API and pages (:mod:`boardlab.server.accounts`, :mod:`.ratings`).

=======  ====================================  =============================================
GET      /api/account                          who is signed in here (and the CSRF token for writes)
POST     /api/account/signup                   ``{"name", "password"}``: a new account, signed in
POST     /api/account/signin                   ``{"name", "password"}``: signed in (a new session)
POST     /api/account/signout                  this browser signs out
POST     /api/account/signout-everywhere       every session of the account ends
POST     /api/account/delete                   ``{"password"}``: the account goes; its games stay, anonymised
POST     /api/account/claim                    ``{"tables": [{"table", "tokens"}]}``: bind the seats this browser holds
GET      /api/players/{name}                   a player's profile: ratings, results by game, recent and open tables
GET      /api/players/games/{table}/record     the record of a finished game an account played (its replay)
GET      /api/leaderboard/{game}               a game's ratings, best first, with the AI levels' ratings
=======  ====================================  =============================================

Cookie-authenticated writes need the ``X-CSRF-Token`` header (module :mod:`.accounts`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ..games import game_class
from ..games import games as game_ids
from . import ratings
from .accounts import (
    CSRF_COOKIE,
    CSRF_HEADER,
    FORMER,
    PASSWORD_MAX,
    SESSION_COOKIE,
    SESSION_SECONDS,
    Account,
    Accounts,
    SignInLimits,
)
from .errors import ApiError, bad_request, conflict, forbidden, not_found
from .schemas import AccountOut, ClaimedOut, LeaderboardOut, OkOut, ProfileOut, RecordOut
from .seatnames import holder, is_given
from .store import _table_row, tables_t
from .tables import LiveTable, Platform

log = logging.getLogger("boardlab.server")

#: The AI levels a rated table's AI seat may be (each has a fixed rating).
RATED_AGENTS = ratings.LEVEL_NAMES


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class CredentialsIn(_Body):
    name: str = Field(max_length=64)
    password: str = Field(max_length=PASSWORD_MAX)


class PasswordIn(_Body):
    password: str = Field(max_length=PASSWORD_MAX)


class HeldTableIn(_Body):
    table: str = Field(max_length=32)
    tokens: list[str] = Field(max_length=16)


class ClaimIn(_Body):
    tables: list[HeldTableIn] = Field(max_length=200)


def _json(data: Any, status: int = 200) -> Response:
    return Response(json.dumps(data, ensure_ascii=False), status_code=status, media_type="application/json")


class Players:
    """Accounts as the web server uses them: who a request is, seats bound at tables, ratings settled, profiles."""

    def __init__(
        self, platform: Platform, client: Callable[[Request], str], limits: SignInLimits | None = None
    ) -> None:
        self.platform = platform
        self.store = platform.store
        if limits is None and platform.settings.quotas.tables_per_minute == 0:
            # --no-quotas lifts the sign-up quota like the others (failed sign-ins stay limited: that is security)
            limits = SignInLimits(signups_per_address=1_000_000)
        self.accounts = Accounts(platform.store, limits)
        self._client = client
        self._settling: set[str] = set()
        self._settled: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        platform.on_change.append(self._changed)

    async def _run(self, fn: Any, *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)

    # -- who is asking -----------------------------------------------------------------
    async def session(self, request: Request) -> tuple[Account | None, str | None]:
        sid = self.accounts.session_id(request.cookies.get(SESSION_COOKIE))
        if sid is None:
            return None, None
        account = await self._run(self.accounts.account_of, sid)
        return (account, sid) if account is not None else (None, None)

    def _same_origin(self, request: Request) -> bool:
        """No ``Origin`` (a script, an old browser: the CSRF token still decides), or this site's own (behind a proxy
        the host it was asked for, ``X-Forwarded-Host``)."""
        origin = request.headers.get("origin")
        if origin is None:
            return True
        hosts = {request.headers.get("host", ""), *request.headers.get("x-forwarded-host", "").split(",")}
        return origin != "null" and urlsplit(origin).netloc in {h.strip() for h in hosts if h.strip()}

    async def writer(
        self, request: Request, required: bool = True, strict: bool | None = None
    ) -> tuple[Account | None, str | None]:
        """The account of a cookie-authenticated write, its CSRF token checked (403 ``csrf`` when wrong or missing).

        ``required``: 401 when signed out. ``strict`` (default: ``required``): a signed-in request without the CSRF
        header is refused; otherwise (the table API) it counts as no account at all, so guests' requests and the
        bearer-token API are unchanged whatever cookies the browser sends.
        """
        strict = required if strict is None else strict
        account, sid = await self.session(request)
        sent = request.headers.get(CSRF_HEADER)
        if account is None or sid is None:
            if required:
                raise ApiError(401, "signed_out", "Sign in first.")
            return None, None
        if not sent and not strict:
            return None, None
        if not sent or not self._same_origin(request) or not hmac.compare_digest(sent, self.accounts.csrf_token(sid)):
            raise ApiError(403, "csrf", "This request did not come from this site's page (missing CSRF token).")
        return account, sid

    def _signed_in(self, account: Account, sid: str, request: Request, status: int = 200) -> Response:
        """The answer to a sign-in or sign-up: who, the CSRF token, and the session cookie."""
        secure = request.url.scheme == "https"
        csrf = self.accounts.csrf_token(sid)
        response = _json({"signed_in": True, "name": account.name, "csrf": csrf}, status)
        response.set_cookie(
            SESSION_COOKIE,
            self.accounts.cookie_value(sid),
            max_age=SESSION_SECONDS,
            httponly=True,
            samesite="lax",
            secure=secure,
            path="/",
        )
        response.set_cookie(CSRF_COOKIE, csrf, max_age=SESSION_SECONDS, samesite="strict", secure=secure, path="/")
        return response

    @staticmethod
    def _signed_out(response: Response) -> None:
        response.delete_cookie(SESSION_COOKIE, path="/")
        response.delete_cookie(CSRF_COOKIE, path="/")

    # -- tables: rated ones, seats bound -------------------------------------------------
    def check_rated(self, account: Account | None, mode: str, seats: list[dict[str, Any]] | None, game: str) -> None:
        """Refuse a rated table that cannot be rated (before anything is made)."""
        if account is None:
            raise ApiError(403, "sign_in_needed", "Sign in to play a rated game.")
        if mode == "hotseat":
            raise bad_request("a rated game is played online or against the AI, not on one device")
        try:
            cls = game_class(game)
        except Exception:
            return  # the table's own checks name the unknown game
        if cls.cooperative:
            raise bad_request("a co-operative game is not rated: everyone wins or loses together")
        for s, spec in enumerate(seats or []):
            if spec.get("kind") == "ai" and str(spec.get("agent") or "") not in RATED_AGENTS:
                raise bad_request(
                    f"seat {s}: a rated game's AI plays at a named level ({', '.join(RATED_AGENTS)}), "
                    "each with its fixed rating"
                )
        humans = [spec for spec in seats or [] if spec.get("kind") == "human"]
        if mode == "ai" and seats is not None and len(humans) > 1:
            raise bad_request("a rated game against the AI has one human seat: invite the others online")

    async def created(self, table_id: str, game: str, host: int | None, account: Account | None, rated: bool) -> None:
        if rated:
            await self._run(self.accounts.mark_rated, table_id, game)
        if account is not None and host is not None:
            await self._run(self.accounts.bind, table_id, host, account.id, game)

    async def before_join(self, table_id: str, account: Account | None) -> None:
        if not await self._run(self.accounts.is_rated, table_id):
            return
        if account is None:
            raise ApiError(403, "sign_in_needed", "This is a rated table: sign in to take a seat.")
        if account.id in (await self._run(self.accounts.players, table_id)).values():
            raise conflict("already_seated", "You already play a seat at this table.")

    async def joined(self, table_id: str, seat: int, game: str, account: Account | None) -> None:
        if account is not None:
            await self._run(self.accounts.bind, table_id, seat, account.id, game)

    async def rematched(self, table_id: str, game: str, rematch: dict[str, Any] | None) -> None:
        """A rematch is played by the same accounts (each seat moved as the rematch moved it), rated if this was."""
        if not rematch:
            return
        new_id, moved = str(rematch["id"]), list(rematch["seats"])
        for old, account in (await self._run(self.accounts.players, table_id)).items():
            await self._run(self.accounts.bind, new_id, moved[old], account, game)
        if await self._run(self.accounts.is_rated, table_id) and not await self._run(self.accounts.is_rated, new_id):
            with contextlib.suppress(IntegrityError):  # asked at two processes at once: marked once
                await self._run(self.accounts.mark_rated, new_id, game)

    # -- settling rated games ------------------------------------------------------------
    def _changed(self, table: Any) -> None:
        """Every broadcast (any process's change): a finished table is settled once, in a thread."""
        if not table.over or table.id in self._settled or table.id in self._settling:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # the next profile or leaderboard read settles it
        self._settling.add(table.id)
        task = loop.create_task(self._settle(table.id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _settle(self, table_id: str) -> None:
        try:
            await self._run(ratings.settle, self.store, table_id)
            self._settled.add(table_id)
        except Exception:
            log.exception("table %s: its ratings could not be settled (the next read tries again)", table_id)
        finally:
            self._settling.discard(table_id)

    async def rated_among(self, table_ids: list[str]) -> set[str]:
        """Which of these tables are rated (the lobby says so before anyone joins)."""
        return set(await self._run(self.accounts.rated_among, table_ids))

    async def settle_pending(self, table_ids: list[str] | None = None) -> None:
        for table_id in await self._run(ratings.unsettled, self.store, table_ids):
            await self._run(ratings.settle, self.store, table_id)

    # -- profiles ------------------------------------------------------------------------
    def _rows(self, ids: list[str]) -> dict[str, Any]:
        if not ids:
            return {}
        with self.store.engine.connect() as c:
            return {
                r["id"]: _table_row(r) for r in c.execute(select(tables_t).where(tables_t.c.id.in_(ids))).mappings()
            }

    async def profile(self, name: str) -> dict[str, Any]:
        account = await self._run(self.accounts.find, name)
        if account is None:
            raise not_found(f"no player called {name!r}")
        held = await self._run(self.accounts.tables_of, account.id)
        ids = [t for t, _ in held]
        await self.settle_pending(ids)
        rows = await self._run(self._rows, ids)
        settled = await self._run(ratings.settlements, self.store, ids)
        bound: dict[str, dict[int, str]] = {}
        for t in ids:
            bound[t] = await self._run(self.accounts.players, t)
        names = await self._run(self.accounts.account_names, sorted({a for b in bound.values() for a in b.values()}))
        by_game: dict[str, dict[str, int]] = {}
        recent: list[dict[str, Any]] = []
        open_tables: list[dict[str, Any]] = []
        for table_id, seat in held:
            row = rows.get(table_id)
            if row is None:
                continue
            title = _title(row.game)
            others = [
                {
                    "name": spec["name"],
                    "player": names.get(bound[table_id].get(s, "")) if s in bound[table_id] else None,
                    "kind": spec["kind"],
                }
                for s, spec in enumerate(row.seats)
                if s != seat
            ]
            if row.status == "playing":
                open_tables.append(
                    {
                        "table": table_id,
                        "game": row.game,
                        "title": title,
                        "seat": seat,
                        "opponents": others,
                        "rated": table_id in settled or await self._run(self.accounts.is_rated, table_id),
                        "watch": f"/table/{table_id}#t={row.open_watch}" if row.open_watch else None,
                        "updated_at": row.updated_at,
                    }
                )
                continue
            if row.status != "finished" or not row.result:
                continue
            res = row.result
            outcome = "draw" if res.get("draw") else "win" if seat in res.get("winners", []) else "loss"
            tally = by_game.setdefault(row.game, {"wins": 0, "losses": 0, "draws": 0})
            tally[{"win": "wins", "loss": "losses", "draw": "draws"}[outcome]] += 1
            change = (settled.get(table_id) or {}).get("changes", {}).get(account.id)
            recent.append(
                {
                    "table": table_id,
                    "game": row.game,
                    "title": title,
                    "seat": seat,
                    "result": outcome,
                    "opponents": others,
                    "rated": bool(settled.get(table_id, {}).get("counted")),
                    "rating_before": change["before"] if change else None,
                    "rating_after": change["after"] if change else None,
                    "finished_at": row.updated_at,
                    "replay": f"/replay?table={table_id}",
                }
            )
        recent.sort(key=lambda g: -g["finished_at"])
        open_tables.sort(key=lambda g: -g["updated_at"])
        mine = await self._run(ratings.ratings_of, self.store, account.id)
        return {
            "name": account.name,
            "since": await self._run(self.accounts.created_at, account.id),
            "ratings": [
                {
                    "game": g,
                    "title": _title(g),
                    "rating": r.shown,
                    "games": r.games,
                    "provisional": r.provisional,
                    "plays_like": ratings.plays_like(g, r),
                }
                for g, r in sorted(mine.items(), key=lambda x: _title(x[0]))
            ],
            "results": [
                {"game": g, "title": _title(g), **t} for g, t in sorted(by_game.items(), key=lambda x: _title(x[0]))
            ],
            "recent": recent[:30],
            "open": open_tables,
        }

    async def leaderboard(self, game: str) -> dict[str, Any]:
        if game not in game_ids():
            raise not_found(f"unknown game {game!r}")
        await self.settle_pending()
        return {
            "game": game,
            "title": _title(game),
            "players": await self._run(ratings.leaderboard, self.store, game),
            "levels": ratings.level_ratings(game),
            "provisional_games": ratings.PROVISIONAL_GAMES,
        }

    # -- claiming and deleting -----------------------------------------------------------
    async def claim(self, account: Account, held: list[HeldTableIn]) -> list[dict[str, Any]]:
        """Bind to the account one seat of each table whose token this browser holds (not hot-seat tables)."""
        out = []
        for h in held:
            try:
                table = await self.platform.get(h.table)
            except ApiError:
                continue
            if table.mode == "hotseat":
                continue
            for token in h.tokens:
                try:
                    seat = table.seat_of(token)
                except ApiError:
                    continue
                if seat is None:
                    continue
                if await self._run(self.accounts.bind, table.id, seat, account.id, table.game.id):
                    out.append({"table": table.id, "seat": seat})
                    break
        return out

    async def anonymise(self, account_id: str, name: str) -> None:
        """A deleted account's seats: a chosen name becomes "Former player" at every table it played (records too)."""
        for table_id, seat in await self._run(self.accounts.tables_of, account_id):
            try:
                table = await self.platform.get(table_id)
            except ApiError:
                continue
            async with table.lock:
                spec = table.seats[seat]
                if is_given(spec["name"], table.game, seat, spec):
                    continue
                names = [s["name"] for s in table.seats]
                new, k = FORMER, 1
                while holder(names, new, skip=seat) is not None:
                    k += 1
                    new = f"{FORMER} {k}"

                async def rename_chat(table: LiveTable = table, seat: int = seat, new: str = new) -> None:
                    await self._run(self._rename_chat, table.id, seat, new)
                    table.chat = None  # read again from the database, renamed

                await self.platform.rename_seat(table, seat, new, rename_chat)

    def _rename_chat(self, table_id: str, seat: int, name: str) -> None:
        with self.store.engine.begin() as c:
            c.exec_driver_sql(
                "UPDATE chat SET name = "
                + ("?" if self.store.is_sqlite else "%s")
                + " WHERE table_id = "
                + ("?" if self.store.is_sqlite else "%s")
                + " AND seat = "
                + ("?" if self.store.is_sqlite else "%s"),
                (name, table_id, seat),
            )


def _title(game: str) -> str:
    try:
        return str(game_class(game).title)
    except Exception:
        return game


def account_routes(
    platform: Platform, page: Callable[[str], HTMLResponse], client: Callable[[Request], str]
) -> tuple[APIRouter, Players]:
    """The router (pages and API) and the :class:`Players` the table routes consult."""
    players = Players(platform, client)
    router = APIRouter()

    @router.get("/players/{name}", include_in_schema=False)
    async def profile_page(name: str) -> HTMLResponse:
        return page("profile.html")

    @router.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page() -> HTMLResponse:
        return page("leaderboard.html")

    @router.get("/api/account", response_model=AccountOut)
    async def get_account(request: Request) -> Response:
        """Who is signed in in this browser; ``csrf``: the token cookie-authenticated writes send as ``X-CSRF-Token``."""
        account, sid = await players.session(request)
        if account is None or sid is None:
            return _json({"signed_in": False, "name": None, "csrf": None})
        return _json({"signed_in": True, "name": account.name, "csrf": players.accounts.csrf_token(sid)})

    def _check_origin(request: Request) -> None:
        if not players._same_origin(request):
            raise ApiError(403, "csrf", "This request did not come from this site's page.")

    async def _replace_session(request: Request) -> None:
        """Signing in or up drops the session this browser had (a session id is never carried over: no fixation)."""
        old = players.accounts.session_id(request.cookies.get(SESSION_COOKIE))
        if old is not None:
            await players._run(players.accounts.end_session, old)

    @router.post("/api/account/signup", status_code=201, response_model=AccountOut)
    async def sign_up(body: CredentialsIn, request: Request) -> Response:
        """A new account, signed in here. 409 ``name_taken`` when the name is someone's already."""
        _check_origin(request)
        account, sid = await players._run(players.accounts.sign_up, body.name, body.password, client(request))
        await _replace_session(request)
        return players._signed_in(account, sid, request, 201)

    @router.post("/api/account/signin", response_model=AccountOut)
    async def sign_in(body: CredentialsIn, request: Request) -> Response:
        """Signed in here with a new session. 401 ``wrong_sign_in`` alike for an unknown name and a wrong password;
        429 after too many failures from this address or for this name."""
        _check_origin(request)
        account, sid = await players._run(players.accounts.sign_in, body.name, body.password, client(request))
        await _replace_session(request)
        return players._signed_in(account, sid, request)

    @router.post("/api/account/signout", response_model=OkOut)
    async def sign_out(request: Request) -> Response:
        _account, sid = await players.writer(request)
        assert sid is not None
        await players._run(players.accounts.end_session, sid)
        response = _json({"ok": True})
        players._signed_out(response)
        return response

    @router.post("/api/account/signout-everywhere", response_model=OkOut)
    async def sign_out_everywhere(request: Request) -> Response:
        """Every session of this account ends, in every browser and on every server process."""
        account, _sid = await players.writer(request)
        assert account is not None
        n = await players._run(players.accounts.end_all_sessions, account.id)
        response = _json({"ok": True, "sessions": n})
        players._signed_out(response)
        return response

    @router.post("/api/account/delete", response_model=OkOut)
    async def delete_account(body: PasswordIn, request: Request) -> Response:
        """Delete the account (its password confirms it): name, password, sessions and ratings go; the games stay,
        the name they showed becomes "Former player"."""
        account, _sid = await players.writer(request)
        assert account is not None
        if not await players._run(players.accounts.check_password_of, account.id, body.password):
            raise forbidden("That is not this account's password.")
        await players.settle_pending([t for t, _ in await players._run(players.accounts.tables_of, account.id)])
        await players.anonymise(account.id, account.name)
        await players._run(players.accounts.delete, account.id)
        response = _json({"ok": True})
        players._signed_out(response)
        return response

    @router.post("/api/account/claim", response_model=ClaimedOut)
    async def claim(body: ClaimIn, request: Request) -> Response:
        """Bind to this account the seats whose tokens this browser holds (one seat per table; not hot-seat)."""
        account, _sid = await players.writer(request)
        assert account is not None
        return _json({"claimed": await players.claim(account, body.tables)})

    @router.get("/api/players/{name}", response_model=ProfileOut)
    async def get_profile(name: str) -> Response:
        """A player's ratings per game, wins, losses and draws by game, recent games (each with its replay) and the
        tables they play now."""
        return _json(await players.profile(name))

    @router.get("/api/players/games/{table_id}/record", response_model=RecordOut)
    async def get_played_record(table_id: str) -> Response:
        """The record of a finished game an account played: it is on their profile, so anyone may replay it."""
        if not await players._run(players.accounts.players, table_id):
            raise not_found("no player's game has this id")
        table = await platform.get(table_id)
        if not table.over:
            raise conflict("not_finished", "This game is still being played.")
        return Response(table.record().to_json(indent=1), media_type="application/json")

    @router.get("/api/leaderboard/{game}", response_model=LeaderboardOut)
    async def get_leaderboard(game: str) -> Response:
        """A game's rated players (established first, each group best first) and each AI level's fixed rating."""
        return _json(await players.leaderboard(game))

    return router, players
