"""Where an ISMCTS iteration's time goes: sampling, cloning, play-out, tree.

    python benchmarks/ismcts_profile.py space-five --flags "--playout random --depth 30"
    python benchmarks/ismcts_profile.py good-boy --iterations 50 --flags "--playout greedy
        --depth 30 --margin 3 --guide greedy --confidence 1"

Two seeded games of the engine's greedy bot against itself (2 seats) give the decision
points: every fourth of seat 0's decisions with more than one legal action, with the
observations seat 0 had seen. At each, ``bots.ismcts``'s search with the given flags runs
a fixed number of iterations while the script measures CPU time (``time.process_time``,
so the load of other processes counts little) in ``engine.sample_state`` (of which
``clone()``, called inside the engines' ``determinize``), in the play-out policy, and the
rest of the iteration: the tree (descent, action keys, expansion, back-up) and scoring.
"""

from __future__ import annotations

import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or ".").resolve() == _ROOT / "benchmarks":
    sys.path[0] = str(_ROOT)

import argparse  # noqa: E402
import random  # noqa: E402
import shlex  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from typing import Any  # noqa: E402

import engines  # noqa: E402
from arena.sdk import GameInfo  # noqa: E402
from bots import ismcts  # noqa: E402
from engines.base import Action, Engine, GameState  # noqa: E402

Decision = tuple[list[dict[str, Any]], list[Action], int]


def decisions(engine: Engine, seeds: range) -> list[Decision]:
    """Seat 0's searched decision points of greedy-vs-greedy games (every fourth)."""
    greedy = ismcts.load_greedy(engine)
    options = engine.check(2, {})
    found: list[Decision] = []
    for seed in seeds:
        state = engine.new_game(2, seed, options)
        rng = random.Random(seed)
        seen: list[dict[str, Any]] = []
        while (seat := state.to_move()) is not None:
            legal = state.legal_actions()
            observation = state.observation(seat)
            info = GameInfo(engine.name, options, "profile", seat, 2, seed, rng)
            choice = greedy(observation, legal, info)
            index = choice if isinstance(choice, int) else legal.index(choice)
            if seat == 0:
                seen.append(observation)
                if len(legal) > 1 and len(seen) % 4 == 1:
                    found.append((list(seen), legal, index))
            state.apply_index(index)
    return found


class Timer:
    """CPU seconds spent inside wrapped functions, by part (a part nested in another is
    counted in both)."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = {"sample": 0.0, "clone": 0.0, "playout": 0.0}

    def wrap(self, part: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.spent[part] += time.process_time() - started

        return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine")
    parser.add_argument("--flags", default="", help="bots.ismcts flags (one string)")
    parser.add_argument("--iterations", type=int, default=50, help="per search (default 50)")
    args = parser.parse_args()
    engine = engines.get(args.engine)
    points = decisions(engine, range(1, 3))
    settings = ismcts.parse(shlex.split(args.flags))[0].for_engine(engine.name)
    options = engine.check(2, {})
    timer = Timer()
    original_sample, original_clone = type(engine).sample_state, GameState.clone
    type(engine).sample_state = timer.wrap("sample", original_sample)  # type: ignore[method-assign]
    GameState.clone = timer.wrap("clone", original_clone)  # type: ignore[method-assign]
    total = 0.0
    iterations = 0
    try:
        for seen, legal, _ in points:
            game = GameInfo(engine.name, options, "profile", 0, 2, 1, random.Random(5))
            search = ismcts.make_search(settings, seen[-1], legal, game)
            search.playout = timer.wrap("playout", search.playout)
            started = time.process_time()
            search.choose(seen, legal, args.iterations, 0.0)
            total += time.process_time() - started
            iterations += search.iterations
    finally:
        type(engine).sample_state = original_sample  # type: ignore[method-assign]
        GameState.clone = original_clone  # type: ignore[method-assign]
    searches = len(points)
    spent = timer.spent
    tree = total - spent["sample"] - spent["playout"]
    per = 1e6 / iterations
    print(f"{engine.name}, 2 seats, flags: {args.flags or '(defaults)'}")
    print(f"{searches} searches, {iterations / searches:.0f} iterations each")
    print("| part | µs per iteration (CPU) | share |")
    print("|---|---|---|")
    for part, seconds in (
        ("sample_state", spent["sample"]),
        ("  of which clone()", spent["clone"]),
        ("play-out policy", spent["playout"]),
        ("tree and scoring", tree),
        ("iteration", total),
    ):
        print(f"| {part} | {seconds * per:.0f} | {seconds / total:.2f} |")
    print(f"iterations per CPU second: {iterations / total:.0f}")


if __name__ == "__main__":
    main()
