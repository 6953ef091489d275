"""The Space Five table as an SVG picture, drawn from observations (see :mod:`engines.svgkit`).

The layout is a grid of cards (alien letter and background digit on the background's
colour; the cards of the play in progress are outlined in red); below it each seat's hand
(face up only in that seat's own view), stack and the box.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from engines.svgkit import INK, Canvas, Views, any_view, seat_colour, seat_label

PRIVATE = True
"""A seat's view hides other seats' hands: draw it from that seat's observation alone."""

BACKGROUNDS = {"1": "#9ed59b", "2": "#8fc1e8", "3": "#c9c9c9", "4": "#f2c879", "5": "#e8a3c9"}
CELL = 36
CARD_W, CARD_H = 30, 40
PILE_PITCH = 22
"""Room for one card name of the discard pile (two characters at size 11, and a gap)."""


def draw(views: Views) -> str:
    """The table: the layout grid, then one row per seat."""
    view = any_view(views)
    players = view["num_players"]
    width, height, grid = _layout(_layout_text(view["layout"]), view["pending"]["placed"])
    canvas = Canvas(width)
    phase = f"round {view['round'] + 1}/{view['rounds']}, turn {view['turn']}, {view['phase']}"
    canvas.text(12, 20, f"Space Five: {phase}", size=14, bold=True)
    canvas.raw(grid)
    top = 44 + height
    for seat in range(players):
        count = view["hand_sizes"][seat]
        hand = tuple(views[seat]["hand"][:count]) if seat in views else count
        label = seat_label(seat, view)
        canvas.raw(_seat(seat, top + seat * 62, width, label, view["stack_sizes"][seat], hand))
    bottom = top + players * 62
    canvas.text(12, bottom + 16, f"box {view['box_size']}", size=11)
    if "discard_pile" in view:
        bottom = _discard_pile(canvas, bottom + 16, width, view["discard_pile"])
    return canvas.render(bottom + 26)


def _discard_pile(canvas: Canvas, y: float, width: int, names: list[str]) -> float:
    """The solo discard pile, oldest first, in as many lines as the picture's width needs;
    return the baseline of its last line."""
    canvas.text(80, y, f"discard pile ({len(names)}):" + ("" if names else " -"), size=11)
    per_line = (width - 24) // PILE_PITCH
    for start in range(0, len(names), per_line):
        y += 15
        for i, name in enumerate(names[start : start + per_line]):
            canvas.text(12 + i * PILE_PITCH, y, name, size=11)
    return y


def _layout_text(entries: list[list[Any]]) -> str:
    """The layout's compact JSON: the text the observation keeps
    (:class:`engines.base.JsonList`: one string shared by every view of a step, and by every
    step until a card lands), else written here."""
    text = getattr(entries, "json_text", None)
    return text if text is not None else json.dumps(entries, separators=(",", ":"))


@lru_cache(maxsize=512)
def _layout(text: str, placed: int) -> tuple[int, int, str]:
    """Width, height and SVG of the layout grid, from its JSON (cached: it changes only when
    cards land, and a string's hash is computed once)."""
    layout = json.loads(text)
    fresh = {(x, y) for x, y, _ in layout[len(layout) - placed :]}
    xs = [x for x, _, _ in layout] or [0]
    ys = [y for _, y, _ in layout] or [0]
    x0, y0 = min(xs), min(ys)
    columns, rows = max(xs) - x0 + 1, max(ys) - y0 + 1
    width = max(420, columns * CELL + 40)
    canvas = Canvas(width)
    left = (width - columns * CELL) / 2
    for x, y, name in layout:
        new = (x, y) in fresh
        canvas.card(
            left + (x - x0) * CELL + (CELL - CARD_W) / 2,
            34 + (y - y0) * CELL,
            name,
            BACKGROUNDS.get(name[1], "#eee"),
            w=CARD_W,
            h=CELL - 4,
            stroke="#d1495b" if new else INK,
            width=3 if new else 1,
        )
    return width, rows * CELL, "".join(canvas.parts)


@lru_cache(maxsize=1024)
def _seat(
    seat: int, y: int, width: int, label: str, stack: int, hand: tuple[str, ...] | int
) -> str:
    """One seat's row: its label, stack and hand (the cards' names, or how many face down).
    Cached: the whole table and each seat's view draw the same rows, step after step."""
    canvas = Canvas(width)
    canvas.rect(8, y, width - 16, 56, "#fff", stroke=seat_colour(seat), width=2)
    canvas.text(16, y + 18, label, bold=True, fill=seat_colour(seat))
    canvas.text(16, y + 36, f"stack {stack}", size=11)
    names = hand if isinstance(hand, tuple) else ("",) * hand
    for i, name in enumerate(names):
        cx = 132 + i * (CARD_W + 4)
        if name:
            canvas.card(cx, y + 8, name, BACKGROUNDS.get(name[1], "#eee"), w=CARD_W, h=CARD_H)
        else:
            canvas.back(cx, y + 8, w=CARD_W, h=CARD_H)
    return "".join(canvas.parts)
