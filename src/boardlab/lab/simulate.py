"""Simulate many games between agents and summarise them: the engine behind ``boardlab simulate``.

Every game ``i`` of a run gets its own seed, derived from the run's seed and
``i`` alone (:func:`game_seed`): chance and every agent draw from generators
seeded from it. So a run is reproducible, and its results do not depend on how
many worker processes played it.

>>> r = simulate("blast-radius", games=10, agents=["random"], options={"board_side": 5}, seed=3)
>>> r2 = simulate("blast-radius", games=10, agents=["random"], options={"board_side": 5}, seed=3, workers=2)
>>> r.to_dict() == r2.to_dict()
True

Statistics (see :class:`SimulationResult`): a seat *wins* a game when its
return is positive (in a cooperative game every seat wins a shared win); a
*draw* is a game whose returns are all zero; a game stopped by the safety cap
(``max_game_length``) is *capped* and counts as no result at all. A game's
*length* is its number of history entries (plies, chance outcomes and joint
simultaneous moves included); length statistics cover the finished games.
"""

from __future__ import annotations

import hashlib
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from ..agents import make_agent
from ..core.constants import SIMULTANEOUS
from ..core.driver import agents_choose, play
from ..core.game import Game, State
from ..core.record import GameRecord, outcome
from ..games import make, make_cached
from .runner import BACKENDS, WorkerModules, ray_installed, run_jobs
from .stats import wilson

if TYPE_CHECKING:
    from .store import RunStore

Progress = Callable[[int, int], None]


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval (95% by default) for a proportion ``successes / trials``.

    >>> lo, hi = wilson_interval(51, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.413, 0.606)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    return wilson(successes, trials, z)


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a run seeded with ``seed`` (63 bits, stable across platforms)."""
    digest = hashlib.sha256(f"boardlab-simulate/{seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def _agent_seed(seed: int, seat: int) -> int:
    digest = hashlib.sha256(f"boardlab-agent/{seed}/{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass
class GameSummary:
    """One simulated game: its seed, length and result (``returns`` is ``None`` when capped)."""

    index: int
    seed: int
    length: int
    capped: bool
    returns: list[float] | None
    winners: list[int]
    draw: bool
    #: The seat that took the first seat decision, or ``None`` (the first decision was simultaneous).
    first_mover: int | None


@dataclass
class SimulationResult:
    """Aggregated statistics of a run; :meth:`to_dict` is what ``boardlab simulate --json`` prints."""

    game: str
    options: dict[str, Any]
    num_players: int
    agents: list[str]
    seed: int
    games: int
    wins: list[int]
    draws: int
    #: Finished games with neither a winner nor a draw (e.g. a cooperative loss).
    no_winner: int
    capped: int
    lengths: list[int]
    first_mover_wins: int
    #: Finished games that had a first mover (the denominator of the first-mover rate).
    first_mover_games: int
    seconds: float = 0.0
    summaries: list[GameSummary] = field(default_factory=list)

    @property
    def finished(self) -> int:
        return self.games - self.capped

    @property
    def win_rates(self) -> list[float | None]:
        return [w / self.finished if self.finished else None for w in self.wins]

    @property
    def win_intervals(self) -> list[tuple[float, float]]:
        return [wilson_interval(w, self.finished) for w in self.wins]

    @property
    def first_mover_win_rate(self) -> float | None:
        return self.first_mover_wins / self.first_mover_games if self.first_mover_games else None

    @property
    def first_mover_interval(self) -> tuple[float, float]:
        return wilson_interval(self.first_mover_wins, self.first_mover_games)

    @property
    def mean_length(self) -> float | None:
        return statistics.fmean(self.lengths) if self.lengths else None

    @property
    def median_length(self) -> float | None:
        return float(statistics.median(self.lengths)) if self.lengths else None

    @property
    def max_length(self) -> int | None:
        return max(self.lengths) if self.lengths else None

    @property
    def min_length(self) -> int | None:
        return min(self.lengths) if self.lengths else None

    @classmethod
    def from_games(
        cls,
        game: str,
        options: dict[str, Any],
        num_players: int,
        agents: list[str],
        seed: int,
        summaries: Sequence[GameSummary],
        *,
        seconds: float = 0.0,
        keep_games: bool = False,
    ) -> SimulationResult:
        """Aggregate the games of a run."""
        wins = [0] * num_players
        draws = no_winner = capped = fm_wins = fm_games = 0
        lengths: list[int] = []
        for s in summaries:
            if s.capped:
                capped += 1
                continue
            lengths.append(s.length)
            for w in s.winners:
                wins[w] += 1
            if s.draw:
                draws += 1
            elif not s.winners:
                no_winner += 1
            if s.first_mover is not None:
                fm_games += 1
                fm_wins += s.first_mover in s.winners
        return cls(
            game=game,
            options=dict(options),
            num_players=num_players,
            agents=list(agents),
            seed=seed,
            games=len(summaries),
            wins=wins,
            draws=draws,
            no_winner=no_winner,
            capped=capped,
            lengths=lengths,
            first_mover_wins=fm_wins,
            first_mover_games=fm_games,
            seconds=seconds,
            summaries=list(summaries) if keep_games else [],
        )

    def to_dict(self, include_games: bool = False) -> dict[str, Any]:
        """JSON-able statistics (no timing, so equal runs give equal dicts)."""
        d: dict[str, Any] = {
            "game": self.game,
            "options": dict(self.options),
            "num_players": self.num_players,
            "agents": list(self.agents),
            "seed": self.seed,
            "games": self.games,
            "finished": self.finished,
            "wins": list(self.wins),
            "win_rates": self.win_rates,
            "win_ci95": [list(ci) for ci in self.win_intervals],
            "draws": self.draws,
            "no_winner": self.no_winner,
            "capped": self.capped,
            "mean_length": self.mean_length,
            "median_length": self.median_length,
            "min_length": self.min_length,
            "max_length": self.max_length,
            "first_mover_wins": self.first_mover_wins,
            "first_mover_games": self.first_mover_games,
            "first_mover_win_rate": self.first_mover_win_rate,
            "first_mover_ci95": list(self.first_mover_interval),
        }
        if include_games:
            d["per_game"] = [asdict(s) for s in self.summaries]
        return d


def resolve_agents(specs: Sequence[str], num_players: int) -> list[str]:
    """One agent spec per seat: a single spec plays every seat; otherwise exactly one per seat."""
    specs = [s.strip() for s in specs if s.strip()]
    if not specs:
        raise ValueError("give at least one agent spec (e.g. random)")
    if len(specs) == 1:
        return specs * num_players
    if len(specs) != num_players:
        raise ValueError(f"{len(specs)} agents given for {num_players} seats; give one per seat, or one for all")
    return specs


def _played(game: Game, num_players: int, agents: Sequence[str], seed: int, index: int) -> tuple[State, bool, int]:
    """Game ``index`` of a run seeded ``seed``, played: ``(final state, capped, the game's seed)``."""
    gs = game_seed(seed, index)
    players = [make_agent(spec, game, p, _agent_seed(gs, p)) for p, spec in enumerate(agents)]
    state = game.new_initial_state(num_players)
    capped = play(state, agents_choose(players), random.Random(gs)) == "capped"
    return state, capped, gs


def play_record(game: Game, num_players: int, agents: Sequence[str], seed: int, index: int) -> GameRecord:
    """Game ``index`` of a run seeded ``seed`` as a record: the very game :func:`play_one` plays (same seeds)."""
    state, _, _ = _played(game, num_players, agents, seed, index)
    return GameRecord.from_state(state, list(agents))


def play_one(game: Game, num_players: int, agents: Sequence[str], seed: int, index: int) -> GameSummary:
    """Play game ``index`` of a run seeded ``seed`` to the end (or the safety cap)."""
    state, capped, gs = _played(game, num_players, agents, seed, index)
    first = next((a for a in state.actors() if a >= 0 or a == SIMULTANEOUS), None)
    first_mover = first if first is not None and first >= 0 else None
    if capped:
        return GameSummary(index, gs, state.move_number(), True, None, [], False, first_mover)
    res = outcome(state.returns())
    return GameSummary(index, gs, state.move_number(), False, res["returns"], res["winners"], res["draw"], first_mover)


class _GameRef(WorkerModules):
    """A game for the runner's jobs: the object itself in this process, its id and options when sent to a worker."""

    def __init__(self, game: Game) -> None:
        self.game = game
        #: Imported by the worker processes' fork server before they start (see :func:`runner._mp_context`).
        self.worker_modules = (type(game).__module__,)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_cached_ref, (self.game.id, dict(self.game.params)))


def _cached_ref(game_id: str, options: dict[str, Any]) -> _GameRef:
    return _GameRef(make_cached(game_id, **options))  # one game object per worker process


def play_job(ref: _GameRef, num_players: int, agents: list[str], seed: int, index: int) -> dict[str, Any]:
    """The runner's job for game ``index`` of a run: its :class:`GameSummary` as a JSON-able dict."""
    return asdict(play_one(ref.game, num_players, agents, seed, index))


def simulate(
    game: str | Game,
    games: int,
    agents: Sequence[str] = ("random",),
    *,
    options: Mapping[str, Any] | None = None,
    num_players: int | None = None,
    seed: int | None = None,
    workers: int = 1,
    progress: Progress | None = None,
    keep_games: bool = False,
    backend: str = "local",
    ray_address: str | None = None,
    store: RunStore | str | None = None,
    run_key: str | None = None,
    notice: Callable[[str], None] | None = None,
) -> SimulationResult:
    """Play ``games`` games between ``agents`` and summarise them.

    ``game`` is a game id (with ``options``) or a :class:`Game`. ``agents`` is
    one spec per seat, or a single spec for every seat. ``seed=None`` picks a
    seed, reported in the result. ``workers > 1`` plays on that many local
    processes (same results). ``progress(done, total)`` is called as games
    finish. ``keep_games`` keeps every game's :class:`GameSummary`.
    ``backend="ray"`` plays the games as Ray tasks instead (on the cluster at
    ``ray_address``, or the Ray instance running here, else a local one it
    starts, which ``notice(text)`` is told); results are identical, since
    every game's seed depends only on ``seed`` and its index.
    With ``store`` (a :class:`~boardlab.lab.store.RunStore` or database URL)
    every finished game is stored under ``run_key`` (default: a key made from
    the run's settings, :func:`simulate_key`), and a rerun plays only the
    games not stored yet (see :mod:`boardlab.lab.runner`).
    Bad arguments raise ``ValueError`` before any game is played.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; known backends: {', '.join(BACKENDS)}")
    if isinstance(game, Game):
        if options:
            raise ValueError("pass options either with the game id or inside the Game, not both")
        g = game
    else:
        g = make(game, **dict(options or {}))
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"the number of games must be a positive integer; got {games!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer; got {workers!r}")
    if backend == "ray" and not ray_installed():  # imported only once games are being played (lab.runner)
        raise ValueError("the ray backend needs Ray: pip install 'boardlab[ray]'")
    n = g.resolve_num_players(num_players)
    specs = resolve_agents(list(agents), n)
    for p, spec in enumerate(specs):  # fail early, naming the bad spec
        make_agent(spec, g, p, 0)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    elif isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"the seed must be an integer; got {seed!r}")

    started = time.perf_counter()
    if store is not None:
        from .store import RunStore

        store = RunStore(store) if isinstance(store, str) else store
        params = simulate_params(g, n, specs, seed, games)
        run_key = run_key or simulate_key(params)
        store.open_run(run_key, kind="simulate", params=params, total=games)
    fn = partial(play_job, _GameRef(g), n, specs, seed)
    done = run_jobs(
        fn,
        range(games),
        workers=workers,
        backend=backend,
        address=ray_address,
        progress=progress,
        store=store,
        run_key=run_key,
        notice=notice,
    )
    summaries = [GameSummary(**d) for d in done]
    elapsed = time.perf_counter() - started

    result = SimulationResult.from_games(
        g.id, dict(g.params), n, specs, seed, summaries, seconds=elapsed, keep_games=keep_games
    )
    if store is not None:
        store.finish(run_key, result.to_dict())  # type: ignore[arg-type, union-attr]
    return result


def simulate_params(game: Game, num_players: int, agents: list[str], seed: int, games: int) -> dict[str, Any]:
    """What identifies a simulation run (a stored run is resumed only with all of these the same)."""
    return {
        "game": game.id,
        "options": dict(game.params),
        "rules_version": game.rules_version,
        "num_players": num_players,
        "agents": list(agents),
        "seed": seed,
        "games": games,
    }


def simulate_key(params: Mapping[str, Any]) -> str:
    """The default stored-run key of a simulation with these :func:`simulate_params`."""
    from .store import run_key

    return run_key("simulate", params)
