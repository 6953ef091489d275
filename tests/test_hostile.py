"""Hostile bots against the real stack: every misbehaviour ends in the right verdict, the
league finishes, the other bots' games are untouched, and no process is left behind.

Each test runs a tiny toy league (three bots, two seats, one block per pair: six games, four
with the hostile bot) whose bot commands carry a unique marker, and compares the games that
do not involve the hostile bot with a reference run in which ``hostile`` is a random bot.
The hostile programs live in ``tests/hostile/``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio

import engines
from arena import config
from arena.errors import ResultsError
from arena.game.botproc import StderrLog, control_groups
from arena.league import secret
from arena.league.driver import LeagueOutcome
from arena.league.reading import read_games
from arena.league.results import ResultsDir
from arena.league.runner import run_league
from arena.protocol import MAX_NOTE_CHARS
from arena.record import NOTES_BUDGET, GameRecord
from arena.tools.replay import replay_record
from tests.conftest import (
    ROOT,
    needs_bwrap,
    processes_left,
    processes_with,
    wait_until,
    with_test_secret,
)

HOSTILE = ROOT / "tests" / "hostile"
REAL_NEW_KEY = secret.new_key  # as imported: conftest gives every test folder one secret
# Short clocks keep the suite fast; the random bots answer in a few ms, far inside them.
LIMITS = {
    "move_ms": 250,
    "bank_ms": 250,
    "startup_ms": 5000,
    "bye_ms": 300,
    "max_start_failures": 2,
}
GAMES = 6  # 3 pairs x 2 rotations
HOSTILE_GAMES = 4

Games = dict[str, GameRecord]  # by id


def league_text(
    marker: str,
    hostile_cmd: str,
    limits: dict[str, int] | None = None,
    bot_limits: str = "",
    policy: str = "",
    sandbox: str = "",
) -> str:
    clock = {**LIMITS, **(limits or {})}
    lines = [
        'name = "hostile"',
        *([f'sandbox = "{sandbox}"'] if sandbox else []),
        'engine = "toy"',
        "players = 2",
        "seed = 11",
        "[options]",
        "pile = 9",
        "[limits]",
        *(f"{key} = {value}" for key, value in clock.items()),
    ]
    if policy:
        lines += ["[policy]", policy]
    lines += ["[[bots]]", 'name = "hostile"', f'cmd = "{hostile_cmd} {marker}-hostile"']
    if bot_limits:
        lines.append(f"limits = {{{bot_limits}}}")
    for name in ("a", "b"):
        lines += ["[[bots]]", f'name = "{name}"', f'cmd = "python -m bots.random {marker}-{name}"']
    return "\n".join(lines) + "\n"


def hostile_cmd(program: str) -> str:
    return f"python {HOSTILE / program}.py"


def comparable(record: GameRecord) -> tuple[object, ...]:
    """What must not change for a game the hostile bot did not play in."""
    seats = [(s.bot, s.score, s.rank, dict(s.verdicts), s.forfeit) for s in record.seats]
    return (record.id, record.seed, record.moves, seats)


IDENTITY = re.compile(r"identity: (\w+) pid=(\d+) pgid=(\d+) sid=(\d+) cwd=(\S+)")


def identities(log: Path) -> list[tuple[str, int, int, int, str]]:
    """What the hostile processes said about themselves (``_common.report_identity``)."""
    text = log.read_text(errors="replace") if log.exists() else ""
    return [
        (who, int(pid), int(pgid), int(sid), cwd)
        for who, pid, pgid, sid, cwd in IDENTITY.findall(text)
    ]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Games]:
    """The same league with a well-behaved random bot named ``hostile``: games by id."""
    folder = tmp_path_factory.mktemp("reference")
    marker = f"m{uuid.uuid4().hex[:8]}"
    engines.register("toy", "tests.toy_engine")
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.chdir(ROOT)
            path = folder / "league.toml"
            path.write_text(league_text(marker, "python -m bots.random"))
            league = config.load(path)
            trio.run(lambda: run_league(league, folder / "out", jobs=2))
            records = read_games(folder / "out")
            assert len(records) == GAMES
            assert all(not s.verdicts for r in records for s in r.seats)
            yield {r.id: r for r in records}
    finally:
        engines.unregister("toy")


class HostileRun:
    """One hostile league's outcome, its games, and checks shared by every test."""

    def __init__(
        self, outcome: LeagueOutcome, folder: Path, marker: str, sandbox: str = ""
    ) -> None:
        self.outcome = outcome
        self.folder = folder
        self.marker = marker
        self.sandbox = sandbox
        self.records = read_games(folder)

    def groups(self) -> set[int]:
        """Process groups and sessions the hostile processes reported (host numbers only:
        under the sandbox they are the sandbox's own)."""
        if self.sandbox != "none":
            return set()
        said = identities(self.folder / "logs" / "hostile.log")
        return {number for _, _, pgid, sid, _ in said for number in (pgid, sid)}

    def left_running(self) -> list[str]:
        """Processes of this run still there right now: by marker, by working directory
        (every bot folder lies under the test's temp folder) and by process group."""
        return processes_left(self.marker, self.folder.parent, self.groups())

    def hostile_seats(self) -> list[tuple[GameRecord, int]]:
        return [(r, r.seating.index("hostile")) for r in self.records if "hostile" in r.seating]

    def verdicts(self) -> list[dict[str, int]]:
        return [dict(record.seats[seat].verdicts) for record, seat in self.hostile_seats()]

    def check(self, reference: Games) -> None:
        """The league finished, the bystanders are unaffected, nothing is left running."""
        assert self.outcome.played == self.outcome.scheduled == GAMES
        assert sorted(r.id for r in self.records) == sorted(reference)
        for record in self.records:
            assert replay_record(record) == [], record.id
            if "hostile" in record.seating:
                bystander = 1 - record.seating.index("hostile")
                assert record.seats[bystander].verdicts == {}, record
                assert not record.seats[bystander].forfeit
            else:
                assert comparable(record) == comparable(reference[record.id])
        # a killed process can take a moment to leave the process table
        wait_until(lambda: self.left_running() == [], f"no process of {self.marker}", 5)


@pytest.fixture(autouse=True)
def private_temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bot folders (under the league's temp folder) inside the test's own folder, so that
    processes can be found by their working directory."""
    (tmp_path / "temp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "temp"))


def run_hostile(
    tmp_path: Path,
    program: str,
    limits: dict[str, int] | None = None,
    bot_limits: str = "",
    policy: str = "",
    cmd: str | None = None,
    sandbox: str = "",
    jobs: int = 2,
) -> HostileRun:
    marker = f"m{uuid.uuid4().hex[:8]}"
    path = tmp_path / "league.toml"
    text = league_text(marker, cmd or hostile_cmd(program), limits, bot_limits, policy, sandbox)
    path.write_text(text)
    league = config.load(path)
    outcome = trio.run(lambda: run_league(league, tmp_path / "out", jobs=jobs))
    return HostileRun(outcome, tmp_path / "out", marker, sandbox)


pytestmark = pytest.mark.usefixtures("toy_engine", "in_repo")


def test_crash_at_start_is_startup_and_disqualified(tmp_path: Path, reference: Games) -> None:
    run = run_hostile(tmp_path, "crash_at_start")
    run.check(reference)
    for record, seat in run.hostile_seats():
        assert record.seats[seat].verdicts == {"startup": 1}
        assert record.seats[seat].forfeit and record.ranks[seat] == 2
    assert "hostile" in run.outcome.disqualified
    notes = [n for record, seat in run.hostile_seats() for n in record.seats[seat].notes]
    assert any(re.search(r"disqualified after 2 failed starts", n) for n in notes)
    assert "exited before answering 'hello' (exit status 3)" in notes[0]


def test_crash_mid_game_is_crash_and_restarted(tmp_path: Path, reference: Games) -> None:
    run = run_hostile(tmp_path, "crash_mid_game")
    run.check(reference)
    verdicts = run.verdicts()
    assert all(v in ({}, {"crash": 1}) for v in verdicts), verdicts
    # One process can crash once: two crashes mean it was restarted for a later game.
    assert verdicts.count({"crash": 1}) >= 2
    assert run.outcome.disqualified == {}
    notes = [note for record, seat in run.hostile_seats() for note in record.seats[seat].notes]
    assert any(note.endswith("closed stdout): exit status 1") for note in notes), notes


def test_never_answers_hello_is_startup(tmp_path: Path, reference: Games) -> None:
    run = run_hostile(tmp_path, "silent_hello", limits={"startup_ms": 3000})
    run.check(reference)
    assert run.verdicts() == [{"startup": 1}] * HOSTILE_GAMES
    assert "hostile" in run.outcome.disqualified


def test_hangs_mid_game_is_timeout(tmp_path: Path, reference: Games) -> None:
    run = run_hostile(tmp_path, "hang_mid_game")
    run.check(reference)
    verdicts = run.verdicts()
    assert all(set(v) <= {"timeout"} for v in verdicts), verdicts
    assert sum(v.get("timeout", 0) for v in verdicts) >= HOSTILE_GAMES
    for record, seat in run.hostile_seats():
        assert not record.seats[seat].forfeit  # timeout policy "random": substituted, not out


def test_answer_after_the_limit_is_one_timeout(tmp_path: Path, reference: Games) -> None:
    run = run_hostile(tmp_path, "late_answer")
    run.check(reference)
    verdicts = run.verdicts()
    # The late answer carries its step: it is skipped, never taken for the next question.
    assert all(v in ({}, {"timeout": 1}) for v in verdicts), verdicts
    assert {"timeout": 1} in verdicts


@pytest.mark.parametrize(
    ("program", "verdict", "note"),
    [
        ("non_json", "protocol", "not a JSON line"),
        ("wrong_shape", "protocol", "'index' must be an integer"),
        ("bad_note", "protocol", """'note' must be a string, got {"eval": 1} (an object)"""),
        ("wrong_step", "protocol", '" (a string), but the question was step'),
        ("index_out_of_range", "illegal", "out of range"),
        ("action_not_in_list", "illegal", "not in the legal list"),
        # without the sandbox only: bubblewrap's own process keeps the bot's stdout open, so
        # a sandboxed bot that closes it and lives on is silent (timeout), not a crash
        ("close_stdout", "crash", "closed its output"),
    ],
)
def test_bad_answer_is_recorded_and_forfeits(
    tmp_path: Path, reference: Games, program: str, verdict: str, note: str
) -> None:
    run = run_hostile(tmp_path, program, sandbox="none" if program == "close_stdout" else "")
    run.check(reference)
    assert run.verdicts() == [{verdict: 1}] * HOSTILE_GAMES
    for record, seat in run.hostile_seats():
        assert record.seats[seat].forfeit and record.ranks[seat] == 2
        assert note in record.seats[seat].notes[0]


@pytest.mark.parametrize(
    ("program", "verdicts"),
    [("index_out_of_range", {"illegal": 1}), ("answers_twice", {})],
)
def test_a_process_that_misbehaved_is_not_reused(
    tmp_path: Path, reference: Games, program: str, verdicts: dict[str, int]
) -> None:
    """An illegal answer, or a line nobody asked for (an answer written twice), and the
    process is ended after its game: each of the hostile bot's games gets a fresh one."""
    run = run_hostile(tmp_path, program, sandbox="none")
    run.check(reference)
    assert run.verdicts() == [verdicts] * HOSTILE_GAMES
    starts = identities(run.folder / "logs" / "hostile.log")
    assert len({pid for _, pid, _, _, _ in starts}) >= HOSTILE_GAMES


@pytest.mark.parametrize(
    ("program", "verdict"),
    [
        ("crash_mid_game", "crash"),
        ("hang_mid_game", "timeout"),
        ("late_answer", "timeout"),
        ("extra_lines", "protocol"),
        ("non_json", "protocol"),
    ],
)
def test_faults_are_judged_alike_when_the_referee_polls_for_answers(
    tmp_path: Path, reference: Games, program: str, verdict: str
) -> None:
    """At ``--jobs 1`` the referee polls quick bots for their answers instead of waiting in
    trio (``BotProcess.spin_s``; the other tests run at jobs 2): the same faults give the
    same verdicts, and the bystanders' games are unaffected."""
    run = run_hostile(tmp_path, program, jobs=1)
    run.check(reference)
    verdicts = run.verdicts()
    assert all(set(v) <= {verdict} for v in verdicts), verdicts
    assert any(verdicts), verdicts


def test_long_notes_are_kept_bounded(tmp_path: Path, reference: Games) -> None:
    run = run_hostile(tmp_path, "long_notes")
    run.check(reference)
    assert run.verdicts() == [{}] * HOSTILE_GAMES
    for record, seat in run.hostile_seats():
        said = record.seats[seat].bot_notes
        assert said and all(len(text) == MAX_NOTE_CHARS for _, text in said)
        assert sum(len(text) for _, text in said) <= NOTES_BUDGET
    lines = (run.folder / "games.jsonl").read_text().splitlines()
    assert max(map(len, lines)) < NOTES_BUDGET + 2000  # a 100 kB note never reaches the file


def test_unsolicited_lines_are_protocol(tmp_path: Path, reference: Games) -> None:
    run = run_hostile(tmp_path, "extra_lines")
    run.check(reference)
    verdicts = run.verdicts()
    assert all(v in ({}, {"protocol": 1}) for v in verdicts), verdicts
    assert {"protocol": 1} in verdicts


# VmHWM (peak resident set of this process image) rather than ru_maxrss, which Linux carries
# across execve: it would report the forked pytest process's size.
GIANT_DRIVER = """
import sys
import engines
engines.register("toy", "tests.toy_engine")
from arena.cli import main
try:
    main(["run", sys.argv[1], "--out", sys.argv[2], "--jobs", "1"])
finally:
    with open("/proc/self/status") as status:
        peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
    with open(sys.argv[3], "w") as handle:
        handle.write(peak)
"""


def test_giant_line_is_protocol_and_referee_memory_stays_bounded(
    tmp_path: Path, reference: Games
) -> None:
    """A 100 MB line without a newline, written four times over: the referee (run as
    ``arena run`` in its own process) keeps at most one capped line (1 MiB) plus a 64 KiB
    read chunk per bot, so its peak RSS stays near an idle referee's (about 50 MB); holding
    the line would need more than 100 MB, hence the 100 MB bound."""
    marker = f"m{uuid.uuid4().hex[:8]}"
    path = tmp_path / "league.toml"
    path.write_text(league_text(marker, hostile_cmd("giant_line")))
    peak_file = tmp_path / "peak"
    with_test_secret(tmp_path / "out")  # seeded as the reference, in another process
    done = subprocess.run(
        [sys.executable, "-c", GIANT_DRIVER, str(path), str(tmp_path / "out"), str(peak_file)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    peak_mb = int(peak_file.read_text()) / 1024  # VmHWM is in kB
    outcome = LeagueOutcome(scheduled=GAMES, played=GAMES, skipped=0)
    run = HostileRun(outcome, tmp_path / "out", marker)
    run.check(reference)
    assert run.verdicts() == [{"protocol": 1}] * HOSTILE_GAMES
    for record, seat in run.hostile_seats():
        assert "longer than 1048576 bytes" in record.seats[seat].notes[0]
    print(f"referee peak RSS with a 100 MB line: {peak_mb:.1f} MB")
    assert peak_mb < 100


def test_stderr_flood_is_capped_and_harmless(tmp_path: Path, reference: Games) -> None:
    run = run_hostile(tmp_path, "stderr_flood", bot_limits="stderr_bytes = 65536")
    run.check(reference)
    assert run.verdicts() == [{}] * HOSTILE_GAMES
    log = run.folder / "logs" / "hostile.log"
    assert 65536 <= log.stat().st_size <= 65536 + 100
    assert b"stderr cap reached" in log.read_bytes()


def test_forked_child_holding_the_pipes_is_killed(tmp_path: Path, reference: Games) -> None:
    run = run_hostile(tmp_path, "fork_child")
    run.check(reference)  # includes: no process with the marker, the child included
    assert run.verdicts() == [{}] * HOSTILE_GAMES


def test_allocating_10_gb_fails_under_the_memory_limit(tmp_path: Path, reference: Games) -> None:
    """In a control group the kernel kills it (``memory``; a timeout may come first where
    filling 256 MB takes longer than a decision); without one the allocation fails against
    its address-space limit (``crash``)."""
    grouped = control_groups() is not None  # the kill comes once 256 MB are filled: a clock
    run = run_hostile(  # that waits for it under a busy machine's load
        tmp_path, "alloc_10gb", SLOW_CLOCK if grouped else None, bot_limits="memory_mb = 256"
    )
    run.check(reference)
    if not grouped:
        assert run.verdicts() == [{"crash": 1}] * HOSTILE_GAMES
        assert b"MemoryError" in (run.folder / "logs" / "hostile.log").read_bytes()
        return
    verdicts = run.verdicts()
    assert all("memory" in v and set(v) <= {"memory", "timeout"} for v in verdicts), verdicts
    for record, seat in run.hostile_seats():
        assert "killed for using more than 256 MB" in record.seats[seat].notes[-1]
        assert record.seats[seat].forfeit == "memory"


def needs_groups() -> None:
    if control_groups() is None:
        pytest.skip("no control group per bot here (not root, no delegated cgroup v2)")


def test_a_bots_processes_are_counted_together_against_its_memory(
    tmp_path: Path, reference: Games
) -> None:
    """Three children of 100 MB each, every process under ``memory_mb`` = 256: its control
    group holds them all, the kernel kills what is over (in that group only: the opponent
    plays on, see check) and the game is charged with ``memory``."""
    needs_groups()
    run = run_hostile(tmp_path, "memory_split", limits=SLOW_CLOCK, bot_limits="memory_mb = 256")
    assert run.left_running() == []
    run.check(reference)
    assert run.verdicts() == [{"memory": 1}] * HOSTILE_GAMES
    for record, seat in run.hostile_seats():
        assert "killed for using more than 256 MB" in record.seats[seat].notes[0]


def test_cpu_spinner_times_out_and_is_ended(tmp_path: Path, reference: Games) -> None:
    run = run_hostile(tmp_path, "spin_cpu", bot_limits="cpu_s = 1")
    run.check(reference)
    verdicts = run.verdicts()
    assert all(v.get("timeout", 0) >= 1 for v in verdicts), verdicts
    assert all(set(v) <= {"timeout", "crash"} for v in verdicts), verdicts


def test_bot_ignoring_bye_is_killed_after_the_grace(tmp_path: Path, reference: Games) -> None:
    run = run_hostile(tmp_path, "ignores_bye")
    run.check(reference)
    assert run.verdicts() == [{}] * HOSTILE_GAMES  # killed, not a fault: no verdict


@pytest.mark.slow
def test_scripted_fault_run_small() -> None:
    """benchmarks/faults.py with 60 games: SIGKILLs, resumes, equal results, the lock."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "faults.py"), "--games", "60", "--kills", "3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "results equal the uninterrupted run's" in done.stdout
    assert "after resuming: 60 games, 60 unique ids" in done.stdout


def test_bot_that_stops_reading_its_input_cannot_stall_the_referee() -> None:
    # No CPU limit ends this spinner, and Space Five's messages fill its input pipe within a
    # game: every message to it, answers and notifications alike, needs a deadline, or the
    # referee waits forever on the full pipe.
    marker = f"m{uuid.uuid4().hex[:8]}"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "arena",
            "play",
            "space-five",
            "--bot",
            f"{hostile_cmd('spin_cpu')} {marker}",
            "--bot",
            "python -m bots.random",
            "--move-ms",
            "20",
            "--bank-ms",
            "0",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "timeout" in done.stdout
    assert processes_with(marker) == []


# Containment: each runs without the sandbox and, where bubblewrap works, with it (the default).
BOTH = ["none", pytest.param("auto", marks=needs_bwrap)]
SLOW_CLOCK = {"move_ms": 2000, "bank_ms": 2000}  # waiting for a deadline would show


@pytest.mark.parametrize("sandbox", BOTH)
def test_fork_and_exit_is_a_crash_noticed_at_once(
    tmp_path: Path, reference: Games, sandbox: str
) -> None:
    run = run_hostile(tmp_path, "fork_and_exit", limits=SLOW_CLOCK, sandbox=sandbox)
    assert run.left_running() == []  # the child holding the pipes is gone with the bot
    run.check(reference)
    assert run.verdicts() == [{"crash": 1}] * HOSTILE_GAMES
    for record, seat in run.hostile_seats():
        assert "closed its output" in record.seats[seat].notes[0]
        # noticed when the bot exited, not at the decision's deadline (2 s + a 2 s bank)
        assert record.wall_ms < SLOW_CLOCK["move_ms"], record.wall_ms
    said = identities(run.folder / "logs" / "hostile.log")
    assert {who for who, *_ in said} == {"bot", "child"}


@pytest.mark.parametrize("sandbox", BOTH)
def test_setsid_escape_ends_with_the_bot(tmp_path: Path, reference: Games, sandbox: str) -> None:
    run = run_hostile(tmp_path, "setsid_escape", sandbox=sandbox)
    # nothing is waited for: the keeper has killed the escapees before the bot's end returns
    assert run.left_running() == []
    run.check(reference)
    assert run.verdicts() == [{}] * HOSTILE_GAMES
    said = identities(run.folder / "logs" / "hostile.log")
    bots = {sid for who, _, _, sid, _ in said if who == "bot"}
    escaped = {sid for who, _, _, sid, _ in said if who in ("child", "grandchild")}
    assert bots and escaped and not bots & escaped  # they really left the bot's session


@needs_bwrap
def test_disk_filler_in_the_sandbox_fills_only_its_own_bounded_tmp(
    tmp_path: Path, reference: Games
) -> None:
    run = run_hostile(
        tmp_path, "disk_filler", limits=SLOW_CLOCK, bot_limits="disk_mb = 8", sandbox="auto"
    )
    assert run.left_running() == []
    run.check(reference)
    assert run.verdicts() == [{}] * HOSTILE_GAMES  # its own writes failed; it played on
    log = (run.folder / "logs" / "hostile.log").read_text()
    stops = re.findall(r"filler: stopped after (\d+) MB: No space left on device", log)
    assert stops and all(int(mb) <= 8 for mb in stops), log  # once per process
    for record, _ in run.hostile_seats():
        assert record.wall_ms < SLOW_CLOCK["move_ms"]
    # nothing of it reached the host's disk
    assert sum(f.stat().st_size for f in (tmp_path / "temp").rglob("*") if f.is_file()) == 0


def test_disk_filler_without_the_sandbox_is_charged_and_cleaned_up(
    tmp_path: Path, reference: Games
) -> None:
    run = run_hostile(
        tmp_path,
        "disk_filler",
        limits=SLOW_CLOCK,
        bot_limits="disk_mb = 4",
        sandbox="none",
        cmd=f"{hostile_cmd('disk_filler')} --mb 6",
    )
    assert run.left_running() == []
    run.check(reference)
    # every process fills its folder in its first game and is charged at that game's end
    assert run.verdicts() == [{"crash": 1}] * HOSTILE_GAMES
    for record, seat in run.hostile_seats():
        assert "over disk_mb = 4" in record.seats[seat].notes[0]
        assert not record.seats[seat].forfeit  # the game itself was played out
        assert record.wall_ms < SLOW_CLOCK["move_ms"]
    assert not any((tmp_path / "temp").rglob("fill-*"))  # each folder removed with its process


def test_unwritable_stderr_log_never_stops_the_league(
    tmp_path: Path, reference: Games, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Logs on a full disk (``/dev/full``: every write fails with ENOSPC)."""
    monkeypatch.setattr(ResultsDir, "log_path", lambda self, name: Path("/dev/full"))
    run = run_hostile(tmp_path, "stderr_flood")
    assert run.left_running() == []
    run.check(reference)
    assert run.verdicts() == [{}] * HOSTILE_GAMES


def test_stderr_log_write_failures_are_counted_not_raised(tmp_path: Path) -> None:
    full = StderrLog(Path("/dev/full"), 1000)
    full.write(b"x" * 10)
    full.write(b"y" * 10)
    assert full.dropped == 20 and full.written == 0 and "No space left" in full.failure
    missing = StderrLog(tmp_path / "no" / "such" / "folder.log", 1000)
    missing.write(b"z")
    assert missing.dropped == 1 and "No such file" in missing.failure


def test_an_exit_status_is_told_in_words() -> None:
    from arena.game.botproc import _exit_status

    assert _exit_status(-11) == "killed by SIGSEGV"
    assert _exit_status(1) == "exit status 1"
    assert _exit_status(139) == "exit status 139"  # outside the sandbox: the program's own
    assert _exit_status(139, sandboxed=True) == "exit status 139: killed by SIGSEGV"
    assert _exit_status(200, sandboxed=True) == "exit status 200"


BETWEEN = re.compile(r"between: cpu_ms=(\d+) wall_ms=(\d+)")
FOUND_AFTER = 3  # waits between turns a restless bot may spend before its freezing begins


@pytest.mark.parametrize("sandbox", BOTH)
def test_a_spinning_child_gets_no_cpu_during_the_opponents_turns(
    tmp_path: Path, sandbox: str
) -> None:
    """``ponder = false`` (the default): a bot's processes are frozen outside its turns, so
    the child it left spinning in a session of its own takes no CPU while its opponent
    (sleeping 150 ms a move) thinks. Without a control group the bot is stopped by its
    process group, which that child has left: then it is only said, not asserted."""
    marker = f"m{uuid.uuid4().hex[:8]}"
    slow = f"python {HOSTILE / 'slow_by.py'} --ms 150 {marker}-slow"
    text = league_text(marker, hostile_cmd("spin_between"), SLOW_CLOCK, sandbox=sandbox)
    text = text.replace(f"python -m bots.random {marker}-a", slow)
    text = text.replace('name = "b"', 'name = "b"\nlimits = {cpu_s = 1}').replace(
        f"python -m bots.random {marker}-b", f"{hostile_cmd('crash_at_start')} {marker}-b"
    )
    path = tmp_path / "league.toml"
    path.write_text(text)
    trio.run(lambda: run_league(config.load(path), tmp_path / "out", jobs=1))
    wait_until(lambda: processes_with(marker) == [], f"no process of {marker}", 5)
    said = BETWEEN.findall((tmp_path / "out" / "logs" / "hostile.log").read_text())
    # a bot is frozen once its group's CPU time shows it computing between turns
    # (botproc's _check_rest): its first waits go by before that is seen
    found = said[FOUND_AFTER:]
    cpu = sum(int(c) for c, _ in found)
    wall = sum(int(w) for _, w in found)
    print(f"spinning child outside its bot's turns, once found: {cpu} ms of CPU in {wall} ms")
    assert len(found) >= 3, said  # the opponent slept 150 ms a move, several moves
    if control_groups() is None:
        pytest.skip(f"no control group: the child got {cpu} ms of CPU in {wall} ms")
    assert cpu <= 0.1 * wall, said


OUTSIDE = re.compile(r"outside: shm=(\w+) memfd=(\w+)")


@needs_bwrap
def test_memory_held_outside_any_process_is_counted_or_refused(
    tmp_path: Path, reference: Games
) -> None:
    """System V shared memory (attached, filled, detached) and memfd files written, never
    mapped: 160 MB of each at ``memory_mb`` = 128, none of it address space. In a control
    group the kernel counts it (the bot is killed: ``memory``, or its writes fail at the
    cap); without one the sandbox's filter refuses the calls (``EPERM``)."""
    program = f"{hostile_cmd('memory_outside')} --mb 160"
    run = run_hostile(
        tmp_path, "", SLOW_CLOCK, bot_limits="memory_mb = 128", cmd=program, sandbox="auto"
    )
    assert run.left_running() == []
    run.check(reference)
    log = run.folder / "logs" / "hostile.log"  # none: each was killed before it said
    said = OUTSIDE.findall(log.read_text() if log.exists() else "")
    if control_groups() is None:
        assert said and all(held == ("EPERM", "EPERM") for held in said), said
        return
    for verdict in run.verdicts():
        assert verdict == {"memory": 1}, (verdict, said)
    for shm, memfd in said:  # a report made before the kill: what it held stayed under
        held = sum(int(mb) for mb in (shm, memfd) if mb.isdigit())
        assert held <= 128, said


REACH = re.compile(r"reach: (\S+)=(\w+)")


@needs_bwrap
def test_io_uring_and_root_only_proc_files_are_refused(tmp_path: Path, reference: Games) -> None:
    """``io_uring_setup`` fails (``EPERM``: the filter refuses it), and the ``/proc`` files
    only root may read stay unreadable also for a root referee's bot, which may read
    whatever is in its view."""
    run = run_hostile(tmp_path, "kernel_reach", sandbox="auto")
    assert run.left_running() == []
    run.check(reference)
    assert run.verdicts() == [{}] * HOSTILE_GAMES
    said = dict(REACH.findall((run.folder / "logs" / "hostile.log").read_text()))
    assert said.pop("io_uring") == "EPERM", said
    assert said and set(said.values()) <= {"EACCES", "ENOENT", "EPERM"}, said


@needs_bwrap
@pytest.mark.skipif(os.geteuid() != 0, reason="only a root referee's sandbox caps inodes")
def test_files_without_bytes_stop_at_the_inode_cap(tmp_path: Path, reference: Games) -> None:
    """Empty files cost no bytes, so ``disk_mb`` alone never stops them: the private /tmp
    also holds at most one file per 4 KiB of it (256 at ``disk_mb`` = 1)."""
    run = run_hostile(tmp_path, "inode_filler", bot_limits="disk_mb = 1", sandbox="auto")
    assert run.left_running() == []
    run.check(reference)
    assert run.verdicts() == [{}] * HOSTILE_GAMES
    said = re.findall(
        r"inodes: made=(\d+) refused=(.+)", (run.folder / "logs" / "hostile.log").read_text()
    )
    assert said and all(int(made) < 256 for made, _ in said), said
    assert all(why == "No space left on device" for _, why in said), said


@needs_bwrap
def test_folders_on_the_referees_pythonpath_are_not_shown_whole(
    tmp_path: Path, reference: Games, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder on the referee's ``PYTHONPATH`` holding a secret and a package of its own:
    a sandboxed bot can neither list it nor read the secret (it sees the arena's SDK
    packages, and the package its own ``-m`` names, each at its own path)."""
    shared = tmp_path / "on-path"
    (shared / "private_pkg").mkdir(parents=True)
    (shared / "secret.txt").write_text("the organiser's secret\n")
    monkeypatch.setenv("PYTHONPATH", str(shared))
    run = run_hostile(tmp_path, "path_probe", sandbox="auto")
    assert run.left_running() == []
    run.check(reference)
    assert run.verdicts() == [{}] * HOSTILE_GAMES
    log = (run.folder / "logs" / "hostile.log").read_text()
    assert f"path: {shared} lists=" in log, log
    assert "the organiser's secret" not in log and "private_pkg" not in log, log
    assert f"path: {shared / 'secret.txt'}=ENOENT" in log, log


def test_a_bot_cannot_work_the_league_seed_out_of_its_own(tmp_path: Path, reference: Games) -> None:
    """The league file's seed is 11: a bot that tries every small league seed against the
    seed it is given finds none (bots' seeds come from the folder's 128-bit secret), and
    the games are the reference's all the same (check: the same deals, moves and ranks)."""
    run = run_hostile(tmp_path, "seed_search", sandbox="none")
    run.check(reference)
    assert run.verdicts() == [{}] * HOSTILE_GAMES
    said = re.findall(
        r"search: (\S+) league seed=(\w+)", (run.folder / "logs" / "hostile.log").read_text()
    )
    assert len(said) == HOSTILE_GAMES and {found for _, found in said} == {"none"}, said


def test_a_folders_secret_is_128_bits_its_owners_alone_and_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(secret, "new_key", REAL_NEW_KEY)  # not the tests' shared one
    key = secret.folder_key(tmp_path)
    (tmp_path / "another").mkdir()
    assert secret.folder_key(tmp_path / "another") != key
    path = tmp_path / secret.FILE
    assert len(key) == 16 and path.stat().st_mode & 0o077 == 0
    assert secret.folder_key(tmp_path) == key  # made once, read after
    path.write_text("abc\n")
    with pytest.raises(ResultsError, match="not a secret of 128 bits"):
        secret.folder_key(tmp_path)
