"""Rating a results folder is one library call (``arena.rate_folder``): the README's example
prints what ``arena standings`` prints, the report rates as the command does, and a filter of
bots rates only the games among them."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest
import tomli_w
from click.testing import CliRunner

import arena
from arena.cli import main
from arena.league.layout import GAMES
from arena.league.reading import read_games
from arena.league.standings import rated_games
from tests.conftest import ROOT
from tests.ratings_sim import game

LEAGUE = """name = "three"
engine = "space-five"
players = 2
rounds = 1
seed = 5
[[bots]]
name = "a"
cmd = "python -m bots.random"
[[bots]]
name = "b"
cmd = "python -m bots.random"
[[bots]]
name = "c"
cmd = "python -m bots.space_five_greedy"
"""


@pytest.fixture(scope="module")
def example_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The README's Python example, run on a small league instead of the demo; the results
    folder, and what the example printed."""
    import contextlib
    import io
    import os

    text = (ROOT / "README.md").read_text()
    section = text[text.index("## From Python") :]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None and "arena.rate_folder(" in code.group(1)
    folder = tmp_path_factory.mktemp("readme-example")
    config, out = folder / "league.toml", folder / "out"
    config.write_text(LEAGUE)
    example = code.group(1).replace("configs/demo.toml", str(config))
    example = example.replace("results/demo", str(out))
    printed = io.StringIO()
    before = Path.cwd()
    os.chdir(ROOT)  # the league's bots are modules of the repository
    try:
        with contextlib.redirect_stdout(printed):
            exec(example, {})  # the repository's own documentation
    finally:
        os.chdir(before)
    return out, printed.getvalue()


def test_the_readme_example_prints_what_arena_standings_prints(
    example_run: tuple[Path, str],
) -> None:
    out, printed = example_run
    result = CliRunner().invoke(main, ["standings", str(out)])
    assert result.exit_code == 0, result.output
    assert printed == result.stdout
    assert "Elo" in printed and len(read_games(out)) == 3 * 2


def test_the_command_the_report_and_the_records_rate_alike(
    example_run: tuple[Path, str], tmp_path: Path
) -> None:
    """A folder whose league.toml lost a bot and that holds a game of another engine: the
    rows read by the command, the records the report read, the same standings and notes."""
    out, _ = example_run
    folder = tmp_path / "changed"
    folder.mkdir()
    stranger = game(["a", "b"], [1, 2], id="elsewhere", engine="little-everdell")
    lines = (out / GAMES).read_bytes() + stranger.to_json()
    (folder / GAMES).write_bytes(lines)
    league = tomllib.loads((out / "league.toml").read_text())
    league["bots"].append({"name": "gone", "cmd": "python -m bots.random"})  # stopped early
    (folder / "league.toml").write_text(tomli_w.dumps(league))
    from_rows = arena.rate_folder(folder, bootstrap=50)
    from_records = arena.rate_folder(folder, bootstrap=50, games=read_games(folder))
    assert from_rows == from_records
    assert from_rows.notes == (
        "1 stored game is not part of the league in league.toml (removed bots, sizes or "
        "rounds; another engine, version or options) and is not rated.",
        "Never played: gone (in league.toml, without a stored game).",
    )
    assert len(rated_games(folder, read_games(folder))) == from_rows.games == 6
    shown = CliRunner().invoke(main, ["standings", str(folder), "--format", "json"])
    assert json.loads(shown.stdout)["notes"] == list(from_rows.notes)


def test_a_filter_of_bots_rates_only_the_games_among_them(
    example_run: tuple[Path, str],
) -> None:
    out, _ = example_run
    among = arena.rate_folder(out, bootstrap=0, bots=["a", "b"])
    assert sorted(row.bot for row in among.rows) == ["a", "b"]
    assert among.games == 2  # a-b in both seat orders
    assert among.notes == (
        "4 games of the league have a bot that is not rated here and are left out.",
    )
    games = read_games(out)
    assert [g.id for g in rated_games(out, games, bots={"a", "b"})] == [
        g.id for g in games if set(g.seating) == {"a", "b"}
    ]
    alone = arena.rate_folder(out, bootstrap=0, bots=["c", "nobody"])
    assert [row.bot for row in alone.rows] == []
    assert alone.notes[-1] == "Never played: c (in league.toml, without a stored game)."
