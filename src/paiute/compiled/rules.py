"""Legal actions and their effects in the compiled core (R4-R7), mirroring
:class:`paiute.deal.Deal` line for line: ``legal_actions`` is ``Deal.legal_actions`` (ids in
order), ``apply_action`` is ``Deal.apply`` without the check, ``why_illegal`` says which rule
refuses an action."""

from __future__ import annotations

from typing import Any

import numpy as np

from paiute.combos import CATEGORY_SHIFT, PAIUTE_ORDER
from paiute.compiled.compilation import inline, jit
from paiute.compiled.dealing import add_card, deal_from_deck, remove_card, shuffle_deck
from paiute.compiled.rng import below, seed_deal
from paiute.compiled.settle import finish_deal
from paiute.compiled.state import (
    CALL_BASE,
    CALL_SIX_ID,
    DISCARD,
    DISCARD_BASE,
    DRAW,
    FINISHED,
    ILLEGAL_BAD_ID,
    ILLEGAL_BELOW,
    ILLEGAL_DISCARD_EMPTY,
    ILLEGAL_DRAW_FIRST,
    ILLEGAL_DRAWN,
    ILLEGAL_NO_FIVE,
    ILLEGAL_NO_SIX,
    ILLEGAL_NONE,
    ILLEGAL_NOT_HELD,
    ILLEGAL_OVER,
    ILLEGAL_PAIUTE,
    ILLEGAL_STOCK,
    ILLEGAL_TAKEN,
    NUM_ACTIONS,
    P_KEEPS_TOP,
    P_MAX_REBUILDS,
    P_MAX_TURNS,
    P_PAIUTE_ANY,
    P_PLAYERS,
    P_RECORD,
    RUNNING,
    TRUNCATED,
    TURN_CAP,
    WILD_SHIFT,
)
from paiute.compiled.tables import card_bits, card_key, five_code, flush_six, rank_lookup

__all__ = [
    "apply_action",
    "apply_action_one",
    "cut_deal",
    "legal_actions",
    "legal_actions_one",
    "may_call",
    "needs_rebuild",
    "new_deal_one",
    "rebuild_cards",
    "rebuild_stock",
    "why_illegal",
]


@inline
def may_call(code: int, highest: int, paiute_now: bool) -> bool:
    """Whether a combination of evaluator code ``code`` may be called now: it is one (R6.1), a
    Paiute only where ``paiute_now`` says R5.7 allows it (the caller's first turn, or the
    option ``paiute_any_turn``), and it equals or beats ``highest``, the code of the highest
    call so far, 0 before any (R6.4). :func:`paiute.combos.may_call` compiled."""
    return code > 0 and code >= highest and ((code >> CATEGORY_SHIFT) != PAIUTE_ORDER or paiute_now)


@inline
def cut_deal(s: Any, d: int) -> None:
    """End deal ``d`` as cut (status ``TRUNCATED``): ``max_turns`` turns without a call (the
    R4.7 hole, docs/rules.md reading 17, settled as a dead deal, R8.5), or no legal action
    left, which R4.6's card count rules out (a guard against looping for ever)."""
    s.status[d] = TRUNCATED
    s.phase[d] = FINISHED


@inline
def _can_draw_stock(s: Any, p: Any, d: int) -> bool:
    """``Deal._can_draw_stock``: a rebuild (R4.6) or, past max_rebuilds, a dead deal (R4.7)."""
    if s.stock_len[d] > 0:
        return True
    if s.n_calls[d] == 0 and s.rebuilds[d] >= p[P_MAX_REBUILDS]:
        return True
    return bool(s.discard_len[d] > (1 if p[P_KEEPS_TOP] else 0))


@inline
def legal_actions(s: Any, tables: Any, p: Any, d: int, out: np.ndarray[Any, Any]) -> int:
    """Write the legal action ids of deal ``d`` into ``out`` in id order; return how many
    (``Deal.legal_actions``)."""
    phase = s.phase[d]
    if phase == DRAW:
        n = 0
        if _can_draw_stock(s, p, d):
            out[n] = 0
            n += 1
        if s.discard_len[d] > 0:
            out[n] = 1
            n += 1
        return n
    if phase != DISCARD:
        return 0
    seat = s.seat[d]
    taken = s.taken[d]
    held = s.hand_len[d, seat]
    n = 0
    for i in range(held):
        card = int(s.hands[d, seat, i])
        if card != taken:  # R4.3
            out[n] = DISCARD_BASE + card
            n += 1
    # R6.4: a call must equal or beat the highest so far.
    floor = s.best[d] if s.best[d] > 0 else 1
    key = s.hand_key[d, seat]
    bits = s.hand_bits[d, seat]
    six, five_of_six = rank_lookup(tables, key)
    flush = flush_six(tables, bits, key >> WILD_SHIFT)
    best_five = five_of_six if five_of_six > flush else flush
    if six < floor and best_five < floor:  # Evaluator.best_code below the floor
        return n
    if best_five >= floor:
        wild = s.wild[d]
        for i in range(held):
            card = int(s.hands[d, seat, i])
            if card == taken:  # R4.3, R6.2
                continue
            code = five_code(tables, key - card_key(wild, card), bits & ~card_bits(wild, card))
            if code >= floor:
                out[n] = CALL_BASE + card
                n += 1
    if may_call(six, floor, p[P_PAIUTE_ANY] != 0 or s.draws[d, seat] == 1):  # R5.7, R6.4
        out[n] = CALL_SIX_ID
        n += 1
    return n


@jit
def why_illegal(s: Any, tables: Any, p: Any, d: int, action: int, scratch: np.ndarray[Any, Any]) -> int:
    """``ILLEGAL_NONE`` if ``action`` is legal in deal ``d``, else the reason's code."""
    if s.status[d] != RUNNING:
        return ILLEGAL_OVER
    if action < 0 or action >= NUM_ACTIONS:
        return ILLEGAL_BAD_ID
    n = legal_actions_one(s, tables, p, d, scratch)
    for i in range(n):
        if scratch[i] == action:
            return ILLEGAL_NONE
    phase = s.phase[d]
    if phase == DRAW:
        if action == 0:
            return ILLEGAL_STOCK
        if action == 1:
            return ILLEGAL_DISCARD_EMPTY
        return ILLEGAL_DRAW_FIRST
    if action <= 1:
        return ILLEGAL_DRAWN
    seat = s.seat[d]
    card = action - (DISCARD_BASE if action < CALL_BASE else CALL_BASE)
    if action != CALL_SIX_ID:
        held = False
        for i in range(s.hand_len[d, seat]):
            if s.hands[d, seat, i] == card:
                held = True
        if not held:
            return ILLEGAL_NOT_HELD
        if card == s.taken[d]:
            return ILLEGAL_TAKEN
        key = s.hand_key[d, seat] - card_key(s.wild[d], card)
        code = five_code(tables, key, s.hand_bits[d, seat] & ~card_bits(s.wild[d], card))
        return ILLEGAL_NO_FIVE if code == 0 else ILLEGAL_BELOW
    six, _ = rank_lookup(tables, s.hand_key[d, seat])
    if six == 0:
        return ILLEGAL_NO_SIX
    if not may_call(six, 0, p[P_PAIUTE_ANY] != 0 or s.draws[d, seat] == 1):  # R5.7 (R6.4 below)
        return ILLEGAL_PAIUTE
    return ILLEGAL_BELOW


# -- applying actions -----------------------------------------------------------------------


@inline
def _log_action(s: Any, p: Any, d: int, action: int) -> None:
    s.n_actions[d] += 1
    if p[P_RECORD]:
        s.action_log[s.action_pos[d]] = action
        s.action_pos[d] += 1


@inline
def _end_turn(s: Any, p: Any, d: int) -> None:
    s.taken[d] = -1
    s.turns[d] += 1
    if s.n_calls[d] > 0 and s.seat[d] == s.dealer[d]:  # R7.1, R7.3
        finish_deal(s, p, d, False)
        return
    s.seat[d] = (s.seat[d] + 1) % p[P_PLAYERS]  # R2.2, R7.2
    s.phase[d] = DRAW
    # The R4.7 hole (docs/rules.md reading 17): cut after max_turns turns without a call;
    # after a call the last round (R7.2) is always played out.
    if s.n_calls[d] == 0 and s.turns[d] >= p[P_MAX_TURNS]:
        cut_deal(s, d)


@inline
def needs_rebuild(s: Any, p: Any, d: int) -> bool:
    """Whether ``draw stock`` in deal ``d`` now rebuilds the stock first (R4.6) rather than
    ending the deal dead (R4.7) or simply drawing."""
    return bool(s.stock_len[d] == 0 and not (s.n_calls[d] == 0 and s.rebuilds[d] >= p[P_MAX_REBUILDS]))


@inline
def rebuild_cards(s: Any, p: Any, d: int) -> int:
    """R4.6, first half: the cards that go into the new stock, the discard pile less its top
    card (by default), bottom first into ``stock[d, :size]``; returns ``size``. Shuffle them
    there (index 0 becomes the new top), then :func:`rebuild_stock`."""
    size = s.discard_len[d] - 1 if p[P_KEEPS_TOP] else s.discard_len[d]
    for i in range(size):
        s.stock[d, i] = s.discard[d, i]
    return int(size)


@inline
def rebuild_stock(s: Any, p: Any, d: int, size: int) -> None:
    """R4.6, second half: the shuffled ``stock[d, :size]`` (top first) becomes the stock."""
    if p[P_RECORD]:
        at = s.rebuild_pos[d]
        s.rebuild_log[at] = size
        for i in range(size):
            s.rebuild_log[at + 1 + i] = s.stock[d, i]
        s.rebuild_pos[d] = at + 1 + size
    # Top last, as the engine's list.
    for i in range(size // 2):
        t = s.stock[d, i]
        s.stock[d, i] = s.stock[d, size - 1 - i]
        s.stock[d, size - 1 - i] = t
    s.stock_len[d] = size
    if p[P_KEEPS_TOP]:
        s.discard[d, 0] = s.discard[d, size]
        s.discard_len[d] = 1
    else:
        s.discard_len[d] = 0
    s.rebuilds[d] += 1


@jit
def _rebuild(s: Any, p: Any, d: int) -> None:
    """R4.6: the discard pile (less its top card, by default) shuffled into a new stock."""
    size = rebuild_cards(s, p, d)
    for i in range(size - 1, 0, -1):
        j = below(s.rng, d, i + 1)
        t = s.stock[d, i]
        s.stock[d, i] = s.stock[d, j]
        s.stock[d, j] = t
    rebuild_stock(s, p, d, size)


@inline
def _put_down(s: Any, d: int, seat: int, card: int) -> None:
    """``seat`` puts ``card`` on the discard pile (a discard, or with a five-card call, R6.2)."""
    s.discard[d, s.discard_len[d]] = card
    s.discard_len[d] += 1
    s.known[d, card] = -1
    s.discarded[d, seat] |= 1 << card
    turn = s.turns[d] + 1  # the turn in progress, as the encoder counts turns started
    s.discard_turn[d, card] = turn if turn < TURN_CAP else TURN_CAP


@jit
def _call(s: Any, tables: Any, p: Any, d: int, card: int) -> None:
    """R6: a five-card call putting down ``card``, or a six-card call (``card`` = -1)."""
    seat = s.seat[d]
    i = s.n_calls[d]
    held = s.hand_len[d, seat]
    shown = 0
    for j in range(held):
        c = s.hands[d, seat, j]
        if c != card:
            s.call_shown[d, i, shown] = c
            shown += 1
            s.known[d, c] = -1
    wild = s.wild[d]
    if card >= 0:  # R6.2
        key = s.hand_key[d, seat] - card_key(wild, card)
        code = five_code(tables, key, s.hand_bits[d, seat] & ~card_bits(wild, card))
        _put_down(s, d, seat, card)
    else:  # R6.3: the discard pile stays as it is
        code, _ = rank_lookup(tables, s.hand_key[d, seat])
    s.call_seat[d, i] = seat
    s.call_code[d, i] = code
    s.call_first[d, i] = 1 if s.draws[d, seat] == 1 else 0
    s.call_card[d, i] = card
    s.n_calls[d] = i + 1
    s.hand_len[d, seat] = 0  # R6.5
    s.hand_key[d, seat] = 0
    s.hand_bits[d, seat] = 0
    if code > s.best[d]:
        s.best[d] = code


@inline
def apply_action(s: Any, tables: Any, p: Any, d: int, action: int) -> None:
    """Apply a legal ``action`` to deal ``d`` (``Deal.apply`` without the check)."""
    _log_action(s, p, d, action)
    seat = s.seat[d]
    if action == 0:  # draw stock
        if s.stock_len[d] == 0:
            if not needs_rebuild(s, p, d):
                finish_deal(s, p, d, True)  # R4.7
                return
            _rebuild(s, p, d)
        top = s.stock_len[d] - 1
        card = int(s.stock[d, top])
        if s.upcard_in_stock[d] and top == 0:  # R2.6: the face-up upcard is drawn
            s.upcard_in_stock[d] = 0
            s.known[d, card] = seat
        s.stock_len[d] = top
        add_card(s, d, seat, card)
        s.taken[d] = -1
        s.draws[d, seat] += 1
        s.phase[d] = DISCARD
    elif action == 1:  # draw discard (R4.5: public)
        top = s.discard_len[d] - 1
        card = int(s.discard[d, top])
        s.discard_len[d] = top
        add_card(s, d, seat, card)
        s.taken[d] = card
        s.known[d, card] = seat
        s.took[d, seat] |= 1 << card
        s.pile_draws[d, seat] += 1
        s.draws[d, seat] += 1
        s.phase[d] = DISCARD
    elif action < CALL_BASE:  # discard
        card = action - DISCARD_BASE
        remove_card(s, d, seat, card)
        _put_down(s, d, seat, card)
        _end_turn(s, p, d)
    else:
        _call(s, tables, p, d, action - CALL_BASE if action < CALL_SIX_ID else -1)
        _end_turn(s, p, d)


# Compiled once, for the lock-step kernels (whose speed the policy bounds anyway); the
# random-play loop inlines the helpers themselves. Inlining them into every kernel would
# multiply Numba's compile time by the number of kernels.


@jit
def legal_actions_one(s: Any, tables: Any, p: Any, d: int, out: np.ndarray[Any, Any]) -> int:
    """:func:`legal_actions`, not inlined."""
    return legal_actions(s, tables, p, d, out)


@jit
def apply_action_one(s: Any, tables: Any, p: Any, d: int, action: int) -> None:
    """:func:`apply_action`, not inlined."""
    apply_action(s, tables, p, d, action)


@jit
def new_deal_one(s: Any, p: Any, d: int, seed: np.uint64, index: int) -> None:
    """Seed, shuffle and deal deal ``d`` as number ``index`` of the run."""
    seed_deal(s.rng, d, seed, np.uint64(index))
    shuffle_deck(s, p, d)
    deal_from_deck(s, p, d)
