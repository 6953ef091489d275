"""Bad input never ends in a traceback (property-based).

- Generated league configs (valid ones mutated with wrong types, missing keys, odd unicode,
  huge numbers, nested garbage) through ``arena.config.parse`` and through ``arena run``:
  a valid config or one ConfigError / one ``arena: error:`` line with exit status 2.
- Random bytes from a bot, in-process (through the real line reader, decoder and seat) and
  through a real subprocess: a verdict is recorded and the game completes.
"""

from __future__ import annotations

import copy
import tempfile
import uuid
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
import tomli_w
import trio
import trio.testing
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from arena import config
from arena.cli import main
from arena.config import BotSpec, Limits, Policy
from arena.errors import ConfigError
from arena.game.botproc import BotProcess, LineReader
from arena.game.referee import play_game
from arena.game.seats import FunctionSeat, ProcessSeat, Seat
from arena.game.spec import GameSpec
from arena.tools.match import play_match
from arena.tools.replay import replay_record
from tests.conftest import ROOT, processes_with
from tests.toy_engine import ENGINE

pytestmark = pytest.mark.usefixtures("toy_engine", "in_repo")


def fuzz_settings(examples: int) -> settings:
    return settings(
        max_examples=examples,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        deadline=None,
    )


BASES: list[dict[str, Any]] = [
    {
        "name": "fz",
        "engine": "toy",
        "players": [2, 3],
        "rounds": 1,
        "seed": 1,
        "options": {"pile": 9},
        "limits": {"move_ms": 100, "memory_mb": 512},
        "policy": {"timeout": "random"},
        "bots": [
            {"name": "a", "cmd": "python -m bots.random"},
            {"name": "b", "cmd": "python -m bots.random", "limits": {"cpu_s": 5}},
            {"name": "c", "cmd": "python -m bots.random"},
        ],
    },
    {
        "engine": "space-five",
        "players": 2,
        "mode": "sprt",
        "options": {"rounds": 1},
        "sprt": {"candidate": "a", "opponent": "b", "elo1": 5, "max_blocks": 10},
        "bots": [
            {"name": "a", "cmd": "python -m bots.random"},
            {"name": "b", "cmd": "python -m bots.random"},
        ],
    },
    {
        "engine": "toy",
        "mode": "gauntlet",
        "candidate": "a",
        "bots": [
            {"name": "a", "cmd": "python -m bots.random"},
            {"name": "b", "cmd": "python -m bots.random"},
        ],
    },
]

KEYS = [
    "name", "engine", "players", "mode", "rounds", "seed", "options", "limits", "policy",
    "bots", "candidate", "sprt", "sandbox", "engine_version", "extra",
]  # fmt: skip
SUBKEYS = {
    "limits": [f.name for f in fields(Limits)] + ["bogus"],
    "policy": ["timeout", "illegal", "protocol", "crash", "startup", "bogus"],
    "options": ["pile", "rounds", "young", "deal_counts", "bogus"],
    "sprt": ["candidate", "opponent", "elo0", "elo1", "alpha", "beta", "max_blocks", "fillers"],
}

odd_text = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["", " ", "a/b", ".hidden", "\u202e", "\x00", "\ud7ff", "é", "🎲", "\n"]),
)
scalars = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, -1, 1, 2**31, 2**63, 10**9, 10**9 + 1, 10**400]),
    st.floats(allow_nan=True),
    st.booleans(),
    odd_text,
)
garbage = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(odd_text, inner, max_size=4)
    ),
    max_leaves=8,
)


@st.composite
def mutated_configs(draw: st.DrawFn) -> dict[str, Any]:
    data = copy.deepcopy(draw(st.sampled_from(BASES)))
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from(KEYS))
        where = draw(st.sampled_from(["top", "sub", "bot", "delete"]))
        if where == "delete":
            data.pop(key, None)
        elif where == "sub" and key in SUBKEYS and isinstance(data.get(key), dict):
            sub = draw(st.sampled_from(SUBKEYS[key]))
            data[key][sub] = draw(garbage)
        elif where == "bot" and isinstance(data.get("bots"), list) and data["bots"]:
            bot = draw(st.sampled_from(data["bots"]))
            if isinstance(bot, dict):
                field = draw(st.sampled_from(["name", "cmd", "limits", "extra"]))
                bot[field] = draw(garbage)
        else:
            data[key] = draw(garbage)
    return data


def toml_safe(value: Any) -> bool:
    """Whether tomli-w can write it (TOML has no null, keys must be strings)."""
    try:
        tomli_w.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


@fuzz_settings(300)
@given(mutated_configs())
def test_generated_configs_parse_or_fail_clearly(data: dict[str, Any]) -> None:
    try:
        parsed = config.parse(data, source="fuzz.toml")
    except ConfigError as exc:
        message = str(exc)
        assert message.startswith("fuzz.toml: ")
        assert "Traceback" not in message
        return
    assert parsed.bots and parsed.engine in ("toy", "space-five")


@fuzz_settings(60)
@given(st.one_of(mutated_configs(), st.binary(max_size=200), odd_text))
def test_bad_league_files_exit_2_with_one_line(data: dict[str, Any] | bytes | str) -> None:
    if isinstance(data, dict):
        assume(toml_safe(data))
        try:
            config.parse(data)
            assume(False)  # a valid league would start playing
        except ConfigError:
            pass
        content = tomli_w.dumps(data).encode("utf-8")
    else:
        content = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "league.toml"
        path.write_bytes(content)
        result = CliRunner().invoke(main, ["run", str(path), "--out", str(Path(folder) / "o")])
    assert result.exit_code == 2, (result.output, result.exception)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("arena: error: "), result.output
    assert "Traceback" not in result.output


# -- random bytes from a bot ------------------------------------------------------------------


class _FakeProcess:
    """Just enough of ``trio.Process`` for a :class:`BotProcess` that is never started."""

    def __init__(self) -> None:
        self.stdin = trio.testing.MemorySendStream()
        self.returncode = None
        self.pid = -1


def bot_answering(payload: bytes, answers: int = 40) -> BotProcess:
    """A bot whose output is ``payload`` plus a newline per question, then end of stream."""
    output = trio.testing.MemoryReceiveStream()
    output.put_data((payload + b"\n") * answers)
    output.put_eof()
    spec = BotSpec("fuzz", ("fuzz",))
    return BotProcess(spec, _FakeProcess(), LineReader(output, 1 << 10), Limits())  # type: ignore[arg-type]


ALLOWED = {"protocol", "crash", "timeout", "illegal"}


@fuzz_settings(300)
@given(
    st.one_of(
        st.binary(max_size=3000),
        st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")),
        st.builds(
            lambda v: tomli_w.dumps({"x": v}).encode() if toml_safe({"x": v}) else b"{}",
            garbage,
        ),
        st.sampled_from(
            [
                b'{"type":"action","index":99}',
                b'{"type":"action","index":true}',
                b'{"type":"action","index":1e400}',
                b'{"type":"action","action":[]}',
                b'{"type":"action","step":"0","index":0}',
                b'{"type":"action","step":999,"index":0}',
                b'{"type":"ready"}',
                b"[1,2,3]",
                b'"\\ud800"',
                b"\xff\xfe\x00",
                b"NaN",
            ]
        ),
    )
)
def test_random_bytes_from_a_bot_end_in_a_verdict(payload: bytes) -> None:
    seats: list[Seat] = [
        ProcessSeat(bot_answering(payload)),
        FunctionSeat("first", lambda o, legal, g: 0),
    ]
    spec = GameSpec("g", 0, 0, 0, 3, ("fuzz", "first"))
    limits = Limits(move_ms=50, bank_ms=50)
    record = trio.run(lambda: play_game(ENGINE, {"pile": 7}, spec, seats, limits, Policy()))
    assert set(record.seats[0].verdicts) <= ALLOWED
    assert record.seats[1].verdicts == {}
    assert replay_record(record) == []


@fuzz_settings(6)
@given(st.binary(min_size=1, max_size=2000))
def test_random_bytes_from_a_bot_process(payload: bytes) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    with tempfile.TemporaryDirectory() as folder:
        payload_file = Path(folder) / "payload"
        payload_file.write_bytes(payload)
        fuzz = ROOT / "tests" / "hostile" / "bytes_from_file.py"
        bots = [
            BotSpec("fuzz", config.parse_command(f"python {fuzz} {payload_file} {marker}")),
            BotSpec("random", config.parse_command(f"python -m bots.random {marker}")),
        ]
        limits = Limits(move_ms=200, bank_ms=200, bye_ms=200)
        record = trio.run(play_match, ENGINE, bots, 3, {"pile": 6}, limits, Policy())
    assert set(record.seats[0].verdicts) <= ALLOWED
    assert record.seats[1].verdicts == {}
    assert replay_record(record) == []
    assert processes_with(marker) == []


def test_huge_integer_in_sprt_is_a_config_error(tmp_path: Path) -> None:
    data = copy.deepcopy(BASES[1])
    data["sprt"]["elo1"] = 10**400
    with pytest.raises(ConfigError, match="elo1"):
        config.parse(data)
    path = tmp_path / "league.toml"
    path.write_text(tomli_w.dumps(data))
    result = CliRunner().invoke(main, ["run", str(path), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and result.output.startswith("arena: error: ")
