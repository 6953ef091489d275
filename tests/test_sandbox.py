"""``sandbox = "bwrap"``: a sandboxed bot plays normally, without network, and cannot write
outside its working directory. Skipped where bubblewrap is missing or cannot create
namespaces (``bwrap --ro-bind / / true`` fails, e.g. in an unprivileged container)."""

from __future__ import annotations

import shutil
import subprocess
import uuid
from pathlib import Path

import pytest
import trio

from arena import config
from arena.errors import ConfigError
from arena.league.runner import run_league
from arena.league.store import read_games
from tests.conftest import ROOT, processes_with


def bwrap_works() -> bool:
    if shutil.which("bwrap") is None:
        return False
    probe = subprocess.run(["bwrap", "--ro-bind", "/", "/", "true"], capture_output=True)
    return probe.returncode == 0


pytestmark = pytest.mark.usefixtures("toy_engine", "in_repo")


@pytest.mark.skipif(not bwrap_works(), reason="bubblewrap missing or without namespaces")
def test_sandboxed_bot_plays_without_network_or_outside_writes(tmp_path: Path) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    # the repository is read-only inside the sandbox (tmp_path would be hidden by its /tmp)
    outside = ROOT / "tests" / f"escaped-{marker}.txt"
    probe = ROOT / "tests" / "hostile" / "sandbox_probe.py"
    path = tmp_path / "league.toml"
    path.write_text(
        'name = "sb"\nengine = "toy"\nplayers = 2\nsandbox = "bwrap"\n'
        "[limits]\nstartup_ms = 5000\n"
        f'[[bots]]\nname = "probe"\ncmd = "python {probe} {outside} {marker}"\n'
        f'[[bots]]\nname = "a"\ncmd = "python -m bots.random {marker}"\n'
    )
    league = config.load(path)
    try:
        outcome = trio.run(lambda: run_league(league, tmp_path / "out", jobs=1))
    finally:
        escaped = outside.exists()
        outside.unlink(missing_ok=True)
    assert outcome.played == outcome.scheduled == 2
    assert all(not s.verdicts for r in read_games(tmp_path / "out") for s in r.seats)
    log = (tmp_path / "out" / "logs" / "probe.log").read_text()
    assert "probe: network refused" in log, log
    assert "probe: outside write refused" in log, log
    assert "probe: inside write ok" in log, log
    assert not escaped
    assert processes_with(marker) == []


def test_bwrap_without_bubblewrap_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None if name == "bwrap" else "/bin/x")
    with pytest.raises(ConfigError, match="needs bubblewrap, which is not installed"):
        config.parse(
            {
                "engine": "toy",
                "sandbox": "bwrap",
                "bots": [{"name": "a", "cmd": "python -m bots.random"}],
            }
        )
