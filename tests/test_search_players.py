"""The search players ``mc`` and ``ismcts``: legal, repeatable, blind to hidden cards (R9),
within their budget, parallel on request, and stronger than random play."""

from __future__ import annotations

import pickle
import random
import time

import pytest

from helpers import make_deal
from paiute import Action, Deal, Match, RuleSet, SeededChance
from paiute.players import PlayerError, make_player, play_deal
from paiute.players.search import ISMCTSPlayer, MCPlayer, SearchStats

SEARCHERS = ["mc", "ismcts"]
PRESETS = ["pagat", "gamerules"]


def searcher(spec: str, seed: int | None = None) -> MCPlayer | ISMCTSPlayer:
    player = make_player(spec, seed=seed)
    assert isinstance(player, MCPlayer | ISMCTSPlayer)
    return player


def stats_of(player: MCPlayer | ISMCTSPlayer) -> SearchStats:
    assert player.last_search is not None
    return player.last_search


def positions(count: int, seed: int, *, players: int | None = None, preset: str | None = None) -> list[Deal]:
    """Mid-deal states of seeded random deals (some deep, past stock rebuilds, R4.6) at a
    seat's turn with more than one legal action."""
    rng = random.Random(seed)
    found: list[Deal] = []
    while len(found) < count:
        table = players if players is not None else rng.randint(2, 6)
        rules = RuleSet.from_preset(preset or rng.choice(PRESETS), max_players=8)
        deal = Deal.new(rules, table, rng.randrange(table), SeededChance(rng.getrandbits(32)))
        for _ in range(rng.choice([rng.randint(0, 30), rng.randint(0, 200)])):
            if deal.is_over:
                break
            deal.apply(rng.choice(deal.legal_actions()))
        if not deal.is_over and len(deal.legal_actions()) > 1:
            found.append(deal)
    return found


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_search_players_choose_legal_actions(preset: str, players: int) -> None:
    deals = positions(4, players * 10 + len(preset), players=players, preset=preset)
    for index, deal in enumerate(deals):
        observation = deal.observation(deal.current_seat)
        for name in SEARCHERS:
            player = make_player(f"{name}:iterations=30", seed=index)
            assert player.act(observation) in observation.legal_actions


@pytest.mark.parametrize("name", SEARCHERS)
def test_search_players_play_whole_deals(name: str) -> None:
    """Every seat searches, in both presets, through the end of the deal (R7.3)."""
    for preset in PRESETS:
        match = Match(RuleSet.from_preset(preset), 3, chance=SeededChance(7))
        players = [make_player(f"{name}:iterations=16", seed=seat) for seat in range(3)]
        deal = play_deal(match, players)
        assert deal.is_over
        assert sum(match.balances) + match.pot == 300  # R8.6


@pytest.mark.parametrize("name", SEARCHERS)
def test_r10_1_search_is_repeatable_under_a_seed(name: str) -> None:
    for index, deal in enumerate(positions(5, 21)):
        observation = deal.observation(deal.current_seat)
        player = searcher(f"{name}:iterations=60,seed={index}")
        first = player.act(observation)
        stats = stats_of(player)
        other = searcher(f"{name}:iterations=60", seed=index)
        assert other.act(observation) is first
        assert stats_of(other).root == stats.root
        # The decision is a function of the observation: asking again changes nothing.
        assert player.act(observation) is first
        assert stats_of(player).root == stats.root


@pytest.mark.parametrize("name", SEARCHERS)
def test_r9_search_depends_only_on_the_observation(name: str) -> None:
    """Re-deal every card the seat cannot see (R9.3): the same observation, the same action."""
    for index, deal in enumerate(positions(4, 31)):
        seat = deal.current_seat
        observation = deal.observation(seat)
        player = make_player(f"{name}:iterations=40,seed={index}")
        decision = player.act(observation)
        for redeal in range(3):
            other = deal.resample_hidden(seat, SeededChance(500 + redeal))
            assert other.observation(seat) == observation
            assert player.act(other.observation(seat)) is decision


@pytest.mark.parametrize("name", SEARCHERS)
def test_r5_1_search_takes_a_winning_call(name: str) -> None:
    """Wild threes (R3.1): 3c 3d 3h 7d 7c + 2c is Five of a Kind, sevens (R5.1), putting down
    2c (R6.2); the search calls it rather than discarding or calling the lower Four/Two.
    With an empty pot (a deal outside a match) it plays for the win instead of chips."""
    for pot in (0, 2):
        deal = make_deal(RuleSet(), 2, 0, {1: "3c 3d 3h 7d 7c"}, upcard="3s", stock="2c", pot=pot)
        deal.apply(Action.parse("draw stock"))
        observation = deal.observation(1)
        assert Action.parse("call 2c") in observation.legal_actions
        assert Action.parse("call") in observation.legal_actions  # R5.4: the Four/Two
        for seed in range(2):
            action = make_player(f"{name}:iterations=200,seed={seed}").act(observation)
            assert action == Action.parse("call 2c")


def test_r6_4_search_calls_in_the_last_round_to_beat_a_call() -> None:
    """Seat 0 has called a Paiute; seat 1 (the dealer) draws into Three/Three (R5.5): its
    last turn (R7.2) is its only chance to win, so it calls."""
    rules = RuleSet()
    deal = make_deal(
        rules, 2, 1, {0: "Jc Jd 7h 7s 4c", 1: "9c 9d 9h Kc Kd"}, upcard="2s", stock="4d Ks", pot=2
    )
    for text in ("draw stock", "call", "draw stock"):
        deal.apply(Action.parse(text))
    observation = deal.observation(1)
    assert Action.parse("call") in observation.legal_actions
    for name in SEARCHERS:
        assert make_player(f"{name}:iterations=100,seed=1").act(observation) == Action.parse("call")


@pytest.mark.parametrize("name", SEARCHERS)
def test_a_single_legal_action_is_returned_at_once(name: str) -> None:
    deal = Deal.new(RuleSet(), 3, 0, SeededChance(2))
    observation = deal.observation(deal.current_seat)
    assert len(observation.legal_actions) == 1  # pagat: the first player draws from the stock
    player = make_player(f"{name}:iterations=100000")
    started = time.perf_counter()
    assert player.act(observation) is observation.legal_actions[0]
    assert time.perf_counter() - started < 0.05
    assert getattr(player, "last_search", "missing") is None


@pytest.mark.parametrize("name", SEARCHERS)
def test_the_ms_budget_is_respected(name: str) -> None:
    """``ms=50``: every decision returns within the budget plus a margin for a busy machine."""
    player = searcher(f"{name}:ms=50", seed=4)
    slowest = 0.0
    iterations = 0
    for deal in positions(10, 41):
        observation = deal.observation(deal.current_seat)
        started = time.perf_counter()
        assert player.act(observation) in observation.legal_actions
        slowest = max(slowest, time.perf_counter() - started)
        assert stats_of(player).iterations >= 1
        iterations += stats_of(player).iterations
    print(f"{name} ms=50: slowest decision {slowest * 1000:.1f} ms, {iterations / 10:.0f} iterations each")
    # Without the budget the search would never stop (no iteration limit): any finite bound
    # catches that, and a generous one keeps a busy CI machine from failing the test.
    assert slowest < 0.050 + 1.0


@pytest.mark.parametrize("name", SEARCHERS)
def test_two_workers_are_repeatable_and_search_the_whole_budget(name: str) -> None:
    observations = [deal.observation(deal.current_seat) for deal in positions(3, 51)]
    runs = []
    for _ in range(2):
        with searcher(f"{name}:iterations=120,workers=2,seed=9") as player:
            decisions = []
            for observation in observations:
                action = player.act(observation)
                stats = stats_of(player)
                assert stats.workers == 2
                expected = 120 if name == "ismcts" else 120 // len(observation.legal_actions)
                assert stats.iterations == expected * (len(observation.legal_actions) if name == "mc" else 1)
                decisions.append((action, stats.root))
        runs.append(decisions)
    assert runs[0] == runs[1]
    # workers=2 under a time budget: both processes report, within the budget.
    with searcher(f"{name}:ms=60,workers=2,seed=9") as timed:
        for observation in observations:
            started = time.perf_counter()
            assert timed.act(observation) in observation.legal_actions
            assert time.perf_counter() - started < 0.060 + 0.100


def test_options_by_name_and_bad_options() -> None:
    player = searcher("ismcts:iterations=2000,exploration=1.2,ms=30,utility=win,rollout=random")
    assert isinstance(player, ISMCTSPlayer)
    assert (player.iterations, player.ms, player.workers) == (2000, 30.0, 1)
    assert searcher("mc").iterations == 500
    assert searcher("mc:ms=20").iterations is None
    with pytest.raises(PlayerError, match="utility"):
        make_player("ismcts:utility=fame")
    with pytest.raises(PlayerError, match="workers"):
        make_player("mc:workers=0")
    with pytest.raises(PlayerError, match="has no option 'exploration'"):
        make_player("mc:exploration=1")
    # A player travels (to a tournament's worker process) without its worker processes.
    copy = pickle.loads(pickle.dumps(make_player("ismcts:iterations=20,seed=3")))
    deal = positions(1, 61)[0]
    observation = deal.observation(deal.current_seat)
    assert copy.act(observation) is make_player("ismcts:iterations=20,seed=3").act(observation)


@pytest.mark.parametrize("utility", ["win"])
@pytest.mark.parametrize("rollout", ["random"])
def test_other_utilities_and_rollouts(utility: str, rollout: str) -> None:
    for index, deal in enumerate(positions(3, 71)):
        observation = deal.observation(deal.current_seat)
        for name in SEARCHERS:
            player = make_player(f"{name}:iterations=20,utility={utility},rollout={rollout}", seed=index)
            assert player.act(observation) in observation.legal_actions


def test_ismcts_wins_chips_from_random_players() -> None:
    """Two ismcts seats against two random seats over 16 deals (R8.2 pot)."""
    match = Match(RuleSet(), 4, chance=SeededChance(2024))
    players = [
        make_player("ismcts:iterations=20", seed=0),
        make_player("random", seed=1),
        make_player("ismcts:iterations=20", seed=2),
        make_player("random", seed=3),
    ]
    for _ in range(16):
        play_deal(match, players)
    balances = match.balances
    searched = balances[0] + balances[2] - 200
    randomly = balances[1] + balances[3] - 200
    print(f"ismcts seats {searched:+d} chips, random seats {randomly:+d} chips, pot {match.pot}")
    assert searched > randomly
