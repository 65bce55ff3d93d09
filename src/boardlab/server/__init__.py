"""The browser platform: a FastAPI server with a lobby, live tables, AI seats, replays and durable storage.

>>> from boardlab.server import create_app, Settings
>>> app = create_app(Settings(db_url="sqlite:///:memory:"))
>>> app.title
'boardlab'
"""

from .app import create_app
from .tables import Platform, Settings

__all__ = ["Platform", "Settings", "create_app"]
