"""Time ``arena standings`` on a large synthetic results folder (issue 19's targets).

    python benchmarks/ratings.py                  # 100 000 games, 4 seats, 20 bots
    python benchmarks/ratings.py --games 20000

Writes a results folder (``league.toml`` + ``games.jsonl``) of simulated games, then runs the
real command, ``python -m arena standings DIR --model bt`` and ``--model pl`` (1000 bootstrap
resamples, the command's default), each in its own process: wall time and CPU time (imports,
reading, fits, bootstrap, printing; on a busy machine the CPU time is the steadier figure)
and peak memory. The baseline measured in the same run is the floor every standings command
pays: ``orjson.loads`` of every line, in-process. Targets: under 3 s for BT and 5 s for PL.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as `python benchmarks/ratings.py`, Python puts benchmarks/ first on sys.path, where
# benchmarks/engines.py would shadow the `engines` package: put the checkout root there.
_ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or ".").resolve() == _ROOT / "benchmarks":
    sys.path[0] = str(_ROOT)

import argparse  # noqa: E402
import os  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
import orjson  # noqa: E402

from benchmarks._bench import machine_line  # noqa: E402
from tests.ratings_sim import simulate_league  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--bots", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()

    elos = list(np.linspace(1200.0, 1800.0, args.bots))
    records = simulate_league(
        elos, players=args.players, blocks=args.games // args.players, seed=1, seat_advantage=30
    )
    print(f"# arena standings: {len(records)} games, {args.players} seats, {args.bots} bots")
    print(machine_line())
    with tempfile.TemporaryDirectory(prefix="arena-ratings-bench-") as tmp:
        folder = Path(tmp)
        (folder / "league.toml").write_text('name = "bench"\nengine = "sim"\n')
        with (folder / "games.jsonl").open("wb") as handle:
            handle.writelines(record.to_json() for record in records)
        del records
        size = (folder / "games.jsonl").stat().st_size
        print(f"games.jsonl: {size / 2**20:.0f} MiB")

        started = time.perf_counter()
        with (folder / "games.jsonl").open("rb") as handle:
            for line in handle:
                orjson.loads(line)
        floor = time.perf_counter() - started
        print(f"\nfloor, orjson.loads of every line (in-process): {floor:6.2f} s  (1.0x)")
        for model, target in (("bt", 3.0), ("pl", 5.0)):
            seconds, cpu, peak = _standings(folder, model)
            verdict = "met" if seconds < target else "MISSED"
            print(
                f"arena standings --model {model}: {seconds:6.2f} s wall ({seconds / floor:.1f}x), "
                f"{cpu:.2f} s CPU, peak RSS {peak / 1024:.0f} MiB "
                f"(target < {target:.0f} s: {verdict})"
            )


def _standings(folder: Path, model: str) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and peak RSS (KiB) of one ``arena standings`` process."""
    command = [sys.executable, "-m", "arena", "standings", str(folder), "--model", model]
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=_ROOT, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed with exit code {process.returncode}")
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


if __name__ == "__main__":
    main()
