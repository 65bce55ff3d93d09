"""The game catalogue: listing, metadata, rules, agents; unknown routes answer JSON."""

from __future__ import annotations

import boardlab


def test_lists_every_registered_game(client) -> None:
    r = client.get("/api/games")
    assert r.status_code == 200
    data = r.json()
    ids = [g["id"] for g in data["games"]]
    assert ids == boardlab.games()
    for g in data["games"]:
        for key in ("title", "min_players", "max_players", "mechanics", "playing_time", "inventions", "options"):
            assert key in g, (g["id"], key)
        assert isinstance(g["has_rules"], bool)
        # the lobby's words are for players: no clause references in inventions or option descriptions
        assert not any("§" in str(x) for x in g["inventions"]), g["id"]
        assert not any("§" in str(o.get("description") or "") for o in g["options"]), g["id"]
        t = g["game_type"]  # the declared type, which the lobby shows as chips
        assert t["information"] in ("perfect", "imperfect") and t["tags"]
        assert g["perfect_information"] == (t["information"] == "perfect")
    posies = next(g for g in data["games"] if g["id"] == "posies")["game_type"]
    assert posies["information"] == "perfect"
    assert "hidden information with variant: A secret colour worth triple" in [v["text"] for v in posies["variants"]]
    assert "random" in data["agents"]["all"]
    assert data["agents"]["default"] in data["agents"]["all"]


def test_one_game_and_its_rules(client) -> None:
    g = client.get("/api/games/blast-radius").json()
    assert g["title"] == "Blast Radius"
    assert {o["name"] for o in g["options"]} >= {"board_side"}
    assert isinstance(g["level_elo"], dict)  # measured level ratings, where docs/ai has them
    assert all(level in client.get("/api/agents").json()["all"] for level in g["level_elo"])
    rules = client.get("/api/games/blast-radius/rules").json()
    assert rules["markdown"].startswith("# Blast Radius")
    assert '<h1 id="blast-radius">Blast Radius</h1>' in rules["html"]
    page = client.get("/rules/blast-radius")
    assert page.status_code == 200 and "<ol>" in page.text


def test_pages_have_an_icon(client) -> None:
    """The rules pages name the icon as the app's pages do, and /favicon.ico answers (no 404 in any browser)."""
    icon_link = '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
    assert icon_link in client.get("/rules/blast-radius").text and icon_link in client.get("/").text
    assert client.get("/static/favicon.svg").status_code == 200
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")


def test_unknown_game_is_a_json_404(client) -> None:
    for path in ("/api/games/no-such-game", "/api/games/no-such-game/rules", "/rules/no-such-game"):
        r = client.get(path)
        assert r.status_code == 404, path
        assert r.json()["error"] == "not_found"
    assert "blast-radius" in client.get("/api/games/nope").json()["message"]


def test_unknown_route_and_wrong_method(client) -> None:
    r = client.get("/api/nothing-here")
    assert r.status_code == 404 and r.json()["error"] == "not_found"
    r = client.delete("/api/games")
    assert r.status_code == 405 and r.json()["error"] == "method_not_allowed"
    assert r.headers["allow"] == "GET"


def test_allow_names_the_methods_of_included_routers_too(client) -> None:
    """A path that the app and an included router (the lab's) both serve: a 405's Allow names every method."""
    assert client.delete("/api/lab/runs").headers["allow"] == "POST"  # the lab's router alone
    client.app.router.add_api_route("/api/lab/runs", lambda: {}, methods=["GET"])
    try:
        r = client.delete("/api/lab/runs")
    finally:
        client.app.router.routes.pop()  # (the app is shared with this module's other tests)
    assert r.status_code == 405 and r.json()["error"] == "method_not_allowed"
    assert r.headers["allow"] == "GET, POST"


def test_agents_and_health(client) -> None:
    a = client.get("/api/agents").json()
    assert "random" in a["all"] and isinstance(a["only_random"], bool)
    assert client.get("/api/health").json()["ok"] is True


def test_pages_and_static_files(client) -> None:
    for path in ("/", "/table/abc", "/replay", "/static/js/render.js", "/static/style.css"):
        r = client.get(path)
        assert r.status_code == 200, path
    assert "nosniff" in client.get("/").headers["x-content-type-options"]


def test_security_headers_on_every_page(client) -> None:
    """Only the app's own scripts run, pages are never framed, no Referer leaves (tokens live in URL fragments)."""
    for path in ("/", "/table/abc", "/replay", "/rules/radius", "/static/js/table.js", "/api/games"):
        h = client.get(path).headers
        policy = dict(part.strip().split(" ", 1) for part in h["content-security-policy"].split(";"))
        assert policy["script-src"] == "'self'" and policy["default-src"] == "'self'", path
        assert policy["frame-ancestors"] == "'none'" and h["x-frame-options"] == "DENY", path
        assert h["referrer-policy"] == "no-referrer", path
    assert client.get("/api/docs").status_code == 404  # Swagger UI needs a CDN; the OpenAPI document stays
    assert client.get("/api/openapi.json").json()["info"]["title"] == "boardlab"


def test_a_browser_asking_for_a_missing_page_gets_a_page_not_json(client) -> None:
    browser = {"accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
    for path, says in (("/rules/nope", "There is no game called &#x27;nope&#x27;."), ("/no-such-page", "no page")):
        r = client.get(path, headers=browser)
        assert r.status_code == 404 and r.headers["content-type"].startswith("text/html"), path
        assert "<h1>Page not found</h1>" in r.text and says in r.text and "href='/'" in r.text, r.text
    # the API answers in JSON whoever asks
    r = client.get("/api/games/nope", headers=browser)
    assert r.status_code == 404 and r.json()["error"] == "not_found"
