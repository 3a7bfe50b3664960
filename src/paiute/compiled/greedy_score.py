"""``greedy``'s hand scoring on arrays, for :mod:`paiute.compiled.greedy`: the tables built
from :mod:`paiute.greedy_weights` (the very functions the Python player calls), the work array a
decision fills, and ``GreedyPosition.outs``, ``potential``, ``_flush_potential`` and ``score`` of
:mod:`paiute.players.greedy`, line for line, with the same floating-point operations in
the same order (so that both compute the same numbers).

Every shortcut here is exact: the potential loops over the ranks held (greedy's
``present``); a suit with fewer cards than a straight-flush window must hold has no window
(0.0); a natural card of a suit that cannot flush adds no straight flush, and a fourth
natural rank no rank-based combination, so neither needs a look-up.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from paiute.combos import CATEGORY_SHIFT
from paiute.compiled.compilation import inline, jit
from paiute.compiled.rules import may_call
from paiute.compiled.state import HASH_MULT, LANE, SUIT_MASK, WILD_SHIFT, WILD_UNIT
from paiute.compiled.tables import flush_six, hash_slot, rank_lookup, rank_table
from paiute.evaluator import STRAIGHT_FLUSH_WINDOWS
from paiute.greedy_weights import (
    FIVE_KIND,
    FOUR_TWO,
    PAIUTE,
    ROYAL,
    ROYAL_HIGH,
    STRAIGHT_FLUSH,
    THREE_THREE,
    category_weights,
    share_at_least,
    tail,
)
from paiute.rules import RuleSet

__all__ = [
    "GREEDY_WORK",
    "best_code",
    "bit_count",
    "greedy_tables",
    "hand_score",
    "keep_score",
    "suit_potential",
]

_SUPPLY = 55  # tail tables cover supplies and unseen counts 0..54
_RANK_COUNTS = (1 << 39) - 1  # a rank key's 13 three-bit counts
_RANK_LOW_BITS = sum(1 << (3 * rank) for rank in range(13))

# The work array (int64) of one decision: where each part lives.
W_LEGAL = 0  # 16 legal action ids
W_HELD = 16  # up to 7 cards held
W_TIES = 23  # up to 6 tied discards
W_TIED = 29  # how many
W_KNOWN = 30  # 8 card masks: the cards publicly known to be in each seat's hand (R4.5)
W_FREE = 38  # 4 rank masks: the unseen natural cards of each suit
W_UNSEEN = 42  # how many cards the seat has not seen
W_NATURAL = 43  # card mask of the unseen natural cards
W_WILD = 44  # how many wild cards the seat has not seen
W_PAIUTE = 45  # a Paiute may be called on any turn (R5.7)
W_KEEPS = 46  # how many best keeps this decision weighed (at most two)
W_KEEP_TIES = 47  # for each, how many cards tied for it (the Python player draws for each tie)
#: Entries of the int64 work array :func:`greedy_action` needs.
GREEDY_WORK = 49

# Integer parameters (the tables' sixth array): the horizon, the Royal Flush's category order.
G_HORIZON = 0
G_ROYAL = 1
# The rank keys that make a combination, as bits of a small filter (the tables' last array):
# a key whose bit is clear is not in ``tables.rank_table``, and ``_ranked`` answers 0 without
# reading that table, which is too large to stay in the fastest cache.
_FILTER_BITS = 16


@functools.cache
def _tails(horizon: int) -> np.ndarray[Any, Any]:
    """``tail(needed, draws, supply, unseen)`` for every argument greedy can pass (it asks
    for two or more cards, ``needed <= draws``; the rest are 0.0, as ``tail`` says)."""
    table = np.zeros((horizon + 1, horizon + 1, _SUPPLY, _SUPPLY), dtype=np.float64)
    for draws in range(2, horizon + 1):
        for needed in range(2, draws + 1):
            for supply in range(needed, _SUPPLY):
                for unseen in range(_SUPPLY):
                    table[needed, draws, supply, unseen] = tail(needed, draws, supply, unseen)
    return table


@functools.cache
def _key_filter() -> np.ndarray[Any, Any]:
    """Bit ``hash_slot(key, _FILTER_BITS)`` set for every rank key of ``tables.rank_table``."""
    keys = rank_table()[0]
    keys = keys[keys != 0]
    slots = ((keys * np.int64(HASH_MULT)) >> np.int64(64 - _FILTER_BITS)) & ((1 << _FILTER_BITS) - 1)
    words = np.zeros(1 << (_FILTER_BITS - 6), dtype=np.int64)
    np.bitwise_or.at(words, slots >> 6, np.left_shift(np.int64(1), slots & 63))
    return words


@functools.cache
def _greedy_tables(royal_high: bool, scale: bool, aggression: float, horizon: int) -> tuple[Any, ...]:
    rules = RuleSet(royal_high=royal_high, payout="scale" if scale else "pot")
    shares = np.zeros((8, 16), dtype=np.float64)
    for order in range(1, 8):
        for top in range(16):
            shares[order, top] = share_at_least(order, top, royal_high)
    windows = np.array(STRAIGHT_FLUSH_WINDOWS, dtype=np.int64)
    return (
        _tails(horizon),
        shares,
        np.array(category_weights(rules), dtype=np.float64),
        windows,
        np.array([aggression], dtype=np.float64),
        np.array([horizon, ROYAL_HIGH if royal_high else ROYAL], dtype=np.int64),
        _key_filter(),
    )


def greedy_tables(rules: RuleSet, *, aggression: float = 0.5, horizon: int = 3) -> tuple[Any, ...]:
    """The tables :func:`greedy_action` reads for ``rules`` and greedy's parameters:
    ``(tails, shares, weights, windows, floats, ints, key_filter)``, built once per process."""
    if not 0.0 <= aggression <= 1.0:
        raise ValueError(f"aggression must lie in 0..1, not {aggression!r}")
    if horizon < 2:
        raise ValueError(f"horizon must be at least 2, not {horizon!r}")
    return _greedy_tables(rules.royal_high, rules.payout == "scale", float(aggression), int(horizon))


# -- small helpers -------------------------------------------------------------------------


@inline
def bit_count(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@inline
def _ranked(tables: Any, g: Any, key: int) -> int:
    """The best rank-based code of a six-card rank key (R5.1, R5.4-R5.6: six cards or Five of a
    Kind in five), 0 for none; the filter answers most keys without the hash table."""
    slot = hash_slot(key, _FILTER_BITS)
    if not (g[6][slot >> 6] >> (slot & 63)) & 1:
        return 0
    six, five_of_six = rank_lookup(tables, key)
    return six if six > five_of_six else five_of_six


@inline
def best_code(tables: Any, key: int, bits: int) -> int:
    """``Evaluator.best_code`` of six cards: the best call, five- or six-card; 0 for none."""
    six, five_of_six = rank_lookup(tables, key)
    flush = flush_six(tables, bits, key >> WILD_SHIFT)
    best = six if six > five_of_six else five_of_six
    return flush if flush > best else best


# -- scoring a five-card hand (greedy's GreedyPosition.outs, potential, _flush_potential) --------


@inline
def _outs(tables: Any, g: Any, work: Any, key: int, bits: int, horizon: int, paiute_now: bool) -> float:
    """``GreedyPosition.outs``: the unseen cards that, drawn next, make a call, in
    ``draw_groups``'s order (by rank; a natural card of a suit the hand could flush with
    stands alone; the wild cards last)."""
    unseen = int(work[W_UNSEEN])
    if unseen == 0 or horizon <= 0:
        return 0.0
    weights = g[2]
    paiute_later = work[W_PAIUTE] != 0
    natural = work[W_NATURAL]
    nw = work[W_WILD]
    w = key >> WILD_SHIFT
    # The suits one card short of five for a straight flush (R5.2, R5.3), and the hand's own
    # straight flush, which needs five cards of a suit with the wild ones.
    flush_suits = 0
    own_flush = 0
    for suit in range(4):
        held = bit_count((bits >> (LANE * suit)) & SUIT_MASK) + w
        if held >= 4:
            flush_suits |= 1 << suit
            if held >= 5:
                own_flush = flush_six(tables, bits, w)
    counts = key & _RANK_COUNTS
    distinct = bit_count((counts | counts >> 1 | counts >> 2) & _RANK_LOW_BITS)  # natural ranks held
    # The ranks whose card can make a call (the others add nothing): any, where the hand has
    # two natural ranks or fewer or a straight flush already; else those of the unseen
    # cards of a suit that can flush, and with three natural ranks the ranks held.
    ranks = (1 << 13) - 1
    if distinct >= 3 and not own_flush:
        ranks = 0
        for suit in range(4):
            if (flush_suits >> suit) & 1:
                ranks |= work[W_FREE + suit]
        if distinct == 3:
            for rank in range(13):
                if (key >> (3 * rank)) & 7:
                    ranks |= 1 << rank
    now_sum = 0.0
    later_sum = 0.0
    now_hits = 0
    later_hits = 0
    while ranks:
        rank = bit_count((ranks & -ranks) - 1)  # the lowest first, as draw_groups orders them
        ranks &= ranks - 1
        cards = (natural >> (4 * rank)) & 0xF
        if not cards:
            continue
        rank_key = key + (1 << (3 * rank))
        # A rank-based combination holds at most three natural ranks (tables.rank_table
        # holds no other key): past that the look-up finds nothing, and is not made. One
        # look-up serves the plain group and every suit that can flush.
        rank_code = 0
        if distinct < 3 or (distinct == 3 and (key >> (3 * rank)) & 7):
            rank_code = _ranked(tables, g, rank_key)
        # One group of the suits that cannot flush, then each suit that can, alone. A
        # suit that cannot flush adds no straight flush: the hand's own, if any.
        plain = cards & ~flush_suits
        if plain:
            code = own_flush if own_flush > rank_code else rank_code
            if code:
                count = bit_count(plain)
                value = (weights[code >> CATEGORY_SHIFT] + 0.002 * ((code >> 8) & 0xF)) * count
                if may_call(code, 0, paiute_now):  # R5.7 (outs count whatever was called)
                    now_sum += value
                    now_hits += count
                if may_call(code, 0, paiute_later):
                    later_sum += value
                    later_hits += count
        flushy = cards & flush_suits
        suit = 0
        while flushy:
            if flushy & 1:
                if own_flush:
                    flush = flush_six(tables, bits | (1 << (rank + LANE * suit)), w)
                else:  # no other suit makes one: only this one can, with the card drawn
                    lane = ((bits >> (LANE * suit)) & SUIT_MASK) | (1 << rank)
                    flush = int(tables[4][(w << 13) | lane])
                code = flush if flush > rank_code else rank_code
                if code:
                    value = weights[code >> CATEGORY_SHIFT] + 0.002 * ((code >> 8) & 0xF)  # x 1 card
                    if may_call(code, 0, paiute_now):
                        now_sum += value
                        now_hits += 1
                    if may_call(code, 0, paiute_later):
                        later_sum += value
                        later_hits += 1
            flushy >>= 1
            suit += 1
    if nw:
        code = flush_six(tables, bits, w + 1) if flush_suits else 0
        if distinct <= 3:
            code = max(code, _ranked(tables, g, key + WILD_UNIT))
        if code:
            value = (weights[code >> CATEGORY_SHIFT] + 0.002 * ((code >> 8) & 0xF)) * nw
            if may_call(code, 0, paiute_now):
                now_sum += value
                now_hits += nw
            if may_call(code, 0, paiute_later):
                later_sum += value
                later_hits += nw
    score = now_sum / unseen
    if horizon > 1 and later_hits:
        p_now = now_hits / unseen
        p_later = later_hits / unseen
        # math.pow is the C library's pow, as Python's float ** int
        score += (1.0 - p_now) * (1.0 - math.pow(1.0 - p_later, horizon - 1)) * later_sum / later_hits
    return score


@inline
def _flush_potential(g: Any, work: Any, suit: int, mask: int, w: int, horizon: int) -> float:
    """``GreedyPosition._flush_potential``: the best straight-flush window of one suit two or more
    cards away (R5.2, R5.3)."""
    tails = g[0]
    weights = g[2]
    windows = g[3]
    royal = g[5][G_ROYAL]
    free = work[W_FREE + suit]
    nw = work[W_WILD]
    unseen = work[W_UNSEEN]
    fewest = 5 - horizon - w
    most = 3 - w
    best = 0.0
    for i in range(windows.shape[0]):
        top = windows[i, 0]
        window = windows[i, 1]
        hits = bit_count(mask & window)
        if fewest <= hits <= most:
            order = royal if top == 14 else STRAIGHT_FLUSH
            needed = 5 - hits - w
            value = (weights[order] + 0.002 * top) * tails[
                needed, horizon, bit_count(free & window) + nw, unseen
            ]
            best = max(best, value)
    return best


@inline
def suit_potential(g: Any, work: Any, suit: int, mask: int, w: int, horizon: int) -> float:
    """:func:`_flush_potential` of one suit's natural cards ``mask`` (0.0 where the suit has
    fewer cards than a window must hold, or where no card is unseen)."""
    if work[W_UNSEEN] == 0 or not mask or bit_count(mask) < 5 - horizon - w:
        return 0.0
    return _flush_potential(g, work, suit, mask, w, horizon)


@inline
def _rank_potential(g: Any, work: Any, key: int, horizon: int) -> float:
    """``GreedyPosition.potential`` without the straight flushes: the best of Five of a Kind,
    Four/Two, Three/Three and Paiute two or more cards away (R5.1, R5.4-R5.6)."""
    unseen = work[W_UNSEEN]
    if unseen == 0:
        return 0.0
    tails = g[0]
    weights = g[2]
    natural = work[W_NATURAL]
    nw = work[W_WILD]
    w = key >> WILD_SHIFT
    low = 2  # a combination one card away is counted exactly by _outs
    best = 0.0
    # The ranks present, highest first (greedy's ``present``), 4 bits each: at most five.
    present = 0
    count = 0
    first = 0  # the two largest counts of a natural rank
    second = 0
    for rank in range(12, -1, -1):
        held = (key >> (3 * rank)) & 7
        if held:
            present |= rank << (4 * count)
            count += 1
            if held > first:
                first, second = held, first
            elif held > second:
                second = held
    for i in range(count):  # R5.1 Five of a Kind
        a = (present >> (4 * i)) & 0xF
        needed = 5 - ((key >> (3 * a)) & 7) - w
        if low <= needed <= horizon:
            supply = bit_count((natural >> (4 * a)) & 0xF) + nw
            value = (weights[FIVE_KIND] + 0.002 * a) * tails[needed, horizon, supply, unseen]
            best = max(best, value)
    paiute_any = work[W_PAIUTE] != 0
    # Four/Two and Three/Three need at least ``short`` of their six cards held already, from
    # two ranks (needed <= horizon): the pairs of ranks short of it add nothing, and are
    # passed over unless a Paiute (R5.7), of three ranks, could be in reach.
    short = 6 - w - horizon
    if not paiute_any and first + second < short:
        count = 0
    for i in range(count):
        a = (present >> (4 * i)) & 0xF
        ca = (key >> (3 * a)) & 7
        if not paiute_any and ca + (second if ca == first else first) < short:
            continue
        na = bit_count((natural >> (4 * a)) & 0xF)
        a4 = na if ca < 4 else 0
        a3 = na if ca < 3 else 0
        a2 = na if ca < 2 else 0
        ca4 = ca if ca < 4 else 4
        ca3 = ca if ca < 3 else 3
        ca2 = ca if ca < 2 else 2
        for j in range(count):
            if j == i:
                continue
            b = (present >> (4 * j)) & 0xF
            cb = (key >> (3 * b)) & 7
            if not paiute_any and ca + cb < short:
                continue
            nb = bit_count((natural >> (4 * b)) & 0xF)
            b3 = nb if cb < 3 else 0
            b2 = nb if cb < 2 else 0
            cb2 = cb if cb < 2 else 2
            cb3 = cb if cb < 3 else 3
            # R5.4 Four/Two, a the four and b the pair
            needed = 6 - ca4 - cb2 - w
            if low <= needed <= horizon:
                value = weights[FOUR_TWO] + 0.002 * a
                if value > best:
                    value *= tails[needed, horizon, a4 + b2 + nw, unseen]
                    best = max(best, value)
            if j < i:
                continue
            needed = 6 - ca3 - cb3 - w  # R5.5 Three/Three
            if low <= needed <= horizon:
                value = weights[THREE_THREE] + 0.002 * a
                if value > best:
                    value *= tails[needed, horizon, a3 + b3 + nw, unseen]
                    best = max(best, value)
            if paiute_any:  # R5.6 Paiute, where any turn allows it (R5.7)
                for k in range(j + 1, count):
                    c = (present >> (4 * k)) & 0xF
                    cc = (key >> (3 * c)) & 7
                    nc = bit_count((natural >> (4 * c)) & 0xF)
                    c2 = nc if cc < 2 else 0
                    cc2 = cc if cc < 2 else 2
                    needed = 6 - ca2 - cb2 - cc2 - w
                    if low <= needed <= horizon:
                        value = weights[PAIUTE] + 0.002 * a
                        if value > best:
                            value *= tails[needed, horizon, a2 + b2 + c2 + nw, unseen]
                            best = max(best, value)
    return best


@inline
def _potential(g: Any, work: Any, key: int, bits: int, horizon: int) -> float:
    """``GreedyPosition.potential``: the best combination two or more cards away, its strength times
    the chance of drawing what it lacks within ``horizon`` draws (the maximum of every
    category's best, in any order)."""
    best = _rank_potential(g, work, key, horizon)
    w = key >> WILD_SHIFT
    for suit in range(4):  # R5.2, R5.3 straight flushes
        best = max(best, suit_potential(g, work, suit, (bits >> (LANE * suit)) & SUIT_MASK, w, horizon))
    return best


@jit
def hand_score(tables: Any, g: Any, work: Any, key: int, bits: int, horizon: int, paiute_now: bool) -> float:
    """``GreedyPosition.score``: how good a five-card hand (rank key ``key``, suit bits ``bits``) is
    to hold with ``horizon`` draws to come."""
    return _outs(tables, g, work, key, bits, horizon, paiute_now) + _potential(g, work, key, bits, horizon)


@inline
def keep_score(
    tables: Any, g: Any, work: Any, key: int, bits: int, horizon: int, paiute_now: bool, flushes: float
) -> float:
    """:func:`hand_score` given ``flushes``, the best of the hand's straight-flush potentials
    (:func:`suit_potential` of each suit): what a keep of several that share most suits
    works out once."""
    return _outs(tables, g, work, key, bits, horizon, paiute_now) + max(
        _rank_potential(g, work, key, horizon), flushes
    )
