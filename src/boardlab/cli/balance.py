"""``boardlab balance GAME``: the designer's balance report (HTML, JSON and Markdown; see ``docs/LAB.md``)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ..lab.balance import BalanceReport, balance
from ..lab.report import to_html, to_markdown
from .main import GameArg, GameOptions, app, cli_errors, err_console, load_game, split_agent_specs


def write_report(report: BalanceReport, out: Path, *, markdown_only: bool = False) -> list[Path]:
    """Write ``<id>.md`` (and, unless ``markdown_only``, ``<id>.html`` and ``<id>.json``) and the sample records.

    The samples go to ``samples/<id>-<k>.json`` beside the Markdown, which links to them.
    """
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    links: list[str] = []
    sample_dir = out / "samples"
    for k, s in enumerate(report.samples):
        sample_dir.mkdir(exist_ok=True)
        path = sample_dir / f"{report.game}-{k + 1}.json"
        path.write_text(json.dumps(s["record"]) + "\n", encoding="utf-8")
        links.append(f"samples/{path.name}")
        written.append(path)
    md = out / f"{report.game}.md"
    md.write_text(to_markdown(report, sample_links=links), encoding="utf-8")
    written.append(md)
    if not markdown_only:
        page = out / f"{report.game}.html"
        page.write_text(to_html(report), encoding="utf-8")
        data = out / f"{report.game}.json"
        data.write_text(json.dumps(report.to_dict(), indent=1) + "\n", encoding="utf-8")
        written += [page, data]
    return written


@app.command("balance")
def balance_command(
    game_id: GameArg,
    option: GameOptions = None,
    agents: Annotated[
        list[str] | None,
        typer.Option("--agents", "-a", metavar="SPEC,SPEC,…", help="Agent specs, one per seat, or one for all."),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="Games to play (per ladder level too).")] = 200,
    players: Annotated[int | None, typer.Option("--players", "-n", help="Number of players.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the run.")] = 0,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Local processes to play on.")] = 1,
    backend: Annotated[str, typer.Option("--backend", help="local (processes) or ray.")] = "local",
    address: Annotated[str | None, typer.Option("--address", help="Address of the Ray cluster.")] = None,
    ladder: Annotated[
        str | None,
        typer.Option(
            "--ladder",
            metavar="LEVEL,LEVEL,…",
            help="Skill drift: self-play at each level, e.g. random,greedy,easy,medium,hard.",
        ),
    ] = None,
    probe_points: Annotated[
        int, typer.Option("--probe-points", min=0, help="Positions evaluated per game for tension (0: none).")
    ] = 8,
    voi_games: Annotated[
        int | None, typer.Option("--voi-games", min=0, help="Games for the value of information (default --games).")
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", metavar="DIR", help="Write GAME.html, GAME.json, GAME.md there.")
    ] = None,
    markdown_only: Annotated[
        bool, typer.Option("--markdown-only", help="With --out, write only the Markdown.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Measure a game's balance: outcomes with intervals, length, tension, luck, information, skill drift, flags."""
    with cli_errors():
        game = load_game(game_id, option or [])
        specs = split_agent_specs(agents or ["random"])
        levels = split_agent_specs([ladder]) if ladder else None
        console = err_console()
        progress = Progress(
            TextColumn("playing"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
            disable=not console.is_terminal,
        )
        command = (
            "boardlab " + " ".join(shlex.quote(a) for a in ["balance", *sys.argv[2:]])
            if sys.argv[1:2] == ["balance"]
            else None
        )
        with progress:
            task = progress.add_task("games", total=None)
            report = balance(
                game.id,
                options=dict(game.params),
                agents=specs,
                games=games,
                players=players,
                seed=seed,
                workers=workers,
                backend=backend,
                address=address,
                progress=lambda done, total: progress.update(task, completed=done, total=total),
                ladder=levels,
                probe_points=probe_points,
                voi_games=voi_games,
                command=command,
            )
        written = write_report(report, out, markdown_only=markdown_only) if out is not None else []
    if as_json:
        typer.echo(json.dumps(report.to_dict()))
        return
    show = Console(highlight=False, markup=False)
    show.print(report.verdict)
    for s in report.sentences:
        show.print(f"- {s}")
    for path in written:
        if path.suffix in (".html", ".md") or len(written) <= 4:
            show.print(f"wrote {path}")
