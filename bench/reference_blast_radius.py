"""A deliberately plain Blast Radius random player, independent of the engine (shares no code with it).

It recomputes every exclusion zone from scratch each move. It serves two purposes:
a cross-check of the engine's random-play statistics (docs/rules/blast-radius.md)
and the same-run comparison row of ``bench/bench_playouts.py``.

    python bench/reference_blast_radius.py SIDE GAMES SEED   # prints first-mover share and mean length
"""

from __future__ import annotations

import random
import sys

Cell = tuple[int, int]


def cells_of(side: int) -> list[Cell]:
    n = side - 1
    return [(q, r) for q in range(-n, n + 1) for r in range(-n, n + 1) if abs(q + r) <= n]


def distance(a: Cell, b: Cell) -> int:
    return (abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[0] + a[1] - b[0] - b[1])) // 2


def play(cells: list[Cell], rng: random.Random) -> tuple[int, int]:
    """One uniformly random game: (winner, plies). Player 0 is Red, who opens."""
    towers: dict[Cell, list[int]] = {}  # cell -> [owner, height]
    player = ply = 0
    while True:
        free = [c for c in cells if c not in towers and all(distance(c, x) > h for x, (_, h) in towers.items())]
        if free:
            cell = rng.choice(free)
        else:
            mine = [x for x, (o, _) in towers.items() if o == player]
            low = min(towers[x][1] for x in mine)
            cell = rng.choice([x for x in mine if towers[x][1] == low])
        if cell in towers:
            towers[cell][1] += 1
        else:
            towers[cell] = [player, 1]
        h = towers[cell][1]
        if h >= 2:
            for x in [x for x in towers if x != cell and distance(x, cell) <= h]:
                del towers[x]
        ply += 1
        if ply > 1 and not any(o == 1 - player for o, _ in towers.values()):
            return player, ply
        player = 1 - player


if __name__ == "__main__":
    side, games, seed = (int(a) for a in sys.argv[1:4])
    rng = random.Random(seed)
    cells = cells_of(side)
    results = [play(cells, rng) for _ in range(games)]
    print(sum(w == 0 for w, _ in results) / games, sum(p for _, p in results) / games)
