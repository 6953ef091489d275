"""Runnable bots; each is usable as ``python -m bots.<name>``."""
