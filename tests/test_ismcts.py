"""The ISMCTS bot as a real subprocess bot: compliant on every engine, deterministic with a
fixed iteration budget, and its search parts on their own."""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys
import tomllib
import uuid
from pathlib import Path
from typing import Any

import pytest
import trio
from click.testing import CliRunner

import engines
from arena import protocol
from arena.cli import main
from arena.league.reading import read_games
from arena.league.runner import run_league
from arena.sdk import GameInfo, run
from bots.ismcts import (
    Node,
    Search,
    Settings,
    budget_s,
    margin_utility,
    parse,
    random_playout,
)
from engines.base import Result, action_key, utility
from tests.conftest import ROOT, processes_with
from tests.test_league import comparable, load
from tests.toy_engine import ToyEngine

FAST = "python -m bots.ismcts --iterations 3 --depth 6"


@pytest.mark.parametrize("engine", engines.names())
def test_check_bot_passes_ismcts(engine: str, in_repo: Path) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    result = CliRunner().invoke(
        main, ["check-bot", f"{FAST} --name {marker}", "--engine", engine, "--games", "1"]
    )
    assert result.exit_code == 0, result.output
    assert "bot is compliant" in result.output
    assert processes_with(marker) == []


def test_fixed_iterations_replay_the_same_games(tmp_path: Path, in_repo: Path) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    text = (
        'name = "t"\nengine = "cat-yard"\nplayers = 2\nrounds = 1\nseed = 5\n'
        f'[[bots]]\nname = "ismcts"\ncmd = "{FAST} --name {marker}"\n'
        f'[[bots]]\nname = "greedy"\ncmd = "python -m bots.cat_yard_greedy"\n'
    )
    league = load(tmp_path, text)
    first = trio.run(lambda: run_league(league, tmp_path / "one", jobs=1))
    second = trio.run(lambda: run_league(league, tmp_path / "two", jobs=2))
    assert first.played == second.played == 2
    one, two = read_games(tmp_path / "one"), read_games(tmp_path / "two")
    assert comparable(one) == comparable(two)
    assert all(not seat.verdicts for record in one for seat in record.seats)
    assert processes_with(marker) == []


def test_action_keys_ignore_key_order_and_tell_actions_apart() -> None:
    a = {"type": "lure", "slot": 1, "fields": [0, 2], "wilds": []}
    b = {"wilds": [], "fields": [0, 2], "slot": 1, "type": "lure"}
    assert action_key(a) == action_key(b)
    assert action_key(a) != action_key({**a, "fields": [2, 0]})
    assert hash(action_key({"type": "x", "nested": {"k": [1, {"z": 2}]}}))


def test_utility_is_rank_based_on_one_scale() -> None:
    assert utility(Result([3.0, 1.0], [1, 2]), 0) == 1.0
    assert utility(Result([3.0, 1.0], [1, 2]), 1) == 0.0
    tied = Result([2.0, 2.0, 0.0], [1, 1, 3])
    assert utility(tied, 0) == utility(tied, 1) == 0.75 and utility(tied, 2) == 0.0
    assert utility(Result([5.0], [1], {"solo_utility": 0.25}), 0) == 0.25
    assert utility(Result([5.0], [1]), 0) == 0.5


@pytest.mark.parametrize(("pile", "best"), [(4, 1), (5, 2), (7, 1)])
def test_search_finds_the_winning_take(pile: int, best: int) -> None:
    """Take 1 or 2, the last counter wins: leaving a multiple of 3 wins, and search finds
    that take from the observation alone."""
    engine = ToyEngine()
    game = GameInfo("toy", {"pile": pile}, "g", 0, 2, 1, random.Random(3))
    seen = [engine.new_game(2, 1, {"pile": pile}).observation(0)]
    legal = [{"type": "take", "n": 1}, {"type": "take", "n": 2}]
    search = Search(engine, game, 0.7, random_playout, -1)
    assert legal[search.choose(seen, legal, 300, 0.0)]["n"] == best
    assert search.iterations == 300


def test_margin_utility_is_a_smoothed_rank() -> None:
    result = Result([10.0, 7.0, 10.0], [1, 3, 1])
    assert margin_utility(result, 0, 1e-6) == pytest.approx(utility(result, 0))
    assert margin_utility(result, 1, 1e-6) == pytest.approx(utility(result, 1))
    assert margin_utility(Result([4.0, 4.0], [1, 1]), 0, 2.0) == 0.5
    close, far = Result([8.0, 7.0], [1, 2]), Result([12.0, 7.0], [1, 2])
    assert 0.5 < margin_utility(close, 0, 2.0) < margin_utility(far, 0, 2.0) < 1.0


def test_confidence_keeps_the_guide_unless_another_action_is_clearly_better() -> None:
    engine = ToyEngine()
    game = GameInfo("toy", {"pile": 9}, "g", 0, 2, 1, random.Random(3))
    legal = [{"type": "take", "n": 1}, {"type": "take", "n": 2}]
    search = Search(engine, game, 0.7, random_playout, -1, first=0, confidence=2.0)
    search.first = action_key(legal[0])
    root = Node(0)
    guide, other = root.children[action_key(legal[0])], root.children[action_key(legal[1])] = (
        Node(0),
        Node(0),
    )
    for node, values in ((guide, [0.0, 1.0] * 10), (other, [0.0, 1.0, 1.0] * 10)):
        for value in values:
            node.visits += 1
            node.total += value
            node.squares += value * value
    assert search.keep_guide(root, action_key(legal[1]), 1) == 0  # 0.67 vs 0.5: noise
    for _ in range(400):
        other.visits += 1
        other.total += 1.0
        other.squares += 1.0
    assert search.keep_guide(root, action_key(legal[1]), 1) == 1  # 0.99 vs 0.5: clear


def test_flat_search_leaves_a_wrong_guide_on_clear_evidence() -> None:
    """Pile 4: taking 1 wins 75 % of random play-outs, taking 2 only 50 %. A guide that
    picks 2, with a progressive bias toward it and the tree cut to the root level, is still
    overruled after 400 iterations; with 2 iterations it is kept."""
    engine = ToyEngine()
    seen = [engine.new_game(2, 1, {"pile": 4}).observation(0)]
    legal = [{"type": "take", "n": 1}, {"type": "take", "n": 2}]
    for iterations, taken in ((400, 1), (2, 2)):
        game = GameInfo("toy", {"pile": 4}, "g", 0, 2, 1, random.Random(3))
        search = Search(
            engine, game, 0.7, random_playout, -1, first=1, prior=0.3, tree_depth=1, confidence=1.0
        )
        assert legal[search.choose(seen, legal, iterations, 0.0)]["n"] == taken
        assert all(not child.children for child in search.root.children.values())


def test_paired_search_leaves_a_wrong_guide_on_clear_evidence() -> None:
    """Pile 4 again, the guide taking 2: paired comparisons (each sampled world played
    after the guide's take and after the other one, on the same random stream) overrule it
    after 200 iterations and keep it after 1; only the challenger gets a node."""
    engine = ToyEngine()
    seen = [engine.new_game(2, 1, {"pile": 4}).observation(0)]
    legal = [{"type": "take", "n": 1}, {"type": "take", "n": 2}]
    for iterations, taken in ((200, 1), (1, 2)):
        game = GameInfo("toy", {"pile": 4}, "g", 0, 2, 1, random.Random(3))
        search = Search(engine, game, 0.7, random_playout, -1, first=1, confidence=1.0, paired=True)
        assert legal[search.choose(seen, legal, iterations, 0.0)]["n"] == taken
        assert list(search.root.children) == [action_key(legal[0])]
        challenger = search.root.children[action_key(legal[0])]
        assert challenger.visits == iterations and -1.0 <= challenger.total / iterations <= 1.0


@pytest.mark.parametrize("engine", engines.names())
def test_the_engine_and_the_greedy_bot_are_loaded_before_ready(engine: str) -> None:
    """What the first search would import is imported at ``hello`` (the start-up limit pays
    for it, not the first decision's clock), for options that fit only some table sizes too."""
    code = (
        "import sys\n"
        "from bots.ismcts import Settings, prepare\n"
        "before = set(sys.modules)\n"
        f"prepare(Settings(playout='greedy', guide='greedy'))({engine!r}, {{}})\n"
        "print(' '.join(sorted(set(sys.modules) - before)))\n"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.split()
    package = engine.replace("-", "_")
    assert f"bots.{package}_greedy" in loaded and f"engines.{package}.rules" in loaded
    assert f"engines.{package}.sampling" in loaded or engine == "good-boy"


def test_on_hello_runs_before_the_ready_answer() -> None:
    heard: list[tuple[str, dict[str, Any]]] = []
    out = io.BytesIO()

    def on_hello(engine: str, options: dict[str, Any]) -> None:
        assert out.getvalue() == b""  # ready is not sent yet
        heard.append((engine, options))

    hello = protocol.encode(protocol.hello("toy", "1", {"pile": 5}, {}))
    run(lambda *_: 0, name="x", on_hello=on_hello, stdin=io.BytesIO(hello), stdout=out)
    assert heard == [("toy", {"pile": 5})]
    assert protocol.decode(out.getvalue())["type"] == "ready"


def test_a_decision_leaves_a_reserve_of_the_clock() -> None:
    share = Settings(time_share=0.75)
    assert budget_s(share, 1000) == pytest.approx(0.75)  # the share is the smaller
    assert budget_s(share, 50) == pytest.approx(0.020)  # 50 ms less the 30 ms reserve
    assert budget_s(share, 20) == 0.0  # under the reserve: one iteration, then answer


@pytest.mark.parametrize(
    "flags",
    [
        "--iterations 0",
        "--time-share 3",
        "--epsilon 7 --playout greedy",
        "--epsilon 0.1",
        "--paired",
        "--prior 5",
        "--confidence 1",
        "--exploration -1",
    ],
)
def test_flags_out_of_range_or_without_their_guide_are_usage_errors(flags: str) -> None:
    with pytest.raises(SystemExit) as stopped:
        parse(flags.split())
    assert stopped.value.code == 2


def test_the_help_shows_the_default_of_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        parse(["--help"])
    assert stop.value.code == 0
    options = capsys.readouterr().out.split("options:", 1)[1]
    entries = [" ".join(entry.split()) for entry in re.split(r"\n  (?=-)", options)[1:]]
    assert len(entries) == 14
    for entry in entries:
        if not entry.startswith(("-h", "--paired")):
            assert "(default" in entry, entry
    said = " ".join(entries)
    assert "(default random, or the engine's tuned value)" in said
    assert "(default none: no guide, or the engine's tuned value)" in said


@pytest.mark.parametrize("engine", [n for n in engines.names() if n != "toy"])
def test_without_flags_each_engine_plays_its_league_files_settings(engine: str) -> None:
    """No flags: the settings of ``configs/ismcts-<engine>.toml``, read from the file."""
    league = tomllib.loads((ROOT / "configs" / f"ismcts-{engine}.toml").read_text())
    command = next(bot["cmd"] for bot in league["bots"] if bot["name"] == "ismcts")
    flags, _ = parse([])
    assert flags.for_engine(engine) == parse(command.split()[3:])[0].for_engine(engine)
    assert flags.for_engine(engine) != Settings()


def test_flags_given_win_over_the_engines_settings() -> None:
    flags, _ = parse(["--playout", "greedy", "--depth", "7", "--guide", "none"])
    settings = flags.for_engine("space-five")  # best known: random, depth 30, guide greedy
    assert (settings.playout, settings.depth, settings.guide) == ("greedy", 7, "none")
    assert settings.confidence == 0.0  # the guide's tuning goes with the guide
    assert parse([])[0].for_engine("toy") == Settings()  # no best-known: the plain defaults
    tuned, _ = parse(["--guide", "greedy", "--confidence", "2"])
    assert tuned.for_engine("space-five").confidence == 2.0
    assert tuned.for_engine("space-five").depth == 30
