"""The ladder (``arena serve``): a league that never closes, where participants submit bots.

One process, one trio loop: the web server (hypercorn on trio, plain ASGI), the checks of
new submissions and the matchmaking loop that plays rotation blocks into the results folder
through the league layer. Participants, tokens and submissions live in SQLite beside the
results folder (:mod:`arena.ladder.db`); the games stay in ``games.jsonl``, so every other
``arena`` command works on a ladder's folder.
"""
