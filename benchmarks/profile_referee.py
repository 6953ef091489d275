"""Where the referee's own time goes: cProfile and the py-spy sampling profiler, side by side.

    python benchmarks/profile_referee.py --engine space-five --decisions 20000 --top 15

Both profile the same thing: ``run_league`` at ``--jobs 1`` with the trivial bot in both
seats of a 2-seat table (``benchmarks/_bench.trivial_league``), in a fresh folder.

- **cProfile** (deterministic, in-process): the functions with the most own time
  (``tottime``). Its per-call hook inflates small Python functions, so it overstates them.
- **py-spy** (sampling, from outside, no overhead in the profiled process): a child process
  imports and builds the league, then has ``py-spy record --format raw`` attach to it for the
  league's run alone; the table counts, per function,
  the samples in which it was the innermost frame (its own time). With ``--gil`` only the
  thread holding the GIL is sampled: time blocked in a system call that releases it (waiting
  for a bot in ``epoll``/``select``, a pipe ``write``) is not counted, so the shares are of
  the referee's busy Python time. Needs ``py-spy`` (a test dependency) and the right
  to trace a child (root, or ``ptrace_scope`` 0); without it that half is skipped.
"""

from __future__ import annotations

import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or ".").resolve() == _ROOT / "benchmarks":
    sys.path[0] = str(_ROOT)

import argparse  # noqa: E402
import cProfile  # noqa: E402
import os  # noqa: E402
import pstats  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402

from benchmarks import _bench  # noqa: E402


def _league(engine: str, decisions: int) -> _bench.arena_config.LeagueConfig:
    loaded = _bench.load_engines([engine])[engine]
    game = _bench.index_zero_game(loaded, 2)
    return _bench.trivial_league(engine, 2, _bench.rounds_for(decisions, game.decisions, 2, 16))


def _cprofile(engine: str, decisions: int, top: int) -> None:
    config = _league(engine, decisions)
    profiler = cProfile.Profile()
    profiler.enable()
    run = _bench.run_timed_league(config, 1)
    profiler.disable()
    stats = pstats.Stats(profiler)
    total = sum(row[2] for row in stats.stats.values())  # type: ignore[attr-defined]
    rows = sorted(stats.stats.items(), key=lambda item: -item[1][2])[:top]  # type: ignore[attr-defined]
    print(f"\n## cProfile: {engine}, jobs=1, {run.decisions} decisions, {run.wall_s:.2f} s wall")
    table = [
        {
            "function": _name(func),
            "calls": counts[1],
            "own s": round(counts[2], 3),
            "own %": round(100 * counts[2] / total, 1),
            "µs/decision": round(counts[2] / run.decisions * 1e6, 2),
        }
        for func, counts in rows
    ]
    _bench.print_table(table, "own time (tottime), largest first")


def _name(func: tuple[str, int, str]) -> str:
    path, _line, name = func
    if path == "~":
        return name
    return f"{name} ({_short(path)})"


def _short(path: str) -> str:
    for marker in ("site-packages/", "/lib/python3"):
        if marker in path:
            return path.split(marker, 1)[1]
    try:
        return str(Path(path).resolve().relative_to(_ROOT))
    except ValueError:
        return Path(path).name


def _pyspy(engine: str, decisions: int, top: int) -> None:
    spy = shutil.which("py-spy")
    if spy is None:
        print("\n## py-spy: skipped (py-spy is not installed)")
        return
    with tempfile.TemporaryDirectory(prefix="arena-pyspy-") as tmp:
        out = Path(tmp) / "stacks.txt"
        child = [sys.executable, __file__, "--child", str(out), "--engine", engine]
        done = subprocess.run(
            [*child, "--decisions", str(decisions)], capture_output=True, text=True, check=False
        )
        if done.returncode != 0 or not out.exists():
            print(f"\n## py-spy: skipped ({done.stderr.strip().splitlines()[-1:]})")
            return
        own: Counter[str] = Counter()
        for line in out.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            leaf = stack.rsplit(";", 1)[-1]
            own[re.sub(r":\d+\)$", ")", leaf)] += int(count)
    total = sum(own.values())
    print(f"\n## py-spy --gil: {engine}, jobs=1, {total} samples at 1000 Hz (GIL held)")
    table = [
        {"function": _spy_name(name), "samples": n, "own %": round(100 * n / total, 1)}
        for name, n in own.most_common(top)
    ]
    _bench.print_table(table, "innermost frame of each sample, largest first")


def _child(out: Path, engine: str, decisions: int) -> None:
    """Run the league with py-spy attached to this process for the league alone (imports and
    set-up done first, so they are not in the profile)."""
    config = _league(engine, decisions)
    command = ["py-spy", "record", "--gil", "--format", "raw", "--rate", "1000"]
    spy = subprocess.Popen([*command, "-o", str(out), "--pid", str(os.getpid())])
    time.sleep(1.0)  # py-spy attaches
    _bench.run_timed_league(config, 1)
    spy.send_signal(signal.SIGINT)  # py-spy writes its file and exits
    spy.wait()


def _spy_name(frame: str) -> str:
    match = re.fullmatch(r"(.*) \((.*)\)", frame)
    return f"{match.group(1)} ({_short(match.group(2))})" if match else frame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="space-five")
    parser.add_argument("--decisions", type=int, default=20_000)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:  # the process py-spy watches
        _child(args.child, args.engine, args.decisions)
        return
    print("# Where the referee's time goes (2 seats, trivial bots, jobs=1)")
    print(f"\n{_bench.machine_line()}")
    _cprofile(args.engine, args.decisions, args.top)
    _pyspy(args.engine, args.decisions, args.top)
    print(f"\n{_bench.machine_line()}")


if __name__ == "__main__":
    main()
