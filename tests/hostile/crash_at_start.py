"""Hostile bot: exits with an error before reading anything (verdict: startup)."""

import sys

sys.stderr.write("crash_at_start: giving up\n")
sys.exit(3)
