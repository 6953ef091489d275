"""ASCII picture of an If It Fits layout (for ``render`` and ``arena play --show``).

Each slot is drawn 7 characters wide and 4 lines high (spec §3.3 legend): ``=====`` a wall on
a short (N/S) side, ``-----`` an open short side, ``|`` a wall on a long (E/W) side, ``:`` an
open long side. An awake cat lies across the seam between two cards, drawn over the two edge
characters (``C0`` = a cat of seat 0); ``Pr`` is a Princess lying on a seam.
"""

from __future__ import annotations

from collections.abc import Mapping

from engines.if_it_fits.geometry import E, N, S, W, slot_xy

WIDTH, HEIGHT = 7, 4
MARGIN = 6
LEGEND = (
    "legend: ===== / | wall, ----- / : open side, Cn awake cat of seat n on a seam, "
    "zzn sleeping cat of seat n, Pr Princess; contents y yarn, m mouse, f fish, "
    "p feather, * special toy, ! spray"
)


def draw_layout(
    cards: Mapping[int, tuple[str, str, int]],
    seams: Mapping[int, str],
) -> str:
    """Draw ``cards`` (slot -> (label, second line, open mask)) and seam labels (2 chars)."""
    if not cards:
        return "(empty layout)"
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
    return "\n".join([header, *body, LEGEND])
