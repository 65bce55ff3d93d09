from hypothesis import given
from hypothesis import strategies as st

from boardlab.geometry import BoardData, HexBoard, SquareGrid, TriLattice, disc, hex_distance, hexhex_cells, ring


def test_hexhex_sizes() -> None:
    for side, cells, border in ((5, 61, 24), (6, 91, 30), (7, 127, 36)):
        b = HexBoard.of_side(side)
        assert len(b) == cells == len(hexhex_cells(side))
        assert len(b.border()) == border


def test_labels_and_rings() -> None:
    b = HexBoard.of_side(6)
    assert b.labels[0] == "a1" and b.labels[-1] == "k6" and len(set(b.labels)) == 91
    centre = b.index[(0, 0)]
    assert b.labels[centre] == "f6"
    assert [len(b.ring_indices(centre, k)) for k in range(1, 4)] == [6, 12, 18]
    corner = b.index[(0, -5)]
    assert len(b.ring_indices(corner, 1)) == 3


@given(st.integers(-5, 5), st.integers(-5, 5), st.integers(0, 4))
def test_ring_cells_are_at_that_distance(q: int, r: int, k: int) -> None:
    cells = ring((q, r), k)
    assert len(cells) == max(1, 6 * k) == len(set(cells))
    assert all(hex_distance((q, r), c) == k for c in cells)
    assert len(disc((q, r), k)) == 3 * k * (k + 1) + 1


def test_square_grid() -> None:
    g = SquareGrid(8, 8)
    assert g.label(g.index(0, 7)) == "a1" and g.parse("h8") == g.index(7, 0)
    assert g.is_dark(g.parse("a1")) and not g.is_dark(g.parse("b1"))
    assert g.ray(g.parse("a1"), (1, -1), 7) == g.parse("h8")
    assert g.ray(g.parse("a1"), (-1, 0), 1) is None
    assert len(g.neighbours(g.parse("a1"))) == 3


def test_tri_lattice_counts() -> None:
    for n, pts, tris, edges in ((3, 37, 54, 90), (4, 61, 96, 156), (5, 91, 150, 240)):
        t = TriLattice.hexagon(n)
        assert (len(t.points), len(t.triangles), len(t.edges)) == (pts, tris, edges)
        assert all(1 <= len(x) <= 2 for x in t.edge_triangles)


def test_board_data_round_trip() -> None:
    data = {
        "nodes": [
            {"id": "a", "x": 0, "y": 0, "colour": "red"},
            {"id": "b", "x": 1, "y": 0},
            {"id": "c", "x": 2, "y": 0},
        ],
        "adjacency": [["a", "b"], ["b", "c"]],
        "lines": [["a", "b", "c"]],
        "blocked": ["c"],
        "unverified": True,
    }
    b = BoardData.from_dict(data)
    assert b.neighbours[1] == (0, 2) and b.lines == ((0, 1, 2),) and b.blocked == frozenset({2})
    assert BoardData.from_dict(b.to_dict()) == b
    assert b.connected_groups({0, 2}) in ([{0}, {2}], [{2}, {0}])
