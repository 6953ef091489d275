"""How to play Space Five at the terminal, and why a game ended (see ``engines.guide``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.guides import Guide, Who, plain, seats_text, their

HOW_TO_PLAY = """\
Space Five - be the first to get rid of every card in your hand and your face-down stack.

A card is an alien (letter A-E) on a background (digit 1-5): "C4" is alien C on background 4.
The layout is a grid of face-up cards. A group is a straight run of touching cards in one row
or column that all show the same alien on different backgrounds, or the same background with
different aliens - so a group has at most five cards.

On your turn do ONE of:
  PLAY      lay 1-4 cards from your hand one at a time, all in one row or column, so that
            they lengthen one group of the layout; every run a new card touches must stay a
            valid group. Choose "ends the play" when you are done.
  EXCHANGE  pick 1-5 hand cards, then confirm: they go under your stack and you draw as many.
Bonus: completing the 4th card of a group gives 1 bonus discard, the 5th gives 2 (both in one
play: 3). Each bonus discard throws a hand card, or the top of your stack, out of the game.
After a play you refill your hand to 5 from your stack.

The game ends when someone has no card left (they win), or as "blocked" when nobody can play
any more (fewest cards left wins). Solo: place at least 3 cards a turn or discard down to 2;
your score is the discard pile, lower is better.

Board: x grows to the right, y grows downwards; * marks the cards placed this turn. Other
players' hands, every stack and the box are face down: shown as their sizes only."""


_BLOCKED = {  # detail["end"] of a blocked end, in words
    "dead_layout": "no card still held can be placed anywhere (dead layout)",
    "stall_cap": "ten exchange turns each in a row without a play (stall cap)",
    "turn_cap": "1000 turns were played (turn cap)",
}


def end_line(detail: Mapping[str, Any]) -> str:
    """One sentence: which end condition finished the game."""
    end = detail.get("end")
    winners = seats_text(list(detail.get("winners", [])))
    if end == "out_of_cards":
        text = f"{winners} played out every card (hand and stack): the round ended at once"
    elif end == "draw_pile_exhausted":
        text = "the draw pile could not refill the hand: the solo game ended"
    elif end in _BLOCKED:
        text = f"blocked: {_BLOCKED[end]}; fewest cards left wins - {winners}"
    else:
        text = f"ended ({end})"
    rounds = len(detail.get("round_ends", []))
    if rounds > 1:
        text += f" (last of {rounds} rounds; lowest total of cards left wins)"
    return text[0].upper() + text[1:] + "."


def solo_outcome(detail: Mapping[str, Any]) -> str:
    """A solo game's outcome: its score and the engine's note on it; solo is played for a
    low score, not won or lost (rules §11.1)."""
    return f"Your solo score: {detail['solo_score']} ({detail['solo_note']}); no win or loss."


def narrate(event: Any, who: Who) -> str:
    """One observation event (``[turn, seat, kind, *values]``) in words."""
    try:
        _turn, seat, kind, *values = event
    except (TypeError, ValueError):
        return plain(event)
    name = who(seat)
    if kind == "place":
        x, y, card = values
        return f"{name} placed {card} at ({x}, {y})"
    if kind == "play":
        count, bonus = values
        extra = f", earning {bonus} bonus discard(s)" if bonus else ""
        return f"{name} ended the play with {count} card(s){extra}"
    if kind == "exchange":
        return f"{name} exchanged {values[0]} card(s) with {their(name)} stack"
    if kind == "bonus_discard":
        source = str(values[0]).replace("_", " ")
        return f"{name} threw a card from {their(name)} {source} out of the game (bonus)"
    if kind == "bonus_stop":
        return f"{name} gave up {values[0]} bonus discard(s)"
    if kind == "draw":
        return f"{name} drew {values[0]} card(s) from {their(name)} stack"
    if kind == "solo_discard":
        return f"{name} put {values[0]} on the discard pile"
    if kind == "draw_pile_short":
        return f"the draw pile cannot give {name} the {values[0]} card(s) needed"
    if kind == "round_start":
        return f"round {values[0] + 1} starts with {values[1]} in the layout"
    if kind == "round_end":
        _round, reason, winners, _remaining, cap = (*values, None)[:5]
        detail = {"end": cap or reason, "winners": winners}
        return f"round {values[0] + 1} over: {end_line(detail)}"
    return f"{name}: {plain([kind, *values])}"


_CHOICES = frozenset({"place", "play", "exchange", "bonus_discard", "bonus_stop", "solo_discard"})


def restates(event: Any) -> bool:
    """The events of a player's own choices; draws, a short draw pile and a round's end
    are what the choice made happen."""
    return isinstance(event, list) and len(event) > 2 and event[2] in _CHOICES


GUIDE = Guide(HOW_TO_PLAY, end_line, narrate, solo_outcome, restates)
