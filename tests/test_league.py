"""Leagues with real bot processes: determinism, resume, interruption, locks, no orphans."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import trio

from arena import config
from arena.errors import ResultsError
from arena.game.spec import GameSpec
from arena.league.driver import LeagueOutcome
from arena.league.feeds import BlockFeed
from arena.league.reading import read_games
from arena.league.results import ResultsDir
from arena.league.runner import run_league
from arena.league.schedule import iter_blocks
from arena.record import GameRecord
from arena.tools.replay import replay_record
from tests.conftest import ROOT, processes_with, wait_until, with_test_secret


def league_text(marker: str, engine: str = "toy", rounds: int = 2, extra: str = "") -> str:
    bots = "".join(
        f'[[bots]]\nname = "{name}"\ncmd = "python -m bots.random {marker}-{name}"\n'
        for name in ("a", "b", "c")
    )
    return (
        f'name = "t"\nengine = "{engine}"\nplayers = [2, 3]\nrounds = {rounds}\nseed = 3\n'
        f"{extra}{bots}"
    )


def load(tmp_path: Path, text: str) -> config.LeagueConfig:
    path = tmp_path / "league-config.toml"
    path.write_text(text)
    return config.load(path)


def comparable(records: list[GameRecord]) -> list[str]:
    """The games without their timings, in id order."""
    keys = ("id", "seed", "seating", "moves", "scores", "ranks", "verdicts", "forfeit")
    return sorted(json.dumps([r.to_dict()[k] for k in keys]) for r in records)


def test_jobs_do_not_change_the_games(tmp_path: Path, toy_engine: str, in_repo: Path) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    league = load(tmp_path, league_text(marker))
    serial = trio.run(lambda: run_league(league, tmp_path / "one", jobs=1))
    parallel = trio.run(lambda: run_league(league, tmp_path / "four", jobs=4))
    assert serial.played == parallel.played == 2 * (3 * 2 + 3) == serial.scheduled
    one, four = read_games(tmp_path / "one"), read_games(tmp_path / "four")
    assert comparable(one) == comparable(four)
    assert len({r.id for r in one}) == len(one)
    assert all(replay_record(r) == [] for r in one)
    assert processes_with(marker) == []


SPY = ROOT / "tests" / "hostile" / "deal_spy.py"
DEALT = re.compile(r"^dealt: (\w+) (\S+)$", re.MULTILINE)


def spy_league_text(marker: str, bots: str, rounds: int) -> str:
    """Toy games at tables of 2 between deal spies (``tests/hostile/deal_spy.py``)."""
    spies = "".join(
        f'[[bots]]\nname = "{name}"\ncmd = "python {SPY} {marker}-{name}"\n' for name in bots
    )
    return f'name = "spies"\nengine = "toy"\nplayers = 2\nrounds = {rounds}\nseed = 5\n{spies}'


def seeds_dealt(logs: Mapping[str, str], records: Iterable[GameRecord]) -> list[list[int]]:
    """Per spy process, the seeds of the games it was dealt (from the spies' stderr, which
    must name every seat of ``records`` once)."""
    records = list(records)
    seed_of = {record.id: record.seed for record in records}
    said = [(game, bot) for bot, text in logs.items() for _, game in DEALT.findall(text)]
    assert sorted(said) == sorted((r.id, bot) for r in records for bot in r.seating)
    processes: defaultdict[str, list[int]] = defaultdict(list)
    for text in logs.values():
        for process, game in DEALT.findall(text):
            processes[process].append(seed_of[game])
    return list(processes.values())


@pytest.mark.parametrize(("bots", "jobs"), [("ab", 1), ("abc", 2)])
def test_no_process_is_dealt_one_seed_twice(
    tmp_path: Path, toy_engine: str, in_repo: Path, bots: str, jobs: int
) -> None:
    """A block plays one seed under every rotation of a table, and every table of 2 plays
    the same seed in one block: a process seated at one seed twice would know from its
    first game what the others hold in the second. Pooled processes are reused, but never
    at a seed they played."""
    marker = f"m{uuid.uuid4().hex[:8]}"
    league = load(tmp_path, spy_league_text(marker, bots, rounds=3))
    outcome = trio.run(lambda: run_league(league, tmp_path / "out", jobs=jobs))
    records = read_games(tmp_path / "out")
    assert outcome.played == len(records) == 3 * 2 * len(bots) * (len(bots) - 1) // 2
    logs = {bot: (tmp_path / "out" / "logs" / f"{bot}.log").read_text() for bot in bots}
    dealt = seeds_dealt(logs, records)
    assert all(len(set(seeds)) == len(seeds) for seeds in dealt), dealt
    assert any(len(seeds) > 1 for seeds in dealt)  # processes are still reused
    assert processes_with(marker) == []


def test_finish_gets_the_outcome_once_every_game_is_stored(
    tmp_path: Path, toy_engine: str, in_repo: Path
) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    league = load(tmp_path, league_text(marker, rounds=1))
    out = tmp_path / "out"
    seen: list[str] = []

    def finish(outcome: LeagueOutcome) -> None:
        seen.append(f"finished {outcome.played} {len(read_games(out))}")

    outcome = trio.run(lambda: run_league(league, out, jobs=2, finish=finish))
    assert seen == [f"finished {outcome.scheduled} {outcome.scheduled}"]
    assert outcome.played == outcome.scheduled == 3 * 2 + 3  # pairs x rotations, the 3-seat table
    assert processes_with(marker) == []


def test_resume_plays_only_missing_games(tmp_path: Path, toy_engine: str, in_repo: Path) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    league = load(tmp_path, league_text(marker, rounds=1))
    trio.run(lambda: run_league(league, tmp_path / "out", jobs=2))
    games = tmp_path / "out" / "games.jsonl"
    lines = games.read_bytes().splitlines(keepends=True)
    games.write_bytes(b"".join(lines[:4]) + lines[4][:20])  # killed mid-write
    again = trio.run(lambda: run_league(league, tmp_path / "out", jobs=2))
    assert again.skipped == 4 and again.played == len(lines) - 4
    ids = [r.id for r in read_games(tmp_path / "out")]
    assert len(ids) == len(set(ids)) == len(lines)
    more = load(tmp_path, league_text(marker, rounds=2))
    extended = trio.run(lambda: run_league(more, tmp_path / "out", jobs=2))
    assert extended.skipped == len(lines) and extended.played == len(lines)
    assert processes_with(marker) == []


def test_a_league_without_seed_deals_from_a_random_one_kept_for_its_resumes(
    tmp_path: Path, toy_engine: str, in_repo: Path
) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    text = league_text(marker, rounds=1).replace("seed = 3\n", "")
    first, second = load(tmp_path, text), load(tmp_path, text)
    assert first.seed_drawn and first.seed != second.seed  # 63 random bits each
    trio.run(lambda: run_league(first, tmp_path / "out", jobs=2))
    dealt = {r.id: r.seed for r in read_games(tmp_path / "out")}
    # a later run of the same file (a new draw) plays on with the seed of the first run
    more = load(tmp_path, league_text(marker, rounds=2).replace("seed = 3\n", ""))
    extended = trio.run(lambda: run_league(more, tmp_path / "out", jobs=2))
    assert extended.skipped == len(dealt) and extended.played == len(dealt)
    stored = read_games(tmp_path / "out")
    assert {r.id: r.seed for r in stored if r.id in dealt} == dealt
    assert all(replay_record(r) == [] for r in stored)
    # --fresh deals anew from the new draw
    trio.run(lambda: run_league(more, tmp_path / "out", jobs=2, fresh=True))
    assert {r.id: r.seed for r in read_games(tmp_path / "out") if r.id in dealt} != dealt
    assert processes_with(marker) == []


def test_next_game_starts_while_the_last_one_is_synced(
    tmp_path: Path, toy_engine: str, in_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At ``jobs = 1`` the fsync of a game overlaps the next game; a game counts (the
    progress hook) only once an fsync that started after it was written has returned."""
    marker = f"m{uuid.uuid4().hex[:8]}"
    league = load(tmp_path, league_text(marker, rounds=2))
    events: list[str] = []  # "append", "sync", "synced", "counted" in the order they happened
    second_game_written = threading.Event()
    overlapped: list[bool] = []
    real_append, real_sync = ResultsDir.append, ResultsDir.sync

    def append(store: ResultsDir, record: GameRecord) -> None:
        real_append(store, record)
        events.append("append")
        if events.count("append") == 2:
            second_game_written.set()

    def sync(store: ResultsDir) -> None:
        events.append("sync")
        if not overlapped:  # the first game's fsync lasts until the second game is written
            overlapped.append(second_game_written.wait(timeout=60))
        real_sync(store)
        events.append("synced")

    monkeypatch.setattr(ResultsDir, "append", append)
    monkeypatch.setattr(ResultsDir, "sync", sync)
    outcome = trio.run(
        lambda: run_league(
            league, tmp_path / "o", jobs=1, progress=lambda done, total: events.append("counted")
        )
    )
    assert overlapped == [True], "the second game waited for the first one's fsync"
    written = covering = on_disk = counted = 0
    for event in events:
        if event == "append":
            written += 1
        elif event == "sync":
            covering = written
        elif event == "synced":
            on_disk = covering
        else:
            counted += 1
            assert counted <= on_disk, "a game counted before an fsync covered it"
    assert outcome.played == written == counted == len(read_games(tmp_path / "o"))
    assert processes_with(marker) == []


def test_a_stop_counts_every_game_written_before_it(
    tmp_path: Path, toy_engine: str, in_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game written to games.jsonl is stored: a stop (Ctrl-C) that comes while the game
    waits for the fsync of another one still waits for its own and counts it, so the count
    the stop prints is what the folder holds."""
    marker = f"m{uuid.uuid4().hex[:8]}"
    league = load(tmp_path, league_text(marker, rounds=2))
    written: list[str] = []
    second_game_written = threading.Event()
    stopped: list[bool] = []
    real_append, real_sync = ResultsDir.append, ResultsDir.sync

    def append(store: ResultsDir, record: GameRecord) -> None:
        real_append(store, record)
        written.append(record.id)
        if len(written) == 2:
            second_game_written.set()

    def sync(store: ResultsDir) -> None:
        if not stopped:  # the first game's fsync: the second game is written meanwhile
            stopped.append(second_game_written.wait(timeout=60))
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.5)  # the stop reaches every game, the second waiting for this fsync
        real_sync(store)

    monkeypatch.setattr(ResultsDir, "append", append)
    monkeypatch.setattr(ResultsDir, "sync", sync)
    outcome = trio.run(lambda: run_league(league, tmp_path / "o", jobs=2))
    assert stopped == [True] and outcome.interrupted
    assert outcome.played + outcome.skipped == len(read_games(tmp_path / "o")) == len(written)
    assert len(written) >= 2
    assert processes_with(marker) == []


def test_changed_league_is_refused_unless_fresh(
    tmp_path: Path, toy_engine: str, in_repo: Path
) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    trio.run(
        lambda: run_league(load(tmp_path, league_text(marker, rounds=1)), tmp_path / "o", jobs=2)
    )
    changed = load(tmp_path, league_text(marker, rounds=1, extra="[options]\npile = 9\n"))
    with pytest.raises(ResultsError, match="options"):
        trio.run(lambda: run_league(changed, tmp_path / "o", jobs=2))
    fresh = trio.run(lambda: run_league(changed, tmp_path / "o", jobs=2, fresh=True))
    assert fresh.skipped == 0 and fresh.played == fresh.scheduled


def test_bot_that_cannot_start_forfeits_and_is_disqualified(
    tmp_path: Path, toy_engine: str, in_repo: Path
) -> None:
    text = league_text("x", rounds=2) + '[[bots]]\nname = "dead"\ncmd = "python -c pass"\n'
    league = load(tmp_path, text.replace("players = [2, 3]", "players = 2"))
    outcome = trio.run(lambda: run_league(league, tmp_path / "o", jobs=2))
    assert outcome.played == outcome.scheduled
    assert "dead" in outcome.disqualified
    for record in read_games(tmp_path / "o"):
        if "dead" in record.seating:
            seat = record.seating.index("dead")
            assert record.seats[seat].forfeit and record.seats[seat].verdicts == {"startup": 1}
            assert record.ranks[seat] == 2


def run_cli(*args: str, **kwargs: Any) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "arena", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,
    )


def test_sigint_stops_cleanly_and_resume_completes(tmp_path: Path) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    cfg = tmp_path / "sf.toml"
    cfg.write_text(league_text(marker, engine="space-five", rounds=3))
    out = tmp_path / "out"
    reference = run_cli(
        "run", str(cfg), "--out", str(with_test_secret(tmp_path / "ref")), "--jobs", "2"
    )
    assert reference.wait(timeout=120) == 0, reference.stderr.read() if reference.stderr else ""

    proc = run_cli("run", str(cfg), "--out", str(with_test_secret(out)), "--jobs", "2")
    games = out / "games.jsonl"
    wait_until(lambda: games.exists() and games.read_bytes().count(b"\n") >= 6, "6 games")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "Resume with: arena run" in err
    assert "Traceback" not in err
    assert processes_with(marker) == []
    stopped = len(read_games(out))
    assert 6 <= stopped < 27

    resumed = run_cli("run", str(cfg), "--out", str(out), "--jobs", "2")
    assert resumed.wait(timeout=120) == 0
    final = read_games(out)
    assert len(final) == 27 == len({r.id for r in final})
    assert comparable(final) == comparable(read_games(tmp_path / "ref"))
    assert processes_with(marker) == []


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_stop_while_the_league_ends_says_the_resume_line(
    tmp_path: Path, stop: signal.Signals
) -> None:
    """Ctrl-C, or SIGTERM as the game loop takes it, stops the end of a run too."""
    # the bot that ignores bye holds the end of the run for bye_ms, after the standings
    marker = f"m{uuid.uuid4().hex[:8]}"
    cfg = tmp_path / "end.toml"
    cfg.write_text(
        'name = "end"\nengine = "space-five"\nplayers = 2\nrounds = 1\nseed = 3\n'
        "[limits]\nbye_ms = 5000\n"
        f'[[bots]]\nname = "stays"\ncmd = "python {ROOT}/tests/hostile/ignores_bye.py {marker}"\n'
        f'[[bots]]\nname = "random"\ncmd = "python -m bots.random {marker}"\n'
    )
    out = tmp_path / "out"
    proc = run_cli("run", str(cfg), "--out", str(out), "--jobs", "1")
    assert proc.stderr is not None
    lines = iter(proc.stderr.readline, "")
    said = next(line for line in lines if line.startswith("report: "))
    proc.send_signal(stop)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, said + err
    assert err.startswith(f"arena: stopped; 2 of 2 games are stored in {out}. Resume with: ")
    assert "Aborted" not in err and "Traceback" not in err
    assert {path.name for path in out.iterdir()} >= {"games.jsonl", "standings.toml", "report.html"}
    assert not list(out.glob("*.tmp"))
    assert processes_with(marker) == []


def test_a_reader_that_leaves_early_does_not_stop_the_league(tmp_path: Path) -> None:
    """``arena run F 2>&1 | head -1``: the league is played, rated and reported all the same."""
    marker = f"m{uuid.uuid4().hex[:8]}"
    cfg = tmp_path / "pipe.toml"
    cfg.write_text(league_text(marker, engine="space-five", rounds=1))
    out = tmp_path / "out"
    read, write = os.pipe()
    os.close(read)  # the reader has gone before the first line
    proc = subprocess.Popen(
        [sys.executable, "-m", "arena", "run", str(cfg), "--out", str(out), "--jobs", "2"],
        cwd=ROOT,
        stdout=write,
        stderr=write,
    )
    os.close(write)
    assert proc.wait(timeout=120) == 0
    assert len(read_games(out)) == 9
    assert {path.name for path in out.iterdir()} >= {"standings.toml", "report.html"}
    assert processes_with(marker) == []


def test_second_run_on_same_folder_is_refused(tmp_path: Path) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    cfg = tmp_path / "sf.toml"
    cfg.write_text(league_text(marker, engine="space-five", rounds=3))
    first = run_cli("run", str(cfg), "--out", str(tmp_path / "o"), "--jobs", "1")
    # the games file is opened once the first run holds the folder's lock
    wait_until((tmp_path / "o" / "games.jsonl").exists, "the first run to lock the folder")
    second = run_cli("run", str(cfg), "--out", str(tmp_path / "o"))
    _, err = second.communicate(timeout=60)
    first.send_signal(signal.SIGTERM)
    first.communicate(timeout=30)
    assert second.returncode == 2
    assert "in use by another arena run" in err
    assert processes_with(marker) == []


def sprt_text(marker: str, elo1: int) -> str:
    return (
        'name = "s"\nengine = "toy"\nmode = "sprt"\nplayers = 2\nseed = 5\n'
        f'[sprt]\ncandidate = "nim"\nopponent = "random"\nelo0 = 0\nelo1 = {elo1}\n'
        "max_blocks = 60\n"
        f'[[bots]]\nname = "nim"\ncmd = "python -m tests.nim_bot {marker}"\n'
        f'[[bots]]\nname = "random"\ncmd = "python -m bots.random {marker}"\n'
    )


def test_sprt_league_stops_when_the_test_decides(
    tmp_path: Path, toy_engine: str, in_repo: Path
) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    league = load(tmp_path, sprt_text(marker, 20))
    lines: list[str] = []
    outcome = trio.run(lambda: run_league(league, tmp_path / "o", jobs=2, say=lines.append))
    assert outcome.sprt is not None and outcome.sprt.decision == "H1"
    assert outcome.stopped_early.endswith(f". {outcome.sprt.verdict()}")
    assert "H1 accepted: the games favour +20 over +0 Elo" in outcome.stopped_early
    assert outcome.played < 2 * 60  # stopped early
    assert len(lines) == outcome.sprt.blocks and "LLR" in lines[-1]
    # resuming replays the stored blocks through the test and reaches the same decision
    resumed = trio.run(lambda: run_league(league, tmp_path / "o", jobs=1))
    assert resumed.played == 0 and resumed.sprt is not None
    assert resumed.sprt.blocks == outcome.sprt.blocks
    assert resumed.sprt.decision == "H1"
    assert processes_with(marker) == []


def test_an_sprt_league_keeps_and_counts_the_games_played_past_its_decision(
    tmp_path: Path, toy_engine: str, in_repo: Path
) -> None:
    """At ``--jobs 2`` the block begun beside the deciding one is finished and stored: the
    test does not take it, the standings rate it, a resume counts it as stored."""
    from click.testing import CliRunner

    from arena.cli import main
    from arena.show.html.report import _sprt

    marker = f"m{uuid.uuid4().hex[:8]}"
    league = load(tmp_path, sprt_text(marker, 20))
    outcome = trio.run(lambda: run_league(league, tmp_path / "o", jobs=2))
    assert outcome.sprt is not None and outcome.sprt.decision == "H1"
    assert outcome.stopped_early.count("SPRT") == 1, outcome.stopped_early
    stored = read_games(tmp_path / "o")
    assert outcome.played == len(stored) > outcome.sprt.games
    shown = CliRunner().invoke(main, ["standings", str(tmp_path / "o"), "--format", "json"])
    assert json.loads(shown.stdout)["games"] == len(stored)
    assert league.sprt is not None
    assert outcome.sprt.status_line() in _sprt(league.sprt, stored)  # the report
    resumed = trio.run(lambda: run_league(league, tmp_path / "o", jobs=1))
    assert resumed.played == 0 and resumed.skipped == len(stored)
    assert resumed.sprt is not None and resumed.sprt.games == outcome.sprt.games
    assert processes_with(marker) == []


def test_an_sprt_league_at_one_job_plays_no_game_past_its_decision(
    tmp_path: Path, toy_engine: str, in_repo: Path
) -> None:
    """At ``--jobs 1`` the test takes each block before the next one starts: the folder
    holds exactly the blocks up to the deciding one, and the standings rate what it took."""
    marker = f"m{uuid.uuid4().hex[:8]}"
    league = load(tmp_path, sprt_text(marker, 20))
    outcome = trio.run(lambda: run_league(league, tmp_path / "o", jobs=1))
    assert outcome.sprt is not None and outcome.sprt.decision == "H1"
    taken = [f"t0-b{block}-r{turn}" for block in range(outcome.sprt.blocks) for turn in (0, 1)]
    assert sorted(record.id for record in read_games(tmp_path / "o")) == sorted(taken)
    assert outcome.played == outcome.sprt.games
    assert processes_with(marker) == []


def test_a_folder_without_league_toml_counts_its_foreign_games_in_words() -> None:
    from arena.config import LeagueConfig, Limits, Policy
    from arena.league.changes import unlike_games
    from arena.record import SeatRecord

    seats = (SeatRecord("a", 1.0, 1), SeatRecord("b", 0.0, 2))
    game = GameRecord("t0-b0-r0", "toy", "1", {}, 0, 0, 0, 12345, seats)
    league = LeagueConfig("l", "toy", "1", (2,), "round-robin", 1, 7, {}, Limits(), Policy(), ())
    assert unlike_games([game], league) == ["1 of its 1 game was not dealt from seed 7"]
    assert unlike_games([game] * 2, league) == ["2 of its 2 games were not dealt from seed 7"]


class NextAfterDone(BlockFeed):
    """A caller's own feed: one block at a time, the next made only once the one before is
    done ("none ready" meanwhile), as a ladder or a tuner chooses its next games."""

    def __init__(self, config: config.LeagueConfig, known: Mapping[tuple[str, ...], int]) -> None:
        self.schedule = iter_blocks(config, config.rounds, known)
        self.done: list[list[str]] = []
        self.waiting = False
        super().__init__(self._made(), total=4)

    def _made(self) -> Iterator[list[GameSpec]]:
        for block in self.schedule:
            if len(self.done) == 2:
                return
            self.waiting = True
            yield block
            while self.waiting:
                yield []  # none ready until this block is done

    def block_done(self, games: list[GameRecord]) -> None:
        self.done.append([game.id for game in games])
        self.waiting = False


def test_a_caller_supplies_the_blocks_and_hears_of_each_stored_game(
    tmp_path: Path, toy_engine: str, in_repo: Path
) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    league = load(tmp_path, league_text(marker).replace("players = [2, 3]", "players = 2"))
    feeds: list[NextAfterDone] = []

    def feed(config: config.LeagueConfig, known: Mapping[tuple[str, ...], int]) -> BlockFeed:
        feeds.append(NextAfterDone(config, known))
        return feeds[0]

    heard: list[str] = []
    outcome = trio.run(
        lambda: run_league(
            league, tmp_path / "o", jobs=2, feed=feed, on_stored=lambda r: heard.append(r.id)
        )
    )
    assert outcome.played == outcome.scheduled == 4 and not outcome.interrupted
    assert feeds[0].done == [["t0-b0-r0", "t0-b0-r1"], ["t1-b0-r0", "t1-b0-r1"]]
    assert sorted(heard) == sorted(record.id for record in read_games(tmp_path / "o"))
    assert processes_with(marker) == []
