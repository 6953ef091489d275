"""``arena submit``: upload a bot (a file, or a folder sent as an archive) to a ladder."""

from __future__ import annotations

import io
import json
import tarfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from arena.errors import UserError

SKIPPED = {"__pycache__", ".git", ".venv", "node_modules", ".mypy_cache", ".pytest_cache"}
FINAL = ("accepted", "rejected", "superseded")


def pack(path: Path) -> tuple[str, bytes]:
    """The file name and bytes to send: a file as it is, a folder as a ``.tar.gz`` of its
    contents (caches and version-control folders left out; links refused)."""
    if path.is_file():
        return path.name, path.read_bytes()
    if not path.is_dir():
        raise UserError(f"{path}: no such file or folder")
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for item in sorted(path.rglob("*")):
            relative = item.relative_to(path)
            if SKIPPED & set(relative.parts):
                continue
            if item.is_symlink():
                raise UserError(f"{item}: a link; the ladder refuses links, copy the file instead")
            archive.add(item, arcname=str(relative), recursive=False)
    return f"{path.name or 'bot'}.tar.gz", buffer.getvalue()


def _request(url: str, token: str, data: bytes | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"}
    if data is not None:
        headers["Content-Type"] = "application/octet-stream"
    request = urllib.request.Request(
        url, data=data, headers=headers, method="POST" if data is not None else "GET"
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            result: dict[str, Any] = json.loads(answer.read())
            return result
    except urllib.error.HTTPError as exc:
        try:
            message = json.loads(exc.read()).get("error", exc.reason)
        except (ValueError, AttributeError):
            message = exc.reason
        raise UserError(f"{url.split('?')[0]}: {exc.code}: {message}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise UserError(f"{url.split('?')[0]}: cannot reach the ladder: {reason}") from None


def submit(
    url: str, path: Path, *, token: str, name: str | None, cmd: str | None
) -> dict[str, Any]:
    filename, data = pack(path)
    bot = name or (path.stem if path.is_file() else path.resolve().name)
    query = urlencode({"name": bot, "cmd": cmd or "", "filename": filename})
    return _request(f"{url.rstrip('/')}/api/submit?{query}", token, data)


def follow(url: str, id_: int, token: str, say: Callable[[str], None]) -> dict[str, Any]:
    """Poll a submission until it is accepted or rejected."""
    last = ""
    while True:
        found = _request(f"{url.rstrip('/')}/api/submission/{id_}", token)
        if found["state"] != last:
            last = found["state"]
            say(f"submission {id_}: {last}")
        if last in FINAL:
            return found
        time.sleep(1.0)
