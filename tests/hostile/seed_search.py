"""Hostile bot: works the league's seed out of the seed it is given. At each game's
``start`` it tries every league seed below ``--below`` (a small one, as a careless league
file gives: ``seed = 11``): the seed of each block, then of this seat in it, as the arena
derived bots' seeds from the league's alone. Says ``search: <game> league seed=<found|
none>`` on stderr; one that found it deals every game itself. Then plays well."""

import argparse
import json
import sys

from _common import play_first, write

from engines.base import derive_rng

parser = argparse.ArgumentParser()
parser.add_argument("--below", type=int, default=64)
parser.add_argument("--blocks", type=int, default=4)
args, _marker = parser.parse_known_args()


def search(game: str, seat: int, players: int, given: int) -> str:
    for league in range(args.below):
        for block in range(args.blocks):
            game_seed = derive_rng(league, "block", players, block).getrandbits(48)
            if derive_rng(game_seed, "bot", seat).getrandbits(31) == given:
                return str(league)
    return "none"


for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        write({"type": "ready", "name": "seed_search", "version": "1"})
    elif kind == "start":
        found = search(message["game"], message["seat"], message["players"], message["seed"])
        sys.stderr.write(f"search: {message['game']} league seed={found}\n")
        sys.stderr.flush()
    elif kind == "act":
        write(play_first(message, 0))
    elif kind == "bye":
        break
