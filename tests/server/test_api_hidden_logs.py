"""The move log in views comes from the core's per-viewer log: public moves are shown to everyone, secrets only to
the seats that saw them, and an unrevealed Dragon Fight attack nowhere else before the end (REST and WebSocket)."""

from __future__ import annotations

import json
from typing import Any

from server_helpers import Api

# Dragon Fight orders are 4 * movement + attack: movement 0 is forward; attacks 0 claw, 2 tail whip, 3 wing buffet.
FORWARD_TAIL, FORWARD_CLAW, FORWARD_WING = 2, 0, 3


def texts(view: dict[str, Any]) -> list[str]:
    return [text for _, text in view["log"]]


def test_hamlet_lock_and_draw_are_public_moves_and_the_drawn_card_is_not(api: Api) -> None:
    d = api.create(game="hamlet", options={"first": "seat0"}, mode="online")
    t, tok0, tok1, spec = d["id"], d["tokens"]["0"], d["tokens"]["1"], d["spectator_token"]
    v0 = api.view(t, tok0)
    assert v0["your_turn"] and [a for a, _ in v0["legal"]] == [0, 1, 2]
    mine = v0["scene"]["zones"][0]["items"][0]["label"]
    assert texts(v0) == [f"dealt {mine} to Player 1", "dealt a card to Player 2"]
    assert texts(api.view(t, tok1))[0] == "dealt a card to Player 1"
    v0 = api.move(t, tok0, v0["revision"], action=2).json()["view"]  # seat 0 draws (§7)
    drawn = v0["scene"]["zones"][0]["items"][0]["label"]
    assert v0["log"][-2:] == [[0, "chose to draw"], [-1, f"Player 1 drew {drawn}"]]
    for token in (tok1, spec):
        v = api.view(t, token)
        assert v["log"][-2:] == [[0, "chose to draw"], [-1, "Player 1 drew a card"]]
        assert "(a move you cannot see)" not in json.dumps(v)
    v1 = api.view(t, tok1)
    v1 = api.move(t, tok1, v1["revision"], action=0).json()["view"]  # seat 1 locks: both cards are shown (§4d)
    for token in (tok0, tok1, spec):
        lock = [text for actor, text in api.view(t, token)["log"] if actor == 1]
        assert len(lock) == 1 and lock[0].startswith("locked; Player 1 showed ")


def order(api: Api, t: str, tokens: list[str], actions: list[int]) -> None:
    for tok, a in zip(tokens, actions, strict=True):
        v = api.view(t, tok)
        assert api.move(t, tok, v["revision"], action=a).status_code == 200


def test_dragon_fight_orders_shown_revealed_and_a_hidden_attack_nowhere(api: Api, client) -> None:
    d = api.create(game="dragon-fight", mode="online")
    t, tokens, spec = d["id"], [d["tokens"]["0"], d["tokens"]["1"]], d["spectator_token"]
    with client.websocket_connect(f"/api/tables/{t}/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "tokens": [spec]}))
        order(api, t, tokens, [FORWARD_TAIL, FORWARD_TAIL])  # revealed: both attacks happen (§3e)
        for token, you in ((tokens[0], 0), (tokens[1], 1), (spec, None)):
            log = api.view(t, token)["log"]
            names = ["you" if s == you else ("Red", "Green")[s] for s in (0, 1)]
            want = (
                f"revealed together — {names[0]}: moves forward, then whips its tail; "
                f"{names[1]}: moves forward, then whips its tail"
            )
            assert log == [[-2, want]]
        order(api, t, tokens, [FORWARD_WING, FORWARD_CLAW])  # both reach c3: a collision, attacks stay hidden (§8)
        v0, v1, vs = (api.view(t, tok) for tok in (*tokens, spec))
        assert not v0["terminal"]
        assert v0["log"][-1] == [
            -2,
            "revealed together — you: moves forward, then buffets with its wings; "
            "Green: moves forward, its attack still hidden",
        ]
        assert v1["log"][-1] == [
            -2,
            "revealed together — Red: moves forward, its attack still hidden; you: moves forward, then claws",
        ]
        assert vs["log"][-1][1] == (
            "revealed together — Red: moves forward, its attack still hidden; "
            "Green: moves forward, its attack still hidden"
        )
        red_attack, green_attack = ("forward + wing buffet", "buffets with its wings"), ("forward + claw", "then claws")
        assert not any(w in json.dumps(v1["log"]) + json.dumps(v1["scene"]["status"]) for w in red_attack)
        assert not any(w in json.dumps(vs) for w in red_attack + green_attack)
        seen_on_socket = []
        while True:
            m = ws.receive_json()
            seen_on_socket.append(json.dumps(m))
            if m["type"] == "view" and m["view"]["revision"] == vs["revision"]:
                break
        assert not any(w in m for m in seen_on_socket for w in red_attack + green_attack)
