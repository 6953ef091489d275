"""CPU instructions per ``clone()`` of mid-game states (valgrind), the same on a loaded machine.

    python benchmarks/clone_instructions.py if-it-fits:2 space-five:1
    python benchmarks/clone_instructions.py --root /work/main if-it-fits:2   # another checkout

For each engine and seat count, three seeded random games are played and every seventh
state is kept; the program then clones each kept state 20 times. It runs twice under
valgrind's callgrind, with the clones and without; the difference in instructions divided by
the number of clones is the cost of one ``clone()``. ``--root`` imports the engines from
another checkout, to compare two versions in the same session. Needs ``valgrind``.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROGRAM = """
import random, sys
sys.path.insert(0, sys.argv[1])
import engines
name, players, rounds = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
engine = engines.get(name)
options = engine.check(players, {})
kept = []
for seed in range(1, 4):
    state = engine.new_game(players, seed, options)
    rng = random.Random(seed)
    step = 0
    while state.to_move() is not None:
        if step % 7 == 3:
            kept.append(state.clone())
        state.apply_index(rng.randrange(len(state.legal_actions())))
        step += 1
for _ in range(rounds):
    for state in kept:
        state.clone()
print(len(kept))
"""


def instructions(root: Path, engine: str, players: int, rounds: int) -> tuple[int, int]:
    """Instructions of one run of PROGRAM under callgrind, and the number of kept states."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    command += [sys.executable, "-c", PROGRAM, str(root), engine, str(players), str(rounds)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    match = re.search(r"Collected : (\d+)", done.stderr)
    if match is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{done.stderr[-500:]}")
    return int(match.group(1)), int(done.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="+", help="ENGINE:SEATS, e.g. if-it-fits:2")
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout to import from")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("needs valgrind (Debian: apt-get install valgrind)")
    print(f"instructions per clone(), engines from {args.root}")
    print("| engine | seats | states | instructions per clone |")
    print("|---|---|---|---|")
    for spec in args.specs:
        engine, _, seats = spec.partition(":")
        players = int(seats or 2)
        without, states = instructions(args.root, engine, players, 0)
        with_clones, _ = instructions(args.root, engine, players, 20)
        per_clone = (with_clones - without) / (20 * states)
        print(f"| {engine} | {players} | {states} | {per_clone:,.0f} |")


if __name__ == "__main__":
    main()
