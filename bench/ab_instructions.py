"""Same-work A/B in CPU instructions: two source trees, every game, counted by valgrind (callgrind).

    python bench/ab_instructions.py OLD_SRC NEW_SRC [--games-per-config N] [--only id,id]

Wall-clock rates on this shared host drift by 10% and more between runs; an instruction count does not.
Each tree plays the same seeded random games through the public API (``legal_actions`` / ``apply_action``
/ ``apply_actions``, chance drawn from the same RNG), and the same search rollouts (``State.play_random``),
so when the rules and action numbers are unchanged both trees do exactly the same moves. The count of a
run with no games (imports, start-up) is subtracted, leaving the instructions of the games themselves.
Needs valgrind (Debian's ``valgrind``). Prints B/A per game: below 1.00 is fewer instructions for B.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent

CHILD = r"""
import json, random, sys
import boardlab
from bench_playouts import playouts_n
game_id, options, n, mode = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
game = boardlab.make(game_id, **options)
if mode == "public":
    playouts_n(game, n, seed=0)
else:
    rnd = random.Random(1).random
    for _ in range(n):
        game.new_initial_state().play_random(rnd, 10**6)
"""


def instructions(src: str, game_id: str, options: dict, n: int, mode: str) -> int:
    env = dict(os.environ, PYTHONPATH=f"{src}{os.pathsep}{HERE}", PYTHONHASHSEED="0")
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "cg.out"
        proc = subprocess.run(
            [
                *("valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c", CHILD),
                *(game_id, json.dumps(options), str(n), mode),
            ],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        m = re.search(r"Collected : (\d+)", proc.stderr)
        if not m:
            raise RuntimeError(proc.stderr[-2000:])
        return int(m.group(1))


def main(argv: list[str]) -> int:
    args = argv[1:]
    n, only = 20, None
    if "--games-per-config" in args:
        i = args.index("--games-per-config")
        n = int(args[i + 1])
        del args[i : i + 2]
    if "--only" in args:
        i = args.index("--only")
        only = args[i + 1].split(",")
        del args[i : i + 2]
    old, new = (str(pathlib.Path(a).resolve()) for a in args[:2])
    sys.path.insert(0, new)
    import boardlab

    configs = [(g, {}) for g in boardlab.games() if only is None or g in only]
    if only is None or "blast-radius" in only:
        configs.append(("blast-radius", {"board_side": 5}))
    print(f"A = {old}\nB = {new}\n{n} seeded random games per game and path, instructions counted by callgrind\n")
    print(f"{'game':<28} {'path':<8} {'A instr/game':>14} {'B instr/game':>14} {'B/A':>6}")
    for game_id, options in configs:
        name = game_id + "".join(f" {k}={v}" for k, v in options.items())
        for mode in ("public", "rollout"):
            per = []
            for src in (old, new):
                base = instructions(src, game_id, options, 0, mode)
                per.append((instructions(src, game_id, options, n, mode) - base) / n)
            print(f"{name:<28} {mode:<8} {per[0]:>14,.0f} {per[1]:>14,.0f} {per[1] / per[0]:>6.3f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
