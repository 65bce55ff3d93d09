"""``boardlab play``: a scripted game through stdin, the commands, hot-seat secrecy and bad input (issue 2 §5)."""

from __future__ import annotations

import dataclasses
import io
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest
from cli_minigame import SecretGame
from rich.console import Console
from typer.testing import CliRunner

import boardlab
from boardlab.cli.main import load_commands
from boardlab.cli.play import PlaySession, find_action, parse_seats
from boardlab.core.gametype import Information
from boardlab.core.record import GameRecord

app = load_commands()
runner = CliRunner()
BR5 = ["--option", "board_side=5"]


class ScriptedSession(PlaySession):
    """Answers every prompt itself (first legal move, Enter on pass screens) and records the answers."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        self.answers: list[str] = []
        super().__init__(*args, read=lambda: None, **kwargs)  # type: ignore[arg-type]

    def ask(self, prompt: str) -> str:
        self.console.print(prompt, end="")
        m = re.match(r"seat (\d+) \(human\) > $", prompt)
        answer = self.state.legal_moves(int(m.group(1)))[0][1] if m else ""
        self.answers.append(answer)
        return answer


def quiet_console() -> Console:
    return Console(file=io.StringIO(), width=120, color_system=None)


def scripted_input(game: boardlab.Game, seats: list[str], seed: int) -> tuple[str, list]:
    """stdin text that plays a whole game (first legal move each turn), and the history it produces."""
    session = ScriptedSession(game, seats, seed=seed, console=quiet_console())
    assert session.run() == "over"
    return "\n".join(session.answers) + "\n\n", session.state.history()


def boardlab_command() -> list[str]:
    exe = pathlib.Path(sys.executable).parent / "boardlab"
    if exe.exists():
        return [str(exe)]
    found = shutil.which("boardlab")
    assert found, "the boardlab console script is not installed"
    return [found]


def test_full_scripted_game_human_vs_random(tmp_path: pathlib.Path) -> None:
    game = boardlab.make("blast-radius", board_side=5)
    text, history = scripted_input(game, ["human", "random"], seed=11)
    out = tmp_path / "game.json"
    result = runner.invoke(
        app, ["play", "blast-radius", *BR5, "--seat", "0=human", "--seat", "1=random", "--seed", "11",
              "--record", str(out)], input=text,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Game over." in result.output
    assert re.search(r"seat [01] \((human|random)\) wins\.", result.output)
    assert "seat 1 (random): " in result.output  # the agent's moves are announced
    rec = GameRecord.from_json(out.read_text())
    assert rec.history == history
    assert rec.seats == ["human", "random"]
    assert rec.result is not None and rec.replay().is_terminal()


def test_installed_command_plays_a_game_through_stdin(tmp_path: pathlib.Path) -> None:
    game = boardlab.make("blast-radius", board_side=5)
    text, history = scripted_input(game, ["random", "human"], seed=5)
    out = tmp_path / "rec.json"
    env = dict(os.environ, NO_COLOR="1", COLUMNS="100")
    proc = subprocess.run(
        [*boardlab_command(), "play", "blast-radius", *BR5, "--seat", "1=human", "--seat", "0=random",
         "--seed", "5", "--record", str(out)],
        input=text, capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "Game over." in proc.stdout
    assert json.loads(out.read_text())["history"] == history


def test_quit_through_stdin_abandons_without_asking_for_a_record(tmp_path: pathlib.Path) -> None:
    env = dict(os.environ, NO_COLOR="1", COLUMNS="100")
    proc = subprocess.run(
        [*boardlab_command(), "play", "blast-radius"],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Game abandoned." in proc.stdout
    assert "Save the game record?" not in proc.stdout
    assert "Record written" not in proc.stdout


def test_quit_with_record_still_writes_the_abandoned_game(tmp_path: pathlib.Path) -> None:
    out = tmp_path / "abandoned.json"
    result = runner.invoke(app, ["play", "blast-radius", *BR5, "--seed", "3", "--record", str(out)], input="a1\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Save the game record?" not in result.output
    rec = GameRecord.from_json(out.read_text())
    assert rec.history[:1] == [
        boardlab.make("blast-radius", board_side=5).new_initial_state().string_to_action(0, "a1")
    ]
    assert rec.result is None


def test_board_is_drawn_with_coordinates_and_moves_listed() -> None:
    result = runner.invoke(app, ["play", "blast-radius", *BR5, "--seed", "1"], input="quit\n")
    assert result.exit_code == 0
    out = result.output
    for row in "abcdefghi":  # every row letter along the edge
        assert re.search(rf"^{row} .* {row}$", out, re.M), row
    assert "Moves (61): a1, a2, a3" in out
    assert "Game abandoned." in out


def test_help_why_and_undo() -> None:
    script = "help\nwhy zz\nwhy a1\nwhy\nzz\nc3\nwhy c3\nc3\nundo\nundo\nquit\n"
    result = runner.invoke(app, ["play", "blast-radius", *BR5, "--seed", "2"], input=script)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Legal moves (61):" in out
    assert "'zz' is not a move of this game." in out
    assert "a1 is legal now." in out
    assert "Usage: why MOVE" in out
    assert "'zz' is neither a legal move nor a command" in out
    # c3 is taken after the first c3: typing it again, or asking why, explains the rule.
    assert out.count("c3 is not legal:") == 2
    assert "Took back 2 moves." in out  # our move and the random reply
    assert "Nothing to undo" in out
    assert "Game abandoned." in out


def test_undo_never_crosses_a_chance_event_and_undoes_a_decision() -> None:
    lines = iter(["undo", "peek", "undo", "keep", "odd"])
    console = quiet_console()
    session = PlaySession(SecretGame(), ["human", "random"], seed=3, console=console, read=lambda: next(lines, None))
    assert session.run() == "over"
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Nothing to undo" in out  # only the chance deal lies behind
    assert "Took back 1 move." in out
    assert session.state.history()[1] == 0  # "keep" replaced "peek"; the dealt card stayed


def test_hot_seat_with_hidden_information_passes_the_device() -> None:
    lines = iter(["", "keep", "odd", "", "even", ""])
    console = quiet_console()
    session = PlaySession(SecretGame(), ["human", "human"], seed=4, console=console, read=lambda: next(lines, None))
    assert session.run() == "over"
    out = console.file.getvalue()  # type: ignore[attr-defined]
    card = f"card {session.state.card}"
    first_pass = out.index("Pass the device to seat 0 (human)")
    second_pass = out.index("Pass the device to seat 1 (human)")
    assert first_pass < out.index(card) < second_pass  # seat 0 sees the card only after the pass screen
    end = out.index("game over")
    assert card not in out[second_pass:end]  # seat 1's view hides it
    assert "▒▒" in out[second_pass:end]
    assert "chance: dealt a card to seat 0" in out  # the deal is announced without its card
    assert "wins" in out[end:]


def test_simultaneous_choices_stay_secret_in_perfect_information_games() -> None:
    class OpenGame(SecretGame):
        game_type = dataclasses.replace(SecretGame.game_type, information=Information.PERFECT)

    lines = iter(["keep", "odd", "", "even", ""])
    console = quiet_console()
    session = PlaySession(OpenGame(), ["human", "human"], seed=4, console=console, read=lambda: next(lines, None))
    assert session.run() == "over"
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Pass the device to seat 0" not in out  # seat 0 already has the device
    assert out.index("seat 0 (human) > ") < out.index("Pass the device to seat 1") < out.index("seat 1 (human) > ")
    assert "Revealed: seat 0 (human): odd; seat 1 (human): even" in out


def test_single_human_sees_no_pass_screen_and_agents_moves_stay_secret() -> None:
    lines = iter(["keep", "odd"])
    console = quiet_console()
    session = PlaySession(SecretGame(), ["human", "random"], seed=4, console=console, read=lambda: next(lines, None))
    assert session.run() == "over"
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Pass the device" not in out
    card = session.state.card
    assert f"chance: card {card} to seat 0" in out  # the one human, seat 0, is told its own card
    assert "seat 1 (random): " in out and "Revealed: " in out  # the simultaneous choices are public once made


def test_end_of_input_abandons_with_status_1() -> None:
    result = runner.invoke(app, ["play", "blast-radius", *BR5, "--seed", "1"], input="a1\n")
    assert result.exit_code == 1
    assert "Input ended before the game did" in result.output


def test_agents_only_game_runs_without_input(tmp_path: pathlib.Path) -> None:
    out = tmp_path / "r.json"
    result = runner.invoke(
        app, ["play", "blast-radius", *BR5, "--seat", "0=random", "--seat", "1=random", "--seed", "9",
              "--record", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Game over." in result.output
    assert GameRecord.from_json(out.read_text()).replay().is_terminal()


def test_save_prompt_writes_the_record(tmp_path: pathlib.Path) -> None:
    game = boardlab.make("blast-radius", board_side=5)
    text, history = scripted_input(game, ["human", "random"], seed=8)
    target = tmp_path / "saved.json"
    text = text.rstrip("\n") + "\n" + str(target) + "\n"
    result = runner.invoke(app, ["play", "blast-radius", *BR5, "--seed", "8"], input=text)
    assert result.exit_code == 0, result.output
    assert "Save the game record?" in result.output
    assert json.loads(target.read_text())["history"] == history


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "no-such-game"], "unknown game 'no-such-game'"),
        (["play", "blast-radius", "--option", "board_side=9"], "does not allow"),
        (["play", "blast-radius", "--option", "colour=red"], "unknown option 'colour'"),
        (["play", "blast-radius", "--option", "board_side"], "must look like name=value"),
        (["play", "blast-radius", "--seat", "1=wizard"], "unknown agent 'wizard'"),
        (["play", "blast-radius", "--seat", "human"], "must look like SEAT=AGENT"),
        (["play", "blast-radius", "--seat", "0=human", "--seat", "0=random"], "seat 0 is given twice"),
        (["play", "blast-radius", "--players", "3"], "played by 2 players"),
        (["play", "blast-radius", "--seat", "5=human"], "played by 2 players"),
    ],
)
def test_bad_input_gives_one_line_and_no_traceback(args: list[str], message: str) -> None:
    result = runner.invoke(app, args, input="quit\n")
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_parse_seats_and_find_action() -> None:
    assert parse_seats([], 3) == ["human", "random", "random"]
    assert parse_seats(["1=HUMAN", "0=mcts:iterations=5"], 2) == ["mcts:iterations=5", "human"]
    state = boardlab.make("blast-radius", board_side=5).new_initial_state()
    state.apply_action(state.string_to_action(0, "e5"))
    assert find_action(state, 1, "E5") == state.game.board.labels.index("e5")  # illegal, still found
    assert find_action(state, 1, "zz9") is None


def test_hamlet_moves_are_announced_as_the_human_seat_saw_them() -> None:
    """Public moves read as themselves ("locked", "chose to draw"); a card drawn by the other seat stays face down."""
    game = boardlab.make("hamlet", first="seat0")
    for seed in range(8):
        lines = iter(["lock"] * 10)
        console = quiet_console()
        read = lines.__next__
        session = PlaySession(game, ["human", "random"], seed=seed, console=console, read=read)
        assert session.run() == "over"
        out = console.file.getvalue()  # type: ignore[attr-defined]
        assert "has moved" not in out and "cannot see" not in out
        assert any(f"seat 1 (random): {w}" in out for w in ("locked", "chose to draw"))
        if "seat 1 (random): chose to draw" in out:
            assert "chance: seat 1 drew a card" in out
            break
    else:
        raise AssertionError("the random seat never drew in 8 games")
