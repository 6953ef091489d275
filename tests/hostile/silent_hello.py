"""Hostile bot: reads its input but never answers ``hello`` (verdict: startup)."""

import sys

for _line in sys.stdin:
    pass
