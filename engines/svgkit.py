"""Small SVG drawing helpers shared by the engines' board pictures (``engines/<game>/svg.py``).

Every engine draws its table from observations only: ``draw(views)`` gets a mapping
``seat -> observation`` (the dicts the bots receive). The public table is drawn from any of
them; a seat's private part (its hand) only from that seat's own observation, so a picture
drawn from one seat's view can never show what that seat could not see. With every seat's
observation the picture is the whole table as the players know it.

A new game adds ``engines/<game>/svg.py`` with ``draw(views) -> str`` and ``PRIVATE``;
``engines.picture(name)`` finds it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from html import escape
from typing import Any, NamedTuple

View = Mapping[str, Any]
Views = Mapping[int, View]


class Picture(NamedTuple):
    """An engine's renderer: its ``svg`` module's ``draw`` and ``PRIVATE`` flag."""

    draw: Callable[[Views], str]
    private: bool
    """True when a seat's view can hide something (other hands); False when every seat's
    view is the whole table, so a viewer may draw it once."""


SEAT_COLOURS = ("#b8323f", "#1f6f91", "#2e7d3c", "#8a5a00", "#7b4fa0")
"""One colour per seat (seat 0 first), used by every engine's picture: dark enough for
text on the paper or white (contrast at least 4.5:1), and white text reads on each."""
INK = "#222"
PAPER = "#fbf8f1"
MUTED = "#6b6b6b"
HIDDEN = "#b9b3a6"


def seat_colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


class Canvas:
    """An SVG picture built from rectangles, circles, lines and text, top to bottom."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.parts: list[str] = []

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        fill: str,
        *,
        stroke: str = INK,
        radius: float = 4,
        width: float = 1,
        dashed: bool = False,
    ) -> None:
        dash = ' stroke-dasharray="4 3"' if dashed else ""
        self.parts.append(
            f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{radius:g}" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="{width:g}"{dash}/>'
        )

    def circle(self, x: float, y: float, r: float, fill: str, *, stroke: str = INK) -> None:
        self.parts.append(
            f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{fill}" stroke="{stroke}"/>'
        )

    def line(self, x1: float, y1: float, x2: float, y2: float, colour: str, width: float) -> None:
        self.parts.append(
            f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{colour}" '
            f'stroke-width="{width:g}" stroke-linecap="round"/>'
        )

    def text(
        self,
        x: float,
        y: float,
        content: object,
        *,
        size: float = 12,
        anchor: str = "start",
        bold: bool = False,
        fill: str = INK,
    ) -> None:
        self.parts.append(_text(x, y, str(content), size, anchor, bold, fill))

    def card(
        self,
        x: float,
        y: float,
        label: str,
        fill: str,
        *,
        w: float = 40,
        h: float = 54,
        sub: str = "",
        stroke: str = INK,
        width: float = 1,
    ) -> None:
        """A face-up card: a rounded rectangle with a bold label and an optional second line
        (its SVG text is cached: boards redraw the same cards step after step)."""
        self.parts.append(_card(x, y, label, fill, w, h, sub, stroke, width))

    def empty(self, x: float, y: float, *, w: float = 40, h: float = 54) -> None:
        """An empty place for a card (a dashed outline)."""
        self.rect(x, y, w, h, "none", stroke=MUTED, dashed=True)

    def back(self, x: float, y: float, *, w: float = 40, h: float = 54, count: str = "") -> None:
        """A face-down card (nothing of its face is written anywhere)."""
        self.rect(x, y, w, h, HIDDEN, stroke=MUTED, dashed=True)
        if count:
            self.text(x + w / 2, y + h / 2 + 4, count, anchor="middle", fill="#555")

    @contextmanager
    def titled(self, title: str) -> Iterator[None]:
        """Group what is drawn inside the ``with`` block under an SVG ``<title>``: a browser
        shows it as a tooltip over the group (the whole name of a card cut short, say)."""
        self.parts.append(f"<g><title>{escape(title)}</title>")
        yield
        self.parts.append("</g>")

    def raw(self, fragment: str) -> None:
        """Add SVG text drawn elsewhere (a cached part of a picture)."""
        self.parts.append(fragment)

    def render(self, height: float) -> str:
        body = "".join(self.parts)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {self.width:g} {height:g}" '
            f'width="{self.width:g}" height="{height:g}" font-family="sans-serif">'
            f'<rect width="100%" height="100%" fill="{PAPER}"/>{body}</svg>'
        )


@lru_cache(maxsize=4096)
def _card(
    x: float,
    y: float,
    label: str,
    fill: str,
    w: float,
    h: float,
    sub: str,
    stroke: str,
    width: float,
) -> str:
    """The SVG text of :meth:`Canvas.card`."""
    canvas = Canvas(0)
    canvas.rect(x, y, w, h, fill, stroke=stroke, width=width)
    canvas.text(x + w / 2, y + h / 2 + (0 if sub else 4), label, anchor="middle", bold=True)
    if sub:
        canvas.text(x + w / 2, y + h / 2 + 15, sub, size=9, anchor="middle")
    return "".join(canvas.parts)


@lru_cache(maxsize=4096)
def _text(x: float, y: float, content: str, size: float, anchor: str, bold: bool, fill: str) -> str:
    """The SVG text of :meth:`Canvas.text` (cached: a step's pictures share their lines)."""
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" text-anchor="{anchor}" '
        f'fill="{fill}"{weight}>{escape(content)}</text>'
    )


def any_view(views: Views) -> View:
    """One observation to draw the public table from (the lowest seat given)."""
    return views[min(views)]


def seat_label(seat: int, view: View) -> str:
    mover = view.get("to_move")
    return f"seat {seat}" + (" (to move)" if mover == seat else "")
