"""The position after a log line (the table page's "looking at move N"): each line says how many history entries
lie behind it, and the position there is drawn as the asking seat saw it then, never with another seat's card."""

from __future__ import annotations

from server_helpers import Api, auth


def position(api: Api, table: str, token: str, step: int, **params: object) -> dict:
    r = api.c.get(f"/api/tables/{table}/positions/{step}", headers=auth(token), params=params)
    assert r.status_code == 200, r.text
    return r.json()


def test_log_lines_point_at_positions_and_a_perfect_information_position_is_the_board_then(api: Api) -> None:
    d = api.create(game="blast-radius", mode="hotseat", seed=1)
    t, tok = d["id"], d["tokens"]["0"]
    v = api.view(t, tok)
    first = v["legal"][0][0]
    assert api.move(t, tok, v["revision"], action=first).status_code == 200
    tok1 = d["tokens"]["1"]
    v1 = api.view(t, tok1)
    assert api.move(t, tok1, v1["revision"], action=v1["legal"][-1][0]).status_code == 200
    v = api.view(t, tok)
    assert len(v["log_after"]) == len(v["log"]) == 2
    assert v["log_after"] == [1, 2]
    p0 = position(api, t, tok, 0)
    p1 = position(api, t, tok, 1)
    assert p0["steps"] == 2 and p0["scene"]["targets"] == [] and p1["scene"]["targets"] == []
    pieces0 = p0["scene"]["pieces"]
    pieces1 = p1["scene"]["pieces"]
    assert len(pieces1) == len(pieces0) + 1  # the first tower stands after move 1, not before it
    assert position(api, t, tok, 2)["scene"]["pieces"] != pieces1
    for bad in (-1, 3):
        r = api.c.get(f"/api/tables/{t}/positions/{bad}", headers=auth(tok))
        assert r.status_code in (400, 422) and "step" in r.text
    assert api.c.get(f"/api/tables/{t}/positions/0", headers=auth("not-a-token")).status_code == 403


def test_a_past_position_shows_only_what_the_seat_saw(api: Api) -> None:
    d = api.create(game="hamlet", options={"first": "seat0"}, mode="online")
    t, tok0, tok1, spec = d["id"], d["tokens"]["0"], d["tokens"]["1"], d["spectator_token"]
    v0 = api.view(t, tok0)
    v1 = api.view(t, tok1)
    card0 = v0["scene"]["zones"][0]["items"][0]["label"]
    card1 = v1["scene"]["zones"][0]["items"][0]["label"]
    assert card0 != card1
    # the setup line stands for the deal: the position after it is the dealt hands
    assert len(v0["log_after"]) == len(v0["log"])
    setup = v0["log_after"][-1]
    assert setup >= 1

    def hands(token: str, **params: object) -> dict[str, list[tuple[str, bool]]]:
        zones = position(api, t, token, setup, **params)["scene"]["zones"]
        return {
            z["id"]: [(it["label"], it["face_down"]) for it in z["items"]] for z in zones if z["id"].startswith("hand")
        }

    assert hands(tok0) == {"hand0": [(card0, False)], "hand1": [("role card", True)]}
    assert hands(tok1) == {"hand0": [("role card", True)], "hand1": [(card1, False)]}
    hidden = {"hand0": [("role card", True)], "hand1": [("role card", True)]}
    assert hands(spec) == hidden
    assert hands(tok0, public="true") == hidden  # a seat asking for the public view gets the spectator's
