"""``boardlab sweep GAME --vary name=v1,v2 …``: paired variant grids, or a search for a target (see
:mod:`boardlab.lab.sweep`). Also the lab's shared progress bar and store options."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from ..core.options import parse_option_pairs
from ..lab.store import RunStore, default_url
from ..lab.sweep import (
    METRICS,
    SweepResult,
    grid_table,
    parse_target,
    parse_vary,
    round_line,
    rounds_table,
    search,
    sweep,
)
from .main import GameArg, app, cli_errors, err_console, split_agent_specs


class RateColumn(ProgressColumn):
    """Games per second, as measured by the bar."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if not speed else f"{speed:,.0f} games/s", style="progress.data.speed")


def lab_progress(label: str) -> Progress:
    """The lab's progress bar on stderr: done of total, rate, elapsed and time left (hidden off a terminal)."""
    console = err_console()
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )


def open_store(no_store: bool, db: str | None) -> RunStore | None:
    return None if no_store else RunStore(db or default_url())


NoStore = Annotated[bool, typer.Option("--no-store", help="Do not store the run (it cannot be resumed).")]
Db = Annotated[
    str | None,
    typer.Option(
        "--db", metavar="URL", help="Database for stored runs (default: $BOARDLAB_LAB_DB or ./boardlab-data/lab.db)."
    ),
]


def print_sweep(console: Console, r: SweepResult) -> None:
    base = ", ".join(f"{k}={v}" for k, v in r.base_options.items())
    console.print(
        Text.assemble(
            (r.game, "bold"),
            f" ({base}) · " if base else " · ",
            f"{len(r.variants)} variants · {r.games} games each · {', '.join(sorted(set(r.agents)))} · seed {r.seed}",
        )
    )
    if r.rounds:
        for row in rounds_table(r.to_dict())["rows"]:
            console.print(round_line(row))
    else:
        grid = grid_table(r.to_dict())
        table = Table(title_justify="left")
        for i, name in enumerate(grid["columns"]):
            table.add_column(name, justify="right" if i else "left")
        for row in grid["rows"]:
            table.add_row(*row)
        console.print(table)
        console.print(Text(grid["note"], style="dim"))
    console.print(r.verdict())


@app.command("sweep")
def sweep_command(
    game_id: GameArg,
    vary: Annotated[
        list[str],
        typer.Option("--vary", "-v", metavar="NAME=V1,V2|NAME=LO..HI[:STEP]", help="An option and its values."),
    ],
    games: Annotated[int, typer.Option("--games", "-g", min=2, help="Games per variant (a search: at most).")] = 200,
    agents: Annotated[
        list[str] | None,
        typer.Option("--agents", "-a", metavar="SPEC,SPEC,…", help="Agent specs, one per seat or one for all."),
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", metavar="NAME=VALUE", help="A fixed game option.")
    ] = None,
    target: Annotated[
        str | None,
        typer.Option(
            "--target",
            metavar="METRIC=VALUE",
            help="Search (successive halving) for the setting nearest this, e.g. first-mover=0.5, median-length=40.",
        ),
    ] = None,
    balanced: Annotated[
        str, typer.Option("--balanced", metavar="METRIC=VALUE", help="What 'most balanced' means in a grid.")
    ] = "first-mover=0.5",
    seed: Annotated[int, typer.Option("--seed", help="Seed of the sweep.")] = 0,
    players: Annotated[int | None, typer.Option("--players", "-n", help="Number of players.")] = None,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Local processes to play on.")] = 1,
    backend: Annotated[str, typer.Option("--backend", help="local (processes) or ray (a Ray cluster).")] = "local",
    address: Annotated[
        str | None, typer.Option("--address", "--ray-address", help="Ray cluster: auto, or ray://host:10001.")
    ] = None,
    no_store: NoStore = False,
    db: Db = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the sweep as one JSON object.")] = False,
) -> None:
    """Play the same games under every combination of option values; compare them, name the most balanced."""
    with cli_errors():
        base: dict[str, Any] = parse_option_pairs(option or [])
        grid = parse_vary(vary)
        specs = split_agent_specs(agents or ["random"])
        metric, value = parse_target(target or balanced)
        store = open_store(no_store, db)
        progress = lab_progress("sweep" if target is None else "search")
        with progress:
            task = progress.add_task("games", total=None)

            def shown(done: int, total: int) -> None:
                progress.update(task, completed=done, total=total)

            kw: dict[str, Any] = {
                "games": games,
                "agents": specs,
                "base_options": base,
                "players": players,
                "seed": seed,
                "metric": metric,
                "target": value,
                "workers": workers,
                "backend": backend,
                "address": address,
                "progress": shown,
                "store": store,
            }
            result = search(game_id, grid, **kw) if target else sweep(game_id, grid, **kw)
    if as_json:
        typer.echo(json.dumps(result.to_dict()))
    else:
        print_sweep(Console(highlight=False, markup=False), result)


__all__ = ["METRICS", "lab_progress", "open_store", "print_sweep", "sweep_command"]
