"""Every registered game through the server: a hot-seat table played to the end with random legal
moves, every seat's view and the spectator's built and JSON-encoded along the way, the compact
scene expanding back to the game's own scene, and the stored record replaying to the same result."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import random

import pytest

import boardlab
from boardlab.core.constants import SIMULTANEOUS
from boardlab.core.record import GameRecord
from boardlab.server.tables import Platform, Settings
from boardlab.server.views import geometry_text, scene_words


def expand(scene: dict, geometry: dict) -> dict:
    out = {k: v for k, v in scene.items() if k not in ("geometry", "cell_fills", "edge_styles")}
    out["cells"] = [dict(c, fill=f) for c, f in zip(geometry["cells"], scene["cell_fills"])]
    out["edges"] = [dict(e, owner=s[0], stroke=s[1]) for e, s in zip(geometry["edges"], scene["edge_styles"])]
    return out


@pytest.mark.parametrize("game_id", boardlab.games())
def test_play_every_game_through_the_server(game_id: str, tmp_path) -> None:
    # in a thread of its own: Playwright's sync API may hold an event loop in this one
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, _play(game_id, tmp_path)).result()


async def _play(game_id: str, tmp_path) -> None:
    platform = Platform(Settings(db_url=f"sqlite:///{tmp_path}/g.db", resume_ai=False))
    rng = random.Random(5)
    try:
        table, tokens, _spectator, _host = await platform.create(game_id, {}, None, "hotseat", None, 9, None)
        n = table.state.num_players
        cap = table.game.max_game_length()
        for step in range(cap):
            # every seat's view every few steps (and at the end); the spectator's every step
            seats = [*range(n), None] if step % 4 == 0 or table.state.is_terminal() else [None]
            for seat in seats:
                view = json.loads(platform.view_json(table, seat))
                scene = view["scene"]
                if "geometry" in scene:
                    full = expand(scene, json.loads(geometry_text(scene["geometry"])))
                    obs = table.state.observation(seat)
                    legal = table.state.legal_moves(seat) if seat is not None and seat in view["to_act"] else []
                    own = scene_words(table.game.scene(obs, legal), table.names())
                    assert full == json.loads(json.dumps(own)), (game_id, seat)
            if table.state.is_terminal():
                break
            state = table.state
            if state.current_player() == SIMULTANEOUS:
                seat = next(s for s in range(n) if s not in table.pending and state.legal_actions(s))
            else:
                seat = state.current_player()
            await platform.act(table, seat, rng.choice(state.legal_actions(seat)), None, table.revision)
        else:
            pytest.fail(f"{game_id}: not over after the safety cap of {cap} steps")
        view = platform.view(table, 0)
        assert view["terminal"] and view["banner"]["kind"] == "result" and view["record_available"]
        record = GameRecord.from_dict(json.loads(table.record().to_json()))
        assert record.replay().returns() == table.state.returns()
        # the stored history rebuilds the same table
        platform.tables.clear()
        again = await platform.get(table.id)
        assert again.state.history() == table.state.history() and again.revision == table.revision
        assert tokens  # hot-seat: every seat has a token
    finally:
        await platform.stop()
