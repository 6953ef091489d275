"""The bridges' cost: an arena league on an OpenSpiel game against OpenSpiel's own loop.

    python benchmarks/bridges.py            # full: 3 games, jobs 1 and 2, best of 2 (~5 min)
    python benchmarks/bridges.py --quick    # smoke test (~15 s)

**OpenSpiel games hosted by the arena** (``engine = "openspiel:NAME"``). For each game, the
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
from typing import Any  # noqa: E402

from arena import config as arena_config  # noqa: E402
from benchmarks import _bench  # noqa: E402

GAMES = ("openspiel:kuhn_poker", "openspiel:leduc_poker", "openspiel:tic_tac_toe")
RANDOM_BOT = "python -m bots.openspiel --algorithm random"


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
    parser.add_argument("--games", nargs="*", default=list(GAMES), help="openspiel: engines")
    parser.add_argument("--jobs", type=int, nargs="*", help="arena concurrency (default 1 2)")
    parser.add_argument("--trials", type=int, help="interleaved trials per cell (default 2)")
    parser.add_argument("--decisions", type=int, help="decisions per arena trial")
    args = parser.parse_args()
    import engines

    jobs = args.jobs or ([1] if args.quick else [1, 2])
    trials = args.trials or (1 if args.quick else 2)
    wanted = args.decisions or (3000 if args.quick else 8000)
    seconds = 0.5 if args.quick else 2.0
    print(f"# bridges benchmark: {_bench.machine_line()}")
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
    _bench.print_table(rows, "OpenSpiel games: decisions/s of the same random policy")


if __name__ == "__main__":
    main()
