"""The game's data: bait cards and cat tiles, in one place, each row tagged with its source.

The printed game's title and component data are unknown (see the spec,
``docs/rules/cat-yard.md``). Only the counts (55 bait cards, 32 cat tiles, 4 cushions of
4 fields, a yard of 4) and the ability *kinds* come from the rulebook. Every symbol, cost,
point value and ability assignment below is **designed** by the project so the game is
playable; replace these rows if the real data turns up (and bump ``ENGINE.version``).

Source tags, exactly as the spec uses them:

* ``rulebook``: stated in the supplied rulebook text;
* ``rulebook-inferred``: follows from a worked example in that text;
* ``designed``: chosen by the project (not the real game's data).
"""

from __future__ import annotations

from typing import Final

PROVENANCE = (
    "Only the counts (55 bait cards, 32 cat tiles, 4 cushions of 4 fields, a yard of 4) and the "
    "ability kinds come from the rulebook; every symbol, cost, point value and ability assignment "
    "is designed by the project so the game is playable (docs/rules/cat-yard.md)."
)
"""Where the data comes from, one line of plain text (the report's summary shows it)."""

RULEBOOK: Final = "rulebook"
INFERRED: Final = "rulebook-inferred"
DESIGNED: Final = "designed"

# Bait symbols (designed: the rulebook names milk, cat food and a mouse; yarn is ours).
SYMBOLS: Final = ("milk", "food", "mouse", "yarn")

# Counts and geometry: (value, source).
COUNTS: Final[dict[str, tuple[int, str]]] = {
    "bait_cards": (55, RULEBOOK),
    "dogs": (7, DESIGNED),
    "cat_tiles": (32, RULEBOOK),
    "cushions": (4, RULEBOOK),
    "fields_per_cushion": (4, INFERRED),
    "yard_slots": (4, RULEBOOK),
    "target_points": (10, RULEBOOK),
    "long_target_points": (15, RULEBOOK),
    "round_cap": (50, DESIGNED),
}

# Bait cards: (first id, copies, symbols, source). A row with no symbols is a dog.
BAIT_ROWS: Final[tuple[tuple[int, int, tuple[str, ...], str], ...]] = (
    (1, 7, ("milk",), DESIGNED),
    (8, 7, ("food",), DESIGNED),
    (15, 7, ("mouse",), DESIGNED),
    (22, 7, ("yarn",), DESIGNED),
    (29, 2, ("milk", "food"), DESIGNED),
    (31, 2, ("milk", "mouse"), DESIGNED),
    (33, 2, ("milk", "yarn"), DESIGNED),
    (35, 2, ("food", "mouse"), DESIGNED),
    (37, 2, ("food", "yarn"), DESIGNED),
    (39, 2, ("mouse", "yarn"), DESIGNED),
    (41, 2, ("milk", "food", "mouse"), DESIGNED),
    (43, 2, ("milk", "food", "yarn"), DESIGNED),
    (45, 2, ("milk", "mouse", "yarn"), DESIGNED),
    (47, 2, ("food", "mouse", "yarn"), DESIGNED),
    (49, 7, (), DESIGNED),
)

# Cat tiles: (id, cost symbols, points, ability, wild symbols, source).
# Ability kinds come from the rulebook; which cat has which ability is designed.
CAT_ROWS: Final[tuple[tuple[int, tuple[str, ...], int, str, tuple[str, ...], str], ...]] = (
    (1, ("milk",), 1, "yard_discard_1", (), DESIGNED),
    (2, ("milk",), 1, "ignore_dog", (), DESIGNED),
    (3, ("food",), 1, "ignore_dog", (), DESIGNED),
    (4, ("food",), 1, "draw_1", (), DESIGNED),
    (5, ("mouse",), 1, "wild", ("milk", "food"), DESIGNED),
    (6, ("mouse",), 1, "rotate_left", (), DESIGNED),
    (7, ("yarn",), 1, "wild", ("mouse", "yarn"), DESIGNED),
    (8, ("yarn",), 1, "rotate_right", (), DESIGNED),
    (9, ("milk", "food"), 2, "yard_discard_1", (), DESIGNED),
    (10, ("milk", "mouse"), 2, "yard_discard_1", (), DESIGNED),
    (11, ("milk", "yarn"), 2, "yard_discard_2", (), DESIGNED),
    (12, ("food", "mouse"), 2, "ignore_dog", (), DESIGNED),
    (13, ("food", "yarn"), 2, "draw_1", (), DESIGNED),
    (14, ("mouse", "yarn"), 2, "draw_1", (), DESIGNED),
    (15, ("milk", "milk"), 2, "wild", ("milk", "mouse"), DESIGNED),
    (16, ("food", "food"), 2, "rotate_left", (), DESIGNED),
    (17, ("mouse", "mouse"), 2, "rotate_right", (), DESIGNED),
    (18, ("yarn", "yarn"), 2, "protect", (), DESIGNED),
    (19, ("milk", "food", "mouse"), 3, "yard_discard_1", (), DESIGNED),
    (20, ("milk", "food", "yarn"), 3, "yard_discard_2", (), DESIGNED),
    (21, ("milk", "mouse", "yarn"), 3, "ignore_dog", (), DESIGNED),
    (22, ("food", "mouse", "yarn"), 3, "draw_1", (), DESIGNED),
    (23, ("milk", "milk", "food"), 3, "draw_2", (), DESIGNED),
    (24, ("food", "food", "mouse"), 3, "draw_2", (), DESIGNED),
    (25, ("mouse", "mouse", "yarn"), 3, "rotate_left", (), DESIGNED),
    (26, ("milk", "yarn", "yarn"), 3, "rotate_right", (), DESIGNED),
    (27, ("milk", "food", "mouse", "yarn"), 4, "yard_discard_2", (), DESIGNED),
    (28, ("milk", "food", "mouse", "yarn"), 4, "yard_discard_all", (), DESIGNED),
    (29, ("milk", "milk", "food", "food"), 4, "yard_discard_all", (), DESIGNED),
    (30, ("mouse", "mouse", "yarn", "yarn"), 4, "draw_2", (), DESIGNED),
    (31, ("milk", "milk", "mouse", "mouse"), 4, "wild", ("food", "yarn"), DESIGNED),
    (32, ("food", "food", "yarn", "yarn"), 4, "protect", (), DESIGNED),
)

# The ten ability kinds (rulebook: the kinds; the keys are ours).
ABILITIES: Final = (
    "yard_discard_1",
    "yard_discard_2",
    "yard_discard_all",
    "ignore_dog",
    "draw_1",
    "draw_2",
    "wild",
    "rotate_right",
    "rotate_left",
    "protect",
)
