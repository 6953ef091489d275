"""The If It Fits table as an SVG picture, drawn from observations (see :mod:`engines.svgkit`).

The layout of cards on their slots (thick lines are walls, thin dashed lines open sides;
toys as letters, sleeping cats in their seat's colour), awake cats and Princesses as discs
on the seam east of their slot, then each seat's hand (face up only in that seat's own
view) and cat supply.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from engines.if_it_fits.data import CARDS, TOY_KINDS
from engines.if_it_fits.geometry import E, N, S, W, edge_mask, rotate
from engines.svgkit import INK, MUTED, Canvas, Views, any_view, seat_colour, seat_label

PRIVATE = True
"""A seat's view hides other seats' hands: draw it from that seat's observation alone."""

ROWS = {card.id: card for card in CARDS}
CELL = 54
KIND_FILL = {"box": "#f3e2c3", "special": "#f6d0a8", "start": "#d9e8c8", "princess": "#f3c6e0"}


def _owner(card_id: str) -> int | None:
    """The seat of a cat card id such as ``C2-4``."""
    return int(card_id[1]) if card_id.startswith("C") and "-" in card_id else None


def _contents(card_id: str) -> str:
    row = ROWS.get(card_id)
    if row is None:
        return ""
    toys = "".join(kind[0] * count for kind, count in zip(TOY_KINDS, row.toys, strict=True))
    return toys + "*" * row.special + "!" * row.spray


def _slot(canvas: Canvas, x: float, y: float, card_id: str, rot: int) -> None:
    owner = _owner(card_id)
    row = ROWS.get(card_id)
    if owner is not None:
        fill, ink = seat_colour(owner), "#fff"
    else:
        fill, ink = KIND_FILL.get(row.kind if row else "", "#eee"), INK
    canvas.rect(x, y, CELL, CELL, fill, stroke="none", radius=0)
    mask = rotate(edge_mask(row.edges), rot) if row else 15
    sides = (
        (N, x, y, x + CELL, y),
        (E, x + CELL, y, x + CELL, y + CELL),
        (S, x, y + CELL, x + CELL, y + CELL),
        (W, x, y, x, y + CELL),
    )
    for bit, x1, y1, x2, y2 in sides:
        if mask & bit:
            canvas.line(x1, y1, x2, y2, MUTED, 0.6)
        else:
            canvas.line(x1, y1, x2, y2, INK, 3.5)
    canvas.text(x + CELL / 2, y + 22, card_id, size=10, anchor="middle", bold=True, fill=ink)
    canvas.text(x + CELL / 2, y + 38, _contents(card_id), size=10, anchor="middle", fill=ink)


def draw(views: Views) -> str:
    view = any_view(views)
    players = view["num_players"]
    width, height, grid = _layout(
        tuple(tuple(entry) for entry in view["layout"]),
        tuple(tuple(cat) for cat in view["awake_cats"]),
        tuple(tuple(princess) for princess in view["seam_princesses"]),
    )
    canvas = Canvas(width)
    state = "game over" if view["to_move"] is None else f"seat {view['to_move']} to move"
    canvas.text(
        12, 20, f"If It Fits: {state}, phase {view['phase']}, deck {view['deck_size']}", size=14
    )
    canvas.raw(grid)
    y = 34 + height + 12
    pending = view["pending"]
    if pending is not None:
        canvas.text(12, y + 12, f"being played: {pending['card']}", size=11)
        y += 18
    for seat in range(players):
        canvas.rect(8, y, width - 16, 50, "#fff", stroke=seat_colour(seat), width=2)
        canvas.text(16, y + 18, seat_label(seat, view), bold=True, fill=seat_colour(seat))
        canvas.text(16, y + 38, f"cats left {view['cat_supply'][seat]}", size=11)
        hand = views[seat]["hand"] if seat in views else None
        for i in range(view["hand_sizes"][seat]):
            cx = 150 + i * 64
            if hand is None:
                canvas.back(cx, y + 6, w=58, h=38)
            else:
                canvas.card(cx, y + 6, hand[i], "#f3e2c3", w=58, h=38, sub=_contents(hand[i]))
        y += 56
    canvas.text(12, y + 14, f"discard {len(view['discard'])}, removed {view['removed']}", size=11)
    return canvas.render(y + 24)


@lru_cache(maxsize=256)
def _layout(
    layout: tuple[tuple[Any, ...], ...],
    awake: tuple[tuple[Any, ...], ...],
    princesses: tuple[tuple[Any, ...], ...],
) -> tuple[int, int, str]:
    """Width, height and SVG of the laid cards and the seams (cached between views)."""
    xs = [entry[0] for entry in layout] or [0]
    ys = [entry[1] for entry in layout] or [0]
    x0, y0 = min(xs), min(ys)
    columns, rows = max(xs) - x0 + 1, max(ys) - y0 + 1
    width = max(520, columns * CELL + 40)
    canvas = Canvas(width)
    left, top = (width - columns * CELL) / 2, 34

    def corner(x: int, y: int) -> tuple[float, float]:
        return left + (x - x0) * CELL, top + (y - y0) * CELL

    for x, y, card_id, rot in layout:
        _slot(canvas, *corner(x, y), card_id, rot)
    for x, y, cat in awake:
        px, py = corner(x, y)
        owner = _owner(cat)
        canvas.circle(px + CELL, py + CELL / 2, 9, seat_colour(owner or 0), stroke="#fff")
    for x, y, _ in princesses:
        px, py = corner(x, y)
        canvas.circle(px + CELL, py + CELL / 2, 9, "#f3c6e0")
        canvas.text(px + CELL, py + CELL / 2 + 4, "P", size=10, anchor="middle", bold=True)
    return width, rows * CELL, "".join(canvas.parts)
