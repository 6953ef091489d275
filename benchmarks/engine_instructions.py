"""Engine cost per decision in CPU instructions (valgrind), the same on a loaded machine.

    python benchmarks/engine_instructions.py cat-yard good-boy   # 2 seats, ~1 min an engine
    python benchmarks/engine_instructions.py --games 4 --seats 3 good-boy

Wall-clock numbers (``benchmarks/engines.py``) swing by 3x with the machine's load; the
number of instructions executed does not. For each engine the decision loop of
``benchmarks/engines.py`` (``legal_actions()``, ``observation(seat)``, encoding the ``act``
line, the checked ``apply(legal[i])`` of a seeded random choice) is run under valgrind's
callgrind four times: games set up only, then legal + apply, then + observation, then +
encode; the differences, divided by the decisions, give each part in thousands of
instructions (kIr). 30 games are played first, uncounted, to fill the engines' caches.
Cache misses are not counted: compare engines' versions with it, and read time from
``benchmarks/engines.py``. Needs ``valgrind`` (Debian: ``apt-get install valgrind``).
"""

from __future__ import annotations

import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or ".").resolve() == _ROOT / "benchmarks":
    sys.path[0] = str(_ROOT)

import argparse  # noqa: E402
import functools  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402

MODES = ("setup", "legal+apply", "observation", "encode")


def run_games(name: str, players: int, games: int, mode: str) -> int:
    """Play the counted games of ``mode`` (inside ``functools.reduce``, where callgrind
    collects); return the number of decisions."""
    from arena import protocol
    from benchmarks import _bench
    from engines.testing import new_game

    engine = _bench.load_engines([name])[name]
    observe = mode in ("observation", "encode")
    encode = mode == "encode"

    def play(decisions: int, seed: int, mode: str = mode) -> int:
        state = new_game(engine, players, seed)
        rng = random.Random(seed)
        step = 0
        if mode != "setup":
            while (seat := state.to_move()) is not None:
                legal = state.legal_actions()
                if observe:
                    observation = state.observation(seat)
                    if encode:
                        protocol.encode(protocol.act("g", step, observation, legal, 1, 1))
                state.apply(legal[rng.randrange(len(legal))])
                step += 1
        state.result()
        return decisions + step

    functools.reduce(lambda d, s: play(d, s, "encode"), range(1000, 1030), 0)  # warm-up
    decisions = functools.reduce(lambda d, s: play(d, s, "legal+apply"), range(1, games + 1), 0)
    subprocess.run(["callgrind_control", "-i", "on", str(os.getpid())], capture_output=True)
    functools.reduce(play, range(1, games + 1), 0)
    return decisions


def count(name: str, players: int, games: int, mode: str) -> tuple[int, int]:
    """(decisions, instructions) of one mode, run under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--instr-atstart=no",
                "--collect-atstart=no",
                "--toggle-collect=functools_reduce",
                f"--callgrind-out-file={tmp}/out",
                sys.executable,
                __file__,
                "--child",
                mode,
                "--games",
                str(games),
                "--seats",
                str(players),
                name,
            ],
            capture_output=True,
            text=True,
            check=True,
        )
    decisions = re.search(r"^decisions (\d+)$", done.stdout, re.M)
    collected = re.search(r"Collected : (\d+)", done.stderr)
    if decisions is None or collected is None:
        raise SystemExit(f"callgrind run failed:\n{done.stdout}\n{done.stderr}")
    return int(decisions.group(1)), int(collected.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engines", nargs="+", help="engine names")
    parser.add_argument("--games", type=int, default=10, help="counted games (default 10)")
    parser.add_argument("--seats", type=int, default=2, help="players (default 2)")
    parser.add_argument("--child", choices=MODES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        decisions = run_games(args.engines[0], args.seats, args.games, args.child)
        print(f"decisions {decisions}")
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    print("| engine | seats | decisions | legal + apply | observation | encode | in all |")
    print("|---|---|---|---|---|---|---|")
    for name in args.engines:
        runs = {mode: count(name, args.seats, args.games, mode) for mode in MODES}
        decisions = runs["legal+apply"][0]
        kir = {mode: runs[mode][1] / decisions / 1000 for mode in MODES}
        parts = [
            kir["legal+apply"] - kir["setup"],
            kir["observation"] - kir["legal+apply"],
            kir["encode"] - kir["observation"],
        ]
        cells = " | ".join(f"{part:.1f}" for part in parts)
        print(f"| {name} | {args.seats} | {decisions} | {cells} | {sum(parts):.1f} |", flush=True)
    print("\nkIr: thousands of instructions per decision (valgrind callgrind).")


if __name__ == "__main__":
    main()
