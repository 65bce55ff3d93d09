"""Stored lab runs on PostgreSQL (the server's database URL works for the lab too), through a throwaway server."""

from __future__ import annotations

from boardlab.lab.runner import run_jobs
from boardlab.lab.simulate import simulate
from boardlab.lab.store import RunStore
from pg_cluster import PostgresCluster, skip_or_fail_if_missing


def test_a_stored_run_resumes_on_postgresql() -> None:
    skip_or_fail_if_missing()
    cluster = PostgresCluster().start()
    try:
        url = cluster.new_database("lab")
        kw: dict = {"options": {"board_side": 5}, "seed": 6}
        plain = simulate("blast-radius", 10, ["random"], **kw)
        assert simulate("blast-radius", 10, ["random"], store=url, **kw).to_dict() == plain.to_dict()
        store = RunStore(url)
        (info,) = store.runs()
        assert info.status == "finished" and info.done == 10
        store.save("half", [(1, {"v": 1})])
        calls: list[int] = []

        def job(n: int) -> dict[str, int]:
            calls.append(n)
            return {"v": n}

        assert run_jobs(job, range(3), store=store, run_key="half") == [{"v": 0}, {"v": 1}, {"v": 2}]
        assert calls == [0, 2]
        store.close()
    finally:
        cluster.stop()
