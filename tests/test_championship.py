"""Swiss and knockout leagues played end to end: the league file, the driver's feed, resume
after a kill, and what arena run prints. (The pairing rules themselves:
tests/test_swiss_pairing.py.)"""

from __future__ import annotations

import dataclasses
import signal
import uuid
from collections import Counter
from itertools import combinations
from pathlib import Path
from random import Random

import pytest
import trio
from click.testing import CliRunner

from arena import config
from arena.cli import main
from arena.errors import ConfigError, ResultsError
from arena.game.spec import GameSpec
from arena.league.championship import by_block, knockout_event, swiss_event
from arena.league.feeds import ChampionshipFeed
from arena.league.reading import read_games
from arena.league.runner import run_league
from arena.league.schedule import Shape, game_count, misplaced
from arena.record import GameRecord
from tests.conftest import processes_with, wait_until
from tests.ratings_sim import game as sim_game
from tests.test_league import comparable, run_cli


def bots(marker: str, count: int) -> str:
    return "".join(
        f'[[bots]]\nname = "b{i}"\ncmd = "python -m bots.random {marker}-b{i}"\n'
        for i in range(count)
    )


def swiss_text(marker: str, engine: str = "toy", field: int = 7, rounds: int = 3) -> str:
    return (
        f'name = "sw"\nengine = "{engine}"\nmode = "swiss"\nplayers = 3\nrounds = {rounds}\n'
        f"seed = 4\n{bots(marker, field)}"
    )


KNOCKOUT = (
    "[knockout]\nstages = [{table = 4, advance = 2}, {table = 3, advance = 1}]\n"
    "tiebreak_blocks = 1\n"
)


def knockout_text(marker: str, engine: str = "toy", field: int = 9) -> str:
    return (
        f'name = "ko"\nengine = "{engine}"\nmode = "knockout"\nplayers = [2, 3, 4]\nseed = 8\n'
        f"{KNOCKOUT}{bots(marker, field)}"
    )


def load(tmp_path: Path, text: str) -> config.LeagueConfig:
    path = tmp_path / "league-file.toml"
    path.write_text(text)
    return config.load(path)


def played(league: config.LeagueConfig, spec: GameSpec, ranks: list[int]) -> GameRecord:
    """The stored game of ``spec`` with these places (seat by seat of the table, rotated)."""
    seated = [ranks[(seat + spec.rotation) % spec.players] for seat in range(spec.players)]
    record = sim_game(
        spec.seating,
        seated,
        id=spec.id,
        engine=league.engine,
        options=league.options,
        seed=spec.seed,
        table=spec.table,
        block=spec.block,
        rotation=spec.rotation,
    )
    return dataclasses.replace(record, engine_version=league.engine_version)


def blocks_of(records: list[GameRecord]) -> dict[tuple[int, int], list[GameRecord]]:
    found: dict[tuple[int, int], list[GameRecord]] = {}
    for record in records:
        found.setdefault((record.table, record.block), []).append(record)
    return found


# ---- the league file ----------------------------------------------------------------------


def test_a_knockout_file_round_trips_through_league_toml(tmp_path: Path, toy_engine: str) -> None:
    league = load(tmp_path, knockout_text("x").replace("tiebreak_blocks = 1", 'seeding = "random"'))
    assert league.knockout is not None and league.knockout.seeding == "random"
    assert [(s.table, s.advance) for s in league.knockout.stages] == [(4, 2), (3, 1)]
    again = config.read_back(league.to_toml(), source="stored", default_name="x")
    assert again == league and again.to_toml() == league.to_toml()
    swiss = load(tmp_path, swiss_text("x"))
    assert config.read_back(swiss.to_toml(), source="s", default_name="x") == swiss


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("players = [2, 3, 4]", "players = [4]"),
            "knockout.stages: stage 2 of a field of 9 seats a table of 3, which players = [4] "
            "does not list; add 3 to players (every table size of every stage)",
        ),
        (("advance = 2}", "advance = 4}"), "knockout.stages: stage 1: advance must be 1 to 3"),
        (("players = [2, 3, 4]", "players = [2, 3, 4, 9]"), "players: 9 is outside"),
        ((KNOCKOUT, ""), "knockout: missing required key"),
        (("seed = 8", "seed = 8\n[knockout.x]"), "knockout.x: unknown key"),
    ],
)
def test_knockout_file_mistakes_are_one_line(
    tmp_path: Path, toy_engine: str, change: tuple[str, str], message: str
) -> None:
    text = knockout_text("x").replace(*change)
    with pytest.raises(ConfigError) as caught:
        load(tmp_path, text)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_a_swiss_league_plays_one_table_size_and_fills_it(tmp_path: Path, toy_engine: str) -> None:
    with pytest.raises(ConfigError, match="a Swiss league plays one table size"):
        load(tmp_path, swiss_text("x").replace("players = 3", "players = [2, 3]"))
    with pytest.raises(ConfigError, match="2 bots cannot fill a table of 3 seats"):
        load(tmp_path, swiss_text("x", field=2))


# ---- played end to end ----------------------------------------------------------------------


def test_a_swiss_league_end_to_end(tmp_path: Path, toy_engine: str, in_repo: Path) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    league = load(tmp_path, swiss_text(marker))
    outcome = trio.run(lambda: run_league(league, tmp_path / "two", jobs=2))
    stored = read_games(tmp_path / "two")
    # 7 bots at tables of 3: two tables and a bye a round, 6 games a round
    assert outcome.played == outcome.scheduled == game_count(league) == 18 == len(stored)
    assert len({r.id for r in stored}) == 18
    event = swiss_event(league, by_block(league, stored))
    assert event.finished and len(event.rounds) == 3
    byes = [name for r in event.rounds for name in r.pairing.byes]
    assert len(byes) == len(set(byes)) == 3  # rotating: nobody has a second bye
    pairs = Counter(
        frozenset(pair)
        for r in event.rounds
        for table in r.pairing.tables
        for pair in combinations(table, 2)
    )
    # 7 bots: two disjoint triples never share no pair with the triples before them (the
    # Fano plane's lines all meet), so meetings repeat, but no pair meets a third time
    assert max(pairs.values()) == 2
    points = {line.name: line.match_points for line in event.standings}
    assert sum(points.values()) == 3 * (2 * 3 + 1)  # a table gives 2+1+0, a bye 1
    assert [line.match_points for line in event.standings] == sorted(points.values())[::-1]
    shape = Shape.of(league)
    assert shape is not None and all(map(shape.plays, stored))
    assert misplaced(league, stored, {}) == {}
    # the same seed: the same pairings and games, whatever the number of jobs
    trio.run(lambda: run_league(league, tmp_path / "one", jobs=1))
    assert comparable(read_games(tmp_path / "one")) == comparable(stored)
    assert processes_with(marker) == []


def test_a_knockout_ends_with_one_winner(tmp_path: Path, toy_engine: str, in_repo: Path) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    league = load(tmp_path, knockout_text(marker))
    outcome = trio.run(lambda: run_league(league, tmp_path / "out", jobs=2))
    stored = read_games(tmp_path / "out")
    event = knockout_event(league, by_block(league, stored))
    assert event.finished and event.bracket.winner in {f"b{i}" for i in range(9)}
    assert outcome.played == len(stored) == len({r.id for r in stored})
    assert len(stored) >= outcome.scheduled  # tie-break blocks come on top
    assert {r.id for r in stored} == {spec.id for block in event.blocks for spec in block}
    final = event.bracket.stages[-1]
    assert len(final) == 1 and final[0].heat.final
    assert final[0].advancing == (event.bracket.winner,)
    assert misplaced(league, stored, {}) == {}
    assert processes_with(marker) == []


@pytest.mark.parametrize("mode", ["swiss", "knockout"])
def test_every_stop_point_resumes_with_the_same_blocks(
    tmp_path: Path, toy_engine: str, in_repo: Path, mode: str
) -> None:
    """A run stopped after any number of stored games (in every round, every stage) is
    handed exactly the blocks the uninterrupted run played, from the stored games alone."""
    marker = f"m{uuid.uuid4().hex[:8]}"
    text = swiss_text(marker) if mode == "swiss" else knockout_text(marker)
    league = load(tmp_path, text)
    trio.run(lambda: run_league(league, tmp_path / "out", jobs=2))
    stored = read_games(tmp_path / "out")  # in the order they were stored
    played = {r.id: (r.seating, r.seed) for r in stored}
    for cut in range(len(stored) + 1):
        kept = stored[:cut]
        feed = ChampionshipFeed(league)
        for block in blocks_of(kept).values():
            if len(block) == block[0].players:
                feed.block_done(sorted(block, key=lambda r: r.id))
        handed = next(iter(feed), None)
        if cut == len(stored):
            assert handed is None  # over: the iteration ends
            continue
        assert handed, f"no block to play after {cut} stored games"
        assert {spec.id: (spec.seating, spec.seed) for spec in handed}.items() <= played.items()
        assert misplaced(league, kept, {}) == {}


def test_a_swiss_run_killed_with_sigkill_resumes_to_the_same_results(tmp_path: Path) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    cfg = tmp_path / "sw.toml"  # 8 bots at tables of 2: 8 games a round
    cfg.write_text(
        swiss_text(marker, engine="little-everdell", field=8, rounds=3).replace(
            "players = 3", "players = 2"
        )
    )
    league = config.load(cfg)
    reference = trio.run(lambda: run_league(league, tmp_path / "ref", jobs=2))
    assert reference.played == 24
    out = tmp_path / "out"
    proc = run_cli("run", str(cfg), "--out", str(out), "--jobs", "2", "--no-report")
    games = out / "games.jsonl"
    wait_until(lambda: games.exists() and games.read_bytes().count(b"\n") >= 10, "10 games")
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    killed = len(read_games(out))
    assert 10 <= killed < 24  # in the second round or later, not the end
    wait_until(lambda: processes_with(marker) == [], "the killed run's bots to end")
    resumed = run_cli("run", str(cfg), "--out", str(out), "--jobs", "2", "--no-report")
    stdout, err = resumed.communicate(timeout=180)
    assert resumed.returncode == 0, err
    final = read_games(out)
    assert comparable(final) == comparable(read_games(tmp_path / "ref"))
    assert "Swiss standings after 3 of 3 rounds" in stdout
    assert processes_with(marker) == []


def test_arena_run_prints_the_knockout_bracket_and_winner(
    tmp_path: Path, toy_engine: str, in_repo: Path
) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    cfg = tmp_path / "ko.toml"
    cfg.write_text(knockout_text(marker, field=5))
    out = tmp_path / "out"
    args = ["run", str(cfg), "--out", str(out), "--jobs", "2", "--no-report"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    league = config.load(cfg)
    event = knockout_event(league, by_block(league, read_games(out)))
    assert f"Knockout: winner {event.bracket.winner}" in result.output
    assert "games scheduled (and a block more for each tie on a cut)" in result.output
    assert "Final table" in result.output and "wins" in result.output
    shown = CliRunner().invoke(main, ["standings", str(out)])
    assert f"Knockout: winner {event.bracket.winner}" in shown.output
    assert processes_with(marker) == []


def test_a_damaged_round_is_set_aside_and_played_again(
    tmp_path: Path, toy_engine: str, in_repo: Path
) -> None:
    """A stored game whose id the Swiss pairing gives to another seating (a line edited by
    hand) is moved aside, as in any league, and its game is played; so are the games of the
    round after it, whose pairing waited on its result (their ids may go to other games)."""
    marker = f"m{uuid.uuid4().hex[:8]}"
    league = load(tmp_path, swiss_text(marker, rounds=2))
    trio.run(lambda: run_league(league, tmp_path / "out", jobs=2))
    games = tmp_path / "out" / "games.jsonl"
    lines = games.read_text().splitlines(keepends=True)
    first = GameRecord.from_json(lines[0].encode())
    wrong = lines[0].replace(f'"{first.seating[0]}"', '"nobody"', 1)
    games.write_text(wrong + "".join(lines[1:]))
    said: list[str] = []
    again = trio.run(lambda: run_league(league, tmp_path / "out", jobs=2, say=said.append))
    assert again.played == 1 + 6 and again.skipped == 5  # 6 games a round
    assert sum("not the league's game of that id" in line for line in said) == 7
    assert sum("its round is not paired yet" in line for line in said) == 6
    assert comparable(read_games(tmp_path / "out")) == comparable(
        [GameRecord.from_json(line.encode()) for line in lines]
    )


def test_another_field_is_another_swiss_league(
    tmp_path: Path, toy_engine: str, in_repo: Path
) -> None:
    """Every pairing depends on the whole field: a bot added or removed is refused, not
    paired anew over the stored rounds."""
    marker = f"m{uuid.uuid4().hex[:8]}"
    league = load(tmp_path, swiss_text(marker, rounds=1))
    trio.run(lambda: run_league(league, tmp_path / "out", jobs=2))
    smaller = load(tmp_path, swiss_text(marker, field=6, rounds=1))
    with pytest.raises(ResultsError, match="holds games of a different league \\(field: "):
        trio.run(lambda: run_league(smaller, tmp_path / "out", jobs=2))
    longer = load(tmp_path, swiss_text(marker, rounds=2))  # more rounds: the same league
    assert trio.run(lambda: run_league(longer, tmp_path / "out", jobs=2)).played == 6


def test_a_feed_pairs_each_round_once(
    tmp_path: Path, toy_engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pairing of a large field takes seconds: the feed pairs each round once, not again
    at every block that comes in."""
    import arena.league.championship as championship

    league = load(
        tmp_path, swiss_text("x", field=20, rounds=4).replace("players = 3", "players = 4")
    )
    calls: list[int] = []
    pair = championship.pair_round

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return pair(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(championship, "pair_round", counted)
    championship.paired.cache_clear()
    feed = ChampionshipFeed(league)
    rng = Random(3)
    blocks = 0
    for block in feed:
        assert block, "every block is answered at once here"
        ranks = [rng.randrange(1, 5) for _ in block[0].seating]
        feed.block_done([played(league, spec, ranks) for spec in block])
        blocks += 1
    assert blocks == 4 * 5 and len(calls) == 4
