"""Hand-made records for the review tests: deal chosen hands, play given actions, finish."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from paiute import Match, RuleSet
from paiute.actions import Action
from paiute.cards import Card, pack
from paiute.chance import RecordedChance
from paiute.players import make_player
from paiute.record import DealRecord, Record


def deck_for(players: int, dealer: int, hands: Mapping[int, str], upcard: str, stock: str) -> list[Card]:
    """A deck (top first) that deals ``hands`` (seat -> five cards; other seats get what is
    left), turns ``upcard`` and puts ``stock`` (top first) on top of the stock (R2.5-R2.7)."""
    chosen = {seat: [Card.parse(text) for text in cards.split()] for seat, cards in hands.items()}
    named = [card for cards in chosen.values() for card in cards]
    named += [Card.parse(upcard)] + [Card.parse(text) for text in stock.split()]
    rest = iter(card for card in pack(False) if card not in named)
    own = {seat: iter(chosen.get(seat, [])) for seat in range(players)}
    dealt = [next(own[(dealer + 1 + i) % players], None) for i in range(5 * players)]
    deck = [card if card is not None else next(rest) for card in dealt]
    return deck + [Card.parse(upcard)] + [Card.parse(text) for text in stock.split()] + list(rest)


def played_record(
    players: int,
    dealer: int,
    hands: Mapping[int, str],
    upcard: str,
    stock: str,
    actions: Sequence[str],
    *,
    seed: int = 1,
) -> Record:
    """A one-deal record: the given first actions, then greedy play to the deal's end."""
    match = Match(RuleSet(), [f"p{i}" for i in range(players)], chance=RecordedChance(()), dealer=dealer)
    deal = match.start_deal(deck_for(players, dealer, hands, upcard, stock))
    for text in actions:
        match.apply(Action.parse(text))
    bot = make_player(f"greedy:seed={seed}")
    while not deal.is_over:
        match.apply(bot.act(deal.observation(deal.current_seat)))
    return Record.from_match(match)


def bot_record(players: int, spec: str, seed: int, deals: int = 1) -> Record:
    """A record of ``deals`` deals played by ``spec`` in every seat."""
    from paiute import SeededChance

    match = Match(RuleSet(), [f"p{i}" for i in range(players)], chance=SeededChance(seed))
    bots = [make_player(spec) for _ in range(players)]
    for _ in range(deals):
        deal = match.start_deal()
        while not deal.is_over:
            match.apply(bots[deal.current_seat].act(deal.observation(deal.current_seat)))
    return Record.from_match(match)


def cards_seen(record: Record, seat: int, deal_index: int = 0) -> set[Card]:
    """Every card ``seat`` saw at any moment of the deal (its hands, everything public)."""
    seen: set[Card] = set()
    match = Match(
        record.rules,
        record.players,
        balances=record.balances,
        pot=record.pot,
        chance=RecordedChance(()),
        dealer=record.deals[0].dealer,
    )
    for index, deal_record in enumerate(record.deals[: deal_index + 1]):
        deal = match.start_deal(deal_record.deck, chance=RecordedChance(deal_record.rebuilds, deal=index))
        for action in [*deal_record.actions, None]:
            if index == deal_index:
                view = deal.observation(seat)
                seen.update(view.hand, view.discard_pile, view.wild_cards)
                seen.update(card for known in view.known_cards for card in known)
                seen.update(card for call in view.calls for card in call.shown)
                seen.update(event.card for event in view.history if event.card is not None)
                seen.update(card for card in (view.upcard, view.stock_bottom, view.initial_discard) if card)
            if action is not None:
                match.apply(action)
    return seen


def redealt(record: Record, seat: int, seed: int, deal_index: int = 0) -> Record:
    """The same record with the cards ``seat`` never saw in the deal shuffled among their places."""
    seen = cards_seen(record, seat, deal_index)
    deal = record.deals[deal_index]
    places = [i for i, card in enumerate(deal.deck) if card not in seen]
    cards = [deal.deck[i] for i in places]
    random.Random(seed).shuffle(cards)
    deck = list(deal.deck)
    for place, card in zip(places, cards, strict=True):
        deck[place] = card
    new_deal = DealRecord(deal.dealer, tuple(deck), deal.rebuilds, deal.actions, None)
    deals = list(record.deals)
    deals[deal_index] = new_deal
    return Record(record.rules, record.players, record.balances, record.pot, tuple(deals))
