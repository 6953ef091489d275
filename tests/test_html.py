"""The HTML report, the game viewer and the engines' board pictures, without a browser.

``tests/test_browser.py`` opens the same pages in headless Chromium.
"""

from __future__ import annotations

import base64
import dataclasses
import gzip
import json
import os
import random
import re
import stat
import subprocess
import tomllib
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import trio
from click.testing import CliRunner

import engines
from arena.cli import main
from arena.config import Limits, Policy, SprtSpec
from arena.errors import BotTimeout
from arena.game.referee import play_game
from arena.game.seats import FunctionSeat
from arena.game.spec import GameSpec
from arena.league.reading import read_games
from arena.record import GameRecord, SeatRecord
from arena.sdk import GameInfo
from arena.show.caveats import FEW_BLOCKS, caveats
from arena.show.html import charts
from arena.show.html.page import asset
from arena.show.html.report import _sprt, _think_times
from arena.show.html.selection import pick_games
from arena.show.html.viewer import SEAM, game_data, pack
from arena.stats.ratings import compute_standings
from arena.stats.trajectory import online_elo
from arena.tools.replay import narrate
from engines.testing import new_game, random_playout
from tests.conftest import run_league_file

SEATS = {"cat-yard": 3, "good-boy": 3, "if-it-fits": 3, "little-everdell": 2, "space-five": 3}


def _midgame(name: str, seed: int = 4, steps: int = 30) -> Any:
    state = new_game(engines.get(name), SEATS[name], seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.to_move() is None:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize("name", engines.names())
def test_every_engine_draws_well_formed_svg_at_every_step(name: str) -> None:
    picture = engines.picture(name)
    assert picture is not None, f"{name} has no engines/<game>/svg.py"

    def check(current: Any) -> None:
        views = {seat: current.observation(seat) for seat in range(SEATS[name])}
        root = ET.fromstring(picture.draw(views))
        assert root.tag.endswith("svg")
        ET.fromstring(picture.draw({1: views[1]}))

    state, _moves = random_playout(engines.get(name), SEATS[name], 11, each_step=check)
    check(state)


def test_space_five_draws_the_same_from_kept_layout_text_and_from_plain_lists() -> None:
    """Its grid is cached by the layout's kept JSON text where the observation has it: the
    pictures must be those drawn from plain lists (no text), step after step."""
    picture = engines.picture("space-five")
    assert picture is not None
    plain_of: dict[str, Any] = {}

    def check(current: Any) -> None:
        views = {seat: current.observation(seat) for seat in range(SEATS["space-five"])}
        assert views[0]["layout"].json_text is not None
        plain = {seat: {**view, "layout": list(view["layout"])} for seat, view in views.items()}
        assert picture.draw(views) == picture.draw(plain)
        assert picture.draw({1: views[1]}) == picture.draw({1: plain[1]})
        plain_of[picture.draw(views)] = True

    for seed in (3, 11):
        state, _moves = random_playout(engines.get("space-five"), 3, seed, each_step=check)
        check(state)
    assert len(plain_of) > 100  # the pictures changed as the games went on


@pytest.mark.parametrize("name", ["space-five", "if-it-fits"])
def test_a_seats_picture_hides_the_other_hands(name: str) -> None:
    state = _midgame(name)
    picture = engines.picture(name)
    assert picture is not None and picture.private
    own = state.observation(0)
    other = state.observation(1)["hand"]
    hidden = [card for card in other if card not in json.dumps(own)]
    assert hidden, "the test needs a card that seat 0 cannot see"
    whole = picture.draw({seat: state.observation(seat) for seat in range(SEATS[name])})
    mine = picture.draw({0: own})
    for card in hidden:
        assert f">{card}<" in whole
        assert card not in mine


def _record(seating: list[str], ranks: list[int], block: int, number: int) -> GameRecord:
    seats = tuple(
        SeatRecord(bot, float(-rank), rank, decisions=10, think_ms=5.0)
        for bot, rank in zip(seating, ranks, strict=True)
    )
    return GameRecord(f"g{number}", "space-five", "2", {}, block, 0, block, 0, seats)


def test_caveats_name_few_blocks_perfect_records_and_bots_that_never_met() -> None:
    records = [_record(["a", "b"], [1, 2], block, block) for block in range(3)]
    records += [
        _record(["c", "b"], [1 + block % 2, 2 - block % 2], block, 10 + block)
        for block in range(3, 6)
    ]
    said = " ".join(caveats(compute_standings(records, bootstrap=20)))
    assert f"Only 6 blocks (fewer than {FEW_BLOCKS}): ± is a lower bound" in said
    assert "Perfect record (a): the rating is set by the prior" in said
    assert "(b)" not in said  # b lost to a and won against c: no extreme record
    assert "never met: a–c" in said


def test_a_bot_that_lost_every_game_is_not_said_to_have_a_perfect_record() -> None:
    records = [_record(["a", "b"], [1, 2], block, block) for block in range(3)]
    records += [_record(["c", "a"], [1, 2], block, 10 + block) for block in range(3, 6)]
    said = " ".join(caveats(compute_standings(records, bootstrap=20)))
    assert "Perfect record (c); lost every game (b): the ratings are set by the prior" in said


def test_counts_of_one_are_singular() -> None:
    from arena.show.tables import render

    header = render(compute_standings([_record(["a", "b"], [1, 2], 0, 0)], bootstrap=20), "table")
    assert "1 game in 1 block." in header
    two = [_record(["a", "b"], [1, 2], block, block) for block in range(2)]
    assert "2 games in 2 blocks." in render(compute_standings(two, bootstrap=20), "table")


def test_no_caveat_for_a_long_balanced_league() -> None:
    records = [
        _record(pair, [1 + (block + i) % 2, 2 - (block + i) % 2], block, 3 * block + i)
        for block in range(FEW_BLOCKS)
        for i, pair in enumerate((["a", "b"], ["b", "c"], ["a", "c"]))
    ]
    assert caveats(compute_standings(records, bootstrap=20)) == []


def test_selection_is_bounded_and_explains_each_game() -> None:
    winners = [["a", "b"]] * 4 + [["b", "c"]] * 4 + [["a", "c"]] * 3 + [["c", "a"]]
    records = [_record(pair, [1, 2], n, n) for n, pair in enumerate(winners)]
    standings = compute_standings(records, bootstrap=0)
    for limit in (0, 2, 5, 50):
        picked = pick_games(records, standings, limit)
        assert len(picked) <= limit
        assert len({r.id for r, _ in picked}) == len(picked)
        assert all(why for _, why in picked)
    reasons = " | ".join(why for _, why in pick_games(records, standings, 50))
    assert "worst loss of" in reasons and "upset:" in reasons and " vs " in reasons


def test_the_selection_does_not_depend_on_the_order_games_were_stored_in() -> None:
    """A cluster stores blocks as they finish: the report must pick the same games."""
    winners = [["a", "b"], ["b", "a"], ["b", "c"], ["c", "b"], ["a", "c"], ["c", "a"]] * 2
    records = [_record(pair, [1, 2], n, n) for n, pair in enumerate(winners)]
    standings = compute_standings(records, bootstrap=0)
    picked = [(r.id, why) for r, why in pick_games(records, standings, 4)]
    assert [(r.id, why) for r, why in pick_games(records[::-1], standings, 4)] == picked


def _solo(bot: str, score: float, seed: int, number: int) -> GameRecord:
    seat = SeatRecord(bot, score, 1, decisions=10, think_ms=5.0)
    return GameRecord(f"s{number}", "little-everdell", "4", {}, seed, 0, seed, 0, (seat,))


def _solo_league() -> list[GameRecord]:
    """Bots a and b alone on the same three seeds; a outscores b on each."""
    scores = {"a": [30, 50, 40], "b": [20, 10, 25]}
    return [
        _solo(bot, score, seed, 10 * n + seed)
        for n, (bot, row) in enumerate(scores.items())
        for seed, score in enumerate(row)
    ]


def test_a_solo_leagues_caveat_speaks_of_seeds_not_a_perfect_record() -> None:
    said = caveats(compute_standings(_solo_league(), bootstrap=20))
    assert any(
        line.startswith("Best score on every seed (a); worst score on every seed (b): ")
        for line in said
    )
    assert not any("Perfect record" in line for line in said)
    assert "Only 3 seeds (fewer than 20): ± is a lower bound; a bootstrap over so few seeds" in (
        " ".join(said)
    )
    assert not any("block" in line for line in said)


def test_a_solo_selection_shows_every_bots_worst_and_best_game() -> None:
    records = _solo_league()
    picked = pick_games(records, compute_standings(records, bootstrap=0), 12)
    assert [(r.id, why) for r, why in picked] == [
        ("s0", "worst score of a (30)"),
        ("s1", "best score of a (50)"),
        ("s11", "worst score of b (10)"),
        ("s12", "best score of b (25)"),
    ]


def test_a_solo_report_speaks_of_one_player_and_of_seeds(tmp_path: Path) -> None:
    out = run_league_file(
        tmp_path,
        'name = "solo"\nengine = "little-everdell"\nplayers = 1\nrounds = 1\nseed = 1\n'
        '[[bots]]\nname = "greedy"\ncmd = "python -m bots.little_everdell_greedy"\n'
        '[[bots]]\nname = "random"\ncmd = "python -m bots.random"\n',
    )
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "round-robin, tables of 1 player, seed 1" in page
    assert "on the seeds both played" in page and "where both sat" not in page
    for bot in ("greedy", "random"):
        assert f"worst score of {bot} (" in page and f"best score of {bot} (" in page
    assert "one of the first games" not in page


@pytest.fixture
def league(small_league: Path) -> Path:
    return small_league


def test_run_writes_the_report_and_report_rewrites_it(league: Path, tmp_path: Path) -> None:
    page = (league / "report.html").read_text(encoding="utf-8")
    assert "<svg" in page and 'id="standings-table"' in page
    assert not re.search(r"""(src|href)=["']?(https?:)?//|url\((?!#)|@import""", page)
    target = tmp_path / "again.html"
    result = CliRunner().invoke(main, ["report", str(league), "-o", str(target), "--games", "1"])
    assert result.exit_code == 0, result.output
    assert (
        target.read_text(encoding="utf-8").count(
            '<script type="application/octet-stream" id="game-'
        )
        == 1
    )


def test_view_writes_a_page_and_an_unknown_game_is_one_line(league: Path, tmp_path: Path) -> None:
    record = read_games(league)[0]
    target = tmp_path / "one.html"
    result = CliRunner().invoke(main, ["view", str(league), record.id, "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert f'id="game-{record.id}"' in target.read_text(encoding="utf-8")
    result = CliRunner().invoke(main, ["view", str(league), "nope"])
    assert result.exit_code == 2
    assert result.output == f"arena: error: {league}: no stored game with id 'nope'\n"


def test_a_page_goes_into_a_named_pipe_and_through_a_symlink_without_replacing_them(
    league: Path, tmp_path: Path
) -> None:
    game = read_games(league)[0].id
    pipe = tmp_path / "pipe"  # stands for a device too: neither is a file to rename over
    os.mkfifo(pipe)
    reader = subprocess.Popen(["cat", str(pipe)], stdout=subprocess.PIPE)
    try:
        result = CliRunner().invoke(main, ["view", str(league), game, "-o", str(pipe)])
        got, _ = reader.communicate(timeout=60)
    finally:
        reader.kill()
        reader.wait()
    assert result.exit_code == 0, result.output
    assert stat.S_ISFIFO(pipe.lstat().st_mode)
    assert f'id="game-{game}"' in got.decode("utf-8")
    page = tmp_path / "page.html"
    page.write_text("old")
    link = tmp_path / "link.html"
    link.symlink_to(page.name)
    result = CliRunner().invoke(main, ["report", str(league), "-o", str(link), "--games", "0"])
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and os.readlink(link) == page.name
    assert 'id="standings-table"' in page.read_text(encoding="utf-8")
    result = CliRunner().invoke(main, ["report", str(league), "-o", str(tmp_path)])
    assert result.exit_code == 2
    assert "is a directory" in result.output


def test_a_page_to_dash_goes_to_standard_output(
    league: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    game = read_games(league)[0].id
    result = CliRunner().invoke(main, ["view", str(league), game, "-o", "-"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("<!DOCTYPE html>") and result.stdout.endswith("</html>\n")
    result = CliRunner().invoke(main, ["report", str(league), "-o", "-", "--games", "0"])
    assert result.exit_code == 0, result.output
    assert 'id="standings-table"' in result.stdout and result.stdout.endswith("</html>\n")
    assert list(tmp_path.iterdir()) == []


def test_viewer_data_has_one_step_per_move_and_the_seat_that_moved(league: Path) -> None:
    record = read_games(league)[0]
    data = game_data(record)
    steps = data["steps"]
    assert len(steps) == len(record.moves) + 1
    assert [s["t"] for s in steps[:-1]].count(0) == record.seats[0].decisions
    assert all(0 <= s["full"] < len(data["pictures"]) for s in steps)
    assert f"score {record.scores[0]:g}, rank {record.ranks[0]}" in data["result"]
    # each move's step holds the observation its seat was sent, as JSON (viewer.js indents it)
    state = engines.get(record.engine).new_game(record.players, record.seed, record.options)
    packed = json.loads(gzip.decompress(base64.b64decode(pack(data))))["steps"]
    for step, move in zip(packed, record.moves, strict=False):
        assert step["o"] == json.loads(json.dumps(state.observation(step["t"])))
        state.apply(state.legal_actions()[move])


def test_another_seats_move_is_told_to_a_seat_only_as_far_as_it_saw_it(league: Path) -> None:
    picks = places = 0
    for record in read_games(league):
        for step in game_data(record)["steps"][:-1]:
            mover, move, told = step["t"], step["m"], step["s"]
            assert told[mover] == ""  # the mover's own view shows the move itself
            others = [text for seat, text in enumerate(told) if seat != mover]
            card = re.search(r"\b[A-E][1-5]\b", move)
            if " picks " in move and card:  # a card picked for an exchange is hidden
                picks += 1
                assert all(card.group() not in text for text in others), (move, others)
            if " places " in move and card:  # a placed card is face up
                places += 1
                assert all(f"placed {card.group()}" in text for text in others), (move, others)
    assert picks and places, "the league needs an exchange and a placement to check"


def test_packed_pictures_join_back_to_the_pictures(league: Path) -> None:
    data = game_data(read_games(league)[0])
    packed = json.loads(gzip.decompress(base64.b64decode(pack(data))))
    rebuilt = [SEAM.join(packed["pieces"][k] for k in shape) for shape in packed["pictures"]]
    assert rebuilt == data["pictures"]
    assert len(packed["pieces"]) < sum(len(shape) for shape in packed["pictures"]) / 2
    assert packed["steps"] == data["steps"]


def test_replay_show_narrates_every_move(league: Path) -> None:
    record = read_games(league)[0]
    result = CliRunner().invoke(main, ["replay", str(league), record.id, "--show"])
    assert result.exit_code == 0, result.output
    moves = [line for line in result.output.splitlines() if line[:4].strip().isdigit()]
    assert len(moves) == len(record.moves)
    assert "Space Five - round 1 of 1" in result.output
    assert result.output.rstrip().endswith(f"ranks {list(record.ranks)})")


def test_standings_print_the_warnings(league: Path) -> None:
    result = CliRunner().invoke(main, ["standings", str(league)])
    assert result.exit_code == 0
    assert "± is a lower bound" in result.output


def test_report_of_an_engine_without_picture_or_data_table(toy_engine: str, tmp_path: Path) -> None:
    out = run_league_file(
        tmp_path,
        'name = "toy"\nengine = "toy"\nplayers = 2\nrounds = 1\nseed = 1\n'
        '[[bots]]\nname = "a"\ncmd = "python -m bots.random"\n'
        '[[bots]]\nname = "b"\ncmd = "python -m bots.random"\n',
        jobs=1,
    )
    assert engines.picture(toy_engine) is None
    record = read_games(out)[0]
    data = game_data(record)
    assert data["pictures"][0].startswith('<pre class="board-text">')
    assert "not stated" in (out / "report.html").read_text(encoding="utf-8")


def test_sprt_status_of_an_sprt_league() -> None:
    spec = SprtSpec("new", "old", elo0=0, elo1=50, alpha=0.05, beta=0.05)
    records = [
        _record(["new", "old"] if rotation else ["old", "new"], [1, 2], b, n)
        for n, (b, rotation) in enumerate((b, r) for b in range(30) for r in (0, 1))
    ]
    html = _sprt(spec, records)
    assert "SPRT new vs old: 48 games" in html  # it decides at block 24, as the league stops
    # seat 0 always wins: 1-1 blocks
    assert "H0 accepted: the games favour +0 over +50 Elo for new against old" in html
    assert "No decision yet: 1 of 1,000 blocks played." in _sprt(spec, records[:2])
    assert "No decision yet: 1 of 30 blocks played." in _sprt(
        replace(spec, max_blocks=30), records[:2]
    )
    wins = [_record(["new", "old"], [1, 2], b, b) for b in range(30)]
    assert "H1 accepted: the games favour +50 over +0 Elo for new against old" in _sprt(spec, wins)
    # the words of the terminal when the budget ends undecided, and what to do
    used_up = _sprt(replace(spec, max_blocks=1), records[:2])
    assert "SPRT budget of 1 block used up without a decision; raise max_blocks" in used_up


def test_plots_of_faults_think_times_and_rating_paths() -> None:
    records = [_record(["a", "b"], [1, 2], block, block) for block in range(4)]
    faulty = SeatRecord("b", -2.0, 2, "crash", {"timeout": 2, "crash": 1}, decisions=3)
    records.append(
        GameRecord("g9", "space-five", "2", {}, 9, 0, 9, 0, (records[0].seats[0], faulty))
    )
    standings = compute_standings(records, bootstrap=10)
    svg = charts.faults(standings)
    assert "timeout" in svg and "crash" in svg and "forfeits" in svg
    assert charts.faults(compute_standings(records[:4], bootstrap=0)) == ""
    paths = online_elo(records)
    assert [n for n, _ in paths["a"]] == [1, 2, 3, 4, 5]
    assert paths["a"][-1][1] > 1500 > paths["b"][-1][1]
    assert "<svg" in charts.rating_paths(paths)
    assert "<svg" in charts.think_times({"a": [1.0, 2.0], "b": [0.5]})


def test_axis_ticks_are_round_and_cover_the_data() -> None:
    assert charts.ticks(1292.0, 1898.0) == [1200, 1400, 1600, 1800, 2000]
    assert charts.ticks(0, 55.6, 5) == [0, 20, 40, 60]
    assert charts.ticks(0, 1, whole=True) == [0, 1]
    assert charts.log_ticks(0.08, 12) == [0.1, 0.2, 0.5, 1, 2, 5, 10]
    assert charts.log_ticks(0.001, 1e6)[:3] == [0.001, 0.01, 0.1]  # past a dozen: decades
    assert charts.log_ticks(2.5, 3.6) == [3.0]  # no 1, 2 or 5 in the range: its middle


def test_a_long_rating_path_keeps_its_extremes() -> None:
    rng = random.Random(3)
    points = [(n, 1500 + rng.gauss(0, 40)) for n in range(1, 10_001)]
    kept = charts.thinned(points, 500)
    assert len(kept) <= 1002 and kept[0] == points[0] and kept[-1] == points[-1]
    assert min(kept, key=lambda p: p[1]) == min(points, key=lambda p: p[1])
    assert max(kept, key=lambda p: p[1]) == max(points, key=lambda p: p[1])
    assert [n for n, _ in kept] == sorted(n for n, _ in kept)


def test_every_plot_is_well_formed_svg() -> None:
    records = [_record(["a", "b"], [1, 2], block, block) for block in range(6)]
    standings = compute_standings(records, bootstrap=20)
    names = [row.bot for row in standings.rows]
    pct = {bot: {o: h.score_pct for o, h in c.items()} for bot, c in standings.crosstable.items()}
    pictures = [
        charts.elo_intervals(standings),
        charts.square(names, pct, "score %", "{:.0f}"),
        charts.seat_advantage(standings.seats),
        charts.rating_paths(online_elo(records)),
        charts.think_times({"a": [0.2, 3.0, 40.0], "b <&>": [1.0]}),
    ]
    for svg in pictures:
        assert ET.fromstring(svg).tag == "{http://www.w3.org/2000/svg}svg"
    assert "b &lt;&amp;&gt;" in pictures[-1]


def test_crosstable_tells_a_pair_that_never_met_from_the_diagonal() -> None:
    pct = {"a": {"b": 75.0}, "b": {"a": 25.0}, "c": {}}
    root = ET.fromstring(charts.square(["a", "b", "c"], pct, "score %", "{:.0f}"))
    cells = [el for el in root.iter("{http://www.w3.org/2000/svg}rect")][:9]
    fills = [(cell.get("fill"), cell.get("stroke")) for cell in cells]
    diagonal = {fills[0], fills[4], fills[8]}
    assert diagonal == {(charts.PAPER, "none")}
    never_met = {fills[2], fills[5], fills[6], fills[7]}
    assert never_met == {("none", charts.PAPER)}
    assert fills[1][0] == charts.heat(75.0) and fills[3][0] == charts.heat(25.0)
    dashes = [el.text for el in root.iter("{http://www.w3.org/2000/svg}text") if el.text == "-"]
    assert len(dashes) == 4


def _noted_game(toy_engine: str) -> GameRecord:
    """A toy game: seat 0 notes its step and times out at step 2 (random policy), seat 1
    says nothing."""

    def chatty(observation: dict[str, Any], legal: list[dict[str, Any]], game: GameInfo) -> int:
        if game.step == 2:
            raise BotTimeout("slow")
        game.note = f"thinking at {game.step}"
        return 0

    seats = [FunctionSeat("chatty", chatty), FunctionSeat("quiet", lambda o, legal, g: 0)]
    spec = GameSpec("g", 0, 0, 0, 5, ("chatty", "quiet"))
    engine = engines.get(toy_engine)
    policy = Policy(timeout="random")
    return trio.run(lambda: play_game(engine, {"pile": 9}, spec, seats, Limits(), policy))


def test_viewer_shows_each_moves_think_time_note_and_fault(toy_engine: str) -> None:
    record = _noted_game(toy_engine)
    steps = game_data(record)["steps"]
    assert steps[0]["t"] == 0 and steps[0]["n"] == "thinking at 0"
    assert re.fullmatch(r"by seat 0 \(chatty\), in \d+\.\d\d ms", steps[0]["by"])
    assert steps[1]["t"] == 1 and "n" not in steps[1] and "by seat 1 (quiet), in" in steps[1]["by"]
    assert "chosen by the referee at random, after a fault on this move" in steps[2]["by"]
    assert steps[2]["f"] == ["seat 0: step 2: timeout: slow"] and "n" not in steps[2]
    assert all(step.get("f", []) == [] for i, step in enumerate(steps) if i != 2)
    narration = "\n".join(narrate(record))
    assert "[chatty, chosen by the referee]" in narration
    assert "note: 'thinking at 0'" in narration


def test_viewer_of_a_record_without_times_per_move_shows_the_mean(toy_engine: str) -> None:
    record = _noted_game(toy_engine)
    seats = tuple(dataclasses.replace(s, think_us=(), bot_notes=()) for s in record.seats)
    steps = game_data(dataclasses.replace(record, seats=seats))["steps"]
    assert "ms per decision on average in this game (no time per move stored)" in steps[0]["by"]
    assert "n" not in steps[0]


def test_options_are_spelled_as_the_league_file_writes_them(tmp_path: Path) -> None:
    """``young = false``, ``variant = "x"``: not Python's ``young=False``, ``'x'``."""
    config = tmp_path / "options.toml"
    config.write_text(
        'name = "options"\nengine = "little-everdell"\nplayers = 1\nrounds = 1\nseed = 1\n'
        '[options]\nopponent = "princess"\nautoma_first = true\n'
        '[[bots]]\nname = "random"\ncmd = "python -m bots.random"\n'
    )
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["run", str(config), "--out", str(out), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    game = read_games(out)[0].id
    assert CliRunner().invoke(main, ["view", str(out), game]).exit_code == 0
    for page in (out / "report.html", out / f"view-{game}.html"):
        text = page.read_text(encoding="utf-8")
        said = "opponent = &quot;princess&quot;, start_bonus = [], start_captain = []"
        assert said in text and "automa_first = true" in text, page
        assert "False" not in text and "&#x27;princess" not in text, page


def test_report_summary_names_each_bots_version_and_fingerprint(league: Path) -> None:
    page = (league / "report.html").read_text(encoding="utf-8")
    summary = page[page.index('id="summary"') : page.index('id="standings"')]
    for bot, print_ in tomllib.loads((league / "bots.toml").read_text()).items():
        row = summary[summary.index(f"data-bot='{bot}'") :].split("</tr>")[0]
        assert print_["ready"] in row
        for path, digest in print_["files"].items():
            assert f"{Path(path).name} {digest.removeprefix('sha256:')[:12]}" in row


def test_think_times_use_every_decision_where_records_store_them(league: Path) -> None:
    records = read_games(league)
    per_bot, per_move, without = _think_times(records)
    decisions = {bot: 0 for bot in per_bot}
    for record in records:
        for seat in record.seats:
            decisions[seat.bot] += seat.decisions
    assert per_move and without == 0
    assert {bot: len(values) for bot, values in per_bot.items()} == decisions
    old = [
        dataclasses.replace(r, seats=tuple(dataclasses.replace(s, think_us=()) for s in r.seats))
        for r in records
    ]
    means, per_move, without = _think_times(old)
    assert not per_move and without == len(records)
    assert sum(map(len, means.values())) == 2 * len(records)


def test_the_viewers_step_controls_stick_to_the_top_over_an_opaque_background() -> None:
    """A tall board scrolls under the step controls, which stay reachable (a real browser
    checks it in tests/test_browser.py)."""
    rule = re.search(r"\.viewer \.controls \{([^}]*)\}", asset("style.css"))
    assert rule is not None
    assert {"position: sticky", "top: 0", "background: #fff"} <= {
        part.strip() for part in rule.group(1).split(";")
    }
