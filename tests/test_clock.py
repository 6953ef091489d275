"""Time rules with real processes: the overage bank, the slack rule (``grace_ms`` /
``grace_count``) and start-up, which no game pays for; plus the bank after a timeout (in-process).

The slow test bot (``tests/hostile/slow_by.py``) logs the ``time_ms`` and ``bank_ms`` of every
``act`` it receives to stderr, so the tests read the clock exactly as the bot saw it.
"""

from __future__ import annotations

import itertools
import uuid
from pathlib import Path
from typing import Any

import pytest
import trio

from arena import config
from arena.config import Limits, Policy
from arena.errors import BotTimeout
from arena.game.referee import play_game
from arena.game.seats import FunctionSeat
from arena.game.spec import GameSpec
from arena.league.reading import read_games
from arena.league.runner import run_league
from arena.record import GameRecord
from arena.sdk import GameInfo
from tests.conftest import ROOT, processes_with
from tests.toy_engine import ENGINE

SLOW = ROOT / "tests" / "hostile" / "slow_by.py"

pytestmark = pytest.mark.usefixtures("toy_engine", "in_repo")


def run_slow(
    tmp_path: Path, slow_args: str, limits: str, pile: int = 8
) -> tuple[list[GameRecord], list[tuple[str, int, int, int]]]:
    """A two-game league (slow bot against a random bot, both rotations), played one game at
    a time; returns the games and the slow bot's log as (game, step, time_ms, bank_ms)."""
    marker = f"m{uuid.uuid4().hex[:8]}"
    path = tmp_path / "league.toml"
    path.write_text(
        f'name = "clock"\nengine = "toy"\nplayers = 2\nseed = 5\n[options]\npile = {pile}\n'
        f"[limits]\n{limits}\n"
        f'[[bots]]\nname = "slow"\ncmd = "python {SLOW} {slow_args} {marker}"\n'
        f'[[bots]]\nname = "a"\ncmd = "python -m bots.random {marker}"\n'
    )
    league = config.load(path)
    trio.run(lambda: run_league(league, tmp_path / "out", jobs=1))
    assert processes_with(marker) == []
    acts = []
    for line in (tmp_path / "out" / "logs" / "slow.log").read_text().splitlines():
        if line.startswith("act "):
            _, game, step, time_ms, bank_ms = line.split()
            acts.append((game, int(step), int(time_ms), int(bank_ms)))
    return read_games(tmp_path / "out"), acts


def test_slack_rule_forgives_then_the_bank_pays_then_timeout(tmp_path: Path) -> None:
    # Every answer overruns move_ms by about 100 ms: well inside grace_ms, far from 0. The
    # bank pays at most 20 overruns: a timeout by the 23rd decision of the slow seat's ~32
    # (it takes 1 a turn, the random bot 1.5 on average, of 80).
    records, acts = run_slow(
        tmp_path,
        "--ms 150",
        "move_ms = 50\nbank_ms = 2000\ngrace_ms = 300\ngrace_count = 2\nstartup_ms = 5000",
        pile=80,
    )
    first = records[0].id if acts[0][0] == records[0].id else records[1].id
    banks = [bank for game, _, _, bank in acts if game == first]
    record = next(r for r in records if r.id == first)
    seat = record.seating.index("slow")
    # two overruns forgiven: the bank is untouched for the first three questions ...
    assert banks[0] == banks[1] == banks[2]
    # ... then every overrun (~100 ms) is paid from the bank ...
    paid = [before - after for before, after in itertools.pairwise(banks[2:])]
    assert paid and (60 <= paid[0] <= 300 or banks[3] == 0), banks
    # ... until it is empty: a timeout, recorded (policy random: substituted, not forfeit)
    assert record.seats[seat].verdicts.get("timeout", 0) >= 1, (record.seats, banks)
    assert set(record.seats[seat].verdicts) == {"timeout"}
    assert not record.seats[seat].forfeit


def test_without_slack_every_overrun_is_paid(tmp_path: Path) -> None:
    _records, acts = run_slow(
        tmp_path, "--ms 150", "move_ms = 50\nbank_ms = 3000\nstartup_ms = 5000", pile=4
    )
    first = acts[0][0]
    banks = [bank for game, _, _, bank in acts if game == first]
    assert banks[0] - banks[1] >= 60, banks


def test_a_league_without_a_bank_gives_each_decision_its_own_limit(tmp_path: Path) -> None:
    """``bank_ms = 0`` (as ``arena play --bank-ms 0``): no overage; every overrun of
    ``move_ms`` is a timeout, and a bot that answers in time plays without a fault."""
    records, acts = run_slow(
        tmp_path, "--ms 300", "move_ms = 100\nbank_ms = 0\nstartup_ms = 5000", pile=4
    )
    assert acts and {bank for *_, bank in acts} == {0}
    for record in records:
        slow, quick = (record.seats[record.seating.index(name)] for name in ("slow", "a"))
        assert set(slow.verdicts) == {"timeout"} and not slow.forfeit, record.seats
        assert not quick.verdicts, record.seats


def test_startup_time_is_not_charged_to_any_game(tmp_path: Path) -> None:
    """A start that takes 400 ms (of a 2000 ms bank) leaves every game's bank full: start-up
    is bounded by ``startup_ms`` alone (docs/robustness.md, "Time rules")."""
    records, acts = run_slow(
        tmp_path, "--start-ms 400", "move_ms = 500\nbank_ms = 2000\nstartup_ms = 5000"
    )
    assert all(not s.verdicts for r in records for s in r.seats)
    games = list(dict.fromkeys(game for game, *_ in acts))
    assert len(games) == 2  # one process served both games (nothing made it unusable)
    first_banks = [next(bank for game, _, _, bank in acts if game == g) for g in games]
    assert first_banks == [2000, 2000]


def test_time_ms_is_the_decision_limit(tmp_path: Path) -> None:
    _, acts = run_slow(tmp_path, "", "move_ms = 321\nbank_ms = 1000")
    assert {time_ms for _, _, time_ms, _ in acts} == {321}


def test_a_timeout_empties_the_bank() -> None:
    banks: list[int] = []

    def hangs_once(observation: dict[str, Any], legal: list[Any], game: GameInfo) -> int:
        banks.append(game.bank_ms)
        if len(banks) == 1:
            raise BotTimeout("no answer within the limit")
        return 0

    def first(observation: dict[str, Any], legal: list[Any], game: GameInfo) -> int:
        return 0

    seats = [FunctionSeat("slow", hangs_once), FunctionSeat("quick", first)]
    spec = GameSpec("g", 0, 0, 0, 5, ("slow", "quick"))
    limits = Limits(move_ms=100, bank_ms=5000)
    trio.run(lambda: play_game(ENGINE, {"pile": 12}, spec, seats, limits, Policy(timeout="random")))
    assert banks[0] == 5000
    assert banks[1:] and all(bank == 0 for bank in banks[1:]), banks
