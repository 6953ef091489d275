"""Every import inside ``arena`` points down the layers (a reader can trust the tree).

Layers, bottom to top: the base modules at the top of the package (errors, protocol, config,
sdk, record), ``game`` (one game between seats), ``stats``, ``league`` (a league and its
results folder), ``tune`` (``arena tune``: a client of the league layer), ``show`` (what is
shown to people), ``tools`` (for bot authors), ``ladder`` (``arena serve``: a client of the
league layer that checks bots with ``tools``), ``cli``;
above them all ``arena`` itself (``arena/__init__.py``: the public API, imported lazily).
"""

from __future__ import annotations

import ast
from pathlib import Path

import arena

LAYERS = ("base", "game", "stats", "league", "tune", "show", "tools", "ladder", "cli", "api")
PACKAGE = Path(arena.__file__).parent


def _layer(module: str) -> str:
    if module == "arena":
        return "api"
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in LAYERS:
        return parts[1]
    if len(parts) > 1 and parts[1] == "__main__":
        return "cli"
    return "base"


def _imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("arena"):
            if node.module == "arena":
                found += [f"arena.{alias.name}" for alias in node.names]
            else:
                found.append(node.module)
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith("arena")]
    return found


def test_every_import_points_down() -> None:
    upward = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(("arena", *path.relative_to(PACKAGE).with_suffix("").parts))
        module = module.removesuffix(".__init__")
        mine = LAYERS.index(_layer(module))
        upward += [
            f"{module} imports {target}"
            for target in _imports(path)
            if LAYERS.index(_layer(target)) > mine
        ]
    assert upward == []


def test_engines_never_import_the_arena() -> None:
    engines_dir = PACKAGE.parent / "engines"
    offenders = [
        f"{path}: {target}"
        for path in sorted(engines_dir.rglob("*.py"))
        for target in _imports(path)
    ]
    assert offenders == []
