"""docs/balance: every registered game's balance on file, written by the lab, and its verdict in the lobby."""

from __future__ import annotations

import importlib.util
import json
import pathlib
import re
import shutil
from types import ModuleType

import boardlab
from boardlab.docs import balance_verdict
from boardlab.lab.balance import BalanceReport
from boardlab.server.app import game_listing
from generated_docs import need

ROOT = pathlib.Path(__file__).resolve().parents[2]
BALANCE = ROOT / "docs" / "balance"


def test_every_registered_game_has_its_balance_on_file() -> None:
    for g in boardlab.games():
        text = need("balance", g).read_text(encoding="utf-8")
        assert text.startswith(f"# Balance: {boardlab.make(g).title}\n"), g
        verdict = balance_verdict(g)
        assert verdict and re.search(r"\(n = [\d,]+, [^)]+\)\.$", verdict), (g, verdict)
        assert "Made by `python scripts/balance_all.py --kind random" in text, g  # the command that made it
        assert (BALANCE / "runs" / f"{g}.random.json").is_file(), g


def test_the_lobby_lists_each_games_verdict() -> None:
    for g in ("blast-radius", "new-rule", "hamlet"):
        assert game_listing(g)["balance_verdict"] == balance_verdict(g)
    assert balance_verdict("blast-radius") is not None


def test_every_sample_game_on_file_is_linked_once_to_its_own_record() -> None:
    for g in boardlab.games():
        text = need("balance", g).read_text(encoding="utf-8")
        links = re.findall(r"^- \[[^\]]+\]\((samples/[^)]+)\): game \d+", text, re.M)
        assert len(set(links)) == len(links), (g, links)
        on_disk = sorted(f"samples/{p.name}" for p in (BALANCE / "samples").glob(f"{g}.*.json"))
        assert sorted(links) == on_disk, g


def _balance_all() -> ModuleType:
    spec = importlib.util.spec_from_file_location("balance_all", ROOT / "scripts" / "balance_all.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_stored_runs_prose_is_worded_from_its_numbers() -> None:
    for path in sorted((BALANCE / "runs").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        fresh = BalanceReport.from_dict(data).refreshed()
        assert data["verdict"] == fresh.verdict, path.name
        assert data["sentences"] == fresh.sentences, path.name


def test_the_verdicts_on_file_are_those_of_the_stored_numbers(tmp_path: pathlib.Path) -> None:
    # The Markdown, recomposed from copies of the stored runs (nothing replayed), is the Markdown on file; so is
    # each section's verdict, worded again from its run's figures.
    shutil.copytree(BALANCE / "runs", tmp_path / "runs")
    shutil.copytree(BALANCE / "notes", tmp_path / "notes")
    compose = _balance_all().compose
    headings = {"Random self-play": "random", "Hard self-play": "hard"}
    for g in boardlab.games():
        text = need("balance", g).read_text(encoding="utf-8")
        for heading, verdict in re.findall(r"^## (.+)\n\n\*\*(.+)\*\*$", text, re.M):
            kind = headings.get(heading) or heading.removeprefix("Self-play by `").removesuffix("`")
            data = json.loads((BALANCE / "runs" / f"{g}.{kind}.json").read_text(encoding="utf-8"))
            assert verdict == BalanceReport.from_dict(data).refreshed().verdict, (g, heading)
        path = compose(g, tmp_path)
        assert path is not None and path.read_text(encoding="utf-8") == text, g
        assert balance_verdict(g) is not None and f"**Verdict.** {balance_verdict(g)}\n" in text, g
