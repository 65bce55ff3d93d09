"""Balance plots for designers: win rates by seat with 95% intervals, and the spread of game lengths.

>>> from boardlab.lab.simulate import simulate
>>> r = simulate("blast-radius", games=20, options={"board_side": 5}, seed=1)
>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "balance.png"
>>> plot_balance(r, path) == path and path.stat().st_size > 0
True
"""

from __future__ import annotations

import pathlib

from ..core.scene import SEAT_COLOURS
from .simulate import SimulationResult, wilson_interval
from .stats import error_bars


def plot_balance(result: SimulationResult, path: str | pathlib.Path) -> pathlib.Path:
    """Write a PNG (or any format matplotlib infers from the suffix) summarising ``result``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = pathlib.Path(path)
    fig, (ax_w, ax_l) = plt.subplots(1, 2, figsize=(10, 4), constrained_layout=True)
    n = result.num_players
    finished = max(1, result.finished)
    labels = [f"seat {p}\n{result.agents[p]}" for p in range(n)]
    rates = [w / finished for w in result.wins]
    cis = result.win_intervals
    colours = [SEAT_COLOURS[p % len(SEAT_COLOURS)] for p in range(n)]
    if result.draws:
        labels.append("draws")
        rates.append(result.draws / finished)
        cis.append(wilson_interval(result.draws, finished))
        colours.append("#999999")
    if result.first_mover_games:
        labels.append("first\nmover")
        rates.append(result.first_mover_wins / result.first_mover_games)
        cis.append(result.first_mover_interval)
        colours.append("#56B4E9")
    bars = [error_bars(r, ci) for r, ci in zip(rates, cis, strict=True)]
    ax_w.bar(range(len(rates)), rates, yerr=[[b[0] for b in bars], [b[1] for b in bars]], capsize=4, color=colours)
    ax_w.set_xticks(range(len(rates)), labels)
    if n > 1 and not result.no_winner:
        ax_w.axhline(1 / n, linestyle="--", color="#444444", linewidth=1, label=f"1/{n}")
        ax_w.legend(loc="upper right")
    ax_w.set_ylim(0, 1)
    ax_w.set_ylabel("share of finished games (95% CI)")
    ax_w.set_title(f"{result.game}: wins ({result.finished} finished, {result.capped} capped)")
    if result.lengths:
        bins = min(40, max(5, len(set(result.lengths))))
        ax_l.hist(result.lengths, bins=bins, color="#0072B2", alpha=0.8)
        mean = result.mean_length or 0.0
        ax_l.axvline(mean, color="#D55E00", linewidth=2, label=f"mean {mean:.1f}")
        ax_l.legend(loc="upper right")
    ax_l.set_xlabel("game length (history entries)")
    ax_l.set_ylabel("games")
    ax_l.set_title("game length")
    options = ", ".join(f"{k}={v}" for k, v in result.options.items())
    fig.suptitle(f"{result.games} games, seed {result.seed}" + (f" — {options}" if options else ""), fontsize=9)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
