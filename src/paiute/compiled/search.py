"""Determinized paired playouts on the compiled core: what every legal action is worth.

:func:`Position.from_observation` turns one seat's :class:`~paiute.observation.Observation`
(R9) into a *template* deal on the core's arrays: the seat's hand and every public fact (the
discard pile in order, the upcard under the stock, the calls, the draws per seat, the cards
seen going into each hand), with the places of the cards the seat cannot see left empty.
:func:`estimate_kernel` then, for each determinization ``k``:

1. deals the unseen cards into those places at random, as
   :meth:`Deal.from_observation <paiute.deal.Deal.from_observation>` does (after a rebuild,
   R4.6, the stock only from the cards that went into the rebuilt stock); each hidden card of
   a seat is drawn with probability proportional to that seat's *weight* for it (all 1 for
   the uniform deal; :func:`inference_weights` lowers the ranks a seat threw or passed over
   and raises the ranks it took from the pile, R4.5);
2. applies every legal action to the same determinization and plays each out to its end with
   a compiled policy for every seat, with the same random numbers for every action (common
   random numbers: differences between actions are paired). The policy is chosen by name
   (:data:`POLICIES`): ``playout``, the essence of greedy (:mod:`paiute.compiled.playout`,
   some hundred nanoseconds a decision), or ``greedy``, greedy exactly
   (:mod:`paiute.compiled.greedy`, a few microseconds a decision);
3. values each playout as the chips the seat gains: its share of the pot (R8.2, R8.3) or the
   scale payments (R8.4); a dead deal (R4.7) or a playout cut after ``cap`` turns keeps the
   pot (R8.5) and is valued at an even share of it.

The kernel releases the GIL, so threads can share the determinizations of one decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from paiute.actions import ActionKind
from paiute.cards import Card, pack
from paiute.compiled.belief import Belief
from paiute.compiled.compilation import inline, jit
from paiute.compiled.greedy import GREEDY_WORK, greedy_action, greedy_move, greedy_tables
from paiute.compiled.playout import policy_action, policy_tables
from paiute.compiled.rng import below, seed_deal, uniform
from paiute.compiled.rules import apply_action
from paiute.compiled.state import (
    DISCARD,
    DRAW,
    HAND_CAP,
    LANE,
    LEGAL_CAP,
    MAX_SEATS,
    OVER,
    P_CARRY,
    PACK_CAP,
    RUNNING,
    TRUNCATED,
    WILD_UNIT,
    Batch,
    new_batch,
    rule_params,
)
from paiute.compiled.tables import rekey_hand, tables
from paiute.events import Phase
from paiute.observation import Observation, seen_cards

__all__ = [
    "POLICIES",
    "SCRATCH",
    "Position",
    "estimate_kernel",
    "inference_weights",
    "policy_move",
    "run_estimates",
    "warm_up",
]

#: Turns after which a playout is cut and valued as a dead deal (R4.7 does not bound a deal
#: of discard-pile draws).
TURN_CAP = 200
# Value parameters: the seat, whether the pot is paid (R8.2), the stake, the dead value x 1e6.
V_SEAT = 0
V_POT = 1
V_STAKE = 2
V_SIZE = 3
#: Entries of the int64 scratch array a kernel call needs: the playout policy's, the
#: determinization's pool, then greedy's work array.
SCRATCH = LEGAL_CAP + 85 + GREEDY_WORK
_GREEDY_AT = LEGAL_CAP + 85
#: The playout policies by name, each with its number in the kernels.
POLICIES = {"playout": 0, "greedy": 1}
_GREEDY = 1


@inline
def _copy(s: Any, d: int, t: Any, e: int) -> None:
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
def _rekey(s: Any, d: int, players: int) -> None:
    """Sort every hand and recompute its rank key and suit bits (the evaluator's encoding)."""
    for seat in range(players):
        rekey_hand(s, d, seat)


@inline
def _determinize(
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
    generator (see the module); the hidden cards of the hands are ``dealt[dealt_at]`` where
    ``dealt`` has that row (:mod:`paiute.compiled.belief` chose them), the stock the rest."""
    _copy(template, 0, s, 0)
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
        _rekey(s, 0, players)
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
    _rekey(s, 0, players)


@inline
def _value(s: Any, d: int, v: Any, dead_value: float) -> float:
    """The chips the seat gains in a finished playout (R8), see the module."""
    status = s.status[d]
    if status != OVER:
        return dead_value  # R8.5: dead (R4.7) or cut
    seat = v[V_SEAT]
    return float(s.payouts[d, seat] + (v[V_STAKE] if v[V_POT] else 0))


@jit
def estimate_kernel(
    template: Any,
    s: Any,
    tables: Any,
    ptables: Any,
    gtables: Any,
    policy: int,
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
    """Determinizations ``first..stop-1`` (see the module): ``values[a, k]`` is action
    ``actions[a]``'s value on determinization ``k``, the playouts played by ``policy``
    (:data:`POLICIES`; ``ptables`` are the playout policy's tables, ``gtables`` greedy's).
    Where ``dealt`` has rows, ``dealt[k - first]`` holds determinization ``k``'s hidden cards
    of the hands (:mod:`paiute.compiled.belief`); with none, they are drawn by ``weights``.
    ``s`` is a work batch of two deals and ``scratch`` an int64 array of :data:`SCRATCH`
    entries (no kernel allocates). Returns the number of actions the policy applied in the
    playouts."""
    players = p[0]
    legal = scratch[0:LEGAL_CAP]
    live = scratch[LEGAL_CAP : LEGAL_CAP + 13]
    held = scratch[LEGAL_CAP + 13 : LEGAL_CAP + 21]
    pool = scratch[LEGAL_CAP + 21 : LEGAL_CAP + 85]
    work = scratch[_GREEDY_AT:]
    steps = 0
    for k in range(first, stop):
        seed_deal(s.rng, 0, seed, np.uint64(k))
        _determinize(
            template, s, players, unseen, eligible, hidden_stock, need, weights, pool, dealt, k - first
        )
        for a in range(actions.size):
            _copy(s, 0, s, 1)
            seed_deal(s.rng, 1, seed ^ np.uint64(0x5DEECE66D), np.uint64(k))  # the same for every action
            apply_action(s, tables, p, 1, actions[a])
            while s.status[1] == RUNNING:
                if policy == _GREEDY:
                    action = greedy_action(s, tables, gtables, p, 1, work)
                else:
                    action = policy_action(s, tables, ptables, p, 1, legal, live, held)
                if action < 0:
                    s.status[1] = TRUNCATED
                    break
                apply_action(s, tables, p, 1, action)
                steps += 1
            values[a, k] = _value(s, 1, v, dead_value)
    return steps


@jit
def policy_move(s: Any, tables: Any, ptables: Any, p: Any, d: int, scratch: Any) -> int:
    """The compiled policy's action id in deal ``d`` (``scratch``: :data:`SCRATCH` int64)."""
    legal = scratch[0:LEGAL_CAP]
    live = scratch[LEGAL_CAP : LEGAL_CAP + 13]
    held = scratch[LEGAL_CAP + 13 : LEGAL_CAP + 21]
    return policy_action(s, tables, ptables, p, d, legal, live, held)


# -- the position from an observation (Python, once per decision) --------------------------


def _pile_history(observation: Observation) -> tuple[list[Card], set[Card], list[list[Card]]]:
    """Replay the public pile (R4.5, R4.6): the pile now, the cards that went into the
    current rebuilt stock, and the pile's top at each seat's stock draws (what it passed)."""
    rules = observation.rules
    pile: list[Card] = [] if observation.initial_discard is None else [observation.initial_discard]
    rebuilt: set[Card] = set()
    passed: list[list[Card]] = [[] for _ in range(observation.players)]
    for event in observation.history:
        kind = event.action.kind
        if kind is ActionKind.DRAW_STOCK and pile and not event.ends_deal:
            passed[event.seat].append(pile[-1])
        if event.rebuilt:
            moved = pile[:-1] if rules.reshuffle_keeps_top else pile[:]
            pile = pile[-1:] if rules.reshuffle_keeps_top else []
            rebuilt = set(moved)
        if kind is ActionKind.DRAW_DISCARD:
            pile.pop()
        elif (kind is ActionKind.DISCARD or kind is ActionKind.CALL_FIVE) and event.card is not None:
            pile.append(event.card)
    return pile, rebuilt, passed


def inference_weights(
    observation: Observation, *, threw: float = 0.6, passed: float = 0.8, took: float = 1.6
) -> npt.NDArray[np.float64]:
    """Per seat and card, how much likelier than uniform the seat is to hold it, from its
    public actions (R4.5): each card of a rank it threw multiplies by ``threw``, each pile
    top of that rank it left for a stock draw by ``passed``, each card of that rank it took
    from the pile by ``took``. A rough reading, not a posterior; the seat's own row is 1."""
    players = observation.players
    weights = np.ones((MAX_SEATS, 54), dtype=np.float64)
    _, _, passed_tops = _pile_history(observation)
    factor = np.ones((MAX_SEATS, 13), dtype=np.float64)
    for event in observation.history:
        kind = event.action.kind
        if (
            (kind is ActionKind.DISCARD or kind is ActionKind.CALL_FIVE)
            and event.card is not None
            and event.card < 52
        ):
            factor[event.seat, event.card // 4] *= threw
        elif kind is ActionKind.DRAW_DISCARD and event.card is not None and event.card < 52:
            factor[event.seat, event.card // 4] *= took
    for seat in range(players):
        for card in passed_tops[seat]:
            if card < 52:
                factor[seat, card // 4] *= passed
    wild = set(observation.wild_cards)
    for seat in range(players):
        if seat == observation.seat:
            continue
        for index in range(52):
            if index not in wild:
                weights[seat, index] = factor[seat, index // 4]
    return weights


@dataclass(frozen=True)
class Position:
    """One seat's observation on the compiled core's arrays (see the module)."""

    template: Batch
    params: npt.NDArray[np.int64]
    tables: tuple[Any, ...]
    ptables: tuple[Any, ...]
    unseen: npt.NDArray[np.int64]
    eligible: npt.NDArray[np.bool_]
    hidden_stock: int
    need: npt.NDArray[np.int64]
    value_params: npt.NDArray[np.int64]
    dead_value: float
    gtables: tuple[Any, ...]
    policy: str = "playout"  # the playout policy (POLICIES)

    @classmethod
    def from_observation(cls, observation: Observation, *, policy: str = "playout") -> Position:
        """The template of ``observation`` (see the module), its playouts to be played by
        ``policy`` (:data:`POLICIES`)."""
        seat = observation.seat
        if seat is None:
            raise ValueError("a spectator's observation has no hand to sample around")
        if policy not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(POLICIES)}, not {policy!r}")
        rules = observation.rules
        players = observation.players
        template = new_batch(1, 0, 0)
        wild = 0
        for card in observation.wild_cards:
            wild |= 1 << int(card)
        template.wild[0] = wild
        template.upcard[0] = -1 if observation.upcard is None else int(observation.upcard)
        template.upcard_in_stock[0] = observation.stock_bottom is not None
        template.dealer[0] = observation.dealer
        template.seat[0] = observation.current_seat
        template.phase[0] = DRAW if observation.phase is Phase.DRAW else DISCARD
        template.taken[0] = -1 if observation.taken_card is None else int(observation.taken_card)
        template.rebuilds[0] = observation.rebuilds
        template.status[0] = RUNNING
        turns = 0
        for event in observation.history:
            kind = event.action.kind
            if kind.is_draw and not event.ends_deal:
                template.draws[0, event.seat] += 1
            elif not kind.is_draw:
                turns += 1  # a discard or a call ends a turn
        template.turns[0] = turns
        for i, card in enumerate(observation.discard_pile):
            template.discard[0, i] = int(card)
        template.discard_len[0] = len(observation.discard_pile)
        if observation.stock_bottom is not None:  # R2.6: face up, drawn last
            template.stock[0, 0] = int(observation.stock_bottom)
            template.stock_len[0] = 1
        template.known[0, :] = -1
        for other, known in enumerate(observation.known_cards):  # R4.5, R2.6
            for card in known:
                template.known[0, int(card)] = other
        for i, call in enumerate(observation.calls):
            for j, card in enumerate(sorted(call.shown)):  # R6.5, sorted as the core keeps them
                template.call_shown[0, i, j] = int(card)
                template.known[0, int(card)] = -1
            template.call_seat[0, i] = call.seat
            template.call_code[0, i] = call.value.code
            template.call_first[0, i] = call.first_turn
            template.call_card[0, i] = -1 if call.discard is None else int(call.discard)
        template.n_calls[0] = len(observation.calls)
        template.best[0] = 0 if observation.highest_call is None else observation.highest_call.code
        need = np.zeros(MAX_SEATS, dtype=np.int64)
        for other in range(players):
            cards = sorted(
                observation.hand if other == seat else observation.known_cards[other]
            )  # as the core keeps them
            for j, card in enumerate(cards):
                template.hands[0, other, j] = int(card)
            template.hand_len[0, other] = len(cards)
            for card in cards:  # the evaluator's encoding, as card_key and card_bits
                if (wild >> int(card)) & 1:
                    template.hand_key[0, other] += WILD_UNIT
                else:
                    template.hand_key[0, other] += 1 << (3 * (int(card) >> 2))
                    template.hand_bits[0, other] |= 1 << ((int(card) >> 2) + LANE * (int(card) & 3))
            if other != seat:
                need[other] = observation.hand_sizes[other] - len(cards)
        _, rebuilt, _ = _pile_history(observation)
        seen = seen_cards(observation)  # R9: every card whose place the seat knows
        unseen = [card for card in pack(rules.jokers) if card not in seen]
        hidden_stock = observation.stock_size - (1 if observation.stock_bottom is not None else 0)
        eligible = [not observation.rebuilds or card in rebuilt for card in unseen]
        if len(unseen) != hidden_stock + int(need.sum()) or sum(eligible) < hidden_stock:
            raise ValueError("the observation does not add up to one pack (R9 view inconsistent)")
        params = rule_params(rules, players, max_turns=turns + TURN_CAP)
        pot_paid = rules.payout == "pot"
        params[P_CARRY] = observation.pot - rules.stake * players if pot_paid else 0  # R8.2, R8.5
        values = np.zeros(V_SIZE, dtype=np.int64)
        values[V_SEAT] = seat
        values[V_POT] = pot_paid
        values[V_STAKE] = rules.stake
        return cls(
            template,
            params,
            tables(rules.royal_high),
            policy_tables(rules.payout == "scale"),
            np.array(unseen, dtype=np.int64),
            np.array(eligible, dtype=np.bool_),
            hidden_stock,
            need,
            values,
            observation.pot / players if pot_paid else 0.0,  # R8.5: an even share of the pot kept
            greedy_tables(rules),
            policy,
        )


def run_estimates(
    position: Position,
    actions: Sequence[int],
    seed: int,
    first: int,
    stop: int,
    values: npt.NDArray[np.float64],
    weights: npt.NDArray[np.float64] | None = None,
    policy: str | None = None,
    belief: Belief | None = None,
) -> int:
    """Fill ``values[:, first:stop]`` (one row per action id of ``actions``) with paired
    playouts played by ``policy`` (:data:`POLICIES`; None: the position's); returns the
    actions the playouts applied. The hidden cards are drawn in proportion to ``weights``
    and, with ``belief``, accepted as :mod:`paiute.compiled.belief` says (consistent with
    the opponents' recent moves). Releases the GIL while it runs."""
    chosen = position.policy if policy is None else policy
    if chosen not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)}, not {chosen!r}")
    work = new_batch(2, 0, 0)
    if weights is None:
        weights = np.ones((MAX_SEATS, 54), dtype=np.float64)
    dealt = np.zeros((0, MAX_SEATS, HAND_CAP), dtype=np.int64)
    if belief is not None and not belief.empty and stop > first:
        dealt = np.zeros((stop - first, MAX_SEATS, HAND_CAP), dtype=np.int64)
        belief.deal(first, stop, dealt)
    return int(
        estimate_kernel(
            position.template,
            work,
            position.tables,
            position.ptables,
            position.gtables,
            POLICIES[chosen],
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


def warm_up() -> None:
    """Run every search kernel once on a small deal: compiles them, or loads them from Numba's
    on-disk cache."""
    from paiute.chance import SeededChance
    from paiute.deal import Deal
    from paiute.rules import RuleSet

    deal = Deal.new(RuleSet(), 3, 0, SeededChance(1))
    for _ in range(3):  # a turn of the first seat: something for the belief to read
        deal.apply(deal.legal_actions()[0])
    observation = deal.observation(deal.current_seat)
    position = Position.from_observation(observation)
    actions = [action.id for action in observation.legal_actions]
    values = np.zeros((len(actions), 1), dtype=np.float64)
    belief = Belief.read(observation, position, np.ones((MAX_SEATS, 54)), 0, particles=4)
    for policy in POLICIES:
        run_estimates(position, actions, 0, 0, 1, values, inference_weights(observation), policy, belief)
    scratch = np.zeros(SCRATCH, dtype=np.int64)
    template = position.template
    template.rng[0, :] = 1  # any state but xoshiro's forbidden all-zero one
    greedy_move(template, position.tables, position.gtables, position.params, 0, scratch[_GREEDY_AT:])
    # the `playout` player's kernel
    policy_move(template, position.tables, position.ptables, position.params, 0, scratch)
