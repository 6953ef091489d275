"""Bridges between the arena's engines and the libraries researchers use.

- :mod:`arena.bridges.pettingzoo`: ``env("cat-yard", players=3)`` is a PettingZoo AEC
  environment playing the engine itself (extra ``[pettingzoo]``).
- :mod:`arena.bridges.openspiel`: ``import arena.bridges.openspiel`` registers the five
  games with OpenSpiel as ``arena_<game>`` (extra ``[openspiel]``).

Both are built on each engine's :class:`engines.base.Encoding` (``engines.encoding``).
See docs/bridges.md.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from arena.errors import MissingExtra


def need(module: str, extra: str, package: str) -> ModuleType:
    """Import ``module``, or raise :class:`MissingExtra` saying how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise MissingExtra(
            f"this bridge needs {package}, which is not installed: "
            f"pip install 'tabletop-arena[{extra}]' (in a clone: pip install -e '.[{extra}]')"
        ) from error
