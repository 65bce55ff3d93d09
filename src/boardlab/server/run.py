"""Start the server with uvicorn (used by ``boardlab serve`` and ``python -m boardlab.server``)."""

from __future__ import annotations

import gc
import logging
import sys
from types import FrameType

from sqlalchemy.exc import SQLAlchemyError

from .limits import Quotas
from .store import describe_url, normalise_url
from .tables import Settings


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    *,
    ai_workers: int | None = None,
    ai_delay: float = 0.4,
    log_level: str = "warning",
    ai_move_seconds: float | None = None,
    quotas: Quotas | None = None,
    expire_days: float | None = None,
    away_seconds: float | None = None,
) -> None:
    """Run until interrupted; prints the address to open."""
    import uvicorn

    from .app import create_app

    # The database writer thread hands the GIL back and forth with the event loop on every
    # SQLite call; the default 5 ms switch interval would make each handoff cost up to 5 ms.
    sys.setswitchinterval(0.0005)
    url = normalise_url(db)
    try:
        settings = Settings(db_url=url, ai_workers=ai_workers, ai_delay=ai_delay)
        if ai_move_seconds is not None:
            settings.ai_move_seconds = ai_move_seconds
        if quotas is not None:
            settings.quotas = quotas
        if expire_days is not None:
            settings.expire_after = expire_days * 24 * 3600.0
        if away_seconds is not None:
            settings.away_grace = away_seconds
        app = create_app(settings)
    except SQLAlchemyError as e:
        raise ValueError(
            f"cannot open the database {describe_url(url)}: {e.__class__.__name__}: {e.args[0] if e.args else e}"
        ) from None
    except ModuleNotFoundError as e:
        raise ValueError(f"the database driver is not installed ({e.name}); install it with pip") from None
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    # Long-lived objects (modules, the app, the games) need no cycle collection: freeze them, and
    # collect the young generation less often, so that no full collection pauses every table at once.
    gc.collect()
    gc.freeze()
    gc.set_threshold(20000, 50, 1000)
    print(f"boardlab is running at http://{shown}:{port}/  (database: {describe_url(url)}; Ctrl+C stops it)")
    sys.stdout.flush()
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        access_log=False,
        ws_max_size=65536,
        ws_per_message_deflate=False,
        backlog=2048,
        timeout_keep_alive=75,
    )
    server = uvicorn.Server(config)
    # SIGTERM and Ctrl+C ask the server to stop, and a stop that was asked for is a clean exit (status 0). uvicorn
    # shuts down gracefully (in-flight requests finish; sockets get close code 1012, "service restart", so pages
    # reconnect; the lifespan stops the AI workers and the database), then would raise the signal again and die
    # of it (status 143, with no clean-up at exit): forget the signal once it has been handled.
    handle_exit = server.handle_exit

    def stop(sig: int, frame: FrameType | None) -> None:
        handle_exit(sig, frame)
        server._captured_signals.clear()

    server.handle_exit = stop  # type: ignore[method-assign]
    server.run()
