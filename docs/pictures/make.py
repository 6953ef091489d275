"""Remake the pictures in this folder: a small league per engine, its report (the bots and
the standings), one viewer each (two thirds into the game, or the next move with a note).

    python docs/pictures/make.py

Needs playwright and a chromium browser (the same as tests/test_browser.py). Leagues go to a
temporary folder; only the PNG files are written here.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
LEAGUES = {
    "space-five": (3, ["python -m bots.space_five_greedy", "python -m bots.random"]),
    "cat-yard": (3, ["python -m bots.random"]),
    "good-boy": (3, ["python -m bots.random"]),
    "if-it-fits": (3, ["python -m bots.random"]),
    "little-everdell": (2, ["python -m bots.random"]),
}


def league(folder: Path, engine: str, players: int, commands: list[str]) -> Path:
    bots = [commands[i % len(commands)] for i in range(players)]
    text = f'name = "{engine}"\nengine = "{engine}"\nplayers = [{players}]\nrounds = 1\nseed = 5\n'
    for i, cmd in enumerate(bots):
        text += f'[[bots]]\nname = "bot-{i}"\ncmd = "{cmd}"\n'
    config = folder / f"{engine}.toml"
    config.write_text(text)
    out = folder / engine
    run = [sys.executable, "-m", "arena", "run", str(config), "--out", str(out), "--no-report"]
    subprocess.run(run, check=True, cwd=ROOT, capture_output=True)
    return out


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="arena-pictures-"))
    try:
        with sync_playwright() as playwright:
            chromium = shutil.which("chromium") or "chromium"
            browser = playwright.chromium.launch(executable_path=chromium, args=ARGS)
            page = browser.new_page(viewport={"width": 900, "height": 1000})
            demo = work / "demo"
            subprocess.run(
                [sys.executable, "-m", "arena", "run", "configs/demo.toml", "--out", str(demo)],
                check=True,
                cwd=ROOT,
                capture_output=True,
            )
            page.goto((demo / "report.html").as_uri())
            page.wait_for_selector("#viewer[data-ready]")
            top = page.locator("#bots-table").bounding_box()
            bottom = page.locator("#standings").bounding_box()
            assert top is not None and bottom is not None
            y = top["y"] - 8
            clip = {"x": 0, "y": y, "width": 900, "height": bottom["y"] + bottom["height"] - y}
            page.screenshot(path=HERE / "report.png", clip=clip, full_page=True)
            for engine, (players, commands) in LEAGUES.items():
                out = league(work, engine, players, commands)
                view = out / "view.html"
                subprocess.run(
                    [sys.executable, "-m", "arena", "view", str(out), "t0-b0-r0", "-o", str(view)],
                    check=True,
                    cwd=ROOT,
                    capture_output=True,
                )
                page.goto(view.as_uri())
                page.wait_for_selector("#viewer[data-ready]")
                last = int(page.locator("#viewer input[type=range]").get_attribute("max") or 0)
                page.locator("#viewer input[type=range]").fill(str(last * 2 // 3))
                for _ in range(40):  # on to a move with a bot's note, if one comes soon
                    if page.locator("#viewer .note").count():
                        break
                    page.keyboard.press("ArrowRight")
                else:
                    page.locator("#viewer input[type=range]").fill(str(last * 2 // 3))
                board = page.locator("#viewer")
                board.screenshot(path=HERE / f"viewer-{engine}.png")
            browser.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
