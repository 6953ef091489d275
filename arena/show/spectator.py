"""A game told to someone who sees the whole table: ``arena play --show`` and ``arena
replay --show``.

Each move is told as ``describe`` tells it (it may name a hidden card: a spectator sees
every hand), followed by what the move made happen: the events it logged beyond the
decision itself (dice, cards revealed or drawn, a refill, the next round), in the words of
the engine's guide (``engines.guide``). Whenever the turn passes to another seat, the
table is drawn again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import engines
from engines.base import Action, State
from engines.guides import Guide


class Spectator:
    """Lines telling one game of ``players`` seats of ``engine``, move by move: call
    :meth:`move` just before each move is applied and :meth:`end` once the game is over."""

    def __init__(self, engine: str, players: int) -> None:
        self._guide = engines.guide(engine)
        self._players = players
        self._last_seat: int | None = None
        # the seat whose observation shows what the last move made happen, whether it made
        # that move, and its observation just before
        self._watch: tuple[int, bool, dict[str, Any]] | None = None

    def move(self, state: State, number: int, seat: int, action: Action) -> list[str]:
        """The lines for decision ``number`` (``seat`` choosing ``action``), with what the
        previous move made happen; ``state`` is the live game before ``action``."""
        lines = self._aftermath(state)
        if seat != self._last_seat:
            lines.append(state.render(None))
            self._last_seat = seat
        lines.append(f"{number:4d}  {state.describe(action)}")
        watcher = witness(seat, self._players)
        self._watch = (watcher, watcher == seat, state.observation(watcher))
        return lines

    def end(self, state: State) -> list[str]:
        """What the last move made happen, and the final table."""
        return [*self._aftermath(state), state.render(None)]

    def _aftermath(self, state: State) -> list[str]:
        if self._watch is None:
            return []
        watcher, acted, before = self._watch
        self._watch = None
        told = aftermath(self._guide, gained(before, state.observation(watcher), acted))
        return [f"      then: {told}"] if told else []


def witness(mover: int, players: int) -> int:
    """A seat whose observation shows every public event of ``mover``'s move: the next
    seat (it did not act), or the mover alone at the table."""
    return mover if players == 1 else (mover + 1) % players


def aftermath(guide: Guide, events: list[Any]) -> str:
    """What a move made happen: the ``events`` it logged beyond the decision itself, told
    in ``guide``'s words and joined by ``; `` ("" when nothing happened)."""
    told = (guide.narrate(event, seat_name) for event in events if not guide.restates(event))
    return "; ".join(text for text in told if text)


def gained(before: Mapping[str, Any], after: Mapping[str, Any], acted: bool) -> list[Any]:
    """The events logged between two observations of one seat: everything ``after`` holds
    if the seat acted in between (its observation starts afresh then), else what follows
    the events ``before`` held."""
    had, has = before.get("events") or [], after.get("events") or []
    if acted or has[: len(had)] != had:
        return list(has)
    return list(has[len(had) :])


def seat_name(seat: int) -> str:
    """How a spectator calls a seat: ``seat 2``."""
    return f"seat {seat}"
