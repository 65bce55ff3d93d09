"""``python -m boardlab.server [--host H] [--port P] [--db URL]``: the server without the CLI."""

from __future__ import annotations

import argparse

from .limits import NO_QUOTAS
from .run import serve


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m boardlab.server", description="Run the boardlab web server.")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--db", default=None, help="database URL (default: SQLite in ./boardlab-data/)")
    p.add_argument("--ai-workers", type=int, default=None, help="AI worker processes (default: CPUs - 1, at least 2)")
    p.add_argument("--ai-delay", type=float, default=0.4, help="minimum seconds per AI move (default 0.4)")
    p.add_argument("--ai-move-seconds", type=float, default=None, help="most seconds an AI move may think (default 5)")
    p.add_argument("--no-quotas", action="store_true", help="no per-client limits (trusted clients, load tests)")
    p.add_argument(
        "--expire-days", type=float, default=None, help="days without a move before a table expires (0: never)"
    )
    p.add_argument(
        "--away-seconds",
        type=float,
        default=None,
        help="seconds a player must be away before the others may claim the win (default 300)",
    )
    a = p.parse_args(argv)
    try:
        serve(
            a.host,
            a.port,
            a.db,
            ai_workers=a.ai_workers,
            ai_delay=a.ai_delay,
            ai_move_seconds=a.ai_move_seconds,
            quotas=NO_QUOTAS if a.no_quotas else None,
            expire_days=a.expire_days,
            away_seconds=a.away_seconds,
        )
    except ValueError as e:
        p.exit(2, f"error: {e}\n")


if __name__ == "__main__":
    main()
