"""The league report: one self-contained HTML page about a results folder.

Summary, standings (the same numbers as ``arena standings``) with their warnings, plots
(SVG written by :mod:`arena.show.html.charts`), the SPRT status of an SPRT league, the rounds
of a Swiss league or the bracket of a knockout (:mod:`arena.show.html.championship`), and
viewers for a bounded selection of games (:mod:`arena.show.html.selection`); any other game
is one ``arena view`` away. Games are summarised, never all embedded, so the page's size
does not grow with the league (docs/report.md measures a 10,000-game league).
"""

from __future__ import annotations

import re
import shlex
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

import engines
from arena.config import LeagueConfig, SprtSpec, spelled_pairs
from arena.errors import ResultsError, UserError
from arena.league.layout import LEAGUE, Warn
from arena.record import NOT_ASKED, GameRecord
from arena.show.caveats import caveats
from arena.show.html import charts
from arena.show.html.championship import knockout_html, swiss_html
from arena.show.html.page import document
from arena.show.html.selection import pick_games
from arena.show.html.tuning import tuning_section
from arena.show.html.viewer_worker import ViewerWorker, data_blocks
from arena.show.tables import place
from arena.stats.ratings import Standings
from arena.stats.sprt import Sprt, out_of_budget
from arena.stats.trajectory import online_elo
from arena.words import counted


def build_report(
    folder: Path,
    league: LeagueConfig,
    records: Sequence[GameRecord],
    standings: Standings,
    *,
    games: int,
    fingerprints: Mapping[str, Mapping[str, Any]] | None = None,
    worker: ViewerWorker | None = None,
    warn: Warn | None = None,
) -> str:
    """The report page of the league stored in ``folder``; ``games`` bounds the viewers;
    ``fingerprints`` are the folder's ``bots.toml`` (what each bot was when it played);
    ``worker`` draws every other viewer on another core; ``warn`` hears of each picked game
    that cannot be replayed (the page says so in place of its viewer)."""
    if not league.engine:
        raise ResultsError(f"{folder / LEAGUE}: damaged: it names no engine")
    try:
        engine = engines.get(league.engine)
    except engines.UnknownEngine as exc:  # a plug-in engine not registered here
        raise ResultsError(f"{folder / LEAGUE}: {exc}") from None
    summary = _summary(folder, league, engine.title, records, standings, fingerprints or {})
    think, per_move, without = _think_times(records)
    think_words = (
        "Each box spreads one bot's think time over all its decisions in the league (as the "
        "referee measured it): the middle half in the box, the whiskers from the 1st to the "
        "99th percentile, × the slowest decision."
        if per_move
        else "The games store no time per decision (record format 1 or 2): each box spreads "
        "one bot's mean think time per decision over its games."
    )
    if per_move and without:
        think_words += f" {without} older games store no time per decision and are left out."
    sections = [
        _section("Summary", summary),
        _section("Standings", _warnings(standings) + _standings_table(standings)),
        _section("Elo with 95% intervals", _figure(charts.elo_intervals(standings))),
    ]
    if league.mode == "sprt" and league.sprt is not None:
        sections.append(_section("Sequential test (SPRT)", _sprt(league.sprt, records)))
    if league.mode == "swiss" and league.scheduled:
        sections.append(_section("Swiss rounds", swiss_html(league, records)))
    if league.mode == "knockout" and league.knockout is not None and league.scheduled:
        sections.append(_section("Knockout bracket", knockout_html(league, records)))
    tuned = tuning_section(folder)
    if tuned:
        sections.append(_section("Tuning", tuned))
    names = [row.bot for row in standings.rows]
    crosstable = {
        bot: {opp: h.score_pct for opp, h in cells.items()}
        for bot, cells in standings.crosstable.items()
    }
    los = {bot: {opp: 100 * p for opp, p in cells.items()} for bot, cells in standings.los.items()}
    plots = [
        (
            "Crosstable",
            charts.square(names, crosstable, "score % of row vs column", "{:.0f}"),
            _crosstable_words(standings),
        ),
        (
            "Likelihood of superiority",
            charts.square(names, los, "% of resamples", "{:.0f}"),
            "Share of bootstrap resamples that rate the row bot above the column bot.",
        ),
        (
            "Seat advantage by table size",
            charts.seat_advantage(standings.seats),
            "Win % by seat (seat 0 = the first player, as in the protocol) for each table size.",
        ),
        (
            "Rating over games",
            charts.rating_paths(online_elo(records)),
            "Online Elo (the standings' online method) after each game of the league, in game "
            "order: how the ratings moved, not the final estimate.",
        ),
        (
            "Faults by verdict",
            charts.faults(standings),
            "Bot faults per verdict class, with the games each bot forfeited stacked on top "
            "(a count of games, not of faults).",
        ),
        ("Think time", charts.think_times(think, per_move), think_words),
    ]
    for title, svg, words in plots:
        if svg:
            sections.append(_section(title, f"<p>{words}</p>{_figure(svg)}"))
        elif title == "Faults by verdict":
            sections.append(_section(title, "<p>No bot fault in any game.</p>"))
    sections.append(_section("Games", _games(folder, records, standings, games, worker, warn)))
    subtitle = (
        f"{engine.title}: {counted(len(records), 'game')}, {counted(standings.units, 'block')}, "
        f"written {time.strftime('%Y-%m-%d %H:%M %Z')}"
    )
    return document(
        f"League {league.name}", subtitle, "".join(sections), ("viewer.js", "report.js")
    )


def _crosstable_words(standings: Standings) -> str:
    if standings.solo:
        return (
            "Score % of the row bot against the column bot on the seeds both played: a solo "
            "league's bots never share a table, each plays the same deals alone and the "
            "scores are compared; a dash: the two never played the same seed."
        )
    return (
        "Score % of the row bot against the column bot in the games where both sat; "
        "a dash: the two never sat at one table."
    )


def _section(title: str, body: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    return f'<section id="{escape(slug)}"><h2>{escape(title)}</h2>{body}</section>'


def _figure(svg: str) -> str:
    return f'<div class="figure">{svg}</div>' if svg else "<p>Nothing to plot.</p>"


def _summary(
    folder: Path,
    league: LeagueConfig,
    title: str,
    records: Sequence[GameRecord],
    standings: Standings,
    fingerprints: Mapping[str, Mapping[str, Any]],
) -> str:
    options = spelled_pairs(league.options) or "-"
    sizes = list(league.players)
    # a league.toml written by another tool may not say (LeagueConfig.scheduled)
    mode, seed = (league.mode, league.seed) if league.scheduled else ("?", "?")
    players = (
        counted(sizes[0], "player")
        if len(sizes) == 1
        else f"{', '.join(str(p) for p in sizes) or '-'} players"
    )
    facts = [
        ("league", league.name),
        ("results folder", str(folder)),
        ("engine", f"{title} ({league.engine} v{league.engine_version or '?'})"),
        ("options", options),
        ("mode", f"{mode}, tables of {players}, seed {seed}"),
        ("games", f"{counted(len(records), 'game')} in {counted(standings.units, 'block')}"),
        ("written", time.strftime("%Y-%m-%d %H:%M:%S %Z")),
        ("data provenance", engines.provenance(league.engine) or "not stated"),
    ]
    rows = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in facts)
    bots = "".join(
        f"<tr data-bot='{escape(bot.name)}'><td class='name'>{escape(bot.name)}</td>"
        f"<td class='name'><code>{escape(shlex.join(bot.cmd))}</code></td>"
        f"{_version_cells(fingerprints.get(bot.name, {}))}</tr>"
        for bot in league.bots
    )
    return (
        f'<dl class="summary">{rows}</dl>'
        "<table id='bots-table'><thead><tr><th class='name'>bot</th>"
        "<th class='name'>command</th><th class='name'>answered <code>ready</code> as</th>"
        "<th class='name'>fingerprint (files its command names)</th></tr></thead>"
        f"<tbody>{bots}</tbody></table>"
        "<p class='muted'>From the folder's <code>bots.toml</code>: the name and version each "
        "bot gave in its <code>ready</code> answer, and the SHA-256 of every file its command "
        "names (first 12 digits; <code>arena run</code> refuses to add games of a bot whose "
        "files changed).</p>"
    )


def _version_cells(fingerprint: Mapping[str, Any]) -> str:
    """The ``ready`` answer and the file hashes of one bot's fingerprint."""
    ready = fingerprint.get("ready") or "not recorded"
    files = fingerprint.get("files", {})
    hashes = "<br>".join(
        f"<code title='{escape(path)}'>{escape(Path(path).name)} "
        f"{escape(str(digest).removeprefix('sha256:')[:12])}</code>"
        for path, digest in sorted(files.items())
    )
    if not hashes:
        executable = fingerprint.get("executable")
        hashes = f"no file; runs <code>{escape(executable)}</code>" if executable else "-"
    return f"<td class='name'>{escape(ready)}</td><td class='name'>{hashes}</td>"


def _warnings(standings: Standings) -> str:
    lines = [*standings.notes, *caveats(standings)]
    if not lines:
        return ""
    items = "".join(f"<li>{escape(line)}</li>" for line in lines)
    return f'<div class="warnings"><strong>Read with care</strong><ul>{items}</ul></div>'


def _standings_table(standings: Standings) -> str:
    headers = [
        "#",
        "bot",
        "Elo",
        "±",
        "low",
        "high",
        "games",
        "score %",
        "win %",
        "place",
        "faults",
        "ms/decision",
    ]
    rows = []
    for row in standings.rows:
        cells: list[tuple[str, object]] = [
            (str(row.rank), row.rank),
            (row.bot, row.bot),
            (f"{row.elo:.0f}", row.elo),
            *[
                (f"{value:.0f}", value) if value is not None else ("", "")
                for value in (row.plus_minus, row.elo_low, row.elo_high)
            ],
            (str(row.games), row.games),
            (f"{row.score_pct:.1f}", row.score_pct),
            (f"{row.win_pct:.1f}", row.win_pct),
            (place(row), row.mean_place),
            (str(row.faults), row.faults),
            (f"{row.think_ms:.1f}", row.think_ms),
        ]
        tds = "".join(
            f'<td{" class=name" if i == 1 else ""} data-value="{escape(str(value))}">'
            f"{escape(text)}</td>"
            for i, (text, value) in enumerate(cells)
        )
        rows.append(f'<tr data-bot="{escape(row.bot)}">{tds}</tr>')
    head = "".join(
        f"<th{' class=name' if i == 1 else ''}>{escape(h)}</th>" for i, h in enumerate(headers)
    )
    return (
        '<table class="sortable" id="standings-table">'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        "<p class='muted'>Click a column to sort. The same numbers as "
        "<code>arena standings</code>; <code>docs/ratings.md</code> explains each.</p>"
    )


def _sprt(spec: SprtSpec, records: Sequence[GameRecord]) -> str:
    """The test as the league ran it: blocks in schedule order up to its decision (the games
    played past it are stored and rated, not tested)."""
    test = Sprt(spec.elo0, spec.elo1, spec.alpha, spec.beta, spec.candidate, spec.opponent)
    blocks: dict[tuple[int, int], list[GameRecord]] = defaultdict(list)
    for record in records:
        blocks[(record.block, record.table)].append(record)
    fed = 0
    for key in sorted(blocks):
        if test.decision:
            break
        test.add_block(blocks[key])
        fed += 1
    budget = spec.max_blocks
    if test.verdict() is not None:
        words = f"{test.verdict()}."
    elif fed >= budget:
        words = f"{out_of_budget(budget)}."
    else:
        words = f"No decision yet: {fed:,} of {budget:,} blocks played."
    return f"<p><code>{escape(test.status_line())}</code></p><p>{escape(words)}</p>"


def _think_times(
    records: Sequence[GameRecord],
) -> tuple[dict[str, list[float]], bool, int]:
    """Think times per bot in ms: every decision's where the records store them (then also
    True and the number of games left out for storing none), else each game's mean."""
    per_move: dict[str, list[int]] = defaultdict(list)
    means: dict[str, list[float]] = defaultdict(list)
    without = 0
    for record in records:
        if any(seat.think_us for seat in record.seats):
            for seat in record.seats:
                per_move[seat.bot].extend(seat.think_us)
            continue
        without += 1
        for seat in record.seats:
            if seat.decisions:
                means[seat.bot].append(seat.think_ms / seat.decisions)
    if not per_move:
        return dict(sorted(means.items())), False, without
    answered = {
        bot: [micros / 1000 for micros in values if micros != NOT_ASKED]
        for bot, values in sorted(per_move.items())
    }
    return answered, True, without


def _games(
    folder: Path,
    records: Sequence[GameRecord],
    standings: Standings,
    limit: int,
    worker: ViewerWorker | None,
    warn: Warn | None,
) -> str:
    chosen = pick_games(records, standings, limit)
    drawn = data_blocks([record for record, _ in chosen], worker)
    picked = [
        (record, why, block)
        for (record, why), block in zip(chosen, drawn, strict=True)
        if isinstance(block, str)
    ]
    command = f"arena view {shlex.quote(str(folder))} GAME_ID"
    intro = (
        f"<p>{len(picked):,} of {counted(len(records), 'game')} can be stepped through here "
        f"(at most {limit}: <code>arena report --games N</code> changes it). Any other "
        f"game: <code>{escape(command)}</code> writes its viewer page; the ids are in "
        "<code>games.jsonl</code>.</p>"
    )
    intro += _not_replayed([block for block in drawn if isinstance(block, UserError)], warn)
    if not picked:
        return intro
    rows = "".join(
        f"<tr><td class='name'><button class='pick' data-game='{escape(r.id)}'>"
        f"{escape(r.id)}</button></td><td class='name'>{escape(why)}</td>"
        f"<td class='name'>{escape(' vs '.join(r.seating))}</td>"
        f"<td class='name'>{escape(', '.join(f'{s:g}' for s in r.scores))}</td></tr>"
        for r, why, _ in picked
    )
    table = (
        "<table><thead><tr><th class='name'>game</th><th class='name'>why</th>"
        "<th class='name'>seats</th><th class='name'>scores</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )
    first = picked[0][0].id
    pane = f'<div class="viewer" id="viewer" data-first="{escape(first)}"></div>'
    return intro + table + pane + "".join(block for _, _, block in picked)


def _not_replayed(problems: Sequence[UserError], warn: Warn | None) -> str:
    """The page's word on the picked games that cannot be replayed, each named with why
    (``warn`` hears of each too); empty when there is none."""
    if not problems:
        return ""
    for problem in problems:
        if warn is not None:
            warn(f"warning: {problem}; the report has no viewer for it")
    items = "".join(f"<li>{escape(str(problem))}</li>" for problem in problems)
    return f'<div class="warnings"><strong>Not replayed: no viewer</strong><ul>{items}</ul></div>'
