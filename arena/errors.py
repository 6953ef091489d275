"""One exception tree for the whole arena.

::

    ArenaError
    ├── UserError            a mistake in the user's input: one line, exit status 2
    │   ├── ConfigError      a league file or CLI value that is invalid (names file and key)
    │   ├── ResultsError     a results folder that cannot be used (locked, incomparable)
    │   │   └── RecordError  a games.jsonl line that is not a game record
    │   ├── ClusterError     a Dask cluster that cannot run the league (unreachable, a bot
    │   │                    that cannot start on a worker, the extra not installed)
    │   ├── ResourceShortage the referee itself ran out of descriptors, memory or processes
    │   │                    (raise its limits or lower ``jobs``; never a bot's verdict)
    │   └── MissingExtra     an optional extra is not installed (also an ImportError): says
    │                        which ``pip install`` adds it
    └── BotFault             a bot broke the rules; ``verdict`` is the class recorded
        ├── BotTimeout       "timeout": no answer within the decision limit and the bank
        ├── BotIllegal       "illegal": an action not in the legal list
        │                    (engines raise engines.base.IllegalAction; the referee maps it here)
        ├── BotProtocolError "protocol": not JSON, wrong shape, line too long
        ├── BotCrash         "crash": the process exited or closed its output
        │   └── BotMemory    "memory": the kernel killed a process of the bot's control
        │                    group for using more than ``memory_mb``
        ├── BotStartup       "startup": no valid ``ready`` within the start-up limit
        │   └── BotDisqualified  not started again: it failed to start too often
        └── Resigned         "resign": a person at a human seat gave up (always a forfeit)

``cli.py`` catches :class:`UserError` once and prints its message; bot faults never reach the
user as exceptions: the referee turns them into verdicts.
"""

from __future__ import annotations

from typing import ClassVar


class ArenaError(Exception):
    """Base of every error the arena raises on purpose."""


class UserError(ArenaError):
    """A mistake in what the user gave us; the message says what and how to fix it."""


class ConfigError(UserError):
    """An invalid league file or command-line value."""


class ResultsError(UserError):
    """A results folder that cannot be used as asked."""


class RecordError(ResultsError):
    """A ``games.jsonl`` line that is not a game record (not JSON, wrong keys or types)."""


class ClusterError(UserError):
    """A Dask cluster that cannot play the league; the message names the worker and bot."""


class ResourceShortage(UserError):
    """The referee could not start a bot process for want of its own resources."""


class MissingExtra(UserError, ImportError):
    """A bridge or command needs an optional extra that is not installed."""


class BotFault(ArenaError):
    """A bot broke the protocol or the rules; ``verdict`` names the class."""

    verdict: ClassVar[str] = "fault"


class BotTimeout(BotFault):
    verdict = "timeout"


class BotIllegal(BotFault):
    verdict = "illegal"


class BotProtocolError(BotFault):
    verdict = "protocol"


class BotCrash(BotFault):
    verdict = "crash"


class BotMemory(BotCrash):
    verdict = "memory"


class BotStartup(BotFault):
    verdict = "startup"


class BotDisqualified(BotStartup):
    """Refused without trying: the bot failed to start ``max_start_failures`` times.

    Its verdict stays ``startup``; the seat's forfeit reason says ``disqualified``.
    """


class Resigned(BotFault):
    """A person resigned; the referee forfeits the seat whatever the league's policy."""

    verdict = "resign"


VERDICTS: tuple[str, ...] = ("timeout", "illegal", "protocol", "crash", "startup", "memory")
