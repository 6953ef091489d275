"""The referee's quick-answer path: a bot process with ``spin_s`` is polled for its answer
before the task parks in trio (``BotProcess.ask``). The answers, faults and transcripts are
the same on both paths; only a quick bot is polled for."""

from __future__ import annotations

import sys
import time
from collections.abc import Awaitable, Callable

import pytest
import trio

from arena.config import BotSpec, Limits
from arena.errors import BotCrash, BotProtocolError, BotTimeout
from arena.game import botproc
from arena.game.botproc import BotProcess, answer_spin
from arena.game.hosting import hosting

HELLO = b'{"type":"hello","protocol":1}\n'
READY = 'sys.stdout.write(\'{"type":"ready","name":"t","version":"1"}\\n\')'

# Each program answers `hello`, then treats every further line as a question.
ECHO = f"""
import sys
sys.stdin.readline(); {READY}; sys.stdout.flush()
for line in sys.stdin:
    sys.stdout.write(line); sys.stdout.flush()
"""
SLOW_ECHO = ECHO.replace(
    "for line in sys.stdin:\n", "import time\nfor line in sys.stdin:\n    time.sleep(0.05)\n"
)
CRASH = f"""
import sys
sys.stdin.readline(); {READY}; sys.stdout.flush()
sys.stdin.readline(); sys.exit(0)
"""
LONG_LINE = f"""
import sys
sys.stdin.readline(); {READY}; sys.stdout.flush()
sys.stdin.readline(); sys.stdout.write("x" * 5000); sys.stdout.flush(); sys.stdin.readline()
"""
LONG_WHOLE_LINE = LONG_LINE.replace('"x" * 5000', '"x" * 5000 + "\\n"')  # one read brings it all
SILENT = f"""
import sys
sys.stdin.readline(); {READY}; sys.stdout.flush()
sys.stdin.readline(); sys.stdin.readline()
"""


def with_bot(program: str, spin_s: float, body: Callable[[BotProcess], Awaitable[None]]) -> None:
    """Run ``body`` with a hosted process of ``program`` whose ``spin_s`` is set."""
    spec = BotSpec("t", (sys.executable, "-c", program), Limits(line_bytes=4096), sandbox="none")

    async def main() -> None:
        async with hosting(spin_s=spin_s) as host:
            bot = await host.pool(spec, HELLO).acquire()
            assert bot.spin_s == spin_s
            try:
                await body(bot)
            finally:
                bot.close()

    trio.run(main)


@pytest.fixture
def trips(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What took tasks through trio's scheduler: a wait on a descriptor (``fd N``) or a
    plain checkpoint."""
    seen: list[str] = []
    wait, checkpoint = trio.lowlevel.wait_readable, trio.lowlevel.checkpoint

    async def counted_wait(fd: int) -> None:
        seen.append(f"fd {fd}")
        await wait(fd)

    async def counted_checkpoint() -> None:
        seen.append("checkpoint")
        await checkpoint()

    monkeypatch.setattr(botproc.trio.lowlevel, "wait_readable", counted_wait)
    monkeypatch.setattr(botproc.trio.lowlevel, "checkpoint", counted_checkpoint)
    return seen


def answers_fd(bot: BotProcess) -> str:
    assert isinstance(bot.process.stdout, trio.lowlevel.FdStream)
    return f"fd {bot.process.stdout.fileno()}"


def later(seconds: float) -> float:
    return trio.current_time() + seconds


@pytest.fixture
def uncontended(monkeypatch: pytest.MonkeyPatch) -> None:
    """Polling goes on however long a yield takes (the test machine may be busy)."""
    monkeypatch.setattr(botproc, "_CONTENDED_YIELD_S", float("inf"))


@pytest.mark.usefixtures("uncontended")
def test_a_quick_bot_is_polled_for_and_never_waited_on(trips: list[str]) -> None:
    """Polled-for answers pass a checkpoint only every 32nd time (so other tasks still
    run), and the task never waits on the bot's output."""
    answers: list[bytes] = []

    async def body(bot: BotProcess) -> None:
        bot.transcript = []
        trips.clear()
        for i in range(100):
            answers.append(await bot.ask(b'{"q":%d}\n' % i, later(10)))
        assert bot.transcript == [
            (way, b'{"q":%d}' % i + (b"\n" if way == "to" else b""))
            for i in range(100)
            for way in ("to", "from")
        ]

        assert answers_fd(bot) not in trips
        assert trips.count("checkpoint") == 100 // 32

    with_bot(ECHO, 5.0, body)  # a window no answer can miss, however loaded the machine
    assert answers == [b'{"q":%d}' % i for i in range(100)]


def test_without_spin_every_answer_goes_through_trio(trips: list[str]) -> None:
    async def body(bot: BotProcess) -> None:
        trips.clear()
        for i in range(20):
            assert await bot.ask(b'{"q":%d}\n' % i, later(10)) == b'{"q":%d}' % i
        assert trips.count(answers_fd(bot)) + trips.count("checkpoint") >= 20

    with_bot(ECHO, 0.0, body)


def test_a_slow_bot_is_soon_waited_on_instead() -> None:
    """Its answers take 50 ms, over the 1 ms window: after the first question misses the
    window, the next ones park at once (no polling) and still get their answers."""
    polled: list[bool] = []

    async def body(bot: BotProcess) -> None:
        for i in range(4):
            polled.append(bot._latency_s < bot.spin_s)
            assert await bot.ask(b'{"q":%d}\n' % i, later(10)) == b'{"q":%d}' % i

    with_bot(SLOW_ECHO, 0.001, body)
    assert polled == [True, False, False, False]


def test_polling_stops_when_the_core_is_wanted_elsewhere(
    monkeypatch: pytest.MonkeyPatch, trips: list[str]
) -> None:
    """A yield that comes back late means another thread took the core: the referee then
    sleeps until the answer comes, for this question and the next ones."""
    monkeypatch.setattr(botproc.os, "sched_yield", lambda: time.sleep(0.001))
    slow_bot = SLOW_ECHO.replace("0.05", "0.01")
    polled: list[bool] = []

    async def body(bot: BotProcess) -> None:
        for i in range(3):
            trips.clear()
            polled.append(bot._latency_s < bot.spin_s)
            assert await bot.ask(b'{"q":%d}\n' % i, later(10)) == b'{"q":%d}' % i
            assert answers_fd(bot) in trips

    with_bot(slow_bot, 5.0, body)
    assert polled == [True, False, False]


@pytest.mark.parametrize(
    ("program", "seconds", "fault", "words"),
    [
        # a deadline no busy machine reaches, so that the fault is the bot's own
        (CRASH, 30, BotCrash, "closed its output"),
        (LONG_LINE, 30, BotProtocolError, "line longer than 4096 bytes"),
        (LONG_WHOLE_LINE, 30, BotProtocolError, "line longer than 4096 bytes"),
        (SILENT, 0.3, BotTimeout, "no answer within the time limit"),
    ],
)
def test_faults_on_the_polled_path(
    program: str, seconds: float, fault: type[Exception], words: str
) -> None:
    async def body(bot: BotProcess) -> None:
        with pytest.raises(fault, match=words):
            await bot.ask(b'{"q":0}\n', later(seconds))
        assert bot.broken

    with_bot(program, 5.0, body)


def test_only_a_referee_with_one_game_at_a_time_and_a_spare_core_polls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(botproc.os, "sched_getaffinity", lambda pid: {0, 1})
    assert answer_spin(1) == botproc.ANSWER_SPIN_S > 0
    assert answer_spin(2) == 0.0
    monkeypatch.setattr(botproc.os, "sched_getaffinity", lambda pid: {0})
    assert answer_spin(1) == 0.0
