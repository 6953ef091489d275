"""Space Five's geometry on ``(x, y)`` cells: the plain form of the rules' layout checks.

The state keeps its layout with integer cell keys for speed (:mod:`engines.space_five.rules`);
these helpers take a layout dict ``(x, y) -> code`` instead. The greedy bot plans with them,
and the tests use them as an oracle for the state's integer-keyed versions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache

from engines.space_five.data import value

KINDS: int = len(value("aliens"))  # 5 aliens and 5 backgrounds
CODES = KINDS * KINDS  # 25 distinct cards, code = alien * KINDS + background
MAX_GROUP: int = value("max_group")
BONUS_FOURTH: int = value("bonus_fourth")
BONUS_FIFTH: int = value("bonus_fifth")
BONUS_BOTH: int = value("bonus_both")
ALL_MASK = (1 << CODES) - 1
ALIEN_MASKS = tuple(sum(1 << (a * KINDS + b) for b in range(KINDS)) for a in range(KINDS))
BACKGROUND_MASKS = tuple(sum(1 << (a * KINDS + b) for a in range(KINDS)) for b in range(KINDS))
DIRECTIONS = ((1, 0), (0, 1))  # H, V

Cell = tuple[int, int]
Layout = dict[Cell, int]


@cache
def joinable(bits: int) -> int:
    """Codes that extend the set of distinct codes ``bits`` to a valid run (any order)."""
    if not bits:
        return ALL_MASK
    first = (bits & -bits).bit_length() - 1
    mask = 0
    for group in (ALIEN_MASKS[first // KINDS], BACKGROUND_MASKS[first % KINDS]):
        if not bits & ~group:
            mask |= group & ~bits
    return mask


def _axis_mask(get: Callable[[Cell], int | None], x: int, y: int, dx: int, dy: int) -> int:
    """Codes that may lie at empty (x, y) as far as its run along (dx, dy) is concerned."""
    bits = n = 0
    cx, cy = x - dx, y - dy
    code = get((cx, cy))
    while code is not None:  # runs are at most 5 long, so both scans are short
        bits |= 1 << code
        n += 1
        cx -= dx
        cy -= dy
        code = get((cx, cy))
    cx, cy = x + dx, y + dy
    code = get((cx, cy))
    while code is not None:
        bits |= 1 << code
        n += 1
        cx += dx
        cy += dy
        code = get((cx, cy))
    if n >= MAX_GROUP or bits.bit_count() != n:
        return 0  # too long, or a repeated code: invalid whatever comes between
    return joinable(bits)


def fit_mask(layout: Layout, x: int, y: int) -> int:
    """The 25-bit mask of codes that keep both runs through empty (x, y) valid (L4).

    The cell need not touch the layout: a cell with no neighbour gets every code.
    """
    get = layout.get
    return _axis_mask(get, x, y, 1, 0) & _axis_mask(get, x, y, 0, 1)


def run_gaps(layout: Layout, x: int, y: int, dx: int, dy: int) -> tuple[Cell, Cell]:
    """The empty cells just before and just after the run through (x, y) along (dx, dy)."""
    bx, by = x - dx, y - dy
    while (bx, by) in layout:
        bx -= dx
        by -= dy
    ax, ay = x + dx, y + dy
    while (ax, ay) in layout:
        ax += dx
        ay += dy
    return (bx, by), (ax, ay)


def run_cells(layout: Layout, x: int, y: int, dx: int, dy: int) -> list[Cell]:
    """The run through occupied (x, y) along (dx, dy), in increasing coordinate order."""
    (bx, by), (ax, ay) = run_gaps(layout, x, y, dx, dy)
    length = (ax - bx) * dx + (ay - by) * dy - 1
    return [(bx + i * dx, by + i * dy) for i in range(1, length + 1)]


def frontier_of(layout: Layout) -> dict[Cell, int]:
    """Every empty cell next to the layout that some code fits, with its fit mask."""
    frontier: dict[Cell, int] = {}
    for x, y in layout:
        for cell in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if cell not in layout and cell not in frontier:
                mask = fit_mask(layout, *cell)
                if mask:
                    frontier[cell] = mask
    return frontier


def placing_cells(
    layout: Layout, placed: list[Cell], masks: Mapping[Cell, int] | None = None
) -> list[tuple[Cell, int]]:
    """Cells that may take the next card of a play already started, with their fit masks.

    ``layout`` already holds the ``placed`` cells. The next card must lie just beyond an
    end of the line run holding the placed cards (L3, both directions while only one card
    is down) and that run must contain an old card. ``masks`` (a maintained frontier) saves
    recomputing :func:`fit_mask`.
    """
    if len(placed) == 1:
        directions: tuple[Cell, ...] = DIRECTIONS
    else:
        directions = (DIRECTIONS[0],) if placed[0][1] == placed[1][1] else (DIRECTIONS[1],)
    x, y = placed[0]
    out = []
    for dx, dy in directions:
        before, after = run_gaps(layout, x, y, dx, dy)
        alone = before == (x - dx, y - dy) and after == (x + dx, y + dy)
        for cell, step in ((before, -1), (after, 1)):
            # with one card down, its run along this line must gain an old card somewhere
            if alone and (cell[0] + step * dx, cell[1] + step * dy) not in layout:
                continue
            mask = fit_mask(layout, *cell) if masks is None else masks.get(cell, 0)
            if mask:
                out.append((cell, mask))
    return out


def play_bonus(layout: Layout, placed: list[Cell]) -> int:
    """Bonus discards earned by a play: per run through a placed cell, by length n and new m."""
    new = set(placed)
    seen: set[tuple[int, Cell]] = set()
    total = 0
    for x, y in placed:
        for axis, (dx, dy) in enumerate(DIRECTIONS):
            run = run_cells(layout, x, y, dx, dy)
            if (axis, run[0]) in seen:
                continue
            seen.add((axis, run[0]))
            if len(run) == MAX_GROUP - 1:
                total += BONUS_FOURTH
            elif len(run) == MAX_GROUP:
                total += BONUS_FIFTH if sum(c in new for c in run) == 1 else BONUS_BOTH
    return total
