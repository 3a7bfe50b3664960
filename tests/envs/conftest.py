"""Shared by the environment tests: which cards a seat has never been shown (R9)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from paiute.deal import Deal


def cards_never_shown(deal: Deal, seat: int) -> set[str]:
    """The cards in the other hands that ``seat`` has never seen (R9.2, R9.3): in no event of
    its history (a discard, a take, a call, its own draws), not in the discard pile, not the
    upcard and not wild (every view lists the wild cards, R3.1, which says nothing of where
    they are). A text for ``seat`` that names one of these breaks R9."""
    seen = deal.observation(seat)
    shown = set(seen.discard_pile) | set(deal.wild_cards) | set(seen.hand)
    if seen.upcard is not None:
        shown.add(seen.upcard)
    for event in seen.history:
        if event.card is not None:
            shown.add(event.card)
        if event.call is not None:
            shown |= set(event.call.shown)
    return {str(card) for other in range(deal.players) if other != seat for card in deal.hand(other)} - {
        str(card) for card in shown
    }


@pytest.fixture
def never_shown() -> Callable[[Deal, int], set[str]]:
    return cards_never_shown
