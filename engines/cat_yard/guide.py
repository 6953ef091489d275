"""How to play Cat Yard at the terminal, and why a game ended (see ``engines.guide``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.cat_yard.rules import BAIT, CATS
from engines.guides import Guide, Who, plain, seats_text

HOW_TO_PLAY = """\
Cat Yard - lure cats from the yard; the first to 10 points ends the game after the round.

Your cushion has 4 fields (field 0 is the arrow field) holding face-up bait cards (milk, food,
mouse, yarn, ...). A yard cat shows its cost (bait symbols), its points and a one-use ability.

On your turn do ONE main action:
  GATHER BAIT  reveal bait cards one by one ("reveals another card"), then stop and put them
               on your fields (replacing old cards if you like); your arrow field must hold a
               card. A dog revealed after your first card ruins the draw ("accepts the dog"),
               unless a cat of yours lets you ignore it.
  LURE CATS    pay a yard cat's cost with cards from your fields (each card pays one symbol it
               shows; a wild cat may pay one symbol) and take the cat; you may lure again.
Free actions on your turn: swap your arrow-field card with another cushion's arrow-field card,
and use the ability of each of your cats once. End with "ends the turn".

Your score is the sum of your cats' points. Everything on the table is public; only the order
of the bait deck and the cat stack is hidden (shown as their sizes)."""


def end_line(detail: Mapping[str, Any]) -> str:
    """One sentence: which end condition finished the game."""
    winners = seats_text(list(detail.get("winners", [])))
    end = detail.get("end")
    rounds = detail.get("rounds", "?")
    if end == "target":
        why = f"someone reached {detail.get('target', 10)} points and round {rounds} was finished"
    elif end == "no_cats":
        why = f"the yard and the cat stack ran out of cats (round {rounds})"
    elif end == "round_cap":
        why = f"the safety cap of {rounds} rounds was reached"
    else:
        why = f"the game ended ({end})"
    return f"{why[0].upper()}{why[1:]}; most points wins: {winners}."


def _card(card: int) -> str:
    if card not in BAIT:
        return f"card {card}"
    return "a DOG" if BAIT[card].dog else f"{card} {BAIT[card].label()}"


def narrate(event: Any, who: Who) -> str:
    """One observation event (``[kind, *values]``) in words."""
    try:
        kind, *values = event
    except (TypeError, ValueError):
        return plain(event)
    if kind in ("act", "auto"):
        seat, action = values
        forced = " (the only choice)" if kind == "auto" else ""
        return f"{who(seat)}: {_action(action)}{forced}"
    if kind == "turn":
        name = who(values[0])
        turn = "your turn" if name == "you" else f"turn of {name}"
        return f"--- {turn} (round {values[1]}) ---"
    if kind == "reveal":
        return f"revealed: {_card(values[0])}"
    if kind == "draw":
        return f"drawn: {_card(values[0])}"
    if kind == "refill":
        slot, cat = values
        return f"yard slot {slot} refilled with {CATS[cat].label()}" if cat else ""
    if kind == "bust":
        return ""  # told by the accept_dog before it
    if kind == "feed":
        pos, field, card = values
        return f"unowned cushion {pos} gets {_card(card)} on field {field}"
    if kind == "reshuffle":
        return f"the bait discard pile is shuffled into a new deck of {values[0]} cards"
    if kind == "game_over":
        return f"game over ({str(values[0]).replace('_', ' ')})"
    return plain(event)


def _action(action: Mapping[str, Any]) -> str:
    kind = action.get("type")
    if kind == "lure":
        wilds = f" and wild cats {action['wilds']}" if action.get("wilds") else ""
        paid = f"paying fields {action['fields']}{wilds}"
        return f"lures the cat from yard slot {action['slot']} {paid}"
    if kind in ("place", "replace"):
        instead = ", discarding the card there" if kind == "replace" else ""
        return f"puts {_card(action['card'])} on field {action['field']}{instead}"
    words = {
        "gather": "gathers bait",
        "reveal": "reveals another card",
        "stop": "stops revealing",
        "accept_dog": "accepts the dog and loses the revealed cards",
        "done": "discards the remaining revealed cards",
        "end_turn": "ends the turn",
    }
    if kind in words:
        return words[kind]
    if kind == "ignore_dog":
        return f"ignores the dog with cat {action['cat']}"
    if kind == "place_drawn":
        return f"places the drawn card on field {action['field']}"
    if kind == "swap":
        return f"swaps arrow cards with cushion {action['target']}"  # as rules.describe
    if kind == "ability":
        slots = f" on yard slots {action['slots']}" if "slots" in action else ""
        return f"uses the ability of cat {action['cat']} ({CATS[action['cat']].ability}){slots}"
    return plain(action)


def restates(event: Any) -> bool:
    """An ``act`` event logs the decision itself; the rest (a forced ``auto`` step, reveals,
    draws, refills, the next turn) is what it made happen."""
    return isinstance(event, list) and event[:1] == ["act"]


GUIDE = Guide(HOW_TO_PLAY, end_line, narrate, restates=restates)
