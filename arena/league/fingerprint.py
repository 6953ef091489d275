"""What a bot is, so that a changed bot is noticed before its old games are trusted.

A bot's fingerprint is the executable its command runs (resolved on ``PATH``), a content
hash of every file its command names (the script, a ``python -m`` module, data files given
as arguments) and the name and version it answers ``ready`` with. ``arena run`` records
them in ``bots.toml`` of the results folder and compares them on the next run.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from importlib.machinery import PathFinder
from itertools import pairwise
from pathlib import Path
from typing import Any

from arena.config import HUMAN, BotSpec


def fingerprint(bot: BotSpec) -> dict[str, Any]:
    """The parts known before the bot starts: ``executable`` and ``files`` (path -> hash)."""
    if bot.cmd == (HUMAN,):
        return {"executable": HUMAN, "files": {}}
    argv = bot.argv()
    executable = argv[0] if "/" in argv[0] else shutil.which(argv[0]) or argv[0]
    files = {str(path): _sha256(path) for path in named_files(argv)}
    return {"executable": os.path.realpath(executable), "files": files}


def ready_text(ready: dict[str, Any]) -> str:
    """A ``ready`` answer as one string: name and version."""
    return f"{ready.get('name', '')} {ready.get('version', '')}".strip()


def named_files(argv: list[str]) -> list[Path]:
    """The files a command names: absolute paths of files, and the module of ``-m``."""
    found: list[Path] = []
    for previous, arg in pairwise(argv):
        if previous == "-m":
            module = module_file(arg)
            if module is not None:
                found.append(module)
        elif arg.startswith("/") and _is_file(arg):
            found.append(Path(arg))
    return found


def module_file(name: str) -> Path | None:
    """The file ``python -m name`` runs in a bot (whose ``PYTHONPATH`` holds this folder)."""
    roots = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    search: list[str] | None = [os.getcwd(), *roots]
    spec = None
    for part in name.split("."):
        spec = PathFinder.find_spec(part, search)
        if spec is None:
            return None
        locations = spec.submodule_search_locations
        search = list(locations) if locations is not None else None
    if spec is None:
        return None
    if spec.submodule_search_locations is not None:  # a package runs its __main__
        main = Path(next(iter(spec.submodule_search_locations))) / "__main__.py"
        return main if main.is_file() else None
    return Path(spec.origin) if spec.origin and spec.origin != "built-in" else None


def changes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What differs between two fingerprints, in words."""
    said = []
    if old.get("executable") != new.get("executable"):
        said.append(f"executable {old.get('executable')} -> {new.get('executable')}")
    before, after = old.get("files", {}), new.get("files", {})
    for path in sorted(set(before) | set(after)):
        if path not in after:
            said.append(f"{path} no longer named")
        elif path not in before:
            said.append(f"{path} newly named")
        elif before[path] != after[path]:
            said.append(f"{path} changed")
    return said


def _is_file(arg: str) -> bool:
    try:
        return Path(arg).is_file()
    except OSError:
        return False


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return "sha256:" + digest.hexdigest()
