"""``boardlab list`` and ``boardlab rules`` (issue 2 §5), and the rules-document lookup."""

from __future__ import annotations

import json
import pathlib

import pytest
from typer.testing import CliRunner

import boardlab
from boardlab.cli.main import load_commands
from boardlab.docs import rules_path, rules_text

app = load_commands()
runner = CliRunner()


def test_list_shows_every_game() -> None:
    result = runner.invoke(app, ["list"], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    for gid in boardlab.games():
        assert gid in result.output
    assert "Blast Radius" in result.output
    assert "hex board" in result.output  # mechanics column
    for header in ("id", "title", "players", "type", "mechanics"):
        assert header in result.output
    wide = runner.invoke(app, ["list"], env={"COLUMNS": "400"}).output
    posies = next(line for line in wide.splitlines() if "Posies" in line)
    assert "perfect information" in posies and "hidden information with variant: A secret colour worth triple" in posies


def test_list_json() -> None:
    result = runner.invoke(app, ["list", "--json"])
    assert result.exit_code == 0
    listing = json.loads(result.stdout)
    assert [g["id"] for g in listing] == boardlab.games()
    br = next(g for g in listing if g["id"] == "blast-radius")
    assert br["title"] == "Blast Radius"
    assert (br["min_players"], br["max_players"]) == (2, 2)
    assert "hex board" in br["mechanics"]
    assert br["game_type"]["information"] == "perfect" and br["perfect_information"] is True


def test_rules_prints_the_document_and_options() -> None:
    result = runner.invoke(app, ["rules", "blast-radius"])
    assert result.exit_code == 0
    assert result.stdout.startswith("# Blast Radius")
    assert "## Our inventions" in result.stdout
    assert "board_side = 6  (5, 6, 7)" in result.stdout


def test_rules_of_unknown_game_is_one_clear_line() -> None:
    result = runner.invoke(app, ["rules", "chess"])
    assert result.exit_code == 2
    assert "unknown game 'chess'; known games: " in result.output and "blast-radius" in result.output
    assert "Traceback" not in result.output


def test_rules_text_finds_the_source_tree_and_honours_the_override(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = rules_path("blast-radius")
    assert path is not None and path.parts[-3:] == ("docs", "rules", "blast-radius.md")
    assert rules_text("blast-radius") == path.read_text(encoding="utf-8")
    (tmp_path / "blast-radius.md").write_text("# Local copy\n", encoding="utf-8")
    monkeypatch.setenv("BOARDLAB_RULES_DIR", str(tmp_path))
    assert rules_text("blast-radius") == "# Local copy\n"
    with pytest.raises(ValueError, match="unknown game 'nope'"):
        rules_text("nope")


def test_a_broken_command_module_leaves_the_others(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib

    import boardlab.cli.main as cli_main

    real = importlib.import_module

    def fake(name: str, package: str | None = None) -> object:
        if name.endswith(".broken"):
            raise RuntimeError("boom")
        return real(name, package)

    monkeypatch.setattr(cli_main, "COMMAND_MODULES", (*cli_main.COMMAND_MODULES, "broken", "absent"))
    monkeypatch.setattr(cli_main.importlib, "import_module", fake)
    monkeypatch.delenv("BOARDLAB_DEBUG", raising=False)
    assert cli_main.load_commands() is app
    err = capsys.readouterr().err
    assert "the 'broken' command is unavailable: RuntimeError: boom" in err
    assert "absent" not in err
