"""The quick-play API (:mod:`boardlab.server.seeks`): post a seek, poll it (its heartbeat), cancel it.

=======  ==========================  ===========================================================================
POST     /api/seeks                  ``{"game", "options", "num_players", "rated", "clock", "name"}``: a new seek, its
                                     ``token`` (the seeker's: send it as ``Authorization: Bearer``), maybe matched
GET      /api/seeks/{id}             the seek now (the page polls every 2 s: a seek not polled for 15 s expires);
                                     once matched, the table, the seat and that seat's link
POST     /api/seeks/{id}/cancel      stop seeking (409 ``matched`` with the table once it is matched)
GET      /api/seeking                how many are seeking, by game
=======  ==========================  ===========================================================================
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from collections.abc import Callable
from typing import Any, Literal

from fastapi import APIRouter, Header, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import func, select

from ..core.options import check_json_types
from ..core.wording import COLOUR_WORDS
from ..games import game_class
from . import clock as clocks
from . import ratings
from .account_routes import Players, _json
from .errors import ApiError, bad_request, conflict, forbidden, not_found
from .limits import too_many
from .live import token_hash
from .schemas import SeekOut, SeeksOut
from .seatnames import clean_name, given_name, name_key
from .seeks import Seek, Seeks, accepted_range, check_secret, pool_key, seat_token, seeks_t
from .tables import Platform

log = logging.getLogger("boardlab.server")

#: Names a guest may not seek under: the names the table gives seats nobody named.
SEAT_WORDS = frozenset(w.casefold() for w in COLOUR_WORDS)


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class SeekClockIn(_Body):
    kind: Literal["none", "move", "game"] = "none"
    seconds: float | None = Field(default=None, ge=1, le=86400)


class SeekIn(_Body):
    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict, max_length=32)
    #: Two: a seek finds one opponent (a game for more players is played at an open table).
    num_players: int | None = Field(default=None, ge=2, le=2)
    #: A rated game (signed in, the CSRF token sent): matched with a player of a near rating.
    rated: bool = False
    #: The turn clock, as a new table takes it.
    clock: SeekClockIn | None = None
    #: A guest's seat name (a signed-in player plays under the account's name).
    name: str | None = Field(default=None, max_length=64)


def _bearer(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, value = authorization.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def seek_routes(platform: Platform, players: Players, client: Callable[[Request], str]) -> tuple[APIRouter, Seeks]:
    seeks = Seeks(platform.store)
    router = APIRouter()
    quotas = platform.settings.quotas

    async def run(fn: Any, *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)

    def body_of(seek: Seek, request: Request, secret: str | None = None) -> dict[str, Any]:
        now = seeks.clock()
        out: dict[str, Any] = {
            "id": seek.id,
            "status": seek.status,
            "game": seek.game,
            "title": _title(seek.game),
            "options": seek.options,
            "num_players": seek.num_players,
            "rated": seek.rated,
            "clock": seek.clock,
            "name": seek.name,
            "rating": round(seek.rating) if seek.rating is not None else None,
            "range": round(accepted_range(now - seek.created_at)) if seek.rated else None,
            "waited": round(max(0.0, now - seek.created_at), 1),
            "table": None,
            "seat": None,
            "link": None,
            "url": None,
            "opponent": None,
        }
        if seek.status == "matched" and secret is not None:
            link = f"/table/{seek.table_id}#t={seat_token(secret)}"
            base = str(request.base_url).rstrip("/")
            out.update(table=seek.table_id, seat=seek.seat, link=link, url=base + link, opponent=seek.opponent)
        return out

    async def make_table(claim: str, a: Seek, b: Seek) -> None:
        """Both seeks claimed: their table, both seated (in a random order), each seek told its seat."""
        try:
            order = [a, b] if secrets.randbelow(2) == 0 else [b, a]
            spectator = secrets.token_urlsafe(18)
            table = None
            # the seekers' names; where they clash (with each other or a seat's own name), guests' names give way
            for names in (
                [s.name for s in order],
                [s.name if s.account_id else None for s in order],
                [None, None],
            ):
                game = platform.game_for(a.game, a.options)
                shown = [n or given_name(game, s, "human", None) for s, n in enumerate(names)]
                if name_key(shown[0]) == name_key(shown[1]) and names != [None, None]:
                    continue
                try:
                    table, _tokens, _spectator, _host = await platform.create(
                        a.game,
                        a.options,
                        a.num_players,
                        "online",
                        [{"kind": "human", "name": n} for n in names],
                        None,
                        None,
                        clock=a.clock,
                        same_tokens=([s.token_hash for s in order], token_hash(spectator)),
                        owner=order[0].address,
                    )
                    break
                except ApiError as e:
                    if e.status != 400 or names == [None, None]:
                        raise
            assert table is not None
            if a.rated:
                await run(players.accounts.mark_rated, table.id, table.game.id)
            for s, seek in enumerate(order):
                if seek.account_id is not None:
                    await run(players.accounts.bind, table.id, s, seek.account_id, table.game.id)
            for s, seek in enumerate(order):
                other = table.seats[1 - s]["name"]
                await run(seeks.matched, claim, seek.id, table.id, s, other)
        except Exception:
            log.exception("seeks %s and %s: their table could not be made; they wait again", a.id, b.id)
            await run(seeks.release, claim)

    tidied = [0.0]

    async def try_match(seek_id: str) -> None:
        if seeks.clock() - tidied[0] >= 1.0 or seeks.clock() < tidied[0]:  # at most once a second
            tidied[0] = seeks.clock()
            await run(seeks.tidy)
        claimed = await run(seeks.claim, seek_id)
        if claimed is not None:
            await make_table(*claimed)

    async def own(seek_id: str, authorization: str | None) -> tuple[Seek, str]:
        secret = _bearer(authorization)
        if secret is None:
            raise ApiError(401, "no_token", "Send the seek's token (Authorization: Bearer).")
        seek = await run(seeks.get, seek_id)
        if seek is None:
            raise not_found("no such seek")
        if not check_secret(seek, secret):
            raise forbidden("That is not this seek's token.")
        return seek, secret

    def check(body: SeekIn) -> tuple[str, dict[str, Any], int, dict[str, Any] | None]:
        """The seek's game, options (resolved, defaults included), players and clock; 400 before anything is made."""
        try:
            cls = game_class(body.game)
        except Exception:
            raise not_found(f"unknown game {body.game!r}") from None
        try:
            check_json_types(body.game, cls.options, body.options)
            game = platform.game_for(body.game, body.options)
            n = game.resolve_num_players(body.num_players if body.num_players is not None else 2)
        except ValueError as e:
            raise bad_request(str(e)) from None
        if game.cooperative and body.rated:
            raise bad_request("a co-operative game is not rated: everyone wins or loses together")
        spec = body.clock.model_dump() if body.clock is not None else None
        clock = clocks.new_clock(spec, n)
        canon = {"kind": clock["kind"], "seconds": clock["seconds"]} if clock is not None else None
        return game.id, dict(game.params), n, canon

    @router.post("/api/seeks", status_code=201, response_model=SeekOut)
    async def post_seek(body: SeekIn, request: Request) -> Response:
        """Seek an opponent: a waiting seek (or, if a waiting one fits, already matched) and its token."""
        address = client(request)
        platform.limits.table_created(address)
        account, _sid = await players.writer(request, False, strict=body.rated)
        if body.rated and account is None:
            raise ApiError(403, "sign_in_needed", "Sign in to play a rated game; guests may seek casual games.")
        game, options, n, clock = check(body)
        if account is not None:
            name: str | None = account.name
        elif body.name is not None:
            try:
                name = clean_name(body.name)
            except ValueError as e:
                raise bad_request(f"name: {e}") from None
            if name.casefold() in SEAT_WORDS or re.fullmatch(r"player \d+", name.casefold()):
                # the table names a seat nobody named so (its colour, "Player 2"): the opponent might be called that
                raise bad_request(f"name: {name!r} is how the table names a seat; choose another")
        else:
            name = None
        cap = quotas.seeks_per_address
        if cap and await run(seeks.waiting_of, address) >= cap:
            raise too_many("seeks at once", seeks.timeout)
        pool = pool_key(game, options, n, body.rated, clock)
        if account is not None and await run(seeks.waiting_of, None, account.id, pool):
            raise conflict("already_seeking", "You are already seeking this game; cancel that seek first.")
        rating = float((await run(ratings.rating_for, platform.store, account.id, game)).shown) if account else None
        seek, secret = await run(
            seeks.add, game, options, n, clock, body.rated, account.id if account else None, name, rating, address
        )
        await try_match(seek.id)
        seek = await run(seeks.get, seek.id)
        return _json({**body_of(seek, request, secret), "token": secret}, 201)

    @router.get("/api/seeks/{seek_id}", response_model=SeekOut)
    async def get_seek(seek_id: str, request: Request, authorization: str | None = Header(default=None)) -> Response:
        """The seek now (its heartbeat: a seek not asked about for 15 s expires, 410). Once matched: the table, seat
        and link."""
        seek, secret = await own(seek_id, authorization)
        seek = await run(seeks.heartbeat, seek.id)
        if seek.status == "waiting":
            await try_match(seek.id)
            seek = await run(seeks.get, seek.id)
        if seek.status == "expired":
            raise ApiError(410, "expired", "This seek expired: its page stopped asking. Seek again.")
        if seek.status == "cancelled":
            raise ApiError(410, "cancelled", "This seek was cancelled.")
        return _json(body_of(seek, request, secret))

    @router.post("/api/seeks/{seek_id}/cancel", response_model=SeekOut)
    async def cancel_seek(seek_id: str, request: Request, authorization: str | None = Header(default=None)) -> Response:
        """Stop seeking. 409 ``matched`` (with the table) once an opponent was found."""
        seek, secret = await own(seek_id, authorization)
        if not await run(seeks.cancel, seek.id):
            seek = await run(seeks.get, seek.id)
            if seek.status == "matched":
                raise ApiError(409, "matched", "An opponent was found already: go to your table.", **_table(seek))
            if seek.status == "claimed":
                raise conflict("matching", "An opponent is being found; ask again in a moment.")
        seek = await run(seeks.get, seek.id)
        return _json(body_of(seek, request, secret))

    def _table(seek: Seek) -> dict[str, Any]:
        return {"table": seek.table_id, "seat": seek.seat}

    @router.get("/api/seeking", response_model=SeeksOut)
    async def list_seeks() -> Response:
        """How many players are seeking now, by game (rated and casual apart)."""

        def counts() -> list[dict[str, Any]]:
            with platform.store.engine.connect() as c:
                rows = c.execute(
                    select(seeks_t.c.game, seeks_t.c.rated, func.count())
                    .where(seeks_t.c.status == "waiting", seeks_t.c.seen_at > seeks.clock() - seeks.timeout)
                    .group_by(seeks_t.c.game, seeks_t.c.rated)
                ).all()
            return [{"game": g, "title": _title(g), "rated": bool(r), "seeking": int(k)} for g, r, k in rows]

        return _json({"seeks": sorted(await run(counts), key=lambda x: (x["title"], x["rated"]))})

    return router, seeks


def _title(game: str) -> str:
    try:
        return str(game_class(game).title)
    except Exception:
        return game
