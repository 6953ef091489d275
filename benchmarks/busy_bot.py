"""A bot that computes a fixed amount before each answer (``--loops``, default 300,000
iterations of a Python loop: about 20 ms on this machine), then plays the first legal
action: what ``benchmarks/fair_clock.py`` times."""

import json
import sys

LOOPS = int(sys.argv[sys.argv.index("--loops") + 1]) if "--loops" in sys.argv else 300_000

for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        print(json.dumps({"type": "ready", "name": "busy", "version": "1"}), flush=True)
    elif kind == "act":
        total = 0
        for number in range(LOOPS):
            total += number
        print(json.dumps({"type": "action", "index": 0, "step": message["step"]}), flush=True)
    elif kind == "bye":
        break
