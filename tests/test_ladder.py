"""The ladder for real: ``arena serve`` as its own process on 127.0.0.1 (hypercorn on trio),
spoken to over HTTP, its SQLite file and results folder on disk, bots checked and played
in bubblewrap, and ``arena submit`` as a participant runs it. Skips where bubblewrap or the
``[ladder]`` extra is missing."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import threading
import time
import urllib.error
import urllib.request
import uuid
import zipfile
from collections.abc import Iterator
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pytest

from arena.game import sandbox
from arena.ladder.admin import make_token
from arena.ladder.uploads import UnpackLimits, UploadRejected, store_upload, unpack
from tests.conftest import processes_with

pytest.importorskip("hypercorn", reason="the [ladder] extra is not installed")
pytestmark = pytest.mark.skipif(
    bool(sandbox.unusable_reason()), reason="a ladder needs bubblewrap, which cannot run here"
)

ROOT = Path(__file__).resolve().parent.parent
ARENA = [sys.executable, "-m", "arena"]
LADDER = """
name = "ladder-test"
engine = "space-five"
players = [2]
seed = 7
[limits]
move_ms = 2000
[[bots]]
name = "greedy"
cmd = "python -m bots.space_five_greedy"
[[bots]]
name = "random"
cmd = "python -m bots.random"
[ladder]
placement_blocks = 2
check_games = 1
max_upload_kb = 64
max_files = 20
max_unpacked_mb = 1
submissions_per_hour = 6
refresh_s = 0.3
"""


def arena(*args: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*ARENA, *args], capture_output=True, text=True, cwd=ROOT, timeout=120, **kwargs
    )


class Server:
    """``arena serve`` in a subprocess on a free port."""

    def __init__(self, tmp: Path, folder: Path, *options: str) -> None:
        self.tmp, self.folder = tmp, folder
        self.config = tmp / "ladder.toml"
        if not self.config.exists():
            self.config.write_text(LADDER)
        self.log = (tmp / "server.log").open("a")
        jobs = ["--jobs", "2", *options]
        self.process = subprocess.Popen(
            [*ARENA, "serve", str(self.config), "--out", str(folder), "--port", "0", *jobs],
            cwd=ROOT,
            stdout=self.log,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.process.stderr is not None
        said = ""  # warnings may come first (a line cut short by a kill, moved aside)
        while not (found := re.search(r"serving on (http://127\.0\.0\.1:\d+)", said)):
            line = self.process.stderr.readline()
            assert line, said
            said += line
        self.url = found.group(1)
        # read on as the server writes, so that a full pipe never blocks it
        self._later: list[str] = []
        self._reader = threading.Thread(
            target=lambda: self._later.extend(self.process.stderr or ()), daemon=True
        )
        self._reader.start()

    def stop(self, sig: int = signal.SIGTERM) -> int:
        if self.process.poll() is None:
            self.process.send_signal(sig)
        code = self.process.wait(timeout=60)
        self._reader.join(timeout=30)
        assert self.process.stderr is not None
        self.said = "".join(self._later)
        self.process.stderr.close()
        self.log.close()
        return code

    def get(self, path: str, token: str = "") -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return call(urllib.request.Request(self.url + path, headers=headers))

    def upload(
        self, data: bytes, name: str, token: str, filename: str = "bot.py"
    ) -> tuple[int, Any]:
        query = urlencode({"name": name, "filename": filename})
        request = urllib.request.Request(
            f"{self.url}/api/submit?{query}",
            data=data,
            headers={"Authorization": f"Bearer {token}"} if token else {},
            method="POST",
        )
        return call(request)

    def until(self, path: str, test: Any, token: str = "", within_s: float = 90) -> Any:
        deadline = time.monotonic() + within_s
        while True:
            status, body = self.get(path, token)
            if status == 200 and test(body):
                return body
            assert time.monotonic() < deadline, (path, status, body)
            time.sleep(0.3)

    def judged(self, id_: int, token: str) -> dict[str, Any]:
        final = ("accepted", "rejected")
        found: dict[str, Any] = self.until(
            f"/api/submission/{id_}", lambda b: b["state"] in final, token
        )
        return found


def call(request: urllib.request.Request) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def token(folder: Path, name: str, *extra: str) -> str:
    done = arena("ladder", "token", name, "--out", str(folder), *extra)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


BOT = (ROOT / "bots" / "random.py").read_text()
FAILING = "import sys\nsys.exit('I refuse to start')\n"


@pytest.fixture(scope="module")
def ladder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, str]]]:
    tmp = tmp_path_factory.mktemp("ladder")
    folder = tmp / "results"
    tokens = {"alice": token(folder, "alice")}  # the command; the others as it makes them
    for name in ("bob", "flood", "org"):
        tokens[name] = make_token(folder, name, organiser=name == "org")
    server = Server(tmp, folder)
    yield server, tokens
    assert server.stop() == 130, server.said
    assert "arena: stopped" in server.said


def test_a_submission_is_checked_placed_and_rated_as_arena_standings_rates_it(
    ladder: tuple[Server, dict[str, str]], tmp_path: Path
) -> None:
    server, tokens = ladder
    bot = tmp_path / "alpha"
    bot.mkdir()
    (bot / "mine.py").write_text(BOT)
    (bot / "bot.toml").write_text('cmd = "python mine.py"\n')
    done = arena("submit", server.url, str(bot), "--token", tokens["alice"], "--wait")
    assert done.returncode == 0, done.stderr + done.stdout
    assert re.search(r"submission \d+: alpha version 1, received", done.stdout)
    assert "accepted" in done.stdout
    # placement games are played and rated
    server.until(
        "/api/leaderboard",
        lambda b: any(r["bot"] == "alpha" and r["games"] >= 4 for r in b["rows"]),
    )
    rows = pause_and_settle(server, tokens["org"])
    standings = json.loads(arena("standings", str(server.folder), "--format", "json").stdout)
    mine = {r["player"]: (r["elo"], r["low"], r["high"], r["games"]) for r in rows}
    theirs = {
        b["bot"]: (round(b["elo"], 1), round(b["elo_low"], 1), round(b["elo_high"], 1), b["games"])
        for b in standings["bots"]
    }
    assert mine == theirs
    alpha = next(r for r in rows if r["bot"] == "alpha")
    assert (alpha["owner"], alpha["version"], alpha["status"]) == ("alice", 1, "active")
    resume(server, tokens["org"])


def organiser_session(server: Server, token_: str) -> tuple[urllib.request.OpenerDirector, str]:
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(server.url + "/login").read().decode()
    csrf = re.search(r'name=csrf value="([0-9a-f]+)"', page)
    assert csrf
    opener.open(server.url + "/login", urlencode({"csrf": csrf.group(1), "token": token_}).encode())
    page = opener.open(server.url + "/organiser").read().decode()
    found = re.search(r"name=csrf value='([0-9a-f]+)'", page)
    assert found
    return opener, found.group(1)


def pause_and_settle(server: Server, org: str) -> list[dict[str, Any]]:
    """Pause play, wait for the games in flight, then for the leaderboard to rate every
    stored game (tables of 2: each game counts for two rows)."""
    opener, csrf = organiser_session(server, org)
    opener.open(server.url + "/organiser/pause", urlencode({"csrf": csrf}).encode())
    server.until("/api/status", lambda b: b["paused"] and b["running"] == 0)
    time.sleep(0.5)  # the last games' fsync
    stored = len((server.folder / "games.jsonl").read_text().splitlines())
    board = server.until(
        "/api/leaderboard", lambda b: sum(r["games"] for r in b["rows"]) == 2 * stored
    )
    assert len((server.folder / "games.jsonl").read_text().splitlines()) == stored
    rows: list[dict[str, Any]] = board["rows"]
    return rows


def resume(server: Server, org: str) -> None:
    opener, csrf = organiser_session(server, org)
    opener.open(server.url + "/organiser/resume", urlencode({"csrf": csrf}).encode())


def test_tokens_are_checked_and_a_bot_belongs_to_its_owner(
    ladder: tuple[Server, dict[str, str]],
) -> None:
    server, tokens = ladder
    data = BOT.encode()
    assert server.upload(data, "beta", "")[0] == 401
    assert server.upload(data, "beta", "1.wrong-secret")[0] == 401
    owner, other = tokens["alice"], tokens["bob"]
    assert server.upload(data, "beta", owner)[0] == 201
    status, body = server.upload(data, "beta", other)
    assert (status, body["error"]) == (403, "the bot 'beta' belongs to another participant")
    # bob cannot read alice's check log; alice can
    sub = server.get("/api/submission/1", other)[1]
    assert "log" not in sub
    assert "log" in server.get("/api/submission/1", owner)[1]


def test_hostile_uploads_are_refused_with_the_reason(
    ladder: tuple[Server, dict[str, str]],
) -> None:
    server, tokens = ladder
    bob = tokens["bob"]
    assert server.upload(b"x" * (65 << 10), "big", bob)[0] == 413  # max_upload_kb = 64
    traversal = tar_of({"../escape.py": b"print(1)"})
    status, body = server.upload(traversal, "sly", bob, "sly.tar.gz")
    assert status == 201  # stored as received, then judged
    judged = server.judged(body["id"], bob)
    assert judged["state"] == "rejected" and "leaves its folder" in judged["reason"]
    assert not (server.folder / "bots" / "escape.py").exists()
    status, body = server.upload(FAILING.encode(), "quitter", bob, "quitter.py")
    judged = server.judged(body["id"], bob)
    assert judged["state"] == "rejected" and "start-up" in judged["reason"]
    assert "I refuse to start" in judged["log"]


def test_a_flood_of_submissions_is_limited(ladder: tuple[Server, dict[str, str]]) -> None:
    server, tokens = ladder
    statuses = [server.upload(FAILING.encode(), "floody", tokens["flood"])[0] for _ in range(8)]
    assert statuses == [201] * 6 + [429] * 2


def tar_of(entries: dict[str, bytes] | list[tuple[str, bytes]], link: str = "") -> bytes:
    buffer = io.BytesIO()
    pairs = list(entries.items()) if isinstance(entries, dict) else entries
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in pairs:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        if link:
            info = tarfile.TarInfo(link)
            info.type = tarfile.SYMTYPE
            info.linkname = "/etc/passwd"
            archive.addfile(info)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("upload", "reason"),
    [
        (tar_of({"/etc/evil": b"x"}), "absolute path"),
        (tar_of({"a/../../evil": b"x"}), "leaves its folder"),
        (tar_of({"ok.py": b"x"}, link="passwd"), "is a link"),
        (tar_of({f"f{i}": b"x" for i in range(21)}), "more than 20 entries"),
        (tar_of({"bomb": b"\0" * (2 << 20)}), "at most 1048576 unpacked"),
        (tar_of([("ok.py", b"x"), ("ok.py", b"z")]), "appears twice"),
        (tar_of({"ok.py": b"x", "lib/util.py": b"y"}), ""),
    ],
)
def test_unpacking_refuses_hostile_archives(tmp_path: Path, upload: bytes, reason: str) -> None:
    limits = UnpackLimits(max_files=20, max_bytes=1 << 20)
    digest = store_upload(tmp_path, upload)
    if not reason:
        root = unpack(tmp_path, digest, "x.tar.gz", limits)
        assert sorted(str(p.relative_to(root)) for p in root.rglob("*")) == [
            "lib",
            "lib/util.py",
            "ok.py",
        ]
        return
    with pytest.raises(UploadRejected, match=re.escape(reason)):
        unpack(tmp_path, digest, "x.tar.gz", limits)
    assert not (tmp_path / "bots" / digest).exists()
    assert list((tmp_path / "bots").iterdir()) == []  # nothing half-unpacked is left


def test_a_zip_bomb_is_stopped_while_it_is_read(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bomb", b"\0" * (50 << 20))  # 50 MiB that pack into ~50 KiB
    assert len(buffer.getvalue()) < 100 << 10
    digest = store_upload(tmp_path, buffer.getvalue())
    with pytest.raises(UploadRejected, match="archive bomb"):
        unpack(tmp_path, digest, "bomb.zip", UnpackLimits(max_bytes=1 << 20))


def test_a_restart_after_kill_9_loses_nothing_and_stores_nothing_twice(tmp_path: Path) -> None:
    """Kill -9 during an upload and a check, then during play: each restart keeps every
    acknowledged submission (the one caught mid-check is checked again), every stored game,
    and stores no game twice; SIGTERM at the end exits 130."""
    folder = tmp_path / "results"
    alice = token(folder, "alice")
    server = Server(tmp_path, folder)
    # an upload cut off by the kill: never acknowledged, so nothing of it may stay
    port = int(server.url.rsplit(":", 1)[1])
    partial = socket.create_connection(("127.0.0.1", port))
    partial.sendall(
        b"POST /api/submit?name=cut HTTP/1.1\r\nHost: x\r\n"
        + f"Authorization: Bearer {alice}\r\nContent-Length: 40000\r\n\r\n".encode()
        + b"#" * 20000
    )
    status, body = server.upload(BOT.encode(), "gamma", alice, "gamma.py")
    assert status == 201
    server.until(f"/api/submission/{body['id']}", lambda b: b["state"] == "checking", alice)
    server.stop(signal.SIGKILL)
    partial.close()
    server = Server(tmp_path, folder)
    judged = server.judged(body["id"], alice)
    assert judged["state"] == "accepted"  # caught mid-check: checked again, not lost
    assert [s.name for s in (folder / "uploads").iterdir()] == [judged["sha256"]]
    server.until("/api/status", lambda b: b["stored"] >= 6 and b["running"] > 0)
    server.stop(signal.SIGKILL)  # during play
    before = (folder / "games.jsonl").read_bytes()
    server = Server(tmp_path, folder)
    server.until("/api/status", lambda b: b["stored"] >= len(before.splitlines()) + 4)
    assert server.stop() == 130
    assert "arena: stopped" in server.said
    lines = (folder / "games.jsonl").read_bytes().splitlines()
    ids = [json.loads(line)["id"] for line in lines]
    assert len(ids) == len(set(ids))  # no game stored twice
    kept = before.splitlines()
    complete = kept if before.endswith(b"\n") else kept[:-1]
    assert lines[: len(complete)] == complete  # every game stored before the kill is kept
    blocks: dict[tuple[int, int], int] = {}
    for line in lines:
        game = json.loads(line)
        blocks[(game["table"], game["block"])] = blocks.get((game["table"], game["block"]), 0) + 1
    assert sum(1 for count in blocks.values() if count != 2) <= 2  # blocks in flight at the end


def test_serve_refuses_a_ladder_without_the_sandbox(tmp_path: Path) -> None:
    config = tmp_path / "bare.toml"
    config.write_text(LADDER.replace('name = "ladder-test"', 'name = "x"\nsandbox = "none"'))
    done = arena("serve", str(config), "--out", str(tmp_path / "r"), "--port", "0")
    assert done.returncode == 2
    assert "--unsafe-no-sandbox" in done.stderr and "Traceback" not in done.stderr


def test_environment_has_no_proxy_that_would_hide_the_server() -> None:
    assert os.environ.get("no_proxy") is None or "127.0.0.1" in os.environ.get("no_proxy", "")


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if CHROMIUM is None:
        pytest.skip("no chromium browser installed")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


def test_the_pages_in_a_real_browser(
    ladder: tuple[Server, dict[str, str]], browser: Any, tmp_path: Path
) -> None:
    """A phone-sized Chromium: a participant submits through the form, follows the
    submission to its verdict, reads the leaderboard (a bot named with HTML shows as
    text), their bot's page (its source: theirs to see) and a game in the viewer; a
    rejected submission's page says why. No console error, no script run from a name."""
    server, tokens = ladder
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda d: errors.append(f"a dialog opened: {d.message}"))
    bot = tmp_path / "form_bot.py"
    bot.write_text(BOT)
    page.goto(server.url + "/submit")
    page.fill("#token", tokens["alice"])
    page.fill("#name", "<img src=x onerror=alert(1)>")
    page.set_input_files("#file", str(bot))
    page.click("button")
    page.wait_for_url(re.compile(r"/submission/\d+$"))
    submission = page.url.rsplit("/", 1)[1]
    server.judged(int(submission), tokens["alice"])
    page.reload()
    assert "accepted" in page.inner_text("main")
    server.until(
        "/api/leaderboard",
        lambda b: any(r["bot"].startswith("<img") and r["games"] > 0 for r in b["rows"]),
    )
    response = page.goto(server.url + "/")
    assert response is not None
    assert "script-src" not in response.headers["content-security-policy"]
    assert page.locator("img").count() == 0  # the name is text, not an element
    assert "<img src=x onerror=alert(1)>" in page.inner_text("table")
    api = server.get("/api/leaderboard")[1]["rows"]
    assert page.locator("tbody tr").count() >= len(api) - 1  # a refresh may add a row
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # tables scroll inside
    page.screenshot(path=tmp_path / "leaderboard.png", full_page=True)
    # the owner's bot page: signed in, they see its log and source
    page.goto(server.url + "/login")
    page.fill("#token", tokens["alice"])
    page.click("form[action='/login'] button")
    page.goto(server.url + "/bot/" + quote("<img src=x onerror=alert(1)>", safe=""))
    text = page.inner_text("main")
    assert "Its source" in text and "form_bot.py" in text
    page.screenshot(path=tmp_path / "bot.png", full_page=True)
    game = page.locator("a[href^='/game/']").first.get_attribute("href")
    assert game
    page.goto(server.url + game)
    page.wait_for_selector("#viewer[data-ready]")
    # another participant sees no source
    other = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    other.goto(server.url + "/bot/" + quote("<img src=x onerror=alert(1)>", safe=""))
    assert "Its source" not in other.inner_text("main")
    # a rejected submission's page says why
    status, body = server.upload(FAILING.encode(), "quitter2", tokens["bob"], "quitter2.py")
    assert status == 201
    server.judged(body["id"], tokens["bob"])
    page.goto(f"{server.url}/submission/{body['id']}")
    assert re.search(r"Rejected: arena check-bot: FAIL\s+start-up", page.inner_text("main"))
    assert "I refuse to start" not in page.inner_text("main")  # alice's view: not her log
    other.goto(server.url + "/login")
    other.fill("#token", tokens["bob"])
    other.click("form[action='/login'] button")
    other.goto(f"{server.url}/submission/{body['id']}")
    assert "I refuse to start" in other.inner_text("main")  # bob's own log
    other.screenshot(path=tmp_path / "rejected.png", full_page=True)
    assert errors == []
    context.close()


def test_a_form_without_its_csrf_token_is_refused(ladder: tuple[Server, dict[str, str]]) -> None:
    server, tokens = ladder
    request = urllib.request.Request(
        server.url + "/login",
        data=urlencode({"token": tokens["alice"]}).encode(),
        method="POST",
    )
    try:
        urllib.request.urlopen(request, timeout=30)
    except urllib.error.HTTPError as exc:
        assert exc.code == 403
        assert "security token" in exc.read().decode()
    else:
        raise AssertionError("a login without its CSRF token was accepted")


def test_a_bot_toml_build_runs_in_the_sandbox(
    ladder: tuple[Server, dict[str, str]], tmp_path: Path
) -> None:
    """A ``build`` makes the program the bot runs (as a compiler would); it runs in the
    sandbox, where the ladder's database is out of view."""
    server, tokens = ladder
    bot = tmp_path / "builder"
    bot.mkdir()
    (bot / "source.txt").write_text(BOT)
    database = server.folder / "ladder.db"
    assert database.is_file()
    (bot / "bot.toml").write_text(
        f'build = "cp source.txt built.py && (ls {database} > seen.txt 2>&1 || true)"\n'
        'cmd = "python built.py"\n'
    )
    done = arena("submit", server.url, str(bot), "--token", tokens["alice"], "--wait")
    assert done.returncode == 0, done.stdout + done.stderr
    built = next((server.folder / "bots").glob("*.built"))
    assert (built / "built.py").read_text() == BOT
    assert "No such file" in (built / "seen.txt").read_text()


def ancestors(pid: int) -> list[int]:
    """The parent, grandparent ... of process ``pid`` (from /proc)."""
    found = []
    while pid > 1:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            break
        pid = int(stat.rsplit(")", 1)[1].split()[1])
        found.append(pid)
    return found


@pytest.mark.skipif(shutil.which("dask") is None, reason="the dask command is not installed")
def test_serve_with_a_scheduler_plays_on_the_worker_and_stores_on_the_server(
    tmp_path: Path,
) -> None:
    """``arena serve --scheduler``: real ``dask scheduler``/``dask worker`` processes; the
    bots run under the worker, the server stores the games (the only writer)."""
    marker = f"m{uuid.uuid4().hex[:8]}"
    (tmp_path / "ladder.toml").write_text(
        LADDER.replace("bots.space_five_greedy", f"bots.space_five_greedy {marker}").replace(
            "bots.random", f"bots.random {marker}"
        )
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    scheduler_file = tmp_path / "scheduler.json"
    dask: list[subprocess.Popen[bytes]] = []
    server = None
    try:
        for args in (
            ["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard"],
            ["worker", "--nthreads", "1", "--no-nanny", "--no-dashboard", "--host", "127.0.0.1"],
        ):
            log = (tmp_path / f"dask-{len(dask)}.log").open("wb")
            dask.append(
                subprocess.Popen(
                    ["dask", *args, "--scheduler-file", str(scheduler_file)],
                    cwd=ROOT,
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
        address = wait_for_scheduler(scheduler_file)
        server = Server(tmp_path, tmp_path / "results", "--scheduler", address)
        server.until("/api/status", lambda body: body["stored"] >= 4)
        bots = [int(line.split()[0]) for line in processes_with(marker)]
        assert bots, "the house bots' processes, warm in the worker's pools"
        for pid in bots:  # every bot process is the worker's, none the server's
            assert dask[1].pid in ancestors(pid) and server.process.pid not in ancestors(pid)
        assert server.stop() == 130, server.said
        assert "playing on the Dask cluster at " + address in server.said
    finally:
        if server is not None and server.process.poll() is None:
            server.stop()
        for process in reversed(dask):  # the worker first (it closes its pools), then the scheduler
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:  # as tests/test_cluster.py's DaskProcesses
                process.kill()
                process.wait()
    stored = [json.loads(line) for line in (tmp_path / "results" / "games.jsonl").open()]
    ids = [game["id"] for game in stored]
    assert len(ids) >= 4 and len(set(ids)) == len(ids)
    assert processes_with(marker) == []


def wait_for_scheduler(scheduler_file: Path, within_s: float = 60) -> str:
    """The address a ``dask scheduler`` wrote into its scheduler file."""
    deadline = time.monotonic() + within_s
    while True:
        try:
            return str(json.loads(scheduler_file.read_text())["address"])
        except (OSError, ValueError, KeyError):
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.1)


def test_the_organisers_retire_and_ban_take_bots_out_of_play(
    ladder: tuple[Server, dict[str, str]],
) -> None:
    """The organiser's buttons: a retired and a banned bot play no game once the games in
    flight are stored, and a banned bot's next version is refused."""
    server, tokens = ladder
    carol = make_token(server.folder, "carol", organiser=False)
    for name in ("gamma", "delta"):
        status, body = server.upload(BOT.encode(), name, carol)
        assert status == 201, body
        assert server.judged(body["id"], carol)["state"] == "accepted"
    server.until(  # both in play
        "/api/leaderboard",
        lambda b: {"gamma", "delta"} <= {r["bot"] for r in b["rows"] if r["games"]},
    )
    org = tokens["org"]
    opener, csrf = organiser_session(server, org)
    opener.open(
        server.url + "/organiser/retire", urlencode({"csrf": csrf, "bot": "gamma"}).encode()
    )
    opener.open(server.url + "/organiser/ban", urlencode({"csrf": csrf, "bot": "delta"}).encode())
    opener.open(server.url + "/organiser/pause", urlencode({"csrf": csrf}).encode())
    server.until("/api/status", lambda b: b["paused"] and b["running"] == 0)
    time.sleep(0.5)  # the last games' fsync
    before = len((server.folder / "games.jsonl").read_text().splitlines())
    resume(server, org)
    server.until("/api/status", lambda b: b["stored"] >= before + 6)
    later = (server.folder / "games.jsonl").read_text().splitlines()[before:]
    seated = {name for line in later for name in json.loads(line)["seating"]}
    assert seated and not any(name.startswith(("gamma@", "delta@")) for name in seated), seated
    status, body = server.upload(BOT.encode(), "delta", carol)  # a new version: refused
    assert (status, body["error"]) == (403, "the bot 'delta' is banned")


def test_the_storage_quota_is_per_participant(tmp_path: Path) -> None:
    """``quota_mb``: an upload that would take a participant's stored uploads past it is
    refused (413) and not stored; another participant's is not affected."""
    (tmp_path / "ladder.toml").write_text(
        LADDER.replace("max_upload_kb = 64", "max_upload_kb = 700\nquota_mb = 1")
    )
    folder = tmp_path / "results"
    ann, ben = (make_token(folder, name, organiser=False) for name in ("ann", "ben"))
    big = BOT + "#" * (600 << 10) + "\n"  # 600 KiB: one fits in 1 MiB, two do not
    server = Server(tmp_path, folder)
    try:
        assert server.upload(big.encode(), "first", ann)[0] == 201
        status, body = server.upload((big + "#\n").encode(), "second", ann)
        assert (status, body["error"]) == (413, "your storage quota (1 MiB) is used up")
        assert len(list((folder / "uploads").iterdir())) == 1
        assert server.upload((big + "#\n").encode(), "third", ben)[0] == 201
    finally:
        assert server.stop() == 130, server.said
