"""The card data of If It Fits: one table, every row tagged with its provenance.

Spec: ``docs/rules/if-it-fits.md`` §2. The card *counts* (72 box, 3 special toy, 5 start,
5 Princess, 25 double-sided cats = 110) are published; every card's edges and contents are
**designed** by the spec author (no printed data was reachable). A row's ``source`` says which.

Edges are four characters in the order N E S W as printed (rotation 0): ``#`` wall, ``.`` open.
Toys are counted in the order of :data:`TOY_KINDS`.
"""

from __future__ import annotations

from typing import NamedTuple

PROVENANCE = (
    "The card counts (72 box, 3 special toy, 5 start, 5 Princess, 25 double-sided cats = 110) are "
    "published; every card's edges and contents are designed by the spec author, as no printed "
    "data was reachable (docs/rules/if-it-fits.md, section 2)."
)
"""Where the data comes from, one line of plain text (the report's summary shows it)."""

PUBLISHED = "published"
DESIGNED = "designed"
INFERRED = "inferred"

# Card kinds.
BOX = "box"
SPECIAL = "special"
START = "start"
PRINCESS = "princess"
CAT = "cat"

TOY_KINDS: tuple[str, ...] = ("yarn", "mouse", "fish", "feather")  # designed (§2.3)

# Scalar rules data; the comment gives each value's provenance.
HAND_SIZE = 2  # published: 2 cards each at setup, draw 1 + play 1 per turn
CATS_PER_SEAT = 5  # inferred: 25 cat cards = 5 colours x 5
SPECIAL_TOY_VALUE = 2  # designed (§2.4): +2 per special toy in a box
SPRAY_PENALTY = 1  # published: -1 point per spray bottle
SHORT_DECK_REMOVED = {2: 24, 3: 12}  # designed (option short_deck, §8)


class Card(NamedTuple):
    """One row of the card table."""

    id: str
    kind: str
    edges: str  # N E S W at rotation 0
    toys: tuple[int, int, int, int]  # yarn, mouse, fish, feather
    special: int  # special toys on the card
    spray: int  # spray bottles on the card
    source: str  # provenance of edges/contents (counts are published)


def _cat_rows() -> list[Card]:
    # Sleeping side: all open, empty (designed, §2.4); 5 per colour (inferred).
    return [
        Card(f"C{seat}-{k}", CAT, "....", (0, 0, 0, 0), 0, 0, DESIGNED)
        for seat in range(5)
        for k in range(1, CATS_PER_SEAT + 1)
    ]


# The table. Order matters: the draw deck is built from the B, P and X rows in this order,
# which is plain string order of their ids (spec §4 step 4).
CARDS: tuple[Card, ...] = (
    Card("B01", BOX, ".#.#", (1, 0, 1, 0), 0, 0, DESIGNED),
    Card("B02", BOX, "###.", (0, 0, 1, 1), 0, 0, DESIGNED),
    Card("B03", BOX, "##.#", (2, 0, 0, 0), 0, 0, DESIGNED),
    Card("B04", BOX, "###.", (0, 2, 0, 0), 0, 0, DESIGNED),
    Card("B05", BOX, ".#..", (0, 0, 1, 0), 0, 0, DESIGNED),
    Card("B06", BOX, ".#..", (0, 0, 1, 0), 0, 0, DESIGNED),
    Card("B07", BOX, "##.#", (0, 0, 0, 1), 0, 0, DESIGNED),
    Card("B08", BOX, "##.#", (0, 1, 1, 0), 0, 0, DESIGNED),
    Card("B09", BOX, "#.#.", (1, 0, 0, 0), 0, 0, DESIGNED),
    Card("B10", BOX, "##..", (0, 0, 0, 0), 0, 1, DESIGNED),
    Card("B11", BOX, ".#..", (0, 0, 0, 3), 0, 1, DESIGNED),
    Card("B12", BOX, "##.#", (0, 0, 0, 0), 0, 1, DESIGNED),
    Card("B13", BOX, "....", (0, 0, 1, 0), 0, 0, DESIGNED),
    Card("B14", BOX, "#.#.", (0, 0, 0, 0), 0, 0, DESIGNED),
    Card("B15", BOX, "###.", (1, 0, 0, 0), 0, 0, DESIGNED),
    Card("B16", BOX, "#...", (1, 0, 0, 0), 0, 0, DESIGNED),
    Card("B17", BOX, "#...", (1, 0, 0, 0), 0, 1, DESIGNED),
    Card("B18", BOX, "##..", (0, 0, 0, 1), 0, 0, DESIGNED),
    Card("B19", BOX, "##..", (2, 0, 0, 0), 0, 0, DESIGNED),
    Card("B20", BOX, ".#.#", (0, 3, 0, 0), 0, 1, DESIGNED),
    Card("B21", BOX, ".#.#", (0, 1, 0, 0), 0, 0, DESIGNED),
    Card("B22", BOX, "###.", (0, 0, 0, 1), 0, 0, DESIGNED),
    Card("B23", BOX, ".#.#", (0, 0, 0, 1), 0, 0, DESIGNED),
    Card("B24", BOX, "#..#", (0, 1, 0, 0), 0, 0, DESIGNED),
    Card("B25", BOX, "##.#", (0, 1, 0, 0), 0, 0, DESIGNED),
    Card("B26", BOX, "....", (0, 1, 1, 0), 0, 0, DESIGNED),
    Card("B27", BOX, "#.#.", (0, 0, 0, 1), 0, 0, DESIGNED),
    Card("B28", BOX, "#...", (0, 0, 0, 1), 0, 1, DESIGNED),
    Card("B29", BOX, "....", (1, 0, 0, 0), 0, 0, DESIGNED),
    Card("B30", BOX, "#..#", (0, 0, 0, 0), 0, 1, DESIGNED),
    Card("B31", BOX, "###.", (0, 1, 0, 1), 0, 0, DESIGNED),
    Card("B32", BOX, "#.#.", (1, 1, 0, 0), 0, 0, DESIGNED),
    Card("B33", BOX, ".#.#", (0, 0, 1, 1), 0, 0, DESIGNED),
    Card("B34", BOX, "#..#", (0, 0, 2, 0), 0, 0, DESIGNED),
    Card("B35", BOX, "....", (0, 0, 1, 1), 0, 0, DESIGNED),
    Card("B36", BOX, "##..", (0, 0, 0, 2), 0, 0, DESIGNED),
    Card("B37", BOX, "....", (0, 0, 0, 1), 0, 0, DESIGNED),
    Card("B38", BOX, "#...", (0, 1, 1, 0), 0, 0, DESIGNED),
    Card("B39", BOX, "##..", (1, 0, 0, 0), 0, 0, DESIGNED),
    Card("B40", BOX, "##.#", (1, 1, 0, 0), 0, 0, DESIGNED),
    Card("B41", BOX, "###.", (0, 1, 0, 0), 0, 1, DESIGNED),
    Card("B42", BOX, "##.#", (0, 1, 0, 0), 0, 0, DESIGNED),
    Card("B43", BOX, "###.", (0, 1, 1, 0), 0, 0, DESIGNED),
    Card("B44", BOX, "###.", (0, 0, 1, 0), 0, 0, DESIGNED),
    Card("B45", BOX, "#..#", (1, 1, 0, 0), 0, 0, DESIGNED),
    Card("B46", BOX, "#..#", (0, 0, 2, 0), 0, 0, DESIGNED),
    Card("B47", BOX, "##..", (0, 2, 0, 0), 0, 0, DESIGNED),
    Card("B48", BOX, "#.#.", (0, 0, 3, 0), 0, 1, DESIGNED),
    Card("B49", BOX, "#..#", (1, 0, 0, 1), 0, 0, DESIGNED),
    Card("B50", BOX, "###.", (0, 0, 1, 0), 0, 0, DESIGNED),
    Card("B51", BOX, "#.#.", (0, 0, 0, 2), 0, 0, DESIGNED),
    Card("B52", BOX, "#...", (0, 0, 0, 0), 0, 0, DESIGNED),
    Card("B53", BOX, "##..", (0, 0, 2, 0), 0, 0, DESIGNED),
    Card("B54", BOX, ".#..", (0, 1, 0, 0), 0, 0, DESIGNED),
    Card("B55", BOX, ".#..", (1, 0, 0, 1), 0, 0, DESIGNED),
    Card("B56", BOX, "#..#", (2, 0, 0, 0), 0, 0, DESIGNED),
    Card("B57", BOX, "###.", (0, 1, 0, 1), 0, 0, DESIGNED),
    Card("B58", BOX, ".#.#", (1, 0, 0, 1), 0, 0, DESIGNED),
    Card("B59", BOX, "#..#", (0, 0, 1, 0), 0, 0, DESIGNED),
    Card("B60", BOX, "##.#", (0, 0, 0, 0), 0, 0, DESIGNED),
    Card("B61", BOX, "##..", (0, 0, 0, 0), 0, 0, DESIGNED),
    Card("B62", BOX, "#...", (1, 0, 0, 1), 0, 0, DESIGNED),
    Card("B63", BOX, "###.", (3, 0, 0, 0), 0, 1, DESIGNED),
    Card("B64", BOX, "....", (1, 0, 0, 0), 0, 0, DESIGNED),
    Card("B65", BOX, "##..", (0, 0, 1, 0), 0, 1, DESIGNED),
    Card("B66", BOX, ".#..", (1, 1, 0, 0), 0, 0, DESIGNED),
    Card("B67", BOX, "#..#", (0, 2, 0, 0), 0, 0, DESIGNED),
    Card("B68", BOX, "##..", (0, 0, 1, 1), 0, 0, DESIGNED),
    Card("B69", BOX, "#.#.", (1, 0, 1, 0), 0, 0, DESIGNED),
    Card("B70", BOX, "#..#", (0, 0, 0, 0), 0, 1, DESIGNED),
    Card("B71", BOX, "###.", (0, 0, 0, 2), 0, 0, DESIGNED),
    Card("B72", BOX, "#.#.", (0, 1, 0, 0), 0, 0, DESIGNED),
    # Princess: count and effect published; placed edges/contents designed.
    *(Card(f"P{k}", PRINCESS, "....", (0, 0, 0, 0), 0, 0, DESIGNED) for k in range(1, 6)),
    # Special toy boxes: count published; edges and the single special toy designed.
    Card("X1", SPECIAL, "###.", (0, 0, 0, 0), 1, 0, DESIGNED),
    Card("X2", SPECIAL, "#.#.", (0, 0, 0, 0), 1, 0, DESIGNED),
    Card("X3", SPECIAL, "##..", (0, 0, 0, 0), 1, 0, DESIGNED),
    # Start cards: count published; edges and contents designed.
    Card("S1", START, "#.#.", (1, 0, 0, 0), 0, 0, DESIGNED),
    Card("S2", START, "#.#.", (0, 1, 0, 0), 0, 0, DESIGNED),
    Card("S3", START, "#.#.", (0, 0, 1, 0), 0, 0, DESIGNED),
    Card("S4", START, "#.#.", (0, 0, 0, 1), 0, 0, DESIGNED),
    Card("S5", START, "#.#.", (0, 0, 0, 0), 0, 0, DESIGNED),
    *_cat_rows(),
)
