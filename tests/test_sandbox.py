"""The bubblewrap sandbox (the default where it works): a sandboxed bot plays normally but
sees only the system, its own folder and a private /tmp, has no network, writes nowhere
else, and runs as a user of its own when the referee is root. Skipped where bubblewrap cannot create
its namespaces; the choice of ``sandbox = "auto"`` is tested everywhere."""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import trio
from click.testing import CliRunner

from arena import config, protocol
from arena.cli import main
from arena.errors import ConfigError
from arena.game import sandbox, seccomp
from arena.game.botproc import StderrLog
from arena.game.hosting import hosting
from arena.league.reading import read_games
from arena.league.runner import run_league
from tests.conftest import ROOT, needs_bwrap, processes_left

pytestmark = pytest.mark.usefixtures("toy_engine", "in_repo")
PROBE = ROOT / "tests" / "hostile" / "sandbox_probe.py"
OTHER_BOT = "from arena.sdk import run\nrun(lambda o, legal, g: 0, name='other')\n"


@needs_bwrap
def test_sandboxed_bot_sees_only_its_own(tmp_path: Path) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    other = tmp_path / "other-bot" / "bot.py"  # another competitor's code
    other.parent.mkdir()
    other.write_text(OTHER_BOT)
    # the results folder under the referee's working directory, as `arena run` makes it
    out = ROOT / "results" / f"test-sandbox-{marker}"
    outside = ROOT / "tests" / f"escaped-{marker}.txt"
    secret_reads = [
        "/etc/shadow",
        "/etc/passwd",
        str(other),
        str(out / "league.toml"),
        str(out / "logs" / "other.log"),
        str(ROOT / "pyproject.toml"),
        str(Path.home() / ".bashrc"),
    ]
    probe_args = [f"--write={outside}"]
    probe_args += [f"--read={path}" for path in secret_reads]
    probe_args += [f"--list={path}" for path in (ROOT, Path.home(), "/", tmp_path)]
    path = tmp_path / "league.toml"
    path.write_text(
        'name = "sb"\nengine = "toy"\nplayers = 2\n'  # no sandbox key: "auto" is the default
        "[limits]\nstartup_ms = 10000\n"
        f'[[bots]]\nname = "probe"\ncmd = "python {PROBE} {" ".join(probe_args)} {marker}"\n'
        f'[[bots]]\nname = "other"\ncmd = "python {other} {marker}"\n'
    )
    league = config.load(path)
    try:
        outcome = trio.run(lambda: run_league(league, out, jobs=1))
        log = (out / "logs" / "probe.log").read_text()
        records = read_games(out)
    finally:
        escaped = outside.exists()
        outside.unlink(missing_ok=True)
        shutil.rmtree(out, ignore_errors=True)
    assert outcome.played == outcome.scheduled == 2
    assert all(not s.verdicts for r in records for s in r.seats)
    assert "probe: network refused" in log, log
    assert f"probe: outside write refused: {outside}" in log, log
    assert not escaped
    for secret in secret_reads:
        assert f"probe: read refused: {secret}:" in log, log
    assert "read ok" not in log
    listed = dict(re.findall(r"probe: list ok: (\S+): (.*)", log))
    # the referee's folder holds only the packages a Python bot imports (and the probe's
    # own folder) and the interpreter's environment when it lives there (the Quick start's
    # .venv): no results, no project files; the home folder shows only the way to the
    # interpreter, when it lives there; the test's folder (the other bot's) is not there
    packages = {"arena", "bots", "engines", "tests"}
    assert set(eval(listed[str(ROOT)])) <= packages | _ways_to_the_interpreter(ROOT), log
    home = listed.get(str(Path.home()))
    assert home is None or set(eval(home)) <= _ways_to_the_interpreter(Path.home()), log
    assert not {"home", "var", "opt", "srv", "mnt"} & set(eval(listed["/"])), log
    assert f"probe: list refused: {tmp_path}:" in log, log
    inside = re.search(r"inside write ok: uid=(\d+) cwd=(\S+) home=(\S+)", log)
    assert inside is not None, log
    assert inside.group(2) == inside.group(3) == "/tmp"
    if os.geteuid() == 0:
        assert int(inside.group(1)) in sandbox.BOT_IDS
    assert processes_left(marker, tmp_path) == []


@needs_bwrap
@pytest.mark.parametrize("place", [".", "leagues"])
def test_the_results_folder_and_league_file_in_a_bots_own_folder_stay_hidden(
    tmp_path: Path, place: str
) -> None:
    """A bot's folder is shown whole: with the league file and the results beside the bot's
    script (writing-a-bot.md's layout), or the league file in a folder of its own there,
    the results folder is shown empty and the league file (its seed) cannot be read."""
    marker = f"m{uuid.uuid4().hex[:8]}"
    folder = tmp_path / "my-bot"
    folder.mkdir()
    for name in ("sandbox_probe.py", "_common.py"):
        shutil.copy(PROBE.parent / name, folder / name)
    path = folder / place / "league.toml"
    path.parent.mkdir(exist_ok=True)
    out = folder / "results" / "mine"
    reads = [f"--read={out / 'league.toml'}", f"--read={out / 'games.jsonl'}", f"--read={path}"]
    lists = [f"--list={folder}", f"--list={out}"]
    probes = reads + lists
    script = folder / "sandbox_probe.py"
    path.write_text(
        'name = "mine"\nengine = "toy"\nplayers = 2\nrounds = 2\nseed = 8675309\n'
        "[limits]\nstartup_ms = 10000\n"
        f'[[bots]]\nname = "probe"\ncmd = "python {script} {" ".join(probes)} {marker}"\n'
        '[[bots]]\nname = "other"\ncmd = "python -m bots.random"\n'
    )
    outcome = trio.run(lambda: run_league(config.load(path), out, jobs=1))
    log = (out / "logs" / "probe.log").read_text()
    assert outcome.played == outcome.scheduled == 4
    listed = dict(re.findall(r"probe: list ok: (\S+): (.*)", log))
    assert "sandbox_probe.py" in listed[str(folder)], log  # its own folder is in view
    assert listed[str(out)] == "[]", log  # the results are not
    for read in reads:
        assert f"probe: read refused: {read.split('=', 1)[1]}:" in log, log
    assert processes_left(marker, tmp_path) == []


@needs_bwrap
def test_a_league_file_stays_hidden_in_a_bots_folder_named_through_a_link(
    tmp_path: Path,
) -> None:
    """The bot's folder is shown at the path its command names, here through a symbolic
    link; the league file, named by its real path, is covered at the path the bot sees."""
    real = tmp_path / "real"
    real.mkdir()
    league = real / "league.toml"
    league.write_text("seed = 8675309\n")
    link = tmp_path / "link"
    link.symlink_to(real)
    look = link / "look.py"
    look.write_text(
        "import os, sys\n"
        "folder = os.path.dirname(sys.argv[0])\n"
        "print(sorted(os.listdir(folder)))\n"
        "try:\n"
        "    print(open(os.path.join(folder, 'league.toml')).read())\n"
        "except OSError as exc:\n"
        "    print('refused', exc.strerror)\n"
    )
    command = sandbox.wrap(
        [sys.executable, str(look)], disk_mb=1, packages=(), hidden=(str(league),)
    )
    seen = subprocess.run(command, capture_output=True, text=True, timeout=30, check=False)
    assert seen.returncode == 0, seen.stderr
    assert seen.stdout.splitlines() == ["['league.toml', 'look.py']", "refused Permission denied"]


@needs_bwrap
def test_check_bot_reports_what_the_sandbox_refused(tmp_path: Path) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    command = f"python {PROBE} --read=/etc/shadow --write={ROOT / 'x'} {marker}"
    result = CliRunner().invoke(
        main, ["check-bot", command, "--engine", "toy", "--games", "1", "--startup-ms", "10000"]
    )
    assert result.exit_code == 0, result.output  # it played well: still compliant
    assert "info  sandbox: bubblewrap" in result.output
    assert "look like the sandbox refused something" in result.output
    assert "read refused: /etc/shadow" in result.output
    assert "outside write refused" in result.output
    assert processes_left(marker) == []


def inside(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """``argv`` run in the sandbox a bot gets (without its keeper); its output as text."""
    with sandbox.refusals() as refused:
        return subprocess.run(
            sandbox.wrap(argv, disk_mb=1, packages=(), refused=refused),
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
            pass_fds=() if refused is None else (refused,),
        )


def root_bot_league(tmp_path: Path, probe: Path, marker: str) -> tuple[str, Path]:
    """A two-bot league file of the toy engine: ``probe`` (a script run with this Python)
    against the random bot; the file's text and the results folder."""
    text = (
        'name = "root"\nengine = "toy"\nplayers = 2\n'
        "[limits]\nstartup_ms = 10000\n"
        f'[[bots]]\nname = "probe"\ncmd = "python {probe} {marker}"\n'
        '[[bots]]\nname = "other"\ncmd = "python -m bots.random"\n'
    )
    return text, tmp_path / "out"


@needs_bwrap
@pytest.mark.skipif(os.geteuid() != 0, reason="only a root referee's bot keeps a capability")
def test_a_file_handle_does_not_open_the_file_system_past_the_view(tmp_path: Path) -> None:
    """A root referee's bot keeps CAP_DAC_READ_SEARCH, to read what is in view whatever the
    permissions; with it, open_by_handle_at would open the root of the file system behind
    /usr by its inode, and the whole host with it. The sandbox's seccomp filter refuses it."""
    marker = f"m{uuid.uuid4().hex[:8]}"
    bot = ROOT / "tests" / "hostile" / "file_handle.py"
    text, out = root_bot_league(tmp_path, bot, marker)
    path = tmp_path / "league.toml"
    path.write_text(text)
    outcome = trio.run(lambda: run_league(config.load(path), out, jobs=1))
    log = (out / "logs" / "probe.log").read_text()
    assert outcome.played == outcome.scheduled == 2
    assert "handle: refused: Operation not permitted" in log, log
    assert "handle: opened" not in log, log
    assert processes_left(marker, tmp_path) == []


@needs_bwrap
@pytest.mark.skipif(os.geteuid() != 0, reason="only a root referee's bot keeps a capability")
def test_a_bot_in_a_folder_only_root_may_read_still_plays(tmp_path: Path) -> None:
    """Why the capability is kept: a bot whose folder is root's alone (0700, as /root is)
    still reads its own script under the user the sandbox gives it."""
    marker = f"m{uuid.uuid4().hex[:8]}"
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    bot = private / "bot.py"
    bot.write_text(OTHER_BOT)
    text, out = root_bot_league(tmp_path, bot, marker)
    path = tmp_path / "league.toml"
    path.write_text(text)
    outcome = trio.run(lambda: run_league(config.load(path), out, jobs=1))
    records = read_games(out)
    assert outcome.played == outcome.scheduled == 2
    assert all(not seat.verdicts for record in records for seat in record.seats), records


@needs_bwrap
@pytest.mark.skipif(os.geteuid() != 0, reason="only a root referee's bot may read root's files")
def test_private_keys_of_etc_ssl_stay_out_of_view() -> None:
    """A root referee's bot may read whatever is in view: /etc/ssl/private (root's private
    keys) must not be; the certificates and openssl.cnf are, readable by anyone."""
    look = (
        "import os, stat\n"
        "print(sorted(os.listdir('/etc/ssl')), os.path.exists('/etc/ssl/private'))\n"
        "print(oct(stat.S_IMODE(os.stat('/etc/ssl').st_mode)), len(os.listdir('/etc/ssl/certs')))"
    )
    seen = inside([sys.executable, "-c", look])
    assert seen.returncode == 0, seen.stderr
    listing, folder = seen.stdout.splitlines()
    assert listing == "['certs', 'openssl.cnf'] False"
    assert folder.split()[0] == "0o755" and int(folder.split()[1]) > 0


@needs_bwrap
def test_the_host_name_stays_out_of_view() -> None:
    seen = inside(["uname", "-n"])
    assert seen.returncode == 0, seen.stderr
    assert seen.stdout.strip() == sandbox.HOSTNAME != os.uname().nodename


@needs_bwrap
@pytest.mark.skipif(os.geteuid() != 0, reason="only a root referee gives each bot a user")
def test_a_bot_that_forks_to_its_limit_leaves_other_bots_room_to_start(tmp_path: Path) -> None:
    """Each sandboxed process of a root referee is a user of its own, so ``processes`` counts
    its own processes only: a bot whose children fill a limit of 16 does not stop the next
    process, with a limit of 8, from starting and forking (as one user for every bot, the
    kernel refused to execute it: 16 processes of its user, over its 8)."""
    marker = f"m{uuid.uuid4().hex[:8]}"
    command = (sys.executable, str(PROBE.parent / "fork_to_limit.py"), marker)
    hello = protocol.encode(protocol.hello("toy", "1", {}, {"move_ms": 1000, "bank_ms": 1000}))
    logs = {limit: tmp_path / f"forker-{limit}.log" for limit in (16, 8)}

    async def start_one_after_the_other() -> None:
        async with hosting() as host:
            for limit, log in logs.items():
                limits = config.Limits(processes=limit)
                spec = config.BotSpec("forker", command, limits, sandbox="bwrap")
                await host.start(spec, hello, StderrLog(log, 1 << 16))

    trio.run(start_one_after_the_other)
    said = [re.findall(r"forks: uid=(\d+) made=(\d+)", log.read_text()) for log in logs.values()]
    assert [made for [(_, made)] in said] == ["15", "7"], said  # each bot is one of its own
    uids = {int(uid) for [(uid, _)] in said}
    assert len(uids) == 2 and all(uid in sandbox.BOT_IDS for uid in uids), said
    assert processes_left(marker, tmp_path) == []


@needs_bwrap
@pytest.mark.skipif(shutil.which("unshare") is None, reason="unshare (util-linux) is missing")
def test_a_bot_in_a_user_namespace_cannot_make_another(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sandbox of a referee that is not root (its own user namespace): ``unshare -Ur``
    fails inside where bubblewrap has ``--disable-userns``, besides the seccomp filter."""
    if not sandbox._can_disable_userns():
        pytest.skip("this bubblewrap has no --disable-userns (older than 0.8)")
    monkeypatch.setattr(os, "geteuid", lambda: 1000)  # the sandbox of a referee that is not root
    assert inside(["true"]).returncode == 0
    nested = inside(["unshare", "-Ur", "true"])
    assert nested.returncode != 0 and "unshare failed" in nested.stderr, nested


def test_an_older_bubblewrap_is_not_asked_to_disable_user_namespaces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bubblewrap before 0.8 has no ``--disable-userns``: it still sandboxes, without it."""
    older = tmp_path / "bwrap"
    older.write_text("#!/bin/sh\necho 'usage: bwrap [OPTIONS...] [--] COMMAND [ARGS...]'\n")
    older.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    sandbox._can_disable_userns.cache_clear()
    try:
        command = sandbox.wrap(["true"], disk_mb=1, packages=())
    finally:
        sandbox._can_disable_userns.cache_clear()
    assert "--unshare-user" in command and "--disable-userns" not in command


def test_auto_falls_back_with_one_warning_where_bubblewrap_cannot_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sandbox, "unusable_reason", lambda: "bubblewrap is not installed")
    monkeypatch.setattr(sandbox, "_warned", [])
    assert sandbox.resolve("auto") == "none"
    assert sandbox.resolve("auto") == "none"
    warned = capsys.readouterr().err
    assert warned.count("warning: bubblewrap is not installed") == 1
    assert "WITHOUT the sandbox" in warned
    assert sandbox.resolve("none") == "none"
    with pytest.raises(ConfigError, match='sandbox = "bwrap": bubblewrap is not installed'):
        sandbox.resolve("bwrap")


def test_a_check_started_early_is_the_one_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """``start_check`` begins the trial run; ``unusable_reason`` reads that very run's
    answer (here a failing one) instead of starting another, and keeps it."""
    started: list[list[str]] = []

    def failing_trial(argv: list[str], **_: object) -> list[str]:
        started.append(argv)
        return [sys.executable, "-c", "import sys; sys.exit('no namespaces here')"]

    monkeypatch.setattr(sandbox, "_missing_tool", lambda: "")
    monkeypatch.setattr(sandbox, "wrap", failing_trial)
    monkeypatch.setattr(sandbox, "_trials", [])
    monkeypatch.setattr(sandbox, "_reason", [])
    sandbox.start_check()
    sandbox.start_check()  # one trial at a time
    assert len(started) == 1 and len(sandbox._trials) == 1
    said = "bubblewrap cannot create a sandbox here (no namespaces here)"
    assert sandbox.unusable_reason() == said
    assert sandbox.unusable_reason() == said
    assert len(started) == 1 and sandbox._trials == []
    sandbox.start_check()  # the answer is known: nothing more to run
    assert len(started) == 1


def test_auto_is_the_default_and_none_must_be_asked_for() -> None:
    bots = [
        {"name": "a", "cmd": "python -m bots.random"},
        {"name": "b", "cmd": "python -m bots.random"},
    ]
    league = config.parse({"engine": "toy", "bots": bots})
    assert league.sandbox == "auto" and all(bot.sandbox == "auto" for bot in league.bots)
    unconfined = config.parse({"engine": "toy", "sandbox": "none", "bots": bots})
    assert all(bot.sandbox == "none" for bot in unconfined.bots)
    with pytest.raises(ConfigError, match="must be one of auto, bwrap, none"):
        config.parse({"engine": "toy", "sandbox": "off", "bots": bots})


def test_bwrap_without_bubblewrap_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None if name == "bwrap" else "/bin/x")
    with pytest.raises(ConfigError, match="needs bubblewrap, which is not installed"):
        config.parse(
            {
                "engine": "toy",
                "sandbox": "bwrap",
                "bots": [{"name": "a", "cmd": "python -m bots.random"}],
            }
        )


@pytest.mark.parametrize(
    "cmd", ["python -m bots.random", "python -u -m bots.random", "python -um bots.random"]
)
def test_the_package_of_python_m_is_shown_however_the_flags_are_written(cmd: str) -> None:
    """The sandbox reads ``-m`` as the fingerprint does (arena.config.python_module): a bot
    started as ``python -um bots.x`` sees its package too."""
    assert str(ROOT / "bots") in sandbox.python_packages(cmd.split(), str(ROOT))


def _ways_to_the_interpreter(folder: Path) -> set[str]:
    """The entries of ``folder`` on the way to the Python installation the sandbox shows
    (its environment, the installation that environment was made from, the program), as
    written and with links resolved: none when all of it lies elsewhere."""
    paths = (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.executable)
    ways = {Path(os.path.abspath(path)) for path in paths}
    ways |= {way.resolve() for way in ways}
    below = [way.relative_to(folder) for way in ways if way.is_relative_to(folder)]
    return {part for way in below for part in way.parts[:1]}


@pytest.mark.parametrize(
    ("machine", "numbers"),
    [
        # open_by_handle_at, unshare, clone, clone3 on x86-64 and on i386
        ("x86_64", {304, 272, 56, 435, 342, 310, 120}),
        # the same on AArch64 (the generic table) and on 32-bit Arm
        ("aarch64", {265, 97, 220, 435, 371, 337, 120}),
    ],
)
def test_the_filter_knows_each_calls_number_on_each_architecture(
    machine: str, numbers: set[int]
) -> None:
    """The numbers the filter compares with: the filtered calls' on the machine and on the
    32-bit code it also runs (x86-64's x32 calls carry a high bit)."""
    code = seccomp.program(machine)
    assert code is not None
    compared = {k for op, _, _, k in struct.iter_unpack("=HBBI", code) if op == 0x15}
    assert numbers <= {k & ~0x40000000 for k in compared}


@pytest.mark.skipif(os.geteuid() != 0, reason="only a root referee's bot keeps a capability")
def test_without_a_filter_a_root_referees_bot_keeps_no_capability() -> None:
    """On a machine whose call numbers are not known here there is no filter, and then the
    capability it makes safe is not given (a bot folder only root may read does not work)."""
    assert seccomp.program("s390x") is None
    argv = sandbox.wrap(["true"], disk_mb=1, packages=(), refused=None)
    assert "--seccomp" not in argv
    assert not any("dac_read_search" in word.lower() for word in argv), argv
    with_filter = sandbox.wrap(["true"], disk_mb=1, packages=(), refused=7)
    assert with_filter[with_filter.index("--seccomp") + 1] == "7"
    assert "--ambient-caps=+dac_read_search" in with_filter


@needs_bwrap
@pytest.mark.skipif(shutil.which("unshare") is None, reason="unshare (util-linux) is missing")
def test_a_root_referees_bot_cannot_make_a_user_namespace() -> None:
    """A root referee's bot runs in no user namespace, so bubblewrap's --disable-userns
    cannot apply; the seccomp filter refuses unshare and clone with CLONE_NEWUSER (and makes
    clone3 unknown): threads, fork and subprocesses, which the C library then starts with
    clone, still work."""
    nested = inside(["unshare", "-Ur", "true"])
    assert nested.returncode != 0, nested
    assert "unshare failed: Operation not permitted" in nested.stderr, nested
    work = (
        "import os, subprocess, threading\n"
        "t = threading.Thread(target=print, args=('thread',)); t.start(); t.join()\n"
        "print('subprocess', subprocess.run(['true']).returncode)\n"
        "pid = os.fork()\n"
        "if pid == 0:\n    os._exit(7)\n"
        "print('fork', os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))\n"
    )
    ran = inside([sys.executable, "-c", work])
    assert (ran.returncode, ran.stdout) == (0, "thread\nsubprocess 0\nfork 7\n"), ran
