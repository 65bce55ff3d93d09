"""The end of a game. Rematch: POST /api/tables/{id}/rematch makes a finished table's rematch (same game, options, mode and seat
kinds, every seat one place on) and tells every page of the old table where it is, each seat its own link only. The result in the viewer's terms; nothing stale once the game is over."""

from __future__ import annotations

import json
import time
from typing import Any

from server_helpers import Api, auth

BR = {"game": "blast-radius", "options": {"board_side": 5}}


def finish(api: Api, t: str, tokens: dict[str, str]) -> dict[str, Any]:
    """Play the table to its end, every human seat choosing its last legal move (AI seats answer on their own)."""
    deadline = time.monotonic() + 60
    any_token = next(iter(tokens.values()))
    while time.monotonic() < deadline:
        v = api.view(t, any_token)
        if v["terminal"]:
            return v
        for s in v["to_act"]:
            tok = tokens.get(str(s))
            if tok is None:
                continue
            w = api.view(t, tok)
            if w["your_turn"]:
                api.move(t, tok, w["revision"], action=w["legal"][-1][0])
                break
        else:
            time.sleep(0.02)
    raise AssertionError("the game did not end")


def rematch(api: Api, t: str, token: str) -> Any:
    return api.c.post(f"/api/tables/{t}/rematch", headers=auth(token))


def token_of(link: str) -> str:
    return link.split("#t=", 1)[1]


def test_rematch_of_an_online_table(api: Api) -> None:
    d = api.create(**BR, mode="online", seats=[{"kind": "human", "name": "Ann"}, {"kind": "human"}])
    t, tokens, spectator = d["id"], d["tokens"], d["spectator_token"]
    # not before the end, never for a spectator, never without a token of the table
    r = rematch(api, t, tokens["0"])
    assert r.status_code == 409 and r.json()["error"] == "not_finished"
    finish(api, t, tokens)
    assert rematch(api, t, spectator).status_code == 403
    assert api.c.post(f"/api/tables/{t}/rematch").status_code == 401
    assert api.c.post("/api/tables/nosuchtable/rematch", headers=auth(tokens["0"])).status_code == 404
    assert api.view(t, tokens["0"])["rematch"] is None

    r0 = rematch(api, t, tokens["0"])
    assert r0.status_code == 200, r0.text
    m0 = r0.json()
    new = m0["table"]
    assert new != t and m0["seat"] == 1 and m0["url"].endswith(m0["link"])
    # asked again, by the other seat: the same rematch, that seat's own place and token
    m1 = rematch(api, t, tokens["1"]).json()
    assert m1["table"] == new and m1["seat"] == 0
    tok0, tok1 = token_of(m0["link"]), token_of(m1["link"])
    assert tok0 != tok1
    v0, v1 = api.view(new, tok0), api.view(new, tok1)
    assert v0["seat"] == 1 and v1["seat"] == 0
    assert v0["table"]["game"] == "blast-radius" and v0["table"]["options"] == d["table"]["options"]
    assert v0["table"]["mode"] == "online" and not v0["terminal"]
    # the chosen name moves with its seat; a name the server gave is given afresh
    assert [s["name"] for s in v0["seats"]] == ["Red", "Ann"]

    # the old table's views say where the rematch is: each seat its own link, a spectator the public one
    old0, old1 = api.view(t, tokens["0"]), api.view(t, tokens["1"])
    pub = api.view(t, spectator)
    assert old0["rematch"] == {"table": new, "seat": 1, "link": m0["link"]}
    assert old1["rematch"] == {"table": new, "seat": 0, "link": m1["link"]}
    assert tok1 not in json.dumps(old0) and tok0 not in json.dumps(old1)
    assert tok0 not in json.dumps(pub) and tok1 not in json.dumps(pub)
    spec = token_of(pub["rematch"]["link"])
    assert api.view(new, spec)["seat"] is None


def test_rematch_against_the_ai_swaps_the_seats(api: Api) -> None:
    d = api.create(**BR, mode="ai", seats=[{"kind": "human", "name": "Ada"}, {"kind": "ai", "agent": "random"}])
    finish(api, d["id"], d["tokens"])
    m = rematch(api, d["id"], d["tokens"]["0"]).json()
    v = api.view(m["table"], token_of(m["link"]))
    assert v["seat"] == 1 and v["table"]["mode"] == "ai"
    assert [(s["kind"], s["agent"], s["name"]) for s in v["seats"]] == [
        ("ai", "random", "Red (random AI)"),
        ("human", None, "Ada"),
    ]


def test_connected_pages_hear_of_the_rematch(api: Api, client) -> None:
    d = api.create(**BR, mode="online")
    t, tokens = d["id"], d["tokens"]
    finish(api, t, tokens)
    with client.websocket_connect(f"/api/tables/{t}/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "tokens": [tokens["1"]]}))
        while (m := ws.receive_json())["type"] != "view":
            pass
        assert m["view"]["rematch"] is None
        made = rematch(api, t, tokens["0"]).json()
        while (m := ws.receive_json())["type"] != "view":
            pass
        got = m["view"]["rematch"]
        assert got["table"] == made["table"] and got["seat"] == 0
        assert token_of(got["link"]) != token_of(made["link"])


def test_result_in_the_viewers_terms(api: Api) -> None:
    d = api.create(**BR, mode="online", seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}])
    v = finish(api, d["id"], d["tokens"])
    winner = v["result"]["winners"][0]
    names = ["Ann", "Bo"]
    assert api.view(d["id"], d["tokens"][str(winner)])["banner"]["title"] == "You win!"
    assert api.view(d["id"], d["tokens"][str(1 - winner)])["banner"]["title"] == f"You lose: {names[winner]} wins."
    assert api.view(d["id"], d["spectator_token"])["banner"]["title"] == f"{names[winner]} wins."


def test_no_choice_shows_as_pending_once_the_game_is_over(api: Api, client) -> None:
    """Even with a sealed choice left behind, a finished table shows nobody choosing and offers no withdrawal."""
    d = api.create(**BR, mode="online")
    t, tokens = d["id"], d["tokens"]
    finish(api, t, tokens)
    table = client.app.state.platform.tables[t]
    table.pending = {0: 3}  # left over (the view must not trust it once the game is over)
    table.touch()
    v = api.view(t, tokens["0"])
    assert v["terminal"] and v["submitted"] is None and v["submitted_seats"] == []
    assert not any(s["submitted"] for s in v["seats"])
    assert v["undo_label"] == "Undo" and not v["can_undo"]
    assert v["banner"]["kind"] == "result"
