"""Where the time of a small league goes: start-up, playing, and the end.

    python benchmarks/startup.py                     # configs/demo.toml, 3 trials
    python benchmarks/startup.py --config configs/cat-yard.toml --trials 1
    python benchmarks/startup.py --no-report         # the league alone, without its report

Runs ``python -m arena run CONFIG --fresh`` as a user does and splits its wall time, each
piece measured in its own process or call in the same run:

- **imports**: ``python -c "import arena.cli"`` (the interpreter's own start included);
- **config**: ``arena.config.load`` of the league file;
- **playing**: the games' own wall times (``wall_ms`` in ``games.jsonl``: from a game's
  first message to its last, its bots already seated) summed and divided by
  ``min(--jobs, games)``: how long the league's ``--jobs`` game slots were busy. A stretch
  with one game where two could run counts half; the wait for a bot to start is not in it;
- **standings**: ``arena standings`` on the finished folder (1000 bootstrap resamples), in its
  own process, minus the imports;
- **report**: ``arena report`` on the finished folder in its own process, minus the imports
  and the standings (``arena run`` hands its standings to the report): the plots and the
  game viewers; with ``--no-report`` the league is run with ``--no-report`` and this part
  is not measured (the fixed cost of the league itself: imports, config, bot start,
  standings);
- **the rest**: bot start-up (each bot under its keeper and the sandbox), pool shutdown, the
  store, everything not above. ``arena run`` prints the standings and writes the report
  while its bot processes end, so the rest can be smaller than the shutdown alone.

The figure that matters is **playing / total**: a 27-game demo should spend most of its time
playing. Each cell is the fastest of ``--trials`` (other processes only ever slow a trial);
the share is also printed for each trial on its own, since the fastest playing and the
fastest total may come from different trials.
Next to the wall time, the CPU time of the processes behind each measured part (the arena
and, for ``arena run``, its bots), which a busy machine disturbs much less. The last line
is the **CPU floor**: the run's CPU time over the cores this process may use is the least
wall time any overlap of that work could take, which bounds playing / total from above.
"""

from __future__ import annotations

import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or ".").resolve() == _ROOT / "benchmarks":
    sys.path[0] = str(_ROOT)

import argparse  # noqa: E402
import os  # noqa: E402
import resource  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

from arena import config as arena_config  # noqa: E402
from arena.forked import cores  # noqa: E402
from arena.league.reading import read_games  # noqa: E402
from benchmarks._bench import machine_line, print_table  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default=str(_ROOT / "configs" / "demo.toml"))
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--no-report", action="store_true", help="run the league with --no-report")
    args = parser.parse_args()
    flags = " --no-report" if args.no_report else ""
    print(f"# Start-up and end of `arena run {Path(args.config).name}{flags}` (jobs {args.jobs})")
    print(machine_line())
    cells: dict[str, list[float]] = {}
    for _ in range(args.trials):
        for key, value in _trial(Path(args.config), args.jobs, args.no_report).items():
            cells.setdefault(key, []).append(value)
    best = {key: min(values) for key, values in cells.items()}
    total = best["total"]
    named = ("imports", "config", "playing", "standings") + (() if args.no_report else ("report",))
    parts = {key: best[key] for key in named}
    parts["rest"] = total - sum(parts.values())
    rows: list[dict[str, object]] = [
        {
            "part": part,
            "seconds": seconds,
            "CPU s": best.get(f"{part} cpu", ""),
            "share of total": f"{100 * seconds / total:.0f} %",
        }
        for part, seconds in parts.items()
    ]
    rows.append(
        {
            "part": "total (arena run)",
            "seconds": total,
            "CPU s": best["total cpu"],
            "share of total": "100 %",
        }
    )
    print_table(rows, f"fastest of {args.trials} trials; CPU: the arena's processes and bots")
    print(f"\nplaying / total: {best['playing'] / total:.2f}")
    shares = (part / whole for part, whole in zip(cells["playing"], cells["total"], strict=True))
    print(f"playing / total of each trial: {' '.join(f'{share:.2f}' for share in shares)}")
    usable = cores()
    floor = best["total cpu"] / usable
    print(
        f"CPU floor: {best['total cpu']:.2f} s of CPU on {usable} cores needs at least "
        f"{floor:.2f} s, so no overlap of this work gives playing / total above "
        f"{min(1.0, best['playing'] / floor):.2f}"
    )


def _children_cpu() -> float:
    """CPU seconds of every finished child process (and the descendants they waited for)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _trial(config_path: Path, jobs: int, no_report: bool) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(_ROOT)}
    out: dict[str, float] = {}
    cpu = _children_cpu()
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import arena.cli"], check=True, env=env)
    out["imports"] = time.perf_counter() - started
    out["imports cpu"], cpu = _children_cpu() - cpu, _children_cpu()
    started = time.perf_counter()
    config = arena_config.load(config_path)
    out["config"] = time.perf_counter() - started
    with tempfile.TemporaryDirectory(prefix="arena-startup-bench-") as tmp:
        folder = Path(tmp) / config.name
        command = [sys.executable, "-m", "arena", "run", str(config_path), "--fresh"]
        command += ["--out", str(folder), "--jobs", str(jobs)]
        command += ["--no-report"] if no_report else []
        started = time.perf_counter()
        subprocess.run(command, check=True, env=env, cwd=_ROOT, capture_output=True)
        out["total"] = time.perf_counter() - started
        out["total cpu"], cpu = _children_cpu() - cpu, _children_cpu()
        games = read_games(folder)
        out["playing"] = sum(game.wall_ms for game in games) / 1000 / min(jobs, len(games))
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "arena", "standings", str(folder)],
            check=True,
            env=env,
            cwd=_ROOT,
            capture_output=True,
        )
        out["standings"] = max(0.0, time.perf_counter() - started - out["imports"])
        out["standings cpu"] = max(0.0, _children_cpu() - cpu - out["imports cpu"])
        if not no_report:
            out.update(_report(folder, Path(tmp) / "r.html", env, out))
    return out


def _report(
    folder: Path, page: Path, env: dict[str, str], out: dict[str, float]
) -> dict[str, float]:
    """Wall and CPU seconds of ``arena report`` beyond its imports and standings."""
    cpu = _children_cpu()
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "arena", "report", str(folder), "-o", str(page)],
        check=True,
        env=env,
        cwd=_ROOT,
        capture_output=True,
    )
    spent = time.perf_counter() - started
    spent_cpu = _children_cpu() - cpu
    return {
        "report": max(0.0, spent - out["imports"] - out["standings"]),
        "report cpu": max(0.0, spent_cpu - out["imports cpu"] - out["standings cpu"]),
    }


if __name__ == "__main__":
    main()
