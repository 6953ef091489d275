"""How to play If It Fits at the terminal, and why a game ended (see ``engines.guide``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.guides import Guide, Who, plain

HOW_TO_PLAY = """\
If It Fits - cats love cardboard boxes; have the most cats in the boxes worth the most toys.

Box cards are laid into one shared layout. Each card edge is a cardboard wall or open; cards
joined through open edges form one box. A box holds toys (yarn, mouse, fish, feather), maybe a
special toy, and spray bottles.

Your turn is ONE of:
  DRAW AND PLAY  draw a card ("draws a card"), choose a hand card, and lay it next to the layout
                 (a box card: choose a slot and a rotation). Then you may put one awake cat of
                 yours on the seam between the new card and a neighbour of the same box - only
                 into a box with no rival cat (unless one of yours is already there).
                 A Princess card instead sends a rival cat in the layout back to its owner.
  SLEEPING CAT   lay a cat of yours sleeping, like a box card; it joins a box even with rivals.
When every hand is empty the game ends. Each box scores for the player(s) with the most cats in
it: the count of its most common toy + 2 per special toy - 1 per spray bottle. Most points
wins; ties go to fewer spray (penalty) points.

Board: each card is a 7x4 picture; "=====" and "|" are walls, "-----" and ":" are open sides.
Other players' hands and the deck order are hidden (shown as counts)."""


def end_line(detail: Mapping[str, Any]) -> str:
    """One sentence: which end condition finished the game."""
    boxes = len(detail.get("boxes_scored", []))
    if detail.get("end") != "hands_empty":
        return f"The game ended ({detail.get('end')})."
    return (
        f"The deck and every hand are empty; {boxes} box(es) were scored for the most cats "
        "in each (ties: fewer spray points)."
    )


def narrate(event: Any, who: Who) -> str:
    """One observation event (``[seat, kind, *values]``) in words."""
    try:
        seat, kind, *values = event
    except (TypeError, ValueError):
        return plain(event)
    name = who(seat)
    if kind == "draw_and_play":
        return f"{name} drew a card" if values and values[0] else f"{name} plays from hand"
    if kind == "sleeping_cat":
        cat, x, y = values
        return f"{name} laid sleeping cat {cat} at ({x}, {y})"
    if kind == "select_card":
        return f"{name} chose {values[0]} from hand"
    if kind == "place_box":
        card, x, y, rot = values
        turned = ", turned" if rot else ""
        return f"{name} laid {card} at ({x}, {y}){turned}"
    if kind == "place_cat":
        cat, x, y = values
        return f"{name} put awake cat {cat} on the seam east of ({x}, {y})"
    if kind == "princess":
        card, cat = values
        return f"{name} played Princess {card}: cat {cat} goes back to its owner"
    if kind in ("discard", "princess_discard"):
        return f"{name} discarded {values[0] if values else 'the card'}"
    if kind == "no_cat":
        return f"{name} put no cat"
    if kind == "pass":
        return f"{name} passed"
    return f"{name}: {plain([kind, *values])}"


_CHOICES = frozenset(
    {
        "draw_and_play",
        "sleeping_cat",
        "select_card",
        "place_box",
        "place_cat",
        "princess",
        "discard",
        "princess_discard",
        "no_cat",
        "pass",
    }
)


def restates(event: Any) -> bool:
    """Every public event of If It Fits logs a decision (the card a draw brings is not
    public)."""
    return isinstance(event, list) and len(event) > 1 and event[1] in _CHOICES


GUIDE = Guide(HOW_TO_PLAY, end_line, narrate, restates=restates)
