"""``python -m boardlab.server [--host H] [--port P] [--db URL]``: the server without the CLI."""

from __future__ import annotations

import argparse

from .run import serve


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m boardlab.server", description="Run the boardlab web server.")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--db", default=None, help="database URL (default: SQLite in ./boardlab-data/)")
    p.add_argument("--ai-workers", type=int, default=None, help="AI worker processes (default: CPUs - 1, at least 2)")
    p.add_argument("--ai-delay", type=float, default=0.4, help="minimum seconds per AI move (default 0.4)")
    a = p.parse_args(argv)
    try:
        serve(a.host, a.port, a.db, ai_workers=a.ai_workers, ai_delay=a.ai_delay)
    except ValueError as e:
        p.exit(2, f"error: {e}\n")


if __name__ == "__main__":
    main()
