"""Championship formats: the games each needs, and how often the strongest bot wins.

    python benchmarks/championship.py --events 200

Part 1 counts the games of a league of 8, 40 and 200 bots in each format with the arena's
own count (:func:`arena.league.schedule.game_count` of the league file), at tables of 2 and
of 4. Part 2 simulates ``--events`` events of 40 bots of known strength (Elo 0, 15, ..., 585;
the model of tests/ratings_sim.py: Plackett-Luce finishing orders, a rotation block per
table) and prints how often the strongest bot wins: a Swiss league of R rounds (the arena's
pairing, :mod:`arena.league.swiss`), the same games on random tables (R rounds, each seating
the field at random; the winner by the same match points and tie-breaks), and a knockout
(:mod:`arena.league.knockout`; its games counted as played, tie-breaks included). Seeded:
the same numbers every time.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as `python benchmarks/championship.py`, Python puts benchmarks/ first on sys.path,
# where benchmarks/engines.py would hide the engines package: the repository's root goes there.
_ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or ".").resolve() == _ROOT / "benchmarks":
    sys.path[0] = str(_ROOT)

import argparse  # noqa: E402
import math  # noqa: E402
from collections.abc import Callable  # noqa: E402
from functools import partial  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

from arena import config  # noqa: E402
from arena.heats import Stage  # noqa: E402
from arena.league.knockout import bracket  # noqa: E402
from arena.league.schedule import game_count  # noqa: E402
from arena.league.swiss import (  # noqa: E402
    Pairing,
    RoundResult,
    TableResult,
    pair_round,
    standings,
)
from tests.ratings_sim import block_points  # noqa: E402

FIELDS = (8, 40, 200)


def league(field: int, **extra: Any) -> config.LeagueConfig:
    """A league file of ``field`` bots (space-five: tables of 2 to 4)."""
    bots = [{"name": f"b{i}", "cmd": "python -m bots.random"} for i in range(field)]
    data = {"engine": "space-five", "seed": 1, "bots": bots, **extra}
    return config.parse(data, base=_ROOT)


def swiss_rounds(field: int, size: int) -> int:
    """Rounds enough for one undefeated leader: log base ``size`` of the field, plus one."""
    return math.ceil(math.log(field, size)) + 1


def round_robin(size: int, field: int) -> config.LeagueConfig:
    return league(field, players=size)


def swiss(size: int, field: int) -> config.LeagueConfig:
    return league(field, players=size, mode="swiss", rounds=swiss_rounds(field, size))


def knockout(size: int, advance: int, field: int) -> config.LeagueConfig:
    stages = [{"table": size, "advance": advance}]
    sizes = list(range(2, size + 1))
    return league(field, players=sizes, mode="knockout", knockout={"stages": stages})


def part_counts() -> None:
    print("| format (tables of k) | 8 bots | 40 bots | 200 bots |")
    print("|---|---|---|---|")
    rows: list[tuple[str, Callable[[int], config.LeagueConfig]]] = []
    for k in (2, 4):
        rows.append((f"round-robin, 1 round (k = {k})", partial(round_robin, k)))
        rows.append((f"Swiss, R = ceil(log_k n) + 1 rounds (k = {k})", partial(swiss, k)))
    rows.append(("knockout, tables of 4, top 2 go on", partial(knockout, 4, 2)))
    rows.append(("knockout, tables of 2, winner goes on", partial(knockout, 2, 1)))
    for title, make in rows:
        cells = []
        for n in FIELDS:
            made = make(n)
            extra = f" ({made.rounds} rounds)" if made.mode == "swiss" else ""
            cells.append(f"{game_count(made):,}{extra}")
        print(f"| {title} | {' | '.join(cells)} |")


def play_round(
    tables: tuple[tuple[str, ...], ...], byes: tuple[str, ...], elo: dict[str, float], rng: Any
) -> RoundResult:
    return RoundResult(tuple(TableResult(t, block_points(elo, t, rng)) for t in tables), byes)


def swiss_winner(field: list[str], elo: dict[str, float], size: int, rounds: int, rng: Any) -> str:
    played: list[RoundResult] = []
    seed = int(rng.integers(2**31))  # the event's league seed
    for _ in range(rounds):
        pairing = pair_round(field, played, size, seed)
        played.append(play_round(pairing.tables, pairing.byes, elo, rng))
    return standings(field, played, size, seed)[0].name


def random_winner(field: list[str], elo: dict[str, float], size: int, rounds: int, rng: Any) -> str:
    played: list[RoundResult] = []
    for _ in range(rounds):
        order = [field[i] for i in rng.permutation(len(field))]
        cut = len(order) - len(order) % size
        tables = tuple(tuple(order[i : i + size]) for i in range(0, cut, size))
        pairing = Pairing(tables, tuple(order[cut:]))
        played.append(play_round(pairing.tables, pairing.byes, elo, rng))
    return standings(field, played, size, seed=0)[0].name


def knockout_winner(
    field: list[str], elo: dict[str, float], stages: list[Stage], rng: Any
) -> tuple[str, int]:
    played: dict[tuple[int, int], list[dict[str, float]]] = {}
    games = 0
    order = [field[i] for i in rng.permutation(len(field))]  # seeded by a draw: no rating
    while True:
        state = bracket(order, stages, played, tiebreak_blocks=1)
        if state.winner is not None:
            return state.winner, games
        for heat, _ in state.to_play:
            points = block_points(elo, heat.players, rng)
            played.setdefault((heat.stage, heat.index), []).append(
                dict(zip(heat.players, points, strict=True))
            )
            games += len(heat.players)


def part_simulation(events: int) -> None:
    field = [f"b{i:02d}" for i in range(40)]
    elo = {name: 15.0 * i for i, name in enumerate(field)}
    best = field[-1]
    print(f"\n{events} events of 40 bots, Elo 0 to 585 in steps of 15; the strongest is {best}.")
    print("| tables of k | format | games an event | strongest bot wins |")
    print("|---|---|---|---|")
    for size, stages in ((2, [Stage(2, 1)]), (4, [Stage(4, 2)])):
        rounds = swiss_rounds(40, size)
        games = rounds * (40 - 40 % size)
        for title, winner in (
            (f"Swiss, {rounds} rounds", swiss_winner),
            (f"random tables, {rounds} rounds", random_winner),
        ):
            rng = np.random.default_rng(7)
            wins = sum(winner(field, elo, size, rounds, rng) == best for _ in range(events))
            print(f"| {size} | {title} | {games} | {wins / events:.1%} |")
        rng = np.random.default_rng(7)
        results = [knockout_winner(field, elo, stages, rng) for _ in range(events)]
        wins = sum(w == best for w, _ in results)
        mean = sum(g for _, g in results) / events
        print(
            f"| {size} | knockout, top {stages[0].advance} go on | {mean:.0f} (mean) "
            f"| {wins / events:.1%} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=200)
    args = parser.parse_args()
    part_counts()
    part_simulation(args.events)


if __name__ == "__main__":
    main()
