"""The registry of rules engines.

Engines are imported only when asked for, so ``arena --help`` stays fast::

    >>> import engines
    >>> engines.names()[:1]
    ['cat-yard']
    >>> engines.get("space-five").title
    'Space Five (Piątka z kosmosu)'

A *family* serves a whole set of names ``PREFIX:SPEC``: ``openspiel:kuhn_poker`` is
OpenSpiel's Kuhn poker, built on first use by the family's module (``engine_named(name)``,
which imports no arena and keeps one engine per name). A family's names are not listed by
:func:`names` (there are too many); each engine it builds declares its optional parts
(:mod:`engines.parts`) as any engine does.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from engines.base import Encoding, Engine
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


# family prefix -> module whose ``engine_named(name)`` builds the engine ``PREFIX:SPEC``
_FAMILIES: dict[str, str] = {
    "openspiel": "engines.openspiel",
}


class UnknownEngine(KeyError):
    """No engine of that name is registered, or a family cannot build it (``reason``: why,
    in one line, e.g. what to install)."""

    def __init__(self, name: str, reason: str = "") -> None:
        self.name = name
        self.reason = reason
        super().__init__(name)

    def __str__(self) -> str:
        if self.reason:
            return self.reason
        families = ", ".join(f"{prefix}:NAME" for prefix in sorted(_FAMILIES))
        return f"unknown engine {self.name!r}; valid engines: {', '.join(names())}, {families}"


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


def families() -> dict[str, str]:
    """Each family's prefix and its one-line summary (the ``SUMMARY`` of its module, which
    imports nothing optional)."""
    return {
        prefix: str(importlib.import_module(module).SUMMARY)
        for prefix, module in sorted(_FAMILIES.items())
    }


def _module_of(name: str) -> str:
    """The module that defines engine ``name``: its own, or its family's."""
    module = _MODULES.get(name)
    if module is not None:
        return module
    prefix, colon, _spec = name.partition(":")
    if colon and prefix in _FAMILIES:
        return _FAMILIES[prefix]
    raise UnknownEngine(name)


def get(name: str) -> Engine:
    """The engine called ``name`` (imported on first use)."""
    module = importlib.import_module(_module_of(name))
    if name in _MODULES:
        engine: Engine = module.ENGINE
        return engine
    built: Engine = module.engine_named(name)  # raises UnknownEngine with its reason
    return built


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


def encoding(name: str, players: int, options: Mapping[str, Any] | None = None) -> Encoding:
    """The action numbering and observation tensor of engine ``name`` for a table of
    ``players`` with ``options`` (partial options are checked and resolved first): the
    engine's own ``encoding(players, options)`` method when it has one, else its declared
    ``encoding`` part (see :class:`engines.base.Encoding`); an
    :class:`~engines.base.EngineError` for an engine with neither."""
    engine = get(name)
    resolved = engine.check(players, dict(options or {}))
    method = getattr(engine, "encoding", None)  # an engine that makes its own
    if method is not None:
        made: Encoding = method(players, resolved)
        return made
    module = parts_of(name).module("encoding")
    if module is None:
        from engines.base import EngineError

        raise EngineError(
            f"engine {name!r} has no encoding part (action ids, observation tensor), "
            "which the bridges need"
        )
    made = module.encoding(players, resolved)
    return made


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
