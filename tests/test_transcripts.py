"""``arena replay-seat`` refuses a transcript cut short (by a kill of an ``arena run
--transcripts`` writing it); a rerun counts the stored games without a complete one.

Real leagues (the toy engine or Space Five, real bot processes), real files.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arena.cli import main
from arena.league.store import TRANSCRIPTS

BOT = "python -m bots.random"


def toy_league() -> str:
    bots = "".join(f'[[bots]]\nname = "{name}"\ncmd = "{BOT}"\n' for name in "ab")
    return f'name = "t"\nengine = "toy"\nplayers = 2\nrounds = 1\nseed = 5\n{bots}'


def arena(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def run(tmp_path: Path, *more: str) -> Result:
    config = tmp_path / "league.toml"
    config.write_text(toy_league())
    return arena("run", str(config), "--out", str(tmp_path / "out"), "--no-report", *more)


@pytest.fixture
def here(toy_engine: str, in_repo: Path) -> Path:
    return in_repo


def cut_to_half(path: Path) -> int:
    """Cut a transcript file after its first half of lines, as a kill did; how many are kept."""
    lines = path.read_text().splitlines(keepends=True)
    kept = len(lines) // 2
    path.write_text("".join(lines[:kept]))
    return kept


def test_replay_seat_refuses_a_transcript_cut_short(tmp_path: Path, here: Path) -> None:
    assert run(tmp_path, "--transcripts").exit_code == 0
    out = tmp_path / "out"
    path = out / TRANSCRIPTS / "t0-b0-r0" / "seat0.jsonl"
    assert cut_to_half(path) >= 3  # hello, ready, start: every line kept is whole
    refused = arena("replay-seat", str(out), "t0-b0-r0", "0", "--bot", BOT)
    assert refused.exit_code == 2, refused.output
    assert refused.output == (
        f"arena: error: {path}: cut short: it ends before the stored game does (the seat "
        "played to the end, but the transcript has no 'end' message); this transcript "
        "cannot be replayed\n"
    )
    whole = arena("replay-seat", str(out), "t0-b0-r0", "1", "--bot", BOT)
    assert whole.exit_code == 0, whole.output


def test_a_rerun_counts_the_games_without_a_complete_transcript(tmp_path: Path, here: Path) -> None:
    """A transcript cut short, a game folder without one seat's file, an empty one: each is
    a stored game without a complete transcript, as much as a game with no folder."""
    assert run(tmp_path).exit_code == 0  # without --transcripts: none has one
    unrecorded = run(tmp_path, "--transcripts")
    assert unrecorded.exit_code == 0, unrecorded.output
    assert (
        "arena: 2 stored games have no complete transcript and will not be played again "
        "(played without --transcripts, or the transcript was cut short when an earlier "
        "version of arena was killed): use --fresh or --replay-bot NAME to play them again\n"
    ) in unrecorded.output

    assert run(tmp_path, "--transcripts", "--fresh").exit_code == 0
    transcripts = tmp_path / "out" / TRANSCRIPTS
    assert not run(tmp_path, "--transcripts").output.count("transcript")
    cut_to_half(transcripts / "t0-b0-r0" / "seat1.jsonl")
    (transcripts / "t0-b0-r1" / "seat0.jsonl").unlink()
    cut = run(tmp_path, "--transcripts")
    assert "arena: 2 stored games have no complete transcript" in cut.output, cut.output
    for seat in transcripts.glob("t0-b0-r1/*"):
        seat.unlink()
    (transcripts / "t0-b0-r0" / "seat1.jsonl").unlink()
    emptied = run(tmp_path, "--transcripts")
    assert "arena: 2 stored games have no complete transcript" in emptied.output
