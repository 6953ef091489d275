"""Tabletop Arena: a tournament referee for tabletop-game bots."""

__version__ = "0.1.0"
