"""``boardlab serve``: the browser platform (lobby, tables, replays) on a local web server."""

from __future__ import annotations

import typer

from .main import app, cli_errors


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on (0.0.0.0: every interface)."),
    port: int = typer.Option(8000, help="Port to listen on."),
    db: str = typer.Option(
        None, help="Database URL (default: SQLite in ./boardlab-data/boardlab.db; PostgreSQL: postgresql+psycopg://…)."
    ),
    ai_workers: int = typer.Option(None, help="Processes for AI seats (default: CPU count minus one, at least 2)."),
    ai_delay: float = typer.Option(0.4, help="Minimum seconds an AI move takes, so people can follow the game."),
    ai_move_seconds: float = typer.Option(5.0, help="Most seconds one AI move may think; no seat may ask for more."),
    tables_per_minute: float = typer.Option(60.0, help="New tables one address may create per minute (0: no limit)."),
    moves_per_second: float = typer.Option(20.0, help="Moves one address may send per second (0: no limit)."),
    sockets_per_table: int = typer.Option(16, help="Live connections one address may hold to one table (0: no limit)."),
    sockets_per_address: int = typer.Option(
        64, help="Live connections one address may hold to all tables together (0: no limit)."
    ),
    expire_days: float = typer.Option(30.0, help="Days without a move after which a table expires (0: never)."),
    away_seconds: float = typer.Option(
        300.0, help="Seconds a player must be away from an online table before the others may claim the win."
    ),
) -> None:
    """Start the web server and print the address to open in a browser."""
    from ..server.limits import Quotas
    from ..server.run import serve as run_server

    with cli_errors():
        if not 0 < port < 65536:
            raise ValueError(f"--port must lie between 1 and 65535; got {port}")
        if (
            ai_move_seconds <= 0
            or min(tables_per_minute, moves_per_second, sockets_per_table, sockets_per_address, expire_days) < 0
            or away_seconds <= 0
        ):
            raise ValueError(
                "--ai-move-seconds and --away-seconds must be positive, and the limits and --expire-days 0 or more"
            )
        quotas = Quotas(
            tables_per_minute=tables_per_minute,
            moves_per_second=moves_per_second,
            sockets_per_table=sockets_per_table,
            sockets_per_address=sockets_per_address,
        )
        run_server(
            host,
            port,
            db,
            ai_workers=ai_workers,
            ai_delay=ai_delay,
            ai_move_seconds=ai_move_seconds,
            quotas=quotas,
            expire_days=expire_days,
            away_seconds=away_seconds,
        )
