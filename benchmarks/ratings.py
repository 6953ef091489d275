"""Time ``arena standings`` on a large synthetic results folder (issue 19's targets).

    python benchmarks/ratings.py                          # 100 000 games, 4 seats, 20 bots
    python benchmarks/ratings.py --games 20000
    python benchmarks/ratings.py --against /path/to/main  # that checkout's code, same run
    python benchmarks/ratings.py --games 25000 50000 100000 --blocks 5000   # memory vs games

Writes a results folder (``league.toml`` + ``games.jsonl``) of simulated games, then runs the
real command, ``python -m arena standings DIR --model bt`` and ``--model pl`` (1000 bootstrap
resamples, the command's default), each in its own process: wall time and CPU time (imports,
reading, fits, bootstrap, printing, with the CPU of the copies the command forks on a second
core; on a busy machine the CPU time is the steadier figure),
peak memory, and the load average when it started. ``--against DIR`` runs the same commands
with another checkout's code (e.g. main's) interleaved with this one's, ``--repeat`` times,
and prints the CPU ratio. The baseline measured in the same run is the floor every standings
command pays: ``orjson.loads`` of every line, in-process. Targets: under 3 s for BT and 5 s
for PL.

``--blocks B`` plays ``B`` rotation blocks over and over (each time with the places shuffled)
until there are as many games as asked, so folders of several sizes with the same ``B`` show
what memory does when games grow and blocks do not.
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
import dataclasses  # noqa: E402
import multiprocessing  # noqa: E402
import os  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
import orjson  # noqa: E402

from arena.record import GameRecord  # noqa: E402
from benchmarks._bench import machine_line  # noqa: E402
from tests.ratings_sim import simulate_league  # noqa: E402

TARGETS = {"bt": 3.0, "pl": 5.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[100_000])
    parser.add_argument("--bots", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--blocks", type=int, default=None, help="default: games / players")
    parser.add_argument("--models", nargs="+", choices=sorted(TARGETS), default=["bt", "pl"])
    parser.add_argument("--against", type=Path, default=None, metavar="CHECKOUT")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()

    print(machine_line())
    for games in args.games:
        with tempfile.TemporaryDirectory(prefix="arena-ratings-bench-") as tmp:
            folder = Path(tmp)
            # written by another process: a child forked from one that held the games would
            # report that process's memory as its own peak (Linux keeps it across exec)
            writer = multiprocessing.get_context("spawn").Process(
                target=_write_folder, args=(folder, games, args.bots, args.players, args.blocks)
            )
            writer.start()
            writer.join()
            _measure(folder, args.models, args.against, args.repeat)


def _write_folder(folder: Path, games: int, bots: int, players: int, blocks: int | None) -> None:
    elos = list(np.linspace(1200.0, 1800.0, bots))
    records = simulate_league(
        elos, players=players, blocks=blocks or games // players, seed=1, seat_advantage=30
    )
    if blocks is not None:  # the same blocks again and again, the places shuffled each time
        rng = np.random.default_rng(2)
        records = [
            _replayed(record, again, rng)
            for again in range(max(1, games // len(records)))
            for record in records
        ]
    (folder / "league.toml").write_text('name = "bench"\nengine = "sim"\n')
    with (folder / "games.jsonl").open("wb") as handle:
        handle.writelines(record.to_json() for record in records)
    size = (folder / "games.jsonl").stat().st_size
    print(
        f"\n# arena standings: {len(records)} games in {blocks or games // players} blocks, "
        f"{players} seats, {bots} bots; games.jsonl: {size / 2**20:.0f} MiB"
    )


def _replayed(record: GameRecord, again: int, rng: np.random.Generator) -> GameRecord:
    """Game ``record`` of its block played once more (``again``), other seats winning."""
    if again == 0:
        return record
    order = rng.permutation(len(record.seats))
    seats = tuple(
        dataclasses.replace(seat, rank=record.seats[i].rank, score=record.seats[i].score)
        for seat, i in zip(record.seats, order.tolist(), strict=True)
    )
    return dataclasses.replace(record, id=f"{record.id}/again{again}", seats=seats)


def _measure(folder: Path, models: list[str], against: Path | None, repeat: int) -> None:
    started = time.perf_counter()
    with (folder / "games.jsonl").open("rb") as handle:
        for line in handle:
            orjson.loads(line)
    floor = time.perf_counter() - started
    print(f"floor, orjson.loads of every line (in-process): {floor:6.2f} s  (1.0x)")
    checkouts = [_ROOT] if against is None else [against.resolve(), _ROOT]
    for model in models:
        cpu: dict[Path, list[float]] = {checkout: [] for checkout in checkouts}
        for _ in range(repeat):
            for checkout in checkouts:
                load = os.getloadavg()[0]
                seconds, used, peak = _standings(checkout, folder, model)
                cpu[checkout].append(used)
                verdict = "met" if seconds < TARGETS[model] else "MISSED"
                print(
                    f"{_label(checkout)} --model {model}: {seconds:6.2f} s wall "
                    f"({seconds / floor:.1f}x), {used:.2f} s CPU, peak RSS {peak / 1024:.0f} MiB, "
                    f"load {load:.1f} (target < {TARGETS[model]:.0f} s wall: {verdict})"
                )
        if against is not None:
            before, after = (min(cpu[checkout]) for checkout in checkouts)
            print(f"--model {model}: least CPU, this checkout / {against}: {after / before:.2f}")


def _label(checkout: Path) -> str:
    return "this checkout" if checkout == _ROOT else str(checkout)


def _standings(checkout: Path, folder: Path, model: str) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and peak RSS (KiB) of one ``arena standings`` process."""
    command = [sys.executable, "-m", "arena", "standings", str(folder), "--model", model]
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=checkout, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed with exit code {process.returncode}")
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


if __name__ == "__main__":
    main()
