"""The report's part of a Swiss or knockout league: the Swiss standings and every round's
pairings and results, or the knockout's bracket drawn as SVG, from the stored games alone
(:mod:`arena.league.championship`)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from arena.config import LeagueConfig
from arena.league.championship import by_block, knockout_event, swiss_event
from arena.league.knockout import Bracket, HeatOutcome
from arena.league.swiss import TableResult
from arena.record import GameRecord
from arena.show.championship import TIE_BREAKS, heat_line
from arena.show.html.charts import FONT, GREY, INK

BOX_W, ROW_H, HEAD_H, GAP_X, GAP_Y, PAD = 190, 16, 18, 56, 14, 10
WIN, WIN_FILL = "#1a7f37", "#e9f5ec"


def swiss_html(league: LeagueConfig, records: Sequence[GameRecord]) -> str:
    """The Swiss standings with their tie-breaks, then each round's tables and byes."""
    event = swiss_event(league, by_block(league, records))
    done = sum(r.complete for r in event.rounds)
    rows = "".join(
        f"<tr><td>{place}</td><td class='name'>{escape(s.name)}</td><td>{s.match_points:g}</td>"
        f"<td>{s.buchholz:g}</td><td>{s.game_points:g}</td><td>{s.byes}</td></tr>"
        for place, s in enumerate(event.standings, start=1)
    )
    parts = [
        f"<p>After {done} of {event.total_rounds} rounds: match points ({TIE_BREAKS}). A "
        f"table's first place scores {league.players[0] - 1}, its last 0, a bye "
        f"{(league.players[0] - 1) / 2:g}; <code>docs/leagues.md</code> states the rules.</p>",
        "<table id='swiss-standings'><thead><tr><th>#</th><th class='name'>bot</th>"
        "<th>match pts</th><th>Buchholz</th><th>game pts</th><th>byes</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>",
    ]
    for this in event.rounds:
        cells = []
        for i, (table, result) in enumerate(
            zip(this.pairing.tables, this.results, strict=True), start=1
        ):
            cells.append(f"<tr><td>{i}</td><td class='name'>{_table_cell(table, result)}</td></tr>")
        byes = ", ".join(map(escape, this.pairing.byes)) or "none"
        state = "" if this.complete else " (being played)"
        parts.append(
            f"<h3>Round {this.number + 1}{state}</h3>"
            f"<table class='swiss-round'><thead><tr><th>table</th><th class='name'>players "
            "(block points, match points)</th></tr></thead>"
            f"<tbody>{''.join(cells)}</tbody></table><p class='muted'>Byes: {byes}</p>"
        )
    return "".join(parts)


def _table_cell(table: tuple[str, ...], result: TableResult | None) -> str:
    if result is None:
        return escape(", ".join(table)) + " <span class='muted'>(to play)</span>"
    match = result.match_points()
    order = sorted(range(len(table)), key=lambda i: -result.points[i])
    return ", ".join(
        f"{escape(table[i])} ({result.points[i]:g}, <b>{match[table[i]]:g}</b>)" for i in order
    )


def knockout_html(league: LeagueConfig, records: Sequence[GameRecord]) -> str:
    """The knockout's winner, its bracket picture, and each heat in words."""
    state = knockout_event(league, by_block(league, records)).bracket
    winner = (
        f"<p>Winner: <b>{escape(state.winner)}</b>.</p>"
        if state.winner
        else "<p>Not finished yet.</p>"
    )
    heats = "".join(
        f"<li>Stage {outcome.heat.stage + 1}, {escape(heat_line(outcome))}</li>"
        for stage in state.stages
        for outcome in stage
    )
    words = (
        "<p class='muted'>Stage by stage, left to right: each heat's players in seed order with "
        "their points over its blocks (<code>k - rank</code> a game); green: they went on. "
        "A tie on the cut plays another block, then goes to the better seed.</p>"
    )
    return f"{winner}<div class='figure'>{bracket_svg(state)}</div>{words}<ul>{heats}</ul>"


def bracket_svg(state: Bracket) -> str:
    """The bracket as one ``<svg>``: a column per stage, a box per heat (and one for the
    stage's byes), a line from each player's row to where that player plays next."""
    columns: list[list[tuple[str, tuple[str, ...], HeatOutcome | None]]] = []
    for outcomes, byes in zip(state.stages, state.byes, strict=True):
        column: list[tuple[str, tuple[str, ...], HeatOutcome | None]] = []
        if byes:
            column.append(("byes", byes, None))
        for outcome in outcomes:
            label = "final" if outcome.heat.final else f"heat {outcome.heat.index + 1}"
            column.append((label, outcome.heat.players, outcome))
        columns.append(column)
    if state.winner:
        columns.append([("winner", (state.winner,), None)])
    rows: dict[tuple[int, str], tuple[float, float]] = {}  # (column, player) -> row's middle
    shapes: list[str] = []
    height = 0.0
    for c, column in enumerate(columns):
        x = PAD + c * (BOX_W + GAP_X)
        y: float = PAD + HEAD_H  # room for the column's title
        title = "winner" if c == len(state.stages) else _stage_title(c, column)
        shapes.append(_text(x, PAD + 11, title, weight="bold"))
        for label, players, heat in column:
            box_h = HEAD_H + ROW_H * len(players) + 4
            fill = WIN_FILL if label == "winner" else "#fff"
            shapes.append(
                f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{box_h}" rx="4" '
                f'fill="{fill}" stroke="{GREY}"/>'
            )
            shapes.append(_text(x + 6, y + 13, label, colour=GREY))
            for r, name in enumerate(players):
                middle = y + HEAD_H + ROW_H * r + ROW_H / 2
                rows[(c, name)] = (x, middle)
                went_on = label in ("byes", "winner") or (
                    heat is not None and name in (heat.advancing or ())
                )
                shapes.append(
                    _text(x + 6, middle + 4, name, colour=WIN if went_on else INK, weight=None)
                )
                if heat is not None and heat.blocks:
                    points = f"{heat.points[name]:g}"
                    shapes.append(_text(x + BOX_W - 6, middle + 4, points, anchor="end"))
            y += box_h + GAP_Y
        height = max(height, y)
    lines = []
    for (c, name), (left, middle) in rows.items():
        source = rows.get((c - 1, name)) if c else None
        if source is None:
            continue
        x0, y0 = source[0] + BOX_W, source[1]
        elbow = x0 + GAP_X / 2
        lines.append(
            f'<path d="M{x0},{y0:.1f} H{elbow} V{middle:.1f} H{left}" fill="none" '
            f'stroke="{GREY}" stroke-width="1.2"/>'
        )
    width = PAD * 2 + len(columns) * BOX_W + (len(columns) - 1) * GAP_X
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="bracket" width="{width}" '
        f'height="{height + PAD:.0f}" viewBox="0 0 {width} {height + PAD:.0f}" '
        f'font-family="system-ui, sans-serif" font-size="{FONT}" role="img" '
        f'aria-label="knockout bracket">{"".join(lines)}{"".join(shapes)}</svg>'
    )


def _stage_title(number: int, column: Sequence[tuple[str, tuple[str, ...], object]]) -> str:
    final = any(label == "final" for label, _, _ in column)
    return "final table" if final else f"stage {number + 1}"


def _text(
    x: float,
    y: float,
    text: str,
    *,
    colour: str = INK,
    weight: str | None = None,
    anchor: str = "start",
) -> str:
    bold = f' font-weight="{weight}"' if weight else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" fill="{colour}" text-anchor="{anchor}"{bold}>'
        f"{escape(text)}</text>"
    )
