"""OpenSpiel's games hosted by the arena (``engine = "openspiel:NAME"``) and OpenSpiel's own
algorithms as subprocess bots (``python -m bots.openspiel``).

The engine contract (including the leak check through ``determinize``) for games of perfect
and of hidden information; ``sample_state`` from a seat's observations; the one-line
errors; real leagues through ``arena run``: OpenSpiel's MCTS against random at tic-tac-toe,
a CFR policy against random at Kuhn poker (its chips against OpenSpiel's own exact value of
the two policies), every rotation of a block dealt the same chance outcomes (read from the
stored games); the viewer's pictures carry each step's observation string.
"""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install 'tabletop-arena[openspiel]')"
)

import engines  # noqa: E402
from arena.record import GameRecord  # noqa: E402
from arena.show.html.viewer import game_data  # noqa: E402
from bots import openspiel as adapter  # noqa: E402
from engines.base import CannotSample  # noqa: E402
from engines.testing import check_contract  # noqa: E402
from tests.conftest import ROOT, run_league_file  # noqa: E402


@pytest.mark.parametrize(
    ("name", "players"),
    [
        ("openspiel:tic_tac_toe", 2),
        ("openspiel:kuhn_poker", 2),
        ("openspiel:kuhn_poker", 3),
        ("openspiel:leduc_poker", 2),
        ("openspiel:leduc_poker(players=3)", 3),
    ],
)
def test_contract_and_no_leak(name: str, players: int) -> None:
    check_contract(engines.get(name), players, seeds=range(3))


def test_determinize_redraws_what_the_seat_cannot_see() -> None:
    """Kuhn poker: a seat's view is kept, the other seat's card takes every value it can."""
    engine = engines.get("openspiel:kuhn_poker")
    state = engine.new_game(2, 5, {})
    mine = state.observation(0)
    rng = random.Random(1)
    theirs = set()
    for _ in range(60):
        twin = state.determinize(0, rng)
        assert twin.observation(0) == mine
        theirs.add(twin.observation(1)["information_state"][0])
    own = mine["information_state"][0]
    assert theirs == {"0", "1", "2"} - {own}


@pytest.mark.parametrize("name", ["openspiel:kuhn_poker", "openspiel:leduc_poker"])
def test_a_seat_s_observation_does_not_depend_on_the_other_hand(name: str) -> None:
    """Two deals that differ only in seat 1's card give seat 0 the same observation (strings,
    tensor, everything) after the same actions."""
    engine = engines.get(name)
    deals: dict[tuple[int, int], int] = {}  # the first two cards -> a seed that deals them
    for seed in range(200):
        state = engine.new_game(2, seed, {})
        deals.setdefault(tuple(state.result().detail["chance"][:2]), seed)
    pairs = [
        (engine.new_game(2, one, {}), engine.new_game(2, two, {}))
        for (mine, theirs), one in deals.items()
        for (mine2, theirs2), two in deals.items()
        if mine == mine2 and theirs != theirs2
    ]
    assert pairs
    for one, two in pairs:
        for index in (1, 0):  # the same actions in both games: a bet, then a fold
            assert one.observation(0) == two.observation(0)
            assert one.legal_actions() == two.legal_actions()
            one.apply_index(index)
            two.apply_index(index)
        assert one.observation(0) == two.observation(0)
        assert one.observation(1) != two.observation(1)


@pytest.mark.parametrize(
    ("name", "players"),
    [("openspiel:tic_tac_toe", 2), ("openspiel:kuhn_poker", 3), ("openspiel:leduc_poker", 2)],
)
def test_sample_state_matches_the_seat_s_observations(name: str, players: int) -> None:
    engine = engines.get(name)
    rng = random.Random(7)
    for seed in range(3):
        state = engine.new_game(players, seed, {})
        seen: list[list[dict[str, Any]]] = [[] for _ in range(players)]
        while (seat := state.to_move()) is not None:
            seen[seat].append(state.observation(seat))
            sample = engine.sample_state(players, {}, seat, seen[seat], rng)
            assert sample.observation(seat) == seen[seat][-1]
            assert sample.legal_actions() == state.legal_actions()
            state.apply_index(rng.randrange(len(state.legal_actions())))


def test_observation_carries_strings_tensor_and_actions() -> None:
    state = engines.get("openspiel:tic_tac_toe").new_game(2, 1, {})
    state.apply({"id": 4, "name": "x(1,1)"})
    view = state.observation(1)
    assert view["observation"] == "...\n.x.\n..."
    assert len(view["observation_tensor"]) == 27 and view["history"] == [4]
    assert {"id": 0, "name": "o(0,0)"} in state.legal_actions()


@pytest.mark.parametrize("name", ["openspiel:leduc_poker", "openspiel:tic_tac_toe"])
def test_encoding_is_openspiel_s_ids_and_tensor(name: str) -> None:
    engine = engines.get(name)
    encoding = engine.encoding(2, {})  # type: ignore[attr-defined]
    state = engine.new_game(2, 3, {})
    rng = random.Random(3)
    while (seat := state.to_move()) is not None:
        view, legal = state.observation(seat), state.legal_actions()
        ids = [encoding.action_id(view, action) for action in legal]
        assert ids == state.spiel.legal_actions()  # type: ignore[attr-defined]
        assert all(0 <= i < encoding.num_actions for i in ids)
        assert encoding.tensor(view).shape == (encoding.size,)
        state.apply_index(rng.randrange(len(legal)))


def test_a_game_without_resampling_cannot_be_sampled() -> None:
    state = engines.get("openspiel:liars_dice").new_game(2, 1, {})
    with pytest.raises(CannotSample, match="resample_from_infostate"):
        state.determinize(0, random.Random(0))


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("openspiel:no_such_game", "OpenSpiel has no game 'no_such_game'"),
        ("openspiel:tic_tac_toe(foo=1)", "OpenSpiel refuses it: Unknown parameter 'foo'."),
        ("openspiel:kuhn_poker(players=3", "OpenSpiel cannot read it: Missing closing bracket"),
    ],
)
def test_bad_names_are_one_line(name: str, said: str) -> None:
    with pytest.raises(engines.UnknownEngine) as caught:
        engines.get(name)
    assert said in str(caught.value) and "\n" not in str(caught.value)


def test_without_openspiel_the_name_says_what_to_install() -> None:
    code = (
        "import sys; sys.modules['pyspiel'] = None\n"
        "from arena.config import load_engine\n"
        "load_engine('openspiel:kuhn_poker')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    last = done.stderr.strip().splitlines()[-1]
    assert last == (
        "arena.errors.ConfigError: openspiel:kuhn_poker: OpenSpiel is not installed; "
        "pip install 'tabletop-arena[openspiel]'"
    )


@pytest.mark.parametrize(
    ("bot", "said"),
    [
        ("bots.ismcts --iterations 10", "ismcts: cannot search this game: "),
        ("bots.openspiel --algorithm mcts", "bots.openspiel: "),
    ],
)
def test_search_bots_refuse_a_game_they_cannot_sample_in_one_line(bot: str, said: str) -> None:
    hello = '{"type":"hello","protocol":1,"engine":"openspiel:liars_dice","options":{}}\n'
    done = subprocess.run(
        [sys.executable, "-m", *bot.split()],
        cwd=ROOT,
        input=hello,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith(f"{said}openspiel:liars_dice: OpenSpiel offers no resample")
    assert not any("Traceback" in line for line in lines)


def test_cfr_policy_saved_and_loaded(tmp_path: Path) -> None:
    path = tmp_path / "kuhn.json"
    adapter.main(["--algorithm", "cfr", "--engine", "openspiel:kuhn_poker", "--save", str(path)])
    loader = adapter.Player(adapter.Settings("cfr", policy=path))
    loader.on_hello("openspiel:kuhn_poker", {})
    solved = adapter.solve(pyspiel.load_game("kuhn_poker"), 1000)
    assert loader.policies == {2: solved}
    assert len(solved) == 12  # Kuhn poker's information states
    other = adapter.Player(adapter.Settings("cfr", policy=path))
    with pytest.raises(adapter.EngineError, match="a policy for openspiel:kuhn_poker"):
        other.on_hello("openspiel:leduc_poker", {})


def _league(name: str, engine: str, rounds: int, bots: dict[str, str], more: str = "") -> str:
    lines = [f'name = "{name}"', f'engine = "{engine}"', f"rounds = {rounds}", "seed = 1", more]
    for bot, cmd in bots.items():
        lines += ["[[bots]]", f'name = "{bot}"', f'cmd = "python -m bots.openspiel {cmd}"']
    return "\n".join(lines) + "\n"


def _games(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]


def test_mcts_beats_random_at_tic_tac_toe(tmp_path: Path) -> None:
    text = _league(
        "ttt",
        "openspiel:tic_tac_toe",
        10,
        {"mcts": "--algorithm mcts --simulations 200", "random": "--algorithm random"},
    )
    out = run_league_file(tmp_path, text)
    import tomllib

    standings = tomllib.loads((out / "standings.toml").read_text())
    assert standings["games"] == 20
    assert standings["bots"][0]["bot"] == "mcts"
    assert standings["los"]["mcts"]["random"] >= 99.0
    record = GameRecord.from_json((out / "games.jsonl").read_text().splitlines()[0])
    data = game_data(record)
    state = record.first_state()
    for index in record.moves[:-1]:
        state.apply_index(index)
    seen = state.observation(0)["observation"].splitlines()
    assert any(all(line in picture for line in seen) for picture in data["pictures"])


def test_cfr_beats_random_at_kuhn_poker_by_openspiel_s_own_value(tmp_path: Path) -> None:
    """Over 1,200 games the CFR bot's mean chips per game are above zero, and within four
    standard errors of the value OpenSpiel computes exactly for the two policies."""
    from open_spiel.python import policy as policies
    from open_spiel.python.algorithms import expected_game_score

    bots = {"cfr": "--algorithm cfr --iterations 300", "random": "--algorithm random"}
    out = run_league_file(tmp_path, _league("kuhn", "openspiel:kuhn_poker", 600, bots))
    chips = [game["scores"][game["seating"].index("cfr")] for game in _games(out)]
    mean = sum(chips) / len(chips)
    spread = math.sqrt(sum((c - mean) ** 2 for c in chips) / (len(chips) - 1))
    error = spread / math.sqrt(len(chips))
    game = pyspiel.load_game("kuhn_poker")
    solver = adapter.solve(game, 300)  # what the bot solved: CFR is deterministic

    class Solved(policies.Policy):
        def action_probabilities(self, state: Any, player_id: int | None = None) -> Any:
            return dict(solver[state.information_state_string()])

    solved, uniform = Solved(game, [0, 1]), policies.UniformRandomPolicy(game)
    root = game.new_initial_state()
    first = expected_game_score.policy_value(root, [solved, uniform])[0]
    second = expected_game_score.policy_value(root, [uniform, solved])[1]
    exact = (first + second) / 2  # each seat half the time (blocks of two rotations)
    assert len(chips) == 1200
    assert mean > 2.5 * error, (mean, error)
    assert abs(mean - exact) < 4 * error, (mean, exact, error)


def test_every_rotation_of_a_block_gets_the_same_chance_outcomes(tmp_path: Path) -> None:
    """Leduc poker at three seats (a private card each, then a public card if the betting
    gets there): every game of a block has the same chance outcomes (read back by replaying
    its stored seed and moves), one the prefix of another where a game ended before the
    public card; the blocks' deals differ from one another. One seat is OpenSpiel's MCTS on
    states sampled from its own observations."""
    bots = {"random-0": "--algorithm random", "random-1": "--algorithm random"}
    bots["mcts"] = "--algorithm mcts --simulations 50"  # searches states sampled from its view
    out = run_league_file(tmp_path, _league("leduc", "openspiel:leduc_poker(players=3)", 4, bots))
    by_block: dict[int, list[tuple[int, ...]]] = defaultdict(list)
    games = (out / "games.jsonl").read_text().splitlines()
    for line in games:
        record = GameRecord.from_json(line)
        state = record.first_state()
        for index in record.moves:
            state.apply_index(index)
        chance = tuple(state.result().detail["chance"])
        assert chance == tuple(record.detail["chance"])
        by_block[record.block].append(chance)
    assert len(games) == 12 and len(by_block) == 4
    assert all(game["verdicts"] == [{}, {}, {}] for game in map(json.loads, games))
    for outcomes in by_block.values():
        longest = max(outcomes, key=len)
        assert all(longest[: len(seen)] == seen and len(seen) >= 3 for seen in outcomes)
    assert len({outcomes[0][:3] for outcomes in by_block.values()}) > 1


def test_viewer_in_chromium_shows_each_seat_its_own_strings(tmp_path: Path) -> None:
    """A Kuhn poker game's page in headless Chromium: the whole table shows both seats'
    information states at the first step; seat 0's view shows its own and not seat 1's."""
    import shutil

    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("no chromium browser installed")
    bots = {"one": "--algorithm random", "two": "--algorithm random"}
    out = run_league_file(tmp_path, _league("kuhn", "openspiel:kuhn_poker", 2, bots), jobs=1)
    record = GameRecord.from_json((out / "games.jsonl").read_text().splitlines()[0])
    page_file = tmp_path / "view.html"
    from click.testing import CliRunner

    from arena.cli import main

    done = CliRunner().invoke(main, ["view", str(out), record.id, "-o", str(page_file)])
    assert done.exit_code == 0, done.output
    state = record.first_state()
    mine, theirs = (state.observation(seat)["information_state"] for seat in (0, 1))
    assert mine != theirs
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(page_file.resolve().as_uri())
            page.wait_for_selector("#viewer[data-ready]")
            board = page.locator("#viewer .board")
            whole = board.text_content() or ""
            assert f"information state: {mine}" in whole
            assert f"information state: {theirs}" in whole
            page.select_option("#viewer select.view", "0")
            own = board.text_content() or ""
            assert f"information state: {mine}" in own
            assert f"information state: {theirs}" not in own
            page.screenshot(path=tmp_path / "seat0.png", full_page=True)
            assert errors == []
        finally:
            browser.close()
