"""The registry of rules engines.

Engines are imported only when asked for, so ``arena --help`` stays fast::

    >>> import engines
    >>> engines.names()[:1]
    ['cat-yard']
    >>> engines.get("space-five").title
    'Space Five (Piątka z kosmosu)'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engines.base import Engine
    from engines.guides import Guide
    from engines.parts import Parts
    from engines.svgkit import Picture as Picture

# engine name -> module that defines ENGINE (a new game adds its line here)
_MODULES: dict[str, str] = {
    "cat-yard": "engines.cat_yard",
    "good-boy": "engines.good_boy",
    "if-it-fits": "engines.if_it_fits",
    "little-everdell": "engines.little_everdell",
    "space-five": "engines.space_five",
}


class UnknownEngine(KeyError):
    """No engine of that name is registered."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(name)

    def __str__(self) -> str:
        return f"unknown engine {self.name!r}; valid engines: {', '.join(names())}"


def register(name: str, module: str) -> None:
    """Register an engine outside this list (a test's, a plug-in's): ``module`` is the
    import path of a module that defines ``ENGINE``, imported on first use."""
    if name in _MODULES and _MODULES[name] != module:
        raise ValueError(f"engine {name!r} is already registered as {_MODULES[name]}")
    _MODULES[name] = module


def unregister(name: str) -> None:
    """Forget an engine registered with :func:`register` (no error if it is unknown)."""
    _MODULES.pop(name, None)


def names() -> list[str]:
    """The names of every registered engine, sorted."""
    return sorted(_MODULES)


def get(name: str) -> Engine:
    """The engine called ``name`` (imported on first use)."""
    try:
        module_name = _MODULES[name]
    except KeyError:
        raise UnknownEngine(name) from None
    module = importlib.import_module(module_name)
    engine: Engine = module.ENGINE
    return engine


def parts_of(name: str) -> Parts:
    """The optional parts engine ``name`` declares (:class:`engines.parts.Parts`); none for
    an engine written without :class:`engines.base.EngineBase` that declares nothing."""
    from engines.parts import Parts

    found: Parts = getattr(get(name), "parts", None) or Parts()
    return found


def guide(name: str) -> Guide:
    """The how-to-play text and end explanation of engine ``name`` (for the human seat and
    the spectator); for an engine without a ``guide`` part, :func:`engines.guides.plain_guide`
    (events in plain words, a how-to-play text saying there is none)."""
    from engines.guides import plain_guide

    module = parts_of(name).module("guide")
    if module is None:
        return plain_guide(name)
    found: Guide = module.GUIDE
    return found


def picture(name: str) -> Picture | None:
    """The board renderer of engine ``name`` (its ``picture`` part), or None when it has
    none (a viewer shows the text ``render`` then): ``draw`` turns a mapping ``seat ->
    observation`` into an SVG picture and ``PRIVATE`` says whether one seat's view can
    differ from the whole table (see :mod:`engines.svgkit`).
    """
    from engines.svgkit import Picture

    module = parts_of(name).module("picture")
    if module is None:
        return None
    return Picture(module.draw, module.PRIVATE)


def provenance(name: str) -> str:
    """Where engine ``name``'s data comes from: the ``PROVENANCE`` line of its ``data``
    part (the table of the game's components), plain text for a reader of the report; an
    empty string for an engine without one."""
    module = parts_of(name).module("data")
    return "" if module is None else str(getattr(module, "PROVENANCE", ""))
