"""The human seat: a person at a terminal plays whole games against a bot.

The games are driven through a pseudo-terminal (pexpect) exactly as a person would type:
a number per decision, plus some bad answers that must be asked again. The same game is
then replayed in-process with the same choices (the first choice each time for the
person, the random bot with the seed the referee gave it) and the printed result must be
that game's result.
"""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import trio

import engines
from arena.config import Limits, Policy
from arena.game.local import play_local
from arena.game.referee import forfeit_ranks, forfeited_seats, play_game
from arena.game.seats import FunctionSeat, Seat
from arena.game.spec import GameSpec
from arena.record import GameRecord
from arena.sdk import GameInfo
from arena.show.human import HumanSeat, choice_label, match_choice, numbered
from bots import little_everdell_greedy as greedy_everdell
from bots import random as random_bot

pexpect = pytest.importorskip("pexpect", reason="the pseudo-terminal tests need pexpect")

ROOT = Path(__file__).resolve().parent.parent
PROMPT = r"choose 1-(\d+), \? help, q resign > "
OVER = r"=== game over: "


def first(observation: dict[str, Any], legal: list[dict[str, Any]], game: GameInfo) -> int:
    return 0


def spawn(args: list[str]) -> Any:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "arena", *args],
        cwd=str(ROOT),
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 100),
    )
    child.delaybeforesend = None
    child.logfile_read = io.StringIO()  # everything the person saw
    return child


def play_through(child: Any) -> tuple[int, str]:
    """Answer every decision with 1 until the end; return the decisions and all the output."""
    decisions = 0
    while child.expect([PROMPT, OVER]) == 0:
        decisions += 1
        child.sendline("1")
    child.expect(pexpect.EOF)
    child.close()
    return decisions, child.logfile_read.getvalue()


def result_rows(text: str) -> dict[int, tuple[int, float]]:
    """``seat -> (rank, score)`` from the person's end-of-game lines."""
    rows = re.findall(r"rank (\d+)\s+score\s+(-?[\d.]+)\s+seat (\d+):", text)
    return {int(seat): (int(rank), float(score)) for rank, score, seat in rows}


@pytest.mark.parametrize("engine", engines.names())
def test_a_person_plays_a_whole_game_by_number(engine: str) -> None:
    child = spawn(["play", engine, "--human", "Ann", "--bot", "python -m bots.random"])
    child.expect(r"Ann, you are seat 0 of 2, against seat 1 \(bots.random\)\.")
    child.expect(PROMPT)
    choices = int(child.match.group(1))
    for bad, told in (
        (str(choices + 1), f"{choices + 1} is not a choice; choose 1 to {choices}"),
        ("0", f"0 is not a choice; choose 1 to {choices}"),
        ("xyzzy", "no choice starts with 'xyzzy'"),
    ):
        child.sendline(bad)
        child.expect_exact(told)
        child.expect(PROMPT)
    child.sendline("?")
    child.expect_exact("How to answer: type the number of a choice")
    child.expect(PROMPT)
    child.sendline("1")
    child.expect_exact("you: ")
    decisions, rest = play_through(child)
    assert child.exitstatus == 0, rest[-2000:]
    assert decisions > 0

    # the bot's moves were told in words, between the person's decisions
    assert re.search(r"Since your last decision:\r?\n(  .*\r?\n)*  seat 1 \(bots.random\):? ", rest)
    assert re.search(r"\{['\"]|\[\{", rest) is None  # no raw JSON in what the person reads

    expected = play_local(engine, [first, random_bot.choose], seed=1)  # seeds as the referee's
    guide = engines.guide(engine)
    assert guide.end_line(expected.detail) in rest
    assert result_rows(rest) == {
        seat: (expected.ranks[seat], expected.scores[seat]) for seat in range(2)
    }


def test_resigning_forfeits_the_seat_and_the_bots_finish() -> None:
    child = spawn(["play", "space-five", "--human", "Bo", "--bot", "python -m bots.random"])
    child.expect(PROMPT)
    child.sendline("q")
    child.expect_exact("resign this game? y/n > ")
    child.sendline("n")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect_exact("resign this game? y/n > ")
    child.sendline("y")
    child.expect_exact("You resign this game (q)")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    table = child.before
    assert re.search(r"\n\s+0\s+2\s+.*resign 1 \(forfeit: resign\)\s+\(you, Bo\)", table), table


def play_piped(args: list[str], answers: str, tmp_path: Path) -> str:
    """``arena play`` with the person's answers piped in; what it printed (status 0)."""
    done = subprocess.run(
        [sys.executable, "-m", "arena", "play", *args],
        cwd=str(ROOT),
        input=answers,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.parametrize("engine", engines.names())
def test_the_end_line_of_a_resigned_game_names_the_winner_by_rank(
    engine: str, tmp_path: Path
) -> None:
    said = play_piped(
        [engine, "--human", "Bo", "--bot", "python -m bots.random"], "q\ny\n", tmp_path
    )
    end = said.rstrip("\n").splitlines()[-1]
    assert end == "Seat 0 resigned: it is ranked last, whatever the points; seat 1 wins."


def test_the_end_line_after_a_bots_forfeit_names_the_winner_by_rank(tmp_path: Path) -> None:
    crashing = tmp_path / "crashing_bot.py"
    crashing.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    if json.loads(line)['type'] == 'hello':\n"
        "        print(json.dumps({'type': 'ready', 'name': 'crashing'}), flush=True)\n"
        "    elif json.loads(line)['type'] == 'act':\n"
        "        sys.exit(1)\n"
    )
    args = ["cat-yard", "--human", "Bo", "--bot", f"python {crashing}"]
    said = play_piped(args, "1\n" * 2000, tmp_path)
    rows = result_rows(said)
    assert rows[1][1] > rows[0][1]  # the bot had the points: the engine would name it winner
    assert "Seat 1 forfeited: it is ranked last, whatever the points; seat 0 wins." in said
    assert "most points wins" not in said
    assert rows[0][0] == 1 and rows[1][0] == 2


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_forfeited_seats_reads_back_what_forfeit_ranks_did(players: int) -> None:
    rng = random.Random(players)
    for _ in range(200):
        ranks = sorted(rng.randint(1, players) for _ in range(players))
        ranks = [1 + sum(1 for r in ranks if r < rank) for rank in ranks]  # competition ranks
        rng.shuffle(ranks)
        out = [rng.random() < 0.4 for _ in range(players)]
        final = forfeit_ranks(ranks, ["crash" if gone else None for gone in out])
        left = forfeited_seats(ranks, final)
        assert left == ([] if final == ranks else [s for s in range(players) if out[s]])


def test_ctrl_c_at_the_prompt_stops_the_game_on_a_line_of_its_own() -> None:
    child = spawn(["play", "cat-yard", "--human", "Cy", "--bot", "python -m bots.random"])
    child.expect(PROMPT)
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    said = child.logfile_read.getvalue()
    assert re.search(r"\n\s*arena: stopped; the game was not finished", said), said[-500:]
    assert "Aborted!" not in said


def test_a_league_with_a_person_is_refused_on_a_cluster(tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="the cluster needs Dask")
    from click.testing import CliRunner

    from arena.cli import main

    config = tmp_path / "people.toml"
    config.write_text(
        'name = "p"\nengine = "space-five"\nplayers = 2\n'
        '[[bots]]\nname = "ann"\ncmd = "human"\n'
        '[[bots]]\nname = "bot"\ncmd = "python -m bots.random"\n'
    )
    result = CliRunner().invoke(main, ["run", str(config), "--workers", "1"])
    assert result.exit_code == 2, result.output
    assert 'ann (cmd = "human") plays at this terminal; run this league without' in result.output


def test_a_league_seats_a_person_and_stores_their_games(tmp_path: Path) -> None:
    config = tmp_path / "people.toml"
    config.write_text(
        'name = "people"\nengine = "little-everdell"\nplayers = 2\nseed = 4\n'
        '[[bots]]\nname = "ann"\ncmd = "human"\n'
        '[[bots]]\nname = "randy"\ncmd = "python -m bots.random"\n',
        encoding="utf-8",
    )
    out = tmp_path / "out"
    child = spawn(["run", str(config), "--out", str(out), "--jobs", "2"])
    child.expect_exact("ann at this terminal: one game at a time")
    games = []
    for number in range(2):
        if number:  # the first game's result stays on the screen until Enter
            child.expect_exact("press Enter for the next game (t0-b0-r")
            child.sendline("")
        child.expect(r"game (t0-b0-r\d) ===\r?\nann, you are seat (\d) of 2, against seat \d \(")
        games.append((child.match.group(1), int(child.match.group(2))))
        decisions, _ = play_until_over(child)
        assert decisions > 0
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert sorted(games) == [("t0-b0-r0", 0), ("t0-b0-r1", 1)]
    lines = (out / "games.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    assert sorted(r["seating"].index("ann") for r in records) == [0, 1]
    assert all(not any(r["forfeit"]) for r in records)
    league = tomllib.loads((out / "league.toml").read_text(encoding="utf-8"))
    assert {"name": "ann", "cmd": "human"} in league["bots"]


def play_until_over(child: Any) -> tuple[int, str]:
    decisions = 0
    while child.expect([PROMPT, OVER]) == 0:
        decisions += 1
        child.sendline("1")
    return decisions, child.before


def test_choices_are_named_by_number_or_by_the_start_of_their_words() -> None:
    labels = ["places A4 at (0, -1)", "places A4 at (1, 0)", "starts an exchange"]
    assert match_choice("3", labels) == 2
    assert match_choice(" start ", labels) == 2
    assert match_choice("PLACES A4 AT (1", labels) == 1
    assert match_choice("4", labels) == "4 is not a choice; choose 1 to 3"
    assert match_choice("places", labels) == "'places' fits 2 choices (1, 2); type more or a number"
    assert match_choice("draw", labels) == "no choice starts with 'draw'"
    assert choice_label("seat 2 rolls the dice") == "rolls the dice"
    assert choice_label("seat 2: buys nothing") == "buys nothing"


def test_many_choices_are_laid_out_in_columns_within_100_characters() -> None:
    lines = numbered([f"places C{i % 5 + 1} at ({i}, -{i})" for i in range(60)])
    assert len(lines) < 60 and max(len(line) for line in lines) <= 100
    assert "60. places C5 at (59, -59)" in "\n".join(lines)


@pytest.mark.parametrize("engine", engines.names())
def test_every_render_for_a_seat_fits_100_columns(engine: str) -> None:
    """Random games, 15 seeds per player count: the table of the seat to move at a third of
    the steps, drawn at random (every step of every game would take too long), and at the
    end the table of every seat."""
    game = engines.get(engine)
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(15):
            state = game.new_game(players, seed, game.check(players, {}))
            rng = random.Random(seed)
            while (seat := state.to_move()) is not None:
                if rng.random() < 1 / 3:
                    where = f"{players} players, seed {seed}, step {state_steps(state)}"
                    assert_fits_100_columns(state.render(seat), where)
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
            for seat in range(players):
                assert_fits_100_columns(state.render(seat), f"{players} players, seed {seed}")


def assert_fits_100_columns(text: str, game: str) -> None:
    for line in text.splitlines():
        assert len(line) <= 100, f"{game}: {line}"


def state_steps(state: Any) -> int:
    return int(getattr(state, "step", -1))


class Scripted:
    """A console whose person types the given lines, then closes the input."""

    def __init__(self, answers: list[str]) -> None:
        self.answers = answers
        self.said: list[str] = []

    def say(self, text: str) -> None:
        self.said.append(text)

    async def ask(self, prompt: str) -> str | None:
        self.said.append(prompt)
        return self.answers.pop(0) if self.answers else None


def play_scripted(answers: list[str], policy: Policy) -> tuple[GameRecord, Scripted]:
    console = Scripted(answers)
    spec = GameSpec("g", 0, 0, 0, seed=5, seating=("ann", "randy"))
    seats: list[Seat] = [
        HumanSeat("ann", "good-boy", console, spec.seating),
        FunctionSeat("randy", random_bot.choose, "good-boy"),
    ]
    game = engines.get("good-boy")
    record = trio.run(
        lambda: play_game(
            game, game.check(2, {}), spec, seats, Limits(move_ms=1, bank_ms=0), policy
        )
    )
    return record, console


def test_a_resignation_is_a_forfeit_whatever_the_policy() -> None:
    lenient = Policy(timeout="random", illegal="random", protocol="random", crash="random")
    record, console = play_scripted(["1", "q", "y"], lenient)
    ann = record.seats[0]
    assert ann.forfeit == "resign" and ann.verdicts == {"resign": 1} and ann.rank == 2
    assert ann.decisions == 1, "the first answer counted; the clock never ran out"
    assert any("your corner" in text for text in console.said), "the render for seat 0"


def test_the_end_of_input_resigns_and_the_person_sees_no_other_hand() -> None:
    record, console = play_scripted([], Policy())
    assert record.seats[0].forfeit == "resign"
    assert record.seats[0].notes[0].endswith("resigned (end of input)")
    assert "deck 25 cards, face down" in "\n".join(console.said)
    assert "top first" not in "\n".join(console.said)


SOLO = [name for name in engines.names() if engines.get(name).min_players == 1]


@pytest.mark.parametrize("engine", SOLO)
def test_a_solo_game_ends_saying_how_the_person_did_without_a_rank(engine: str) -> None:
    child = spawn(["play", engine, "--human", "Ann", "--seed", "7"])
    child.expect_exact("Ann, you play solo")
    _, rest = play_through(child)
    assert child.exitstatus == 0, rest[-2000:]
    expected = play_local(engine, [first], seed=7)  # seeds as the referee's
    guide = engines.guide(engine)
    assert guide.solo_outcome is not None, f"{engine} has a solo mode but no solo_outcome"
    said = rest[rest.index("=== game over") :]
    assert guide.solo_outcome(expected.detail) in said
    assert f"  score {expected.scores[0]:>4g}  seat 0: you (Ann)" in said
    assert "rank 1  score" not in said, "alone at the table the rank says nothing"


def test_the_solo_outcome_says_won_or_lost_and_that_fewer_discards_are_better() -> None:
    everdell = engines.guide("little-everdell").solo_outcome
    assert everdell is not None
    for seed, verdict in ((1, "won"), (9, "lost")):  # the greedy bot's wins and losses
        detail = play_local("little-everdell", [greedy_everdell.choose], seed=seed).detail
        mine, automa = detail["breakdown"][0]["total"], detail["automa"]["score"]
        assert (mine >= automa) == (verdict == "won")
        told = everdell(detail)
        assert told.startswith(f"You {verdict}: {mine} points against the automa prince's {automa}")
    five = engines.guide("space-five").solo_outcome
    assert five is not None
    detail = play_local("space-five", [first], seed=7).detail
    told = five(detail)
    assert told.startswith(f"Your solo score: {detail['solo_score']} (")
    assert "lower is better" in told and len(told) <= 100
