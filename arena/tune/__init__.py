"""``arena tune``: search a bot's parameters by playing games (SPSA, or an ask/tell optimiser).

The tuner is a client of the league layer: it chooses the blocks to play
(:mod:`arena.tune.feed`) and hands them to the league driver that plays ``arena run``'s
blocks, in this process or on Dask. See ``docs/tuning.md``.
"""
