"""An engine's optional parts are declared (``engines.parts``): the toy engine, registered
with only its required parts, works in every command, and each says what it cannot show."""

from __future__ import annotations

import ast
import inspect
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import engines
from arena.cli import main
from arena.game.local import play_local
from bots import random as random_bot
from bots.ismcts import Flags, make_choose, parse, prepare
from engines.base import EngineError, GameState, declared_fields
from engines.parts import PART_NAMES, Parts
from tests.conftest import ROOT

BUNDLED = [name for name in engines.names() if name != "toy"]


def test_the_toy_engine_declares_no_optional_part(toy_engine: str) -> None:
    assert engines.parts_of(toy_engine) == Parts()
    assert engines.parts_of(toy_engine).absent() == list(PART_NAMES)
    assert engines.get(toy_engine).catalog() == {}
    assert engines.picture(toy_engine) is None and engines.provenance(toy_engine) == ""
    assert "declares no guide" in engines.guide(toy_engine).how_to_play


@pytest.mark.parametrize("name", BUNDLED)
def test_every_declared_part_of_a_bundled_engine_imports(name: str) -> None:
    parts = engines.parts_of(name)
    assert parts.absent() == []
    for part in PART_NAMES:
        assert parts.module(part) is not None
    assert engines.guide(name).how_to_play and engines.picture(name) is not None
    assert engines.provenance(name)


def test_play_run_report_view_and_check_bot_without_the_optional_parts(
    toy_engine: str, tmp_path: Path, in_repo: Path
) -> None:
    cli = CliRunner()
    bot = "python -m bots.random"
    played = cli.invoke(main, ["play", toy_engine, "--bot", bot, "--bot", bot, "--seed", "3"])
    assert played.exit_code == 0, played.output
    listed = cli.invoke(main, ["engines"]).output
    assert "  has no guide, picture, data, sampling, public, greedy, encoding part\n" in listed
    assert listed.count("has no") == 1  # the bundled engines have every part
    checked = cli.invoke(main, ["check-bot", bot, "--engine", toy_engine, "--games", "1"])
    assert checked.exit_code == 0 and "bot is compliant" in checked.output, checked.output

    league = tmp_path / "toy.toml"
    league.write_text(
        f'name = "toy"\nengine = "{toy_engine}"\nplayers = 2\nrounds = 1\nseed = 1\n'
        f'[[bots]]\nname = "a"\ncmd = "{bot}"\n[[bots]]\nname = "b"\ncmd = "{bot}"\n'
    )
    out = tmp_path / "out"
    ran = cli.invoke(main, ["run", str(league), "--out", str(out), "--no-report"])
    assert ran.exit_code == 0, ran.output
    page = tmp_path / "report.html"
    reported = cli.invoke(main, ["report", str(out), "--output", str(page)])
    assert reported.exit_code == 0, reported.output
    assert "not stated" in page.read_text()  # the data provenance it cannot show
    viewed = cli.invoke(main, ["view", str(out), "t0-b0-r0", "--output", "-"])
    assert viewed.exit_code == 0, viewed.output
    assert "pile: " in viewed.output  # the text render stands in for a picture


def test_a_person_plays_the_toy_and_is_told_there_is_no_guide(toy_engine: str) -> None:
    register = "import engines; engines.register('toy', 'tests.toy_engine')"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            f"{register}; from arena.cli import main; main()",
            *["play", toy_engine, "--human", "Ann", "--bot", "python -m bots.random"],
        ],
        cwd=str(ROOT),
        input="?\n" + "1\n" * 25,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "No how-to-play text: engine toy declares no guide." in done.stdout
    assert "=== game over: " in done.stdout


def test_the_search_bot_plays_the_toy_with_its_plain_defaults(toy_engine: str) -> None:
    flags, _ = parse(["--iterations", "20"])
    prepare(flags)(toy_engine, {})
    record = play_local(toy_engine, [make_choose(flags), random_bot.choose], seed=4)
    assert record.detail["end"] == "last_taken"
    assert all(not seat.verdicts for seat in record.seats)


def test_a_greedy_search_on_an_engine_without_a_greedy_bot_says_so(toy_engine: str) -> None:
    with pytest.raises(EngineError, match="engine toy declares no greedy bot"):
        prepare(Flags({"guide": "greedy"}))(toy_engine, {})


def test_an_engine_without_sampling_says_a_search_bot_cannot_play_it() -> None:
    from engines.base import EngineBase
    from tests.toy_engine import ToyEngine

    class Unsampled(ToyEngine):
        sample_state = EngineBase.sample_state  # type: ignore[assignment]  # the default

    engine = Unsampled()
    seen = [engine.new_game(2, 0, {}).observation(0)]
    with pytest.raises(EngineError, match="declares no sampling part"):
        engine.sample_state(2, engine.check(2, {}), 0, seen, random.Random(0))


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """``(module, names)`` of every import in a file (``names`` empty for ``import m``)."""
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.module, [alias.name for alias in node.names]))
        elif isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
    return found


def test_bots_import_an_engine_only_through_its_declared_public_module() -> None:
    """The contract (``engines``, ``engines.base``) and each engine's ``public`` part: no
    ``rules.py`` nor any other module of an engine is a bot's API."""
    declared = [engines.parts_of(name).public for name in BUNDLED]
    allowed = {"engines", "engines.base", *(module for module in declared if module)}
    used = {
        (path.name, module)
        for path in (ROOT / "bots").glob("*.py")
        for module, _ in _imports(path)
        if module.split(".")[0] == "engines"
    }
    assert used and {module for _, module in used} <= allowed, sorted(used)
    for name in BUNDLED:
        public = engines.parts_of(name).module("public")
        assert public is not None and sorted(public.__all__) == sorted(
            n for n in vars(public) if not n.startswith("_") and n != "annotations"
        )


def test_sampling_modules_use_no_private_name() -> None:
    """``engines/*/sampling.py`` rebuild a state through its public doors only."""
    for path in (ROOT / "engines").glob("*/sampling.py"):
        text = path.read_text(encoding="utf-8")
        private = [
            node.attr
            for node in ast.walk(ast.parse(text))
            if isinstance(node, ast.Attribute) and node.attr.startswith("_")
        ]
        private += [name for _, names in _imports(path) for name in names if name.startswith("_")]
        assert private == [], f"{path.relative_to(ROOT)}: {private}"


@pytest.mark.parametrize("name", BUNDLED)
def test_each_state_field_is_declared_once(name: str) -> None:
    """In one of the copy tuples (``SHARED``, ``COPIED``...) and not again as a class
    annotation: the type goes with the field's first assignment."""
    engine = engines.get(name)
    state = engine.new_game(engine.min_players, 0, {})
    assert isinstance(state, GameState)
    cls = type(state)
    annotated = set(inspect.get_annotations(cls))
    assert annotated & set(declared_fields(cls)) == set()
