import pytest

import boardlab
from boardlab.core.options import Option, parse_option_pairs, validate_options


def test_unknown_game_lists_known_games() -> None:
    with pytest.raises(ValueError, match=r"known games: .*blast-radius"):
        boardlab.make("no-such-game")


def test_option_values_are_coerced_and_checked() -> None:
    spec = (
        Option("side", int, 6, (5, 6, 7), "board side"),
        Option("pie", bool, False, (False, True), "pie rule"),
        Option("rate", float, 0.5, None, "a rate", minimum=0.0, maximum=1.0),
    )
    assert validate_options("g", spec, {"side": "5", "pie": "yes"}) == {"side": 5, "pie": True, "rate": 0.5}
    with pytest.raises(ValueError, match=r"'side'.*allowed: 5, 6, 7"):
        validate_options("g", spec, {"side": 9})
    with pytest.raises(ValueError, match="must be int"):
        validate_options("g", spec, {"side": "six"})
    with pytest.raises(ValueError, match="must be bool"):
        validate_options("g", spec, {"pie": "maybe"})
    with pytest.raises(ValueError, match="between"):
        validate_options("g", spec, {"rate": 2})
    with pytest.raises(ValueError, match=r"unknown option 'colour'.*known options: side, pie, rate"):
        validate_options("g", spec, {"colour": "red"})


def test_option_pairs() -> None:
    assert parse_option_pairs(["a=1", "b = x=y"]) == {"a": "1", "b": "x=y"}
    with pytest.raises(ValueError):
        parse_option_pairs(["novalue"])


def test_make_describes_options() -> None:
    game = boardlab.make("blast-radius")
    described = {o["name"]: o for o in game.metadata()["options"]}
    assert described["board_side"] == {
        "name": "board_side",
        "type": "int",
        "default": 6,
        "allowed": [5, 6, 7],
        "labels": ["5", "6", "7"],
        "minimum": None,
        "maximum": None,
        "description": described["board_side"]["description"],
    }


def test_a_code_word_value_is_shown_by_its_label() -> None:
    described = {o["name"]: o for o in boardlab.make("flock-of-sheep").metadata()["options"]}
    d = described["dispersing"]
    assert d["allowed"] == ["pareto", "strict_both", "edges_first"]  # the API's values are unchanged
    assert d["labels"][d["allowed"].index("strict_both")] == "Both must fall"


def test_a_label_for_a_value_the_option_does_not_allow_is_refused() -> None:
    with pytest.raises(ValueError, match="labels 'max', which is not one of its allowed values"):
        Option("side", int, 6, (5, 6, 7), "", labels={"max": "The largest"})
