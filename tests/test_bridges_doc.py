"""docs/bridges.md's Python examples run as written (ISMCTS with fewer simulations)."""

from __future__ import annotations

import re

import pytest

from tests.conftest import ROOT

pytest.importorskip("pettingzoo", reason="the [pettingzoo] extra is not installed")
pytest.importorskip("pyspiel", reason="the [openspiel] extra is not installed")


def test_the_export_examples_run() -> None:
    text = (ROOT / "docs" / "bridges.md").read_text()
    export = text.split("## Export", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", export, re.S)
    assert len(blocks) >= 4
    scope: dict[str, object] = {}
    for block in blocks:
        exec(block.replace("max_simulations=100", "max_simulations=5"), scope)
    assert scope["action"] in scope["state"].legal_actions()  # type: ignore[attr-defined]
