"""The lab in the browser: ``/lab`` and ``/api/lab``. A designer starts a balance run (game, options, agents, number
of games), a variant sweep (the same, with options to vary and their values, and what "most balanced" means:
:func:`boardlab.lab.sweep.sweep`) or a search for the setting nearest a target (:func:`boardlab.lab.sweep.search`),
watches its progress, reads the report with its plots (or the sweep's table of paired differences and its most
balanced variant, or the search's rounds and its winner), lists past runs, sweeps and searches and opens sample
games in the replay viewer.

Runs never play on the game server's event loop or threads: each runs in a lab worker process of its own (at most
``BOARDLAB_LAB_RUNS`` at once, 1 by default); at most ``BOARDLAB_LAB_QUEUE`` more wait (4 by default), beyond which
a start is refused (503). A client may start ``BOARDLAB_LAB_PER_MINUTE`` runs a minute (6; a token bucket as for new
tables, :mod:`boardlab.server.limits`) and hold ``BOARDLAB_LAB_PER_CLIENT`` playing or waiting (2), of at most
``BOARDLAB_LAB_MAX_GAMES`` games (2000; a sweep's games of all its variants together), with agents bounded as table
seats are (:func:`boardlab.server.ai.check_server_agent`). A run has ``BOARDLAB_LAB_SECONDS`` of computing time (600):
past it, it stops and says so. The address that started a run may cancel it. A lab worker ends itself once its server
has gone (:func:`end_with_server`). Runs and sweeps share the workers, the queue, the quotas and the store.

Runs are stored in the server's own database (the lab's ``lab_`` tables, :mod:`boardlab.lab.store`), keyed by their
settings: asking for a finished run again shows it at once; a run the server lost (stopped mid-run) starts again when
asked for. The worker reports its progress to the store, which the page polls. A sweep is stored as ``boardlab sweep``
stores it (kind ``sweep``, every game as it finishes; a search as kind ``search`` with its rounds' games), so one cut
short resumes from its stored games.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import signal
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from ..agents import make_agent
from ..games import game_class, make
from ..lab.simulate import resolve_agents
from ..lab.store import RunInfo, RunStore, run_key
from ..lab.sweep import (
    DEFAULT_TARGET,
    MAX_GRID,
    MAX_SEARCH,
    METRIC_LABELS,
    RATES,
    goal_text,
    grid_table,
    metric_name,
    parse_values,
    plan_games,
    rounds_table,
    search_plan,
    sweep_plan,
    variant_label,
)
from .ai import check_server_agent, end_with_server, server_agents
from .errors import ApiError, bad_request, forbidden, not_found
from .limits import Buckets, Quotas, too_many
from .schemas import LabOut, LabRunOut, LabStartedOut, RecordOut

#: The most games a run may play (a sweep's or search's games of all its variants together); a server may allow
#: fewer (``BOARDLAB_LAB_MAX_GAMES``), never more.
MAX_GAMES = 2000


def _env_int(name: str, default: int) -> int:
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


def _env_float(name: str, default: float) -> float:
    try:
        value = float(os.environ.get(name, default))
    except ValueError:
        return default
    return value if math.isfinite(value) else default


class LabRunIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict, max_length=32)
    agents: list[str] = Field(default_factory=lambda: ["random"], max_length=8)
    #: Declared in the document; the lab checks it, saying why in its own words (and a server may allow fewer).
    games: int = Field(default=100, json_schema_extra={"minimum": 1, "maximum": MAX_GAMES})
    seed: int = Field(default=0, ge=0, le=2**62)
    players: int | None = Field(default=None, ge=1, le=16)


class LabSweepIn(BaseModel):
    """A variant sweep: ``vary`` maps option names to their values (a list, or text as on the command line:
    ``"5,7"``, ``"5..9"``); ``options`` fixes the others; ``games`` is per variant.

    ``mode``: ``"grid"`` plays every variant ``games`` times and names the one whose ``metric`` is nearest ``target``
    (``boardlab sweep --balanced METRIC=VALUE``); ``"target"`` searches for it by successive halving
    (``boardlab sweep --target METRIC=VALUE``; ``games`` is then the most a setting plays, ``start_games`` its
    first round's). ``metric``: one of :data:`boardlab.lab.sweep.METRICS` (``first_mover`` or ``first-mover``…);
    ``target``: a share 0-1 for a rate, a number of moves for a length (0.5 by default for ``first_mover``)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict, max_length=32)
    vary: dict[str, list[Any] | str] = Field(min_length=1, max_length=8)
    agents: list[str] = Field(default_factory=lambda: ["random"], max_length=8)
    games: int = Field(default=50, json_schema_extra={"minimum": 2, "maximum": MAX_GAMES})
    seed: int = Field(default=0, ge=0, le=2**62)
    players: int | None = Field(default=None, ge=1, le=16)
    mode: Literal["grid", "target"] = "grid"
    metric: str = Field(default="first_mover", max_length=32)
    target: float | None = None
    start_games: int | None = Field(default=None, ge=2)


def sweep_goal(metric: str, target: float | None) -> tuple[str, float]:
    """The request's metric and target, checked as ``boardlab sweep`` names them (the range: :func:`check_target`)."""
    name = metric_name(metric)
    if not name:
        known = ", ".join(f"{m} ({label})" for m, label in METRIC_LABELS.items())
        raise ValueError(f"unknown metric {metric!r}; known: {known}")
    if target is None:
        if name != DEFAULT_TARGET[0]:
            what = "a share between 0 and 1" if name in RATES else "a number of moves"
            raise ValueError(f"give the target {METRIC_LABELS[name]} ({what})")
        target = DEFAULT_TARGET[1]
    return name, float(target)


def vary_values(vary: dict[str, list[Any] | str], limit: int = MAX_GRID) -> dict[str, list[Any]]:
    """The sweep's values per option: text parsed as ``boardlab sweep --vary`` parses it; lists of plain values."""
    out: dict[str, list[Any]] = {}
    for name, values in vary.items():
        vs = parse_values(values) if isinstance(values, str) else values
        if not vs:
            raise ValueError(f"give at least one value of {name!r} to vary")
        if len(vs) > limit:
            raise ValueError(f"{len(vs)} values of {name!r} is more than {limit}")
        if any(isinstance(v, (dict, list)) or v is None for v in vs):
            raise ValueError(f"the values of {name!r} must be plain values (numbers, text, true or false)")
        out[name] = list(vs)
    return out


def lab_run(db_url: str | None, key: str, spec: dict[str, Any]) -> None:
    """In a lab worker process: run the balance report for ``spec`` and store it under ``key``."""
    store = RunStore(db_url)
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if done == total or now - last[0] >= 0.25:
            last[0] = now
            store.set_progress(key, done)

    try:
        from ..lab.balance import balance

        report = balance(
            spec["game"],
            options=spec["options"],
            agents=spec["agents"],
            games=spec["games"],
            players=spec["players"],
            seed=spec["seed"],
            progress=progress,
        )
        from ..lab.report import plots, tables

        summary = {
            "report": report.to_dict(),
            "tables": [[title, [list(r) for r in rows]] for title, rows in tables(report)],
            "plots": [{"caption": c, "png": png} for c, png in plots(report)],
        }
        store.finish(key, summary)
    except Exception as e:  # the page shows why
        store.fail(key, f"{type(e).__name__}: {e}")


class _HeldStore(RunStore):
    """The sweep worker's store: :func:`sweep` stores every game as it finishes, but the run is marked finished only
    once its sample games are played (so the page never shows a finished sweep without them)."""

    def finish(self, key: str, summary: Any = None) -> None:
        self.held = summary


def lab_sweep(db_url: str | None, key: str, spec: dict[str, Any]) -> None:
    """In a lab worker process: play the sweep ``spec`` (stored under ``key``), then game 1 of every variant (of a
    search: of its winner) again as its sample record (the same seeds, so the same game), and finish the run with
    the table (a grid's paired differences, a search's rounds) and the samples."""
    store = _HeldStore(db_url)
    try:
        from ..games import make_cached
        from ..lab.simulate import play_record
        from ..lab.sweep import search, sweep

        common = {
            "games": spec["games"],
            "agents": spec["agents"],
            "base_options": spec["options"],
            "players": spec["players"],
            "seed": spec["seed"],
            "metric": spec.get("metric", DEFAULT_TARGET[0]),
            "target": spec.get("target", DEFAULT_TARGET[1]),
            "store": store,
        }
        target = spec.get("mode") == "target"
        if target:
            result = search(spec["game"], spec["vary"], start_games=spec.get("start_games"), **common)
        else:
            result = sweep(spec["game"], spec["vary"], **common)
        d = result.to_dict()
        samples = []
        shown = result.variants
        if target:  # a search's candidates may be many: the winner's game
            shown = [] if result.best is None else [result.variants[result.best]]
        for v in shown:
            g = make_cached(spec["game"], **v.result.options)
            rec = play_record(g, v.result.num_players, list(v.result.agents), spec["seed"], 0)
            label = f"{variant_label(v.options)}: game 1"
            samples.append({"label": label, "length": len(rec.history), "record": rec.to_dict()})
        table = rounds_table(d) if target else grid_table(d)
        RunStore.finish(store, key, {**d, "table": table, "samples": samples})
    except Exception as e:  # the page shows why
        store.fail(key, f"{type(e).__name__}: {e}")


class OverBudget(BaseException):
    """Raised in a lab worker when its run has used its computing time (a ``BaseException``, so the run's own
    ``except Exception`` does not take it for a failure of the game)."""


def budget_message(seconds: float) -> str:
    """What a run stopped for its budget says (on the page, in the API)."""
    return (
        f"the run used its budget of {seconds:g} s of computing time and was stopped; "
        "ask for fewer games or cheaper agents"
    )


def lab_worker(fn: Any, db_url: str | None, key: str, spec: dict[str, Any], seconds: float, server: int) -> None:
    """A lab worker process's one run: ``fn(db_url, key, spec)`` within ``seconds`` of computing time (the
    process's CPU time; past it the run is stored as failed, saying why), ending itself if the server goes."""
    end_with_server(server)

    def over(signum: int, frame: Any) -> None:
        raise OverBudget

    signal.signal(signal.SIGPROF, over)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        fn(db_url, key, spec)
    except OverBudget:
        signal.setitimer(signal.ITIMER_PROF, 0)
        RunStore(db_url).fail(key, budget_message(seconds))
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)


@dataclass
class _Run:
    """A run the lab holds: waiting (no process yet) or playing in its own worker process."""

    key: str
    fn: Any
    spec: dict[str, Any]
    client: str
    pool: ProcessPoolExecutor | None = None
    future: Future[None] | None = None
    timer: threading.Timer | None = None


class Lab:
    """The lab's runs for one server: the store, the workers, the bound on waiting runs and each address's share."""

    def __init__(self, db_url: str | None, agent_seconds: float = 5.0, quotas: Quotas | None = None) -> None:
        quotas = quotas or Quotas()
        self.db_url = db_url
        self.store = RunStore(db_url)
        self.workers = max(1, _env_int("BOARDLAB_LAB_RUNS", 1))
        self.queue = max(0, _env_int("BOARDLAB_LAB_QUEUE", 4))
        self.max_games = min(MAX_GAMES, max(1, _env_int("BOARDLAB_LAB_MAX_GAMES", MAX_GAMES)))
        #: Runs one address may have playing or waiting at once (so one address never fills the lab).
        self.per_client = max(0, _env_int("BOARDLAB_LAB_PER_CLIENT", quotas.lab_runs_per_address))  # 0: no bound
        #: Seconds of computing time a run may use; past it the run stops, saying so (the server ends one that
        #: is still there after three times as long, e.g. a worker starved of the CPU).
        self.seconds = max(1.0, _env_float("BOARDLAB_LAB_SECONDS", 600.0))
        #: The bound on an agent's ``seconds=`` per move, as for table seats.
        self.agent_seconds = agent_seconds
        per_minute = _env_int("BOARDLAB_LAB_PER_MINUTE", quotas.lab_runs_per_minute)
        self.buckets = Buckets(per_minute / 60.0, max(1, per_minute // 2)) if per_minute > 0 else None
        self.waiting: dict[str, _Run] = {}  # in the order they came
        self.running: dict[str, _Run] = {}
        self.lock = threading.RLock()  # starts come from the server's threads, ends from the workers' watchers
        self.closed = False

    def close(self) -> None:
        """Stop the lab's workers with the server: a run cut short shows as stopped and starts again when asked."""
        with self.lock:
            self.closed = True
            self.waiting.clear()
            for run in list(self.running.values()):
                self._kill(run)
            self.running.clear()
        self.store.close()

    def _active(self) -> int:
        return len(self.running) + len(self.waiting)

    def holds(self, key: str) -> bool:
        """The run ``key`` is playing or waiting here."""
        return key in self.running or key in self.waiting

    def may_cancel(self, key: str, client: str) -> bool:
        """``client`` started the run ``key`` and it is playing or waiting: it may cancel it."""
        run = self.running.get(key) or self.waiting.get(key)
        return run is not None and run.client == client

    def cancel(self, key: str, client: str) -> RunInfo:
        """Cancel the run ``key`` that ``client`` started (waiting: it never starts; playing: its worker stops)."""
        with self.lock:
            run = self.running.get(key) or self.waiting.get(key)
            if run is None:
                raise ApiError(409, "not_running", "this run is not playing or waiting, so there is nothing to cancel")
            if run.client != client:
                raise forbidden("only the address that started a run may cancel it")
            if self.waiting.pop(key, None) is None:
                del self.running[key]
                self._kill(run)
            self.store.fail(key, "the run was cancelled by the person who started it", status="cancelled")
            self._dispatch()
        info = self.store.get(key)
        assert info is not None
        return info

    def _kill(self, run: _Run) -> None:
        if run.timer is not None:
            run.timer.cancel()
        if run.pool is not None:
            processes = list((run.pool._processes or {}).values())  # the executor has no public way to kill
            run.pool.shutdown(wait=False, cancel_futures=True)
            for proc in processes:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    proc.kill()

    def _dispatch(self) -> None:
        """Start waiting runs, oldest first, while a worker is free (each run in a worker process of its own)."""
        while not self.closed and self.waiting and len(self.running) < self.workers:
            key = next(iter(self.waiting))
            run = self.waiting.pop(key)
            from ..lab.runner import _mp_context

            run.pool = ProcessPoolExecutor(max_workers=1, mp_context=_mp_context(run.fn))
            run.future = run.pool.submit(lab_worker, run.fn, self.db_url, key, run.spec, self.seconds, os.getpid())
            run.timer = threading.Timer(3 * self.seconds, self._overtime, args=(run,))
            run.timer.daemon = True
            run.timer.start()
            self.running[key] = run
            run.future.add_done_callback(lambda _f, r=run: self._ended(r))

    def _ended(self, run: _Run) -> None:
        """A worker's run ended (finished, failed, or its process was killed): start the next one."""
        with self.lock:
            if self.running.get(run.key) is run:
                del self.running[run.key]
                if run.timer is not None:
                    run.timer.cancel()
                if run.pool is not None:
                    run.pool.shutdown(wait=False)
            self._dispatch()

    def _overtime(self, run: _Run) -> None:
        """A run still playing long past its budget (its worker starved of the CPU, or stuck): stop it."""
        with self.lock:
            if self.running.get(run.key) is not run:
                return
            del self.running[run.key]
            self._kill(run)
            self.store.fail(run.key, budget_message(self.seconds))
            self._dispatch()

    def start(self, body: LabRunIn, client: str) -> tuple[RunInfo, bool]:
        """Start (or find) the run ``body`` asks for: ``(run, started)``. Bad input is a 400, before any work."""
        with self.lock:
            return self._start(body, client)

    def _start(self, body: LabRunIn, client: str) -> tuple[RunInfo, bool]:
        if not 1 <= body.games <= self.max_games:
            raise bad_request(f"games must lie between 1 and {self.max_games}; got {body.games}")
        try:
            g = make(body.game, **body.options)
            n = g.resolve_num_players(body.players)
            specs = resolve_agents(body.agents, n)
            for p, spec in enumerate(specs):
                make_agent(spec, g, p, 0)
            self._check_agents(specs)
        except ValueError as e:
            raise bad_request(str(e)) from None
        spec = {
            "game": g.id,
            "options": dict(g.params),
            "rules_version": g.rules_version,
            "agents": specs,
            "games": body.games,
            "seed": body.seed,
            "players": n,
        }
        return self._queue("balance", run_key("balance", spec), spec, spec, body.games, lab_run, client)

    def _check_agents(self, specs: list[str]) -> None:
        """The bounds of table seats hold in the lab: named levels and cheap agents, budgets within the server's."""
        for spec in specs:
            try:
                check_server_agent(spec.strip(), self.agent_seconds)
            except ValueError as e:
                raise ValueError(f"{e}; available: {', '.join(server_agents()['all'])}") from None

    def start_sweep(self, body: LabSweepIn, client: str) -> tuple[RunInfo, bool]:
        """Start (or find) the sweep ``body`` asks for: ``(run, started)``. Bad input is a 400, before any work."""
        with self.lock:
            return self._start_sweep(body, client)

    def _start_sweep(self, body: LabSweepIn, client: str) -> tuple[RunInfo, bool]:
        if not 2 <= body.games <= self.max_games:
            raise bad_request(f"a sweep plays between 2 and {self.max_games} games per variant; got {body.games}")
        search = body.mode == "target"
        if not search and body.start_games is not None:
            raise bad_request("start_games is a search's first round; a grid (mode grid) plays every variant's games")
        if search and body.start_games is not None and body.start_games > body.games:
            raise bad_request(f"a search's first round plays at most its {body.games} games; got {body.start_games}")
        try:
            self._check_agents(body.agents)
            vary = vary_values(body.vary, MAX_SEARCH if search else MAX_GRID)
            for name in vary:
                if name in body.options:
                    raise ValueError(f"option {name!r} is both fixed and varied")
            metric, target = sweep_goal(body.metric, body.target)
            spec = {
                "game": body.game,
                "options": dict(body.options),
                "vary": vary,
                "agents": list(body.agents),
                "games": body.games,
                "seed": body.seed,
                "players": body.players,
                "mode": body.mode,
                "metric": metric,
                "target": target,
                "start_games": body.start_games,
            }
            kw: dict[str, Any] = {
                "games": body.games,
                "agents": body.agents,
                "base_options": body.options,
                "players": body.players,
                "seed": body.seed,
                "metric": metric,
                "target": target,
            }
            if search:
                key, params = search_plan(body.game, vary, start_games=body.start_games, **kw)
            else:
                key, params = sweep_plan(body.game, vary, **kw)
        except ValueError as e:
            raise bad_request(str(e)) from None
        n = len(params["variants"])
        if search:
            total = plan_games(params["plan"])
            if total > self.max_games:
                raise bad_request(
                    f"a search's games together must be at most {self.max_games}; {n} settings of up to "
                    f"{body.games} games are {total} by successive halving"
                )
            return self._queue("search", key, params, spec, total, lab_sweep, client)
        total = n * body.games
        if total > self.max_games:
            raise bad_request(
                f"a sweep's games together must be at most {self.max_games}; {n} variants "
                f"of {body.games} games are {total}"
            )

        # a grid stored before the metric was part of the key may hold another metric's verdict: summed up afresh
        # from its stored games (none played again)
        def reuse(info: RunInfo) -> bool:
            d = info.summary or {}
            return (d.get("metric", DEFAULT_TARGET[0]), d.get("target", DEFAULT_TARGET[1])) == (metric, target)

        return self._queue("sweep", key, params, spec, total, lab_sweep, client, reuse)

    def _queue(
        self,
        kind: str,
        key: str,
        params: dict[str, Any],
        spec: dict[str, Any],
        total: int,
        fn: Any,
        client: str,
        reuse: Any = None,
    ) -> tuple[RunInfo, bool]:
        """Find the run ``key`` or start ``fn(db_url, key, spec)`` in a lab worker, within the quota and the queue
        (a finished run is shown unless ``reuse(run)`` says it must be run again)."""
        known = self.store.get(key)
        finished = known is not None and known.status == "finished" and (reuse is None or reuse(known))
        if known is not None and (finished or self.holds(key)):
            return known, False
        mine = sum(r.client == client for r in (*self.running.values(), *self.waiting.values()))
        if self.per_client and mine >= self.per_client:
            raise ApiError(
                429,
                "rate_limited",
                f"this address already has {mine} lab runs playing or waiting, the most it may; "
                "wait for one to finish or cancel one",
            )
        if self.buckets is not None:
            wait = self.buckets.take(client)
            if wait is not None:
                raise too_many("lab runs", wait)
        if self._active() >= self.workers + self.queue:
            raise ApiError(503, "lab_busy", "the lab is busy with other runs; try again when one has finished")
        if known is None:
            self.store.open_run(key, kind=kind, params=params, total=total)
        else:
            self.store.restart(key)
        self.waiting[key] = _Run(key, fn, spec, client)
        self._dispatch()
        info = self.store.get(key)
        assert info is not None
        return info, True

    def describe(self, info: RunInfo, *, full: bool = False, client: str | None = None) -> dict[str, Any]:
        if info.status == "running" and not self.holds(info.key):
            # read while it ran, its worker may have ended since (it stores its result before it ends): read again
            info = self.store.get(info.key) or info
        d = info.to_dict()
        if info.status == "running" and not self.holds(info.key):
            d["status"] = "stopped"  # the server stopped during the run: asking for it again starts it again
        d["waiting"] = info.key in self.waiting  # for a free worker (its status is running)
        d["cancellable"] = client is not None and self.may_cancel(info.key, client)
        summary = info.summary or {}
        d["error"] = summary.get("error")
        if info.kind in ("sweep", "search"):
            return _describe_sweep(d, info, summary, full)
        report = summary.get("report")
        d["verdict"] = report.get("verdict") if report else None
        d["title"] = report.get("title") if report else _title(info.params.get("game", ""))
        if full and report:
            d["report"] = {k: v for k, v in report.items() if k != "samples"}
            d["samples"] = [
                {"index": i, "label": s["label"], "length": s.get("length")} for i, s in enumerate(report["samples"])
            ]
            d["tables"] = summary.get("tables", [])
            d["plots"] = summary.get("plots", [])
        return d


def lab_routes(
    db_url: str | None, page: Any, client_of: Any, agent_seconds: float = 5.0, quotas: Quotas | None = None
) -> tuple[APIRouter, Lab]:
    """The lab's router (``/lab``, ``/api/lab…``) and its :class:`Lab` (close it when the server stops);
    ``agent_seconds`` bounds an agent's ``seconds=`` as for table seats, ``quotas`` gives each address's share."""
    lab = Lab(db_url, agent_seconds, quotas)
    router = APIRouter()

    async def blocking(fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(None, fn, *args)

    def found(key: str) -> RunInfo:
        info = lab.store.get(key)
        if info is None or not shown(info):
            raise not_found(f"no lab run {key!r}")
        return info

    def listed() -> list[RunInfo]:
        runs = [r for kind in ("balance", "sweep", "search") for r in lab.store.runs(kind=kind, limit=50)]
        return sorted((r for r in runs if shown(r)), key=lambda r: -r.created_at)[:50]

    @router.get("/lab", include_in_schema=False)
    async def lab_page() -> HTMLResponse:
        return page("lab.html")

    @router.get("/api/lab", response_model=LabOut)
    async def list_runs(request: Request) -> Response:
        """The lab's past runs (newest first), its limits and the metrics a sweep may aim at. ``cancellable``: this
        address started the run and it is playing or waiting."""
        runs = await blocking(listed)
        client = client_of(request)
        return _json(
            {
                "runs": [lab.describe(r, client=client) for r in runs],
                "max_games": lab.max_games,
                "max_runs": lab.workers,
                "runs_per_address": lab.per_client,
                "run_seconds": lab.seconds,
                "metrics": METRIC_CHOICES,
            }
        )

    def start_answers(what: str) -> dict[int | str, dict[str, Any]]:
        """The answers of a start besides 201 (started): 200, that ``what`` is stored already; 503, the lab is full."""
        return {
            200: {
                "model": LabStartedOut,
                "description": f"That {what} is already stored (finished, or playing now): shown, not started again",
            },
            503: {"description": "The lab is busy with as many runs as it may hold: retry when one has finished"},
        }

    async def start(fn: Any, body: Any, request: Request) -> Response:
        client = client_of(request)
        info, started = await blocking(fn, body, client)
        return _json({**lab.describe(info, client=client), "started": started}, 201 if started else 200)

    @router.post("/api/lab/runs", status_code=201, response_model=LabStartedOut, responses=start_answers("run"))
    async def start_run(body: LabRunIn, request: Request) -> Response:
        return await start(lab.start, body, request)

    @router.post("/api/lab/sweeps", status_code=201, response_model=LabStartedOut, responses=start_answers("sweep"))
    async def start_sweep(body: LabSweepIn, request: Request) -> Response:
        """Start a variant sweep or a target search; read it (status, progress, table, verdict, samples) at
        ``/api/lab/runs/{key}``."""
        return await start(lab.start_sweep, body, request)

    @router.get("/api/lab/runs/{key}", response_model=LabRunOut)
    async def get_run(key: str, request: Request) -> Response:
        info = await blocking(found, key)
        return _json(lab.describe(info, full=True, client=client_of(request)))

    @router.post(
        "/api/lab/runs/{key}/cancel",
        response_model=LabRunOut,
        responses={409: {"description": "The run is not playing or waiting: nothing to cancel"}},
    )
    async def cancel_run(key: str, request: Request) -> Response:
        """Cancel a run (balance, sweep or search) this address started: waiting, it never starts; playing, its
        worker stops (the games it stored stay, so asking for it again carries on from them)."""
        await blocking(found, key)
        client = client_of(request)
        info = await blocking(lab.cancel, key, client)
        return _json(lab.describe(info, client=client))

    @router.get("/api/lab/runs/{key}/samples/{index}", response_model=RecordOut)
    async def get_sample(key: str, index: int) -> Response:
        info = await blocking(found, key)
        summary = info.summary or {}
        samples = (summary.get("report") or summary).get("samples") or []
        if not 0 <= index < len(samples):
            raise not_found(f"run {key} has no sample game {index}")
        return _json(samples[index]["record"])

    return router, lab


def shown(info: RunInfo) -> bool:
    """A balance run, a grid sweep or a search (a search's rounds are stored as sweeps too, but not shown)."""
    if info.kind in ("balance", "search"):
        return True
    return info.kind == "sweep" and "variants" in info.params and "games" in info.params


#: The metrics a sweep may aim at, for the page's chooser: name, label for players, rate (a share) or moves, default.
METRIC_CHOICES = [
    {"name": m, "label": label, "rate": m in RATES, "default": DEFAULT_TARGET[1] if m == DEFAULT_TARGET[0] else None}
    for m, label in METRIC_LABELS.items()
]


def _describe_sweep(d: dict[str, Any], info: RunInfo, summary: dict[str, Any], full: bool) -> dict[str, Any]:
    """A sweep or search as the page shows it: what it varies and aims at, its verdict; in full, its table (a grid's
    paired differences, a search's rounds), caveat, winner and sample games. A search also says its rounds' plan and
    the round it is playing."""
    p = info.params
    variants: list[dict[str, Any]] = p.get("variants") or []
    varied = summary.get("varied") or [
        k for k in (variants[0] if variants else {}) if len({repr(v.get(k)) for v in variants}) > 1
    ]
    metric = summary.get("metric") or p.get("metric", DEFAULT_TARGET[0])  # a grid stored before it was in the key
    target = summary.get("target", p.get("target", DEFAULT_TARGET[1]))
    d["title"] = _title(p.get("game", ""))
    d["verdict"] = summary.get("verdict")
    d["sweep"] = {
        "mode": "target" if info.kind == "search" else "grid",
        "varied": varied,
        "variants": [variant_label({k: v.get(k) for k in varied}) for v in variants],
        "games_each": p.get("games"),
        "metric": metric,
        "metric_label": METRIC_LABELS.get(metric, metric),
        "target": target,
        "goal": goal_text(metric, target) if metric in METRIC_LABELS else None,
    }
    if info.kind == "search":
        plan = [tuple(r) for r in p.get("plan") or []]
        ends = [plan_games(plan[: j + 1]) for j in range(len(plan))]
        d["sweep"]["plan"] = [{"candidates": a, "games": g} for a, g in plan]
        d["sweep"]["round"] = next((j for j, end in enumerate(ends) if info.done < end), len(plan) - 1)
    if full and ("comparisons" in summary or "rounds" in summary):  # finished (`boardlab sweep` stores no samples)
        table = summary.get("table") or (rounds_table(summary) if info.kind == "search" else grid_table(summary))
        best = summary.get("best")
        d["sweep"].update(
            table=table,
            caveat=summary.get("caveat"),
            best=best,
            best_options=summary.get("best_options"),
            base_options=summary.get("base_options"),
        )
        if info.kind == "search":
            won = summary["variants"][best] if best is not None else None
            d["sweep"]["winner"] = won and {
                "label": variant_label(won["options"]),
                "options": won["options"],
                "value": won["value"],
                "ci95": [c if math.isfinite(c) else None for c in won["ci95"]],  # JSON has no infinity
                "games": won["result"]["finished"],
            }
        d["samples"] = [
            {"index": i, "label": s["label"], "length": s.get("length")}
            for i, s in enumerate(summary.get("samples", []))
        ]
    return d


def _title(game_id: str) -> str:
    try:
        return game_class(game_id).title
    except (KeyError, ValueError):
        return game_id


def _json(data: Any, status: int = 200) -> Response:
    import json

    return Response(json.dumps(data), status_code=status, media_type="application/json")
