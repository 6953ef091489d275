"""Run a tune: SPSA iterations on the league driver, then the result and its confirmation.

The games are played by the driver that plays ``arena run``'s blocks (in this process, or
on Dask with ``workers`` / ``scheduler``); this module only supplies the feeds and writes
what the tune found (``tuned.toml``).
"""

from __future__ import annotations

import shlex
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import trio

from arena.config import LeagueConfig
from arena.game.placeholders import filled, placeholders, spelled_value
from arena.league.atomic import write_toml
from arena.league.driver import FeedMaker, LeagueOutcome, with_stored_seed
from arena.league.feeds import BlockFeed
from arena.league.reading import read_games
from arena.tune.asktell import OptunaFeed, require_optuna
from arena.tune.config import TuneConfig, confirm_seed, minus_name, plus_name
from arena.tune.confirm import ConfirmFeed, Difference, difference
from arena.tune.feed import SpsaFeed
from arena.tune.journal import TUNED, Entry, Header, Journal

CONFIRM = "confirm"

Say = Callable[[str], None]


@dataclass
class TuneOutcome:
    """What a tune found: its final values, and the confirmation league's measure."""

    values: dict[str, float | int]
    steps: int
    interrupted: bool = False
    confirmation: Difference | None = None


@dataclass(frozen=True)
class Player:
    """Where the games are played: ``jobs`` at once here, or on Dask."""

    jobs: int
    workers: int | None = None
    scheduler: str | None = None

    def play(
        self, config: LeagueConfig, folder: Path, fresh: bool, say: Say, feed: FeedMaker
    ) -> LeagueOutcome:
        if self.workers is None and self.scheduler is None:
            from arena.league.runner import run_league

            async def main() -> LeagueOutcome:
                return await run_league(
                    config, folder, jobs=self.jobs, fresh=fresh, say=say, feed=feed
                )

            return trio.run(main)
        from arena.league.cluster import run_cluster_league

        return run_cluster_league(
            config,
            folder,
            jobs=self.jobs,
            workers=self.workers,
            scheduler=self.scheduler,
            fresh=fresh,
            say=say,
            feed=feed,
        )


def run_tune(
    tune: TuneConfig,
    folder: Path,
    player: Player,
    *,
    fresh: bool = False,
    say: Say = print,
    on_step: Callable[[Entry], None] | None = None,
) -> TuneOutcome:
    """Tune (or resume the tune) into ``folder``; then confirm the result."""
    seed = with_stored_seed(tune.league, folder, fresh=fresh).seed
    league = tune.versions(plus_name(tune.bot), minus_name(tune.bot), tune.iterations, seed)
    header = Header(tune.to_toml(), seed)
    feeds: list[SpsaFeed | OptunaFeed] = []
    journals: list[Journal] = []
    if tune.method == "optuna":
        require_optuna()  # before the folder is opened

    def make_feed(config: LeagueConfig, known: Mapping[tuple[str, ...], int]) -> BlockFeed:
        journal = Journal(folder, header, fresh=fresh)
        journals.append(journal)
        if tune.method == "optuna":
            feeds.append(OptunaFeed(tune, config, known, journal, on_step))
        else:
            feeds.append(SpsaFeed(tune, config, known, journal, say, on_step))
        return feeds[0]

    if fresh:
        shutil.rmtree(folder / CONFIRM, ignore_errors=True)
    try:
        played = player.play(league, folder, fresh, say, make_feed)
    finally:
        for journal in journals:
            journal.close()
    feed = feeds[0]
    values = feed.values()
    outcome = TuneOutcome(values, feed.taken, interrupted=played.interrupted)
    wanted = feed.trials if isinstance(feed, OptunaFeed) else tune.iterations
    if played.interrupted or feed.taken < wanted:
        outcome.interrupted = True
        return outcome
    write_toml(folder / TUNED, tuned_toml(tune, values))
    if tune.confirm_games >= tune.seats:
        outcome.confirmation = confirm(tune, folder / CONFIRM, player, values, seed, say)
        if outcome.confirmation is None:
            outcome.interrupted = True
        else:
            write_toml(folder / TUNED, tuned_toml(tune, values, outcome.confirmation))
    return outcome


def confirm(
    tune: TuneConfig,
    folder: Path,
    player: Player,
    values: Mapping[str, float | int],
    seed: int,
    say: Say,
) -> Difference | None:
    """Play the tuned values against the start values on deals the tune never saw."""
    tuned, start = f"{tune.bot}@tuned", f"{tune.bot}@start"
    blocks = tune.confirm_games // tune.seats
    league = tune.versions(tuned, start, blocks, confirm_seed(seed))
    params = {tuned: dict(values), start: tune.starts}
    say(f"confirmation: {blocks * tune.seats} games of {tuned} against {start} on fresh deals")

    def make_feed(config: LeagueConfig, known: Mapping[tuple[str, ...], int]) -> BlockFeed:
        return ConfirmFeed(config, known, params)

    played = player.play(league, folder, False, say, make_feed)
    if played.interrupted:
        return None
    return difference(read_games(folder), tuned, start)


def tuned_toml(
    tune: TuneConfig, values: Mapping[str, float | int], measured: Difference | None = None
) -> dict[str, object]:
    """``tuned.toml``: the final values (``[params]``), and the confirmation's measure."""
    data: dict[str, object] = {"bot": tune.bot, "params": dict(values)}
    if measured is not None:
        data["confirmation"] = {
            "games": measured.games,
            "elo": round(measured.elo, 2),
            "elo_low": round(measured.low, 2),
            "elo_high": round(measured.high, 2),
            "los": round(measured.los, 4),
        }
    return data


def snippet(values: Mapping[str, float | int]) -> str:
    """The result as TOML to paste: the tuned bot's entry with its values filled in (or a
    ``[params]`` table for a bot that reads them from ``start``)."""
    lines = ["[params]"] + [f"{name} = {spelled_value(v)}" for name, v in values.items()]
    return "\n".join(lines)


def command_line(tune: TuneConfig, values: Mapping[str, float | int]) -> str:
    """The tuned bot's command with the values filled in (its placeholders), else as it is
    followed by ``--NAME VALUE`` flags (the bundled bots' convention)."""
    cmd = tune.tuned.cmd
    if placeholders(cmd):
        return shlex.join(filled(cmd, values))
    flags = [part for name, v in values.items() for part in (f"--{name}", spelled_value(v))]
    return shlex.join((*cmd, *flags))
