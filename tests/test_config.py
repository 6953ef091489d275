"""League files: every bad input is one clear ConfigError naming file and key."""

from __future__ import annotations

from pathlib import Path

import pytest

import engines
from arena import config
from arena.errors import ConfigError
from engines.base import OptionError

GOOD = """
name = "t"
engine = "toy"
players = 2
rounds = 2
[[bots]]
name = "a"
cmd = "python -m bots.random"
[[bots]]
name = "b"
cmd = "python -m bots.random"
"""


def load_text(tmp_path: Path, text: str) -> config.LeagueConfig:
    path = tmp_path / "league.toml"
    path.write_text(text)
    return config.load(path)


def test_good_config_resolves_defaults(tmp_path: Path, toy_engine: str) -> None:
    league = load_text(tmp_path, GOOD)
    assert league.players == (2,)
    assert league.options == {"pile": 21}
    assert league.limits.move_ms == 1000
    assert [b.name for b in league.bots] == ["a", "b"]
    assert league.to_toml()["bots"][0] == {"name": "a", "cmd": "python -m bots.random"}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.replace("rounds = 2", "rounds = 2\nrounds = 3"), "not valid TOML"),
        (lambda t: t.replace("rounds = 2", "roundz = 2"), "roundz: unknown key"),
        (lambda t: t.replace('engine = "toy"', 'engine = "chess"'), "unknown engine 'chess'"),
        (lambda t: t + "[options]\nwidth = 3\n", "unknown option 'width'; valid options: pile"),
        (lambda t: t + "[options]\npile = 0\n", "option 'pile' must be >= 1"),
        (lambda t: t.replace("players = 2", "players = 7"), "outside this engine's range 2..4"),
        (lambda t: t.replace("players = 2", "players = 3"), "cannot fill a table of 3 seats"),
        (
            lambda t: t.replace('bots.random"\n[[bots]]', 'bots.random"\n[[bots]]', 1).replace(
                'name = "b"', 'name = "a"'
            ),
            "duplicate bot name 'a'",
        ),
        (lambda t: t.replace("rounds = 2", "rounds = 0"), "rounds: must be at least 1"),
        (lambda t: t.replace("rounds = 2", 'rounds = "two"'), "rounds: expected an integer"),
        (
            lambda t: t.replace(
                'cmd = "python -m bots.random"\n[[bots]]',
                'cmd = "no-such-program-xyz --flag"\n[[bots]]',
            ),
            "command not found: 'no-such-program-xyz'",
        ),
        (lambda t: 'mode = "swizz"\n' + t, "unknown mode 'swizz'"),
        (
            lambda t: 'candidate = "a"\n' + t,
            'league.toml: candidate: only allowed with mode = "gauntlet"',
        ),
        (
            lambda t: t.replace(
                '[[bots]]\nname = "a"', '[limits]\nmove_ms = -5\n[[bots]]\nname = "a"'
            ),
            "limits.move_ms: must be at least 1",
        ),
    ],
)
def test_bad_config_is_one_clear_error(
    tmp_path: Path, toy_engine: str, change: object, message: str
) -> None:
    text = change(GOOD)  # type: ignore[operator]
    with pytest.raises(ConfigError) as caught:
        load_text(tmp_path, text)
    assert message in str(caught.value)
    assert str(tmp_path / "league.toml") in str(caught.value)


def test_a_bank_of_zero_is_no_overage(tmp_path: Path, toy_engine: str) -> None:
    league = load_text(tmp_path, GOOD.replace("rounds = 2", "rounds = 2\n[limits]\nbank_ms = 0", 1))
    assert league.limits.bank_ms == 0


def test_missing_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such file"):
        config.load(tmp_path / "nope.toml")


def test_relative_paths_in_commands_become_absolute(in_repo: Path) -> None:
    argv = config.parse_command("node bots/js/random.mjs --fast")
    assert argv[1] == str(in_repo / "bots/js/random.mjs")
    assert argv[2] == "--fast"


def test_the_script_after_a_python_setting_is_checked(in_repo: Path) -> None:
    with pytest.raises(ConfigError, match=r"no such file: 'missing\.py'"):
        config.parse_command("python -W ignore missing.py")
    argv = config.parse_command("python -X dev bots/random.py")
    assert argv[1:] == ("-X", "dev", str(in_repo / "bots/random.py"))
    assert config.parse_command("python -X dev -m bots.random")[-1] == "bots.random"


def test_python_means_this_interpreter() -> None:
    import sys

    assert config.BotSpec("x", ("python", "-m", "bots.random")).argv()[0] == sys.executable


SPRT = """
name = "s"
engine = "toy"
mode = "sprt"
players = 3
[sprt]
candidate = "a"
opponent = "b"
fillers = ["c"]
"""


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.replace("players = 3", "players = [2, 3]"), ": players: an SPRT league"),
        (lambda t: t.replace('fillers = ["c"]', 'fillers = ["a"]'), "'a' already plays"),
        (lambda t: t.replace('fillers = ["c"]', 'fillers = ["b"]'), "'b' already plays"),
        (
            lambda t: t.replace("players = 3", "players = 4").replace('["c"]', '["c", "c"]'),
            "each filler bot may be named once",
        ),
        (
            lambda t: t + "elo0 = -1e6\n",
            "sprt.elo0: must be between -2000 and 2000 Elo, got -1e+06",
        ),
        (
            lambda t: 'candidate = "a"\n' + t,
            'candidate: only allowed with mode = "gauntlet" (an SPRT league names its',
        ),
        (lambda t: t + "elo1 = 123456\n", "sprt.elo1: must be between -2000 and 2000 Elo"),
    ],
)
def test_bad_sprt_fillers_and_sizes_are_one_clear_error(
    tmp_path: Path, toy_engine: str, change: object, message: str
) -> None:
    field = "".join(f'[[bots]]\nname = "{n}"\ncmd = "python -m bots.random"\n' for n in "abcd")
    text = change(SPRT) + field  # type: ignore[operator]
    with pytest.raises(ConfigError) as caught:
        load_text(tmp_path, text)
    assert message in str(caught.value)
    assert "sprt.players" not in str(caught.value)


def test_a_byte_order_mark_is_accepted(tmp_path: Path, toy_engine: str) -> None:
    path = tmp_path / "league.toml"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD.encode("utf-8"))  # as Windows editors save it
    assert config.load(path).name == "t"


@pytest.mark.parametrize(
    ("setting", "shown"),
    [
        ("rounds = true", "rounds: expected an integer, got true"),
        ("rounds = false", "rounds: expected an integer, got false"),
        ('rounds = "two"', 'rounds: expected an integer, got "two"'),
        ('rounds = "it\'s \\\\ \\"q\\""', 'got "it\'s \\\\ \\"q\\""'),
        ('rounds = ["a", 1.5]', 'got ["a", 1.5]'),
        ("rounds = {every = true}", "got {every = true}"),
        ("rounds = nan", "got nan"),
        ("rounds = 1979-05-27", "got 1979-05-27"),
        ('sandbox = "off"', 'sandbox: must be one of auto, bwrap, none, got "off"'),
    ],
)
def test_a_wrong_value_is_shown_as_toml_spells_it(
    tmp_path: Path, toy_engine: str, setting: str, shown: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        load_text(tmp_path, setting + "\n" + GOOD.replace("rounds = 2\n", ""))
    assert shown in str(caught.value)


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("/tmp", "'/tmp' is a folder, not a program"),
        ("python /tmp", "'/tmp' is a folder, not a script"),
        ("python bots/js", "'bots/js' is a folder, not a script (relative to"),
    ],
)
def test_a_folder_in_a_command_is_named_as_one(in_repo: Path, command: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        config.parse_command(command)
    assert message in str(caught.value)


def test_rounds_in_an_sprt_league_is_warned_about(tmp_path: Path, toy_engine: str) -> None:
    field = "".join(f'[[bots]]\nname = "{n}"\ncmd = "python -m bots.random"\n' for n in "abc")
    league = load_text(tmp_path, SPRT + field)
    assert league.warnings == ()
    league = load_text(tmp_path, "rounds = 5\n" + SPRT + field)
    assert league.warnings == (
        f"{tmp_path / 'league.toml'}: rounds: has no effect in an SPRT league, which plays "
        "blocks until its test decides (at most sprt.max_blocks); remove it",
    )


@pytest.mark.parametrize(
    ("engine", "options", "message"),
    [
        ("space-five", {"young": 1}, "option 'young' must be true or false, got 1"),
        ("space-five", {"rounds": True}, "option 'rounds' must be an integer, got true"),
        (
            "space-five",
            {"deal_counts": "49,30"},
            "option 'deal_counts' must be a list, got \"49,30\"",
        ),
        ("good-boy", {"variant": 2}, "option 'variant' must be a string, got 2"),
        ("good-boy", {"variant": "easy"}, 'must be one of "standard", "hard", got "easy"'),
    ],
)
def test_an_engine_option_error_spells_the_value_as_the_league_file_does(
    engine: str, options: dict[str, object], message: str
) -> None:
    """The values a league file's ``[options]`` and ``--option KEY=VALUE`` write (TOML and
    JSON agree on these): ``true``, ``"hard"``; not Python's ``True``, ``'hard'``."""
    with pytest.raises(OptionError) as raised:
        engines.get(engine).check(2, options)
    assert message in str(raised.value)


SPRT_AND_OWN_LIMITS = """
name = "s"
engine = "toy"
players = 2
seed = 5
mode = "sprt"
[limits]
move_ms = 300
[sprt]
candidate = "a"
opponent = "b"
elo1 = 20
[[bots]]
name = "a"
cmd = "python -m bots.random"
limits = { memory_mb = 512 }
[[bots]]
name = "b"
cmd = "python -m bots.random"
"""


@pytest.mark.parametrize("text", [GOOD, SPRT_AND_OWN_LIMITS], ids=["round-robin", "sprt"])
def test_a_league_reads_back_what_it_wrote(tmp_path: Path, toy_engine: str, text: str) -> None:
    """``league.toml`` of a results folder is read by the league file's own reader."""
    league = load_text(tmp_path, text)
    again = config.read_back(league.to_toml(), source="stored", default_name="x")
    assert again == league and again.scheduled and not again.seed_drawn
    assert again.to_toml() == league.to_toml()


def test_a_stored_league_is_read_as_it_was_played(tmp_path: Path) -> None:
    """An engine that is not installed, another engine version, a bot file gone: the stored
    league is the one its games were played in, not what would be played here now."""
    stored = {
        "name": "old",
        "engine": "not-installed-here",
        "engine_version": "0.9",
        "players": [2],
        "mode": "round-robin",
        "rounds": 1,
        "seed": 3,
        "options": {"pile": 5},
        "bots": [
            {"name": "a", "cmd": f"python {tmp_path}/gone.py --deep"},
            {"name": "b", "cmd": "human"},
        ],
    }  # an older league.toml: no limits, policy or sandbox (read at their defaults)
    league = config.read_back(stored, source="stored", default_name="x")
    assert league.engine == "not-installed-here"
    assert league.engine_version == "0.9" and league.options == {"pile": 5}
    assert league.bots[0].cmd == ("python", f"{tmp_path}/gone.py", "--deep")
    assert league.bots[1].is_human and league.limits == config.Limits()
    assert league.to_toml()["bots"] == stored["bots"]
    with pytest.raises(ConfigError, match="seed: expected an integer"):
        config.read_back({**stored, "seed": "3"}, source="stored", default_name="x")
    partial = config.read_back({"engine": "sim"}, source="stored", default_name="x")
    assert partial.name == "x" and not partial.scheduled and not partial.rules_known
    assert config.read_back({}, source="stored", default_name="x").engine == ""


def test_a_value_that_ends_lines_is_spelled_on_one_line() -> None:
    # U+0085 and U+2028 end a line for str.splitlines, as for a terminal's reader
    assert config.spelled("a\x85b\u2028c") == '"a\\u0085b\\u2028c"'
    assert len(config.spelled("a\x85b").splitlines()) == 1
