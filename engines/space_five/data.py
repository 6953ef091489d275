"""The data of Space Five in one table, each value tagged as in the rules spec.

``published`` values come from the Polish rulebook (Muduko 2024) or the gamesfanatic.pl
review; ``designed`` values are our decisions where the sources are silent
(see docs/rules/space-five.md, sections 2, 4, 9 and 11).
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

PROVENANCE = (
    "Published values come from the Polish rulebook (Muduko 2024) or the gamesfanatic.pl review; "
    "designed values are the project's decisions where the sources are silent "
    "(docs/rules/space-five.md, sections 2, 4, 9 and 11)."
)
"""Where the data comes from, one line of plain text (the report's summary shows it)."""

Status = Literal["published", "designed"]


class Datum(NamedTuple):
    """One value of the game with its provenance."""

    value: Any
    status: Status
    note: str


TABLE: dict[str, Datum] = {
    # -- the deck ---------------------------------------------------------------------------
    "aliens": Datum(("A", "B", "C", "D", "E"), "published", "5 aliens; letters are designed"),
    "alien_labels": Datum(
        ("orange", "yellow", "green", "alien D", "alien E"),
        "published",
        "A/B/C named in rulebook examples; D/E are designed placeholders",
    ),
    "backgrounds": Datum(("1", "2", "3", "4", "5"), "published", "5 backgrounds; digits designed"),
    "background_labels": Datum(
        ("green", "blue", "grey", "background 4", "background 5"),
        "published",
        "1/2 named in examples; 3 = grey is an inference; 4/5 designed placeholders",
    ),
    "total_cards": Datum(100, "published", "rulebook and review"),
    "copies_per_code": Datum(4, "designed", "only even split of 100 cards over 25 codes"),
    # -- the table --------------------------------------------------------------------------
    "hand_size": Datum(5, "published", "draw 5, refill to 5"),
    "max_group": Datum(5, "published", "a group holds at most 5 cards"),
    "max_exchange": Datum(5, "published", "exchange up to 5 cards"),
    "bonus_fourth": Datum(1, "published", "discard 1 for supplying a group's 4th card"),
    "bonus_fifth": Datum(2, "published", "discard 2 for supplying a group's 5th card"),
    "bonus_both": Datum(3, "published", "discard 3 for supplying both 4th and 5th"),
    "young_deal": Datum(15, "published", "young-player variant: 15 cards each"),
    "solo_min_play": Datum(3, "published", "solo: place at least 3 cards per turn"),
    "solo_keep": Datum(2, "published", "solo: otherwise discard down to 2 cards"),
    # -- engine decisions -------------------------------------------------------------------
    "stall_turns_per_player": Datum(10, "designed", "blocked after 10*N turns without a play"),
    "turn_cap": Datum(1000, "designed", "blocked after 1000 completed turns of a round"),
    "default_rounds": Datum(1, "designed", "1 = the single standard game"),
    "max_rounds": Datum(20, "designed", "upper bound of the rounds option"),
}


def value(key: str) -> Any:
    """The value stored under ``key``."""
    return TABLE[key].value
