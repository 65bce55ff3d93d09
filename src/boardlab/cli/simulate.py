"""``boardlab simulate GAME``: many games between agents, with balance statistics (see :mod:`boardlab.lab`)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..core.game import Game
from ..lab.simulate import SimulationResult, simulate
from .main import GameArg, GameOptions, Players, app, cli_errors, err_console, load_game, split_agent_specs
from .sweep import Db, NoStore, lab_progress, open_store


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x:.3f}"


def _ci(ci: tuple[float, float]) -> str:
    return f"{ci[0]:.3f}-{ci[1]:.3f}"


def _num(x: float | None) -> str:
    return "—" if x is None else f"{x:g}" if float(x).is_integer() else f"{x:.1f}"


def print_result(console: Console, r: SimulationResult, game: Game) -> None:
    cap = game.max_game_length()
    opts = ", ".join(f"{k}={v}" for k, v in r.options.items())
    console.print(
        Text.assemble((r.game, "bold"), f" ({opts}) · {r.num_players} players · {r.games} games · seed {r.seed}")
    )
    table = Table(title_justify="left")
    table.add_column("seat", justify="right")
    table.add_column("agent")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("95% CI", justify="right")
    for p, (w, rate, ci) in enumerate(zip(r.wins, r.win_rates, r.win_intervals, strict=True)):
        table.add_row(str(p), r.agents[p], str(w), _pct(rate), _ci(ci))
    console.print(table)
    console.print(f"draws: {r.draws}")
    if r.no_winner:
        console.print(f"no winner (neither a win nor a draw): {r.no_winner}")
    console.print(f"capped (stopped by the safety cap of {cap} plies, no result): {r.capped}")
    console.print(
        f"length in plies (finished games): mean {_num(r.mean_length)}, median {_num(r.median_length)}, "
        f"min {_num(r.min_length)}, max {_num(r.max_length)}"
    )
    if game.cooperative:
        console.print("cooperative game: a win is shared by every seat (first-mover rate not meaningful)")
    elif r.first_mover_games:
        console.print(
            f"first mover wins {r.first_mover_wins} of {r.first_mover_games}: "
            f"{_pct(r.first_mover_win_rate)} (95% CI {_ci(r.first_mover_interval)})"
        )
    else:
        console.print("first mover: none (the first decision is simultaneous)")
    if r.seconds > 0:
        console.print(Text(f"{r.seconds:.1f} s, {r.games / r.seconds:.0f} games/s", style="dim"))


@app.command("simulate")
def simulate_command(
    game_id: GameArg,
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="How many games to play.")] = 100,
    agents: Annotated[
        list[str] | None,
        typer.Option(
            "--agents",
            "-a",
            metavar="SPEC,SPEC,…",
            help="Agent specs, one per seat (comma-separated), or one for every seat. Default: random.",
        ),
    ] = None,
    option: GameOptions = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the run (random if not given).")] = None,
    players: Players = None,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Local processes to play on.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the statistics as one JSON object.")] = False,
    per_game: Annotated[
        bool, typer.Option("--per-game", help="With --json, add every game's seed, length and result.")
    ] = False,
    plot: Annotated[
        Path | None, typer.Option("--plot", metavar="FILE.png", help="Write a balance plot (wins with CIs, lengths).")
    ] = None,
    backend: Annotated[
        str, typer.Option("--backend", help="Where games are played: local (processes) or ray (a Ray cluster).")
    ] = "local",
    ray_address: Annotated[
        str | None,
        typer.Option(
            "--ray-address", "--address", help="Ray cluster: auto, ray://host:10001 (default: start a local one)."
        ),
    ] = None,
    no_store: NoStore = False,
    db: Db = None,
) -> None:
    """Play many games between agents; report wins per seat, draws, lengths, capped games, first-mover rate."""
    with cli_errors():
        game = load_game(game_id, option or [])
        specs = split_agent_specs(agents or ["random"])
        store = open_store(no_store, db)
        if store is not None and seed is None:
            seed = random.SystemRandom().randrange(2**31)
            err_console().print(
                Text(f"seed {seed} (stored: the same command with --seed {seed} resumes it)", style="dim")
            )
        progress = lab_progress("simulating")
        with progress:
            task = progress.add_task("games", total=games)
            result = simulate(
                game,
                games,
                specs,
                num_players=players,
                seed=seed,
                workers=workers,
                progress=lambda done, total: progress.update(task, completed=done),
                keep_games=per_game,
                backend=backend,
                ray_address=ray_address,
                store=store,
                notice=lambda text: progress.console.print(Text(text, style="dim")),
            )
        if plot is not None:
            from ..lab.plots import plot_balance

            plot_balance(result, plot)
    if as_json:
        typer.echo(json.dumps(result.to_dict(include_games=per_game)))
    else:
        print_result(Console(highlight=False, markup=False), result, game)
