"""The report and the game viewer in a real headless Chromium (Debian's ``chromium``,
driven by playwright with that system browser). Skips with the reason where either is
missing; CI installs both. Every test saves a screenshot in its temporary folder.

Every engine's viewer is opened on a game of a tiny league of that engine (two random
bots, two games, run once per engine): no console error, the last step shows the record's
final scores, and a seat's view leaves out what that seat could not see: another seat's
hand where the engine has hidden hands, else a card of the face-down deck."""

from __future__ import annotations

import json
import re
import shutil
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trio
from click.testing import CliRunner

import engines
from arena.cli import main
from arena.config import Limits, Policy
from arena.errors import BotTimeout
from arena.game.referee import play_game
from arena.game.seats import FunctionSeat
from arena.game.spec import GameSpec
from arena.league.reading import read_games
from arena.record import NOT_ASKED, GameRecord
from arena.sdk import GameInfo
from arena.show.html.viewer import game_data, viewer_page
from engines.base import State
from engines.good_boy.svg import DOGS
from engines.little_everdell.data import CARDS

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


def test_on_a_narrow_screen_only_tables_and_plots_scroll(
    small_league: Path, browser: Any, tmp_path: Path
) -> None:
    """At 500 px the report and a game's page are as wide as the screen: a wide table or
    plot scrolls in its own box, and the plots keep a readable size."""
    record = read_games(small_league)[0]
    context = browser.new_context(viewport={"width": 500, "height": 900})
    narrow = Page(context.new_page())
    for path in (small_league / "report.html", _write_view(small_league, record, tmp_path)):
        narrow.open(path)
        assert narrow.page.evaluate("document.documentElement.scrollWidth") == 500, path
        narrow.page.screenshot(path=tmp_path / f"narrow-{path.stem}.png", full_page=True)
    narrow.open(small_league / "report.html")
    widths = narrow.page.eval_on_selector_all(
        ".figure svg", "svgs => svgs.map(s => s.getBoundingClientRect().width)"
    )
    assert widths and min(widths) >= 500, widths
    context.close()
    assert narrow.errors == []


def test_on_a_phone_the_game_picture_keeps_its_size_and_scrolls_in_its_box(
    small_league: Path, browser: Any, tmp_path: Path
) -> None:
    """At 390 px the report's viewer and a game's page draw the picture at its own width (its
    text as large as on a wide screen) in a box that scrolls sideways; the page does not."""
    record = read_games(small_league)[0]
    context = browser.new_context(viewport={"width": 390, "height": 844})
    phone = Page(context.new_page())
    for path in (small_league / "report.html", _write_view(small_league, record, tmp_path)):
        phone.open(path)
        drawn, own = phone.page.eval_on_selector(
            "#viewer .board svg",
            "s => [s.getBoundingClientRect().width, Number(s.getAttribute('width'))]",
        )
        assert own > 390 and drawn == pytest.approx(own), path
        box = phone.page.eval_on_selector(
            "#viewer .board", "b => [getComputedStyle(b).overflowX, b.scrollWidth > b.clientWidth]"
        )
        assert box == ["auto", True], path
        assert phone.page.evaluate("document.documentElement.scrollWidth") == 390, path
        phone.page.screenshot(path=tmp_path / f"phone-{path.stem}.png", full_page=True)
    context.close()
    assert phone.errors == []


def test_a_game_id_in_a_title_stays_on_one_line(
    small_league: Path, browser: Any, tmp_path: Path
) -> None:
    """At 390 px a title too narrow for the whole of it wraps between words, never inside
    the game id at its hyphens ("t6-b0-" / "r0"): in the report's viewer and on the game's
    own page (its heading squeezed to a few letters to make sure it has to wrap)."""
    records = read_games(small_league)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    phone = Page(context.new_page())
    for path, title in (
        (small_league / "report.html", "#viewer .title"),
        (_write_view(small_league, records[0], tmp_path), "header h1"),
    ):
        phone.open(path)
        wrapped, game, lines = phone.page.eval_on_selector(
            title,
            "t => { t.style.width = '4em'; const id = t.querySelector('.id');"
            " return [t.getClientRects()[0].height > 40, id.textContent,"
            " id.getClientRects().length]; }",
        )
        assert wrapped and lines == 1, path
        assert game in {record.id for record in records} and "-" in game, path
        phone.page.screenshot(path=tmp_path / f"id-{path.stem}.png")
    context.close()
    assert phone.errors == []


@pytest.mark.parametrize("width", [1100, 390])
def test_the_step_controls_stay_on_screen_below_a_tall_board(
    small_league: Path, browser: Any, tmp_path: Path, width: int
) -> None:
    """Scrolled down a board taller than the screen (If It Fits's can be), the viewer's step
    buttons stay at the top of the screen and still step, in the report and on a game's own
    page; on a phone they take no more than a sixth of the screen."""
    record = read_games(small_league)[0]
    context = browser.new_context(viewport={"width": width, "height": 844})
    screen = Page(context.new_page())
    for path in (small_league / "report.html", _write_view(small_league, record, tmp_path)):
        screen.open(path)
        screen.page.eval_on_selector(
            "#viewer .board",
            "b => { b.style.height = '3000px'; b.scrollIntoView(); window.scrollBy(0, 1500); }",
        )
        top, height = screen.page.eval_on_selector(
            "#viewer .controls", "c => [c.getBoundingClientRect().top, c.offsetHeight]"
        )
        assert top == pytest.approx(0, abs=1) and height <= 844 / 6, (path, top, height)
        screen.page.screenshot(path=tmp_path / f"sticky-{width}-{path.stem}.png")
        screen.page.click("#viewer .controls [data-act=next]")
        assert screen.page.inner_text("#viewer .pos").startswith("step 1 "), path
    context.close()
    assert screen.errors == []


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


def test_after_picking_a_seat_the_arrow_keys_step_the_game(
    small_league: Path, page: Page, tmp_path: Path
) -> None:
    """The menu hands the focus back to the viewer once a seat is picked: the arrow keys
    then step the game in that seat's view instead of picking another seat."""
    record = read_games(small_league)[0]
    page.open(_write_view(small_league, record, tmp_path))
    menu = page.page.locator("#viewer select.view")
    menu.focus()
    menu.select_option("0")
    page.page.keyboard.press("ArrowRight")
    page.page.keyboard.press("ArrowDown")
    assert page.page.locator("#viewer .pos").inner_text() == f"step 1 of {len(record.moves)}"
    assert menu.input_value() == "0"
    assert page.page.evaluate("document.activeElement.id") == "viewer"
    page.page.screenshot(path=tmp_path / "seat-then-arrow.png")
    assert page.errors == []


def test_in_the_report_the_viewer_takes_the_keys_only_when_it_has_them(
    small_league: Path, page: Page, tmp_path: Path
) -> None:
    """The report's viewer takes the arrow keys, Home and End while it has the focus, or
    while nothing has and it shows on screen; elsewhere they scroll the report. A key with
    a modifier (Alt+→ is the browser's Forward) is never the viewer's."""
    page.open(small_league / "report.html")
    at = page.page.evaluate
    assert at("document.getElementById('viewer').getBoundingClientRect().top") > 900
    counter = page.page.locator("#viewer .pos")
    page.page.keyboard.press("End")  # at the top of the report: End scrolls to its bottom
    page.page.wait_for_function("window.scrollY > 0")
    page.page.keyboard.press("ArrowLeft")
    assert counter.inner_text().startswith("step 0 of")
    at("window.scrollTo(0, 0)")
    page.page.keyboard.press("ArrowRight")
    assert counter.inner_text().startswith("step 0 of")
    at("document.getElementById('viewer').scrollIntoView()")
    page.page.keyboard.press("ArrowRight")  # on screen and nothing focused: the viewer's
    assert counter.inner_text().startswith("step 1 of")
    for chord in ("Alt+ArrowRight", "Control+ArrowRight", "Meta+ArrowRight", "Shift+End"):
        page.page.keyboard.press(chord)
    assert counter.inner_text().startswith("step 1 of")
    at("delete document.getElementById('viewer').dataset.ready")
    page.page.locator("button.pick").first.click()  # a game picked: its viewer has the focus
    page.page.wait_for_selector("#viewer[data-ready]")
    page.page.keyboard.press("ArrowRight")
    page.page.keyboard.press("ArrowRight")
    assert counter.inner_text().startswith("step 2 of")
    at("window.scrollTo(0, 0)")  # the focus is still in the viewer: the keys stay its own
    page.page.keyboard.press("Home")
    assert counter.inner_text().startswith("step 0 of")
    assert at("window.scrollY") == 0
    page.page.locator("#viewer").screenshot(path=tmp_path / "report-keys.png")
    assert page.errors == []


def test_on_its_own_page_the_viewer_takes_the_keys_but_not_with_a_modifier(
    small_league: Path, page: Page, tmp_path: Path
) -> None:
    record = read_games(small_league)[0]
    page.open(_write_view(small_league, record, tmp_path))
    counter = page.page.locator("#viewer .pos")
    page.page.keyboard.press("Alt+ArrowRight")
    page.page.keyboard.press("Control+End")
    assert counter.inner_text() == f"step 0 of {len(record.moves)}"
    page.page.keyboard.press("ArrowRight")  # nothing focused, page-wide: the viewer's
    assert counter.inner_text() == f"step 1 of {len(record.moves)}"
    assert page.errors == []


@pytest.fixture(scope="module")
def three_pairings(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The results folder, with its report, of a Space Five league of three random bots:
    three pairings, so the report's games list offers several games."""
    folder = tmp_path_factory.mktemp("three-pairings")
    config = folder / "league.toml"
    config.write_text(
        'name = "three"\nengine = "space-five"\nplayers = 2\nrounds = 1\nseed = 5\n'
        + "".join(f'[[bots]]\nname = "{n}"\ncmd = "python -m bots.random"\n' for n in "abc")
    )
    out = folder / "out"
    result = CliRunner().invoke(main, ["run", str(config), "--out", str(out), "--jobs", "2"])
    assert result.exit_code == 0, result.output
    return out


def test_the_reports_viewer_names_its_game_and_marks_its_row(
    three_pairings: Path, page: Page, tmp_path: Path
) -> None:
    page.open(three_pairings / "report.html")
    records = {record.id: record for record in read_games(three_pairings)}
    title = page.page.locator("#viewer .title")
    marked = page.page.locator("tr[aria-current=true] button.pick")
    picks = page.page.locator("button.pick")
    assert picks.count() >= 2
    for index in (1, 0):
        game = picks.nth(index).get_attribute("data-game") or ""
        page.page.evaluate("delete document.getElementById('viewer').dataset.ready")
        picks.nth(index).click()
        page.page.wait_for_selector(f"#viewer[data-ready='{game}']")
        seats = " vs ".join(f"{s.bot} (seat {i})" for i, s in enumerate(records[game].seats))
        assert title.inner_text() == f"game {game}: {seats}"
        assert marked.count() == 1 and marked.inner_text() == game
    page.page.locator("#viewer .title").scroll_into_view_if_needed()
    page.page.evaluate("window.scrollBy(0, -160)")  # the games list's rows above the viewer
    page.page.screenshot(path=tmp_path / "report-games.png")
    path = _write_view(three_pairings, records[game], tmp_path)
    page.open(path)
    assert title.count() == 0, "on its own page the header names the game"
    assert page.errors == []


def test_a_seats_view_tells_another_seats_exchange_without_its_cards(
    small_league: Path, page: Page, tmp_path: Path
) -> None:
    picks = [
        (record, position, step)
        for record in read_games(small_league)
        for position, step in enumerate(game_data(record)["steps"][:-1])
        if " picks " in step["m"]
    ]
    assert picks, "the test needs a card picked for an exchange"
    record, position, step = picks[0]
    card = step["m"].split(" picks ")[1].split()[0]  # "seat 1 picks A5 to exchange"
    page.open(_write_view(small_league, record, tmp_path))
    page.page.locator("#viewer input[type=range]").fill(str(position + 1))
    move = page.page.locator("#viewer .move")
    assert f"Move {position + 1}: {step['m']}" in move.inner_text()  # the whole table
    other = 1 - step["t"]
    page.page.select_option("#viewer select.view", str(other))
    told = move.inner_text()
    assert f"Move {position + 1}: seat {step['t']} made a choice that seat {other}" in told
    assert card not in told
    page.page.select_option("#viewer select.view", str(step["t"]))
    assert card in move.inner_text()  # the seat that picked it sees it
    assert page.errors == []


SHORT = {
    "cat-yard": "target = 5",
    "good-boy": "target_points = 6",
    "if-it-fits": "short_deck = true",
}


@pytest.fixture(scope="module", params=engines.names())
def engine_league(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The results folder of a two-game league of ``request.param`` (two random bots, the
    shorter game where the engine has an option for it)."""
    name = request.param
    folder = tmp_path_factory.mktemp(f"league-{name}")
    config = folder / "league.toml"
    config.write_text(
        f'name = "{name}"\nengine = "{name}"\nplayers = 2\nrounds = 1\nseed = 7\n'
        f"[options]\n{SHORT.get(name, '')}\n"
        '[[bots]]\nname = "one"\ncmd = "python -m bots.random"\n'
        '[[bots]]\nname = "two"\ncmd = "python -m bots.random"\n'
    )
    out = folder / "out"
    args = ["run", str(config), "--out", str(out), "--jobs", "2", "--no-report"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return out


def _names(state: State) -> list[str]:
    """Little Everdell: the names of the cards in any seat's observation."""
    uids = {
        uid
        for seat in (0, 1)
        for uid in re.findall(r"[a-z_]+#\d+", json.dumps(state.observation(seat)))
    }
    return sorted({CARDS[uid.split("#")[0]].name[:10] for uid in uids})


def seen_and_hidden(name: str, state: State) -> tuple[list[str], list[str]]:
    """Texts the page shows for things seat 0 sees, and for things hidden from it: seat 1's
    hand cards where hands are hidden, else cards of the face-down deck (then hidden from
    the whole table too). Hidden texts are chosen so that none is part of a shown one."""
    own = json.dumps(state.observation(0))
    if name in ("space-five", "if-it-fits"):
        hand = state.observation(1)["hand"]
        return state.observation(0)["hand"], [card for card in hand if card not in own]
    deck: list[Any] = getattr(state, "deck", [])
    if name == "cat-yard":
        shown = [f"#{card}" for card, *_ in state.observation(0)["cushions"] if card]
        return shown, [f"#{card}" for card in deck]
    if name == "good-boy":
        shown = [DOGS[dog][0] for dog in state.observation(0)["boards"] if dog is not None]
        breeds = [DOGS[dog][0] for dog in deck]
        everyone = [DOGS[dog][0] for dog in DOGS]
        return shown, [b for b in breeds if sum(b in other for other in everyone) == 1]
    if name == "little-everdell":
        shown = _names(state)
        names = {CARDS[uid.split("#")[0]].name[:10] for uid in deck}
        return shown, sorted(n for n in names if not any(n in s or s in n for s in shown))
    raise AssertionError(f"no hidden-information check for engine {name}")


def on_page(token: str, text: str) -> bool:
    """Whether ``token`` is in the page text (a card number not followed by a digit)."""
    if token.startswith("#"):
        return re.search(re.escape(token) + r"(?!\d)", text) is not None
    return token in text


def test_every_engines_viewer_steps_to_the_final_scores(
    engine_league: Path, page: Page, tmp_path: Path
) -> None:
    record = read_games(engine_league)[0]
    page.open(_write_view(engine_league, record, tmp_path))
    moves = len(record.moves)
    counter = page.page.locator("#viewer .pos")
    assert counter.inner_text() == f"step 0 of {moves}"
    assert page.page.locator("#viewer .board svg").count() == 1
    page.page.keyboard.press("ArrowRight")
    by = page.page.locator("#viewer .move .by").inner_text()
    seat = record.seats[0]  # the first move is seat 0's in every engine's 2-player game
    took = re.fullmatch(rf"by seat 0 \({seat.bot}\), in ([\d.]+) ms", by)
    assert took is not None, by
    assert float(took.group(1)) == pytest.approx(seat.think_us[0] / 1000, rel=0.01, abs=0.006)
    page.page.keyboard.press("End")
    assert counter.inner_text() == f"step {moves} of {moves}"
    result = page.page.locator("#viewer .result").inner_text()
    for number, seat in enumerate(record.seats):
        assert f"seat {number} {seat.bot}: score {seat.score:g}, rank {seat.rank}" in result
    page.page.screenshot(path=tmp_path / f"{record.engine}-end.png", full_page=True)
    assert page.errors == []


def test_every_engines_seat_view_hides_what_the_seat_could_not_see(
    engine_league: Path, page: Page, tmp_path: Path
) -> None:
    record = read_games(engine_league)[0]
    name = record.engine
    engine = engines.get(name)
    state = engine.new_game(record.players, record.seed, record.options)
    positions = []  # (position, shown, hidden) at every step while something is hidden
    for position, index in enumerate((*record.moves, None)):
        shown, hidden = seen_and_hidden(name, state)
        if shown and hidden:
            positions.append((position, shown, hidden))
        if index is not None:
            state.apply_index(index)
    assert positions, "the test needs a step where seat 0 sees something and misses something"
    position, shown, hidden = positions[len(positions) // 2]
    page.open(_write_view(engine_league, record, tmp_path))
    page.page.locator("#viewer input[type=range]").fill(str(position))
    assert page.page.locator("#viewer .pos").inner_text().startswith(f"step {position} of")
    viewer = page.page.locator("#viewer")
    whole = viewer.text_content() or ""
    assert all(on_page(token, whole) for token in shown), (shown, whole)
    private = engines.picture(name)
    assert private is not None
    if private.private:  # another seat's hand: on the whole table, not in seat 0's view
        assert all(on_page(token, whole) for token in hidden), (hidden, whole)
    else:  # the deck: nowhere
        assert not any(on_page(token, whole) for token in hidden), (hidden, whole)
    page.page.select_option("#viewer select.view", "0")
    page.page.click("#viewer details.obs summary")
    seat_view = viewer.text_content() or ""
    assert "the observation seat 0 received at step" in seat_view
    assert all(on_page(token, seat_view) for token in shown), (shown, seat_view)
    assert not any(on_page(token, seat_view) for token in hidden), (hidden, seat_view)
    page.page.screenshot(path=tmp_path / f"{name}-seat0.png", full_page=True)
    assert page.errors == []


def test_a_bots_note_shows_with_its_move_but_not_to_other_seats(
    small_league: Path, page: Page, tmp_path: Path
) -> None:
    record = next(r for r in read_games(small_league) if any(s.bot_notes for s in r.seats))
    seat = next(number for number, s in enumerate(record.seats) if s.bot_notes)
    step, text = record.seats[seat].bot_notes[0]
    page.open(_write_view(small_league, record, tmp_path))
    page.page.locator("#viewer input[type=range]").fill(str(step + 1))
    note = page.page.locator("#viewer .move .note")
    assert note.inner_text() == f"note from seat {seat}: {text}"
    page.page.select_option("#viewer select.view", str(1 - seat))
    assert note.count() == 0
    page.page.select_option("#viewer select.view", str(seat))
    assert note.inner_text() == f"note from seat {seat}: {text}"
    page.page.screenshot(path=tmp_path / "note.png", full_page=True)
    assert page.errors == []


def test_a_fault_shows_with_the_move_it_happened_on(page: Page, tmp_path: Path) -> None:
    def slow_third_time(observation: dict[str, Any], legal: list[Any], game: GameInfo) -> int:
        asked = game.memory["asked"] = game.memory.get("asked", 0) + 1
        if asked == 3:
            raise BotTimeout("no answer within 1000 ms")
        return 0

    seats = [FunctionSeat("slow", slow_third_time), FunctionSeat("quick", lambda o, legal, g: 0)]
    spec = GameSpec("t0-b0-r0", 0, 0, 0, 3, ("slow", "quick"))
    engine = engines.get("space-five")
    options = engine.check(2, {})
    policy = Policy(timeout="random")
    record = trio.run(lambda: play_game(engine, options, spec, seats, Limits(), policy))
    assert record.seats[0].verdicts == {"timeout": 1}
    assert record.seats[0].think_us[2] == NOT_ASKED
    step = int(record.seats[0].notes[0].split(":")[0].removeprefix("step "))
    path = tmp_path / "fault.html"
    path.write_text(viewer_page(record, "faults"), encoding="utf-8")
    page.open(path)
    page.page.locator("#viewer input[type=range]").fill(str(step + 1))  # just after it
    move = page.page.locator("#viewer .move")
    fault = f"seat 0: step {step}: timeout: no answer within 1000 ms"
    assert move.locator(".fault").inner_text() == fault
    assert "chosen by the referee at random, after a fault" in move.locator(".by").inner_text()
    page.page.keyboard.press("ArrowRight")
    assert move.locator(".fault").count() == 0
    page.page.screenshot(path=tmp_path / "fault.png", full_page=True)
    assert page.errors == []


def test_a_knockout_report_draws_its_bracket_and_a_swiss_report_its_rounds(
    page: Page, tmp_path: Path
) -> None:
    from tests.conftest import run_league_file

    bots = "".join(
        f'[[bots]]\nname = "{name}"\ncmd = "python -m bots.{module}"\n'
        for name, module in [("greedy", "space_five_greedy")]
        + [(f"r{i}", "random") for i in range(4)]
    )
    (tmp_path / "ko").mkdir()
    (tmp_path / "sw").mkdir()
    knockout = run_league_file(
        tmp_path / "ko",
        'name = "ko"\nengine = "space-five"\nmode = "knockout"\nplayers = [2, 3]\nseed = 2\n'
        f"[knockout]\nstages = [{{table = 2, advance = 1}}]\n{bots}",
    )
    page.open(knockout / "report.html")
    section = page.page.locator("#knockout-bracket")
    winner = section.locator("p b").inner_text()
    assert winner in {"greedy", "r0", "r1", "r2", "r3"}
    svg = section.locator("svg.bracket")
    assert svg.locator("rect").count() >= 4  # heats, byes, the winner's box
    assert svg.locator("text", has_text=winner).count() >= 2  # its path through the stages
    assert svg.bounding_box()["width"] > 400  # drawn, not collapsed
    section.screenshot(path=tmp_path / "bracket.png")
    swiss = run_league_file(
        tmp_path / "sw",
        'name = "sw"\nengine = "space-five"\nmode = "swiss"\nplayers = 2\nrounds = 2\nseed = 2\n'
        + bots,
    )
    page.open(swiss / "report.html")
    rounds = page.page.locator("#swiss-rounds")
    assert rounds.locator("#swiss-standings tbody tr").count() == 5
    assert rounds.locator("h3").all_inner_texts() == ["Round 1", "Round 2"]
    assert rounds.locator("table.swiss-round tbody tr").count() == 4  # two tables a round
    rounds.screenshot(path=tmp_path / "swiss.png")
    assert page.errors == []
