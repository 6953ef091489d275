"""OpenSpiel's games as arena engines: the ``openspiel:`` family of engine names.

``engines.get("openspiel:kuhn_poker")`` (or ``engine = "openspiel:leduc_poker(players=3)"``
in a league file) builds an :class:`~engines.openspiel.rules.OpenSpielEngine` for that game
string, in OpenSpiel's own parameter syntax. OpenSpiel is an optional dependency
(``pip install 'tabletop-arena[openspiel]'``); without it such a name is an
:class:`~engines.UnknownEngine` whose message says what to install. The README next to this
file describes the actions and observations.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

import engines

if TYPE_CHECKING:
    from engines.openspiel.rules import OpenSpielEngine

INSTALL = "pip install 'tabletop-arena[openspiel]'"
SUMMARY = (
    "any OpenSpiel game, e.g. openspiel:leduc_poker(players=3)\n"
    f"  (OpenSpiel's parameter syntax, no [options]; needs {INSTALL})"
)
_BUILT: dict[str, OpenSpielEngine] = {}


def engine_named(name: str) -> OpenSpielEngine:
    """The engine of ``openspiel:GAME`` (built once per name); an unknown game, bad
    parameters or a missing OpenSpiel is an :class:`~engines.UnknownEngine` with its reason."""
    built = _BUILT.get(name)
    if built is not None:
        return built
    try:
        rules = importlib.import_module("engines.openspiel.rules")
    except ImportError as exc:
        if exc.name != "pyspiel":
            raise
        reason = f"{name}: OpenSpiel is not installed; {INSTALL}"
        raise engines.UnknownEngine(name, reason) from None
    try:
        built = _BUILT[name] = rules.OpenSpielEngine(name)
    except ValueError as exc:
        raise engines.UnknownEngine(name, str(exc)) from None
    return built
