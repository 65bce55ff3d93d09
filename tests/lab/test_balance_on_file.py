"""docs/balance: every registered game's balance on file, written by the lab, and its verdict in the lobby."""

from __future__ import annotations

import pathlib
import re

import boardlab
from boardlab.docs import balance_verdict
from boardlab.server.app import game_listing

ROOT = pathlib.Path(__file__).resolve().parents[2]
BALANCE = ROOT / "docs" / "balance"


def test_every_registered_game_has_its_balance_on_file() -> None:
    for g in boardlab.games():
        text = (BALANCE / f"{g}.md").read_text(encoding="utf-8")
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
        text = (BALANCE / f"{g}.md").read_text(encoding="utf-8")
        links = re.findall(r"^- \[[^\]]+\]\((samples/[^)]+)\): game \d+", text, re.M)
        assert len(set(links)) == len(links), (g, links)
        on_disk = sorted(f"samples/{p.name}" for p in (BALANCE / "samples").glob(f"{g}.*.json"))
        assert sorted(links) == on_disk, g
