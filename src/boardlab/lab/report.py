"""The balance report's Markdown and self-contained HTML (plots as base64 PNG), from a :class:`BalanceReport`.

The HTML page needs nothing else: its plots are embedded, and each sample game
is a record embedded as a ``data:`` link (save it, then open it in the replay
viewer, ``/replay``, or with ``boardlab replay``).
"""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..core.scene import SEAT_COLOURS
from .stats import error_bars

if TYPE_CHECKING:
    from .balance import BalanceReport


def _f(x: Any, digits: int = 2) -> str:
    if x is None:
        return "—"
    if isinstance(x, float):
        return f"{x:.{digits}f}".rstrip("0").rstrip(".") if not x.is_integer() else f"{x:g}"
    return str(x)


def _rate(r: Mapping[str, Any] | None) -> str:
    if not r or r.get("rate") is None:
        return "—"
    lo, hi = r["ci95"]
    return f"{r['rate']:.3f} ({lo:.3f}-{hi:.3f}, n = {r['n']:,})"


def _players(report: BalanceReport) -> str:
    return f"{report.num_players} player{'s' if report.num_players != 1 else ''}"


def _options(report: BalanceReport) -> str:
    return ", ".join(f"{k}={v}" for k, v in report.options.items()) or "defaults"


def tables(report: BalanceReport) -> list[tuple[str, list[tuple[str, str]]]]:
    """The report's figures as titled rows of (metric, value): shared by Markdown and HTML."""
    oc, ln, t = report.outcomes, report.length, report.tension
    rows: list[tuple[str, list[tuple[str, str]]]] = []
    out = [("games (finished, capped)", f"{oc['games']:,} ({oc['finished']:,}, {oc['capped']:,})")]
    for p, (w, ci) in enumerate(zip(oc["wins"], oc["win_ci95"], strict=True)):
        rate = w / oc["finished"] if oc["finished"] else None
        out.append((f"wins, player {p + 1}", f"{w:,}: {_f(rate, 3)} ({ci[0]:.3f}-{ci[1]:.3f})"))
    if oc.get("first_mover") is not None:
        out.append(("wins, first mover", _rate(oc["first_mover"])))
        if oc["first_mover_decided"]["n"] != oc["first_mover"]["n"]:
            out.append(("wins, first mover, of the games with a winner", _rate(oc["first_mover_decided"])))
    if "team_wins" in oc:
        out.append(("team wins (co-operative)", _rate(oc["team_wins"])))
    if "team_wins" not in oc:
        out.append(("draws", _rate(oc["draws"])))
    if oc.get("no_winner") and "team_wins" not in oc:
        out.append(("no winner, no draw", f"{oc['no_winner']:,}"))
    for agent, r in (oc.get("by_agent") or {}).items():
        out.append((f"score of {agent} (win 1, draw ½)", _rate(r)))
    pie = oc.get("pie")
    if pie:
        out += [
            ("swap offered", f"{pie['offered']:,}"),
            ("chooser swaps", _rate(pie["swapped"])),
            ("chooser wins", _rate(pie["chooser_wins"])),
            ("first mover wins, swapped", _rate(pie["first_mover_wins_if_swapped"])),
            ("first mover wins, kept", _rate(pie["first_mover_wins_if_kept"])),
        ]
    rows.append(("Outcomes", out))
    rows.append(
        (
            "Length",
            [
                (
                    "actions per game: mean, median, p95, max",
                    f"{_f(ln['mean'], 1)}, {_f(ln['median'])}, {_f(ln['p95'])}, {_f(ln['max'])}",
                ),
                ("median length of a won game", _f(ln["median_win"])),
                ("decisions per game", _f(ln["decisions_per_game"], 1)),
                ("decision moves (share with more than one option)", _f(ln["decision_moves"], 3)),
                ("branching factor (mean legal moves per decision)", _f(ln["branching"], 1)),
                ("branching by tenth of the game", ", ".join(_f(b, 1) for b in ln["branching_by_phase"])),
            ],
        )
    )
    if t:
        rows.append(
            (
                f"Tension ({t['games']:,} decided games, {t['points']} positions each)",
                [
                    ("lead changes (share of probed steps)", _f(t["lead_changes"], 3)),
                    ("drama (mean gap of the winner behind the leader)", _f(t["drama"], 3)),
                    ("biggest comeback (largest gap)", _f(t["drama_max"], 3)),
                    ("decisiveness (share of the game before the winner is clear)", _f(t["decisiveness"], 3)),
                ],
            )
        )
    extra = []
    if report.luck is not None:
        ci = report.luck["ci95"]
        extra.append(
            (
                "luck: share of results explained by chance",
                f"{_f(report.luck['share'], 3)}"
                + (f" ({ci[0]:.3f}-{ci[1]:.3f})" if ci else "")
                + f", {report.luck['groups']:,} paired deals",
            )
        )
    if report.value_of_information is not None:
        v = report.value_of_information
        extra.append((f"value of information: {v['agent']} seeing everything vs not", _rate(v["score"])))
    if extra:
        rows.append(("Luck and information", extra))
    return rows


def ladder_rows(report: BalanceReport) -> list[list[str]]:
    out = []
    for row in report.ladder or ():
        oc, ln = row["outcomes"], row["length"]
        main = oc.get("team_wins") or oc.get("first_mover_decided") or {}
        out.append(
            [
                row["level"],
                _rate(main) if main else "—",
                _rate(oc["draws"]),
                _f(ln["median"]),
                _f(ln["median_win"]),
                "; ".join(f["kind"] for f in row["flags"]) or "—",
            ]
        )
    return out


def to_markdown(report: BalanceReport, *, sample_links: Sequence[str] | None = None) -> str:
    """The report as Markdown: verdict first, then sentences, tables, ladder, samples and the command.

    ``sample_links[k]`` is where the record of ``report.samples[k]`` is written (two samples can share a label).
    """
    lines = [f"# Balance: {report.title}", "", f"**Verdict.** {report.verdict}", ""]
    return "\n".join(lines) + body_markdown(report, sample_links=sample_links)


def body_markdown(report: BalanceReport, *, sample_links: Sequence[str] | None = None, level: int = 2) -> str:
    """Everything but the title and verdict, with headings at ``level`` (``docs/balance`` puts two runs in a file)."""
    h = "#" * level
    lines = [
        f"Options: {_options(report)} · {_players(report)} · agents: {', '.join(report.agents)} · "
        f"{report.games:,} games · seed {report.seed} · rules version {report.rules_version}.",
        "",
    ]
    if report.command:
        lines += [f"Made by `{report.command}` (metrics defined in docs/LAB.md).", ""]
    lines += [f"- {s}" for s in report.sentences] + [""]
    for title, rows in tables(report):
        lines += [f"{h} {title}", "", "| metric | value |", "|---|---|"]
        lines += [f"| {k} | {v} |" for k, v in rows]
        lines.append("")
    if report.ladder:
        lines += [
            f"{h} Skill ladder (self-play at each level)",
            "",
            "| level | first mover of games with a winner / team wins (95% CI) | draws | median length | median won length | flags |",
            "|---|---|---|---|---|---|",
        ]
        lines += ["| " + " | ".join(r) + " |" for r in ladder_rows(report)]
        lines += [""] + [f"- {row['level']}: {row['verdict']}" for row in report.ladder] + [""]
    if report.samples:
        lines += [
            f"{h} Sample games",
            "",
            "Game records: open them in the replay viewer (`/replay`) or with `boardlab replay`.",
            "",
        ]
        links = list(sample_links or ())
        if links and len(links) != len(report.samples):
            raise ValueError(f"{len(links)} sample links for {len(report.samples)} samples")
        for k, s in enumerate(report.samples):
            link = links[k] if links else None
            name = f"[{s['label']}]({link})" if link else s["label"]
            lines.append(f"- {name}: game {s['index']}, {s['length']} actions")
        lines.append("")
    return "\n".join(lines)


def _png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def plots(report: BalanceReport) -> list[tuple[str, str]]:
    """``(caption, base64 PNG)`` for wins, length, branching and (with a ladder) skill drift."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out: list[tuple[str, str]] = []
    oc, ln = report.outcomes, report.length
    fig, (ax_w, ax_l, ax_b) = plt.subplots(1, 3, figsize=(13, 3.6), constrained_layout=True)
    labels, rates, los, his, colours = [], [], [], [], []

    def bar(label: str, r: Mapping[str, Any] | None, colour: str) -> None:
        if r and r.get("rate") is not None:
            labels.append(label)
            below, above = error_bars(r["rate"], r["ci95"])
            rates.append(r["rate"])
            los.append(below)
            his.append(above)
            colours.append(colour)

    n = oc["finished"]
    for p, (w, ci) in enumerate(zip(oc["wins"], oc["win_ci95"], strict=True)):
        bar(f"player {p + 1}", {"rate": w / n if n else None, "ci95": ci}, SEAT_COLOURS[p % len(SEAT_COLOURS)])
    bar("first", oc.get("first_mover"), "#56B4E9")
    bar("team", oc.get("team_wins"), "#009E73")
    if "team_wins" not in oc:
        bar("draws", oc["draws"], "#999999")
    ax_w.bar(range(len(rates)), rates, yerr=[los, his], capsize=4, color=colours)
    ax_w.set_xticks(range(len(rates)), labels)
    ax_w.set_ylim(0, 1)
    ax_w.set_title(f"wins (95% CI, n = {n})")
    hist = ln["histogram"]
    if hist["counts"]:
        ax_l.bar(
            hist["edges"][:-1], hist["counts"], width=hist["edges"][1] - hist["edges"][0], align="edge", color="#0072B2"
        )
    ax_l.set_title("length (actions)")
    ax_b.plot(
        [10 * d + 5 for d in range(len(ln["branching_by_phase"]))],
        [float("nan") if b is None else b for b in ln["branching_by_phase"]],
        marker="o",
        color="#D55E00",
    )
    ax_b.set_xlabel("% of the game")
    ax_b.set_title("branching factor")
    out.append(("Outcomes, length and branching", _png(fig)))
    plt.close(fig)
    if report.ladder:
        levels = [r["level"] for r in report.ladder]
        fig, axes = plt.subplots(1, 3, figsize=(13, 3.6), constrained_layout=True)
        key = "team_wins" if report.cooperative else "first_mover_decided"
        for ax, title, get in (
            (
                axes[0],
                "team wins" if report.cooperative else "first-mover wins (games with a winner)",
                lambda r: r["outcomes"].get(key),
            ),
            (axes[1], "draws", lambda r: r["outcomes"]["draws"]),
        ):
            rs = [get(r) or {"rate": None, "ci95": [0, 0]} for r in report.ladder]
            ys = [x["rate"] if x["rate"] is not None else float("nan") for x in rs]
            bars = [error_bars(x["rate"], x["ci95"]) if x["rate"] is not None else (0.0, 0.0) for x in rs]
            err = [[b[0] for b in bars], [b[1] for b in bars]]
            ax.errorbar(range(len(levels)), ys, yerr=err, marker="o", capsize=4)
            ax.set_xticks(range(len(levels)), levels)
            ax.set_ylim(0, 1)
            ax.set_title(title)
        axes[2].plot(range(len(levels)), [r["length"]["median"] or 0 for r in report.ladder], marker="o")
        axes[2].set_xticks(range(len(levels)), levels)
        axes[2].set_title("median length (actions)")
        out.append(("Skill drift: the same metrics in self-play at each level", _png(fig)))
        plt.close(fig)
    return out


def to_html(report: BalanceReport) -> str:
    """A self-contained page: no external file, script or style."""
    e = html.escape
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>Balance: {e(report.title)}</title>",
        "<style>body{font:15px/1.45 system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}"
        "table{border-collapse:collapse;margin:.5em 0 1.2em}td,th{border:1px solid #ccc;padding:.25em .6em;"
        "text-align:left}.verdict{font-size:1.15em;background:#eef6fb;padding:.6em 1em;border-left:4px solid #0072B2}"
        "img{max-width:100%}</style></head><body>",
        f"<h1>Balance: {e(report.title)}</h1>",
        f"<p class='verdict'>{e(report.verdict)}</p>",
        f"<p>Options: {e(_options(report))} · {_players(report)} · agents: {e(', '.join(report.agents))} · "
        f"{report.games:,} games · seed {report.seed} · rules version {e(report.rules_version)}</p>",
    ]
    if report.command:
        parts.append(f"<p>Made by <code>{e(report.command)}</code>.</p>")
    parts.append("<ul>" + "".join(f"<li>{e(s)}</li>" for s in report.sentences) + "</ul>")
    for caption, png in plots(report):
        parts.append(
            f"<figure><img alt='{e(caption)}' src='data:image/png;base64,{png}'><figcaption>{e(caption)}"
            "</figcaption></figure>"
        )
    for title, rows in tables(report):
        parts.append(
            f"<h2>{e(title)}</h2><table>"
            + "".join(f"<tr><th>{e(k)}</th><td>{e(v)}</td></tr>" for k, v in rows)
            + "</table>"
        )
    if report.ladder:
        head = ["level", "first mover / team wins", "draws", "median length", "median won length", "flags"]
        parts.append(
            "<h2>Skill ladder</h2><table><tr>"
            + "".join(f"<th>{h}</th>" for h in head)
            + "</tr>"
            + "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>" for r in ladder_rows(report))
            + "</table>"
        )
    if report.samples:
        parts.append(
            "<h2>Sample games</h2><p>Each link is a game record: save it and open it in the replay viewer "
            "(<code>/replay</code>) or with <code>boardlab replay</code>.</p><ul>"
        )
        for s in report.samples:
            data = base64.b64encode(json.dumps(s["record"]).encode()).decode("ascii")
            name = f"{report.game}-{s['index']}.json"
            parts.append(
                f"<li><a download='{e(name)}' href='data:application/json;base64,{data}'>{e(s['label'])}"
                f"</a>: game {s['index']}, {s['length']} actions</li>"
            )
        parts.append("</ul>")
    parts.append("</body></html>")
    return "\n".join(parts)
