"""In-process games (arena.game.local): the referee's loop, the protocol's step, the
schedule's seeds, and one clear line for a bad command."""

from __future__ import annotations

from typing import Any

import pytest

from arena.game.local import main, play_local
from arena.game.spec import bot_seed
from arena.sdk import GameInfo


def test_choose_sees_the_protocol_step_and_the_start_seed(toy_engine: str) -> None:
    seen: list[tuple[int, int, int]] = []

    def take_one(observation: dict[str, Any], legal: list[dict[str, Any]], game: GameInfo) -> int:
        seen.append((game.step, game.seat, game.seed))
        return 0

    record = play_local(toy_engine, [take_one, take_one], seed=9, options={"pile": 7})
    assert [step for step, _, _ in seen] == list(range(len(record.moves)))
    assert {(seat, seed) for _, seat, seed in seen} == {(s, bot_seed(9, s)) for s in (0, 1)}
    assert record.seed == 9 and record.seating == ("seat0", "seat1")


def test_main_plays_rotated_blocks(toy_engine: str, capsys: pytest.CaptureFixture[str]) -> None:
    main([toy_engine, "bots.random", "tests.nim_bot", "--games", "3"])
    rows = capsys.readouterr().out.splitlines()
    assert [row.split()[0] for row in rows] == ["bots.random", "tests.nim_bot"]
    assert all(row.split()[2] == "6" for row in rows)  # 3 blocks x 2 rotations


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["chess", "bots.random"], "unknown engine 'chess'"),
        (["toy", "bots.random", "--option", "pile"], "expected KEY=VALUE"),
        (["toy", "bots.random", "bots.random", "--option", "size=1"], "unknown option 'size'"),
        (["toy", "bots.random"], "players: 1 is outside this engine's range 2..4"),
        (["toy", "mybot.py", "bots.random"], "give a module name (mybot), not a file name"),
        (["toy", "bots.random", "tests/nim_bot.py"], "module name (tests.nim_bot), not a file"),
        (["toy", "no_such_bot", "bots.random"], "no module 'no_such_bot' here"),
        (["toy", "bots.ismcts", "bots.random"], "module 'bots.ismcts' has no choose("),
    ],
)
def test_main_rejects_a_bad_command_in_one_line(
    argv: list[str], message: str, toy_engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_the_help_names_the_command_and_counts_games_per_block(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    said = " ".join(capsys.readouterr().out.split())
    assert said.startswith("usage: python -m arena.game.local ")
    assert "with 2 bots --games 50 plays 100 games" in said
