"""``arena tune``: SPSA's schedules, the tune file's checks, convergence to the synthetic
bot's known optimum, and a resume after kill -9 that ends where an uninterrupted run ends."""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.errors import ConfigError
from arena.league.secret import FILE
from arena.tune import config as tune_config
from arena.tune.run import Player, command_line, run_tune
from arena.tune.spsa import Param, Schedule
from tests.conftest import ROOT

OPTIMUM = {"x": 3.0, "y": -2.0, "z": 1.0}
SYNTHETIC = "python -m bots.synthetic --width 4 --greedy tests.toy_greedy --optimum "


def tune_text(
    *,
    names: str = "xy",
    seats: int = 2,
    games: int = 600,
    seed: int = 7,
    confirm: int = 0,
    start: float = -3.0,
    r_end: float = 0.05,
    engine: str = "toy",
) -> str:
    optimum = ",".join(f"{n}={OPTIMUM[n]}" for n in names)
    command = SYNTHETIC + optimum
    lines = ['engine = "toy"', "[options]", "pile = 21"]
    if engine != "toy":  # the synthetic bot plays the engine's own greedy bot's moves
        lines = [f'engine = "{engine}"']
        command = command.replace(" --greedy tests.toy_greedy", "")
    lines = [
        *lines[:1],
        f"players = {seats}",
        f"seed = {seed}",
        'sandbox = "none"',
        *lines[1:],
        "[[bots]]",
        'name = "syn"',
        f'cmd = "{command}"',
    ]
    for i in range(seats - 2):
        lines += ["[[bots]]", f'name = "other{i}"', 'cmd = "python -m bots.random"']
    lines += ["[tune]", 'bot = "syn"', f"games = {games}", f"confirm_games = {confirm}"]
    for n in names:
        lines += [f"[tune.params.{n}]", f"start = {start}", "min = -10.0", "max = 10.0"]
        lines += ["c_end = 1.0", f"r_end = {r_end}"]
    return "\n".join(lines) + "\n"


def share_secret(done: Path, new: Path) -> None:
    """Give ``new`` the secret its bots' seeds come from that ``done`` used (the same games)."""
    new.mkdir()
    (new / FILE).write_bytes((done / FILE).read_bytes())


def distance(values: dict[str, float | int]) -> float:
    return math.dist([values[n] for n in values], [OPTIMUM[n] for n in values])


def test_schedules_end_at_c_end_and_r_end() -> None:
    param = Param("x", 0.0, -1.0, 1.0, False, c_end=0.5, r_end=0.01)
    schedule = Schedule(100)
    assert schedule.c(param, 99) == pytest.approx(0.5)
    assert schedule.a(param, 99) == pytest.approx(0.01 * 0.5**2)
    assert schedule.c(param, 0) > schedule.c(param, 50) > schedule.c(param, 99)
    assert schedule.a(param, 0) > schedule.a(param, 99)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (("start = -3.0", "start = 12.0"), "tune.params.x.start: 12.0 is outside its bounds"),
        (('bot = "syn"', 'bot = "nobody"'), "tune.bot: no bot named 'nobody'"),
        (("[tune.params.x]", "[tune.nothing]"), "tune.nothing: unknown key"),
        (("c_end = 1.0", "c_end = 0.0"), "tune.params.x.c_end: must be a positive number"),
    ],
)
def test_bad_tune_files_get_one_line(
    tmp_path: Path, toy_engine: str, change: tuple[str, str], said: str
) -> None:
    path = tmp_path / "t.toml"
    path.write_text(tune_text(names="x").replace(*change, 1))
    with pytest.raises(ConfigError, match=said.replace("(", r"\(").replace(".", r"\.")):
        tune_config.load(path)


def test_a_tune_file_with_no_parameter_or_no_tune_is_refused(
    tmp_path: Path, toy_engine: str
) -> None:
    path = tmp_path / "t.toml"
    text = tune_text(names="x")
    path.write_text(text[: text.index("[tune.params.x]")])
    result = CliRunner().invoke(main, ["tune", str(path)])
    assert result.exit_code == 2
    assert result.output.strip().endswith(
        "tune.params: no parameter to tune: add a [tune.params.NAME] table"
    )
    path.write_text(text[: text.index("[tune]")])
    with pytest.raises(ConfigError, match="no \\[tune\\] section"):
        tune_config.load(path)


def test_a_placeholder_no_parameter_names_is_refused(tmp_path: Path, toy_engine: str) -> None:
    path = tmp_path / "t.toml"
    path.write_text(tune_text(names="x").replace("--width 4", "--width {w}"))
    with pytest.raises(ConfigError, match=r"placeholder\(s\) \{w\} that no \[tune.params\] names"):
        tune_config.load(path)


def test_spsa_converges_near_the_optimum_two_params_two_seats(
    tmp_path: Path, toy_engine: str, in_repo: Path
) -> None:
    """600 games (300 iterations) from 6.1 away end within 1.5 of the optimum; the
    confirmation league measures the tuned values stronger than the start values."""
    path = tmp_path / "t.toml"
    path.write_text(tune_text(games=600, confirm=200, r_end=0.1))
    tune = tune_config.load(path)
    outcome = run_tune(tune, tmp_path / "out", Player(jobs=2), say=lambda line: None)
    assert distance(tune.starts) > 6
    assert distance(outcome.values) < 1.5, outcome.values
    assert outcome.confirmation is not None
    assert outcome.confirmation.elo > 0 and outcome.confirmation.los > 0.95
    stored = tomllib.loads((tmp_path / "out" / "tuned.toml").read_text())
    assert stored["params"] == outcome.values
    assert f"--x {outcome.values['x']!r}" in command_line(tune, outcome.values)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("names", "seats", "engine"), [("xyz", 2, "toy"), ("xy", 3, "cat-yard"), ("xyz", 3, "cat-yard")]
)
def test_spsa_converges_near_the_optimum(
    tmp_path: Path, toy_engine: str, in_repo: Path, names: str, seats: int, engine: str
) -> None:
    """Three seats play cat-yard: the toy pile's greedy move is a two-player strategy, so
    its strength at three seats is no known function of the parameters."""
    path = tmp_path / "t.toml"
    text = tune_text(names=names, seats=seats, games=1500 * seats // 2, r_end=0.1, engine=engine)
    path.write_text(text)
    tune = tune_config.load(path)
    outcome = run_tune(tune, tmp_path / "out", Player(jobs=2), say=lambda line: None)
    assert distance(outcome.values) < 2.0, outcome.values


def test_optuna_is_repeatable_whatever_plays_the_games(
    tmp_path: Path, toy_engine: str, in_repo: Path
) -> None:
    """Trials are asked and told in one order however many games run at once: one game at
    a time and two at once give the same trials; the best is nearer the optimum."""
    path = tmp_path / "t.toml"
    text = tune_text(games=160).replace("[tune]\n", '[tune]\nmethod = "optuna"\ntrial_blocks = 2\n')
    path.write_text(text)
    tune = tune_config.load(path)
    runs = []
    for jobs in (1, 2):
        if jobs == 2:  # the same secret the bots' seeds come from (arena.league.secret)
            share_secret(tmp_path / "out1", tmp_path / "out2")
        runs.append(run_tune(tune, tmp_path / f"out{jobs}", Player(jobs), say=lambda line: None))
    assert runs[0].values == runs[1].values
    journals = [(tmp_path / f"out{jobs}" / "tune.jsonl").read_bytes() for jobs in (1, 2)]
    assert journals[0] == journals[1]
    assert distance(runs[0].values) < distance(tune.starts)


TUNE_CLI = (
    "import sys, engines; engines.register('toy', 'tests.toy_engine'); "
    "from arena.cli import main; sys.exit(main())"
)


def _tune(path: Path, out: Path, *extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", TUNE_CLI, "tune", str(path), "--out", str(out), "-j", "2", *extra],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        start_new_session=True,
    )


@pytest.mark.parametrize(
    ("method", "cut_after"), [("spsa", 40), pytest.param("optuna", 20, marks=pytest.mark.slow)]
)
def test_kill_9_mid_tune_resumes_to_the_same_values(
    tmp_path: Path, method: str, cut_after: int
) -> None:
    path = tmp_path / "t.toml"
    text = tune_text(games=240)
    if method == "optuna":
        text = text.replace("[tune]\n", '[tune]\nmethod = "optuna"\ntrial_blocks = 2\n')
    path.write_text(text)
    whole = _tune(path, tmp_path / "whole")
    assert whole.wait(timeout=300) == 0, whole.stderr.read() if whole.stderr else ""
    share_secret(tmp_path / "whole", tmp_path / "cut")
    cut = _tune(path, tmp_path / "cut")
    journal = tmp_path / "cut" / "tune.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if journal.exists() and len(journal.read_bytes().splitlines()) > cut_after:
            break
        time.sleep(0.05)
    os.killpg(cut.pid, signal.SIGKILL)
    cut.wait()
    steps = len(journal.read_bytes().splitlines()) - 1
    assert 0 < steps < (120 if method == "spsa" else 60), steps
    again = _tune(path, tmp_path / "cut")
    assert again.wait(timeout=300) == 0, again.stderr.read() if again.stderr else ""
    read = [tomllib.loads((tmp_path / f / "tuned.toml").read_text()) for f in ("whole", "cut")]
    assert read[0]["params"] == read[1]["params"]
    lines = [(tmp_path / f / "tune.jsonl").read_bytes() for f in ("whole", "cut")]
    assert lines[0] == lines[1]  # every step once, the same steps
    page = (tmp_path / "cut" / "report.html").read_text()
    assert '<section id="tuning">' in page
    if method == "spsa":
        assert page.count("iteration</text>") == 2  # a path per parameter
    else:
        assert "60 Optuna trials against the start values" in page


def test_a_bot_that_ignores_its_parameters_is_warned_about(
    tmp_path: Path, toy_engine: str, in_repo: Path
) -> None:
    path = tmp_path / "t.toml"
    path.write_text(
        tune_text(names="x", games=20).replace(SYNTHETIC + "x=3.0", "python -m bots.random")
    )
    said: list[str] = []
    run_tune(tune_config.load(path), tmp_path / "out", Player(jobs=2), say=said.append)
    assert any("syn played the same moves with θ+ and θ-" in line for line in said), said


def test_placeholders_start_one_pool_per_set_of_values(toy_engine: str) -> None:
    from dataclasses import replace

    import trio

    from arena.config import parse
    from arena.game.hosting import hosting
    from arena.game.spec import GameSpec, seat_params
    from arena.league.pooled import league_table

    config = parse(
        {
            "engine": "toy",
            "bots": [
                {"name": "a", "cmd": "python -m bots.random --w {w} --keep {other}"},
                {"name": "b", "cmd": "python -m bots.random"},
            ],
        }
    )
    game = GameSpec("g", 0, 0, 0, 1, ("a", "b"))

    def given(**values: float) -> GameSpec:
        return replace(game, params=(("a", seat_params(values)), ("b", seat_params(values))))

    async def main() -> None:
        async with hosting() as host:
            table = league_table(config, host)
            one, same, other = (table.pool_of("a", given(w=w)) for w in (0.5, 0.5, 2))
            assert one is same and one is not other
            assert one is not None and one.spec.cmd[-4:] == ("--w", "0.5", "--keep", "{other}")
            assert table.pool_of("a", game) is table.pools["a"]  # no values: its own pool
            assert table.pool_of("b", given(w=1)) is table.pools["b"]  # no placeholder

    trio.run(main)


@pytest.mark.slow
def test_a_tune_on_dask_takes_the_steps_it_takes_in_process(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    path = tmp_path / "t.toml"
    text = tune_text(names="x", games=40, engine="cat-yard")
    path.write_text(text)
    journals = []
    for name, extra in (("local", ()), ("dask", ("--workers", "1"))):
        if name == "dask":
            share_secret(tmp_path / "local", tmp_path / "dask")
        command = [sys.executable, "-m", "arena", "tune", str(path), "-j", "2", *extra]
        done = subprocess.run(
            [*command, "--out", str(tmp_path / name)],
            cwd=ROOT,
            capture_output=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stderr.decode()
        journals.append((tmp_path / name / "tune.jsonl").read_bytes())
    assert journals[0] == journals[1]
