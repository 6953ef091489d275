"""The report's plots, drawn by matplotlib and inlined as SVG text.

Each function returns one ``<svg>`` element (no XML header, no date in its metadata, text
kept as text) or an empty string when there is nothing to plot.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
from matplotlib import cbook, ticker
from matplotlib.figure import Figure

from arena.errors import VERDICTS
from arena.stats.ratings import SeatStat, Standings

matplotlib.use("Agg")  # no display: draw to files only (pyplot picks no backend on import)

plt.rcParams.update(
    {"svg.fonttype": "none", "font.size": 9, "axes.spines.top": False, "axes.spines.right": False}
)
_METADATA = re.compile(r"<metadata>.*?</metadata>\s*", re.DOTALL)
_COLOURS = plt.rcParams["axes.prop_cycle"].by_key()["color"]


def _svg(figure: Figure) -> str:
    out = io.StringIO()
    figure.savefig(out, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(figure)
    text = out.getvalue()
    return _METADATA.sub("", text[text.index("<svg") :])


def _height(rows: int) -> float:
    return max(2.0, 0.35 * rows + 1.0)


def elo_intervals(standings: Standings) -> str:
    """Each bot's Elo with its 95% interval, best at the top."""
    rows = list(reversed(standings.rows))
    if not rows:
        return ""
    figure, axes = plt.subplots(figsize=(7, _height(len(rows))))
    y = np.arange(len(rows))
    elo = np.array([row.elo for row in rows])
    low = np.array([row.elo_low if row.elo_low is not None else row.elo for row in rows])
    high = np.array([row.elo_high if row.elo_high is not None else row.elo for row in rows])
    axes.errorbar(elo, y, xerr=[elo - low, high - elo], fmt="o", capsize=4, color=_COLOURS[0])
    axes.set_yticks(y, [row.bot for row in rows])
    axes.axvline(standings.anchor_rating, color="#999", linewidth=0.8, linestyle="--")
    axes.set_xlabel(f"Elo ({standings.confidence:.0%} interval)")
    return _svg(figure)


def square(
    names: Sequence[str],
    cell: Mapping[str, Mapping[str, float]],
    label: str,
    fmt: str,
) -> str:
    """A bots x bots heatmap of ``cell[row][column]`` (0-100), the value written in each cell."""
    if len(names) < 2 or not any(cell.values()):
        return ""
    size = len(names)
    grid = np.full((size, size), np.nan)
    for i, row in enumerate(names):
        for j, column in enumerate(names):
            value = cell.get(row, {}).get(column)
            if value is not None:
                grid[i, j] = value
    side = max(3.0, 0.55 * size + 1.5)
    figure, axes = plt.subplots(figsize=(side + 1.2, side))
    image = axes.imshow(grid, cmap="RdYlGn", vmin=0, vmax=100)
    axes.set_xticks(range(size), names, rotation=45, ha="right")
    axes.set_yticks(range(size), names)
    if size <= 16:
        for i in range(size):
            for j in range(size):
                if not np.isnan(grid[i, j]):
                    axes.text(j, i, fmt.format(grid[i, j]), ha="center", va="center", fontsize=8)
    figure.colorbar(image, ax=axes, label=label, shrink=0.8)
    axes.spines[:].set_visible(False)
    return _svg(figure)


def seat_advantage(seats: Sequence[SeatStat]) -> str:
    """Win % by seat for each table size (and engine), 1 = first player."""
    if not seats:
        return ""
    groups = sorted({(s.engine, s.players) for s in seats})
    figure, axes = plt.subplots(figsize=(7, 2.8))
    width = 0.8 / max(s.seat for s in seats)
    for seat in sorted({s.seat for s in seats}):
        values = [
            next((s.win_pct for s in seats if (s.engine, s.players) == g and s.seat == seat), 0.0)
            for g in groups
        ]
        x = np.arange(len(groups)) + (seat - 1) * width
        axes.bar(x, values, width, label=f"seat {seat}", color=_COLOURS[(seat - 1) % 10])
    labels = [
        f"{players} players"
        if len(groups) == len({g[1] for g in groups})
        else f"{engine}, {players}p"
        for engine, players in groups
    ]
    axes.set_xticks(np.arange(len(groups)) + width * (max(s.seat for s in seats) - 1) / 2, labels)
    axes.set_ylabel("win %")
    axes.legend(frameon=False, ncols=5, fontsize=8)
    return _svg(figure)


def rating_paths(paths: Mapping[str, Sequence[tuple[int, float]]]) -> str:
    """Online Elo after each game, one line per bot."""
    if not paths:
        return ""
    figure, axes = plt.subplots(figsize=(7, 3))
    for i, (bot, points) in enumerate(sorted(paths.items())):
        games, ratings = zip(*points, strict=True)
        axes.plot(games, ratings, label=bot, linewidth=1.2, color=_COLOURS[i % 10])
    axes.set_xlabel("games played in the league")
    axes.set_ylabel("online Elo")
    axes.legend(frameon=False, fontsize=8, loc="center left", bbox_to_anchor=(1, 0.5))
    return _svg(figure)


def faults(standings: Standings) -> str:
    """Faults per bot, stacked by verdict, plus forfeited games."""
    rows = [row for row in standings.rows if row.faults or row.forfeits]
    if not rows:
        return ""
    figure, axes = plt.subplots(figsize=(7, _height(len(rows))))
    y = np.arange(len(rows))
    left = np.zeros(len(rows))
    for i, verdict in enumerate((*VERDICTS, "forfeits")):
        if verdict == "forfeits":
            counts = np.array([row.forfeits for row in rows], dtype=float)
        else:
            counts = np.array([row.verdicts.get(verdict, 0) for row in rows], dtype=float)
        if counts.any():
            axes.barh(y, counts, left=left, label=verdict, color=_COLOURS[i % 10])
            left += counts
    axes.set_yticks(y, [row.bot for row in rows])
    axes.invert_yaxis()
    axes.set_xlabel("count")
    axes.legend(frameon=False, fontsize=8)
    return _svg(figure)


def think_times(per_bot: Mapping[str, Sequence[float]], per_move: bool = True) -> str:
    """The spread of each bot's think times (ms): one value per decision (``per_move``) or,
    for records that store no time per move, the mean per decision of each game.

    The box holds the middle half, the whiskers reach the 1st and 99th percentiles and one
    mark shows the slowest value, so the picture stays small whatever the number of games.
    """
    bots = [bot for bot, values in per_bot.items() if len(values)]
    if not bots:
        return ""
    figure, axes = plt.subplots(figsize=(7, _height(len(bots))))
    stats = []
    for bot in bots:
        values = np.maximum(np.asarray(per_bot[bot], dtype=float), 1e-3)
        (stat,) = cbook.boxplot_stats(values, whis=(1, 99), labels=[bot])
        slowest = float(values.max())
        stat["fliers"] = np.array([slowest] if slowest > stat["whishi"] else [])
        stats.append(stat)
    axes.bxp(stats, orientation="horizontal", flierprops={"marker": "x", "markersize": 4})
    axes.set_xscale("log")
    axes.xaxis.set_minor_locator(ticker.LogLocator(subs=(2.0, 5.0)))
    for formatter in (axes.xaxis.set_major_formatter, axes.xaxis.set_minor_formatter):
        formatter(ticker.FormatStrFormatter("%g"))  # 0.5, 2, 20: plain numbers, not 2×10⁰
    axes.invert_yaxis()
    what = "per decision" if per_move else "mean per decision in a game"
    axes.set_xlabel(f"think time {what} (ms, log scale)")
    return _svg(figure)
