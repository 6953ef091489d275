"""Hostile bot: after each answer writes lines nobody asked for (verdict: protocol, when the
referee reads one as the answer to its next question)."""

from _common import Message, play_first, serve, write


def on_act(message: Message, acts: int) -> None:
    write(play_first(message, acts))
    write({"type": "chat", "text": "good move, me"})
    write({"type": "chat", "text": "another one"})


serve(on_act)
