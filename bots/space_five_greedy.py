"""A greedy Space Five bot: the play that sheds the most cards, bonuses first.

* Placing: for every legal next card, search all completions of the play from the hand
  and take the one that removes the most cards (placed cards + bonus discards); stop
  ("done") when no continuation does better. Ties go to the play that leaves the hand
  with more cards that still fit somewhere.
* Bonus: always use every discard: the solo discard pile first, then hand cards that fit
  nowhere, then the top of the own stack, then the least useful hand card.
* Exchange (only when nothing can be played): swap every card that fits nowhere.
* Solo discard-down: throw away the cards that fit the fewest cells.

With each placing decision it sends a note (shown by the game viewer): how many cards the
best play it found sheds.

It reads only the observation and the legal list; it uses the engine's pure geometry
helpers to evaluate them. Run it as ``python -m bots.space_five_greedy``.
"""

from __future__ import annotations

from typing import Any

from arena.sdk import GameInfo, run
from engines.space_five.public import CODE_OF, Cell, Layout, frontier_of, placing_cells, play_bonus

Action = dict[str, Any]


def best_shed(layout: Layout, placed: list[Cell], hand: list[int]) -> int:
    """Most cards a play can still remove: cards placed plus bonus discards earned."""
    best = len(placed) + play_bonus(layout, placed)
    for cell, mask in placing_cells(layout, placed):
        for code in set(hand):
            if mask >> code & 1:
                layout[cell] = code
                placed.append(cell)
                hand.remove(code)
                best = max(best, best_shed(layout, placed, hand))
                hand.append(code)
                placed.pop()
                del layout[cell]
    return best


def fit_counts(layout: Layout, cards: list[int]) -> dict[int, int]:
    """For each card, the number of empty cells where it could be placed alone."""
    masks = list(frontier_of(layout).values())
    return {code: sum(mask >> code & 1 for mask in masks) for code in set(cards)}


def choose_placement(
    layout: Layout, placed: list[Cell], hand: list[int], legal: list[Action]
) -> tuple[int, int]:
    """Index of the placement (or ``done``) that leads to the play shedding most cards, and
    how many cards that play sheds."""
    best_index, best_key = 0, (-1.0, -1)
    for index, action in enumerate(legal):
        kind = action["type"]
        if kind == "place":
            code, cell = CODE_OF[action["card"]], (action["x"], action["y"])
            layout[cell] = code
            rest = list(hand)
            rest.remove(code)
            shed = best_shed(layout, [*placed, cell], rest)
            del layout[cell]
            key = (float(shed), len(rest) - sum(1 for c in rest if c == code))
        elif kind == "done":
            key = (float(len(placed) + play_bonus(layout, placed)), len(hand))
        else:  # exchange: nothing shed
            key = (0.0, -1)
        if key > best_key:
            best_index, best_key = index, key
    return best_index, int(best_key[0])


def choose_bonus(layout: Layout, hand: list[int], legal: list[Action]) -> int:
    """Index of the bonus discard to take (never stop while a discard is left)."""
    fits = fit_counts(layout, hand)
    ranked: list[tuple[float, int]] = []
    for index, action in enumerate(legal):
        if action["type"] == "bonus_stop":
            ranked.append((-10.0, index))
        elif action["source"] == "discard_pile":
            ranked.append((10.0, index))
        elif action["source"] == "stack":
            ranked.append((1.0, index))
        else:
            fit = fits[CODE_OF[action["card"]]]
            ranked.append((2.0 if fit == 0 else -float(fit), index))
    return max(ranked)[1]


def choose(observation: dict[str, Any], legal: list[Action], game: GameInfo) -> int:
    if len(legal) == 1:
        return 0
    entries = observation["layout"]  # [x, y, "C4"] per card, this play's cards last
    layout: Layout = {(x, y): CODE_OF[card] for x, y, card in entries}
    hand = [CODE_OF[c] for c in observation["hand"]]
    phase = observation["phase"]
    if phase in ("turn_start", "placing"):
        count = observation["pending"]["placed"]
        placed = [(x, y) for x, y, _ in entries[len(entries) - count :]]
        index, shed = choose_placement(layout, placed, hand, legal)
        game.note = f"this play sheds {shed} card{'' if shed == 1 else 's'} at best"
        return index
    if phase == "bonus":
        return choose_bonus(layout, hand, legal)
    fits = fit_counts(layout, hand)
    if phase == "exchange_select":
        for index, action in enumerate(legal):
            if action["type"] == "exchange_pick" and fits[CODE_OF[action["card"]]] == 0:
                return index
        return len(legal) - 1  # exchange_confirm (listed last once a card is picked)
    # solo_discard: drop the card that fits the fewest cells
    return min(range(len(legal)), key=lambda i: fits[CODE_OF[legal[i]["card"]]])


if __name__ == "__main__":
    run(choose, name="space-five-greedy", version="3")
