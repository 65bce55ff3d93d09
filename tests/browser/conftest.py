"""Browser-test fixtures; the helpers live in browser_helpers.py (conftest modules cannot be imported by name)."""

from browser_helpers import browser, new_page, server

__all__ = ["browser", "new_page", "server"]
