"""What ``arena run`` and ``arena standings`` print of a Swiss or knockout league beside the
Elo table: the Swiss standings with their tie-breaks, or the knockout's bracket and winner."""

from __future__ import annotations

from collections.abc import Iterable

from arena.config import LeagueConfig
from arena.heats import stage_of
from arena.league.championship import (
    KnockoutEvent,
    SwissEvent,
    by_block,
    knockout_event,
    swiss_event,
)
from arena.league.knockout import HeatOutcome
from arena.record import GameRecord

TIE_BREAKS = "ties broken by Buchholz, then game points, then the league's seeded draw"


def championship_text(league: LeagueConfig, records: Iterable[GameRecord]) -> str:
    """The Swiss standings or the knockout bracket of ``league`` after ``records``."""
    blocks = by_block(league, records)
    if league.mode == "swiss":
        return swiss_text(swiss_event(league, blocks))
    return knockout_text(league, knockout_event(league, blocks))


def swiss_text(event: SwissEvent) -> str:
    """The Swiss standings table, with how far the event is."""
    done = sum(r.complete for r in event.rounds)
    lines = [
        f"Swiss standings after {done} of {event.total_rounds} rounds "
        f"(match points; {TIE_BREAKS}):",
        f"{'#':>4}  {'bot':<20} {'match pts':>9} {'Buchholz':>9} {'game pts':>9} {'byes':>5}",
    ]
    for place, line in enumerate(event.standings, start=1):
        lines.append(
            f"{place:>4}  {line.name:<20} {line.match_points:>9g} {line.buchholz:>9g} "
            f"{line.game_points:>9g} {line.byes:>5}"
        )
    return "\n".join(lines)


def knockout_text(league: LeagueConfig, event: KnockoutEvent) -> str:
    """The knockout bracket, stage by stage, and its winner."""
    assert league.knockout is not None
    state = event.bracket
    lines = [f"Knockout: {'winner ' + state.winner if state.winner else 'not finished'}"]
    for number, (outcomes, byes) in enumerate(zip(state.stages, state.byes, strict=True)):
        final = outcomes[0].heat.final
        rule = stage_of(league.knockout.stages, number)
        title = "Final table" if final else f"Stage {number + 1} (first {rule.advance} go on)"
        lines.append(title + (f"; byes: {', '.join(byes)}" if byes else ""))
        for outcome in outcomes:
            lines.append(f"  {heat_line(outcome)}")
    return "\n".join(lines)


def heat_line(outcome: HeatOutcome) -> str:
    """One heat: its players with their points, and who went on."""
    heat = outcome.heat
    players = ", ".join(
        f"{name} {outcome.points[name]:g}" if outcome.blocks else name for name in heat.players
    )
    label = "final" if heat.final else f"heat {heat.index + 1}"
    if outcome.advancing is None:
        state = f"playing block {outcome.blocks + 1}" if outcome.blocks else "to play"
        return f"{label}: {players} ({state})"
    blocks = f", {outcome.blocks} blocks" if outcome.blocks > 1 else ""
    seed = ", the tie to the better seed" if outcome.by_seed else ""
    verb = "wins" if heat.final else ("goes on" if len(outcome.advancing) == 1 else "go on")
    return f"{label}: {players}{blocks}{seed} -> {', '.join(outcome.advancing)} {verb}"
