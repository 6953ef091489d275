"""The command line: bad input is one line and status 2; the commands do what --help says."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from arena.cli import main
from tests.conftest import ROOT
from tests.test_config import GOOD

BAD_INPUTS = {
    "not TOML": ("rounds = 2", "rounds = = 2", "not valid TOML"),
    "unknown key": ("rounds = 2", "rounds = 2\nspeed = 1", "speed: unknown key"),
    "unknown engine": ('engine = "toy"', 'engine = "go"', "valid engines:"),
    "unknown option": ("players = 2", "players = 2\n[options]\nsize = 1", "valid options: pile"),
    "players out of range": ("players = 2", "players = 9", "outside this engine's range"),
    "missing bot command": ('bots.random"\n[[bots]]', 'bots.random"\n[[bots]]', ""),
    "duplicate names": ('name = "b"', 'name = "a"', "duplicate bot name"),
    "rounds < 1": ("rounds = 2", "rounds = 0", "must be at least 1"),
    "too few bots": ("players = 2", "players = 3", "cannot fill a table"),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_league_file_exits_2_with_one_line(
    case: str, tmp_path: Path, toy_engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    old, new, message = BAD_INPUTS[case]
    text = GOOD.replace(old, new, 1)
    if case == "missing bot command":
        text = text.replace("python -m bots.random", "./no-such-bot.sh", 1)
        message = "no such file: './no-such-bot.sh'"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "l.toml").write_text(text)
    result = CliRunner().invoke(main, ["run", "l.toml"])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert result.output.startswith("arena: error: l.toml: ")
    assert result.output.count("\n") == 1
    assert "Traceback" not in result.output
    assert not (tmp_path / "results").exists()


def test_a_python_module_that_does_not_exist_is_refused_before_any_game(
    tmp_path: Path, toy_engine: str, in_repo: Path
) -> None:
    text = GOOD.replace("python -m bots.random", "python -m bots.nosuch", 1)
    (tmp_path / "l.toml").write_text(text)
    result = CliRunner().invoke(main, ["run", str(tmp_path / "l.toml"), "--out", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert result.output == (
        f"arena: error: {tmp_path / 'l.toml'}: bot 'a': no module named 'bots.nosuch' to run "
        "with -m (searched as its Python would: the folder arena runs from, PYTHONPATH, this "
        "Python's packages)\n"
    )
    assert not (tmp_path / "games.jsonl").exists()


def test_a_module_another_python_lacks_is_refused_and_one_it_has_is_not_warned_of(
    tmp_path: Path, toy_engine: str, in_repo: Path
) -> None:
    """Another interpreter is asked where it looks (a virtual environment: its own
    site-packages); a module it has is not warned about."""
    other = tmp_path / "env" / "bin" / "python"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(other.parent.parent)])
    purelib = subprocess.run(
        [other, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    (Path(purelib) / "fpvenvbot.py").write_text("raise SystemExit('no bot here')\n")
    text = GOOD.replace("python -m bots.random", f"{other} -m fpnothing", 1)
    (tmp_path / "l.toml").write_text(text)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["run", str(tmp_path / "l.toml"), "--out", str(out)])
    assert result.exit_code == 2 and result.output == (
        f"arena: error: {tmp_path / 'l.toml'}: bot 'a': no module named 'fpnothing' to run "
        "with -m (searched as its Python would: the folder arena runs from, PYTHONPATH, "
        f"{other}'s packages)\n"
    )
    (tmp_path / "l.toml").write_text(text.replace("fpnothing", "fpvenvbot"))
    played = CliRunner().invoke(main, ["run", str(tmp_path / "l.toml"), "--out", str(out)])
    assert "games scheduled" in played.output  # the league was played: its games say
    assert "warning" not in played.output and "PYTHONPATH" not in played.output


def test_transcripts_are_only_recorded_for_games_played_now(
    tmp_path: Path, toy_engine: str, in_repo: Path
) -> None:
    (tmp_path / "l.toml").write_text(GOOD)
    run = ["run", str(tmp_path / "l.toml"), "--out", str(tmp_path / "o"), "--no-report"]
    assert CliRunner().invoke(main, run).exit_code == 0
    again = CliRunner().invoke(main, [*run, "--transcripts"])
    assert again.exit_code == 0, again.output
    said = (
        "arena: 4 stored games have no complete transcript and will not be played again "
        "(played without --transcripts, or the transcript was cut short when an earlier "
        "version of arena was killed): use --fresh or --replay-bot NAME to play them again\n"
    )
    assert said in again.output
    assert "0 games played, 4 already stored" in again.output
    replayed = CliRunner().invoke(
        main,
        ["replay-seat", str(tmp_path / "o"), "t0-b0-r0", "0", "--bot", "python -m bots.random"],
    )
    assert replayed.exit_code == 2
    assert replayed.output.endswith(
        "seat0.jsonl: no transcript: the game was played without --transcripts (a run "
        "records them only for the games it plays, not for games stored before), or the "
        "transcript was lost when an earlier version of arena was killed (use --fresh or "
        "--replay-bot NAME to play them again)\n"
    )
    fresh = CliRunner().invoke(main, [*run, "--transcripts", "--replay-bot", "a"])
    assert fresh.exit_code == 0 and "no transcript" not in fresh.output, fresh.output


def test_missing_config_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["run", "nope.toml"])
    assert result.exit_code == 2 and "nope.toml: no such file" in result.output


def test_standings_of_a_folder_that_is_not_a_league(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["standings", str(tmp_path)])
    assert result.exit_code == 2 and "not a results folder" in result.output


def test_play_rejects_wrong_player_count() -> None:
    result = CliRunner().invoke(
        main, ["play", "space-five", *["--bot", "python -m bots.random"] * 5]
    )
    assert result.exit_code == 2
    assert result.output == (
        "arena: error: space-five: players: 5 is outside this engine's range 1..4\n"
    )


def test_play_and_check_bot_share_the_league_files_checks() -> None:
    """One check of player counts and options behind run, play and check-bot."""
    check = CliRunner().invoke(
        main, ["check-bot", "python -m bots.random", "--engine", "space-five", "--players", "5"]
    )
    assert check.exit_code == 2
    assert "space-five: players: 5 is outside this engine's range 1..4" in check.output
    unknown = CliRunner().invoke(main, ["check-bot", "python -m bots.random", "--engine", "go"])
    assert unknown.exit_code == 2 and "unknown engine 'go'" in unknown.output


def test_play_with_bad_option_value() -> None:
    args = [
        "play",
        "space-five",
        "--bot",
        "python -m bots.random",
        "--bot",
        "python -m bots.random",
        "--option",
        "rounds=0",
    ]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and "rounds" in result.output


def test_play_unknown_engine() -> None:
    result = CliRunner().invoke(main, ["play", "chess", "--bot", "python -m bots.random"])
    assert result.exit_code == 2 and "unknown engine 'chess'" in result.output


def test_play_show_narrates_every_decision_and_ends_in_words(in_repo: Path) -> None:
    args = [
        "play",
        "space-five",
        "--bot",
        "python -m bots.random",
        "--bot",
        "python -m bots.random",
        "--seed",
        "3",
        "--show",
    ]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("Space Five") and lines[1].startswith("seat 0 to act")
    over = next(i for i, line in enumerate(lines) if line.startswith("game over after "))
    decisions = int(lines[over].split()[3])
    narrated = [line for line in lines[:over] if re.match(r"^ {0,3}\d+  seat \d ", line)]
    assert [int(line.split()[0]) for line in narrated] == list(range(decisions))
    assert "scores: seat 0 " in lines[over]
    table = lines[over + 1 :]
    assert table[0].split()[:3] == ["seat", "rank", "score"]
    moves = [int(row.split()[3]) for row in table[2:4]]
    assert sum(moves) == decisions


def test_engines_lists_every_engine() -> None:
    result = CliRunner().invoke(main, ["engines"])
    assert result.exit_code == 0
    for name in ("space-five", "cat-yard", "good-boy", "if-it-fits", "little-everdell"):
        assert name in result.output


@pytest.mark.parametrize(
    "command", ["run", "play", "standings", "engines", "replay", "report", "view"]
)
def test_every_command_has_help_with_an_example(command: str) -> None:
    result = CliRunner().invoke(main, [command, "--help"])
    assert result.exit_code == 0 and "Example:" in result.output


KNOWN_WORDS = {"HTML", "JSON", "SIGTERM", "TOML"}


@pytest.mark.parametrize("name", sorted(main.commands))
def test_help_writes_only_arguments_in_capitals(name: str) -> None:
    """An option's value is named with its option (--games N), never alone in capitals as
    if it were an argument the command takes."""
    command = main.commands[name]
    context = click.Context(command)
    arguments = {p.make_metavar(context) for p in command.params if isinstance(p, click.Argument)}
    text = re.sub(r"--[\w-]+[ =][A-Z_=]+", "", command.help or "")  # --bot CMD, --human NAME
    assert set(re.findall(r"\b[A-Z][A-Z_]{2,}\b", text)) <= arguments | KNOWN_WORDS


@pytest.mark.parametrize("name", ["run", "play", "check-bot"])
def test_the_commands_that_play_give_their_exit_statuses(name: str) -> None:
    said = " ".join(CliRunner().invoke(main, [name, "--help"]).output.split())
    assert "Exit status 0" in said and "130 when stopped" in said


def test_standings_anchor_is_bot_or_bot_equals_rating(tmp_path: Path) -> None:
    from tests.ratings_sim import simulate_league

    records = simulate_league([1400.0, 1600.0], players=2, blocks=5, seed=1)
    (tmp_path / "league.toml").write_text('name = "x"\n')
    (tmp_path / "games.jsonl").write_bytes(b"".join(r.to_json() for r in records))
    pinned = CliRunner().invoke(
        main, ["standings", str(tmp_path), "--format", "json", "--anchor", "bot01=1600"]
    )
    assert pinned.exit_code == 0, pinned.output
    rows = {row["bot"]: row["elo"] for row in json.loads(pinned.output)["bots"]}
    assert rows["bot01"] == pytest.approx(1600.0)
    plain = CliRunner().invoke(main, ["standings", str(tmp_path), "--anchor", "bot00"])
    assert plain.exit_code == 0 and "anchored at bot00 = 1500" in plain.output, plain.output
    # an '=' not followed by a number belongs to the bot's name
    bad = CliRunner().invoke(main, ["standings", str(tmp_path), "--anchor", "bot01=abc"])
    assert bad.exit_code == 2 and "anchor bot 'bot01=abc'" in bad.output


def test_play_runs_the_bots_where_sandbox_says(tmp_path: Path, in_repo: Path) -> None:
    """A bot that writes a file outside its folder can do so with --sandbox none; in the
    sandbox (where it works) the file is not in view and the bot fails to start."""
    from arena.game.sandbox import unusable_reason

    marker = tmp_path / "written"
    bot = tmp_path / "writer.py"
    bot.write_text(
        "import sys\n"
        f"open({str(marker)!r}, 'w').write('x')\n"
        "from bots.random import choose\n"
        "from arena.sdk import run\n"
        "run(choose)\n"
    )
    command = ["play", "space-five", "--bot", f"python {bot}", "--bot", "python -m bots.random"]
    plain = CliRunner().invoke(main, [*command, "--sandbox", "none"])
    assert plain.exit_code == 0, plain.output
    assert marker.exists()
    if unusable_reason():
        pytest.skip(f"no sandbox here: {unusable_reason()}")
    marker.unlink()
    boxed = CliRunner().invoke(main, [*command, "--sandbox", "bwrap"])
    assert boxed.exit_code == 0, boxed.output
    assert "startup" in boxed.output and not marker.exists()


@pytest.mark.parametrize("width", [80, 60])
def test_arena_help_lists_every_command_in_whole_words(width: int) -> None:
    output = CliRunner().invoke(main, ["--help"], terminal_width=width).output
    listing = " ".join(output.split("Commands:", 1)[1].split())
    assert "..." not in listing
    for name, command in main.commands.items():
        assert command.short_help and f"{name} {command.short_help}" in listing


def test_a_bot_of_the_league_without_games_is_named_in_a_note(
    tmp_path: Path, toy_engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tomllib

    import tomli_w

    monkeypatch.chdir(tmp_path)
    (tmp_path / "l.toml").write_text(GOOD)
    out = tmp_path / "o"
    ran = CliRunner().invoke(main, ["run", "l.toml", "--out", str(out), "--no-report"])
    assert ran.exit_code == 0, ran.output
    league = tomllib.loads((out / "league.toml").read_text())
    league["bots"].append({"name": "c", "cmd": "python -m bots.random"})  # a run stopped early
    (out / "league.toml").write_text(tomli_w.dumps(league))
    shown = CliRunner().invoke(main, ["standings", str(out)])
    assert shown.exit_code == 0, shown.output
    unwrapped = " ".join(shown.output.split())
    assert "Never played: c (in league.toml, without a stored game)." in unwrapped
    data = json.loads(CliRunner().invoke(main, ["standings", str(out), "--format", "json"]).output)
    assert data["notes"] == ["Never played: c (in league.toml, without a stored game)."]
    assert CliRunner().invoke(main, ["report", str(out), "--games", "0"]).exit_code == 0
    assert "Never played: c" in (out / "report.html").read_text(encoding="utf-8")


def test_a_ctrl_c_wrapped_by_python_while_a_module_loads_is_a_stop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Python 3.11 wraps an exception raised in ``__set_name__`` (a Ctrl-C while a
    dataclass of a loading module is made) in a RuntimeError: still ``arena: stopped``."""
    import engines

    def interrupted(name: str) -> None:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as exc:
            raise RuntimeError("Error calling __set_name__ on 'Field' instance") from exc

    monkeypatch.setattr(engines, "get", interrupted)
    result = CliRunner().invoke(main, ["engines"])
    assert (result.exit_code, result.output) == (130, "arena: stopped\n")


def test_a_runtime_error_that_is_not_a_stop_is_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    import engines

    def broken(name: str) -> None:
        raise RuntimeError("a real bug")

    monkeypatch.setattr(engines, "get", broken)
    result = CliRunner().invoke(main, ["engines"])
    assert isinstance(result.exception, RuntimeError)


def test_a_stopped_huge_league_counts_as_its_first_line() -> None:
    from arena.cli import _stopped_line
    from arena.league.driver import LeagueOutcome
    from arena.league.standings import _Choice
    from arena.stats.ratings import compute_standings

    outcome = LeagueOutcome(scheduled=9_000_000_000, played=1_000, skipped=41)
    assert _stopped_line(outcome, Path("r"), "arena run x.toml") == (
        "arena: stopped; 1,041 of 9,000,000,000 games are stored in r. "
        "Resume with: arena run x.toml"
    )
    one = LeagueOutcome(scheduled=10, played=1, skipped=0)
    assert "stopped; 1 of 10 games is stored" in _stopped_line(one, Path("r"), "")
    choice = _Choice(None, (), None)
    choice.outside = 1
    notes = choice.noted(compute_standings([])).notes
    assert notes[-1].startswith("1 stored game is not part of the league in league.toml")
    assert notes[-1].endswith("and is not rated.")
    choice.outside = 1_200
    notes = choice.noted(compute_standings([])).notes
    assert notes[-1].startswith("1,200 stored games are not part")


READ_ONLY_LOADS = """
import sys
import time
from arena.cli import main
try:
    main(sys.argv[1:])
except SystemExit as done:
    assert not done.code, done.code
print(sorted({name.split(".")[0] for name in sys.modules} & {"trio", "orjson", "numpy"}))
"""


@pytest.mark.parametrize("command", [["standings"], ["report", "-o", "{out}/r.html"]])
def test_reading_a_folder_does_not_load_the_referee(
    small_league: Path, tmp_path: Path, command: list[str]
) -> None:
    """``arena standings`` and ``arena report`` only read games: trio (a tenth of a second
    to import) stays out of them; the folder's readers use orjson and the fits numpy."""
    args = [word.format(out=tmp_path) for word in command]
    done = subprocess.run(
        [sys.executable, "-c", READ_ONLY_LOADS, args[0], str(small_league), *args[1:]],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "['numpy', 'orjson']"


@pytest.mark.parametrize("command", [["standings"], ["replay", "{game}", "--show"]])
def test_a_reader_that_leaves_early_is_not_an_error(small_league: Path, command: list[str]) -> None:
    """``arena standings F | head -1``: what the reader did not take is dropped quietly."""
    game = json.loads((small_league / "games.jsonl").read_text().splitlines()[0])["id"]
    args = [word.format(game=game) for word in command]
    read, write = os.pipe()
    os.close(read)  # the reader has gone before the first line
    done = subprocess.run(
        [sys.executable, "-m", "arena", args[0], str(small_league), *args[1:]],
        stdout=write,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    os.close(write)
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["run", "l.toml", "--out", ""], "'--out'"),
        (["run", ""], "'CONFIG'"),
        (["standings", ""], "'FOLDER'"),
        (["report", "results/l", "-o", ""], "'-o' / '--output'"),
        (["view", "results/l", "t0-b0-r1", "--output", ""], "'-o' / '--output'"),
        (["replay", "", "t0-b0-r1"], "'FOLDER'"),
    ],
)
def test_an_empty_path_is_refused(
    args: list[str], option: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no league file, no results: nothing else to refuse
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert f"Invalid value for {option}: an empty path names no file or folder" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--human-seat", "1"], "--human-seat places the --human player; give --human NAME too"),
        (["--human-seat", "0"], "--human-seat places the --human player; give --human NAME too"),
        (["--human", ""], "--human needs the name you play as: --human NAME"),
        (["--human", "  "], "--human needs the name you play as: --human NAME"),
        (["--bot", "human"], "--bot 'human': to play a seat yourself, give --human NAME"),
    ],
)
def test_play_refuses_a_human_seat_it_cannot_fill(args: list[str], message: str) -> None:
    bots = ["--bot", "python -m bots.random"] * 2
    result = CliRunner().invoke(main, ["play", "space-five", *bots, *args], input="")
    assert result.exit_code == 2, result.output
    assert result.output == f"arena: error: {message}\n"


def test_play_refuses_an_engine_option_given_twice() -> None:
    bots = ["--bot", "python -m bots.random"] * 2
    twice = ["--option", "target=3", "--option", "target=20"]
    result = CliRunner().invoke(main, ["play", "cat-yard", *bots, *twice])
    assert result.exit_code == 2, result.output
    assert result.output == "arena: error: --option target: given twice; give each option once\n"


def test_run_warns_of_rounds_in_an_sprt_league(
    tmp_path: Path, toy_engine: str, in_repo: Path
) -> None:
    from tests.test_config import SPRT

    field = "".join(f'[[bots]]\nname = "{n}"\ncmd = "python -m bots.random"\n' for n in "abc")
    (tmp_path / "l.toml").write_text('rounds = 5\nsandbox = "none"\n' + SPRT + field)
    args = ["run", str(tmp_path / "l.toml"), "--no-report", "--replay-bot", "nosuch"]
    result = CliRunner().invoke(main, args)  # stops before any game: no bot 'nosuch'
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[0] == (
        f"arena: warning: {tmp_path / 'l.toml'}: rounds: has no effect in an SPRT league, "
        "which plays blocks until its test decides (at most sprt.max_blocks); remove it"
    )
    assert "--replay-bot nosuch: no bot of that name" in result.output


def stopped_while_starting(command: list[str], delay_s: float) -> tuple[int, str]:
    """Exit status and stderr of ``arena engines`` run by ``command`` and sent a Ctrl-C after
    ``delay_s``."""
    proc = subprocess.Popen(
        [*command, "engines"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    time.sleep(delay_s)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    return proc.returncode, err.decode()


def arena_frames(traceback: str) -> set[str]:
    """The source lines of a printed traceback's frames in arena's own files."""
    frames = re.findall(r'File "([^"]+)", line \d+, in \S+\n +(.+)', traceback)
    return {
        line.split("#")[0].strip() for path, line in frames if path.startswith(f"{ROOT}/arena/")
    }


@pytest.mark.parametrize(
    "command",
    [[sys.executable, "-m", "arena"], [sys.executable, str(Path(sys.executable).parent / "arena")]],
    ids=["python -m arena", "console script"],
)
def test_a_ctrl_c_while_arena_starts_stops_quietly(command: list[str]) -> None:
    """Ctrl-C at moments spread over the whole start-up, from 0 s to the end of the command:
    once arena's code runs, every stop is ``arena: stopped`` and status 130, no traceback.
    Before it runs (and, now and then, once it has printed the line) the interpreter ends
    itself by SIGINT, which a shell reports as 130 too; a traceback of its own start-up
    (site packages, finding and loading the module that sets up the quiet stop) runs no
    line of arena but the import of that module."""
    start = time.monotonic()
    subprocess.run([*command, "engines"], cwd=ROOT, capture_output=True, check=True)
    whole_s = time.monotonic() - start
    for step in range(16):
        status, err = stopped_while_starting(command, whole_s * step / 15)
        if "Traceback" in err:
            assert arena_frames(err) <= {"import arena.early_stop"}, err
        elif status != 0:
            assert status in {130, -signal.SIGINT} and err in {"arena: stopped\n", ""}, err
