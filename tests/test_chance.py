"""Chance, injected (R2.3, R2.4, R4.6, R10.1): seeded, secure and recorded sources."""

from __future__ import annotations

import hashlib
import itertools
import random
from collections import Counter
from typing import Any

import pytest

from helpers import choose, make_deck, random_deal, run_stock_down
from paiute import (
    Action,
    Deal,
    RecordedChance,
    RecordError,
    RuleSet,
    SecureChance,
    SeededChance,
    pack,
    parse_cards,
)
from paiute.chance import derive_seed


def shuffled(chance: object, values: list) -> list:  # type: ignore[type-arg]
    values = list(values)
    chance.shuffle(values)  # type: ignore[attr-defined]
    return values


# -- R10.1: seeded for simulations, secure for real players ---------------------------------


def test_r10_1_seeded_chance_is_reproducible() -> None:
    a, b = SeededChance(7), SeededChance(7)
    for _ in range(5):
        assert shuffled(a, pack()) == shuffled(b, pack())
        assert a.below(52) == b.below(52)
    assert shuffled(SeededChance(7), pack()) != shuffled(SeededChance(8), pack())


def test_r10_1_same_seed_and_actions_give_the_same_deal() -> None:
    def run(seed: int) -> tuple[object, ...]:
        deal, rng = random_deal(seed)
        while not deal.is_over:
            deal.apply(choose(rng, deal.legal_actions(), 0.5))
        return deal.deck, deal.rebuild_orders, deal.events, deal.outcome

    for seed in (1, 2, 3):
        assert run(seed) == run(seed)
    assert run(1) != run(2)


def test_r10_1_new_deal_from_a_seed() -> None:
    rules = RuleSet()
    first = Deal.new(rules, 4, 0, SeededChance(42))
    again = Deal.new(rules, 4, 0, SeededChance(42))
    other = Deal.new(rules, 4, 0, SeededChance(43))
    assert first.deck == again.deck
    assert first.deck != other.deck
    assert sorted(first.deck) == pack()


def test_r10_1_secure_chance_shuffles_and_cuts() -> None:
    chance = SecureChance()
    results = {tuple(shuffled(chance, pack())) for _ in range(5)}
    assert len(results) == 5
    assert all(sorted(result) == pack() for result in results)
    cuts = [chance.below(4) for _ in range(400)]
    assert set(cuts) == {0, 1, 2, 3}
    assert all(0 <= chance.below(1) < 1 for _ in range(10))


@pytest.mark.parametrize("make", [lambda: SeededChance(5), SecureChance], ids=["seeded", "secure"])
def test_r10_2_shuffles_look_uniform(make) -> None:  # type: ignore[no-untyped-def]
    """Every order of four cards comes up about equally often (a loose chi-square bound)."""
    chance = make()
    trials = 4800
    counts = Counter(tuple(shuffled(chance, [0, 1, 2, 3])) for _ in range(trials))
    assert set(counts) == set(itertools.permutations(range(4)))
    expected = trials / 24
    chi2 = sum((count - expected) ** 2 / expected for count in counts.values())
    assert chi2 < 70  # 23 degrees of freedom: p < 1e-6 above this
    cuts = Counter(chance.below(5) for _ in range(5000))
    assert all(800 < cuts[i] < 1200 for i in range(5))


def test_r2_4_deal_new_uses_only_the_chance_given() -> None:
    state = random.getstate()
    random.seed(0)
    a = Deal.new(RuleSet(), 3, 0, SeededChance(9))
    random.seed(1)
    b = Deal.new(RuleSet(), 3, 0, SeededChance(9))
    random.setstate(state)
    assert a.deck == b.deck  # the global generator plays no part


# -- R4.6: rebuilds come from the deal's chance ---------------------------------------------


def test_r4_6_rebuild_orders_come_from_the_chance() -> None:
    def rebuilt(seed: int) -> tuple[object, ...]:
        deal = Deal(RuleSet(), 5, 0, make_deck(5, 0, seed=1), SeededChance(seed))
        run_stock_down(deal)
        deal.apply(Action.parse("draw stock"))
        return deal.rebuild_orders

    assert rebuilt(4) == rebuilt(4)
    assert rebuilt(4) != rebuilt(5)


def test_r4_6_copy_with_another_chance_rebuilds_its_own_way() -> None:
    deal = Deal(RuleSet(), 5, 0, make_deck(5, 0, seed=2), SeededChance(1))
    run_stock_down(deal)
    copy = deal.copy(SeededChance(2))
    deal.apply(Action.parse("draw stock"))
    copy.apply(Action.parse("draw stock"))
    assert sorted(deal.rebuild_orders[0]) == sorted(copy.rebuild_orders[0])
    assert deal.rebuild_orders != copy.rebuild_orders


# -- RecordedChance: rebuilds written down ---------------------------------------------------


def test_recorded_chance_replays_a_deal_exactly() -> None:
    for seed in range(12):
        deal, rng = random_deal(seed)
        while not deal.is_over:
            deal.apply(choose(rng, deal.legal_actions(), 0.5))
        chance = RecordedChance(deal.rebuild_orders)
        again = Deal(deal.rules, deal.players, deal.dealer, deal.deck, chance)
        for action in deal.actions:
            again.apply(action)
        assert again.events == deal.events
        assert again.outcome == deal.outcome
        assert again.rebuild_orders == deal.rebuild_orders
        assert chance.unused == 0


def test_recorded_chance_puts_the_recorded_order() -> None:
    chance = RecordedChance([parse_cards("Ah 2c Kd")], where="deal 0: ")
    values = parse_cards("2c Kd Ah")
    chance.shuffle(values)
    assert values == parse_cards("Ah 2c Kd")
    assert chance.unused == 0


def test_recorded_chance_refuses_other_cards() -> None:
    chance = RecordedChance([parse_cards("Ah 2c Kd")], where="deal 3: ")
    with pytest.raises(RecordError, match=r"^deal 3: rebuild 1 is not") as info:  # rebuilds from 1
        chance.shuffle(parse_cards("Ah 2c Qd"))
    assert "Kd" in str(info.value)
    assert "Qd" in str(info.value)
    assert chance.unused == 1


def test_recorded_chance_refuses_a_rebuild_not_recorded() -> None:
    chance = RecordedChance([])
    with pytest.raises(RecordError, match=r"R4\.6"):
        chance.shuffle(parse_cards("Ah 2c"))


def test_recorded_chance_names_the_deal_and_rebuild_from_1_keeping_the_index() -> None:
    chance = RecordedChance([], deal=0)
    with pytest.raises(RecordError) as info:
        chance.shuffle(parse_cards("Ah 2c"))
    assert str(info.value).startswith("deal 1: rebuild 1: the record has no stock order")
    assert chance.deal == 0  # the record's index, as given


def test_recorded_chance_draws_nothing() -> None:
    with pytest.raises(RecordError):
        RecordedChance([]).below(3)


@pytest.mark.parametrize(
    ("parts", "options", "seed"),
    [
        # Each caller's derivation, pinned to the seed it has always given: a tournament's deck,
        # a simulation's bot, a review's decision, a web hint, a terminal game's deal.
        (("paiute-tournament", 0, 0, "deck"), {}, 11987368365733102168),
        (("paiute-simulate", 0, 5, 2), {"method": "blake2b"}, 4541197924625541963),
        (("paiute-review", 0, 1, 0), {"separator": ":", "method": "random", "bits": 48}, 109466475309055),
        (("paiute-hint", "abc", 0, 0), {"separator": ":", "bits": 48}, 88252111776363),
        (("paiute-play", 0, "deal", 0), {"separator": ":"}, 2581581535881337582),
    ],
)
def test_derive_seed_gives_each_caller_its_seeds(
    parts: tuple[object, ...], options: dict[str, Any], seed: int
) -> None:
    assert derive_seed(*parts, **options) == seed


def test_derive_seed_hashes_the_joined_parts() -> None:
    text = b"7|mc|2|" + bytes(range(16))
    assert derive_seed(7, "mc", 2, bytes(range(16)), separator="|", method="blake2b") == int.from_bytes(
        hashlib.blake2b(text, digest_size=8).digest(), "big"
    )
    assert derive_seed("a", 1, bits=48) == int.from_bytes(hashlib.sha256(b"a/1").digest()[:6], "big")
    assert derive_seed("a", 1, method="random", bits=48) == random.Random("a/1").getrandbits(48)
    assert derive_seed("a", 1) != derive_seed("a", 2)
    assert derive_seed("a", 1, bits=48) < 2**48


def test_derive_seed_refuses_a_width_it_cannot_make() -> None:
    with pytest.raises(ValueError, match="bits must be a multiple of 8"):
        derive_seed("a", bits=12)
