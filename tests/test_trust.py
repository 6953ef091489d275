"""Trust the results folder (issue 17): changed leagues are honoured or refused, damaged
folders are reported and repaired, every failure is one clear line with status 2.

Each test runs real leagues (the toy engine, real bot processes) through the command line.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import tomllib
import tracemalloc
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from click.testing import CliRunner, Result

from arena.cli import DISQUALIFIED_EXIT, main
from arena.errors import ResultsError
from arena.league.atomic import os_reason
from arena.league.feeds import BlockFeed
from arena.league.results import write_standings_file
from arena.league.schedule import game_count
from tests.conftest import ROOT, processes_with, wait_until

BOT = "python -m bots.random"


def league(
    bots: tuple[str, ...] = ("a", "b", "c"),
    players: str = "2",
    rounds: int = 2,
    extra: str = "",
    cmd: str = BOT,
) -> str:
    field = "".join(f'[[bots]]\nname = "{n}"\ncmd = "{cmd}"\n' for n in bots)
    return (
        f'name = "t"\nengine = "toy"\nplayers = {players}\nrounds = {rounds}\nseed = 5\n'
        f"{extra}{field}"
    )


def arena(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def run(tmp_path: Path, text: str, *more: str) -> Result:
    cfg = tmp_path / "league.toml"
    cfg.write_text(text)
    return arena("run", str(cfg), "--out", str(tmp_path / "out"), "--jobs", "2", *more)


def lines(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]


def rated(folder: Path) -> dict[str, Any]:
    result = arena("standings", str(folder), "--format", "json")
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    return data


def one_error_line(result: Result, *needles: str) -> None:
    """Status 2 and one error line (besides the count and progress ``arena run`` shows)."""
    assert result.exit_code == 2, result.output
    said = [
        line
        for line in result.output.splitlines()
        if " games scheduled" not in line and " games/s" not in line  # count and progress
    ]
    assert len(said) == 1 and said[0].startswith("arena: error: "), result.output
    assert "Traceback" not in result.output
    for needle in needles:
        assert needle in said[0]


@pytest.fixture
def here(toy_engine: str, in_repo: Path) -> Path:
    return in_repo


# ---------------------------------------------------------------- 2, 3: the schedule changes


def test_adding_a_bot_plays_only_its_games(tmp_path: Path, here: Path) -> None:
    first = run(tmp_path, league(("a", "b", "c")))
    assert first.exit_code == 0, first.output
    before = {r["id"]: r for r in lines(tmp_path / "out")}
    assert len(before) == 3 * 2 * 2  # 3 tables x 2 rounds x 2 rotations

    second = run(tmp_path, league(("a", "b", "c", "d")))
    assert second.exit_code == 0, second.output
    assert "12 games played, 12 already stored" in second.output
    after = lines(tmp_path / "out")
    assert {r["id"]: r for r in after if r["id"] in before} == before  # kept, not renumbered
    assert len({r["id"] for r in after}) == len(after) == 24
    new = [r for r in after if r["id"] not in before]
    assert all("d" in r["seating"] for r in new)
    assert rated(tmp_path / "out")["games"] == 24


def test_removing_a_bot_keeps_the_other_games(tmp_path: Path, here: Path) -> None:
    assert run(tmp_path, league(("a", "b", "c", "d"))).exit_code == 0
    result = run(tmp_path, league(("a", "c", "d")))
    assert result.exit_code == 0, result.output
    assert "0 games played, 12 already stored" in result.output
    standings = rated(tmp_path / "out")
    assert standings["games"] == 12
    assert {row["bot"] for row in standings["bots"]} == {"a", "c", "d"}
    assert any("not rated" in note for note in standings["notes"])


def test_the_report_shows_the_games_the_standings_rate(tmp_path: Path, here: Path) -> None:
    """After a bot is removed, the report rates and shows the league's games only, with the
    numbers ``arena standings`` gives, and says how many stored games it leaves out."""
    assert run(tmp_path, league(("ann", "bob", "cyd", "dee"))).exit_code == 0
    assert run(tmp_path, league(("ann", "cyd", "dee"))).exit_code == 0
    out = tmp_path / "out"
    standings = rated(out)
    reported = arena("report", str(out), "-o", str(tmp_path / "r.html"))
    assert reported.exit_code == 0, reported.output
    page = (tmp_path / "r.html").read_text()
    assert f"{standings['games']} games in {standings['units']} blocks" in page
    assert "12 stored games are not part of the league" in page
    assert ">bob<" not in page
    for row in standings["bots"]:
        assert f"{row['elo']:.0f}" in page


@pytest.mark.parametrize(
    ("change", "games", "bots"),
    [
        ({"rounds": 1}, 9, {"a", "b", "c"}),  # fewer rounds
        ({"players": "2"}, 12, {"a", "b", "c"}),  # fewer table sizes
        ({"bots": ("a", "b", "renamed")}, 18, {"a", "b", "renamed"}),  # a renamed bot
    ],
)
def test_the_standings_rate_exactly_the_current_schedule(
    tmp_path: Path, here: Path, change: dict[str, Any], games: int, bots: set[str]
) -> None:
    assert run(tmp_path, league(players="[2, 3]")).exit_code == 0  # 3x2x2 + 1x3x2 = 18
    settings: dict[str, Any] = {"players": "[2, 3]", **change}
    result = run(tmp_path, league(**settings))
    assert result.exit_code == 0, result.output
    standings = rated(tmp_path / "out")
    assert standings["games"] == games
    assert {row["bot"] for row in standings["bots"]} == bots
    stored = json.loads(json.dumps(standings))
    assert stored == rated(tmp_path / "out")


@pytest.mark.parametrize(
    ("first", "then", "said", "games"),
    [  # each table: 2 rounds x 2 rotations = 4 games
        (league(("a", "b", "c")), league(("c", "b", "a")), "0 games played, 12 already", 12),
        (
            league(extra='mode = "gauntlet"\ncandidate = "a"\n'),
            league(extra='mode = "gauntlet"\ncandidate = "b"\n'),
            "4 games played, 4 already stored",  # b-a kept, a-c outside, b-c new
            8,
        ),
    ],
    ids=["bots-reversed", "new-candidate"],
)
def test_a_table_named_in_another_order_is_counted_and_rated_alike(
    tmp_path: Path, here: Path, first: str, then: str, said: str, games: int
) -> None:
    assert run(tmp_path, first).exit_code == 0
    result = run(tmp_path, then)
    assert result.exit_code == 0, result.output
    assert said in result.output
    assert rated(tmp_path / "out")["games"] == games
    reported = arena("report", str(tmp_path / "out"), "-o", str(tmp_path / "r.html"))
    assert reported.exit_code == 0, reported.output
    assert f"{games} games in" in (tmp_path / "r.html").read_text()


def test_another_clock_or_policy_is_refused_naming_each_key(tmp_path: Path, here: Path) -> None:
    """Games played under another clock, caps or policy are not mixed with the stored ones:
    the run is refused before any game, naming each key with its old and new value."""
    assert run(tmp_path, league(rounds=2)).exit_code == 0
    before = (tmp_path / "out" / "games.jsonl").read_bytes()
    league_toml = (tmp_path / "out" / "league.toml").read_text()
    rules = '[limits]\nmove_ms = 1\nbank_ms = 1\n[policy]\ntimeout = "forfeit"\n'
    refused = run(tmp_path, league(rounds=3, extra=rules))
    one_error_line(
        refused,
        "holds games of a different league (limits.move_ms: 1000 -> 1; "
        "limits.bank_ms: 10000 -> 1; policy.timeout: 'random' -> 'forfeit')",
        "use --fresh to discard them or --out to write elsewhere",
    )
    assert (tmp_path / "out" / "games.jsonl").read_bytes() == before
    assert (tmp_path / "out" / "league.toml").read_text() == league_toml
    fresh = run(tmp_path, league(rounds=3, extra=rules), "--fresh")
    assert fresh.exit_code == 0 and "18 games played, 0 already stored" in fresh.output


def test_a_bots_own_limits_changed_is_refused_until_replayed(tmp_path: Path, here: Path) -> None:
    own = '[[bots]]\nname = "a"\ncmd = "{BOT}"\nlimits = {{memory_mb = {mb}}}\n'
    assert run(tmp_path, league(("b", "c")) + own.format(BOT=BOT, mb=2048)).exit_code == 0
    changed = league(("b", "c")) + own.format(BOT=BOT, mb=4096)
    one_error_line(
        run(tmp_path, changed),
        "bot 'a' limits.memory_mb: 2048 -> 4096 (or --replay-bot a to play its games again)",
    )
    replayed = run(tmp_path, changed, "--replay-bot", "a")
    assert replayed.exit_code == 0 and "8 games played, 4 already stored" in replayed.output


def test_limits_that_cannot_change_a_game_may_change(tmp_path: Path, here: Path) -> None:
    """``bye_ms``, ``stderr_bytes`` and ``sandbox`` are free; a folder whose ``league.toml``
    predates a key (here: it has no [limits] or [policy]) opens when the key is at its
    default."""
    assert run(tmp_path, league()).exit_code == 0
    free = 'sandbox = "none"\n[limits]\nbye_ms = 50\nstderr_bytes = 100\n'
    again = run(tmp_path, league(extra=free))
    assert again.exit_code == 0 and "0 games played, 12 already stored" in again.output
    path = tmp_path / "out" / "league.toml"
    older = tomllib.loads(path.read_text())
    del older["limits"], older["policy"]
    path.write_text(tomli_w.dumps(older))
    assert "0 games played, 12 already stored" in run(tmp_path, league(extra=free)).output


def test_fresh_leaves_nothing_of_the_discarded_games(tmp_path: Path, here: Path) -> None:
    out = tmp_path / "out"
    assert run(tmp_path, league(rounds=1)).exit_code == 0
    with (out / "games.jsonl").open("a") as games:
        games.write("[1,2,3]\n")
    assert run(tmp_path, league(rounds=1), "--replay-bot", "a").exit_code == 0
    assert arena("view", str(out), "t0-b0-r0").exit_code == 0
    earlier = {"report.html", "games.damaged.jsonl", "games.replaced.jsonl", "view-t0-b0-r0.html"}
    assert earlier <= {path.name for path in out.iterdir()}
    assert run(tmp_path, league(rounds=1), "--fresh", "--no-report").exit_code == 0
    first = tmp_path / "first"
    again = arena("run", str(tmp_path / "league.toml"), "--out", str(first), "--no-report")
    assert again.exit_code == 0, again.output
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in first.iterdir())


def test_a_huge_schedule_is_made_lazily_and_counted_first(tmp_path: Path, toy_engine: str) -> None:
    from arena import config

    path = tmp_path / "big.toml"
    path.write_text(league(rounds=1_000_000_000))
    big = config.load(path)
    assert game_count(big) == 3 * 2 * 1_000_000_000
    tracemalloc.start()
    first = next(iter(BlockFeed.for_config(big)))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert len(first) == 2 and peak < 10_000_000


# ---------------------------------------------------------------- 5: bot commands


def test_a_bot_path_is_relative_to_the_league_file(tmp_path: Path, here: Path) -> None:
    (tmp_path / "sub" / "iter").mkdir(parents=True)
    shutil.copy(ROOT / "bots" / "random.py", tmp_path / "sub" / "iter" / "mybot.py")
    cfg = tmp_path / "sub" / "l.toml"
    cfg.write_text(league(cmd="python iter/mybot.py"))  # run from the repository's root
    result = arena("run", str(cfg), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert len(lines(tmp_path / "out")) == 12


def test_python_and_python3_are_one_command(tmp_path: Path, here: Path) -> None:
    """Both run the arena's interpreter: the same bot; another argument is another bot."""
    assert run(tmp_path, league()).exit_code == 0
    again = run(tmp_path, league(cmd="python3 -m bots.random"))
    assert again.exit_code == 0, again.output
    assert "0 games played, 12 already stored" in again.output
    refused = run(tmp_path, league(cmd="python3 -m bots.random --seed 1"))
    one_error_line(
        refused,
        "bot 'a' command: 'python3 -m bots.random' -> 'python3 -m bots.random --seed 1'",
        "--replay-bot a",
    )


def test_a_missing_script_is_refused_before_any_game(tmp_path: Path, here: Path) -> None:
    result = run(tmp_path, league(cmd="python iter/mybot.py"))
    one_error_line(result, "bots[0].cmd: no such file: 'iter/mybot.py'", str(tmp_path))
    assert not (tmp_path / "out").exists()


def test_a_script_without_the_run_bit_says_so(tmp_path: Path, here: Path) -> None:
    script = tmp_path / "bot.py"
    script.write_text("print()\n")
    result = run(tmp_path, league(cmd="./bot.py"))
    one_error_line(result, "'./bot.py' is not executable (chmod +x, or run it with its")


def test_a_disqualified_bot_stores_its_games_and_exits_3(tmp_path: Path, here: Path) -> None:
    text = league(("a", "b")) + '[[bots]]\nname = "dead"\ncmd = "python -c pass"\n'
    result = run(tmp_path, text)
    assert result.exit_code == DISQUALIFIED_EXIT == 3, result.output
    assert "'dead' was disqualified" in result.output
    assert len(lines(tmp_path / "out")) == 12
    again = run(tmp_path, text)  # complete: nothing to play, the disqualification stands
    assert again.exit_code == DISQUALIFIED_EXIT, again.output
    assert "0 games played, 12 already stored" in again.output
    log = tmp_path / "out" / "logs" / "dead.log"
    assert f"arena: bot 'dead' was disqualified in a stored game; see {log}" in again.output


def test_a_disqualification_names_the_log_that_holds_the_bots_stderr(
    tmp_path: Path, here: Path
) -> None:
    script = tmp_path / "dead.py"
    script.write_text("raise MemoryError('no room for the bot')\n")
    text = league(("a", "b")) + f'[[bots]]\nname = "dead"\ncmd = "python {script}"\n'
    result = run(tmp_path, text)
    assert result.exit_code == DISQUALIFIED_EXIT, result.output
    log = tmp_path / "out" / "logs" / "dead.log"
    assert (
        "arena: bot 'dead' was disqualified: exited before answering 'hello' (exit status 1); "
        f"what it wrote to stderr is in {log}\n"
    ) in result.output
    assert "MemoryError: no room for the bot" in log.read_text()


def test_a_disqualified_bots_own_words_are_shown_not_obeyed(tmp_path: Path, here: Path) -> None:
    """A bot that fails as the keeper does ("arena: cannot start ...", status 127) has its
    own words in the disqualification line: their control characters are shown, not sent to
    the terminal. Its log keeps what it wrote."""
    script = tmp_path / "dead.py"
    said = "arena: cannot start \x1b]0;PWNED\x07\x1b[2J\x1b[32mfine\x1b[0m\n"
    script.write_text(f"import sys\nsys.stderr.write({said!r})\nsys.exit(127)\n")
    text = league(("a", "b")) + f'[[bots]]\nname = "dead"\ncmd = "python {script}"\n'
    cfg = tmp_path / "league.toml"
    cfg.write_text(text)
    out = tmp_path / "out"
    result = CliRunner().invoke(
        main, ["run", str(cfg), "--out", str(out), "--jobs", "2", "--no-report"], color=True
    )
    assert result.exit_code == DISQUALIFIED_EXIT, result.output
    assert "\x1b" not in result.output and "\x07" not in result.output
    shown = "cannot start \\x1b]0;PWNED\\x07\\x1b[2J\\x1b[32mfine\\x1b[0m"
    where = out / "logs" / "dead.log"
    assert f"arena: bot 'dead' was disqualified: {shown}; " in result.output
    assert f"what it wrote to stderr is in {where}\n" in result.output
    assert said.encode() in (out / "logs" / "dead.log").read_bytes()


# ---------------------------------------------------------------- 6: the resume hint


def test_the_resume_hint_keeps_jobs_and_transcripts(tmp_path: Path) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    cfg = tmp_path / "sf.toml"
    bots = "".join(
        f'[[bots]]\nname = "{n}"\ncmd = "python -m bots.random {marker}"\n' for n in "abc"
    )
    cfg.write_text(f'engine = "space-five"\nplayers = 2\nrounds = 10\n{bots}')
    out = tmp_path / "out"
    args = ["run", str(cfg), "--out", str(out), "--jobs", "1", "--transcripts", "--no-report"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "arena", *args], cwd=ROOT, stderr=subprocess.PIPE, text=True
    )
    games = out / "games.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (games.exists() and games.read_bytes()):
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    hint = err.split("Resume with: ")[1].strip()
    assert "--jobs 1" in hint and "--transcripts" in hint and f"--out {out}" in hint
    assert "--no-report" in hint
    words = shlex.split(hint)
    assert words[:2] == ["arena", "run"]
    again = subprocess.run(
        [sys.executable, "-m", "arena", *words[1:]], cwd=ROOT, capture_output=True
    )
    assert again.returncode == 0, again.stderr
    ids = [r["id"] for r in lines(out)]
    assert len(ids) == 3 * 10 * 2
    assert all((out / "transcripts" / game / "seat0.jsonl").exists() for game in ids)


# ---------------------------------------------------------------- 7, 8: folders and disks


@pytest.fixture
def mounted(tmp_path: Path) -> Iterator[Any]:
    """Mount small tmpfs file systems inside the test (needs root); unmount them after."""
    points: list[Path] = []

    def mount(options: str) -> Path:
        point = tmp_path / f"mnt{len(points)}"
        point.mkdir()
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(point)], capture_output=True
        )
        if done.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
        points.append(point)
        return point

    yield mount
    for point in points:
        subprocess.run(["umount", "-l", str(point)], check=False)


def test_unwritable_output_folders_are_one_line(tmp_path: Path, here: Path, mounted: Any) -> None:
    regular = tmp_path / "file"
    regular.write_text("x")
    readonly = mounted("ro,size=1m")
    for out in (regular / "sub", regular, readonly / "out", "/proc/arena-test", "/dev/null"):
        cfg = tmp_path / "league.toml"
        cfg.write_text(league())
        result = arena("run", str(cfg), "--out", str(out))
        one_error_line(result, str(out))


def test_a_report_that_does_not_fit_leaves_the_old_one_whole(
    tmp_path: Path, here: Path, mounted: Any
) -> None:
    disk = mounted("size=512k")
    assert run(tmp_path, league(rounds=3)).exit_code == 0
    out = tmp_path / "out"
    page = disk / "report.html"
    assert arena("report", str(out), "-o", str(page), "--games", "0").exit_code == 0
    small = page.read_bytes()
    free = os.statvfs(disk)
    with (disk / "filler").open("wb") as handle:  # no room left
        handle.write(b"\1" * (free.f_bavail * free.f_frsize))
    failed = arena("report", str(out), "-o", str(page))  # with its games: larger
    one_error_line(failed, f"cannot write {page}: no space left on the device; free some space")
    assert page.read_bytes() == small
    assert sorted(p.name for p in disk.iterdir()) == ["filler", "report.html"]


def test_a_ctrl_c_in_the_middle_of_a_write_leaves_the_old_file_and_no_partial(
    tmp_path: Path,
) -> None:
    from arena.league.atomic import write_whole

    page = tmp_path / "report.html"
    page.write_text("the old report")
    partial = tmp_path / "report.html.tmp"
    os.mkfifo(partial)  # the write blocks in it: more than a pipe holds, and nobody reads

    readers: list[int] = []
    writer = threading.get_ident()

    def interrupt_the_write() -> None:
        readers.append(os.open(partial, os.O_RDONLY))  # returns once the writer opened it
        signal.pthread_kill(writer, signal.SIGINT)  # the write returns EINTR, Python raises

    helper = threading.Thread(target=interrupt_the_write)
    helper.start()
    with pytest.raises(KeyboardInterrupt):
        write_whole(page, b"x" * (1 << 22))
    helper.join()
    os.close(readers[0])
    assert sorted(path.name for path in tmp_path.iterdir()) == ["report.html"]
    assert page.read_text() == "the old report"


def fill(disk: Path, leave: int) -> Path:
    """Take every free block of ``disk`` but ``leave`` (of 4 KiB) with a file; return it."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        while os.write(fd, b"\1" * 4096):
            pass
    except OSError:
        os.ftruncate(fd, os.fstat(fd).st_size - leave * 4096)
    finally:
        os.close(fd)
    return filler


def test_a_full_disk_keeps_every_game_and_resumes(tmp_path: Path, here: Path, mounted: Any) -> None:
    disk = mounted("size=256k")
    cfg = tmp_path / "league.toml"
    cfg.write_text(league(rounds=2))
    out = disk / "out"
    assert arena("run", str(cfg), "--out", str(out)).exit_code == 0
    first = lines(out)
    filler = fill(disk, leave=3)

    cfg.write_text(league(rounds=12))
    result = arena("run", str(cfg), "--out", str(out), "--jobs", "2")
    one_error_line(result, "no space left on the device")
    stored = lines(out)  # every line is a complete game
    assert stored[: len(first)] == first
    assert not list(out.glob("*.tmp"))

    filler.unlink()
    resumed = arena("run", str(cfg), "--out", str(out), "--jobs", "2")
    assert resumed.exit_code == 0, resumed.output
    final = lines(out)
    assert final[: len(stored)] == stored
    assert len({r["id"] for r in final}) == len(final) == 3 * 12 * 2


def test_a_full_disk_after_the_last_game_says_every_game_is_stored(
    tmp_path: Path, here: Path, mounted: Any
) -> None:
    disk = mounted("size=256k")
    cfg = tmp_path / "league.toml"
    cfg.write_text(league(rounds=2))
    out = disk / "out"
    assert arena("run", str(cfg), "--out", str(out), "--no-report").exit_code == 0
    filler = fill(disk, leave=2)  # room for league.toml and the standings, not the report

    result = arena("run", str(cfg), "--out", str(out))  # plays nothing: prints the standings
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[-1] == (
        f"arena: error: cannot write {out / 'report.html'}: no space left on the device; free "
        f"some space and write it with: arena report {out} (every game is stored; only this "
        "file was not written)"
    )
    assert "Traceback" not in result.output
    filler.unlink()
    assert arena("report", str(out)).exit_code == 0  # as the message says

    fill(disk, leave=0)
    with pytest.raises(ResultsError) as caught:
        write_standings_file(out, {"note": "x" * 8192})
    assert str(caught.value) == (
        f"{out / 'standings.toml'}: cannot write: no space left on the device; free some "
        "space and run again: it plays no game and writes the standings and the report "
        "(every game is stored; only this file was not written)"
    )


def test_a_full_disk_says_run_again_to_resume_only_while_games_remain() -> None:
    with pytest.raises(OSError) as caught:  # every write to /dev/full fails: ENOSPC
        Path("/dev/full").write_bytes(b"a game")
    full = caught.value
    assert full.errno == errno.ENOSPC
    resume = "no space left on the device; free some space and run again to resume"
    assert os_reason(full) == resume
    assert os_reason(full, "write it with: arena report out") == (
        "no space left on the device; free some space and write it with: arena report out "
        "(every game is stored; only this file was not written)"
    )


def test_repairs_on_a_nearly_full_disk_copy_nothing_twice(
    tmp_path: Path, here: Path, mounted: Any
) -> None:
    """A last line cut short is cut off ``games.jsonl`` in place (no copy of the file, so no
    free space needed); a repair that needs a copy and fails for want of space moves its
    lines to the side file once, however often it is tried."""
    disk = mounted("size=400k")
    cfg = tmp_path / "league.toml"
    cfg.write_text(league(rounds=8))
    out = disk / "out"
    assert arena("run", str(cfg), "--out", str(out), "--no-report").exit_code == 0
    games = out / "games.jsonl"
    whole = games.read_bytes()
    assert len(whole) > 5 * 4096  # more than the space left below
    cut = whole[:-100]
    games.write_bytes(cut)
    filler = fill(disk, leave=3)

    repaired = arena("run", str(cfg), "--out", str(out), "--no-report")
    assert repaired.exit_code == 0, repaired.output
    assert "cut short" in repaired.output and "1 game played" in repaired.output
    damaged = out / "games.damaged.jsonl"
    assert damaged.read_bytes() == cut[cut.rindex(b"\n") + 1 :] + b"\n"
    assert len(lines(out)) == 48

    text = games.read_bytes()
    games.write_bytes(text.replace(b"\n", b"\n{not json\n", 1))  # needs a copy to move
    for _ in range(2):
        one_error_line(arena("run", str(cfg), "--out", str(out)), "no space left on the device")
    assert damaged.read_bytes().count(b"{not json\n") == 1
    filler.unlink()
    assert arena("run", str(cfg), "--out", str(out), "--no-report").exit_code == 0
    assert games.read_bytes() == text
    assert damaged.read_bytes().count(b"{not json\n") == 1


# ---------------------------------------------------------------- 9: extremes and usage


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        (league().replace('name = "t"', f'name = "{"n" * 300}"'), "at most 64"),
        (league().replace('name = "a"', f'name = "{"a" * 300}"'), "at most 64"),
        ("x = " + "[" * 100_000 + "]" * 100_000, "nested too deeply"),
        (league(cmd=f"python {'y' * 300}.py"), "not a usable path"),
        (league(cmd="python " + "z " * 500_000), "characters long; at most 4096"),
    ],
    ids=["league name", "bot name", "nesting", "long argument", "1 MiB command"],
)
def test_config_extremes_are_one_line(tmp_path: Path, here: Path, text: str, needle: str) -> None:
    one_error_line(run(tmp_path, text), needle)


def test_a_long_argument_after_the_script_is_just_an_argument(tmp_path: Path, here: Path) -> None:
    result = run(tmp_path, league(cmd=f"python -m bots.random {'y' * 300}.py"))
    assert result.exit_code == 0, result.output


def test_a_huge_league_says_how_many_games_first(tmp_path: Path, here: Path) -> None:
    result = run(tmp_path, league(rounds=3))
    assert "league t: 18 games scheduled" in result.output


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["run", "{tmp}"], "is a directory"),
        (["run", "{tmp}/x.toml", "--jobs", "0"], "--jobs"),
        (["standings"], "Missing argument 'FOLDER'"),
        (["no-such-command"], "No such command"),
    ],
)
def test_click_usage_errors_read_like_the_others(
    tmp_path: Path, args: list[str], needle: str
) -> None:
    result = arena(*[a.replace("{tmp}", str(tmp_path)) for a in args])
    one_error_line(result, needle, "(see 'arena")


@pytest.mark.parametrize("command", ["standings", "report", "replay", "view", "replay-seat"])
def test_a_file_given_for_a_results_folder_is_told_which_folder(
    tmp_path: Path, here: Path, command: str
) -> None:
    """A results folder's own file names the folder that holds it; another file, what a
    results folder is."""
    assert run(tmp_path, league()).exit_code == 0
    games = tmp_path / "out" / "games.jsonl"
    more = {"replay": ["t0-b0-r0"], "view": ["t0-b0-r0"], "replay-seat": ["t0-b0-r0", "0"]}
    inside = arena(command, str(games), *more.get(command, []))
    one_error_line(
        inside, f"'{games}' is a file; give the results folder that holds it: {games.parent}"
    )
    assert "Directory" not in inside.output
    alone = tmp_path / "notes" / "notes.txt"  # not next to the league file run() writes
    alone.parent.mkdir()
    alone.write_text("x")
    one_error_line(
        arena(command, str(alone), *more.get(command, [])),
        f"'{alone}' is a file; give a results folder (arena run writes one: results/",
    )


# ---------------------------------------------------------------- 10, 11: tools on folders


def test_replay_seat_says_what_is_wrong(tmp_path: Path, here: Path) -> None:
    assert run(tmp_path, league(), "--transcripts").exit_code == 0
    out = str(tmp_path / "out")
    one_error_line(
        arena("replay-seat", out, "t9-b9-r9", "0", "--bot", BOT), "no stored game with id"
    )
    one_error_line(
        arena("replay-seat", out, "t0-b0-r0", "2", "--bot", BOT), "has seats 0..1", "no seat 2"
    )
    fine = arena("replay-seat", out, "t0-b0-r0", "1", "--bot", BOT)
    assert fine.exit_code == 0, fine.output


def test_replays_of_a_game_not_stored_exit_2_as_their_help_says(tmp_path: Path, here: Path) -> None:
    assert run(tmp_path, league()).exit_code == 0
    out = str(tmp_path / "out")
    for command, *more in (["replay"], ["replay-seat", "0", "--bot", BOT]):
        one_error_line(arena(command, out, "nope", *more), "no stored game with id 'nope'")
        said = " ".join(arena(command, "--help").output.split())
        assert "2 when there is nothing to" in said


def test_seats_are_numbered_from_0_in_the_standings(tmp_path: Path, here: Path) -> None:
    assert run(tmp_path, league()).exit_code == 0
    seats = rated(tmp_path / "out")["seats"]
    assert sorted(s["seat"] for s in seats) == [0, 1]
    table = arena("standings", str(tmp_path / "out")).output
    assert "(0 = first player)" in table


def test_standings_of_a_missing_folder(tmp_path: Path) -> None:
    one_error_line(arena("standings", str(tmp_path / "nope")), "no such folder")


@pytest.mark.parametrize("damage", ["not utf-8", "a folder", "no engine"])
def test_a_damaged_league_file_is_one_line(tmp_path: Path, here: Path, damage: str) -> None:
    assert run(tmp_path, league()).exit_code == 0
    out = tmp_path / "out"
    path = out / "league.toml"
    if damage == "not utf-8":
        path.write_bytes(b'name = "\xff"\n')
    elif damage == "a folder":
        path.unlink()
        path.mkdir()
    else:
        path.write_text(path.read_text().replace('engine = "toy"', ""))
    one_error_line(arena("report", str(out)), "league.toml")
    if damage != "no engine":  # the standings need no engine
        one_error_line(arena("standings", str(out)), "league.toml")


@pytest.mark.parametrize(
    ("name", "commands"),
    [
        ("games.jsonl", [["standings"], ["report"], ["view", "t0-b0-r0"], ["replay", "t0-b0-r0"]]),
        ("bots.toml", [["report"]]),
    ],
)
def test_a_results_file_that_is_a_folder_is_one_line(
    tmp_path: Path, here: Path, name: str, commands: list[list[str]]
) -> None:
    assert run(tmp_path, league()).exit_code == 0
    out = tmp_path / "out"
    path = out / name
    path.unlink()
    path.mkdir()
    for command, *more in commands:
        one_error_line(arena(command, str(out), *more), f"{path}: cannot read: Is a directory")
    one_error_line(run(tmp_path, league()), f"{path}: cannot read: Is a directory")


NO_OVERRIDE = ["setpriv", "--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search"]
"""Run a command as root without root's right to read every file: the file modes apply to it
as to its owner. (Not another user: the checkout and its virtual environment may lie in a
folder only root may enter, such as one made by ``mktemp -d``.)"""


def as_someone_who_cannot_read(*args: str) -> subprocess.CompletedProcess[str]:
    """``arena ARGS`` in a process of its own, as a user a mode-000 file is closed to."""
    prefix = [*NO_OVERRIDE, "--"] if os.geteuid() == 0 else []
    command = [*prefix, sys.executable, "-m", "arena", *args]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=120)


@pytest.mark.parametrize("name", ["games.jsonl", "bots.toml"])
def test_an_unreadable_results_file_is_one_line_naming_it(
    tmp_path: Path, in_repo: Path, name: str
) -> None:
    """The same user, the same folders: only the file's mode closes it (root is run
    without its right to read every file, so a checkout in a private folder works too)."""
    if os.geteuid() == 0 and subprocess.run([*NO_OVERRIDE, "true"]).returncode != 0:
        pytest.skip("as root every file is readable, and setpriv cannot drop that here")
    cfg = tmp_path / "league.toml"
    cfg.write_text(league(bots=("a", "b")).replace('"toy"', '"space-five"'))
    out = tmp_path / "out"
    assert arena("run", str(cfg), "--out", str(out)).exit_code == 0
    (out / name).chmod(0)
    reads = [["standings", str(out)], ["replay", str(out), "t0-b0-r0"]]
    commands = [*(reads if name == "games.jsonl" else []), ["report", str(out)]]
    for command in [*commands, ["run", str(cfg), "--out", str(out)]]:
        done = as_someone_who_cannot_read(*command)
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr
        said = f"arena: error: {out / name}: cannot read: Permission denied"
        assert done.stderr.splitlines()[-1] == said, done.stderr


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("bots", 3, "bots: expected a list, got 3"),
        ("seed", "x", 'seed: expected an integer, got "x"'),
        ("players", [2, "3"], 'players: expected integers, got "3"'),
        ("bots", [{"name": "a"}], "bots[0].cmd: missing required key"),
        ("limits", {"move_ms": "fast"}, 'limits.move_ms: expected an integer, got "fast"'),
    ],
)
def test_a_league_file_with_a_field_of_the_wrong_type_is_damaged(
    tmp_path: Path, here: Path, field: str, value: Any, said: str
) -> None:
    """An edited ``league.toml`` whose field holds the wrong type is a damaged file, in one
    line naming the field, for every command that reads it (not a traceback, and not a
    standings table of 0 games)."""
    assert run(tmp_path, league()).exit_code == 0
    out = tmp_path / "out"
    path = out / "league.toml"
    path.write_text(tomli_w.dumps({**tomllib.loads(path.read_text()), field: value}))
    for command in (["standings", str(out)], ["report", str(out)]):
        one_error_line(arena(*command), f"{path}: damaged: {said}", "delete it and run")
    for _ in range(2):  # the refused run leaves the folder unlocked
        one_error_line(run(tmp_path, league()), f"{path}: damaged: {said}")


def test_a_page_for_a_folder_that_does_not_exist_is_one_line(tmp_path: Path, here: Path) -> None:
    assert run(tmp_path, league()).exit_code == 0
    out, page = str(tmp_path / "out"), str(tmp_path / "nope" / "page.html")
    one_error_line(arena("report", out, "-o", page), "cannot write", "there is no folder")
    one_error_line(arena("view", out, "t0-b0-r0", "-o", page), "there is no folder")
    one_error_line(arena("view", out, "t0-b0-r0", "-o", "/proc/page.html"), "cannot write")
    assert not (tmp_path / "nope").exists()


def test_play_without_players_or_with_an_empty_command_is_one_line(here: Path) -> None:
    one_error_line(arena("play", "toy"), "no players", "--bot")
    one_error_line(arena("play", "toy", "--bot", "", "--bot", BOT), "--bot '': empty command")


def test_a_game_of_an_engine_not_installed_here_is_one_line(tmp_path: Path, here: Path) -> None:
    assert run(tmp_path, league()).exit_code == 0
    out = tmp_path / "out"
    games = out / "games.jsonl"
    first, *rest = games.read_text().splitlines(keepends=True)
    game = json.loads(first)
    games.write_text(json.dumps({**game, "engine": "chess"}) + "\n" + "".join(rest))
    for command in (["replay", str(out), game["id"]], ["view", str(out), game["id"]]):
        one_error_line(arena(*command), f"game {game['id']}: unknown engine 'chess'")
    reported = arena("report", str(out))  # not the league's game: the report leaves it out
    assert reported.exit_code == 0, reported.output
    (out / "league.toml").write_text((out / "league.toml").read_text().replace("toy", "chess"))
    games.write_text(first + "".join(rest))
    one_error_line(arena("report", str(out)), "unknown engine 'chess'")


def test_a_game_whose_stored_options_lack_one_is_replayed_with_its_default(
    tmp_path: Path, here: Path
) -> None:
    """Stored options are checked by the engine as a league's are: one left out takes its
    default (the toy's pile of 21, this league's), so the game is viewed and replayed."""
    assert run(tmp_path, league()).exit_code == 0
    out = tmp_path / "out"
    _edit_game(out / "games.jsonl", "t0-b0-r0", {"options": {}})
    viewed = arena("view", str(out), "t0-b0-r0")
    assert viewed.exit_code == 0, viewed.output
    shown = arena("replay", str(out), "t0-b0-r0", "--show")
    assert shown.exit_code == 0, shown.output
    assert "t0-b0-r0: reproduces the stored result" in shown.output


def test_a_game_whose_stored_options_the_engine_refuses_is_one_line(
    tmp_path: Path, here: Path
) -> None:
    assert run(tmp_path, league()).exit_code == 0
    out = tmp_path / "out"
    _edit_game(out / "games.jsonl", "t0-b0-r0", {"options": {"pile": "x"}})
    refused = "game t0-b0-r0: the stored options are not valid for this engine: option 'pile'"
    one_error_line(arena("view", str(out), "t0-b0-r0"), refused)
    one_error_line(arena("replay", str(out), "t0-b0-r0", "--show"), refused)
    replayed = arena("replay", str(out), "t0-b0-r0")
    assert replayed.exit_code == 1, replayed.output
    assert f"t0-b0-r0: does NOT reproduce: {refused}" in replayed.output


def test_a_report_with_a_game_that_does_not_replay_is_written_without_its_viewer(
    tmp_path: Path, here: Path
) -> None:
    """One stored game whose moves do not replay costs only its viewer: ``arena report``
    and ``arena run`` write the report, which names the game and why, with one warning."""
    text = league(("a", "b"), rounds=1)
    assert run(tmp_path, text).exit_code == 0
    out = tmp_path / "out"
    _edit_game(out / "games.jsonl", "t0-b0-r0", {"moves": [99999]})
    why = (
        "game t0-b0-r0: move 1 (step 0, stored index 99999) is not legal in the replay: "
        "the stored line is damaged or was edited"
    )
    for result in (arena("report", str(out)), run(tmp_path, text)):
        assert result.exit_code == 0, result.output
        warnings = [line for line in result.output.splitlines() if "warning" in line]
        assert warnings == [f"arena: warning: {why}; the report has no viewer for it"]
        page = (out / "report.html").read_text()
        assert f"Not replayed: no viewer</strong><ul><li>{why}</li></ul>" in page
        assert 'id="game-t0-b0-r0"' not in page
        assert 'id="game-t0-b0-r1"' in page
    replayed = arena("replay", str(out), "t0-b0-r0")
    assert replayed.exit_code == 1, replayed.output
    assert (
        replayed.output == f"t0-b0-r0: does NOT reproduce: {why.removeprefix('game t0-b0-r0: ')}\n"
    )


def test_a_report_with_a_game_whose_options_the_engine_refuses_is_written_without_it(
    tmp_path: Path, here: Path
) -> None:
    """A league.toml that names no options cannot tell a game of other options from the
    league's: the game is rated, and the report's viewer of it is the one left out."""
    assert run(tmp_path, league(("a", "b"), rounds=1)).exit_code == 0
    out = tmp_path / "out"
    path = out / "league.toml"
    resolved = tomllib.loads(path.read_text())
    del resolved["options"]
    path.write_text(tomli_w.dumps(resolved))
    _edit_game(out / "games.jsonl", "t0-b0-r0", {"options": {"pile": "x"}})
    reported = arena("report", str(out))
    assert reported.exit_code == 0, reported.output
    warnings = [line for line in reported.output.splitlines() if "warning" in line]
    assert len(warnings) == 1, reported.output
    assert warnings[0].startswith(
        "arena: warning: game t0-b0-r0: the stored options are not valid for this engine: "
    )
    assert 'id="game-t0-b0-r0"' not in (out / "report.html").read_text()


def test_an_anchor_rating_that_is_not_a_number_says_how_to_write_one(
    tmp_path: Path, here: Path
) -> None:
    assert run(tmp_path, league()).exit_code == 0
    one_error_line(
        arena("standings", str(tmp_path / "out"), "--anchor", "a=abc"),
        "anchor bot 'a=abc' did not play",
        "BOT=RATING takes a number after the last '='",
    )


@pytest.mark.parametrize(
    ("damage", "line"),
    [
        (lambda text: text[: len(text) // 2], None),  # cut short by a kill
        (lambda text: text.replace('"to"', '"sideways"', 1), 1),
        (lambda text: text.replace('\\"type\\":\\"hello\\"', "type:hello", 1), 1),
    ],
    ids=["cut", "direction", "message"],
)
def test_replay_seat_of_a_damaged_transcript_is_one_line(
    tmp_path: Path, here: Path, damage: Any, line: int | None
) -> None:
    assert run(tmp_path, league(), "--transcripts").exit_code == 0
    out = tmp_path / "out"
    path = out / "transcripts" / "t0-b0-r0" / "seat0.jsonl"
    text = path.read_text()
    path.write_text(damage(text))
    number = line or len(damage(text).splitlines())
    one_error_line(
        arena("replay-seat", str(out), "t0-b0-r0", "0", "--bot", BOT),
        f"line {number} is damaged",
    )


def test_replay_seat_tells_a_new_note_from_a_new_move(tmp_path: Path, here: Path) -> None:
    """A bot whose note changes from run to run (here: a fresh id) makes the same moves."""
    bot = tmp_path / "noting.py"
    bot.write_text(
        "import uuid\n"
        "from arena.sdk import run\n"
        "def choose(observation, legal, game):\n"
        "    game.note = uuid.uuid4().hex\n"
        "    return 0\n"
        "run(choose, name='noting')\n"
    )
    command = f"python {bot}"
    assert run(tmp_path, league(cmd=command), "--transcripts").exit_code == 0
    replayed = arena("replay-seat", str(tmp_path / "out"), "t0-b0-r0", "0", "--bot", command)
    assert replayed.exit_code == 0, replayed.output
    assert "same move" in replayed.output and "DIFFERS" not in replayed.output


# ---------------------------------------------------------------- 1: a changed bot

BOT_SCRIPT = """
from pathlib import Path
from arena.sdk import run
version = Path(__file__).with_name("version.txt").read_text().strip()
run(lambda observation, legal, game: game.rng.randrange(len(legal)), name="mine", version=version)
"""


def own_bot_league(tmp_path: Path, rounds: int = 1) -> Path:
    (tmp_path / "mybot.py").write_text(BOT_SCRIPT)
    if not (tmp_path / "version.txt").exists():
        (tmp_path / "version.txt").write_text("1\n")
    text = league(("b", "c"), rounds=rounds) + '[[bots]]\nname = "a"\ncmd = "python mybot.py"\n'
    cfg = tmp_path / "league.toml"
    cfg.write_text(text)
    return cfg


def run_file(cfg: Path, *more: str) -> Result:
    return arena("run", str(cfg), "--out", str(cfg.parent / "out"), "--jobs", "2", *more)


def test_a_changed_bot_is_refused_until_replayed(tmp_path: Path, here: Path) -> None:
    cfg = own_bot_league(tmp_path)
    assert run_file(cfg).exit_code == 0
    before = lines(tmp_path / "out")
    league_toml = (tmp_path / "out" / "league.toml").read_text()
    assert "mine 1" in (tmp_path / "out" / "bots.toml").read_text()

    with (tmp_path / "mybot.py").open("a") as handle:
        handle.write("# a better bot\n")
    refused = run_file(cfg)
    one_error_line(refused, "bot 'a' changed since its 4 stored games", "mybot.py changed")
    assert "--replay-bot a" in refused.output
    assert lines(tmp_path / "out") == before
    assert (tmp_path / "out" / "league.toml").read_text() == league_toml

    replayed = run_file(cfg, "--replay-bot", "a")
    assert replayed.exit_code == 0, replayed.output
    assert "4 games played, 2 already stored" in replayed.output
    aside = (tmp_path / "out" / "games.replaced.jsonl").read_text().splitlines()
    assert [json.loads(line) for line in aside] == [r for r in before if "a" in r["seating"]]
    assert "0 games played, 6 already stored" in run_file(cfg).output


def test_a_bot_answering_another_version_is_refused(tmp_path: Path, here: Path) -> None:
    cfg = own_bot_league(tmp_path)
    assert run_file(cfg).exit_code == 0
    with_a = [r["id"] for r in lines(tmp_path / "out") if "a" in r["seating"]]
    (tmp_path / "version.txt").write_text("2\n")  # a file the command does not name
    cfg = own_bot_league(tmp_path, rounds=2)
    refused = run_file(cfg)
    one_error_line(refused, "bot 'a' now answers ready as 'mine 2'", "'mine 1'", "--replay-bot a")
    assert [r["id"] for r in lines(tmp_path / "out") if "a" in r["seating"]] == with_a
    again = run_file(cfg)  # the refused run did not record the new answer as the folder's
    one_error_line(again, "bot 'a' now answers ready as 'mine 2'", "'mine 1'", "--replay-bot a")
    assert "mine 1" in (tmp_path / "out" / "bots.toml").read_text()
    fresh = run_file(cfg, "--fresh")
    assert fresh.exit_code == 0 and "12 games played, 0 already stored" in fresh.output


def test_a_first_run_records_each_bots_command_fingerprint_and_ready(
    tmp_path: Path, here: Path
) -> None:
    """Written as each bot's ``ready`` answer is first known, ``bots.toml`` ends as it did
    when it was written once at the end; a run that plays nothing leaves it as it is."""
    assert run(tmp_path, league()).exit_code == 0
    files = [ROOT / "bots" / "random.py", ROOT / "bots" / "__init__.py"]  # and its package
    entry = {
        "cmd": BOT,
        "executable": os.path.realpath(sys.executable),
        "ready": "random 1",
        "files": {str(f): "sha256:" + hashlib.sha256(f.read_bytes()).hexdigest() for f in files},
    }
    bots_toml = tmp_path / "out" / "bots.toml"
    assert bots_toml.read_text() == tomli_w.dumps({name: entry for name in "abc"})
    assert "0 games played, 12 already stored" in run(tmp_path, league()).output
    assert bots_toml.read_text() == tomli_w.dumps({name: entry for name in "abc"})


def stored_with(folder: Path, bot: str) -> list[str]:
    """The ids of the complete lines of ``folder``'s games file that ``bot`` played."""
    games = folder / "games.jsonl"
    complete = games.read_text().split("\n")[:-1] if games.exists() else []
    return [game["id"] for game in map(json.loads, complete) if bot in game["seating"]]


def test_a_bot_answering_another_version_after_a_kill_is_refused(
    tmp_path: Path, here: Path
) -> None:
    """``bots.toml`` holds a bot's ``ready`` answer before its first game is stored: a run
    killed outright (no clean stop) is resumed only by the bot its games were played with."""
    marker = f"m{uuid.uuid4().hex[:8]}"
    (tmp_path / "mybot.py").write_text(BOT_SCRIPT)
    (tmp_path / "version.txt").write_text("1\n")
    others = "".join(
        f'[[bots]]\nname = "{n}"\ncmd = "python -m bots.random {marker}"\n' for n in "bc"
    )
    cfg = tmp_path / "league.toml"
    cfg.write_text(
        f'engine = "space-five"\nplayers = 2\nrounds = 10\nseed = 5\n{others}'
        '[[bots]]\nname = "a"\ncmd = "python mybot.py"\n'
    )
    out = tmp_path / "out"
    args = ["run", str(cfg), "--out", str(out), "--jobs", "1", "--no-report"]
    proc = subprocess.Popen([sys.executable, "-m", "arena", *args], cwd=ROOT)
    try:
        with_a = wait_until(lambda: stored_with(out, "a"), "a game of bot 'a' stored")
    finally:
        proc.kill()
        proc.wait(timeout=60)
    wait_until(lambda: not processes_with(marker), "the killed run's bots to end")
    with_a = stored_with(out, "a")
    assert len(lines(out)) < 3 * 10 * 2, "the run ended before it was killed"

    (tmp_path / "version.txt").write_text("2\n")
    refused = run_file(cfg)
    one_error_line(refused, "bot 'a' now answers ready as 'mine 2'", "'mine 1'", "--replay-bot a")
    assert stored_with(out, "a") == with_a
    assert tomllib.loads((out / "bots.toml").read_text())["a"]["ready"] == "mine 1"


def test_a_bot_answering_another_version_within_one_run_is_refused(
    tmp_path: Path, here: Path
) -> None:
    """The first answer recorded is the one the bot's games are played with: a process of
    it that answers otherwise (here every process has its own version) is refused too."""
    (tmp_path / "mybot.py").write_text(
        "import uuid\n"
        "from arena.sdk import run\n"
        "run(lambda observation, legal, game: 0, name='mine', version=uuid.uuid4().hex)\n"
    )
    cfg = tmp_path / "league.toml"
    cfg.write_text(league(("b",)) + '[[bots]]\nname = "a"\ncmd = "python mybot.py"\n')
    refused = run_file(cfg)  # a block of two games: two processes of each bot
    one_error_line(refused, "bot 'a' now answers ready as 'mine ", "--replay-bot a")
    recorded = tomllib.loads((tmp_path / "out" / "bots.toml").read_text())["a"]["ready"]
    assert f"were played as {recorded!r}" in refused.output


def test_a_module_bot_is_the_same_bot_from_any_folder(
    tmp_path: Path, here: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``python -m bots.random`` names its module in ``bots.toml`` whether ``arena run``
    starts in the project (the module on the bot's ``PYTHONPATH``) or elsewhere (found as
    the interpreter finds it: here on ``sys.path``, as an installed package is)."""
    assert run(tmp_path, league()).exit_code == 0
    recorded = (tmp_path / "out" / "bots.toml").read_text()
    assert str(ROOT / "bots" / "random.py") in recorded
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    monkeypatch.delenv("PYTHONPATH", raising=False)
    monkeypatch.setattr(sys, "path", [*sys.path, str(ROOT)])
    again = run(tmp_path, league())
    assert again.exit_code == 0, again.output
    assert "0 games played, 12 already stored" in again.output
    assert (tmp_path / "out" / "bots.toml").read_text() == recorded


def test_a_file_an_earlier_arena_did_not_record_is_recorded_with_a_note(
    tmp_path: Path, here: Path
) -> None:
    """An earlier arena run from another folder recorded no file for ``python -m``: the
    module named now is no change anyone made; it is recorded, and the run says so."""
    assert run(tmp_path, league()).exit_code == 0
    bots_toml = tmp_path / "out" / "bots.toml"
    recorded = bots_toml.read_text()
    earlier = tomllib.loads(recorded)
    for entry in earlier.values():
        entry["files"] = {}
    bots_toml.write_text(tomli_w.dumps(earlier))

    again = run(tmp_path, league())
    assert again.exit_code == 0, again.output
    assert "0 games played, 12 already stored" in again.output
    assert f"bot 'a': its 8 stored games were played before bots.toml recorded {ROOT}" in (
        again.output
    )
    assert "--replay-bot a plays its games again" in again.output
    assert bots_toml.read_text() == recorded
    assert "bot 'a'" not in run(tmp_path, league()).output  # said once


def test_a_package_file_an_earlier_arena_did_not_hash_is_recorded_with_a_note(
    tmp_path: Path, here: Path
) -> None:
    """An earlier arena hashed only the module of ``python -m bots.random``, not the package
    it lies in: the bot is the same, its games are kept, and the new file is recorded."""
    assert run(tmp_path, league()).exit_code == 0
    bots_toml = tmp_path / "out" / "bots.toml"
    recorded = bots_toml.read_text()
    earlier = tomllib.loads(recorded)
    init = str(ROOT / "bots" / "__init__.py")
    for entry in earlier.values():
        del entry["files"][init]
    bots_toml.write_text(tomli_w.dumps(earlier))

    again = run(tmp_path, league())
    assert again.exit_code == 0, again.output
    assert "0 games played, 12 already stored" in again.output
    assert f"stored games were played before bots.toml recorded {init} (an earlier" in (
        " ".join(again.output.split())
    )
    assert bots_toml.read_text() == recorded


@pytest.mark.parametrize("change", ["file", "command", "command, old bots.toml"])
def test_a_bot_that_comes_back_changed_is_refused(tmp_path: Path, here: Path, change: str) -> None:
    """A bot taken out of the league keeps its entry in bots.toml while its games are
    stored: when it comes back changed, it is refused as if it had never left (also in a
    folder whose bots.toml was written before entries kept the bot's command)."""
    cfg = own_bot_league(tmp_path)
    text = cfg.read_text()
    assert run_file(cfg).exit_code == 0
    bots_toml = tmp_path / "out" / "bots.toml"
    if change == "command, old bots.toml":
        entries = tomllib.loads(bots_toml.read_text())
        for entry in entries.values():
            del entry["cmd"]
        bots_toml.write_text(tomli_w.dumps(entries))
    if change == "file":
        with (tmp_path / "mybot.py").open("a") as handle:
            handle.write("# a better bot\n")
    else:
        text = text.replace("python mybot.py", "python mybot.py --fast")
    without = run(tmp_path, league(("b", "c"), rounds=1))  # the league file without bot a
    assert without.exit_code == 0 and "0 games played, 2 already stored" in without.output

    cfg.write_text(text)
    refused = run_file(cfg)
    said = "bot 'a' changed since its 4 stored games" if change == "file" else "bot 'a' command: "
    one_error_line(refused, said, "--replay-bot a")
    assert len(lines(tmp_path / "out")) == 6
    replayed = run_file(cfg, "--replay-bot", "a")
    assert replayed.exit_code == 0 and "4 games played, 2 already stored" in replayed.output


def test_without_bots_toml_the_stored_games_bots_go_unchecked_with_a_warning(
    tmp_path: Path, here: Path
) -> None:
    """A damaged bots.toml says what deleting it costs; a run on a folder whose bots.toml is
    gone warns, in one line, that the stored games' bots cannot be checked."""
    cfg = own_bot_league(tmp_path)
    assert run_file(cfg).exit_code == 0
    bots_toml = tmp_path / "out" / "bots.toml"
    for damage, said in [
        ("[a\n", ""),
        ("a = 3\n", "a = 3 is not a table"),
        ("[a]\ncmd = 5\n", "a.cmd = 5 is not a string"),
    ]:
        bots_toml.write_text(damage)
        one_error_line(
            run_file(cfg),
            f"bots.toml: damaged: {said}",
            "delete it (then the stored games' bots go unchecked",
        )
    bots_toml.unlink()
    with (tmp_path / "mybot.py").open("a") as handle:
        handle.write("# a better bot\n")
    unchecked = run_file(cfg)
    assert unchecked.exit_code == 0, unchecked.output
    warnings = [line for line in unchecked.output.splitlines() if "warning" in line]
    assert warnings == [
        f"arena: warning: {bots_toml} is missing: the bots of the 6 stored games cannot be "
        "checked for changes (a bot changed since keeps its games; --fresh plays them again)"
    ]
    again = run_file(cfg)
    assert again.exit_code == 0 and "warning" not in again.output


def test_replay_bot_must_name_a_bot(tmp_path: Path, here: Path) -> None:
    one_error_line(run(tmp_path, league(), "--replay-bot", "zz"), "--replay-bot zz: no bot")


# ---------------------------------------------------------------- 4: a damaged games file

DAMAGE = [b"{not json\n", b"[1,2,3]\n", b"{}\n", b"null\n"]


def test_damaged_lines_are_reported_never_counted_and_moved_aside(
    tmp_path: Path, here: Path
) -> None:
    assert run(tmp_path, league()).exit_code == 0
    games = tmp_path / "out" / "games.jsonl"
    good = games.read_bytes().splitlines(keepends=True)
    damaged = [good[0], *DAMAGE, good[1], good[0], *good[2:], good[5][:40]]
    games.write_bytes(b"".join(damaged))
    expected = {2: "not a game record", 3: "not a game record", 4: "not a game record"}
    expected |= {5: "not a game record", 7: "a second copy of game"}

    shown = arena("standings", str(tmp_path / "out"), "--format", "json")
    assert shown.exit_code == 0, shown.output
    for number, why in expected.items():
        assert f"games.jsonl line {number} skipped: {why}" in shown.stderr
    assert json.loads(shown.stdout)["games"] == len(good)

    repaired = run(tmp_path, league())
    assert repaired.exit_code == 0, repaired.output
    for number in [*expected, len(damaged)]:
        assert f"games.jsonl line {number}: " in repaired.output
        assert "moved to games.damaged.jsonl" in repaired.output
    assert "cut short" in repaired.output
    assert f"0 games played, {len(good)} already stored" in repaired.output
    assert games.read_bytes().splitlines(keepends=True) == good  # no complete game lost
    aside = (tmp_path / "out" / "games.damaged.jsonl").read_bytes().splitlines()
    assert len(aside) == len(expected) + 1

    clean = arena("standings", str(tmp_path / "out"))
    assert clean.exit_code == 0 and "warning" not in clean.output


def test_a_whole_last_game_without_its_newline_is_kept_by_a_run(tmp_path: Path, here: Path) -> None:
    """A power cut can leave the last game's line whole but without its newline: ``arena
    standings`` leaves it unread (a running league may be writing it), ``arena run`` (which
    holds the folder) ends the line and keeps the game instead of playing it again."""
    assert run(tmp_path, league()).exit_code == 0
    games = tmp_path / "out" / "games.jsonl"
    whole = games.read_bytes()
    stored = whole.count(b"\n")
    games.write_bytes(whole[:-1])

    shown = arena("standings", str(tmp_path / "out"), "--format", "json")
    assert shown.exit_code == 0 and "warning" not in shown.stderr, shown.output
    assert json.loads(shown.stdout)["games"] == stored - 1

    kept = run(tmp_path, league())
    assert kept.exit_code == 0, kept.output
    assert "warning" not in kept.output
    assert f"0 games played, {stored} already stored" in kept.output
    assert games.read_bytes() == whole
    assert not (tmp_path / "out" / "games.damaged.jsonl").exists()


def test_a_whole_last_line_repeating_a_game_is_still_moved_aside(
    tmp_path: Path, here: Path
) -> None:
    assert run(tmp_path, league()).exit_code == 0
    games = tmp_path / "out" / "games.jsonl"
    whole = games.read_bytes()
    games.write_bytes(whole + whole.splitlines()[0])

    repaired = run(tmp_path, league())
    assert repaired.exit_code == 0, repaired.output
    assert "a second copy of game" in repaired.output
    assert games.read_bytes() == whole
    damaged = (tmp_path / "out" / "games.damaged.jsonl").read_bytes()
    assert damaged == whole.splitlines(keepends=True)[0]


# ---------------------------------------------------------------- 4: games not of the league


def test_a_folder_without_its_league_file_refuses_games_of_another_seed(
    tmp_path: Path, here: Path
) -> None:
    """Without ``league.toml`` the games themselves say which league they are of: a changed
    seed is refused as it is with the file, and the folder is left as it was."""
    assert run(tmp_path, league()).exit_code == 0
    (tmp_path / "out" / "league.toml").unlink()
    before = (tmp_path / "out" / "games.jsonl").read_bytes()
    refused = run(tmp_path, league().replace("seed = 5", "seed = 6"))
    one_error_line(
        refused,
        "holds games of a different league (it has no league.toml",
        "12 of its 12 games were not dealt from seed 6",
        "use --fresh to discard them or --out to write elsewhere",
    )
    assert (tmp_path / "out" / "games.jsonl").read_bytes() == before
    assert not (tmp_path / "out" / "games.damaged.jsonl").exists()
    again = run(tmp_path, league())  # the league the games are of
    assert again.exit_code == 0, again.output
    assert "0 games played, 12 already stored" in again.output


def _edit_seating(games: Path, how: str) -> bytes:
    """Edit the seating of game t0-b0-r0 (tables: a-b 0, a-c 1, b-c 2); return its line."""
    lines = games.read_bytes().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if json.loads(line)["id"] == "t0-b0-r0")
    record = json.loads(lines.pop(at))
    if how == "reversed":
        record["seating"].reverse()
    else:  # the seats of game t2-b0-r0, on the last line: it claims table b-c's number
        record["seating"] = ["b", "c"]
        at = len(lines)
    edited = json.dumps(record).encode() + b"\n"
    lines.insert(at, edited)
    games.write_bytes(b"".join(lines))
    return edited


@pytest.mark.parametrize("how", ["reversed", "another table's"])
def test_a_stored_game_that_is_not_the_leagues_is_set_aside_and_played_once(
    tmp_path: Path, here: Path, how: str
) -> None:
    """A stored game whose id the league gives to another game is moved to
    games.damaged.jsonl with a warning and its game is played: the next run has nothing to
    do, and every id is in games.jsonl once."""
    assert run(tmp_path, league()).exit_code == 0
    games = tmp_path / "out" / "games.jsonl"
    edited = _edit_seating(games, how)
    first = run(tmp_path, league())
    assert first.exit_code == 0, first.output
    warnings = [line for line in first.output.splitlines() if "warning" in line]
    assert len(warnings) == 1, first.output
    assert "game t0-b0-r0 is not the league's game of that id (seating " in warnings[0]
    assert "moved to games.damaged.jsonl" in warnings[0]
    assert "1 game played, 11 already stored" in first.output
    assert (tmp_path / "out" / "games.damaged.jsonl").read_bytes() == edited
    ids = [record["id"] for record in lines(tmp_path / "out")]
    assert len(ids) == len(set(ids)) == 12
    replayed = next(r for r in lines(tmp_path / "out") if r["id"] == "t0-b0-r0")
    assert replayed["seating"] == ["a", "b"]
    standings = rated(tmp_path / "out")
    assert standings["games"] == 12
    assert not any("not rated" in note for note in standings.get("notes", []))

    second = run(tmp_path, league())
    assert second.exit_code == 0, second.output
    assert "0 games played, 12 already stored" in second.output
    assert "warning" not in second.output


RULES_EDITS: list[dict[str, Any]] = [
    {"engine": "space-five"},
    {"engine_version": "0"},
    {"options": {"pile": 9}},
    {"options": {}},
]


def _edit_game(games: Path, game_id: str, change: dict[str, Any]) -> bytes:
    """Apply ``change`` to the stored line of ``game_id``; return the edited line."""
    lines = games.read_bytes().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if json.loads(line)["id"] == game_id)
    lines[at] = json.dumps(json.loads(lines[at]) | change).encode() + b"\n"
    games.write_bytes(b"".join(lines))
    return lines[at]


@pytest.mark.parametrize("change", RULES_EDITS, ids=lambda change: json.dumps(change))
def test_a_stored_game_played_by_other_rules_is_not_rated_and_is_set_aside(
    tmp_path: Path, here: Path, change: dict[str, Any]
) -> None:
    """A stored game of another engine, engine version or options than the league's is not
    the league's game: the standings do not rate it (a note counts it), and a run moves it
    to games.damaged.jsonl with a warning naming what differs and plays the league's game."""
    assert run(tmp_path, league()).exit_code == 0
    edited = _edit_game(tmp_path / "out" / "games.jsonl", "t0-b0-r0", change)
    standings = rated(tmp_path / "out")
    assert standings["games"] == 11
    assert any("1 stored game is not part of the league" in n for n in standings["notes"])

    first = run(tmp_path, league())
    assert first.exit_code == 0, first.output
    warnings = [line for line in first.output.splitlines() if "warning" in line]
    assert len(warnings) == 1, first.output
    key, value = next(iter(change.items()))
    said = f"game t0-b0-r0 is not the league's game of that id ({key} {json.dumps(value)}, "
    assert said in warnings[0]
    assert "1 game played, 11 already stored" in first.output
    assert (tmp_path / "out" / "games.damaged.jsonl").read_bytes() == edited
    assert rated(tmp_path / "out")["games"] == 12
