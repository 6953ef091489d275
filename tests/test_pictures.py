"""The engines' table pictures at their extremes: everything drawn lies inside the picture."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

import engines
from engines.cat_yard.data import CAT_ROWS
from engines.space_five.rules import NAMES
from engines.svgkit import INK, MUTED, PAPER, SEAT_COLOURS
from engines.testing import new_game, random_playout

EM = {"normal": 0.58, "bold": 0.62}
"""A generous mean width of one character of sans-serif text, in font sizes (the pictures'
lines measure 0.42-0.53 in a browser)."""


def _spans(svg: str) -> list[tuple[str, float, float]]:
    """Every rectangle, circle and line of text as (what, left, right), in picture units."""
    spans = []
    for element in ET.fromstring(svg).iter():
        tag = element.tag.rpartition("}")[2]
        get = element.attrib.get
        if tag == "rect" and get("x") is not None:
            x = float(get("x", "0"))
            spans.append((f"rect at {x:g}", x, x + float(get("width", "0"))))
        elif tag == "circle":
            x, r = float(get("cx", "0")), float(get("r", "0"))
            spans.append((f"circle at {x:g}", x - r, x + r))
        elif tag == "text":
            words = element.text or ""
            em = EM["bold" if get("font-weight") == "bold" else "normal"]
            wide = len(words) * float(get("font-size", "12")) * em
            start = (
                float(get("x", "0"))
                - {"start": 0, "middle": wide / 2, "end": wide}[get("text-anchor", "start")]
            )
            spans.append((f"text {words!r}", start, start + wide))
    return spans


def _outside(svg: str) -> list[str]:
    """What sticks out of the picture's width (left of 0 or right of its width)."""
    width = float(ET.fromstring(svg).attrib["width"])
    return [what for what, left, right in _spans(svg) if left < 0 or right > width]


def _draw(name: str, views: dict[int, Any]) -> str:
    picture = engines.picture(name)
    assert picture is not None
    return picture.draw(views)


def test_cat_yard_draws_every_cat_of_a_seat_that_won_them_all() -> None:
    """A seat's row of won cats wraps to further lines: all 30 cats are inside the picture,
    however many a seat holds."""
    state = new_game(engines.get("cat-yard"), 3, 1)
    view = dict(state.observation(0))
    every_cat = [[row[0], i % 2] for i, row in enumerate(CAT_ROWS)]
    position, _, _ = view["players"][0]
    points = sum(row[2] for row in CAT_ROWS)
    view["players"] = [[position, points, every_cat], *view["players"][1:]]
    svg = _draw("cat-yard", {0: view})
    assert _outside(svg) == []
    cats = [text for text in ET.fromstring(svg).iter() if (text.text or "").endswith(" pt")]
    assert len(cats) >= len(CAT_ROWS)


def test_cat_yard_spells_out_its_bait_abbreviations_in_a_key() -> None:
    """The cards say mk, fd, ms and yn; a line under the table says what each one is."""
    svg = _draw("cat-yard", {0: new_game(engines.get("cat-yard"), 3, 1).observation(0)})
    lines = [text.text or "" for text in ET.fromstring(svg).iter() if text.tag.endswith("text")]
    key = next((line for line in lines if line.startswith("bait: ")), "")
    for short, name in (("mk", "milk"), ("fd", "food"), ("ms", "mouse"), ("yn", "yarn")):
        assert f"{short} {name}" in key, key
    assert _outside(svg) == []


def test_space_five_solo_draws_a_discard_pile_of_the_whole_deck() -> None:
    """The solo discard pile wraps to further lines: all 100 cards are inside the picture."""
    state = new_game(engines.get("space-five"), 1, 1)
    view = dict(state.observation(0))
    view["discard_pile"] = [name for name in NAMES for _ in range(4)]
    svg = _draw("space-five", {0: view})
    assert _outside(svg) == []
    drawn = [text.text for text in ET.fromstring(svg).iter() if text.text in NAMES]
    assert drawn.count("E5") >= 4


def _luminance(colour: str) -> float:
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    channels = [int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(one: str, other: str) -> float:
    """The WCAG contrast ratio of two ``#rgb`` or ``#rrggbb`` colours."""
    light, dark = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _low_contrast_text(svg: str) -> list[str]:
    """Each text whose colour has contrast under 4.5:1 with what it is drawn on (the last
    filled rectangle drawn before it around its middle, else the paper)."""
    filled: list[tuple[float, float, float, float, str]] = []
    low = []
    for element in ET.fromstring(svg).iter():
        tag, get = element.tag.rpartition("}")[2], element.attrib.get
        fill = get("fill", "none")
        if tag == "rect" and get("x") is not None and fill.startswith("#"):
            x, y = float(get("x", "0")), float(get("y", "0"))
            filled.append((x, y, float(get("width", "0")), float(get("height", "0")), fill))
        elif tag == "text":
            x, y = float(get("x", "0")), float(get("y", "0")) - float(get("font-size", "12")) / 3
            under = [
                f for left, top, w, h, f in filled if left <= x <= left + w and top <= y <= top + h
            ]
            ground = under[-1] if under else PAPER
            if _contrast(get("fill", INK), ground) < 4.5:
                low.append(f"{get('fill', INK)} on {ground}")
    return low


def test_every_seat_colour_and_grey_note_reads_on_paper_and_white() -> None:
    for colour in (*SEAT_COLOURS, MUTED):
        for ground in (PAPER, "#fff"):
            assert _contrast(colour, ground) >= 4.5, (colour, ground)


@pytest.mark.parametrize("name", engines.names())
def test_every_text_of_every_engines_picture_reads_on_what_it_is_drawn_on(name: str) -> None:
    """Labels in seat colours, grey notes, and the text on cards and on seat-coloured board
    cells all have contrast at least 4.5:1, at every step of a game of five seats or fewer."""
    picture = engines.picture(name)
    assert picture is not None
    seats = 4 if name != "little-everdell" else 2
    low: set[str] = set()

    def check(current: Any) -> None:
        views = {seat: current.observation(seat) for seat in range(seats)}
        low.update(_low_contrast_text(picture.draw(views)))

    random_playout(engines.get(name), seats, 5, each_step=check)
    assert sorted(low) == []


def test_little_everdell_card_cut_short_has_its_whole_name_as_a_tooltip() -> None:
    """A long card name is cut short on the card ("Berry Pick…") and written whole in the
    card's SVG ``<title>``, which a browser shows on hover; the picture stays the same from
    one draw to the next."""
    state = new_game(engines.get("little-everdell"), 2, 1)
    view = dict(state.observation(0))
    view["meadow"] = ["berry_picker", "fair_grounds", "resin_refinery", *view["meadow"][3:]]
    svg = _draw("little-everdell", {0: view})
    titles = [
        element.text for element in ET.fromstring(svg).iter() if element.tag.endswith("title")
    ]
    assert {"Berry Picker", "Fair Grounds", "Resin Refinery"} <= set(titles)
    assert "Berry Pick…" in svg
    assert _draw("little-everdell", {0: view}) == svg
