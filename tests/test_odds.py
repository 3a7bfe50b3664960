"""``paiute odds``: exact first-draw counts, Monte Carlo, and their cross-check (R3, R5)."""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter

import pytest

from paiute.analysis.odds import (
    WILD_OPTIONS,
    _count_setting,
    _settings,
    category_order,
    exact_first_draw,
    holding_categories,
    monte_carlo_first_draw,
    monte_carlo_turns,
    rules_with_wild_option,
    wilson,
)
from paiute.cards import CARDS, Card, parse_cards
from paiute.cli.main import main
from paiute.combos import Category
from paiute.rules import RuleSet

# -- an independent oracle: name the wild cards every possible way (R3.4) ---------------------

_LOW_WINDOWS = [{12, 0, 1, 2, 3}] + [set(range(top - 4, top + 1)) for top in range(4, 12)]  # 5-high .. K-high
_ROYAL = {8, 9, 10, 11, 12}


def _classify(cards: list[tuple[int, int]]) -> set[Category]:
    """The combinations six named cards (rank index, suit; repeats allowed) make."""
    pattern = sorted(Counter(rank for rank, _ in cards).values(), reverse=True)
    found = set()
    if pattern[0] >= 5:
        found.add(Category.FIVE_OF_A_KIND)
    if pattern == [4, 2]:
        found.add(Category.FOUR_TWO)
    if pattern == [3, 3]:
        found.add(Category.THREE_THREE)
    if pattern == [2, 2, 2]:
        found.add(Category.PAIUTE)
    for suit in range(4):
        ranks = {rank for rank, s in cards if s == suit}
        if ranks >= _ROYAL:
            found.add(Category.ROYAL_FLUSH)
        if any(window <= ranks for window in _LOW_WINDOWS):
            found.add(Category.STRAIGHT_FLUSH)
    return found


def _oracle(held: list[Card], wild_cards: frozenset[Card]) -> set[Category]:
    naturals = [(card // 4, card % 4) for card in held if card not in wild_cards]
    found: set[Category] = set()
    for names in itertools.combinations_with_replacement(range(52), len(held) - len(naturals)):
        found |= _classify(naturals + [(name // 4, name % 4) for name in names])
    return found


def test_r3_4_holding_categories_worked_examples() -> None:
    threes = frozenset(parse_cards("3c 3d 3h 3s"))
    assert holding_categories(parse_cards("3h 3s Ad Ac Ks Kh"), threes) == {
        Category.FOUR_TWO,
        Category.THREE_THREE,
        Category.PAIUTE,
    }
    assert Category.FIVE_OF_A_KIND in holding_categories(parse_cards("3c 3d 3h 3s 7d 2c"), threes)
    assert Category.STRAIGHT_FLUSH in holding_categories(parse_cards("9h Th Jh Qh 3c 2s"), threes)
    assert Category.ROYAL_FLUSH not in holding_categories(parse_cards("9h Th Jh Qh 3c 2s"), threes)
    nines = frozenset(parse_cards("9c 9d 9h 9s"))
    assert holding_categories(parse_cards("Ah 2h 3d 4h 5h Kc"), nines) == set()
    assert holding_categories(parse_cards("Ah 2h 3d 4h 5h 9c"), nines) == {Category.STRAIGHT_FLUSH}


def test_r5_10_holding_categories_agree_with_naming_the_wilds() -> None:
    """Every category the counting primitive finds is one some naming of the wilds makes."""
    rng = random.Random(11)
    checked = Counter[int]()
    budget = {0: 150, 1: 150, 2: 60, 3: 3}
    for wild in WILD_OPTIONS:
        rules = rules_with_wild_option(wild)
        for _ in range(400):
            upcard = None if rules.jokers else CARDS[rng.randrange(52)]
            wild_cards = rules.wild_cards(upcard)
            wilds = sorted(card for card in wild_cards if card != upcard)
            count = rng.choice([0, 1, 1, 2, 2, 3])
            if count > len(wilds) or checked[count] >= budget[count]:
                continue
            # Naturals from few ranks and suits, so that combinations are common.
            low = rng.randrange(9)
            pool = [
                card
                for card in CARDS[:52]
                if low <= card // 4 < low + 6 and card % 4 < 2 and card not in wild_cards and card != upcard
            ]
            held = rng.sample(wilds, count) + rng.sample(pool, 6 - count)
            assert set(holding_categories(held, wild_cards)) == _oracle(held, wild_cards), held
            checked[count] += 1
    assert min(checked.values()) >= 3


# -- exact counts -----------------------------------------------------------------------------


def test_exact_counts_add_up_to_every_holding() -> None:
    for wild in WILD_OPTIONS:
        odds = exact_first_draw(wild)
        unseen = 54 if wild == "jokers" else 51
        assert odds.holdings == math.comb(unseen, 6)
        assert odds.wild_left == {"any": 3, "opposite": 2, "jokers": 2}[wild]
        total = odds.holdings * odds.settings
        assert odds.any.total == total
        assert sum(p.count for p in odds.best.values()) == odds.any.count
        for category in Category:
            assert odds.best[category].count <= odds.available[category].count <= odds.any.count
        # The best five-card call is available whenever it is best; Five of a Kind is never beaten.
        assert odds.best[Category.FIVE_OF_A_KIND].count == odds.available[Category.FIVE_OF_A_KIND].count


# Counts of the best call over all C(51,6) = 18,009,460 holdings of one situation, found by
# evaluating every holding with paiute.batch.BatchEvaluator (R5 order, royal_high off).
_ENUMERATED = {
    ("any", 1): (11172, 9504, 39152, 17424, 1056, 525516),  # upcard 3c: 3d 3h 3s wild
    ("any", 12): (11172, 3580, 45936, 17424, 1056, 525760),  # upcard Ac: Ad Ah As wild
    ("opposite", 12): (3252, 1744, 21178, 9504, 1056, 306936),  # upcard Ac: Ad Ah wild, As natural
}


@pytest.mark.parametrize(("wild", "index"), sorted(_ENUMERATED))
def test_exact_counts_match_full_enumeration(wild: str, index: int) -> None:
    setting = _settings(wild)[index]
    order = category_order()
    by_bits, total = _count_setting(setting)
    best = Counter[Category]()
    for bits, count in by_bits.items():
        for category in order:
            if bits & (1 << list(Category).index(category)):
                best[category] += count
                break
    expected = dict(zip(order, _ENUMERATED[wild, index], strict=True))
    assert total == 18_009_460
    assert {category: best[category] for category in order} == expected


@pytest.mark.slow
def test_exact_counts_match_batch_evaluator_on_every_holding() -> None:
    """Enumerate all 18,009,460 holdings of one situation (threes wild) with NumPy."""
    np = pytest.importorskip("numpy")
    from paiute.batch import BatchEvaluator

    setting = _settings("any")[1]
    unseen = np.array([int(card) for card in setting.unseen], dtype=np.uint8)
    evaluator = BatchEvaluator(setting.wild_cards)
    size = len(unseen)
    orders = Counter[int]()
    for first in range(size - 5):
        tail = np.arange(first + 1, size)
        chosen = np.fromiter(
            itertools.chain.from_iterable(itertools.combinations(range(len(tail)), 5)), dtype=np.int16
        ).reshape(-1, 5)
        rows = np.empty((len(chosen), 6), dtype=np.uint8)
        rows[:, 0] = unseen[first]
        rows[:, 1:] = unseen[tail[chosen]]
        values, counts = np.unique(evaluator.best_codes(rows) >> 12, return_counts=True)
        orders.update(dict(zip(values.tolist(), counts.tolist(), strict=True)))
    order = category_order()
    assert [orders[category.order()] for category in order] == list(_ENUMERATED["any", 1])
    assert sum(orders.values()) == 18_009_460


def test_r5_8_royal_high_moves_only_the_best_royal() -> None:
    low, high = exact_first_draw("jokers"), exact_first_draw("jokers", royal_high=True)
    assert category_order(True)[0] is Category.ROYAL_FLUSH
    assert high.any.count == low.any.count
    assert high.available == low.available
    assert high.best[Category.ROYAL_FLUSH].count >= low.best[Category.ROYAL_FLUSH].count
    assert high.best[Category.FIVE_OF_A_KIND].count <= low.best[Category.FIVE_OF_A_KIND].count


# -- the cross-check --------------------------------------------------------------------------


@pytest.mark.parametrize("wild", WILD_OPTIONS)
def test_exact_and_monte_carlo_first_draw_agree(wild: str) -> None:
    """Exact counts against a seeded Monte Carlo that judges the best call with the evaluator
    and picks the upcard of any suit: every figure inside the 99.9% Wilson interval, and at
    most 2 of the 13 outside the 95% interval."""
    exact = exact_first_draw(wild)
    sampled = monte_carlo_first_draw(wild, samples=25_000, seed=2024)
    pairs = [(exact.any, sampled.any)]
    pairs += [(exact.available[c], sampled.available[c]) for c in Category]
    pairs += [(exact.best[c], sampled.best[c]) for c in Category]
    outside95 = 0
    for true, estimate in pairs:
        assert true.exact
        assert not estimate.exact
        low, high = wilson(estimate.count, estimate.total, z=3.2905)
        assert low <= true.value <= high, (wild, true.value, estimate.value)
        low95, high95 = estimate.interval
        outside95 += not low95 <= true.value <= high95
    assert outside95 <= 2  # of 13 figures; about 0.65 expected


def test_first_turn_of_the_turns_simulation_matches_the_exact_first_draw() -> None:
    exact = exact_first_draw("any")
    turns = monte_carlo_turns("any", players=4, turns=3, samples=4000, seed=5)
    low, high = wilson(turns.within[0].count, turns.samples, z=3.2905)
    assert low <= exact.any.value <= high


def test_turns_odds_are_cumulative_and_the_player_count_acts_through_the_stock() -> None:
    two = monte_carlo_turns("opposite", players=2, turns=6, samples=600, seed=1)
    eight = monte_carlo_turns("opposite", players=8, turns=6, samples=600, seed=1)
    for odds in (two, eight):
        values = [p.value for p in odds.within]
        assert values == sorted(values)
        assert all(0 <= v <= 1 for v in values)
        assert odds.within[-1].count + odds.dead.count <= odds.samples
        assert sum(p.count for p in odds.completed_with.values()) == odds.within[-1].count
    assert not two.paiute_any_turn
    assert eight.paiute_any_turn  # R2.1: six or more players
    assert eight.dead.count > 0  # R4.7: 11 cards of stock for 8 players
    assert two.dead.count == 0


def test_wilson_interval() -> None:
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == 1.0
    low, high = wilson(30, 100)
    assert low < 0.3 < high
    assert rules_with_wild_option("jokers").jokers
    assert rules_with_wild_option("opposite").wild_colour == "opposite"
    assert RuleSet().wild_colour == "any"


# -- the command ------------------------------------------------------------------------------


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_odds_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(
        capsys,
        "odds",
        "--wild",
        "any,jokers",
        "--players",
        "2,6",
        "--turns",
        "2",
        "--samples",
        "300",
        "--json",
    )
    assert status == 0
    data = json.loads(out)
    assert data["command"] == "odds"
    assert data["wild"] == ["any", "jokers"]
    assert data["players"] == [2, 6]
    assert [entry["method"] for entry in data["first_draw"]] == ["exact", "exact"]
    first = data["first_draw"][0]
    assert first["holdings"] == 18_009_460
    assert first["upcard_ranks"] == 13
    assert set(first["available"]) == {c.value for c in Category}
    numerator, denominator = map(int, first["any"]["fraction"].split("/"))
    assert abs(numerator / denominator - first["any"]["p"]) < 1e-12
    assert "player count does not change" in data["first_draw_note"]
    assert [(entry["wild"], entry["players"]) for entry in data["within_turns"]] == [
        ("any", 2),
        ("any", 6),
        ("jokers", 2),
        ("jokers", 6),
    ]
    turn = data["within_turns"][0]["within"][0]
    assert turn["turn"] == 1
    assert turn["samples"] == 300
    assert len(turn["ci95"]) == 2


def test_odds_command_monte_carlo_text(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(
        capsys, "odds", "--wild", "opposite", "--monte-carlo", "--samples", "2000", "--turns", "2"
    )
    assert status == 0
    assert "Monte Carlo: 2,000 samples" in out
    assert "player count does not change" in out
    assert "any call" in out
    assert "Paiute" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--wild", "purple"], "unknown wild option 'purple'"),
        (["--players", "9"], "R2.1 9 players"),
        (["--players", "x"], "'x' is not a number"),
        (["--samples", "0"], "--samples"),
    ],
)
def test_odds_command_errors(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    status, out, err = _run(capsys, "odds", *argv)
    assert status == 2
    assert out == ""
    assert message in err
    assert "Traceback" not in err
