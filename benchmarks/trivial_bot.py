"""The fastest possible protocol-v1 bot: always answers index 0 and echoes ``step``.

Used by every referee benchmark, so the bot's own cost is as close to zero as Python allows:
no imports beyond ``sys`` and ``time``, no JSON parsing of ``act`` messages (the referee's
encoder writes ``{"type":"act","game":"...","step":N,...`` compactly, so the step is sliced
out of the bytes), one write and one flush per answer. Anything it does not recognise
byte-wise falls back to ``json`` so it stays a correct bot for any protocol-v1 referee.

    python benchmarks/trivial_bot.py          # answers at once
    python benchmarks/trivial_bot.py 5        # "thinks" (sleeps) 5 ms before each answer
"""

from __future__ import annotations

import sys
import time

_ACT = b'{"type":"act",'
_STEP = b'"step":'
_HELLO = b'{"type":"hello"'
_BYE = b'{"type":"bye"'
_READY = b'{"type":"ready","name":"trivial","version":"1"}\n'


def _slow_path(line: bytes) -> bytes | None:
    """Answer a line that is not in the referee's compact form (parsed with json)."""
    import json

    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        return _READY
    if kind == "act":
        return b'{"type":"action","index":0,"step":%d}\n' % message["step"]
    if kind == "bye":
        raise SystemExit(0)
    return None


def main() -> None:
    read = sys.stdin.buffer.readline
    out = sys.stdout.buffer
    write, flush = out.write, out.flush
    think_s = float(sys.argv[1]) / 1000 if len(sys.argv) > 1 else 0.0
    while line := read():
        if line.startswith(_ACT):
            if think_s:
                time.sleep(think_s)
            start = line.find(_STEP) + 7
            end = line.find(b",", start)
            if start >= 7 and end > start:
                write(b'{"type":"action","index":0,"step":' + line[start:end] + b"}\n")
                flush()
                continue
        elif line.startswith(_HELLO):
            write(_READY)
            flush()
            continue
        elif line.startswith(_BYE):
            return
        elif line.startswith(b'{"type":"'):
            continue  # start, end, substituted: nothing to answer
        if line.strip():
            answer = _slow_path(line)
            if answer is not None:
                write(answer)
                flush()


if __name__ == "__main__":
    main()
