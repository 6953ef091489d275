"""Re-simulate a stored game from its seed and moves; replay a recorded seat into a bot."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import trio

from arena import protocol
from arena.config import BotSpec
from arena.errors import BotFault, RecordError, ResultsError, UserError
from arena.game.botproc import BotProcess, StderrLog
from arena.game.hosting import hosting
from arena.game.referee import forfeit_ranks
from arena.league.transcripts import complete_transcript, transcript_entry
from arena.record import NOT_ASKED, GameRecord, SeatRecord, not_replayable
from arena.show.spectator import Spectator
from arena.words import counted
from engines.base import EngineError


def replay_record(record: GameRecord) -> list[str]:
    """The differences between a stored game and its re-simulation (empty: reproduced)."""
    engine = record.rules()
    problems: list[str] = []
    if engine.version != record.engine_version:
        problems.append(
            f"engine version is {engine.version}, the game was played with {record.engine_version}"
        )
    try:
        state = record.first_state()
    except RecordError as exc:  # options the engine refuses (its name was checked above)
        return [*problems, str(exc)]
    for step, index in enumerate(record.moves):
        legal = state.legal_actions()
        if state.to_move() is None or not 0 <= index < len(legal):
            return [*problems, not_replayable(step, index)]
        try:
            state.apply_index(index)
        except EngineError as exc:
            return [*problems, f"move {step + 1} failed: {exc}"]
    if state.to_move() is not None:
        return [*problems, "the replayed game has not ended after the stored moves"]
    result = state.result()
    ranks = forfeit_ranks(result.ranks, [seat.forfeit for seat in record.seats])
    if list(result.scores) != list(record.scores):
        problems.append(f"scores {list(result.scores)} != stored {list(record.scores)}")
    if ranks != list(record.ranks):
        problems.append(f"ranks {ranks} != stored {list(record.ranks)}")
    return problems


def narrate(record: GameRecord) -> Iterator[str]:
    """The stored game told as :class:`arena.show.spectator.Spectator` tells it (as ``arena
    play --show`` prints it), each move with its bot and think time (and the bot's note)."""
    state = record.first_state()
    said = {step: text for seat in record.seats for step, text in seat.bot_notes}
    turns = [iter(seat.think_us) for seat in record.seats]
    spectator = Spectator(record.engine, record.players)
    for step, index in enumerate(record.moves):
        seat = state.to_move()
        legal = state.legal_actions()
        if seat is None or not 0 <= index < len(legal):
            yield not_replayable(step, index)
            return
        micros = next(turns[seat], None)
        took = (
            ""
            if micros is None
            else ", chosen by the referee"
            if micros == NOT_ASKED
            else f", {micros / 1000:.2f} ms"
        )
        *before, line = spectator.move(state, step, seat, legal[index])
        yield from before
        yield f"{line}  [{record.seats[seat].bot}{took}]"
        if step in said:
            yield f"      note: {said[step]!r}"
        state.apply(legal[index])
    yield from spectator.end(state)


def read_transcript(path: Path, seat: SeatRecord) -> list[tuple[str, str]]:
    """The (direction, line) pairs of a stored seat transcript of the game whose record of
    that seat is ``seat``; a missing one is a :class:`UserError`, a damaged one (a line
    edited, or cut short by a kill) a :class:`ResultsError` naming its first bad line, and
    one that ends before the game does (:func:`~arena.league.transcripts.complete_transcript`) a
    :class:`ResultsError` saying so."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(
            f"{path}: no transcript: the game was played without --transcripts (a run records "
            "them only for the games it plays, not for games stored before), or the transcript "
            "was lost when an earlier version of arena was killed (use --fresh or --replay-bot "
            "NAME to play them again)"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ResultsError(f"{path}: cannot read the transcript: {exc}") from None
    pairs = []
    for number, text_line in enumerate(text.splitlines(), start=1):
        pair = transcript_entry(text_line)
        if pair is None:
            raise ResultsError(
                f"{path}: line {number} is damaged (not a line the referee sent or the bot "
                "wrote); this transcript cannot be replayed"
            )
        pairs.append(pair)
    if not complete_transcript(pairs, seat):
        raise ResultsError(
            f"{path}: cut short: it ends before the stored game does ({_told(seat)}); this "
            "transcript cannot be replayed"
        )
    return pairs


def _told(seat: SeatRecord) -> str:
    """How a transcript falls short of what the stored game says of its seat."""
    if seat.forfeit is None:
        return "the seat played to the end, but the transcript has no 'end' message"
    return f"it asks fewer than the {counted(seat.decisions, 'decision')} the seat answered"


async def replay_seat(
    transcript: list[tuple[str, str]],
    bot: BotSpec,
    say: Callable[[str], None],
) -> bool:
    """Feed a recorded seat's messages to ``bot``; say how each answer compares.

    Returns True when the bot made the recorded move at every ``act`` (its note may differ).
    Its answers and faults are said with their control characters made visible; under a
    fault, the last lines the bot wrote to stderr (its traceback).
    """

    def tell(line: str) -> None:
        say(protocol.visible(line))

    sent = [line for direction, line in transcript if direction == "to"]
    if not sent or protocol.decode(sent[0])["type"] != "hello":
        raise UserError("the transcript does not start with 'hello'")
    answers = _recorded_answers(transcript)
    log = StderrLog(None, 0)  # no file: its last lines are kept to show under a fault
    same, fault = True, ""
    async with hosting("arena-replay-") as host:
        try:
            process = await host.start(bot, (sent[0] + "\n").encode(), log)
        except BotFault as startup:
            fault = f"start-up failed: {startup}"
        else:
            same, fault = await _feed(process, sent, answers, tell)
    # told once the process has ended: its stderr is read to the end by then
    if fault:
        tell(fault)
        for line in log.last_lines():
            tell(f"  {line}")
        return False
    return same


async def _feed(
    process: BotProcess, sent: list[str], answers: dict[int, str], tell: Callable[[str], None]
) -> tuple[bool, str]:
    """Send the recorded lines after ``hello`` and tell how each answer compares; whether
    every move was the recorded one, and the fault that ended the replay ("" for none)."""
    same = True
    for index, line in enumerate(sent[1:], start=1):
        message = protocol.decode(line)
        data = (line + "\n").encode()
        if message["type"] != "act":
            await process.send(data)
            continue
        limit = (message.get("time_ms", 0) + message.get("bank_ms", 0)) / 1000
        recorded = answers.get(index, "(no answer was recorded)")
        try:
            answer = (await process.ask(data, trio.current_time() + limit)).decode(
                "utf-8", "replace"
            )
        except BotFault as fault:
            return False, f"step {message['step']}: {fault.verdict}: {fault} (recorded: {recorded})"
        verdict = _compared(answer, recorded)
        same = same and verdict != "DIFFERS"
        tell(
            f"step {message['step']}: {verdict}: {answer}"
            + ("" if answer == recorded else f" (recorded: {recorded})")
        )
    return same, ""


def _compared(answer: str, recorded: str) -> str:
    """``same``, ``same move`` (the same choice with another note or other extra fields:
    a note may say how long the bot searched) or ``DIFFERS``."""
    if answer == recorded:
        return "same"
    return "same move" if _choice(answer) == _choice(recorded) else "DIFFERS"


def _choice(line: str) -> object:
    """What an ``action`` answer chose (its ``index`` and ``action`` fields); any other
    line as it is."""
    try:
        message = json.loads(line)
    except ValueError:
        return line
    if not isinstance(message, dict) or message.get("type") != "action":
        return line
    return (message.get("index"), message.get("action"))


def _recorded_answers(transcript: list[tuple[str, str]]) -> dict[int, str]:
    """For the n-th line sent, the first line the bot wrote after it."""
    answers: dict[int, str] = {}
    sent_index = -1
    for direction, line in transcript:
        if direction == "to":
            sent_index += 1
        elif sent_index not in answers:
            answers[sent_index] = line
    return answers
