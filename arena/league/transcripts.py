"""Seat transcripts (``transcripts/<game>/seat<k>.jsonl``): written whole before their game
is stored, read back, and checked complete (a resume, ``arena replay``)."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

from arena import protocol
from arena.errors import BotProtocolError, ResultsError
from arena.league.atomic import os_reason, sync_folder, write_synced
from arena.league.layout import PARTIAL_TRANSCRIPT, TRANSCRIPTS
from arena.record import GameRecord, SeatRecord

if TYPE_CHECKING:
    from arena.game.table import Transcript


def write_transcripts(folder: Path, game: str, transcripts: Sequence[Transcript | None]) -> None:
    """``transcripts/<game>/seat<k>.jsonl`` for each seat with a transcript, on disk before
    this returns: call it before the game is stored (:meth:`ResultsDir.append
    <arena.league.results.ResultsDir.append>`), so that a stored game has its whole
    transcript whatever stops the run (a kill, a full disk, a crash).

    The folder is written beside its place (``transcripts/.partial-*``, removed by the
    next run if a kill leaves it) and renamed into place whole; a folder left there by a
    game of that id that was not stored is replaced.
    """
    if all(lines is None for lines in transcripts):
        return
    parent = folder / TRANSCRIPTS
    try:
        parent.mkdir(exist_ok=True)
        writing = Path(tempfile.mkdtemp(prefix=PARTIAL_TRANSCRIPT, dir=parent))
    except OSError as exc:
        raise ResultsError(f"{parent}: cannot write: {os_reason(exc)}") from None
    try:
        for seat, lines in enumerate(transcripts):
            if lines is not None:
                write_synced(writing / f"seat{seat}.jsonl", _transcript_bytes(lines))
        sync_folder(writing)
        shutil.rmtree(parent / game, ignore_errors=True)
        os.rename(writing, parent / game)
        sync_folder(parent)
    except OSError as exc:
        shutil.rmtree(writing, ignore_errors=True)
        reason = os_reason(exc)
        raise ResultsError(f"{parent / game}: cannot write the transcript: {reason}") from None


def remove_partial_transcripts(folder: Path) -> None:
    """Remove the transcript folders a killed run was writing (their games not stored)."""
    for writing in (folder / TRANSCRIPTS).glob(PARTIAL_TRANSCRIPT + "*"):
        shutil.rmtree(writing, ignore_errors=True)


def _transcript_bytes(lines: Transcript) -> bytes:
    """A seat transcript as stored: one JSON line per line the seat sent ("from") or got
    ("to"), the line as text."""
    return "".join(
        json.dumps({"dir": direction, "line": line.decode("utf-8", "replace").rstrip("\n")}) + "\n"
        for direction, line in lines
    ).encode("utf-8")


def complete_transcript(pairs: Sequence[tuple[str, str]], seat: SeatRecord) -> bool:
    """Whether a seat's transcript (its :func:`transcript_entry` pairs) holds the whole game its
    stored record ``seat`` tells of, not one cut short: a seat that played to the end was
    last sent ``end``; one that forfeited was asked at least the decisions it answered."""
    sent = [line for direction, line in pairs if direction == "to"]
    if seat.forfeit is None:  # one line to read, not all: a resume reads every transcript
        return bool(sent) and protocol.decode(sent[-1])["type"] == "end"
    return sum(protocol.decode(line)["type"] == "act" for line in sent) >= seat.decisions


def transcript_pairs(path: Path) -> list[tuple[str, str]] | None:
    """The ``(direction, line)`` pairs of a stored seat transcript, or None when it is missing
    or damaged (unreadable, a line that is not a :func:`transcript_entry`)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    pairs = list(map(transcript_entry, text.splitlines()))
    return None if None in pairs else cast(list[tuple[str, str]], pairs)


def transcript_entry(text: str) -> tuple[str, str] | None:
    """``(direction, line)`` of one transcript line; None for a damaged one (a line "to" the
    bot must be a protocol message; a bot's own line may be anything it wrote)."""
    try:
        entry = json.loads(text)
    except ValueError:
        return None
    if not isinstance(entry, dict) or not isinstance(entry.get("line"), str):
        return None
    direction, line = entry.get("dir"), entry["line"]
    if direction == "to":
        try:
            protocol.decode(line)
        except BotProtocolError:
            return None
    elif direction != "from":
        return None
    return direction, line


def has_complete_transcripts(folder: Path, record: GameRecord, people: Collection[str]) -> bool:
    """Whether every seat of a stored game played by a bot (not one of ``people``) has its
    complete transcript in ``folder`` (:func:`complete_transcript`)."""
    for position, seat in enumerate(record.seats):
        if seat.bot in people:
            continue
        pairs = transcript_pairs(folder / TRANSCRIPTS / record.id / f"seat{position}.jsonl")
        if pairs is None or not complete_transcript(pairs, seat):
            return False
    return True
