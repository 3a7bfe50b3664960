"""``greedy``: a fast rule-based player that counts outs.

Everything it knows comes from the seat's :class:`~paiute.observation.Observation` (R9): its
own hand, the public discard history, the calls shown and the cards seen going into other
hands. From these it works out the *unseen* cards (the pack less everything it has seen) and
scores every five-card hand it could keep by how likely it is to become a winning combination
(R5) within a few draws:

* **outs**, exactly: every unseen card that, drawn next, would make a callable combination,
  weighted by that combination's strength (a Paiute counts only where it may still be called,
  R5.7), spread over the next ``horizon`` draws;
* **potential**: the best combination still two or more cards away (five of a kind, Four/Two,
  Three/Three, a straight flush window, a Paiute where allowed on any turn), as the chance of
  drawing the cards it lacks from the unseen cards that supply them.

Draw (R4.2): it takes the discard-pile top when that makes a call, or when the best hand it
could then keep (the card taken may not be put back, R4.3) scores better than its hand with a
stock draw still to come. Discard: it keeps the five cards that score best and never discards
a wild card (R3) while a natural card can go. Call (R6): always in the last round (R7.2: the
legal actions already hold only calls that equal or beat the highest, R6.4), always with a
Paiute on the first turn where a Paiute is allowed only then (R5.7), and otherwise when the
estimated chance that no player still to have a turn (R7.2) beats the call is high against the
value of keeping the hand; the best legal call is made.

>>> from paiute import Deal, RuleSet, SeededChance
>>> from paiute.players import make_player
>>> deal = Deal.new(RuleSet(), players=3, dealer=0, chance=SeededChance(1))
>>> player = make_player("greedy:aggression=0.7,seed=1")
>>> player.name, player.aggression
('greedy', 0.7)
>>> while not deal.is_over:
...     _ = deal.apply(player.act(deal.observation(deal.current_seat)))
>>> deal.outcome.winners
(1,)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from paiute.actions import CALL_SIX, DRAW_DISCARD, DRAW_STOCK, Action, ActionKind
from paiute.cards import Card
from paiute.combos import CATEGORY_SHIFT, may_call
from paiute.evaluator import STRAIGHT_FLUSH_WINDOWS, Evaluator
from paiute.events import Phase
from paiute.greedy_weights import (
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
from paiute.observation import Observation
from paiute.outs import Unseen, completing
from paiute.players.base import PlayerError, register

__all__ = ["GreedyPlayer", "GreedyPosition", "ranks_next_seat_collects"]

_CAP4 = (0, 1, 2, 3, 4, 4, 4)  # min(count, 4) for a count of natural cards of one rank
_CAP3 = (0, 1, 2, 3, 3, 3, 3)
_CAP2 = (0, 1, 2, 2, 2, 2, 2)

_EVALUATORS: dict[tuple[frozenset[Card], bool], Evaluator] = {}
_BIG = 1000.0  # the score of a hand that makes a call now


def _evaluator(wild_cards: Sequence[Card], royal_high: bool) -> Evaluator:
    """One evaluator per wild set and ``royal_high``, shared by every greedy player."""
    key = (frozenset(wild_cards), royal_high)
    evaluator = _EVALUATORS.get(key)
    if evaluator is None:
        evaluator = _EVALUATORS[key] = Evaluator(key[0], royal_high=royal_high)
    return evaluator


class GreedyPosition:
    """What greedy reads from one observation, worked out once per decision: the unseen cards
    (R9), the score of any five-card hand kept (outs and potential), the best call six cards
    may make now (R6) and the chance that no later player beats a call (R7.2)."""

    __slots__ = (
        "evaluator",
        "first_turn",
        "flush_cache",
        "hand",
        "nat_by_rank",
        "observation",
        "paiute_any",
        "unseen",
        "unseen_cards",
        "unseen_masks",
        "unseen_wild",
        "unseen_wilds",
        "weights",
        "wild",
    )

    def __init__(self, observation: Observation) -> None:
        rules = observation.rules
        self.observation = observation
        self.wild = frozenset(observation.wild_cards)
        self.evaluator = _evaluator(observation.wild_cards, rules.royal_high)
        self.paiute_any = rules.paiute_allowed_any_turn(observation.players)  # R5.7, R2.1
        self.first_turn = observation.first_turn
        self.hand = observation.hand
        self.weights = category_weights(rules)
        unseen = Unseen.of(observation)  # the pack less every card the seat has seen (R9)
        self.unseen_cards = unseen
        self.unseen = len(unseen.cards)
        self.unseen_wilds = unseen.wilds
        self.unseen_wild = len(unseen.wilds)
        nat_by_rank = [len(cards) for cards in unseen.by_rank]
        masks = [0, 0, 0, 0]
        for cards in unseen.by_rank:
            for card in cards:
                masks[card % 4] |= 1 << (card // 4)
        self.nat_by_rank = nat_by_rank
        self.unseen_masks = masks
        self.flush_cache: dict[tuple[int, int, int, int], float] = {}

    # -- scoring a five-card hand -----------------------------------------------------------

    def outs(self, hand: Sequence[Card], horizon: int, paiute_now: bool) -> float:
        """The exact outs of ``hand``: the unseen cards that, drawn next, make a call,
        weighted by strength, spread over ``horizon`` draws (the first with ``paiute_now``)."""
        unseen = self.unseen
        if unseen == 0 or horizon <= 0:
            return 0.0
        weights = self.weights
        paiute_later = self.paiute_any
        now_sum = later_sum = 0.0
        now_hits = later_hits = 0
        for out in completing(hand, self.unseen_cards, self.evaluator):  # exact (paiute.outs)
            code = out.code
            count = len(out.cards)
            value = (weights[code >> CATEGORY_SHIFT] + 0.002 * ((code >> 8) & 0xF)) * count
            if may_call(code, 0, paiute_now=paiute_now):  # R5.7 (outs count whatever was called)
                now_sum += value
                now_hits += count
            if may_call(code, 0, paiute_now=paiute_later):
                later_sum += value
                later_hits += count
        score = now_sum / unseen
        if horizon > 1 and later_hits:
            p_now = now_hits / unseen
            p_later = later_hits / unseen
            score += (1.0 - p_now) * (1.0 - (1.0 - p_later) ** (horizon - 1)) * later_sum / later_hits
        return score

    def potential(self, hand: Sequence[Card], horizon: int) -> float:
        """The best combination two or more cards away: its strength times the chance of
        drawing what it lacks within ``horizon`` draws."""
        unseen = self.unseen
        if unseen == 0:
            return 0.0
        wild = self.wild
        counts = [0] * 13
        masks = [0, 0, 0, 0]
        w = 0
        for card in hand:
            if card in wild or card >= 52:
                w += 1
            else:
                rank = card // 4
                counts[rank] += 1
                masks[card % 4] |= 1 << rank
        nat = self.nat_by_rank
        nw = self.unseen_wild
        weights = self.weights
        low = 2  # a combination one card away is counted exactly by outs()
        best = 0.0
        # Per present rank: (rank, count, supply while the count is under 4, 3, 2).
        present = [
            (
                rank,
                count,
                nat[rank] if count < 4 else 0,
                nat[rank] if count < 3 else 0,
                nat[rank] if count < 2 else 0,
            )
            for rank, count in ((rank, counts[rank]) for rank in range(12, -1, -1))
            if count
        ]
        for a, ca, _, _, _ in present:  # R5.1 Five of a Kind
            needed = 5 - ca - w
            if low <= needed <= horizon:
                value = (weights[FIVE_KIND] + 0.002 * a) * tail(needed, horizon, nat[a] + nw, unseen)
                best = max(best, value)
        paiute_any = self.paiute_any
        for i, (a, ca, a4, a3, a2) in enumerate(present):
            ca4, ca3, ca2 = _CAP4[ca], _CAP3[ca], _CAP2[ca]
            for j, (_, cb, _, b3, b2) in enumerate(present):
                if j == i:
                    continue
                # R5.4 Four/Two, a the four and b the pair
                needed = 6 - ca4 - _CAP2[cb] - w
                if low <= needed <= horizon:
                    value = weights[FOUR_TWO] + 0.002 * a
                    if value > best:
                        value *= tail(needed, horizon, a4 + b2 + nw, unseen)
                        best = max(best, value)
                if j < i:
                    continue
                needed = 6 - ca3 - _CAP3[cb] - w  # R5.5 Three/Three
                if low <= needed <= horizon:
                    value = weights[THREE_THREE] + 0.002 * a
                    if value > best:
                        value *= tail(needed, horizon, a3 + b3 + nw, unseen)
                        best = max(best, value)
                if paiute_any:  # R5.6 Paiute, where any turn allows it (R5.7)
                    for _, cc, _, _, c2 in present[j + 1 :]:
                        needed = 6 - ca2 - _CAP2[cb] - _CAP2[cc] - w
                        if low <= needed <= horizon:
                            value = weights[PAIUTE] + 0.002 * a
                            if value > best:
                                value *= tail(needed, horizon, a2 + b2 + c2 + nw, unseen)
                                best = max(best, value)
        flushes = self.flush_cache
        for suit in range(4):  # R5.2, R5.3 straight flushes
            mask = masks[suit]
            if mask:
                key = (suit, mask, w, horizon)
                cached = flushes.get(key)
                if cached is None:
                    cached = flushes[key] = self._flush_potential(suit, mask, w, horizon)
                best = max(best, cached)
        return best

    def _flush_potential(self, suit: int, mask: int, w: int, horizon: int) -> float:
        """The best straight-flush window of one suit two or more cards away (R5.2, R5.3)."""
        royal = ROYAL_HIGH if self.observation.rules.royal_high else ROYAL
        free = self.unseen_masks[suit]
        nw = self.unseen_wild
        unseen = self.unseen
        weights = self.weights
        fewest, most = 5 - horizon - w, 3 - w  # natural cards a window must hold
        best = 0.0
        for top, window in STRAIGHT_FLUSH_WINDOWS:
            hits = (mask & window).bit_count()
            if fewest <= hits <= most:
                order = royal if top == 14 else STRAIGHT_FLUSH
                needed = 5 - hits - w
                value = (weights[order] + 0.002 * top) * tail(
                    needed, horizon, (free & window).bit_count() + nw, unseen
                )
                best = max(best, value)
        return best

    def score(self, hand: Sequence[Card], horizon: int, paiute_now: bool) -> float:
        """How good ``hand`` (five cards) is to hold with ``horizon`` draws to come."""
        return self.outs(hand, horizon, paiute_now) + self.potential(hand, horizon)

    # -- calls ------------------------------------------------------------------------------

    def best_call_code(self, held: Sequence[Card], forbidden: Card | None, paiute_ok: bool) -> int:
        """The code of the best call ``held`` (six cards) may make now, 0 for none (R6)."""
        evaluator = self.evaluator
        if evaluator.best_code(held) == 0:
            return 0
        floor = 0 if self.observation.highest_call is None else self.observation.highest_call.code
        best = 0
        six = evaluator.code(held)
        if may_call(six, floor, paiute_now=paiute_ok):  # R5.7, R6.4
            best = six
        for index, card in enumerate(held):
            if card == forbidden:  # R4.3, R6.2
                continue
            code = evaluator.code([*held[:index], *held[index + 1 :]])
            if code > best and code >= floor:
                best = code
        return best

    def win_chance(self, code: int) -> float:
        """Estimated chance that no player still to have a turn (R7.2) beats ``code``."""
        observation = self.observation
        seat = observation.seat
        assert seat is not None
        players = observation.players
        rules = observation.rules
        wilds = len(self.wild)
        chance = 1.0
        order = code >> CATEGORY_SHIFT
        top = (code >> 8) & 0xF
        royal_high = rules.royal_high
        paiute_first = not self.paiute_any
        draws = [0] * players
        for event in observation.history:
            if event.action.kind.is_draw and not event.ends_deal:
                draws[event.seat] += 1
        other = seat
        while other != observation.dealer:
            other = (other + 1) % players
            if any(call.seat == other for call in observation.calls):
                continue
            developed = min(1.0, draws[other] / 3)
            # Roughly the rate at which greedy opponents call in the last round of self-play.
            made = (0.002 + 0.004 * developed) * wilds + 0.015 * developed
            made *= 1.0 + 0.5 * len(observation.known_cards[other])
            beat = min(0.9, made) * share_at_least(order, top, royal_high)
            if order == PAIUTE and (not paiute_first or draws[other] == 0):
                paiute = 0.01 * wilds + 0.02 if draws[other] == 0 else 0.05 + 0.02 * wilds
                beat += paiute * (15 - top) / 13
            chance *= 1.0 - min(0.95, beat)
        return chance


@register(
    "greedy",
    "rule-based: counts outs, takes useful discards, keeps wild cards, calls when likely to win",
)
class GreedyPlayer:
    """Outs-counting rule-based player; repeatable with ``seed`` (ties are broken at random).

    ``aggression`` (0..1, default 0.5): how readily it calls; it calls when the estimated
    chance of winning is at least ``1 - aggression`` times the value of keeping the hand
    instead. ``horizon`` (at least 2, default 3): how many draws ahead it scores a hand.
    """

    name = "greedy"

    def __init__(self, *, seed: int | None = None, aggression: float = 0.5, horizon: int = 3) -> None:
        if not 0.0 <= aggression <= 1.0:
            raise ValueError(f"aggression must lie in 0..1, not {aggression!r}")
        if horizon < 2:
            raise ValueError(f"horizon must be at least 2, not {horizon!r}")
        self.seed = seed
        self.aggression = aggression
        self.horizon = horizon
        self._random = random.Random(seed)

    def act(self, observation: Observation) -> Action:
        return self._act(observation, None, None)

    def act_on(self, position: GreedyPosition) -> Action:
        """:meth:`act` on a position already worked out (a subclass may remember its scores)."""
        return self._act(position.observation, position, None)

    def choices(self, observation: Observation) -> tuple[Action, ...]:
        """Every action :meth:`act` may return here: one, or the discards that tie for the
        best score (which :meth:`act` breaks at random). Draws from the tie-breaking
        generator as :meth:`act` would."""
        ties: list[Action] = []
        action = self._act(observation, None, ties)
        return tuple(ties) if ties else (action,)

    def _act(
        self, observation: Observation, position: GreedyPosition | None, ties: list[Action] | None
    ) -> Action:
        actions = observation.legal_actions
        if not actions:
            raise PlayerError(f"seat {observation.seat} has no legal action: it is not its turn")
        if len(actions) == 1:
            return actions[0]
        if position is None:
            position = GreedyPosition(observation)
        if observation.phase is Phase.DRAW:
            return self._draw(position, actions)
        return self._discard_or_call(position, actions, ties)

    # -- the draw (R4.2) --------------------------------------------------------------------

    def _draw(self, position: GreedyPosition, actions: Sequence[Action]) -> Action:
        observation = position.observation
        if DRAW_DISCARD not in actions:
            return DRAW_STOCK
        hand = observation.hand
        top = observation.discard_pile[-1]
        taken = (*hand, top)
        paiute_now = position.first_turn or position.paiute_any  # this draw is the seat's first (R5.7)
        if position.best_call_code(taken, top, paiute_now):
            return DRAW_DISCARD  # the discard completes a combination
        if DRAW_STOCK not in actions:
            return DRAW_DISCARD
        if observation.calls:  # R7.2: the last turn; only a call counts
            return DRAW_STOCK
        horizon = self.horizon
        keep = self._best_keep(position, taken, top, horizon - 1)[0]
        if observation.stock_size == 0 and observation.rebuilds >= observation.rules.max_rebuilds:
            stock = 0.0  # R4.7: drawing would end the deal dead
        elif observation.stock_size == 1 and observation.stock_bottom is not None:
            bottom = observation.stock_bottom  # R2.6: the last stock card is face up
            drawn = (*hand, bottom)
            if position.best_call_code(drawn, None, paiute_now):
                stock = _BIG
            else:
                stock = self._best_keep(position, drawn, None, horizon - 1)[0]
        else:
            stock = position.score(hand, horizon, paiute_now)
        return DRAW_DISCARD if keep > stock + 1e-9 else DRAW_STOCK

    def discard_scores(self, observation: Observation) -> dict[Card, float]:
        """The cards this player would consider putting down from the six it holds, each with
        the score of the five it would keep (higher is better; :meth:`act` throws the best):
        never a wild card while a natural one can go (R3), never the card taken (R4.3).

        Empty unless the seat holds six cards and no call has been made yet (in the last
        round, R7.2, greedy throws any natural card: the score does not decide).
        """
        if observation.phase is not Phase.DISCARD or observation.calls or observation.seat is None:
            return {}
        position = GreedyPosition(observation)
        return dict(_keep_scores(position, observation.hand, observation.taken_card, self.horizon))

    def _best_keep(
        self, position: GreedyPosition, held: Sequence[Card], taken: Card | None, horizon: int
    ) -> tuple[float, Card, list[Card]]:
        """The best card to put down from six and the score of the five kept (see
        :func:`_keep_scores`); and every card that ties for best (one of which is chosen at
        random)."""
        best_score = -1.0
        best: list[Card] = []
        for card, score in _keep_scores(position, held, taken, horizon):
            if score > best_score + 1e-12:
                best_score, best = score, [card]
            elif score > best_score - 1e-12:
                best.append(card)
        choice = best[0] if len(best) == 1 else best[self._random.randrange(len(best))]
        return best_score, choice, best

    # -- discard or call (R4.2, R6) -----------------------------------------------------------

    def _discard_or_call(
        self, position: GreedyPosition, actions: Sequence[Action], ties: list[Action] | None
    ) -> Action:
        observation = position.observation
        hand = observation.hand
        evaluator = position.evaluator
        calls: list[tuple[int, Action]] = []
        for action in actions:
            if action.kind is ActionKind.CALL_FIVE:
                calls.append((evaluator.code([card for card in hand if card != action.card]), action))
            elif action is CALL_SIX:
                calls.append((evaluator.code(hand), action))
        call: Action | None = None
        code = 0
        if calls:
            code = max(value for value, _ in calls)
            # The best call (R5); of equals, put down a natural card rather than a wild one.
            call = min(
                (action for value, action in calls if value == code),
                key=lambda a: (
                    a.card is not None and a.card in position.wild,
                    -1 if a.card is None else a.card,
                ),
            )
            if observation.calls:
                return call  # R7.2: the last turn; a call that is legal equals or beats (R6.4)
            if not may_call(code, 0, paiute_now=position.paiute_any):
                return call  # R5.7: a Paiute now or never (no later turn may call it)
        discards = [action for action in actions if action.kind is ActionKind.DISCARD]
        if observation.calls:  # the last turn and no call: any discard will do
            natural = [a for a in discards if a.card not in position.wild]
            return min(natural or discards)
        keep_score, card, tied = self._best_keep(position, hand, observation.taken_card, self.horizon)
        if call is not None and position.win_chance(code) >= (1.0 - self.aggression) * min(1.0, keep_score):
            return call
        if ties is not None:
            ties.extend(Action.discard(other) for other in tied)
        return Action.discard(card)


def _keep_scores(
    position: GreedyPosition, held: Sequence[Card], taken: Card | None, horizon: int
) -> list[tuple[Card, float]]:
    """Each card greedy may put down from the six ``held``, with the score of the five kept:
    never a wild card while a natural one can go (R3), never the card taken (R4.3); a card of
    a rank the next player is known to collect counts a little against it
    (:func:`ranks_next_seat_collects`)."""
    wild = position.wild
    candidates = [card for card in held if card != taken and card not in wild]
    if not candidates:
        candidates = [card for card in held if card != taken]
    danger = ranks_next_seat_collects(position.observation)
    paiute_now = position.paiute_any
    return [
        (
            card,
            position.score([other for other in held if other != card], horizon, paiute_now)
            - 0.01 * danger.get(card // 4, 0),
        )
        for card in candidates
    ]


def ranks_next_seat_collects(observation: Observation) -> dict[int, int]:
    """The ranks the next player to draw is known to collect (cards it took from the pile,
    R4.5), each with how many of its cards have that rank: discarding one would feed it."""
    seat = observation.seat
    assert seat is not None
    players = observation.players
    called = {call.seat for call in observation.calls}
    following = (seat + 1) % players
    while following in called and following != seat:
        following = (following + 1) % players
    danger: dict[int, int] = {}
    for card in observation.known_cards[following]:
        if card < 52:
            danger[card // 4] = danger.get(card // 4, 0) + 1
    return danger
