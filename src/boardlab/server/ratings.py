"""Ratings per game with OpenSkill (Plackett-Luce, 2 or more players), AI levels at their measured strength.

A table created *rated* (:mod:`boardlab.server.accounts`) is settled once when its game ends: if every human seat
is bound to an account (each its own), every account's rating for that game is updated from the places the
game's returns give (equal returns share a place: a draw); AI seats take part at the fixed rating of their level
and are never updated. The settlement is stored in ``rated_games`` under the table's id, inserted once: two
processes settling the same table at once update the ratings once (the other finds the row). The accounts' rows
are locked in a fixed order first (PostgreSQL), so two games ending at once for one player both count.

A rating is shown as ``round(DISPLAY * mu)``: a new player 1000. It is *provisional* until
:data:`PROVISIONAL_GAMES` rated games. An AI level's rating comes from its measured Elo in this game
(docs/ai/<game>.md, :func:`boardlab.agents.levels.level_intervals`; Elo against ``random`` = 0): ``mu = MU_RANDOM +
elo * MU_PER_ELO`` — the scale at which OpenSkill's win chance for a given difference matches Elo's (400 Elo, 10:1,
is 7.9 mu at ``beta = 25/6``). So a player can read "you play like medium": the level whose rating is nearest.

:func:`rating_of` is the API for matching players (seeks): an account's rating for a game, a fresh one if none.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection as DbConnection
from sqlalchemy.exc import IntegrityError

from .accounts import accounts_t, rated_games_t, rated_tables_t, ratings_t, table_players_t
from .store import Store

MODEL = PlackettLuce()
MU0 = MODEL.mu
SIGMA0 = MODEL.sigma
#: Display points per mu (a new player shows 1000).
DISPLAY = 40.0
PROVISIONAL_GAMES = 5
#: The ``random`` agent's mu, and mu per measured Elo point (see the module's text).
MU_RANDOM = 15.0
MU_PER_ELO = 7.87 / 400.0
#: An AI level's fixed uncertainty.
AI_SIGMA = 1.0
#: The Elo of each level where a game has no measurement of it (the median over the measured games).
DEFAULT_ELO = {"random": 0.0, "easy": 284.0, "medium": 463.0, "hard": 568.0, "expert": 650.0}
LEVEL_NAMES = ("random", "easy", "medium", "hard", "expert")


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int

    @property
    def shown(self) -> int:
        return round(DISPLAY * self.mu)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    @property
    def ordinal(self) -> float:
        """The conservative estimate (mu - 3 sigma) a leaderboard is ordered by."""
        return self.mu - 3 * self.sigma


FRESH = Rating(MU0, SIGMA0, 0)


def level_elo(game_id: str) -> dict[str, float]:
    """Each AI level's measured Elo in this game (``random`` = 0), the default where it was not measured."""
    from ..agents.levels import level_intervals

    try:
        measured = {k: float(v[0]) for k, v in level_intervals(game_id).items()}
    except Exception:
        measured = {}
    return {lv: measured.get(lv, DEFAULT_ELO[lv]) for lv in LEVEL_NAMES}


def level_rating(game_id: str, level: str) -> Rating | None:
    """The fixed rating of an AI level in this game (``None``: not a level a rated table takes)."""
    elo = level_elo(game_id).get(level)
    if elo is None:
        return None
    return Rating(MU_RANDOM + elo * MU_PER_ELO, AI_SIGMA, PROVISIONAL_GAMES)


def level_ratings(game_id: str) -> dict[str, int]:
    """Each level's rating in display points."""
    return {lv: r.shown for lv in LEVEL_NAMES if (r := level_rating(game_id, lv)) is not None}


def plays_like(game_id: str, rating: Rating) -> str:
    """The AI level whose rating is nearest this one ("you play like medium")."""
    levels = {lv: r.mu for lv in LEVEL_NAMES if (r := level_rating(game_id, lv)) is not None}
    return min(levels, key=lambda lv: (abs(levels[lv] - rating.mu), lv))


def places(returns: list[float]) -> list[int]:
    """Each seat's place from the returns (1 = best); equal returns share a place."""
    return [1 + sum(1 for other in returns if other > r) for r in returns]


def rating_of(conn: DbConnection, account_id: str, game: str) -> Rating:
    """An account's rating for a game (a fresh one if it has played no rated game of it)."""
    row = conn.execute(
        select(ratings_t.c.mu, ratings_t.c.sigma, ratings_t.c.games).where(
            ratings_t.c.account_id == account_id, ratings_t.c.game == game
        )
    ).first()
    return Rating(float(row.mu), float(row.sigma), int(row.games)) if row is not None else FRESH


def ratings_of(store: Store, account_id: str) -> dict[str, Rating]:
    with store.engine.connect() as c:
        rows = c.execute(
            select(ratings_t.c.game, ratings_t.c.mu, ratings_t.c.sigma, ratings_t.c.games).where(
                ratings_t.c.account_id == account_id
            )
        )
        return {str(r.game): Rating(float(r.mu), float(r.sigma), int(r.games)) for r in rows}


def rating_for(store: Store, account_id: str, game: str) -> Rating:
    """:func:`rating_of` in its own connection (for seeks and the API)."""
    with store.engine.connect() as c:
        return rating_of(c, account_id, game)


#: One settlement at a time in a process on SQLite: a settlement reads and then writes in one transaction, and two
#: such transactions at once (the end's background task and a profile read) make SQLite refuse one ("database is
#: locked") instead of waiting. PostgreSQL orders them with its row locks.
_SQLITE_SETTLING = threading.Lock()


def settle(store: Store, table_id: str) -> dict[str, Any] | None:
    """Settle a finished rated table once: the stored settlement (``None``: not rated, or not finished yet)."""
    if store.is_sqlite:
        with _SQLITE_SETTLING:
            return _settle(store, table_id)
    return _settle(store, table_id)


def _settle(store: Store, table_id: str) -> dict[str, Any] | None:
    with store.engine.begin() as c:
        done = c.execute(select(rated_games_t).where(rated_games_t.c.table_id == table_id)).mappings().first()
        if done is not None:
            return _settlement(done)
        game = c.execute(select(rated_tables_t.c.game).where(rated_tables_t.c.table_id == table_id)).scalar()
        if game is None:
            return None
        table = c.exec_driver_sql(
            "SELECT status, result, seats FROM tables WHERE id = " + ("%s" if not store.is_sqlite else "?"),
            (table_id,),
        ).first()
        if table is None or table[0] != "finished" or not table[1]:
            return None
        result = json.loads(table[1])
        seats = json.loads(table[2])
        bound = {
            int(r.seat): str(r.account_id)
            for r in c.execute(
                select(table_players_t.c.seat, table_players_t.c.account_id).where(
                    table_players_t.c.table_id == table_id
                )
            )
        }
        humans = [s for s, spec in enumerate(seats) if spec.get("kind") == "human"]
        counted = all(s in bound for s in humans) and len(set(bound.values())) == len(bound) and len(seats) >= 2
        changes: dict[str, Any] = {}
        if counted:
            ids = sorted(bound.values())
            if not store.is_sqlite:  # two games of one player ending at once: one after the other
                c.execute(
                    select(accounts_t.c.id).where(accounts_t.c.id.in_(ids)).order_by(accounts_t.c.id).with_for_update()
                )
            before: list[Rating] = []
            for s, spec in enumerate(seats):
                if s in bound:
                    before.append(rating_of(c, bound[s], game))
                else:
                    level = str(spec.get("agent") or "random").split(":")[0]
                    before.append(level_rating(game, level) or level_rating(game, "random"))  # type: ignore[arg-type]
            teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
            place = places([float(x) for x in result["returns"]])
            after = MODEL.rate(teams, ranks=[p - 1 for p in place])
            for s, account in bound.items():
                new = Rating(float(after[s][0].mu), float(after[s][0].sigma), before[s].games + 1)
                changes[account] = {"seat": s, "before": before[s].shown, "after": new.shown, "place": place[s]}
        try:
            with c.begin_nested():
                c.execute(
                    insert(rated_games_t).values(
                        table_id=table_id,
                        game=game,
                        counted=int(counted),
                        changes=json.dumps(changes),
                        settled_at=time.time(),
                    )
                )
        except IntegrityError:  # another process settled it meanwhile: its settlement stands
            done = c.execute(select(rated_games_t).where(rated_games_t.c.table_id == table_id)).mappings().first()
            return _settlement(done) if done is not None else None
        if counted:
            gone = {
                str(r.id)
                for r in c.execute(
                    select(accounts_t.c.id).where(
                        accounts_t.c.id.in_(list(changes)), accounts_t.c.deleted_at.is_not(None)
                    )
                )
            }
            for account, ch in changes.items():
                if account in gone:  # deleted while the game went on: the others' ratings count, it has none
                    continue
                s = ch["seat"]
                new = after[s][0]
                values = {"mu": float(new.mu), "sigma": float(new.sigma), "games": before[s].games + 1}
                n = c.execute(
                    update(ratings_t)
                    .where(ratings_t.c.account_id == account, ratings_t.c.game == game)
                    .values(**values, updated_at=time.time())
                ).rowcount
                if not n:
                    c.execute(insert(ratings_t).values(account_id=account, game=game, **values, updated_at=time.time()))
        return {"table": table_id, "game": game, "counted": counted, "changes": changes}


def settled(store: Store, table_id: str) -> dict[str, Any] | None:
    with store.engine.connect() as c:
        done = c.execute(select(rated_games_t).where(rated_games_t.c.table_id == table_id)).mappings().first()
        return _settlement(done) if done is not None else None


def settlements(store: Store, table_ids: list[str]) -> dict[str, dict[str, Any]]:
    if not table_ids:
        return {}
    with store.engine.connect() as c:
        rows = c.execute(select(rated_games_t).where(rated_games_t.c.table_id.in_(table_ids))).mappings()
        return {str(r["table_id"]): _settlement(r) for r in rows}


def _settlement(r: Any) -> dict[str, Any]:
    return {
        "table": r["table_id"],
        "game": r["game"],
        "counted": bool(r["counted"]),
        "changes": json.loads(r["changes"]),
    }


def unsettled(store: Store, table_ids: list[str] | None = None) -> list[str]:
    """Rated tables whose game is over but not yet settled (of ``table_ids``, or all)."""
    with store.engine.connect() as c:
        q = select(rated_tables_t.c.table_id).where(~rated_tables_t.c.table_id.in_(select(rated_games_t.c.table_id)))
        if table_ids is not None:
            if not table_ids:
                return []
            q = q.where(rated_tables_t.c.table_id.in_(table_ids))
        ids = [str(r.table_id) for r in c.execute(q)]
        if not ids:
            return []
        marks = ",".join("?" if store.is_sqlite else "%s" for _ in ids)
        rows = c.exec_driver_sql(f"SELECT id FROM tables WHERE status = 'finished' AND id IN ({marks})", tuple(ids))
        return [str(r[0]) for r in rows]


def leaderboard(store: Store, game: str, limit: int = 100) -> list[dict[str, Any]]:
    """The accounts rated in a game, established ones first, each group by conservative rating (mu - 3 sigma)."""
    with store.engine.connect() as c:
        rows = c.execute(
            select(accounts_t.c.name, ratings_t.c.mu, ratings_t.c.sigma, ratings_t.c.games)
            .join(accounts_t, accounts_t.c.id == ratings_t.c.account_id)
            .where(ratings_t.c.game == game, accounts_t.c.deleted_at.is_(None))
        ).all()
    out = [(str(r.name), Rating(float(r.mu), float(r.sigma), int(r.games))) for r in rows]
    out.sort(key=lambda x: (x[1].provisional, -x[1].ordinal, x[0].casefold()))
    return [
        {
            "rank": i + 1,
            "name": name,
            "rating": r.shown,
            "games": r.games,
            "provisional": r.provisional,
            "plays_like": plays_like(game, r),
        }
        for i, (name, r) in enumerate(out[:limit])
    ]
