"""The Cat Yard table as an SVG picture, drawn from observations (see :mod:`engines.svgkit`).

Everything on a Cat Yard table is public, so every seat's view draws the same picture:
the yard of cats, the four cushions of bait cards (owner's colour), the revealed cards of
the draw in progress, each seat's cats and points, and the deck, discard and stack counts.
"""

from __future__ import annotations

from engines.cat_yard.data import BAIT_ROWS, CAT_ROWS
from engines.svgkit import MUTED, Canvas, Views, any_view, seat_colour, seat_label

PRIVATE = False
"""Nothing but the deck order is hidden: every seat's view draws the whole table."""

SYMBOL_COLOURS = {"milk": "#f4f4f4", "food": "#f2c879", "mouse": "#c9c9c9", "yarn": "#e8a3c9"}
SHORT = {"milk": "mk", "food": "fd", "mouse": "ms", "yarn": "yn"}
KEY = "bait: {}; a cat shows its points over the bait it costs".format(
    ", ".join(f"{short} {name}" for name, short in SHORT.items())
)
"""The line under the table that spells out the bait abbreviations."""
BAIT = {first + i: symbols for first, copies, symbols, _ in BAIT_ROWS for i in range(copies)}
CATS = {row[0]: (row[1], row[2]) for row in CAT_ROWS}
W, H = 58, 56
WIDTH = 560
STACK_X = 60 + 4 * (W + 8) + 12
CATS_X = 170
CATS_PER_LINE = (WIDTH - 8 - CATS_X + 4) // (W + 4)
"""A seat's won cats fill lines of this many, as many lines as it takes."""


def _bait(canvas: Canvas, x: float, y: float, card: int) -> None:
    symbols = BAIT.get(card, ())
    if not symbols:
        canvas.card(x, y, "DOG", "#8b5e3c", w=W, h=H, sub=f"#{card}")
        return
    fill = SYMBOL_COLOURS[symbols[0]] if len(symbols) == 1 else "#fff"
    canvas.card(x, y, "/".join(SHORT[s] for s in symbols), fill, w=W, h=H, sub=f"#{card}")


def _cat(canvas: Canvas, x: float, y: float, cat: int, used: bool = False) -> None:
    cost, points = CATS[cat]
    fill = "#ddd" if used else "#fff3c4"
    canvas.card(x, y, f"{points} pt", fill, w=W, h=H, sub=" ".join(SHORT[s] for s in cost))


def draw(views: Views) -> str:
    view = any_view(views)
    width = WIDTH
    canvas = Canvas(width)
    state = "game over" if view["to_move"] is None else f"seat {view['to_move']} to move"
    canvas.text(
        12,
        20,
        f"Cat Yard: round {view['round']}, {state}, phase {view['phase']}, target {view['target']}",
        size=14,
        bold=True,
    )
    canvas.text(12, 42, "yard", bold=True)
    for slot, cat in enumerate(view["yard"]):
        x = 60 + slot * (W + 8)
        if cat:
            _cat(canvas, x, 30, cat)
        else:
            canvas.empty(x, 30, w=W, h=H)
    top_points = view["cat_stack_top_points"]
    canvas.text(
        STACK_X,
        48,
        f"cat stack {view['cat_stack_count']}"
        + (f" (top {top_points} pt)" if top_points is not None else ""),
        size=11,
    )
    canvas.text(STACK_X, 66, f"deck {view['deck_count']}, discard {len(view['discard'])}", size=11)
    owners = {pos: seat for seat, (pos, _, _) in enumerate(view["players"])}
    y = 100
    for pos, fields in enumerate(view["cushions"]):
        owner = owners.get(pos)
        colour = seat_colour(owner) if owner is not None else MUTED
        label = f"cushion {pos}" + (f" (seat {owner})" if owner is not None else "")
        if view["protected"][pos]:
            label += ", protected"
        canvas.rect(8, y, width - 16, H + 12, "#fff", stroke=colour, width=2)
        canvas.text(16, y + 20, label, size=11, fill=colour, bold=True)
        for f, card in enumerate(fields):
            x = 200 + f * (W + 6)
            if card:
                _bait(canvas, x, y + 6, card)
            else:
                canvas.empty(x, y + 6, w=W, h=H)
        y += H + 18
    if view["revealed"] or view["drawn"]:
        canvas.text(12, y + 14, "revealed", bold=True)
        for i, card in enumerate([*view["revealed"], *([view["drawn"]] if view["drawn"] else [])]):
            _bait(canvas, 90 + i * (W + 6), y, card)
        y += H + 10
    for seat, (_, points, cats) in enumerate(view["players"]):
        canvas.text(
            12, y + 16, f"{seat_label(seat, view)}: {points} pt", bold=True, fill=seat_colour(seat)
        )
        y += _won_cats(canvas, y, cats) + 8 if cats else 26
    canvas.text(12, y + 12, KEY, size=10, fill=MUTED)
    return canvas.render(y + 20)


def _won_cats(canvas: Canvas, top: int, cats: list[list[int]]) -> int:
    """Draw a seat's won cats in lines of :data:`CATS_PER_LINE` from ``top``; return the
    height they take."""
    for i, (cat, used) in enumerate(cats):
        line, column = divmod(i, CATS_PER_LINE)
        _cat(canvas, CATS_X + column * (W + 4), top + line * (H + 6), cat, bool(used))
    lines = -(-len(cats) // CATS_PER_LINE)
    return lines * (H + 6) - 6
