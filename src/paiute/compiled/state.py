"""The state of a batch of deals on arrays, the rules as an integer array, and the constants
the compiled rules core (:mod:`paiute.compiled`) shares with its callers.

State of deal ``d`` (cards are ids 0..53 as in :mod:`paiute.cards`):

* hands, kept sorted so that legal actions come out in id order, with each seat's *rank key*
  and *suit bits* kept up to date card by card (the evaluator's encoding, see
  :mod:`paiute.evaluator`), so that judging a call costs a table look-up, not a loop;
* the stock and the discard pile, top card last (as the engine's lists);
* whose turn, the phase, the card taken from the discard pile (R4.3), draws per seat (R5.7),
  turns, rebuilds (R4.6, R4.7), the calls (R6) and, at the end, status, winners and payouts;
* public facts an observation encoding reads (each seat's discarded and taken cards, its
  draws from the pile, when each card was last discarded: R4.5), kept with a store or two per
  action;
* a per-deal xoshiro256** generator (seeded by splitmix64 from a run's seed and the deal's
  index), so a deal depends on nothing but the seed, its index and the actions chosen.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from paiute.actions import CALL_BASE, CALL_SIX_ID, DISCARD_BASE, NUM_ACTIONS
from paiute.cards import CARDS
from paiute.combos import CATEGORY_SHIFT, FIVE_OF_A_KIND_ORDER, ROYAL_HIGH_ORDER, Category
from paiute.errors import PaiuteError
from paiute.rules import DEFAULT_MAX_TURNS, HAND_SIZE, MAX_SEATS, RuleSet

__all__ = [
    "BATCH_FIELDS",
    "CALL_BASE",
    "CALL_SIX_ID",
    "DEAD",
    "DISCARD_BASE",
    "MAX_SEATS",
    "NUM_ACTIONS",
    "OVER",
    "RUNNING",
    "TRUNCATED",
    "Batch",
    "new_batch",
    "rule_params",
]

# Sizes from the engine's constants, which are imported above, not written again: Numba reads a
# module's integer globals, imported ones too, as compile-time constants.
HAND_CAP = HAND_SIZE + 1  # a hand after its draw (R4.2)
PACK_CAP = len(CARDS)
LEGAL_CAP = 16  # at most 6 discards + 6 five-card calls + the six-card call

# Deal status.
RUNNING = 0
OVER = 1  # ended by R7.1 / R7.3 with winners
DEAD = 2  # R4.7
TRUNCATED = 3  # stopped after max_turns turns (the R4.7 hole, docs/rules.md)

# Phases, as paiute.events.Phase.
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
P_CARRY = 16  # chips carried into the pot from a dead deal before (R8.5); 0 in the simulator
P_SIZE = 17

# The evaluator's encoding (paiute.evaluator): rank key = 3 bits per rank + wild count << 39;
# suit bits = 1 << (rank + 16 * suit) for natural cards (13-bit lane per suit).
WILD_SHIFT = 39
WILD_UNIT = 1 << WILD_SHIFT
LANE = 16
SUIT_MASK = 0x1FFF
FIVE_KIND = FIVE_OF_A_KIND_ORDER << CATEGORY_SHIFT
# Scale payout units by category order 0..7 (R8.4; 7 is a royal_high Royal Flush).
UNITS = np.array(
    [0, *(Category.from_code(order << CATEGORY_SHIFT).units for order in range(1, ROYAL_HIGH_ORDER + 1))],
    dtype=np.int64,
)

HASH_MULT = -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed 64-bit number
# When each card was last discarded is kept up to this turn (uint8).
TURN_CAP = 255

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


def rule_params(
    rules: RuleSet,
    players: int,
    *,
    dealer: int | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    record: bool = False,
) -> npt.NDArray[np.int64]:
    """The rules as the kernels read them: an int64 array indexed by the ``P_*`` constants of
    :mod:`paiute.compiled.state`. Chips are 64-bit integers there: a stake or unit so
    large that a payout could overflow them is refused."""
    if max(rules.stake, rules.unit * 10) * MAX_SEATS >= 1 << 62:
        raise PaiuteError(f"stake {rules.stake} or unit {rules.unit} is too large for 64-bit chip counts")
    p = np.zeros(P_SIZE, dtype=np.int64)
    p[P_PLAYERS] = players
    p[P_JOKERS] = rules.jokers
    p[P_UNDER] = rules.upcard_under_stock
    p[P_OPEN] = rules.open_discard
    p[P_OPPOSITE] = rules.wild_colour == "opposite"
    p[P_KEEPS_TOP] = rules.reshuffle_keeps_top
    p[P_MAX_REBUILDS] = min(rules.max_rebuilds, 1 << 40)
    p[P_PAIUTE_ANY] = rules.paiute_allowed_any_turn(players)  # R5.7, R2.1
    p[P_SCALE] = rules.payout == "scale"
    p[P_STAKE] = rules.stake
    p[P_FIRST_CALL] = rules.ties == "first_call"
    p[P_UNIT] = rules.unit
    p[P_MAX_TURNS] = max_turns
    p[P_DEALER] = -1 if dealer is None else dealer
    p[P_PACK] = rules.pack_size
    p[P_RECORD] = record
    return p
