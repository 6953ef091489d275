"""A submission from stored upload to verdict: unpack, build (optional), check, judge.

The check is the arena's own ``check-bot`` (start-up, protocol, clock, every seat against
the random bot), run in the ladder's sandbox. A ``bot.toml`` in the bot's folder may give
its ``cmd`` and a ``build`` command (for compiled languages); the build runs in the
sandbox too, on a copy of the folder in the sandbox's private ``/tmp``, and what it leaves
there comes back as an archive that is unpacked under the same rules as an upload.
"""

from __future__ import annotations

import io
import shlex
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path

import trio

from arena import config as league_config
from arena.errors import ConfigError
from arena.game import sandbox
from arena.game.environment import bot_environment
from arena.ladder.settings import Ladder
from arena.ladder.uploads import BOTS, UnpackLimits, UploadRejected, root_of, unpack, untar_stream
from arena.tools.checkbot import check_bot

MANIFEST = "bot.toml"
MAX_LOG = 64 << 10  # characters of a check's log kept for its owner


@dataclass(frozen=True)
class Verdict:
    accepted: bool
    reason: str
    log: str
    cmd: str = ""  # the command the accepted version runs with (in its folder)
    folder: str = ""


class Rejected(Exception):
    """A submission that cannot be accepted; the message is the reason shown to its owner."""


def manifest_of(root: Path) -> dict[str, str]:
    path = root / MANIFEST
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise Rejected(f"{MANIFEST}: cannot read it: {exc}") from None
    found: dict[str, str] = {}
    for key, value in data.items():
        if key not in ("cmd", "build", "name"):
            raise Rejected(f"{MANIFEST}: unknown key {key!r}; valid keys: build, cmd, name")
        if not isinstance(value, str) or not value.strip():
            raise Rejected(f"{MANIFEST}: {key} must be a command (a string)")
        found[key] = value
    return found


def guess_command(root: Path) -> str:
    """The command of a folder that names none: its only Python file, or bot.py/main.py."""
    scripts = sorted(p.name for p in root.iterdir() if p.suffix == ".py" and p.is_file())
    for name in ("bot.py", "main.py"):
        if name in scripts:
            return f"python {name}"
    if len(scripts) == 1:
        return f"python {shlex.quote(scripts[0])}"
    raise Rejected(
        'no command: give --cmd (or the form\'s command), or a bot.toml with cmd = "..."'
    )


async def judge(folder: Path, ladder: Ladder, digest: str, filename: str, cmd: str) -> Verdict:
    """Unpack, build and check upload ``digest``; never raises for the bot's faults."""
    lines: list[str] = []
    try:
        settings = ladder.settings
        limits = UnpackLimits(settings.max_files, settings.max_unpacked_mb << 20)
        try:
            root = unpack(folder, digest, filename, limits)
        except UploadRejected as exc:
            raise Rejected(str(exc)) from None
        lines.append(f"info  unpacked into {root.relative_to(folder)}")
        manifest = manifest_of(root)
        if "build" in manifest:
            root = await build(folder, ladder, digest, root, manifest["build"], lines)
        command = cmd or manifest.get("cmd") or guess_command(root)
        try:
            argv = league_config.parse_command(command, base=root)
        except ConfigError as exc:
            raise Rejected(f"command {command!r}: {exc}") from None
        if not all(
            Path(arg).resolve().is_relative_to(root.resolve())
            for arg in argv[1:]
            if arg.startswith("/")
        ):
            raise Rejected(f"command {command!r} names files outside the bot's folder")
        league = ladder.league
        engine = league_config.load_engine(league.engine)
        players = league.players[0]
        options = league_config.check_game(engine, [players], dict(league.options))
        report = await check_bot(
            shlex.join(argv),
            engine,
            options,
            players=players,
            games_per_seat=settings.check_games,
            seed=league.seed,
            limits=league.limits,
            say=lambda _line: None,
            sandbox=league.sandbox,
        )
        lines += report.lines
        if not report.compliant:
            raise Rejected(f"arena check-bot: {report.problems[0]}")
        return Verdict(True, "", _log(lines), command, str(root))
    except Rejected as exc:
        lines.append(f"REJECTED  {exc}")
        return Verdict(False, str(exc), _log(lines))


def _log(lines: list[str]) -> str:
    text = "\n".join(lines)
    return text if len(text) <= MAX_LOG else text[:MAX_LOG] + "\n... (cut)"


_BUILD_SCRIPT = (
    'set -e; cp -r "$(dirname "$1")" /tmp/src; cd /tmp/src; sh -c "$2" 1>&2; tar -cf - .'
)


async def build(
    folder: Path, ladder: Ladder, digest: str, root: Path, command: str, lines: list[str]
) -> Path:
    """Run ``command`` on a copy of ``root`` in the sandbox; the folder it leaves is the
    bot's (``bots/<digest>.built``)."""
    built = folder / BOTS / f"{digest}.built"
    if built.is_dir():
        lines.append("info  build: done before")
        return root_of(built)
    argv = ["sh", "-c", _BUILD_SCRIPT, "build", str(root / "bot.toml"), command]
    limits = ladder.league.limits
    mode = sandbox.resolve(ladder.league.sandbox)
    lines.append(f"info  build: {command} (sandbox: {'bubblewrap' if mode == 'bwrap' else 'none'})")
    if mode != "bwrap":
        raise Rejected("a build runs only in the sandbox (bubblewrap), which is not in use here")
    with sandbox.refusals() as refused:
        wrapped = sandbox.wrap(argv, disk_mb=limits.disk_mb, packages=(), refused=refused)
        with trio.move_on_after(ladder.settings.build_s) as timer:
            done = await trio.run_process(
                wrapped,
                capture_stdout=True,
                capture_stderr=True,
                check=False,
                env=bot_environment(sandbox.HOME),
                pass_fds=() if refused is None else (refused,),
                stdin=subprocess.DEVNULL,
            )
    if timer.cancelled_caught:
        raise Rejected(f"the build took longer than {ladder.settings.build_s} s")
    said = done.stderr.decode("utf-8", "replace").splitlines()[-40:]
    lines += [f"      {line}" for line in said]
    if done.returncode != 0:
        raise Rejected(f"the build failed (exit status {done.returncode})")
    settings = ladder.settings
    limits_ = UnpackLimits(settings.max_files * 10, settings.max_unpacked_mb << 20)
    work = folder / BOTS / f".unpacking-{digest}.built"
    work.mkdir(parents=True)
    try:
        untar_stream(work, io.BytesIO(done.stdout), limits_)
    except UploadRejected as exc:
        raise Rejected(f"the build's output: {exc}") from None
    work.rename(built)
    lines.append("ok    build")
    return root_of(built)
