"""Batch evaluation of many six-card holdings at once, with NumPy (R3, R5).

:class:`BatchEvaluator` is the array form of :class:`paiute.evaluator.Evaluator`: given an
``(N, 6)`` array of card indices (naturals ``0..51`` = ``(rank - 2) * 4 + suit``, jokers 52
and 53) it returns the ``N`` integer codes that :meth:`Evaluator.best_code
<paiute.evaluator.Evaluator.best_code>` returns for each row, as an ``int32`` array. NumPy is
an optional dependency (the ``batch`` extra); nothing else in the package imports this module.

>>> import numpy as np
>>> from paiute.cards import parse_cards
>>> from paiute.combos import Value
>>> batch = BatchEvaluator.for_rank("3")
>>> held = np.array(
...     [
...         parse_cards("3h 3s Ad Ac Ks Kh"),
...         parse_cards("3c 3d 3h 3s 7d 2c"),
...         parse_cards("9h Th Jh 3d 3c Kc"),
...         parse_cards("2c 5d 8h Js Kc Ad"),
...     ],
...     dtype=np.uint8,
... )
>>> codes = batch.best_codes(held)
>>> codes
array([16080, 26368, 19712,     0], dtype=int32)
>>> [str(Value.from_code(int(code))) for code in codes]
['Four/Two, aces over kings', 'Five of a Kind, sevens', 'Straight Flush, king high', 'None']
>>> batch.six_codes(held), batch.best5_codes(held)
(array([16080, 14112,     0,     0], dtype=int32), array([    0, 26368, 19712,     0], dtype=int32))

How it is fast. Each row is read as three *pairs* of cards (the ``uint8`` array viewed as
``uint16``, one 65,536-entry table per pair position, built from the 54-entry card tables of the
wild set). A pair table entry packs the pair's rank class (one of the 105 unordered pairs of the
14 symbols: 13 ranks and "wild") in mixed radix 105, and its suit class (10 classes) in mixed
radix 10, so the three lookups summed give, in one ``int32``, an exact index into a
1,157,625-entry table of rank-based codes (the six-card combination, Five of a Kind in five of
the six, and the best of the two) and a 1,000-entry table that says whether the row could hold a
straight flush at all (some suit with its naturals plus the wild cards reaching five). Only
those rows (an upper bound that counts a pair of two different suits as one card of every suit;
a small share of random holdings) build the per-suit 13-bit masks of their naturals, looked up
with the wild count in an 8 x 8,192 table of the best straight flush. Rows go through in blocks
of 65,536 with scratch arrays reused from block to block, so the work stays in cache and no
large temporary is allocated (fresh memory costs page faults). The rank tables depend neither on
the wild set nor on ``royal_high`` and are built once per process (a fraction of a second); the
straight-flush table is built once per ``royal_high``; a new wild set only fills the three pair
tables (well under a millisecond). Its speed on random holdings is in benchmarks/README.md
(``ours_batch``).

Rows are not checked for repeated cards (that would cost more than the evaluation); like
:class:`~paiute.evaluator.Evaluator`, a row with a repeated card is evaluated as given.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from paiute.cards import CARDS, Card, Rank
from paiute.combos import CATEGORY_SHIFT, Category
from paiute.evaluator import STRAIGHT_FLUSH_WINDOWS, rank_codes

__all__ = ["BatchEvaluator"]

# Codes, as in paiute.evaluator: category order (R5) << CATEGORY_SHIFT | tie-break ranks, 4 bits each.
_STRAIGHT_FLUSH = Category.STRAIGHT_FLUSH.order() << CATEGORY_SHIFT

_CARD_COUNT = 54  # 52 naturals and two jokers (R1.1, R1.3)
_WILD = 13  # the rank symbol of a wild card; rank symbols 0..12 are twos..aces
_WILD_SUIT = 4

# The 105 unordered pairs of the 14 rank symbols, and each pair's class number.
_RANK_PAIRS = [(i, j) for i in range(14) for j in range(i, 14)]
_RANK_CLASSES = len(_RANK_PAIRS)
_RANK_PAIR_CLASS = np.zeros((14, 14), dtype=np.int64)
for _index, (_i, _j) in enumerate(_RANK_PAIRS):
    _RANK_PAIR_CLASS[_i, _j] = _RANK_PAIR_CLASS[_j, _i] = _index

# Suit classes of a pair: 0 both wild, 1+s one wild and one natural of suit s, 5+s two
# naturals of suit s, 9 two naturals of different suits.
_SUIT_CLASSES = 10
_SUIT_PAIR_CLASS = np.full((5, 5), 9, dtype=np.int64)
_SUIT_PAIR_CLASS[_WILD_SUIT, _WILD_SUIT] = 0
for _s in range(4):
    _SUIT_PAIR_CLASS[_s, _WILD_SUIT] = _SUIT_PAIR_CLASS[_WILD_SUIT, _s] = 1 + _s
    _SUIT_PAIR_CLASS[_s, _s] = 5 + _s

_SUIT_BITS = 10  # low bits of a row key: the suit-class triple, below 10**3 = 1000 < 1024
_SUIT_FIELD = (1 << _SUIT_BITS) - 1
_BLOCK = 1 << 16  # rows evaluated at a time


@functools.cache
def _rank_tables() -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16], npt.NDArray[np.int16]]:
    """Rank-based codes (best of the two, six-card, Five of a Kind in five of six) indexed by
    ``c0 + 105 * c1 + 105**2 * c2`` for the rank classes of a row's three pairs."""
    # Each pair class as a 3-bit-per-symbol count word; a row's word is the sum of three.
    words = np.zeros(_RANK_CLASSES, dtype=np.int64)
    for index, (i, j) in enumerate(_RANK_PAIRS):
        words[index] = (1 << (3 * i)) + (1 << (3 * j))
    row_words = (words[:, None, None] + words[None, :, None] + words[None, None, :]).ravel()
    unique, inverse = np.unique(row_words, return_inverse=True)
    counts = (unique[:, None] >> (3 * np.arange(14, dtype=np.int64))) & 7
    six = np.zeros(unique.size, dtype=np.int16)
    five = np.zeros(unique.size, dtype=np.int16)
    # Four naturals of different ranks or more make no rank-based combination at all.
    few = np.flatnonzero(np.count_nonzero(counts[:, :13], axis=1) <= 3)
    for index, row in zip(few.tolist(), counts[few].tolist(), strict=True):
        six[index], five[index] = rank_codes(row[:13], row[13])
    best = np.maximum(six, five)
    inverse = inverse.ravel()
    return best[inverse], six[inverse], five[inverse]


@functools.cache
def _candidate_table() -> npt.NDArray[np.bool_]:
    """For the suit-class triple ``s0 + 10 * s1 + 100 * s2`` of a row: could some suit's
    naturals and the wild cards number five? (An upper bound: a pair of two different suits
    counts one card for every suit.)"""
    contribution = np.zeros((_SUIT_CLASSES, 4), dtype=np.int64)
    contribution[0] = 2
    for s in range(4):
        contribution[1 + s] = 1
        contribution[1 + s, s] = 2
        contribution[5 + s, s] = 2
    contribution[9] = 1
    c = np.arange(_SUIT_CLASSES)
    totals = (
        contribution[c][:, None, None, :]
        + contribution[c][None, :, None, :]
        + contribution[c][None, None, :, :]
    )
    return np.asarray(totals.max(axis=3).ravel() >= 5)


@functools.cache
def _flush_table(royal_high: bool) -> npt.NDArray[np.int16]:
    """R5.2/R5.3 best straight flush among any five of six cards, indexed by one suit's 13-bit
    mask of naturals | the wild count << 13; 0 for an empty mask (a suit without naturals is
    not looked at, as in the evaluator)."""
    royal = Category.ROYAL_FLUSH.order(royal_high) << CATEGORY_SHIFT
    masks = np.arange(1 << 13, dtype=np.int64)
    popcount = np.zeros(masks.size, dtype=np.int64)
    for bit in range(13):
        popcount += (masks >> bit) & 1
    table = np.zeros((8, masks.size), dtype=np.int16)
    for wild in range(8):
        done = np.zeros(masks.size, dtype=np.bool_)
        for top, window in STRAIGHT_FLUSH_WINDOWS:
            made = ~done & (popcount[masks & window] + wild >= 5)
            table[wild, made] = royal if top == 14 else _STRAIGHT_FLUSH | top << 8
            done |= made
        table[wild, 0] = 0
    return table.ravel()


def _holdings(holdings: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """Check an ``(N, 6)`` array of card indices; return it as a C-contiguous uint8 array."""
    array = np.asarray(holdings)
    if array.dtype.kind not in "iu":
        raise ValueError(f"holdings must be an integer array of card indices, not dtype {array.dtype}")
    if array.ndim != 2 or array.shape[1] != 6:
        raise ValueError(
            f"holdings must have shape (N, 6), one row of six card indices per holding; "
            f"got shape {array.shape}"
        )
    if array.shape[0] == 0:
        return np.empty((0, 6), dtype=np.uint8)
    # One pass: seen as unsigned, a negative index is huge.
    unsigned = array.view(array.dtype.str.replace("i", "u"))
    if unsigned.max() >= _CARD_COUNT:
        row, column = (int(i) for i in np.argwhere((array < 0) | (array >= _CARD_COUNT))[0])
        raise ValueError(
            f"card index {int(array[row, column])} at row {row}, column {column} is out of "
            f"range: cards are 0..{_CARD_COUNT - 1} (0..51 naturals, 52 and 53 the jokers)"
        )
    return np.ascontiguousarray(array, dtype=np.uint8)


class BatchEvaluator:
    """Evaluates arrays of six-card holdings under one set of wild cards (R3) and
    ``royal_high`` (R5.8); the array form of :class:`paiute.evaluator.Evaluator`."""

    __slots__ = ("_flush", "_natural_bits", "_pairs", "_wild_count", "royal_high", "wild_cards")

    def __init__(self, wild_cards: Iterable[Card] = (), *, royal_high: bool = False) -> None:
        self.wild_cards = frozenset(wild_cards)
        self.royal_high = royal_high
        # The 54-entry card tables: rank symbol, suit symbol, straight-flush bit, wildness.
        wild = np.array(
            [card in self.wild_cards or card >= 52 for card in range(_CARD_COUNT)], dtype=np.bool_
        )
        cards = np.arange(_CARD_COUNT)
        rank = np.where(wild, _WILD, cards // 4)
        suit = np.where(wild, _WILD_SUIT, cards % 4)
        shift = np.where(wild, 0, rank + 16 * suit).astype(np.uint64)
        bits = np.where(wild, np.uint64(0), np.left_shift(np.uint64(1), shift))
        self._natural_bits: npt.NDArray[np.uint64] = bits.astype(np.uint64)
        self._wild_count: npt.NDArray[np.uint8] = wild.astype(np.uint8)
        # The three pair tables, indexed by a uint16 pair of card bytes (symmetric, so the
        # byte order does not matter).
        rank_class = _RANK_PAIR_CLASS[rank[:, None], rank[None, :]]
        suit_class = _SUIT_PAIR_CLASS[suit[:, None], suit[None, :]]
        index = (cards[:, None] | cards[None, :] << 8).ravel()
        pairs = []
        for position in range(3):
            table = np.zeros(1 << 16, dtype=np.int32)
            rank_part = rank_class * _RANK_CLASSES**position
            entry = (rank_part << _SUIT_BITS) | (suit_class * _SUIT_CLASSES**position)
            table[index] = entry.ravel()
            pairs.append(table)
        self._pairs = tuple(pairs)
        self._flush = _flush_table(royal_high)

    @classmethod
    def for_rank(cls, rank: str | Rank, *, royal_high: bool = False) -> BatchEvaluator:
        """All four cards of ``rank`` wild (R3.1, ``wild_colour = any``)."""
        rank = Rank.parse(rank) if isinstance(rank, str) else rank
        base = (int(rank) - 2) * 4
        return cls(CARDS[base : base + 4], royal_high=royal_high)

    @classmethod
    def for_jokers(cls, *, royal_high: bool = False) -> BatchEvaluator:
        """The two jokers are the only wild cards (R3.2)."""
        return cls(CARDS[52:], royal_high=royal_high)

    def __repr__(self) -> str:
        wild = " ".join(str(CARDS[card]) for card in sorted(self.wild_cards) if 0 <= card < _CARD_COUNT)
        return f"BatchEvaluator(wild=[{wild}], royal_high={self.royal_high})"

    # -- the public batch calls ------------------------------------------------------------

    def best_codes(self, holdings: npt.ArrayLike) -> npt.NDArray[np.int32]:
        """Row by row, :meth:`Evaluator.best_code <paiute.evaluator.Evaluator.best_code>`: the
        code of the best call (five- or six-card) of each six-card holding; 0 for none.

        ``holdings`` is an ``(N, 6)`` integer array of card indices 0..53 (a C-contiguous
        ``uint8`` array is the fastest: it is used without a copy); anything else raises
        :class:`ValueError`.
        """
        best, _, _ = _rank_tables()
        return self._evaluate(_holdings(holdings), best, flushes=True)

    def best5_codes(self, holdings: npt.ArrayLike) -> npt.NDArray[np.int32]:
        """Row by row, :meth:`Evaluator.best_five_code
        <paiute.evaluator.Evaluator.best_five_code>`: the best five-card combination among any
        five of the six cards (R5.1-R5.3); 0 for none."""
        _, _, five = _rank_tables()
        return self._evaluate(_holdings(holdings), five, flushes=True)

    def six_codes(self, holdings: npt.ArrayLike) -> npt.NDArray[np.int32]:
        """Row by row, :meth:`Evaluator.code <paiute.evaluator.Evaluator.code>` of all six
        cards: the six-card combination (R5.4-R5.6) they make; 0 for none."""
        _, six, _ = _rank_tables()
        return self._evaluate(_holdings(holdings), six, flushes=False)

    # -- the steps -------------------------------------------------------------------------

    def _evaluate(
        self, held: npt.NDArray[np.uint8], rank_codes: npt.NDArray[np.int16], *, flushes: bool
    ) -> npt.NDArray[np.int32]:
        """The rank-based code of each row from ``rank_codes``, raised to its best straight
        flush if ``flushes``.

        Rows go in blocks of :data:`_BLOCK` through scratch arrays made once per call, so the
        work stays in cache and no block allocates large temporaries (fresh memory costs page
        faults, which would cost more than the evaluation itself).
        """
        rows = held.shape[0]
        codes = np.empty(rows, dtype=np.int32)
        size = min(rows, _BLOCK)
        index_space = np.empty(size, dtype=np.intp)
        key_space = np.empty(size, dtype=np.int32)
        part_space = np.empty(size, dtype=np.int32)
        code_space = np.empty(size, dtype=np.int16)
        flag_space = np.empty(size, dtype=np.bool_)
        candidates = _candidate_table()
        pairs = held.view(np.uint16)  # the cards two by two (each table is symmetric)
        for start in range(0, rows, _BLOCK):
            stop = min(start + _BLOCK, rows)
            block = pairs[start:stop]
            index = index_space[: stop - start]
            key = key_space[: stop - start]
            part = part_space[: stop - start]
            # key = rank-class triple << 10 | suit-class triple (indices are valid: clip
            # skips the bounds check and the buffering of mode "raise")
            for position, table in enumerate(self._pairs):
                np.copyto(index, block[:, position])
                np.take(table, index, out=key if position == 0 else part, mode="clip")
                if position:
                    key += part
            np.right_shift(key, _SUIT_BITS, out=index)
            code = code_space[: stop - start]
            np.take(rank_codes, index, out=code, mode="clip")
            codes[start:stop] = code
            if not flushes:
                continue
            np.bitwise_and(key, _SUIT_FIELD, out=index)
            flag = flag_space[: stop - start]
            np.take(candidates, index, out=flag, mode="clip")
            found = np.flatnonzero(flag)
            if found.size:
                found += start
                codes[found] = np.maximum(codes[found], self._flushes(held[found]))
        return codes

    def _flushes(self, held: npt.NDArray[np.uint8]) -> npt.NDArray[np.int16]:
        """The best straight flush among any five of each row's six cards (R5.2, R5.3)."""
        bits = self._natural_bits
        wilds = self._wild_count
        mask = bits.take(held[:, 0])
        wild = wilds.take(held[:, 0]).astype(np.intp)
        for column in range(1, 6):
            mask |= bits.take(held[:, column])
            wild += wilds.take(held[:, column])
        wild <<= 13
        best = np.zeros(held.shape[0], dtype=np.int16)
        for suit in range(4):
            suited = (mask >> np.uint64(16 * suit)) & np.uint64(0x1FFF)
            np.maximum(best, self._flush.take(suited.astype(np.intp) | wild), out=best)
        return best
