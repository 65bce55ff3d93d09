"""One name per seat: the result banner, the log, the scene's words (hands, status) and the seat list call a seat by
the same name: the one its player chose, else the colour the game calls it ("Red", never "Player 2" beside the
game's "Red wins 30 to 27"), and the game's colour for a seat whose player chose a name reads as that name."""

from __future__ import annotations

import re
from typing import Any

from server_helpers import Api
from test_api_game_end import finish

AI_LEVEL = re.compile(r" \([^)]* AI\)$")


def listed(v: dict[str, Any]) -> list[str]:
    """The seat list's names without an AI seat's level."""
    return [AI_LEVEL.sub("", s["name"]) for s in v["seats"]]


def winner_name(v: dict[str, Any]) -> str:
    return listed(v)[v["result"]["winners"][0]]


def words_of(v: dict[str, Any]) -> str:
    """Everything of the game's text a player reads in the view: banner, log, status lines, zone titles."""
    scene = v["scene"]
    status = scene.get("status") or []
    zones = [z.get("title") or "" for z in scene.get("zones") or []]
    return "\n".join(
        [v["banner"]["title"], v["banner"]["detail"] or "", *(t for _, t in v["log"]), *map(str, status), *zones]
    )


def test_blast_radius_against_the_ai_names_each_seat_by_its_colour(api: Api) -> None:
    seats = [{"kind": "human"}, {"kind": "ai", "agent": "random"}]
    d = api.create(game="blast-radius", options={"board_side": 5}, mode="ai", seats=seats)
    v = finish(api, d["id"], d["tokens"])
    assert listed(v) == ["Red", "Blue"] and v["seats"][1]["name"] == "Blue (random AI)"
    if v["result"]["winners"]:
        name = winner_name(v)
        assert v["banner"]["title"] in ("You win!", f"You lose: {name} wins."), v["banner"]
        assert v["banner"]["detail"].startswith(f"{name} wins"), v["banner"]  # "Red wins 30 to 27."
    assert "Player" not in words_of(v)


def test_trivalent_says_each_colour_once(api: Api) -> None:
    d = api.create(game="trivalent", mode="hotseat", seats=[{"kind": "human"}, {"kind": "human"}])
    v = finish(api, d["id"], d["tokens"])
    assert sorted(listed(v)) == ["Blue", "Orange"]  # the pie rule may have swapped them
    assert [s["detail"] for s in v["seats"]] == ["", ""]  # not "Blue · Blue"
    spectator = api.view(d["id"], d["spectator_token"])
    name = winner_name(v)
    assert spectator["banner"]["title"] == f"{name} wins."
    assert f"{name} wins" in spectator["banner"]["detail"] and "(Player" not in spectator["banner"]["detail"]
    assert "Player" not in words_of(spectator)


def test_an_online_table_calls_named_players_by_their_names(api: Api) -> None:
    seats = [{"kind": "human", "name": "Alice"}, {"kind": "human", "name": "Bob"}]
    d = api.create(game="two-mayors", mode="online", seats=seats)
    v = finish(api, d["id"], d["tokens"])
    spectator = api.view(d["id"], d["spectator_token"])
    assert listed(spectator) == ["Alice", "Bob"]
    # the seat list still says which colour each player is
    assert [s["detail"].split(" · ")[0] for s in spectator["seats"]] == ["Orange", "Blue"]
    name = winner_name(v)
    assert spectator["banner"]["title"] == f"{name} wins." and spectator["banner"]["detail"].startswith(name)
    text = words_of(spectator)
    assert "Alice's hand" in text and "Bob's hand" in text
    assert not re.search(r"\b(Orange|Blue)\b", text), text


def test_the_lobby_and_the_create_answer_call_seats_what_the_table_calls_them(api: Api) -> None:
    """A game that names its seats by colour only in its scene (Blast Radius's "seat 0 (Red)") gets those names in
    the lobby's seat rows, the create answer and the open tables, not "Player 1"; a game with no colours keeps
    "Player 1" everywhere."""
    for game, want in (
        ("blast-radius", ["Red", "Blue"]),
        ("trivalent", ["Blue", "Orange"]),
        ("cirque", ["Orange", "Blue"]),
    ):
        assert api.c.get(f"/api/games/{game}").json()["seat_names"] == want
        d = api.create(game=game, mode="online", open=True, seats=[{"kind": "human"}, {"kind": "human"}])
        assert [s["name"] for s in d["seats"]] == want
        entry = next(t for t in api.c.get("/api/open-tables").json()["tables"] if t["id"] == d["id"])
        assert [s["name"] for s in entry["seats"]] == want
        v = api.view(d["id"], d["tokens"]["0"])
        assert listed(v) == want
    assert api.c.get("/api/games/hamlet").json()["seat_names"] == ["Player 1", "Player 2"]


def test_the_seat_list_says_you_once(api: Api) -> None:
    """The seat list tags the viewer's seat "you"; the game's "(you)" is not said again in its detail ("Blue (you) ·
    active mayor", "you · 1 round won")."""
    for game in ("two-mayors", "kasta", "hamlet"):
        d = api.create(game=game, mode="online", seats=[{"kind": "human"}, {"kind": "human"}])
        for seat in ("0", "1"):
            v = api.view(d["id"], d["tokens"][seat])
            details = [s["detail"] for s in v["seats"]]
            assert not any(re.search(r"\byou\b", x) for x in details), (game, details)


def test_a_named_player_replaces_the_games_other_names_for_the_seat_too(api: Api) -> None:
    """Kasta calls its seats Ada and Ben, Minopoly South and North: a player who chose a name is called by it there
    too (Mata Mosca's "the Spider", its piece, stays)."""
    for game, theirs in (("kasta", ("Ada", "Ben")), ("minopoly", ("South", "North")), ("mata-mosca", ("Flies",))):
        seats = [{"kind": "human", "name": "Alice"}, {"kind": "human", "name": "Bob"}]
        d = api.create(game=game, mode="online", seats=seats)
        v = finish(api, d["id"], d["tokens"])
        spectator = api.view(d["id"], d["spectator_token"])
        for text in (words_of(v), words_of(spectator)):
            assert not [w for w in theirs if re.search(rf"(?<!the )\b{w}\b", text)], (game, text[:600])
