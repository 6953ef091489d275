"""The example lines of ``docs/protocol.md``, made from a real Space Five game.

``tests/test_docs.py`` checks that each one appears verbatim in the document, so the
examples cannot drift from the code. After a change of the engine or the protocol, put the
new lines into the document with ``python -m tests.protocol_examples docs/protocol.md``.
"""

from __future__ import annotations

import engines
from arena import protocol
from arena.config import Limits
from arena.game.seats import hello_line
from arena.game.spec import bot_seed
from arena.league.schedule import block_seed
from engines.base import resolve_options

GAME = "t0-b0-r1"  # the second game of table 0, block 0 of a league with seed 1
ELIDED = {"...": "the final observation"}


def protocol_examples() -> dict[str, str]:
    """Message kind -> the exact line (without its newline) the referee or a bot sends."""
    engine = engines.get("space-five")
    seed = block_seed(1, 2, 0)
    limits = Limits()
    options = resolve_options(engine.option_specs(), {})
    state = engine.new_game(2, seed, options)
    lines = {"hello": hello_line(engine, options, limits)}
    step = 0
    while not 3 <= len(state.legal_actions()) <= 5:  # a short list with a real choice
        state.apply(state.legal_actions()[0])
        step += 1
    seat = state.to_move()
    assert seat is not None
    lines["start"] = protocol.encode(protocol.start(GAME, seat, 2, bot_seed(seed, seat)))
    legal = state.legal_actions()
    observation = state.observation(seat)
    act = protocol.act(GAME, step, observation, legal, limits.move_ms, limits.bank_ms - 600)
    lines["act"] = protocol.encode(act)
    lines["substituted"] = protocol.encode(protocol.substituted(GAME, step, legal[1], "timeout"))
    lines["action_index"] = protocol.encode({"type": "action", "index": 1, "step": step})
    lines["action_object"] = protocol.encode({"type": "action", "action": legal[1], "step": step})
    while state.to_move() is not None:
        state.apply(state.legal_actions()[0])
    result = state.result()
    summary = {"scores": list(result.scores), "ranks": list(result.ranks)}
    # the final observation is long: the document shows it elided, as ELIDED
    lines["end"] = protocol.encode(protocol.end(GAME, summary, ELIDED))
    return {kind: line.decode().rstrip("\n") for kind, line in lines.items()}


PREFIXES = {
    "action_index": '{"type":"action","index"',
    "action_object": '{"type":"action","action"',
}


def rewrite(document: str) -> str:
    """``document`` with each example line replaced by the one made now."""
    lines = document.split("\n")
    for kind, line in protocol_examples().items():
        prefix = PREFIXES.get(kind, f'{{"type":"{kind}"')
        places = [i for i, old in enumerate(lines) if old.startswith(prefix)]
        assert len(places) == 1, f"{kind}: {len(places)} example lines"
        lines[places[0]] = line
    return "\n".join(lines)


if __name__ == "__main__":
    import sys
    from pathlib import Path

    target = Path(sys.argv[1])
    target.write_text(rewrite(target.read_text()))
