"""The report and the game viewer in a real headless Chromium (Debian's ``chromium``,
driven by playwright with that system browser). Skips with the reason where either is
missing; CI installs both. Every test saves a screenshot in its temporary folder."""

from __future__ import annotations

import json
import shutil
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import engines
from arena.cli import main
from arena.league.store import read_games
from arena.record import GameRecord

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium browser installed")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class Page:
    """One browser page that remembers every console error and uncaught exception."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def open(self, path: Path) -> None:
        self.page.goto(path.resolve().as_uri())
        self.page.wait_for_selector("#viewer[data-ready]")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    yield Page(context.new_page())
    context.close()


def test_report_standings_match_standings_toml(
    small_league: Path, page: Page, tmp_path: Path
) -> None:
    page.open(small_league / "report.html")
    stored = tomllib.loads((small_league / "standings.toml").read_text())["bots"]
    rows = page.page.eval_on_selector_all(
        "#standings-table tbody tr",
        "rows => rows.map(r => [r.dataset.bot, Number(r.cells[2].dataset.value)])",
    )
    assert len(rows) == len(stored)
    assert {bot: elo for bot, elo in rows} == pytest.approx({b["bot"]: b["elo"] for b in stored})
    page.page.click("#standings-table th:nth-child(3)")  # sort by Elo, ascending
    order = page.page.eval_on_selector_all(
        "#standings-table tbody tr", "rs => rs.map(r => r.dataset.bot)"
    )
    assert order == [b["bot"] for b in sorted(stored, key=lambda b: b["elo"])]
    assert page.page.locator("section svg").count() >= 4
    page.page.screenshot(path=tmp_path / "report.png", full_page=True)
    assert page.errors == []


def _write_view(folder: Path, record: GameRecord, tmp_path: Path) -> Path:
    target = tmp_path / f"{record.id}.html"
    result = CliRunner().invoke(main, ["view", str(folder), record.id, "-o", str(target)])
    assert result.exit_code == 0, result.output
    return target


def test_viewer_steps_to_the_final_scores(small_league: Path, page: Page, tmp_path: Path) -> None:
    record = read_games(small_league)[0]
    page.open(_write_view(small_league, record, tmp_path))
    moves = len(record.moves)
    counter = page.page.locator("#viewer .pos")
    assert counter.inner_text() == f"step 0 of {moves}"
    page.page.click("#viewer button[data-act=next]")
    page.page.keyboard.press("ArrowRight")
    assert counter.inner_text() == f"step 2 of {moves}"
    page.page.keyboard.press("ArrowLeft")
    assert counter.inner_text() == f"step 1 of {moves}"
    assert not page.page.locator("#viewer .result").is_visible()
    page.page.keyboard.press("End")
    assert counter.inner_text() == f"step {moves} of {moves}"
    result = page.page.locator("#viewer .result").inner_text()
    for number, seat in enumerate(record.seats):
        assert f"seat {number} {seat.bot}: score {seat.score:g}, rank {seat.rank}" in result
    page.page.locator("#viewer input[type=range]").fill("0")
    assert counter.inner_text() == f"step 0 of {moves}"
    page.page.screenshot(path=tmp_path / "viewer.png", full_page=True)
    assert page.errors == []


def test_a_seats_view_hides_the_other_hand(small_league: Path, page: Page, tmp_path: Path) -> None:
    record = read_games(small_league)[0]
    state = engines.get(record.engine).new_game(record.players, record.seed, record.options)
    seen = json.dumps(state.observation(0))
    hidden = [card for card in state.observation(1)["hand"] if card not in seen]
    assert hidden, "the test needs a card of seat 1 that seat 0 cannot see at the deal"
    page.open(_write_view(small_league, record, tmp_path))
    text = page.page.locator("#viewer")
    assert all(card in text.text_content() for card in hidden)
    page.page.select_option("#viewer select.view", "0")
    page.page.click("#viewer details.obs summary")
    content = text.text_content()
    assert "the observation seat 0 received at step 0" in content
    assert all(card not in content for card in hidden)
    page.page.screenshot(path=tmp_path / "seat0.png", full_page=True)
    assert page.errors == []
