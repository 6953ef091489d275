"""A ``python -m`` bot's fingerprint names the file the bot runs, wherever ``arena run`` is
started from: found on the bot's ``PYTHONPATH`` and then as its interpreter finds it, with
nothing of the bot imported into the arena."""

from __future__ import annotations

import subprocess
import sys
from importlib.machinery import ModuleSpec
from importlib.util import spec_from_file_location
from pathlib import Path

import pytest

from arena.config import BotSpec
from arena.game.environment import python_path
from arena.league.fingerprint import missing_module, module_file, named_files, python_module


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty folder to run from, and no ``PYTHONPATH``: the bot's path holds nothing."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    monkeypatch.chdir(folder)
    monkeypatch.delenv("PYTHONPATH", raising=False)
    return folder


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder at the end of ``sys.path``, as site-packages is."""
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.setattr(sys, "path", [*sys.path, str(folder)])
    return folder


def bot_package(root: Path, init: str = "") -> Path:
    """The package ``fpbots`` under ``root`` with the bot module ``mine``; the module's path."""
    (root / "fpbots").mkdir(parents=True)
    (root / "fpbots" / "__init__.py").write_text(init)
    bot = root / "fpbots" / "mine.py"
    bot.write_text("print('ready')\n")
    return bot


def test_a_module_on_the_interpreters_own_path_is_named(elsewhere: Path, site: Path) -> None:
    bot = bot_package(site)
    assert module_file("fpbots.mine") == bot
    assert named_files([sys.executable, "-m", "fpbots.mine"]) == [bot, bot.parent / "__init__.py"]


def test_a_module_an_installs_finder_knows_is_named(
    elsewhere: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editable install puts a finder on ``sys.meta_path``, not a folder on the path."""
    bot = bot_package(tmp_path / "checkout")

    class InstallFinder:
        @staticmethod
        def find_spec(name: str, path: object = None, target: object = None) -> ModuleSpec | None:
            init = tmp_path / "checkout" / "fpbots" / "__init__.py"
            return spec_from_file_location(name, init) if name == "fpbots" else None

    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, InstallFinder])
    assert module_file("fpbots.mine") == bot


def test_the_bots_path_comes_first(elsewhere: Path, site: Path) -> None:
    bot_package(site)
    mine = bot_package(elsewhere)  # the folder the arena runs in: first on the bot's path
    assert module_file("fpbots.mine") == mine


def test_a_package_is_not_imported_to_find_its_module(elsewhere: Path, site: Path) -> None:
    bot = bot_package(site, init="raise SystemExit('the bot ran in the arena')\n")
    (site / "fpbots" / "__main__.py").write_text("")
    assert module_file("fpbots.mine") == bot
    assert module_file("fpbots") == site / "fpbots" / "__main__.py"
    assert "fpbots" not in sys.modules


def test_a_namespace_packages_module_is_named(elsewhere: Path, site: Path) -> None:
    (site / "fpspace" / "inner").mkdir(parents=True)
    (site / "fpspace" / "inner" / "bot.py").write_text("")
    assert module_file("fpspace.inner.bot") == site / "fpspace" / "inner" / "bot.py"
    assert module_file("fpspace.inner") is None  # a namespace package has no __main__


def test_what_runs_no_file_names_none(elsewhere: Path, site: Path) -> None:
    bot_package(site)
    for name in ("fpbots.nothing", "fpbots.mine.deeper", "fpbots", "sys", "fpnothing"):
        assert module_file(name) is None, name


def test_another_interpreter_is_searched_on_the_bots_path_only(elsewhere: Path, site: Path) -> None:
    """The arena's own search is not another interpreter's (a bot's virtual environment)."""
    bot_package(site)
    assert named_files(["/opt/other/bin/python3", "-m", "fpbots.mine"]) == []
    mine = bot_package(elsewhere)
    assert named_files(["/opt/other/bin/python3", "-m", "fpbots.mine"]) == [
        mine,
        mine.parent / "__init__.py",
    ]


def test_a_relative_pythonpath_entry_means_the_folder_arena_ran_from(
    elsewhere: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``PYTHONPATH=. arena run ...``: each bot runs in a folder of its own (and the sandbox
    shows each entry at its path), so the bot gets the entry made absolute, and the
    fingerprint finds the module where the bot will."""
    mine = bot_package(elsewhere / "lib")
    monkeypatch.setenv("PYTHONPATH", "lib")
    assert python_path() == [str(elsewhere), str(elsewhere / "lib")]
    assert module_file("fpbots.mine", own_interpreter=False) == mine


def missing(cmd: str) -> str | None:
    return missing_module(BotSpec("b", tuple(cmd.split())))


def test_a_module_no_search_finds_is_missing_for_certain(
    elsewhere: Path, site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``arena run`` refuses such a bot: its interpreter is the arena's, searched whole."""
    bot_package(site)
    assert missing("python -m fpbots.nothing") == "fpbots.nothing"
    assert missing("python3 -u -m fpnothing") == "fpnothing"
    assert missing("python -m fpbots") == "fpbots"  # a package without __main__
    for found in ("python -m fpbots.mine", "python -X dev -m fpbots.mine", "python -m json.tool"):
        assert missing(found) is None, found
    assert missing("python -m __hello__") is None  # frozen: runs, though no file is named
    extra = tmp_path / "extra"
    bot_package(extra, init="raise SystemExit('the bot ran in the arena')\n")
    (extra / "fpbots" / "other.py").write_text("")
    monkeypatch.setenv("PYTHONPATH", str(extra))  # the bot's PYTHONPATH, sandboxed or not
    assert missing("python -m fpbots.other") is None
    assert "fpbots" not in sys.modules


def test_an_interpreter_that_cannot_be_asked_is_not_said_to_miss_a_module(
    elsewhere: Path, site: Path
) -> None:
    bot_package(site)  # the arena's own packages: perhaps not the other interpreter's
    assert missing("/opt/other/bin/python3 -m fpbots.mine") is None  # unsure: nothing said
    bot_package(elsewhere)
    assert missing("/opt/other/bin/python3.12 -m fpbots.mine") is None


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real virtual environment (no pip) with the bot module ``fpvenvbot`` installed."""
    root = tmp_path_factory.mktemp("venv") / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    python = root / "bin" / "python"
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(purelib) / "fpvenvbot.py").write_text("print('ready')\n")
    return python


def test_a_virtual_environments_own_package_is_found_by_asking_it(
    elsewhere: Path, venv: Path
) -> None:
    """Its site-packages is not the arena's: the interpreter is asked where it looks."""
    assert missing(f"{venv} -m fpvenvbot") is None
    assert missing(f"{venv} -m fpvenvnothing") == "fpvenvnothing"  # its whole search repeated
    assert named_files([str(venv), "-m", "fpvenvbot"]) == []  # not the arena's to hash


def test_a_virtual_environment_with_a_finder_of_its_own_is_not_second_guessed(
    elsewhere: Path, venv: Path, tmp_path: Path
) -> None:
    """An editable install's finder (put on sys.meta_path by a .pth file) may know a module
    no folder holds: the arena cannot repeat that search and says nothing."""
    purelib = next((venv.parent.parent / "lib").glob("python*/site-packages"))
    finder = purelib / "fpfinder.py"
    finder.write_text("class Finder:\n    find_spec = staticmethod(lambda *a: None)\n")
    pth = purelib / "fpfinder.pth"
    pth.write_text("import sys, fpfinder; sys.meta_path.append(fpfinder.Finder)\n")
    try:
        assert missing(f"{venv} -m fpvenvnothing") is None
    finally:
        pth.unlink()
        finder.unlink()


def test_only_the_interpreters_own_dash_m_is_read(elsewhere: Path) -> None:
    assert missing("python bot.py -m fpnothing") is None  # the script's own option
    assert missing("python -c pass -m fpnothing") is None
    assert missing("node -m fpnothing") is None  # not a Python
    assert missing("human") is None
    cases = {
        "python -m a.b": "a.b",
        "python -u -m a": "a",
        "python -ma": "a",
        "python -Im a": "a",
        "python -W ignore -X dev -m a": "a",
        "python -Wignore -m a": "a",
        "python -": None,
        "python -u": None,
        "python --unknown -m a": None,
    }
    for cmd, module in cases.items():
        assert python_module(cmd.split()) == module, cmd


def test_the_modules_a_bot_imports_from_its_own_package_are_named(
    elsewhere: Path, site: Path
) -> None:
    """``python -m fpbots.mine`` runs the helpers it imports from ``fpbots`` too, and the
    packages' ``__init__``: a change to one of them is a change of the bot. Other packages'
    modules are not the bot's."""
    bot = bot_package(site, init="raise SystemExit('the bot ran in the arena')\n")
    bot.write_text(
        "import json\nfrom fpbots import tables\nfrom .helpers.deep import x\nimport fpbots.gone\n"
    )
    package = site / "fpbots"
    (package / "tables.py").write_text("from . import shared\nfrom arena import sdk\n")
    (package / "shared.py").write_text("import fpbots.mine  # a cycle is walked once\n")
    (package / "helpers").mkdir()
    (package / "helpers" / "__init__.py").write_text("")
    (package / "helpers" / "deep.py").write_text("x = 1\n")
    (package / "unused.py").write_text("")
    named = named_files([sys.executable, "-m", "fpbots.mine"])
    assert named[0] == bot
    assert sorted(named[1:]) == sorted(
        [
            package / "__init__.py",
            package / "tables.py",
            package / "shared.py",
            package / "helpers" / "__init__.py",
            package / "helpers" / "deep.py",
        ]
    )
    assert "fpbots" not in sys.modules
