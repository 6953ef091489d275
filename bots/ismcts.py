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
   parent was visited) in place of the parent's visits, as the paper prescribes; at the
   root, ``--prior W`` adds the progressive bias ``W / (visits + 1)`` to the guide's pick
   (Chaslot et al., "Progressive strategies for Monte-Carlo tree search", New Mathematics
   and Natural Computation 4(3), 2008);
3. *expands* one untried legal action (at random), unless the tree already has
   ``--tree-depth`` levels below the root (1: flat Monte Carlo over the root actions), then
   *plays out*: uniformly random actions (``--playout random``, the default) or the engine's
   greedy bot for every seat (``--playout greedy``; with ``--epsilon E`` a random action
   instead with probability E at each step), to the end of the game or for at most
   ``--depth`` actions;
4. *backs up* the utility of the state reached for each seat: the rank-based
   :func:`engines.base.utility` (0 to 1 for every seat count, solo included) of a finished
   game or of a cut one scored as it stands; with ``--margin S`` a cut play-out at two or
   more seats is scored instead by :func:`margin_utility`, a logistic of the score margins
   at scale S (the rank-based value as S goes to 0). Each node adds the utility of the seat
   that chose its action, so every seat is assumed to play for itself (max^n).

Children are keyed by :func:`engines.base.action_key`, so the same action in different
determinizations meets the same statistics. The move played is the root child with the
most visits (ties: the higher mean, then the earlier legal index). With ``--guide
greedy`` the engine's greedy bot's own choice is expanded first at the root, wins ties of
visits and is played when the clock left no iteration at all, so with very few iterations
the bot plays like the greedy bot and departs from it only when search finds a
better-visited action (with ``--playout greedy`` too: a rollout algorithm over the greedy
policy, Tesauro and Galperin, "On-line policy improvement using Monte-Carlo search", NIPS
1996). With ``--confidence Z`` as well, the most visited action replaces the guide's pick
only if its mean utility beats the guide's by more than Z standard errors of the
difference: a few noisy play-outs no longer pull the bot off a good base policy.

``--paired`` (with ``--guide greedy``) replaces the tree by paired comparisons at the root:
each sampled world is played twice, after the guide's pick and after one challenger (an
untried action first, then UCB1 on the mean gain), and both copies meet the same future
chance (a clone draws the state's chance stream from the same point) and the same
play-out random stream. The challenger's node sums the gain, its utility minus the
guide's; the most visited challenger is played if its mean gain exceeds ``--confidence``
standard errors of the gains (from at least two comparisons), else the guide's pick.
Common random numbers remove from each difference the luck both copies share (Glasserman
and Yao, "Some guidelines and guarantees for common random numbers", Management Science
38(6), 1992), so fewer play-outs tell two actions apart.

Time: each decision spends at most ``--time-share`` (default 0.75) of the ``time_ms`` the
referee grants, and never more than ``time_ms`` less 30 ms (:data:`RESERVE_S`), counted
from the moment the bot has the ``act`` message: an iteration starts only if one more of
the mean length so far ends within that budget, and the rest of ``time_ms`` is left for the
pipe, the parsing on both sides, a slow iteration and a busy machine; the bank is never
planned for. The engine, its sampling and the greedy bot (when a flag needs it) are loaded
and tried once when ``hello`` comes, so the start-up limit pays for them, not the first
decision's clock. A decision with one legal action answers at once. ``--iterations N``
replaces the clock by a fixed budget of N iterations: then every choice depends only on
the observations and the ``start`` seed, so games replay exactly. After each game one line
on stderr gives the searched decisions, iterations and milliseconds per search.

Run it as ``python -m bots.ismcts [--iterations N] [--exploration C] [--playout P]
[--epsilon E] [--depth D] [--margin S] [--tree-depth L] [--guide G] [--prior W]
[--confidence Z] [--paired] [--time-share F] [--name NAME]``. It knows no game: everything comes
from the engine named in ``hello`` and its contract (and, for the greedy play-outs and
guide, the greedy bot the engine declares in its ``greedy`` part). A flag not given takes
the engine's best-known setting (:data:`BEST`, the flags of its league file
``configs/ismcts-<engine>.toml``), else the plain default the flag's help names. Flags
given always win; ``--prior``, ``--confidence`` and ``--paired`` need ``--guide greedy``
given with them, ``--epsilon`` needs ``--playout greedy``.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import engines
from arena.sdk import GameInfo, run
from engines.base import (
    Action,
    ActionKey,
    CannotSample,
    Engine,
    EngineError,
    OptionError,
    Result,
    State,
    action_key,
    utility,
)

Playout = Callable[[State, random.Random, int], None]
Choose = Callable[[dict[str, Any], list[Action], GameInfo], "int | Action"]


class Node:
    """One tree node: the statistics of the action that leads to it."""

    __slots__ = ("available", "children", "seat", "squares", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # who chose the action leading here (whose utility is summed)
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.squares = 0.0  # the sum of the squared utilities (for --confidence)
        self.children: dict[ActionKey, Node] = {}

    def spread(self) -> float:
        """The squared standard error of this node's mean utility (visits >= 2)."""
        n = self.visits
        mean = self.total / n
        return max(0.0, self.squares / n - mean * mean) / (n - 1)


def random_playout(state: State, rng: random.Random, steps: int) -> None:
    """Uniformly random legal actions until the game ends or ``steps`` were played."""
    while steps and state.to_move() is not None:
        state.apply_index(rng.randrange(len(state.legal_actions())))
        steps -= 1


def load_greedy(engine: Engine) -> Choose:
    """The ``choose`` function of the greedy bot the engine declares (its ``greedy`` part);
    an engine without one is an :class:`~engines.base.EngineError` saying so."""
    module = engines.parts_of(engine.name).module("greedy")
    if module is None:
        raise EngineError(
            f"engine {engine.name} declares no greedy bot: --playout greedy and --guide greedy "
            "cannot be used with it"
        )
    choose: Choose = module.choose
    return choose


def greedy_playout(
    choose: Choose, engine: Engine, options: dict[str, Any], players: int, epsilon: float = 0.0
) -> Playout:
    """Play-outs where every seat plays ``choose`` (the engine's greedy bot), or with
    probability ``epsilon`` a uniformly random action instead (epsilon-greedy)."""

    def playout(state: State, rng: random.Random, steps: int) -> None:
        info = GameInfo(engine.name, options, "playout", 0, players, 0, rng)
        while steps and (seat := state.to_move()) is not None:
            legal = state.legal_actions()
            if epsilon and rng.random() < epsilon:
                state.apply_index(rng.randrange(len(legal)))
            else:
                info.seat = seat
                choice = choose(state.observation(seat), legal, info)
                if isinstance(choice, int):
                    state.apply_index(choice)
                else:
                    state.apply(choice)
            steps -= 1

    return playout


def margin_utility(result: Result, seat: int, scale: float) -> float:
    """A play-out cut before the end, scored by its score margins: the mean over the other
    seats of a logistic of (own score - their score) / ``scale``; 0.5 on a tie, and the
    rank-based :func:`~engines.base.utility` as ``scale`` goes to 0."""
    scores = result.scores
    own = scores[seat]
    total = 0.0
    for other, theirs in enumerate(scores):
        if other != seat:
            total += 1.0 / (1.0 + math.exp(max(-60.0, min(60.0, (theirs - own) / scale))))
    return total / (len(scores) - 1)


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
        prior: float = 0.0,
        margin: float = 0.0,
        tree_depth: int = -1,
        confidence: float = 0.0,
        paired: bool = False,
    ) -> None:
        self.engine = engine
        self.game = game
        self.exploration = exploration
        self.playout = playout
        self.depth = depth
        self.first: ActionKey | None = None  # the root action tried first, kept on ties
        self.first_index = first
        self.prior = prior  # progressive bias toward ``first`` at the root
        self.margin = margin  # > 0: cut play-outs scored by score margins at this scale
        self.tree_depth = tree_depth  # levels of the tree below the root (-1: no limit)
        self.confidence = confidence  # > 0: leave the guide's pick only on this evidence
        self.paired = paired and first is not None  # paired comparisons with the guide's pick
        self.iterations = 0
        self.root = Node(game.seat)
        self.root_keys: list[ActionKey] = []  # the keys of the legal list being searched

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
        root = self.root = Node(game.seat)
        self.root_keys = [action_key(action) for action in legal]
        if self.first_index is not None:
            self.first = self.root_keys[self.first_index]
        done = 0
        started = now = time.monotonic()
        # on the clock, an iteration starts only if one more of the mean length ends in time
        while (
            done < iterations
            if iterations is not None
            else now + ((now - started) / done if done else 0.0) < deadline
        ):
            state = self.engine.sample_state(
                game.players, game.options, game.seat, observations, rng
            )
            if self.paired:
                self.iterate_paired(root, state, rng)
            else:
                self.iterate(root, state, rng)
            done += 1
            if iterations is None:
                now = time.monotonic()
        self.iterations = done
        if self.paired:
            return self.paired_pick(root)
        best_index = self.first_index or 0  # no iteration done: the guide's pick, or the first
        best = (0, False, -1.0)
        for index, key in enumerate(self.root_keys):
            child = root.children.get(key)
            if child is not None and child.visits:
                value = (child.visits, key == self.first, child.total / child.visits)
                if value > best:
                    best_index, best = index, value
        if self.confidence and self.first is not None and best_index != self.first_index:
            best_index = self.keep_guide(root, self.root_keys[best_index], best_index)
        return best_index

    def keep_guide(self, root: Node, key: ActionKey, index: int) -> int:
        """With ``--confidence Z``: the guide's pick unless ``key``'s mean beats it by more
        than Z standard errors of the difference (each from at least two visits)."""
        guide = root.children.get(self.first) if self.first is not None else None
        chosen = root.children[key]
        fallback = self.first_index if self.first_index is not None else index
        if guide is None or guide.visits < 2 or chosen.visits < 2:
            return fallback
        gain = chosen.total / chosen.visits - guide.total / guide.visits
        if gain > self.confidence * math.sqrt(chosen.spread() + guide.spread()):
            return index
        return fallback

    def iterate(self, root: Node, state: State, rng: random.Random) -> None:
        path = [root]
        node = root
        levels = self.tree_depth
        while (seat := state.to_move()) is not None and (levels < 0 or len(path) <= levels):
            # at the root the sample's legal list equals ``legal`` (the sample_state contract)
            keys = (
                self.root_keys
                if node is root
                else [action_key(action) for action in state.legal_actions()]
            )
            untried = [i for i, key in enumerate(keys) if key not in node.children]
            if untried:
                index = untried[rng.randrange(len(untried))]
                if node is root and self.first in keys and self.first not in node.children:
                    index = keys.index(self.first)
                child = node.children[keys[index]] = Node(seat)
                for key in keys:
                    if key in node.children:
                        node.children[key].available += 1
                state.apply_index(index)
                path.append(child)
                break
            index = self.select(node, keys)
            node = node.children[keys[index]]
            state.apply_index(index)
            path.append(node)
        if state.to_move() is not None:
            self.playout(state, rng, self.depth)
        result = state.result()
        cut = state.to_move() is not None
        values: dict[int, float] = {}
        for visited in path:
            visited.visits += 1
            if visited is not root:
                seat = visited.seat
                if seat not in values:
                    values[seat] = self.worth(result, seat, cut)
                value = values[seat]
                visited.total += value
                visited.squares += value * value

    def worth(self, result: Result, seat: int, cut: bool) -> float:
        """The utility of ``result`` for ``seat``: by score margins (``--margin``) when the
        play-out was ``cut`` before the end at two or more seats, else by ranks."""
        if cut and self.margin > 0 and len(result.scores) > 1:
            return margin_utility(result, seat, self.margin)
        return utility(result, seat)

    def iterate_paired(self, root: Node, state: State, rng: random.Random) -> None:
        """With ``--paired``: the sampled world is played twice from the root, after the
        guide's pick and after a challenger (an untried action first, then UCB1 on the mean
        gain), with the same future chance (a clone draws the state's chance stream from
        the same point) and the same play-out random stream (common random numbers); the
        challenger's node sums the gain, its utility minus the guide's, for the bot's seat."""
        children = root.children
        keys = self.root_keys
        untried = [i for i, key in enumerate(keys) if key != self.first and key not in children]
        if untried:
            index = untried[rng.randrange(len(untried))]
            child = children[keys[index]] = Node(root.seat)
        elif children:
            index = self.select_gain(root)
            child = children[keys[index]]
        else:
            return  # the guide's pick is the only distinct action
        seed = rng.getrandbits(64)
        twin = state.clone()
        gain = 0.0
        for world, chosen, sign in ((twin, index, 1.0), (state, self.first_index, -1.0)):
            assert chosen is not None
            world.apply_index(chosen)
            if world.to_move() is not None:
                self.playout(world, random.Random(seed), self.depth)
            gain += sign * self.worth(world.result(), root.seat, world.to_move() is not None)
        root.visits += 1
        child.visits += 1
        child.total += gain
        child.squares += gain * gain

    def select_gain(self, root: Node) -> int:
        """UCB1 over the challengers (every one tried) on their mean gain over the guide."""
        best_index, best = 0, -math.inf
        c = self.exploration
        log_visits = math.log(root.visits)
        children = root.children
        for index, key in enumerate(self.root_keys):
            child = children.get(key)
            if child is None:
                continue  # the guide's pick
            visits = child.visits
            score = child.total / visits + c * math.sqrt(log_visits / visits)
            if score > best:
                best_index, best = index, score
        return best_index

    def paired_pick(self, root: Node) -> int:
        """With ``--paired``: the most visited challenger (ties: the higher mean gain) if its
        mean gain over the guide's pick exceeds ``--confidence`` standard errors (from at
        least two comparisons; with Z = 0: a positive mean), else the guide's pick."""
        guide = self.first_index
        assert guide is not None
        best_index, best = guide, (0, -math.inf)
        for index, key in enumerate(self.root_keys):
            child = root.children.get(key)
            if child is not None and child.visits:
                value = (child.visits, child.total / child.visits)
                if value > best:
                    best_index, best = index, value
        if best_index == guide:
            return guide
        child = root.children[self.root_keys[best_index]]
        if child.visits < 2:
            return guide
        if child.total / child.visits > self.confidence * math.sqrt(child.spread()):
            return best_index
        return guide

    def select(self, node: Node, keys: list[ActionKey]) -> int:
        """UCB1 with availability counts over the children legal in this determinization,
        plus at the root a progressive bias ``prior / (visits + 1)`` for the guide's pick."""
        best_index, best = 0, -math.inf
        c = self.exploration
        children = node.children
        favoured = self.first if self.prior and node is self.root else None
        for index, key in enumerate(keys):
            child = children[key]
            child.available += 1
            visits = child.visits
            score = child.total / visits + c * math.sqrt(math.log(child.available) / visits)
            if key == favoured:
                score += self.prior / (visits + 1)
            if score > best:
                best_index, best = index, score
        return best_index


@dataclass(frozen=True)
class Settings:
    """The command-line flags of one bot process (see :func:`main`)."""

    iterations: int | None = None
    exploration: float = 0.7
    playout: str = "random"
    epsilon: float = 0.0
    depth: int = -1
    margin: float = 0.0
    guide: str = "none"
    prior: float = 0.0
    tree_depth: int = -1
    confidence: float = 0.0
    time_share: float = 0.75
    paired: bool = False

    def for_engine(self, engine: str) -> Settings:
        """These settings, for every engine."""
        return self


# per engine: the flags its league file plays (configs/ismcts-<engine>.toml), the best known
# (docs/bots.md); a flag not given on the command line takes its value from here
BEST: dict[str, dict[str, Any]] = {
    "cat-yard": {"playout": "greedy", "depth": 30, "margin": 2.0, "guide": "greedy",
                 "confidence": 1.0},
    "good-boy": {"playout": "greedy", "depth": 30, "margin": 3.0, "guide": "greedy",
                 "confidence": 1.0},
    "if-it-fits": {"playout": "random", "depth": 20, "margin": 3.0, "guide": "greedy",
                   "confidence": 1.0},
    "little-everdell": {"playout": "greedy", "depth": 40, "guide": "greedy", "confidence": 1.0},
    "space-five": {"playout": "random", "depth": 30, "guide": "greedy", "confidence": 1.0},
}  # fmt: skip

_WITH_GUIDE = ("prior", "confidence", "paired")  # settings that mean nothing without the guide


@dataclass(frozen=True)
class Flags:
    """The flags given on the command line; the others come from the engine named in
    ``hello`` (:data:`BEST`), else from :class:`Settings`' defaults."""

    given: Mapping[str, Any] = field(default_factory=dict)

    def for_engine(self, engine: str) -> Settings:
        """The settings for ``engine``: its best-known ones, the given flags over them."""
        chosen = {**BEST.get(engine, {}), **self.given}
        if chosen.get("guide") != "greedy":  # --guide none given: drop the guide's tuning
            for name in _WITH_GUIDE:
                chosen.pop(name, None)
        if chosen.get("playout") != "greedy":
            chosen.pop("epsilon", None)
        return Settings(**chosen)


Tuning = Settings | Flags  # fixed settings, or flags resolved per engine at hello


def make_search(
    settings: Settings, observation: dict[str, Any], legal: list[Action], game: GameInfo
) -> Search:
    """The search for one decision with these settings (the guide asked for its pick)."""
    engine = engines.get(game.engine)
    first = None
    playout: Playout = random_playout
    if settings.playout == "greedy":
        playout = greedy_playout(
            load_greedy(engine), engine, game.options, game.players, settings.epsilon
        )
    if settings.guide == "greedy":
        choice = load_greedy(engine)(observation, legal, game)
        first = choice if isinstance(choice, int) else legal.index(choice)
    return Search(
        engine,
        game,
        settings.exploration,
        playout,
        settings.depth,
        first,
        settings.prior,
        settings.margin,
        settings.tree_depth,
        settings.confidence,
        settings.paired,
    )


RESERVE_S = 0.030  # of time_ms never planned for: the pipe, the parsing, a slow iteration


def budget_s(settings: Settings, time_ms: int) -> float:
    """The seconds one decision may search: ``--time-share`` of ``time_ms``, leaving at
    least :data:`RESERVE_S` of it (none at all when ``time_ms`` is shorter than that)."""
    granted = time_ms / 1000
    return max(0.0, min(settings.time_share * granted, granted - RESERVE_S))


def prepare(tuning: Tuning) -> Callable[[str, dict[str, Any]], None]:
    """The SDK's ``on_hello``: load the engine (and the greedy bot, if a flag needs it) and
    sample one state from a deal's first observation, so that every module the search uses
    is imported before ``ready``."""

    def on_hello(engine_name: str, options: dict[str, Any]) -> None:
        engine = engines.get(engine_name)
        settings = tuning.for_engine(engine_name)
        if settings.playout == "greedy" or settings.guide == "greedy":
            load_greedy(engine)
        for players in sorted(range(engine.min_players, engine.max_players + 1), key=_from_two):
            try:  # the options may fit some table sizes only (a solo automa)
                resolved = engine.check(players, options)
            except OptionError:
                continue
            seen = [engine.new_game(players, 0, resolved).observation(0)]
            engine.sample_state(players, resolved, 0, seen, random.Random(0)).clone()
            return

    return on_hello


def _from_two(players: int) -> int:
    """Table sizes in the order the warm-up tries them: 2 first, the others after."""
    return abs(players - 2)


def make_choose(tuning: Tuning) -> Callable[[dict[str, Any], list[Action], GameInfo], int]:
    """The SDK's ``choose`` function for these settings (or flags, resolved per engine)."""

    def choose(observation: dict[str, Any], legal: list[Action], game: GameInfo) -> int:
        started = time.monotonic()
        settings = tuning.for_engine(game.engine)
        observations: list[dict[str, Any]] = game.memory.setdefault("observations", [])
        observations.append(observation)
        if len(legal) == 1:
            return 0
        search = make_search(settings, observation, legal, game)
        deadline = started + budget_s(settings, game.time_ms)
        index = search.choose(observations, legal, settings.iterations, deadline)
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


def parse(argv: list[str] | None = None) -> tuple[Flags, str]:
    """The flags given and the bot name from the command line (see the module doc)."""
    best = "; ".join(
        f"{engine}: " + " ".join(f"--{k.replace('_', '-')} {v}" for k, v in flags.items())
        for engine, flags in BEST.items()
    )
    parser = argparse.ArgumentParser(
        prog="python -m bots.ismcts",
        description=__doc__.split("\n")[0],
        epilog="A flag not given takes the engine's best-known setting where it has one "
        f"({best}), else the default its help names.",
        argument_default=argparse.SUPPRESS,  # only the flags given are in the namespace
    )
    parser.add_argument(
        "--iterations",
        type=int,
        help="fixed budget per decision, deterministic (default none: the clock and "
        "--time-share decide)",
    )
    parser.add_argument(
        "--exploration", type=float, help="UCB1 exploration constant C (default 0.7)"
    )
    parser.add_argument(
        "--playout",
        choices=("random", "greedy"),
        help="play-out policy (default random, or the engine's tuned value)",
    )
    parser.add_argument(
        "--guide",
        choices=("none", "greedy"),
        help="greedy: the greedy bot's choice is tried first at the root and kept on ties "
        "(default none: no guide, or the engine's tuned value)",
    )
    parser.add_argument(
        "--depth",
        type=int,
        help="play-out length cap in actions; the game is then scored as it stands "
        "(default -1: play to the end, or the engine's tuned value)",
    )
    parser.add_argument(
        "--epsilon",
        type=float,
        help="greedy play-outs: the chance of a random action instead at each step (default 0)",
    )
    parser.add_argument(
        "--margin",
        type=float,
        help="> 0: a play-out cut by --depth is scored by a logistic of its score margins at "
        "this scale instead of by its ranks (default 0: ranks, or the engine's tuned value)",
    )
    parser.add_argument(
        "--prior",
        type=float,
        help="with --guide greedy: progressive bias W/(visits+1) for the guide's pick at the "
        "root (default 0)",
    )
    parser.add_argument(
        "--tree-depth",
        type=int,
        help="levels of the tree below the root; deeper actions are play-out "
        "(default -1: no limit; 1: flat Monte Carlo over the root actions)",
    )
    parser.add_argument(
        "--confidence",
        type=float,
        help="with --guide greedy: play another action only if its mean beats the guide's "
        "by more than Z standard errors (default 0: the most visited action, or the engine's "
        "tuned value)",
    )
    parser.add_argument(
        "--paired",
        action="store_true",
        help="with --guide greedy: flat search that plays each sampled world after the "
        "guide's pick and after one challenger, on the same chance and play-out random "
        "stream, and compares them by the paired differences",
    )
    parser.add_argument(
        "--time-share",
        type=float,
        help="share of time_ms spent per decision when no --iterations (default 0.75)",
    )
    parser.add_argument("--name", default="ismcts", help="the name sent in ready (default ismcts)")
    given = vars(parser.parse_args(argv))
    name = given.pop("name")
    _check(parser, given)
    return Flags(given), name


def _check(parser: argparse.ArgumentParser, given: Mapping[str, Any]) -> None:
    """Flags out of range, or that mean nothing without another given with them: a usage
    error (status 2)."""
    plain = Settings()
    flags = Settings(**given)
    if flags.iterations is not None and flags.iterations < 1:
        parser.error(f"--iterations must be at least 1, got {flags.iterations}")
    if not 0 < flags.time_share <= 1:
        parser.error(f"--time-share must be above 0 and at most 1, got {flags.time_share}")
    if not 0 <= flags.epsilon <= 1:
        parser.error(f"--epsilon must be between 0 and 1, got {flags.epsilon}")
    for flag, value in (("--exploration", flags.exploration), ("--margin", flags.margin)):
        if value < 0:
            parser.error(f"{flag} must be at least 0, got {value}")
    if flags.guide != "greedy":
        needs = [
            f"--{name}" for name in _WITH_GUIDE if getattr(flags, name) != getattr(plain, name)
        ]
        if needs:
            parser.error(f"{', '.join(needs)} only work with --guide greedy given with them")
    if flags.epsilon and flags.playout != "greedy":
        parser.error("--epsilon only works with --playout greedy given with it")


def main(argv: list[str] | None = None) -> None:
    flags, name = parse(argv)
    try:
        choose, hello = make_choose(flags), prepare(flags)
        run(choose, name=name, version="3", on_end=report, on_hello=hello)
    except CannotSample as exc:  # e.g. an OpenSpiel game without resample_from_infostate
        print(f"ismcts: cannot search this game: {exc}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
