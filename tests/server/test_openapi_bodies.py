"""The OpenAPI document the server publishes declares every success body (a schema with its fields, never ``{}``),
and the limits it declares are the server's own (the chat's longest message, the lab's most games)."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient
from jsonschema import Draft202012Validator
from server_helpers import Api

from boardlab.server import lab
from boardlab.server.tables import CHAT_MAX


def _resolve(doc: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def test_every_success_response_declares_its_body(client: TestClient) -> None:
    doc = client.get("/api/openapi.json").json()
    seen = 0
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            for status, response in op["responses"].items():
                if not status.startswith("2"):
                    continue
                seen += 1
                schema = response.get("content", {}).get("application/json", {}).get("schema")
                where = f"{method.upper()} {path} {status}"
                assert schema, f"{where} declares no body"
                body = _resolve(doc, schema)
                assert body.get("type") == "object" and body.get("properties"), f"{where}: {body}"
                assert body.get("required"), f"{where} names no field every body has"
    assert seen >= 27


def test_the_declared_limits_are_the_servers(client: TestClient) -> None:
    doc = client.get("/api/openapi.json").json()
    schemas = doc["components"]["schemas"]
    assert schemas["ChatIn"]["properties"]["text"]["maxLength"] == CHAT_MAX == 500
    assert schemas["LabRunIn"]["properties"]["games"]["maximum"] == lab.MAX_GAMES == 2000
    assert schemas["LabSweepIn"]["properties"]["games"]["maximum"] == lab.MAX_GAMES
    assert client.get("/api/lab").json()["max_games"] == lab.MAX_GAMES

    # ... and the server holds to them: a message of the declared length is said, one longer refused
    api = Api(client)
    d = api.create(game="blast-radius", mode="hotseat", options={"board_side": 5})
    auth = {"Authorization": f"Bearer {d['tokens']['0']}"}
    ok = client.post(f"/api/tables/{d['id']}/chat", headers=auth, json={"text": "a" * CHAT_MAX})
    assert ok.status_code == 200, ok.text
    long = client.post(f"/api/tables/{d['id']}/chat", headers=auth, json={"text": "a" * (CHAT_MAX + 1)})
    assert long.status_code == 400 and f"at most {CHAT_MAX} characters" in long.json()["message"]
    run = {"game": "blast-radius", "agents": ["random"], "games": lab.MAX_GAMES + 1}
    r = client.post("/api/lab/runs", json=run)
    assert r.status_code == 400 and f"between 1 and {lab.MAX_GAMES}" in r.json()["message"]


def test_real_bodies_match_their_declared_schemas(client: TestClient) -> None:
    """The bodies of a table's life (seat and spectator views, a move, undo, chat, the record, a replay, a rematch, an
    open table joined, the lab) each match what the document declares for that operation."""
    doc = client.get("/api/openapi.json").json()

    def check(method: str, path: str, r: Any) -> None:
        assert 200 <= r.status_code < 300, r.text
        op = doc["paths"][path][method]
        schema = op["responses"][str(r.status_code)]["content"]["application/json"]["schema"]
        errors = list(Draft202012Validator({**schema, "components": doc["components"]}).iter_errors(r.json()))
        assert not errors, f"{method.upper()} {path}: {errors[0].message} at {list(errors[0].absolute_path)}"

    check("get", "/api/health", client.get("/api/health"))
    check("get", "/api/games", client.get("/api/games"))
    check("get", "/api/games/{game_id}", client.get("/api/games/blast-radius"))
    check("get", "/api/games/{game_id}/rules", client.get("/api/games/blast-radius/rules"))
    check("get", "/api/agents", client.get("/api/agents"))
    made = client.post("/api/tables", json={"game": "blast-radius", "mode": "hotseat", "options": {"board_side": 5}})
    check("post", "/api/tables", made)
    d = made.json()
    t = d["id"]
    seat = {"Authorization": f"Bearer {d['tokens']['0']}"}
    watch = {"Authorization": f"Bearer {d['spectator_token']}"}
    view = client.get(f"/api/tables/{t}", headers=seat)
    check("get", "/api/tables/{table_id}", view)
    check("get", "/api/tables/{table_id}", client.get(f"/api/tables/{t}", headers=watch))
    v = view.json()
    move = client.post(f"/api/tables/{t}/moves", headers=seat, json={"action": v["legal"][0][0], "revision": 0})
    check("post", "/api/tables/{table_id}/moves", move)
    check("get", "/api/geometry/{gid}", client.get(f"/api/geometry/{v['scene']['geometry']}"))
    check("get", "/api/tables/{table_id}/positions/{step}", client.get(f"/api/tables/{t}/positions/1", headers=watch))
    undo = client.post(f"/api/tables/{t}/undo", headers=seat, json={"revision": move.json()["revision"]})
    check("post", "/api/tables/{table_id}/undo", undo)
    check(
        "post", "/api/tables/{table_id}/chat", client.post(f"/api/tables/{t}/chat", headers=seat, json={"text": "hi"})
    )
    check("get", "/api/tables/{table_id}/chat", client.get(f"/api/tables/{t}/chat", headers=watch))
    # a whole game: its record, a replay of it, a rematch
    api = Api(client)
    while not (v := api.view(t, d["tokens"]["0"]))["terminal"]:
        tok = d["tokens"][str(v["current"])]
        api.move(t, tok, v["revision"], action=api.view(t, tok)["legal"][0][0])
    record = client.get(f"/api/tables/{t}/record", headers=seat)
    check("get", "/api/tables/{table_id}/record", record)
    replay = client.post("/api/replays", json={"record": record.json()})
    check("post", "/api/replays", replay)
    check("get", "/api/replays/{rid}/{step}", client.get(f"/api/replays/{replay.json()['id']}/2?seat=0"))
    check("post", "/api/tables/{table_id}/rematch", client.post(f"/api/tables/{t}/rematch", headers=seat))
    # an open table, listed and joined
    host = client.post("/api/tables", json={"game": "blast-radius", "mode": "online", "open": True})
    check("get", "/api/open-tables", client.get("/api/open-tables"))
    check("post", "/api/tables/{table_id}/join", client.post(f"/api/tables/{host.json()['id']}/join", json={}))
    # the lab
    small = {"game": "blast-radius", "options": {"board_side": 5}, "games": 2}
    run = client.post("/api/lab/runs", json=small)
    check("post", "/api/lab/runs", run)
    key = run.json()["key"]
    check("get", "/api/lab", client.get("/api/lab"))
    check("get", "/api/lab/runs/{key}", client.get(f"/api/lab/runs/{key}"))
    deadline = time.monotonic() + 60
    while client.get(f"/api/lab/runs/{key}").json()["status"] == "running" and time.monotonic() < deadline:
        time.sleep(0.2)
    check("get", "/api/lab/runs/{key}", client.get(f"/api/lab/runs/{key}"))
    check("get", "/api/lab/runs/{key}/samples/{index}", client.get(f"/api/lab/runs/{key}/samples/0"))
    again = client.post("/api/lab/runs", json=small)  # stored: shown (200), not started again
    assert again.status_code == 200
    check("post", "/api/lab/runs", again)
    sweep = {"game": "blast-radius", "vary": {"board_side": [5, 6]}, "agents": ["mcts:iterations=300"], "games": 1000}
    started = client.post("/api/lab/sweeps", json=sweep)
    check("post", "/api/lab/sweeps", started)
    check("post", "/api/lab/runs/{key}/cancel", client.post(f"/api/lab/runs/{started.json()['key']}/cancel"))
