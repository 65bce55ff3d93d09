"""Chance, hidden information, sealed simultaneous choices and multi-step turns, on a small test game."""

from __future__ import annotations

import json

from sealed_game import CONFIRM, HIGH, LOW, PICK_A, PICK_B
from server_helpers import Api


def sealed(api: Api, seed: int | None = None, mode: str = "online") -> tuple[str, str, str, str]:
    """A sealed-test table; a seed only where one may be chosen (hot-seat: one person holds every seat)."""
    d = api.create(game="sealed-test", mode=mode, **({} if seed is None else {"seed": seed}))
    return d["id"], d["tokens"]["0"], d["tokens"]["1"], d["spectator_token"]


def test_chance_is_sampled_recorded_and_reproducible(api: Api) -> None:
    t, tok0, _tok1, _spec = sealed(api, seed=42, mode="hotseat")
    v = api.view(t, tok0)
    assert v["move_number"] == 2 and v["current"] == -2  # two cards dealt, everyone bids
    t2, tok0b, _, _ = sealed(api, seed=42, mode="hotseat")
    assert api.view(t2, tok0b)["scene"] == v["scene"]  # same seed, same deal


def test_each_seat_sees_only_its_own_card(api: Api) -> None:
    t, tok0, tok1, spec = sealed(api, seed=7, mode="hotseat")  # a deal of two different cards
    v0, v1, vs = api.view(t, tok0), api.view(t, tok1), api.view(t, spec)
    card0 = v0["scene"]["zones"][0]["items"][0]
    card1 = v1["scene"]["zones"][1]["items"][0]
    assert not card0["face_down"] and not card1["face_down"]
    assert v0["scene"]["zones"][1]["items"][0]["face_down"]
    assert v1["scene"]["zones"][0]["items"][0]["face_down"]
    assert all(z["items"][0]["face_down"] for z in vs["scene"]["zones"])
    # the deal is in each seat's log as the game says it saw it: its own card, the other face down
    assert v0["log"] == [[-1, f"card {card0['label']} to Player 1"], [-1, "a card face down to Player 2"]]
    assert v1["log"] == [[-1, "a card face down to Player 1"], [-1, f"card {card1['label']} to Player 2"]]
    assert vs["log"] == [[-1, "a card face down to Player 1"], [-1, "a card face down to Player 2"]]
    assert f"card {card1['label']} to" not in json.dumps(v0) and f"card {card0['label']} to" not in json.dumps(vs)


def test_sealed_choices_wait_then_reveal_together(api: Api) -> None:
    t, tok0, tok1, spec = sealed(api)
    v0 = api.view(t, tok0)
    before = api.view(t, tok1)
    assert v0["your_turn"] and v0["to_act"] == [0, 1]
    assert sorted(tg["action"] for tg in v0["scene"]["targets"]) == [LOW, HIGH]
    r = api.move(t, tok0, v0["revision"], action=HIGH)
    assert r.status_code == 200
    mine = r.json()["view"]
    assert mine["submitted"] == "bid high" and not mine["your_turn"]
    assert mine["banner"]["title"] == "Waiting for the other player"
    assert mine["revision"] == v0["revision"]  # a sealed choice is not a move yet
    theirs = api.view(t, tok1)
    assert theirs["your_turn"] and theirs["submitted"] is None and theirs["submitted_seats"] == [0]
    for key in ("scene", "legal", "log", "revision"):  # seat 0's choice shows nowhere but in "has chosen"
        assert theirs[key] == before[key], key
    assert "bid high" not in json.dumps(api.view(t, spec))
    r = api.move(t, tok0, v0["revision"], action=LOW)
    assert r.status_code == 409 and r.json()["error"] == "already_submitted"
    # withdraw and choose again
    r = api.undo(t, tok0, v0["revision"])
    assert r.status_code == 200 and r.json()["view"]["your_turn"]
    assert api.move(t, tok0, v0["revision"], action=LOW).status_code == 200
    r = api.move(t, tok1, v0["revision"], action=HIGH)
    assert r.status_code == 200
    after = r.json()["view"]
    assert after["revision"] == v0["revision"] + 1 and after["submitted_seats"] == []
    assert after["log"][-1] == [-2, "revealed together — Player 1: bid low; you: bid high"]
    # the bids were revealed together, so every log shows both
    log0 = api.view(t, tok0)["log"][-1]
    assert log0 == [-2, "revealed together — you: bid low; Player 2: bid high"]
    assert api.view(t, spec)["log"][-1] == [-2, "revealed together — Player 1: bid low; Player 2: bid high"]


def test_multi_step_turn_can_be_cancelled_step_by_step_online(api: Api) -> None:
    t, tok0, tok1, _ = sealed(api)
    rev = api.view(t, tok0)["revision"]
    api.move(t, tok0, rev, action=LOW)
    api.move(t, tok1, rev, action=LOW)
    v = api.view(t, tok0)
    assert v["your_turn"] and not v["can_undo"]  # the reveal is a barrier
    assert api.undo(t, tok0, v["revision"]).status_code == 409
    r = api.move(t, tok0, v["revision"], action=PICK_B)
    v = r.json()["view"]
    assert v["your_turn"] and v["can_undo"] and v["legal"] == [[CONFIRM, "confirm"]]
    assert api.undo(t, tok1, v["revision"]).status_code == 409  # not seat 1's step
    r = api.undo(t, tok0, v["revision"])
    assert r.status_code == 200
    v = r.json()["view"]
    assert sorted(a for a, _ in v["legal"]) == [PICK_A, PICK_B]
    v = api.move(t, tok0, v["revision"], action=PICK_A).json()["view"]
    v = api.move(t, tok0, v["revision"], action=CONFIRM).json()["view"]
    assert v["terminal"] and not v["can_undo"]
    # at the end everything is public: the log shows the deal
    assert v["log"][0][1].startswith("card ")
    rec = api.c.get(f"/api/tables/{t}/record", headers={"Authorization": f"Bearer {tok1}"})
    assert rec.status_code == 200 and rec.json()["history"][2] == [LOW, LOW]


def test_record_of_a_hidden_game_only_when_over(api: Api) -> None:
    t, tok0, _, _ = sealed(api)
    r = api.c.get(f"/api/tables/{t}/record", headers={"Authorization": f"Bearer {tok0}"})
    assert r.status_code == 409 and r.json()["error"] == "not_finished"
