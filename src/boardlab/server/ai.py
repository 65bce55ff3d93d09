"""AI seats think here, in worker processes, never on the server's event loop.

:func:`choose` runs inside a worker: it rebuilds the position from the
table's history and asks the agent for a move through a
:class:`~boardlab.core.view.SeatView` (the agent sees only its seat's
knowledge), with its search capped at the server's per-move time limit.

:class:`AIPool` owns the workers, each a process of its own. Moves wait in one
queue per table, and the tables in one queue per client (the address that made
them). Free workers take them round-robin across clients, and within a client
round-robin across its tables: a client (or table) already thinking on a worker
goes behind those that are not, and no client holds more than all workers but
one. So neither one slow table nor one client's many tables can hold the whole
pool: another client's move waits at most for one move to end. A worker that does not answer
within the move's limit plus a margin is killed and replaced, and the move
fails with :class:`MoveTimeout` (the table then plays a legal move chosen by
its own seeded generator).

:func:`check_server_agent` holds server seats to declared bounds: the named
levels and the cheap agents, with any budget parameters within
:data:`MAX_ITERATIONS`, :data:`MAX_PLIES` and the server's per-move seconds.
The CLI and the lab do not call it: there any spec is allowed.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import math
import multiprocessing
import os
import pkgutil
import random
import signal
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from ..agents import MCTSAgent, agent_names, level_names, level_seconds, make_agent, parse_agent_spec
from ..core.driver import replay
from ..core.game import HistoryEntry
from ..core.view import SeatView
from ..games import make_cached

#: Level names offered in the lobby when the agents package defines them.
LEVEL_NAMES = ("easy", "medium", "hard", "expert")

#: The most MCTS iterations a server seat may ask for per move.
MAX_ITERATIONS = 100_000
#: The most MCTS plies a server seat may ask for per move (``expert`` uses 250 000).
MAX_PLIES = 250_000
#: The most random playouts per action a server ``greedy`` seat may ask for.
MAX_PLAYOUTS = 200
#: Agents a server seat may name besides the levels (each cheap or bounded by its parameters).
SERVER_AGENTS = ("random", "greedy", "mcts")


class MoveTimeout(Exception):
    """A worker did not answer within the move's limit plus the margin (it was replaced)."""


#: The most agents (with their search trees) a worker keeps between moves, least recently used dropped first.
MAX_KEPT_AGENTS = 16
#: Per worker process: ``(table, seat, spec, game, options, players) -> agent``, the trees of recent AI seats.
_KEPT: OrderedDict[tuple[Any, ...], Any] = OrderedDict()


def kept_agent(key: tuple[Any, ...], build: Callable[[], Any]) -> Any:
    """The agent kept under ``key`` in this worker (built by ``build`` the first time), most recent last."""
    agent = _KEPT.get(key)
    if agent is None:
        agent = _KEPT[key] = build()
        while len(_KEPT) > MAX_KEPT_AGENTS:
            _KEPT.popitem(last=False)
    _KEPT.move_to_end(key)
    return agent


def forget_table(table: str) -> int:
    """Drop every agent kept for ``table`` in this worker (the table ended); how many were dropped."""
    keys = [k for k in _KEPT if k[0] == table]
    for k in keys:
        del _KEPT[k]
    return len(keys)


def kept_visits(table: str, seat: int) -> int | None:
    """The visits at the root of the tree kept for ``table``'s ``seat`` in this worker (``None``: no tree kept)."""
    for key, agent in _KEPT.items():
        if key[:2] == (table, seat) and isinstance(agent, MCTSAgent):
            root = agent._root
            return root.n if root is not None else 0
    return None


def choose(
    game_id: str,
    options: dict[str, Any],
    num_players: int,
    history: list[HistoryEntry],
    seat: int,
    spec: str,
    seed: int,
    seconds: float | None = None,
    table: str | None = None,
) -> int:
    """The agent's action for ``seat`` in the position after ``history`` (runs in a worker).

    ``seconds`` caps an MCTS agent's search (a level is one) on the wall
    clock, beside the agent's own cap (a level's counts CPU seconds,
    :mod:`boardlab.agents.levels`): when either runs out, the best move found so
    far is played. With ``table``, the worker
    keeps the seat's agent between its moves (:func:`kept_agent`), so a search
    tree is re-rooted along the moves played since and its work reused (MCTS
    keeps its tree with perfect information only); when the history is not an
    extension of the one it last saw (an undo, a rematch, a restart) the agent
    starts a new tree. The agent is reseeded with ``seed`` every move, and
    still sees only the seat's view.
    """
    game = make_cached(game_id, **options)  # per worker process: building a board can take milliseconds
    state = replay(game, history, num_players)
    if table is None:
        agent = make_agent(spec, game, seat, seed)
    else:
        key = (table, seat, spec, game_id, repr(sorted(options.items())), num_players)
        agent = kept_agent(key, lambda: make_agent(spec, game, seat, seed))
        if isinstance(agent, MCTSAgent):
            agent.rng.seed(seed)
    if seconds is not None and isinstance(agent, MCTSAgent):
        # on the wall clock, which a player waits for, beside the agent's own cap (a level's counts CPU seconds)
        agent.wall_seconds = min(agent.wall_seconds if agent.wall_seconds is not None else math.inf, seconds)
    action = agent.step(SeatView(state, seat))
    return int(action)


def end_with_server(server: int) -> None:
    """Runs first in every worker (AI and lab): the worker ends itself once the server that started it is gone.

    The worker's parent is the server's fork server (which ends with the server) or, without one, the server: either
    way the parent changes once the server has gone, or the server's process no longer exists. So no worker outlives
    its server, however the server ended (even ``kill -9``, or a signal during start-up).
    """
    parent = os.getppid()

    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(0)
            try:
                os.kill(server, 0)
            except ProcessLookupError:
                os._exit(0)
            except PermissionError:  # alive, another user's (a reused id would be another user's too, mostly)
                pass
            time.sleep(0.5)

    threading.Thread(target=watch, name="boardlab-watch-server", daemon=True).start()


def _warm() -> int:
    """Import the games and agents in a fresh worker (called once per worker at start; a no-op after a fork server's
    preload)."""
    import boardlab.agents  # noqa: F401
    from boardlab.games import game_class, games

    for game_id in games():
        game_class(game_id)
    return os.getpid()


def worker_modules() -> list[str]:
    """What the AI workers' fork server imports once, before it forks any worker: this module (and with it the agents
    and the engine) and every game's module, so a worker starts in milliseconds and a table's first AI move imports
    nothing."""
    names = {
        m.name
        for m in pkgutil.iter_modules(importlib.import_module("boardlab.games").__path__)
        if not m.name.startswith("_") and not m.ispkg
    }
    return [__name__, "boardlab.agents", *(f"boardlab.games.{n}" for n in sorted(names))]


def worker_context() -> multiprocessing.context.BaseContext:
    """The AI workers' start method: a fork server preloaded with :func:`worker_modules` (spawn where there is none).

    The fork server is one per process, shared with the lab's workers (``lab.runner``): its modules are those of the
    first pool that starts it, which in a server is this one (:meth:`AIPool.warm` at start).
    """
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(worker_modules())
    return ctx


def available_agents() -> dict[str, Any]:
    """Agent specs usable now: registered agents plus any registered level names.

    ``only_random`` says that no real AI is available yet (the lobby says so).
    """
    names = agent_names()
    levels = [str(x) for x in level_names()] or [n for n in LEVEL_NAMES if n in names]
    others = [n for n in names if n not in levels]
    return {
        "levels": levels,
        "agents": others,
        "all": levels + others,
        "default": levels[0] if levels else ("random" if "random" in names else (names[0] if names else "")),
        "only_random": set(names) <= {"random"} and not levels,
    }


def server_agents() -> dict[str, Any]:
    """:func:`available_agents` less the agents a server seat may not name (what the lobby offers)."""
    a = available_agents()
    allowed = set(a["levels"]) | set(SERVER_AGENTS)
    others = [n for n in a["agents"] if n in allowed]
    return {**a, "agents": others, "all": a["levels"] + others}


def level_think_seconds(max_seconds: float) -> dict[str, float]:
    """The most seconds each level thinks a move on a server whose per-move limit is ``max_seconds``.

    A level's own cap (CPU seconds, :func:`boardlab.agents.level_seconds`), or the server's limit where that is
    lower; what the lobby shows beside each level.

    >>> level_think_seconds(5.0)["hard"], level_think_seconds(1.0)["expert"]
    (1.5, 1.0)
    """
    return {level: min(level_seconds(level), max_seconds) for level in level_names()}


def check_server_agent(spec: str, max_seconds: float) -> None:
    """Refuse (``ValueError``) an agent spec a server seat may not use: an unknown agent or a budget out of bounds."""
    name, params = parse_agent_spec(spec)
    levels = set(level_names())
    if name not in levels and name not in SERVER_AGENTS:
        raise ValueError(f"agent {name!r} is not offered on this server")
    bounds: dict[str, float] = {"seconds": max_seconds}
    if name in levels or name == "mcts":
        bounds |= {"iterations": MAX_ITERATIONS, "plies": MAX_PLIES}
    elif name == "greedy":
        bounds |= {"playouts": MAX_PLAYOUTS}
    for key, value in params.items():
        if key not in bounds:
            continue
        try:
            number = float(value)
        except ValueError:
            raise ValueError(f"{name} parameter {key} must be a number; got {value!r}") from None
        if not math.isfinite(number) or number > bounds[key]:
            top = bounds[key]
            raise ValueError(f"{name} parameter {key} must be at most {top:g} on this server; got {value}")


@dataclass
class _Job:
    key: str
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    limit: float | None
    future: asyncio.Future[Any] = field(repr=False)
    #: Jobs with the same affinity go to the worker that ran the last one when it is free (its kept agent).
    affinity: Any = None
    #: Whose job it is (the address that made the table): workers are shared fairly between clients first.
    client: str = ""


class AIPool:
    """Worker processes for AI moves, shared fairly between clients, and a client's share between its tables.

    ``workers=0`` or ``None`` uses the CPU count minus one, but at least 2, so
    that one table thinking never leaves the others without a worker.
    """

    #: Seconds a fresh worker may take to start and import the games.
    START_SECONDS = 120.0

    def __init__(self, workers: int | None = None) -> None:
        n = workers if workers and workers > 0 else max(2, (os.cpu_count() or 2) - 1)
        self.workers = n
        self._ctx = worker_context()
        self._pools: list[ProcessPoolExecutor | None] = [None] * n
        self._warming: list[asyncio.Future[Any] | None] = [None] * n
        #: The process id of each started worker (its warm-up reports it).
        self._pids: list[int | None] = [None] * n
        self._free: list[int] = list(range(n - 1, -1, -1))
        #: client -> table -> its jobs waiting, both in round-robin order (the next to serve first).
        self._queues: OrderedDict[str, OrderedDict[str, deque[_Job]]] = OrderedDict()
        #: Jobs on a worker now, per table and per client.
        self._running: dict[str, int] = {}
        self._running_clients: dict[str, int] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        #: Affinity (a table's seat) -> the worker that last ran one of its jobs (and keeps its agent).
        self._home: OrderedDict[Any, int] = OrderedDict()
        #: Workers killed and replaced because they did not answer in time.
        self.recycled = 0
        self._closed = False

    def _pool(self, i: int) -> ProcessPoolExecutor:
        pool = self._pools[i]
        if pool is None:
            pool = self._pools[i] = ProcessPoolExecutor(
                max_workers=1, mp_context=self._ctx, initializer=end_with_server, initargs=(os.getpid(),)
            )
        return pool

    async def _ready(self, i: int) -> None:
        """Start worker ``i`` if needed and wait until it has imported the games."""
        fut = self._warming[i]
        if fut is None:
            fut = self._warming[i] = asyncio.ensure_future(self._start(self._pool(i)))
            fut.add_done_callback(_retrieve)  # a start given up (recycled) is not an unretrieved error
        try:
            self._pids[i] = await asyncio.wait_for(asyncio.shield(fut), self.START_SECONDS)
        except (BrokenProcessPool, TimeoutError):
            self._recycle(i, restart=False)
            raise

    @staticmethod
    async def _start(pool: ProcessPoolExecutor) -> int:
        # Submitting to a pool without its process starts it, which waits for the fork server to have imported the
        # games the first time: in a thread, so the event loop (the server) never waits for it.
        return int(await asyncio.wrap_future(await asyncio.to_thread(pool.submit, _warm)))

    async def warm(self) -> None:
        """Start every worker and wait until each has imported the games (a worker that fails to start is left to the
        next move, which starts it again)."""
        await asyncio.gather(*(self._ready(i) for i in range(self.workers)), return_exceptions=True)

    def pids(self) -> list[int | None]:
        """Each worker's process id once it is warm (``None``: not started, or still starting)."""
        return list(self._pids)

    def ready(self) -> int:
        """How many workers are started and warm (the games imported): a move given to one waits for no process."""
        return sum(pid is not None for pid in self._pids)

    async def run(
        self,
        key: str,
        fn: Callable[..., Any],
        *args: Any,
        limit: float | None = None,
        affinity: Any = None,
        client: str | None = None,
    ) -> Any:
        """``fn(*args)`` in a worker, queued fairly under ``client`` and ``key`` (a table); :class:`MoveTimeout`
        after ``limit`` s.

        ``client`` (``None``: the table is a client of its own) shares the workers with other clients first.
        A job with an ``affinity`` runs on the worker that ran the last job of that affinity, if it is free.
        """
        who = key if client is None else client
        job = _Job(key, fn, args, limit, asyncio.get_running_loop().create_future(), affinity, who)
        self._queues.setdefault(who, OrderedDict()).setdefault(key, deque()).append(job)
        self._dispatch()
        return await job.future

    async def choose(
        self,
        key: str,
        game_id: str,
        options: dict[str, Any],
        num_players: int,
        history: list[HistoryEntry],
        seat: int,
        spec: str,
        seed: int,
        seconds: float,
        margin: float,
        client: str | None = None,
    ) -> int:
        """The agent's move, its search capped at ``seconds``; :class:`MoveTimeout` after ``seconds + margin``.

        The seat's moves go to the same worker when it is free, which keeps the seat's agent and its tree.
        ``client``: whose table it is (:meth:`run`).
        """
        args = (game_id, options, num_players, history, seat, spec, seed, seconds, key)
        return int(await self.run(key, choose, *args, limit=seconds + margin, affinity=(key, seat), client=client))

    def forget(self, key: str) -> None:
        """A table ended: its seats' workers drop their kept agents (best effort, queued like any job)."""
        homes = {i for (k, _), i in self._home.items() if k == key}
        for a in [a for a in self._home if a[0] == key]:
            del self._home[a]
        for i in homes:
            if self._pools[i] is not None:
                with contextlib.suppress(RuntimeError, BrokenProcessPool):
                    self._pools[i].submit(forget_table, key)

    def _dispatch(self) -> None:
        # One client (and so one table) holds at most all workers but one, so another always finds a worker soon.
        share = max(1, self.workers - 1)
        while self._free and self._queues:
            client = _next_turn(self._queues, self._running_clients, share)
            if client is None:
                return
            tables = self._queues[client]
            key = _next_turn(tables, self._running, share)
            if key is None:
                return
            queue = tables[key]
            job = queue.popleft()
            if queue:
                tables.move_to_end(key)
            else:
                del tables[key]
            if tables:
                self._queues.move_to_end(client)
            else:
                del self._queues[client]
            if job.future.done():  # the caller gave up (its table stopped)
                continue
            home = self._home.get(job.affinity) if job.affinity is not None else None
            if home is not None and home in self._free:
                self._free.remove(home)
                i = home
            else:
                i = self._free.pop()
            if job.affinity is not None:
                self._home[job.affinity] = i
                self._home.move_to_end(job.affinity)
                while len(self._home) > 4 * MAX_KEPT_AGENTS * self.workers:
                    self._home.popitem(last=False)
            self._running[key] = self._running.get(key, 0) + 1
            self._running_clients[client] = self._running_clients.get(client, 0) + 1
            task = asyncio.ensure_future(self._execute(i, job))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _execute(self, i: int, job: _Job) -> None:
        try:
            for attempt in range(2):
                try:
                    await self._ready(i)
                    done = asyncio.wrap_future(self._pool(i).submit(job.fn, *job.args))
                    result = await asyncio.wait_for(done, job.limit)
                except TimeoutError:
                    self._recycle(i)
                    if not job.future.done():
                        job.future.set_exception(MoveTimeout(f"no answer within {job.limit:g} s"))
                    return
                except BrokenProcessPool:
                    # The worker died (killed, out of memory): start a fresh one and try once more.
                    self._recycle(i)
                    if attempt:
                        raise
                    continue
                if not job.future.done():
                    job.future.set_result(result)
                return
        except Exception as e:
            if not job.future.done():
                job.future.set_exception(e)
        finally:
            for running, who in ((self._running, job.key), (self._running_clients, job.client)):
                running[who] -= 1
                if not running[who]:
                    del running[who]
            self._free.append(i)
            self._dispatch()

    def _recycle(self, i: int, *, restart: bool = True) -> None:
        """Kill worker ``i`` (it may be stuck) and forget it; with ``restart``, start its replacement now, in the
        background, so that the next move given to it does not wait for a process to start."""
        pool, pid = self._pools[i], self._pids[i]
        self._pools[i] = self._warming[i] = self._pids[i] = None
        if pool is not None:
            self.recycled += 1
            _kill(pool, pid)
        if restart and not self._closed:
            task = asyncio.ensure_future(self._ready(i))
            task.add_done_callback(_retrieve)  # a replacement that fails to start is started again by the next move
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def shutdown(self) -> None:
        """Stop every worker now (a move still thinking is not stored, so nothing acknowledged is lost)."""
        self._closed = True
        for tables in self._queues.values():
            for job in (j for q in tables.values() for j in q):
                if not job.future.done():
                    job.future.cancel()
        self._queues.clear()
        for task in list(self._tasks):
            task.cancel()
        for i, pool in enumerate(self._pools):
            pid = self._pids[i]
            self._pools[i] = self._warming[i] = self._pids[i] = None
            if pool is not None:
                _kill(pool, pid)


def _retrieve(fut: asyncio.Future[Any]) -> None:
    if not fut.cancelled():
        fut.exception()


def _next_turn(waiting: OrderedDict[str, Any], running: dict[str, int], share: int) -> str | None:
    """Whose turn it is among ``waiting`` (in round-robin order): the first with nothing on a worker, else the first
    with fewer than ``share`` jobs there; ``None``: all have their share."""
    idle = (k for k in waiting if not running.get(k))
    busy = (k for k in waiting if running.get(k, 0) < share)
    return next(idle, None) or next(busy, None)


def _kill(pool: ProcessPoolExecutor, pid: int | None) -> None:
    """Kill a one-worker pool's process (it may be stuck in a search, or still starting) and shut the pool down."""
    pids = {pid} if pid is not None else set()
    pids.update(pool._processes or ())  # also a worker that has not reported its pid yet
    for p in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):  # already gone
            os.kill(p, signal.SIGTERM if os.name == "nt" else signal.SIGKILL)
    pool.shutdown(wait=False, cancel_futures=True)


def seed_for(table_seed: int, index: int, seat: int) -> int:
    """A reproducible seed for the agent deciding at history ``index``."""
    return random.Random(f"agent:{table_seed}:{index}:{seat}").getrandbits(32)
