"""Numba kernels of the batch simulator: whole runs, lock steps and the observation (R9).

The rules themselves are the compiled rules core, :mod:`paiute.compiled` (one implementation,
shared with the search players); this module holds what only the simulator needs on top of
it: the random-play loop over a batch, the lock-step kernels (legal masks, checked steps) and
the kernel that writes each deal's observation in the shared encoding
(:mod:`paiute.envs.encoding`). :mod:`paiute.envs.batch_sim` is the public face; nothing
outside it should call these functions but the vector environment's kernels
(:mod:`paiute.envs.vector_kernels`), which write their observations with :func:`observe_row`.

Every kernel here is cached on disk by Numba (``paiute.compiled.compilation.jit``, ``cache=True``).
Numba checks only this file's stamp: an edit to a helper of :mod:`paiute.compiled` that these
kernels inline leaves their cached code stale (see :mod:`paiute.compiled.compilation`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from paiute.combos import CATEGORY_SHIFT
from paiute.compiled.compilation import inline, jit
from paiute.compiled.dealing import deal_from_deck, shuffle_deck
from paiute.compiled.rng import below, seed_deal
from paiute.compiled.rules import (
    apply_action,
    apply_action_one,
    cut_deal,
    legal_actions,
    legal_actions_one,
    new_deal_one,
    why_illegal,
)
from paiute.compiled.state import (
    DISCARD,
    DRAW,
    FINISHED,
    ILLEGAL_NONE,
    P_MAX_REBUILDS,
    P_MAX_TURNS,
    P_PACK,
    P_PLAYERS,
    P_RECORD,
    PACK_CAP,
    RUNNING,
)
from paiute.envs.encoding import COUNT_SCALE, VALUE_SCALE

# The shared observation encoding (paiute.envs.encoding.ObservationEncoder): observe_all
# takes the offsets of its fields as an int64 array, ``layout``, filled by batch_sim from the
# encoder's own layout (so no offset is written twice): first the offsets of these fields, in
# this order (index O_*), then the first seat block's offset and a block's length, then the
# offsets of the seat fields within a block (index S_*).
OBS_GLOBAL_FIELDS = (
    "hand",
    "taken",
    "wild",
    "upcard",
    "pile",
    "pile_top",
    "discard_turn",
    "phase_draw",
    "phase_discard",
    "phase_over",
    "my_turn",
    "first_turn",
    "stock_size",
    "stock_bottom",
    "rebuilds",
    "turn",
    "call_made",
    "highest_value",
    "highest_category",
    "pot",
)
OBS_SEAT_FIELDS = (
    "discarded",
    "took",
    "known",
    "shown",
    "hand_size",
    "dealer",
    "to_act",
    "called",
    "call_value",
    "call_first_turn",
    "draws",
    "pile_draws",
    "not_drawn",
    "balance",
)
(
    O_HAND,
    O_TAKEN,
    O_WILD,
    O_UPCARD,
    O_PILE,
    O_TOP,
    O_DTURN,
    O_DRAW,
    O_DISCARD,
    O_OVER,
    O_MY_TURN,
    O_FIRST,
    O_STOCK,
    O_BOTTOM,
    O_REBUILDS,
    O_TURN,
    O_CALL_MADE,
    O_HIGHEST,
    O_CATEGORY,
    O_POT,
) = range(len(OBS_GLOBAL_FIELDS))
O_SEATS = len(OBS_GLOBAL_FIELDS)
O_BLOCK = O_SEATS + 1
(
    S_DISCARDED,
    S_TOOK,
    S_KNOWN,
    S_SHOWN,
    S_HAND_SIZE,
    S_DEALER,
    S_TO_ACT,
    S_CALLED,
    S_CALL_VALUE,
    S_CALL_FIRST,
    S_DRAWS,
    S_PILE_DRAWS,
    S_NOT_DRAWN,
    S_BALANCE,
) = range(O_BLOCK + 1, O_BLOCK + 1 + len(OBS_SEAT_FIELDS))
OBS_LAYOUT_SIZE = S_BALANCE + 1
HAND_SCALE = 6  # the encoder's hand_size is cards held / 6
# highest_category: R5's categories in the encoder's order (Paiute first), by code >> CATEGORY_SHIFT
# (the category's order, 1..6, or 7 for a royal_high Royal Flush, which is the Royal Flush).
CATEGORY_INDEX = np.array([0, 0, 1, 2, 3, 4, 5, 4], dtype=np.int64)


# -- whole runs and steps -------------------------------------------------------------------


@jit
def run_random(
    s: Any,
    tables: Any,
    p: Any,
    seed: np.uint64,
    first_index: int,
    start: int,
    stop: int,
    cursors: np.ndarray[Any, Any],
    scratch: np.ndarray[Any, Any],
) -> int:
    """Deal and play deals ``start..stop-1`` of the batch to their end, uniformly at random
    over the legal actions; deal ``d`` is number ``first_index + d`` of the run.

    With recording on, deals are logged one after another from ``cursors`` (action log,
    rebuild log). Returns the first deal not played: less than ``stop`` when a log is too
    full for one more worst-case deal (the caller grows it and calls again).
    """
    record = p[P_RECORD]
    longest = p[P_MAX_TURNS] + p[P_PLAYERS]  # max_turns, then a last round (R7.2)
    action_need = 2 * longest + 2
    rebuild_need = 2 * longest + 2 * PACK_CAP + 2
    for d in range(start, stop):
        if record:
            if cursors[0] + action_need > s.action_log.size or cursors[1] + rebuild_need > s.rebuild_log.size:
                return d
            s.action_start[d] = cursors[0]
            s.rebuild_start[d] = cursors[1]
        seed_deal(s.rng, d, seed, np.uint64(first_index + d))
        shuffle_deck(s, p, d)
        deal_from_deck(s, p, d)
        while s.status[d] == RUNNING:
            n = legal_actions(s, tables, p, d, scratch)
            if n == 0:  # cannot happen under R4.6's card count; never loop forever
                cut_deal(s, d)
                break
            action = scratch[below(s.rng, d, n)] if n > 1 else scratch[0]
            apply_action(s, tables, p, d, action)
        if record:
            cursors[0] = s.action_pos[d]
            cursors[1] = s.rebuild_pos[d]
    return stop


@jit
def reset_all(s: Any, p: Any, seed: np.uint64, first_index: int, action_cap: int, rebuild_cap: int) -> None:
    """Deal every deal of the batch (deal ``d`` is number ``first_index + d``), each with
    its own segment of the logs."""
    for d in range(s.status.size):
        s.action_start[d] = d * action_cap
        s.rebuild_start[d] = d * rebuild_cap
        new_deal_one(s, p, d, seed, first_index + d)


@jit
def legal_masks(
    s: Any, tables: Any, p: Any, mask: np.ndarray[Any, Any], scratch: np.ndarray[Any, Any]
) -> None:
    """``mask[d, a]`` is true iff action ``a`` is legal in deal ``d`` (none once it ended)."""
    for d in range(s.status.size):
        mask[d, :] = False
        if s.status[d] != RUNNING:
            continue
        n = legal_actions_one(s, tables, p, d, scratch)
        for i in range(n):
            mask[d, scratch[i]] = True


@jit
def step_all(
    s: Any,
    tables: Any,
    p: Any,
    actions: np.ndarray[Any, Any],
    reasons: np.ndarray[Any, Any],
    scratch: np.ndarray[Any, Any],
) -> int:
    """Apply ``actions[d]`` to every running deal ``d``; a deal that has ended ignores its
    entry. Checks every action first: if any is illegal, nothing changes, ``reasons[d]``
    says why for each refused one, and the count of refused actions is returned."""
    refused = 0
    for d in range(s.status.size):
        reasons[d] = ILLEGAL_NONE
        if s.status[d] != RUNNING:
            continue
        reason = why_illegal(s, tables, p, d, actions[d], scratch)
        if reason != ILLEGAL_NONE:
            reasons[d] = reason
            refused += 1
    if refused:
        return refused
    for d in range(s.status.size):
        if s.status[d] == RUNNING:
            apply_action_one(s, tables, p, d, actions[d])
    return 0


@jit
def step_random(s: Any, tables: Any, p: Any, scratch: np.ndarray[Any, Any]) -> None:
    """One uniformly random legal action in every running deal."""
    for d in range(s.status.size):
        if s.status[d] != RUNNING:
            continue
        n = legal_actions_one(s, tables, p, d, scratch)
        if n == 0:
            cut_deal(s, d)
            continue
        apply_action_one(s, tables, p, d, scratch[below(s.rng, d, n)] if n > 1 else scratch[0])


@inline
def _set_plane(out: Any, d: int, at: int, bits: int, cards: int) -> None:
    """A whole card plane of ``cards`` entries from a card bit mask: 1 at ``at + c`` for each
    bit ``c`` set, 0 elsewhere (a mask of many cards costs less written whole, without a
    branch, than bit by bit)."""
    plane = out[d, at : at + cards]  # a view: indices from 0 need no wraparound, and vectorize
    for c in range(cards):
        plane[c] = (bits >> c) & 1


@inline
def _put(out: Any, d: int, i: int, value: float, scale: float, quantize: bool) -> None:
    """Entry ``i`` of row ``d``: ``value`` as ``ObservationEncoder.encode`` stores it (the
    float64 quotient rounded to float32), or as ``encode_int8`` does (that float32 times the
    entry's int8 ``scale`` in float32, rounded half to even as ``np.rint``, saturated)."""
    x = np.float32(value)
    if quantize:
        y = float(np.float32(x * np.float32(scale)))  # a float32 product, exact in float64 first
        r = math.floor(y)
        rest = y - r
        if rest > 0.5 or (rest == 0.5 and r % 2 != 0):
            r += 1
        out[d, i] = -128 if r < -128 else (127 if r > 127 else r)
    else:
        out[d, i] = x


# count / scale as _put_count stores it (float64 quotient rounded to float32), looked up for the
# fields written card by card: when each card was last discarded (turn / COUNT_SCALE) and the
# place of each card in the pile (place / cards).
_TURN_SHARES = np.array([turn / COUNT_SCALE for turn in range(COUNT_SCALE + 1)], dtype=np.float32)
_PILE_SHARES = np.array(
    [[place / cards if cards else 0.0 for place in range(PACK_CAP + 1)] for cards in range(PACK_CAP + 1)],
    dtype=np.float32,
)


@inline
def _put_count(out: Any, d: int, i: int, count: int, scale: int, quantize: bool) -> None:
    """Entry ``i``: ``count / scale`` for a field whose int8 scale is ``scale`` (batch_sim
    checks that against the encoder), so that its int8 form is ``count`` itself, saturated:
    ``rint(float32(n / s) * s)`` is ``n`` for any ``n`` below 2**22, the float32 error being
    far below one half."""
    if quantize:
        out[d, i] = count if count < 127 else 127
    else:
        out[d, i] = np.float32(count / scale)


@jit
def observe_all(
    s: Any,
    p: Any,
    layout: np.ndarray[Any, Any],
    scales: np.ndarray[Any, Any],
    out: Any,
    quantize: bool,
    running_only: bool,
) -> None:
    """Row ``d`` of ``out``: deal ``d`` as its current seat sees it (R9), in the shared
    encoding of :class:`paiute.envs.encoding.ObservationEncoder` (``layout``: its offsets, see
    ``OBS_GLOBAL_FIELDS``; ``scales``: its int8 scale per entry): the float32 vector of
    ``encode`` or, with ``quantize``, the int8 one of ``encode_int8``, entry for entry.

    The seat blocks are relative to the observer (block ``k`` is the seat ``k`` places to its
    left), as the encoder's. The simulator's deals start from zero balances and an empty pot,
    as its payouts do, so ``balance`` and ``pot`` are 0. With ``running_only`` the rows of
    deals that have ended are not touched at all (the caller passes zeros)."""
    for d in range(s.status.size):
        if running_only and s.status[d] != RUNNING:
            continue
        observe_row(s, p, layout, scales, out, d, d, s.seat[d], s.phase[d], quantize)


@inline
def observe_row(
    s: Any,
    p: Any,
    layout: np.ndarray[Any, Any],
    scales: np.ndarray[Any, Any],
    out: Any,
    d: int,
    row: int,
    observer: int,
    phase: int,
    quantize: bool,
) -> None:
    """Row ``row`` of ``out``: deal ``d`` as seat ``observer`` sees it (R9), in the phase
    ``phase`` (the deal's own, or ``DRAW`` for a deal cut where a turn would start, as the
    environments' encoder leaves it), ``balance`` and ``pot`` 0 (see :func:`observe_all`)."""
    players = p[P_PLAYERS]
    cards = p[P_PACK]
    seats = layout[O_SEATS]
    block = layout[O_BLOCK]
    for i in range(out.shape[1]):
        out[row, i] = 0
    seat = s.seat[d]
    # The observer's own cards (R9.2), the card the seat to act took this turn (R4.3), the
    # wild cards and the upcard (R3, R2.6, R2.8).
    for i in range(s.hand_len[d, observer]):
        out[row, layout[O_HAND] + s.hands[d, observer, i]] = 1
    if s.taken[d] >= 0:
        out[row, layout[O_TAKEN] + s.taken[d]] = 1
    _set_plane(out, row, layout[O_WILD], s.wild[d], cards)
    if s.upcard[d] >= 0:
        out[row, layout[O_UPCARD] + s.upcard[d]] = 1
    # The discard pile in order, its top, and when each card was last discarded (R4.5).
    pile = s.discard_len[d]
    at = layout[O_PILE]
    for i in range(pile):
        if quantize:
            _put_count(out, row, at + s.discard[d, i], i + 1, cards, quantize)
        else:
            out[row, at + s.discard[d, i]] = _PILE_SHARES[cards, i + 1]
    if pile > 0:
        out[row, layout[O_TOP] + s.discard[d, pile - 1]] = 1
    discarded = 0
    for a in range(players):
        discarded |= s.discarded[d, a]
    plane = out[row, layout[O_DTURN] : layout[O_DTURN] + cards]
    for c in range(cards):  # the whole plane, 0 for the cards never discarded
        turn = min(int(s.discard_turn[d, c]), COUNT_SCALE) * ((discarded >> c) & 1)
        if quantize:
            plane[c] = turn  # _put_count's int8 form: the count itself, under 127
        else:
            plane[c] = _TURN_SHARES[turn]
    # The phase (R4.2), the observer's turn and whether it is its first (R5.7).
    if phase == DRAW:
        out[row, layout[O_DRAW]] = 1
    elif phase == DISCARD:
        out[row, layout[O_DISCARD]] = 1
    else:
        out[row, layout[O_OVER]] = 1
    acting = observer == seat and phase != FINISHED
    if acting:
        out[row, layout[O_MY_TURN]] = 1
    if s.draws[d, observer] == (1 if acting and phase == DISCARD else 0):
        out[row, layout[O_FIRST]] = 1
    # The stock (R2.6, R4.6, R4.7), the turns started, the calls (R6.4, R7).
    _put_count(out, row, layout[O_STOCK], s.stock_len[d], cards, quantize)
    if s.upcard_in_stock[d]:
        out[row, layout[O_BOTTOM]] = 1
    _put_count(out, row, layout[O_REBUILDS], s.rebuilds[d], p[P_MAX_REBUILDS] + 1, quantize)
    started = s.turns[d] + (1 if phase == DISCARD else 0)
    _put_count(out, row, layout[O_TURN], min(started, COUNT_SCALE), COUNT_SCALE, quantize)
    if s.n_calls[d] > 0:
        out[row, layout[O_CALL_MADE]] = 1
        best = s.best[d]
        at = layout[O_HIGHEST]
        _put(out, row, at, best / VALUE_SCALE, scales[at], quantize)
        out[row, layout[O_CATEGORY] + CATEGORY_INDEX[best >> CATEGORY_SHIFT]] = 1
    # Every seat's block, the observer's first (``pot`` and ``balance`` stay 0).
    for k in range(players):
        a = (observer + k) % players
        o = seats + k * block
        _set_plane(out, row, o + layout[S_DISCARDED], s.discarded[d, a], cards)
        _set_plane(out, row, o + layout[S_TOOK], s.took[d, a], cards)
        _put_count(out, row, o + layout[S_HAND_SIZE], s.hand_len[d, a], HAND_SCALE, quantize)
        if a == s.dealer[d]:
            out[row, o + layout[S_DEALER]] = 1
        draws = s.draws[d, a]
        _put_count(out, row, o + layout[S_DRAWS], min(draws, COUNT_SCALE), COUNT_SCALE, quantize)
        from_pile = min(s.pile_draws[d, a], COUNT_SCALE)
        _put_count(out, row, o + layout[S_PILE_DRAWS], from_pile, COUNT_SCALE, quantize)
        if draws == 0:
            out[row, o + layout[S_NOT_DRAWN]] = 1
    # The seat to act (once the deal has ended: the seat that acted last).
    out[row, seats + ((seat - observer) % players) * block + layout[S_TO_ACT]] = 1
    # The cards known to be in each hand: taken from the pile, or the face-up upcard (R4.5,
    # R2.6). Each seat's plane is written whole: a test a card costs less than a branch.
    for k in range(players):
        holder = (observer + k) % players
        at = seats + k * block + layout[S_KNOWN]
        plane = out[row, at : at + cards]
        for card in range(cards):
            plane[card] = s.known[d, card] == holder
    for i in range(s.n_calls[d]):  # R6.5: the shown cards, face up
        o = seats + ((s.call_seat[d, i] - observer) % players) * block
        out[row, o + layout[S_CALLED]] = 1
        at = o + layout[S_CALL_VALUE]
        _put(out, row, at, s.call_code[d, i] / VALUE_SCALE, scales[at], quantize)
        if s.call_first[d, i]:
            out[row, o + layout[S_CALL_FIRST]] = 1
        for j in range(5 if s.call_card[d, i] >= 0 else 6):
            out[row, o + layout[S_SHOWN] + s.call_shown[d, i, j]] = 1
