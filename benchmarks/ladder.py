"""The ladder (``arena serve``) as a participant and an organiser see it, on a real server.

    python benchmarks/ladder.py            # full: 20 submissions, 100 bots / 100,000 games
    python benchmarks/ladder.py --quick    # a smoke test: 4 submissions, 20 bots / 10,000 games

1. **Submission to first rated game**: participants each submit a trivial bot (a copy of
   ``bots/random.py``) at once over HTTP; for each, the seconds until ``/api/leaderboard``
   first rates it with a game (its check, placement and the leaderboard's refresh; the
   checks run one at a time, so later submissions wait for earlier ones): median and 95th
   percentile, and the same to "accepted" alone.
2. **Pages under load**: a ladder folder of 100 live bots (and the two house bots) and
   100,000 stored games, served while it plays (``--jobs 2``): the latency of ``GET /`` and
   ``GET /api/leaderboard`` against the server's floor measured in the same run (``GET
   /favicon.ico``, an empty answer).
3. **Games/s**: the same field (four random bots, tables of 2, ``--jobs 2``) played by the
   ladder and by ``arena run``, each counted the same way (lines of ``games.jsonl`` over
   the same span of games, start-up left out): the ratio ladder / arena run (target >= 0.9).

Every server is a real ``arena serve`` subprocess on 127.0.0.1 with the sandbox; numbers
move with the machine's load (printed first): quote full-mode runs only.
"""

from __future__ import annotations

import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or ".").resolve() == _ROOT / "benchmarks":
    sys.path[0] = str(_ROOT)

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import signal  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import urllib.request  # noqa: E402
from urllib.parse import urlencode  # noqa: E402

from arena.game.spec import block_seed  # noqa: E402
from arena.ladder import settings  # noqa: E402
from arena.ladder.app import issue_token  # noqa: E402
from arena.ladder.db import LadderDB  # noqa: E402
from arena.ladder.uploads import UnpackLimits, store_upload, unpack  # noqa: E402
from arena.record import GameRecord, SeatRecord  # noqa: E402
from benchmarks._bench import machine_line, print_table  # noqa: E402

ARENA = [sys.executable, "-m", "arena"]
BOT = (_ROOT / "bots" / "random.py").read_text()
FIELD = """
name = "bench-ladder"
engine = "space-five"
players = [2]
seed = 3
[[bots]]
name = "greedy"
cmd = "python -m bots.space_five_greedy"
[[bots]]
name = "random"
cmd = "python -m bots.random"
"""
MORE_HOUSES = """
[[bots]]
name = "random-b"
cmd = "python -m bots.random"
[[bots]]
name = "random-c"
cmd = "python -m bots.random"
"""


def ladder_file(folder: Path, extra: str = "", **keys: object) -> Path:
    table = "\n".join(f"{key} = {json.dumps(value)}" for key, value in keys.items())
    path = folder / "ladder.toml"
    path.write_text(FIELD + extra + "\n[ladder]\n" + table + "\n")
    return path


class Server:
    def __init__(self, config: Path, folder: Path) -> None:
        self.folder = folder
        self.log = config.parent / "server.log"
        with self.log.open("w") as log:
            self.process = subprocess.Popen(
                [*ARENA, "serve", str(config), "--out", str(folder), "--port", "0", "--jobs", "2"],
                cwd=_ROOT,
                stderr=log,
            )
        while not (found := re.search(r"serving on (http://[\d.:]+)", self.log.read_text())):
            if self.process.poll() is not None:
                raise SystemExit(f"the server did not start: {self.log.read_text()}")
            time.sleep(0.1)
        self.url = found.group(1)

    def get(self, path: str) -> object:
        try:
            with urllib.request.urlopen(self.url + path, timeout=120) as answer:
                data = answer.read()
        except OSError as exc:
            raise SystemExit(f"{path}: {exc}; the server said: {self.log.read_text()}") from None
        return json.loads(data) if path.startswith("/api/") else data

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=120)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def first_rated(count: int) -> None:
    with tempfile.TemporaryDirectory(prefix="arena-ladder-bench-") as tmp:
        folder = Path(tmp) / "results"
        config = ladder_file(Path(tmp), placement_blocks=2, refresh_s=0.5, submissions_per_hour=100)
        db = LadderDB(folder)
        tokens = [issue_token(db, f"p{i}") for i in range(count)]
        db.close()
        server = Server(config, folder)
        try:
            sent: dict[str, float] = {}
            ids: dict[str, int] = {}
            for i, token in enumerate(tokens):
                name = f"bot{i:02d}"
                query = urlencode({"name": name, "filename": f"{name}.py"})
                request = urllib.request.Request(
                    f"{server.url}/api/submit?{query}",
                    data=f"{BOT}\n# submission {i}\n".encode(),
                    headers={"Authorization": f"Bearer {token}"},
                    method="POST",
                )
                sent[name] = time.monotonic()
                with urllib.request.urlopen(request, timeout=60) as answer:
                    ids[name] = json.loads(answer.read())["id"]
            rated: dict[str, float] = {}
            accepted: dict[str, float] = {}
            deadline = time.monotonic() + 60 + 10 * count
            while len(rated) < count and time.monotonic() < deadline:
                board = server.get("/api/leaderboard")
                assert isinstance(board, dict)
                now = time.monotonic()
                for row in board["rows"]:
                    if row["bot"] in sent and row["games"] > 0:
                        rated.setdefault(row["bot"], now)
                for name, id_ in ids.items():
                    if name not in accepted:
                        found = server.get(f"/api/submission/{id_}")
                        assert isinstance(found, dict)
                        if found["state"] == "accepted":
                            accepted[name] = now
                time.sleep(0.1)
        finally:
            server.stop()
    to_rated = [rated[n] - sent[n] for n in rated]
    to_accepted = [accepted[n] - sent[n] for n in accepted]
    print_table(
        [
            {
                "to": "accepted (stored, unpacked, checked)",
                "submissions": len(to_accepted),
                "median s": statistics.median(to_accepted),
                "p95 s": percentile(to_accepted, 0.95),
            },
            {
                "to": "first rated game on the leaderboard",
                "submissions": len(to_rated),
                "median s": statistics.median(to_rated),
                "p95 s": percentile(to_rated, 0.95),
            },
        ],
        f"Submission to first rated game: {count} trivial bots submitted at once",
    )


def big_folder(folder: Path, config: Path, bots: int, games: int) -> None:
    """A ladder folder of ``bots`` accepted versions and ``games`` stored games among them
    and the house bots (tables of 2, each block the next deal of its table)."""
    ladder = settings.load(config)
    league = ladder.league
    db = LadderDB(folder)
    digest = store_upload(folder, BOT.encode())
    root = unpack(folder, digest, "mine.py", UnpackLimits())
    names = [bot.name for bot in league.bots]
    for i in range(bots):
        who = db.add_participant(f"p{i}", "x")
        sub = db.add_submission(
            who, f"bot{i:03d}", sha256=digest, size=len(BOT), filename="mine.py", cmd=""
        )
        db.accept(sub.id, "", "python mine.py", str(root))
        names.append(sub.player)
    db.close()
    rng = random.Random(1)
    strength = {name: rng.gauss(0, 1) for name in names}
    numbers: dict[tuple[str, str], int] = {}
    blocks: dict[tuple[str, str], int] = {}
    engine = __import__("engines").get(league.engine)
    with (folder / "games.jsonl").open("wb") as out:
        for _ in range(games // 2):
            a, b = sorted(rng.sample(range(len(names)), 2))
            table = (names[a], names[b])
            number = numbers.setdefault(table, len(numbers))
            block = blocks.get(table, 0)
            blocks[table] = block + 1
            seed = block_seed(league.seed, 2, block)
            for rotation, seating in enumerate((table, table[::-1])):
                first = strength[seating[0]] + rng.gauss(0, 1) > strength[seating[1]]
                ranks = (1, 2) if first else (2, 1)
                record = GameRecord(
                    id=f"t{number}-b{block}-r{rotation}",
                    engine=league.engine,
                    engine_version=engine.version,
                    options=dict(league.options),
                    seed=seed,
                    table=number,
                    block=block,
                    rotation=rotation,
                    seats=tuple(
                        SeatRecord(bot=name, score=float(-rank), rank=rank)
                        for name, rank in zip(seating, ranks, strict=True)
                    ),
                )
                out.write(record.to_json())


def timed(server: Server, path: str, count: int) -> list[float]:
    times = []
    for _ in range(count):
        start = time.perf_counter()
        server.get(path)
        times.append((time.perf_counter() - start) * 1000)
    return times


def pages_under_load(bots: int, games: int, requests: int) -> None:
    with tempfile.TemporaryDirectory(prefix="arena-ladder-bench-") as tmp:
        folder = Path(tmp) / "results"
        config = ladder_file(Path(tmp), placement_blocks=1)
        big_folder(folder, config, bots, games)
        started = time.monotonic()
        server = Server(config, folder)
        ready = time.monotonic() - started
        try:
            while True:  # rated once, and playing
                board = server.get("/api/leaderboard")
                assert isinstance(board, dict)
                if board["rows"] and board["running"] > 0:
                    break
                time.sleep(0.5)
            rows = []
            for path in ("/favicon.ico", "/", "/api/leaderboard"):
                values = timed(server, path, requests)
                rows.append(
                    {
                        "request": f"GET {path}",
                        "median ms": statistics.median(values),
                        "p95 ms": percentile(values, 0.95),
                    }
                )
            floor = float(str(rows[0]["median ms"]))
            for row in rows:
                row["median / floor"] = float(str(row["median ms"])) / floor
            board = server.get("/api/leaderboard")
            assert isinstance(board, dict)
            stored = board["stored"]
        finally:
            server.stop()
    print_table(
        rows,
        f"Pages while playing: {bots} live bots + 2 house bots, {stored:,} stored games "
        f"(server up after {ready:.1f} s), {requests} sequential requests each",
    )


def games_per_s(span: int) -> None:
    with tempfile.TemporaryDirectory(prefix="arena-ladder-bench-") as tmp:
        league = Path(tmp) / "league.toml"
        # four copies of one bot: the ladder's matchmaking and the round robin pair them
        # differently, and the games of every pairing then take as long
        same = FIELD.replace("bots.space_five_greedy", "bots.random")
        league.write_text(same.replace("seed = 3", "seed = 3\nrounds = 400") + MORE_HOUSES)
        run = subprocess.Popen(
            [
                *ARENA,
                "run",
                str(league),
                "--out",
                str(Path(tmp) / "run"),
                "--jobs",
                "2",
                "--no-report",
            ],
            cwd=_ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        run_rate = counted_rate(Path(tmp) / "run" / "games.jsonl", span)
        run.send_signal(signal.SIGINT)
        run.wait(timeout=120)
        config = ladder_file(Path(tmp), MORE_HOUSES)
        config.write_text(config.read_text().replace("bots.space_five_greedy", "bots.random"))
        server = Server(config, Path(tmp) / "ladder")
        try:
            ladder_rate = counted_rate(Path(tmp) / "ladder" / "games.jsonl", span)
        finally:
            server.stop()
    print_table(
        [
            {"player": "arena run", "games/s": run_rate},
            {"player": "arena serve (ladder)", "games/s": ladder_rate},
            {"player": "ratio ladder / arena run", "games/s": ladder_rate / run_rate},
        ],
        f"Games/s, four random bots, tables of 2, --jobs 2 (games 20-{20 + span} of each)",
    )


def counted_rate(path: Path, span: int, skip: int = 20) -> float:
    """Games per second between the ``skip``-th and the ``skip + span``-th line of ``path``."""
    start = None
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        lines = path.read_bytes().count(b"\n") if path.exists() else 0
        now = time.monotonic()
        if start is None and lines >= skip:
            start, first = now, lines
        if start is not None and lines >= skip + span:
            return (lines - first) / (now - start)
        time.sleep(0.05)
    raise SystemExit(f"{path}: too slow")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    print(machine_line())
    if args.quick:
        first_rated(4)
        pages_under_load(20, 10_000, 10)
        games_per_s(100)
    else:
        first_rated(20)
        pages_under_load(100, 100_000, 50)
        games_per_s(600)


if __name__ == "__main__":
    main()
