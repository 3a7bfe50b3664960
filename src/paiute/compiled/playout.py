"""A compiled playout policy: the essence of ``greedy`` (:mod:`paiute.players.greedy`) on the
compiled core's arrays, some hundred nanoseconds a decision.

It plays every seat of a playout from the true state of the playout's deal (a determinized
one: the search's sample of the hidden cards), but looks at nothing a seat could not know
but its own hand and the public piles:

* **call** (R6): the best legal call as soon as one is legal (in the last round, R7.2, the
  legal calls are already only those that equal or beat the highest, R6.4; a Paiute is now
  or never where it is allowed only on the first turn, R5.7); of equal calls it puts down a
  natural card rather than a wild one;
* **draw** (R4.2): the discard-pile top when it makes a call, or (before any call) when the
  best five cards it would then keep (the taken card stays, R4.3) score better than the hand
  with a stock draw still to come; the stock otherwise, unless drawing it would end the deal
  dead (R4.7) or is not possible (R4.6);
* **discard**: the card whose loss leaves the best-scoring five, never a wild card while a
  natural one can go (R3); in the last round, where only a call counts, the lowest natural
  card (as ``greedy``).

A five-card hand scores by how close it is to each combination (R5.1-R5.6): the cards it
lacks, and for a hand one card short the live *outs* (cards of the ranks it needs, or wild
cards, that are neither in the hand nor in the discard pile), weighted by what the
combination is worth (units with ``payout = scale``, R8.4).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import numpy.typing as npt

from paiute.combos import (
    FIVE_OF_A_KIND_ORDER,
    FOUR_TWO_ORDER,
    PAIUTE_ORDER,
    STRAIGHT_FLUSH_ORDER,
    THREE_THREE_ORDER,
)
from paiute.compiled.compilation import inline
from paiute.compiled.rules import legal_actions, may_call
from paiute.compiled.state import (
    CALL_BASE,
    CALL_SIX_ID,
    DISCARD_BASE,
    DRAW,
    LANE,
    P_MAX_REBUILDS,
    P_PAIUTE_ANY,
    SUIT_MASK,
    WILD_SHIFT,
)
from paiute.compiled.tables import card_bits, card_key, five_code, rank_lookup
from paiute.evaluator import STRAIGHT_FLUSH_WINDOWS

__all__ = ["policy_action", "policy_tables"]

# Chance weights by the number of cards a combination still lacks (index), for two or more;
# one card short is counted by its live outs (OUT_WEIGHT each, at most ONE_SHORT_CAP).
_LACKING = np.array([1.0, 0.0, 0.045, 0.005, 0.0004, 0.0, 0.0, 0.0], dtype=np.float64)
OUT_WEIGHT = 0.075
ONE_SHORT_CAP = 0.6
# A card taken from the pile must beat the hand with a stock draw to come by this factor.
TAKE_FACTOR = 0.8


@functools.cache  # built once a process, not once a decision, as the core's other tables
def policy_tables(scale: bool) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """``(window_hits, weights)``: per 13-bit suit mask, the most of its ranks inside one
    straight-flush window (R5.2, R5.3); per category order 0..7, what a combination is worth
    (pot: about equal, a little more for being harder to beat; scale: its units, R8.4)."""
    masks = np.arange(1 << 13, dtype=np.int64)
    hits = np.zeros(masks.size, dtype=np.int64)
    for _, window in STRAIGHT_FLUSH_WINDOWS:
        inside = np.zeros(masks.size, dtype=np.int64)
        for bit in range(13):
            inside += ((masks & window) >> bit) & 1
        hits = np.maximum(hits, inside)
    if scale:
        weights = np.array([0.0, 1.0, 2.0, 3.0, 4.0, 4.0, 5.0, 4.0])
    else:
        weights = np.array([0.0, 1.0, 1.06, 1.12, 1.18, 1.24, 1.3, 1.36])
    return hits, weights


@inline
def _chance(lacking: int, outs: int) -> float:
    if lacking <= 0:
        return 1.0
    if lacking == 1:
        value = OUT_WEIGHT * outs
        return value if value < ONE_SHORT_CAP else ONE_SHORT_CAP
    if lacking >= 8:
        return 0.0
    return float(_LACKING[lacking])


@inline
def suit_reach(bits: int, suit: int, window_hits: Any) -> int:
    """The most of ``suit``'s cards in suit bits ``bits`` inside one straight-flush window."""
    return int(window_hits[(bits >> (LANE * suit)) & SUIT_MASK])


@inline
def flush_reach(bits: int, window_hits: Any) -> int:
    """The most cards of one suit inside one straight-flush window (R5.2, R5.3)."""
    best = 0
    for suit in range(4):
        hits = suit_reach(bits, suit, window_hits)
        if hits > best:
            best = hits
    return best


@inline
def hand_score(
    key: int,
    reach: int,
    held: Any,
    count: int,
    skip: int,
    wild: int,
    live: Any,
    live_wild: int,
    weights: Any,
    paiute: bool,
) -> float:
    """How promising five cards are, see the module: ``held[:count]`` (sorted, as the core
    keeps hands) less the card ``skip`` (-1 for none), whose rank key is ``key`` and whose
    :func:`flush_reach` is ``reach``."""
    w = key >> WILD_SHIFT
    c1 = c2 = c3 = 0
    r1 = r2 = r3 = 0
    # The three largest rank counts (the higher rank first among equals), from the cards
    # themselves: five or six of them, rather than thirteen ranks. ``held`` is sorted, so
    # the cards of a rank are adjacent and each rank is higher than those before it.
    last = -1
    for i in range(count):
        card = int(held[i])
        if card == skip or (wild >> card) & 1:
            continue
        rank = card >> 2
        if rank == last:
            continue
        last = rank
        n = (key >> (3 * rank)) & 7
        if n >= c1:
            c3, r3 = c2, r2
            c2, r2 = c1, r1
            c1, r1 = n, rank
        elif n >= c2:
            c3, r3 = c2, r2
            c2, r2 = n, rank
        elif n >= c3:
            c3, r3 = n, rank
    lw = live_wild if live_wild > 0 else 0
    l1 = live[r1] if c1 else 0
    l2 = live[r2] if c2 else 0
    # R5.1 Five of a Kind
    score = weights[FIVE_OF_A_KIND_ORDER] * _chance(5 - c1 - w, l1 + lw)
    # R5.4 Four/Two
    short1 = 4 - c1 if c1 < 4 else 0
    short2 = 2 - c2 if c2 < 2 else 0
    outs = lw + (l1 if short1 else 0) + (l2 if short2 else 0)
    value = weights[FOUR_TWO_ORDER] * _chance(short1 + short2 - w, outs)
    # R5.5 Three/Three
    short1 = 3 - c1 if c1 < 3 else 0
    short2 = 3 - c2 if c2 < 3 else 0
    outs = lw + (l1 if short1 else 0) + (l2 if short2 else 0)
    other = weights[THREE_THREE_ORDER] * _chance(short1 + short2 - w, outs)
    if other > value:
        value = other
    if paiute:  # R5.6, where it may be called on a later turn (R5.7)
        short1 = 2 - c1 if c1 < 2 else 0
        short2 = 2 - c2 if c2 < 2 else 0
        short3 = 2 - c3 if c3 < 2 else 0
        l3 = live[r3] if c3 else 0
        outs = lw + (l1 if short1 else 0) + (l2 if short2 else 0) + (l3 if short3 else 0)
        other = weights[PAIUTE_ORDER] * _chance(short1 + short2 + short3 - w, outs)
        if other > value:
            value = other
    score += value
    if reach:  # R5.2, R5.3 straight flushes: the best window of any suit
        score += weights[STRAIGHT_FLUSH_ORDER] * _chance(5 - reach - w, 2 + lw)
    return float(score + 0.0001 * (r1 + 2))


@inline
def _best_call(s: Any, tables: Any, d: int, seat: int, n: int, scratch: Any) -> int:
    """The legal call with the best code among ``scratch[:n]`` (R5), a natural card put down
    rather than a wild one; -1 for none."""
    key = s.hand_key[d, seat]
    bits = s.hand_bits[d, seat]
    wild = s.wild[d]
    best = -1
    best_code = -1
    best_wild = True
    for i in range(n):
        action = scratch[i]
        if action < CALL_BASE:
            continue
        if action == CALL_SIX_ID:
            code, _ = rank_lookup(tables, key)
            put_wild = False
        else:
            card = action - CALL_BASE
            code = five_code(tables, key - card_key(wild, card), bits & ~card_bits(wild, card))
            put_wild = ((wild >> card) & 1) == 1
        if code > best_code or (code == best_code and best_wild and not put_wild):
            best, best_code, best_wild = action, code, put_wild
    return best


@inline
def _live_counts(s: Any, d: int, seat: int, live: Any) -> int:
    """Per rank, the natural cards neither in ``seat``'s hand nor in the discard pile; and
    the wild cards likewise (what the seat can count from what it sees, R9)."""
    wild = s.wild[d]
    wilds: int = ((wild >> 52) & 1) + ((wild >> 53) & 1)  # the jokers (R3.2)
    for rank in range(13):  # the wild cards of a rank (R3.1, R3.3) are not its naturals
        four = (wild >> (4 * rank)) & 15
        count = (four & 1) + ((four >> 1) & 1) + ((four >> 2) & 1) + (four >> 3)
        live[rank] = 4 - count
        wilds += count
    for i in range(s.discard_len[d]):
        card = int(s.discard[d, i])
        if (wild >> card) & 1:
            wilds -= 1
        elif card < 52:
            live[card >> 2] -= 1
    for i in range(s.hand_len[d, seat]):
        card = int(s.hands[d, seat, i])
        if (wild >> card) & 1:
            wilds -= 1
        elif card < 52:
            live[card >> 2] -= 1
    return wilds


@inline
def _best_keep(
    s: Any,
    d: int,
    seat: int,
    key: int,
    bits: int,
    held: Any,
    count: int,
    keep: int,
    live: Any,
    live_wild: int,
    ptables: Any,
    paiute: bool,
) -> tuple[float, int]:
    """The card to put down from ``held[:count]`` (never ``keep``, R4.3; a wild card only if
    nothing else can go, R3) and the score of the five left."""
    wild = s.wild[d]
    window_hits = ptables[0]
    weights = ptables[1]
    # Putting a card down changes only its own suit's reach: the others' are kept.
    r0 = suit_reach(bits, 0, window_hits)
    r1 = suit_reach(bits, 1, window_hits)
    r2 = suit_reach(bits, 2, window_hits)
    r3 = suit_reach(bits, 3, window_hits)
    best_score = -1.0
    best_card = -1
    for natural_pass in range(2):
        for i in range(count):
            card = int(held[i])
            if card == keep:
                continue
            is_wild = ((wild >> card) & 1) == 1
            if natural_pass == 0 and is_wild:
                continue
            if is_wild or card >= 52:
                reach = max(max(r0, r1), max(r2, r3))
            else:
                suit = card & 3
                own = suit_reach(bits & ~card_bits(wild, card), suit, window_hits)
                reach = max(
                    max(own if suit == 0 else r0, own if suit == 1 else r1),
                    max(own if suit == 2 else r2, own if suit == 3 else r3),
                )
            score = hand_score(
                key - card_key(wild, card),
                reach,
                held,
                count,
                card,
                wild,
                live,
                live_wild,
                weights,
                paiute,
            )
            if score > best_score:
                best_score, best_card = score, card
        if best_card >= 0:
            break
    return best_score, best_card


@inline
def policy_action(
    s: Any, tables: Any, ptables: Any, p: Any, d: int, scratch: Any, live: Any, held: Any
) -> int:
    """The policy's action id for the seat to act in deal ``d`` (see the module)."""
    n = legal_actions(s, tables, p, d, scratch)
    if n == 1:
        return int(scratch[0])
    seat = s.seat[d]
    paiute = p[P_PAIUTE_ANY] != 0
    if s.phase[d] == DRAW:
        if n == 0:
            return -1
        top = int(s.discard[d, s.discard_len[d] - 1])
        wild = s.wild[d]
        key = s.hand_key[d, seat] + card_key(wild, top)
        bits = s.hand_bits[d, seat] | card_bits(wild, top)
        floor = s.best[d] if s.best[d] > 0 else 1
        # Would the top make a call (not putting the top itself down, R4.3, R6.2)?
        six, _ = rank_lookup(tables, key)
        if may_call(six, floor, paiute or s.draws[d, seat] == 0):  # R5.7 (its first draw), R6.4
            return 1
        for i in range(s.hand_len[d, seat]):
            card = int(s.hands[d, seat, i])
            if five_code(tables, key - card_key(wild, card), bits & ~card_bits(wild, card)) >= floor:
                return 1
        if s.n_calls[d] > 0:  # R7.2: the last turn, only a call counts
            return 0
        if s.stock_len[d] == 0 and s.rebuilds[d] >= p[P_MAX_REBUILDS]:
            return 1  # R4.7: the stock would end the deal dead
        if not (wild >> top) & 1 and top < 52:
            # A natural top that neither pairs a rank held nor lies within a straight-flush
            # reach (four ranks) of two cards of its suit cannot beat the hand: the stock.
            rank = top >> 2
            if not (s.hand_key[d, seat] >> (3 * rank)) & 7:
                lane = (s.hand_bits[d, seat] >> (LANE * (top & 3))) & SUIT_MASK
                near = lane & (((1 << 9) - 1) << rank >> 4)
                if (near & (near - 1)) == 0:  # fewer than two
                    return 0
        live_wild = _live_counts(s, d, seat, live)
        at = s.hand_len[d, seat]  # the hand and the top, sorted
        while at > 0 and s.hands[d, seat, at - 1] > top:
            held[at] = s.hands[d, seat, at - 1]
            at -= 1
        held[at] = top
        for i in range(at):
            held[i] = s.hands[d, seat, i]
        taken_score, _ = _best_keep(
            s, d, seat, key, bits, held, s.hand_len[d, seat] + 1, top, live, live_wild, ptables, paiute
        )
        stock_score = hand_score(
            s.hand_key[d, seat],
            flush_reach(s.hand_bits[d, seat], ptables[0]),
            held,
            s.hand_len[d, seat] + 1,
            top,  # the hand alone
            wild,
            live,
            live_wild,
            ptables[1],
            paiute,
        )
        return 1 if TAKE_FACTOR * taken_score > stock_score else 0
    call = _best_call(s, tables, d, seat, n, scratch)
    if call >= 0:
        return call
    count = s.hand_len[d, seat]
    if s.n_calls[d] > 0:  # R7.2: the last turn and no call; greedy's choice, the lowest natural
        wild = s.wild[d]
        fallback = -1
        for i in range(count):
            card = int(s.hands[d, seat, i])
            if card == s.taken[d]:
                continue
            if not (wild >> card) & 1:
                return DISCARD_BASE + card
            if fallback < 0:
                fallback = card
        return DISCARD_BASE + fallback
    live_wild = _live_counts(s, d, seat, live)
    for i in range(count):
        held[i] = s.hands[d, seat, i]
    _, card = _best_keep(
        s,
        d,
        seat,
        s.hand_key[d, seat],
        s.hand_bits[d, seat],
        held,
        count,
        s.taken[d],
        live,
        live_wild,
        ptables,
        paiute,
    )
    return DISCARD_BASE + card
