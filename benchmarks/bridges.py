"""The bridges' cost: the PettingZoo export against the engine, an arena league on an
OpenSpiel game against OpenSpiel's own loop.

    python benchmarks/bridges.py                 # both parts (~7 min)
    python benchmarks/bridges.py --quick         # smoke test (~25 s)
    python benchmarks/bridges.py --part export   # part 1 only (~1-2 min)
    python benchmarks/bridges.py --part import   # part 2 only (~5 min)

**Part 1, the export** (``arena.bridges.pettingzoo``): random games with seeds 1, 2, ...
(``--export-games`` per engine, its smallest table of 2+), played three ways in the same
run (the export picks among the mask's ids, sorted, so its random games are others than
the engine's: compare per step):

- *engine*: the engine called directly, as a Python user would: ``legal_actions()``, a
  random index, ``apply_index`` (the baseline);
- *engine + observation*: the same plus the mover's ``observation(seat)`` (the dict the
  protocol sends) per step;
- *PettingZoo*: ``env.last()`` (the observation tensor and the action mask), a random id
  among the mask's, ``env.step(id)``; the end of a game is stepped as PettingZoo wants
  (one ``None`` per agent).

Each is the fastest of three runs (CPU seconds of this process); the table prints steps
per second and the export's cost as a multiple of the engine's. The random choice is in all
three.

**Part 2, OpenSpiel games hosted by the arena** (``engine = "openspiel:NAME"``). For each game, the
same uniformly random policy in every seat, measured interleaved in the same run:

(a) **openspiel**: OpenSpiel's own in-process loop, the one its examples write: a
    ``pyspiel.State``, chance outcomes sampled from ``chance_outcomes()``, a random
    legal action id applied at each decision;
(b) **engine**: the same loop through the arena's engine adapter in-process
    (``engines.get("openspiel:NAME")``: ``legal_actions``, ``observation(seat)`` of the
    seat to move, as the referee builds it, and ``apply_index``), no referee: the adapter's
    own cost;
(c) **arena**: ``run_league`` with ``python -m bots.openspiel --algorithm random`` in every
    seat (subprocess bots, protocol lines, the results store), ``jobs`` games at once;
(c') **arena, trivial bot** (jobs 1): the same league with ``benchmarks/trivial_bot.py``
    (always index 0, no JSON parsing) in every seat instead: the referee's share of (c)
    without the Python bot's own cost;
(d) **pipe**: the physical limit of any subprocess referee on this machine now: raw round
    trips of a real ``act`` line of the game with ``benchmarks/trivial_bot.py``
    (``_bench.ping_pong``, one pair).

Decisions are those of the players (chance nodes are not decisions); the arena's are counted
from ``games.jsonl`` between its first and last finished game; its games/s are shown too,
since these games are short (2-8 decisions) and a game's own cost in the arena (start and
end messages, the record written and fsync'd) weighs as much as its decisions. Each cell is
the best of ``--trials`` interleaved trials. The ratio openspiel/arena is the subprocess
referee's cost.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as `python benchmarks/bridges.py`: put the checkout root first on sys.path, not
# benchmarks/ (whose engines.py would shadow the `engines` package).
_ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or ".").resolve() == _ROOT / "benchmarks":
    sys.path[0] = str(_ROOT)

import argparse  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from functools import partial  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

from arena import config as arena_config  # noqa: E402
from benchmarks import _bench  # noqa: E402
from engines.base import Engine  # noqa: E402
from engines.testing import new_game  # noqa: E402

GAMES = ("openspiel:kuhn_poker", "openspiel:leduc_poker", "openspiel:tic_tac_toe")
RANDOM_BOT = "python -m bots.openspiel --algorithm random"


# -- part 1: the PettingZoo export ---------------------------------------------------------


def _engine_steps(engine: Engine, players: int, seeds: range, observe: bool) -> int:
    steps = 0
    for seed in seeds:
        state = new_game(engine, players, seed)
        rng = random.Random(seed)
        while (seat := state.to_move()) is not None:
            legal = state.legal_actions()
            if observe:
                state.observation(seat)
            state.apply_index(rng.randrange(len(legal)))
            steps += 1
    return steps


def _env_steps(made: Any, seeds: range) -> int:
    steps = 0
    for seed in seeds:
        made.reset(seed=seed)
        rng = random.Random(seed)
        for _ in made.agent_iter():
            observation, _, termination, truncation, _ = made.last()
            if termination or truncation:
                made.step(None)
                continue
            ids = np.flatnonzero(observation["action_mask"])
            made.step(int(ids[rng.randrange(len(ids))]))
            steps += 1
    return steps


def _best(run: Callable[[], int], repeats: int = 3) -> tuple[int, float]:
    """Steps and the fewest CPU seconds of ``repeats`` runs."""
    best, steps = float("inf"), 0
    for _ in range(repeats):
        started = time.process_time()
        steps = run()
        best = min(best, time.process_time() - started)
    return steps, best


def part_export(wanted: list[str] | None, games: int) -> None:
    from arena.bridges.pettingzoo import env

    rows = []
    for name, engine in _bench.load_engines(wanted).items():
        players = max(2, engine.min_players)
        seeds = range(1, games + 1)
        steps, plain = _best(partial(_engine_steps, engine, players, seeds, False))
        _, observed = _best(partial(_engine_steps, engine, players, seeds, True))
        env_steps, wrapped = _best(partial(_env_steps, env(name, players), seeds))
        engine_us, env_us = plain / steps * 1e6, wrapped / env_steps * 1e6
        rows.append(
            {
                "engine": f"{name} {players}p",
                "steps (engine, env)": f"{steps}, {env_steps}",
                "engine steps/s": steps / plain,
                "+ observation steps/s": steps / observed,
                "PettingZoo steps/s": env_steps / wrapped,
                "µs per step (engine)": engine_us,
                "µs per step (PettingZoo)": env_us,
                "PettingZoo / engine": env_us / engine_us,
            }
        )
    _bench.print_table(rows, f"Part 1: the PettingZoo export against the engine ({games} games)")


# -- part 2: OpenSpiel games in the arena ----------------------------------------------------


def openspiel_loop(game: Any, seconds: float, seed: int = 1) -> tuple[int, float]:
    """OpenSpiel's own random loop for about ``seconds``: (decisions, seconds taken)."""
    rng = random.Random(seed)
    decisions = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        for _ in range(50):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(outcomes, weights)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    decisions += 1
    return decisions, time.perf_counter() - started


def engine_loop(name: str, seconds: float, seed: int = 1) -> tuple[int, int, float]:
    """The same random loop through the arena's engine adapter (with the observation the
    referee sends): (decisions, games, seconds taken)."""
    import engines

    engine = engines.get(name)
    rng = random.Random(seed)
    decisions = game = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        for _ in range(50):
            game += 1
            state = engine.new_game(2, game, {})
            while (seat := state.to_move()) is not None:
                state.observation(seat)
                state.apply_index(rng.randrange(len(state.legal_actions())))
                decisions += 1
    return decisions, game, time.perf_counter() - started


def league(name: str, rounds: int, cmd: str = RANDOM_BOT) -> arena_config.LeagueConfig:
    data: dict[str, Any] = {
        "name": "bridges",
        "engine": name,
        "players": [2],
        "rounds": rounds,
        "seed": 1,
        "bots": [{"name": f"bot-{i}", "cmd": cmd} for i in range(2)],
    }
    return arena_config.parse(data, source="<benchmark bridges>")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short smoke run (< 30 s)")
    parser.add_argument("--part", choices=("export", "import", "both"), default="both")
    parser.add_argument("--export-engines", nargs="*", help="part 1: engines (default: all)")
    parser.add_argument("--export-games", type=int, help="part 1: games an engine (default 50)")
    parser.add_argument("--games", nargs="*", default=list(GAMES), help="openspiel: engines")
    parser.add_argument("--jobs", type=int, nargs="*", help="arena concurrency (default 1 2)")
    parser.add_argument("--trials", type=int, help="interleaved trials per cell (default 2)")
    parser.add_argument("--decisions", type=int, help="decisions per arena trial")
    args = parser.parse_args()
    print(f"# bridges benchmark: {_bench.machine_line()}")
    if args.part in ("export", "both"):
        part_export(args.export_engines, args.export_games or (3 if args.quick else 50))
    if args.part in ("import", "both"):
        part_import(args)


def part_import(args: argparse.Namespace) -> None:
    import engines

    jobs = args.jobs or ([1] if args.quick else [1, 2])
    trials = args.trials or (1 if args.quick else 2)
    wanted = args.decisions or (3000 if args.quick else 8000)
    seconds = 0.5 if args.quick else 2.0
    rows = []
    for name in args.games:
        engine = engines.get(name)
        game = engine.game(2)  # type: ignore[attr-defined]
        decisions, games, _took = engine_loop(name, 0.2)
        per_game = decisions / games
        rounds = _bench.rounds_for(wanted, round(per_game), 2, minimum_games=20)
        line = _bench.act_message(engine, 2)
        best: dict[str, float] = {}
        for _ in range(trials):
            count, took = openspiel_loop(game, seconds)
            best["openspiel"] = max(best.get("openspiel", 0.0), count / took)
            count, _games, took = engine_loop(name, seconds)
            best["engine"] = max(best.get("engine", 0.0), count / took)
            trips = _bench.ping_pong(line, seconds)
            best["pipe"] = max(best.get("pipe", 0.0), trips)
            run = _bench.run_timed_league(league(name, rounds, _bench.TRIVIAL_CMD), 1)
            best["trivial"] = max(best.get("trivial", 0.0), run.decisions_per_s)
            for level in jobs:
                run = _bench.run_timed_league(league(name, rounds), level)
                label = f"arena jobs {level}"
                best[label] = max(best.get(label, 0.0), run.decisions_per_s)
                best[f"{label} games"] = max(best.get(f"{label} games", 0.0), run.games_per_s)
        row: dict[str, Any] = {"engine": name, "decisions/game": round(per_game, 2)}
        row["openspiel loop dec/s"] = round(best["openspiel"])
        row["engine adapter dec/s"] = round(best["engine"])
        row["pipe RT/s"] = round(best["pipe"])
        row["arena trivial bot jobs 1 dec/s"] = round(best["trivial"])
        for level in jobs:
            arena = best[f"arena jobs {level}"]
            row[f"arena jobs {level} dec/s"] = round(arena)
            row[f"games/s jobs {level}"] = round(best[f"arena jobs {level} games"])
            row[f"openspiel/arena jobs {level}"] = best["openspiel"] / arena
        rows.append(row)
    _bench.print_table(rows, "Part 2: OpenSpiel games, decisions/s of the same random policy")


if __name__ == "__main__":
    main()
