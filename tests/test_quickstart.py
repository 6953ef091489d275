"""The two Quick start lines of README.md work as they stand on a Debian/Ubuntu Python that
refuses ``pip install`` into the system (externally managed): the first makes a venv."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT

SYSTEM = Path("/usr/bin/python3")


def quick_start() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    block = readme.split("## Quick start", 1)[1].split("```", 2)[1]
    lines = [line for line in block.strip().splitlines() if line.strip()]
    assert len(lines) == 2
    return lines


@pytest.mark.slow
def test_the_first_quick_start_line_on_an_externally_managed_python(tmp_path: Path) -> None:
    managed = list(Path("/usr/lib").glob("python3*/EXTERNALLY-MANAGED"))
    if not SYSTEM.exists() or not managed:
        pytest.skip("no externally-managed system Python (/usr/bin/python3) here")
    copy = tmp_path / "repo"
    copy.mkdir()
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(copy)], input=archive.stdout, check=True)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    first = quick_start()[0]
    assert re.match(r"python3 -m venv \.venv && ", first)
    done = subprocess.run(["bash", "-c", first], cwd=copy, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "1. greedy" in done.stdout
    second = quick_start()[1]
    assert second.startswith(".venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest")
