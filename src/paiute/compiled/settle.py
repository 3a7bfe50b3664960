"""The end of a deal and its settlement in the compiled core (R8), from zero balances and a
pot of the stakes plus ``P_CARRY`` chips carried in (R8.5)."""

from __future__ import annotations

from typing import Any

from paiute.combos import CATEGORY_SHIFT
from paiute.compiled.compilation import jit
from paiute.compiled.state import (
    DEAD,
    FINISHED,
    OVER,
    P_CARRY,
    P_FIRST_CALL,
    P_PLAYERS,
    P_SCALE,
    P_STAKE,
    P_UNIT,
    UNITS,
)

__all__ = ["finish_deal"]


@jit
def _settle(s: Any, p: Any, d: int) -> None:
    """R8: payouts of a finished deal, from zero balances and an empty pot."""
    players = p[P_PLAYERS]
    dealer = s.dealer[d]
    pot = 0
    if not p[P_SCALE]:  # R8.2: the stakes go into the pot
        for seat in range(players):
            s.payouts[d, seat] = -p[P_STAKE]
        pot = p[P_STAKE] * players + p[P_CARRY]
    if s.status[d] == DEAD:  # R8.5
        s.pot[d] = pot
        return
    winners = s.winners[d]
    tied = 0
    for seat in range(players):
        tied += (winners >> seat) & 1
    if not p[P_SCALE]:  # R8.3: equal shares, odd chips in turn order from the dealer's left
        share = pot // tied
        odd = pot % tied
        index = 0
        for step in range(1, players + 1):
            seat = (dealer + step) % players
            if (winners >> seat) & 1:
                s.payouts[d, seat] += share + (1 if index < odd else 0)
                index += 1
        s.pot[d] = 0
        return
    # R8.4: each loser pays each winner its amount / tied, rounded up.
    for i in range(s.n_calls[d]):
        winner = s.call_seat[d, i]
        if not (winners >> winner) & 1:
            continue
        amount = UNITS[s.call_code[d, i] >> CATEGORY_SHIFT] * p[P_UNIT]
        if s.call_first[d, i]:
            amount *= 2
        due = -(-amount // tied)
        for seat in range(players):
            if not (winners >> seat) & 1:
                s.payouts[d, seat] -= due
                s.payouts[d, winner] += due
    s.pot[d] = 0


@jit
def finish_deal(s: Any, p: Any, d: int, dead: bool) -> None:
    """End deal ``d``: dead (R4.7) or won by the best calls (R8.1, R8.3); then settle (R8)."""
    s.phase[d] = FINISHED
    s.taken[d] = -1
    if dead:
        s.status[d] = DEAD
    else:  # R8.1, R8.3
        s.status[d] = OVER
        best = 0
        for i in range(s.n_calls[d]):
            if s.call_code[d, i] > best:
                best = s.call_code[d, i]
        winners = 0
        for i in range(s.n_calls[d]):
            if s.call_code[d, i] == best:
                winners |= 1 << s.call_seat[d, i]
                if p[P_FIRST_CALL]:
                    break
        s.winners[d] = winners
    _settle(s, p, d)
