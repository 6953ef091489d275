"""A search bot for every engine: single-observer Information Set MCTS (SO-ISMCTS).

The algorithm is SO-ISMCTS from Cowling, Powley and Whitehouse, "Information Set Monte
Carlo Tree Search", IEEE Transactions on Computational Intelligence and AI in Games 4(2),
2012 (Algorithm 3). One tree is grown over the bot's own information set; every iteration

1. *determinizes* once: ``engine.sample_state`` draws a full game state consistent with
   every observation this seat received in the game (other hands, deck order, future
   dice at random; the engines rebuild the table once per decision and redraw only the
   hidden parts on later calls);
2. *selects* down the tree with UCB1 over the children whose action is legal in this
   determinization, using the availability count (how often the child was legal when its
   parent was visited) in place of the parent's visits, as the paper prescribes;
3. *expands* one untried legal action (at random), then *plays out*: uniformly random
   actions (``--playout random``, the default) or the engine's greedy bot for every seat
   (``--playout greedy``), to the end of the game or for at most ``--depth`` actions;
4. *backs up* the rank-based utility (:func:`engines.base.utility`, 0 to 1 for every seat
   count, solo included) of the state reached, scored as it stands when the play-out was
   cut: each node adds the utility of the seat that chose its action, so every seat is
   assumed to play for itself (max^n).

Children are keyed by :func:`engines.base.action_key`, so the same action in different
determinizations meets the same statistics. The move played is the root child with the
most visits (ties: the higher mean, then the earlier legal index). With ``--guide
greedy`` the engine's greedy bot's own choice is expanded first at the root, wins ties of
visits and is played when the clock left no iteration at all, so with very few iterations
the bot plays like the greedy bot and departs from it only when search finds a
better-visited action (with ``--playout greedy`` too: a rollout algorithm over the greedy
policy).

Time: each decision spends ``--time-share`` (default 0.5) of the ``time_ms`` the referee
grants and never draws on the bank (an iteration that started in time may end after it);
a decision with one legal action answers at once. ``--iterations N`` replaces the clock by
a fixed budget of N iterations: then every choice depends only on the observations and the
``start`` seed, so games replay exactly. After each game one line on stderr gives the
searched decisions, iterations and milliseconds per search.

Run it as ``python -m bots.ismcts [--iterations N] [--exploration C] [--playout P]
[--depth D] [--guide G] [--time-share F] [--name NAME]``. It knows no game: everything
comes from the engine named in ``hello`` and its contract (and, for the greedy play-outs
and guide, the bot ``bots.<engine>_greedy``, found by that naming rule).
"""

from __future__ import annotations

import argparse
import importlib
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import engines
from arena.sdk import GameInfo, run
from engines.base import Action, ActionKey, Engine, State, action_key, utility

Playout = Callable[[State, random.Random, int], None]
Choose = Callable[[dict[str, Any], list[Action], GameInfo], "int | Action"]


class Node:
    """One tree node: the statistics of the action that leads to it."""

    __slots__ = ("available", "children", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # who chose the action leading here (whose utility is summed)
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.children: dict[ActionKey, Node] = {}


def random_playout(state: State, rng: random.Random, steps: int) -> None:
    """Uniformly random legal actions until the game ends or ``steps`` were played."""
    while steps and state.to_move() is not None:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        steps -= 1


def load_greedy(engine: Engine) -> Choose:
    """The ``choose`` function of the engine's greedy bot, ``bots.<engine>_greedy``."""
    module = importlib.import_module(f"bots.{engine.name.replace('-', '_')}_greedy")
    choose: Choose = module.choose
    return choose


def greedy_playout(
    choose: Choose, engine: Engine, options: dict[str, Any], players: int
) -> Playout:
    """Play-outs where every seat plays ``choose`` (the engine's greedy bot)."""

    def playout(state: State, rng: random.Random, steps: int) -> None:
        info = GameInfo(engine.name, options, "playout", 0, players, 0, rng)
        while steps and (seat := state.to_move()) is not None:
            legal = state.legal_actions()
            info.seat = seat
            choice = choose(state.observation(seat), legal, info)
            state.apply(legal[choice] if isinstance(choice, int) else choice)
            steps -= 1

    return playout


class Search:
    """SO-ISMCTS for one decision of one seat."""

    def __init__(
        self,
        engine: Engine,
        game: GameInfo,
        exploration: float,
        playout: Playout,
        depth: int,
        first: int | None = None,
    ) -> None:
        self.engine = engine
        self.game = game
        self.exploration = exploration
        self.playout = playout
        self.depth = depth
        self.first: ActionKey | None = None  # the root action tried first, kept on ties
        self.first_index = first
        self.iterations = 0

    def choose(
        self,
        observations: Sequence[dict[str, Any]],
        legal: list[Action],
        iterations: int | None,
        deadline: float,
    ) -> int:
        """The index in ``legal`` of the most visited root action."""
        game = self.game
        rng = game.rng
        root = Node(game.seat)
        if self.first_index is not None:
            self.first = action_key(legal[self.first_index])
        done = 0
        while done < iterations if iterations is not None else time.monotonic() < deadline:
            state = self.engine.sample_state(
                game.players, game.options, game.seat, observations, rng
            )
            self.iterate(root, state, rng)
            done += 1
        self.iterations = done
        best_index = self.first_index or 0  # no iteration done: the guide's pick, or the first
        best = (0, False, -1.0)
        for index, action in enumerate(legal):
            key = action_key(action)
            child = root.children.get(key)
            if child is not None and child.visits:
                value = (child.visits, key == self.first, child.total / child.visits)
                if value > best:
                    best_index, best = index, value
        return best_index

    def iterate(self, root: Node, state: State, rng: random.Random) -> None:
        path = [root]
        node = root
        while (seat := state.to_move()) is not None:
            legal = state.legal_actions()
            keys = [action_key(action) for action in legal]
            untried = [i for i, key in enumerate(keys) if key not in node.children]
            if untried:
                index = untried[rng.randrange(len(untried))]
                if node is root and self.first in keys and self.first not in node.children:
                    index = keys.index(self.first)
                child = node.children[keys[index]] = Node(seat)
                for key in keys:
                    if key in node.children:
                        node.children[key].available += 1
                state.apply(legal[index])
                path.append(child)
                break
            index = self.select(node, keys)
            node = node.children[keys[index]]
            state.apply(legal[index])
            path.append(node)
        if state.to_move() is not None:
            self.playout(state, rng, self.depth)
        result = state.result()
        values: dict[int, float] = {}
        for visited in path:
            visited.visits += 1
            if visited is not root:
                seat = visited.seat
                if seat not in values:
                    values[seat] = utility(result, seat)
                visited.total += values[seat]

    def select(self, node: Node, keys: list[ActionKey]) -> int:
        """UCB1 with availability counts over the children legal in this determinization."""
        best_index, best = 0, -math.inf
        c = self.exploration
        children = node.children
        for index, key in enumerate(keys):
            child = children[key]
            child.available += 1
            score = child.total / child.visits + c * math.sqrt(
                math.log(child.available) / child.visits
            )
            if score > best:
                best_index, best = index, score
        return best_index


def make_choose(
    iterations: int | None,
    exploration: float,
    playout_name: str,
    depth: int,
    time_share: float,
    guide: str = "none",
) -> Callable[[dict[str, Any], list[Action], GameInfo], int]:
    """The SDK's ``choose`` function for these settings."""

    def choose(observation: dict[str, Any], legal: list[Action], game: GameInfo) -> int:
        started = time.monotonic()
        observations: list[dict[str, Any]] = game.memory.setdefault("observations", [])
        observations.append(observation)
        if len(legal) == 1:
            return 0
        engine = engines.get(game.engine)
        first = None
        playout: Playout = random_playout
        if playout_name == "greedy":
            playout = greedy_playout(load_greedy(engine), engine, game.options, game.players)
        if guide == "greedy":
            choice = load_greedy(engine)(observation, legal, game)
            first = choice if isinstance(choice, int) else legal.index(choice)
        search = Search(engine, game, exploration, playout, depth, first)
        deadline = started + time_share * game.time_ms / 1000
        index = search.choose(observations, legal, iterations, deadline)
        spent = time.monotonic() - started
        game.memory.setdefault("searches", []).append((search.iterations, spent))
        game.note = f"{search.iterations} iterations"  # not the guide's note
        return index

    return choose


def report(result: dict[str, Any], observation: dict[str, Any], game: GameInfo) -> None:
    """One stderr line per game (kept in the league's ``logs/<bot>.log``): the searched
    decisions, the iterations and the think time per searched decision."""
    searches: list[tuple[int, float]] = game.memory.get("searches", [])
    if not searches:
        return
    iterations = [n for n, _ in searches]
    seconds = sum(t for _, t in searches)
    print(
        f"ismcts {game.game} seat {game.seat}: {len(searches)} searches, "
        f"{sum(iterations) / len(searches):.1f} iterations/search "
        f"(min {min(iterations)}, max {max(iterations)}), "
        f"{seconds / len(searches) * 1000:.1f} ms/search",
        file=sys.stderr,
        flush=True,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bots.ismcts", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--iterations", type=int, default=None, help="fixed budget per decision (deterministic)"
    )
    parser.add_argument(
        "--exploration", type=float, default=0.7, help="UCB1 exploration constant C (default 0.7)"
    )
    parser.add_argument(
        "--playout", choices=("random", "greedy"), default="random", help="play-out policy"
    )
    parser.add_argument(
        "--guide",
        choices=("none", "greedy"),
        default="none",
        help="greedy: the greedy bot's choice is tried first at the root and kept on ties",
    )
    parser.add_argument(
        "--depth",
        type=int,
        default=-1,
        help="play-out length cap in actions; the game is then scored as it stands "
        "(default -1: play to the end)",
    )
    parser.add_argument(
        "--time-share",
        type=float,
        default=0.5,
        help="share of time_ms spent per decision when no --iterations (default 0.5)",
    )
    parser.add_argument("--name", default="ismcts", help="the name sent in ready")
    args = parser.parse_args(argv)
    choose = make_choose(
        args.iterations, args.exploration, args.playout, args.depth, args.time_share, args.guide
    )
    run(choose, name=args.name, version="2", on_end=report)


if __name__ == "__main__":
    main()
