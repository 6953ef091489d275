"""The data of Good Boy (Trefl, 2022): item kinds, dice, dog cards, thresholds.

Every value carries its source as the spec (``docs/rules/good-boy.md``) marks it:

- ``rulebook``: stated in the scraped Polish/Czech rulebook;
- ``published``: found in a public review (URLs in the spec);
- ``designed``: not found anywhere; chosen by the project for balance. Never treat a
  designed value as the printed one.

Only the kinds' existence, the component counts and the Bulldog's needs are known. The
token split per kind, every die face, every other dog card, every point value, the end
threshold and the round cap are designed.
"""

from __future__ import annotations

# Item kinds, in the fixed order every count list of the engine uses.
# (kind, source). Five kinds are named by the rulebook/reviews; the sixth exists (six
# kinds, published) but is unnamed, so "frisbee" is a designed placeholder.
KINDS_TABLE: tuple[tuple[str, str], ...] = (
    ("bone", "rulebook"),
    ("stick", "rulebook"),
    ("ball", "rulebook"),
    ("duck", "rulebook"),
    ("treat", "published"),
    ("frisbee", "designed"),
)

PROVENANCE = (
    "Only the item kinds, the component counts and the Bulldog's needs are known, from the "
    "Polish/Czech rulebook and public reviews; the token split per kind, every die face, every "
    "other dog card, every point value, the end threshold and the round cap are designed by the "
    "project (docs/rules/good-boy.md)."
)
"""Where the data comes from, one line of plain text (the report's summary shows it)."""

ITEM_TOKENS = 60  # rulebook: 60 item tokens in the box
TOKENS_PER_KIND = 10  # designed: 60 tokens split evenly over the 6 kinds
BOARDS = 3  # rulebook: three yard boards
DOG_CARDS = 28  # rulebook: 28 dog cards
DICE_COUNT = 2  # rulebook: two item dice

TARGET_POINTS = 15  # designed: the printed threshold was an image and is lost
MAX_ROUNDS = 50  # designed: safety cap so every game ends

# Die faces (all designed): index = face number drawn by randrange(6).
# A face is a tuple of symbols: item kinds, "any" (take any one token) or "cat".
DICE_SOURCE = "designed"
DICE: tuple[tuple[tuple[str, ...], ...], ...] = (
    (("cat",), ("any",), ("bone",), ("ball",), ("stick", "duck"), ("treat", "frisbee")),
    (("cat",), ("any",), ("stick",), ("duck",), ("bone", "treat"), ("ball", "frisbee")),
)

# Dog cards: (id, breed, points, needs, source). Breeds other than the Bulldog are
# designed labels. Designed rule of thumb: points = tokens needed - 1.
CARDS: tuple[tuple[int, str, int, dict[str, int], str], ...] = (
    (1, "Chihuahua", 1, {"ball": 1, "treat": 1}, "designed"),
    (2, "Yorkshire Terrier", 1, {"bone": 1, "frisbee": 1}, "designed"),
    (3, "Maltese", 1, {"duck": 1, "treat": 1}, "designed"),
    (4, "Pug", 1, {"stick": 1, "ball": 1}, "designed"),
    (5, "Dachshund", 2, {"bone": 2, "stick": 1}, "designed"),
    (6, "Shih Tzu", 2, {"duck": 2, "treat": 1}, "designed"),
    (7, "Jack Russell Terrier", 2, {"ball": 2, "frisbee": 1}, "designed"),
    (8, "Welsh Corgi", 2, {"bone": 1, "treat": 2}, "designed"),
    (9, "Beagle", 2, {"stick": 2, "duck": 1}, "designed"),
    (10, "Poodle", 2, {"ball": 1, "frisbee": 2}, "designed"),
    (11, "Shiba Inu", 2, {"bone": 1, "duck": 1, "frisbee": 1}, "designed"),
    (12, "Cocker Spaniel", 2, {"stick": 1, "ball": 1, "treat": 1}, "designed"),
    (13, "Schnauzer", 3, {"bone": 1, "stick": 1, "treat": 1, "frisbee": 1}, "designed"),
    (14, "Border Collie", 3, {"ball": 2, "frisbee": 2}, "designed"),
    (15, "Dalmatian", 3, {"bone": 1, "ball": 1, "duck": 1, "treat": 1}, "designed"),
    (16, "Boxer", 3, {"stick": 2, "ball": 1, "treat": 1}, "designed"),
    (17, "Greyhound", 3, {"stick": 1, "duck": 2, "frisbee": 1}, "designed"),
    (18, "Labrador Retriever", 3, {"bone": 1, "ball": 2, "duck": 1}, "designed"),
    (19, "Golden Retriever", 3, {"duck": 1, "treat": 2, "frisbee": 1}, "designed"),
    (20, "Samoyed", 3, {"bone": 2, "stick": 1, "frisbee": 1}, "designed"),
    (
        21,
        "Bulldog",
        4,
        {"bone": 1, "stick": 1, "ball": 2, "duck": 1},
        "needs: rulebook; points: designed",
    ),
    (22, "German Shepherd", 4, {"bone": 2, "stick": 1, "treat": 1, "frisbee": 1}, "designed"),
    (23, "Siberian Husky", 4, {"stick": 1, "duck": 1, "treat": 1, "frisbee": 2}, "designed"),
    (24, "Dobermann", 4, {"bone": 1, "ball": 1, "treat": 2, "frisbee": 1}, "designed"),
    (25, "Rottweiler", 4, {"bone": 1, "ball": 1, "duck": 2, "treat": 1}, "designed"),
    (26, "Bernese Mountain Dog", 4, {"stick": 2, "duck": 2, "frisbee": 1}, "designed"),
    (
        27,
        "Great Dane",
        5,
        {"bone": 1, "stick": 1, "ball": 1, "duck": 1, "treat": 1, "frisbee": 1},
        "designed",
    ),
    (28, "St. Bernard", 5, {"bone": 2, "stick": 1, "ball": 1, "duck": 1, "treat": 1}, "designed"),
)
