"""``boardlab replay RECORD.json``: stepping through a record, and bad records (issue 2 §5)."""

from __future__ import annotations

import json
import pathlib
import random

import pytest
from typer.testing import CliRunner

import boardlab
from boardlab.cli.main import load_commands
from boardlab.core.play import random_playout
from boardlab.core.record import GameRecord

app = load_commands()
runner = CliRunner()


@pytest.fixture
def record_file(tmp_path: pathlib.Path) -> pathlib.Path:
    game = boardlab.make("blast-radius", board_side=5)
    state, _ = random_playout(game.new_initial_state(), random.Random(3))
    path = tmp_path / "game.json"
    path.write_text(GameRecord.from_state(state, seats=["alice", "random"]).to_json())
    return path


def labels(path: pathlib.Path) -> list[str]:
    rec = GameRecord.from_json(path.read_text())
    states = rec.states()
    return [states[i].action_to_string(states[i].current_player(), a) for i, a in enumerate(rec.history)]


def test_stepping_forward_back_and_jumping(record_file: pathlib.Path) -> None:
    moves = labels(record_file)
    n = len(moves)
    result = runner.invoke(app, ["replay", str(record_file)], input=f"\nn\np\np\np\n{n}\nn\nxyz\n{n + 5}\n5\nq\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert f"position 0 of {n}" in out
    assert f"position 1 of {n}" in out and f"position 2 of {n}" in out
    assert "Already at the start." in out
    assert f"position {n} of {n}" in out
    assert "Already at the end" in out
    assert "Unknown command 'xyz'" in out
    assert f"The record has {n} moves" in out
    assert f"position 5 of {n}" in out
    assert f"   1. seat 0: builds a tower on {moves[0]}" in out  # the move log in words, the notation in the record
    assert "Game over. seat" in out and "wins" in out
    assert "seat 0 (alice)" in out


def test_log_mode_prints_every_move(record_file: pathlib.Path) -> None:
    moves = labels(record_file)
    result = runner.invoke(app, ["replay", str(record_file), "--log"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    for i, m in enumerate(moves):  # each move in words, naming its square: "builds a tower on c5"
        assert any(line.startswith(f"{i + 1:>4}. seat {i % 2}: ") and f" on {m}" in line for line in lines)
    assert "Game over." in result.output


def test_end_of_input_just_stops(record_file: pathlib.Path) -> None:
    result = runner.invoke(app, ["replay", str(record_file), "--start", "3"], input="")
    assert result.exit_code == 0
    assert "position 3 of" in result.output


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such record file"),
        ("{not json", "is not a usable game record: not valid JSON"),
        ('{"history": []}', "game record lacks game"),
        ('{"game": "chess", "history": []}', "unknown game 'chess'"),
        ('{"game": "blast-radius", "history": [0, 0]}', "the record cannot be replayed: move 2 (0): a1 is not legal"),
        ('{"game": "blast-radius", "options": {"board_side": 4}, "history": []}', "does not allow 4"),
        ('{"game": "blast-radius", "history": ["a1"]}', "list of action numbers"),
    ],
)
def test_bad_records(tmp_path: pathlib.Path, content: str | None, message: str) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_unfinished_record(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "part.json"
    path.write_text(json.dumps({"game": "blast-radius", "options": {"board_side": 5}, "history": [30, 0]}))
    result = runner.invoke(app, ["replay", str(path), "--log"])
    assert result.exit_code == 0
    assert "the game was not finished" in result.output


def test_a_record_ended_by_the_table_says_how(tmp_path: pathlib.Path) -> None:
    """A resignation at the server is the record's ``meta.ended``, after the last move: the replay ends with it."""
    ended = {"how": "resign", "seat": 1, "step": 2, "returns": [1.0, -1.0]}
    path = tmp_path / "resigned.json"
    record = {"game": "blast-radius", "options": {"board_side": 5}, "history": [30, 0], "seats": ["Ann", "Bo"]}
    path.write_text(json.dumps({**record, "meta": {"ended": ended}}))
    result = runner.invoke(app, ["replay", str(path), "--log"])
    assert result.exit_code == 0, result.output
    assert "Game over. seat 1 (Bo) resigned. seat 0 (Ann) wins." in result.output
    # an entry that does not fit the record (another step) is no ending: the record is just unfinished
    path.write_text(json.dumps({**record, "meta": {"ended": {**ended, "step": 1}}}))
    result = runner.invoke(app, ["replay", str(path), "--log"])
    assert "resigned" not in result.output and "the game was not finished" in result.output
