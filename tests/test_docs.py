"""The documents match the code: real protocol lines, every config key, links inside the
repository, TOML option defaults, readable output, the static data every engine sends."""

from __future__ import annotations

import itertools
import json
import re
import shutil
import subprocess
import tomllib
from dataclasses import fields
from pathlib import Path

import pytest
from click.testing import CliRunner

import engines
from arena import config
from arena.cli import main
from arena.config import KnockoutSpec, Limits, Policy, SprtSpec
from arena.game.seats import hello_line
from arena.stats.sprt import Sprt
from tests.conftest import ROOT
from tests.protocol_examples import protocol_examples
from tests.ratings_sim import simulate_league

PROTOCOL = (ROOT / "docs" / "protocol.md").read_text()
LEAGUES = (ROOT / "docs" / "leagues.md").read_text()
READMES = sorted((ROOT / "engines").glob("*/README.md"))


@pytest.mark.parametrize("kind", sorted(protocol_examples()))
def test_protocol_examples_are_real_lines(kind: str) -> None:
    assert protocol_examples()[kind] in PROTOCOL


def test_protocol_examples_use_actions_of_a_real_engine() -> None:
    for word in ("exchange_start", '"row"', '"col"'):
        assert word not in PROTOCOL


def test_leagues_md_lists_every_key() -> None:
    keys = {*config._TOP_KEYS, "cmd", "limits"}
    keys |= {f.name for f in fields(Limits)} | {f.name for f in fields(Policy)}
    keys |= {f.name for f in fields(SprtSpec)} | {f.name for f in fields(KnockoutSpec)}
    missing = [key for key in sorted(keys) if not re.search(rf"\b{key}\b", LEAGUES)]
    assert missing == []
    assert "transcripts/" in LEAGUES and "--replay-bot" in LEAGUES


@pytest.mark.parametrize("readme", READMES, ids=lambda p: p.parent.name)
def test_engine_readmes_point_inside_the_repository(readme: Path) -> None:
    text = readme.read_text()
    assert "/work/" not in text and "shared/" not in text
    for target in re.findall(r"\]\(([^)#]+)\)", text):
        if not target.startswith("http"):
            assert (readme.parent / target).resolve().is_relative_to(ROOT)
            assert (readme.parent / target).exists(), target


@pytest.mark.parametrize("name", engines.names())
def test_the_provenance_the_report_shows_is_plain_and_points_inside(name: str) -> None:
    said = engines.provenance(name)
    assert said and "\n" not in said
    assert not re.search(r"`|\*|:\w+:|#", said), said  # no markup: a reader sees it as is
    assert "/work/" not in said and "shared/" not in said
    for path in re.findall(r"docs/\S*", said):  # whole paths: no line break inside one
        spec = path.rstrip(",.;)")
        assert re.fullmatch(r"docs/rules/[\w-]+\.md", spec) and (ROOT / spec).exists(), path


@pytest.mark.parametrize("name", engines.names())
def test_hello_carries_the_catalog_and_the_readme_documents_it(name: str) -> None:
    engine = engines.get(name)
    hello = json.loads(hello_line(engine, {}, Limits()))
    assert hello["catalog"] == json.loads(json.dumps(engine.catalog())) != {}
    readme = (ROOT / "engines" / name.replace("-", "_") / "README.md").read_text()
    section = readme.split("## Catalog", 1)[1]
    assert all(f"`{key}`" in section for key in hello["catalog"])


def test_arena_engines_prints_toml_within_100_columns() -> None:
    output = CliRunner().invoke(main, ["engines"]).output
    assert max(len(line) for line in output.splitlines()) <= 100
    settings = [
        line.split("#")[0].strip()
        for line in output.splitlines()
        if "=" in line.split("#")[0] and line.startswith("  ")
    ]
    assert len(settings) == sum(len(engines.get(n).option_specs()) for n in engines.names())
    for setting in settings:
        tomllib.loads(setting)  # valid TOML
    assert "False" not in output and "None" not in output


@pytest.mark.parametrize("name", engines.names())
def test_play_show_ends_in_words(name: str, in_repo: Path) -> None:
    engine = engines.get(name)
    players = max(2, engine.min_players)
    args = ["play", name, "--show", *["--bot", "python -m bots.random"] * players]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "{'" not in result.output and "': " not in result.output


def test_los_is_a_percentage_in_json_and_table(tmp_path: Path, in_repo: Path) -> None:
    cfg = tmp_path / "l.toml"
    bots = "".join(f'[[bots]]\nname = "{n}"\ncmd = "python -m bots.random"\n' for n in "abc")
    cfg.write_text(f'engine = "space-five"\nplayers = 2\nrounds = 2\n{bots}')
    assert CliRunner().invoke(main, ["run", str(cfg), "--out", str(tmp_path / "o")]).exit_code == 0
    data = json.loads(
        CliRunner().invoke(main, ["standings", str(tmp_path / "o"), "--format", "json"]).output
    )
    values = [p for row in data["los"].values() for p in row.values()]
    assert values and all(0 <= p <= 100 for p in values) and max(values) > 1


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_node_bot_reads_the_catalog(in_repo: Path) -> None:
    engine = engines.get("good-boy")
    dogs = engine.catalog()["dogs"]
    low, high = (
        sorted(dogs, key=lambda d: dogs[d]["points"])[0],
        max(dogs, key=lambda d: dogs[d]["points"]),
    )
    legal = [{"type": "claim", "board": 0}, {"type": "claim", "board": 1}]
    observation = {"boards": [int(low), int(high), None]}

    def choices(hello: bytes) -> set[int]:
        lines = [hello]
        for game in range(12):
            lines.append(
                json.dumps(
                    {"type": "start", "game": f"g{game}", "seat": 0, "players": 2, "seed": game}
                ).encode()
                + b"\n"
            )
            act = {
                "type": "act",
                "game": f"g{game}",
                "step": 0,
                "observation": observation,
                "legal": legal,
                "time_ms": 1000,
                "bank_ms": 1000,
            }
            lines.append(json.dumps(act).encode() + b"\n")
        lines.append(b'{"type":"bye"}\n')
        done = subprocess.run(
            ["node", "bots/js/random.mjs"], input=b"".join(lines), capture_output=True, timeout=30
        )
        answers = [json.loads(line) for line in done.stdout.splitlines()[1:]]
        return {answer["index"] for answer in answers}

    assert choices(hello_line(engine, {}, Limits())) == {1}  # the dog worth more
    without = json.loads(hello_line(engine, {}, Limits()))
    without["catalog"] = {}
    assert choices(json.dumps(without).encode() + b"\n") == {0, 1}  # random


def test_the_example_league_file_of_leagues_md_is_valid(tmp_path: Path, in_repo: Path) -> None:
    """The full example at the top of leagues.md loads as it is, with every per-bot cap it
    names being one a bot may set."""
    example = re.search(r"```toml\n(.*?)```", LEAGUES, re.S)
    assert example is not None
    path = tmp_path / "example.toml"
    path.write_text(example.group(1))
    league = config.load(path)
    assert league.sandbox == "auto" and len(league.bots) == 3
    named = re.search(r"# (line_bytes.*?) may be set per bot", example.group(1), re.S)
    assert named is not None
    listed = re.sub(r"[#\s]+", " ", named.group(1)).replace(",", "").split()
    assert sorted(listed) == sorted(config.RESOURCE_KEYS)


def test_the_worked_example_of_ratings_md_prints_what_it_shows(
    in_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (ROOT / "docs" / "ratings.md").read_text()
    worked = text[text.index("## Worked example") :]
    code = re.search(r"```python\n(.*?)```", worked, re.S)
    shown = re.search(r"```\n(Elo: .*?)```", worked, re.S)
    assert code is not None and shown is not None
    exec(code.group(1), {})  # the repository's own documentation
    assert capsys.readouterr().out.strip() == shown.group(1).strip()


def test_the_sprt_example_of_ratings_md_prints_what_it_shows() -> None:
    """The status lines after 100 blocks and at the decision, and the verdict, of the
    simulated league the text names, tested with [elo0, elo1] = [0, 20]."""
    text = (ROOT / "docs" / "ratings.md").read_text()
    call = re.search(r"`(simulate_league\(.*?\))` of `tests/ratings_sim.py`", text, re.S)
    shown = re.search(r"```\n(SPRT .*?)```", text, re.S)
    assert call is not None and shown is not None
    records = eval(call.group(1), {"simulate_league": simulate_league})  # the docs' own call
    test = Sprt(0.0, 20.0, 0.05, 0.05, "new", "old")
    printed = []
    for _, block in itertools.groupby(records, key=lambda record: record.block):
        test.add_block(block)
        if test.blocks == 100 or test.decision:
            printed.append(test.status_line())
        if test.decision:
            break
    verdict = test.verdict()
    assert verdict is not None, "the league decides within the blocks it simulates"
    assert "\n".join([*printed, verdict]) == shown.group(1).strip()
