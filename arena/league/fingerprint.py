"""What a bot is, so that a changed bot is noticed before its old games are trusted.

A bot's fingerprint is the executable its command runs (resolved on ``PATH``), a content
hash of every file its command names (the script, a ``python -m`` module and the modules
it imports from its own package, data files given as arguments) and the name and version
it answers ``ready`` with. ``arena run`` records
them in ``bots.toml`` of the results folder and compares them on the next run. The module
of ``python -m`` is the file the bot runs, found as the bot finds it (:func:`module_file`),
so the folder ``arena run`` starts in does not change the fingerprint.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import pkgutil
import reprlib
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from importlib.machinery import ModuleSpec, PathFinder
from pathlib import Path
from typing import Any

from arena.config import HUMAN, BotSpec, python_module
from arena.errors import ResultsError
from arena.game.environment import python_path
from arena.league.layout import BOTS
from arena.league.reading import cannot_read


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
    """The files a command names: absolute paths of files, and the module of ``-m``
    (:func:`~arena.config.python_module`) with the modules it imports from its own
    top-level package (:func:`package_imports`)."""
    found = [Path(arg) for arg in argv[1:] if arg.startswith("/") and _is_file(arg)]
    module = python_module(argv)
    if module is not None:
        own = argv[0] == sys.executable
        spec = module_spec(module, own)
        if spec is not None and spec.has_location and spec.origin is not None:
            found.append(Path(spec.origin))
            found += package_imports(spec, own)
    return found


def package_imports(spec: ModuleSpec, own_interpreter: bool = True) -> list[Path]:
    """The files of the modules that ``spec``'s module imports from its own top-level
    package (``bots.x`` importing ``bots.tables``, or ``from . import tables``), and those
    they import in turn, with the packages they lie in (their ``__init__``, the bot's own
    included), in the order first met; read as source, never imported, found as
    :func:`module_spec` finds a module. An import that cannot be found or read is left out
    (the bot itself says so when it starts)."""
    path, finders = _search(own_interpreter)
    top = spec.name.split(".")[0]
    seen = {spec.name}
    found: list[Path] = []
    todo = [spec]
    first = [spec.name]  # the bot's own packages run first (their __init__)
    while todo:
        current = todo.pop(0)
        for name in _with_parents([*first, *_imported_names(current)]):
            if name.split(".")[0] != top or name in seen:
                continue
            seen.add(name)
            try:
                imported = _find_spec(name, path, finders)
            except (ImportError, ValueError, OSError):
                continue
            if imported is None or not imported.has_location or imported.origin is None:
                continue
            if imported.origin.endswith(".py"):
                found.append(Path(imported.origin))
                todo.append(imported)
        first = []
    return found


def _with_parents(names: list[str]) -> list[str]:
    """Each name after the packages it lies in, as an import runs them: ``a``, ``a.b``,
    ``a.b.c`` for ``a.b.c``."""
    out: list[str] = []
    for name in names:
        parts = name.split(".")
        out += [".".join(parts[:depth]) for depth in range(1, len(parts) + 1)]
    return out


def _imported_names(spec: ModuleSpec) -> list[str]:
    """The absolute names a module's source imports: each ``import a.b``, each ``from m
    import n`` as ``m`` and ``m.n`` (``n`` may be a submodule), relative ones resolved."""
    try:
        tree = ast.parse(Path(str(spec.origin)).read_bytes())
    except (OSError, SyntaxError, ValueError):
        return []
    is_package = spec.submodule_search_locations is not None
    package = spec.name if is_package else spec.name.rpartition(".")[0]
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                module = f"{base}.{node.module}" if node.module else base
            elif node.module:
                module = node.module
            else:
                continue
            names.append(module)
            names += [f"{module}.{alias.name}" for alias in node.names if alias.name != "*"]
    return names


def module_file(name: str, own_interpreter: bool = True) -> Path | None:
    """The file ``python -m name`` runs in a bot (a package's ``__main__``), if any.

    It is found as the bot's interpreter finds it: the bot's ``PYTHONPATH`` first (the
    folder the arena runs in, then the arena's own ``PYTHONPATH``), then, when the bot runs
    the arena's own interpreter, that interpreter's search: its meta path finders (an
    editable install's) and ``sys.path`` (site-packages). Another interpreter (a bot's own
    virtual environment) is searched on the bot's ``PYTHONPATH`` only: the arena cannot
    see that interpreter's search without starting it.

    Nothing of the bot is imported: the import system's own walk
    (:func:`importlib.util.find_spec`) imports every parent package of a dotted name, which
    would run the bot's ``__init__.py`` (any code) in the arena process; here each part is
    asked of the finders with its parent's search locations instead, as the import system
    asks them. Only the finders already installed in the arena run.
    """
    spec = module_spec(name, own_interpreter)
    if spec is None or not spec.has_location or spec.origin is None:
        return None  # not found, built in, frozen, or a namespace package without __main__
    return Path(spec.origin)


def module_spec(name: str, own_interpreter: bool = True) -> ModuleSpec | None:
    """The spec of what ``python -m name`` runs in a bot (a package's ``__main__``), found
    as :func:`module_file` says; None when it is not found there."""
    path, finders = _search(own_interpreter)
    return _main_spec(name, path, finders)


def _main_spec(name: str, path: list[str], finders: Sequence[Any]) -> ModuleSpec | None:
    """The spec of what ``-m name`` runs, searched on ``path`` by ``finders``."""
    spec = _find_spec(name, path, finders)
    if spec is not None and spec.submodule_search_locations is not None:
        spec = _find_spec(f"{name}.__main__", path, finders)  # a package runs its __main__
    return spec


def _search(own_interpreter: bool) -> tuple[list[str], Sequence[Any]]:
    """The bot interpreter's ``sys.path`` and meta path finders, as far as the arena knows
    them (see :func:`module_file`)."""
    # sys.path[0] is the arena's own script folder; the bot's is its empty working folder
    path = [*python_path(), *(sys.path[1:] if own_interpreter else [])]
    return path, (sys.meta_path if own_interpreter else [PathFinder])


_PROBE = """\
import json, sys
finders = [f"{f.__module__}.{getattr(f, '__qualname__', type(f).__qualname__)}"
           for f in sys.meta_path]
print(json.dumps({"path": sys.path[1:], "version": sys.version_info[:2], "finders": finders}))
"""
"""Run by another interpreter: its search path (less its working folder) and finders."""

_PLAIN_FINDERS = {
    "_frozen_importlib.BuiltinImporter",
    "_frozen_importlib.FrozenImporter",
    "_frozen_importlib_external.PathFinder",
    "_distutils_hack.DistutilsMetaFinder",  # setuptools' .pth: it finds distutils only
}
"""Meta path finders whose search :class:`PathFinder` on ``sys.path`` repeats here."""

PROBE_TIMEOUT_S = 10


def _found_by(program: str, module: str) -> bool | None:
    """Does the interpreter ``program`` (a bot's own, a virtual environment's) find
    ``module``, started as a bot is (its environment, an empty working folder)? None when
    that is not certain: it did not answer, it has finders of its own (an editable
    install's), or it is another Python version (its compiled modules look different).

    The interpreter is asked for its search path only; the search is done here, so that
    nothing of the bot is imported (see :func:`module_file`).
    """
    from arena.game.environment import bot_environment

    with tempfile.TemporaryDirectory(prefix="arena-probe-") as home:
        try:
            answer = subprocess.run(
                [program, "-c", _PROBE],
                env=bot_environment(home),
                cwd=home,
                capture_output=True,
                timeout=PROBE_TIMEOUT_S,
                check=True,
            )
            seen = json.loads(answer.stdout)
            path = [str(entry) for entry in seen["path"]]
        except (OSError, subprocess.SubprocessError, ValueError, TypeError, KeyError):
            return None
    if _main_spec(module, path, [PathFinder]) is not None:
        return True
    plain = set(seen["finders"]) <= _PLAIN_FINDERS
    return False if plain and tuple(seen["version"]) == sys.version_info[:2] else None


def _is_python(program: str) -> bool:
    """Does ``program`` look like a Python interpreter (``python3.12``, ``/venv/bin/python``)?"""
    base = os.path.basename(program)
    return program == sys.executable or base.rstrip("0123456789.") in ("python", "pypy")


def missing_module(bot: BotSpec) -> str | None:
    """The module of a bot's ``python -m MODULE`` when it is certainly not found as the
    bot's interpreter would find it; else None.

    For the arena's own interpreter (``python``, ``python3``) the arena repeats its whole
    search (:func:`module_spec`: the bot's ``PYTHONPATH`` and this interpreter's
    ``sys.path`` and finders: what the sandbox shows a bot is within it). Another
    interpreter (a virtual environment's) is asked where it looks when the module is not on
    the bot's ``PYTHONPATH`` (:func:`_found_by`); when its search cannot be repeated here,
    nothing is certain and None is returned.
    """
    if bot.is_human:
        return None
    argv = bot.argv()
    if not _is_python(argv[0]):
        return None
    module = python_module(argv)
    if module is None:
        return None
    # an arena started with -P or -I has no script folder first on its sys.path
    own = argv[0] == sys.executable and not sys.flags.safe_path
    try:
        if module_spec(module, own_interpreter=own) is not None:
            return None
        if own:
            return module
        found = _found_by(argv[0], module)  # another interpreter: asked where it looks
    except (ImportError, ValueError, OSError):  # a name the finders refuse: let the bot say
        return None
    return module if found is False else None


def _find_spec(name: str, path: list[str], finders: Sequence[Any]) -> ModuleSpec | None:
    """The spec the import system finds for ``name``, its parent packages left unimported.

    ``path`` stands for ``sys.path`` of the bot's interpreter: :class:`PathFinder` searches
    it for a top-level name; a submodule is searched in its parent's search locations.
    """
    spec: ModuleSpec | None = None
    parts = name.split(".")
    for depth in range(1, len(parts) + 1):
        if spec is not None and spec.submodule_search_locations is None:
            return None  # a module that is no package has no submodules
        within = None if spec is None else list(spec.submodule_search_locations or [])
        spec = _ask_finders(".".join(parts[:depth]), within, path, finders)
        if spec is None:
            return None
    return spec


def _ask_finders(
    fullname: str, within: list[str] | None, path: list[str], finders: Sequence[Any]
) -> ModuleSpec | None:
    """The first spec a finder gives, in the import system's order (``within``: the parent
    package's search locations, None for a top-level name)."""
    for finder in finders:
        if finder is PathFinder:
            spec = _path_spec(fullname, path if within is None else within)
        else:
            spec = _meta_spec(finder, fullname, within)
        if spec is not None:
            return spec
    return None


def _path_spec(fullname: str, entries: list[str]) -> ModuleSpec | None:
    """What :class:`PathFinder` finds for ``fullname`` in ``entries``: the first module or
    regular package, else a namespace package of every portion (built here, since
    ``PathFinder`` builds it only when the parent package is imported)."""
    portions: list[str] = []
    for entry in entries:
        finder = pkgutil.get_importer(entry)
        spec = finder.find_spec(fullname) if finder is not None else None
        if spec is not None and spec.loader is not None:
            return spec
        if spec is not None:
            portions.extend(spec.submodule_search_locations or [])
    if not portions:
        return None
    namespace = ModuleSpec(fullname, None, is_package=True)
    namespace.submodule_search_locations = portions
    return namespace


def _meta_spec(finder: Any, fullname: str, within: list[str] | None) -> ModuleSpec | None:
    """What a meta path finder other than :class:`PathFinder` gives for ``fullname``.

    A finder may count on the parent package being imported (an editable install's hands a
    child to ``PathFinder``, which fails so for a namespace package); its failure is taken
    for "not found here".
    """
    try:
        spec: ModuleSpec | None = finder.find_spec(fullname, within)
    except Exception:
        return None
    return spec


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


def read_fingerprints(folder: Path) -> dict[str, dict[str, Any]]:
    """``bots.toml``: bot -> fingerprint (empty when there is none yet)."""
    path = folder / BOTS
    try:
        with path.open("rb") as handle:
            recorded = tomllib.load(handle)
    except FileNotFoundError:
        return {}
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise _damaged_bots(folder, str(exc)) from None
    except OSError as exc:
        raise cannot_read(path, exc) from None
    for name, entry in recorded.items():
        if not isinstance(entry, dict):
            raise _damaged_bots(folder, f"{name} = {reprlib.repr(entry)} is not a table")
        wrong = next(_wrong_entry(name, entry), None)
        if wrong is not None:
            raise _damaged_bots(folder, wrong)
    return recorded


def _wrong_entry(name: str, entry: Mapping[str, Any]) -> Iterator[str]:
    """What a bot's entry holds besides its fingerprint (read back to check it), if wrong:
    ``cmd`` a string, ``limits`` a table of integers."""
    cmd, limits = entry.get("cmd", ""), entry.get("limits", {})
    if not isinstance(cmd, str):
        yield f"{name}.cmd = {reprlib.repr(cmd)} is not a string"
    if not isinstance(limits, dict) or not all(map(_is_int, limits.values())):
        yield f"{name}.limits = {reprlib.repr(limits)} is not a table of integers"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _damaged_bots(folder: Path, why: str) -> ResultsError:
    return ResultsError(
        f"{folder / BOTS}: damaged: {why}; delete it (then the stored games' bots go "
        "unchecked: a bot changed since keeps its games) or use --fresh"
    )
