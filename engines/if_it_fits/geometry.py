"""The slot lattice of If It Fits: open edges, boxes (union-find) and the frontier.

Every card in the layout is portrait and sits in a slot ``(x, y)`` (spec §3.2); ``x`` grows to
the East, ``y`` to the South. East/West neighbours touch along long edges, North/South
neighbours along short edges. A slot is stored as one integer *code*
``(y + OFFSET) * STRIDE + (x + OFFSET)``, so sorting codes sorts slots by ``y`` then ``x``
(the spec's legal-list order) and a neighbour is one addition away.

A card's edges are a 4-bit *open mask* (:data:`N`, :data:`E`, :data:`S`, :data:`W`; a set bit
is an open edge). Two neighbours are connected when both facing edges are open; a *box* is a
connected component. :class:`Layout` keeps the boxes incrementally (union by size with path
halving) together with each box's contents, cat counts and open sides, and the frontier
(empty slots next to a card, with the number of open edges facing each). Placing a card costs
O(1) amortised; nothing is recomputed from scratch. :func:`flood_fill_boxes` is the slow
reference the tests compare against.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

STRIDE = 1024
OFFSET = 512  # slots stay within |x|, |y| < 512: at most 110 cards are ever laid

N, E, S, W = 1, 2, 4, 8
ALL_OPEN = N | E | S | W
# (edge bit, code step to the neighbour, the neighbour's facing edge bit)
DIRECTIONS: tuple[tuple[int, int, int], ...] = (
    (N, -STRIDE, S),
    (E, 1, W),
    (S, STRIDE, N),
    (W, -1, E),
)
_EDGE_ORDER = (N, E, S, W)


def slot_code(x: int, y: int) -> int:
    """The integer code of slot ``(x, y)``."""
    return (y + OFFSET) * STRIDE + (x + OFFSET)


def slot_xy(code: int) -> tuple[int, int]:
    """The ``(x, y)`` of a slot code."""
    y, x = divmod(code, STRIDE)
    return x - OFFSET, y - OFFSET


def edge_mask(edges: str) -> int:
    """Open mask of an edge code such as ``"###."`` (order N E S W, ``.`` = open)."""
    return sum(bit for bit, char in zip(_EDGE_ORDER, edges, strict=True) if char == ".")


def rotate(mask: int, rot: int) -> int:
    """The open mask after turning the card by ``rot`` half-turns (N<->S, E<->W)."""
    if rot % 2 == 0:
        return mask
    return ((mask << 2) | (mask >> 2)) & ALL_OPEN


class Box:
    """One connected component: its contents, cat counts, open sides and member slots.

    A box may be shared between a layout and its copies: change one only through
    :meth:`Layout.own_box` (copy on write); :meth:`Layout.box` is for reading.
    """

    __slots__ = (
        "cats",
        "first",
        "json",
        "members",
        "open_sides",
        "owner",
        "special",
        "spray",
        "text",
        "toys",
    )

    def __init__(
        self,
        toys: list[int],
        special: int,
        spray: int,
        cats: list[int],
        members: list[int],
    ) -> None:
        self.toys = toys
        self.special = special
        self.spray = spray
        self.cats = cats  # cats per seat (awake on a seam inside, or sleeping in a slot)
        self.members = members  # slot codes
        self.first = min(members)  # smallest slot code: a stable order for boxes
        self.open_sides = 0  # open edges facing an empty slot
        # cached observation view and its JSON text, reset on change
        self.json: list[Any] | None = None
        self.text = ""
        self.owner: object = None  # the layout that may change this box in place

    def copy(self) -> Box:
        twin = Box(self.toys[:], self.special, self.spray, self.cats[:], self.members[:])
        twin.open_sides = self.open_sides
        twin.json, twin.text = self.json, self.text
        return twin

    def absorb(self, other: Box) -> None:
        """Merge ``other`` into this box."""
        for i, count in enumerate(other.toys):
            self.toys[i] += count
        for i, count in enumerate(other.cats):
            self.cats[i] += count
        self.special += other.special
        self.spray += other.spray
        self.open_sides += other.open_sides
        self.members.extend(other.members)
        self.first = min(self.first, other.first)
        self.json = None


class Layout:
    """The cards on the table as geometry: open masks, boxes and the frontier.

    A copy shares the :class:`Box` objects with the original until either side changes one
    (copy on write, by ownership: a layout changes in place only the boxes it owns, and a
    copy leaves both sides owning none), so copying costs four dict copies, not a box each.
    """

    __slots__ = (
        "_sleep_sorted",
        "_sorted",
        "_token",
        "boxes",
        "frontier",
        "open",
        "parent",
        "players",
    )

    def __init__(self, players: int) -> None:
        self.players = players
        self.open: dict[int, int] = {}  # slot -> open mask of the card there
        self.parent: dict[int, int] = {}  # union-find over occupied slots
        self.boxes: dict[int, Box] = {}  # root slot -> its box (read-only unless owned)
        self.frontier: dict[int, int] = {}  # empty slot next to a card -> open edges facing it
        self._sorted: list[int] | None = None
        self._sleep_sorted: list[int] | None = None
        self._token = object()  # the owner mark of the boxes this layout may change

    def copy(self) -> Layout:
        twin = _new_layout(Layout)
        twin.players = self.players
        twin.open = self.open.copy()
        twin.parent = self.parent.copy()
        twin.boxes = self.boxes.copy()
        twin.frontier = self.frontier.copy()
        twin._sorted = self._sorted
        twin._sleep_sorted = self._sleep_sorted
        twin._token = object()
        self._token = object()  # the boxes are shared now: neither side owns them
        return twin

    # -- queries -----------------------------------------------------------------------
    def find(self, code: int) -> int:
        """The root slot of the box holding ``code`` (path halving)."""
        parent = self.parent
        while (up := parent[code]) != code:
            parent[code] = grand = parent[up]
            code = grand
        return code

    def box(self, code: int) -> Box:
        """The box holding the card in slot ``code``, to read (it may be shared)."""
        return self.boxes[self.find(code)]

    def own_box(self, code: int) -> Box:
        """The box holding the card in slot ``code``, to change (copied first if shared);
        its cached views are reset."""
        root = self.find(code)
        box = self.boxes[root]
        if box.owner is not self._token:
            box = self.boxes[root] = box.copy()
            box.owner = self._token
        box.json = None
        return box

    def frontier_slots(self) -> list[int]:
        """Empty slots orthogonally next to a card, sorted by ``y`` then ``x``."""
        if self._sorted is None:
            self._sorted = sorted(self.frontier)
        return self._sorted

    def sleeping_slots(self) -> list[int]:
        """Frontier slots faced by at least one open edge (a sleeping cat joins a box there)."""
        if self._sleep_sorted is None:
            frontier = self.frontier
            self._sleep_sorted = [c for c in self.frontier_slots() if frontier[c]]
        return self._sleep_sorted

    def matches(self, code: int, mask: int) -> bool:
        """True if every edge of ``mask`` at ``code`` equals the facing edge of its neighbour."""
        for bit, step, facing in DIRECTIONS:
            other = self.open.get(code + step)
            if other is not None and bool(mask & bit) != bool(other & facing):
                return False
        return True

    # -- the one mutation --------------------------------------------------------------
    def place(
        self,
        code: int,
        mask: int,
        toys: Sequence[int] = (0, 0, 0, 0),
        special: int = 0,
        spray: int = 0,
    ) -> Box:
        """Lay a card with open mask ``mask`` in the empty slot ``code``; return its box."""
        if code in self.open:
            raise ValueError(f"slot {slot_xy(code)} is occupied")
        self.frontier.pop(code, None)
        self.open[code] = mask
        self.parent[code] = code
        box = Box(list(toys), special, spray, [0] * self.players, [code])
        box.owner = self._token
        self.boxes[code] = box
        joins: list[int] = []
        for bit, step, facing in DIRECTIONS:
            near = code + step
            near_mask = self.open.get(near)
            if near_mask is None:
                if mask & bit:
                    box.open_sides += 1
                    self.frontier[near] = self.frontier.get(near, 0) + 1
                else:
                    self.frontier.setdefault(near, 0)
            elif near_mask & facing:
                near_box = self.own_box(near)
                near_box.open_sides -= 1  # its open edge now faces a card, not empty space
                if mask & bit:
                    joins.append(near)
        for near in joins:
            self._union(code, near)
        self._sorted = self._sleep_sorted = None
        return self.box(code)

    def _union(self, a: int, b: int) -> None:
        root_a, root_b = self.find(a), self.find(b)
        if root_a == root_b:
            return
        if len(self.boxes[root_a].members) < len(self.boxes[root_b].members):
            root_a, root_b = root_b, root_a
        self.parent[root_b] = root_a
        self.own_box(root_a).absorb(self.boxes.pop(root_b))


_new_layout = object.__new__


def flood_fill_boxes(open_masks: Mapping[int, int]) -> list[tuple[frozenset[int], int]]:
    """Boxes recomputed from scratch: ``(member slots, open sides)``, sorted by first slot."""
    seen: set[int] = set()
    boxes: list[tuple[frozenset[int], int]] = []
    for start in sorted(open_masks):
        if start in seen:
            continue
        seen.add(start)
        stack, members, open_sides = [start], [start], 0
        while stack:
            code = stack.pop()
            mask = open_masks[code]
            for bit, step, facing in DIRECTIONS:
                if not mask & bit:
                    continue
                near = code + step
                near_mask = open_masks.get(near)
                if near_mask is None:
                    open_sides += 1
                elif near_mask & facing and near not in seen:
                    seen.add(near)
                    members.append(near)
                    stack.append(near)
        boxes.append((frozenset(members), open_sides))
    return boxes
