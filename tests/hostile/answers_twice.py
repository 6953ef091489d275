"""Hostile bot: writes each answer twice (no verdict: the second copy names a step already
answered and is skipped, but it is a line nobody asked for, so the process is not reused).
Says who it is at ``hello``, so a test can count its processes."""

from _common import Message, play_first, report_identity, serve, write


def on_act(message: Message, acts: int) -> Message:
    answer = play_first(message, acts)
    write(answer)
    return answer


serve(on_act, on_hello=lambda message: report_identity("bot"))
