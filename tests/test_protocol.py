"""Protocol v1 messages, the SDK loop, and the bundled bots speaking it."""

from __future__ import annotations

import enum
import io
import json
import re
import shutil
import subprocess
import sys
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from arena import protocol
from arena.errors import BotIllegal, BotProtocolError
from arena.sdk import GameInfo, run
from bots.random import choose
from engines.base import JsonList

LEGAL: list[dict[str, Any]] = [{"type": "a"}, {"type": "b", "n": 2}]


def test_encode_is_one_compact_line() -> None:
    line = protocol.encode({"type": "act", "x": "ż"})
    assert line == '{"type":"act","x":"ż"}\n'.encode()


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b"not json", "not a JSON line"),
        (b"[1, 2]", "expected a JSON object"),
        (b'{"index": 1}', "without a string 'type'"),
        (b"\xff\xfe", "not a JSON line"),
    ],
)
def test_decode_rejects_bad_lines(line: bytes, message: str) -> None:
    with pytest.raises(BotProtocolError, match=message):
        protocol.decode(line)


def test_chosen_index_by_index_or_by_action() -> None:
    assert protocol.chosen_index({"type": "action", "index": 1}, LEGAL) == 1
    assert protocol.chosen_index({"type": "action", "action": {"n": 2, "type": "b"}}, LEGAL) == 1


@pytest.mark.parametrize(
    ("answer", "error"),
    [
        ({"type": "action", "index": 2}, BotIllegal),
        ({"type": "action", "index": -1}, BotIllegal),
        ({"type": "action", "action": {"type": "c"}}, BotIllegal),
        ({"type": "action", "index": "1"}, BotProtocolError),
        ({"type": "action", "index": True}, BotProtocolError),
        ({"type": "action"}, BotProtocolError),
        ({"type": "ready"}, BotProtocolError),
    ],
)
def test_chosen_index_faults(answer: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        protocol.chosen_index(answer, LEGAL)


def test_a_note_is_optional_cut_and_must_be_a_string() -> None:
    assert protocol.chosen_note({"type": "action", "index": 0}) == ""
    assert protocol.chosen_note({"type": "action", "index": 0, "note": "eval +2"}) == "eval +2"
    long = {"type": "action", "index": 0, "note": "x" * 1000}
    assert protocol.chosen_note(long) == "x" * protocol.MAX_NOTE_CHARS
    with pytest.raises(BotProtocolError, match=r"'note' must be a string, got 3 \(an integer\)$"):
        protocol.chosen_note({"type": "action", "index": 0, "note": 3})


def test_visible_shows_every_control_character_but_tab() -> None:
    hostile = "\x1b]0;PWNED\x07\x1b[2Jok\tdone\r\n\x7f\x9b31m\x00ż \\x1b"
    shown = protocol.visible(hostile)
    assert shown == "\\x1b]0;PWNED\\x07\\x1b[2Jok\tdone\\r\\n\\x7f\\x9b31m\\x00ż \\x1b"
    assert all(c == "\t" or c.isprintable() for c in shown)
    assert protocol.visible(shown) == shown  # made visible once is enough


@pytest.mark.parametrize(
    ("ready", "message"),
    [
        (
            {"type": "ready", "name": "n", "version": 3},
            "'version' must be a string, got 3 (an integer)",
        ),
        (
            {"type": "ready", "name": "n", "version": {"v": 1}},
            "'version' must be a string, got {\"v\": 1} (an object)",
        ),
        (
            {"type": "ready", "name": ["n"], "version": "1"},
            "'name' must be a string, got [\"n\"] (an array)",
        ),
        ({"type": "ready", "name": "n", "version": "v" * 101}, "'version' has 101 characters"),
        ({"type": "ready", "name": "n" * 200_000}, "'name' has 200,000 characters; at most 100"),
        ({"type": "action", "index": 0}, "expected 'ready', got \"action\" (a string)"),
    ],
)
def test_ready_needs_a_short_string_name_and_version(ready: dict[str, Any], message: str) -> None:
    with pytest.raises(BotProtocolError, match=re.escape(message)):
        protocol.check_ready(ready)


def test_ready_may_leave_out_name_and_version() -> None:
    longest = "v" * protocol.MAX_READY_CHARS
    for ready in ({"type": "ready"}, {"type": "ready", "name": "n", "version": longest}):
        assert protocol.check_ready(ready) is ready


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ({"note": 5}, "'note' must be a string, got 5 (an integer)"),
        ({"note": "5"}, None),
        ({"note": None}, "'note' must be a string, got null"),
        ({"note": ["x"] * 50}, '\'note\' must be a string, got ["x", "x", '),
        ({"index": "1"}, "'index' must be an integer, got \"1\" (a string)"),
        ({"index": True}, "'index' must be an integer, got true (a boolean)"),
        ({"index": 1.0}, "'index' must be an integer, got 1.0 (a number)"),
        ({"index": None}, "'index' must be an integer, got null"),
        ({"action": "c"}, "'action' must be an object, got \"c\" (a string)"),
        ({"action": [1]}, "'action' must be an object, got [1] (an array)"),
        ({"type": "ready"}, "expected 'action', got \"ready\" (a string)"),
    ],
)
def test_a_wrong_value_is_quoted_as_the_bot_wrote_it_with_its_type(
    answer: dict[str, Any], said: str | None
) -> None:
    """The JSON the bot sent and its JSON type: 5 is no "5", null no None."""
    chosen = {"index": 0} if "action" not in answer else {}
    message = {"type": "action"} | chosen | answer
    check = (
        protocol.chosen_note if "note" in answer else partial(protocol.chosen_index, legal=LEGAL)
    )
    if said is None:
        assert check(message) == "5"
        return
    with pytest.raises(BotProtocolError) as caught:
        check(message)
    assert str(caught.value).startswith(said)
    assert len(str(caught.value)) < 150


def test_sdk_sends_the_note_choose_sets() -> None:
    def talkative(observation: dict[str, Any], legal: list[dict[str, Any]], game: GameInfo) -> int:
        if game.step % 2 == 0:
            game.note = f"even step {game.step}"
        return 0

    out = io.BytesIO()
    run(talkative, name="talk", stdin=io.BytesIO(b"".join(conversation(1))), stdout=out)
    actions = [json.loads(line) for line in out.getvalue().splitlines()][1:]
    assert [a.get("note") for a in actions[:3]] == ["even step 0", None, "even step 2"]


def test_start_carries_params_only_when_there_are_some() -> None:
    assert "params" not in protocol.start("g", 0, 2, 5)
    assert "params" not in protocol.start("g", 0, 2, 5, {})
    line = protocol.encode(protocol.start("g", 1, 2, 5, {"w": 0.5, "depth": 3}))
    said = b'{"type":"start","game":"g","seat":1,"players":2,"seed":5,'
    assert line == said + b'"params":{"w":0.5,"depth":3}}\n'


def test_sdk_gives_choose_the_params_of_each_game() -> None:
    seen: list[dict[str, float | int]] = []

    def reader(observation: dict[str, Any], legal: list[dict[str, Any]], game: GameInfo) -> int:
        seen.append(game.params)
        return 0

    lines = [
        protocol.encode(protocol.hello("toy", "1", {}, {"move_ms": 100})),
        protocol.encode(protocol.start("g1", 0, 2, 1, {"w": 1.5})),
        protocol.encode(protocol.act("g1", 0, {}, LEGAL, 100, 1000)),
        protocol.encode(protocol.start("g2", 0, 2, 1)),
        protocol.encode(protocol.act("g2", 0, {}, LEGAL, 100, 1000)),
    ]
    run(reader, name="p", stdin=io.BytesIO(b"".join(lines)), stdout=io.BytesIO())
    assert seen == [{"w": 1.5}, {}]


def conversation(seed: int) -> list[bytes]:
    return [
        protocol.encode(protocol.hello("toy", "1", {}, {"move_ms": 100})),
        protocol.encode(protocol.start("g1", 0, 2, seed)),
        *[
            protocol.encode(protocol.act("g1", step, {}, LEGAL * 5, 100, 1000))
            for step in range(20)
        ],
        protocol.encode(protocol.end("g1", {"scores": [1, 0], "ranks": [1, 2]}, {})),
        protocol.encode(protocol.BYE),
    ]


def sdk_answers(seed: int) -> list[dict[str, object]]:
    out = io.BytesIO()
    run(
        choose,
        name="random",
        version="1",
        stdin=io.BytesIO(b"".join(conversation(seed))),
        stdout=out,
    )
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_sdk_handshake_answers_and_determinism() -> None:
    answers = sdk_answers(7)
    assert answers[0] == {"type": "ready", "name": "random", "version": "1"}
    actions = answers[1:]
    assert len(actions) == 20
    assert all(a["type"] == "action" and 0 <= a["index"] < 10 for a in actions)  # type: ignore[operator]
    assert [a["step"] for a in actions] == list(range(20))
    assert sdk_answers(7) == answers
    assert sdk_answers(8) != answers


def run_bot(cmd: list[str], cwd: Path) -> list[dict[str, object]]:
    done = subprocess.run(
        cmd, input=b"".join(conversation(7)), capture_output=True, cwd=cwd, timeout=30
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_python_random_bot_as_a_process(in_repo: Path) -> None:
    answers = run_bot([sys.executable, "-m", "bots.random"], in_repo)
    assert answers == sdk_answers(7)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_node_random_bot_speaks_the_protocol(in_repo: Path) -> None:
    answers = run_bot(["node", "bots/js/random.mjs"], in_repo)
    assert answers[0]["type"] == "ready"
    actions = answers[1:]
    assert len(actions) == 20
    assert all(0 <= a["index"] < 10 and a["step"] == i for i, a in enumerate(actions))  # type: ignore[operator]
    assert run_bot(["node", "bots/js/random.mjs"], in_repo) == answers


def test_encode_writes_the_text_a_json_list_keeps() -> None:
    layout = JsonList()
    layout.add([0, -1, "B2"], '[0,-1,"B2"]')
    layout.add([1, -1, "ż"], '[1,-1,"ż"]')
    plain = {"type": "act", "layout": list(layout), "n": 1}
    assert protocol.encode({**plain, "layout": layout}) == protocol.encode(plain)
    layout.json_text = '"kept"'  # the kept text is written as it is, not the items
    assert protocol.encode({"layout": layout}) == b'{"layout":"kept"}\n'


def test_json_list_forgets_its_text_on_any_other_change() -> None:
    layout = JsonList([[0, 0, "A1"]], '[[0,0,"A1"]]')
    twin = layout.copy()
    twin.append([1, 0, "A2"])
    assert twin.json_text is None and layout.json_text == '[[0,0,"A1"]]'
    assert protocol.encode({"l": twin}) == b'{"l":[[0,0,"A1"],[1,0,"A2"]]}\n'
    twin.sort()
    twin[0] = 5
    assert protocol.encode({"l": twin}) == b'{"l":[5,[1,0,"A2"]]}\n'


def test_encode_writes_subclasses_by_their_content() -> None:
    class Phase(enum.StrEnum):
        TURN = "turn"

    class Count(enum.IntEnum):
        ONE = 1

    class Loud(str):
        def __str__(self) -> str:
            return "LOUD"

    message = {"phase": Phase.TURN, "name": Loud("quiet"), "n": Count.ONE}
    assert protocol.encode(message) == b'{"phase":"turn","name":"quiet","n":1}\n'
    odd: dict[Any, Any] = {"t": "x", 3: 4}
    assert protocol.encode(odd) == b'{"t":"x","3":4}\n'  # through the fallback


@pytest.mark.parametrize(
    ("named", "fault"),
    [
        (2, None),  # a late answer: skipped
        (4, "the answer names step 4, but the question was step 3"),
        ("3", 'the answer names step "3" (a string), but the question was step 3'),
        (None, "names step null, but"),
        (True, "names step true (a boolean), but"),
    ],
)
def test_an_answer_naming_another_step_must_name_an_earlier_one(
    named: Any, fault: str | None
) -> None:
    message = {"type": "action", "index": 0, "step": named}
    if fault is None:
        protocol.check_stale(message, 3)
    else:
        with pytest.raises(BotProtocolError, match=re.escape(fault)):
            protocol.check_stale(message, 3)
