"""The API's success bodies, as the OpenAPI document declares them (``/api/openapi.json``).

The routes answer with JSON they encode themselves (views are big, FastAPI's generic encoder slow), so these models
describe the bodies rather than build them: each names the fields every such body has, with their types; bodies may
carry more (``extra="allow"``: a game's view and scene hold whatever the game shows). The request bodies and their
limits are in :mod:`boardlab.server.app` and :mod:`boardlab.server.lab`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict


class _Out(BaseModel):
    model_config = ConfigDict(extra="allow")


# -- games and agents ---------------------------------------------------------------
class HealthOut(_Out):
    ok: bool
    tables_in_memory: int


class AgentsOut(_Out):
    """The AI on offer to a table seat: named levels first, the other agents, and the bounds on their parameters."""

    levels: list[str]
    agents: list[str]
    all: list[str]
    default: str
    only_random: bool
    bounds: dict[str, float]
    #: The most seconds each level thinks a move here (its own cap, or the server's limit where lower).
    think_seconds: dict[str, float]


class GameOut(_Out):
    """A game's metadata as the lobby shows it."""

    id: str
    title: str
    min_players: int
    max_players: int
    perfect_information: bool
    cooperative: bool
    rules_version: str
    options: list[dict[str, Any]]
    has_rules: bool
    #: Each level's measured Elo (``random`` = 0), only where its interval separates it from the levels beside it.
    level_elo: dict[str, float]
    #: Where the measurement does not tell levels apart, words for players saying so ("" where it does).
    level_note: str = ""
    #: What the table calls each seat nobody names: the game's colour for it ("Red"), else "Player 1".
    seat_names: list[str]


class GamesOut(_Out):
    games: list[GameOut]
    agents: AgentsOut


class RulesOut(_Out):
    game: str
    markdown: str
    html: str


class PictureOut(_Out):
    """The lobby's picture of a game: a scene (``core/scene.py``), drawn by the browser's renderer."""

    game: str
    scene: dict[str, Any]


# -- tables ---------------------------------------------------------------------------
class TableSummaryOut(_Out):
    id: str
    game: str
    title: str
    mode: str
    options: dict[str, Any]
    num_players: int
    perfect_information: bool
    cooperative: bool
    rules_version: str
    created_at: float
    open: bool
    clock: dict[str, Any] | None
    #: The game's result can be a tie, so the players may agree a draw.
    draws: bool | None = None


class LinksOut(_Out):
    host: str
    seats: dict[str, str]
    spectator: str


class CreatedTableOut(_Out):
    """A new table: its seat tokens (each seat's only copy) and the links to hand out."""

    id: str
    table: TableSummaryOut
    seats: list[dict[str, Any]]
    tokens: dict[str, str]
    spectator_token: str
    host_seat: int | None
    links: LinksOut


class ViewOut(_Out):
    """What one seat (``null``: a spectator) sees of a table now: the scene to draw, its legal moves, the log."""

    table: TableSummaryOut
    revision: int
    seat: int | None
    seats: list[dict[str, Any]]
    to_act: list[int]
    terminal: bool
    scene: dict[str, Any]
    legal: list[list[Any]]
    log: list[Any]
    #: What the seat may do to end the game now and who is away (README, "Ending a game fairly"): ``can_resign``,
    #: ``can_abort``, ``can_offer_draw``, ``can_answer_draw``, ``draw_offer``, ``away_since``, ``claim_after``,
    #: ``ended``.
    endings: dict[str, Any] | None = None


class PositionOut(_Out):
    """A past position (or a replay's frame) as one seat saw it."""

    step: int
    steps: int
    seat: int | None
    scene: dict[str, Any]


class MovedOut(_Out):
    """A stored move or undo: the table's new revision, and the seat's new view unless ``view=false``."""

    ok: bool
    revision: int
    view: ViewOut | None = None


class RematchOut(_Out):
    """Where the asking seat plays the rematch."""

    table: str
    seat: int | None = None
    link: str
    url: str


class OpenTableOut(_Out):
    id: str
    game: str
    title: str
    options: dict[str, Any]
    num_players: int
    seats: list[Any]
    free: int
    spectators: int
    watch: str
    created_at: float
    #: A rated table: only signed-in players may take its seats (server/account_routes.py).
    rated: bool


class OpenTablesOut(_Out):
    tables: list[OpenTableOut]


class MyTableOut(_Out):
    """One of a browser's tables: the token's seat, whether it is that seat's move, and how the table stands."""

    id: str
    game: str | None
    title: str | None
    seat: int | None
    #: ``playing``, ``finished``, ``aborted``, ``expired`` or ``gone`` (no such table, or not this token's).
    status: str
    your_turn: bool
    #: A turn clock's deadline for the seat to move (wall-clock seconds), where one runs.
    deadline: float | None = None
    clock: str | None = None


class MyTablesOut(_Out):
    tables: list[MyTableOut]
    #: How many of them wait for your move.
    your_turn: int


class JoinedOut(_Out):
    table: str
    seat: int
    token: str
    link: str
    url: str


class ChatMessageOut(_Out):
    seat: int | None
    name: str | None
    text: str
    at: float


class ChatOut(_Out):
    messages: list[ChatMessageOut]


class SaidOut(_Out):
    message: ChatMessageOut


class RecordOut(_Out):
    """A game record (``boardlab-record/1``): enough to replay the game."""

    format: str
    game: str
    options: dict[str, Any]
    rules_version: str
    num_players: int
    seats: list[str]
    history: list[Any]


class GeometryOut(_Out):
    """Board shapes a view refers to by ``id``."""

    id: str
    cells: list[dict[str, Any]]
    edges: list[dict[str, Any]]


# -- replays --------------------------------------------------------------------------
class ReplayOut(_Out):
    id: str
    game: str
    title: str
    num_players: int
    steps: int
    finished: bool


class FrameOut(PositionOut):
    terminal: bool
    log: list[Any]


# -- the lab --------------------------------------------------------------------------
class LabRunOut(_Out):
    """A lab run (balance run, sweep or search): its settings, progress and, once finished, its verdict and report.
    ``cancellable``: the asking address started it and it is playing or waiting."""

    key: str
    kind: str
    params: dict[str, Any]
    total: int
    done: int
    status: str
    created_at: float
    cancellable: bool
    waiting: bool
    error: str | None
    title: str


class LabStartedOut(LabRunOut):
    started: bool


class LabOut(_Out):
    runs: list[LabRunOut]
    max_games: int
    max_runs: int
    runs_per_address: int
    run_seconds: float
    metrics: list[dict[str, Any]]


# -- accounts, profiles and leaderboards (server/account_routes.py) ---------------------------------------------
class AccountOut(_Out):
    """Who is signed in in this browser; ``csrf``: the token a cookie-authenticated write sends as ``X-CSRF-Token``."""

    signed_in: bool
    name: str | None
    csrf: str | None


class OkOut(_Out):
    ok: bool


class ClaimedOut(_Out):
    """The seats now bound to the account: ``[{"table", "seat"}]``."""

    claimed: list[dict[str, Any]]


class ProfileOut(_Out):
    """A player's page: ratings per game (``rating``, ``games``, ``provisional``, ``plays_like``), wins, losses and
    draws by game, recent finished games (each with its ``replay`` link and rating change) and open tables."""

    name: str
    since: float
    ratings: list[dict[str, Any]]
    results: list[dict[str, Any]]
    recent: list[dict[str, Any]]
    open: list[dict[str, Any]]


class LeaderboardOut(_Out):
    """A game's rated players, established ones first (best first), and each AI level's fixed rating."""

    game: str
    title: str
    players: list[dict[str, Any]]
    levels: dict[str, int]
    provisional_games: int


# -- finding an opponent (server/seek_routes.py) ------------------------------------------------------------------
class SeekOut(_Out):
    """A seek: ``waiting`` (``range``: the rating difference a rated seek accepts now, widening as it waits) or
    ``matched`` (``table``, ``seat``, ``link`` and ``url``: the seeker's seat, ``opponent``: their name). A new seek
    also has its ``token``, which polls and cancels it."""

    id: str
    status: str
    game: str
    title: str
    options: dict[str, Any]
    num_players: int
    rated: bool
    clock: dict[str, Any] | None
    name: str | None
    rating: int | None
    range: int | None
    waited: float
    table: str | None
    seat: int | None
    link: str | None
    url: str | None
    opponent: str | None


class SeeksOut(_Out):
    """How many are seeking now: ``[{"game", "title", "rated", "seeking"}]``."""

    seeks: list[dict[str, Any]]
