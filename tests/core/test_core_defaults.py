"""What the core declares for every game (issue 25, item 4): the scene function, sizes as data, the phase
tensor, bits, segment offsets, option shorthands and data-file options."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import boardlab
from boardlab.core.actions import ActionSpace, Segment
from boardlab.core.bitmask import bits
from boardlab.core.chance import by_counts, equally_likely
from boardlab.core.constants import TERMINAL
from boardlab.core.game import Game, State
from boardlab.core.options import DataFiles, Option, validate_options
from boardlab.core.phases import Phase, phase_table
from boardlab.core.tensor import Tensor
from boardlab.games import _tensors as tz
from boardlab.games import game_class
from boardlab.geometry.board import NamedBoard


class Bare(Game):
    id = "bare"


class Drawn(Game):
    id = "drawn"
    max_length = 12
    num_chance_outcomes = 3
    options = (Option.flag("long", False, "Twice as long."),)

    def _setup(self) -> None:
        if self.params["long"]:
            self.max_length = 24


@Drawn.draws_scene
def _drawn_scene(game: Drawn, obs: dict[str, Any], legal: list[tuple[int, str]]) -> dict[str, Any]:
    return {"game": game.id, "obs": obs, "legal": legal}


class DrawnLater(Drawn):
    id = "drawn-later"


class DrawnState(State):
    def current_player(self) -> int:
        return TERMINAL

    def observation(self, player: int | None = None) -> dict[str, Any]:
        return {"viewer": player}


Drawn.state_class = DrawnState


# -- the scene -------------------------------------------------------------------------------------------------


def test_a_declared_scene_function_is_the_games_scene() -> None:
    assert Drawn().scene({"a": 1}, [(0, "x")]) == {"game": "drawn", "obs": {"a": 1}, "legal": [(0, "x")]}
    assert Drawn().new_initial_state().scene(None) == {"game": "drawn", "obs": {"viewer": None}, "legal": []}
    assert DrawnLater().scene({}, [])["game"] == "drawn-later"  # a subclass draws with its parent's function


def test_a_game_without_a_scene_function_says_so() -> None:
    with pytest.raises(NotImplementedError, match="Bare declares no scene function"):
        Bare().scene({}, [])


def test_every_game_draws_through_its_declared_function() -> None:
    for gid in boardlab.games():
        cls = game_class(gid)
        assert "scene" not in vars(cls), f"{gid} still writes a scene method"
        s = boardlab.make(gid).new_initial_state()
        assert s.scene(None) == cls._scene_function(s.game, s.observation(None), [])


# -- sizes -----------------------------------------------------------------------------------------------------


def test_sizes_are_read_from_data() -> None:
    assert (Drawn().max_game_length(), Drawn(long=True).max_game_length()) == (12, 24)
    assert Drawn().max_chance_outcomes() == 3 and Bare().max_chance_outcomes() == 0
    with pytest.raises(NotImplementedError, match="Bare declares no max_length"):
        Bare().max_game_length()


def test_a_chance_space_gives_the_chance_size() -> None:
    class Spaced(Bare):
        def _setup(self) -> None:
            self.chance_space = ActionSpace(Segment("roll", (("face", 6),), "rolled {face}"))

    assert Spaced().max_chance_outcomes() == 6
    ants = boardlab.make("ant-trails")
    s = ants.new_initial_state()
    assert ants.max_chance_outcomes() == ants.chance_space.size
    assert all(0 <= a < ants.max_chance_outcomes() for a, _ in s.chance_outcomes())


@pytest.mark.parametrize("gid", ["fences", "triad", "elephant-monkey-mice"])
def test_a_size_set_in_setup_follows_the_options(gid: str) -> None:
    option = next(o for o in game_class(gid).options if o.name in ("turn_limit", "turn_cap"))
    low, high = (option.allowed[0], option.allowed[-1]) if option.allowed else (option.minimum, option.maximum)
    short, long = (boardlab.make(gid, **{option.name: int(v)}).max_game_length() for v in (low, high))
    assert short < long  # a longer turn limit, a longer safety cap


def test_random_games_stay_within_the_declared_sizes() -> None:
    rng = random.Random(5)
    for gid in boardlab.games():
        g = boardlab.make(gid)
        s = g.new_initial_state()
        for _ in range(40):
            if s.is_terminal():
                break
            if s.is_chance_node():
                outcomes = [a for a, _ in s.chance_outcomes()]
                assert all(0 <= a < g.max_chance_outcomes() for a in outcomes), gid
                s.apply_action(rng.choice(outcomes))
            elif s.is_simultaneous_node():
                s.apply_actions([rng.choice(la) if (la := s.legal_actions(p)) else None for p in range(s.num_players)])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
        assert s.move_number() <= g.max_game_length()


# -- the tensor ------------------------------------------------------------------------------------------------


def test_one_of_encodes_a_declared_name() -> None:
    t = Tensor()
    t.one_of("phase", "play", ("deal", "play", "over"))
    t.one_of("held", None, ("king", "queen"))
    t.one_of("maybe", None, (None, "yes"))  # None that is a value is encoded as one
    assert t.values == [0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
    assert t.layout() == [("phase", 0, 3), ("held", 3, 2), ("maybe", 5, 2)]
    with pytest.raises(ValueError, match="'dance' is not one of"):
        t.one_of("phase", "dance", ("deal", "play", "over"))


def test_the_phased_games_tensor_header() -> None:
    t, spelled = Tensor(), Tensor()
    o = {"phase": "play", "to_move": 2}
    tz.header(t, o, 1, 3, ("deal", "play", "over"))
    spelled.one_hot("viewer", 1, 3)
    spelled.one_of("phase", "play", ("deal", "play", "over"))
    tz.mover(spelled, "to_move", 2, 1, 3)
    assert t.values == spelled.values and [f for f, _, _ in t.layout()] == ["viewer", "phase", "to_move"]
    assert t.values[3:6] == [0.0, 1.0, 0.0] and t.values[6:9] == [0.0, 1.0, 0.0]  # seat 2 is next after seat 1


# -- bits and offsets ------------------------------------------------------------------------------------------


def test_bits_are_the_set_bits_lowest_first() -> None:
    rng = random.Random(1)
    for _ in range(200):
        mask = rng.getrandbits(rng.randrange(1, 130))
        out = bits(mask)
        assert out == sorted(out) and sum(1 << b for b in out) == mask and len(out) == bin(mask).count("1")
    assert bits(0) == []


def test_offsets_name_a_row_of_segments() -> None:
    space = ActionSpace(Segment("place", (("cell", 9),), "cell {cell}"), Segment("pass", (), "pass"))
    assert space.offsets("place", "pass") == (space.offset("place"), space.offset("pass")) == (0, 9)
    assert space.offsets() == ()
    with pytest.raises(ValueError):
        space.offsets("place", "jump")


# -- option shorthands -----------------------------------------------------------------------------------------


def test_flag_and_choice_are_the_spelled_out_options() -> None:
    assert Option.flag("pie", True, "Swap.") == Option("pie", bool, True, (False, True), "Swap.")
    labels = {"draw": "A draw", "banked_food": "More banked food wins"}
    choice = Option.choice("tie_break", labels, "Equal scores.")
    assert choice == Option("tie_break", str, "draw", ("draw", "banked_food"), "Equal scores.", labels=labels)
    assert Option.choice("tie_break", labels, "", default="banked_food").default == "banked_food"
    assert validate_options("g", (choice,), {"tie_break": "banked_food"}) == {"tie_break": "banked_food"}
    with pytest.raises(ValueError, match="does not allow"):
        validate_options("g", (choice,), {"tie_break": "coin"})
    with pytest.raises(ValueError, match="default 'coin' is not one of"):
        Option.choice("tie_break", labels, "", default="coin")


# -- data files ------------------------------------------------------------------------------------------------


class Strip(NamedBoard):
    built = 0

    def __init__(self, name: str, data: dict[str, Any]) -> None:
        super().__init__(name, data)
        Strip.built += 1


def _board(name: str, cells: int) -> str:
    nodes = [{"id": f"c{i}", "x": i, "y": 0} for i in range(cells)]
    return json.dumps({"name": name, "nodes": nodes, "unverified": True})


def test_data_files_are_option_values_read_once(tmp_path: Path) -> None:
    (tmp_path / "strip.json").write_text(_board("Our strip", 3))
    (tmp_path / "strip-long.json").write_text(_board("A long strip", 7))
    (tmp_path / "other-thing.json").write_text(_board("Not a strip", 1))
    boards = DataFiles(tmp_path, "strip", "ours", Strip)
    assert list(boards.files()) == ["ours", "long"]
    option = boards.option("board", "The board.")
    assert (option.default, option.allowed, option.type) == ("ours", ("ours", "long"), str)
    Strip.built = 0
    long = boards.load("long")
    assert (long.name, long.title, long.n, long.labels[-1], long.unverified) == ("long", "A long strip", 7, "c6", True)
    assert boards.load("long") is long and Strip.built == 1  # read once
    other = tmp_path / "other"
    other.mkdir()
    (other / "strip.json").write_text(_board("Another strip", 2))
    boards.folder = other  # a new folder forgets what was read from the old one
    assert list(boards.files()) == ["ours"] and boards.load("ours").n == 2
    with pytest.raises(KeyError):
        boards.load("long")


def test_the_games_boards_are_data_files() -> None:
    for gid in ("cirque", "mata-mosca"):
        board = next(o for o in game_class(gid).options if o.name == "board")
        g = boardlab.make(gid)
        assert board.default in board.allowed and g.board.name == board.default and g.board.n > 0


# -- phase tables ----------------------------------------------------------------------------------------------


def test_a_phase_table_gives_its_shared_functions_to_the_phases_without_their_own() -> None:
    def shared(game: Any, obs: Any, legal: Any) -> str:
        return "shared"

    def own(game: Any, obs: Any, legal: Any) -> str:
        return "own"

    table = phase_table(
        Phase("a", 0, legal=lambda s, p: [0], apply=lambda s, a: None),
        Phase("b", 0, legal=lambda s, p: [0], apply=lambda s, a: None, prompt=own),
        Phase("over", TERMINAL),
        prompt=shared,
    )
    assert [p.prompt for p in table.values()] == [shared, own, shared]
    with pytest.raises(TypeError, match="not 'apply'"):
        phase_table(Phase("over", TERMINAL), apply=lambda s, a: None)
    with pytest.raises(ValueError, match="two phases are named 'over'"):
        phase_table(Phase("over", TERMINAL), Phase("over", TERMINAL), prompt=shared)


# -- chance outcomes -------------------------------------------------------------------------------------------


def test_the_usual_chance_outcomes() -> None:
    assert equally_likely(range(3)) == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    deck = [3, 0, 5, 2]
    outcomes = by_counts(deck, first=7)
    assert [a for a, _ in outcomes] == [7, 9, 10]
    assert [Fraction(p).limit_denominator(100) for _, p in outcomes] == [
        Fraction(3, 10),
        Fraction(1, 2),
        Fraction(1, 5),
    ]
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-12
