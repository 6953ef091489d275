"""Protocol v1: JSON lines between the referee and a bot (contract).

Every message is one JSON object on one ``\\n``-terminated UTF-8 line. The referee sends
``hello``, ``start``, ``act``, ``substituted``, ``end`` and ``bye``; a bot answers ``hello``
with ``ready`` and ``act`` with ``action``. ``docs/protocol.md`` documents each message.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import orjson

from arena.errors import BotIllegal, BotProtocolError

PROTOCOL_VERSION = 1
MAX_NOTE_CHARS = 200  # of a bot's note, kept in the game's record
MAX_READY_CHARS = 100  # of the name and of the version a bot answers 'ready' with

Message = dict[str, Any]
Params = Mapping[str, float | int]  # a bot's parameter values by name (``start``'s ``params``)

# orjson encodes 5-6 times faster than the standard library (benchmarks/engines.py), and
# encoding is most of the referee's own cost per decision. Same bytes: compact, UTF-8.
# Messages have string keys only (OPT_NON_STR_KEYS would take orjson's slow path for every
# dict; a message with other keys still encodes, through the fallback). Subclasses of the
# JSON types go to _default: an engine's JsonList hands over the JSON text it keeps.
_OPTIONS = orjson.OPT_APPEND_NEWLINE | orjson.OPT_PASSTHROUGH_SUBCLASS
_fallback = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_Fragment = orjson.Fragment


def encode(message: Message) -> bytes:
    """One message as a protocol line (compact JSON plus ``\\n``)."""
    try:
        return orjson.dumps(message, default=_default, option=_OPTIONS)
    except TypeError:  # an integer beyond 64 bits or a non-string key: the standard library
        return (_fallback.encode(message) + "\n").encode("utf-8")


def _default(value: Any) -> Any:
    """A subclass of str, int, list or dict: the JSON text it carries (``json_text``, see
    ``engines.base.JsonList``), else the plain value (an enum member, a dict subclass)."""
    text = getattr(value, "json_text", None)
    if text is not None:
        return _Fragment(text)
    for kind, plain in _PLAIN:
        if isinstance(value, kind):
            return plain(value)
    raise TypeError(f"cannot encode {type(value).__name__}")


# the content of a subclass as its base type, whatever the subclass's __str__ says
_PLAIN: tuple[tuple[type, Any], ...] = (
    (str, str.__str__),
    (int, int.__int__),
    (list, list),
    (dict, dict),
)


def decode(line: bytes | str) -> Message:
    """Parse one line into a message object, or raise :class:`BotProtocolError`."""
    try:
        message = orjson.loads(line)
    except (ValueError, UnicodeDecodeError) as exc:
        raise BotProtocolError(f"not a JSON line: {_preview(line)}") from exc
    if not isinstance(message, dict):
        raise BotProtocolError(f"expected a JSON object, got {_preview(line)}")
    if not isinstance(message.get("type"), str):
        raise BotProtocolError(f"message without a string 'type': {_preview(line)}")
    return message


_JSON_KINDS: tuple[tuple[type, str], ...] = (
    (bool, "a boolean"),  # before int: a bool is an int to Python
    (int, "an integer"),
    (float, "a number"),
    (str, "a string"),
    (list, "an array"),
    (dict, "an object"),
)


def _json_value(value: Any, limit: int = 80) -> str:
    """A value a bot sent, as it wrote it (JSON, cut to ``limit`` characters) and its JSON
    type: ``5 (an integer)``, ``"5" (a string)``, ``null``."""
    if value is None:
        return "null"
    text = json.dumps(value)
    text = text[:limit] + ("..." if len(text) > limit else "")
    kind = next((name for kind, name in _JSON_KINDS if isinstance(value, kind)), "a value")
    return f"{text} ({kind})"


def _preview(line: bytes | str, limit: int = 80) -> str:
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    text = text.strip()
    return repr(text[:limit] + ("..." if len(text) > limit else ""))


# every control character but tab (C0, DEL, C1), as ``repr`` writes it: \x1b, \n, \x9b
_SHOWN = {code: repr(chr(code))[1:-1] for code in (*range(0x20), *range(0x7F, 0xA0)) if code != 9}


def visible(text: str) -> str:
    """A bot's text (its stderr, an answer line, a message quoting them) made safe for a
    terminal: every control character but tab written out as ``repr`` writes it (``\\x1b``,
    ``\\n``), so an escape sequence, a bell or a line break is seen, never obeyed. The rest is
    left as it is (a backslash too: text already made visible is unchanged)."""
    return text.translate(_SHOWN)


# -- referee -> bot --------------------------------------------------------------------------


def hello(
    engine: str,
    engine_version: str,
    options: dict[str, Any],
    limits: dict[str, Any],
    catalog: dict[str, Any] | None = None,
) -> Message:
    return {
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "engine": engine,
        "engine_version": engine_version,
        "options": options,
        "limits": limits,
        "catalog": catalog or {},
    }


def start(game: str, seat: int, players: int, seed: int, params: Params | None = None) -> Message:
    """A game begins; ``params`` (the seat's parameter values, as ``arena tune`` sets them)
    are sent only when there are some."""
    message: Message = {"type": "start", "game": game, "seat": seat, "players": players}
    message["seed"] = seed
    if params:
        message["params"] = dict(params)
    return message


def act(
    game: str,
    step: int,
    observation: dict[str, Any],
    legal: list[dict[str, Any]],
    time_ms: int,
    bank_ms: int,
) -> Message:
    return {
        "type": "act",
        "game": game,
        "step": step,
        "observation": observation,
        "legal": legal,
        "time_ms": time_ms,
        "bank_ms": bank_ms,
    }


def substituted(game: str, step: int, action: dict[str, Any], reason: str) -> Message:
    return {"type": "substituted", "game": game, "step": step, "action": action, "reason": reason}


def end(game: str, result: dict[str, Any], observation: dict[str, Any]) -> Message:
    return {"type": "end", "game": game, "result": result, "observation": observation}


BYE: Message = {"type": "bye"}


# -- bot -> referee --------------------------------------------------------------------------


def ready(name: str, version: str = "0") -> Message:
    return {"type": "ready", "name": name, "version": version}


def action_index(index: int, note: str = "") -> Message:
    message: Message = {"type": "action", "index": index}
    if note:
        message["note"] = note[:MAX_NOTE_CHARS]
    return message


def check_ready(message: Message) -> Message:
    """Validate a ``ready`` answer to ``hello``: its ``name`` and ``version``, when given,
    are strings of at most :data:`MAX_READY_CHARS` characters."""
    if message["type"] != "ready":
        raise BotProtocolError(f"expected 'ready', got {_json_value(message['type'])}")
    for field in ("name", "version"):
        value = message.get(field, "")
        if not isinstance(value, str):
            raise BotProtocolError(
                f"'ready' field {field!r} must be a string, got {_json_value(value)}"
            )
        if len(value) > MAX_READY_CHARS:
            raise BotProtocolError(
                f"'ready' field {field!r} has {len(value):,} characters; at most "
                f"{MAX_READY_CHARS} are allowed"
            )
    return message


def check_stale(message: Message, step: int) -> None:
    """An answer naming a step other than ``step`` must name an earlier one (a late answer
    to a question that timed out, or one written twice: the caller skips it); any other
    step (a later one, a string, null) is a :class:`BotProtocolError`."""
    named = message.get("step")
    if type(named) is not int or named >= step:
        shown = named if type(named) is int else _json_value(named)
        raise BotProtocolError(f"the answer names step {shown}, but the question was step {step}")


def chosen_index(message: Message, legal: list[dict[str, Any]]) -> int:
    """The index into ``legal`` an ``action`` message chose.

    Raises :class:`BotProtocolError` for a message of the wrong shape and
    :class:`arena.errors.BotIllegal` for an index out of range or an action not in the list.
    """
    if message["type"] != "action":
        raise BotProtocolError(f"expected 'action', got {_json_value(message['type'])}")
    if "index" in message:
        index = message["index"]
        if isinstance(index, bool) or not isinstance(index, int):
            raise BotProtocolError(f"'index' must be an integer, got {_json_value(index)}")
        if not 0 <= index < len(legal):
            raise BotIllegal(f"index {index} out of range (0..{len(legal) - 1})")
        return index
    if "action" in message:
        action = message["action"]
        if not isinstance(action, dict):
            raise BotProtocolError(f"'action' must be an object, got {_json_value(action)}")
        try:
            return legal.index(action)
        except ValueError:
            raise BotIllegal(
                f"action not in the legal list: {_preview(json.dumps(action))}"
            ) from None
    raise BotProtocolError("an 'action' message needs 'index' or 'action'")


def chosen_note(message: Message) -> str:
    """The optional ``note`` of an ``action`` message, cut to :data:`MAX_NOTE_CHARS`
    (``""`` when there is none); a note that is not a string is a :class:`BotProtocolError`."""
    note = message.get("note", "")
    if not isinstance(note, str):
        raise BotProtocolError(f"'note' must be a string, got {_json_value(note)}")
    return note[:MAX_NOTE_CHARS]
