"""``boardlab strength GAME``: every level's Elo, hard against random, the luck ceiling; ``--write`` records it."""

from __future__ import annotations

import pathlib
from typing import Annotated

import typer

from ..agents.strength import DEFAULT_LEVELS, measure_strength, strength_markdown, write_strength
from ..docs import ai_notes_path
from .main import GameArg, GameOptions, app, cli_errors, load_game

#: docs/ai of the source tree (where ``--write`` writes; the package data is built from it).
DOCS_AI = pathlib.Path(__file__).resolve().parents[3] / "docs" / "ai"


@app.command("strength")
def strength_command(
    game_id: GameArg,
    levels: Annotated[
        str, typer.Option("--levels", "-l", metavar="L,L,…", help="Levels to measure against random.")
    ] = ",".join(DEFAULT_LEVELS),
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="Games per pairing (use an even number).")] = 10,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Local processes to play on.")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="Seed (every game derives its own).")] = 1,
    option: GameOptions = None,
    players: Annotated[
        str | None,
        typer.Option("--players", "-n", metavar="N,N,…", help="Co-operative games: player counts to measure."),
    ] = None,
    ceiling: Annotated[
        bool, typer.Option("--ceiling/--no-ceiling", help="With hidden information: measure the all-seeing ceiling.")
    ] = True,
    schedule: Annotated[
        str, typer.Option("--schedule", help="ladder (each level against the next weaker; hard against random) or all.")
    ] = "ladder",
    cpu_clock: Annotated[
        bool,
        typer.Option(
            "--cpu-clock",
            help="Count the levels' time caps in CPU seconds of their process (they do so already; kept for old commands).",
        ),
    ] = False,
    max_games: Annotated[
        int | None,
        typer.Option(
            "--max-games",
            min=1,
            help="Sequential: play each pairing on from --games until its head-to-head interval excludes an even "
            "score, at most this many games.",
        ),
    ] = None,
    stop_confidence: Annotated[
        float, typer.Option("--stop-confidence", help="With --max-games: the interval that stops a pairing.")
    ] = 0.99,
    pair_minutes: Annotated[
        float | None,
        typer.Option(
            "--pair-minutes",
            min=0.0,
            help="With --max-games: a pairing also stops once this run spent so many CPU minutes on it.",
        ),
    ] = None,
    store: Annotated[
        bool,
        typer.Option("--store", help="Keep every game in docs/ai/games/GAME.jsonl and reuse the games stored there."),
    ] = False,
    stored_only: Annotated[
        bool, typer.Option("--stored-only", help="With --store: measure the stored games alone, play none.")
    ] = False,
    write: Annotated[
        bool, typer.Option("--write", help="Write the table into docs/ai/GAME.md (between its markers).")
    ] = False,
    docs: Annotated[
        pathlib.Path | None, typer.Option("--docs", metavar="DIR", help="With --write: the docs/ai directory.")
    ] = None,
) -> None:
    """Measure every level of a game against random (Elo, hard's win rate, the luck ceiling) and print Markdown."""
    with cli_errors():
        game = load_game(game_id, option or [])
        counts = [int(x) for x in players.split(",") if x.strip()] if players else None
        folder = docs or DOCS_AI
        if not folder.is_dir():
            found = ai_notes_path(game.id)
            folder = found.parent if found is not None else folder
        if stored_only and not store:
            raise ValueError("--stored-only measures the stored games: name --store too")
        kept = folder / "games" / f"{game.id}.jsonl" if store else None
        report = measure_strength(
            game,
            levels.split(","),
            games,
            seed=seed,
            workers=workers,
            players=counts,
            ceiling=ceiling,
            schedule=schedule,
            cpu_clock=cpu_clock,
            log=lambda line: typer.echo(line, err=True),
            max_games=max_games,
            stop_confidence=stop_confidence,
            store=kept,
            play_new=not stored_only,
            pair_cpu_seconds=pair_minutes * 60 if pair_minutes is not None else None,
        )
        if kept is not None:
            report.store = f"docs/ai/games/{game.id}.jsonl" if docs is None else str(kept)
        parts = [f"boardlab strength {game.id}", f"--levels {','.join(report.levels)}", f"--games {games}"]
        if max_games is not None and max_games > games:
            parts.append(f"--max-games {max_games}")
            if stop_confidence != 0.99:
                parts.append(f"--stop-confidence {stop_confidence:g}")
            if pair_minutes is not None:
                parts.append(f"--pair-minutes {pair_minutes:g}")
        parts += [f"--seed {seed}"] + ([f"--schedule {schedule}"] if schedule != "ladder" else [])
        parts += [f"--option {o}" for o in option or []]
        if cpu_clock:
            parts.append("--cpu-clock")
        if not ceiling and not game.perfect_information:
            parts.append("--no-ceiling")
        if counts:
            parts.append(f"--players {','.join(map(str, counts))}")
        if store:
            parts.append("--store")
        if stored_only:
            parts.append("--stored-only")
        report.command = " ".join(parts)
        block = strength_markdown(report)
        if write:
            path = folder / f"{game.id}.md"
            if not path.exists():
                path.write_text(f"# {game.id}: AI strength\n", encoding="utf-8")
            write_strength(path, block)
            typer.echo(f"wrote {path}", err=True)
    typer.echo(block)
