"""How to play My Lil' Everdell at the terminal, and why a game ended (``engines.guide``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.guides import Guide, Who, plain, their
from engines.little_everdell.rules import card_label

HOW_TO_PLAY = """\
My Lil' Everdell - 4 rounds of 3 turns; collect cards, parade tokens and points.

Resources are berries, twigs and resin. Each round starts with a roll of the resource dice
(die_1, die_2, ...), then the harvest: every green card of yours produces once.

Your turn:
  A. PLACE A FRIEND (compulsory) on a space and take what it gives: a top space (+1 of its
     resource, any number of friends), a free die space (that die's face; face 6 also gives a
     point token and a resource of your choice), or one of your own red cards.
  B. BUY ONE CARD (optional) from the meadow of 8 face-up cards by paying its cost, or buy
     nothing. Green cards produce, blue ones give discounts or bonuses on later buys, brown
     ones act once now, red ones are private spaces for your friends, purple ones score at
     the end.
  C. PARADES are checked for you: 5 constructions, 5 critters, all 5 colours, or 3 non-green
     cards of one colour each take the top remaining token of that parade (6, 5, 4, 3).
At the end every 2 resources left give 1 point. Most points wins; ties go to printed card points.
Everything is public except the order of the deck (shown as its size) and future dice."""


def end_line(detail: Mapping[str, Any]) -> str:
    """One sentence: which end condition finished the game."""
    if detail.get("end") != "last_round":
        return f"The game ended ({detail.get('end')})."
    text = "Four rounds were played; most points wins (ties: printed card points)"
    automa = detail.get("automa")
    if isinstance(automa, Mapping):
        text += f"; the automa {automa.get('name')} scored {automa.get('score')}"
    return text + "."


def solo_outcome(detail: Mapping[str, Any]) -> str:
    """A solo game's outcome: the player wins with at least the automa's total (rules §8)."""
    mine = detail["breakdown"][0]["total"]
    automa = detail["automa"]
    theirs = f"the automa {automa['name']}'s {automa['score']}"
    if detail["bot_won"]:
        return f"You won: {mine} points against {theirs} (a tie goes to you)."
    return f"You lost: {mine} points against {theirs} (you needed at least {automa['score']})."


def narrate(event: Any, who: Who) -> str:
    """One observation event (a dict with ``type``) in words."""
    if not isinstance(event, Mapping):
        return plain(event)
    kind = event.get("type")
    name = who(event["seat"]) if "seat" in event else ""
    if kind == "place":
        space = event.get("space")
        where = f"{their(name)} {card_label(event['card'])}" if space == "card" else str(space)
        return f"{name} placed a friend on {where}"
    if kind == "buy":
        return f"{name} bought {card_label(str(event.get('card')))} from slot {event.get('slot')}"
    if kind == "pass":
        return f"{name} bought nothing"
    if kind == "choose_resource":
        return f"{name} took a {event['resource']}"
    if kind == "copy_die":
        return f"{name} copied die_{event['die']}"
    if kind == "activate_green":
        return f"{name} activated {card_label(event['card'])}"
    if kind == "parade":
        return f"{name} took the {event['parade']} parade token worth {event['value']}"
    if kind == "automa":
        took = f" and took {card_label(str(event['card']))}" if "card" in event else ""
        where = f" placed on {event['space']}" if "space" in event else ""
        return f"{name} (automa {event.get('automa')}){where}{took}"
    if kind == "round":
        dice = ", ".join(f"die_{i + 1}={face}" for i, face in enumerate(event.get("dice", [])))
        first = who(event["first_player"]) if "first_player" in event else "?"
        return f"--- round {event.get('round')}: dice {dice}; first player {first} ---"
    if kind == "return_home":
        return f"round {event.get('round')} over: every friend returns home"
    if kind == "game_over":
        return "game over"
    return plain(event)


_CHOICES = frozenset({"place", "buy", "pass", "choose_resource", "copy_die", "activate_green"})


def restates(event: Any) -> bool:
    """The events of a player's own choices; parades, the automa's turns, a round's end and
    the next round's dice are what the choice made happen."""
    return isinstance(event, Mapping) and event.get("type") in _CHOICES


GUIDE = Guide(HOW_TO_PLAY, end_line, narrate, solo_outcome, restates)
