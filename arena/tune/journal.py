"""``tune.jsonl``: every step of a tune, one JSON line each, fsync'd as it is taken.

One declaration (:class:`Header`, :class:`Step`), one reader and one writer derived from
their fields, and one migration path (:data:`_UPGRADES`: an older line is upgraded to the
current format as it is read). The first line is the header (the tune as resolved and its
seed): a rerun whose tune differs is refused. Each later line is one iteration's step, in
iteration order. A line cut short by a kill (no final newline) is dropped when the file
is opened: its iteration is taken again, its games found stored in ``games.jsonl``.

A line is written at once (a kill, even ``kill -9``, never loses it) and fsync'd by a
thread of its own right after, with the lines written meanwhile (as ``games.jsonl``'s
group sync does): an fsync per step on the referee's loop would stall every game for it.
A step lost by a power cut before its fsync is taken again the same way on the rerun.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from arena.errors import ResultsError
from arena.league.atomic import append_once

TUNE_JOURNAL = "tune.jsonl"
TUNED = "tuned.toml"  # the final values ([params]) and the confirmation
FORMAT = 1
_UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}
"""format -> the function that turns a line of that format into one of the next."""


@dataclass(frozen=True)
class Header:
    """What is tuned and how (``TuneConfig.to_toml``), with the seed of its deals."""

    tune: dict[str, Any]
    seed: int


@dataclass(frozen=True)
class Step:
    """One iteration: θ it was perturbed around, the perturbation, the games, the step."""

    k: int
    theta: list[float]  # the θ it was perturbed around
    flip: list[int]
    c: list[float]
    a: list[float]
    plus: dict[str, float | int]  # what θ+ and θ- played with (clipped, rounded)
    minus: dict[str, float | int]
    games: list[str]  # the block's game ids
    result: float  # θ+'s score minus θ-'s over the block
    after: list[float]  # θ once this step is taken (every step before it too)


@dataclass(frozen=True)
class Trial:
    """One trial of an ask/tell optimiser: the values it asked for and how they scored."""

    k: int
    values: dict[str, float | int]
    games: list[str]  # the trial's game ids
    score: float  # the trial values' mean score against the start values (0..1)


Entry = Step | Trial
_KINDS: dict[str, type[Step] | type[Trial]] = {"step": Step, "trial": Trial}


def _line(kind: str, entry: Header | Entry) -> bytes:
    data = {"format": FORMAT, "kind": kind, **asdict(entry)}
    return (json.dumps(data, separators=(",", ":")) + "\n").encode()


def _read(kind: type[Header] | type[Step] | type[Trial], data: dict[str, Any], where: str) -> Any:
    while data.get("format") in _UPGRADES:
        data = _UPGRADES[data["format"]](data)
    if data.get("format") != FORMAT:
        raise ResultsError(f"{where}: format {data.get('format')!r} is not one this arena reads")
    names = {f.name for f in fields(kind)}
    body = {k: v for k, v in data.items() if k not in ("format", "kind")}
    if set(body) != names:
        raise ResultsError(f"{where}: expected the fields {', '.join(sorted(names))}")
    return kind(**body)


class Journal:
    """The journal of one results folder, opened for a tune with ``header``."""

    def __init__(self, folder: Path, header: Header, *, fresh: bool = False) -> None:
        self.path = folder / TUNE_JOURNAL
        self.steps: list[Entry] = []
        if fresh and self.path.exists():
            self.path.unlink()
        if self.path.exists():
            self._open(header)
        else:
            folder.mkdir(parents=True, exist_ok=True)
            append_once(self.path, _line("header", header))
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        self._dirty = threading.Event()
        self._closed = False
        self._syncer = threading.Thread(target=self._sync_loop, name="tune-journal", daemon=True)
        self._syncer.start()

    def _sync_loop(self) -> None:
        while not self._closed:
            self._dirty.wait()
            self._dirty.clear()
            os.fsync(self._fd)

    def close(self) -> None:
        """fsync what is written and let the file go."""
        if self._closed:
            return
        self._closed = True
        self._dirty.set()
        self._syncer.join()
        os.fsync(self._fd)
        os.close(self._fd)

    def _open(self, header: Header) -> None:
        raw = self.path.read_bytes()
        whole = raw[: raw.rfind(b"\n") + 1]
        if len(whole) != len(raw):  # a line cut short by a kill: its step is taken again
            with self.path.open("r+b") as handle:
                handle.truncate(len(whole))
                handle.flush()
                os.fsync(handle.fileno())
        lines = whole.splitlines()
        if not lines:
            append_once(self.path, _line("header", header))
            return
        try:
            rows = [json.loads(line) for line in lines]
        except ValueError:
            raise ResultsError(f"{self.path}: a line is not JSON; use --fresh") from None
        stored = _read(Header, rows[0], f"{self.path}:1")
        if stored != header:
            raise ResultsError(
                f"{self.path}: this folder holds another tune (its [tune], bots or seed "
                "differ); use --fresh to start again, or another --out"
            )
        for number, row in enumerate(rows[1:], start=2):
            kind = _KINDS.get(row.get("kind", ""))
            if kind is None:
                raise ResultsError(f"{self.path}:{number}: unknown kind {row.get('kind')!r}")
            step = _read(kind, row, f"{self.path}:{number}")
            if step.k != len(self.steps):
                raise ResultsError(f"{self.path}:{number}: iteration {step.k} out of order")
            self.steps.append(step)

    def append(self, step: Entry) -> None:
        """Store a step or a trial: written now, fsync'd right after (see the module)."""
        assert step.k == len(self.steps), "steps are stored in iteration order"
        line = _line("step" if isinstance(step, Step) else "trial", step)
        written = 0
        while written < len(line):
            written += os.write(self._fd, line[written:])
        self._dirty.set()
        self.steps.append(step)


def read_steps(folder: Path) -> list[Entry]:
    """The steps or trials a folder's journal holds (for the report), without checking its
    header."""
    path = folder / TUNE_JOURNAL
    if not path.exists():
        return []
    steps = []
    for number, line in enumerate(path.read_bytes().splitlines(), start=1):
        if not line.endswith(b"}"):
            continue
        row = json.loads(line)
        kind = _KINDS.get(row.get("kind", ""))
        if kind is not None:
            steps.append(_read(kind, row, f"{path}:{number}"))
    return steps
