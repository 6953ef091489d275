"""A bot whose strength is a known function of its parameters (for testing ``arena tune``).

Each decision it plays the engine's greedy move with probability
``p = exp(-d² / 2)``, where ``d`` is the distance of its parameters to a hidden optimum in
units of ``--width``, and a uniformly random legal move otherwise. Its strength is best at
the optimum and falls smoothly away from it, so a tuner that works finds the optimum.

    python -m bots.synthetic --optimum x=3,y=-2 --width 4 [--greedy MODULE] [--x 0 --y 0]

Parameters come from each game's ``start`` message (``params``), else from ``--NAME VALUE``
flags, else 0. ``--greedy`` names a module with ``choose(observation, legal, game)``;
by default the engine's own greedy bot (``engines.parts_of(engine).module("greedy")``).
"""

from __future__ import annotations

import argparse
import importlib
import math
from collections.abc import Callable
from typing import Any

import engines
from arena.sdk import GameInfo, run

Choose = Callable[[dict[str, Any], list[dict[str, Any]], GameInfo], int]


def strength(params: dict[str, float], optimum: dict[str, float], width: float) -> float:
    """The probability of the greedy move at ``params``."""
    d2 = sum(((params.get(k, 0.0) - v) / width) ** 2 for k, v in optimum.items())
    return math.exp(-d2 / 2)


def parse(argv: list[str] | None = None) -> tuple[dict[str, float], float, str, dict[str, float]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--optimum", required=True, help="NAME=VALUE,... the hidden optimum")
    parser.add_argument("--width", type=float, default=4.0)
    parser.add_argument("--greedy", default="", help="module of the greedy choose()")
    known, rest = parser.parse_known_args(argv)
    optimum = {}
    for pair in known.optimum.split(","):
        name, _, value = pair.partition("=")
        optimum[name.strip()] = float(value)
    flags = {}
    for flag, value in zip(rest[::2], rest[1::2], strict=False):
        flags[flag.lstrip("-")] = float(value)
    return optimum, known.width, known.greedy, flags


def main(argv: list[str] | None = None) -> None:
    optimum, width, greedy_module, flags = parse(argv)
    greedy: list[Choose] = []

    def on_hello(engine: str, options: dict[str, Any]) -> None:
        module = (
            importlib.import_module(greedy_module)
            if greedy_module
            else engines.parts_of(engine).module("greedy")
        )
        if module is None:
            raise SystemExit(f"synthetic: {engine} has no greedy bot; give --greedy MODULE")
        greedy.append(module.choose)

    def choose(obs: dict[str, Any], legal: list[dict[str, Any]], game: GameInfo) -> int:
        params = {**flags, **{k: float(v) for k, v in game.params.items()}}
        if game.rng.random() < strength(params, optimum, width):
            return greedy[0](obs, legal, game)
        return game.rng.randrange(len(legal))

    run(choose, name="synthetic", on_hello=on_hello)


if __name__ == "__main__":
    main()
