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
calls come as tables built by the functions of :mod:`paiute.greedy_weights` that the Python player
calls, and the sums (the outs in :func:`paiute.outs.draw_groups`'s order, the potential,
:meth:`win_chance`, the 0.01 danger term, the 1e-12 and 1e-9 tolerances) are made in the
same order with the same operations, so that both compute the same floating-point numbers
(the hand scoring is :mod:`paiute.compiled.greedy_score`; this module decides).

**Ties.** Where cards tie for the best keep the Python player draws from its seeded
``random.Random`` (and chooses with that draw, in a discard); :func:`greedy_action` chooses
uniformly with deal ``d``'s own generator (:mod:`paiute.compiled.rng`), the same
distribution, repeatable under the deal's seed. :func:`greedy_decision` leaves the draws to
its caller, which can then make them, draw for draw, with the Python player's own generator
(:mod:`paiute.compiled.pyrandom`; the vector environment does). The tied cards are left in
the work array (:data:`W_TIES`, :data:`W_TIED`), and the ties of every keep weighed
(:data:`W_KEEPS`, :data:`W_KEEP_TIES`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from paiute.combos import CATEGORY_SHIFT
from paiute.compiled.compilation import inline, jit
from paiute.compiled.greedy_score import (
    G_HORIZON,
    GREEDY_WORK,
    W_FREE,
    W_HELD,
    W_KEEP_TIES,
    W_KEEPS,
    W_KNOWN,
    W_LEGAL,
    W_NATURAL,
    W_PAIUTE,
    W_TIED,
    W_TIES,
    W_UNSEEN,
    W_WILD,
    best_code,
    bit_count,
    greedy_tables,
    hand_score,
    keep_score,
    suit_potential,
)
from paiute.compiled.rng import below
from paiute.compiled.rules import legal_actions, may_call
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
)
from paiute.compiled.tables import card_bits, card_key, five_code, rank_lookup
from paiute.greedy_weights import PAIUTE

__all__ = [
    "GREEDY_WORK",
    "TIE",
    "W_KEEPS",
    "W_KEEP_TIES",
    "W_TIED",
    "W_TIES",
    "greedy_action",
    "greedy_decide",
    "greedy_decision",
    "greedy_move",
    "greedy_tables",
]

_BIG = 1000.0  # the score of a hand that makes a call now (greedy's _BIG)
#: :func:`greedy_decision`'s answer when the discard is one of the tied cards
#: ``work[W_TIES:][:work[W_TIED]]``, for the caller to break the tie.
TIE = -2


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
    # Each suit's straight-flush potential with all its cards held: putting down a natural
    # card changes its own suit's only (R5.2, R5.3).
    w = key >> WILD_SHIFT
    spade = suit_potential(g, work, 0, bits & SUIT_MASK, w, horizon)
    heart = suit_potential(g, work, 1, (bits >> LANE) & SUIT_MASK, w, horizon)
    diamond = suit_potential(g, work, 2, (bits >> (2 * LANE)) & SUIT_MASK, w, horizon)
    club = suit_potential(g, work, 3, (bits >> (3 * LANE)) & SUIT_MASK, w, horizon)
    best_score = -1.0
    tied = 0
    for i in range(count):
        card = work[W_HELD + i]
        if card == taken or (naturals and (wild >> card) & 1):
            continue
        fed = bit_count((danger >> (4 * (card >> 2))) & 0xF) if card < 52 else 0
        kept_key = key - card_key(wild, card)
        kept_bits = bits & ~card_bits(wild, card)
        if (wild >> card) & 1:
            score = hand_score(tables, g, work, kept_key, kept_bits, horizon, paiute_now)
        else:
            suit = card & 3
            flushes = suit_potential(g, work, suit, (kept_bits >> (LANE * suit)) & SUIT_MASK, w, horizon)
            if suit != 0:
                flushes = max(flushes, spade)
            if suit != 1:
                flushes = max(flushes, heart)
            if suit != 2:
                flushes = max(flushes, diamond)
            if suit != 3:
                flushes = max(flushes, club)
            score = keep_score(tables, g, work, kept_key, kept_bits, horizon, paiute_now, flushes)
        score -= 0.01 * fed
        if score > best_score + 1e-12:
            best_score = score
            work[W_TIES] = card
            tied = 1
        elif score > best_score - 1e-12:
            work[W_TIES + tied] = card
            tied += 1
    work[W_TIED] = tied
    keeps = work[W_KEEPS]
    if keeps < 2:
        work[W_KEEP_TIES + keeps] = tied
        work[W_KEEPS] = keeps + 1
    return best_score


@inline
def _best_call_code(
    s: Any, tables: Any, work: Any, d: int, key: int, bits: int, count: int, forbidden: int, paiute_ok: bool
) -> int:
    """``GreedyPosition.best_call_code`` of the six cards ``work[W_HELD:][:count]``: the best call
    they may make now (R6), 0 for none; never putting down ``forbidden`` (R4.3, R6.2)."""
    if best_code(tables, key, bits) == 0:
        return 0
    floor = s.best[d]
    wild = s.wild[d]
    best = 0
    six, _ = rank_lookup(tables, key)
    if may_call(six, floor, paiute_ok):  # R5.7, R6.4
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
    """``GreedyPosition.win_chance``: the estimated chance that no player still to have a turn
    (R7.2) beats ``code``."""
    seat = s.seat[d]
    players = p[P_PLAYERS]
    wilds = bit_count(s.wild[d])
    chance = 1.0
    order = code >> CATEGORY_SHIFT
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
        made *= 1.0 + 0.5 * bit_count(work[W_KNOWN + other])
        beat = min(0.9, made) * share
        if order == PAIUTE and (not paiute_first or draws == 0):
            paiute = 0.01 * wilds + 0.02 if draws == 0 else 0.05 + 0.02 * wilds
            beat += paiute * (15 - top) / 13
        chance *= 1.0 - min(0.95, beat)
    return chance


@inline
def _survey(s: Any, p: Any, work: Any, d: int, seat: int) -> None:
    """What ``GreedyPosition`` and ``Unseen.of`` work out once a decision: the cards the seat has not
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
    work[W_UNSEEN] = bit_count(unseen)
    work[W_NATURAL] = natural
    work[W_WILD] = bit_count(unseen & wild)
    for suit in range(4):
        free = 0
        for rank in range(13):
            if (natural >> (4 * rank + suit)) & 1:
                free |= 1 << rank
        work[W_FREE + suit] = free
    work[W_PAIUTE] = p[P_PAIUTE_ANY]


@inline
def _danger(s: Any, p: Any, work: Any, d: int, seat: int) -> int:
    """``greedy.ranks_next_seat_collects``: the natural cards known to be in the hand of the next player to
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
    :data:`GREEDY_WORK` entries. A tie between discards is broken with deal ``d``'s generator."""
    action = greedy_decide(s, tables, g, p, d, work)
    if action == TIE:  # greedy breaks the tie at random: here with the deal's generator
        return DISCARD_BASE + int(work[W_TIES + below(s.rng, d, work[W_TIED])])
    return action


@jit
def greedy_decision(s: Any, tables: Any, g: Any, p: Any, d: int, work: Any) -> int:
    """:func:`greedy_action` leaving every random draw to the caller: :data:`TIE` where the
    discard is one of the cards that tie (``work[W_TIES:][:work[W_TIED]]``, lowest first),
    and in ``work[W_KEEP_TIES:][:work[W_KEEPS]]`` how many cards tied for each best keep
    weighed, in order: ``GreedyPlayer`` draws ``randrange(ties)`` for each one above 1, the
    last of which, in a discard, chooses the card."""
    return greedy_decide(s, tables, g, p, d, work)


@inline
def greedy_decide(s: Any, tables: Any, g: Any, p: Any, d: int, work: Any) -> int:
    """:func:`greedy_decision` inlined into its caller (a kernel that decides often, where a
    call passing the state would cost a good part of a decision)."""
    work[W_KEEPS] = 0
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
            stock = hand_score(tables, g, work, key, bits, horizon, paiute_now)
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
        if not may_call(code, 0, paiute_any):
            return call  # R5.7: a Paiute now or never (no later turn may call it)
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
    if work[W_TIED] > 1:
        return TIE
    return DISCARD_BASE + int(work[W_TIES])


@jit
def greedy_move(s: Any, tables: Any, g: Any, p: Any, d: int, work: Any) -> int:
    """:func:`greedy_action` as a kernel of its own (for a player or a test)."""
    return greedy_action(s, tables, g, p, d, work)
