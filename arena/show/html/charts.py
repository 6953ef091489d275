"""The report's plots, written directly as SVG text.

Each function returns one ``<svg>`` element or an empty string when there is nothing to
plot. Six small pictures of dots, bars, lines and boxes need no plotting library: drawn
here they cost milliseconds, where matplotlib took about 0.65 s to import and 0.1 s a plot
(docs/performance.md, "Start-up and end of the demo league"). Text stays text; label widths
are estimated from the font size (no font metrics), with room to spare.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

import numpy as np

from arena.errors import VERDICTS
from arena.stats.ratings import SeatStat, Standings
from arena.words import counted

COLOURS = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)
"""Ten distinct colours, one per series in order (bots, seats, verdicts)."""
HEAT = (
    "#a50026",
    "#d73027",
    "#f46d43",
    "#fdae61",
    "#fee08b",
    "#ffffbf",
    "#d9ef8b",
    "#a6d96a",
    "#66bd63",
    "#1a9850",
    "#006837",
)
"""Red through yellow to green, for 0 to 100 % in the heatmaps (ColorBrewer's RdYlGn)."""
INK, GREY, FONT = "#222", "#999", 11
PAPER = "#e4e4e4"  # cells without a value: a crosstable's diagonal
WIDTH = 700  # every plot's width in pixels (the page scales it down on narrow screens)
ROW = 28  # height of one bot's row in the horizontal plots


@dataclass(frozen=True)
class Scale:
    """Maps data values in ``[lo, hi]`` (their logarithms when ``log``) to ``[start, end]``."""

    lo: float
    hi: float
    start: float
    end: float
    log: bool = False

    def __call__(self, value: float) -> float:
        if self.log:
            value = math.log10(value)
        lo, hi = (math.log10(self.lo), math.log10(self.hi)) if self.log else (self.lo, self.hi)
        return self.start + (value - lo) / (hi - lo) * (self.end - self.start)


class Svg:
    """An SVG picture built element by element."""

    def __init__(self, width: float, height: float) -> None:
        self.width, self.height = width, height
        self.parts: list[str] = []

    def line(
        self, x1: float, y1: float, x2: float, y2: float, colour: str = INK, *, dashed: bool = False
    ) -> None:
        dash = ' stroke-dasharray="4 3"' if dashed else ""
        self.parts.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
            f'stroke="{colour}"{dash}/>'
        )

    def rect(self, x: float, y: float, w: float, h: float, fill: str, stroke: str = "none") -> None:
        self.parts.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(w, 0):.1f}" height="{max(h, 0):.1f}" '
            f'fill="{fill}" stroke="{stroke}"/>'
        )

    def dot(self, x: float, y: float, r: float, colour: str) -> None:
        self.parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:g}" fill="{colour}"/>')

    def path(self, points: Sequence[tuple[float, float]], colour: str, width: float) -> None:
        moves = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        self.parts.append(
            f'<polyline points="{moves}" fill="none" stroke="{colour}" '
            f'stroke-width="{width:g}" stroke-linejoin="round"/>'
        )

    def text(
        self,
        x: float,
        y: float,
        words: str,
        *,
        anchor: str = "start",
        size: float = FONT,
        turn: float = 0,
        fill: str = "",
    ) -> None:
        colour = f' fill="{fill}"' if fill else ""
        rotate = f' transform="rotate({turn:g} {x:.1f} {y:.1f})"' if turn else ""
        self.parts.append(
            f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size:g}"'
            f"{colour}{rotate}>{escape(words)}</text>"
        )

    def render(self) -> str:
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {self.width:g} '
            f'{self.height:g}" width="{self.width:g}" height="{self.height:g}" '
            f'font-family="sans-serif" fill="{INK}">{"".join(self.parts)}</svg>'
        )


def text_width(words: str, size: float = FONT) -> float:
    """A generous estimate of the width of ``words`` in a sans-serif font of ``size``."""
    return 0.62 * size * len(words)


def ticks(lo: float, hi: float, count: int = 6, *, whole: bool = False) -> list[float]:
    """Round numbers (1, 2, 2.5 or 5 times a power of ten apart; whole numbers if
    ``whole``) from at most ``lo`` to at least ``hi``: the first and last are the axis ends."""
    if hi <= lo:
        lo, hi = lo - 1, hi + 1
    raw = (hi - lo) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    if whole:
        step = max(1, round(step))
    first = math.floor(lo / step + 1e-9)
    last = math.ceil(hi / step - 1e-9)
    return [round(k * step, 10) for k in range(first, last + 1)]


def log_ticks(lo: float, hi: float) -> list[float]:
    """1, 2 and 5 times each power of ten from ``lo`` to ``hi`` (both positive); the powers
    of ten alone when that would be more than a dozen, the middle (two digits) when there is
    none."""
    found = []
    for power in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1):
        for mantissa in (1, 2, 5):
            value = round(mantissa * 10.0**power, 12)
            if lo <= value <= hi:
                found.append(value)
    if len(found) > 12:
        found = [v for v in found if abs(math.log10(v) - round(math.log10(v))) < 1e-9]
    return found or [float(f"{math.sqrt(lo * hi):.2g}")]


def number(value: float) -> str:
    """A tick label: 0.5, 2, 20, 1500 (never 2×10⁰)."""
    return f"{value:g}"


def padded(lo: float, hi: float, share: float = 0.06) -> tuple[float, float]:
    """``[lo, hi]`` widened by ``share`` of its length on each side (by 1 if it is empty)."""
    if hi <= lo:
        return lo - 1, hi + 1
    margin = (hi - lo) * share
    return lo - margin, hi + margin


def x_axis(svg: Svg, scale: Scale, y: float, values: Sequence[float], label: str) -> None:
    """A horizontal axis at height ``y``: its line, ticks with labels, and its title."""
    svg.line(scale.start, y, scale.end, y)
    for value in values:
        x = scale(value)
        svg.line(x, y, x, y + 4)
        svg.text(x, y + 16, number(value), anchor="middle")
    svg.text((scale.start + scale.end) / 2, y + 32, label, anchor="middle")


def y_axis(svg: Svg, scale: Scale, x: float, values: Sequence[float], label: str) -> None:
    """A vertical axis at ``x``: its line, ticks with labels, and its title turned upright."""
    svg.line(x, scale.start, x, scale.end)
    for value in values:
        y = scale(value)
        svg.line(x - 4, y, x, y)
        svg.text(x - 7, y + 4, number(value), anchor="end")
    widest = max((text_width(number(v)) for v in values), default=0)
    middle = (scale.start + scale.end) / 2
    svg.text(x - widest - 16, middle, label, anchor="middle", turn=-90)


def legend(svg: Svg, items: Sequence[tuple[str, str]], x: float, y: float) -> None:
    """Coloured squares with their names in a row, starting at ``(x, y)``."""
    for name, colour in items:
        svg.rect(x, y - 9, 10, 10, colour)
        svg.text(x + 14, y, name, size=10)
        x += 28 + text_width(name, 10)


def legend_width(items: Sequence[tuple[str, str]]) -> float:
    return sum(28 + text_width(name, 10) for name, _ in items)


def rows_frame(labels: Sequence[str], top: float = 10) -> tuple[Svg, float, float]:
    """A picture with one row per label, the labels at the left, room for an x axis below;
    returns it with the x where the plot starts and the y of the first row's middle."""
    left = 12 + max(text_width(label) for label in labels)
    svg = Svg(WIDTH, top + ROW * len(labels) + 46)
    for i, label in enumerate(labels):
        svg.text(left - 8, top + ROW * (i + 0.5) + 4, label, anchor="end")
    svg.line(left, top, left, top + ROW * len(labels))
    return svg, left, top + ROW / 2


def elo_intervals(standings: Standings) -> str:
    """Each bot's Elo with its 95% interval, best at the top."""
    rows = standings.rows
    if not rows:
        return ""
    spans = [
        (
            row.elo,
            row.elo if row.elo_low is None else row.elo_low,
            row.elo if row.elo_high is None else row.elo_high,
        )
        for row in rows
    ]
    lo = min(min(low for _, low, _ in spans), standings.anchor_rating)
    hi = max(max(high for _, _, high in spans), standings.anchor_rating)
    svg, left, first = rows_frame([row.bot for row in rows])
    values = ticks(*padded(lo, hi))
    scale = Scale(values[0], values[-1], left + 8, WIDTH - 20)
    bottom = first + ROW * (len(rows) - 0.5)
    anchor = scale(standings.anchor_rating)
    svg.line(anchor, first - ROW / 2, anchor, bottom, GREY, dashed=True)
    for i, (elo, low, high) in enumerate(spans):
        y = first + ROW * i
        svg.line(scale(low), y, scale(high), y, COLOURS[0])
        for end in (low, high):
            svg.line(scale(end), y - 5, scale(end), y + 5, COLOURS[0])
        svg.dot(scale(elo), y, 4, COLOURS[0])
    label = f"Elo ({standings.confidence:.0%} interval)"
    x_axis(svg, scale, bottom, values, label)
    return svg.render()


def heat(value: float) -> str:
    """The colour of ``value`` (0-100) on the :data:`HEAT` scale."""
    where = min(max(value, 0.0), 100.0) / 100 * (len(HEAT) - 1)
    below = min(int(where), len(HEAT) - 2)
    share = where - below
    low, high = HEAT[below], HEAT[below + 1]
    mixed = (
        round(int(low[i : i + 2], 16) * (1 - share) + int(high[i : i + 2], 16) * share)
        for i in (1, 3, 5)
    )
    return "#" + "".join(f"{channel:02x}" for channel in mixed)


def _ink_on(value: float) -> str:
    """Text colour readable on :func:`heat` of ``value``: white on the dark ends."""
    return "#fff" if value < 15 or value > 85 else INK


def square(
    names: Sequence[str],
    cell: Mapping[str, Mapping[str, float]],
    label: str,
    fmt: str,
) -> str:
    """A bots x bots heatmap of ``cell[row][column]`` (0-100), the value written in each cell.

    The diagonal (a bot against itself) is grey; a pair with no value (two bots that never
    met, as the opponents in a gauntlet) is an empty outlined cell with a dash.
    """
    if len(names) < 2 or not any(cell.values()):
        return ""
    size = len(names)
    side = max(14.0, min(64.0, 440 / size))
    widest = max(text_width(name) for name in names)
    left, top = 12 + widest, 10
    grid = side * size
    svg = Svg(max(WIDTH, left + grid + 140), top + grid + 12 + widest * 0.72 + 10)
    for i, row in enumerate(names):
        y = top + side * i
        svg.text(left - 8, y + side / 2 + 4, row, anchor="end")
        for j, column in enumerate(names):
            value = cell.get(row, {}).get(column)
            if i == j:
                svg.rect(left + side * j, y, side, side, PAPER)
                continue
            if value is None:
                svg.rect(left + side * j + 0.5, y + 0.5, side - 1, side - 1, "none", PAPER)
                if size <= 16:
                    svg.text(left + side * (j + 0.5), y + side / 2 + 4, "-", anchor="middle")
                continue
            svg.rect(left + side * j, y, side, side, heat(value))
            if size <= 16:
                words = fmt.format(value)
                x = left + side * (j + 0.5)
                svg.text(x, y + side / 2 + 4, words, anchor="middle", size=10, fill=_ink_on(value))
    for j, column in enumerate(names):
        x, y = left + side * (j + 0.5), top + grid + 12
        svg.text(x + 3, y, column, anchor="end", turn=-45)
    bar = left + grid + 24
    steps = 50
    for k in range(steps):
        svg.rect(bar, top + grid * (1 - (k + 1) / steps), 14, grid / steps + 0.5, heat(2 * k + 1))
    scale = Scale(0, 100, top + grid, top)
    for value in ticks(0, 100, 5):
        svg.line(bar + 14, scale(value), bar + 18, scale(value))
        svg.text(bar + 21, scale(value) + 4, number(value))
    svg.text(bar + 56, top + grid / 2, label, anchor="middle", turn=-90)
    return svg.render()


def seat_advantage(seats: Sequence[SeatStat]) -> str:
    """Win % by seat for each table size (and engine), seat 0 = the first player."""
    if not seats:
        return ""
    groups = sorted({(s.engine, s.players) for s in seats})
    numbers = sorted({s.seat for s in seats})
    win = {(s.engine, s.players, s.seat): s.win_pct for s in seats}
    engines = len({engine for engine, _ in groups}) > 1
    items = [(f"seat {seat}", COLOURS[seat % len(COLOURS)]) for seat in numbers]
    top = 28
    svg = Svg(WIDTH, top + 190 + 40)
    values = ticks(0, max(max(win.values()), 1.0), 5)
    scale = Scale(0, values[-1], top + 190, top)
    left = 56
    y_axis(svg, scale, left, values, "win %")
    legend(svg, items, WIDTH - 12 - legend_width(items), 14)
    slot = (WIDTH - 20 - left) / len(groups)
    width = 0.8 * slot / len(numbers)
    for g, (engine, players) in enumerate(groups):
        start = left + slot * g + 0.1 * slot
        for k, seat in enumerate(numbers):
            value = win.get((engine, players, seat))
            if value is not None:
                x = start + width * k
                svg.rect(x, scale(value), width, scale(0) - scale(value), items[k][1])
        name = f"{engine}, {players}p" if engines else counted(players, "player")
        svg.text(left + slot * (g + 0.5), scale(0) + 18, name, anchor="middle")
    svg.line(left, scale(0), WIDTH - 20, scale(0))
    return svg.render()


def thinned(points: Sequence[tuple[float, float]], columns: int) -> list[tuple[float, float]]:
    """At most about two points per pixel column: each column's lowest and highest, in order
    (a 100,000-game path stays a few kilobytes and keeps its spikes)."""
    if len(points) <= 2 * columns:
        return list(points)
    lo, hi = points[0][0], points[-1][0]
    kept: dict[int, tuple[int, int]] = {}
    for i, (x, y) in enumerate(points):
        column = int((x - lo) / max(hi - lo, 1e-9) * columns)
        low, high = kept.get(column, (i, i))
        kept[column] = (i if y < points[low][1] else low, i if y > points[high][1] else high)
    chosen = sorted({i for pair in kept.values() for i in pair} | {0, len(points) - 1})
    return [points[i] for i in chosen]


def rating_paths(paths: Mapping[str, Sequence[tuple[int, float]]]) -> str:
    """Online Elo after each game, one line per bot."""
    if not paths:
        return ""
    bots = sorted(paths)
    legend_room = 30 + max(text_width(bot, 10) for bot in bots)
    every = [point for bot in bots for point in paths[bot]]
    games = ticks(0, max(n for n, _ in every), whole=True)
    ratings = ticks(*padded(min(r for _, r in every), max(r for _, r in every), 0.03))
    left, top, bottom = 60, 10, 220
    svg = Svg(WIDTH, bottom + 40)
    across = Scale(0, games[-1], left, WIDTH - legend_room)
    up = Scale(ratings[0], ratings[-1], bottom, top)
    y_axis(svg, up, left, ratings, "online Elo")
    x_axis(svg, across, bottom, games, "games played in the league")
    for i, bot in enumerate(bots):
        colour = COLOURS[i % len(COLOURS)]
        points = thinned(paths[bot], int(across.end - across.start))
        svg.path([(across(n), up(r)) for n, r in points], colour, 1.2)
        y = top + 14 + 16 * i
        svg.line(across.end + 12, y - 4, across.end + 24, y - 4, colour)
        svg.text(across.end + 28, y, bot, size=10)
    return svg.render()


def faults(standings: Standings) -> str:
    """Faults per bot, stacked by verdict, plus forfeited games."""
    rows = [row for row in standings.rows if row.faults or row.forfeits]
    if not rows:
        return ""
    kinds = []
    for i, verdict in enumerate((*VERDICTS, "forfeits")):
        counts = [
            row.forfeits if verdict == "forfeits" else row.verdicts.get(verdict, 0) for row in rows
        ]
        if any(counts):
            kinds.append((verdict, COLOURS[i % len(COLOURS)], counts))
    items = [(verdict, colour) for verdict, colour, _ in kinds]
    svg, left, first = rows_frame([row.bot for row in rows], top=28)
    legend(svg, items, WIDTH - 12 - legend_width(items), 14)
    totals = [sum(counts[i] for _, _, counts in kinds) for i in range(len(rows))]
    values = ticks(0, max(totals), whole=True)
    scale = Scale(0, values[-1], left, WIDTH - 20)
    for i in range(len(rows)):
        y, start = first + ROW * i, 0
        for _, colour, counts in kinds:
            svg.rect(scale(start), y - ROW * 0.35, scale(counts[i]) - left, ROW * 0.7, colour)
            start += counts[i]
    x_axis(svg, scale, first + ROW * (len(rows) - 0.5), values, "count")
    return svg.render()


def think_times(per_bot: Mapping[str, Sequence[float]], per_move: bool = True) -> str:
    """The spread of each bot's think times (ms): one value per decision (``per_move``) or,
    for records that store no time per move, the mean per decision of each game.

    The box holds the middle half (a line at the median), the whiskers reach the 1st and
    99th percentiles and a × marks the slowest value, so the picture stays small whatever
    the number of games.
    """
    bots = [bot for bot, values in per_bot.items() if len(values)]
    if not bots:
        return ""
    spreads = {
        bot: np.percentile(
            np.maximum(np.asarray(per_bot[bot], dtype=float), 1e-3), (1, 25, 50, 75, 99, 100)
        )
        for bot in bots
    }
    lo = min(float(spread[0]) for spread in spreads.values())
    hi = max(float(spread[-1]) for spread in spreads.values())
    lo, hi = 10 ** (math.log10(lo) - 0.08), 10 ** (math.log10(hi) + 0.08)
    svg, left, first = rows_frame(bots)
    scale = Scale(lo, hi, left + 8, WIDTH - 20, log=True)
    for i, bot in enumerate(bots):
        low, q1, median, q3, high, slowest = (scale(float(v)) for v in spreads[bot])
        y = first + ROW * i
        svg.line(low, y, q1, y)
        svg.line(q3, y, high, y)
        for end in (low, high):
            svg.line(end, y - 5, end, y + 5)
        svg.rect(q1, y - 8, q3 - q1, 16, "#fff", INK)
        svg.line(median, y - 8, median, y + 8, COLOURS[1])
        if slowest > high + 0.5:
            svg.text(slowest, y + 4, "×", anchor="middle", size=12)
    what = "per decision" if per_move else "mean per decision in a game"
    label = f"think time {what} (ms, log scale)"
    x_axis(svg, scale, first + ROW * (len(bots) - 0.5), log_ticks(lo, hi), label)
    return svg.render()


def tune_path(name: str, path: Sequence[tuple[int, float, float]]) -> str:
    """One tuned parameter over a tune: θ after each iteration (a line) and the values its
    two versions played, θ ± c_k (a band of thin lines). ``path``: (iteration, θ, c_k)."""
    if not path:
        return ""
    low = min(t - c for _, t, c in path)
    high = max(t + c for _, t, c in path)
    steps = ticks(0, max(k for k, _, _ in path) + 1, whole=True)
    values = ticks(*padded(low, high, 0.03))
    left, top, bottom = 60, 10, 180
    svg = Svg(WIDTH, bottom + 40)
    across = Scale(0, steps[-1], left, WIDTH - 20)
    up = Scale(values[0], values[-1], bottom, top)
    y_axis(svg, up, left, values, name)
    x_axis(svg, across, bottom, steps, "iteration")
    columns = int(across.end - across.start)
    for sign in (1, -1):
        band = thinned([(k, t + sign * c) for k, t, c in path], columns)
        svg.path([(across(k), up(v)) for k, v in band], GREY, 0.6)
    line = thinned([(k, t) for k, t, _ in path], columns)
    svg.path([(across(k), up(v)) for k, v in line], COLOURS[0], 1.4)
    return svg.render()
