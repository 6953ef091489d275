"""What a person needs to play a game at the terminal: how to play, and why it ended.

An engine declares its ``guide`` part (:class:`engines.parts.Parts`), a module defining
``GUIDE``; :func:`engines.guide` loads it, or gives :func:`plain_guide` for an engine
without one. Bots never need this: it is the text behind the human seat's ``?`` and the
one-line explanation printed when a game ends.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

Who = Callable[[int], str]  # seat -> how to call it ("you", "seat 2 (greedy)")


@dataclass(frozen=True)
class Guide:
    """``how_to_play``: a short text (at most 100 columns wide) in the spec's own words;
    ``end_line(detail)``: one sentence saying which end condition finished a game, from
    the ``detail`` of its :class:`~engines.base.Result`; ``narrate(event, who)``: one
    observation event in words ("" for an event not worth telling a person);
    ``solo_outcome(detail)``, for a game with a solo mode: one sentence telling the solo
    player how they did (won or lost, or what their score means), from the same ``detail``
    (alone at the table, the player always has rank 1, which says nothing);
    ``restates(event)``: whether an event only restates the decision that logged it (what
    ``describe`` said of the action), so that a spectator's account of a move tells only
    what the move made happen (dice, cards drawn, a refill, the next round); by default no
    event does."""

    how_to_play: str
    end_line: Callable[[Mapping[str, Any]], str]
    narrate: Callable[[Any, Who], str]
    solo_outcome: Callable[[Mapping[str, Any]], str] | None = None
    restates: Callable[[Any], bool] = lambda _event: False


def plain(event: Any) -> str:
    """Any event as words when no better telling is known: values without JSON brackets."""
    if isinstance(event, Mapping):
        return ", ".join(f"{k.replace('_', ' ')} {plain(v)}" for k, v in event.items())
    if isinstance(event, list | tuple):
        return " ".join(plain(v) for v in event)
    return str(event).replace("_", " ")


def their(name: str) -> str:
    """The possessive for a seat as :data:`Who` names it: "your" for "you", else "their"."""
    return "your" if name == "you" else "their"


def seats_text(seats: list[int]) -> str:
    """``[0, 2]`` -> ``"seats 0 and 2"``."""
    if not seats:
        return "nobody"
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + ", ".join(str(s) for s in seats[:-1]) + f" and {seats[-1]}"


def plain_guide(engine: str) -> Guide:
    """The guide of an engine that declares none: events told in plain words, none taken
    for a restatement, and a how-to-play text and end line that say what is missing."""
    return Guide(
        f"No how-to-play text: engine {engine} declares no guide. The legal actions are "
        "listed at each decision.",
        lambda _detail: "",
        lambda event, _who: plain(event),
    )
