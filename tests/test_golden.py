"""Known answers: every engine still plays its golden game and perft counts exactly.

A failure after an intended rules change: bump the engine's version and regenerate with
``python -m tests.golden.make_golden``. The message names the first step that differs,
the action played there and which parts of the observation (or the legal list) changed.
"""

from __future__ import annotations

from typing import Any

import pytest

import engines
from tests.golden import make_golden
from tests.golden.make_golden import known_answers, path_for, read


def first_difference(fresh: list[dict[str, Any]], stored: list[dict[str, Any]]) -> str | None:
    """A readable account of the first step that differs, or None."""
    for now, then in zip(fresh[1:], stored[1:], strict=False):
        if now == then:
            continue
        if "end" in now or "end" in then:
            return f"the end differs: now {now.get('end', now)}, stored {then.get('end', then)}"
        parts = now["parts"]
        changed = sorted(
            key for key in {*parts, *then["parts"]} if parts.get(key) != then["parts"].get(key)
        )
        return (
            f"step {then['step']} (seat {then['seat']}, stored action: {then['says']}): "
            f"changed {', '.join(changed) or 'the action chosen'}; now seat {now['seat']} "
            f"with {now['legal']} legal actions (stored {then['legal']}), "
            f"action now: {now['says']}"
        )
    if len(fresh) != len(stored):
        return f"the play-through has {len(fresh) - 2} steps, stored {len(stored) - 2}"
    return None


@pytest.mark.parametrize("name", engines.names())
def test_engine_matches_its_known_answers(name: str) -> None:
    if not path_for(name).exists():
        pytest.skip(f"no known answers for {name}: run python -m tests.golden.make_golden")
    stored = read(name)
    fresh = known_answers(name)
    assert fresh[0]["version"] == stored[0]["version"], "engine version changed: regenerate"
    assert fresh[0]["perft"] == stored[0]["perft"]
    assert first_difference(fresh, stored) is None, first_difference(fresh, stored)


def test_a_difference_names_the_step_and_the_part() -> None:
    stored = read("good-boy")
    changed = [dict(line) for line in stored]
    changed[5] = {**changed[5], "parts": {**changed[5]["parts"], "pool": "0"}}
    message = first_difference(changed, stored)
    assert message is not None and message.startswith("step 4 (seat ")
    assert "changed pool;" in message


@pytest.mark.parametrize("argv", [["--help"], ["--bogus"], ["--engines", "no-such-game"]])
def test_make_golden_rewrites_nothing_on_a_flag_it_does_not_act_on(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    written: list[str] = []
    monkeypatch.setattr(make_golden, "write", lambda name, lines: written.append(name))
    with pytest.raises(SystemExit) as stop:
        make_golden.main(argv)
    assert stop.value.code == (0 if argv == ["--help"] else 2)
    assert written == []
    if argv == ["--help"]:
        assert "--engines NAME" in capsys.readouterr().out


def test_make_golden_engines_rewrites_only_those(monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[str] = []
    monkeypatch.setattr(make_golden, "write", lambda name, lines: written.append(name))
    monkeypatch.setattr(make_golden, "known_answers", lambda name: [{"perft": []}, {"end": {}}])
    make_golden.main(["--engines", "good-boy", "space-five"])
    assert written == ["good-boy", "space-five"]
    make_golden.main([])
    assert written[2:] == engines.names()
