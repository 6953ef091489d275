"""Engine speed: seeded random play-outs in-process, cost per decision against a pipe round trip.

    python benchmarks/engines.py                     # full: every engine and seat count (~1 min)
    python benchmarks/engines.py --quick             # smoke test (< 30 s)
    python benchmarks/engines.py --profile space-five:2   # cProfile one engine's play-outs
    python benchmarks/engines.py --search            # only the search table (ISMCTS rates)

For every engine and player count, games with seeds 1, 2, ... are played with seeded random
choices, doing per decision exactly what the referee does: ``legal_actions()``,
``observation(seat)``, encoding the ``act`` line (``arena.protocol.encode``, observation and
legal list), and ``apply_index(i)`` (the referee's door since round two: the index the bot
chose, checked against the length of the legal list). Each part is timed on its own; the
random choice itself (``random.Random.randrange``, the bot's work) is drawn between the
encoding and ``apply_index`` and is in no part (until 2026-12-01 it was timed as part of
apply: 0.16 µs in a tight loop, ``python -m timeit -s "import random; r = random.Random(1)"
"r.randrange(20)"``).

The baseline, measured in the same run right after each engine/seat count (the fastest of
three short runs): one raw trio pipe round trip with ``benchmarks/trivial_bot.py`` carrying
an act line of that engine's mean size. Target: engine cost per decision < 0.5 of that round trip.

The search table: at the decisions of seat 0 in seeded random games, the cost of
``sample_state`` from the seat's observations, of ``clone()``, and the ISMCTS iterations per
second of ``bots.ismcts`` (one ``sample_state``, a tree descent and a random play-out to the
end, or capped at 30 actions: the ``--depth`` flag) with the share of ``sample_state`` in it.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as `python benchmarks/<name>.py`, Python puts benchmarks/ first on sys.path, where
# benchmarks/engines.py would shadow the `engines` package: put the checkout root there
# instead (the helpers are then imported as `benchmarks._bench`).
_ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or ".").resolve() == _ROOT / "benchmarks":
    sys.path[0] = str(_ROOT)

import argparse  # noqa: E402
import cProfile  # noqa: E402
import pstats  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from typing import Any  # noqa: E402

from arena import protocol  # noqa: E402
from arena.sdk import GameInfo  # noqa: E402
from benchmarks import _bench  # noqa: E402
from bots.ismcts import Search, random_playout  # noqa: E402
from engines.base import Engine  # noqa: E402
from engines.testing import new_game  # noqa: E402


@dataclass
class Tally:
    """Accumulated seconds per part of a decision, over many games."""

    games: int = 0
    decisions: int = 0
    setup: float = 0.0  # new_game + result
    legal: float = 0.0
    observe: float = 0.0
    encode: float = 0.0
    apply: float = 0.0
    sizes: int = 0
    sample: bytes = b""
    lines: list[bytes] = field(default_factory=list)

    @property
    def per_decision(self) -> float:
        return (self.legal + self.observe + self.encode + self.apply) / self.decisions

    @property
    def total(self) -> float:
        return self.setup + self.legal + self.observe + self.encode + self.apply


def play(engine: Engine, players: int, seed: int, tally: Tally, keep: bool = False) -> None:
    """One seeded random game, timing each part the referee does per decision."""
    clock = time.perf_counter
    t0 = clock()
    state = new_game(engine, players, seed)
    tally.setup += clock() - t0
    rng = random.Random(seed)
    game = f"bench-{seed}"
    step = 0
    while (seat := state.to_move()) is not None:
        t0 = clock()
        legal = state.legal_actions()
        t1 = clock()
        observation = state.observation(seat)
        t2 = clock()
        line = protocol.encode(protocol.act(game, step, observation, legal, 1000, 10_000))
        t3 = clock()
        choice = rng.randrange(len(legal))  # the bot's part: not the engine's, not timed
        t4 = clock()
        state.apply_index(choice)
        t5 = clock()
        tally.legal += t1 - t0
        tally.observe += t2 - t1
        tally.encode += t3 - t2
        tally.apply += t5 - t4
        tally.sizes += len(line)
        if keep:
            tally.lines.append(line)
        step += 1
    t0 = clock()
    state.result()
    tally.setup += clock() - t0
    tally.decisions += step
    tally.games += 1


def measure(engine: Engine, players: int, seconds: float, min_games: int) -> Tally:
    tally = Tally()
    play(engine, players, 0, Tally())  # warm-up: imports, caches
    seed = 1
    while tally.total < seconds or tally.games < min_games:
        play(engine, players, seed, tally, keep=seed == 1)
        seed += 1
    mean = tally.sizes / tally.decisions
    tally.sample = min(tally.lines, key=lambda line: abs(len(line) - mean))
    tally.lines = []
    return tally


def profile(engine: Engine, players: int, seconds: float) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    tally = measure(engine, players, seconds, 3)
    profiler.disable()
    print(f"\n## cProfile: {engine.name}, {players} seats, {tally.games} random games")
    print(f"{tally.decisions} decisions, {tally.per_decision * 1e6:.1f} µs/decision (profiled)\n")
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.sort_stats("tottime").print_stats(25)


def search_rates(engine: Engine, players: int, seconds: float) -> dict[str, Any]:
    """Search costs at seat 0's decisions of seeded random games (see the module doc)."""
    clock = time.perf_counter
    options = engine.check(players, {})
    spent = {"sample": 0.0, "clone": 0.0, "full": 0.0, "capped": 0.0}
    counts = {"sample": 0, "clone": 0, "full": 0, "capped": 0}
    seed = 1
    started = clock()
    while clock() - started < seconds:
        state = engine.new_game(players, seed, options)
        rng = random.Random(seed)
        seen: list[dict[str, Any]] = []
        decision = 0
        while (seat := state.to_move()) is not None:
            legal = state.legal_actions()
            if seat == 0:
                seen.append(state.observation(0))
                if len(legal) > 1 and decision % 5 == 0:
                    t0 = clock()
                    for _ in range(10):
                        engine.sample_state(players, options, 0, seen, rng)
                    t1 = clock()
                    for _ in range(10):
                        state.clone()
                    t2 = clock()
                    spent["sample"] += t1 - t0
                    spent["clone"] += t2 - t1
                    counts["sample"] += 10
                    counts["clone"] += 10
                    game = GameInfo(engine.name, options, "bench", 0, players, seed, rng)
                    for kind, depth in (("full", -1), ("capped", 30)):
                        search = Search(engine, game, 0.7, random_playout, depth)
                        t0 = clock()
                        search.choose(seen, legal, 5, 0.0)
                        spent[kind] += clock() - t0
                        counts[kind] += 5
                decision += 1 if seat == 0 else 0
            state.apply(legal[rng.randrange(len(legal))])
        seed += 1
    sample = spent["sample"] / counts["sample"]
    full = counts["full"] / spent["full"]
    capped = counts["capped"] / spent["capped"]
    return {
        "engine": engine.name,
        "seats": players,
        "games": seed - 1,
        "sample_state µs": sample * 1e6,
        "clone µs": spent["clone"] / counts["clone"] * 1e6,
        "iter/s full": full,
        "sample share": sample * full,
        "iter/s depth 30": capped,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short smoke run (< 30 s)")
    parser.add_argument("--engines", nargs="*", help="engine names (default: all)")
    parser.add_argument("--seconds", type=float, help="play-out time per engine and seat count")
    parser.add_argument("--profile", metavar="ENGINE[:SEATS]", help="cProfile one engine")
    parser.add_argument("--search", action="store_true", help="only the search table")
    args = parser.parse_args()
    seconds = args.seconds or (0.25 if args.quick else 2.0)
    rt_seconds = 0.1 if args.quick else 0.3

    if args.profile:
        name, _, seats = args.profile.partition(":")
        engine = _bench.load_engines([name])[name]
        profile(engine, int(seats or max(2, engine.min_players)), max(seconds, 2.0))
        return

    if args.search:
        search_table(args.engines, seconds)
        return

    print("# Engine cost per decision vs one pipe round trip")
    print(f"\n{_bench.machine_line()}")
    print(f"about {seconds} s of play-outs per engine and seat count")
    started = time.perf_counter()
    rows = []
    for name, engine in _bench.load_engines(args.engines).items():
        for players in _bench.player_counts(engine):
            tally = measure(engine, players, seconds, 2 if args.quick else 5)
            rates = [_bench.ping_pong(tally.sample, rt_seconds, 1) for _ in range(3)]
            rt = 1.0 / max(rates)  # the least disturbed of three: the strictest baseline
            per = tally.per_decision
            d = tally.decisions
            rows.append(
                {
                    "engine": name,
                    "seats": players,
                    "games": tally.games,
                    "dec/game": round(d / tally.games),
                    "games/s": tally.games / tally.total,
                    "µs/dec": per * 1e6,
                    "legal": tally.legal / d * 1e6,
                    "obs": tally.observe / d * 1e6,
                    "encode": tally.encode / d * 1e6,
                    "apply": tally.apply / d * 1e6,
                    "act bytes": round(tally.sizes / d),
                    "pipe RT µs": rt * 1e6,
                    "cost/RT": per / rt,
                    "target": "met" if per / rt < 0.5 else "MISSED",
                }
            )
            print(f"  {name} {players}: {per * 1e6:.1f} µs/dec, RT {rt * 1e6:.1f}", file=sys.stderr)

    _bench.print_table(rows, "Engines: µs per decision (target: cost/RT < 0.5)")
    print(
        "\nµs/dec = legal + obs + encode + apply (each µs per decision): legal_actions(), "
        "observation(seat), protocol.encode of the act line, apply_index(i);"
        "\npipe RT µs: one raw trio round trip with the trivial bot, act line of the mean size,"
        " fastest of 3 short runs right after each row;\ngames/s includes new_game and result."
    )
    print(f"\ntotal time {time.perf_counter() - started:.0f} s; {_bench.machine_line()}")
    search_table(args.engines, seconds)


def search_table(names: list[str] | None, seconds: float) -> None:
    print("\n# Search: sample_state, clone and ISMCTS iterations per second")
    rows = []
    for name, engine in _bench.load_engines(names).items():
        for players in _bench.player_counts(engine):
            rows.append(search_rates(engine, players, seconds))
            print(f"  {name} {players}: {rows[-1]['iter/s full']:.0f} iter/s", file=sys.stderr)
    _bench.print_table(rows, "Search (bots.ismcts, random play-outs)")
    print(
        "\niter/s full: ISMCTS iterations per second with play-outs to the end of the game;"
        " depth 30: play-outs capped at 30 actions;\nsample share: the part of a full"
        f" iteration spent in sample_state. {_bench.machine_line()}"
    )


if __name__ == "__main__":
    main()
