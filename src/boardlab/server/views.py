"""What one seat (or a spectator) sees of a table: the JSON the browser renders.

Everything here is built from ``state.observation(seat)`` / ``state.scene(seat)``
and public table facts. Hidden information is never put in another seat's view:
the move log of a game with hidden information shows other seats' moves and
chance events without their labels until the game is over, and sealed
simultaneous choices are reported only as "submitted".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.constants import CHANCE, SIMULTANEOUS, TERMINAL
from ..core.record import outcome
from ..core.scene import SEAT_COLOURS

if TYPE_CHECKING:
    from ..core.game import Game
    from .tables import LiveTable


def seat_name(table: LiveTable, seat: int) -> str:
    return str(table.seats[seat]["name"])


def to_act(table: LiveTable) -> list[int]:
    """Seats that must decide now (at a simultaneous node: those that have not submitted)."""
    state = table.state
    cp = state.current_player()
    if cp >= 0:
        return [cp]
    if cp == SIMULTANEOUS:
        return [s for s in range(state.num_players) if s not in table.pending and state.legal_actions(s)]
    return []


def result_text(game: Game, names: list[str], result: dict[str, Any], viewer: int | None) -> str:
    """The result in words: who won, a draw, or a shared win or loss."""
    winners = result.get("winners", [])
    if result.get("draw") and not game.cooperative:
        return "The game is a draw."
    if game.cooperative or len(names) == 1:
        return "Everyone wins!" if winners else "Everyone loses."
    if not winners:
        return "Nobody wins."
    if viewer is not None and viewer in winners:
        others = [names[w] for w in winners if w != viewer]
        return "You win!" if not others else f"You win, with {', '.join(others)}!"
    won = [names[w] for w in winners]
    return f"{' and '.join(won)} {'wins' if len(won) == 1 else 'win'}."


def log_entries(table: LiveTable, viewer: int | None) -> list[dict[str, Any]]:
    """The move log in words, as far as ``viewer`` may know it."""
    state = table.state
    public = table.game.perfect_information or state.is_terminal()
    out: list[dict[str, Any]] = []
    for i, (actor, label) in enumerate(zip(state.actors(), table.labels)):
        if actor == CHANCE:
            text = f"Chance: {label}" if public else "Chance event (hidden)"
            out.append({"i": i + 1, "actor": actor, "who": "Chance", "text": text})
        elif actor == SIMULTANEOUS:
            labels = label if isinstance(label, list) else []
            parts = []
            for s, lab in enumerate(labels):
                if lab is None:
                    continue
                who = "you" if s == viewer else seat_name(table, s)
                parts.append(f"{who}: {lab}" if public or s == viewer else f"{who}: (chose)")
            out.append(
                {"i": i + 1, "actor": actor, "who": "Everyone", "text": "Revealed together — " + "; ".join(parts)}
            )
        else:
            who = "You" if actor == viewer else seat_name(table, actor)
            text = str(label) if public or actor == viewer else "(a move you cannot see)"
            out.append({"i": i + 1, "actor": actor, "who": who, "text": text})
    return out


def seat_colours(table: LiveTable, scene: dict[str, Any]) -> list[str]:
    players = scene.get("players") or []
    n = table.state.num_players
    cols = [SEAT_COLOURS[s % len(SEAT_COLOURS)] for s in range(n)]
    if len(players) == n:
        for s, p in enumerate(players):
            c = p.get("colour") if isinstance(p, dict) else None
            if isinstance(c, str) and c.startswith("#"):
                cols[s] = c
    return cols


def build_view(table: LiveTable, seat: int | None, *, can_undo: bool = False) -> dict[str, Any]:
    state = table.state
    cp = state.current_player()
    terminal = cp == TERMINAL
    acting = to_act(table)
    submitted_seats = sorted(table.pending)
    mine_pending = table.pending.get(seat) if seat is not None else None
    if seat is not None and seat in acting:
        legal = state.legal_moves(seat)
        scene = state.game.scene(state.observation(seat), legal)
    else:
        legal = []
        scene = state.game.scene(state.observation(seat), [])
    result = outcome(state.returns()) if terminal else None
    colours = seat_colours(table, scene)
    thinking = sorted(table.thinking)
    seats = [
        {
            "seat": s,
            "name": seat_name(table, s),
            "kind": spec["kind"],
            "agent": spec.get("agent"),
            "colour": colours[s],
            "present": spec["kind"] == "ai" or s in table.present,
            "thinking": s in table.thinking,
            "to_act": s in acting,
            "submitted": s in table.pending,
            "you": s == seat,
        }
        for s, spec in enumerate(table.seats)
    ]
    prompt = str(scene.get("prompt") or "")
    if terminal:
        names = [seat_name(table, s) for s in range(state.num_players)]
        banner = {"kind": "result", "title": result_text(table.game, names, result or {}, seat), "detail": prompt}
    elif seat is not None and seat in acting:
        title = "Your turn" if cp >= 0 else "Your choice (secret until everyone has chosen)"
        banner = {"kind": "turn", "title": title, "detail": prompt}
    elif mine_pending is not None:
        waiting = [seat_name(table, s) for s in acting]
        who = " and ".join(waiting) if waiting else "the other players"
        others = "the other player" if len(acting) == 1 else "the other players"
        banner = {
            "kind": "submitted",
            "title": f"Waiting for {others}",
            "detail": f"You chose {state.action_to_string(seat, mine_pending)}; waiting for {who}. "
            "Choices are revealed together.",
        }
    elif thinking:
        names = " and ".join(seat_name(table, s) for s in thinking)
        banner = {
            "kind": "think",
            "title": f"{names} {'is' if len(thinking) == 1 else 'are'} thinking…",
            "detail": prompt,
        }
    elif acting:
        names = " and ".join(seat_name(table, s) for s in acting)
        verb = "to choose" if cp == SIMULTANEOUS else "to move"
        banner = {"kind": "wait", "title": f"Waiting for {names} {verb}", "detail": prompt}
    else:
        banner = {"kind": "wait", "title": "Waiting", "detail": prompt}
    return {
        "table": table.summary(),
        "revision": table.revision,
        "move_number": state.move_number(),
        "seat": seat,
        "seats": seats,
        "current": cp,
        "to_act": acting,
        "your_turn": seat is not None and seat in acting,
        "submitted": state.action_to_string(seat, mine_pending) if mine_pending is not None else None,
        "submitted_seats": submitted_seats,
        "thinking": thinking,
        "terminal": terminal,
        "result": result,
        "banner": banner,
        "scene": scene,
        "legal": [[a, label] for a, label in legal],
        "can_undo": can_undo,
        "undo_label": "Withdraw my choice" if mine_pending is not None else "Undo",
        "log": log_entries(table, seat),
        "record_available": terminal or table.game.perfect_information,
        "notes": list(table.notes[-5:]),
    }
