"""The evaluator (R3, R5, R6.2, R6.3, R4.3) against the brute-force reference, the worked
examples of RULES.md, and the golden digest of its ordering."""

from __future__ import annotations

import importlib.util
import itertools
import random
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import reference
from paiute.cards import CARDS, JOKERS, Card, Rank, parse_cards
from paiute.combos import Category, Value
from paiute.errors import PaiuteError
from paiute.evaluator import Call, Evaluator

ROOT = Path(__file__).resolve().parents[1]
NATURALS = CARDS[:52]


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def as_ref(value: Value | None) -> reference.Ref | None:
    """An engine value in the reference's form."""
    if value is None:
        return None
    return (value.category.value, tuple(int(rank) for rank in value.ranks))


def wild_rank(rank: str) -> frozenset[Card]:
    """The four cards of a rank, built from text (R3.1)."""
    return frozenset(Card.parse(rank + suit) for suit in "cdhs")


def wild_opposite(upcard: Card) -> frozenset[Card]:
    """R3.3 ``opposite``: the two cards of the upcard's rank of the other colour."""
    text = str(upcard)
    red = text[1] in "dh"
    return frozenset(Card.parse(text[0] + suit) for suit in ("cs" if red else "dh"))


# -- worked examples of RULES.md ---------------------------------------------------------------

THREES = Evaluator.for_rank("3")


def test_r5_4_worked_example_four_two_aces_over_kings() -> None:
    held = cards("3h 3s Ad Ac Ks Kh")
    assert THREES.best_five(held) is None  # at most two aces + two wilds
    six = THREES.best_six(held)
    assert six is not None
    assert six.value == Value.parse("four_two A K")
    assert str(six.value) == "Four/Two, aces over kings"
    assert six.discard is None
    assert set(six.shown) == set(held)
    call = THREES.best(held)
    assert call is not None
    assert call.value == Value.parse("four_two A K")
    assert call.is_six_card
    # Three/Three A/K is also possible but lower.
    assert Value.parse("three_three A K") < call.value


def test_r5_1_worked_example_five_sevens_with_four_wilds() -> None:
    held = cards("3c 3d 3h 3s 7d 2c")
    call = THREES.best(held)
    assert call is not None
    assert call.value == Value.parse("five_of_a_kind 7")
    assert str(call.value) == "Five of a Kind, sevens"
    assert call.discard == Card.parse("2c")
    assert set(call.shown) == set(cards("3c 3d 3h 3s 7d"))
    # Five twos is possible but lower; a straight flush (7d to Jd) is possible but lower.
    assert THREES.value(cards("3c 3d 3h 3s 2c")) == Value.parse("five_of_a_kind 2")
    assert Value.parse("straight_flush J") < call.value
    assert THREES.value(cards("3c 3d 3h 3s 7d")) == Value.parse("five_of_a_kind 7")


def test_r5_3_worked_example_one_wild_fills_one_gap() -> None:
    held = cards("9h Th Jh Qh 3c 2s")
    call = THREES.best(held)
    assert call is not None
    assert call.value == Value.parse("straight_flush K")
    assert str(call.value) == "Straight Flush, king high"
    assert call.discard == Card.parse("2s")
    # A Royal Flush would need both Ah and Kh: one wild cannot fill two gaps.
    assert THREES.value(cards("9h Th Jh Qh 3c")) == Value.parse("straight_flush K")


def test_r1_2_worked_example_wheel_needs_suited_or_wild_three() -> None:
    nines = Evaluator.for_rank("9")
    assert nines.best(cards("Ah 2h 3d 4h 5h Kc")) is None  # 3d is neither a heart nor wild
    call = nines.best(cards("Ah 2h 3d 4h 5h 9c"))
    assert call is not None
    assert call.value == Value.parse("straight_flush 5")
    assert str(call.value) == "Straight Flush, five high"
    assert call.discard == Card.parse("3d")


def test_r5_5_three_three_higher_three_first() -> None:
    natural = Evaluator()
    assert natural.value(cards("Kc Kd Kh 4c 4d 4h")) == Value.parse("three_three K 4")
    # 2 kings + 2 fours + a wild + a nine cannot be two threes, only three pairs.
    assert THREES.value(cards("Kc Kd 4c 4d 3h 9s")) == Value.parse("paiute K 9 4")
    # Wilds fill both threes: the highest ranks available.
    assert THREES.value(cards("3c 3d 3h 3s Qd Qh")) == Value.parse("four_two A Q")
    # One wild turns three + two into a Four/Two, which ranks higher (R5.4).
    assert THREES.value(cards("Kc Kd 3h 4c 4d 4h")) == Value.parse("four_two 4 K")
    assert THREES.value(cards("Qc Qd Qh 9c 9d 9s")) == Value.parse("three_three Q 9")
    assert Value.parse("three_three K 4") > Value.parse("three_three K 3")
    assert Value.parse("three_three K 4") < Value.parse("three_three A 2")


def test_r5_6_worked_example_paiute() -> None:
    held = cards("Jc Jd 7h 7s 4c 4d")
    call = THREES.best(held)
    assert call is not None
    assert call.value == Value.parse("paiute J 7 4")
    assert str(call.value) == "Paiute, jacks/sevens/fours"
    assert call.is_six_card


def test_r5_4_worked_example_tie_break_on_the_pair() -> None:
    queens_fives = THREES.value(cards("Qc Qd Qh Qs 5c 5d"))
    queens_fours = THREES.value(cards("Qc Qd Qh Qs 4c 4d"))
    assert queens_fives == Value.parse("four_two Q 5")
    assert queens_fours == Value.parse("four_two Q 4")
    assert queens_fives > queens_fours


def test_r5_3_worked_example_wheel_loses_to_six_high() -> None:
    wheel = THREES.value(cards("5c 4c 2c Ac 3d"))
    six_high = THREES.value(cards("6c 5c 4c 2c 3d"))
    assert wheel == Value.parse("straight_flush 5")
    assert six_high == Value.parse("straight_flush 6")
    assert wheel < six_high


def test_r5_2_worked_example_two_royal_flushes_tie() -> None:
    hearts = THREES.value(cards("Ah Kh Qh Jh Th"))
    spades = THREES.value(cards("As Ks 3c Js Ts"))
    assert hearts == spades == Value.parse("royal_flush")
    assert not hearts < spades
    assert not spades < hearts
    assert THREES.code(cards("Ah Kh Qh Jh Th")) == THREES.code(cards("As Ks 3c Js Ts"))


@pytest.mark.parametrize("royal_high", [False, True])
def test_r5_8_worked_example_five_aces_against_royal_flush(royal_high: bool) -> None:
    evaluator = Evaluator.for_rank("3", royal_high=royal_high)
    aces = evaluator.value(cards("Ac Ad Ah As 3c"))
    royal = evaluator.value(cards("Ah Kh Qh Jh Th"))
    assert aces == Value.parse("five_of_a_kind A")
    assert royal == Value.parse("royal_flush")
    assert (aces > royal) is not royal_high
    assert (royal > aces) is royal_high
    codes = evaluator.code(cards("Ac Ad Ah As 3c")), evaluator.code(cards("Ah Kh Qh Jh Th"))
    assert (codes[0] > codes[1]) is not royal_high


def test_r4_3_worked_example_card_taken_from_discard_pile() -> None:
    held = cards("Ks Qs Js Ts 3d 8c")
    taken = Card.parse("Ks")
    call = THREES.best(held, forbidden=taken)
    assert call is not None
    assert call.value == Value.parse("royal_flush")
    assert call.discard == Card.parse("8c")
    five = THREES.best_five(held, forbidden=taken)
    assert five is not None
    assert five.discard != taken
    # Were 8c the card taken, no five-card call would be left.
    assert THREES.best_five(held, forbidden=Card.parse("8c")) is None


# -- the API's edges ---------------------------------------------------------------------------


def test_r5_10_five_cards_never_make_a_six_card_combination() -> None:
    # Five cards that would be "four and one" or "three and two" make nothing.
    assert THREES.value(cards("Ac Ad Ah As Kc")) is None
    assert THREES.value(cards("Ac Ad Ah Kc Kd")) is None


def test_r5_10_six_cards_never_make_a_five_card_combination() -> None:
    # Six hearts in sequence: a straight flush is in them, but the six shown make nothing.
    assert THREES.value(cards("8h 9h Th Jh Qh Kh")) is None
    assert THREES.value(cards("Ac Ad Ah As 3c 3d")) == Value.parse("four_two A K")
    call = THREES.best(cards("8h 9h Th Jh Qh Kh"))
    assert call is not None
    assert call.value == Value.parse("straight_flush K")
    assert call.discard == Card.parse("8h")


@pytest.mark.parametrize("count", [0, 1, 4, 7])
def test_r5_10_other_card_counts_make_nothing(count: int) -> None:
    assert THREES.value(list(CARDS[:count])) is None
    assert THREES.code(list(CARDS[:count])) == 0


@pytest.mark.parametrize("count", [5, 7])
def test_r6_1_holding_after_the_draw_has_six_cards(count: int) -> None:
    held = list(CARDS[20 : 20 + count])
    with pytest.raises(PaiuteError):
        THREES.best_five(held)
    with pytest.raises(PaiuteError):
        THREES.best_six(held)
    with pytest.raises(PaiuteError):
        THREES.best(held)


def test_r3_4_wild_card_may_stand_for_itself() -> None:
    # 3h is wild and names itself in 5h-4h-3h-2h-Ah.
    assert THREES.value(cards("Ah 2h 3h 4h 5h")) == Value.parse("straight_flush 5")
    assert THREES.value(cards("3c 3d 3h 3s Ah")) == Value.parse("five_of_a_kind A")


def test_r3_2_jokers_are_the_only_wild_cards() -> None:
    jokers = Evaluator.for_jokers()
    assert jokers.wild_cards == frozenset(JOKERS)
    assert jokers.value(parse_cards("Jk1 Jk2 Ah Ad Ac")) == Value.parse("five_of_a_kind A")
    assert jokers.value(cards("3c 3d 3h 3s 7d")) is None  # no rank is wild
    assert jokers.value(parse_cards("Jk1 Ks Js Ts As")) == Value.parse("royal_flush")
    assert jokers.value(parse_cards("Jk1 Qs Js Ts 9s")) == Value.parse("straight_flush K")


@pytest.mark.parametrize("rank", list(Rank))
def test_r3_1_for_rank_makes_all_four_cards_wild(rank: Rank) -> None:
    expected = wild_rank(rank.symbol)
    assert Evaluator.for_rank(rank).wild_cards == expected
    assert Evaluator.for_rank(rank.symbol.lower()).wild_cards == expected
    assert all(Evaluator.for_rank(rank).is_wild(card) for card in expected)
    assert Evaluator.for_rank("10").wild_cards == wild_rank("T")
    assert Evaluator.for_rank(rank, royal_high=True).royal_high


def test_r3_5_naturals_have_no_precedence() -> None:
    natural = THREES.value(cards("9h Th Jh Qh Kh"))
    wild = THREES.value(cards("9h Th Jh Qh 3c"))
    assert natural == wild
    assert THREES.code(cards("9h Th Jh Qh Kh")) == THREES.code(cards("9h Th Jh Qh 3c"))


def test_r6_2_best_five_puts_down_the_first_equal_card() -> None:
    # Every card but one may be put down for the same Five of a Kind: the first is chosen.
    held = cards("3c 3d 3h 3s 7d 7h")
    call = THREES.best_five(held)
    assert call is not None
    assert call.value == Value.parse("five_of_a_kind 7")
    assert call.discard in held
    assert str(call)  # prints
    assert isinstance(call, Call)


# -- the engine against the brute-force reference ------------------------------------------


class Config:
    """One way of choosing wild cards (R3.1, R3.3, R3.2) for a holding."""

    def __init__(self, name: str, pool: Sequence[Card], wilds: Callable[[random.Random], frozenset[Card]]):
        self.name = name
        self.pool = list(pool)
        self.wilds = wilds


def _any_rank(rng: random.Random) -> frozenset[Card]:
    return wild_rank(rng.choice(reference.RANK_TEXT))


def _opposite(rng: random.Random) -> frozenset[Card]:
    return wild_opposite(rng.choice(NATURALS))


def _jokers(rng: random.Random) -> frozenset[Card]:
    return frozenset(parse_cards("Jk1 Jk2"))


CONFIGS = {
    "any": Config("any", NATURALS, _any_rank),
    "opposite": Config("opposite", NATURALS, _opposite),
    "jokers": Config("jokers", CARDS, _jokers),
}

_evaluators: dict[tuple[frozenset[Card], bool], Evaluator] = {}


def evaluator_for(wilds: frozenset[Card], royal_high: bool) -> Evaluator:
    key = (wilds, royal_high)
    if key not in _evaluators:
        _evaluators[key] = Evaluator(wilds, royal_high=royal_high)
    return _evaluators[key]


def _random_holding(rng: random.Random, config: Config, wilds: frozenset[Card]) -> list[Card]:
    return rng.sample(config.pool, 6)


def _many_wilds(rng: random.Random, config: Config, wilds: frozenset[Card]) -> list[Card]:
    count = rng.randint(max(1, len(wilds) - 2), len(wilds))
    held = rng.sample(sorted(wilds), count)
    rest = [card for card in config.pool if card not in held]
    return rng.sample(held + rng.sample(rest, 6 - count), 6)


def _fill(rng: random.Random, held: list[Card], pool: Sequence[Card]) -> list[Card]:
    held = list(dict.fromkeys(held))[:6]
    rest = [card for card in pool if card not in held]
    held += rng.sample(rest, 6 - len(held))
    rng.shuffle(held)
    return held


def _same_suit(rng: random.Random, config: Config, wilds: frozenset[Card]) -> list[Card]:
    """Four to six cards of one suit, perhaps with wild cards."""
    suit = rng.choice("cdhs")
    held = [Card.parse(rank + suit) for rank in rng.sample(reference.RANK_TEXT, rng.randint(4, 6))]
    held = rng.sample(sorted(wilds), rng.randint(0, min(2, len(wilds)))) + held
    return _fill(rng, held, config.pool)


def _near_straight(rng: random.Random, config: Config, wilds: frozenset[Card]) -> list[Card]:
    """A straight flush window (5-4-3-2-A included), or six in a row, with gaps, wild cards
    and sometimes one card of the wrong suit."""
    suit = rng.choice("cdhs")
    top = rng.randint(5, 14)
    window = [reference.RANK_TEXT[(top - 2 - i) % 13] for i in range(5)]  # 5 wraps to the ace
    if top < 14 and rng.random() < 0.5:
        window.append(reference.RANK_TEXT[top - 1])  # six in a row
    gaps = rng.randint(0, 2)
    kept = rng.sample(window, len(window) - gaps)
    suits = [suit] * len(kept)
    if rng.random() < 0.3:
        suits[0] = rng.choice([other for other in "cdhs" if other != suit])
    held = [Card.parse(rank + s) for rank, s in zip(kept, suits, strict=True)]
    held = rng.sample(sorted(wilds), rng.randint(0, min(gaps + 1, len(wilds)))) + held
    return _fill(rng, held, config.pool)


def _pairs_heavy(rng: random.Random, config: Config, wilds: frozenset[Card]) -> list[Card]:
    ranks = rng.sample(reference.RANK_TEXT, rng.randint(2, 3))
    held: list[Card] = []
    for rank in ranks:
        held += [Card.parse(rank + suit) for suit in rng.sample("cdhs", rng.randint(1, 4))]
    held = rng.sample(sorted(wilds), rng.randint(0, len(wilds))) + rng.sample(held, min(len(held), 6))
    return _fill(rng, held, config.pool)


SHAPES = {
    "random": (_random_holding, 1000),
    "many_wilds": (_many_wilds, 120),
    "same_suit": (_same_suit, 150),
    "near_straight": (_near_straight, 200),
    "pairs_heavy": (_pairs_heavy, 200),
}


def check_holding(
    evaluator: Evaluator, wilds: frozenset[Card], held: list[Card], forbidden: Card | None
) -> list[str]:
    """Every check of one six-card holding; returns the disagreements in words."""
    royal_high = evaluator.royal_high
    problems: list[str] = []
    text = " ".join(map(str, held))
    where = f"holding {text!r}, wild {sorted(map(str, wilds))}, royal_high={royal_high}"

    def key(value: reference.Ref | None) -> tuple[int, tuple[int, ...]]:
        return reference.sort_key(value, royal_high)

    # R5.10 for the six shown and for every five of them.
    six_expected = reference.value(held, wilds, royal_high)
    six_got = evaluator.value(held)
    if as_ref(six_got) != six_expected:
        problems.append(f"value(six) {where}: expected {six_expected}, got {as_ref(six_got)}")
    if evaluator.code(held) != (six_got.code if six_got else 0):
        problems.append(f"code(six) {where} disagrees with value")
    for index in range(6):
        five = held[:index] + held[index + 1 :]
        expected = reference.value(five, wilds, royal_high)
        got = evaluator.value(five)
        if as_ref(got) != expected:
            problems.append(
                f"value(five) {' '.join(map(str, five))!r} wild {sorted(map(str, wilds))} "
                f"royal_high={royal_high}: expected {expected}, got {as_ref(got)}"
            )
        if evaluator.code(five) != (got.code if got else 0):
            problems.append(f"code(five) of {five} disagrees with value")

    # R6.2 best five-card call, with and without a forbidden card (R4.3).
    for banned in [None, forbidden]:
        expected, discards = reference.best_five(held, wilds, royal_high, banned)
        call = evaluator.best_five(held, banned)
        got = None if call is None else call.value
        if as_ref(got) != expected:
            problems.append(f"best_five {where} forbidden={banned}: expected {expected}, got {as_ref(got)}")
        elif call is not None:
            if call.discard == banned:
                problems.append(f"best_five {where} put down the forbidden {banned}")
            if call.discard not in discards:
                problems.append(f"best_five {where}: discard {call.discard} does not reach {expected}")
            if sorted(call.shown) != sorted(c for c in held if c != call.discard):
                problems.append(f"best_five {where}: shown {call.shown} is not the rest")
            if reference.value(list(call.shown), wilds, royal_high) != expected:
                problems.append(f"best_five {where}: shown cards do not make {expected}")
        if banned is None:
            code = evaluator.best_five_code(held)
            if code != (got.code if got else 0):
                problems.append(f"best_five_code {where}: {code} != {got.code if got else 0}")

        # The best call overall.
        best_expected = reference.best(held, wilds, royal_high, banned)
        best_call = evaluator.best(held, banned)
        best_got = None if best_call is None else best_call.value
        if as_ref(best_got) != best_expected:
            problems.append(
                f"best {where} forbidden={banned}: expected {best_expected}, got {as_ref(best_got)}"
            )
        elif best_call is not None:
            if best_call.discard is not None and best_call.discard == banned:
                problems.append(f"best {where} put down the forbidden {banned}")
            if (best_call.discard is None) != (best_expected[0] in ("four_two", "three_three", "paiute")):
                problems.append(f"best {where}: wrong kind of call {best_call}")
        if banned is None:
            code = evaluator.best_code(held)
            if code != (best_got.code if best_got else 0):
                problems.append(f"best_code {where}: {code} != best().value.code")
            if key(best_expected) < key(expected) or key(best_expected) < key(six_expected):
                problems.append(f"reference inconsistent at {where}")

    # R6.3 the six-card call.
    six_call = evaluator.best_six(held)
    if as_ref(None if six_call is None else six_call.value) != six_expected:
        problems.append(f"best_six {where}: expected {six_expected}, got {six_call}")
    elif six_call is not None and (six_call.discard is not None or list(six_call.shown) != list(held)):
        problems.append(f"best_six {where}: a six-card call shows all six and puts nothing down")
    return problems


@pytest.mark.parametrize("royal_high", [False, True], ids=["royal_low", "royal_high"])
@pytest.mark.parametrize("config", list(CONFIGS))
@pytest.mark.parametrize("shape", list(SHAPES))
def test_r5_10_evaluator_matches_brute_force_reference(shape: str, config: str, royal_high: bool) -> None:
    """R3, R5, R6.2, R6.3, R4.3 on seeded holdings of one shape, against tests/reference.py."""
    make, count = SHAPES[shape]
    chosen = CONFIGS[config]
    rng = random.Random(f"{shape}/{config}/{royal_high}")
    problems: list[str] = []
    for _ in range(count):
        wilds = chosen.wilds(rng)
        held = make(rng, chosen, wilds)
        assert len(set(held)) == 6
        forbidden = rng.choice(held)
        problems += check_holding(evaluator_for(wilds, royal_high), wilds, held, forbidden)
        if len(problems) > 20:
            break
    assert not problems, f"{len(problems)} disagreement(s):\n" + "\n".join(problems[:20])


@pytest.mark.parametrize("royal_high", [False, True])
def test_r5_10_every_five_cards_with_four_wild_cards(royal_high: bool) -> None:
    """All 48 holdings of four wild threes and one natural card (R3.4, R5.1)."""
    evaluator = Evaluator.for_rank("3", royal_high=royal_high)
    wilds = wild_rank("3")
    for card in NATURALS:
        if card in wilds:
            continue
        held = [*sorted(wilds), card]
        assert as_ref(evaluator.value(held)) == reference.value(held, wilds, royal_high), str(card)


@given(
    held=st.lists(st.sampled_from(CARDS), min_size=5, max_size=5, unique=True),
    rank=st.sampled_from(list(Rank)),
    royal_high=st.booleans(),
)
def test_r5_10_property_five_cards_match_reference(held: list[Card], rank: Rank, royal_high: bool) -> None:
    jokers = any(card.is_joker for card in held)
    wilds = frozenset(JOKERS) if jokers else wild_rank(rank.symbol)
    evaluator = evaluator_for(wilds, royal_high)
    assert as_ref(evaluator.value(held)) == reference.value(held, wilds, royal_high)


@given(
    held=st.lists(st.sampled_from(NATURALS), min_size=6, max_size=6, unique=True),
    rank=st.sampled_from(list(Rank)),
    royal_high=st.booleans(),
    forbidden_index=st.none() | st.integers(0, 5),
)
def test_r6_2_property_best_call_matches_reference(
    held: list[Card], rank: Rank, royal_high: bool, forbidden_index: int | None
) -> None:
    wilds = wild_rank(rank.symbol)
    forbidden = None if forbidden_index is None else held[forbidden_index]
    assert not check_holding(evaluator_for(wilds, royal_high), wilds, held, forbidden)


@given(held=st.lists(st.sampled_from(NATURALS), min_size=5, max_size=5, unique=True))
def test_r5_11_suits_never_break_ties_evaluator(held: list[Card]) -> None:
    """Renaming the suits of a holding (and of the wild cards) never changes its value."""
    rename = {"c": "d", "d": "h", "h": "s", "s": "c"}
    moved = [Card.parse(str(card)[0] + rename[str(card)[1]]) for card in held]
    for rank in ("3", "T"):
        evaluator = Evaluator.for_rank(rank)
        assert evaluator.value(held) == evaluator.value(moved)
        assert evaluator.code(held) == evaluator.code(moved)


# -- the golden digest of the evaluator's ordering -------------------------------------------


def _load_digest_script():  # type: ignore[no-untyped-def]
    path = ROOT / "scripts" / "make_golden_digest.py"
    spec = importlib.util.spec_from_file_location("make_golden_digest", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_r5_golden_digest_of_the_evaluator_ordering() -> None:
    """Any change to how the evaluator orders an exhaustive class of holdings fails here.

    If the change is intended (the rules changed), regenerate with
    ``python scripts/make_golden_digest.py --write`` and review the diff of the counts.
    """
    script = _load_digest_script()
    golden_path = ROOT / "tests" / "data" / "golden_evaluator_order.txt"
    expected = golden_path.read_text(encoding="utf-8").splitlines()
    got = script.digest_lines()
    differing = [
        f"  line {i + 1}: golden {e!r}\n  {' ' * len(str(i + 1))}       now    {g!r}"
        for i, (e, g) in enumerate(zip(expected, got, strict=False))
        if e != g
    ]
    if len(expected) != len(got):
        differing.append(f"  golden has {len(expected)} lines, now {len(got)}")
    assert not differing, (
        f"the evaluator's ordering changed ({golden_path.name}):\n"
        + "\n".join(differing)
        + "\nregenerate with scripts/make_golden_digest.py --write only if the change is intended"
    )


def test_r5_golden_digest_order_is_consistent_with_values() -> None:
    """The codes the digest sorts by order values exactly as Value's < does (R5)."""
    script = _load_digest_script()
    for royal_high in (False, True):
        codes = sorted({code for code, _ in script.holdings(royal_high)} - {0})
        values = [Value.from_code(code, royal_high=royal_high) for code in codes]
        assert all(a is not None and b is not None and a < b for a, b in itertools.pairwise(values))
        assert {v.category for v in values if v is not None} == set(Category)


# -- what the wild cards stand for (R3.4), in the combination's natural order ---------------


def test_r3_4_arrange_names_each_wild_card_in_natural_order() -> None:
    from paiute.evaluator import format_arranged

    ev = Evaluator.for_rank("2")
    # The jumbled order the table used to print ("7♠ 5♠ 4♠ 6♠ 2♥*") comes out in order, named.
    assert format_arranged(ev.arrange(parse_cards("7s 5s 4s 6s 2h"))) == "4s 5s 6s 7s 2h→8s"
    wheel = Evaluator.for_rank("9").arrange(parse_cards("5h 4h 9c Ah 2h"))
    assert [str(item.named) for item in wheel] == ["Ah", "2h", "3h", "4h", "5h"]  # R1.2: ace low
    four_two = Evaluator.for_rank("3").arrange(parse_cards("Kh 3h Ad 3s Ac Ks"))
    assert format_arranged(four_two, lambda card: card.pretty()) == "A♣ A♦ 3♥→A♥ 3♠→A♠ K♥ K♠"
    # A wild card that may stand for its own face does (R3.4), marked as wild.
    assert (
        format_arranged(Evaluator.for_rank("3").arrange(parse_cards("3h 4h 5h 6h 2h"))) == "2h 3h* 4h 5h 6h"
    )


@given(st.data())
def test_r3_4_arranged_cards_name_a_natural_combination_of_the_same_value(data: st.DataObject) -> None:
    # Cards of a few neighbouring ranks, one of them wild, so that most holdings make something.
    low = data.draw(st.integers(2, 10))
    pool = [card for card in CARDS[:52] if card.rank is not None and low <= card.rank <= low + 4]
    cards = data.draw(st.lists(st.sampled_from(pool), min_size=5, max_size=6, unique=True))
    ev = Evaluator.for_rank(Rank(data.draw(st.integers(low, low + 4))))
    value = ev.value(cards)
    placed = ev.arrange(cards)
    assert sorted(item.card for item in placed) == sorted(cards)
    if value is None:
        assert [item.card for item in placed] == cards
        return
    named = [item.named for item in placed]
    assert all(item.named == item.card for item in placed if not item.wild)
    if value.category is Category.FIVE_OF_A_KIND:
        assert {card.rank for card in named} == {value.ranks[0]}
    else:  # the named cards, all natural now, make exactly that value
        assert Evaluator().value(named) == value
    if value.category in (Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH):
        ranks = [card.rank for card in named]
        assert ranks == sorted(ranks) or ranks[0] is Rank.ACE  # low to high, A first in 5-4-3-2-A
