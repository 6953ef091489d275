from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import engines

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def toy_engine() -> Iterator[str]:
    """Registers the tiny test engine as 'toy'."""
    engines.register("toy", "tests.toy_engine")
    yield "toy"
    engines.unregister("toy")


@pytest.fixture
def in_repo(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run from the repository root, as a user would."""
    monkeypatch.chdir(ROOT)
    return ROOT


def processes_with(marker: str) -> list[str]:
    """Command lines of running processes whose arguments contain ``marker``."""
    out = subprocess.run(["ps", "-eo", "pid,stat,args"], capture_output=True, text=True).stdout
    return [
        line
        for line in out.splitlines()[1:]
        if marker in line and "ps -eo" not in line and " Z" not in line
    ]


def write_league(folder: Path, text: str) -> Path:
    path = folder / "league.toml"
    path.write_text(text)
    return path


PYTHON = sys.executable
