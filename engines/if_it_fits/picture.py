"""ASCII picture of an If It Fits layout (for ``render`` and ``arena play --show``).

Each slot is drawn 7 characters wide and 4 lines high (spec §3.3 legend): ``=====`` a wall on
a short (N/S) side, ``-----`` an open short side, ``|`` a wall on a long (E/W) side, ``:`` an
open long side. An awake cat lies across the seam between two cards, drawn over the two edge
characters (``C0`` = a cat of seat 0); ``Pr`` is a Princess lying on a seam.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping

from engines.if_it_fits.geometry import E, N, S, W, slot_xy

WIDTH, HEIGHT = 7, 4
MARGIN = 6
COLUMNS = 13  # slots side by side in one band: 6 + 13 * 7 = 97 columns of text
LEGEND = "\n".join(
    textwrap.wrap(
        "legend: ===== and | are walls, ----- and : open sides; Cn = an awake cat of seat n on "
        "a seam, zzn = a sleeping cat of seat n (the card id below it, Cn-k, is the one a "
        "Princess names), Pr = a Princess; toys: y yarn, m mouse, "
        "f fish, p feather, * special toy, ! spray bottle",
        100,
    )
)


def draw_layout(
    cards: Mapping[int, tuple[str, str, int]],
    seams: Mapping[int, str],
) -> str:
    """Draw ``cards`` (slot -> (label, second line, open mask)) and seam labels (2 chars).

    A layout more than :data:`COLUMNS` slots wide is drawn in bands of columns, one below
    the other, so that no line is longer than 100 characters.
    """
    if not cards:
        return "(empty layout)"
    xs = [slot_xy(code)[0] for code in cards]
    low, high = min(xs), max(xs)
    bands = []
    for start in range(low, high + 1, COLUMNS):
        stop = start + COLUMNS
        inside = {c: v for c, v in cards.items() if start <= slot_xy(c)[0] < stop}
        band = _draw_band(inside, {c: v for c, v in seams.items() if start <= slot_xy(c)[0] < stop})
        if high - low >= COLUMNS:
            band = f"(columns x={start} to x={min(stop, high + 1) - 1})\n{band}"
        bands.append(band)
    return "\n".join([*bands, LEGEND])


def _draw_band(cards: Mapping[int, tuple[str, str, int]], seams: Mapping[int, str]) -> str:
    """One band of columns (at most :data:`COLUMNS` wide)."""
    if not cards:
        return "(no cards in these columns)"
    xs = [slot_xy(code)[0] for code in cards]
    ys = [slot_xy(code)[1] for code in cards]
    x0, y0 = min(xs), min(ys)
    columns, rows = max(xs) - x0 + 1, max(ys) - y0 + 1
    canvas = [[" "] * (MARGIN + columns * WIDTH) for _ in range(rows * HEIGHT)]

    def put(row: int, col: int, text: str) -> None:
        canvas[row][col : col + len(text)] = list(text)

    for code, (label, second, mask) in cards.items():
        x, y = slot_xy(code)
        top, left = (y - y0) * HEIGHT, MARGIN + (x - x0) * WIDTH
        west, east = (":" if mask & W else "|"), (":" if mask & E else "|")
        put(top, left, "+" + ("-" if mask & N else "=") * 5 + "+")
        put(top + 1, left, west + label[:5].center(5) + east)
        put(top + 2, left, west + second[:5].center(5) + east)
        put(top + 3, left, "+" + ("-" if mask & S else "=") * 5 + "+")
    for code, label in seams.items():
        x, y = slot_xy(code)
        put((y - y0) * HEIGHT + 1, MARGIN + (x - x0) * WIDTH + WIDTH - 1, label[:2])
    for y in range(rows):
        put(y * HEIGHT + 1, 0, f"y={y + y0}")
    header = " " * MARGIN + "".join(f"x={x + x0}".ljust(WIDTH) for x in range(columns))
    body = ["".join(line).rstrip() for line in canvas]
    return "\n".join([header, *body])
