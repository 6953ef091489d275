"""The referee with in-process seats: clocks, verdicts, policies, forfeits, records."""

from __future__ import annotations

from typing import Any

import pytest
import trio

from arena.config import Limits, Policy
from arena.errors import BotCrash, BotTimeout
from arena.game.referee import forfeit_ranks, play_game
from arena.game.seats import FunctionSeat
from arena.game.spec import GameSpec
from arena.record import NOT_ASKED, NOTES_BUDGET, GameRecord
from arena.sdk import GameInfo
from arena.tools.replay import replay_record
from tests.toy_engine import ENGINE

Legal = list[dict[str, Any]]


def take_one(observation: dict[str, Any], legal: Legal, game: GameInfo) -> int:
    return 0


def take_most(observation: dict[str, Any], legal: Legal, game: GameInfo) -> int:
    return len(legal) - 1


def always_times_out(observation: dict[str, Any], legal: Legal, game: GameInfo) -> int:
    raise BotTimeout("too slow")


def crashes_at_step_3(observation: dict[str, Any], legal: Legal, game: GameInfo) -> int:
    if game.step >= 3:
        raise BotCrash("exited")
    return 0


def out_of_range(observation: dict[str, Any], legal: Legal, game: GameInfo) -> int:
    return 99


def play(*choosers: Any, policy: Policy | None = None, pile: int = 21) -> GameRecord:
    seats = [FunctionSeat(f"s{i}", c) for i, c in enumerate(choosers)]
    spec = GameSpec("g", 0, 0, 0, 5, tuple(f"s{i}" for i in range(len(seats))))
    return trio.run(
        lambda: play_game(ENGINE, {"pile": pile}, spec, seats, Limits(), policy or Policy())
    )


def test_clean_game_records_everything(toy_engine: str) -> None:
    record = play(take_one, take_most)
    assert record.moves and all(i in (0, 1) for i in record.moves)
    assert sorted(record.ranks) == [1, 2]
    assert [s.verdicts for s in record.seats] == [{}, {}]
    assert [s.forfeit for s in record.seats] == [None, None]
    assert sum(s.decisions for s in record.seats) == len(record.moves)
    assert replay_record(record) == []


def test_timeout_with_random_policy_substitutes_and_counts() -> None:
    record = play(always_times_out, take_one, policy=Policy(timeout="random"))
    seat0_turns = (len(record.moves) + 1) // 2
    assert record.seats[0].verdicts == {"timeout": seat0_turns}
    assert [s.forfeit for s in record.seats] == [None, None]
    assert record.seats[0].decisions == 0


def test_forfeit_ranks_last_and_is_played_on_by_random(toy_engine: str) -> None:
    record = play(crashes_at_step_3, take_one, pile=30)
    assert record.seats[0].verdicts == {"crash": 1}
    assert [s.forfeit for s in record.seats] == ["crash", None]
    assert record.ranks == (2, 1)
    assert replay_record(record) == []


def test_think_time_per_turn_and_notes_are_recorded(toy_engine: str) -> None:
    def says_its_step(observation: dict[str, Any], legal: Legal, game: GameInfo) -> int:
        game.note = f"step {game.step} " + "x" * 150
        return 0

    record = play(crashes_at_step_3, says_its_step, pile=80)
    first, second = record.seats
    turns = [len(record.moves[i::2]) for i in range(2)]  # the toy engine alternates seats
    assert [len(first.think_us), len(second.think_us)] == turns
    assert all(us >= 0 for us in second.think_us)
    assert first.think_us[:2] != (NOT_ASKED, NOT_ASKED)  # answered before its crash
    assert set(first.think_us[2:]) == {NOT_ASKED}  # forfeited: the referee played on
    assert first.bot_notes == ()
    kept = [text for _, text in second.bot_notes]
    assert all(text.startswith(f"step {step} ") for step, text in second.bot_notes)
    assert [step for step, _ in second.bot_notes] == list(range(1, 2 * len(kept), 2))
    assert sum(map(len, kept)) <= NOTES_BUDGET < sum(map(len, kept)) + 160  # then it stops
    assert len(kept) < turns[1]
    assert GameRecord.from_json(record.to_json()) == record


def test_index_out_of_range_is_illegal() -> None:
    record = play(out_of_range, take_one)
    assert record.seats[0].verdicts == {"illegal": 1}
    assert record.seats[0].forfeit == "illegal"


@pytest.mark.parametrize(
    ("ranks", "forfeited", "expected"),
    [
        ([1, 2, 3], [None, None, None], [1, 2, 3]),
        ([1, 2, 3], ["crash", None, None], [3, 1, 2]),
        ([1, 1, 3, 4], [None, None, "timeout", "disqualified"], [1, 1, 3, 3]),
        ([2, 1], [None, "illegal"], [1, 2]),
    ],
)
def test_forfeit_ranks(ranks: list[int], forfeited: list[str | None], expected: list[int]) -> None:
    assert forfeit_ranks(ranks, forfeited) == expected


def test_same_seed_same_game() -> None:
    first = play(take_one, take_most)
    second = play(take_one, take_most)
    assert first.moves == second.moves and first.ranks == second.ranks
