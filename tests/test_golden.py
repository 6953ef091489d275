"""Known answers: every engine still plays its golden game and perft counts exactly.

A failure after an intended rules change: bump the engine's version and regenerate with
``python -m tests.golden.make_golden``.
"""

from __future__ import annotations

import json

import pytest

import engines
from tests.golden.make_golden import known_answers, path_for


@pytest.mark.parametrize("name", engines.names())
def test_engine_matches_its_known_answers(name: str) -> None:
    stored = json.loads(path_for(name).read_text())
    fresh = known_answers(name)
    assert fresh["version"] == stored["version"], "engine version changed: regenerate"
    assert fresh["perft"] == stored["perft"]
    for step, (now, then) in enumerate(
        zip(fresh["play_through"], stored["play_through"], strict=False)
    ):
        assert now == then, f"first difference at step {step}"
    assert len(fresh["play_through"]) == len(stored["play_through"])
