"""A brute-force reference evaluator, used only by the tests (R3.4, R5, R5.10).

It shares nothing with :mod:`paiute.evaluator` but the card text of R1.4: cards are read from
their canonical text, every wild card is replaced by every card it may stand for, and the
resulting natural cards are classified directly by the table of R5.

The search is exhaustive; it only leaves out substitutions that are provably the same:

* wild cards are interchangeable, so substitutions are enumerated as multisets (a
  ``combinations_with_replacement`` of the candidates) rather than ordered tuples;
* five cards: each wild card is replaced by each of the 52 natural cards (duplicates of cards
  already held are allowed, R3.4). Results are memoised per holding *up to a renaming of the
  suits*: the candidate set and the R5 table are both unchanged by any permutation of the
  suits, so two holdings that differ only by one have the same best value;
* six cards: R5.4-R5.6 depend on ranks alone, so each wild card is replaced by each of the 13
  ranks.

Values are ``(name, ranks)``: ``name`` is the record name of RECORD.md (``"four_two"``…) and
``ranks`` the tie-break ranks of R5 as integers 2..14, high first. ``None`` means no
combination.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable
from functools import cache, lru_cache
from itertools import combinations_with_replacement, pairwise, permutations

import numpy as np

RANK_TEXT = "23456789TJQKA"
SUIT_TEXT = "cdhs"

Ref = tuple[str, tuple[int, ...]]
Natural = tuple[int, int]  # (rank 2..14, suit 0..3)

# R5's order, low to high; R5.8 (royal_high) moves the Royal Flush to the top.
_ORDER = {
    "paiute": 1,
    "three_three": 2,
    "four_two": 3,
    "straight_flush": 4,
    "royal_flush": 5,
    "five_of_a_kind": 6,
}


def sort_key(value: Ref | None, royal_high: bool = False) -> tuple[int, tuple[int, ...]]:
    """A key that orders reference values as R5 does; ``None`` is lowest."""
    if value is None:
        return (0, ())
    name, ranks = value
    order = 7 if royal_high and name == "royal_flush" else _ORDER[name]
    return (order, ranks)


def best_of(values: Iterable[Ref | None], royal_high: bool = False) -> Ref | None:
    return max(values, key=lambda v: sort_key(v, royal_high), default=None)


def natural(text: str) -> Natural:
    """``"Th"`` -> ``(10, 2)``."""
    return (RANK_TEXT.index(text[0]) + 2, SUIT_TEXT.index(text[1]))


# -- classification of natural cards by the table of R5 ---------------------------------------


def classify_five(cards: Iterable[Natural]) -> Ref | None:
    """R5.1-R5.3 for five natural cards (duplicates allowed)."""
    cards = list(cards)
    ranks = sorted(rank for rank, _ in cards)
    if ranks[0] == ranks[4]:
        return ("five_of_a_kind", (ranks[0],))
    if len({suit for _, suit in cards}) != 1:
        return None
    if ranks == [2, 3, 4, 5, 14]:
        return ("straight_flush", (5,))  # R1.2: the only place the ace is low
    if all(b == a + 1 for a, b in pairwise(ranks)):
        return ("royal_flush", ()) if ranks[4] == 14 else ("straight_flush", (ranks[4],))
    return None


def classify_six(ranks: Iterable[int]) -> Ref | None:
    """R5.4-R5.6 for the ranks of six natural cards (duplicates allowed)."""
    counts = Counter(ranks)
    shape = sorted(counts.values(), reverse=True)
    if shape == [4, 2]:
        four = next(r for r, n in counts.items() if n == 4)
        pair = next(r for r, n in counts.items() if n == 2)
        return ("four_two", (four, pair))
    if shape == [3, 3]:
        return ("three_three", tuple(sorted(counts, reverse=True)))
    if shape == [2, 2, 2]:
        return ("paiute", tuple(sorted(counts, reverse=True)))
    return None


# -- the search ------------------------------------------------------------------------------


@cache
def _substitutions(count: int) -> np.ndarray:
    """Every multiset of ``count`` natural cards, as rows of card indices 0..51."""
    rows = list(combinations_with_replacement(range(52), count))
    return np.array(rows, dtype=np.int16).reshape(len(rows), count)


_WHEEL = np.array([2, 3, 4, 5, 14])


def _search_five(naturals: tuple[Natural, ...], wild: int, royal_high: bool) -> Ref | None:
    if wild == 0:
        return classify_five(naturals)
    subs = _substitutions(wild)
    rows = len(subs)
    ranks = np.empty((rows, 5), dtype=np.int16)
    suits = np.empty((rows, 5), dtype=np.int16)
    for column, (rank, suit) in enumerate(naturals):
        ranks[:, column] = rank
        suits[:, column] = suit
    ranks[:, len(naturals) :] = subs // 4 + 2
    suits[:, len(naturals) :] = subs % 4
    ranks.sort(axis=1)
    five_kind = ranks[:, 0] == ranks[:, 4]
    one_suit = (suits == suits[:, :1]).all(axis=1)
    run = (np.diff(ranks, axis=1) == 1).all(axis=1)
    wheel = (ranks == _WHEEL).all(axis=1)
    royal = one_suit & run & (ranks[:, 4] == 14)
    straight = one_suit & ((run & (ranks[:, 4] < 14)) | wheel)
    # A score per row in the reference's own order; the highest wins.
    score = np.zeros(rows, dtype=np.int32)
    score = np.where(straight, 400 + np.where(wheel, 5, ranks[:, 4]), score)
    score = np.where(royal, 700 if royal_high else 500, score)
    score = np.maximum(score, np.where(five_kind, 600 + ranks[:, 0], 0))
    best = int(score.max())
    if best == 0:
        return None
    if best >= 700 or best == 500:
        return ("royal_flush", ())
    if best > 600:
        return ("five_of_a_kind", (best - 600,))
    return ("straight_flush", (best - 400,))


def _canonical_suits(naturals: Iterable[Natural]) -> tuple[Natural, ...]:
    """The least renaming of the suits of a holding (over all 24 permutations of the suits)."""
    cards = list(naturals)
    return min(tuple(sorted((rank, perm[suit]) for rank, suit in cards)) for perm in _SUIT_PERMUTATIONS)


_SUIT_PERMUTATIONS = tuple(permutations(range(4)))


@lru_cache(maxsize=200_000)
def _best_five_cached(naturals: tuple[Natural, ...], wild: int, royal_high: bool) -> Ref | None:
    return _search_five(naturals, wild, royal_high)


@lru_cache(maxsize=200_000)
def _best_six_cached(ranks: tuple[int, ...], wild: int) -> Ref | None:
    best: Ref | None = None
    for named in combinations_with_replacement(range(2, 15), wild):
        value = classify_six((*ranks, *named))
        if sort_key(value) > sort_key(best):
            best = value
    return best


def value(shown: Collection[object], wild: Collection[object], royal_high: bool = False) -> Ref | None:
    """R5.10: the best value of exactly these shown cards (5 or 6), ``None`` if none.

    ``shown`` and ``wild`` hold cards or their canonical texts; a card is wild when its text is
    in ``wild`` (so jokers, ``Jk1``/``Jk2``, must be listed there to be wild).
    """
    wild_texts = {str(card) for card in wild}
    texts = [str(card) for card in shown]
    naturals = [natural(text) for text in texts if text not in wild_texts]
    wild_count = len(texts) - len(naturals)
    if len(texts) == 5:
        return _best_five_cached(_canonical_suits(naturals), wild_count, royal_high)
    if len(texts) == 6:
        return _best_six_cached(tuple(sorted(rank for rank, _ in naturals)), wild_count)
    return None


def best_five(
    six: list[object], wild: Collection[object], royal_high: bool = False, forbidden: object = None
) -> tuple[Ref | None, list[object]]:
    """R6.2: the best five-card value of a six-card holding, and every card (never
    ``forbidden``, R4.3) whose putting-down reaches it."""
    values = {}
    for index, card in enumerate(six):
        if forbidden is not None and str(card) == str(forbidden):
            continue
        values[index] = value(six[:index] + six[index + 1 :], wild, royal_high)
    best = best_of(values.values(), royal_high)
    if best is None:
        return None, []
    return best, [six[i] for i, v in values.items() if v == best]


def best(
    six: list[object], wild: Collection[object], royal_high: bool = False, forbidden: object = None
) -> Ref | None:
    """The best call of a six-card holding: five-card (R6.2) or six-card (R6.3)."""
    five, _ = best_five(six, wild, royal_high, forbidden)
    return best_of([five, value(six, wild, royal_high)], royal_high)
