"""GameType: a declaration in OpenSpiel's terms, resolved per option setting; games derive their flags from it."""

from __future__ import annotations

import dataclasses

import pytest

import boardlab
from boardlab.core.game import Game
from boardlab.core.gametype import Chance, Dynamics, GameType, Information, Utility, when


def test_defaults_are_a_plain_two_sided_game() -> None:
    t = GameType()
    assert (t.dynamics, t.chance, t.information, t.utility) == (
        Dynamics.SEQUENTIAL,
        Chance.NONE,
        Information.PERFECT,
        Utility.ZERO_SUM,
    )
    assert (t.min_utility, t.max_utility, t.utility_sum) == (-1.0, 1.0, 0.0)
    assert t.perfect_information and not t.cooperative and t.tags() == ["perfect information"]


def test_strings_are_accepted_and_checked() -> None:
    t = GameType(dynamics="simultaneous", utility="identical")
    assert t.dynamics is Dynamics.SIMULTANEOUS and t.cooperative and t.utility_sum is None
    with pytest.raises(ValueError):
        GameType(chance="sometimes")
    with pytest.raises(ValueError, match="min_utility"):
        GameType(min_utility=2, max_utility=1)
    with pytest.raises(ValueError, match="CONSTANT_SUM"):
        GameType(constant_sum=1)
    assert GameType(utility=Utility.CONSTANT_SUM, constant_sum=1).utility_sum == 1.0


def test_variants_apply_in_order_and_vanish_once_resolved() -> None:
    declared = GameType(
        chance=Chance.EXPLICIT,
        variants=(
            when("setup", ("choice",), chance=Chance.NONE),
            when("variant", ("secret",), chance=Chance.EXPLICIT, information=Information.IMPERFECT),
        ),
    )
    plain = declared.resolve({"setup": "random", "variant": "open"})
    assert plain == GameType(chance=Chance.EXPLICIT)
    assert declared.resolve({"setup": "choice", "variant": "open"}).chance is Chance.NONE
    secret = declared.resolve({"setup": "choice", "variant": "secret"})
    assert secret.chance is Chance.EXPLICIT and not secret.perfect_information and secret.variants == ()
    with pytest.raises(ValueError, match="option 'setup'"):
        declared.resolve({"variant": "open"})
    with pytest.raises(ValueError, match="cannot change 'variants'"):
        when("x", (1,), variants=())
    assert declared.describe()["variants"][1]["text"] == "hidden information with variant: secret"
    assert declared.variant_texts()[0] == "no chance with setup: choice"


def test_games_derive_perfect_information_and_cooperative_from_their_type() -> None:
    posies = boardlab.make("posies")
    assert posies.game_type.perfect_information and posies.perfect_information is True
    hidden = boardlab.make("posies", variant="hidden_colour")
    assert hidden.perfect_information is False and hidden.game_type.information is Information.IMPERFECT
    assert type(hidden).game_type.variants  # the class keeps the declaration
    assert type(hidden).perfect_information is False  # some option setting hides information
    assert type(boardlab.make("radius")).perfect_information is True
    assert boardlab.make("new-rule").cooperative is True
    assert boardlab.make("radius").cooperative is False
    meta = hidden.metadata()
    assert meta["game_type"]["information"] == "imperfect" and meta["perfect_information"] is False


def test_setting_the_old_flags_on_a_game_class_is_refused() -> None:
    with pytest.raises(TypeError, match="declare game_type"):

        class Old(Game):
            perfect_information = False


def test_a_resolved_type_is_frozen() -> None:
    t = boardlab.make("hamlet").game_type
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.chance = Chance.NONE  # type: ignore[misc]
