"""ActionSpace: segments one after another, first dim most significant, labels distinct and never bare numbers."""

from __future__ import annotations

import pytest

from boardlab.core.actions import ActionSpace, Segment

MOVES = ("step", "turn", "leap")


def dragon_like() -> ActionSpace:
    return ActionSpace(
        Segment("order", (("movement", MOVES), ("attack", 4)), "{movement} + attack {attack}"),
        Segment("face", (("direction", ("north", "east", "south", "west")),), "face {direction}"),
        Segment("pass", (), "pass"),
    )


def test_layout_is_segments_in_order_with_the_first_dim_most_significant() -> None:
    space = dragon_like()
    assert space.size == 3 * 4 + 4 + 1
    assert [space.encode("order", m, k) for m in range(3) for k in range(4)] == list(range(12))
    assert space.encode("order", 2, 3) == 4 * 2 + 3
    assert space.offset("face") == 12 and space.encode("face", 2) == 14
    assert space.encode("pass") == 16
    assert list(space.actions("face")) == [12, 13, 14, 15]
    assert space.decode(7) == ("order", (1, 3))
    assert space.decode(16) == ("pass", ())


def test_encode_inverts_decode_over_the_whole_space() -> None:
    space = dragon_like()
    for a in range(space.size):
        name, indices = space.decode(a)
        assert space.encode(name, *indices) == a
        assert space.segment_of(a).name == name


def test_labels_use_dim_names_where_given_and_indices_otherwise() -> None:
    space = dragon_like()
    assert space.label(6) == "turn + attack 2"
    assert space.label(13) == "face east"
    assert space.label(16) == "pass"
    assert len(set(space.labels)) == space.size


def test_a_callable_label_gets_the_indices() -> None:
    space = ActionSpace(Segment("move", (("from", 3), ("to", 3)), lambda f, t: f"{'abc'[f]}-{'abc'[t]}"))
    assert space.label(space.encode("move", 0, 2)) == "a-c"


def test_out_of_range_input_is_refused_with_a_clear_error() -> None:
    space = dragon_like()
    with pytest.raises(ValueError, match="attack must be 0-3"):
        space.encode("order", 0, 4)
    with pytest.raises(ValueError, match="takes 2 indices"):
        space.encode("order", 1)
    with pytest.raises(ValueError, match="no segment 'jump'"):
        space.encode("jump", 0)
    for bad in (-1, 17, True, "3"):
        with pytest.raises(ValueError, match="not an action"):
            space.decode(bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="not an action"):
            space.label(bad)  # type: ignore[arg-type]
        assert bad not in space


def test_repeated_or_numeric_labels_are_refused_when_the_space_is_built() -> None:
    with pytest.raises(ValueError, match="share the label"):
        ActionSpace(Segment("a", (), "pass"), Segment("b", (), "Pass"))
    ActionSpace(Segment("a", (), "pass"), Segment("b", (), "pass"), distinct_labels=False)
    with pytest.raises(ValueError, match="not a number"):
        ActionSpace(Segment("cell", (("cell", 3),), "{cell}"))
    with pytest.raises(ValueError, match="not a number"):
        ActionSpace(Segment("cell", (("cell", 3),), "#{cell}"))
    with pytest.raises(ValueError, match="segment names repeat"):
        ActionSpace(Segment("a", (), "x"), Segment("a", (), "y"))
    with pytest.raises(ValueError, match="at least one value"):
        Segment("a", (("d", 0),), "x{d}")


def test_describe_is_the_layout() -> None:
    assert dragon_like().describe()[1] == {"segment": "face", "first": 12, "size": 4, "dims": [["direction", 4]]}
