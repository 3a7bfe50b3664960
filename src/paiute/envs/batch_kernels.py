"""Numba kernels of the batch simulator: the rules of one deal on arrays (R2-R8).

Everything here works on a :class:`Batch`, a named tuple of NumPy arrays whose first axis is
the deal, and on the rules as a small integer array (the ``P_*`` indices below); the kernels
mirror :class:`paiute.deal.Deal` line for line, so that a deal played here and replayed in the
engine has the same legal actions, the same outcome and the same payouts (the differential
test in ``tests/envs/test_batch_sim.py``). :mod:`paiute.envs.batch_sim` is the public face;
nothing outside it should call these functions.

State of deal ``d`` (cards are ids 0..53 as in :mod:`paiute.cards`):

* hands, kept sorted so that legal actions come out in id order, with each seat's *rank key*
  and *suit bits* kept up to date card by card (the evaluator's encoding, see
  :mod:`paiute.evaluator`), so that judging a call costs a table look-up, not a loop;
* the stock and the discard pile, top card last (as the engine's lists);
* whose turn, the phase, the card taken from the discard pile (R4.3), draws per seat (R5.7),
  turns, rebuilds (R4.6, R4.7), the calls (R6) and, at the end, status, winners and payouts;
* what the shared observation encoding (:mod:`paiute.envs.encoding`) needs besides: each
  seat's discarded and taken cards and its draws from the pile, and when each card was last
  discarded (R4.5: all public), read only by :func:`observe_all`;
* a per-deal xoshiro256** generator (seeded by splitmix64 from the run's seed and the deal's
  index), so a deal depends on nothing but the seed, its index and the actions chosen.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

from paiute.envs.encoding import COUNT_SCALE, VALUE_SCALE

__all__ = [
    "BATCH_FIELDS",
    "DEAD",
    "OBS_GLOBAL_FIELDS",
    "OBS_SEAT_FIELDS",
    "OVER",
    "RUNNING",
    "TRUNCATED",
    "Batch",
]

F = TypeVar("F", bound=Callable[..., Any])


# Reference counting is off in every kernel (``_nrt=False``): none allocates (the callers pass
# every array in), and with it on, Numba increfs and decrefs each of the batch's arrays at
# every inlined helper whose control flow its pruning pass cannot follow, which cost ~800 ns
# a legal-action query against ~2 ns without.
_OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}


def _jit(function: F) -> F:
    """``numba.njit`` with an on-disk cache (cast so that mypy keeps the signature): a kernel."""
    return cast(F, numba.njit(**_OPTIONS)(function))


def _inline(function: F) -> F:
    """A helper of the kernels, inlined into its callers by Numba (a call that passes the
    batch, a tuple of some forty arrays, costs more than most helpers' work)."""
    return cast(F, numba.njit(inline="always", **_OPTIONS)(function))


# -- constants ------------------------------------------------------------------------------

MAX_SEATS = 8
HAND_CAP = 6
PACK_CAP = 54
NUM_ACTIONS = 111
CALL_BASE = 56
DISCARD_BASE = 2
CALL_SIX_ID = 110
LEGAL_CAP = 16  # at most 6 discards + 6 five-card calls + the six-card call

# Deal status.
RUNNING = 0
OVER = 1  # ended by R7.1 / R7.3 with winners
DEAD = 2  # R4.7
TRUNCATED = 3  # stopped after max_turns turns (the R4.7 hole, docs/rules.md)

# Phases, as paiute.deal.Phase.
DRAW = 0
DISCARD = 1
FINISHED = 2

# Why an action was refused (step API): the rule each code stands for is in batch_sim.
ILLEGAL_NONE = 0
ILLEGAL_OVER = 1  # R7.3
ILLEGAL_BAD_ID = 2
ILLEGAL_DRAW_FIRST = 3  # R4.2 / R6.1: must draw
ILLEGAL_DRAWN = 4  # R4.2: has drawn
ILLEGAL_STOCK = 5  # R4.6 no rebuild possible
ILLEGAL_DISCARD_EMPTY = 6  # R4.2
ILLEGAL_NOT_HELD = 7  # R4.2 / R6.2
ILLEGAL_TAKEN = 8  # R4.3
ILLEGAL_NO_FIVE = 9  # R6.2
ILLEGAL_NO_SIX = 10  # R6.3
ILLEGAL_PAIUTE = 11  # R5.7
ILLEGAL_BELOW = 12  # R6.4

# The rules as an int64 array.
P_PLAYERS = 0
P_JOKERS = 1
P_UNDER = 2  # upcard_under_stock (R2.6)
P_OPEN = 3  # open_discard (R2.7)
P_OPPOSITE = 4  # wild_colour = opposite (R3.3)
P_KEEPS_TOP = 5  # reshuffle_keeps_top (R4.6)
P_MAX_REBUILDS = 6  # R4.7
P_PAIUTE_ANY = 7  # R5.7 with R2.1 (6+ players)
P_SCALE = 8  # payout = scale (R8.4)
P_STAKE = 9  # R8.2
P_FIRST_CALL = 10  # ties = first_call (R8.3)
P_UNIT = 11  # R8.4
P_MAX_TURNS = 12
P_DEALER = 13  # fixed dealer seat, or -1: uniform per deal
P_PACK = 14  # 52 or 54 (R1.3)
P_RECORD = 15  # write actions and rebuild orders
P_SIZE = 16

# The evaluator's encoding (paiute.evaluator): rank key = 3 bits per rank + wild count << 39;
# suit bits = 1 << (rank + 16 * suit) for natural cards (13-bit lane per suit).
WILD_SHIFT = 39
WILD_UNIT = 1 << WILD_SHIFT
LANE = 16
SUIT_MASK = 0x1FFF
PAIUTE_ORDER = 1  # Category.PAIUTE.order()
FIVE_KIND = 6 << 12
# Scale payout units by category order 0..7 (R8.4; 7 is a royal_high Royal Flush).
UNITS = np.array([0, 1, 2, 3, 4, 4, 5, 4], dtype=np.int64)

HASH_MULT = -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed 64-bit number

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
# highest_category: R5's categories in the encoder's order (Paiute first), by code >> 12
# (the category's order, 1..6, or 7 for a royal_high Royal Flush, which is the Royal Flush).
CATEGORY_INDEX = np.array([0, 0, 1, 2, 3, 4, 5, 4], dtype=np.int64)

U8 = npt.NDArray[np.uint8]
I64 = npt.NDArray[np.int64]


class Batch(NamedTuple):
    """The arrays of a batch of ``B`` deals (a named tuple, which Numba compiles as a struct)."""

    deck: U8  # [B, 54]: the dealt deck, top first
    hands: U8  # [B, 8, 6]: each hand, sorted
    hand_len: I64  # [B, 8]
    hand_key: I64  # [B, 8]: rank key of each hand
    hand_bits: I64  # [B, 8]: suit bits of each hand's natural cards
    stock: U8  # [B, 54]: top last
    stock_len: I64  # [B]
    discard: U8  # [B, 54]: top last
    discard_len: I64  # [B]
    wild: I64  # [B]: bit c set if card c is wild
    upcard: I64  # [B]: -1 with jokers
    upcard_in_stock: I64  # [B]: 1 while the upcard lies under the stock (R2.6)
    dealer: I64  # [B]
    seat: I64  # [B]: to act; after the end, who acted last
    phase: I64  # [B]: DRAW, DISCARD, FINISHED
    taken: I64  # [B]: card taken from the discard pile this turn, -1 (R4.3)
    draws: I64  # [B, 8]: draws per seat (R5.7)
    turns: I64  # [B]: turns completed
    n_actions: I64  # [B]
    rebuilds: I64  # [B]
    status: I64  # [B]: RUNNING, OVER, DEAD, TRUNCATED
    n_calls: I64  # [B]
    call_seat: I64  # [B, 8]
    call_code: I64  # [B, 8]
    call_first: I64  # [B, 8]: made on the caller's first turn (R5.7, R8.4)
    call_card: I64  # [B, 8]: card put down, -1 for a six-card call
    call_shown: U8  # [B, 8, 6]: the shown cards, sorted (5 or 6)
    best: I64  # [B]: highest code called (R6.4)
    winners: I64  # [B]: bit s set if seat s wins
    payouts: I64  # [B, 8]: chips won (+) or paid (-) by each seat (R8)
    pot: I64  # [B]: the pot after settlement (a dead deal's carries over, R8.5)
    known: npt.NDArray[np.int8]  # [B, 54]: seat publicly known to hold card c (R4.5, R2.6), else -1
    discarded: I64  # [B, 8]: bit c set if the seat discarded or put down card c this deal (R4.5)
    took: I64  # [B, 8]: bit c set if the seat took card c from the discard pile this deal (R4.5)
    pile_draws: I64  # [B, 8]: draws from the discard pile per seat
    discard_turn: U8  # [B, 54]: min(turn, 100) when card c was last discarded; valid for discarded cards
    rng: npt.NDArray[np.uint64]  # [B, 4]: xoshiro256** state
    action_log: U8  # [L]: action ids
    action_start: I64  # [B]: where deal d's actions begin in action_log
    action_pos: I64  # [B]: where its next action goes
    rebuild_log: U8  # [R]: per rebuild, its size then its cards top first (R4.6)
    rebuild_start: I64  # [B]
    rebuild_pos: I64  # [B]


BATCH_FIELDS = Batch._fields


def new_batch(size: int, action_cap: int, rebuild_cap: int) -> Batch:
    """Zeroed arrays for ``size`` deals, with logs of the given lengths (0: no record)."""

    def ints(*shape: int) -> I64:
        return np.zeros(shape, dtype=np.int64)

    return Batch(
        deck=np.zeros((size, PACK_CAP), dtype=np.uint8),
        hands=np.zeros((size, MAX_SEATS, HAND_CAP), dtype=np.uint8),
        hand_len=ints(size, MAX_SEATS),
        hand_key=ints(size, MAX_SEATS),
        hand_bits=ints(size, MAX_SEATS),
        stock=np.zeros((size, PACK_CAP), dtype=np.uint8),
        stock_len=ints(size),
        discard=np.zeros((size, PACK_CAP), dtype=np.uint8),
        discard_len=ints(size),
        wild=ints(size),
        upcard=ints(size),
        upcard_in_stock=ints(size),
        dealer=ints(size),
        seat=ints(size),
        phase=ints(size),
        taken=ints(size),
        draws=ints(size, MAX_SEATS),
        turns=ints(size),
        n_actions=ints(size),
        rebuilds=ints(size),
        status=ints(size),
        n_calls=ints(size),
        call_seat=ints(size, MAX_SEATS),
        call_code=ints(size, MAX_SEATS),
        call_first=ints(size, MAX_SEATS),
        call_card=ints(size, MAX_SEATS),
        call_shown=np.zeros((size, MAX_SEATS, HAND_CAP), dtype=np.uint8),
        best=ints(size),
        winners=ints(size),
        payouts=ints(size, MAX_SEATS),
        pot=ints(size),
        known=np.zeros((size, PACK_CAP), dtype=np.int8),
        discarded=ints(size, MAX_SEATS),
        took=ints(size, MAX_SEATS),
        pile_draws=ints(size, MAX_SEATS),
        discard_turn=np.zeros((size, PACK_CAP), dtype=np.uint8),
        rng=np.zeros((size, 4), dtype=np.uint64),
        action_log=np.zeros(action_cap, dtype=np.uint8),
        action_start=ints(size),
        action_pos=ints(size),
        rebuild_log=np.zeros(rebuild_cap, dtype=np.uint8),
        rebuild_start=ints(size),
        rebuild_pos=ints(size),
    )


# -- random numbers -------------------------------------------------------------------------


@_inline
def _splitmix(x: np.uint64) -> np.uint64:
    """One splitmix64 output for state ``x`` (used only to seed)."""
    z = x + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@_inline
def seed_deal(rng: np.ndarray[Any, Any], d: int, seed: np.uint64, index: np.uint64) -> None:
    """Seed deal ``d``'s generator from the run's seed and the deal's index."""
    x = _splitmix(_splitmix(seed) ^ _splitmix(index ^ np.uint64(0x5851F42D4C957F2D)))
    for i in range(4):
        x = _splitmix(x)
        rng[d, i] = x
    if rng[d, 0] == 0 and rng[d, 1] == 0 and rng[d, 2] == 0 and rng[d, 3] == 0:
        rng[d, 0] = np.uint64(1)  # xoshiro's one forbidden state


@_inline
def _next(rng: np.ndarray[Any, Any], d: int) -> np.uint64:
    """xoshiro256** of deal ``d``."""
    s0 = rng[d, 0]
    s1 = rng[d, 1]
    s2 = rng[d, 2]
    s3 = rng[d, 3]
    x = s1 * np.uint64(5)
    result = ((x << np.uint64(7)) | (x >> np.uint64(57))) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << np.uint64(45)) | (s3 >> np.uint64(19))
    rng[d, 0] = s0
    rng[d, 1] = s1
    rng[d, 2] = s2
    rng[d, 3] = s3
    return np.uint64(result)


@_inline
def below(rng: np.ndarray[Any, Any], d: int, n: int) -> int:
    """A uniform integer in 0..n-1 (Lemire's multiply-and-reject on 32 bits: unbiased)."""
    bound = np.uint64(n)
    m = (_next(rng, d) >> np.uint64(32)) * bound
    low = m & np.uint64(0xFFFFFFFF)
    if low < bound:
        threshold = (np.uint64(0x100000000) - bound) % bound
        while low < threshold:
            m = (_next(rng, d) >> np.uint64(32)) * bound
            low = m & np.uint64(0xFFFFFFFF)
    return int(m >> np.uint64(32))


# -- the evaluator on arrays ----------------------------------------------------------------


@_inline
def hash_slot(key: int, bits: int) -> int:
    """The home slot of a rank key in a table of ``1 << bits`` slots (Fibonacci hashing)."""
    return ((key * HASH_MULT) >> (64 - bits)) & ((1 << bits) - 1)


@_jit
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


@_inline
def _rank_lookup(tables: Any, key: int) -> tuple[int, int]:
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


@_inline
def _flush_six(tables: Any, suit_bits: int, wild: int) -> int:
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


@_inline
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


@_inline
def card_key(wild_mask: int, card: int) -> int:
    if (wild_mask >> card) & 1:
        return WILD_UNIT
    return 1 << (3 * (card >> 2))


@_inline
def card_bits(wild_mask: int, card: int) -> int:
    if (wild_mask >> card) & 1:
        return 0
    return 1 << ((card >> 2) + LANE * (card & 3))


# -- dealing (R2) ---------------------------------------------------------------------------


@_inline
def _add_card(s: Any, d: int, seat: int, card: int) -> None:
    """Put ``card`` into ``seat``'s hand, keeping it sorted and its key and bits current."""
    n = s.hand_len[d, seat]
    i = n
    while i > 0 and s.hands[d, seat, i - 1] > card:
        s.hands[d, seat, i] = s.hands[d, seat, i - 1]
        i -= 1
    s.hands[d, seat, i] = card
    s.hand_len[d, seat] = n + 1
    wild = s.wild[d]
    s.hand_key[d, seat] += card_key(wild, card)
    s.hand_bits[d, seat] |= card_bits(wild, card)


@_inline
def _remove_card(s: Any, d: int, seat: int, card: int) -> None:
    n = s.hand_len[d, seat]
    j = 0
    while s.hands[d, seat, j] != card:
        j += 1
    for i in range(j, n - 1):
        s.hands[d, seat, i] = s.hands[d, seat, i + 1]
    s.hand_len[d, seat] = n - 1
    wild = s.wild[d]
    s.hand_key[d, seat] -= card_key(wild, card)
    s.hand_bits[d, seat] &= ~card_bits(wild, card)


@_jit
def shuffle_deck(s: Any, p: Any, d: int) -> None:
    """A uniform permutation of the pack into ``deck`` (Fisher-Yates, R10.2), and the dealer."""
    n = p[P_PACK]
    for i in range(n):
        s.deck[d, i] = i
    for i in range(n - 1, 0, -1):
        j = below(s.rng, d, i + 1)
        t = s.deck[d, i]
        s.deck[d, i] = s.deck[d, j]
        s.deck[d, j] = t
    s.dealer[d] = p[P_DEALER] if p[P_DEALER] >= 0 else below(s.rng, d, p[P_PLAYERS])


@_jit
def deal_from_deck(s: Any, p: Any, d: int) -> None:
    """Set deal ``d`` up from ``deck[d]`` and ``dealer[d]`` exactly as ``Deal.__init__``."""
    players = p[P_PLAYERS]
    dealer = s.dealer[d]
    n = p[P_PACK]
    # R3: the wild cards come from the upcard (or are the jokers), before any hand is keyed.
    position = 5 * players
    upcard = -1
    if not p[P_JOKERS]:
        upcard = int(s.deck[d, position])
        position += 1
    wild = 0
    if upcard < 0:
        wild = (1 << 52) | (1 << 53)  # R3.2
    else:
        base = (upcard >> 2) << 2
        up_red = (upcard & 3) == 1 or (upcard & 3) == 2
        for card in range(base, base + 4):
            red = (card & 3) == 1 or (card & 3) == 2
            if not p[P_OPPOSITE] or red != up_red:  # R3.1, R3.3
                wild |= 1 << card
    s.wild[d] = wild
    s.upcard[d] = upcard
    for seat in range(MAX_SEATS):
        s.hand_len[d, seat] = 0
        s.hand_key[d, seat] = 0
        s.hand_bits[d, seat] = 0
        s.draws[d, seat] = 0
        s.payouts[d, seat] = 0
        s.discarded[d, seat] = 0
        s.took[d, seat] = 0
        s.pile_draws[d, seat] = 0
    # R2.5: five cards each, one at a time, from the dealer's left.
    for index in range(5 * players):
        _add_card(s, d, (dealer + 1 + index) % players, int(s.deck[d, index]))
    # R2.6, R2.7: the stock, top last; the upcard under it or out of play.
    k = 0
    s.upcard_in_stock[d] = 0
    if upcard >= 0 and p[P_UNDER]:
        s.stock[d, 0] = upcard
        k = 1
        s.upcard_in_stock[d] = 1
    for i in range(n - 1, position - 1, -1):
        s.stock[d, k] = s.deck[d, i]
        k += 1
    s.stock_len[d] = k
    s.discard_len[d] = 0
    if p[P_OPEN]:
        s.discard[d, 0] = s.stock[d, k - 1]
        s.stock_len[d] = k - 1
        s.discard_len[d] = 1
    for card in range(PACK_CAP):
        s.known[d, card] = -1
    s.seat[d] = (dealer + 1) % players  # R4.1
    s.phase[d] = DRAW
    s.taken[d] = -1
    s.turns[d] = 0
    s.n_actions[d] = 0
    s.rebuilds[d] = 0
    s.status[d] = RUNNING
    s.n_calls[d] = 0
    s.best[d] = 0
    s.winners[d] = 0
    s.pot[d] = 0
    s.action_pos[d] = s.action_start[d]
    s.rebuild_pos[d] = s.rebuild_start[d]


# -- legal actions (R4, R5.7, R6) -------------------------------------------------------------


@_inline
def _can_draw_stock(s: Any, p: Any, d: int) -> bool:
    """``Deal._can_draw_stock``: a rebuild (R4.6) or, past max_rebuilds, a dead deal (R4.7)."""
    if s.stock_len[d] > 0:
        return True
    if s.n_calls[d] == 0 and s.rebuilds[d] >= p[P_MAX_REBUILDS]:
        return True
    return bool(s.discard_len[d] > (1 if p[P_KEEPS_TOP] else 0))


@_inline
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
    six, five_of_six = _rank_lookup(tables, key)
    flush = _flush_six(tables, bits, key >> WILD_SHIFT)
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
    if six >= floor and ((six >> 12) != PAIUTE_ORDER or p[P_PAIUTE_ANY] or s.draws[d, seat] == 1):  # R5.7
        out[n] = CALL_SIX_ID
        n += 1
    return n


@_jit
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
    six, _ = _rank_lookup(tables, s.hand_key[d, seat])
    if six == 0:
        return ILLEGAL_NO_SIX
    if (six >> 12) == PAIUTE_ORDER and not (p[P_PAIUTE_ANY] or s.draws[d, seat] == 1):
        return ILLEGAL_PAIUTE
    return ILLEGAL_BELOW


# -- applying actions -----------------------------------------------------------------------


@_inline
def _log_action(s: Any, p: Any, d: int, action: int) -> None:
    s.n_actions[d] += 1
    if p[P_RECORD]:
        s.action_log[s.action_pos[d]] = action
        s.action_pos[d] += 1


@_jit
def _settle(s: Any, p: Any, d: int) -> None:
    """R8: payouts of a finished deal, from zero balances and an empty pot."""
    players = p[P_PLAYERS]
    dealer = s.dealer[d]
    pot = 0
    if not p[P_SCALE]:  # R8.2: the stakes go into the pot
        for seat in range(players):
            s.payouts[d, seat] = -p[P_STAKE]
        pot = p[P_STAKE] * players
    if s.status[d] == DEAD:  # R8.5
        s.pot[d] = pot
        return
    winners = s.winners[d]
    tied = 0
    for seat in range(players):
        tied += (winners >> seat) & 1
    if not p[P_SCALE]:  # R8.3: equal shares, odd chips in turn order from the dealer's left
        share = pot // tied
        odd = pot % tied
        index = 0
        for step in range(1, players + 1):
            seat = (dealer + step) % players
            if (winners >> seat) & 1:
                s.payouts[d, seat] += share + (1 if index < odd else 0)
                index += 1
        s.pot[d] = 0
        return
    # R8.4: each loser pays each winner its amount / tied, rounded up.
    for i in range(s.n_calls[d]):
        winner = s.call_seat[d, i]
        if not (winners >> winner) & 1:
            continue
        amount = UNITS[s.call_code[d, i] >> 12] * p[P_UNIT]
        if s.call_first[d, i]:
            amount *= 2
        due = -(-amount // tied)
        for seat in range(players):
            if not (winners >> seat) & 1:
                s.payouts[d, seat] -= due
                s.payouts[d, winner] += due
    s.pot[d] = 0


@_jit
def finish_deal(s: Any, p: Any, d: int, dead: bool) -> None:
    """End deal ``d``: dead (R4.7) or won by the best calls (R8.1, R8.3); then settle (R8)."""
    s.phase[d] = FINISHED
    s.taken[d] = -1
    if dead:
        s.status[d] = DEAD
    else:  # R8.1, R8.3
        s.status[d] = OVER
        best = 0
        for i in range(s.n_calls[d]):
            if s.call_code[d, i] > best:
                best = s.call_code[d, i]
        winners = 0
        for i in range(s.n_calls[d]):
            if s.call_code[d, i] == best:
                winners |= 1 << s.call_seat[d, i]
                if p[P_FIRST_CALL]:
                    break
        s.winners[d] = winners
    _settle(s, p, d)


@_inline
def _end_turn(s: Any, p: Any, d: int) -> None:
    s.taken[d] = -1
    s.turns[d] += 1
    if s.n_calls[d] > 0 and s.seat[d] == s.dealer[d]:  # R7.1, R7.3
        finish_deal(s, p, d, False)
        return
    s.seat[d] = (s.seat[d] + 1) % p[P_PLAYERS]  # R2.2, R7.2
    s.phase[d] = DRAW
    if s.turns[d] >= p[P_MAX_TURNS]:  # the R4.7 hole: stop, and say so
        s.status[d] = TRUNCATED
        s.phase[d] = FINISHED


@_jit
def _rebuild(s: Any, p: Any, d: int) -> None:
    """R4.6: the discard pile (less its top card, by default) shuffled into a new stock."""
    size = s.discard_len[d] - 1 if p[P_KEEPS_TOP] else s.discard_len[d]
    # The pile's cards bottom first, shuffled: index 0 becomes the new top.
    for i in range(size):
        s.stock[d, i] = s.discard[d, i]
    for i in range(size - 1, 0, -1):
        j = below(s.rng, d, i + 1)
        t = s.stock[d, i]
        s.stock[d, i] = s.stock[d, j]
        s.stock[d, j] = t
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


@_inline
def _put_down(s: Any, d: int, seat: int, card: int) -> None:
    """``seat`` puts ``card`` on the discard pile (a discard, or with a five-card call, R6.2)."""
    s.discard[d, s.discard_len[d]] = card
    s.discard_len[d] += 1
    s.known[d, card] = -1
    s.discarded[d, seat] |= 1 << card
    turn = s.turns[d] + 1  # the turn in progress, as the encoder counts turns started
    s.discard_turn[d, card] = turn if turn < COUNT_SCALE else COUNT_SCALE


@_jit
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
        code, _ = _rank_lookup(tables, s.hand_key[d, seat])
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


@_inline
def apply_action(s: Any, tables: Any, p: Any, d: int, action: int) -> None:
    """Apply a legal ``action`` to deal ``d`` (``Deal.apply`` without the check)."""
    _log_action(s, p, d, action)
    seat = s.seat[d]
    if action == 0:  # draw stock
        if s.stock_len[d] == 0:
            if s.n_calls[d] == 0 and s.rebuilds[d] >= p[P_MAX_REBUILDS]:
                finish_deal(s, p, d, True)  # R4.7
                return
            _rebuild(s, p, d)
        top = s.stock_len[d] - 1
        card = int(s.stock[d, top])
        if s.upcard_in_stock[d] and top == 0:  # R2.6: the face-up upcard is drawn
            s.upcard_in_stock[d] = 0
            s.known[d, card] = seat
        s.stock_len[d] = top
        _add_card(s, d, seat, card)
        s.taken[d] = -1
        s.draws[d, seat] += 1
        s.phase[d] = DISCARD
    elif action == 1:  # draw discard (R4.5: public)
        top = s.discard_len[d] - 1
        card = int(s.discard[d, top])
        s.discard_len[d] = top
        _add_card(s, d, seat, card)
        s.taken[d] = card
        s.known[d, card] = seat
        s.took[d, seat] |= 1 << card
        s.pile_draws[d, seat] += 1
        s.draws[d, seat] += 1
        s.phase[d] = DISCARD
    elif action < CALL_BASE:  # discard
        card = action - DISCARD_BASE
        _remove_card(s, d, seat, card)
        _put_down(s, d, seat, card)
        _end_turn(s, p, d)
    else:
        _call(s, tables, p, d, action - CALL_BASE if action < CALL_SIX_ID else -1)
        _end_turn(s, p, d)


# Compiled once, for the lock-step kernels (whose speed the policy bounds anyway); the
# random-play loop inlines the helpers themselves. Inlining them into every kernel would
# multiply Numba's compile time by the number of kernels.


@_jit
def legal_actions_one(s: Any, tables: Any, p: Any, d: int, out: np.ndarray[Any, Any]) -> int:
    """:func:`legal_actions`, not inlined."""
    return legal_actions(s, tables, p, d, out)


@_jit
def apply_action_one(s: Any, tables: Any, p: Any, d: int, action: int) -> None:
    """:func:`apply_action`, not inlined."""
    apply_action(s, tables, p, d, action)


@_jit
def new_deal_one(s: Any, p: Any, d: int, seed: np.uint64, index: int) -> None:
    """Seed, shuffle and deal deal ``d`` as number ``index`` of the run."""
    seed_deal(s.rng, d, seed, np.uint64(index))
    shuffle_deck(s, p, d)
    deal_from_deck(s, p, d)


# -- whole runs and steps -------------------------------------------------------------------


@_jit
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
    action_need = 2 * p[P_MAX_TURNS] + 2
    rebuild_need = 2 * p[P_MAX_TURNS] + 2 * PACK_CAP + 2
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
                s.status[d] = TRUNCATED
                s.phase[d] = FINISHED
                break
            action = scratch[below(s.rng, d, n)] if n > 1 else scratch[0]
            apply_action(s, tables, p, d, action)
        if record:
            cursors[0] = s.action_pos[d]
            cursors[1] = s.rebuild_pos[d]
    return stop


@_jit
def reset_all(s: Any, p: Any, seed: np.uint64, first_index: int, action_cap: int, rebuild_cap: int) -> None:
    """Deal every deal of the batch (deal ``d`` is number ``first_index + d``), each with
    its own segment of the logs."""
    for d in range(s.status.size):
        s.action_start[d] = d * action_cap
        s.rebuild_start[d] = d * rebuild_cap
        new_deal_one(s, p, d, seed, first_index + d)


@_jit
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


@_jit
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


@_jit
def step_random(s: Any, tables: Any, p: Any, scratch: np.ndarray[Any, Any]) -> None:
    """One uniformly random legal action in every running deal."""
    for d in range(s.status.size):
        if s.status[d] != RUNNING:
            continue
        n = legal_actions_one(s, tables, p, d, scratch)
        if n == 0:
            s.status[d] = TRUNCATED
            s.phase[d] = FINISHED
            continue
        apply_action_one(s, tables, p, d, scratch[below(s.rng, d, n)] if n > 1 else scratch[0])


# Bit index of a single set bit (de Bruijn multiplication): card planes are written from bit
# masks one set bit at a time, not by scanning all 54 cards of every mask.
_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DEBRUIJN_INDEX = np.zeros(64, dtype=np.int64)
for _bit in range(64):
    _DEBRUIJN_INDEX[((1 << _bit) * int(_DEBRUIJN) % (1 << 64)) >> 58] = _bit


@_inline
def _low_bit(bits: int) -> int:
    """The index of the lowest set bit of ``bits`` (> 0)."""
    low = np.uint64(bits & -bits)
    return int(_DEBRUIJN_INDEX[(low * _DEBRUIJN) >> np.uint64(58)])


@_inline
def _set_bits(out: Any, d: int, at: int, bits: int) -> None:
    """A card plane from a card bit mask: 1 at ``at + c`` for each bit ``c`` set."""
    while bits:
        out[d, at + _low_bit(bits)] = 1
        bits &= bits - 1


@_inline
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


@_inline
def _put_count(out: Any, d: int, i: int, count: int, scale: int, quantize: bool) -> None:
    """Entry ``i``: ``count / scale`` for a field whose int8 scale is ``scale`` (batch_sim
    checks that against the encoder), so that its int8 form is ``count`` itself, saturated:
    ``rint(float32(n / s) * s)`` is ``n`` for any ``n`` below 2**22, the float32 error being
    far below one half."""
    if quantize:
        out[d, i] = count if count < 127 else 127
    else:
        out[d, i] = np.float32(count / scale)


@_jit
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
    players = p[P_PLAYERS]
    cards = p[P_PACK]
    seats = layout[O_SEATS]
    block = layout[O_BLOCK]
    for d in range(s.status.size):
        if running_only and s.status[d] != RUNNING:
            continue
        for i in range(out.shape[1]):
            out[d, i] = 0
        seat = s.seat[d]
        phase = s.phase[d]
        # The observer's own cards (R9.2), the card it took this turn (R4.3), the wild cards
        # and the upcard (R3, R2.6, R2.8).
        for i in range(s.hand_len[d, seat]):
            out[d, layout[O_HAND] + s.hands[d, seat, i]] = 1
        if s.taken[d] >= 0:
            out[d, layout[O_TAKEN] + s.taken[d]] = 1
        _set_bits(out, d, layout[O_WILD], s.wild[d])
        if s.upcard[d] >= 0:
            out[d, layout[O_UPCARD] + s.upcard[d]] = 1
        # The discard pile in order, its top, and when each card was last discarded (R4.5).
        pile = s.discard_len[d]
        for i in range(pile):
            _put_count(out, d, layout[O_PILE] + s.discard[d, i], i + 1, cards, quantize)
        if pile > 0:
            out[d, layout[O_TOP] + s.discard[d, pile - 1]] = 1
        discarded = 0
        for a in range(players):
            discarded |= s.discarded[d, a]
        while discarded:
            c = _low_bit(discarded)
            _put_count(out, d, layout[O_DTURN] + c, s.discard_turn[d, c], COUNT_SCALE, quantize)
            discarded &= discarded - 1
        # The phase (R4.2), the observer's turn and whether it is its first (R5.7).
        if phase == DRAW:
            out[d, layout[O_DRAW]] = 1
        elif phase == DISCARD:
            out[d, layout[O_DISCARD]] = 1
        else:
            out[d, layout[O_OVER]] = 1
        if phase != FINISHED:
            out[d, layout[O_MY_TURN]] = 1
        if s.draws[d, seat] == (1 if phase == DISCARD else 0):
            out[d, layout[O_FIRST]] = 1
        # The stock (R2.6, R4.6, R4.7), the turns started, the calls (R6.4, R7).
        _put_count(out, d, layout[O_STOCK], s.stock_len[d], cards, quantize)
        if s.upcard_in_stock[d]:
            out[d, layout[O_BOTTOM]] = 1
        _put_count(out, d, layout[O_REBUILDS], s.rebuilds[d], p[P_MAX_REBUILDS] + 1, quantize)
        started = s.turns[d] + (1 if phase == DISCARD else 0)
        _put_count(out, d, layout[O_TURN], min(started, COUNT_SCALE), COUNT_SCALE, quantize)
        if s.n_calls[d] > 0:
            out[d, layout[O_CALL_MADE]] = 1
            best = s.best[d]
            at = layout[O_HIGHEST]
            _put(out, d, at, best / VALUE_SCALE, scales[at], quantize)
            out[d, layout[O_CATEGORY] + CATEGORY_INDEX[best >> 12]] = 1
        # Every seat's block, the observer's first (``pot`` and ``balance`` stay 0).
        for k in range(players):
            a = (seat + k) % players
            o = seats + k * block
            _set_bits(out, d, o + layout[S_DISCARDED], s.discarded[d, a])
            _set_bits(out, d, o + layout[S_TOOK], s.took[d, a])
            _put_count(out, d, o + layout[S_HAND_SIZE], s.hand_len[d, a], HAND_SCALE, quantize)
            if a == s.dealer[d]:
                out[d, o + layout[S_DEALER]] = 1
            draws = s.draws[d, a]
            _put_count(out, d, o + layout[S_DRAWS], min(draws, COUNT_SCALE), COUNT_SCALE, quantize)
            from_pile = min(s.pile_draws[d, a], COUNT_SCALE)
            _put_count(out, d, o + layout[S_PILE_DRAWS], from_pile, COUNT_SCALE, quantize)
            if draws == 0:
                out[d, o + layout[S_NOT_DRAWN]] = 1
        out[d, seats + layout[S_TO_ACT]] = 1  # the observer is to act (or, once ended, acted last)
        for card in range(cards):
            holder = s.known[d, card]
            if holder >= 0:  # taken from the pile, or the face-up upcard (R4.5, R2.6)
                out[d, seats + ((holder - seat) % players) * block + layout[S_KNOWN] + card] = 1
        for i in range(s.n_calls[d]):  # R6.5: the shown cards, face up
            o = seats + ((s.call_seat[d, i] - seat) % players) * block
            out[d, o + layout[S_CALLED]] = 1
            at = o + layout[S_CALL_VALUE]
            _put(out, d, at, s.call_code[d, i] / VALUE_SCALE, scales[at], quantize)
            if s.call_first[d, i]:
                out[d, o + layout[S_CALL_FIRST]] = 1
            for j in range(5 if s.call_card[d, i] >= 0 else 6):
                out[d, o + layout[S_SHOWN] + s.call_shown[d, i, j]] = 1


@_jit
def evaluate_rows(tables: Any, wild_mask: int, rows: np.ndarray[Any, Any], out: np.ndarray[Any, Any]) -> None:
    """For checking against the evaluator: per six-card row, best code, best five-card code,
    six-card code, then the code of the five left when each card is put down."""
    for r in range(rows.shape[0]):
        key = 0
        bits = 0
        for j in range(6):
            key += card_key(wild_mask, rows[r, j])
            bits |= card_bits(wild_mask, rows[r, j])
        six, five_of_six = _rank_lookup(tables, key)
        flush = _flush_six(tables, bits, key >> WILD_SHIFT)
        best_five = five_of_six if five_of_six > flush else flush
        out[r, 0] = six if six > best_five else best_five
        out[r, 1] = best_five
        out[r, 2] = six
        for j in range(6):
            card = rows[r, j]
            out[r, 3 + j] = five_code(
                tables, key - card_key(wild_mask, card), bits & ~card_bits(wild_mask, card)
            )
