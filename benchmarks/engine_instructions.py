"""Engine cost per decision in machine instructions: a measure the machine's load cannot move.

    python benchmarks/engine_instructions.py space-five:2 if-it-fits:2   # needs valgrind

On a shared machine wall-clock and even CPU-time micro-benchmarks swing by 2-4x with the load
(other processes, hyper-threads, frequency). Instructions executed do not. For each
``ENGINE:SEATS`` this plays the same seeded random games as ``benchmarks/engines.py`` (seeds
1..``--games``, choices from ``random.Random(seed)``, recorded first) four times, each under
callgrind in its own process, counting only the replay (callgrind collects inside one
``functools.reduce`` call, after caches are warm):

- 0: ``new_game`` only;
- 1: + ``legal_actions()`` and ``apply_index(i)`` per decision;
- 2: + ``observation(seat)``;
- 3: + ``protocol.encode`` of the ``act`` line.

The differences divided by the number of decisions give legal+apply, obs and encode in
thousands of instructions (kIr) per decision. Instructions are not time (a cache miss or an
allocation costs more than an add), so compare two trees by their ratio. ``--root`` measures
the engines and ``arena`` of another checkout (e.g. a ``git archive`` of main) with this
script.
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
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402

PARTS = ("new_game", "legal+apply", "obs", "encode")


def replay(name: str, players: int, games: int, part: int) -> int:
    """Play the recorded games doing parts 0..``part``; return the number of decisions."""
    import engines
    from arena import protocol
    from engines.testing import new_game

    engine = engines.get(name)
    recorded = []
    for seed in range(1, games + 1):
        state = new_game(engine, players, seed)
        rng = random.Random(seed)
        chosen = []
        while state.to_move() is not None:
            chosen.append(rng.randrange(len(state.legal_actions())))
            state.apply_index(chosen[-1])
        recorded.append((seed, chosen))

    def run(decisions: int, game: tuple[int, list[int]]) -> int:
        seed, chosen = game
        state = new_game(engine, players, seed)
        if part == 0:
            return decisions + len(chosen)
        for step, index in enumerate(chosen):
            seat = state.to_move()
            assert seat is not None
            legal = state.legal_actions()
            if part >= 2:
                observation = state.observation(seat)
                if part >= 3:
                    protocol.encode(protocol.act("g", step, observation, legal, 1000, 10_000))
            state.apply_index(index)
        return decisions + len(chosen)

    functools.reduce(run, recorded[:1], 0)  # warm the engine's caches outside the count
    control = ["callgrind_control", "-i", "on", str(os.getpid())]
    subprocess.run(control, capture_output=True, check=False)
    return functools.reduce(run, recorded, 0)


def count(root: Path, name: str, players: int, games: int, part: int) -> tuple[int, int]:
    """(instructions, decisions) of one replay under callgrind, run from ``root``."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        command = [
            "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",
            "--collect-atstart=no",
            "--toggle-collect=functools_reduce",
            f"--callgrind-out-file={out}",
            os.path.realpath(sys.executable),
            str(Path(__file__).resolve()),
            "--root",
            str(root),
            "--part",
            f"{name}:{players}:{games}:{part}",
        ]
        done = subprocess.run(command, cwd=root, capture_output=True, text=True, check=True)
        decisions = int(done.stdout.split()[-1])
        for line in out.read_text().splitlines():
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1]), decisions
    raise SystemExit(f"no instruction total in callgrind's output for {name}:{players}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("targets", nargs="*", help="ENGINE:SEATS (default space-five:2)")
    parser.add_argument("--games", type=int, default=3, help="seeded games per target")
    parser.add_argument("--root", type=Path, default=_ROOT, help="checkout to measure")
    parser.add_argument("--part", help=argparse.SUPPRESS)  # the replay run under callgrind
    args = parser.parse_args()
    if args.part:
        sys.path.insert(0, str(args.root.resolve()))  # that checkout's engines and arena
        name, players, games, part = args.part.split(":")
        print(replay(name, int(players), int(games), int(part)))
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    print(f"# Engine instructions per decision ({args.root}, {args.games} games each)\n")
    print("| engine | seats | decisions | kIr/dec | legal+apply | obs | encode |")
    print("|---|---|---|---|---|---|---|")
    for target in args.targets or ["space-five:2"]:
        name, _, seats = target.partition(":")
        players = int(seats or 2)
        totals = [count(args.root, name, players, args.games, part) for part in range(4)]
        decisions = totals[0][1]
        steps = [(totals[i + 1][0] - totals[i][0]) / decisions / 1000 for i in range(3)]
        print(
            f"| {name} | {players} | {decisions} | {sum(steps):.1f} | "
            + " | ".join(f"{step:.1f}" for step in steps)
            + " |"
        )


if __name__ == "__main__":
    main()
