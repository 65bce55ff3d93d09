"""Storage: group commits isolate a failing write, reads see what was committed, and the markdown converter."""

from __future__ import annotations

import pytest

from boardlab.server.markdown import to_html
from boardlab.server.store import GroupWriter, MoveRow, StaleRevision, Store, TableRow


def table(tid: str) -> TableRow:
    return TableRow(
        id=tid,
        game="blast-radius",
        options={"board_side": 5},
        rules_version="1",
        num_players=2,
        mode="online",
        seats=[{"kind": "human"}, {"kind": "human"}],
        seed=1,
        revision=0,
        status="playing",
        result=None,
        seat_hashes=["a", "b"],
        spectator_hash="c",
        created_at=0.0,
        updated_at=0.0,
        moves=[MoveRow(-1, 3, "card 3")],
    )


def test_group_commit_isolates_a_stale_write(store_url: str) -> None:
    store = Store(store_url)
    writer = GroupWriter(store)
    try:
        for tid in ("t1", "t2"):
            writer.submit(store.op_create_table, table(tid)).result(timeout=10)
        ok1 = writer.submit(store.op_append_moves, "t1", 1, [MoveRow(0, 5, "a5")], 0, 1, "playing", None)
        stale = writer.submit(store.op_append_moves, "t2", 1, [MoveRow(0, 6, "a6")], 7, 8, "playing", None)
        ok2 = writer.submit(store.op_append_moves, "t2", 1, [MoveRow(0, 9, "b1")], 0, 1, "finished", {"winners": [0]})
        ok1.result(timeout=10)
        ok2.result(timeout=10)
        with pytest.raises(StaleRevision):
            stale.result(timeout=10)
    finally:
        writer.close()
    t1, t2 = store.load("t1"), store.load("t2")
    assert t1 is not None and t2 is not None
    assert [(m.actor, m.entry, m.label) for m in t1.moves] == [(-1, 3, "card 3"), (0, 5, "a5")]
    assert [m.entry for m in t2.moves] == [3, 9] and t2.status == "finished" and t2.result == {"winners": [0]}
    assert store.load("t3") is None
    assert store.table_ids("finished") == ["t2"]


def test_pending_and_truncate(store_url: str) -> None:
    store = Store(store_url)
    store.create_table(table("t"))
    store.set_pending("t", 1, 4, 0)
    assert store.load("t").pending == {1: 4}
    with pytest.raises(StaleRevision):
        store.set_pending("t", 0, 2, 5)
    store.append_moves("t", 1, [MoveRow(-2, [0, 4], ["x", "y"])], 0, 1, "playing", None, True)
    row = store.load("t")
    assert row.pending == {} and row.moves[-1].entry == [0, 4] and row.revision == 1
    store.truncate("t", 1, 1, 2, "playing", None)
    assert [m.entry for m in store.load("t").moves] == [3]


def test_markdown_escapes_and_structures() -> None:
    html = to_html(
        "# T\n\nA <script>x</script> & `a<b`\n\n1. one\n2. two\n   - sub **b**\n\n| a | b |\n|---|---|\n| 1 | 2 |"
    )
    assert "<script>" not in html and "&lt;script&gt;" in html and "<code>a&lt;b</code>" in html
    assert "<ol>" in html and "<ul>" in html and "<strong>b</strong>" in html and "<td>1</td>" in html
    assert to_html("[x](javascript:void)") == "<p>x</p>"
    assert to_html("[x](https://example.org)") == '<p><a href="https://example.org">x</a></p>'
