"""The optional parts of an engine, declared on it rather than found by file name.

An engine needs only its metadata, :meth:`~engines.base.Engine.new_game` with its state,
and :meth:`~engines.base.Engine.sample_state` (by a ``sampling`` part or its own method).
Everything else is optional and named in the engine's :class:`Parts` by the import path of
a module, imported only when asked for. One policy when a part is absent: every command
still works and says what it cannot show (the human seat and the spectator tell events in
plain words and say there is no how-to-play text; the viewer draws the text ``render``;
the report says the data provenance is not stated; a search bot refuses a greedy guide or
play-out with one line at ``hello``).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, fields
from types import ModuleType

__all__ = ["PART_NAMES", "Parts"]


@dataclass(frozen=True)
class Parts:
    """Each field: the import path of a module, or None when the engine has no such part."""

    guide: str | None = None
    """Defines ``GUIDE`` (:class:`engines.guides.Guide`): the human seat's how-to-play
    text, its end line and the events in words."""
    picture: str | None = None
    """Defines ``draw`` and ``PRIVATE`` (:class:`engines.svgkit.Picture`): the SVG board of
    the report's viewer and ``arena view``."""
    data: str | None = None
    """Defines ``PROVENANCE``: one sentence on where the game's data comes from (the
    report's summary)."""
    sampling: str | None = None
    """Defines ``sample_state(new_game, seat, observations, rng)``, which fills a fresh
    table from what ``seat`` observed (:meth:`engines.base.EngineBase.rebuild_sample`)."""
    public: str | None = None
    """The names bot authors may import from the engine (tables, helpers): the only module
    of the engine a bot imports (``__all__`` lists them)."""
    greedy: str | None = None
    """A bot module defining ``choose(observation, legal, game)``, the engine's greedy
    bot: the search bot's guide and greedy play-outs."""
    encoding: str | None = None
    """Defines ``encoding(players, options)``, an :class:`engines.base.Encoding` (fixed
    action ids, observation tensor): what the bridges to PettingZoo and OpenSpiel need
    (``arena/bridges``); without it they say so in one line."""

    def module(self, part: str) -> ModuleType | None:
        """The module of ``part`` (a field name), imported now; None when it is absent."""
        path: str | None = getattr(self, part)
        return None if path is None else importlib.import_module(path)

    def absent(self) -> list[str]:
        """The names of the parts this engine does not have."""
        return [name for name in PART_NAMES if getattr(self, name) is None]


PART_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Parts))
