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
) -> None:
    """Start the web server and print the address to open in a browser."""
    from ..server.run import serve as run_server

    with cli_errors():
        if not 0 < port < 65536:
            raise ValueError(f"--port must lie between 1 and 65535; got {port}")
        run_server(host, port, db, ai_workers=ai_workers, ai_delay=ai_delay)
