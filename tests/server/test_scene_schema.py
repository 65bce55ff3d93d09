"""The server serves the scene's JSON Schema next to the renderer that draws scenes."""

from __future__ import annotations

import jsonschema

import boardlab
from boardlab.core.scene import scene_schema


def test_the_scene_schema_is_served(client) -> None:
    r = client.get("/static/scene.schema.json")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/json")
    assert r.json() == scene_schema()


def test_the_served_schema_is_a_valid_schema_that_a_standard_validator_applies(client) -> None:
    """A client with any Draft 2020-12 validator can check scenes with the served file."""
    schema = client.get("/static/scene.schema.json").json()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    state = boardlab.make("blast-radius", board_side=5).new_initial_state()
    scene = state.scene(0)
    assert not list(validator.iter_errors(scene))
    assert list(validator.iter_errors({**scene, "viewbox": [0, 0, 1]}))
