"""Cat Yard: seeded random play-outs, conservation, the dog statistics, leaks, replay, bot."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable

import pytest

from arena.game.local import play_local
from bots import random as random_bot
from bots.cat_yard_greedy import choose as greedy
from engines.base import State
from engines.cat_yard import CatYardEngine
from engines.cat_yard.rules import BAIT_IDS, CAT_IDS, CAT_POINTS, CatYardState, Phase
from engines.testing import check_contract, new_game, random_playout

ENGINE = CatYardEngine()  # its own type: the tests read the state's fields


VARIANTS = [{}, {"target": 15}]


def check_invariants(state: State) -> None:
    """Every bait card and cat tile is in exactly one place; scores are sums of cats."""
    assert isinstance(state, CatYardState)
    cards = [c for row in state.cushions for c in row if c]
    cards += state.deck + state.discard + state.revealed
    cards += [c for c in (state.pending_dog, state.drawn) if c]
    assert sorted(cards) == list(BAIT_IDS), "bait cards created or lost"
    owned = [c for cats in state.owned for c in cats]
    tiles = state.cat_stack + [c for c in state.yard if c] + state.cat_discard + owned
    assert sorted(tiles) == list(CAT_IDS), "cat tiles created or lost"
    assert all(len(row) == 4 for row in state.cushions), "a cushion has 4 fields"
    for seat, (_position, points, cats) in enumerate(state.observation(state.current)["players"]):
        assert points == sum(CAT_POINTS[c] for c, _ in cats)
        assert points == state.points(seat)
    legal = state.legal_actions()
    assert legal and len(legal) <= 300


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", VARIANTS, ids=["target10", "target15"])
def test_random_playouts_keep_invariants(players: int, options: dict[str, int]) -> None:
    ends: Counter[str] = Counter()
    for seed in range(100):
        state, _ = random_playout(ENGINE, players, seed, options, each_step=check_invariants)
        assert isinstance(state, CatYardState)
        check_invariants_at_end(state)
        ends[state.result().detail["end"]] += 1
    assert ends["target"] > 0


def check_invariants_at_end(state: CatYardState) -> None:
    assert state.to_move() is None and state.phase is Phase.OVER
    assert state.legal_actions() == []
    result = state.result()
    assert result.scores == [float(state.points(s)) for s in range(state.players)]
    top = max(result.scores)
    assert result.detail["winners"] == [s for s, x in enumerate(result.scores) if x == top]
    if result.detail["end"] == "target":
        assert top >= state.target


@pytest.mark.parametrize("players", [2, 3, 4])
def test_contract_long_variant(players: int) -> None:
    check_contract(ENGINE, players, {"target": 15})


def test_determinize_reshuffles_hidden_order_only() -> None:
    state = new_game(ENGINE, 4, 11, {})
    rng = random.Random(0)
    twins = [state.determinize(1, rng) for _ in range(5)]
    assert any(t.deck != state.deck for t in twins)
    assert any(t.cat_stack != state.cat_stack for t in twins)
    for twin in twins:
        assert sorted(twin.deck) == sorted(state.deck)
        assert sorted(twin.cat_stack) == sorted(state.cat_stack)
        assert CAT_POINTS[twin.cat_stack[-1]] == CAT_POINTS[state.cat_stack[-1]]
        assert twin.observation(1) == state.observation(1)
        assert twin.rng.getstate() != state.rng.getstate()


def test_seed_and_moves_replay() -> None:
    state, moves = random_playout(ENGINE, 3, 42, {"target": 15})
    replay = new_game(ENGINE, 3, 42, {"target": 15})
    for index in moves:
        replay.apply_index(index)
    assert replay.result() == state.result()
    assert replay.observation(0) == state.observation(0)


def test_options_and_player_counts_are_checked() -> None:
    from engines.base import OptionError

    with pytest.raises(OptionError):
        new_game(ENGINE, 2, 0, {"target": 0})
    with pytest.raises(OptionError):
        new_game(ENGINE, 2, 0, {"rounds": 3})
    with pytest.raises(OptionError):
        new_game(ENGINE, 5, 0, {})


# -- the dog statistics -----------------------------------------------------------------


def exact_run_distribution(bait: int, dogs: int) -> dict[int, float]:
    """P(a gather that never stops busts after exactly k bait cards), fresh deck.

    Leading dogs are discarded without effect (spec §4.5), so with j leading dogs the
    gather busts after k cards when the deck reads: j dogs, k bait cards, a dog.
    """
    n = bait + dogs
    dist: dict[int, float] = {}
    for j in range(dogs):
        for k in range(1, bait + 1):
            # falling factorials: ordered draws of j dogs, k bait, then one more dog
            num = math.perm(dogs, j) * math.perm(bait, k) * (dogs - j)
            dist[k] = dist.get(k, 0.0) + num / math.perm(n, j + k + 1)
    return dist


def test_dog_rate_matches_deck_composition() -> None:
    """Bust after k cards, over 6000 seeded fresh gathers (4 arrow cards dealt: 44 bait, 7
    dogs). Tolerance: each of k = 1..6 within 4 standard errors of the exact probability,
    and the mean run length within 4 standard errors."""
    games = 6000
    counts: Counter[int] = Counter()
    for seed in range(games):
        state = new_game(ENGINE, 4, 10_000 + seed, {})
        state.apply({"type": "gather"})
        revealed = 1
        while state.phase is Phase.GATHER_DECIDE:
            revealed = len(state.revealed)
            state.apply({"type": "reveal"})
        counts[revealed] += 1
    dist = exact_run_distribution(44, 7)
    assert abs(sum(dist.values()) - 1.0) < 0.01  # the rest: all 7 dogs lead the deck
    for k in range(1, 7):
        p = dist[k]
        observed = counts[k] / games
        assert abs(observed - p) <= 4 * math.sqrt(p * (1 - p) / games), (k, observed, p)
    mean = sum(k * p for k, p in dist.items())
    var = sum((k - mean) ** 2 * p for k, p in dist.items())
    observed_mean = sum(k * c for k, c in counts.items()) / games
    assert abs(observed_mean - mean) <= 4 * math.sqrt(var / games)
    # The hazard after k cards equals dogs left / cards left in the deck (7 / (51 - k)) when
    # no dog led the deck; check the first step from the composition directly.
    assert abs(dist[1] - sum(_lead(j) * (7 - j) / (50 - j) for j in range(7))) < 1e-9


def _lead(j: int) -> float:
    """P(exactly j leading dogs, then a bait card) in a 44 bait + 7 dog deck."""
    return math.perm(7, j) * 44 / math.perm(51, j + 1)


# -- the greedy bot ---------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_greedy_beats_random(players: int) -> None:
    wins = 0
    games = 0
    for block in range(12):
        for rotation in range(players):
            policies: list[Callable[..., int]] = [random_bot.choose] * players
            policies[rotation] = greedy
            result = play_local("cat-yard", policies, seed=500 + block)
            wins += result.ranks[rotation] == 1
            games += 1
    assert wins / games >= 0.8, f"greedy won {wins} of {games}"
