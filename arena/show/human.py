"""A person at the terminal as one seat of a game (``arena play --human NAME``).

:class:`HumanSeat` implements the referee's :class:`~arena.game.seats.Seat`. Before each of
the person's decisions it prints what happened since their last decision (the public events
of the observation, in words), the table as their seat sees it (the engine's
``render(seat)``), and the legal actions as a numbered list of the engine's own
descriptions. The person answers with a number, the start of a description, ``?`` (how to
play) or ``q`` (resign: the seat is forfeited and recorded with the verdict ``resign``).

No clock applies: the answer may take as long as the person likes. The think time is still
recorded. The seat runs in the referee's process and looks at the live state (it is a
:class:`~arena.game.seats.Watcher`) only through ``render(seat)`` and ``describe`` of its
own legal actions; everything else it shows comes from its observations.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TextIO

import trio

import engines
from arena.errors import Resigned
from arena.game.referee import forfeited_seats
from arena.game.seats import Answer
from arena.game.spec import GameSpec
from arena.protocol import Params
from engines.base import State
from engines.guides import Guide, seats_text

Action = dict[str, Any]
WIDTH = 100

HELP = """\
How to answer: type the number of a choice, or the first words of its description (enough of
them to name one choice); "?" shows this help, "q" resigns the game (your seat is forfeited and
ranked last)."""


class Console(Protocol):
    """Where a human seat talks to its person."""

    def say(self, text: str) -> None: ...

    async def ask(self, prompt: str) -> str | None:
        """One line typed by the person, without the newline; ``None`` at end of input."""
        ...


class TerminalConsole:
    """Standard input and output. Reading waits in a thread, so the bots' pipes keep flowing."""

    def __init__(self, out: TextIO | None = None, inp: TextIO | None = None) -> None:
        self._out = out if out is not None else sys.stdout
        self._in = inp if inp is not None else sys.stdin

    def say(self, text: str) -> None:
        self._out.write(text + "\n")
        self._out.flush()

    async def ask(self, prompt: str) -> str | None:
        self._out.write(prompt)
        self._out.flush()
        line = await trio.to_thread.run_sync(self._in.readline, abandon_on_cancel=True)
        return line.rstrip("\r\n") if line else None


def choice_label(description: str) -> str:
    """The engine's description of an action without the leading ``seat N``."""
    head, _, rest = description.partition(" ")
    if head == "seat":
        number, _, rest = rest.partition(" ")
        if number.rstrip(":").isdigit():
            return rest.lstrip(": ") or description
    return description


def match_choice(answer: str, labels: Sequence[str]) -> int | str:
    """The index ``answer`` names among ``labels``, or a message saying why none is named.

    A number counts from 1; text names the label it starts (case and spaces ignored), or
    the one label equal to it.
    """
    text = " ".join(answer.split()).lower()
    if not text:
        return "type a number, the start of a choice, ? for help or q to resign"
    if text.isdigit():
        number = int(text)
        if 1 <= number <= len(labels):
            return number - 1
        return f"{number} is not a choice; choose 1 to {len(labels)}"
    folded = [" ".join(label.split()).lower() for label in labels]
    exact = [i for i, label in enumerate(folded) if label == text]
    if len(exact) == 1:
        return exact[0]
    starting = [i for i, label in enumerate(folded) if label.startswith(text)]
    if len(starting) == 1:
        return starting[0]
    if not starting:
        return f"no choice starts with {answer.strip()!r}"
    shown = ", ".join(str(i + 1) for i in starting[:8]) + (", ..." if len(starting) > 8 else "")
    return f"{answer.strip()!r} fits {len(starting)} choices ({shown}); type more or a number"


def numbered(labels: Sequence[str], width: int = WIDTH) -> list[str]:
    """The choices as ``  1. label`` lines, in columns when they are short and many."""
    cells = [f"{i + 1:>{len(str(len(labels)))}}. {label}" for i, label in enumerate(labels)]
    widest = max(len(cell) for cell in cells) + 3
    columns = max(1, min(4, (width - 2) // widest)) if len(cells) > 12 else 1
    rows = -(-len(cells) // columns)
    lines = []
    for r in range(rows):
        row = [cells[c * rows + r] for c in range(columns) if c * rows + r < len(cells)]
        lines.append("  " + "".join(cell.ljust(widest) for cell in row).rstrip())
    return lines


class HumanSeat:
    """One person playing one seat through a :class:`Console`."""

    def __init__(
        self,
        name: str,
        engine: str,
        console: Console,
        seating: Sequence[str] = (),
        *,
        pause: bool = False,
    ) -> None:
        self.name = name
        self._pause = pause  # another game's result is on the screen: wait for Enter first
        self._engine = engines.get(engine)
        self._guide = engines.guide(engine)
        self._console = console
        self._seating = list(seating)
        self._states: dict[str, State] = {}
        self._seat: dict[str, int] = {}
        self._me = -1

    def who(self, seat: int) -> str:
        """``seat 1 (greedy)``, or ``you`` for this seat."""
        if seat == self._me:
            return "you"
        if seat < len(self._seating):
            return f"seat {seat} ({self._seating[seat]})"
        return f"seat {seat}"

    # -- the Seat interface -----------------------------------------------------------------
    def watch(self, game: str, state: State) -> None:
        self._states[game] = state

    async def start(
        self, game: str, seat: int, players: int, seed: int, params: Params | None = None
    ) -> None:
        if self._pause:
            await self._console.ask(f"press Enter for the next game ({game}) > ")
        self._seat[game] = self._me = seat
        others = ", ".join(self.who(s) for s in range(players) if s != seat)
        self._console.say(f"=== {self._engine.title}, game {game} ===")
        if others:
            self._console.say(f"{self.name}, you are seat {seat} of {players}, against {others}.")
        else:
            self._console.say(f"{self.name}, you play solo (the game's own rules play the rest).")
        self._console.say("Type the number of a choice, ? for help, q to resign.")

    async def act(
        self,
        game: str,
        step: int,
        observation: dict[str, Any],
        legal: list[Action],
        time_ms: int,
        bank_ms: int,
    ) -> Answer:
        state = self._states[game]
        seat = self._seat[game]
        started = time.perf_counter()
        self._tell_events(observation, "Since your last decision:")
        labels = [choice_label(state.describe(action)) for action in legal]
        self._console.say(state.render(seat))
        self._console.say(f"--- step {step}: your move, {self.name} (seat {seat}) ---")
        self._console.say("\n".join(numbered(labels)))
        while True:
            answer = await self._console.ask(f"choose 1-{len(labels)}, ? help, q resign > ")
            if answer is None:
                raise self._resign(game, "end of input")
            text = answer.strip()
            if text == "?":
                self._console.say(self._guide.how_to_play + "\n\n" + HELP)
                self._console.say("\n".join(numbered(labels)))
                continue
            if text.lower() in ("q", "quit", "resign"):
                sure = await self._console.ask("resign this game? y/n > ")
                if sure is None or sure.strip().lower() in ("y", "yes"):
                    raise self._resign(game, text.lower())
                continue
            chosen = match_choice(text, labels)
            if isinstance(chosen, int):
                self._console.say(f"you: {labels[chosen]}")
                return Answer(chosen, time.perf_counter() - started)
            self._console.say(chosen)

    async def substituted(self, game: str, step: int, action: Action, reason: str) -> None:
        self._console.say(f"the referee played for you ({reason}): {action}")

    async def end(self, game: str, result: dict[str, Any], observation: dict[str, Any]) -> None:
        state = self._states.pop(game)
        seat = self._seat.pop(game)
        self._tell_events(observation, "Since your last decision:")
        self._console.say(state.render(seat))
        self._console.say(f"=== game over: {game} ===")
        names = [
            self._seating[s] if s < len(self._seating) else "" for s in range(len(result["ranks"]))
        ]
        names[seat] = f"you ({self.name})"
        played = state.result()
        if len(names) == 1:
            lines = solo_lines(self._guide, played.detail, result["scores"][0], names[0])
        else:
            # a bot that forfeited is ranked last: the engine's end line may name it the winner
            left = forfeited_seats(played.ranks, result["ranks"])
            if left:
                end_line = forfeit_line(dict.fromkeys(left, ""), result["ranks"])
            else:
                end_line = self._guide.end_line(played.detail)
            lines = result_lines(end_line, result["scores"], result["ranks"], names)
        for line in lines:
            self._console.say(line)

    # -- helpers ----------------------------------------------------------------------------
    def _tell_events(self, observation: Mapping[str, Any], heading: str) -> None:
        events = observation.get("events") or []
        lines = [self._guide.narrate(event, self.who) for event in events]
        lines = [line for line in lines if line]
        if lines:
            self._console.say(heading)
            self._console.say("\n".join(f"  {line}" for line in lines))

    def _resign(self, game: str, why: str) -> Resigned:
        self._states.pop(game, None)
        self._seat.pop(game, None)
        self._console.say(
            f"You resign this game ({why}): your seat is forfeited and ranked last; "
            "the referee finishes the game with random moves for it."
        )
        return Resigned(f"{self.name} resigned ({why})")


def forfeit_line(forfeits: Mapping[int, str], ranks: Sequence[int]) -> str:
    """The end of a game some seats left, in one sentence: who resigned or forfeited (a
    reason in ``forfeits``, by seat; "" when not known) and who won by the final ``ranks``.
    It stands in for the engine's end line, which names the winners by points as if every
    seat had played on."""
    left = sorted(forfeits)
    said = ", ".join(f"seat {seat} {_left(forfeits[seat])}" for seat in left)
    winners = [seat for seat, rank in enumerate(ranks) if rank == 1 and seat not in forfeits]
    won = f"{seats_text(winners)} win{'s' if len(winners) == 1 else ''}"
    ranked = "it is" if len(left) == 1 else "they are"
    ending = won if winners else "nobody wins"
    return f"{said[0].upper()}{said[1:]}: {ranked} ranked last, whatever the points; {ending}."


def _left(reason: str) -> str:
    """How a seat left the game: "resigned", "forfeited (crash)", "forfeited"."""
    if reason == "resign":
        return "resigned"
    return f"forfeited ({reason})" if reason else "forfeited"


def result_lines(
    end_line: str, scores: Sequence[float], ranks: Sequence[int], names: Sequence[str]
) -> list[str]:
    """The end condition in one line, then one line per seat, best rank first."""
    order = sorted(range(len(ranks)), key=lambda s: (ranks[s], s))
    lines = [end_line]
    for s in order:
        lines.append(f"  rank {ranks[s]}  score {shown(scores[s]):>4}  seat {s}: {names[s]}")
    return lines


def solo_lines(guide: Guide, detail: Mapping[str, Any], score: float, name: str) -> list[str]:
    """A solo game's end: the end condition, the outcome in the guide's words (won or lost,
    or what the score means) and the score; no rank, since a player alone is always first."""
    outcome = [guide.solo_outcome(detail)] if guide.solo_outcome else []
    return [guide.end_line(detail), *outcome, f"  score {shown(score):>4}  seat 0: {name}"]


def shown(score: float) -> int | float:
    """A score as printed: whole numbers without ``.0``."""
    return int(score) if float(score).is_integer() else score


def human_seats(console: Console) -> Callable[[str, str, GameSpec], HumanSeat]:
    """A seat factory for leagues: ``factory(name, engine, spec)`` seats that person."""

    seen: set[str] = set()  # the games seated so far: after the first, a pause before each

    def factory(name: str, engine: str, spec: GameSpec) -> HumanSeat:
        pause = bool(seen) and spec.id not in seen
        seen.add(spec.id)
        return HumanSeat(name, engine, console, spec.seating, pause=pause)

    return factory
