"""How to play an OpenSpiel game at the terminal (``engines.guide``): OpenSpiel's own
observation strings and action names, as the arena shows them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.guides import Guide, Who, plain


def _end_line(detail: Mapping[str, Any]) -> str:
    if detail.get("end") == "terminal":
        return "The game reached one of OpenSpiel's terminal states; scores are its returns."
    return "The game did not finish."


def _narrate(event: Any, who: Who) -> str:
    return plain(event)


GUIDE = Guide(
    how_to_play=(
        "An OpenSpiel game. Each turn shows your observation as OpenSpiel writes it; choose\n"
        "one of the legal actions, listed by OpenSpiel's action names. The scores at the end\n"
        "are OpenSpiel's returns, and the higher return ranks first."
    ),
    end_line=_end_line,
    narrate=_narrate,
)
