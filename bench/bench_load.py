"""Load: many concurrent online games played over HTTP and WebSocket by scripted clients on loopback.

A server runs in a child process (``python -m boardlab.server`` on 127.0.0.1,
a fresh SQLite database in a temporary directory, each move committed before
it is acknowledged). Every game is an online Blast Radius table (board side 5)
with two scripted players. Each player holds a WebSocket; when its view says
it is to move, it "thinks" for a random time (the pace, see :func:`run`), then
sends a random legal move on its socket, exactly as the browser does (``--http``:
as ``POST /api/tables/{id}/moves``). When a game ends its players start a new
one, so the number of games in play stays constant.

Reported per run: moves played, moves per second, the move round trip (move
sent → acknowledgement with the new view received) at p50/p99/max, the time
until the opponent's WebSocket shows the move, errors (any refused request,
dropped socket or missing update), and the longest garbage-collection pause of
the client process. Goal: p99 under 50 ms with 200 concurrent games, 0 errors.

The scripted players of all games share this one Python process, where real
players each have their own browser; so that the client's own garbage
collections (full ones took up to 190 ms with 400 sockets' worth of objects)
do not show up as server latency, the client freezes its start-up objects and
raises the collection thresholds during a run, as the server does.

``--postgres N``: instead, N server processes (``python -m boardlab.server``, one port each) share one
throwaway PostgreSQL (``tests/pg_cluster.py``; its binaries and psycopg must be installed), and the two
players of each game hold their sockets on *different* processes, so every move reaches the opponent
through the database's ``NOTIFY`` and the other process's refresh (the worst case of a deployment behind
a proxy). Server CPU is then the sum over the server processes (PostgreSQL's own is not counted).

``python bench/bench_load.py [--quick] [--games N] [--seconds S] [--think MIN MAX] [--http] [--postgres N]``
runs it alone.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import pathlib
import random
import resource
import sys
import tempfile
import time
from typing import Any

from websockets.asyncio.client import connect

from boardlab.server.launch import ServerProcess

GAME = {"game": "blast-radius", "options": {"board_side": 5}, "mode": "online"}
#: Seconds a scripted player "thinks" before each move (uniform); see the paces in :func:`run`.
HUMAN = (2.0, 4.0)
BRISK = (0.5, 1.5)


class Http:
    """A minimal keep-alive HTTP/1.1 client for JSON requests (one connection per player, like a browser tab).

    httpx spends more time managing its pool than the server spends on a move
    at this concurrency, which would measure the client instead of the server.
    """

    def __init__(self, base: str) -> None:
        rest = base.split("://", 1)[1]
        self.host, _, port = rest.partition(":")
        self.port = int(port or 80)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, bytes]:
        if self.writer is None or self.reader is None or self.reader.at_eof():
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        data = json.dumps(body).encode() if body is not None else b""
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Length: {len(data)}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        self.writer.write(head.encode() + b"\r\n" + data)
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            k, _, v = line.partition(b":")
            if k.strip().lower() == b"content-length":
                length = int(v)
        payload = await self.reader.readexactly(length)
        return status, payload

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None


class Stats:
    """What the clients saw (a plain class: bench/run.py loads this file without registering a module)."""

    def __init__(self, measure_from: float = 0.0) -> None:
        #: perf_counter time from which moves count (after the warm-up)
        self.measure_from = measure_from
        self.moves_total = 0
        self.ws_messages = 0
        self.ws_bytes = 0
        self.rtt: list[float] = []
        self.seen: list[float] = []
        self.errors: list[str] = []
        self.games_finished = 0
        self.games_started = 0


class Player:
    def __init__(self, game: Game, seat: int, token: str, base: str) -> None:
        self.game = game
        self.seat = seat
        self.token = token
        self.base = base
        self.view: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.http = Http(base)
        self.acks: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.next_id = 0

    async def listen(self, ws: Any) -> None:
        async for raw in ws:
            self.game.stats.ws_messages += 1
            self.game.stats.ws_bytes += len(raw)
            msg = json.loads(raw)
            kind = msg.get("type")
            if kind == "ack":
                fut = self.acks.pop(msg.get("id"), None)
                if fut is not None and not fut.done():
                    fut.set_result(msg)
            elif kind == "view":
                v = msg["view"]
                if self.view is None or v["revision"] >= self.view["revision"]:
                    self.view = v
                    self.game.on_seen(self.seat, v["revision"])
                    self.changed.set()

    async def send_move(self, ws: Any, action: int, revision: int) -> tuple[bool, str]:
        """Play a move over the WebSocket (as the browser does) or over HTTP; ``(accepted, error)``."""
        g = self.game
        if g.http_moves:
            status, payload = await self.http.request(
                "POST", f"/api/tables/{g.id}/moves?view=false", {"action": action, "revision": revision}, self.token
            )
            return status == 200, "" if status == 200 else f"{status} {payload[:120]!r}"
        self.next_id += 1
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.acks[self.next_id] = fut
        await ws.send(
            json.dumps({"type": "move", "id": self.next_id, "seat": self.seat, "action": action, "revision": revision})
        )
        ack = await asyncio.wait_for(fut, timeout=30)
        return bool(ack.get("ok")), "" if ack.get("ok") else f"{ack.get('status')} {ack.get('message')}"

    async def play(self, deadline: float) -> None:
        g = self.game
        url = self.base.replace("http", "ws", 1) + f"/api/tables/{g.id}/ws"
        async with connect(url, max_size=2**22, open_timeout=30, compression=None) as ws:
            await ws.send(json.dumps({"type": "hello", "tokens": [self.token]}))
            listener = asyncio.ensure_future(self.listen(ws))
            try:
                while time.monotonic() < deadline:
                    v = self.view
                    if v is not None and v["terminal"]:
                        return
                    if v is None or not v["your_turn"]:
                        self.changed.clear()
                        try:
                            await asyncio.wait_for(self.changed.wait(), timeout=15)
                        except TimeoutError:
                            if time.monotonic() < deadline and not (self.view and self.view["terminal"]):
                                g.stats.errors.append(f"table {g.id} seat {self.seat}: no update for 15 s")
                            return
                        continue
                    await asyncio.sleep(g.rng.uniform(*g.think))
                    if time.monotonic() >= deadline:
                        return
                    action = g.rng.choice(v["legal"])[0]
                    g.sent[v["revision"] + 1] = (time.perf_counter(), self.seat)
                    t0 = time.perf_counter()
                    ok, error = await self.send_move(ws, action, v["revision"])
                    dt = time.perf_counter() - t0
                    if not ok:
                        g.stats.errors.append(f"table {g.id}: move refused {error}")
                        return
                    g.stats.moves_total += 1
                    if t0 >= g.stats.measure_from:
                        g.stats.rtt.append(dt)
                    while self.view is v:  # over HTTP without a view, wait for the socket's
                        self.changed.clear()
                        await asyncio.wait_for(self.changed.wait(), timeout=15)
            finally:
                listener.cancel()
                await self.http.close()


class Game:
    def __init__(
        self,
        bases: list[str],
        stats: Stats,
        rng: random.Random,
        think: tuple[float, float],
        http_moves: bool = False,
    ) -> None:
        #: The servers: the table is made on the first, seat ``s`` plays on ``bases[s % len(bases)]``.
        self.bases = bases
        base = bases[0]
        self.base = base
        self.think = think
        self.http_moves = http_moves
        self.http = Http(base)
        self.stats = stats
        self.rng = rng
        self.id = ""
        #: revision → (time the move leading to it was sent, seat that sent it)
        self.sent: dict[int, tuple[float, int]] = {}

    def on_seen(self, seat: int, revision: int) -> None:
        """The opponent's socket shows ``revision``: record how long after the move was sent."""
        sent = self.sent.get(revision)
        if sent is not None and sent[1] != seat:
            del self.sent[revision]
            if sent[0] >= self.stats.measure_from:
                self.stats.seen.append(time.perf_counter() - sent[0])

    async def run(self, deadline: float) -> None:
        while time.monotonic() < deadline:
            status, payload = await self.http.request("POST", "/api/tables", GAME)
            if status != 201:
                self.stats.errors.append(f"create refused {status} {payload[:120]!r}")
                await asyncio.sleep(1)
                continue
            d = json.loads(payload)
            self.id = d["id"]
            self.sent = {}
            self.stats.games_started += 1
            players = [Player(self, int(s), t, self.bases[int(s) % len(self.bases)]) for s, t in d["tokens"].items()]
            try:
                await asyncio.gather(*(p.play(deadline) for p in players))
            except Exception as e:  # a dropped socket or a refused connection counts as an error
                self.stats.errors.append(f"table {self.id}: {type(e).__name__}: {e}")
                return
            if all(p.view and p.view["terminal"] for p in players):
                self.stats.games_finished += 1
        await self.http.close()


async def load(
    bases: list[str],
    games: int,
    seconds: float,
    think: tuple[float, float],
    warmup: float,
    http_moves: bool = False,
    seed: int = 1,
) -> Stats:
    """Keep ``games`` games going for ``warmup + seconds``; only moves after the warm-up count."""
    stats = Stats(measure_from=time.perf_counter() + warmup)
    rng = random.Random(seed)
    deadline = time.monotonic() + warmup + seconds
    tasks = []
    for i in range(games):
        # several servers: game i is made on server i (mod n), its seats play on the next ones
        ring = bases[i % len(bases) :] + bases[: i % len(bases)]
        game = Game(ring, stats, random.Random(rng.random()), think, http_moves)
        tasks.append(asyncio.ensure_future(game.run(deadline)))
        await asyncio.sleep(min(2.0, think[1]) / games)  # start the games over a couple of seconds
    await asyncio.gather(*tasks)
    return stats


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc), 0 if unknown."""
    try:
        fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def _run_clients(
    games: int, seconds: float, think: tuple[float, float], warmup: float, http_moves: bool, postgres: int = 0
) -> tuple[Any, float, float]:
    """Start the server(s), play the games, stop them; (stats, server CPU seconds, client CPU seconds)."""
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        if postgres:
            sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests"))
            from pg_cluster import PostgresCluster, missing

            why = missing()
            if why is not None:
                raise SystemExit(f"--postgres: {why}")
            cluster = PostgresCluster().start()
            stack.callback(cluster.stop)
            db = cluster.new_database("load")
        else:
            db = f"sqlite:///{tmp}/load.db"
        # one client address plays every game here: per-client quotas would refuse it, as they should a real one
        servers = [
            ServerProcess(db, ai_workers=1, log_path=f"{tmp}/server{i}.log", extra_args=["--no-quotas"])
            for i in range(max(1, postgres))
        ]
        for server in servers:
            stack.enter_context(server)
        pids = [server.proc.pid for server in servers if server.proc is not None]

        def server_cpu() -> float:
            return sum(_cpu_seconds(pid) for pid in pids)

        bases = [server.url for server in servers]
        cpu0, client0 = server_cpu(), time.process_time()
        try:
            import uvloop

            stats = uvloop.run(load(bases, games, seconds, think, warmup, http_moves))
        except ImportError:
            stats = asyncio.run(load(bases, games, seconds, think, warmup, http_moves))
        cpu, client_cpu = server_cpu() - cpu0, time.process_time() - client0
    return stats, cpu, client_cpu


def measure(
    games: int,
    seconds: float,
    think: tuple[float, float],
    http_moves: bool = False,
    warmup: float = 8.0,
    postgres: int = 0,
) -> dict[str, Any]:
    """One load run against a fresh server; returns one result row."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, max(soft, 8 * games + 512))
    if want > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    load_before = os.getloadavg()[0]
    pauses: list[float] = []
    started = [0.0]

    def gc_timer(phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            pauses.append(time.perf_counter() - started[0])

    thresholds = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(20000, 50, 1000)
    gc.callbacks.append(gc_timer)
    try:
        stats, server_cpu, client_cpu = _run_clients(games, seconds, think, warmup, http_moves, postgres)
    finally:
        gc.callbacks.remove(gc_timer)
        gc.set_threshold(*thresholds)
        gc.unfreeze()
    return {
        "games": games,
        "think_s": f"{think[0]:g}-{think[1]:g}",
        "moves_over": "http" if http_moves else "websocket",
        "servers": f"{postgres} processes, PostgreSQL" if postgres else "1 process, SQLite",
        "seconds": seconds,
        "moves": len(stats.rtt),
        "moves_per_s": round(len(stats.rtt) / seconds, 1),
        "p50_ms": round(_pct(stats.rtt, 0.50), 1),
        "p99_ms": round(_pct(stats.rtt, 0.99), 1),
        "max_ms": round(max(stats.rtt) * 1000, 1) if stats.rtt else float("nan"),
        "seen_p50_ms": round(_pct(stats.seen, 0.50), 1),
        "seen_p99_ms": round(_pct(stats.seen, 0.99), 1),
        "errors": len(stats.errors),
        "games_done": stats.games_finished,
        "server_cpu_ms_per_move": round(1000 * server_cpu / max(1, stats.moves_total), 2),
        "client_cpu_s": round(client_cpu, 1),
        "loadavg": f"{load_before:.1f}/{os.getloadavg()[0]:.1f}",
        "client_gc_max_ms": round(1000 * max(pauses, default=0.0), 1),
        "first_error": stats.errors[0][:100] if stats.errors else "",
    }


def run(quick: bool) -> list[dict[str, Any]]:
    """Called by ``bench/run.py``: 200 concurrent games at a human and at a brisk pace."""
    seconds = 20 if quick else 60
    return [measure(200, seconds, HUMAN), measure(200, seconds, BRISK)]


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seconds", type=float, default=None)
    p.add_argument("--http", action="store_true", help="play moves over HTTP POST instead of the WebSocket")
    p.add_argument("--think", type=float, nargs=2, default=list(HUMAN), metavar=("MIN", "MAX"))
    p.add_argument(
        "--postgres",
        type=int,
        default=0,
        metavar="N",
        help="N server processes sharing one throwaway PostgreSQL, each game's players on different ones",
    )
    a = p.parse_args()
    row = measure(a.games, a.seconds or (20 if a.quick else 60), (a.think[0], a.think[1]), a.http, postgres=a.postgres)
    print(json.dumps(row, indent=1))
    sys.exit(0)
