"""A bot command's ``{name}`` placeholders, filled with parameter values (``arena tune``).

``cmd = "python my_bot.py --weight {w}"`` is started as ``... --weight 0.75`` when a game
gives the bot ``w = 0.75``. Only names written as ``{name}`` (a letter or ``_``, then
letters, digits or ``_``) are placeholders; any other brace is left as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def placeholders(cmd: Iterable[str]) -> set[str]:
    """The parameter names a command's arguments hold as ``{name}``."""
    return {match.group(1) for arg in cmd for match in _PLACEHOLDER.finditer(arg)}


def spelled_value(value: float | int) -> str:
    """A parameter value as a command line gets it: ``3``, ``0.75``, ``-1e-05``."""
    return str(value) if isinstance(value, int) else repr(float(value))


def filled(cmd: Iterable[str], values: Mapping[str, float | int]) -> tuple[str, ...]:
    """``cmd`` with each placeholder that names a value replaced by it; the others stay."""

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        return spelled_value(values[name]) if name in values else match.group(0)

    return tuple(_PLACEHOLDER.sub(value, arg) for arg in cmd)
