"""Remake the ladder's pictures: a real ``arena serve`` on configs/ladder-demo.toml in a
temporary folder, three participants' submissions (one rejected), a minute of play, then
the leaderboard, a bot's page (as its owner), the rejected submission's page (as its owner)
and the organiser's page in headless Chromium.

    python docs/pictures/ladder.py

Needs the [ladder] extra, bubblewrap, playwright and a chromium browser.
"""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

from playwright.sync_api import Page, sync_playwright

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
ARENA = [sys.executable, "-m", "arena"]
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
PLAY_S = 60


def run(*args: str) -> str:
    return subprocess.run(
        [*ARENA, *args], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout


def sign_in(page: Page, url: str, token: str) -> None:
    page.goto(url + "/login")
    page.fill("#token", token)
    page.click("form[action='/login'] button")


def main() -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "ladder"
        tokens = {
            name: run("ladder", "token", name, "--out", str(folder)).strip()
            for name in ("ann", "bo", "cy")
        }
        organiser = run("ladder", "token", "org", "--organiser", "--out", str(folder)).strip()
        server = subprocess.Popen(
            [
                *ARENA,
                "serve",
                "configs/ladder-demo.toml",
                "--out",
                str(folder),
                "--port",
                "0",
                "--jobs",
                "2",
            ],
            cwd=ROOT,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert server.stderr is not None
        url = re.search(r"http://[\d.:]+", server.stderr.readline())
        assert url
        base = url.group(0)
        try:
            bots = Path(tmp) / "bots"
            bots.mkdir()
            (bots / "shedder.py").write_text((ROOT / "bots/space_five_greedy.py").read_text())
            (bots / "dice.py").write_text((ROOT / "bots/random.py").read_text())
            (bots / "broken.py").write_text(
                "import sys\nprint('starting...', file=sys.stderr)\nsys.exit(3)\n"
            )
            run("submit", base, str(bots / "shedder.py"), "--token", tokens["ann"], "--wait")
            run(
                "submit",
                base,
                str(bots / "dice.py"),
                "--name",
                "<dice & co>",
                "--token",
                tokens["bo"],
                "--wait",
            )
            rejected = subprocess.run(
                [
                    *ARENA,
                    "submit",
                    base,
                    str(bots / "broken.py"),
                    "--token",
                    tokens["cy"],
                    "--wait",
                ],
                cwd=ROOT,
                capture_output=True,
                text=True,
            )
            number = re.search(r"submission (\d+)", rejected.stdout)
            assert number, rejected.stdout
            time.sleep(PLAY_S)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium, args=ARGS)
                wide = browser.new_context(viewport={"width": 1000, "height": 700}).new_page()
                wide.goto(base + "/")
                wide.screenshot(path=HERE / "ladder-leaderboard.png", full_page=True)
                sign_in(wide, base, organiser)
                wide.goto(base + "/organiser")
                wide.screenshot(path=HERE / "ladder-organiser.png", full_page=True)
                phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
                sign_in(phone, base, tokens["ann"])
                phone.goto(base + "/bot/" + quote("shedder", safe=""))
                phone.screenshot(path=HERE / "ladder-bot.png", full_page=False)
                sign_in(phone, base, tokens["cy"])
                phone.goto(f"{base}/submission/{number.group(1)}")
                phone.screenshot(path=HERE / "ladder-rejected.png", full_page=True)
                browser.close()
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)


if __name__ == "__main__":
    main()
