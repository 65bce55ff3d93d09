"""Run many independent jobs — locally, on worker processes, or on a Ray cluster — with stored, resumable results.

:func:`run_jobs` is the lab's one loop: ``simulate``, ``sweep`` and ``balance`` hand it a top-level (picklable)
function and a list of jobs, and get the results back in job order, the same whatever the backend and however many
workers played them (a job's result must depend on the job alone).

>>> run_jobs(pow_of_two, [3, 1, 4])
[8, 2, 16]
>>> from boardlab.lab.store import RunStore
>>> store = RunStore("sqlite://")
>>> run_jobs(pow_of_two, [3, 1, 4], store=store, run_key="demo")
[8, 2, 16]
>>> store.results("demo")[2]
16

**Chunking.** Jobs travel to workers in chunks, so a worker's overhead (a round trip, pickling) is paid per chunk,
not per job. With ``workers > 1`` the runner first plays jobs in this process for a moment (``PILOT_SECONDS``) to
time them; if what is left would not pay for starting worker processes (``POOL_START_SECONDS``, at the rate
measured), it finishes here, so more workers are never slower than one on short runs. Otherwise chunks are sized to
about ``1/CHUNKS_PER_WORKER`` of a worker's share (between ``MIN_CHUNK_SECONDS`` and ``MAX_CHUNK_SECONDS`` of work):
big enough that overhead is negligible, small enough that workers finish together and that a killed run loses
little. Worker processes start from a fork server that has already imported the job's module, so each starts in
milliseconds.

**Ray.** ``backend="ray"`` joins the Ray instance running on this machine (or the cluster at ``address``), or else
starts one, saying which through ``notice``; it does so in a feeding thread while this process plays from the front
of the list, and this process plays on to the end, the jobs still out on Ray included, so a cold or slow cluster
never holds a run up (a short run may wait for Ray to finish starting).

**Storage.** With ``store`` (a :class:`~boardlab.lab.store.RunStore` or a database URL) and ``run_key``, each
finished chunk's results are committed under the key before progress is reported; a later call with the same key
plays only the jobs not stored yet. Stored results are JSON: with a store, every result (fresh or stored) comes back
as its JSON round trip, so a resumed run returns exactly what an uninterrupted one does.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import json
import logging
import math
import os
import queue
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the store (SQLAlchemy) is imported only by runs that store: workers never need it
    from .store import RunStore

Progress = Callable[[int, int], None]

BACKENDS = ("local", "ray")

#: How long the runner plays jobs itself to time them before deciding on worker processes.
PILOT_SECONDS = 0.1
#: Below this much work left (at the pilot's rate), no worker process is started (see docs/PERFORMANCE.md).
POOL_START_SECONDS = 0.3
#: Chunks per worker (its share of the work split this many ways), within the bounds below.
CHUNKS_PER_WORKER = 8
MIN_CHUNK_SECONDS = 0.05
MAX_CHUNK_SECONDS = 2.0
#: Serial runs commit stored results at least this often.
FLUSH_SECONDS = 1.0


class WorkerModules:
    """A job argument naming modules the worker processes should import before they start (e.g. a game's)."""

    worker_modules: tuple[str, ...] = ()


def pow_of_two(n: int) -> int:
    """A job for examples and tests: ``2 ** n``."""
    return 2**n


def run_jobs(
    fn: Callable[[Any], Any],
    jobs: Sequence[Any],
    *,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
    store: RunStore | str | None = None,
    run_key: str | None = None,
    chunk_size: int | None = None,
    notice: Callable[[str], None] | None = None,
) -> list[Any]:
    """``[fn(job) for job in jobs]``, played on ``workers`` local processes or as Ray tasks, stored and resumable.

    ``fn`` is a top-level function (or a ``functools.partial`` of one) of one job, returning a JSON-able result.
    ``backend="ray"`` plays chunks as Ray tasks on the cluster at ``address`` (``"auto"``, ``"ray://host:10001"``;
    ``None`` joins the Ray instance running on this machine, or else starts one, which ends with the run).
    ``progress(done, total)`` is called as jobs finish (stored jobs are reported done at once). ``notice(text)`` is
    told which Ray instance is used, and when one is being started. ``chunk_size`` fixes the jobs per chunk instead of
    timing them.
    Bad arguments raise ``ValueError`` before any job runs.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; known backends: {', '.join(BACKENDS)}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer; got {workers!r}")
    if chunk_size is not None and (isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1):
        raise ValueError(f"chunk_size must be a positive integer; got {chunk_size!r}")
    jobs = list(jobs)
    if isinstance(store, str):
        from .store import RunStore

        store = RunStore(store)
    if store is not None:
        if not run_key:
            raise ValueError("a stored run needs a run_key")
        if store.get(run_key) is None:
            store.open_run(run_key, kind="jobs", params={}, total=len(jobs))
    sink = _Sink(len(jobs), progress, store, run_key)
    if store is not None:
        sink.preload(store.results(run_key))  # type: ignore[arg-type]
    todo = [i for i in range(len(jobs)) if not sink.has(i)]
    if sink.done:
        sink.report()  # the stored jobs, at once
    if todo:
        if backend == "ray":
            _run_ray(fn, jobs, todo, sink, address, chunk_size, notice or (lambda text: None))
        else:
            _run_local(fn, jobs, todo, sink, workers, chunk_size)
    sink.flush()
    return sink.results()


class _Sink:
    """Where finished jobs go: the result list, the store (committed in batches) and the progress callback."""

    _MISSING = object()

    def __init__(self, total: int, progress: Progress | None, store: RunStore | None, key: str | None) -> None:
        self.total = total
        self.progress = progress
        self.store = store
        self.key = key
        self._results: list[Any] = [self._MISSING] * total
        self.done = 0
        self._pending: list[tuple[int, Any]] = []
        self._flushed = time.perf_counter()

    def preload(self, stored: dict[int, Any]) -> None:
        for i, r in stored.items():
            if 0 <= i < self.total and self._results[i] is self._MISSING:
                self._results[i] = r
                self.done += 1

    def has(self, i: int) -> bool:
        return self._results[i] is not self._MISSING

    def add(self, items: Sequence[tuple[int, Any]], *, commit: bool = True) -> None:
        for i, r in items:
            if self.store is not None:
                r = json.loads(json.dumps(r))  # exactly what a resumed run will read back
            self._results[i] = r
        self.done += len(items)
        if self.store is not None:
            self._pending.extend(items)
            if commit or time.perf_counter() - self._flushed >= FLUSH_SECONDS:
                self.flush()
        self.report()

    def flush(self) -> None:
        if self.store is not None and self._pending:
            self.store.save(self.key, self._pending)  # type: ignore[arg-type]
        self._pending = []
        self._flushed = time.perf_counter()

    def report(self) -> None:
        if self.progress is not None:
            self.progress(self.done, self.total)

    def results(self) -> list[Any]:
        return list(self._results)


def _run_chunk(fn: Callable[[Any], Any], jobs: list[Any]) -> list[Any]:
    return [fn(job) for job in jobs]


def _pilot(fn: Callable[[Any], Any], jobs: Sequence[Any], todo: list[int], sink: _Sink, seconds: float) -> float:
    """Play jobs here for about ``seconds`` (at least one); return the mean seconds per job."""
    started = time.perf_counter()
    n = 0
    while n < len(todo) and (n == 0 or time.perf_counter() - started < seconds):
        i = todo[n]
        sink.add([(i, fn(jobs[i]))], commit=False)
        n += 1
    del todo[:n]
    return (time.perf_counter() - started) / n


def _chunks(todo: list[int], size: int) -> list[list[int]]:
    return [todo[k : k + size] for k in range(0, len(todo), size)]


def chunk_size_for(per_job: float, jobs: int, workers: int) -> int:
    """Jobs per chunk for ``jobs`` jobs of ``per_job`` seconds on ``workers`` workers (see the module's note).

    >>> chunk_size_for(0.001, 4000, 2)  # 4 s of work: 0.25 s chunks
    250
    >>> chunk_size_for(0.5, 10, 2)  # slow jobs: one at a time
    1
    """
    share = per_job * jobs / workers
    target = min(MAX_CHUNK_SECONDS, max(MIN_CHUNK_SECONDS, share / CHUNKS_PER_WORKER))
    return max(1, min(math.ceil(jobs / workers), round(target / max(per_job, 1e-9))))


def _run_local(
    fn: Callable[[Any], Any], jobs: Sequence[Any], todo: list[int], sink: _Sink, workers: int, chunk_size: int | None
) -> None:
    workers = min(workers, len(todo))
    if workers > 1 and chunk_size is None:
        per_job = _pilot(fn, jobs, todo, sink, PILOT_SECONDS)
        if per_job * len(todo) <= POOL_START_SECONDS:
            workers = 1  # what is left is over before worker processes could start
        else:
            chunk_size = chunk_size_for(per_job, len(todo), workers)
    if workers <= 1 or not todo:
        for i in todo:
            sink.add([(i, fn(jobs[i]))], commit=False)
        return
    _Helped(fn, jobs, todo, sink, workers, chunk_size or 1).run()


class _Helped:
    """Worker processes fed chunks from the back of ``todo`` by a thread, while this process plays from the front.

    Starting a process pool blocks (the fork server imports the job's modules before it forks the first worker), so
    the pool lives in a feeding thread; this process keeps playing jobs itself until the first chunk comes back, and
    from then on only collects results.
    """

    def __init__(
        self, fn: Callable[[Any], Any], jobs: Sequence[Any], todo: list[int], sink: _Sink, workers: int, size: int
    ) -> None:
        self.fn, self.jobs, self.todo, self.sink, self.workers, self.size = fn, jobs, todo, sink, workers, size
        self.front, self.back = 0, len(todo)
        self.lock = threading.Lock()
        self.results: queue.Queue[tuple[list[int], list[Any]] | BaseException | None] = queue.Queue()
        self.stop = False
        #: Whether this process keeps playing from the front once results come back (else it only collects).
        self.play_to_the_end = False

    def claim_back(self) -> list[int] | None:
        with self.lock:
            if self.stop or self.back <= self.front:
                return None
            start = max(self.front, self.back - self.size)
            chunk = self.todo[start : self.back]
            self.back = start
            return chunk

    def claim_front(self) -> int | None:
        with self.lock:
            if self.front >= self.back:
                return None
            self.front += 1
            return self.todo[self.front - 1]

    def feed(self) -> None:
        try:
            with ProcessPoolExecutor(max_workers=self.workers, mp_context=_mp_context(self.fn)) as pool:
                running: dict[Future[list[Any]], list[int]] = {}

                def submit() -> None:
                    chunk = self.claim_back()
                    if chunk is not None:
                        running[pool.submit(_run_chunk, self.fn, [self.jobs[i] for i in chunk])] = chunk

                for _ in range(2 * self.workers):  # two chunks per worker in flight: none idle, few waiting
                    submit()
                while running:
                    finished, _ = wait(running, return_when=FIRST_COMPLETED)
                    for fut in finished:
                        self.results.put((running.pop(fut), fut.result()))
                        submit()
            self.results.put(None)
        except BaseException as e:  # handed to the main thread, which raises it
            self.results.put(e)

    def steal(self) -> int | None:
        """A job handed to a worker but not back yet, to play here too (``None``: none left)."""
        return None

    def _add(self, items: list[tuple[int, Any]], *, commit: bool = True) -> None:
        fresh = [(i, r) for i, r in items if not self.sink.has(i)]  # a job played twice gives the same result
        if fresh:
            self.sink.add(fresh, commit=commit)

    def run(self) -> None:
        feeder = threading.Thread(target=self.feed, name="boardlab-run-jobs", daemon=True)
        feeder.start()
        workers_up = False
        try:
            while not (self.play_to_the_end and self.sink.done == self.sink.total):
                try:
                    got = self.results.get_nowait() if not workers_up else self.results.get()
                except queue.Empty:
                    i = self.claim_front()
                    if i is None and self.play_to_the_end:
                        i = self.steal()
                    if i is None:
                        workers_up = True  # nothing left to play here: wait for the workers
                    else:
                        self._add([(i, self.fn(self.jobs[i]))], commit=False)
                    continue
                if got is None:
                    break
                if isinstance(got, BaseException):
                    raise got
                workers_up = workers_up or not self.play_to_the_end
                chunk, results = got
                self._add(list(zip(chunk, results)))
        finally:
            with self.lock:
                self.stop = True
            feeder.join()


def _run_ray(
    fn: Callable[[Any], Any],
    jobs: Sequence[Any],
    todo: list[int],
    sink: _Sink,
    address: str | None,
    chunk_size: int | None,
    notice: Callable[[str], None],
) -> None:
    if not ray_installed():  # imported in the feeding thread: this process plays meanwhile
        raise ValueError("the ray backend needs Ray: pip install 'boardlab[ray]'")
    per_job = None
    if chunk_size is None:
        per_job = _pilot(fn, jobs, todo, sink, PILOT_SECONDS)
    if todo:
        _RayHelped(fn, jobs, todo, sink, address, notice, per_job, chunk_size).run()


def ray_installed() -> bool:
    """Whether Ray can be imported, without importing it (a second or more)."""
    if "ray" in sys.modules:
        return sys.modules["ray"] is not None
    try:
        return importlib.util.find_spec("ray") is not None
    except (ImportError, ValueError):
        return False


def connect_ray(ray: Any, address: str | None, notice: Callable[[str], None]) -> None:
    """Join the Ray instance at ``address``; for ``None``, the one running on this machine, or else start one.

    ``notice`` is told which: ``starting a local Ray instance …`` or ``using the running Ray instance at HOST:PORT``.
    Connecting to a running instance takes a few seconds, starting one ten or more on a small machine.
    """
    if ray.is_initialized():
        notice(f"using the running Ray instance at {_ray_address(ray)}")
        return
    # Ray's own log lines (connecting, a signal handler not set in a thread) are left out: the notice says it
    kw: dict[str, Any] = {
        "ignore_reinit_error": True,
        "include_dashboard": False,
        "log_to_driver": False,
        "logging_level": logging.ERROR,
    }
    if address is None and not os.environ.get("RAY_ADDRESS"):
        try:
            ray.init(address="auto", **kw)
        except ConnectionError:  # none running here
            notice(
                "starting a local Ray instance (it ends with this run; `ray start --head` keeps one running, "
                "which the next runs join)"
            )
            ray.init(**kw)
            return
    else:
        ray.init(address=address, **kw)
    notice(f"using the running Ray instance at {_ray_address(ray)}")


def _ray_address(ray: Any) -> str:
    try:
        return str(ray.get_runtime_context().gcs_address)
    except Exception:  # an older Ray, or Ray Client: no address to show
        return "its address"


class _RayHelped(_Helped):
    """Ray tasks fed chunks from the back of ``todo`` by a thread, while this process plays from the front.

    Connecting to Ray (seconds) or starting it (ten seconds or more on a small machine) happens in the feeding
    thread: this process keeps playing jobs meanwhile, so a short run is over before Ray is needed, and a long one
    loses none of the start.
    """

    def __init__(
        self,
        fn: Callable[[Any], Any],
        jobs: Sequence[Any],
        todo: list[int],
        sink: _Sink,
        address: str | None,
        notice: Callable[[str], None],
        per_job: float | None,
        size: int | None,
    ) -> None:
        super().__init__(fn, jobs, todo, sink, 1, size or 1)
        self.address, self.notice, self.per_job, self.fixed = address, notice, per_job, size
        # Ray's workers are other processes (on a cluster, other machines): this one's CPU is spare, so it plays on,
        # and at the end plays the jobs still out on Ray too, so that a slow or cold cluster never holds the run up
        self.play_to_the_end = True
        self.inflight: list[list[int]] = []
        self.stolen: set[int] = set()

    def steal(self) -> int | None:
        with self.lock:
            for chunk in reversed(self.inflight):  # the last handed out, from its end: the furthest from done there
                for i in reversed(chunk):
                    if i not in self.stolen and not self.sink.has(i):
                        self.stolen.add(i)
                        return i
        return None

    def feed(self) -> None:
        try:
            import ray

            connect_ray(ray, self.address, self.notice)
            cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
            if self.fixed is None:
                with self.lock:
                    left = max(1, self.back - self.front)
                size = chunk_size_for(self.per_job or 0.0, left, cpus)
                self.size = min(size, max(1, math.ceil(left / (4 * cpus))))  # several tasks per CPU
            task = ray.remote(_run_chunk)
            chunk_of: dict[int, list[int]] = {}  # id(ref) -> its chunk (the refs stay alive in `refs` meanwhile)
            refs: list[Any] = []

            def submit() -> None:
                chunk = self.claim_back()
                if chunk is not None:
                    ref = task.remote(self.fn, [self.jobs[i] for i in chunk])
                    chunk_of[id(ref)] = chunk
                    refs.append(ref)
                    with self.lock:
                        self.inflight.append(chunk)

            for _ in range(cpus + 1):  # a task per CPU in flight and one waiting: little to wait for at the end
                submit()
            while refs and not self.stop:
                done, refs[:] = ray.wait(refs, num_returns=1, timeout=0.25)
                for ref in done:
                    chunk = chunk_of.pop(id(ref))
                    self.results.put((chunk, ray.get(ref)))
                    with self.lock:
                        self.inflight.remove(chunk)
                    submit()
            for ref in refs:  # all played here meanwhile: the cluster need not finish them
                with contextlib.suppress(Exception):
                    ray.cancel(ref)
            self.results.put(None)
        except BaseException as e:  # handed to the main thread, which raises it
            self.results.put(e)


def _mp_context(fn: Callable[[Any], Any]) -> Any:
    """A fork server (or spawn) context whose server has already imported what the job needs.

    That is the job function's module and, for a ``functools.partial``, the modules its :class:`WorkerModules`
    arguments name (e.g. the game's module). The fork server starts once per process: the first pool's modules are the ones kept.
    """
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    if "forkserver" not in methods:
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    base = fn.func if isinstance(fn, functools.partial) else fn
    modules = ["boardlab.lab.runner", base.__module__]
    if isinstance(fn, functools.partial):
        for arg in fn.args:
            if isinstance(arg, WorkerModules):
                modules.extend(arg.worker_modules)
    ctx.set_forkserver_preload([m for m in dict.fromkeys(modules) if m and m != "__main__"])
    return ctx
