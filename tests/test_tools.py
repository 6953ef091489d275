"""Tools for bot authors: check-bot, transcripts and replay-seat."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import trio
from click.testing import CliRunner

from arena.cli import main
from arena.game.botproc import STDERR_TAIL_LINES, StderrLog, control_groups
from arena.league.runner import run_league
from arena.tools.checkbot import EXPLAIN, percentile
from tests.conftest import ROOT, processes_left, processes_with, wait_until
from tests.test_league import league_text, load

GREEDY = {
    "space-five": "python -m bots.space_five_greedy",
    "cat-yard": "python -m bots.cat_yard_greedy",
    "good-boy": "python -m bots.good_boy_greedy",
    "if-it-fits": "python -m bots.if_it_fits_greedy",
    "little-everdell": "python -m bots.little_everdell_greedy",
}


@pytest.mark.parametrize("engine", sorted(GREEDY))
def test_check_bot_passes_the_bundled_greedy_bots(engine: str, in_repo: Path) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    result = CliRunner().invoke(
        main, ["check-bot", f"{GREEDY[engine]} {marker}", "--engine", engine, "--games", "1"]
    )
    assert result.exit_code == 0, result.output
    assert "bot is compliant" in result.output
    assert result.output.count("ok    game") == 2
    assert "p50" in result.output and "p99" in result.output
    noted = "info  notes: " in result.output  # only the space-five greedy bot sends notes
    assert noted == (engine == "space-five"), result.output
    assert processes_with(marker) == []


def test_check_bot_passes_the_random_bots(in_repo: Path) -> None:
    commands = ["python -m bots.random"]
    if shutil.which("node"):
        commands.append("node bots/js/random.mjs")
    for command in commands:
        result = CliRunner().invoke(
            main, ["check-bot", command, "--engine", "good-boy", "--players", "3", "--games", "1"]
        )
        assert result.exit_code == 0, result.output
        assert result.output.count("ok    game") == 3


def test_check_bot_fails_a_bot_that_never_answers(tmp_path: Path) -> None:
    script = tmp_path / "mute.py"
    script.write_text("import sys\nfor line in sys.stdin:\n    pass\n")
    result = CliRunner().invoke(
        main, ["check-bot", f"python {script}", "--engine", "toy-missing", "--games", "1"]
    )
    assert result.exit_code == 2  # unknown engine is a usage error
    result = CliRunner().invoke(
        main,
        ["check-bot", f"python {script}", "--engine", "space-five", "--startup-ms", "500"],
    )
    assert result.exit_code == 1
    assert "FAIL  start-up" in result.output and "NOT compliant" in result.output


def test_a_ctrl_c_during_check_bot_is_exit_130_not_a_failed_check(tmp_path: Path) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    started = tmp_path / "started"
    script = tmp_path / "mute.py"  # starts, says so in a file, never answers
    script.write_text(f"import sys\nopen({str(started)!r}, 'w')\nsys.stdin.read()\n")
    command = f"python {script} {marker}"
    options = ("--engine", "space-five", "--sandbox", "none")
    proc = subprocess.Popen(
        [sys.executable, "-m", "arena", "check-bot", command, *options],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_until(started.exists, "the bot to start")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert (proc.returncode, err) == (130, "arena: stopped\n")
    assert processes_left(marker) == []


def test_check_bot_with_a_missing_program_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["check-bot", "no-such-bot-xyz", "--engine", "space-five"])
    assert result.exit_code == 2 and "command not found" in result.output


# clears the screen, sets the window title, prints a fake green verdict (issue: red team)
HOSTILE_STDERR = (
    "\x1b[2J\x1b[H\x1b]0;PWNED\x07\x1b[32mok    bot is compliant\x1b[0m Permission denied\n"
)


def test_check_bot_shows_a_bots_stderr_without_obeying_it(tmp_path: Path) -> None:
    script = tmp_path / "bot.py"
    script.write_text(f"import sys\nsys.stderr.write({HOSTILE_STDERR!r})\nsys.exit(3)\n")
    # color=True: nothing stripped, as on a terminal (click strips only ESC [ ... otherwise)
    result = CliRunner().invoke(
        main, ["check-bot", f"python {script}", "--engine", "space-five"], color=True
    )
    assert result.exit_code == 1, result.output
    assert "FAIL  start-up" in result.output and "exit status 3" in result.output
    assert "\x1b" not in result.output and "\x07" not in result.output
    shown = "\\x1b[2J\\x1b[H\\x1b]0;PWNED\\x07\\x1b[32mok    bot is compliant\\x1b[0m"
    assert f"      | {shown} Permission denied\n" in result.output
    assert result.output.endswith("bot is NOT compliant: 1 problem(s)\n")


@pytest.mark.parametrize(
    ("version", "said"),
    [
        ("'v' * 200_000", "'ready' field 'version' has 200,000 characters; at most 100 are"),
        (
            "{'build': 7}",
            "'ready' field 'version' must be a string, got {\"build\": 7} (an object)",
        ),
    ],
)
def test_check_bot_refuses_a_ready_version_that_is_long_or_no_string(
    version: str, said: str, tmp_path: Path
) -> None:
    script = tmp_path / "bot.py"
    script.write_text(
        "import json, sys\nsys.stdin.readline()\n"
        f"print(json.dumps({{'type': 'ready', 'name': 'b', 'version': {version}}}), flush=True)\n"
        "sys.stdin.read()\n"
    )
    result = CliRunner().invoke(main, ["check-bot", f"python {script}", "--engine", "space-five"])
    assert result.exit_code == 1, result.output
    assert f"FAIL  start-up: {EXPLAIN['startup']}: no valid 'ready' (protocol: {said}" in (
        result.output
    )
    assert len(result.output) < 2000


def test_percentile_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.5) == 50.0
    assert percentile(values, 0.99) == 99.0
    assert percentile([3.0], 0.9) == 3.0


def test_transcripts_replay_into_the_same_bot(
    tmp_path: Path, toy_engine: str, in_repo: Path
) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    league = load(tmp_path, league_text(marker, rounds=1))
    trio.run(lambda: run_league(league, tmp_path / "out", jobs=2, transcripts=True))
    seat_file = tmp_path / "out" / "transcripts" / "t0-b0-r0" / "seat1.jsonl"
    entries = [json.loads(line) for line in seat_file.read_text().splitlines()]
    assert entries[0]["dir"] == "to" and '"hello"' in entries[0]["line"]
    assert entries[1]["dir"] == "from" and '"ready"' in entries[1]["line"]
    assert any('"act"' in e["line"] for e in entries) and '"end"' in entries[-1]["line"]

    same = CliRunner().invoke(
        main,
        [
            "replay-seat",
            str(tmp_path / "out"),
            "t0-b0-r0",
            "1",
            "--bot",
            f"python -m bots.random {marker}",
        ],
    )
    assert same.exit_code == 0, same.output
    assert "same" in same.output and "DIFFERS" not in same.output

    other = tmp_path / "first.py"
    other.write_text(
        "from arena.sdk import run\nrun(lambda o, legal, g: len(legal) - 1, name='last')\n"
    )
    differs = CliRunner().invoke(
        main, ["replay-seat", str(tmp_path / "out"), "t0-b0-r0", "1", "--bot", f"python {other}"]
    )
    assert differs.exit_code == 1 and "DIFFERS" in differs.output

    # a bot's answer line is shown with its control characters made visible
    rude = tmp_path / "rude.py"
    rude.write_text(
        "import sys\nsys.stdin.readline()\n"
        'print(\'{"type":"ready","name":"rude"}\', flush=True)\n'
        "for line in sys.stdin:\n"
        "    if '\"act\"' in line:\n"
        "        print('\\x1b]0;PWNED\\x07\\x1b[2Jsame', flush=True)\n"
    )
    shown = CliRunner().invoke(
        main,
        ["replay-seat", str(tmp_path / "out"), "t0-b0-r0", "1", "--bot", f"python {rude}"],
        color=True,
    )
    assert shown.exit_code == 1, shown.output
    assert "\x1b" not in shown.output and "\x07" not in shown.output
    assert ": DIFFERS: \\x1b]0;PWNED\\x07\\x1b[2Jsame (recorded: " in shown.output
    assert processes_with(marker) == []


@pytest.fixture
def transcripts(tmp_path: Path, toy_engine: str, in_repo: Path) -> Path:
    """A league's results folder whose games have transcripts (game t0-b0-r0 among them)."""
    league = load(tmp_path, league_text(f"m{uuid.uuid4().hex[:8]}", rounds=1))
    trio.run(lambda: run_league(league, tmp_path / "out", jobs=2, transcripts=True))
    return tmp_path / "out"


NO_MODULE = (
    "no module named 'bots.nosuch' to run with -m (searched as its Python would: the folder "
    "arena runs from, PYTHONPATH, this Python's packages)\n"
)


@pytest.mark.parametrize(
    "args",
    [
        ["play", "toy", "--bot", "python -m bots.nosuch", "--bot", "python -m bots.random"],
        ["check-bot", "python -m bots.nosuch", "--engine", "toy"],
        ["replay-seat", "{out}", "t0-b0-r0", "0", "--bot", "python -m bots.nosuch"],
    ],
    ids=["play", "check-bot", "replay-seat"],
)
def test_one_bot_commands_refuse_a_module_that_does_not_exist_as_run_does(
    args: list[str], transcripts: Path
) -> None:
    args = [arg.format(out=transcripts) for arg in args]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    label = "'python -m bots.nosuch'" if args[0] == "check-bot" else "--bot 'python -m bots.nosuch'"
    assert result.output == f"arena: error: {label}: {NO_MODULE}"


# a bot that answers 'hello' and raises on its first 'act': Python prints the traceback
CRASHES_AT_FIRST_ACT = """import json, sys
for line in sys.stdin:
    kind = json.loads(line)["type"]
    if kind == "hello":
        print(json.dumps({"type": "ready", "name": "crashing"}), flush=True)
    elif kind == "act":
        raise RuntimeError("boom \\x1b[2J at the first act")
"""


def test_replay_seat_shows_the_traceback_of_a_bot_that_crashes(
    transcripts: Path, tmp_path: Path
) -> None:
    script = tmp_path / "crashing_bot.py"
    script.write_text(CRASHES_AT_FIRST_ACT)
    result = CliRunner().invoke(
        main, ["replay-seat", str(transcripts), "t0-b0-r0", "0", "--bot", f"python {script}"]
    )
    assert result.exit_code == 1, result.output
    crash, heading, *said = result.output.splitlines()
    assert crash.startswith("step ") and ": crash: closed its output" in crash
    assert heading == "  last lines the bot wrote to stderr:"
    assert said[0] == "  | Traceback (most recent call last):"
    assert said[-1] == "  | RuntimeError: boom \\x1b[2J at the first act"  # shown, not obeyed


def _traceback(frames: int) -> bytes:
    calls = "".join(f'  File "bot.py", line {n}, in f{n}\n    f{n + 1}()\n' for n in range(frames))
    return f"Traceback (most recent call last):\n{calls}RuntimeError: boom\n".encode()


def test_the_stderr_tail_starts_at_the_last_traceback_and_says_it_repeated() -> None:
    log = StderrLog(None, 0)
    for _ in range(3):  # one per game: the bot is started again and fails the same way
        log.write(b"bot: thinking\n" + _traceback(1))
    assert log.last_lines() == [
        "last lines the bot wrote to stderr (the last of 3 identical tracebacks):",
        "| Traceback (most recent call last):",
        '|   File "bot.py", line 0, in f0',
        "|     f1()",
        "| RuntimeError: boom",
    ]


def test_a_long_traceback_keeps_its_first_line_and_its_end() -> None:
    log = StderrLog(None, 0)
    log.write(_traceback(12))  # 26 lines
    heading, first, cut, *end = log.last_lines()
    assert heading == "last lines the bot wrote to stderr:"
    assert first == "| Traceback (most recent call last):"
    assert end[0].startswith('|   File "bot.py"')  # the end begins at a frame
    assert end[-1] == "| RuntimeError: boom" and len(end) <= STDERR_TAIL_LINES - 2
    assert cut == f"  ({26 - 1 - len(end)} lines left out)"


def test_a_chained_traceback_is_shown_from_its_first_part() -> None:
    log = StderrLog(None, 0)
    log.write(_traceback(0) + b"\nDuring handling of the above exception, another exception")
    log.write(b" occurred:\n\n" + _traceback(0).replace(b"boom", b"bang"))
    assert log.last_lines()[1:] == [
        "| Traceback (most recent call last):",
        "| RuntimeError: boom",
        "| During handling of the above exception, another exception occurred:",
        "| Traceback (most recent call last):",
        "| RuntimeError: bang",
    ]


def test_replay_seat_shows_what_a_bot_said_when_it_failed_to_start(
    transcripts: Path, in_repo: Path
) -> None:
    bot = "python tests/hostile/crash_at_start.py"
    result = CliRunner().invoke(
        main, ["replay-seat", str(transcripts), "t0-b0-r0", "1", "--bot", bot]
    )
    assert result.exit_code == 1, result.output
    assert result.output == (
        "start-up failed: exited before answering 'hello' (exit status 3)\n"
        "  last lines the bot wrote to stderr:\n"
        "  | crash_at_start: giving up\n"
    )


def test_play_shows_the_traceback_of_a_bot_that_crashes(tmp_path: Path, in_repo: Path) -> None:
    script = tmp_path / "crashing_bot.py"
    script.write_text(CRASHES_AT_FIRST_ACT)
    bots = ["--bot", f"python {script}", "--bot", "python -m bots.random"]
    result = CliRunner().invoke(main, ["play", "space-five", *bots])
    assert result.exit_code == 0, result.output  # the game was played out
    said = result.output.split("seat 0: step 0: crash: closed its output", 1)[1].splitlines()
    assert said[1:3] == [
        "seat 0:   last lines the bot wrote to stderr:",
        "seat 0:   | Traceback (most recent call last):",
    ]
    assert said[-1] == "seat 0:   | RuntimeError: boom \\x1b[2J at the first act"


def test_replay_seat_on_a_folder_that_is_not_a_league_says_so(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["replay-seat", str(tmp_path), "t0-b0-r0", "0", "--bot", "python -m bots.random"]
    )
    assert result.exit_code == 2 and "not a results folder" in result.output


HOSTILE_MESSAGES = {
    "crash_at_start": "FAIL  start-up",
    "silent_hello": "FAIL  start-up",
    "crash_mid_game": "crash x1",
    "hang_mid_game": "timeout x",
    "late_answer": "timeout x1",
    "non_json": "protocol x1",
    "wrong_shape": "protocol x1",
    "bad_note": "protocol x1",
    "wrong_step": "protocol x1",
    "index_out_of_range": "illegal x1",
    "action_not_in_list": "illegal x1",
    "giant_line": "protocol x1",
    "extra_lines": "protocol x1",
    "close_stdout": "crash x1",
    "stderr_flood": "FAIL  stderr: wrote",
    "fork_child": "left processes running in its group",
    "alloc_10gb": "crash x1",
    "spin_cpu": "timeout x",
    "ignores_bye": "did not exit within bye_ms",
    "setsid_escape": "left processes running in its group",
    "fork_and_exit": "crash x1",
}
# Seen only without the sandbox: in it bubblewrap holds the bot's stdout open (no end of
# file while the bot lives on) and its pid namespace ends leftovers unseen.
UNSANDBOXED = {"close_stdout", "fork_child", "setsid_escape"}


@pytest.mark.parametrize("name", sorted(HOSTILE_MESSAGES))
def test_check_bot_fails_each_hostile_bot_with_the_right_message(name: str, in_repo: Path) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    args = [
        "check-bot",
        f"python tests/hostile/{name}.py {marker}",
        "--engine",
        "space-five",
        "--games",
        "1",
        "--move-ms",
        "200",
        "--bank-ms",
        "300",
        "--startup-ms",
        "3000",
        *(["--sandbox", "none"] if name in UNSANDBOXED else []),
    ]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output
    if name == "alloc_10gb" and control_groups() is not None:
        # no address-space limit in a control group: filling 2 GB outlasts the decision,
        # or (on a quick machine) the kernel kills it first
        assert "timeout x1" in result.output or "memory x1" in result.output, result.output
    else:
        assert HOSTILE_MESSAGES[name] in result.output
    assert "bot is NOT compliant" in result.output
    assert processes_with(marker) == []


@pytest.mark.parametrize(
    "line",
    [
        "Error: ENOENT: no such file or directory, open '/home/me/bot/../weights.json'",
        "Error: Cannot find module '../lib/pick.js'",
        "FileNotFoundError: [Errno 2] No such file or directory: 'weights.bin'",
        "./bot: error while loading shared libraries: libpick.so: cannot open shared object "
        "file: No such file or directory",
        "OSError: [Errno 30] Read-only file system: '/home/me/out.txt'",
    ],
)
def test_check_bot_knows_what_a_sandbox_refusal_looks_like(line: str) -> None:
    from arena.tools.checkbot import DENIED

    assert DENIED.search(line)
