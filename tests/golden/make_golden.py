"""Write the known answers of every engine: a golden play-through and perft counts.

    python -m tests.golden.make_golden                       # every engine
    python -m tests.golden.make_golden --engines good-boy    # only these

Run it on purpose after a rules change (and bump the engine's ``version``); the test
``tests/test_golden.py`` diffs the engines against these files.

Each engine's file ``tests/golden/<engine>.jsonl`` is JSON lines: a header (engine, version,
players, seed, perft counts), then one line per decision of a seeded random game: the seat,
the chosen action and its description, the size of the legal list, a digest of (observation,
legal list) and a short digest of each part (every observation key, and ``(legal list)``),
and last the end (scores, ranks). A failing test names the step, the action and the parts that
changed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import engines
from engines.testing import new_game, perft

HERE = Path(__file__).resolve().parent
SEED = 20261129
PERFT_DEPTH = 3


def digest(value: Any, size: int = 16) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:size]


def play_through(name: str, players: int) -> list[dict[str, Any]]:
    """One line per decision (see the module docstring), then the end."""
    state = new_game(engines.get(name), players, SEED)
    rng = random.Random(SEED)
    lines: list[dict[str, Any]] = []
    while (seat := state.to_move()) is not None:
        legal = state.legal_actions()
        observation = state.observation(seat)
        index = rng.randrange(len(legal))
        parts = {key: digest(value, 6) for key, value in observation.items()}
        parts["(legal list)"] = digest(legal, 6)
        lines.append(
            {
                "step": len(lines),
                "seat": seat,
                "index": index,
                "action": legal[index],
                "says": state.describe(legal[index]),
                "legal": len(legal),
                "digest": digest([observation, legal]),
                "parts": parts,
            }
        )
        state.apply_index(index)
    result = state.result()
    lines.append({"end": {"scores": result.scores, "ranks": result.ranks}})
    return lines


def known_answers(name: str) -> list[dict[str, Any]]:
    """The header line, then the play-through."""
    engine = engines.get(name)
    players = max(2, engine.min_players)
    header = {
        "engine": name,
        "version": engine.version,
        "players": players,
        "seed": SEED,
        "perft": [perft(new_game(engine, players, SEED + s), PERFT_DEPTH) for s in range(3)],
    }
    return [header, *play_through(name, players)]


def path_for(name: str) -> Path:
    return HERE / f"{name}.jsonl"


def write(name: str, lines: list[dict[str, Any]]) -> None:
    text = "".join(
        json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n" for line in lines
    )
    path_for(name).write_text(text, encoding="utf-8")


def read(name: str) -> list[dict[str, Any]]:
    text = path_for(name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tests.golden.make_golden",
        description="Rewrite the known answers (tests/golden/<engine>.jsonl) of the engines: "
        "on purpose only, after a rules change and a version bump.",
    )
    parser.add_argument(
        "--engines",
        nargs="+",
        metavar="NAME",
        choices=engines.names(),
        default=engines.names(),
        help="only these engines (default: every engine: %(choices)s)",
    )
    args = parser.parse_args(argv)
    for name in args.engines:
        lines = known_answers(name)
        write(name, lines)
        print(f"{path_for(name)}: {len(lines) - 2} steps, perft {lines[0]['perft']}")


if __name__ == "__main__":
    main()
