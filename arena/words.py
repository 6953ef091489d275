"""Small helpers for the words the arena prints, in any layer (no imports)."""

from __future__ import annotations


def counted(number: int, noun: str) -> str:
    """``1 game``, ``2 games``, ``0 games``: a count with its noun (plural by an ``s``)."""
    return f"{number:,} {noun}" if number == 1 else f"{number:,} {noun}s"
