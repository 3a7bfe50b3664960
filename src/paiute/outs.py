"""Outs: the cards a seat has not seen, and which of them complete a combination (R5).

One implementation, shared by the ``greedy`` bot (which scores hands by their outs) and the
hints (which show them to a person). Everything comes from a seat's
:class:`~paiute.observation.Observation` (R9): the *unseen* cards are the pack less the seat's
hand, the whole discard pile (R4.5), every call's shown cards (R6.5), the cards seen going into
other hands (R4.5), the upcard where it lies face up (under the stock, R2.6, or out of play with
``upcard_under_stock`` off). From the seat's point of view each unseen card is equally likely
to be the next card of the stock.

>>> from paiute import Deal, RuleSet, SeededChance
>>> from paiute.cards import format_cards
>>> from paiute.evaluator import Evaluator
>>> deal = Deal.new(RuleSet(), players=3, dealer=0, chance=SeededChance(9))
>>> observation = deal.observation(1)
>>> format_cards(observation.hand), format_cards(observation.wild_cards)
('Kc Jd Qc Qd Qh', 'Jc Jd Jh Js')
>>> unseen = Unseen.of(observation)
>>> len(unseen.cards)  # 52 less the five in hand and the upcard under the stock
46
>>> [(" ".join(map(str, out.cards)), hex(out.code)) for out in completing(observation.hand, unseen, Evaluator(deal.wild_cards))]
[('Qs', '0x6c00'), ('Kd Kh Ks', '0x3cd0'), ('Jh Js', '0x6c00')]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paiute.cards import Card, pack
from paiute.evaluator import Evaluator
from paiute.observation import Observation, seen_cards

__all__ = ["Out", "Unseen", "completing", "draw_groups", "seen_cards"]


@dataclass(frozen=True, slots=True)
class Unseen:
    """The cards a seat has not seen, sorted into what outs counting needs."""

    cards: tuple[Card, ...]  # in pack order
    wilds: tuple[Card, ...]  # the unseen wild cards (R3)
    by_rank: tuple[tuple[Card, ...], ...]  # the unseen natural cards of each rank (0 = twos)
    wild: frozenset[Card]  # every wild card of the deal, seen or not

    @classmethod
    def of(cls, observation: Observation) -> Unseen:
        seen = seen_cards(observation)
        wild = frozenset(observation.wild_cards)
        cards = tuple(card for card in pack(observation.rules.jokers) if card not in seen)
        by_rank: list[list[Card]] = [[] for _ in range(13)]
        for card in cards:
            if card not in wild and card < 52:
                by_rank[card // 4].append(card)
        return cls(
            cards,
            tuple(card for card in cards if card in wild),
            tuple(tuple(group) for group in by_rank),
            wild,
        )


def draw_groups(hand: Sequence[Card], unseen: Unseen) -> list[tuple[Card, Sequence[Card]]]:
    """The unseen cards in groups that draw the same to ``hand`` (five cards): each group is
    a representative card and every unseen card it stands for.

    Suit only matters to a straight flush (R5.2, R5.3), which needs five cards of one suit
    (wild cards included) among the six: elsewhere one natural card of a rank stands for all
    of that rank, and every wild card draws the same (R3.4).
    """
    wild = unseen.wild
    suited = [0, 0, 0, 0]
    w = 0
    for card in hand:
        if card in wild or card >= 52:
            w += 1
        else:
            suited[card % 4] += 1
    flush_suits = [suit for suit in range(4) if suited[suit] + w >= 4]
    groups: list[tuple[Card, Sequence[Card]]] = []
    for cards in unseen.by_rank:
        if not flush_suits:
            if cards:
                groups.append((cards[0], cards))
            continue
        plain = [card for card in cards if card % 4 not in flush_suits]
        if plain:
            groups.append((plain[0], plain))
        groups.extend((card, (card,)) for card in cards if card % 4 in flush_suits)
    if unseen.wilds:
        groups.append((unseen.wilds[0], unseen.wilds))
    return groups


@dataclass(frozen=True, slots=True)
class Out:
    """Unseen cards that, drawn to the hand, make a call of the same best ``code``
    (:mod:`paiute.evaluator`'s codes: category order << CATEGORY_SHIFT | tie-break ranks)."""

    cards: Sequence[Card]
    code: int


def completing(hand: Sequence[Card], unseen: Unseen, evaluator: Evaluator) -> list[Out]:
    """The exact outs of ``hand`` (five cards): every unseen card that, drawn next, lets the
    six cards make a winning combination (R5), grouped by the card's group
    (:func:`draw_groups`), each with the best combination's code.

    Whether a Paiute may be called (R5.7) or a call is high enough (R6.4) is for the caller
    to judge from the code.
    """
    best = evaluator.best_code
    a, b, c, d, e = hand
    outs = []
    for card, cards in draw_groups(hand, unseen):
        code = best((a, b, c, d, e, card))
        if code:
            outs.append(Out(cards, code))
    return outs
