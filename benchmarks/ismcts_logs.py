"""Search effort of the ISMCTS bot in a league, from its stderr log.

    python benchmarks/ismcts_logs.py results/ismcts-cat-yard [more result folders]

``bots.ismcts`` writes one line per game to stderr (kept in ``logs/<bot>.log`` of the
results folder): the searched decisions (those with more than one legal action), the mean,
least and most iterations per search and the milliseconds per search. This sums them per
league: what "simulations per move" means in ``docs/bots.md``. It also prints each bot's
mean game score from ``games.jsonl`` (the comparison of the solo leagues, where every game
ranks its only seat first). ``--split-at N`` also splits ISMCTS's score against greedy by
the iterations per search it noted in each game (below N, and N or more).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
from collections import defaultdict
from pathlib import Path

LINE = re.compile(
    r"(\d+) searches, ([\d.]+) iterations/search \(min (\d+), max (\d+)\), ([\d.]+) ms/search"
)


def summary(folder: Path) -> str:
    searches, iterations, millis, least, most, games = 0, 0.0, 0.0, None, 0, 0
    for log in sorted((folder / "logs").glob("*.log")):
        for line in log.read_text(errors="replace").splitlines():
            match = LINE.search(line)
            if match is None:
                continue
            count = int(match.group(1))
            games += 1
            searches += count
            iterations += count * float(match.group(2))
            millis += count * float(match.group(5))
            low = int(match.group(3))
            least = low if least is None else min(least, low)
            most = max(most, int(match.group(4)))
    if not searches:
        return f"{folder.name}: no ISMCTS search lines in {folder / 'logs'}"
    return (
        f"{folder.name}: {games} games, {searches} searches, "
        f"{iterations / searches:.1f} iterations/search (min {least}, max {most}), "
        f"{millis / searches:.1f} ms/search"
    )


def mean_scores(folder: Path) -> str:
    """Each bot's mean score and its standard error over the stored games."""
    scores: dict[str, list[float]] = defaultdict(list)
    for line in (folder / "games.jsonl").read_text().splitlines():
        record = json.loads(line)
        for bot, score in zip(record["seating"], record["scores"], strict=True):
            scores[bot].append(score)
    parts = []
    for bot, values in sorted(scores.items(), key=lambda item: -statistics.mean(item[1])):
        se = statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
        parts.append(f"{bot} {statistics.mean(values):.2f} ± {se:.2f} ({len(values)} games)")
    return f"{folder.name}: mean score " + ", ".join(parts)


NOTED = re.compile(r"(\d+) iterations")


def split_by_iterations(folder: Path, bot: str, rival: str, at: int) -> str:
    """``bot``'s score against ``rival`` (a win 1, a tie 1/2) in the games where it noted
    fewer than ``at`` iterations per search on average, and in the others."""
    parts: dict[bool, list[float]] = {False: [], True: []}
    for line in (folder / "games.jsonl").read_text().splitlines():
        record = json.loads(line)
        seating = record["seating"]
        if sorted(seating) != sorted([bot, rival]):
            continue
        own, other = seating.index(bot), seating.index(rival)
        noted = [
            int(m.group(1)) for _, text in record["bot_notes"][own] if (m := NOTED.match(text))
        ]
        ranks = record["ranks"]
        score = 1.0 if ranks[own] < ranks[other] else 0.5 if ranks[own] == ranks[other] else 0.0
        parts[bool(noted) and statistics.mean(noted) >= at].append(score)
    shown = [
        f"{'>=' if high else '<'} {at} iterations: {statistics.mean(v) * 100:.1f} % of {len(v)}"
        for high, v in sorted(parts.items())
        if v
    ]
    return f"{folder.name}: {bot} against {rival}, " + "; ".join(shown)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path, help="league results folders")
    parser.add_argument(
        "--split-at",
        type=int,
        default=0,
        help="also ismcts's score against greedy in games below and at or above this many "
        "iterations per search (from its notes)",
    )
    args = parser.parse_args()
    for folder in args.folders:
        print(summary(folder))
        print(mean_scores(folder))
        if args.split_at:
            print(split_by_iterations(folder, "ismcts", "greedy", args.split_at))


if __name__ == "__main__":
    main()
