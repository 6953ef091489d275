"""The game's data in one table: cards, die faces, board spaces, parades.

Every row carries its provenance exactly as ``docs/rules/little-everdell.md`` marks it:
``published [R]`` (the Polish rulebook) or ``designed (reason)``. The rulebook's card faces,
die faces and board picture were lost, so most numbers here are **designed** by the spec.
The table is validated at import (54 cards, colour and kind totals, cost invariants).
"""

from __future__ import annotations

from dataclasses import dataclass

PROVENANCE = (
    "The rulebook's card faces, die faces and board picture were lost, so most numbers are "
    "designed by the spec; every row is tagged published (the Polish rulebook) or designed, as "
    "docs/rules/little-everdell.md marks it."
)
"""Where the data comes from, one line of plain text (the report's summary shows it)."""

# -- vocabulary -------------------------------------------------------------------------------
RESOURCES: tuple[str, ...] = ("berry", "twig", "resin")  # published [R]; index = resource id
COLOURS: tuple[str, ...] = ("green", "blue", "brown", "red", "purple")  # published [R]
KINDS: tuple[str, ...] = ("critter", "construction")  # published [R]
PARADES: tuple[str, ...] = ("constructions", "critters", "colors", "same_color")  # published [R]

BERRY, TWIG, RESIN = 0, 1, 2
CRITTER, CONSTRUCTION = "critter", "construction"


@dataclass(frozen=True)
class Gain:
    """Goods gained at once: resources (berry, twig, resin), point tokens, any-resource picks."""

    berry: int = 0
    twig: int = 0
    resin: int = 0
    points: int = 0
    any: int = 0

    @property
    def resources(self) -> tuple[int, int, int]:
        return (self.berry, self.twig, self.resin)

    def to_json(self) -> dict[str, int]:
        names = ("berry", "twig", "resin", "point", "any")
        values = (self.berry, self.twig, self.resin, self.points, self.any)
        return {n: v for n, v in zip(names, values, strict=True) if v}

    def __repr__(self) -> str:
        fields = ("berry", "twig", "resin", "points", "any")
        args = ", ".join(f"{f}={getattr(self, f)}" for f in fields if getattr(self, f))
        return f"Gain({args})"


@dataclass(frozen=True)
class Ability:
    """A card ability in the spec's effect vocabulary (section 2.6).

    ``code`` is one of ``gain`` (``gain``: resources, point tokens, any-resource picks),
    ``discount`` (``kind``, ``resource``), ``on_buy`` (``kind``, ``gain``), ``on_parade`` (``n``),
    ``colors_now``, ``copy_die``, ``activate_green`` (``n``), ``end_per`` (``colour``, ``n``),
    ``end_per_parade`` (``n``), ``none``.
    """

    code: str
    gain: Gain = Gain()
    kind: str = ""
    resource: int = -1
    colour: str = ""
    n: int = 0


@dataclass(frozen=True)
class Card:
    """One row of the card table (copies of a row are identical)."""

    slug: str
    name: str
    qty: int
    colour: str
    kind: str
    cost: tuple[int, int, int]  # berry, twig, resin
    points: int
    ability: Ability
    provenance: str

    @property
    def is_construction(self) -> bool:
        return self.kind == CONSTRUCTION


def _gain(**kw: int) -> Ability:
    return Ability("gain", gain=Gain(**kw))


_D = "designed (card list not public)"
_P_NAME = "published name, colour, ability [R]; qty, cost, points designed"

# fmt: off
#: The 54-card main deck (spec 2.7) then Captain and Fort (spec 2.8), in table order.
CARD_TABLE: tuple[Card, ...] = (
    Card("farm", "Farm", 3, "green", CONSTRUCTION, (0, 1, 1), 1, _gain(berry=1), _D),
    Card("twig_barge", "Twig Barge", 2, "green", CONSTRUCTION, (1, 1, 0), 1, _gain(twig=1), _D),
    Card("resin_refinery", "Resin Refinery", 2, "green", CONSTRUCTION, (0, 2, 0), 1,
         _gain(resin=1), _D),
    Card("berry_picker", "Berry Picker", 3, "green", CRITTER, (2, 0, 0), 1, _gain(berry=1), _D),
    Card("woodcarver", "Woodcarver", 2, "green", CRITTER, (1, 0, 1), 1, _gain(twig=1), _D),
    Card("peddler", "Peddler", 2, "green", CRITTER, (1, 1, 1), 2, _gain(any=1), _D),
    Card("crane", "Crane", 2, "blue", CONSTRUCTION, (0, 1, 1), 1,
         Ability("discount", kind=CONSTRUCTION, resource=TWIG), _D),
    Card("innkeeper", "Innkeeper", 2, "blue", CRITTER, (1, 1, 0), 1,
         Ability("discount", kind=CRITTER, resource=BERRY), _D),
    Card("shopkeeper", "Shopkeeper", 2, "blue", CRITTER, (2, 0, 0), 1,
         Ability("on_buy", kind=CRITTER, gain=Gain(berry=1)), _D),
    Card("courthouse", "Courthouse", 2, "blue", CONSTRUCTION, (0, 2, 1), 2,
         Ability("on_buy", kind=CONSTRUCTION, gain=Gain(resin=1)), _D),
    Card("juggler", "Juggler", 2, "blue", CRITTER, (1, 1, 1), 2, Ability("on_parade", n=2),
         "designed (named only in flavour text [R])"),
    Card("wanderer", "Wanderer", 2, "brown", CRITTER, (2, 0, 0), 1, _gain(points=2), _D),
    Card("postal_pigeon", "Postal Pigeon", 2, "brown", CRITTER, (1, 0, 0), 0, _gain(any=2), _D),
    Card("ruins", "Ruins", 2, "brown", CONSTRUCTION, (0, 1, 0), 0, _gain(resin=1, berry=1), _D),
    Card("fair_grounds", "Fair Grounds", 2, "brown", CONSTRUCTION, (1, 2, 0), 1,
         _gain(points=3), _D),
    Card("bard", "Bard", 2, "brown", CRITTER, (1, 1, 0), 1, Ability("colors_now"), _D),
    Card("lookout", "Lookout", 2, "red", CONSTRUCTION, (0, 2, 1), 2, Ability("copy_die"),
         _P_NAME),
    Card("gardener", "Gardener", 2, "red", CRITTER, (1, 1, 0), 1, Ability("activate_green", n=2),
         _P_NAME),
    Card("storehouse", "Storehouse", 2, "red", CONSTRUCTION, (0, 1, 1), 1,
         _gain(twig=1, resin=1), _D),
    Card("princess", "Princess", 2, "red", CRITTER, (2, 0, 1), 2, _gain(points=1, any=1),
         "published name [R]; rest designed"),
    Card("inn", "Inn", 2, "red", CONSTRUCTION, (1, 1, 0), 1, _gain(berry=2), _D),
    Card("king", "King", 1, "purple", CRITTER, (3, 0, 0), 4, Ability("none"),
         "published name, no bonus, high value [R]; points 4 designed (Everdell analogy)"),
    Card("ever_tree", "Ever Tree", 1, "purple", CONSTRUCTION, (0, 1, 2), 5, Ability("none"),
         "published name, no bonus, high value [R]; points 5 designed (Everdell analogy)"),
    Card("castle", "Castle", 2, "purple", CONSTRUCTION, (0, 2, 1), 1,
         Ability("end_per", colour="green", n=1),
         "published name, bonus [R]; qty, cost, points designed"),
    Card("palace", "Palace", 2, "purple", CONSTRUCTION, (0, 1, 2), 1,
         Ability("end_per", colour="brown", n=1), _D),
    Card("bandleader", "Bandleader", 2, "purple", CRITTER, (2, 1, 0), 1,
         Ability("end_per_parade", n=2), _D),
    Card("architect", "Architect", 2, "purple", CRITTER, (1, 0, 1), 1,
         Ability("end_per", colour="red", n=1), _D),
    # Not in the main deck: handicap cards (spec 2.8), never bought.
    Card("captain", "Captain", 4, "green", CRITTER, (0, 0, 0), 1, _gain(berry=1),
         "published existence, green, parade use [R]; kind, points, ability designed"),
    Card("fort", "Fort", 4, "green", CONSTRUCTION, (0, 0, 0), 1, _gain(twig=1),
         "published existence, green, parade use [R]; kind, points, ability designed"),
)
# fmt: on

#: Resource die faces 1..6 (spec 2.3). Face 6's content is published [R]; the rest designed.
DIE_FACES: dict[int, Gain] = {
    1: Gain(berry=2),  # designed
    2: Gain(twig=2),  # designed
    3: Gain(resin=2),  # designed
    4: Gain(twig=1, resin=1),  # designed
    5: Gain(berry=1, twig=1),  # designed
    6: Gain(points=1, any=1),  # published content [R]; face number designed
}

#: Shared top spaces, left to right (spec 2.2): resin leftmost published [R]; order designed.
TOP_SPACES: dict[str, Gain] = {
    "top_resin": Gain(resin=1),
    "top_twig": Gain(twig=1),
    "top_berry": Gain(berry=1),
}

PARADE_STACK = (6, 5, 4, 3)  # published [R]
PARADE_STACK_SOLO = (6, 3)  # published [R]
FRIENDS = 3  # published [R]
ROUNDS = 4  # published [R]
MEADOW_SLOTS = 8  # published [R]; slot numbering 1..8 left to right designed
HANDICAP_COPIES = 4  # Captain and Fort copies each, published [R]
DECK_SIZE = 54  # published [S3]

CARDS: dict[str, Card] = {card.slug: card for card in CARD_TABLE}
MAIN_DECK: tuple[str, ...] = tuple(
    f"{card.slug}#{n}"
    for card in CARD_TABLE
    if card.slug not in ("captain", "fort")
    for n in range(1, card.qty + 1)
)
ALL_UIDS: tuple[str, ...] = MAIN_DECK + tuple(
    f"{slug}#{n}" for slug in ("captain", "fort") for n in range(1, HANDICAP_COPIES + 1)
)
#: uid -> its card row.
CARD_OF: dict[str, Card] = {uid: CARDS[uid.split("#")[0]] for uid in ALL_UIDS}


def _validate() -> None:
    """The spec's checks on the designed table (section 12)."""
    deck = [CARD_OF[uid] for uid in MAIN_DECK]
    problems: list[str] = []
    if len(deck) != DECK_SIZE:
        problems.append(f"{len(deck)} cards in the main deck")
    colours = {c: sum(1 for card in deck if card.colour == c) for c in COLOURS}
    if colours != {"green": 14, "blue": 10, "brown": 10, "red": 10, "purple": 10}:
        problems.append(f"colour totals {colours}")
    kinds = {k: sum(1 for card in deck if card.kind == k) for k in KINDS}
    if kinds != {"critter": 28, "construction": 26}:
        problems.append(f"kind totals {kinds}")
    for card in CARD_TABLE[:-2]:
        key = BERRY if card.kind == CRITTER else TWIG
        if card.cost[key] < 1 or not 1 <= sum(card.cost) <= 3:
            problems.append(f"cost of {card.slug}")
    if problems:
        raise ValueError("little-everdell data table: " + "; ".join(problems))


_validate()
