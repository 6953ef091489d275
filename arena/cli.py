"""The ``arena`` command: parse, call, print. User mistakes end in one line and status 2."""

from __future__ import annotations

import arena.early_stop  # noqa: F401  first: a Ctrl-C during the imports below stops quietly

# isort: split
import atexit
import contextlib
import gc
import json
import os
import shlex
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

import engines
from arena.errors import ConfigError, UserError
from arena.words import counted

if TYPE_CHECKING:
    from types import FrameType

    from arena.config import BotSpec, LeagueConfig
    from arena.game.referee import Step
    from arena.league.driver import LeagueOutcome
    from arena.record import GameRecord
    from arena.show.html.viewer_worker import ViewerWorker
    from arena.stats.ratings import Standings
    from engines.base import Engine

REPORT_GAMES = 12
"""Games the HTML report embeds a viewer for, unless ``arena report --games`` says."""


class _Path(click.Path):
    """click's ``Path`` that refuses an empty value: ``--out ''`` would silently be the
    default, an empty FOLDER the current one."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if value == "":
            self.fail("an empty path names no file or folder", param, ctx)
        return super().convert(value, param, ctx)


class _ResultsFolder(_Path):
    """A results folder (what ``arena run`` writes): a file given instead is told which
    folder to give, not click's "Directory ... is a file"."""

    def __init__(self) -> None:
        super().__init__(file_okay=False)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from arena.league.layout import LEAGUE

        if isinstance(value, str) and os.path.isfile(value):
            holder = Path(value).parent
            if (holder / LEAGUE).is_file():
                self.fail(f"{value!r} is a file; give the results folder that holds it: {holder}")
            self.fail(
                f"{value!r} is a file; give a results folder (arena run writes one: "
                "results/NAME for the league NAME, or its --out)"
            )
        return super().convert(value, param, ctx)


_SANDBOX = click.option(
    "--sandbox",
    type=click.Choice(["auto", "bwrap", "none"]),
    default="auto",
    show_default=True,
    help="Run the bots as a league would: in the bubblewrap sandbox where it works.",
)
"""``arena play`` and ``arena check-bot``: where the bots run (a league file: ``sandbox``)."""


DISQUALIFIED_EXIT = 3  # ``arena run``: the league finished, but a bot was disqualified
STOPPED_EXIT = 130  # any command stopped by Ctrl-C or SIGTERM, as a shell reports a death by SIGINT
_STOPPED_LINE = "arena.stopped_line"  # ctx.meta: the command's line for a stop, if not the default

# When the interpreter exits, the command's work is done, yet its shutdown would walk the
# whole heap for cycles again (0.1-0.2 s at the end of the demo league on a busy machine,
# docs/performance.md); frozen objects are left to the operating system instead.
atexit.register(gc.freeze)

# numpy's OpenBLAS starts a thread per core as it loads, and they spin for a while: 0.1 s of
# CPU that the standings' import took from the first bots when it ran beside them
# (docs/performance.md). The arena's fits run on one BLAS thread anyway
# (arena.stats.ratings); a value the user set wins. Bots do not inherit it (their
# environment is scrubbed).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


class ArenaGroup(click.Group):
    """Turns every :class:`UserError` and click usage error into one line and exit status 2,
    and a Ctrl-C (or SIGTERM) at any point into the command's stop line and exit status 130. Output
    whose reader has gone (``| head``) is dropped; the command does its work."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except KeyboardInterrupt:  # while the command line is read: click would say "Aborted!"
            click.echo("arena: stopped", err=True)
            sys.exit(STOPPED_EXIT)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            from arena.show.outputs import readers_may_leave

            ctx.with_resource(readers_may_leave())
            ctx.with_resource(_sigterm_as_ctrl_c())
            return super().invoke(ctx)
        except KeyboardInterrupt:
            _stop(ctx)
        except RuntimeError as exc:
            # a Ctrl-C while a class is made (a dataclass field's __set_name__, as a module
            # loads) comes wrapped in a RuntimeError
            if _caused_by_ctrl_c(exc):
                _stop(ctx)
            raise
        except UserError as exc:
            click.echo(f"arena: error: {exc}", err=True)
            ctx.exit(2)
        except click.UsageError as exc:
            sub = exc.ctx is not None and exc.ctx.parent is not None
            where = f"arena {exc.ctx.info_name}" if exc.ctx is not None and sub else "arena"
            message = exc.format_message().replace("\n", " ")
            click.echo(f"arena: error: {message} (see '{where} --help')", err=True)
            ctx.exit(2)
        except BaseExceptionGroup as group:  # a user error or Ctrl-C raised inside a nursery
            if group.split(KeyboardInterrupt)[1] is None:
                _stop(ctx)
            mistakes, others = group.split(UserError)
            if mistakes is None or others is not None:
                raise
            first: BaseException = mistakes
            while isinstance(first, BaseExceptionGroup):
                first = first.exceptions[0]
            click.echo(f"arena: error: {first}", err=True)
            ctx.exit(2)


@contextlib.contextmanager
def _sigterm_as_ctrl_c() -> Iterator[None]:
    """Within: SIGTERM stops the command as Ctrl-C does (the game loops take both alike).

    It goes through SIGINT's handler of the moment, so trio's defers it out of trio's own
    bookkeeping as it does a Ctrl-C; where Ctrl-C is ignored (a background job of a script),
    SIGTERM still stops.
    """
    import signal

    def stop(signum: int, frame: FrameType | None) -> None:
        handler = signal.getsignal(signal.SIGINT)
        if not callable(handler):
            raise KeyboardInterrupt
        handler(signal.SIGINT, frame)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _caused_by_ctrl_c(exc: BaseException) -> bool:
    """Whether a KeyboardInterrupt is among the causes of ``exc``."""
    cause = exc.__cause__
    while cause is not None:
        if isinstance(cause, KeyboardInterrupt):
            return True
        cause = cause.__cause__
    return False


def _stop(ctx: click.Context) -> NoReturn:
    """End a command stopped by Ctrl-C (outside the game loops, which stop on their own) with
    the line it set in ``ctx.meta`` (``arena run``: how to resume), else ``arena: stopped``."""
    line: Callable[[], str] = ctx.meta.get(_STOPPED_LINE, lambda: "arena: stopped")
    click.echo(line(), err=True)
    ctx.exit(STOPPED_EXIT)


@click.group(cls=ArenaGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tabletop-arena")
def main() -> None:
    """Tabletop Arena: leagues of tabletop-game bots.

    \b
    Example:
      arena run configs/demo.toml
    """


# the options of every command that plays leagues (run, tune, serve)
_jobs_option = click.option(
    "--jobs",
    "-j",
    type=click.IntRange(1, 256),
    default=None,
    help="Games at once (default: CPU count).",
)
_workers_option = click.option(
    "--workers",
    type=click.IntRange(1, 1024),
    default=None,
    help="Play on a local Dask cluster of N worker processes, --jobs games at once on each "
    "(docs/scaling.md).",
)
_scheduler_option = click.option(
    "--scheduler",
    envvar="ARENA_SCHEDULER",
    default=None,
    metavar="ADDRESS",
    help="Play on the running Dask cluster at ADDRESS (env ARENA_SCHEDULER).",
)


@main.command(short_help="Play or resume a league; print its standings.")
@click.argument("config", type=_Path(dir_okay=False))
@_jobs_option
@click.option(
    "--out",
    type=_Path(file_okay=False),
    default=None,
    help="Results folder (default: results/<league name>).",
)
@click.option(
    "--fresh",
    is_flag=True,
    help="Discard what the folder holds of earlier runs (games, games set aside, standings, "
    "logs, transcripts, report, game pages).",
)
@click.option(
    "--replay-bot",
    "replay",
    multiple=True,
    metavar="NAME",
    help="Move the stored games of bot NAME aside and play them again (a changed bot).",
)
@click.option(
    "--transcripts",
    is_flag=True,
    help="Record every line each seat sent and got (for arena replay-seat).",
)
@click.option(
    "--no-report", is_flag=True, help="Do not write the HTML report (FOLDER/report.html)."
)
@_workers_option
@_scheduler_option
@click.pass_context
def run(
    ctx: click.Context,
    config: str,
    jobs: int | None,
    out: str | None,
    fresh: bool,
    replay: tuple[str, ...],
    transcripts: bool,
    no_report: bool,
    workers: int | None,
    scheduler: str | None,
) -> None:
    """Run (or resume) the league in CONFIG and print its standings.

    A bot whose files changed since its games were stored is refused: --replay-bot NAME
    plays its games again, --fresh every game.

    Exit status 0; 2 for a mistake in the input; 3 when the league finished but a bot was
    disqualified, in this run or an earlier one (its games are stored and forfeited); 130
    when stopped (Ctrl-C or SIGTERM), at any point: the games stored are kept and the line
    printed says how to resume. Output read by a command that leaves early (| head, quitting
    less) is dropped from then on; the league goes on, is rated and reported as usual, with
    the same exit status.

    \b
    Example:
      arena run configs/demo.toml --jobs 2
      arena run configs/demo.toml --workers 2
    """
    from arena import config as config_module

    if workers is not None and scheduler is not None:
        if ctx.get_parameter_source("scheduler") is not click.core.ParameterSource.ENVIRONMENT:
            raise ConfigError("--workers and --scheduler exclude each other: give one")
        scheduler = None  # an explicit --workers wins over ARENA_SCHEDULER
    if workers is not None or scheduler is not None:
        from arena.league.cluster import require_dask

        require_dask()
    league = config_module.load(config)
    for warning in league.warnings:
        _say(f"warning: {warning}")
    worker = None
    if not no_report:  # it starts while the league's own code is imported below
        from arena.show.html.viewer_worker import ViewerWorker

        worker = ViewerWorker.start(league.engine)
        if worker is not None:
            ctx.with_resource(contextlib.closing(worker))  # ended however the command ends
    if (
        workers is None
        and scheduler is None
        and any(bot.sandbox != "none" and not bot.is_human for bot in league.bots)
    ):
        from arena.game import sandbox

        sandbox.start_check()  # bubblewrap's trial run, while the code below is imported
        ctx.call_on_close(sandbox.unusable_reason)  # its answer read, however this ends

    import trio

    from arena.league.driver import with_stored_seed
    from arena.league.runner import run_league
    from arena.league.schedule import game_count
    from arena.show.progress import Progress

    folder = Path(out) if out else Path("results") / league.name
    names = [bot.name for bot in league.bots]
    for name in replay:
        if name not in names:
            raise ConfigError(f"--replay-bot {name}: no bot of that name; bots: {', '.join(names)}")
    _check_modules(league, config, remote=scheduler is not None)
    drawn = league.seed
    league = with_stored_seed(league, folder, fresh=fresh)
    dealt = ""
    if league.seed_drawn:  # say where the deals come from: a resumed league keeps them
        origin = "drawn at random" if league.seed == drawn else "drawn at its first run"
        dealt = f", seed {league.seed} ({origin}: the league file gives none)"
    resume = _resume_command(config, out, jobs, transcripts, workers, scheduler, no_report)
    ctx.meta[_STOPPED_LINE] = lambda: _stopped_line(_stored_so_far(league, folder), folder, resume)
    ties = " (and a block more for each tie on a cut)" if league.mode == "knockout" else ""
    scheduled = f"{game_count(league):,} games scheduled{ties}"
    click.echo(f"league {league.name}: {scheduled}{dealt}", err=True)
    jobs = jobs or os.cpu_count() or 1
    progress: Progress | None = Progress(league.name)
    people = None
    if league.people:
        if workers is not None or scheduler is not None:
            verb = "plays" if len(league.people) == 1 else "play"
            raise ConfigError(
                f'{config}: {", ".join(league.people)} (cmd = "human") {verb} at this '
                "terminal; run this league without --workers or --scheduler"
            )
        from arena.show.human import TerminalConsole, human_seats

        # one terminal: the person's games one at a time, no progress line between prompts
        jobs, progress = 1, None
        people = human_seats(TerminalConsole())
        click.echo(f"arena: {', '.join(league.people)} at this terminal: one game at a time")

    def say(line: str) -> None:
        """A status line during the run (a step of a sequential test), below the progress."""
        if progress is not None:
            progress.finish()
        _say(line)

    disqualified: list[str] = []  # bots with a seat forfeited as disqualified, this run or before

    def wrap_up(outcome: LeagueOutcome) -> None:
        """What a finished league prints and writes (called while the bots end)."""
        from arena.league.layout import bot_log
        from arena.protocol import visible

        if progress is not None:
            progress.finish()
        for name, reason in outcome.disqualified.items():
            click.echo(
                f"arena: bot {name!r} was disqualified: {visible(reason)}; what it wrote to "
                f"stderr is in {visible(str(bot_log(folder, name)))}",
                err=True,
            )
        if outcome.stopped_early:
            click.echo(f"arena: {outcome.stopped_early}", err=True)
        click.echo(
            f"{counted(outcome.played, 'game')} played, {outcome.skipped:,} already stored, "
            f"in {folder}",
            err=True,
        )
        table = _print_standings(folder, "table", write=True)
        earlier = [name for name in table.disqualified if name not in outcome.disqualified]
        for name in earlier:  # a rerun of a finished league: the stored forfeits still stand
            click.echo(
                f"arena: bot {name!r} was disqualified in a stored game; see "
                f"{visible(str(bot_log(folder, name)))}",
                err=True,
            )
        disqualified.extend(earlier)
        _print_championship(folder)
        if not no_report:
            path = _write_report(folder, None, REPORT_GAMES, table, worker)
            click.echo(f"report: {path}", err=True)

    if workers is not None or scheduler is not None:
        from arena.league.cluster import run_cluster_league

        outcome = run_cluster_league(
            league,
            folder,
            jobs=jobs,
            workers=workers,
            scheduler=scheduler,
            fresh=fresh,
            progress=progress,
            say=say,
            transcripts=transcripts,
            replay=frozenset(replay),
        )
        if not outcome.interrupted:
            wrap_up(outcome)
    else:
        # before the first bot takes a descriptor: an import that a short ``ulimit -n`` cut
        # off midway leaves numpy broken for the rest of the run (it loads once a process)
        (_import_the_standings if no_report else _import_the_end)()
        outcome = trio.run(
            lambda: run_league(
                league,
                folder,
                jobs=jobs,
                fresh=fresh,
                progress=progress,
                say=say,
                transcripts=transcripts,
                replay=frozenset(replay),
                people=people,
                finish=wrap_up,
            )
        )
    if outcome.interrupted:
        if progress is not None:
            progress.finish()
        elif people is not None:
            click.echo()  # the person's prompt is still on the line
        click.echo(_stopped_line(outcome, folder, resume), err=True)
        sys.exit(STOPPED_EXIT)
    if outcome.disqualified or disqualified:
        sys.exit(DISQUALIFIED_EXIT)


def _stopped_line(outcome: LeagueOutcome, folder: Path, resume: str) -> str:
    """What a stopped run says: how far it got (counted as the first line counts the games
    scheduled) and the command that resumes it."""
    stored = outcome.played + outcome.skipped
    return (
        f"arena: stopped; {stored:,} of {outcome.scheduled:,} games "
        f"{'is' if stored == 1 else 'are'} stored in {folder}. Resume with: {resume}"
    )


def _stored_so_far(league: LeagueConfig, folder: Path) -> LeagueOutcome:
    """A run stopped outside its games (starting, or writing the standings and report): what
    the folder holds of the league, counted as a stop during the games counts it."""
    from arena.league.driver import LeagueOutcome, league_games_stored
    from arena.league.reading import iter_games
    from arena.league.schedule import game_count

    stored = league_games_stored(league, iter_games(folder))
    return LeagueOutcome(scheduled=game_count(league), played=0, skipped=stored)


def _check_modules(league: LeagueConfig, config: str, *, remote: bool) -> None:
    """Refuse a bot of the league whose ``python -m MODULE`` names a module its interpreter
    cannot find (:func:`_check_module`); bots started on a cluster's workers (``remote``),
    whose folders and ``PYTHONPATH`` may differ, are only warned about."""
    for bot in league.bots:
        _check_module(bot, f"bot {bot.name!r}", f"{config}: ", remote=remote)


def _check_module(bot: BotSpec, label: str, where: str = "", *, remote: bool = False) -> None:
    """Refuse ``bot`` (called ``label``, in ``where``) if its ``python -m MODULE`` names a
    module its interpreter cannot find: it would forfeit every game at start-up. Warn only
    for a bot started elsewhere (``remote``); say nothing when it is not certain
    (:func:`~arena.league.fingerprint.missing_module`)."""
    from arena.league.fingerprint import missing_module

    module = missing_module(bot)
    if module is None:
        return
    if remote:
        _say(
            f"warning: {label}: no module named {module!r} here; unless the cluster's workers "
            "find it, the bot cannot start"
        )
        return
    python = bot.argv()[0]
    packages = "this Python's" if python == sys.executable else f"{python}'s"
    raise ConfigError(
        f"{where}{label}: no module named {module!r} to run with -m "
        f"(searched as its Python would: the folder arena runs from, PYTHONPATH, {packages} "
        "packages)"
    )


def _import_the_standings() -> None:
    """Import what the standings need (numpy among them) before the league's bots start."""
    import arena.show.tables
    import arena.stats.ratings  # noqa: F401


def _import_the_end() -> None:
    """Import what the standings and the report need before the league's bots start."""
    _import_the_standings()
    import arena.show.html.report  # noqa: F401


def _resume_command(
    config: str,
    out: str | None,
    jobs: int | None,
    transcripts: bool,
    workers: int | None = None,
    scheduler: str | None = None,
    no_report: bool = False,
) -> str:
    """The command that resumes this run with the same settings (without --fresh)."""
    words = ["arena", "run", config]
    if out:
        words += ["--out", out]
    if jobs:
        words += ["--jobs", str(jobs)]
    if transcripts:
        words.append("--transcripts")
    if workers is not None:
        words += ["--workers", str(workers)]
    if scheduler is not None:
        words += ["--scheduler", scheduler]
    if no_report:
        words.append("--no-report")
    return shlex.join(words)


@main.command(short_help="Tune a bot's parameters by playing games (SPSA).")
@click.argument("tune_file", type=_Path(dir_okay=False))
@click.option(
    "--out",
    type=_Path(file_okay=False),
    default=None,
    help="Results folder (default: results/<name>).",
)
@_jobs_option
@_workers_option
@_scheduler_option
@click.option("--fresh", is_flag=True, help="Discard the folder's earlier tune and start again.")
def tune(
    tune_file: str,
    out: str | None,
    jobs: int | None,
    workers: int | None,
    scheduler: str | None,
    fresh: bool,
) -> None:
    """Tune the parameters of a bot of TUNE_FILE (a league file with a [tune] section),
    then confirm the result against the start values on fresh deals (docs/tuning.md).

    Stopped (Ctrl-C, or killed), the same command resumes where it stopped.

    \b
    Example:
      arena tune configs/tune-cat-yard.toml --jobs 2
    """
    if workers is not None and scheduler is not None:
        raise ConfigError("--workers and --scheduler exclude each other: give one")
    from arena.tune import config as tune_config
    from arena.tune.run import TUNED, Player, command_line, run_tune, snippet

    spec = tune_config.load(tune_file)
    folder = Path(out) if out else Path("results") / spec.league.name
    player = Player(jobs or os.cpu_count() or 1, workers, scheduler)
    click.echo(
        f"tune {spec.league.name}: {spec.bot}, {len(spec.params)} parameter(s), "
        f"{spec.iterations:,} iterations of {spec.seats} games ({spec.method})",
        err=True,
    )
    outcome = run_tune(spec, folder, player, fresh=fresh, say=_say)
    if outcome.interrupted:
        click.echo(
            f"arena: stopped after {outcome.steps:,} "
            f"{'trials' if spec.method == 'optuna' else 'iterations'}; "
            f"the same command resumes: arena tune {shlex.quote(tune_file)}"
            + (f" --out {shlex.quote(str(out))}" if out else ""),
            err=True,
        )
        sys.exit(STOPPED_EXIT)
    click.echo(f"tuned values (in {folder / TUNED}):")
    click.echo(snippet(outcome.values))
    click.echo(f"command line: {command_line(spec, outcome.values)}")
    if outcome.confirmation is not None:
        click.echo(outcome.confirmation.line())
    click.echo(f"report: {_write_report(folder, None, TUNE_REPORT_GAMES)}")


TUNE_REPORT_GAMES = 10  # a tune's report embeds few viewers: its games are of θ± pairs


@main.command(short_help="Print the standings of a results folder.")
@click.argument("folder", type=_ResultsFolder())
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "markdown", "csv", "json"]),
    default="table",
    show_default=True,
)
@click.option(
    "--model",
    type=click.Choice(["bt", "pl"]),
    default="bt",
    show_default=True,
    help="Bradley-Terry on pairwise outcomes, or Plackett-Luce on finishing orders.",
)
@click.option(
    "--method",
    type=click.Choice(["ml", "online"]),
    default="ml",
    show_default=True,
    help="Maximum likelihood over all games, or online Elo in game order.",
)
@click.option(
    "--anchor",
    default=None,
    metavar="BOT[=RATING]",
    help="Pin a bot's rating (default: pool mean 1500).",
)
def standings(folder: str, fmt: str, model: str, method: str, anchor: str | None) -> None:
    """Print the standings of a results FOLDER.

    \b
    Example:
      arena standings results/demo --format markdown
    """
    pinned = _parse_anchor(anchor) if anchor is not None else None
    _print_standings(Path(folder), fmt, model=model, method=method, anchor=pinned)
    if fmt == "table":
        _print_championship(Path(folder))


def _print_championship(folder: Path) -> None:
    """Below the Elo table of a Swiss or knockout league: its own standings or bracket."""
    from arena.league.championship import CHAMPIONSHIPS
    from arena.league.reading import read_games
    from arena.league.results import read_league
    from arena.show.championship import championship_text

    league = read_league(folder)
    if league.mode in CHAMPIONSHIPS and league.scheduled:
        click.echo()
        click.echo(championship_text(league, read_games(folder)))


def _say(line: str) -> None:
    """A status line for the person at the terminal (stderr, beside the progress)."""
    click.echo(f"arena: {line}", err=True)


def _parse_anchor(text: str) -> tuple[str, float]:
    """``BOT`` (at 1500) or ``BOT=RATING``; an ``=`` not followed by a number is the name's."""
    from arena.stats.ratings import BASE_RATING

    name, sep, value = text.rpartition("=")
    if sep:
        try:
            return name, float(value)
        except ValueError:
            pass
    return text, BASE_RATING


def _print_standings(folder: Path, fmt: str, *, write: bool = False, **kwargs: Any) -> Standings:
    """Print the standings of the league stored in ``folder`` (:func:`rate_folder`, which
    ``kwargs`` go to) and return them; ``write``: into ``standings.toml`` too."""
    from arena.league.results import write_standings_file
    from arena.league.standings import rate_folder
    from arena.show import tables as report

    table = rate_folder(folder, warn=_say, **kwargs)
    if write:
        write_standings_file(folder, table.to_dict())
    click.echo(report.render(table, fmt))
    return table


@main.command(short_help="Play one game between bots, or against them.")
@click.argument("engine")
@click.option(
    "--bot",
    "bots",
    multiple=True,
    metavar="CMD",
    help="One per seat, a command line split as a shell would.",
)
@click.option(
    "--human",
    metavar="NAME",
    default=None,
    help="Seat yourself (as NAME) at this terminal; no clock applies to you.",
)
@click.option(
    "--human-seat",
    type=click.IntRange(0),
    default=0,
    show_default=True,
    help="Which seat the --human player takes (only with --human); the bots fill the "
    "others in order.",
)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option(
    "--option",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    help='Engine option, each KEY once; VALUE is JSON (true, 3, "x") or a plain string.',
)
@click.option("--show", is_flag=True, help="Narrate the game and draw the table as it goes.")
@click.option("--move-ms", type=click.IntRange(1), default=1000, show_default=True)
@click.option("--bank-ms", type=click.IntRange(0), default=10_000, show_default=True)
@_SANDBOX
@click.pass_context
def play(
    ctx: click.Context,
    engine: str,
    bots: tuple[str, ...],
    human: str | None,
    human_seat: int,
    seed: int,
    options: tuple[str, ...],
    show: bool,
    move_ms: int,
    bank_ms: int,
    sandbox: str,
) -> None:
    """Play one game of ENGINE between bot commands and print the result.

    With --human NAME you take a seat yourself: before each of your decisions you see what
    happened, the table as your seat sees it and your choices, numbered.

    Exit status 0 when the game was played to its end (a bot's fault and forfeit included:
    the result shows them); 2 for a mistake in the input; 130 when stopped (Ctrl-C or
    SIGTERM): the game is not finished.

    \b
    Example:
      arena play space-five --bot 'python -m bots.random' \\
          --bot 'python -m bots.space_five_greedy' --seed 7 --show
      arena play cat-yard --human Ann --bot 'python -m bots.random'
    """
    import trio

    from arena.config import HUMAN, BotSpec, Limits, Policy, load_engine
    from arena.game.botproc import StderrLog
    from arena.tools.match import play_match

    game_engine = load_engine(engine)
    if human is not None and not human.strip():
        raise ConfigError("--human needs the name you play as: --human NAME")
    seat_given = ctx.get_parameter_source("human_seat") is not click.core.ParameterSource.DEFAULT
    if human is None and seat_given:
        raise ConfigError("--human-seat places the --human player; give --human NAME too")
    players = len(bots) + (human is not None)
    if players == 0:
        raise ConfigError("no players: give a --bot CMD for each seat (--human NAME to play)")
    for cmd in bots:
        if cmd.strip() == HUMAN:
            raise ConfigError(f"--bot {cmd!r}: to play a seat yourself, give --human NAME")
    argvs = [_bot_argv(cmd, f"--bot {cmd!r}") for cmd in bots]
    if human is not None and show:
        raise ConfigError("--show draws every hand; it cannot be used with --human")
    if human is not None and human_seat >= players:
        raise ConfigError(f"--human-seat {human_seat}: seats are 0..{players - 1}")
    resolved = _checked(game_engine, players, _parse_options(options))
    positions = [i for i in range(players) if human is None or i != human_seat]
    specs = [
        BotSpec(f"seat{i}:{argv[-1]}", argv, sandbox=sandbox)
        for i, argv in zip(positions, argvs, strict=True)
    ]
    person = None
    if human is not None:
        from arena.show.human import HumanSeat, TerminalConsole

        names = [argv[-1] for argv in argvs]
        names.insert(human_seat, human)
        person = (human_seat, HumanSeat(human, engine, TerminalConsole(), names))
    on_step = _Narrator(game_engine.name, players) if show else None
    logs = {spec.name: StderrLog(None, 0) for spec in specs}  # shown under a bot's fault
    try:
        record = trio.run(
            lambda: play_match(
                game_engine,
                specs,
                seed,
                resolved,
                Limits(move_ms=move_ms, bank_ms=bank_ms),
                Policy(),
                on_step,
                person,
                logs,
            )
        )
    except KeyboardInterrupt:  # the bots are ended by now
        if person is not None:
            click.echo()  # the person's prompt is still on the line
        click.echo("arena: stopped; the game was not finished", err=True)
        sys.exit(STOPPED_EXIT)
    commands = [shlex.join(spec.cmd) for spec in specs]
    if human is not None:
        commands.insert(human_seat, f"(you, {human})")
    stderr = {
        position: logs[spec.name].last_lines()
        for position, spec in zip(positions, specs, strict=True)
    }
    _print_game(record, commands, stderr)
    if human is not None and record.seats[human_seat].forfeit:
        # the person's seat told nothing more after the resignation: who won, by the ranks
        from arena.show.human import forfeit_line

        forfeits = {i: seat.forfeit for i, seat in enumerate(record.seats) if seat.forfeit}
        click.echo(forfeit_line(forfeits, record.ranks))


def _bot_argv(cmd: str, label: str) -> tuple[str, ...]:
    """A bot command given on the command line (as ``label``: ``--bot '...'``), split and
    checked as a league's are: a missing program or script, or a ``python -m`` module its
    Python cannot find, is an error naming it, before any bot starts."""
    from arena.config import BotSpec, parse_command

    try:
        argv = parse_command(cmd)
    except ConfigError as exc:
        raise ConfigError(f"{label}: {exc}") from None
    _check_module(BotSpec(label, argv), label)
    return argv


class _Narrator:
    """``arena play --show``: the game as a spectator is told it (each decision in words,
    what it made happen, the table whenever another seat is to move), then the final table
    and the scores (the result table follows)."""

    def __init__(self, engine: str, players: int) -> None:
        from arena.show.spectator import Spectator

        self._spectator = Spectator(engine, players)

    def __call__(self, step: Step) -> None:
        state = step.state
        if step.seat is None or step.action is None:
            click.echo("\n".join(self._spectator.end(state)))
            scores = ", ".join(f"seat {i} {s:g}" for i, s in enumerate(state.result().scores))
            decisions = counted(step.number, "decision")
            click.echo(f"game over after {decisions}; scores: {scores}")
            return
        click.echo("\n".join(self._spectator.move(state, step.number, step.seat, step.action)))


def _print_game(record: GameRecord, commands: list[str], stderr: Mapping[int, list[str]]) -> None:
    """The result table, then each seat's fault notes with, for a bot, the last lines it
    wrote to stderr (``stderr``, by seat)."""
    from tabulate import tabulate

    from arena.protocol import visible

    rows = []
    for number, (seat, cmd) in enumerate(zip(record.seats, commands, strict=True)):
        verdicts = ", ".join(f"{k} {v}" for k, v in seat.verdicts.items()) or "-"
        if seat.forfeit is not None:
            verdicts += f" (forfeit: {seat.forfeit})"
        rows.append(
            [number, seat.rank, seat.score, seat.decisions, f"{seat.think_ms:.0f}", verdicts, cmd]
        )
    click.echo(
        tabulate(rows, headers=["seat", "rank", "score", "moves", "think ms", "verdicts", "bot"])
    )
    for number, seat in enumerate(record.seats):
        for note in seat.notes:
            click.echo(f"seat {number}: {visible(note)}")
        if seat.verdicts:
            for line in stderr.get(number, []):
                click.echo(f"seat {number}:   {line}")


def _checked(engine: Engine, players: int, options: dict[str, Any]) -> dict[str, Any]:
    """The resolved options of a game of ``players`` seats (a ConfigError names the engine)."""
    from arena.config import check_game

    try:
        return check_game(engine, [players], options)
    except ConfigError as exc:
        raise ConfigError(f"{engine.name}: {exc}") from None


def _parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise ConfigError(f"--option {pair!r}: expected KEY=VALUE")
        if key in options:
            raise ConfigError(f"--option {key}: given twice; give each option once")
        try:
            options[key] = json.loads(raw)
        except ValueError:
            options[key] = raw
    return options


@main.command(name="engines", short_help="List the engines, player counts and options.")
def list_engines() -> None:
    """List the rules engines with their players and options (defaults as TOML).

    \b
    Example:
      arena engines
    """
    for name in engines.names():
        engine = engines.get(name)
        click.echo(f"{name}: {engine.title}, {engine.min_players}-{engine.max_players} players")
        absent = engines.parts_of(name).absent()
        if absent:  # what the commands will say they cannot show (docs/adding-a-game.md)
            click.echo(f"  has no {', '.join(absent)} part")
        for line in _option_lines(engine.option_specs()):
            click.echo(line)
    for prefix, summary in engines.families().items():
        click.echo(f"{prefix}:NAME: {summary}")


def _option_lines(specs: Mapping[str, Any], width: int = 100) -> list[str]:
    """``[options]`` lines a league file could hold: ``key = default  # help``, wrapped."""
    import textwrap

    import tomli_w

    if not specs:
        return ["  (no options)", ""]
    lines = ["  [options]"]
    for key, spec in specs.items():
        setting = "  " + tomli_w.dumps({key: spec.default}).strip()
        column = max(28, len(setting) + 1)
        helps = textwrap.wrap(spec.help, width - column - 2) or [""]
        lines.append(f"{setting:<{column}}# {helps[0]}")
        lines += [f"{'':<{column}}# {more}" for more in helps[1:]]
    return [*lines, ""]


@main.command(short_help="Re-simulate a stored game from its seed and moves.")
@click.argument("folder", type=_ResultsFolder())
@click.argument("game_id")
@click.option("--show", is_flag=True, help="Narrate the game move by move and draw the table.")
def replay(folder: str, game_id: str, show: bool) -> None:
    """Re-simulate stored game GAME_ID of FOLDER from its seed and moves.

    Exit status 0 when the stored result is reproduced, 1 when it is not, 2 when there is
    nothing to replay (no game GAME_ID, a folder that is not a league or is damaged); 130
    when stopped (Ctrl-C).

    \b
    Example:
      arena replay results/demo t0-b0-r1 --show
    """
    from arena.league.results import read_league
    from arena.tools.replay import narrate, replay_record

    read_league(Path(folder))
    record = _stored_game(Path(folder), game_id)
    if show:
        for line in narrate(record):
            click.echo(line)
    problems = replay_record(record)
    if problems:
        click.echo(f"{game_id}: does NOT reproduce: " + "; ".join(problems))
        sys.exit(1)
    click.echo(
        f"{game_id}: reproduces the stored result "
        f"(scores {list(record.scores)}, ranks {list(record.ranks)})"
    )


@main.command(short_help="Write the HTML report of a stored league.")
@click.argument("folder", type=_ResultsFolder())
@click.option(
    "-o",
    "--output",
    type=_Path(dir_okay=False, allow_dash=True),
    default=None,
    help="Where to write the report (default: FOLDER/report.html; - for standard output).",
)
@click.option(
    "--games",
    type=click.IntRange(0, 500),
    default=REPORT_GAMES,
    show_default=True,
    help="Games the report embeds a viewer for (worst losses, upsets, pairings).",
)
def report(folder: str, output: str | None, games: int) -> None:
    """Write a self-contained HTML report of the league stored in FOLDER.

    A game picked for a viewer that cannot be re-played (its moves or options damaged) is
    named in the report instead, with a warning; the exit status stays 0.

    \b
    Example:
      arena report results/demo -o demo.html
    """
    target = _page_path(output) if output else None  # a bad -o fails before the work
    path = _write_report(Path(folder), target, games)
    if target is not STANDARD_OUTPUT:
        click.echo(str(path))


def _write_report(
    folder: Path,
    output: Path | None,
    games: int,
    standings: Standings | None = None,
    worker: ViewerWorker | None = None,
) -> Path:
    """Write the report of the league's games (as :func:`_print_standings` rates them);
    ``standings``: theirs, if already computed; ``worker``: one already started (else one is
    started here, while the folder is read)."""
    from arena.league.fingerprint import read_fingerprints
    from arena.league.layout import REPORT
    from arena.league.reading import read_games
    from arena.league.results import read_league
    from arena.league.standings import rate_folder, rated_games
    from arena.show.html.report import build_report
    from arena.show.html.viewer_worker import ViewerWorker

    league = read_league(folder)
    with contextlib.ExitStack() as stack:
        if worker is None and games > 0 and league.engine:
            worker = ViewerWorker.start(league.engine)
            if worker is not None:
                stack.enter_context(contextlib.closing(worker))
        stored = read_games(folder, warn=_say)
        records = rated_games(folder, stored)
        if standings is None:
            standings = rate_folder(folder, games=stored)
        fingerprints = read_fingerprints(folder)
        page = build_report(
            folder,
            league,
            records,
            standings,
            games=games,
            fingerprints=fingerprints,
            worker=worker,
            warn=_say,
        )
    path = output or folder / REPORT
    again = "run the command again" if output else f"write it with: arena report {folder}"
    _write_page(path, page, rewrite=again)
    return path


STANDARD_OUTPUT = Path("-")
"""The ``-o`` of a page that goes to standard output (only this object: ``-o ./-`` is a file)."""


def _page_path(output: str) -> Path:
    """The ``-o`` of a page, checked before the page is made: its folder must exist."""
    if output == "-":
        return STANDARD_OUTPUT
    path = Path(output)
    if not path.parent.is_dir():
        raise UserError(f"cannot write {path}: there is no folder {path.parent}")
    return path


def _write_page(path: Path, page: str, rewrite: str = "run the command again") -> None:
    """Write an HTML page of stored games whole or not at all (a full disk keeps the page it
    had, and says to free some space and do what ``rewrite`` says)."""
    from arena.league.atomic import os_reason, write_whole

    if path is STANDARD_OUTPUT:
        click.echo(page.encode("utf-8"), nl=False)  # bytes: as they are, whatever the locale
        return
    try:
        write_whole(path, page.encode("utf-8"))
    except OSError as exc:
        raise UserError(f"cannot write {path}: {os_reason(exc, rewrite)}") from None


@main.command(short_help="Write a page that steps through a stored game.")
@click.argument("folder", type=_ResultsFolder())
@click.argument("game_id")
@click.option(
    "-o",
    "--output",
    type=_Path(dir_okay=False, allow_dash=True),
    default=None,
    help="Where to write the page (default: FOLDER/view-GAME_ID.html; - for standard output).",
)
def view(folder: str, game_id: str, output: str | None) -> None:
    """Write a self-contained HTML page that steps through stored game GAME_ID.

    \b
    Example:
      arena view results/demo t0-b0-r1
    """
    from arena.league.layout import VIEW
    from arena.league.results import read_league
    from arena.show.html.viewer import viewer_page

    league = read_league(Path(folder))
    path = _page_path(output) if output else Path(folder) / VIEW.format(game=game_id)
    record = _stored_game(Path(folder), game_id)
    _write_page(path, viewer_page(record, league.name))
    if path is not STANDARD_OUTPUT:
        click.echo(str(path))


def _stored_game(folder: Path, game_id: str) -> GameRecord:
    from arena.league.reading import read_games

    for record in read_games(folder, warn=_say):
        if record.id == game_id:
            return record
    raise UserError(f"{folder}: no stored game with id {game_id!r}")


@main.command(name="replay-seat", short_help="Feed a recorded seat's messages to a bot.")
@click.argument("folder", type=_ResultsFolder())
@click.argument("game_id")
@click.argument("seat", type=click.IntRange(0))
@click.option("--bot", "command", required=True, metavar="CMD", help="The bot to feed.")
def replay_seat_command(folder: str, game_id: str, seat: int, command: str) -> None:
    """Feed the messages SEAT got in GAME_ID to a bot and compare its answers.

    Seats are numbered from 0 (the first player), as in the protocol and the standings.

    The game must have been played by arena run --transcripts (games stored before such a
    run are not played again and have none). Exit status 0 when the bot makes every
    recorded move (a note may differ: "same move"), 1 when it does not: reproduce a crash
    or an illegal move at home; 2 when there is nothing to feed (no game GAME_ID or seat
    SEAT, no transcript, a damaged one, one cut short before the game's end, or a damaged
    folder); 130 when stopped (Ctrl-C).
    Under a crash or a failed start come the last lines the bot wrote to stderr (its
    traceback).

    \b
    Example:
      arena replay-seat results/demo t0-b0-r1 1 --bot 'python mybot.py'
    """
    import trio

    from arena.config import BotSpec
    from arena.league.layout import TRANSCRIPTS
    from arena.league.reading import read_games
    from arena.league.results import read_league
    from arena.tools.replay import read_transcript, replay_seat

    read_league(Path(folder))
    records = [r for r in read_games(Path(folder)) if r.id == game_id]
    if not records:
        raise UserError(f"{folder}: no stored game with id {game_id!r}")
    seats = records[0].players
    if seat >= seats:
        raise UserError(
            f"{folder}: game {game_id} has seats 0..{seats - 1} (numbered from 0); no seat {seat}"
        )
    path = Path(folder) / TRANSCRIPTS / game_id / f"seat{seat}.jsonl"
    transcript = read_transcript(path, records[0].seats[seat])
    bot = BotSpec("replayed", _bot_argv(command, f"--bot {command!r}"))
    same = trio.run(lambda: replay_seat(transcript, bot, click.echo))
    sys.exit(0 if same else 1)


@main.command(name="check-bot", short_help="Is a bot compliant? Handshake, games, timings.")
@click.argument("command", metavar="CMD")
@click.option("--engine", required=True, metavar="NAME", help="The engine to check the bot on.")
@click.option(
    "--players",
    type=click.IntRange(1),
    default=None,
    help="Seats per game (default: 2, or the engine's only size).",
)
@click.option(
    "--games",
    type=click.IntRange(1, 100),
    default=2,
    show_default=True,
    metavar="N",
    help="Games with the bot in each seat.",
)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--move-ms", type=click.IntRange(1), default=1000, show_default=True)
@click.option("--bank-ms", type=click.IntRange(0), default=10_000, show_default=True)
@click.option("--startup-ms", type=click.IntRange(1), default=10_000, show_default=True)
@_SANDBOX
def check_bot_command(
    command: str,
    engine: str,
    players: int | None,
    games: int,
    seed: int,
    move_ms: int,
    bank_ms: int,
    startup_ms: int,
    sandbox: str,
) -> None:
    """Check that the bot CMD speaks the protocol and plays the --engine game cleanly.

    Plays --games games with the bot in every seat against the random bot and reports every
    problem in plain words. Exit status 0 when compliant, 1 otherwise; 2 for a mistake in the
    input; 130 when stopped (Ctrl-C or SIGTERM).

    \b
    Example:
      arena check-bot 'python mybot.py' --engine space-five
    """
    import trio

    from arena.config import Limits, default_players, load_engine
    from arena.tools.checkbot import check_bot

    game_engine = load_engine(engine)
    seats = players or default_players(game_engine)
    resolved = _checked(game_engine, seats, {})
    _bot_argv(command, repr(command))  # a missing program is a usage error, not a failed check
    limits = Limits(move_ms=move_ms, bank_ms=bank_ms, startup_ms=startup_ms)
    report = trio.run(
        lambda: check_bot(
            command,
            game_engine,
            resolved,
            players=seats,
            games_per_seat=games,
            seed=seed,
            limits=limits,
            say=click.echo,
            sandbox=sandbox,
        )
    )
    sys.exit(0 if report.compliant else 1)


@main.command(short_help="Serve a ladder: submissions, live leaderboard, games without end.")
@click.argument("ladder_file", metavar="LADDER.toml", type=_Path(dir_okay=False))
@click.option("--out", type=_Path(file_okay=False), default=None, help="The results folder.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@_jobs_option
@click.option(
    "--unsafe-no-sandbox",
    is_flag=True,
    help="Serve even where bubblewrap cannot sandbox the bots (they run unconfined).",
)
@_workers_option
@click.option(
    "--scheduler",
    default=None,
    metavar="ADDRESS",
    help="Play the games on the running Dask cluster at ADDRESS; its workers must see the "
    "results folder at the same path (docs/ladder.md).",
)
def serve(
    ladder_file: str,
    out: str | None,
    host: str,
    port: int,
    jobs: int | None,
    unsafe_no_sandbox: bool,
    workers: int | None,
    scheduler: str | None,
) -> None:
    """Serve the ladder of a ladder file until stopped (Ctrl-C or SIGTERM: exit 130).

    A ladder file is a league file (engine, players, options, limits, sandbox, optional
    house bots) with a [ladder] table; see docs/ladder.md. Participants get tokens from
    arena ladder token, and submit with arena submit or the page's form.

    \b
    Example:
      arena ladder token alice --out results/ladder-demo
      arena serve configs/ladder-demo.toml --port 8000
    """
    from arena.ladder.serve import require_server

    require_server()
    if workers is not None and scheduler is not None:
        raise ConfigError("--workers and --scheduler exclude each other: give one")
    cluster = None
    if workers is not None or scheduler is not None:
        from arena.ladder.player import Cluster
        from arena.league.cluster import require_dask

        require_dask()
        cluster = Cluster(workers, scheduler)
    import dataclasses

    import trio

    from arena.game import sandbox
    from arena.ladder import settings
    from arena.ladder.serve import serve as serve_ladder

    ladder = settings.load(ladder_file)
    if unsafe_no_sandbox:
        league = dataclasses.replace(
            ladder.league,
            sandbox="none",
            bots=tuple(dataclasses.replace(b, sandbox="none") for b in ladder.league.bots),
        )
        ladder = dataclasses.replace(ladder, league=league)
        _say("warning: --unsafe-no-sandbox: submitted bots run WITHOUT the sandbox")
    else:
        if ladder.league.sandbox == "none":
            raise ConfigError(
                f'{ladder_file}: sandbox = "none": a ladder runs strangers\' code; '
                "pass --unsafe-no-sandbox to serve it so anyway"
            )
        reason = sandbox.unusable_reason()
        if reason:
            raise ConfigError(
                f"{reason}: a ladder runs strangers' code only in the sandbox "
                "(or pass --unsafe-no-sandbox)"
            )
        league = dataclasses.replace(
            ladder.league,
            sandbox="bwrap",
            bots=tuple(dataclasses.replace(b, sandbox="bwrap") for b in ladder.league.bots),
        )
        ladder = dataclasses.replace(ladder, league=league)
    folder = Path(out) if out else Path("results") / ladder.league.name
    stopped = trio.run(
        lambda: serve_ladder(
            ladder,
            folder,
            host=host,
            port=port,
            jobs=jobs or (1 if cluster else os.cpu_count() or 1),
            say=_say,
            cluster=cluster,
        )
    )
    if stopped:
        raise KeyboardInterrupt


@main.group(short_help="The organiser's commands on a ladder's folder.")
def ladder() -> None:
    """The organiser's commands on a ladder's results folder (the server may be running)."""


@ladder.command(name="token", short_help="Create a participant and print their token once.")
@click.argument("name")
@click.option("--out", type=_Path(file_okay=False), required=True, help="The ladder's folder.")
@click.option("--organiser", is_flag=True, help="The token opens the organiser's page.")
def ladder_token(name: str, out: str, organiser: bool) -> None:
    """Create participant NAME and print their token (only its hash is kept: it cannot be
    shown again).

    \b
    Example:
      arena ladder token alice --out results/ladder-demo
    """
    from arena.ladder.admin import make_token

    click.echo(make_token(Path(out), name, organiser=organiser))


@ladder.command(name="list", short_help="List participants, their bots and versions.")
@click.option("--out", type=_Path(file_okay=False), required=True, help="The ladder's folder.")
def ladder_list(out: str) -> None:
    """List the participants, their bots, and each bot's last version."""
    from arena.ladder.admin import listing

    for line in listing(Path(out)):
        click.echo(line)


@ladder.command(name="retire", short_help="Take a bot out of play (its games stay).")
@click.argument("bot")
@click.option("--out", type=_Path(file_okay=False), required=True, help="The ladder's folder.")
def ladder_retire(bot: str, out: str) -> None:
    """Take BOT out of play; its games stay stored; a new version brings it back."""
    from arena.ladder.admin import set_status

    click.echo(set_status(Path(out), bot, "retired"))


@ladder.command(name="ban", short_help="Ban a bot, or a participant and all their bots.")
@click.argument("name")
@click.option("--out", type=_Path(file_okay=False), required=True, help="The ladder's folder.")
def ladder_ban(name: str, out: str) -> None:
    """Ban the bot NAME (or the participant NAME and all their bots): out of play for good,
    and no new version is accepted."""
    from arena.ladder.admin import set_status

    click.echo(set_status(Path(out), name, "banned"))


@main.command(short_help="Submit a bot to a ladder.")
@click.argument("url")
@click.argument("path", type=_Path(exists=False))
@click.option("--token", envvar="ARENA_TOKEN", required=True, help="Your token (or ARENA_TOKEN).")
@click.option("--name", default=None, help="The bot's name (default: the file or folder's).")
@click.option("--cmd", default=None, help="Its command (default: bot.toml's cmd, or bot.py).")
@click.option("--wait", is_flag=True, help="Follow it until it is accepted or rejected.")
def submit(url: str, path: str, token: str, name: str | None, cmd: str | None, wait: bool) -> None:
    """Upload PATH (a file, or a folder sent as an archive) to the ladder at URL and print
    the submission's id, status and page. Exit status 1 when --wait sees it rejected.

    \b
    Example:
      arena submit http://127.0.0.1:8000 mybot/ --token "$token" --wait
    """
    from arena.ladder.client import follow
    from arena.ladder.client import submit as send

    found = send(url, Path(path), token=token, name=name, cmd=cmd)
    page = url.rstrip("/") + found["page"]
    click.echo(
        f"submission {found['id']}: {found['bot']} version {found['version']}, {found['state']}"
    )
    click.echo(page)
    if wait:
        found = follow(url, found["id"], token, click.echo)
        if found["state"] == "rejected":
            click.echo(f"rejected: {found['reason']}")
            for line in str(found.get("log", "")).splitlines()[-15:]:
                click.echo(f"  {line}")
            sys.exit(1)
