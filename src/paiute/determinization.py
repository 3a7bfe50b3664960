"""Dealing the cards a seat cannot see, consistently with what it has seen (R4.6, R9).

A *determinization* is a full state a seat's :class:`~paiute.observation.Observation` could
have come from. :func:`deal_unseen` places the seat's unseen cards at random: into the stock
and the unknown places of the other hands. It reads only the observation, so a search player
that holds nothing else cannot learn a hidden card from it;
:meth:`Deal.from_observation <paiute.deal.Deal.from_observation>` builds the state around it.

>>> from paiute import Deal, RuleSet, SeededChance
>>> deal = Deal.new(RuleSet(), players=3, dealer=0, chance=SeededChance(1))
>>> view = deal.observation(1)
>>> hands, stock = deal_unseen(view, SeededChance(2))
>>> hands[1] == list(view.hand), [len(hand) for hand in hands], len(stock) == view.stock_size
(True, [5, 5, 5], True)
"""

from __future__ import annotations

from paiute.actions import ActionKind
from paiute.cards import Card, pack
from paiute.chance import Chance
from paiute.errors import PaiuteError
from paiute.observation import Observation, seen_cards

__all__ = ["deal_unseen", "rebuilt_stock_cards"]


def rebuilt_stock_cards(observation: Observation) -> frozenset[Card]:
    """The cards that went into the current rebuilt stock (R4.6), from the public history.

    Every one of them lay face up on the discard pile before the rebuild (R4.5), so any
    card of the rebuilt stock the seat has not seen since is one of these. Empty before the
    first rebuild.
    """
    keeps_top = observation.rules.reshuffle_keeps_top
    pile = [] if observation.initial_discard is None else [observation.initial_discard]
    rebuilt: list[Card] = []
    for event in observation.history:
        if event.rebuilt:
            rebuilt = pile[:-1] if keeps_top else pile[:]
            pile = pile[-1:] if keeps_top else []
        kind = event.action.kind
        if kind is ActionKind.DRAW_DISCARD:
            pile.pop()
        elif (kind is ActionKind.DISCARD or kind is ActionKind.CALL_FIVE) and event.card is not None:
            pile.append(event.card)
    return frozenset(rebuilt)


def deal_unseen(observation: Observation, chance: Chance) -> tuple[list[list[Card]], list[Card]]:
    """Every seat's hand and the stock (bottom card first), the unseen cards dealt by ``chance``.

    The seat's own hand and the cards it saw go into other hands (R4.5) stay where they are;
    a face-up upcard under the stock (R2.6) stays at its bottom. After a rebuild (R4.6) the
    hidden part of the stock is drawn only from :func:`rebuilt_stock_cards` still unseen;
    otherwise every unseen card is equally likely anywhere (finer constraints, such as which
    stock an opponent's unknown card came from, are not modelled).
    """
    seat = observation.seat
    if seat is None:
        raise PaiuteError("a spectator's observation has no hand to sample around")
    seen = seen_cards(observation)  # R9: every card whose place the seat knows
    unseen = [card for card in pack(observation.rules.jokers) if card not in seen]
    hidden_stock = observation.stock_size - (1 if observation.stock_bottom is not None else 0)
    if observation.rebuilds:
        rebuilt = rebuilt_stock_cards(observation)
        candidates = [card for card in unseen if card in rebuilt]
        chance.shuffle(candidates)
        stock = candidates[:hidden_stock]
        chosen = set(stock)
        rest = [card for card in unseen if card not in chosen]
    else:
        chance.shuffle(unseen)
        stock, rest = unseen[:hidden_stock], unseen[hidden_stock:]
    chance.shuffle(rest)
    refill = iter(rest)
    hands: list[list[Card]] = []
    for player in range(observation.players):
        if player == seat:
            hands.append(list(observation.hand))
            continue
        hand = list(observation.known_cards[player])
        hand.extend(next(refill) for _ in range(observation.hand_sizes[player] - len(hand)))
        hands.append(hand)
    if next(refill, None) is not None or len(stock) != hidden_stock:
        raise PaiuteError("the observation does not add up to one pack (R9 view inconsistent)")
    if observation.stock_bottom is not None:
        stock.insert(0, observation.stock_bottom)
    return hands, stock
