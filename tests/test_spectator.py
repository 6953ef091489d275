"""A spectator's account of a game (``arena play --show``, ``arena replay --show``, the
viewer's whole table): each move, then what it made happen, every public event told once."""

from __future__ import annotations

import random

import pytest

import engines
from arena.show.spectator import Spectator, seat_name
from engines.testing import new_game

TABLES = [
    (name, players)
    for name in engines.names()
    for players in sorted({1, 2} & set(range(engines.get(name).min_players, 3)))
]


def _told(name: str, players: int, seed: int) -> tuple[list[str], list[str], list[str]]:
    """A seeded random game told by a :class:`Spectator`: its lines, the texts after
    ``then:``, and every public event logged after the deal that is not the decision
    itself, told in the guide's words (read from the whole log, kept from the start)."""
    guide = engines.guide(name)
    state = new_game(engines.get(name), players, seed)
    log = state.log  # type: ignore[attr-defined]  # every engine keeps an EventLog here
    log.trim_at = 0  # keep the whole history
    dealt = len(log)
    spectator = Spectator(name, players)
    rng = random.Random(seed)
    lines: list[str] = []
    number = 0
    while (seat := state.to_move()) is not None:
        action = rng.choice(state.legal_actions())
        lines += spectator.move(state, number, seat, action)
        state.apply(action)
        number += 1
    lines += spectator.end(state)
    then = [line.removeprefix("      then: ") for line in lines if line.startswith("      then: ")]
    news = [guide.narrate(event, seat_name) for event in log[dealt:] if not guide.restates(event)]
    return lines, then, [text for text in news if text]


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_every_public_event_after_the_deal_is_told_once_in_order(name: str, players: int) -> None:
    for seed in (1, 2):
        _lines, then, news = _told(name, players, seed)
        assert "; ".join(then) == "; ".join(news)


def test_a_dice_roll_is_told_with_its_faces() -> None:
    lines, _then, _news = _told("good-boy", 2, 3)
    rolls = [i for i, line in enumerate(lines) if line.endswith("rolls the dice")]
    assert rolls
    for i in rolls:
        seat = lines[i].split()[2]
        assert lines[i + 1].startswith(f"      then: seat {seat} rolled ")


def test_a_move_is_not_told_twice() -> None:
    # every public event of If It Fits is a decision, told already by its move line
    lines, then, _news = _told("if-it-fits", 2, 1)
    assert then == [] and len(lines) > 100
    # space-five tells the cards drawn after a play, not the play again
    _lines, then, _news = _told("space-five", 2, 1)
    assert then and all("drew" in text or "round" in text or "draw pile" in text for text in then)
    assert not any("placed" in text or "ended the play" in text for text in then)
