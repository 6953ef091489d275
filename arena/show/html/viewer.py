"""One stored game as viewer data: every step's pictures, the move, who made it, how long
it thought, its note, and the faults of that move.

The game is re-played from its seed and moves with the engine (as ``arena replay`` does);
at each step the engine's picture (``engines.picture``) draws the whole table from every
seat's observation, and each seat's view from that seat's observation alone, so a seat's
view cannot show what the seat could not see. The same holds for the words: the whole table
and the mover read the move as ``describe`` tells it (it may name a hidden card, as a card
picked for an exchange) and what it made happen, as ``arena replay --show`` tells it
(:mod:`arena.show.spectator`); every other seat reads the events its observation gained by
the move, in the words of the engine's guide (``engines.guide``), as the human seat tells
them.
An engine without a renderer is shown with its text ``render`` instead. The data is packed
as gzip + base64 JSON for :mod:`viewer.js`: identical pictures are stored once, and each
picture as the list of its pieces (cut before each ``<rect``), every distinct piece once,
since consecutive steps share most of a board.
"""

from __future__ import annotations

import base64
import gzip
import re
from collections.abc import Mapping
from html import escape
from typing import Any

import orjson

import engines
from arena.config import spelled_pairs
from arena.errors import UserError
from arena.record import NOT_ASKED, GameRecord, not_replayable
from arena.show.html.page import document, unbroken
from arena.show.spectator import aftermath, gained, seat_name, witness
from arena.words import counted
from engines.base import EngineError
from engines.guides import Guide

_STEP_NOTE = re.compile(r"^step (\d+): ")


def game_data(record: GameRecord) -> dict[str, Any]:
    """The viewer's data for one stored game (see :mod:`viewer.js` for its use)."""
    state = record.first_state()
    picture_of = engines.picture(record.engine)
    guide = engines.guide(record.engine)
    players = record.players
    pictures: dict[str, int] = {}

    def picture(svg: str) -> int:
        return pictures.setdefault(svg, len(pictures))

    faults = _faults_by_step(record)
    said = {step: text for seat in record.seats for step, text in seat.bot_notes}
    turns = [iter(seat.think_us) for seat in record.seats]
    steps: list[dict[str, Any]] = []
    views = {seat: state.observation(seat) for seat in range(players)}
    for position in range(len(record.moves) + 1):
        if picture_of is None:  # no renderer yet: the engine's own text picture
            full = picture(_text(state.render(None)))
            seats = [picture(_text(state.render(seat))) for seat in range(players)]
        else:
            full = picture(picture_of.draw(views))
            seats = [
                picture(picture_of.draw({seat: views[seat]})) if picture_of.private else full
                for seat in range(players)
            ]
        step: dict[str, Any] = {"full": full, "seats": seats}
        steps.append(step)
        seat = state.to_move()
        if position == len(record.moves) or seat is None:
            break
        legal = state.legal_actions()
        index = record.moves[position]
        if not 0 <= index < len(legal):
            raise UserError(f"game {record.id}: {not_replayable(position, index)}")
        action = legal[index]
        move = state.describe(action)
        step.update(
            t=seat,
            by=_by(record, seat, next(turns[seat], None)),
            o=views[seat],  # viewer.js shows it indented
            f=faults.get(position, []),
        )
        if position in said:
            step["n"] = said[position]
        try:
            state.apply(action)
        except EngineError as exc:
            raise UserError(f"game {record.id}: move {position + 1} failed: {exc}") from None
        before, views = views, {seat: state.observation(seat) for seat in range(players)}
        step["m"] = _told(guide, move, seat, before, views)
        step["s"] = [
            "" if other == seat else _seen(guide, before[other], views[other], seat, other)
            for other in range(players)
        ]
    steps[0]["x"] = faults.get(_BEFORE, [])  # before the first move: start-up
    steps[-1]["x"] = steps[-1].get("x", []) + faults.get(len(record.moves), [])  # at the end
    return {
        "id": record.id,
        "steps": steps,
        "pictures": list(pictures),
        "seats": _seats(record),
        "result": _result_line(record),
    }


def _seen(
    guide: Guide,
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    mover: int,
    seat: int,
) -> str:
    """What ``seat`` learnt from ``mover``'s move: the events its observation gained (it did
    not act), told as the human seat tells them."""
    lines = (guide.narrate(event, seat_name) for event in gained(before, after, acted=False))
    return "; ".join(line for line in lines if line) or (
        f"seat {mover} made a choice that seat {seat} cannot see"
    )


def _told(
    guide: Guide, move: str, mover: int, before: Mapping[int, Any], after: Mapping[int, Any]
) -> str:
    """The move as the whole table reads it: ``describe``'s words, then what it made happen
    (:func:`arena.show.spectator.aftermath`, read in a seat's observations before and after
    the move that show every event of it)."""
    seat = witness(mover, len(after))
    happened = aftermath(guide, gained(before[seat], after[seat], acted=seat == mover))
    return f"{move}; then: {happened}" if happened else move


SEAM = "<rect"
"""Where pictures are cut into pieces (:func:`pack`); ``viewer.js`` joins them with it."""


def pack(data: Mapping[str, Any]) -> str:
    """Gzip + base64 JSON, as :func:`viewer.js`'s ``unpackGame`` reads it: ``pictures``
    become lists of indexes into ``pieces`` (a picture is its pieces joined by
    :data:`SEAM`).

    Level 6 packs these pieces in a third of level 9's time for about 14 % more bytes
    (docs/performance.md, "Start-up and end of the demo league")."""
    pieces: dict[str, int] = {}
    shapes = [
        [pieces.setdefault(piece, len(pieces)) for piece in picture.split(SEAM)]
        for picture in data["pictures"]
    ]
    packed = {**data, "pictures": shapes, "pieces": list(pieces)}
    return base64.b64encode(gzip.compress(orjson.dumps(packed), 6, mtime=0)).decode("ascii")


def data_block(record: GameRecord) -> str:
    """The ``<script>`` element holding one game's packed data (id ``game-<id>``)."""
    return (
        f'<script type="application/octet-stream" id="game-{escape(record.id)}">'
        f"{pack(game_data(record))}</script>"
    )


def seat_table(record: GameRecord) -> str:
    """Who sat where, the final scores, time spent thinking, verdicts and the referee's
    notes on them."""
    rows = []
    for number, seat in enumerate(record.seats):
        verdicts = ", ".join(f"{k} {v}" for k, v in seat.verdicts.items()) or "-"
        if seat.forfeit is not None:
            verdicts += f" (forfeit: {seat.forfeit})"
        rows.append(
            f"<tr><td>{number}</td><td class='name'>{escape(seat.bot)}</td>"
            f"<td>{seat.score:g}</td><td>{seat.rank}</td><td>{seat.decisions}</td>"
            f"<td>{seat.think_ms:.1f}</td><td>{_mean_ms(seat.think_ms, seat.decisions)}</td>"
            f"<td>{_slowest(seat.think_us)}</td><td class='name'>{escape(verdicts)}</td>"
            f"<td class='name'>{escape('; '.join(seat.notes) or '-')}</td></tr>"
        )
    return (
        "<table><thead><tr><th>seat</th><th class='name'>bot</th><th>score</th><th>rank</th>"
        "<th>decisions</th><th>think ms</th><th>ms/decision</th><th>slowest ms</th>"
        "<th class='name'>faults</th><th class='name'>fault notes</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def viewer_page(record: GameRecord, name: str) -> str:
    """The standalone viewer page of one game of the league ``name``."""
    engine = record.rules()
    options = spelled_pairs(record.options) or "defaults"
    body = (
        f"<p>{escape(engine.title)} (engine {escape(record.engine)} "
        f"v{escape(record.engine_version)}), {counted(record.players, 'player')}, "
        f"seed {record.seed}, options {escape(options)}; {counted(len(record.moves), 'move')}. "
        "Step with the buttons, the slider or the arrow keys; the menu shows what one seat "
        "saw.</p>"
        f"{seat_table(record)}"
        f'<div class="viewer" id="viewer" data-first="{escape(record.id)}" data-alone></div>'
        f"{data_block(record)}"
    )
    title = f"{name}: game {record.id}"
    heading = f"{escape(name)}: game {unbroken(record.id)}"
    subtitle = f"{engine.title}: {' vs '.join(record.seating)}"
    return document(title, subtitle, body, ("viewer.js",), heading=heading)


def _text(picture: str) -> str:
    return f'<pre class="board-text">{escape(picture)}</pre>'


def _mean_ms(think_ms: float, decisions: int) -> str:
    return f"{think_ms / max(decisions, 1):.1f}"


def _slowest(think_us: tuple[int, ...]) -> str:
    return f"{max(think_us) / 1000:.1f}" if think_us and max(think_us) >= 0 else "-"


def _ms(micros: int) -> str:
    """Microseconds as milliseconds with two to three significant digits."""
    ms = micros / 1000
    return f"{ms:.2f} ms" if ms < 10 else f"{ms:.1f} ms" if ms < 100 else f"{ms:.0f} ms"


def _by(record: GameRecord, seat: int, micros: int | None) -> str:
    """Who made a move, and how long it took (or that the referee chose it)."""
    who = f"by seat {seat} ({record.seats[seat].bot})"
    if micros is None:  # a record without per-turn times (format 1 or 2)
        mean = _mean_ms(record.seats[seat].think_ms, record.seats[seat].decisions)
        return f"{who}; {mean} ms per decision on average in this game (no time per move stored)"
    if micros == NOT_ASKED:
        forfeit = record.seats[seat].forfeit
        why = f"the seat had forfeited ({forfeit}) or" if forfeit else "after"
        return f"{who}: chosen by the referee at random, {why} a fault on this move"
    return f"{who}, in {_ms(micros)}"


def _seats(record: GameRecord) -> list[dict[str, Any]]:
    return [{"bot": seat.bot} for seat in record.seats]


def _result_line(record: GameRecord) -> str:
    parts = [
        f"seat {number} {seat.bot}: score {seat.score:g}, rank {seat.rank}"
        for number, seat in enumerate(record.seats)
    ]
    return "Final result: " + "; ".join(parts)


_BEFORE = -1  # faults before the first move: a bot that failed to start
_START_VERDICTS = "step 0: startup: "  # a disqualified bot's verdict is startup too


def _faults_by_step(record: GameRecord) -> dict[int, list[str]]:
    """The referee's fault notes that name a step, by step (``step N: verdict: ...``);
    start-up faults under :data:`_BEFORE`."""
    found: dict[int, list[str]] = {}
    for number, seat in enumerate(record.seats):
        for note in seat.notes:
            match = _STEP_NOTE.match(note)
            if match:
                step = _BEFORE if note.startswith(_START_VERDICTS) else int(match.group(1))
                found.setdefault(step, []).append(f"seat {number}: {note}")
    return found
