"""``boardlab tournament GAME --agents A,B[,C…] --games N``: a round robin with win rates and Elo ratings."""

from __future__ import annotations

import json
import time
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..agents.base import parse_agent_spec
from ..agents.levels import LEVELS, level_spec
from ..lab.tournament import run_tournament
from .main import GameArg, GameOptions, Players, app, cli_errors, err_console, load_game, split_agent_specs


def print_tournament(console: Console, data: dict[str, Any], seconds: float) -> None:
    opts = ", ".join(f"{k}={v}" for k, v in data["options"].items())
    total = data["total_games"]
    console.print(
        f"[bold]{data['game']}[/] ({opts}) · {data['players']} players · {data['games']} games per lineup "
        f"· {total} games · seed {data['seed']}"
    )
    table = Table(title_justify="left")
    table.add_column("agent", overflow="fold")
    table.add_column("score", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column("Elo", justify="right")
    table.add_column("Elo 95% CI", justify="right")
    table.add_column("mean return", justify="right")
    ranked = sorted(data["agents"], key=lambda a: -data["elo"][a])
    for a in ranked:
        lo, hi = data["ci95"][a]
        elo_lo, elo_hi = data["elo_ci95"][a]
        elo_ci = "anchor" if a == data["elo_anchor"] else f"{elo_lo:+.0f} … {elo_hi:+.0f}"
        table.add_row(
            a,
            f"{data['score'][a]:.3f}",
            f"{lo:.3f}-{hi:.3f}",
            f"{data['elo'][a]:+.0f}",
            elo_ci,
            f"{data['mean_return'][a]:.3f}",
        )
    console.print(table)
    pairs = Table(title="head to head (score of the first agent)", title_justify="left")
    pairs.add_column("pairing", overflow="fold")
    pairs.add_column("score", justify="right")
    pairs.add_column("games", justify="right")
    for name, cell in data["pairwise"].items():
        pairs.add_row(name, f"{cell['score']:.3f}", str(cell["games"]))
    console.print(pairs)
    anchor = data["elo_anchor"]
    note = f"Elo: {anchor} = 0" if anchor else "Elo: mean 0 (no random agent)"
    console.print(
        f"[dim]{note}; one virtual draw per pairing keeps clean sweeps finite. "
        f"capped games: {data['capped']}; mean length {data['mean_length']:.1f}; {seconds:.1f} s[/]"
    )


def markdown_table(data: dict[str, Any]) -> str:
    """The Elo table as Markdown, as ``docs/ai/<game>.md`` records it (levels with the spec they stand for)."""
    lines = [
        "| agent | spec | Elo | Elo 95% CI | score | score 95% CI |",
        "|-------|------|----:|-----------:|------:|-------------:|",
    ]
    for a in sorted(data["agents"], key=lambda a: data["elo"][a]):
        name = parse_agent_spec(a)[0]
        spec = level_spec(name) + (a[len(name) :] if ":" in a else "") if name in LEVELS else a
        lo, hi = data["elo_ci95"][a]
        ci = "anchor" if a == data["elo_anchor"] else f"{lo:+.0f} … {hi:+.0f}"
        slo, shi = data["ci95"][a]
        lines.append(
            f"| {a} | `{spec}` | {data['elo'][a]:+.0f} | {ci} | {data['score'][a]:.3f} | {slo:.3f}–{shi:.3f} |"
        )
    return "\n".join(lines)


@app.command("tournament")
def tournament_command(
    game_id: GameArg,
    agents: Annotated[
        list[str],
        typer.Option(
            "--agents",
            "-a",
            metavar="SPEC,SPEC,…",
            help="Two or more agent specs (random, greedy, mcts:iterations=2000, easy … expert).",
        ),
    ],
    games: Annotated[
        int, typer.Option("--games", "-g", min=1, help="Games per lineup (each pair, for two seats).")
    ] = 20,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the tournament (every game derives its own).")] = 0,
    option: GameOptions = None,
    players: Players = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Local processes to play on.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as one JSON object.")] = False,
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print the Elo table as Markdown (for docs/ai/<game>.md).")
    ] = False,
) -> None:
    """Round robin between agents, seats swapped fairly: scores with 95% CIs and an Elo table (random = 0)."""
    with cli_errors():
        game = load_game(game_id, option or [])
        specs = split_agent_specs(agents)
        progress = Progress(
            TextColumn("tournament"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=err_console(),
            transient=True,
            disable=not err_console().is_terminal,
        )
        start = time.perf_counter()
        with progress:
            task = progress.add_task("games", total=None)
            result = run_tournament(
                game,
                specs,
                games,
                seed=seed,
                num_players=players,
                jobs=jobs,
                progress=lambda done, total: progress.update(task, completed=done, total=total),
            )
        data = result.to_json()
    if as_json:
        typer.echo(json.dumps(data))
    elif markdown:
        typer.echo(markdown_table(data))
    else:
        print_tournament(Console(highlight=False), data, time.perf_counter() - start)
