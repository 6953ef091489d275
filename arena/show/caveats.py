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
    won = [row.bot for row in standings.rows if row.games and row.score_pct == 100.0]
    lost = [row.bot for row in standings.rows if row.games and row.score_pct == 0.0]
    if (won or lost) and standings.prior:  # with no prior (online Elo, prior 0) it sets nothing
        # a solo league's bots meet only by score
        best, worst = (
            ("Best score on every seed", "worst score on every seed")
            if standings.solo
            else ("Perfect record", "lost every game")
        )
        said = "; ".join(
            f"{words} ({', '.join(bots)})" for words, bots in ((best, won), (worst, lost)) if bots
        )
        one = len(won) + len(lost) == 1
        found.append(
            f"{said[0].upper()}{said[1:]}: the rating{'' if one else 's'} "
            f"{'is' if one else 'are'} set by the prior ({standings.prior:g} virtual draws per "
            "bot), not by the games; the true gap may be larger."
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
