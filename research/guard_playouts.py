"""Playouts in which the searching seat guards its discards: an experiment for issue 11.

Search on top of the ``expert`` (``guarded``) adds nothing when its playouts are played by
greedy's policy for every seat: greedy throws on its next turn the card the guard kept back,
so a rollout cannot see what guarding on *every* turn is worth (research/README.md, "Search
over the expert's move"). This module lets the searching seat guard inside the playouts.

The shipped guard reads 38 columns of public facts (:mod:`paiute.players.feed`); in a
playout it is *emulated* instead. On each discard of the searching seat before any call
(R7.2), every card greedy weighs throwing gets a feed chance drawn from what the shipped model
gives a card like it: the logit is normal, with the mean and spread the model's logits have
over cards that truly feed the next player (it could call at once after taking the card from
the pile: R4.2, R4.3, R5.7, R6) or over cards that do not, measured on greedy's self-play
(``EMULATION``, from 400 deals a preset at four seats; the model's AUC there is 0.758 on
pagat and 0.721 on gamerules). The seat then throws the card whose greedy score less
``weight`` times that chance is highest, greedy's own choice kept where it is as good, as
:class:`~paiute.players.guarded.GuardedPlayer` does. The draws are independent from one
decision to the next and from one card to the next, where the real model's errors persist.
And the emulated guard is more active than the real one: on the discards of 40 deals a preset
of greedy self-play it throws a card greedy scores lower on 5.1% of them (57 of some 1,100),
the real guard on 1.6% (16 of 1,031). Within a decision its chances part a card that feeds
from one that does not by the model's whole gap between the two (the means above), where much
of the real model's spread lies between decisions (more draws, a more active next player) and
its chances for the cards of one decision sit closer together; drawing the cards of a
decision with a shared part (correlation 0.7 and 0.9, tried) left 61 and 57 departures. So
the emulated guard knows more of the determinized next hand than the real one could: if
anything, it flatters a guard inside the playouts.

Every other seat, and the searching seat's other decisions, are played by the compiled
``playout`` policy (``searcher=0``), or greedy exactly (``searcher=1``, the searching seat
only, unguarded: the control), or greedy guarded as above (``searcher=2``).
``belief_bound.py --continuation`` plays its variants with these playouts.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from paiute.compiled.greedy import greedy_action
from paiute.compiled.greedy_score import G_HORIZON, W_KNOWN, W_PAIUTE, best_code, bit_count, hand_score
from paiute.compiled.playout import policy_action
from paiute.compiled.rng import below, seed_deal, uniform
from paiute.compiled.rules import apply_action
from paiute.compiled.search import SCRATCH, V_POT, V_SEAT, V_STAKE, Position
from paiute.compiled.state import (
    CALL_BASE,
    DISCARD,
    DISCARD_BASE,
    HAND_CAP,
    LEGAL_CAP,
    MAX_SEATS,
    OVER,
    P_PAIUTE_ANY,
    P_PLAYERS,
    PACK_CAP,
    RUNNING,
    TRUNCATED,
    new_batch,
)
from paiute.compiled.tables import card_bits, card_key, five_code, rank_lookup, rekey_hand
from paiute.greedy_weights import PAIUTE
from paiute.players.base import MAX_WORKERS

# -- The compiled core's own helpers that these playouts need, copied from the package (its
# -- kernels in paiute.compiled.search and paiute.compiled.greedy keep theirs private). --------
_OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}  # as paiute.compiled's


def jit(function: Any) -> Any:
    """``numba.njit`` with an on-disk cache: a kernel (as the package compiles its own)."""
    return numba.njit(**_OPTIONS)(function)


def inline(function: Any) -> Any:
    """A helper of the kernels, inlined into its callers by Numba."""
    return numba.njit(inline="always", **_OPTIONS)(function)


@inline
def copy_deal(s: Any, d: int, t: Any, e: int) -> None:
    """Deal ``d`` of ``s`` into deal ``e`` of ``t``: every field the rules read or write."""
    for seat in range(MAX_SEATS):
        t.hand_len[e, seat] = s.hand_len[d, seat]
        t.hand_key[e, seat] = s.hand_key[d, seat]
        t.hand_bits[e, seat] = s.hand_bits[d, seat]
        t.draws[e, seat] = s.draws[d, seat]
        t.call_seat[e, seat] = s.call_seat[d, seat]
        t.call_code[e, seat] = s.call_code[d, seat]
        t.call_first[e, seat] = s.call_first[d, seat]
        t.call_card[e, seat] = s.call_card[d, seat]
        t.payouts[e, seat] = s.payouts[d, seat]
        for j in range(s.hand_len[d, seat]):
            t.hands[e, seat, j] = s.hands[d, seat, j]
    for i in range(s.n_calls[d]):  # what greedy counts as seen (R6.5, R4.5)
        for j in range(HAND_CAP):
            t.call_shown[e, i, j] = s.call_shown[d, i, j]
    for card in range(PACK_CAP):
        t.known[e, card] = s.known[d, card]
    for i in range(s.stock_len[d]):
        t.stock[e, i] = s.stock[d, i]
    for i in range(s.discard_len[d]):
        t.discard[e, i] = s.discard[d, i]
    t.stock_len[e] = s.stock_len[d]
    t.discard_len[e] = s.discard_len[d]
    t.wild[e] = s.wild[d]
    t.upcard[e] = s.upcard[d]
    t.upcard_in_stock[e] = s.upcard_in_stock[d]
    t.dealer[e] = s.dealer[d]
    t.seat[e] = s.seat[d]
    t.phase[e] = s.phase[d]
    t.taken[e] = s.taken[d]
    t.turns[e] = s.turns[d]
    t.n_actions[e] = s.n_actions[d]
    t.rebuilds[e] = s.rebuilds[d]
    t.status[e] = s.status[d]
    t.n_calls[e] = s.n_calls[d]
    t.best[e] = s.best[d]
    t.winners[e] = s.winners[d]
    t.pot[e] = s.pot[d]


@inline
def determinize(
    template: Any,
    s: Any,
    players: int,
    unseen: Any,
    eligible: Any,
    hidden_stock: int,
    need: Any,
    weights: Any,
    pool: Any,
    dealt: Any,
    dealt_at: int,
) -> None:
    """Deal ``s``'s deal 0 from the template with the unseen cards placed at random by deal 0's
    generator, as :func:`paiute.compiled.search.estimate_kernel` deals each determinization
    (the hidden cards of the hands in proportion to each seat's ``weights``; after a rebuild,
    R4.6, the stock only from the ``eligible`` cards); the hidden cards of the hands are
    ``dealt[dealt_at]`` where ``dealt`` has that row, the stock the rest."""
    copy_deal(template, 0, s, 0)
    count = unseen.size
    for i in range(count):
        pool[i] = unseen[i]
    if dealt_at < dealt.shape[0]:
        start = 0
        for seat in range(players):
            for h in range(need[seat]):
                card = dealt[dealt_at, seat, h]
                for i in range(start, count):
                    if pool[i] == card:
                        pool[start], pool[i] = pool[i], pool[start]
                        break
                s.hands[0, seat, s.hand_len[0, seat]] = pool[start]
                s.hand_len[0, seat] += 1
                start += 1
        for i in range(start, count):  # the rest is the stock, in random order
            j = i + below(s.rng, 0, count - i)
            pool[i], pool[j] = pool[j], pool[i]
            s.stock[0, s.stock_len[0]] = pool[i]
            s.stock_len[0] += 1
        for seat in range(players):
            rekey_hand(s, 0, seat)
        return
    constrained = False
    for i in range(count):
        if not eligible[i]:
            constrained = True
    if constrained:  # R4.6: the rebuilt stock holds only cards that went into it
        chosen = 0
        for i in range(count):
            if eligible[i]:
                pool[chosen], pool[i] = pool[i], pool[chosen]
                chosen += 1
        for i in range(hidden_stock):  # a uniform sample, in random order, of the eligible
            j = i + below(s.rng, 0, chosen - i)
            pool[i], pool[j] = pool[j], pool[i]
            s.stock[0, s.stock_len[0]] = pool[i]
            s.stock_len[0] += 1
        start = hidden_stock
    else:
        start = 0
    # The hidden cards of each hand, drawn in proportion to the seat's weights.
    for seat in range(players):
        for _ in range(need[seat]):
            total = 0.0
            for i in range(start, count):
                total += weights[seat, pool[i]]
            target = uniform(s.rng, 0) * total
            pick = count - 1
            for i in range(start, count):
                target -= weights[seat, pool[i]]
                if target < 0.0:
                    pick = i
                    break
            pool[start], pool[pick] = pool[pick], pool[start]
            s.hands[0, seat, s.hand_len[0, seat]] = pool[start]
            s.hand_len[0, seat] += 1
            start += 1
    if not constrained:  # the rest is the stock, in random order
        for i in range(start, count):
            j = i + below(s.rng, 0, count - i)
            pool[i], pool[j] = pool[j], pool[i]
            s.stock[0, s.stock_len[0]] = pool[i]
            s.stock_len[0] += 1
    for seat in range(players):
        rekey_hand(s, 0, seat)


@inline
def playout_value(s: Any, d: int, v: Any, dead_value: float) -> float:
    """The chips the searching seat gains in a finished playout (R8): its payout, and the
    stake back where the pot is paid; a dead (R4.7) or cut playout is worth ``dead_value``."""
    if s.status[d] != OVER:
        return dead_value  # R8.5
    return float(s.payouts[d, v[V_SEAT]] + (v[V_STAKE] if v[V_POT] else 0))


@inline
def known_in_next_hand(s: Any, p: Any, work: Any, d: int, seat: int) -> int:
    """The natural cards known to be in the hand of the next player to draw after ``seat``
    (cards taken from the pile, R4.5; a seat that called draws no more), as a card mask, from
    greedy's survey of the seat's view (``work``)."""
    players = p[P_PLAYERS]
    following = (seat + 1) % players
    while following != seat:
        called = False
        for i in range(s.n_calls[d]):
            if s.call_seat[d, i] == following:
                called = True
        if not called:
            break
        following = (following + 1) % players
    return int(work[W_KNOWN + following] & ((1 << 52) - 1))


#: The shipped model's logits at four seats over greedy's candidate throws (400 deals of
#: greedy self-play, seed 777): mean and spread over cards that do not feed, then over cards
#: that do. ``python -m research.guard_playouts --calibrate 400`` measures them again.
EMULATION: dict[str, tuple[float, float, float, float]] = {
    "pagat": (-4.243, 1.038, -3.138, 1.179),
    "gamerules": (-3.250, 0.976, -2.452, 0.924),
}
#: The searching seat's policy in the playouts.
CONTINUATIONS = {"playout": 0, "greedy": 1, "guard": 2}
_GREEDY_AT = LEGAL_CAP + 85


@inline
def _gaussian(rng: Any, d: int) -> float:
    """A standard normal draw (Box-Muller) from deal ``d``'s generator."""
    u = 1.0 - uniform(rng, d)  # in (0, 1]
    return math.sqrt(-2.0 * math.log(u)) * math.cos(2.0 * math.pi * uniform(rng, d))


@inline
def feeds(s: Any, tables: Any, p: Any, d: int, other: int, card: int) -> bool:
    """Whether ``other`` could call at once after taking ``card`` from the pile: R4.2, a
    five-card call never putting the taken card down (R4.3, R6.2) or a six-card call (R6.3),
    a Paiute only where R5.7 allows it; before any call, so no floor (R6.4)."""
    wild = s.wild[d]
    key = s.hand_key[d, other] + card_key(wild, card)
    bits = s.hand_bits[d, other] | card_bits(wild, card)
    if best_code(tables, key, bits) == 0:
        return False
    paiute_ok = s.draws[d, other] == 0 or p[P_PAIUTE_ANY] != 0
    six, _ = rank_lookup(tables, key)
    if six and ((six >> 12) != PAIUTE or paiute_ok):
        return True
    for i in range(s.hand_len[d, other]):
        held = s.hands[d, other, i]
        if five_code(tables, key - card_key(wild, held), bits & ~card_bits(wild, held)) > 0:
            return True
    return False


@jit
def guarded_action(s: Any, tables: Any, g: Any, p: Any, d: int, work: Any, emulation: Any) -> int:
    """Greedy's action for the seat to act in deal ``d``, its discards before any call guarded
    by emulated feed chances (see the module). ``emulation``: the four logit figures of
    :data:`EMULATION`, then the guard's weight."""
    action = greedy_action(s, tables, g, p, d, work)  # also surveys the seat's view (work)
    if s.phase[d] != DISCARD or s.n_calls[d] > 0 or action < DISCARD_BASE or action >= CALL_BASE:
        return action
    seat = s.seat[d]
    wild = s.wild[d]
    count = s.hand_len[d, seat]
    key = s.hand_key[d, seat]
    bits = s.hand_bits[d, seat]
    taken = s.taken[d]
    horizon = g[5][G_HORIZON]
    paiute_now = work[W_PAIUTE] != 0
    following = (seat + 1) % p[P_PLAYERS]
    danger = known_in_next_hand(s, p, work, d, seat)  # greedy's 0.01 a fed card known in the next hand
    naturals = 0
    for i in range(count):
        card = s.hands[d, seat, i]
        if card != taken and not (wild >> card) & 1:
            naturals += 1
    best = -1e300
    best_card = -1
    kept = -1e300
    for i in range(count):
        card = s.hands[d, seat, i]
        if card == taken or (naturals and (wild >> card) & 1):
            continue  # R4.3; and no wild card while a natural one can go (R3)
        fed = bit_count((danger >> (4 * (card >> 2))) & 0xF) if card < 52 else 0
        score = (
            hand_score(
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
        if feeds(s, tables, p, d, following, card):
            logit = emulation[2] + emulation[3] * _gaussian(s.rng, d)
        else:
            logit = emulation[0] + emulation[1] * _gaussian(s.rng, d)
        guarded = score - emulation[4] / (1.0 + math.exp(-logit))
        if card == action - DISCARD_BASE:
            kept = guarded
        if guarded > best:
            best, best_card = guarded, card
    if kept >= best - 1e-12:
        return action  # greedy's own choice is as good: keep it
    return DISCARD_BASE + best_card


@jit
def estimate_kernel(
    template: Any,
    s: Any,
    tables: Any,
    ptables: Any,
    gtables: Any,
    continuation: int,
    emulation: Any,
    p: Any,
    unseen: Any,
    eligible: Any,
    hidden_stock: int,
    need: Any,
    weights: Any,
    actions: Any,
    seed: np.uint64,
    first: int,
    stop: int,
    v: Any,
    dead_value: float,
    values: Any,
    scratch: Any,
    dealt: Any,
) -> int:
    """:func:`paiute.compiled.search.estimate_kernel` with the searching seat (``v[0]``)
    played by ``continuation`` (:data:`CONTINUATIONS`) and every other seat by the compiled
    ``playout`` policy."""
    players = p[0]
    searcher = v[0]
    legal = scratch[0:LEGAL_CAP]
    live = scratch[LEGAL_CAP : LEGAL_CAP + 13]
    held = scratch[LEGAL_CAP + 13 : LEGAL_CAP + 21]
    pool = scratch[LEGAL_CAP + 21 : LEGAL_CAP + 85]
    work = scratch[_GREEDY_AT:]
    steps = 0
    for k in range(first, stop):
        seed_deal(s.rng, 0, seed, np.uint64(k))
        determinize(
            template, s, players, unseen, eligible, hidden_stock, need, weights, pool, dealt, k - first
        )
        for a in range(actions.size):
            copy_deal(s, 0, s, 1)
            seed_deal(s.rng, 1, seed ^ np.uint64(0x5DEECE66D), np.uint64(k))
            apply_action(s, tables, p, 1, actions[a])
            while s.status[1] == RUNNING:
                if s.seat[1] == searcher and continuation == 2:
                    action = guarded_action(s, tables, gtables, p, 1, work, emulation)
                elif s.seat[1] == searcher and continuation == 1:
                    action = greedy_action(s, tables, gtables, p, 1, work)
                else:
                    action = policy_action(s, tables, ptables, p, 1, legal, live, held)
                if action < 0:
                    s.status[1] = TRUNCATED
                    break
                apply_action(s, tables, p, 1, action)
                steps += 1
            values[a, k] = playout_value(s, 1, v, dead_value)
    return steps


def run_estimates(
    position: Position,
    actions: Sequence[int],
    seed: int,
    first: int,
    stop: int,
    values: npt.NDArray[np.float64],
    weights: npt.NDArray[np.float64] | None,
    continuation: str,
    emulation: Sequence[float],
    dealt: npt.NDArray[np.int64] | None = None,
) -> int:
    """:func:`paiute.compiled.search.run_estimates` with these playouts (no belief object:
    ``dealt`` holds the hidden cards of the hands a determinization, or is None)."""
    if weights is None:
        weights = np.ones((MAX_SEATS, 54), dtype=np.float64)
    if dealt is None:
        dealt = np.zeros((0, MAX_SEATS, HAND_CAP), dtype=np.int64)
    return int(
        estimate_kernel(
            position.template,
            new_batch(2, 0, 0),
            position.tables,
            position.ptables,
            position.gtables,
            CONTINUATIONS[continuation],
            np.asarray(emulation, dtype=np.float64),
            position.params,
            position.unseen,
            position.eligible,
            position.hidden_stock,
            position.need,
            weights,
            np.asarray(actions, dtype=np.int64),
            np.uint64(seed & 0xFFFFFFFFFFFFFFFF),
            first,
            stop,
            position.value_params,
            position.dead_value,
            values,
            np.zeros(SCRATCH, dtype=np.int64),
            dealt,
        )
    )


def calibrate(preset: str, deals: int, seed: int, workers: int) -> tuple[float, float, float, float]:
    """The four figures of :data:`EMULATION` for ``preset``: the shipped four-seat model's
    logits over the cards greedy weighed throwing in ``deals`` deals of greedy self-play,
    their mean and spread over cards that do not feed the true next hand, then over cards
    that do (``feed_learned.collect``'s rows and labels)."""
    from paiute.players.feed import FeedModel
    from paiute.rules import RuleSet
    from research.feed_learned import collect

    rows, labels, _ = collect(preset, deals, seed, None, workers, 4)
    coefficients = np.array(FeedModel.shipped(RuleSet.from_preset(preset), 4).coefficients)
    logits = rows[:, : coefficients.size] @ coefficients
    safe, fed = logits[~labels], logits[labels]
    return float(safe.mean()), float(safe.std()), float(fed.mean()), float(fed.std())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="The playouts run through belief_bound.py: .venv/bin/python -m research.belief_bound "
        "--variants kept,feed --keep guarded:1 --continuation guard",
    )
    parser.add_argument(
        "--calibrate",
        type=int,
        metavar="DEALS",
        help="print EMULATION's figures measured on DEALS deals of greedy self-play a preset (400)",
    )
    parser.add_argument("--seed", type=int, default=777)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.calibrate is None:
        parser.error("the playouts run through belief_bound.py --continuation; alone this prints --calibrate")
    if args.calibrate < 1:
        parser.error(f"--calibrate must be at least 1, not {args.calibrate}")
    if not 1 <= args.workers <= MAX_WORKERS:
        parser.error(f"--workers must be from 1 to {MAX_WORKERS}, not {args.workers}")
    for name in ("pagat", "gamerules"):
        figures = calibrate(name, args.calibrate, args.seed, args.workers)
        print(f'    "{name}": ({", ".join(f"{x:.3f}" for x in figures)}),')


if __name__ == "__main__":
    main()
