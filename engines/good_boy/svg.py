"""The Good Boy table as an SVG picture, drawn from observations (see :mod:`engines.svgkit`).

Everything but the deck order is public: the three dog boards with each seat's corner of
item tokens, the token pool, every seat's hand of tokens, claimed dogs and points, and the
last roll of the dice.
"""

from __future__ import annotations

from engines.good_boy.data import CARDS, KINDS_TABLE
from engines.svgkit import Canvas, Views, any_view, seat_colour, seat_label

PRIVATE = False
"""Nothing but the deck order is hidden: every seat's view draws the whole table."""

KINDS = tuple(kind for kind, _ in KINDS_TABLE)
KIND_COLOURS = ("#f4f4f4", "#b07a4a", "#e85d5d", "#f2d24b", "#e8a3c9", "#6fb3e0")
DOGS = {cid: (breed, points, needs) for cid, breed, points, needs, _ in CARDS}


def _tokens(canvas: Canvas, x: float, y: float, counts: list[int]) -> float:
    """Item tokens as coloured discs with counts; returns the x after the last one."""
    for kind, count in enumerate(counts):
        if not count:
            continue
        canvas.circle(x + 8, y, 8, KIND_COLOURS[kind])
        canvas.text(x + 19, y + 4, f"{KINDS[kind]}×{count}", size=10)
        x += 40 + 6 * len(KINDS[kind])
    return x


def draw(views: Views) -> str:
    view = any_view(views)
    players = len(view["hands"])
    width = 620
    canvas = Canvas(width)
    state = "game over" if view["to_move"] is None else f"seat {view['to_move']} to move"
    canvas.text(
        12,
        20,
        f"Good Boy ({view['variant']}): round {view['round']}, {state}, phase {view['phase']}",
        size=14,
        bold=True,
    )
    roll = view["last_roll"]
    canvas.text(
        12,
        40,
        f"target {view['target_points']} pts, deck {view['deck_size']}, "
        f"rolls this turn {view['rolls_this_turn']}"
        + (f", last roll faces {roll}" if roll is not None else "")
        + (f", pending {' '.join(view['pending'])}" if view["pending"] else ""),
        size=11,
    )
    canvas.text(12, 62, "pool", bold=True)
    if _tokens(canvas, 50, 58, view["pool"]) == 50:
        canvas.text(50, 62, "empty", size=11)
    y = 76
    for board, dog in enumerate(view["boards"]):
        height = 34 + 20 * players
        canvas.rect(8, y, width - 16, height, "#fff")
        if dog is None:
            title = f"board {board}: empty"
        else:
            breed, points, needs = DOGS[dog]
            wants = ", ".join(f"{kind} {n}" for kind, n in needs.items())
            title = f"board {board}: {breed} ({points} pts) needs {wants}"
        canvas.text(16, y + 20, title, bold=True)
        for seat in range(players):
            row = y + 40 + 20 * seat
            canvas.text(28, row + 4, f"seat {seat}", size=11, fill=seat_colour(seat))
            _tokens(canvas, 90, row, view["corners"][board][seat])
        y += height + 8
    for seat in range(players):
        side = "" if view["sides"] is None else f" [{view['sides'][seat]}]"
        dogs = ", ".join(DOGS[d][0] for d in view["claimed"][seat]) or "no dogs"
        canvas.rect(8, y, width - 16, 46, "#fff", stroke=seat_colour(seat), width=2)
        canvas.text(
            16,
            y + 18,
            f"{seat_label(seat, view)}{side}: {view['scores'][seat]} pts; {dogs}",
            bold=True,
            fill=seat_colour(seat),
        )
        canvas.text(16, y + 38, "hand", size=11)
        _tokens(canvas, 50, y + 34, view["hands"][seat])
        y += 52
    return canvas.render(y + 4)
