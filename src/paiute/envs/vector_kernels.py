"""Numba kernels of the vector environment (:mod:`paiute.envs.vector`): many tables of one
learner against bots, every bot's turn played inside the kernels.

A table is deal ``d`` of a :class:`~paiute.compiled.state.Batch` (the compiled rules core,
:mod:`paiute.compiled`) plus the row ``d`` of a :class:`Tables`: the engine's chance of the
deal and each bot's generator, both Python's own ``random.Random`` on arrays
(:mod:`paiute.compiled.pyrandom`), so that a table seeded as the single environment seeds
itself deals, rebuilds (R4.6) and decides exactly as it does: the same shuffle and cut (R2.4),
``random`` drawing ``randrange`` over the same legal actions, ``greedy``
(:func:`~paiute.compiled.greedy.greedy_decide`) drawing for every tie as
:class:`~paiute.players.greedy.GreedyPlayer` does, and choosing among tied discards in the
order the engine's hand holds them (the order the cards came in, which :class:`Tables` keeps
beside the core's sorted hand). ``playout`` (:mod:`paiute.compiled.playout`, through the
search's ``policy_move``) draws nothing.

The ledger is the environments' (:mod:`paiute.envs.table`): the stakes go into the pot as a
deal starts (R8.2), the deal is settled by the core (R8), and a deal cut after ``max_turns``
turns or ended by the learner's illegal action is settled as a dead deal (R8.5). A cut or
abandoned deal keeps the phase it had (the core's ``FINISHED`` is for the deals the rules
ended), so that its last observation is the environments' one.

Every kernel is cached on disk (``paiute.compiled.compilation.jit``); Numba checks only this
file, not the helpers it inlines (see :mod:`paiute.compiled.compilation`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from paiute.compiled.compilation import inline, jit
from paiute.compiled.dealing import deal_from_deck
from paiute.compiled.greedy import TIE, W_KEEP_TIES, W_KEEPS, W_TIED, W_TIES, greedy_decide
from paiute.compiled.pyrandom import STATE_SIZE, randbelow, seed_rows, shuffle
from paiute.compiled.pyrandom import seed as seed_generator
from paiute.compiled.rules import (
    apply_action,
    cut_deal,
    legal_actions,
    needs_rebuild,
    rebuild_cards,
    rebuild_stock,
    why_illegal,
)
from paiute.compiled.search import policy_move
from paiute.compiled.settle import finish_deal
from paiute.compiled.state import (
    CALL_BASE,
    DISCARD_BASE,
    DRAW,
    HAND_CAP,
    ILLEGAL_NONE,
    MAX_SEATS,
    NUM_ACTIONS,
    OVER,
    P_CARRY,
    P_PACK,
    P_PLAYERS,
    P_SCALE,
    P_STAKE,
    RUNNING,
    TRUNCATED,
)
from paiute.envs.batch_kernels import O_BLOCK, O_POT, O_SEATS, S_BALANCE, observe_row
from paiute.envs.encoding import CHIP_BOUND

__all__ = [
    "CALLER",
    "END_CUT",
    "END_DEAD",
    "END_ILLEGAL",
    "END_OVER",
    "GREEDY",
    "LEARNER",
    "PLAYOUT",
    "RANDOM",
    "Tables",
    "deal_fresh_tables",
    "deal_tables",
    "draw_fresh_deals",
    "new_tables",
    "observe",
    "play",
    "seed_bots",
]

# Who sits at a seat (``kinds[seat]``).
LEARNER = 0
RANDOM = 1
GREEDY = 2
PLAYOUT = 3
CALLER = 4  # a Python policy: the kernels stop and ask for it

# Why a table's deal ended (``Tables.end``): 0 while it runs, then as paiute.envs.table.END_*.
END_OVER = 1  # R7.1, R7.3
END_DEAD = 2  # R4.7
END_CUT = 3  # max_turns turns without a call, settled as dead (R8.5)
END_ILLEGAL = 4  # the learner's illegal action, settled as dead (R8.5)

U32 = npt.NDArray[np.uint32]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]


class Tables(NamedTuple):
    """What a table of the vector environment keeps beside its deal in the core."""

    chance: U32  # [N, STATE_SIZE]: the deal's SeededChance (R2.4, R4.6, R10.1)
    bots: U32  # [N * 8, STATE_SIZE]: row d * 8 + seat, the generator of the bot at that seat
    order: npt.NDArray[np.uint8]  # [N, 8, 7]: each hand in the engine's order (as dealt and drawn)
    order_len: I64  # [N, 8]
    end: I64  # [N]: 0 while the deal runs, else END_*
    waiting: I64  # [N]: the seat of a CALLER to act, else -1
    balance: I64  # [N, 8]: the ledger before this deal's stakes (R8.2)
    carried: I64  # [N]: chips in the pot before this deal's stakes (R8.5)
    start_balance: I64  # [N, 8]: the balances once the stakes are in (what the seats see)
    start_pot: I64  # [N]: the pot once the stakes are in
    rewards: F64  # [N, 8]: each seat's reward for the deal that ended (chips and pot share)


def new_tables(size: int) -> Tables:
    """Zeroed arrays for ``size`` tables."""
    return Tables(
        chance=np.zeros((size, STATE_SIZE), dtype=np.uint32),
        bots=np.zeros((size * MAX_SEATS, STATE_SIZE), dtype=np.uint32),
        order=np.zeros((size, MAX_SEATS, HAND_CAP), dtype=np.uint8),
        order_len=np.zeros((size, MAX_SEATS), dtype=np.int64),
        end=np.zeros(size, dtype=np.int64),
        waiting=np.full(size, -1, dtype=np.int64),
        balance=np.zeros((size, MAX_SEATS), dtype=np.int64),
        carried=np.zeros(size, dtype=np.int64),
        start_balance=np.zeros((size, MAX_SEATS), dtype=np.int64),
        start_pot=np.zeros(size, dtype=np.int64),
        rewards=np.zeros((size, MAX_SEATS), dtype=np.float64),
    )


# -- dealing --------------------------------------------------------------------------------


@jit
def seed_bots(t: Any, rows: Any, seeds: Any) -> None:
    """Seed the bot generators ``t.bots[rows[i]]`` with ``seeds[i]`` (``random.Random(seed)``)."""
    for i in range(rows.size):
        seed_generator(t.bots, rows[i], seeds[i])


@jit
def draw_fresh_deals(
    next32: Any, next64: Any, states: Any, rows: Any, players: int, dealers: Any, chance: Any
) -> None:
    """What ``PaiuteEnv.reset`` draws from a fresh table's ``np_random`` for its deal, for the
    table ``rows[i]``, whose PCG64 state is at address ``states[rows[i]]`` (``next32``,
    ``next64``: the C entry points of :func:`paiute.envs.vector_tables.entry_points`):
    ``dealers[i]``, the dealer, ``integers(players)`` (R2.3), then ``chance[i]``, the seed of
    the deal's chance, ``integers(2**63)`` (R10.1), as ``Generator.integers`` draws them:
    Lemire's rejection on 32-bit words, and below ``2**63`` a 64-bit word's upper 63 bits (the
    rejection's threshold there is 0)."""
    threshold = (2**32 - players) % players
    for i in range(rows.size):
        state = states[rows[i]]
        m = np.int64(next32(state)) * players
        if m & 0xFFFFFFFF < players:
            while m & 0xFFFFFFFF < threshold:
                m = np.int64(next32(state)) * players
        dealers[i] = m >> 32
        chance[i] = np.int64(next64(state) >> np.uint64(1))


@jit
def deal_fresh_tables(
    next32: Any,
    next64: Any,
    states: Any,
    s: Any,
    t: Any,
    params: Any,
    rows: Any,
    players: int,
    dealers: Any,
    chance: Any,
) -> None:
    """A fresh table's deal at each table ``rows[i]`` (one deal, one match): its dealer and
    chance seed drawn by :func:`draw_fresh_deals`, then dealt by :func:`deal_tables`;
    ``dealers`` and ``chance`` are room for ``rows.size`` draws."""
    draw_fresh_deals(next32, next64, states, rows, players, dealers, chance)
    deal_tables(s, t, params, rows, dealers, chance, True)


@jit
def deal_tables(s: Any, t: Any, params: Any, rows: Any, dealers: Any, seeds: Any, fresh: bool) -> None:
    """Deal a new deal at each table ``rows[i]``: ``Deal.new`` with ``SeededChance(seeds[i])``
    and dealer ``dealers[i]`` (the pack shuffled, then cut, R2.4), after the stakes went into
    the pot (R8.2) from ``t.balance`` and ``t.carried``, which a ``fresh`` table (one deal,
    one match) empties first."""
    seed_rows(t.chance, rows, seeds)
    for i in range(rows.size):
        d = rows[i]
        if fresh:
            for seat in range(MAX_SEATS):
                t.balance[d, seat] = 0
            t.carried[d] = 0
        p = params[d]
        players = p[P_PLAYERS]
        pack = p[P_PACK]
        deck = s.deck[d]
        for card in range(pack):
            deck[card] = card
        shuffle(t.chance, d, deck, pack)
        cut = randbelow(t.chance, d, pack)
        for j in range(pack):  # deck[cut:] + deck[:cut], through the stock as scratch
            s.stock[d, j] = deck[(cut + j) % pack]
        for j in range(pack):
            deck[j] = s.stock[d, j]
        s.dealer[d] = dealers[i]
        # R8.2: the stakes (payout = pot; with scale payouts nobody pays in, R8.4).
        stake = 0 if p[P_SCALE] else p[P_STAKE]
        p[P_CARRY] = t.carried[d]
        for seat in range(MAX_SEATS):
            t.start_balance[d, seat] = t.balance[d, seat] - (stake if seat < players else 0)
            t.rewards[d, seat] = 0.0
        t.start_pot[d] = t.carried[d] + stake * players
        deal_from_deck(s, p, d)
        # The engine's hands, in the order their cards came (R2.5: one at a time from the
        # dealer's left).
        for seat in range(MAX_SEATS):
            t.order_len[d, seat] = 0
        for index in range(5 * players):
            seat = (dealers[i] + 1 + index) % players
            t.order[d, seat, t.order_len[d, seat]] = deck[index]
            t.order_len[d, seat] += 1
        t.end[d] = 0
        t.waiting[d] = -1


# -- playing --------------------------------------------------------------------------------


@inline
def _apply(s: Any, t: Any, tables: Any, p: Any, d: int, action: int) -> None:
    """Apply a legal ``action`` to table ``d``: a stock rebuild shuffled by the deal's chance
    (R4.6), the hand's order kept as the engine keeps it, then the core's own move."""
    seat = s.seat[d]
    if action == 0:
        if needs_rebuild(s, p, d):
            size = rebuild_cards(s, p, d)
            shuffle(t.chance, d, s.stock[d], size)  # index 0 becomes the new top
            rebuild_stock(s, p, d, size)
        if s.stock_len[d] > 0:
            t.order[d, seat, t.order_len[d, seat]] = s.stock[d, s.stock_len[d] - 1]
            t.order_len[d, seat] += 1
    elif action == 1:
        t.order[d, seat, t.order_len[d, seat]] = s.discard[d, s.discard_len[d] - 1]
        t.order_len[d, seat] += 1
    elif action < CALL_BASE:  # a discard leaves the others in their order
        card = action - DISCARD_BASE
        n = t.order_len[d, seat]
        j = 0
        while t.order[d, seat, j] != card:
            j += 1
        for k in range(j, n - 1):
            t.order[d, seat, k] = t.order[d, seat, k + 1]
        t.order_len[d, seat] = n - 1
    else:  # a call shows the whole hand (R6.5)
        t.order_len[d, seat] = 0
    apply_action(s, tables, p, d, action)


@inline
def _settle_dead(s: Any, p: Any, d: int, phase: int, taken: int) -> None:
    """Settle table ``d``'s deal as a dead deal (R8.5), keeping the phase and taken card the
    seats saw when it stopped."""
    finish_deal(s, p, d, True)
    s.phase[d] = phase
    s.taken[d] = taken


@inline
def _conclude(s: Any, t: Any, p: Any, d: int, end: int) -> None:
    """Record why table ``d``'s deal ended and what it paid: each seat's chips (stakes
    included, R8) plus its share of the change of the pot, the environments' reward."""
    t.end[d] = end
    players = p[P_PLAYERS]
    pot_change = (s.pot[d] - t.carried[d]) / players
    for seat in range(players):
        t.rewards[d, seat] = float(s.payouts[d, seat]) + pot_change
        t.balance[d, seat] += s.payouts[d, seat]
    t.carried[d] = s.pot[d]


@inline
def _check_end(s: Any, t: Any, p: Any, d: int) -> None:
    """If table ``d``'s deal has ended (R7.3, R4.7) or been cut (max_turns) and is not yet
    concluded, conclude it."""
    status = s.status[d]
    if status == RUNNING or t.end[d] != 0:
        return
    if status == TRUNCATED:  # cut where a turn starts: settled as dead (R8.5)
        _settle_dead(s, p, d, DRAW, -1)
        _conclude(s, t, p, d, END_CUT)
    else:
        _conclude(s, t, p, d, END_OVER if status == OVER else END_DEAD)


@inline
def _bot_action(
    s: Any, t: Any, tables: Any, g: Any, ptables: Any, p: Any, d: int, kind: int, work: Any, scratch: Any
) -> int:
    """The action of the bot to act at table ``d`` (see the module); -1 if it has none.
    ``greedy`` is inlined (a call passing the state costs a good part of a decision); the
    playout policy decides in the search's own kernel, ``policy_move``, which keeps the
    memory and time this kernel takes to compile small."""
    seat = s.seat[d]
    row = d * MAX_SEATS + seat
    if kind == RANDOM:  # RandomPlayer: legal[randrange(len(legal))]
        n = legal_actions(s, tables, p, d, scratch)
        if n == 0:
            return -1
        return int(scratch[randbelow(t.bots, row, n)])
    if kind == PLAYOUT:
        return int(policy_move(s, tables, ptables, p, d, scratch))
    action = greedy_decide(s, tables, g, p, d, work)
    choice = 0
    for k in range(work[W_KEEPS]):  # GreedyPlayer draws for every tie it weighs
        ties = work[W_KEEP_TIES + k]
        if ties > 1:
            choice = randbelow(t.bots, row, ties)
    if action != TIE:
        return action
    # The tied cards come sorted; the engine lists them in its hand's order.
    tied = work[W_TIED]
    for j in range(t.order_len[d, seat]):
        card = t.order[d, seat, j]
        for k in range(tied):
            if work[W_TIES + k] == card:
                if choice == 0:
                    return DISCARD_BASE + int(card)
                choice -= 1
    return -1


@jit
def play(
    s: Any,
    t: Any,
    tables: Any,
    g: Any,
    ptables: Any,
    params: Any,
    kinds: Any,
    actions: Any,
    act: Any,
    legal_masks: Any,
    abandon: bool,
    reasons: Any,
    work: Any,
    scratch: Any,
    view: Any,
    learner: int,
    out: Any,
    masks: Any,
) -> int:
    """Apply ``actions[d]`` for the seat to act at every table ``d`` where ``act[d]`` (the
    learner, or a ``CALLER`` that was waiting), then let the bots play every running table
    until the learner is to act, a ``CALLER`` is (its seat goes to ``t.waiting``), or the deal
    has ended; then write row ``d`` of ``out`` and ``masks`` as :func:`observe` does for seat
    ``learner`` (unless ``learner`` is -1 or a ``CALLER`` waits there), while the table is
    still in the cache. ``view`` is ``observe``'s ``(layout, scales, chip_scale)``.

    Every action is checked first, against ``legal_masks[d]``: the mask that was given for
    the seat to act there (the table has not changed since); ``reasons[d]`` says why one is
    refused (0: legal, else ``why_illegal``'s code, which works the legal actions out anew). Where
    any is and not ``abandon``, nothing changes and minus their count is returned; with
    ``abandon`` each refused table's deal ends as the learner's illegal action (settled
    dead, R8.5) and the others go on. Returns how many tables wait for a ``CALLER``."""
    refused = 0
    for d in range(s.status.size):
        reasons[d] = ILLEGAL_NONE
        if act[d]:
            action = actions[d]
            if s.status[d] != RUNNING or not 0 <= action < NUM_ACTIONS or legal_masks[d, action] == 0:
                reasons[d] = why_illegal(s, tables, params[d], d, action, scratch[0:16])
                refused += 1
    if refused and not abandon:
        return -refused
    waiting = 0
    layout, scales, chip_scale = view
    for d in range(s.status.size):
        p = params[d]
        if not act[d] and t.waiting[d] >= 0:
            waiting += 1
            continue
        if act[d]:
            t.waiting[d] = -1
        if act[d] and reasons[d] != ILLEGAL_NONE:
            _settle_dead(s, p, d, s.phase[d], s.taken[d])
            _conclude(s, t, p, d, END_ILLEGAL)
        else:
            # The given action, then the bots' until the learner or a CALLER is to act. One
            # place applies them all: each inlined copy of the rules makes the kernel slower to
            # compile.
            action = actions[d] if act[d] else -1
            while s.status[d] == RUNNING:
                if action < 0:
                    kind = kinds[s.seat[d]]
                    if kind == LEARNER:
                        break
                    if kind == CALLER:
                        t.waiting[d] = s.seat[d]
                        waiting += 1
                        break
                    action = _bot_action(s, t, tables, g, ptables, p, d, kind, work, scratch)
                    if action < 0:  # no legal action: R4.6's card count rules it out
                        cut_deal(s, d)
                        break
                _apply(s, t, tables, p, d, action)
                action = -1
            _check_end(s, t, p, d)
        if learner >= 0 and t.waiting[d] < 0:
            _observe_row(s, t, tables, p, layout, scales, chip_scale, d, d, learner, out, masks, scratch)
    return waiting


# -- what a seat sees -----------------------------------------------------------------------


@jit
def observe(
    s: Any,
    t: Any,
    tables: Any,
    params: Any,
    layout: Any,
    scales: Any,
    chip_scale: float,
    rows: Any,
    seats: Any,
    out: Any,
    masks: Any,
    scratch: Any,
) -> None:
    """Row ``i`` of ``out`` (float32): table ``rows[i]`` as seat ``seats[i]`` sees it (R9),
    the shared encoding (:class:`~paiute.envs.encoding.ObservationEncoder`) with the chips
    every seat holds once the stakes are in and the pot (what the environments' encoder
    shows for the whole deal); row ``i`` of ``masks``: the legal actions of the seat to act
    there, or every action once the deal has ended (a vector env's policy samples there, and
    the sample is discarded)."""
    for i in range(rows.size):
        d = rows[i]
        _observe_row(s, t, tables, params[d], layout, scales, chip_scale, d, i, seats[i], out, masks, scratch)


@inline
def _observe_row(
    s: Any,
    t: Any,
    tables: Any,
    p: Any,
    layout: Any,
    scales: Any,
    chip_scale: float,
    d: int,
    i: int,
    observer: int,
    out: Any,
    masks: Any,
    scratch: Any,
) -> None:
    """Row ``i`` of ``out`` and ``masks``: table ``d`` as seat ``observer`` sees it (see
    :func:`observe`)."""
    observe_row(s, p, layout, scales, out, d, i, observer, s.phase[d], False)
    base = layout[O_SEATS]
    block = layout[O_BLOCK]
    players = p[P_PLAYERS]
    for k in range(players):
        chips = t.start_balance[d, (observer + k) % players] / chip_scale
        out[i, base + k * block + layout[S_BALANCE]] = min(max(chips, -CHIP_BOUND), CHIP_BOUND)
    out[i, layout[O_POT]] = min(max(t.start_pot[d] / chip_scale, 0.0), CHIP_BOUND)
    if t.end[d] != 0:
        for a in range(NUM_ACTIONS):
            masks[i, a] = 1
        return
    for a in range(NUM_ACTIONS):
        masks[i, a] = 0
    n = legal_actions(s, tables, p, d, scratch)
    for k in range(n):
        masks[i, scratch[k]] = 1
