"""The My Lil' Everdell table as an SVG picture, drawn from observations (see
:mod:`engines.svgkit`).

Only the deck order is hidden, so every seat's view draws the same picture: the dice spaces
and top spaces with the friends on them, the meadow, the parade stacks, then each seat's
resources, points, friends left and city of cards (coloured as printed).
"""

from __future__ import annotations

from engines.little_everdell.data import CARDS, RESOURCES
from engines.svgkit import Canvas, Views, any_view, seat_colour, seat_label

PRIVATE = False
"""Nothing but the deck order is hidden: every seat's view draws the whole table."""

COLOURS = {
    "green": "#9ed59b",
    "blue": "#8fc1e8",
    "brown": "#c8a27a",
    "red": "#ec8f8f",
    "purple": "#c7a6e0",
}
W, H = 70, 44


def _card(canvas: Canvas, x: float, y: float, uid: str) -> None:
    card = CARDS.get(uid.split("#")[0])
    if card is None:
        canvas.card(x, y, uid, "#eee", w=W, h=H)
        return
    cost = "/".join(str(c) for c in card.cost)
    name = card.name if len(card.name) <= 11 else card.name[:10] + "…"
    with canvas.titled(card.name):
        canvas.rect(x, y, W, H, COLOURS.get(card.colour, "#eee"))
        canvas.text(x + W / 2, y + 17, name, size=9, anchor="middle", bold=True)
        canvas.text(x + W / 2, y + 33, f"{card.points} pt, cost {cost}", size=8, anchor="middle")


def draw(views: Views) -> str:
    view = any_view(views)
    width = 660
    canvas = Canvas(width)
    mover = view["to_move"]
    state = "game over" if mover is None else f"seat {mover} to move"
    canvas.text(
        12,
        20,
        f"My Lil' Everdell: round {view['round']}, turn {view['turn']}/"
        f"{view['turns_per_round']}, {state}",
        size=14,
        bold=True,
    )
    pending = view["pending"]
    spaces = [
        f"die {i + 1}: face {face}" + ("" if who is None else f" ← seat {who}")
        for i, (face, who) in enumerate(zip(view["dice"], view["dice_occupied"], strict=True))
    ]
    spaces += [
        f"{space}: " + (", ".join(f"seat {s}" for s in occ) or "free")
        for space, occ in view["top_spaces"].items()
    ]
    for i, text in enumerate(spaces):
        canvas.text(12 + (i % 3) * 215, 42 + (i // 3) * 16, text, size=11)
    y = 42 + ((len(spaces) + 2) // 3) * 16
    if pending is not None:
        canvas.text(12, y, f"pending: {pending['kind']} (seat {pending['seat']})", size=11)
        y += 14
    canvas.text(12, y + 14, f"meadow (deck {view['deck_count']})", bold=True)
    for i, uid in enumerate(view["meadow"]):
        x = 12 + (i % 8) * (W + 6)
        if uid is None:
            canvas.empty(x, y + 22, w=W, h=H)
        else:
            _card(canvas, x, y + 22, uid)
    y += 22 + H + 8
    parades = "   ".join(f"{name} {stack}" for name, stack in view["parade_stacks"].items())
    canvas.text(12, y + 12, f"parades: {parades}", size=10)
    y += 22
    for seat, player in enumerate(view["players"]):
        cards = player["cards"]
        lines = max(1, (len(cards) + 7) // 8)
        height = 30 + lines * (H + 4)
        canvas.rect(8, y, width - 16, height, "#fff", stroke=seat_colour(seat), width=2)
        name = seat_label(seat, view) + (f" ({player['automa']})" if player["automa"] else "")
        res = ", ".join(f"{r} {n}" for r, n in zip(RESOURCES, player["resources"], strict=True))
        canvas.text(
            16,
            y + 18,
            f"{name}: {player['points']} pts; {res}; friends left {player['friends_left']}",
            bold=True,
            fill=seat_colour(seat),
        )
        for i, uid in enumerate(cards):
            _card(canvas, 14 + (i % 8) * (W + 6), y + 26 + (i // 8) * (H + 4), uid)
        y += height + 6
    return canvas.render(y + 4)
