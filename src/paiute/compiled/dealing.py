"""Dealing (R2, R3) and the hands of the compiled core: cards in and out of a sorted hand
with its rank key and suit bits kept current; the shuffle (R10.2) and the deal
(``Deal.__init__``)."""

from __future__ import annotations

from typing import Any

from paiute.compiled.compilation import inline, jit
from paiute.compiled.rng import below
from paiute.compiled.state import (
    DRAW,
    MAX_SEATS,
    P_DEALER,
    P_JOKERS,
    P_OPEN,
    P_OPPOSITE,
    P_PACK,
    P_PLAYERS,
    P_UNDER,
    PACK_CAP,
    RUNNING,
)
from paiute.compiled.tables import card_bits, card_key

__all__ = ["add_card", "deal_from_deck", "remove_card", "shuffle_deck"]


@inline
def add_card(s: Any, d: int, seat: int, card: int) -> None:
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


@inline
def remove_card(s: Any, d: int, seat: int, card: int) -> None:
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


@jit
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


@jit
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
        add_card(s, d, (dealer + 1 + index) % players, int(s.deck[d, index]))
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
