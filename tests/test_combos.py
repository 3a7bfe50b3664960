"""Combination values: the order of R5, tie-breaks, words, notation, JSON and codes."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiute.cards import Rank
from paiute.combos import (
    CATEGORY_SHIFT,
    FIVE_OF_A_KIND_ORDER,
    FOUR_TWO_ORDER,
    PAIUTE_ORDER,
    ROYAL_FLUSH_ORDER,
    ROYAL_HIGH_ORDER,
    STRAIGHT_FLUSH_ORDER,
    THREE_THREE_ORDER,
    Category,
    Value,
    may_call,
)
from paiute.errors import ParseError

R = Rank
RANKS = list(Rank)


def every_value() -> list[Value]:
    """Every value a combination can have (R5.1-R5.6), lowest first under default rules."""
    values: list[Value] = []
    # R5.6 Paiute: three pairs of different ranks, high first.
    values += [Value(Category.PAIUTE, (h, m, low)) for low, m, h in itertools.combinations(RANKS, 3)]
    # R5.5 Three/Three: higher three first.
    values += [Value(Category.THREE_THREE, (h, low)) for low, h in itertools.combinations(RANKS, 2)]
    # R5.4 Four/Two: the four's rank, then the pair's (another rank).
    values += [Value(Category.FOUR_TWO, (f, p)) for f, p in itertools.product(RANKS, RANKS) if f != p]
    # R5.3 Straight Flush: top card five (5-4-3-2-A) to king.
    values += [Value(Category.STRAIGHT_FLUSH, (top,)) for top in RANKS if R.FIVE <= top <= R.KING]
    values += [Value(Category.ROYAL_FLUSH)]
    values += [Value(Category.FIVE_OF_A_KIND, (rank,)) for rank in RANKS]
    return sorted(values, key=lambda v: (v.category.order(), v.ranks))


ALL_VALUES = every_value()
values = st.sampled_from(ALL_VALUES)


def test_r5_category_order_low_to_high() -> None:
    assert [c.order() for c in Category] == [1, 2, 3, 4, 5, 6]
    assert list(Category) == [
        Category.PAIUTE,
        Category.THREE_THREE,
        Category.FOUR_TWO,
        Category.STRAIGHT_FLUSH,
        Category.ROYAL_FLUSH,
        Category.FIVE_OF_A_KIND,
    ]


@pytest.mark.parametrize(
    ("category", "cards", "rank_count", "title", "units"),
    [
        (Category.FIVE_OF_A_KIND, 5, 1, "Five of a Kind", 5),
        (Category.ROYAL_FLUSH, 5, 0, "Royal Flush", 4),
        (Category.STRAIGHT_FLUSH, 5, 1, "Straight Flush", 4),
        (Category.FOUR_TWO, 6, 2, "Four/Two", 3),
        (Category.THREE_THREE, 6, 2, "Three/Three", 2),
        (Category.PAIUTE, 6, 3, "Paiute", 1),
    ],
)
def test_r5_table_and_r8_4_units(
    category: Category, cards: int, rank_count: int, title: str, units: int
) -> None:
    assert category.cards == cards
    assert category.rank_count == rank_count
    assert category.title == title
    assert category.units == units


def test_r5_record_names() -> None:
    assert {c.value for c in Category} == {
        "five_of_a_kind",
        "royal_flush",
        "straight_flush",
        "four_two",
        "three_three",
        "paiute",
    }


def test_r5_every_value_is_strictly_ordered() -> None:
    assert len(ALL_VALUES) == 286 + 78 + 156 + 9 + 1 + 13
    for low, high in itertools.pairwise(ALL_VALUES):
        assert low < high
        assert low <= high
        assert high > low
        assert high >= low
        assert low != high
        assert low.code < high.code


@pytest.mark.parametrize(
    ("low", "high"),
    [
        ("paiute A K Q", "three_three 3 2"),
        ("three_three A K", "four_two 2 3"),
        ("four_two A K", "straight_flush 5"),
        ("straight_flush K", "royal_flush"),
        ("royal_flush", "five_of_a_kind 2"),
        # R5.1 by the rank
        ("five_of_a_kind K", "five_of_a_kind A"),
        # R5.3 by the top card; 5-4-3-2-A is the lowest (R1.2)
        ("straight_flush 5", "straight_flush 6"),
        ("straight_flush Q", "straight_flush K"),
        # R5.4 the four's rank, then the pair's
        ("four_two K A", "four_two A 2"),
        ("four_two Q 4", "four_two Q 5"),
        # R5.5 the higher three, then the lower
        ("three_three K Q", "three_three A 2"),
        ("three_three A 2", "three_three A 3"),
        # R5.6 highest pair, then middle, then lowest
        ("paiute K Q J", "paiute A 3 2"),
        ("paiute A 3 2", "paiute A 4 2"),
        ("paiute A K 2", "paiute A K 3"),
    ],
)
def test_r5_tie_breaks(low: str, high: str) -> None:
    a, b = Value.parse(low), Value.parse(high)
    assert a < b
    assert b > a
    assert a.code < b.code
    assert not b < a


def test_r5_2_royal_flushes_are_always_equal() -> None:
    a, b = Value.parse("royal_flush"), Value(Category.ROYAL_FLUSH)
    assert a == b
    assert not a < b
    assert not b < a
    assert a <= b
    assert a >= b
    assert hash(a) == hash(b)


def test_r5_8_royal_high_orders_royal_above_five_of_a_kind() -> None:
    royal = Value.parse("royal_flush", royal_high=True)
    aces = Value.parse("five_of_a_kind A", royal_high=True)
    assert royal > aces
    assert aces < royal
    assert royal.code > aces.code
    assert Category.ROYAL_FLUSH.order(royal_high=True) == 7
    assert Category.FIVE_OF_A_KIND.order(royal_high=True) == 6
    # Without the option the Royal Flush lies between the straight flushes and Five of a Kind.
    assert Value.parse("royal_flush") < Value.parse("five_of_a_kind 2")
    # Either side carrying royal_high is enough.
    assert Value.parse("royal_flush", royal_high=True) > Value.parse("five_of_a_kind A")
    assert Value.parse("royal_flush") > Value.parse("five_of_a_kind A", royal_high=True)


def test_r5_8_royal_high_changes_nothing_else() -> None:
    for low, high in itertools.pairwise(ALL_VALUES):
        if Category.ROYAL_FLUSH in (low.category, high.category):
            continue
        a = Value(low.category, low.ranks, royal_high=True)
        b = Value(high.category, high.ranks, royal_high=True)
        assert a < b
        assert a.code < b.code
        assert a.code == low.code


def test_r5_11_suits_never_break_ties() -> None:
    """A value carries no suit: equal under the table means equal, and a tie."""
    assert "suit" not in {field for field in Value.__slots__}
    for value in ALL_VALUES:
        twin = Value(value.category, value.ranks)
        assert twin == value
        assert not twin < value
        assert not value < twin
        assert twin.code == value.code


def test_r5_11_equality_ignores_royal_high() -> None:
    assert Value.parse("royal_flush", royal_high=True) == Value.parse("royal_flush")
    assert Value.parse("four_two A K", royal_high=True) == Value.parse("four_two A K")
    assert len({Value.parse("royal_flush", royal_high=True), Value.parse("royal_flush")}) == 1


def test_values_do_not_compare_with_other_types() -> None:
    value = Value.parse("paiute A K Q")
    assert value != "paiute A K Q"
    assert value != 1
    with pytest.raises(TypeError):
        _ = value < 1  # type: ignore[operator]
    with pytest.raises(TypeError):
        _ = value >= "x"  # type: ignore[operator]


# -- words -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("notation", "words"),
    [
        ("four_two A K", "Four/Two, aces over kings"),
        ("four_two Q 5", "Four/Two, queens over fives"),
        ("three_three A K", "Three/Three, aces over kings"),
        ("five_of_a_kind 7", "Five of a Kind, sevens"),
        ("five_of_a_kind 6", "Five of a Kind, sixes"),
        ("five_of_a_kind 2", "Five of a Kind, twos"),
        ("straight_flush K", "Straight Flush, king high"),
        ("straight_flush 5", "Straight Flush, five high"),
        ("royal_flush", "Royal Flush"),
        ("paiute J 7 4", "Paiute, jacks/sevens/fours"),
        ("paiute T 9 8", "Paiute, tens/nines/eights"),
    ],
)
def test_r5_value_in_words(notation: str, words: str) -> None:
    assert str(Value.parse(notation)) == words


# -- notation, JSON, codes -------------------------------------------------------------------------


@pytest.mark.parametrize("value", ALL_VALUES, ids=Value.notation)
@pytest.mark.parametrize("royal_high", [False, True])
def test_round_trips(value: Value, royal_high: bool) -> None:
    value = Value(value.category, value.ranks, royal_high=royal_high)
    assert Value.parse(value.notation()) == value
    assert Value.from_json(value.to_json()) == value
    again = Value.from_code(value.code, royal_high=royal_high)
    assert again == value
    assert again is not None
    assert again.code == value.code
    assert again.royal_high == royal_high


def test_notation_and_json_forms() -> None:
    value = Value.parse("four_two A K")
    assert value.notation() == "four_two A K"
    assert value.to_json() == {"name": "four_two", "ranks": ["A", "K"]}
    assert Value.parse("royal_flush").to_json() == {"name": "royal_flush", "ranks": []}
    assert Value.parse("straight_flush 5").to_json() == {"name": "straight_flush", "ranks": ["5"]}
    assert Value.parse("paiute T 9 8").to_json() == {"name": "paiute", "ranks": ["T", "9", "8"]}
    assert Value.parse("paiute 10 9 8") == Value.parse("paiute T 9 8")
    assert Value.parse("FOUR_TWO a k") == value
    assert Value.from_json({"name": "royal_flush"}) == Value.parse("royal_flush")


def test_r5_8_from_json_and_parse_carry_royal_high() -> None:
    royal = Value.from_json({"name": "royal_flush", "ranks": []}, royal_high=True)
    assert royal.royal_high
    assert royal > Value.parse("five_of_a_kind A")
    assert Value.parse("royal_flush", royal_high=True).royal_high


def test_code_zero_is_no_combination() -> None:
    assert Value.from_code(0) is None
    assert Value.from_code(0, royal_high=True) is None
    assert min(value.code for value in ALL_VALUES) > 0


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "flush",
        "four_two",
        "four_two A",
        "four_two A K Q",
        "royal_flush A",
        "five_of_a_kind",
        "five_of_a_kind A A",
        "five_of_a_kind 1",
        "straight_flush X",
        "paiute A K",
        "full_house A K",
    ],
)
def test_bad_notation_refused(text: str) -> None:
    with pytest.raises(ParseError):
        Value.parse(text)


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"name": "flush", "ranks": []},
        {"name": "four_two", "ranks": ["A"]},
        {"name": "four_two", "ranks": "AK"},
        {"name": "four_two", "ranks": ["A", "X"]},
        {"name": "royal_flush", "ranks": ["A"]},
        {"name": None, "ranks": []},
        {"name": "five_of_a_kind", "ranks": 14},
    ],
)
def test_bad_json_refused(data: dict[str, object]) -> None:
    with pytest.raises(ParseError):
        Value.from_json(data)


@pytest.mark.parametrize(
    "text",
    [
        "straight_flush A",  # an ace-high straight flush is the Royal Flush (R5.2)
        "straight_flush 4",  # 5-4-3-2-A is the lowest (R5.3)
        "straight_flush 2",
        "four_two A A",  # a pair of *another* rank (R5.4)
        "three_three K K",  # two threes of different ranks (R5.5)
        "three_three K A",  # the higher three first (R5.5)
        "paiute A A K",  # three pairs of three different ranks (R5.6)
        "paiute K A Q",  # highest, middle, lowest (R5.6)
    ],
)
def test_r5_impossible_values_refused(text: str) -> None:
    """A value no cards can make is refused, so that a record cannot claim one."""
    with pytest.raises(ParseError):
        Value.parse(text)


# -- properties ----------------------------------------------------------------------------------


@given(a=values, b=values, royal_high=st.booleans())
def test_r5_code_orders_exactly_as_values(a: Value, b: Value, royal_high: bool) -> None:
    a = Value(a.category, a.ranks, royal_high=royal_high)
    b = Value(b.category, b.ranks, royal_high=royal_high)
    assert (a < b) == (a.code < b.code)
    assert (a == b) == (a.code == b.code)
    assert (a <= b) == (a.code <= b.code)
    assert (a > b) == (a.code > b.code)
    assert (a == b) == (hash(a) == hash(b)) or a != b


@given(a=values, b=values, c=values)
def test_r5_order_is_total_and_transitive(a: Value, b: Value, c: Value) -> None:
    assert sum([a < b, a == b, a > b]) == 1
    if a < b and b < c:
        assert a < c
    if a <= b and b <= c:
        assert a <= c


@given(value=values, royal_high=st.booleans())
def test_value_round_trip_property(value: Value, royal_high: bool) -> None:
    value = Value(value.category, value.ranks, royal_high=royal_high)
    assert Value.parse(value.notation(), royal_high=royal_high) == value
    assert Value.from_json(value.to_json(), royal_high=royal_high) == value
    assert Value.from_code(value.code, royal_high=royal_high) == value
    assert str(value).startswith(value.category.title)


@pytest.mark.parametrize("royal_high", [False, True])
def test_r5_category_orders_are_the_top_bits_of_every_code(royal_high: bool) -> None:
    orders = {
        Category.PAIUTE: PAIUTE_ORDER,
        Category.THREE_THREE: THREE_THREE_ORDER,
        Category.FOUR_TWO: FOUR_TWO_ORDER,
        Category.STRAIGHT_FLUSH: STRAIGHT_FLUSH_ORDER,
        Category.ROYAL_FLUSH: ROYAL_HIGH_ORDER if royal_high else ROYAL_FLUSH_ORDER,
        Category.FIVE_OF_A_KIND: FIVE_OF_A_KIND_ORDER,
    }
    for value in ALL_VALUES:
        value = Value(value.category, value.ranks, royal_high=royal_high)
        assert value.code >> CATEGORY_SHIFT == orders[value.category] == value.category.order(royal_high)
        assert Category.from_code(value.code) is value.category


def test_r5_7_r6_4_may_call_a_paiute_only_when_r5_7_allows_it() -> None:
    paiute = Value.parse("paiute A K Q").code
    assert may_call(paiute, 0, paiute_now=True)
    assert not may_call(paiute, 0, paiute_now=False)  # not the caller's first turn (R5.7)
    three_three = Value.parse("three_three 3 2").code
    assert may_call(three_three, paiute, paiute_now=False)  # R5.7 is about Paiutes only
    assert not may_call(0, 0, paiute_now=True)  # no combination (R6.1)


def test_r5_7_r6_4_may_call_only_what_equals_or_beats_the_highest_call() -> None:
    highest = Value.parse("four_two Q 9").code
    assert may_call(highest, highest, paiute_now=False)  # equal is enough (R6.4)
    assert may_call(Value.parse("four_two Q T").code, highest, paiute_now=False)
    assert not may_call(Value.parse("four_two Q 8").code, highest, paiute_now=False)
    assert not may_call(Value.parse("paiute A K Q").code, highest, paiute_now=True)


def _allowed(value: Value | None, highest: Value | None, paiute_now: bool) -> bool:
    """R5.7 and R6.4 read off the values themselves, not off their codes' bits."""
    if value is None:
        return False
    if value.category is Category.PAIUTE and not paiute_now:
        return False
    return highest is None or value >= highest


@pytest.mark.parametrize("royal_high", [False, True])
def test_r5_7_r6_4_may_call_agrees_with_the_rules_read_off_the_values(royal_high: bool) -> None:
    every = [Value(v.category, v.ranks, royal_high=royal_high) for v in ALL_VALUES]
    every.sort()
    # The highest calls that matter: none, each category's lowest and highest, and a spread.
    firsts = {value.category: value for value in reversed(every)}
    lasts = {value.category: value for value in every}
    highests: list[Value | None] = [None, *firsts.values(), *lasts.values(), *every[::17]]
    for paiute_now in (False, True):
        for value in [None, *every]:
            code = 0 if value is None else value.code
            for highest in highests:
                floor = 0 if highest is None else highest.code
                expected = _allowed(value, highest, paiute_now)
                assert may_call(code, floor, paiute_now=paiute_now) is expected, (value, highest, paiute_now)
