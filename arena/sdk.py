"""Write a Python bot as one function; this module runs the protocol loop.

A bot is a function ``choose(observation, legal, game)`` that returns either the index of
the chosen action in ``legal`` or the action object itself::

    from arena.sdk import run

    def choose(observation, legal, game):
        return game.rng.randrange(len(legal))

    if __name__ == "__main__":
        run(choose, name="my-bot")

``game`` is a :class:`GameInfo`: the engine and its options, this bot's seat, the number of
players, a :class:`random.Random` seeded from the referee's ``start`` seed (so the bot is
deterministic), and the clock. Setting ``game.note`` in ``choose`` sends that text with the
action (the protocol's optional ``note``: the game's record keeps it and the game viewer
shows it with the move). The SDK answers ``hello``, keeps one ``GameInfo`` per game, and
exits on ``bye`` or when stdin closes. ``on_hello(engine, options)``, if given, runs before
the ``ready`` answer: slow preparation there (imports, tables) counts against the start-up
limit, not against the first decision's clock. ``on_end(result, observation, game)`` runs
when a game ends. ``game.params`` holds the parameter values the referee sent with this game
(``arena tune``: the ``start`` message's ``params``; empty when it sent none), so one warm
process plays each game with the values it is given.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

from arena import protocol

Action = dict[str, Any]


@dataclass
class GameInfo:
    """What a bot knows about the game it is playing, besides the observation."""

    engine: str
    options: dict[str, Any]
    game: str
    seat: int
    players: int
    seed: int
    rng: random.Random = field(repr=False)
    step: int = 0
    time_ms: int = 0
    bank_ms: int = 0
    memory: dict[str, Any] = field(default_factory=dict)  # free for the bot's own use
    note: str = ""  # set by ``choose``: sent with this action, then cleared
    params: dict[str, float | int] = field(default_factory=dict)  # ``start``'s params, if any


Choose = Callable[[dict[str, Any], list[Action], GameInfo], "int | Action"]
OnEnd = Callable[[dict[str, Any], dict[str, Any], GameInfo], None]
OnHello = Callable[[str, dict[str, Any]], None]


def run(
    choose: Choose,
    *,
    name: str,
    version: str = "0",
    on_end: OnEnd | None = None,
    on_hello: OnHello | None = None,
    stdin: IO[bytes] | None = None,
    stdout: IO[bytes] | None = None,
) -> None:
    """Serve the protocol on stdin/stdout until ``bye`` or end of input."""
    reader = stdin if stdin is not None else sys.stdin.buffer
    writer = stdout if stdout is not None else sys.stdout.buffer
    engine = ""
    options: dict[str, Any] = {}
    games: dict[str, GameInfo] = {}

    def send(message: dict[str, Any]) -> None:
        writer.write(protocol.encode(message))
        writer.flush()

    for line in reader:
        if not line.strip():
            continue
        message = protocol.decode(line)
        kind = message["type"]
        if kind == "hello":
            engine = message.get("engine", "")
            options = message.get("options", {})
            if on_hello is not None:
                on_hello(engine, options)
            send(protocol.ready(name, version))
        elif kind == "start":
            games[message["game"]] = GameInfo(
                engine=engine,
                options=options,
                game=message["game"],
                seat=message["seat"],
                players=message["players"],
                seed=message["seed"],
                rng=random.Random(message["seed"]),
                params=dict(message.get("params") or {}),
            )
        elif kind == "act":
            info = games[message["game"]]
            info.step = message["step"]
            info.time_ms = message.get("time_ms", 0)
            info.bank_ms = message.get("bank_ms", 0)
            info.note = ""
            legal = message["legal"]
            choice = choose(message["observation"], legal, info)
            if isinstance(choice, int):
                answer = protocol.action_index(choice, info.note)
            else:
                answer = {"type": "action", "action": choice}
                if info.note:
                    answer["note"] = info.note[: protocol.MAX_NOTE_CHARS]
            answer["step"] = info.step
            send(answer)
        elif kind == "end":
            finished = games.pop(message["game"]) if message["game"] in games else None
            if on_end is not None and finished is not None:
                on_end(message["result"], message.get("observation", {}), finished)
        elif kind == "bye":
            return
        # "substituted" and unknown message types need no answer
