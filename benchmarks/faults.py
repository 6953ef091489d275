"""Scripted referee faults: SIGKILL a league run at random moments, resume, compare.

1. An uninterrupted reference run of the league.
2. The same league run as ``arena run`` subprocesses, each killed with SIGKILL once the
   results file holds a seeded random number of games (plus a random few milliseconds),
   then resumed; once (after the third kill) a half-written last line is appended, as if the
   kill had come in the middle of a write. The last resume runs to the end.
3. Checks: exactly N unique games, equal to the reference run's; after every kill, no bot
   process is left (they die with the referee through PR_SET_PDEATHSIG). A bot that forks a
   sleeping child is in the field: its grandchildren are not covered by PDEATHSIG; they are
   counted, reported and then killed by this script (a known gap, see docs/robustness.md).
4. Two runs on one folder at once: the second must refuse with exit status 2.

Run: ``python benchmarks/faults.py`` (300 games, 5 kills); ``--help`` for the knobs.
Exit status 0 when every check holds (grandchildren are reported, not failed, unless
``--strict``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# ``arena run`` with the tiny test engine registered (it is not a shipped engine).
DRIVER = """
import sys
import engines
engines.register("toy", "tests.toy_engine")
from arena.cli import main
main(sys.argv[1:])
"""
KEY = "bot-seeds.key"  # arena.league.secret.FILE: the secret bots' seeds come from
BOTS = 6  # two seats: a round-robin block is 6 * 5 = 30 games


def league_text(marker: str, rounds: int, forking: bool) -> str:
    lines = ['name = "faults"', 'engine = "toy"', "players = 2", f"rounds = {rounds}", "seed = 7"]
    lines += ["[options]", "pile = 15", "[limits]", "move_ms = 2000", "bank_ms = 5000"]
    for i in range(BOTS):
        if forking and i == 0:
            cmd = f"python {ROOT / 'tests' / 'hostile' / 'fork_child.py'} {marker}-fork"
        else:
            cmd = f"python -m bots.random {marker}-bot"
        lines += ["[[bots]]", f'name = "bot{i}"', f'cmd = "{cmd}"']
    return "\n".join(lines) + "\n"


def arena_run(config: Path, out: Path, jobs: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", DRIVER, "run", str(config), "--out", str(out), "--jobs", str(jobs)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def count_lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def records(folder: Path) -> list[dict[str, Any]]:
    out = []
    for line in (folder / "games.jsonl").read_bytes().splitlines(keepends=True):
        if line.endswith(b"\n"):
            out.append(json.loads(line))
    return out


def comparable(items: list[dict[str, Any]]) -> list[str]:
    keys = ("id", "seed", "seating", "moves", "scores", "ranks", "verdicts", "forfeit")
    return sorted(json.dumps([r[k] for k in keys]) for r in items)


def pids_with(marker: str) -> list[int]:
    out = subprocess.run(["ps", "-eo", "pid,stat,args"], capture_output=True, text=True).stdout
    found = []
    for line in out.splitlines()[1:]:
        pid, stat, *_ = line.split(None, 2)
        if marker in line and "ps -eo" not in line and not stat.startswith("Z"):
            found.append(int(pid))
    return found


def wait_gone(marker: str, timeout: float = 5.0) -> list[int]:
    deadline = time.monotonic() + timeout
    while (left := pids_with(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="a multiple of 30")
    parser.add_argument("--kills", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--no-fork", action="store_true", help="leave out the forking bot")
    parser.add_argument("--strict", action="store_true", help="fail on leftover grandchildren")
    args = parser.parse_args(argv)
    if args.games % 30 or args.games <= 0:
        parser.error("--games must be a positive multiple of 30")
    rng = random.Random(args.seed)
    marker = f"faults{uuid.uuid4().hex[:8]}"
    problems: list[str] = []
    grandchildren = 0
    with tempfile.TemporaryDirectory(prefix="arena-faults-") as tmp:
        work = Path(tmp)
        config = work / "faults.toml"
        config.write_text(league_text(marker, args.games // 30, not args.no_fork))

        started = time.monotonic()
        reference = arena_run(config, work / "reference", args.jobs)
        _, err = reference.communicate(timeout=600)
        if reference.returncode != 0:
            print(err, file=sys.stderr)
            return 1
        print(f"reference run: {args.games} games in {time.monotonic() - started:.1f} s")
        grandchildren += len(wait_gone(f"{marker}-fork", 0.5))
        for pid in pids_with(marker):  # normal exit: nothing may be left
            problems.append(f"process {pid} left after a normal run")

        out = work / "killed"
        games = out / "games.jsonl"
        # the reference's secret: its bots are seeded alike, so the games can be compared
        out.mkdir()
        shutil.copy(work / "reference" / KEY, out / KEY)
        targets = sorted(rng.sample(range(1, args.games - 1), args.kills))
        for number, target in enumerate(targets, 1):
            run = arena_run(config, out, args.jobs)
            while count_lines(games) < target and run.poll() is None:
                time.sleep(0.002)
            time.sleep(rng.uniform(0, 0.03))
            if run.poll() is not None:
                problems.append(f"kill {number}: the run ended before the kill")
                continue
            run.send_signal(signal.SIGKILL)
            run.wait()
            stored = count_lines(games)
            cut = not games.read_bytes().endswith(b"\n")
            bots_left = wait_gone(f"{marker}-bot")
            children_left = pids_with(f"{marker}-fork")
            print(
                f"kill {number}: SIGKILL after {stored} stored games (target {target})"
                f"{', last line cut' if cut else ''}; bot processes left: {len(bots_left)}; "
                f"forked grandchildren left: {len(children_left)}"
            )
            if bots_left:
                problems.append(f"kill {number}: bot processes left: {bots_left}")
            grandchildren += len(children_left)
            for pid in children_left:  # ours: the sleeping children of the forking bot
                os.kill(pid, signal.SIGKILL)
            if number == 3:
                last = games.read_bytes().splitlines(keepends=True)[-1]
                with games.open("ab") as handle:
                    handle.write(last[: len(last) // 2])
                print("  appended half a line (a kill in the middle of a write)")

        final = arena_run(config, out, args.jobs)
        _, err = final.communicate(timeout=600)
        if final.returncode != 0:
            problems.append(f"final resume failed ({final.returncode}): {err.strip()[-300:]}")
        final_games = records(out)
        ids = [r["id"] for r in final_games]
        print(f"after resuming: {len(final_games)} games, {len(set(ids))} unique ids")
        if len(final_games) != args.games or len(set(ids)) != args.games:
            problems.append(f"expected exactly {args.games} unique games, got {len(final_games)}")
        if comparable(final_games) != comparable(records(work / "reference")):
            problems.append("the results differ from the uninterrupted run")
        else:
            print("results equal the uninterrupted run's")

        # Two runs on one folder at once: the second is refused.
        first = arena_run(config, work / "locked", 1)
        while count_lines(work / "locked" / "games.jsonl") < 1 and first.poll() is None:
            time.sleep(0.005)
        second = arena_run(config, work / "locked", 1)
        _, second_err = second.communicate(timeout=60)
        first.send_signal(signal.SIGTERM)
        first.communicate(timeout=60)
        if second.returncode == 2 and "in use by another arena run" in second_err:
            print(f"second run on the same folder refused: {second_err.strip()}")
        else:
            problems.append(f"second run not refused: {second.returncode} {second_err!r}")

        left = wait_gone(f"{marker}-bot")
        grandchildren += len(pids_with(f"{marker}-fork"))
        for pid in pids_with(f"{marker}-fork"):
            os.kill(pid, signal.SIGKILL)
        if left:
            problems.append(f"bot processes left at the end: {left}")
    print(f"forked grandchildren that outlived a SIGKILLed referee: {grandchildren}")
    if args.strict and grandchildren:
        problems.append(f"{grandchildren} forked grandchildren outlived the referee")
    for problem in problems:
        print(f"FAIL: {problem}")
    print("OK" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
