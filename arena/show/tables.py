"""Render :class:`arena.stats.ratings.Standings` as a terminal table, Markdown, CSV or JSON.

The ``table`` format keeps the main standings within 80 columns (long bot names are cut in
the middle, so that bot versions sharing a long prefix still read apart);
the verdict breakdown, crosstable, seat table and likelihood of superiority follow as
separate tables, the square ones split into column groups that also fit 80 columns.
"""

from __future__ import annotations

import csv
import io
import json
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from tabulate import tabulate

from arena.errors import VERDICTS, ConfigError
from arena.show.caveats import FEW_BLOCKS, caveats
from arena.stats.ratings import ONLINE_K, BotStanding, Standings
from arena.words import counted

FORMATS = ("table", "markdown", "csv", "json")
WIDTH = 80
BOT_WIDTH = 14
"""Bot names longer than this are cut in the terminal table (never in csv/json), unless two
cut names would read alike: then the names are cut wider (:func:`_names`)."""

_MODEL_NAMES = {"bt": "Bradley–Terry", "pl": "Plackett–Luce"}
_CSV_COLUMNS = (
    "rank",
    "bot",
    "elo",
    "elo_low",
    "elo_high",
    "plus_minus",
    "games",
    "score_pct",
    "wins",
    "win_pct",
    "mean_place",
    "place_se",
    *VERDICTS,
    "forfeits",
    "decisions",
    "think_ms",
)


def render(standings: Standings, fmt: str) -> str:
    """The standings in ``fmt`` (one of :data:`FORMATS`), ending with a newline."""
    if fmt == "json":  # what standings.toml holds, and the warnings the tables print
        data = {**standings.to_dict(), "warnings": caveats(standings)}
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if fmt == "csv":
        return _csv(standings)
    if fmt not in FORMATS:
        raise ConfigError(f"unknown standings format {fmt!r}: use one of {', '.join(FORMATS)}")
    markdown = fmt == "markdown"
    names = _names([row.bot for row in standings.rows], markdown)
    sections = [_summary(standings, markdown)]
    if standings.rows:  # no games: the summary says so, and there is no table to show
        sections.append(_main(standings, names, markdown))
    faults = [row for row in standings.rows if row.faults or row.forfeits]
    if faults:
        sections.append(
            _titled(
                "Verdicts (bot faults by class; forfeited games)",
                _grid(
                    ["bot", *VERDICTS, "forfeits"],
                    [
                        [
                            names[row.bot],
                            *(row.verdicts.get(v, 0) for v in VERDICTS),
                            row.forfeits,
                        ]
                        for row in faults
                    ],
                    markdown,
                ),
                markdown,
            )
        )
    if any(standings.crosstable.values()):
        sections.append(_crosstable(standings, names, markdown))
    if standings.seats:
        sections.append(_seats(standings, markdown))
    if standings.los:
        sections.append(_los(standings, names, markdown))
    return "\n\n".join(sections) + "\n"


def _grid(
    headers: Sequence[str], rows: Sequence[Sequence[Any]], markdown: bool, left: int = 0
) -> str:
    """A table with column ``left`` left-aligned and the others right-aligned.

    The terminal layout is built without tabulate's two spaces of header padding, so a
    column is exactly as wide as its widest cell: that keeps the main table within 80.
    """
    cells = [[str(c) for c in row] for row in rows]
    align = ["left" if i == left else "right" for i in range(len(headers))]
    if markdown:
        return tabulate(
            cells, headers=list(headers), tablefmt="github", colalign=align, disable_numparse=True
        )
    widths = [max(len(row[i]) for row in [list(headers), *cells]) for i in range(len(headers))]
    rule = ["-" * w for w in widths]
    return tabulate(
        [list(headers), rule, *cells], tablefmt="plain", colalign=align, disable_numparse=True
    )


def _names(bots: Sequence[str], markdown: bool) -> dict[str, str]:
    """Each bot's name as the terminal tables show it: a name longer than :data:`BOT_WIDTH`
    keeps its start and its end (``greedy-v…fix-b``), where versions of one bot differ; if
    two names still read alike, every name is cut wider, up to not at all."""
    if markdown:
        return {bot: bot for bot in bots}
    longest = max((len(bot) for bot in bots), default=0)
    for width in range(BOT_WIDTH, longest):
        shown = {bot: _cut(bot, width) for bot in bots}
        if len(set(shown.values())) == len(shown):
            return shown
    return {bot: bot for bot in bots}


def _cut(bot: str, width: int) -> str:
    """``bot`` in at most ``width`` characters: its start, "…", and its last ~third."""
    if len(bot) <= width:
        return bot
    tail = (width - 1) * 2 // 5
    return f"{bot[: width - 1 - tail]}…{bot[-tail:]}"


def _titled(title: str, body: str, markdown: bool) -> str:
    if markdown:
        return f"### {title}\n\n{body}"
    return f"{textwrap.fill(title, WIDTH)}\n{body}"


def _summary(standings: Standings, markdown: bool) -> str:
    anchor = (
        f"pool mean = {standings.anchor_rating:g}"
        if standings.anchor is None
        else f"{standings.anchor} = {standings.anchor_rating:g}"
    )
    if standings.method == "online":
        how = f"online Elo in game order (K {ONLINE_K:g} for a 2-player game)"
    else:
        how = f"{_MODEL_NAMES[standings.model]} maximum likelihood"
    if standings.bootstrap:
        spread = (
            f"± is half the {standings.confidence:.0%} interval from {standings.bootstrap:,} "
            f"resamples of whole blocks (seed {standings.seed})"
        )
    else:
        spread = "no intervals"
    prior = f", prior {standings.prior:g} virtual draws per bot" if standings.prior else ""
    text = (
        f"Elo: {how}, anchored at {anchor}{prior}; "
        f"{spread}. {counted(standings.games, 'game')} in {counted(standings.units, 'block')}."
    )
    text = " ".join([text, *standings.notes])
    warnings = [f"Warning: {line}" for line in caveats(standings)]
    if markdown:
        return "\n\n".join([text, *(f"**{line}**" for line in warnings)])
    return "\n".join(textwrap.fill(line, WIDTH) for line in [text, *warnings])


def _main(standings: Standings, names: dict[str, str], markdown: bool) -> str:
    rows = [
        [
            row.rank,
            names[row.bot],
            f"{row.elo:.0f}",
            f"{row.plus_minus:.0f}" if row.plus_minus is not None else "",
            row.games,
            f"{row.score_pct:.1f}",
            f"{row.win_pct:.1f}",
            place(row),
            row.faults,
            f"{row.think_ms:.1f}",
        ]
        for row in standings.rows
    ]
    headers = ["#", "bot", "Elo", "±", "games", "score%", "win%", "place", "faults", "ms"]
    return _grid(headers, rows, markdown, left=1)


def place(row: BotStanding) -> str:
    """Mean place ± its standard error; "–" for the error of a bot with fewer than 2 games
    (one place has no spread to measure, and 0.00 would claim it is exact)."""
    error = f"{row.place_se:.2f}" if row.games >= 2 else "–"
    return f"{row.mean_place:.2f}±{error}"


def _square(
    title: str,
    rows: Sequence[BotStanding],
    cell: Callable[[str, str], str],
    names: dict[str, str],
    markdown: bool,
) -> str:
    """A bots x bots table; columns are rank numbers, split into groups fitting 80 columns."""
    bots = [row.bot for row in rows]
    labels = [f"{row.rank}. {names[row.bot]}" for row in rows]
    widest = max((len(cell(a, b)) for a in bots for b in bots), default=1)
    first = max(len(label) for label in labels)
    per_group = len(bots) if markdown else max(1, (WIDTH - first) // (max(widest, 2) + 2))
    parts = []
    for start in range(0, len(bots), per_group):
        cols = range(start, min(start + per_group, len(bots)))
        table = [
            [label, *(cell(bot, bots[j]) for j in cols)]
            for label, bot in zip(labels, bots, strict=True)
        ]
        parts.append(_grid(["", *(str(rows[j].rank) for j in cols)], table, markdown))
    return _titled(title, "\n\n".join(parts), markdown)


def _crosstable(standings: Standings, names: dict[str, str], markdown: bool) -> str:
    def cell(bot: str, opp: str) -> str:
        if bot == opp:
            return ""
        h = standings.crosstable.get(bot, {}).get(opp)
        return f"{h.score_pct:.0f} ({h.games})" if h is not None else "-"  # never met

    title = "Crosstable: score % of the row bot against the column bot (games)"
    return _square(title, standings.rows, cell, names, markdown)


def _los(standings: Standings, names: dict[str, str], markdown: bool) -> str:
    if standings.units < FEW_BLOCKS:
        unit = "seeds" if standings.solo else "blocks"
        return _titled(
            "Likelihood of superiority",
            textwrap.fill(
                f"not shown: over fewer than {FEW_BLOCKS} {unit} the bootstrap too often "
                "rates bots of equal strength apart (docs/ratings.md, When to trust the "
                "numbers); --format json has it.",
                WIDTH,
            ),
            markdown,
        )

    def cell(bot: str, opp: str) -> str:
        p = standings.los.get(bot, {}).get(opp)
        return f"{100 * p:.0f}" if p is not None else ""

    title = "Likelihood of superiority: % of resamples rating the row bot above the column bot"
    return _square(title, standings.rows, cell, names, markdown)


def _seats(standings: Standings, markdown: bool) -> str:
    rows = [
        [s.engine, s.players, s.seat, s.games, f"{s.mean_score:.2f}", f"{s.win_pct:.1f}"]
        for s in standings.seats
    ]
    headers = ["engine", "players", "seat", "games", "mean score", "win%"]
    return _titled(
        "Seats: mean score and win % by seat (0 = first player)",
        _grid(headers, rows, markdown),
        markdown,
    )


def _csv(standings: Standings) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(_CSV_COLUMNS)
    for row in standings.rows:
        values: dict[str, Any] = {
            "rank": row.rank,
            "bot": row.bot,
            "elo": round(row.elo, 2),
            "elo_low": _rounded(row.elo_low),
            "elo_high": _rounded(row.elo_high),
            "plus_minus": _rounded(row.plus_minus),
            "games": row.games,
            "score_pct": round(row.score_pct, 2),
            "wins": row.wins,
            "win_pct": round(row.win_pct, 2),
            "mean_place": round(row.mean_place, 3),
            "place_se": round(row.place_se, 3),
            **{v: row.verdicts.get(v, 0) for v in VERDICTS},
            "forfeits": row.forfeits,
            "decisions": row.decisions,
            "think_ms": round(row.think_ms, 3),
        }
        writer.writerow([values[c] for c in _CSV_COLUMNS])
    return out.getvalue()


def _rounded(value: float | None) -> float | str:
    return "" if value is None else round(value, 2)
