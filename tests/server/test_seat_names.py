"""Seats' names cannot pass for someone else's: a chosen name is read as people will see it (NFKC), may hold no
invisible or text-direction characters, and no two seats at a table share a name (compared without case); an AI
seat's given name says its level, never the agent's raw parameters."""

from __future__ import annotations

from typing import Any

import pytest
from server_helpers import Api

BR = {"game": "blast-radius", "options": {"board_side": 5}}
#: Names that look like another (or like nothing): zero-width space, right-to-left override, a bidi isolate, a
#: Hangul filler (drawn as a blank), a control character, a name of nothing but a combining accent.
SNEAKY = ["Ann\u200b", "Ann\u202e", "\u2067Ann\u2069", "\u3164", "Ann\x1b", "\u0301"]


def join(api: Api, t: str, **body: Any) -> Any:
    return api.c.post(f"/api/tables/{t}/join", json=body)


@pytest.mark.parametrize("name", SNEAKY)
def test_a_name_with_invisible_or_direction_characters_is_refused(api: Api, name: str) -> None:
    r = api.c.post("/api/tables", json={**BR, "mode": "online", "seats": [{"kind": "human", "name": name}] * 2})
    assert r.status_code == 400 and r.json()["message"].startswith("seat 0: a name"), r.text
    d = api.create(**BR, mode="online", open=True, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human"}])
    r = join(api, d["id"], name=name)
    assert r.status_code == 400 and "name" in r.json()["message"], r.text
    assert api.view(d["id"], d["tokens"]["0"])["free_seats"] == [1]  # nothing changed


def test_names_are_normalised_and_no_two_seats_share_one(api: Api) -> None:
    d = api.create(**BR, mode="online", seats=[{"kind": "human", "name": "\uff21nn  Lee"}, {"kind": "human"}])
    assert d["seats"][0]["name"] == "Ann Lee"  # full-width letters and doubled spaces read as plain ones
    for other in ("ann lee", "ANN LEE", "\uff41nn Lee"):
        seats = [{"kind": "human", "name": "Ann Lee"}, {"kind": "human", "name": other}]
        r = api.c.post("/api/tables", json={**BR, "mode": "online", "seats": seats})
        assert r.status_code == 400 and "give each seat its own name" in r.json()["message"], (other, r.text)
    # a chosen name cannot take the name the server gave another seat either
    r = api.c.post(
        "/api/tables",
        json={**BR, "mode": "online", "seats": [{"kind": "human", "name": "blue"}, {"kind": "human"}]},
    )
    assert r.status_code == 400, r.text


def test_a_joining_player_cannot_take_a_name_already_at_the_table(api: Api) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human"}, {"kind": "human"}]
    d = api.create(game="posies", num_players=3, mode="online", open=True, seats=seats)
    t = d["id"]
    for name in ("ann", "ＡＮＮ", "Player 3"):
        r = join(api, t, seat=1, name=name)
        assert r.status_code == 409 and r.json()["error"] == "name_taken", (name, r.text)
    assert api.view(t, d["tokens"]["0"])["free_seats"] == [1, 2]  # nothing changed
    assert join(api, t, seat=1, name="Bo").status_code == 200
    assert join(api, t, seat=2, name="bo").status_code == 409
    assert join(api, t, seat=2).status_code == 200  # keeps the name it was given


def test_an_ai_seat_is_named_by_its_level_not_its_raw_spec(api: Api) -> None:
    seats = [{"kind": "human"}, {"kind": "ai", "agent": "easy:seconds=0.5,plies=200"}]
    d = api.create(**BR, mode="ai", seats=seats)
    name = d["seats"][1]["name"]
    assert name.endswith(" (easy AI)") and "seconds" not in name and "plies" not in name, name
    d = api.create(**BR, mode="ai", seats=[{"kind": "human"}, {"kind": "ai", "agent": "mcts:iterations=50"}])
    assert d["seats"][1]["name"].endswith(" (mcts AI)") and "iterations" not in d["seats"][1]["name"]
