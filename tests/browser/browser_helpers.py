"""Browser tests: Playwright (sync API) driving Debian's Chromium against a server in a child process.

One server and one browser per test session (per xdist worker); screenshots go to ``artifacts/`` at the
repository root.
"""

from __future__ import annotations

import pathlib
import shutil
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from boardlab.server.launch import ServerProcess

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = pathlib.Path(__file__).resolve().parents[2] / "artifacts"

# Plays the page by clicking random clickable targets (board targets, zone items, buttons) until
# the result banner shows; each click is a real DOM click handled by the page's own code.
AUTOPLAY_JS = """
async ({seed, maxClicks, timeoutMs}) => {
  let s = seed >>> 0;
  const rnd = () => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s / 4294967296; };
  const root = document.getElementById("table-root");
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const until = async (cond, ms) => {
    const t0 = performance.now();
    while (!cond()) { if (performance.now() - t0 > ms) return false; await sleep(4); }
    return true;
  };
  const pass = () => document.getElementById("pass");
  let clicks = 0;
  while (clicks < maxClicks) {
    const ready = () => root.dataset.terminal === "1" || !pass().classList.contains("hidden")
      || (root.dataset.yourTurn === "1" && root.dataset.busy !== "1");
    if (!(await until(ready, timeoutMs))) return {clicks, stuck: document.getElementById("banner").innerText};
    if (root.dataset.terminal === "1") {
      return {clicks, over: true, banner: document.getElementById("banner-title").innerText};
    }
    if (!pass().classList.contains("hidden")) {
      document.getElementById("pass-go").click();
      await until(() => pass().classList.contains("hidden") && root.dataset.seat !== "", timeoutMs);
      continue;
    }
    const rev = root.dataset.revision;
    const items = [...document.querySelectorAll("svg g.target, .zones button.item, .buttons button")];
    if (!items.length) return {clicks, error: "your turn, but nothing to click"};
    const item = items[Math.floor(rnd() * items.length)];
    item.dispatchEvent(new MouseEvent("click", {bubbles: true}));
    clicks++;
    if (item.dataset.pick) continue;  // an item picked first (a two-click move): the place comes next
    const menu = [...document.querySelectorAll(".chooser button[role=menuitem]")];
    if (menu.length) menu[Math.floor(rnd() * menu.length)].click();
    const yes = document.querySelector(".chooser.confirm .confirm-yes");  // a move that loses at once, confirmed
    if (yes) yes.click();
    await until(() => root.dataset.revision !== rev || root.dataset.yourTurn !== "1"
      || root.dataset.terminal === "1" || !pass().classList.contains("hidden"), timeoutMs);
  }
  return {clicks, error: "too many clicks"};
}
"""


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("server")
    # One client (this test run) opens a hundred-odd tables in minutes, past the per-address quota a real player
    # meets; the quotas themselves are tested in tests/server/test_quotas.py.
    db, log = f"sqlite:///{tmp}/browser.db", str(tmp / "server.log")
    with ServerProcess(db, log_path=log, extra_args=["--no-quotas"]) as s:
        yield s


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not shutil.which(CHROMIUM) and not pathlib.Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed at /usr/bin/chromium (make test installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


class Watched:
    """A page whose JavaScript errors fail the test (refused requests, shown to the user, do not)."""

    def __init__(self, page: Any, allow_network_errors: bool = False) -> None:
        self.page = page
        self.allow_network_errors = allow_network_errors
        self.errors: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", self._console)

    def _console(self, m: Any) -> None:
        expected = m.text.startswith("Failed to load resource: the server responded with a status of 4") or (
            self.allow_network_errors and ("net::ERR_" in m.text or "WebSocket connection" in m.text)
        )
        if m.type == "error" and not expected:
            self.errors.append(m.text)


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """``new_page(width=…, height=…)``: a page in a fresh context (its own storage).

    ``allow_network_errors=True`` for a test that takes the server down on purpose.
    """
    contexts: list[Any] = []
    watched: list[Watched] = []

    def make(width: int = 1100, height: int = 900, allow_network_errors: bool = False) -> Any:
        ctx = browser.new_context(viewport={"width": width, "height": height})
        ctx.set_default_timeout(30000)
        contexts.append(ctx)
        w = Watched(ctx.new_page(), allow_network_errors)
        watched.append(w)
        return w.page

    yield make
    errors = [e for w in watched for e in w.errors]
    for ctx in contexts:
        ctx.close()
    assert not errors, errors


def create(server: ServerProcess, **body: Any) -> dict[str, Any]:
    r = httpx.post(server.url + "/api/tables", json=body, timeout=20)
    assert r.status_code == 201, r.text
    return r.json()


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def wait_ready(page: Any) -> None:
    page.wait_for_selector("#table-root[data-ready='1']")


def settle(page: Any, paint: bool = True) -> None:
    """Past a pass-the-device screen, and until the page is not waiting on a move (or the game is over); with
    ``paint``, also until the browser has drawn what it shows (two animation frames)."""
    page.wait_for_selector(
        "#pass:not(.hidden), #table-root[data-terminal='1'], #table-root[data-your-turn='1'][data-busy='0']"
    )
    if page.locator("#pass:not(.hidden)").count():
        page.click("#pass-go")
        page.wait_for_selector("#table-root[data-terminal='1'], #table-root[data-your-turn='1'][data-busy='0']")
    if paint:
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def autoplay(page: Any, seed: int = 1, max_clicks: int = 2000, timeout_ms: int = 20000) -> dict[str, Any]:
    return page.evaluate(AUTOPLAY_JS, {"seed": seed, "maxClicks": max_clicks, "timeoutMs": timeout_ms})


def small_options(game_id: str) -> dict[str, Any]:
    """Every integer option at its smallest allowed value (small boards keep browser tests short)."""
    import boardlab

    out: dict[str, Any] = {}
    for o in boardlab.make(game_id).options:
        if o.type is int and o.allowed:
            out[o.name] = min(o.allowed)
    return out
