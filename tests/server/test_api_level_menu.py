"""What the lobby's level menu is fed: each level's think time, and Elo figures only where they order the levels."""

from __future__ import annotations

from fastapi.testclient import TestClient

import boardlab
from boardlab.agents import level_figures, level_names, level_note, level_seconds
from boardlab.server.app import create_app
from boardlab.server.limits import NO_QUOTAS
from boardlab.server.tables import Settings


def test_no_game_serves_figures_that_contradict_the_level_order(client) -> None:
    games = client.get("/api/games").json()["games"]
    assert [g["id"] for g in games] == boardlab.games()
    for g in games:
        one = client.get(f"/api/games/{g['id']}").json()
        assert one["level_elo"] == g["level_elo"]
        shown = [g["level_elo"][level] for level in level_names() if level in g["level_elo"]]
        assert shown == sorted(shown) and len(set(shown)) == len(shown), (g["id"], g["level_elo"])
    # Cirque's head-to-head games tell expert apart from hard, but not easy, medium and hard from one another
    cirque = client.get("/api/games/cirque").json()
    assert cirque["level_elo"] == level_figures("cirque") and set(cirque["level_elo"]) == {"expert"}


def test_where_the_games_do_not_tell_levels_apart_the_menu_is_told_so(client) -> None:
    cirque = client.get("/api/games/cirque").json()
    assert cirque["level_note"] == level_note("cirque") != ""
    assert "Easy and medium play about alike here" in cirque["level_note"]
    for g in client.get("/api/games").json()["games"]:
        assert "seat" not in g["level_note"].lower() and "ply" not in g["level_note"].lower()


def test_the_agents_carry_each_level_s_think_time(client) -> None:
    agents = client.get("/api/agents").json()
    assert agents["think_seconds"] == {level: level_seconds(level) for level in level_names()}
    assert client.get("/api/games").json()["agents"]["think_seconds"] == agents["think_seconds"]


def test_a_lower_server_limit_is_the_think_time_it_shows(tmp_path) -> None:
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'db'}", ai_workers=1, ai_move_seconds=1.0, quotas=NO_QUOTAS)
    with TestClient(create_app(settings)) as c:
        think = c.get("/api/agents").json()["think_seconds"]
    assert think["expert"] == 1.0 and think["easy"] == level_seconds("easy")
