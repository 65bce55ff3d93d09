"""The server serves the scene's JSON Schema next to the renderer that draws scenes."""

from __future__ import annotations

from boardlab.core.scene import scene_schema


def test_the_scene_schema_is_served(client) -> None:
    r = client.get("/static/scene.schema.json")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/json")
    assert r.json() == scene_schema()
