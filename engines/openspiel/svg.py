"""An OpenSpiel game's table as an SVG picture: each seat's observation string, as
OpenSpiel writes it (monospace, one block per seat given; see :mod:`engines.svgkit`), and
its information-state string when that says more."""

from __future__ import annotations

from html import escape

from engines.svgkit import MUTED, Canvas, View, Views, seat_colour, seat_label

PRIVATE = True
"""A seat's observation string shows only what that seat may see (in a game of perfect
information every seat's string is the whole table)."""

LINE = 15  # pixels per line of text
CHAR = 7.3  # pixels per character of 12-pixel monospace


def _text(view: View) -> str:
    """The seat's observation string, and its information state if that differs."""
    seen = str(view.get("observation", "")).rstrip("\n")
    known = str(view.get("information_state", "")).rstrip("\n")
    if known and known != seen:
        return f"{seen}\ninformation state: {known}" if seen else known
    return seen


def draw(views: Views) -> str:
    blocks = [(seat, _text(view)) for seat, view in views.items()]
    widest = max((len(line) for _, text in blocks for line in text.split("\n")), default=0)
    canvas = Canvas(int(max(260, 24 + CHAR * widest)))
    y = 8.0
    for seat, text in sorted(blocks):
        view = views[seat]
        y += LINE + 4
        canvas.text(12, y, seat_label(seat, view), bold=True, fill=seat_colour(seat))
        for line in text.split("\n") or [""]:
            y += LINE
            canvas.raw(
                f'<text x="12" y="{y:g}" font-size="12" font-family="monospace" '
                f'xml:space="preserve">{escape(line)}</text>'
            )
        if not text:
            y += LINE
            canvas.text(12, y, "(no observation string)", fill=MUTED)
        y += 6
    return canvas.render(y + 10)
