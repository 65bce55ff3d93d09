"""``boardlab list`` and ``boardlab rules GAME``."""

from __future__ import annotations

import json
import re
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..docs import rules_text
from ..games import games, make
from .main import GameArg, app, cli_errors, err_console


def game_listing() -> list[dict[str, Any]]:
    """Metadata of every registered game (default options); a game that fails to load says why."""
    out = []
    for gid in games():
        try:
            out.append(make(gid).metadata())
        except Exception as e:  # a broken game module must not take the listing down
            out.append({"id": gid, "error": f"{type(e).__name__}: {e}"})
    return out


@app.command("list")
def list_games(
    as_json: Annotated[bool, typer.Option("--json", help="Print the games' metadata as one JSON array.")] = False,
) -> None:
    """List the games: id, title, players, game type and mechanics."""
    listing = game_listing()
    if as_json:
        typer.echo(json.dumps(listing, indent=2))
        return
    table = Table(title="boardlab games", title_justify="left")
    table.add_column("id", style="bold cyan", no_wrap=True)
    table.add_column("title")
    table.add_column("players", justify="center")
    table.add_column("type")
    table.add_column("mechanics")
    for g in listing:
        if "error" in g:
            table.add_row(g["id"], Text(f"fails to load: {g['error']}", style="red"), "", "", "")
            continue
        lo, hi = g["min_players"], g["max_players"]
        players = str(lo) if lo == hi else f"{lo}-{hi}"
        t = g["game_type"]
        kind = ", ".join([*t["tags"], *(v["text"] for v in t["variants"])])
        table.add_row(Text(g["id"]), Text(g["title"]), players, Text(kind), Text(", ".join(g["mechanics"])))
    Console(soft_wrap=False).print(table)
    broken = [g["id"] for g in listing if "error" in g]
    if broken:
        err_console().print(f"warning: {', '.join(broken)} failed to load")


_POSITION = re.compile(r"^[ \t]*```position\n(.*?)^[ \t]*```\n?", re.S | re.M)


def drawn_positions(game_id: str, text: str) -> str:
    """The rules document with each ``position`` block (a diagram on the rules page) drawn as text."""
    from ..server.pictures import PositionError, diagram  # imported here: only this needs it
    from ..terminal import scene_text

    def draw(m: re.Match[str]) -> str:
        try:
            d = diagram(game_id, m.group(1))
        except (PositionError, ValueError) as e:
            return f"(This diagram could not be drawn: {e}.)\n"
        scene = {k: v for k, v in d["scene"].items() if k not in ("prompt", "players")}
        last = f" Last move: {d['last_move']}." if d["last_move"] else ""
        return f"```text\n{scene_text(scene, width=100)}\n```\n\n*{d['caption']}{last}*\n"

    return _POSITION.sub(draw, text)


@app.command()
def rules(
    game_id: GameArg,
    raw: Annotated[bool, typer.Option("--raw", help="Print the Markdown source even on a terminal.")] = False,
) -> None:
    """Print a game's rules document, then its options."""
    with cli_errors():
        text = rules_text(game_id)
        game = make(game_id)
    console = Console()
    if not raw:
        text = drawn_positions(game_id, text)
    if raw or not console.is_terminal:
        typer.echo(text.rstrip("\n"))
    else:
        from rich.markdown import Markdown  # imported here: it is slow to import and only this needs it

        console.print(Markdown(text))
    if game.options:
        typer.echo("")
        typer.echo("Options (give them as --option name=value):")
        for o in game.options:
            typer.echo(f"  {o.name} = {o.default!r}  ({o.allowed_text()}): {o.description}")
