"""Settlement of a finished deal (R8): who pays whom.

Pure functions of the rules, the outcome and the chips before settlement; chips are whole
numbers and are never created or lost (R8.6).
"""

from __future__ import annotations

from collections.abc import Sequence

from paiute.deal import Outcome
from paiute.rules import RuleSet

__all__ = ["collect_stakes", "settle"]


def collect_stakes(rules: RuleSet, balances: Sequence[int], pot: int) -> tuple[list[int], int]:
    """R8.2: before a deal with ``payout = pot`` every player pays the stake into the pot.

    >>> collect_stakes(RuleSet(stake=2), [10, 10, 10], 1)
    ([8, 8, 8], 7)
    """
    if rules.payout != "pot":
        return list(balances), pot  # R8.4: no pot
    return [balance - rules.stake for balance in balances], pot + rules.stake * len(balances)


def settle(
    rules: RuleSet, outcome: Outcome, balances: Sequence[int], pot: int, dealer: int
) -> tuple[list[int], int]:
    """The balances and pot after ``outcome`` (R8.1-R8.6).

    >>> from paiute.deal import Outcome
    >>> settle(RuleSet(), Outcome(False, (), (0, 2)), [0, 0, 0], 5, dealer=0)
    ([2, 0, 3], 0)
    """
    balances = list(balances)
    if outcome.dead:  # R8.5: the pot stays for the next deal; with scale nobody pays
        return balances, pot
    winners = outcome.winners
    players = len(balances)
    if rules.payout == "pot":
        # R8.3: equal shares; odd chips one at a time in turn order from the dealer's left.
        share, odd = divmod(pot, len(winners))
        in_turn_order = sorted(winners, key=lambda seat: (seat - dealer - 1) % players)
        for index, seat in enumerate(in_turn_order):
            balances[seat] += share + (1 if index < odd else 0)
        return balances, 0
    # R8.4: every player who did not win pays each winner that winner's amount / k, rounded up.
    first_turn = {call.seat: call.first_turn for call in outcome.calls}
    best = {call.seat: call.value for call in outcome.calls}
    tied = len(winners)
    for winner in winners:
        amount = best[winner].category.units * rules.unit
        if first_turn[winner]:
            amount *= 2
        due = -(-amount // tied)
        for seat in range(players):
            if seat not in winners:
                balances[seat] -= due
                balances[winner] += due
    return balances, pot
