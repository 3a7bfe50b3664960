"""``greedy`` compiled: :meth:`GreedyPlayer.act <paiute.players.greedy.GreedyPlayer.act>`
on the compiled core's arrays, decision for decision, a few microseconds a decision.

It is a line-by-line port of :mod:`paiute.players.greedy` (read that module for *what* it
does: exact outs, the potential of combinations two or more cards away, the draw, the keep,
the call rule with ``aggression`` and the ``_danger`` term) and reads only what the seat to
act may see (R9), from the state of deal ``d``:

* its own hand, the discard pile, the wild cards, the upcard where it lies face up (under
  the stock, R2.6, or out of play), the calls and their shown cards (R6.5), the cards
  publicly known to be in each hand (``known``, R4.5), the draws per seat, the card taken
  this turn (R4.3), the stock's size and the rebuilds (R4.6, R4.7) -- never another hand's
  hidden cards nor the stock's order, which is why it decides the same on a
  :class:`~paiute.compiled.search.Position`'s template (where those are not even filled in)
  as on any determinization of it (``tests/test_compiled_greedy.py``).

The numbers are greedy's own: the binomial tails, the category weights and the shares of
calls come as tables built by the functions of :mod:`paiute.scoring` that the Python player
calls, and the sums (the outs in :func:`paiute.outs.draw_groups`'s order, the potential,
:meth:`win_chance`, the 0.01 danger term, the 1e-12 and 1e-9 tolerances) are made in the
same order with the same operations, so that both compute the same floating-point numbers.

**Ties.** Where discards tie for the best score the Python player chooses with its seeded
``random.Random``; this one chooses uniformly with deal ``d``'s own generator
(:mod:`paiute.compiled.rng`), the same distribution, repeatable under the deal's seed. The
tied cards are left in the work array (:data:`W_TIES`, :data:`W_TIED`) for the tests.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from paiute.compiled._jit import inline, jit
from paiute.compiled.rng import below
from paiute.compiled.rules import legal_actions
from paiute.compiled.state import (
    CALL_BASE,
    CALL_SIX_ID,
    DISCARD_BASE,
    DRAW,
    LANE,
    P_MAX_REBUILDS,
    P_PACK,
    P_PAIUTE_ANY,
    P_PLAYERS,
    P_UNDER,
    SUIT_MASK,
    WILD_SHIFT,
    WILD_UNIT,
)
from paiute.compiled.tables import card_bits, card_key, five_code, flush_six, rank_lookup
from paiute.evaluator import STRAIGHT_FLUSH_WINDOWS
from paiute.rules import RuleSet
from paiute.scoring import (
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

__all__ = ["GREEDY_WORK", "greedy_action", "greedy_move", "greedy_tables"]

_BIG = 1000.0  # the score of a hand that makes a call now (greedy's _BIG)
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
#: Entries of the int64 work array :func:`greedy_action` needs.
GREEDY_WORK = 46

# Integer parameters (the tables' last array): the horizon, the Royal Flush's category order.
G_HORIZON = 0
G_ROYAL = 1


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
    )


def greedy_tables(rules: RuleSet, *, aggression: float = 0.5, horizon: int = 3) -> tuple[Any, ...]:
    """The tables :func:`greedy_action` reads for ``rules`` and greedy's parameters:
    ``(tails, shares, weights, windows, floats, ints)``, built once per process."""
    if not 0.0 <= aggression <= 1.0:
        raise ValueError(f"aggression must lie in 0..1, not {aggression!r}")
    if horizon < 2:
        raise ValueError(f"horizon must be at least 2, not {horizon!r}")
    return _greedy_tables(rules.royal_high, rules.payout == "scale", float(aggression), int(horizon))


# -- small helpers -------------------------------------------------------------------------


@inline
def _bit_count(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@inline
def _best_code(tables: Any, key: int, bits: int) -> int:
    """``Evaluator.best_code`` of six cards: the best call, five- or six-card; 0 for none."""
    six, five_of_six = rank_lookup(tables, key)
    flush = flush_six(tables, bits, key >> WILD_SHIFT)
    best = six if six > five_of_six else five_of_six
    return flush if flush > best else best


# -- scoring a five-card hand (greedy's _Table.outs, potential, _flush_potential) --------


@inline
def _outs(tables: Any, g: Any, work: Any, key: int, bits: int, horizon: int, paiute_now: bool) -> float:
    """``_Table.outs``: the unseen cards that, drawn next, make a call, in
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
    flush_suits = 0
    for suit in range(4):
        if _bit_count((bits >> (LANE * suit)) & SUIT_MASK) + w >= 4:
            flush_suits |= 1 << suit
    own_flush = flush_six(tables, bits, w)
    counts = key & _RANK_COUNTS
    distinct = _bit_count((counts | counts >> 1 | counts >> 2) & _RANK_LOW_BITS)  # natural ranks held
    now_sum = 0.0
    later_sum = 0.0
    now_hits = 0
    later_hits = 0
    for rank in range(13):
        cards = (natural >> (4 * rank)) & 0xF
        if not cards:
            continue
        rank_key = key + (1 << (3 * rank))
        # One group of the suits that cannot flush, then each suit that can, alone. A
        # suit that cannot flush adds no straight flush: the hand's own, if any. A fourth
        # natural rank makes no rank-based combination (tables.rank_table holds none), so
        # then there is nothing to look up.
        plain = cards & ~flush_suits
        if plain:
            code = own_flush
            if distinct < 3 or (key >> (3 * rank)) & 7:
                six, five_of_six = rank_lookup(tables, rank_key)
                if six > code:
                    code = six
                if five_of_six > code:
                    code = five_of_six
            if code:
                count = _bit_count(plain)
                order = code >> 12
                value = (weights[order] + 0.002 * ((code >> 8) & 0xF)) * count
                if order != PAIUTE or paiute_now:
                    now_sum += value
                    now_hits += count
                if order != PAIUTE or paiute_later:
                    later_sum += value
                    later_hits += count
        flushy = cards & flush_suits
        suit = 0
        while flushy:
            if flushy & 1:
                code = _best_code(tables, rank_key, bits | (1 << (rank + LANE * suit)))
                if code:
                    order = code >> 12
                    value = weights[order] + 0.002 * ((code >> 8) & 0xF)  # x 1 card
                    if order != PAIUTE or paiute_now:
                        now_sum += value
                        now_hits += 1
                    if order != PAIUTE or paiute_later:
                        later_sum += value
                        later_hits += 1
            flushy >>= 1
            suit += 1
    if nw:
        code = _best_code(tables, key + WILD_UNIT, bits)
        if code:
            order = code >> 12
            value = (weights[order] + 0.002 * ((code >> 8) & 0xF)) * nw
            if order != PAIUTE or paiute_now:
                now_sum += value
                now_hits += nw
            if order != PAIUTE or paiute_later:
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
    """``_Table._flush_potential``: the best straight-flush window of one suit two or more
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
        hits = _bit_count(mask & window)
        if fewest <= hits <= most:
            order = royal if top == 14 else STRAIGHT_FLUSH
            needed = 5 - hits - w
            value = (weights[order] + 0.002 * top) * tails[
                needed, horizon, _bit_count(free & window) + nw, unseen
            ]
            best = max(best, value)
    return best


@inline
def _potential(g: Any, work: Any, key: int, bits: int, horizon: int) -> float:
    """``_Table.potential``: the best combination two or more cards away, its strength times
    the chance of drawing what it lacks within ``horizon`` draws."""
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
    for rank in range(12, -1, -1):
        if (key >> (3 * rank)) & 7:
            present |= rank << (4 * count)
            count += 1
    for i in range(count):  # R5.1 Five of a Kind
        a = (present >> (4 * i)) & 0xF
        needed = 5 - ((key >> (3 * a)) & 7) - w
        if low <= needed <= horizon:
            supply = _bit_count((natural >> (4 * a)) & 0xF) + nw
            value = (weights[FIVE_KIND] + 0.002 * a) * tails[needed, horizon, supply, unseen]
            best = max(best, value)
    paiute_any = work[W_PAIUTE] != 0
    for i in range(count):
        a = (present >> (4 * i)) & 0xF
        ca = (key >> (3 * a)) & 7
        na = _bit_count((natural >> (4 * a)) & 0xF)
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
            nb = _bit_count((natural >> (4 * b)) & 0xF)
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
                    nc = _bit_count((natural >> (4 * c)) & 0xF)
                    c2 = nc if cc < 2 else 0
                    cc2 = cc if cc < 2 else 2
                    needed = 6 - ca2 - cb2 - cc2 - w
                    if low <= needed <= horizon:
                        value = weights[PAIUTE] + 0.002 * a
                        if value > best:
                            value *= tails[needed, horizon, a2 + b2 + c2 + nw, unseen]
                            best = max(best, value)
    for suit in range(4):  # R5.2, R5.3 straight flushes
        mask = (bits >> (LANE * suit)) & SUIT_MASK
        # (a suit with fewer cards than a window must hold has no window: 0.0)
        if mask and _bit_count(mask) >= 5 - horizon - w:
            best = max(best, _flush_potential(g, work, suit, mask, w, horizon))
    return best


@jit
def _score(tables: Any, g: Any, work: Any, key: int, bits: int, horizon: int, paiute_now: bool) -> float:
    """``_Table.score``: how good a five-card hand (rank key ``key``, suit bits ``bits``) is
    to hold with ``horizon`` draws to come."""
    return _outs(tables, g, work, key, bits, horizon, paiute_now) + _potential(g, work, key, bits, horizon)


@jit
def _best_keep(
    tables: Any,
    g: Any,
    work: Any,
    wild: int,
    key: int,
    bits: int,
    count: int,
    taken: int,
    danger: int,
    horizon: int,
) -> float:
    """``GreedyPlayer._best_keep`` of the cards ``work[W_HELD:][:count]`` (rank key ``key``,
    suit bits ``bits``): the best score of the five kept, never putting down ``taken``
    (R4.3) nor a wild card while a natural one can go (R3); the cards that tie for it go to
    ``work[W_TIES:]``, their number to ``work[W_TIED]``. ``danger``: the natural cards
    known to be in the next player's hand, whose ranks it would rather not feed."""
    naturals = 0
    for i in range(count):
        card = work[W_HELD + i]
        if card != taken and not (wild >> card) & 1:
            naturals += 1
    paiute_now = work[W_PAIUTE] != 0
    best_score = -1.0
    tied = 0
    for i in range(count):
        card = work[W_HELD + i]
        if card == taken or (naturals and (wild >> card) & 1):
            continue
        fed = _bit_count((danger >> (4 * (card >> 2))) & 0xF) if card < 52 else 0
        score = (
            _score(
                tables,
                g,
                work,
                key - card_key(wild, card),
                bits & ~card_bits(wild, card),
                horizon,
                paiute_now,
            )
            - 0.01 * fed
        )
        if score > best_score + 1e-12:
            best_score = score
            work[W_TIES] = card
            tied = 1
        elif score > best_score - 1e-12:
            work[W_TIES + tied] = card
            tied += 1
    work[W_TIED] = tied
    return best_score


@inline
def _best_call_code(
    s: Any, tables: Any, work: Any, d: int, key: int, bits: int, count: int, forbidden: int, paiute_ok: bool
) -> int:
    """``_Table.best_call_code`` of the six cards ``work[W_HELD:][:count]``: the best call
    they may make now (R6), 0 for none; never putting down ``forbidden`` (R4.3, R6.2)."""
    if _best_code(tables, key, bits) == 0:
        return 0
    floor = s.best[d]
    wild = s.wild[d]
    best = 0
    six, _ = rank_lookup(tables, key)
    if six and ((six >> 12) != PAIUTE or paiute_ok) and six >= floor:  # R5.7, R6.4
        best = six
    for i in range(count):
        card = work[W_HELD + i]
        if card == forbidden:
            continue
        code = five_code(tables, key - card_key(wild, card), bits & ~card_bits(wild, card))
        if code > best and code >= floor:
            best = code
    return best


@inline
def _called(s: Any, d: int, seat: int) -> bool:
    for i in range(s.n_calls[d]):  # noqa: SIM110 (a loop compiles without allocating)
        if s.call_seat[d, i] == seat:
            return True
    return False


@inline
def _win_chance(s: Any, p: Any, g: Any, work: Any, d: int, code: int) -> float:
    """``_Table.win_chance``: the estimated chance that no player still to have a turn
    (R7.2) beats ``code``."""
    seat = s.seat[d]
    players = p[P_PLAYERS]
    wilds = _bit_count(s.wild[d])
    chance = 1.0
    order = code >> 12
    top = (code >> 8) & 0xF
    share = g[1][order, top]
    paiute_first = p[P_PAIUTE_ANY] == 0
    other = seat
    while other != s.dealer[d]:
        other = (other + 1) % players
        if _called(s, d, other):
            continue
        draws = s.draws[d, other]
        developed = min(1.0, draws / 3)
        # Roughly the rate at which greedy opponents call in the last round of self-play.
        made = (0.002 + 0.004 * developed) * wilds + 0.015 * developed
        made *= 1.0 + 0.5 * _bit_count(work[W_KNOWN + other])
        beat = min(0.9, made) * share
        if order == PAIUTE and (not paiute_first or draws == 0):
            paiute = 0.01 * wilds + 0.02 if draws == 0 else 0.05 + 0.02 * wilds
            beat += paiute * (15 - top) / 13
        chance *= 1.0 - min(0.95, beat)
    return chance


@inline
def _survey(s: Any, p: Any, work: Any, d: int, seat: int) -> None:
    """What ``_Table`` and ``Unseen.of`` work out once a decision: the cards the seat has not
    seen (the pack less its hand, the pile, the shown calls, the cards known to be in hands,
    the upcard where it lies face up: ``paiute.observation.seen_cards``) and the cards
    known to be in each hand."""
    wild = s.wild[d]
    seen = 0
    for i in range(s.hand_len[d, seat]):
        seen |= 1 << int(s.hands[d, seat, i])
    for i in range(s.discard_len[d]):  # R4.5: the whole pile is public
        seen |= 1 << int(s.discard[d, i])
    for i in range(s.n_calls[d]):  # R6.5: shown cards stay face up
        shown = 5 if s.call_card[d, i] >= 0 else 6
        for j in range(shown):
            seen |= 1 << int(s.call_shown[d, i, j])
    for other in range(8):
        work[W_KNOWN + other] = 0
    pack = p[P_PACK]
    for card in range(pack):  # R4.5: cards seen going into a hand
        holder = s.known[d, card]
        if holder >= 0:
            seen |= 1 << card
            work[W_KNOWN + holder] |= 1 << card
    upcard = s.upcard[d]
    if upcard >= 0 and (s.upcard_in_stock[d] or not p[P_UNDER]):  # R2.6: face up
        seen |= 1 << upcard
    unseen = ((1 << pack) - 1) & ~seen
    natural = unseen & ~wild & ((1 << 52) - 1)
    work[W_UNSEEN] = _bit_count(unseen)
    work[W_NATURAL] = natural
    work[W_WILD] = _bit_count(unseen & wild)
    for suit in range(4):
        free = 0
        for rank in range(13):
            if (natural >> (4 * rank + suit)) & 1:
                free |= 1 << rank
        work[W_FREE + suit] = free
    work[W_PAIUTE] = p[P_PAIUTE_ANY]


@inline
def _danger(s: Any, p: Any, work: Any, d: int, seat: int) -> int:
    """``greedy._danger``: the natural cards known to be in the hand of the next player to
    draw (cards taken from the pile, R4.5), as a card mask."""
    players = p[P_PLAYERS]
    following = (seat + 1) % players
    while _called(s, d, following) and following != seat:
        following = (following + 1) % players
    return int(work[W_KNOWN + following] & ((1 << 52) - 1))


@jit
def greedy_action(s: Any, tables: Any, g: Any, p: Any, d: int, work: Any) -> int:
    """``GreedyPlayer.act``'s action id for the seat to act in deal ``d`` (see the module);
    -1 if it has no legal action. ``g`` is :func:`greedy_tables`, ``work`` an int64 array of
    :data:`GREEDY_WORK` entries."""
    legal = work[W_LEGAL : W_LEGAL + 16]
    n = legal_actions(s, tables, p, d, legal)
    if n == 0:
        return -1
    if n == 1:
        return int(legal[0])
    seat = s.seat[d]
    wild = s.wild[d]
    horizon = g[5][G_HORIZON]
    paiute_any = p[P_PAIUTE_ANY] != 0
    _survey(s, p, work, d, seat)
    count = s.hand_len[d, seat]
    key = s.hand_key[d, seat]
    bits = s.hand_bits[d, seat]
    for i in range(count):
        work[W_HELD + i] = s.hands[d, seat, i]
    if s.phase[d] == DRAW:  # greedy._draw (R4.2)
        top = int(np.int64(s.discard[d, s.discard_len[d] - 1]))  # int64: one signature for _best_keep
        work[W_HELD + count] = top
        taken_key = key + card_key(wild, top)
        taken_bits = bits | card_bits(wild, top)
        paiute_now = s.draws[d, seat] == 0 or paiute_any  # this draw is the seat's first (R5.7)
        if _best_call_code(s, tables, work, d, taken_key, taken_bits, count + 1, top, paiute_now):
            return 1  # the discard completes a combination
        if s.n_calls[d] > 0:  # R7.2: the last turn; only a call counts
            return 0
        danger = _danger(s, p, work, d, seat)
        keep = _best_keep(tables, g, work, wild, taken_key, taken_bits, count + 1, top, danger, horizon - 1)
        if s.stock_len[d] == 0 and s.rebuilds[d] >= p[P_MAX_REBUILDS]:
            stock = 0.0  # R4.7: drawing would end the deal dead
        elif s.stock_len[d] == 1 and s.upcard_in_stock[d]:
            bottom = s.upcard[d]  # R2.6: the last stock card is face up
            work[W_HELD + count] = bottom
            drawn_key = key + card_key(wild, bottom)
            drawn_bits = bits | card_bits(wild, bottom)
            if _best_call_code(s, tables, work, d, drawn_key, drawn_bits, count + 1, -1, paiute_now):
                stock = _BIG
            else:
                stock = _best_keep(
                    tables,
                    g,
                    work,
                    wild,
                    drawn_key,
                    drawn_bits,
                    count + 1,
                    int(np.int64(-1)),
                    danger,
                    horizon - 1,
                )
        else:
            stock = _score(tables, g, work, key, bits, horizon, paiute_now)
        return 1 if keep > stock + 1e-9 else 0
    # greedy._discard_or_call (R4.2, R6)
    call = -1
    code = 0
    call_wild = True
    for i in range(n):
        action = legal[i]
        if action < CALL_BASE:
            continue
        if action == CALL_SIX_ID:
            value, _ = rank_lookup(tables, key)
            put_wild = False
            card = -1
        else:
            card = action - CALL_BASE
            value = five_code(tables, key - card_key(wild, card), bits & ~card_bits(wild, card))
            put_wild = ((wild >> card) & 1) == 1
        # The best call (R5); of equals, a natural card put down rather than a wild one,
        # then the lowest (legal actions come in id order).
        if value > code or (value == code and call_wild and not put_wild):
            call, code, call_wild = action, value, put_wild
    last_round = s.n_calls[d] > 0
    if call >= 0:
        if last_round:
            return call  # R7.2: the last turn; a call that is legal equals or beats (R6.4)
        if (code >> 12) == PAIUTE and not paiute_any:
            return call  # R5.7: a Paiute now or never
    if last_round:  # the last turn and no call: the lowest natural discard will do
        fallback = -1
        for i in range(n):
            action = legal[i]
            if action >= CALL_BASE:
                continue
            if not (wild >> (action - DISCARD_BASE)) & 1:
                return int(action)
            if fallback < 0:
                fallback = int(action)
        return fallback
    danger = _danger(s, p, work, d, seat)
    keep_score = _best_keep(tables, g, work, wild, key, bits, count, s.taken[d], danger, horizon)
    if call >= 0:
        threshold = (1.0 - g[4][0]) * min(1.0, keep_score)
        if _win_chance(s, p, g, work, d, code) >= threshold:
            return call
    tied = work[W_TIED]
    if tied > 1:  # greedy breaks the tie at random: here with the deal's generator
        return DISCARD_BASE + int(work[W_TIES + below(s.rng, d, tied)])
    return DISCARD_BASE + int(work[W_TIES])


@jit
def greedy_move(s: Any, tables: Any, g: Any, p: Any, d: int, work: Any) -> int:
    """:func:`greedy_action` as a kernel of its own (for a player or a test)."""
    return greedy_action(s, tables, g, p, d, work)
