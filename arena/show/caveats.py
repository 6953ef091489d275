"""Honest warnings about standings: when the numbers say less than they seem to.

Shown under the terminal standings and at the top of the HTML report.
"""

from __future__ import annotations

import itertools

from arena.stats.ratings import Standings
from arena.words import counted

FEW_BLOCKS = 20
"""Below this many resampling units the bootstrap's ± is too narrow to trust."""
_MAX_PAIRS = 6


def caveats(standings: Standings) -> list[str]:
    """Warnings about ``standings``, each one sentence; empty when there is nothing to say."""
    if not standings.games:
        return ["No games yet: there is nothing to rate."]
    found: list[str] = []
    if standings.bootstrap and standings.units < FEW_BLOCKS:
        unit = "seed" if standings.solo else "block"  # a solo league resamples its seeds
        found.append(
            f"Only {counted(standings.units, unit)} (fewer than {FEW_BLOCKS}): ± is a lower "
            f"bound; a bootstrap over so few {unit}s understates the uncertainty."
        )
    perfect = [row.bot for row in standings.rows if row.games and row.score_pct in (0.0, 100.0)]
    if perfect and standings.prior:  # with no prior (online Elo, prior 0) it sets nothing
        record = (
            "Best or worst score on every seed"  # a solo league's bots meet only by score
            if standings.solo
            else "Perfect record"
        )
        found.append(
            f"{record} ({', '.join(perfect)}): the rating is set by the prior "
            f"({standings.prior:g} virtual draws per bot), not by the games; "
            "the true gap may be larger."
        )
    if any(standings.crosstable.values()):
        never = [
            f"{a}–{b}"
            for a, b in itertools.combinations([row.bot for row in standings.rows], 2)
            if b not in standings.crosstable.get(a, {})
        ]
        if never:
            shown = ", ".join(never[:_MAX_PAIRS]) + (
                f" and {len(never) - _MAX_PAIRS} more" if len(never) > _MAX_PAIRS else ""
            )
            found.append(
                f"Bots that never met: {shown}; their ratings compare only through "
                "common opponents."
            )
    return found
