"""How to play Good Boy at the terminal, and why a game ended (see ``engines.guide``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.good_boy import data
from engines.good_boy.rules import DOGS, KINDS
from engines.guides import Guide, Who, plain, seats_text, their

HOW_TO_PLAY = """\
Good Boy - win the yard dogs over with item tokens; most points (dog cards) wins.

Three boards each show a dog card: the item tokens it wants (bone, stick, ball, duck, treat,
frisbee) and its points. Every player has a coloured corner on each board.

Your turn:
  1. ROLL the two item dice as often as you like (the first roll is compulsory). Each roll
     gives you tokens from the pool; an "any" face lets you take a kind you choose; if a kind
     has run out you take it from a rival's corner instead.
     CAT faces are the danger: the first cat only flips your token to its cat side, a second
     cat in the same turn is a bust - you lose every token in your hand and the turn ends.
  2. STOP, then put tokens from your hand into your corners, one at a time ("puts a ...");
     choose "finishes assigning" when done. Tokens left in hand stay at risk.
  3. If your corner on a board holds everything its dog wants, you claim that dog (at most
     one per turn); the tokens of that corner go back to the pool and a new dog comes out.

Reaching the target points ends the game after the round; ties go to more dogs.
Everything is public except the order of the dog deck (shown as its size)."""


def end_line(detail: Mapping[str, Any]) -> str:
    """One sentence: which end condition finished the game."""
    winners = seats_text(list(detail.get("winners", [])))
    rounds = detail.get("rounds", "?")
    end = detail.get("end")
    if end == "target":
        why = f"Someone reached the target points and round {rounds} was finished"
    elif end == "no_dogs":
        why = f"The dog deck and the boards ran out of dogs (round {rounds})"
    elif end == "max_rounds":
        why = f"The safety cap of {rounds} rounds was reached"
    else:
        why = f"The game ended ({end})"
    return f"{why}; most points (then most dogs) wins: {winners}."


def _faces(faces: Sequence[int]) -> str:
    shown = ["+".join(data.DICE[die][face]) for die, face in enumerate(faces)]
    return " and ".join(shown)


def _dog(dog: Any) -> str:
    if not isinstance(dog, int) or dog not in DOGS:
        return "no dog"
    return f"the {DOGS[dog].breed} ({DOGS[dog].points} pts)"


def narrate(event: Any, who: Who) -> str:
    """One observation event (an action with ``seat`` and its outcome) in words."""
    if not isinstance(event, Mapping):
        return plain(event)
    kind = event.get("type")
    name = who(event["seat"]) if "seat" in event else ""
    if kind == "roll":
        return f"{name} rolled {_faces(event.get('faces', []))}"
    if kind == "flip":
        return f"{name} rolled a cat: {their(name)} token flips to the cat side"
    if kind == "bust":
        held = zip(KINDS, event.get("lost", []), strict=False)
        lost = ", ".join(f"{n} {k}" for k, n in held if n)
        return f"{name} rolled a second cat: bust, losing {lost or 'nothing'}"
    if kind == "gain":
        return f"{name} gained a {event['item']}"
    if kind == "miss":
        return f"{name} got no {event['item']} (none left anywhere)"
    if kind == "take":
        return f"{name} took a {event['item']} (any face)"
    if kind == "steal":
        return (
            f"{name} took a {event['item']} from {who(event['from'])}'s corner "
            f"on board {event['board']}"
        )
    if kind == "stop":
        return f"{name} stopped rolling"
    if kind == "assign":
        return f"{name} put a {event['item']} in {their(name)} corner on board {event['board']}"
    if kind == "done":
        return f"{name} finished assigning"
    if kind == "claim":
        new = _dog(event.get("revealed"))
        return f"{name} claimed {_dog(event.get('dog'))} on board {event['board']}; now {new}"
    if kind == "game_over":
        return f"game over ({str(event.get('end')).replace('_', ' ')})"
    return plain(event)


_CHOICES = frozenset({"assign", "done", "steal", "stop", "take"})


def restates(event: Any) -> bool:
    """The events of a choice with nothing left to chance; a roll's event is news (its
    faces), and so is a claim's (the dog it reveals next)."""
    return isinstance(event, Mapping) and event.get("type") in _CHOICES


GUIDE = Guide(HOW_TO_PLAY, end_line, narrate, restates=restates)
