"""The FastAPI application: JSON API, WebSocket live updates and the static browser front-end.

Endpoints (all JSON; errors are ``{"error": code, "message": sentence}`` with a 4xx status):

=======  ====================================  =============================================
GET      /api/health                           liveness
GET      /api/games                            every registered game, with the AI agents
GET      /api/games/{game}                     one game's metadata
GET      /api/games/{game}/rules               its rules document (Markdown and HTML, diagrams as scenes)
GET      /api/games/{game}/picture             the lobby's picture of the game (a scene, drawn by the browser)
GET      /api/agents                           AI agents and levels on offer
POST     /api/tables                           create a table (returns seat tokens and links)
GET      /api/tables/{id}                      the view of the token's seat (or spectator)
POST     /api/tables/{id}/moves                play ``{"action": n | "label": s, "revision": r}``
POST     /api/tables/{id}/undo                 take back within the rules ``{"revision": r}``
POST     /api/tables/{id}/rematch              a finished table's rematch, seats moved one place on
POST     /api/tables/{id}/resign               the token's seat resigns (it loses, the game ends)
POST     /api/tables/{id}/draw                 ``{"answer": "offer" | "accept" | "decline"}`` a draw
POST     /api/tables/{id}/abort                abort before a second player has moved (no result)
POST     /api/tables/{id}/claim-win            claim the win from players away past the grace period
POST     /api/my-tables                        ``{"tables": [{"id", "token"}]}``: where it is your move
GET      /api/open-tables                      the lobby's open tables: free seats, spectators, a watch link
POST     /api/tables/{id}/join                 take a free seat of an open table ``{"seat"?, "name"?}``
GET      /api/tables/{id}/chat                 the table's chat (any token of the table)
POST     /api/tables/{id}/chat                 say something ``{"text"}`` (a seat's token; spectators only read)
GET      /api/tables/{id}/record               the game record (JSON) for download
GET      /api/tables/{id}/positions/{step}     the position after ``step`` entries, as the token's seat saw it
WS       /api/tables/{id}/ws                   live views, presence, moves
GET      /api/geometry/{gid}                   board shapes referred to by views
POST     /api/replays                          check a record, returns a replay id and summary
GET      /api/replays/{rid}/{step}?seat=k      one replay frame (``reveal=true``: the whole record's log)
=======  ====================================  =============================================

Accounts, profiles and leaderboards (``/api/account``, ``/api/players``, ``/api/leaderboard``): server/account_routes.py.
Finding an opponent (``/api/seeks``): server/seek_routes.py.

Seat and spectator tokens travel in ``Authorization: Bearer <token>`` (on the
WebSocket, in the first message), never in URLs the server sees.

The WebSocket protocol (JSON text messages):

* client → ``{"type": "hello", "tokens": [...], "view": token | null}`` first: the tokens held
  (presence), and whose view to receive (``null``: the public view; absent: the first seat held);
* server → ``{"type": "view", "seat", "view"}`` now and after every change, preceded once per board
  by ``{"type": "geometry", "geometry"}``; ``{"type": "error", ...}`` then close (4400 bad hello,
  4403 wrong token, 4404 no such table, 4429 too many connections from the address: to the table, or to all tables
  together, the reason in the close frame too); a socket that sends no hello within ``hello_seconds`` (5) is closed
  (4408, with the reason);
* client → ``{"type": "move", "id", "seat", "action" | "label", "revision"}`` or
  ``{"type": "undo", "id", "seat", "revision"}``; server → ``{"type": "ack", "id", "ok", ...}``
  after the change is stored (the new view comes just before it), or ``ok: false`` with the error;
* client → ``{"type": "view_as", "token": token | null}`` to switch views (hot-seat), ``{"type": "ping"}``;
* client → ``{"type": "chat", "seat", "text"}``; server → ``{"type": "chat", "message": {"seat", "name", "text", "at"}}``
  to every page of the table (``{"type": "error"}`` to the sender if refused).
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
import pathlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, Literal

from fastapi import APIRouter, FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Route

from ..agents import level_figures, level_note
from ..core.wording import for_players
from ..docs import balance_verdict, typical_moves
from ..games import game_class, make_cached
from ..games import games as game_ids
from .account_routes import account_routes
from .chance import SEEDED_NOTICE
from .errors import ApiError, bad_request, forbidden, not_found
from .lab import lab_routes
from .markdown import to_html
from .pages import WEB_DIR, made_page, page_response
from .pictures import diagram_html, game_picture
from .replay import ReplayCache
from .schemas import (
    AgentsOut,
    ChatOut,
    CreatedTableOut,
    FrameOut,
    GameOut,
    GamesOut,
    GeometryOut,
    HealthOut,
    JoinedOut,
    MovedOut,
    MyTablesOut,
    OpenTablesOut,
    PictureOut,
    PositionOut,
    RecordOut,
    RematchOut,
    ReplayOut,
    RulesOut,
    SaidOut,
    ViewOut,
)
from .seatnames import base_name
from .seek_routes import seek_routes
from .tables import CHAT_MAX, Connection, LiveTable, Platform, Settings
from .views import geometry_text, position_view

log = logging.getLogger("boardlab.server")

MAX_BODY = 2_000_000
MAX_WS_MESSAGE = 4096
#: Sent with every HTTP response. The pages run only the app's own scripts and styles, connect only to their own
#: server (its WebSocket included), are never framed, and never send a Referer (tokens travel in URL fragments).
SECURITY_HEADERS = (
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        b"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
MAX_QUEUE = 256


# -- request bodies -----------------------------------------------------------
class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class SeatIn(_Body):
    kind: Literal["human", "ai"]
    agent: str | None = Field(default=None, max_length=200)
    name: str | None = Field(default=None, max_length=64)


class ClockIn(_Body):
    kind: Literal["none", "move", "game", "days"] = "none"
    seconds: float | None = Field(default=None, ge=1, le=86400)
    #: A turn-based (correspondence) table: the days each move may take (``kind`` ``"days"``).
    days: int | None = Field(default=None, ge=1, le=14)


class CreateTableIn(_Body):
    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict, max_length=32)
    num_players: int | None = Field(default=None, ge=1, le=16)
    mode: Literal["ai", "hotseat", "online"] = "ai"
    seats: list[SeatIn] | None = Field(default=None, max_length=16)
    seed: int | None = Field(
        default=None,
        ge=0,
        le=2**62,
        description="Chance from this seed, only where every seat agrees: every seat human, and a hot-seat table or "
        "a perfect-information game (the table then says it is seeded to every seat, spectator and joining player); "
        "any other table refuses it (400 seed_not_allowed; AI seats cannot agree) and draws chance from a secret key.",
    )
    host_seat: int | None = Field(default=None, ge=0, le=15)
    #: An AI match to watch: every seat is an AI seat (refused without it).
    watch: bool = False
    #: An online table listed in the lobby: its free seats (all human seats but the host's) are anyone's to take.
    open: bool = False
    #: A turn clock: per move (``seconds`` a decision) or per game (``seconds`` per player in all).
    clock: ClockIn | None = None
    #: A rated game (the creator signed in, its CSRF token sent): every human seat is played by an account, and their
    #: ratings for the game change when it ends (server/ratings.py).
    rated: bool = False


class JoinIn(_Body):
    seat: int | None = Field(default=None, ge=0, le=15)
    name: str | None = Field(default=None, max_length=64)


class ChatIn(_Body):
    #: The server's limit, declared; the server checks it, saying why in players' words.
    text: str = Field(json_schema_extra={"maxLength": CHAT_MAX})


class MoveIn(_Body):
    action: int | None = Field(default=None, ge=-(2**31), le=2**31)
    label: str | None = Field(default=None, max_length=200)
    revision: int = Field(ge=0)


class UndoIn(_Body):
    revision: int = Field(ge=0)


class DrawIn(_Body):
    #: Offer a draw, accept the one offered, or decline it (the offerer declining withdraws it).
    answer: Literal["offer", "accept", "decline"]


class MyTableIn(_Body):
    id: str = Field(max_length=64)
    token: str = Field(max_length=200)


class MyTablesIn(_Body):
    #: The tables this browser holds links for, each with its token (as the lobby's "Your tables" keeps them).
    tables: list[MyTableIn] = Field(max_length=100)


class ReplayIn(_Body):
    record: dict[str, Any]


class ErrorOut(BaseModel):
    """Every refusal: a stable machine word and a sentence for people (some add details, e.g. ``revision``)."""

    model_config = ConfigDict(extra="allow")
    error: str
    message: str


#: The refusals any API request may meet, declared in the OpenAPI document with their real bodies.
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut, "description": what}
    for status, what in (
        (400, "Bad request: not JSON, a wrong field or value (nothing changed)"),
        (401, "No token, or a token in the wrong form"),
        (403, "The token does not allow this"),
        (404, "No such game, table, replay or step"),
        (
            409,
            "Stale revision, a move after the clock ran out, a name already at the table, or a move that cannot be "
            "undone: look again and retry",
        ),
        (410, "The table was abandoned and has expired"),
        (413, "The body is over the size limit"),
        (422, "An illegal move, with the rules' reason"),
        (429, "Too many requests: retry after the time in Retry-After"),
    )
}


# -- helpers --------------------------------------------------------------------
def fast_json(data: Any, status: int = 200) -> Response:
    """A JSON response encoded with the standard library (FastAPI's generic encoder is slow on big views)."""
    return Response(
        json.dumps(data, separators=(",", ":"), ensure_ascii=False), status_code=status, media_type="application/json"
    )


def json_text(text: str, status: int = 200) -> Response:
    return Response(text, status_code=status, media_type="application/json")


def _token(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, value = authorization.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise ApiError(401, "no_token", "send the token as 'Authorization: Bearer <token>'")
    return value.strip()


def wants_page(request: Request) -> bool:
    """Whether a request is a browser's for a page (not the API's, whose errors stay JSON)."""
    path = request.url.path
    return not path.startswith(("/api/", "/static/")) and "text/html" in request.headers.get("accept", "")


def missing_page(message: str) -> HTMLResponse:
    """A browser's 404: a page in the site's frame saying what is missing, with the way back to the lobby."""
    text = html.escape(message[:1].upper() + message[1:])
    return HTMLResponse(
        made_page(
            "Not found · boardlab",
            "not found",
            f"<main class='rules'><h1>Page not found</h1><p>{text}.</p>"
            "<p><a href='/'>Back to the lobby</a>, where every game and its rules are listed.</p></main>",
        ),
        status_code=404,
    )


def rules_markdown(game_id: str) -> str | None:
    """The rules document of a registered game (``None`` if it has none), with the table rules added: turn clocks."""
    text = _rules_document(game_id)
    if text is None:
        return None
    return text.rstrip() + "\n\n" + clock_rules(game_id)


def rules_html(game_id: str, text: str) -> str:
    """A rules document as HTML, its ``position`` blocks drawn as diagrams of the game's own scenes."""
    return to_html(text, fences={"position": lambda block: diagram_html(game_id, block)})


def clock_rules(game_id: str) -> str:
    """The rules page's paragraph on turn clocks, from the game's own rule for a timeout (so every game has one)."""
    return (
        "## Turn clocks\n\n"
        "A table may be played with a turn clock, chosen when it is made: a time for each move, or a time for each "
        "player for the whole game, or days for each move at a turn-based table. The time left is shown beside each "
        "player. "
        f"{make_cached(game_id).timeout_rule()}\n"
    )


def _rules_document(game_id: str) -> str | None:
    if game_id not in game_ids():
        return None
    try:
        from .. import docs  # type: ignore[attr-defined]

        text = docs.rules_text(game_id)
        if isinstance(text, str) and text.strip():
            return text
    except Exception:  # the helper may be absent or not know this game: fall back to the files
        pass
    here = pathlib.Path(__file__).resolve()
    for base in (here.parents[1] / "docs" / "rules", here.parents[3] / "docs" / "rules"):
        path = base / f"{game_id}.md"
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return None


_LISTINGS: dict[str, dict[str, Any]] = {}


def level_elo(game_id: str) -> dict[str, float]:
    """The measured Elo (against ``random`` = 0) of the AI levels in this game that the lobby may show.

    Only the levels whose 95% interval separates them from the levels beside them
    (:func:`boardlab.agents.level_figures`): a figure where the measurement cannot
    order two levels would claim an order the data do not support.
    """
    try:
        return {str(k): float(v) for k, v in level_figures(game_id).items()}
    except Exception:  # measurements are optional: the lobby then names levels without a rating
        return {}


def level_words(game: Any) -> str:
    """Where the measured games do not tell the levels apart, the level menu's words saying so (``""`` otherwise;
    :func:`boardlab.agents.level_note`, generic from the head-to-head table in ``docs/ai/<game>.md``)."""
    luck = game.game_type.chance.value != "none" or not game.perfect_information
    try:
        return level_note(game.id, luck=luck)
    except Exception:  # measurements are optional
        return ""


def game_listing(game_id: str) -> dict[str, Any]:
    """A game's metadata for the lobby (computed once per server process)."""
    if game_id not in _LISTINGS:
        meta = make_cached(game_id).metadata()
        # the lobby's words are for players: the inventions without the rules document's clause references
        meta["inventions"] = [for_players(str(x)) for x in meta.get("inventions") or []]
        # ... and so are the options' descriptions the lobby shows beside each option
        meta["options"] = [
            dict(o, description=for_players(str(o["description"]))) if o.get("description") else o
            for o in meta.get("options") or []
        ]
        meta["has_rules"] = rules_markdown(game_id) is not None
        # what the table will call each seat nobody names ("Red"; "Player 1" where the game names no colour)
        game = make_cached(game_id)
        meta["seat_names"] = [base_name(game, s) for s in range(game.max_players)]
        meta["level_elo"] = level_elo(game_id)
        meta["level_note"] = level_words(game)
        meta["balance_verdict"] = balance_verdict(game_id)  # docs/balance/<id>.md, written by the lab
        meta["typical_moves"] = typical_moves(game_id)  # measured there too: the lobby's length filter
        _LISTINGS[game_id] = meta
    return _LISTINGS[game_id]


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        loc = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
        msg = err.get("msg", "invalid")
        if err.get("type") == "json_invalid":
            return "the request body is not valid JSON"
        if err.get("type") == "missing" and not loc:
            return "the request needs a JSON body"
        parts.append(f"{loc or 'body'}: {msg}")
    return "; ".join(parts) or "invalid request"


class LimitsMiddleware:
    """Refuse oversized bodies early and add a few safety headers (a plain ASGI middleware: cheap)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                if not value.isdigit():
                    await _send_json(send, 400, {"error": "bad_request", "message": "bad Content-Length"})
                    return
                if int(value) > MAX_BODY:
                    body = {"error": "too_large", "message": f"request bodies are limited to {MAX_BODY} bytes"}
                    await _send_json(send, 413, body)
                    return
        api = scope.get("path", "").startswith("/api/")
        received = 0
        started = refused = False

        async def receive_counted() -> dict[str, Any]:
            # A chunked body has no Content-Length: count the bytes as they stream and stop at the limit. The
            # refusal goes out at once; the application is told the client left, and whatever it answers is dropped.
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > MAX_BODY and not started:
                    refused = True
                    body = {"error": "too_large", "message": f"request bodies are limited to {MAX_BODY} bytes"}
                    await _send_json(send, 413, body)
                    return {"type": "http.disconnect"}
            return message

        async def send_with_headers(message: dict[str, Any]) -> None:
            nonlocal started
            if refused:
                return
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                extra = [*SECURITY_HEADERS]
                if api:
                    extra.append((b"cache-control", b"no-store"))
                headers.extend((k, v) for k, v in extra if k not in names)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive_counted, send_with_headers)


async def _send_json(send: Any, status: int, body: dict[str, Any]) -> None:
    data = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": data})


def create_app(settings: Settings | None = None) -> FastAPI:
    """The boardlab web application (one :class:`Platform` per app)."""
    platform = Platform(settings)
    replays = ReplayCache()
    lab_router, lab = lab_routes(  # /lab (server/lab.py)
        platform.settings.db_url,
        page_response,
        _client,
        platform.settings.ai_move_seconds,
        platform.settings.quotas,
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await platform.start()
        try:
            yield
        finally:
            lab.close()
            await platform.stop()

    app = FastAPI(
        title="boardlab",
        lifespan=lifespan,
        docs_url=None,  # Swagger UI would load its scripts from a CDN, which the page policy forbids
        responses=ERROR_RESPONSES,
        openapi_url="/api/openapi.json",
        redoc_url=None,
    )
    app.state.platform = platform
    app.add_middleware(LimitsMiddleware)
    #: The routers included below (server/lab.py, account_routes.py, seek_routes.py): a 405's Allow names theirs too.
    included: list[APIRouter] = []

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> Response:
        if exc.status == 404 and wants_page(request):
            return missing_page(str(exc.body().get("message") or "not found"))
        wait = exc.extra.get("retry_after")
        headers = {"Retry-After": str(wait)} if exc.status == 429 and wait else None
        return JSONResponse(exc.body(), status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": "bad_request", "message": _validation_message(exc)}, status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404 and wants_page(request):
            return missing_page("there is no page at this address")
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        body = {"error": code, "message": str(exc.detail)}
        headers = exc.headers
        if exc.status_code == 405:  # every method of the path, where several routes share it (GET and POST chat)
            path = request.url.path
            methods = {
                m
                for router in (app.router, *included)  # (an included router's routes are not the app's own)
                for r in router.routes
                if isinstance(r, Route) and r.path_regex.match(path)
                for m in r.methods or ()
            }
            if methods:
                headers = {**(headers or {}), "Allow": ", ".join(sorted(methods))}
        return JSONResponse(body, status_code=exc.status_code, headers=headers)  # 405 keeps its Allow

    # -- pages ------------------------------------------------------------------
    page = page_response  # web/<name> inside web/layout.html (server/pages.py)

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> HTMLResponse:
        return page("index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> HTMLResponse:
        return page("table.html")

    @app.get("/replay", include_in_schema=False)
    async def replay_page() -> HTMLResponse:
        return page("replay.html")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        """Browsers ask for it on pages that name no icon (a JSON page, a document opened by hand)."""
        return FileResponse(
            WEB_DIR / "favicon.svg", media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"}
        )

    @app.get("/rules/{game_id}", include_in_schema=False)
    async def rules_page(game_id: str) -> HTMLResponse:
        text = rules_markdown(game_id)
        if text is None:
            known = game_id in game_ids()
            raise not_found("this game has no rules page yet" if known else f"there is no game called {game_id!r}")
        title = html.escape(game_class(game_id).title)
        body = rules_html(game_id, text)
        return HTMLResponse(
            made_page(
                f"{title} · rules · boardlab",
                f"{title} · rules",
                f"<main class='rules'>{body}</main>",
                body='<body class="rules-page">',
                end="  <script type='module' src='/static/js/rules.js'></script>\n",
            )
        )

    accounts_router, players = account_routes(platform, page_response, _client)  # server/account_routes.py
    seeks_router, app.state.seeks = seek_routes(platform, players, _client)  # quick play: server/seek_routes.py
    included.extend([lab_router, accounts_router, seeks_router])  # (no prefix: their paths are the app's)
    for router in included:
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")

    # -- games -------------------------------------------------------------------
    @app.get("/api/health", response_model=HealthOut)
    async def health() -> Response:
        return fast_json({"ok": True, "tables_in_memory": len(platform.tables)})

    @app.get("/api/games", response_model=GamesOut)
    async def list_games() -> Response:
        out = []
        for gid in game_ids():
            try:
                out.append(game_listing(gid))
            except Exception as e:  # a game module under construction must not take the lobby down
                log.warning("game %s could not be listed: %s", gid, e)
        return fast_json({"games": out, "agents": platform.agents()})

    @app.get("/api/games/{game_id}", response_model=GameOut)
    async def get_game(game_id: str) -> Response:
        if game_id not in game_ids():
            raise not_found(f"unknown game {game_id!r}; known games: {', '.join(game_ids())}")
        return fast_json(game_listing(game_id))

    @app.get("/api/games/{game_id}/rules", response_model=RulesOut)
    async def get_rules(game_id: str) -> Response:
        text = rules_markdown(game_id)
        if text is None:
            raise not_found(f"no rules document for {game_id!r}")
        return fast_json({"game": game_id, "markdown": text, "html": rules_html(game_id, text)})

    @app.get("/api/games/{game_id}/picture", response_model=PictureOut)
    async def get_picture(game_id: str) -> Response:
        """The lobby's picture of a game: a spectator's view of a position some way into a game (a scene)."""
        if game_id not in game_ids():
            raise not_found(f"there is no game called {game_id!r}")
        scene = await asyncio.to_thread(game_picture, game_id)
        response = fast_json({"game": game_id, "scene": scene})
        response.headers["Cache-Control"] = "max-age=3600"
        return response

    @app.get("/api/agents", response_model=AgentsOut)
    async def get_agents() -> Response:
        return fast_json(platform.agents())

    # -- tables ------------------------------------------------------------------
    async def _table_and_seat(table_id: str, authorization: str | None) -> tuple[LiveTable, int | None]:
        token = _token(authorization)
        table = await platform.get(table_id)
        return table, table.seat_of(token)

    @app.post("/api/tables", status_code=201, response_model=CreatedTableOut)
    async def create_table(body: CreateTableIn, request: Request) -> Response:
        platform.limits.table_created(_client(request))
        account, _sid = await players.writer(request, False, strict=body.rated)  # accounts: a signed-in creator
        seats = [s.model_dump() for s in body.seats] if body.seats is not None else None
        if body.rated:
            players.check_rated(account, body.mode, seats, body.game)
        table, tokens, spectator, host = await platform.create(
            body.game,
            body.options,
            body.num_players,
            body.mode,
            seats,
            body.seed,
            body.host_seat,
            body.watch,
            open_table=body.open,
            clock=body.clock.model_dump() if body.clock is not None else None,
            owner=_client(request),
        )
        await players.created(table.id, table.game.id, host if table.mode != "hotseat" else None, account, body.rated)
        base = str(request.base_url).rstrip("/") + f"/table/{table.id}#t="
        if table.mode == "online":
            host_tokens = [tokens[host]] if host is not None else []
        else:
            host_tokens = [tokens[s] for s in sorted(tokens)]
        return fast_json(
            {
                "id": table.id,
                "table": table.summary(),
                "seats": table.seats,
                "tokens": {str(s): t for s, t in tokens.items()},
                "spectator_token": spectator,
                "host_seat": host,
                "rated": body.rated,
                "links": {
                    "host": base + ",".join(host_tokens or [spectator]),
                    "seats": {str(s): base + t for s, t in tokens.items()},
                    "spectator": base + spectator,
                },
            },
            status=201,
        )

    @app.get("/api/tables/{table_id}", response_model=ViewOut)
    async def get_view(
        table_id: str, public: bool = Query(default=False), authorization: str | None = Header(default=None)
    ) -> Response:
        """The token's seat's view; ``?public=true``: the spectator's view (any token of the table)."""
        table, seat = await _table_and_seat(table_id, authorization)
        return json_text(platform.view_json(table, None if public else seat))

    @app.get("/api/tables/{table_id}/positions/{step}", response_model=PositionOut)
    async def get_position(
        table_id: str,
        step: int,
        public: bool = Query(default=False),
        authorization: str | None = Header(default=None),
    ) -> Response:
        """The position after ``step`` history entries, as the token's seat saw it then (``public``: a spectator)."""
        table, seat = await _table_and_seat(table_id, authorization)
        return fast_json(position_view(table, None if public else seat, step))

    async def _seat_acts(
        table_id: str,
        request: Request,
        authorization: str | None,
        act: Callable[[LiveTable, int | None], Awaitable[None]],
        view: bool = True,
    ) -> Response:
        """The token's seat moves, undoes, ends the game or answers a draw (``act``, counted as a move against the
        quotas): the new revision, and the seat's view unless ``view`` is false."""
        platform.limits.move_sent(_client(request))
        table, seat = await _table_and_seat(table_id, authorization)
        await act(table, seat)
        head = f'{{"ok":true,"revision":{table.revision}'
        return json_text(head + (f',"view":{platform.view_json(table, seat)}}}' if view else "}"))

    @app.post("/api/tables/{table_id}/moves", response_model=MovedOut)
    async def post_move(
        table_id: str,
        body: MoveIn,
        request: Request,
        view: bool = Query(default=True),
        authorization: str | None = Header(default=None),
    ) -> Response:
        return await _seat_acts(
            table_id,
            request,
            authorization,
            lambda table, seat: platform.act(table, seat, body.action, body.label, body.revision),
            view,
        )

    @app.post("/api/tables/{table_id}/undo", response_model=MovedOut)
    async def post_undo(
        table_id: str, body: UndoIn, request: Request, authorization: str | None = Header(default=None)
    ) -> Response:
        return await _seat_acts(
            table_id, request, authorization, lambda table, seat: platform.undo(table, seat, body.revision)
        )

    @app.post("/api/tables/{table_id}/resign", response_model=MovedOut)
    async def post_resign(
        table_id: str, request: Request, authorization: str | None = Header(default=None)
    ) -> Response:
        """The token's seat resigns: it loses and the game ends (the others win; co-operative: everyone loses)."""
        return await _seat_acts(table_id, request, authorization, platform.resign)

    @app.post("/api/tables/{table_id}/draw", response_model=MovedOut)
    async def post_draw(
        table_id: str, body: DrawIn, request: Request, authorization: str | None = Header(default=None)
    ) -> Response:
        """Offer, accept or decline a draw (games whose result can be a tie, every seat human)."""
        return await _seat_acts(
            table_id, request, authorization, lambda table, seat: platform.draw(table, seat, body.answer)
        )

    @app.post("/api/tables/{table_id}/abort", response_model=MovedOut)
    async def post_abort(table_id: str, request: Request, authorization: str | None = Header(default=None)) -> Response:
        """Abort the game until a second player has moved: no result, nobody wins (409 ``too_late_to_abort``)."""
        return await _seat_acts(table_id, request, authorization, platform.abort)

    @app.post("/api/tables/{table_id}/claim-win", response_model=MovedOut)
    async def post_claim(table_id: str, request: Request, authorization: str | None = Header(default=None)) -> Response:
        """Claim the win from the players away past the grace period (409 ``not_away`` before it)."""
        return await _seat_acts(table_id, request, authorization, platform.claim)

    @app.post("/api/my-tables", response_model=MyTablesOut)
    async def post_my_tables(body: MyTablesIn, request: Request) -> Response:
        """The tables a browser holds links for: where it is your move (tokens in the body, never in the URL)."""
        platform.limits.move_sent(_client(request))
        return fast_json(await platform.my_tables([(t.id, t.token) for t in body.tables]))

    @app.post("/api/tables/{table_id}/rematch", response_model=RematchOut)
    async def post_rematch(
        table_id: str, request: Request, authorization: str | None = Header(default=None)
    ) -> Response:
        """A finished table's rematch (the same one however often asked): its id, the asking seat's new seat and link.

        Every page of the old table then finds ``rematch`` in its view, with its own seat's link only.
        """
        table, seat = await _table_and_seat(table_id, authorization)
        if seat is not None and table.rematch is None:
            platform.limits.table_created(_client(request))
        r = await platform.rematch(table, seat)
        await players.rematched(table.id, table.game.id, table.rematch)  # accounts: the same players, rated if it was
        base = str(request.base_url).rstrip("/")
        return fast_json({**r, "url": base + r["link"]})

    @app.get("/api/open-tables", response_model=OpenTablesOut)
    async def get_open_tables() -> Response:
        """Unfinished open tables (newest first): game, options, seats taken or free, spectators, a link to watch."""
        tables = await platform.open_tables()
        rated = await players.rated_among([t["id"] for t in tables])  # accounts: a rated table takes accounts only
        return fast_json({"tables": [{**t, "rated": t["id"] in rated} for t in tables]})

    @app.post("/api/tables/{table_id}/join", response_model=JoinedOut)
    async def post_join(table_id: str, body: JoinIn, request: Request) -> Response:
        """Take a free seat of an open table: the seat, its own token and link (no token needed to ask)."""
        platform.limits.joined(_client(request))
        table = await platform.get(table_id)
        account, _sid = await players.writer(request, required=False)  # accounts: a signed-in player's seat is theirs
        await players.before_join(table.id, account)
        seat, token = await platform.join(table, body.seat, body.name or (account.name if account else None))
        await players.joined(table.id, seat, table.game.id, account)
        link = f"/table/{table.id}#t={token}"
        base = str(request.base_url).rstrip("/")
        seeded = {"seeded": True, "seed_notice": SEEDED_NOTICE} if table.chance_key is None else {"seeded": False}
        return fast_json({"table": table.id, "seat": seat, "token": token, "link": link, "url": base + link, **seeded})

    @app.get("/api/tables/{table_id}/chat", response_model=ChatOut)
    async def get_chat(table_id: str, authorization: str | None = Header(default=None)) -> Response:
        """The table's chat, oldest first (any token of the table: players and spectators read it)."""
        table, _seat = await _table_and_seat(table_id, authorization)
        return fast_json({"messages": await platform.chat_messages(table)})

    @app.post("/api/tables/{table_id}/chat", response_model=SaidOut)
    async def post_chat(
        table_id: str, body: ChatIn, request: Request, authorization: str | None = Header(default=None)
    ) -> Response:
        """Say something at the table (a seat's token; spectators only read). Sent live to every page."""
        platform.limits.chat_sent(_client(request))
        table, seat = await _table_and_seat(table_id, authorization)
        return fast_json({"message": await platform.say(table, seat, body.text)})

    @app.get("/api/tables/{table_id}/record", response_model=RecordOut)
    async def get_record(table_id: str, authorization: str | None = Header(default=None)) -> Response:
        table, _seat = await _table_and_seat(table_id, authorization)
        if not (table.over or table.game.perfect_information):
            raise ApiError(
                409,
                "not_finished",
                "the record of a game with hidden information is available once the game is over",
            )
        text = table.record().to_json(indent=1)
        name = f"{table.game.id}-{table.id}.json"
        return Response(
            text, media_type="application/json", headers={"Content-Disposition": f'attachment; filename="{name}"'}
        )

    @app.get("/api/geometry/{gid}", response_model=GeometryOut)
    async def get_geometry(gid: str) -> Response:
        """Board shapes referred to by views (immutable: the id is a hash of the content)."""
        text = geometry_text(gid)
        if text is None:
            raise not_found("unknown geometry; fetch the view again")
        return Response(
            text, media_type="application/json", headers={"Cache-Control": "public, max-age=31536000, immutable"}
        )

    # -- replays -----------------------------------------------------------------
    @app.post("/api/replays", response_model=ReplayOut)
    async def post_replay(body: ReplayIn) -> Response:
        replay = await asyncio.get_running_loop().run_in_executor(None, replays.add, body.record)
        return fast_json(replay.summary())

    @app.get("/api/replays/{rid}/{step}", response_model=FrameOut)
    async def get_frame(
        rid: str, step: int, seat: int | None = Query(default=None), reveal: bool = Query(default=False)
    ) -> Response:
        """One frame as ``seat`` saw it (none: a spectator); ``reveal=true``: the log of the whole record."""
        return fast_json(replays.get(rid).frame(step, seat, reveal))

    # -- live updates ------------------------------------------------------------
    @app.websocket("/api/tables/{table_id}/ws")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        client = websocket.client.host if websocket.client else ""
        try:
            platform.limits.socket_opened(client)  # over all tables, counted before the hello
        except ApiError as e:
            await websocket.send_text(json.dumps({"type": "error", **e.body()}))
            await websocket.close(code=4429, reason=e.message)
            return
        try:
            await _socket_session(websocket, table_id, client)
        finally:
            platform.limits.socket_closed(client)

    async def _socket_session(websocket: WebSocket, table_id: str, client: str) -> None:
        async def refuse(code: int, err: ApiError) -> None:
            await websocket.send_text(json.dumps({"type": "error", **err.body()}))
            await websocket.close(code=code)

        wait = platform.limits.quotas.hello_seconds
        try:
            first = await asyncio.wait_for(_receive(websocket), timeout=wait)
        except WebSocketDisconnect:
            return
        except TimeoutError:
            await websocket.close(code=4408, reason=f"no hello within {wait:g} s")
            return
        try:
            hello = _parse_ws(first)
            if hello.get("type") != "hello":
                raise bad_request("the first message must be {'type': 'hello', 'tokens': [...], 'view': token}")
            tokens = hello.get("tokens") or []
            if (
                not isinstance(tokens, list)
                or not tokens
                or len(tokens) > 16
                or not all(isinstance(t, str) for t in tokens)
            ):
                raise bad_request("'tokens' must be a list of 1-16 token strings")
            table = await platform.get(table_id)
            seats = [table.seat_of(t) for t in tokens]
            platform.limits.may_open_socket(sum(c.client == client for c in table.connections))
            # "view": a token to view as; null for the public view; absent for the first seat held
            if "view" in hello:
                view_token = hello["view"]
                if view_token is not None and not isinstance(view_token, str):
                    raise bad_request("'view' must be a token string or null")
                view_seat = table.seat_of(view_token) if view_token else None
            else:
                view_seat = next((s for s in seats if s is not None), None)
        except ApiError as e:
            await refuse({401: 4401, 403: 4403, 404: 4404, 410: 4410, 429: 4429}.get(e.status, 4400), e)
            return

        queue: asyncio.Queue[str | None] = asyncio.Queue()

        def send(msg: str) -> None:
            if queue.qsize() > MAX_QUEUE:  # a client that stopped reading: drop it, it will reconnect
                queue.put_nowait(None)
                return
            queue.put_nowait(msg)

        conn = Connection(
            send=send,
            present={s for s in seats if s is not None},
            view_seat=view_seat,
            close=lambda: queue.put_nowait(None),
            client=client,
        )

        async def sender() -> None:
            while True:
                msg = await queue.get()
                if msg is None:
                    await websocket.close(code=1001)
                    return
                await websocket.send_text(msg)

        async def act(kind: str, msg: dict[str, Any]) -> None:
            """A move or an undo sent on the socket; answered by an ``ack`` after it is stored."""
            rid = msg.get("id")
            try:
                if not (
                    rid is None or (isinstance(rid, (int, str)) and not isinstance(rid, bool) and len(str(rid)) <= 64)
                ):
                    rid = None
                    raise bad_request("'id' must be a number or a short string")
                platform.limits.move_sent(client)
                seat = msg.get("seat")
                if type(seat) is not int or seat not in conn.present:
                    raise forbidden("this connection holds no token for that seat (say which seat in 'seat')")
                revision = msg.get("revision")
                if type(revision) is not int or revision < 0:
                    raise bad_request("'revision' must be the revision of the view you acted on")
                if kind == "move":
                    action, label = msg.get("action"), msg.get("label")
                    if action is not None and type(action) is not int:
                        raise bad_request("'action' must be an action number")
                    if label is not None and (not isinstance(label, str) or len(label) > 200):
                        raise bad_request("'label' must be a move as text")
                    await platform.act(table, seat, action, label, revision)
                else:
                    await platform.undo(table, seat, revision)
                send(json.dumps({"type": "ack", "id": rid, "ok": True, "revision": table.revision}))
            except ApiError as e:
                send(json.dumps({"type": "ack", "id": rid, "ok": False, "status": e.status, **e.body()}))
            except Exception:  # a bug: say so rather than leave the client waiting
                log.exception("table %s: socket %s failed", table.id, kind)
                body = {"error": "internal", "message": "the server failed to handle this; nothing changed"}
                send(json.dumps({"type": "ack", "id": rid, "ok": False, "status": 500, **body}))

        send_task = asyncio.ensure_future(sender())
        acting: set[asyncio.Task[None]] = set()
        platform.connect(table, conn)
        try:
            while True:
                raw = await _receive(websocket)
                try:
                    msg = _parse_ws(raw)
                    kind = msg.get("type")
                    if kind in ("move", "undo"):
                        task = asyncio.ensure_future(act(kind, msg))
                        acting.add(task)
                        task.add_done_callback(acting.discard)
                    elif kind == "chat":
                        seat = msg.get("seat", next(iter(sorted(conn.present)), None))
                        if seat is not None and (type(seat) is not int or seat not in conn.present):
                            raise forbidden("this connection holds no token for that seat")
                        platform.limits.chat_sent(client)
                        await platform.say(table, seat, msg.get("text"))
                    elif kind == "ping":
                        send(json.dumps({"type": "pong"}))
                    elif kind == "view_as":
                        tok = msg.get("token")
                        if tok is not None and not isinstance(tok, str):
                            raise bad_request("'token' must be a token string")
                        # no token: the public view (anyone connected may see it)
                        conn.view_seat = table.seat_of(tok) if tok else None
                        platform.push_view(table, conn)
                    else:
                        raise bad_request(f"unknown message type {kind!r}")
                except ApiError as e:
                    send(json.dumps({"type": "error", **e.body()}))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            platform.disconnect(table, conn)
            send_task.cancel()

    return app


async def _receive(websocket: WebSocket) -> str | bytes:
    """The next message of a socket, text or binary; ``WebSocketDisconnect`` once the client has gone."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    return text if text is not None else message.get("bytes") or b""


def _client(request: Request) -> str:
    """The address a request came from, as quotas count it."""
    return request.client.host if request.client else ""


def _parse_ws(raw: str | bytes) -> dict[str, Any]:
    if isinstance(raw, bytes):
        raise bad_request("messages are JSON objects sent as text frames, not binary")
    if len(raw) > MAX_WS_MESSAGE:
        raise bad_request("message too long")
    try:
        msg = json.loads(raw)
    except json.JSONDecodeError:
        raise bad_request("messages are JSON objects") from None
    except RecursionError:
        raise bad_request("messages are JSON objects of a few levels, not deeply nested") from None
    if not isinstance(msg, dict):
        raise bad_request("messages are JSON objects")
    return msg
