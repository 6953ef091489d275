"""OpenSpiel's own algorithms as an arena bot, for the ``openspiel:`` engines.

Run it as ``python -m bots.openspiel --algorithm mcts|random|cfr [flags]``; it is an
ordinary subprocess bot (the protocol through :mod:`arena.sdk`), deterministic from the
referee's ``start`` seed:

- ``random``: a uniformly random legal action.
- ``mcts``: OpenSpiel's MCTS bot (``pyspiel.MCTSBot``, UCT with random roll-outs,
  ``--simulations`` per decision, ``--uct-c``, ``--rollouts``) on the game rebuilt from
  the observations (``engine.sample_state``: in a game of perfect information the true
  state; otherwise one state drawn from what this seat knows, so determinized MCTS).
- ``cfr``: a tabular policy from OpenSpiel's counterfactual regret minimisation
  (``pyspiel.CFRSolver``): ``--policy FILE`` loads one that
  ``python -m bots.openspiel --algorithm cfr --engine NAME [--players N] --save FILE``
  solved and wrote beforehand (it then exits: no protocol); without ``--policy`` the bot
  solves ``--iterations`` of CFR before answering ``ready`` (small games only: Kuhn
  poker takes well under a second), and again for another table size when one comes.
  An action is drawn from the policy's probabilities at this seat's information state
  (the observation's ``information_state``). A policy file is JSON: ``{"game": ..., "players": ...,
  "policy": {information state: [[action id, probability], ...]}}``.

It needs OpenSpiel (``pip install 'tabletop-arena[openspiel]'``) and an ``openspiel:``
engine; otherwise it says so in one line on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import engines
from arena.sdk import GameInfo, run
from engines.base import EngineError

Action = dict[str, Any]
Policy = dict[str, list[tuple[int, float]]]  # information state -> (action id, probability)


@dataclass(frozen=True)
class Settings:
    """The command-line flags of one bot process (see :func:`parse`)."""

    algorithm: str = "random"
    simulations: int = 200
    uct_c: float = 2.0
    rollouts: int = 1
    iterations: int = 1000
    policy: Path | None = None


def load_engine(name: str) -> Any:
    """The ``openspiel:`` engine called ``name`` (an EngineError for any other)."""
    if not name.startswith("openspiel:"):
        raise EngineError(f"bots.openspiel plays openspiel: engines only, not {name!r}")
    try:
        return engines.get(name)
    except engines.UnknownEngine as exc:
        raise EngineError(str(exc)) from None


def solve(game: Any, iterations: int) -> Policy:
    """The average policy of ``iterations`` of OpenSpiel's CFR on ``game``."""
    import pyspiel

    solver = pyspiel.CFRSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    table = solver.tabular_average_policy().policy_table()
    return {key: [(int(a), float(p)) for a, p in pairs] for key, pairs in table.items()}


def save_policy(path: Path, engine: Any, players: int, policy: Policy) -> None:
    text = json.dumps({"game": engine.name, "players": players, "policy": policy}, indent=0)
    path.write_text(text + "\n", encoding="utf-8")


def load_policy(path: Path, engine: Any) -> tuple[int, Policy]:
    """The player count and policy saved in ``path`` (an EngineError if it is unreadable
    or for another game)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        game, players, table = data["game"], int(data["players"]), data["policy"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise EngineError(f"--policy {path}: not a policy file ({exc})") from None
    if game != engine.name:
        raise EngineError(f"--policy {path}: a policy for {game}, not {engine.name}")
    return players, {key: [(int(a), float(p)) for a, p in pairs] for key, pairs in table.items()}


class Player:
    """One bot process's algorithm: prepared at ``hello``, asked at every ``act``."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.policies: dict[int, Policy] = {}  # per player count (cfr)

    def on_hello(self, engine_name: str, options: dict[str, Any]) -> None:
        """Load the engine, and the policy (cfr): loaded from --policy or solved now."""
        engine = load_engine(engine_name)
        settings = self.settings
        players = min(max(2, engine.min_players), engine.max_players)
        if settings.algorithm == "mcts":  # a game it cannot sample is refused now, not mid-game
            state = engine.new_game(players, 0, engine.check(players, {}))
            seen = [state.observation(state.to_move())]
            engine.sample_state(players, {}, state.to_move(), seen, random.Random(0))
        if settings.algorithm != "cfr":
            return
        if settings.policy is not None:
            count, policy = load_policy(settings.policy, engine)
            self.policies[count] = policy
            return
        self.policies[players] = solve(engine.game(players), settings.iterations)

    def choose(self, observation: dict[str, Any], legal: list[Action], game: GameInfo) -> int:
        # every observation, forced moves' too: sample_state matches them one by one
        game.memory.setdefault("observations", []).append(observation)
        if len(legal) == 1:
            return 0
        algorithm = self.settings.algorithm
        if algorithm == "cfr":
            return self._cfr(observation, legal, game)
        if algorithm == "mcts":
            return self._mcts(observation, legal, game)
        return game.rng.randrange(len(legal))

    def _cfr(self, observation: dict[str, Any], legal: list[Action], game: GameInfo) -> int:
        policy = self.policies.get(game.players)
        if policy is None:  # another table size than the one prepared: solve it now
            engine = load_engine(game.engine)
            policy = self.policies[game.players] = solve(
                engine.game(game.players), self.settings.iterations
            )
        pairs = policy.get(observation.get("information_state", ""))
        if not pairs:
            game.note = "information state not in the policy: random"
            return game.rng.randrange(len(legal))
        where = {action["id"]: index for index, action in enumerate(legal)}
        options = [(where[a], p) for a, p in pairs if a in where and p > 0]
        draw = game.rng.random() * sum(p for _, p in options)
        for index, probability in options:
            draw -= probability
            if draw < 0:
                return index
        return options[-1][0]

    def _mcts(self, observation: dict[str, Any], legal: list[Action], game: GameInfo) -> int:
        import pyspiel

        engine = load_engine(game.engine)
        seen: list[dict[str, Any]] = game.memory["observations"]
        state = engine.sample_state(game.players, game.options, game.seat, seen, game.rng)
        settings = self.settings
        seed = game.rng.getrandbits(31)
        evaluator = pyspiel.RandomRolloutEvaluator(settings.rollouts, seed)
        bot = pyspiel.MCTSBot(
            state.game, evaluator, settings.uct_c, settings.simulations, 1000, False, seed, False
        )
        chosen = bot.step(state.spiel)
        return next(i for i, action in enumerate(legal) if action["id"] == chosen)


def parse(argv: list[str] | None = None) -> tuple[Settings, str, argparse.Namespace]:
    """The settings, the bot name and the parsed flags from the command line."""
    parser = argparse.ArgumentParser(
        prog="python -m bots.openspiel", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--algorithm", choices=("random", "mcts", "cfr"), default="random")
    parser.add_argument(
        "--simulations", type=int, default=200, help="mcts: simulations per decision"
    )
    parser.add_argument("--uct-c", type=float, default=2.0, help="mcts: UCT constant")
    parser.add_argument("--rollouts", type=int, default=1, help="mcts: random roll-outs per leaf")
    parser.add_argument(
        "--iterations", type=int, default=1000, help="cfr: CFR iterations when solving"
    )
    parser.add_argument("--policy", type=Path, help="cfr: a policy file to load (else solve)")
    parser.add_argument(
        "--save", type=Path, help="cfr: solve for --engine, write the policy here and exit"
    )
    parser.add_argument("--engine", help="with --save: the openspiel: engine to solve")
    parser.add_argument("--players", type=int, help="with --save: the table size (default 2)")
    parser.add_argument("--name", help="the name sent in ready (default openspiel-ALGORITHM)")
    args = parser.parse_args(argv)
    for flag in ("simulations", "rollouts", "iterations"):
        if getattr(args, flag) < 1:
            parser.error(f"--{flag} must be at least 1, got {getattr(args, flag)}")
    if args.algorithm != "cfr" and (args.policy or args.save):
        parser.error("--policy and --save only work with --algorithm cfr")
    if (args.save is None) != (args.engine is None) or (args.players and not args.save):
        parser.error("--save, --engine (and --players) go together: solve, write, exit")
    if args.save and args.policy:
        parser.error("--save solves a policy; --policy loads one: give one of them")
    settings = Settings(
        args.algorithm, args.simulations, args.uct_c, args.rollouts, args.iterations, args.policy
    )
    return settings, args.name or f"openspiel-{args.algorithm}", args


def solve_and_save(engine_name: str, players: int | None, iterations: int, path: Path) -> None:
    """``--save``: solve CFR for a table of ``players`` of the engine and write the policy."""
    engine = load_engine(engine_name)
    count = players or min(max(2, engine.min_players), engine.max_players)
    engine.check(count, {})  # an OptionError (an EngineError) names the allowed sizes
    policy = solve(engine.game(count), iterations)
    save_policy(path, engine, count, policy)
    print(f"{path}: {len(policy)} information states, {iterations} CFR iterations", flush=True)


def main(argv: list[str] | None = None) -> None:
    settings, name, args = parse(argv)
    player = Player(settings)
    try:
        if args.save is not None:
            solve_and_save(args.engine, args.players, settings.iterations, args.save)
            return
        run(player.choose, name=name, version="1", on_hello=player.on_hello)
    except EngineError as exc:
        print(f"bots.openspiel: {exc}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
