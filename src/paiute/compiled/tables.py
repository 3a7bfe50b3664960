"""The evaluator on arrays (R5): rank keys and suit bits, the rank-code hash table and the
straight-flush tables, built from :mod:`paiute.evaluator` itself (nothing is written twice).

A holding is the evaluator's pair of integers: the *rank key* (3 bits of count per rank, the
wild count from bit 39) and the *suit bits* (a 13-bit rank mask per suit). The tables tuple
every kernel takes is ``tables(royal_high)``: ``(keys, six, five_of_six, bits, any_five,
exact)``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from paiute.cards import Card
from paiute.combos import CATEGORY_SHIFT, ROYAL_FLUSH_ORDER, ROYAL_HIGH_ORDER, STRAIGHT_FLUSH_ORDER
from paiute.compiled.compilation import inline, jit
from paiute.compiled.state import FIVE_KIND, HASH_MULT, LANE, SUIT_MASK, WILD_SHIFT, WILD_UNIT
from paiute.evaluator import STRAIGHT_FLUSH_WINDOWS, rank_codes

__all__ = [
    "card_bits",
    "card_key",
    "evaluate_rows",
    "five_code",
    "flush_six",
    "rank_lookup",
    "rank_table",
    "straight_flush_tables",
    "tables",
    "wild_mask",
]

_FLUSH_WILDS = 8  # straight-flush tables cover 0..7 wild cards
_HASH_BITS = 14  # 16,384 slots for the ~3,400 rank keys that make a combination
_RANK_UNIT = [1 << (3 * rank) for rank in range(13)]


@inline
def hash_slot(key: int, bits: int) -> int:
    """The home slot of a rank key in a table of ``1 << bits`` slots (Fibonacci hashing)."""
    return ((key * HASH_MULT) >> (64 - bits)) & ((1 << bits) - 1)


@jit
def build_hash(
    keys: np.ndarray[Any, Any], bits: int, used: np.ndarray[Any, Any], slots: np.ndarray[Any, Any]
) -> None:
    """Where each key goes (``slots``) in an open-addressed table of ``1 << bits`` slots
    (linear probing); ``used`` is a zeroed boolean array of that size."""
    size = 1 << bits
    for i in range(keys.size):
        slot = hash_slot(keys[i], bits)
        while used[slot]:
            slot = (slot + 1) & (size - 1)
        used[slot] = True
        slots[i] = slot


@inline
def rank_lookup(tables: Any, key: int) -> tuple[int, int]:
    """(six-card code, Five of a Kind in five of six) of a six-card rank key (0: none)."""
    keys = tables[0]
    bits = tables[3]
    size_mask = keys.size - 1
    slot = hash_slot(key, bits)
    while True:
        found = keys[slot]
        if found == key:
            return int(tables[1][slot]), int(tables[2][slot])
        if found == 0:
            return 0, 0
        slot = (slot + 1) & size_mask


@inline
def flush_six(tables: Any, suit_bits: int, wild: int) -> int:
    """Best straight flush among any five of six cards (R5.2, R5.3); 0 for none."""
    flush6 = tables[4]
    base = wild << 13
    best = 0
    for suit in range(4):
        lane = (suit_bits >> (LANE * suit)) & SUIT_MASK
        if lane:
            code = int(flush6[base | lane])
            if code > best:
                best = code
    return best


@inline
def five_code(tables: Any, key: int, suit_bits: int) -> int:
    """R5.10 for exactly five shown cards: :meth:`Evaluator.code` of five cards."""
    wild = key >> WILD_SHIFT
    # R5.1 Five of a Kind: every natural of one rank (five wild cards name aces).
    code = FIVE_KIND | 14 << 8 if wild == 5 else 0
    for rank in range(12, -1, -1):
        count = (key >> (3 * rank)) & 7
        if count:
            if count + wild == 5:
                code = FIVE_KIND | (rank + 2) << 8
            break
    suited = 0
    for suit in range(4):
        lane = (suit_bits >> (LANE * suit)) & SUIT_MASK
        if lane:
            if suited:
                return code  # naturals of two suits: no straight flush
            suited = lane
    flush = int(tables[5][(wild << 13) | suited])
    return flush if flush > code else code


@inline
def card_key(wild_mask: int, card: int) -> int:
    if (wild_mask >> card) & 1:
        return WILD_UNIT
    return 1 << (3 * (card >> 2))


@inline
def card_bits(wild_mask: int, card: int) -> int:
    if (wild_mask >> card) & 1:
        return 0
    return 1 << ((card >> 2) + LANE * (card & 3))


@inline
def rekey_hand(s: Any, d: int, seat: int) -> None:
    """Sort ``seat``'s hand in deal ``d`` of a batch and recompute its rank key and suit bits
    (the evaluator's encoding), after its cards were written in any order."""
    wild = s.wild[d]
    n = s.hand_len[d, seat]
    for i in range(1, n):  # insertion sort of at most seven cards
        card = s.hands[d, seat, i]
        j = i
        while j > 0 and s.hands[d, seat, j - 1] > card:
            s.hands[d, seat, j] = s.hands[d, seat, j - 1]
            j -= 1
        s.hands[d, seat, j] = card
    key = 0
    bits = 0
    for i in range(n):
        card = int(s.hands[d, seat, i])
        key += card_key(wild, card)
        bits |= card_bits(wild, card)
    s.hand_key[d, seat] = key
    s.hand_bits[d, seat] = bits


@jit
def evaluate_rows(tables: Any, wild_mask: int, rows: np.ndarray[Any, Any], out: np.ndarray[Any, Any]) -> None:
    """For checking against the evaluator: per six-card row, best code, best five-card code,
    six-card code, then the code of the five left when each card is put down."""
    for r in range(rows.shape[0]):
        key = 0
        bits = 0
        for j in range(6):
            key += card_key(wild_mask, rows[r, j])
            bits |= card_bits(wild_mask, rows[r, j])
        six, five_of_six = rank_lookup(tables, key)
        flush = flush_six(tables, bits, key >> WILD_SHIFT)
        best_five = five_of_six if five_of_six > flush else flush
        out[r, 0] = six if six > best_five else best_five
        out[r, 1] = best_five
        out[r, 2] = six
        for j in range(6):
            card = rows[r, j]
            out[r, 3 + j] = five_code(
                tables, key - card_key(wild_mask, card), bits & ~card_bits(wild_mask, card)
            )


# -- the tables, built once per process ----------------------------------------------------


@functools.cache
def rank_table() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[np.int32], int]:
    """The evaluator's rank-based codes as an open-addressed hash table for the kernels.

    Returns ``(keys, six, five_of_six, bits)``: ``1 << bits`` slots; a slot holds a six-card
    rank key (:mod:`paiute.evaluator`'s encoding: 3 bits of count per rank, the wild count
    from bit 39) or 0 for empty, and the two codes :func:`paiute.evaluator.rank_codes` gives
    for it (R5.4-R5.6 with all six cards; Five of a Kind in five of them). Only keys with a
    combination are stored; they have at most three distinct natural ranks (a Paiute has
    three, the other rank-based combinations fewer), so those are all the keys asked about.
    """
    keys: list[int] = []
    six_codes: list[int] = []
    five_codes: list[int] = []
    for wild in range(7):
        naturals = 6 - wild
        for counts in _rank_counts(naturals):
            six, five = rank_codes(counts, wild)
            if six or five:
                keys.append(sum(c * u for c, u in zip(counts, _RANK_UNIT, strict=True)) + (wild << 39))
                six_codes.append(six)
                five_codes.append(five)
    key_array = np.array(keys, dtype=np.int64)
    size = 1 << _HASH_BITS
    slots = np.zeros(key_array.size, dtype=np.int64)
    build_hash(key_array, _HASH_BITS, np.zeros(size, dtype=np.bool_), slots)
    table_keys = np.zeros(size, dtype=np.int64)
    table_six = np.zeros(size, dtype=np.int32)
    table_five = np.zeros(size, dtype=np.int32)
    table_keys[slots] = key_array
    table_six[slots] = six_codes
    table_five[slots] = five_codes
    return table_keys, table_six, table_five, _HASH_BITS


def _rank_counts(total: int) -> Iterator[list[int]]:
    """Every count vector over the 13 ranks with at most three ranks used, at most four
    cards a rank, summing to ``total``."""
    if total == 0:
        yield [0] * 13
        return
    for used in range(1, 4):
        for ranks in _subsets(range(13), used):
            for split in _compositions(total, used):
                if max(split) <= 4:
                    counts = [0] * 13
                    for rank, count in zip(ranks, split, strict=True):
                        counts[rank] = count
                    yield counts


def _subsets(items: Sequence[int], size: int) -> Iterator[tuple[int, ...]]:
    if size == 0:
        yield ()
        return
    for index, item in enumerate(items):
        for rest in _subsets(items[index + 1 :], size - 1):
            yield (item, *rest)


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Ways to write ``total`` as ``parts`` positive whole numbers, in order."""
    if parts == 1:
        yield (total,)
        return
    for first in range(1, total - parts + 2):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


@functools.cache
def straight_flush_tables(royal_high: bool) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """R5.2/R5.3 as two tables indexed by ``wild << 13 | suit_mask`` (one suit's naturals as a
    13-bit rank mask, ``wild`` wild cards, 0..7): the best straight flush among any five of
    six cards (0 for an empty mask, which the evaluator never looks up), and of exactly five
    shown cards (every natural inside the window, naturals and wilds five in all)."""
    royal = (ROYAL_HIGH_ORDER if royal_high else ROYAL_FLUSH_ORDER) << CATEGORY_SHIFT
    masks = np.arange(1 << 13, dtype=np.int64)
    popcount = np.zeros(masks.size, dtype=np.int64)
    for bit in range(13):
        popcount += (masks >> bit) & 1
    any_five = np.zeros((_FLUSH_WILDS, masks.size), dtype=np.int32)
    exact = np.zeros((_FLUSH_WILDS, masks.size), dtype=np.int32)
    for wild in range(_FLUSH_WILDS):
        done_any = np.zeros(masks.size, dtype=np.bool_)
        done_exact = np.zeros(masks.size, dtype=np.bool_)
        for top, window in STRAIGHT_FLUSH_WINDOWS:  # best first
            code = royal if top == 14 else STRAIGHT_FLUSH_ORDER << CATEGORY_SHIFT | top << 8
            hits = popcount[masks & window]
            made = ~done_any & (hits + wild >= 5)
            any_five[wild, made] = code
            done_any |= made
            made = ~done_exact & ((masks & ~window) == 0) & (hits + wild == 5)
            exact[wild, made] = code
            done_exact |= made
        any_five[wild, 0] = 0
    return any_five.ravel(), exact.ravel()


def tables(royal_high: bool) -> tuple[Any, ...]:
    keys, six, five, bits = rank_table()
    any_five, exact = straight_flush_tables(royal_high)
    return (keys, six, five, bits, any_five, exact)


def wild_mask(wild_cards: Sequence[Card] | frozenset[Card]) -> int:
    mask = 0
    for card in wild_cards:
        mask |= 1 << int(card)
    return mask
