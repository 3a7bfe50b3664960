"""The numbers ``greedy`` scores hands and calls with, shared by the Python player
(:mod:`paiute.players.greedy`) and its compiled twin (:mod:`paiute.compiled.greedy`), which
reads them as tables built from these very functions (so both do the same arithmetic).

Evaluator codes are ``category order << CATEGORY_SHIFT | tie-break ranks`` (:mod:`paiute.combos`);
the order runs from 1 (Paiute) to 6 (Five of a Kind), 7 for a ``royal_high`` Royal Flush (R5.8).
:data:`PAIUTE` to :data:`ROYAL_HIGH` are those orders, :mod:`paiute.combos`' own, under short names.

>>> round(tail(2, 3, 8, 40), 4)  # two hits in three draws, 8 cards in 40 that hit
0.104
>>> share_at_least(PAIUTE, 14, False)
1.0
"""

from __future__ import annotations

from paiute.combos import FIVE_OF_A_KIND_ORDER as FIVE_KIND
from paiute.combos import FOUR_TWO_ORDER as FOUR_TWO
from paiute.combos import PAIUTE_ORDER as PAIUTE
from paiute.combos import ROYAL_FLUSH_ORDER as ROYAL
from paiute.combos import ROYAL_HIGH_ORDER as ROYAL_HIGH
from paiute.combos import STRAIGHT_FLUSH_ORDER as STRAIGHT_FLUSH
from paiute.combos import THREE_THREE_ORDER as THREE_THREE
from paiute.rules import RuleSet

__all__ = [
    "FIVE_KIND",
    "FOUR_TWO",
    "PAIUTE",
    "ROYAL",
    "ROYAL_HIGH",
    "SHARES",
    "STRAIGHT_FLUSH",
    "THREE_THREE",
    "category_weights",
    "share_at_least",
    "tail",
]

# Share of each category among the non-Paiute combinations called in greedy self-play
# (4 seats, default rules); Three/Three is rare because a wild turns it into Four/Two.
SHARES = {THREE_THREE: 0.08, FOUR_TWO: 0.46, STRAIGHT_FLUSH: 0.32, ROYAL: 0.06, FIVE_KIND: 0.08}

_TAILS: dict[tuple[int, int, int, int], float] = {}


def tail(needed: int, draws: int, supply: int, unseen: int) -> float:
    """Chance of at least ``needed`` hits in ``draws`` draws, each hitting with probability
    ``supply / unseen`` (a binomial tail; good enough for ranking hands)."""
    key = (needed, draws, supply, unseen)
    cached = _TAILS.get(key)
    if cached is not None:
        return cached
    if supply < needed or draws < needed or unseen <= 0:
        result = 0.0
    else:
        p = min(1.0, supply / unseen)
        q = 1.0 - p
        below = 0.0
        term = q**draws  # P(0 hits)
        for hits in range(needed):
            below += term
            if q == 0.0:
                term = 0.0
            else:
                term *= (draws - hits) / (hits + 1) * p / q
        result = max(0.0, 1.0 - below)
    _TAILS[key] = result
    return result


def category_weights(rules: RuleSet) -> tuple[float, ...]:
    """Strength of each category order (index 0 unused): what a made combination is worth.

    With the pot (R8.2) only winning matters, so higher categories count a little more for
    being harder to beat; with the scale payout (R8.4) they count by the units they pay.
    """
    if rules.payout == "scale":
        return (0.0, 1.0, 2.0, 3.0, 4.0, 4.0, 5.0, 4.0)
    return (0.0, 1.0, 1.06, 1.12, 1.18, 1.24, 1.3, 1.36)


def share_at_least(order: int, top: int, royal_high: bool) -> float:
    """Of the non-Paiute combinations an opponent makes, the share that equals or beats a
    combination of category ``order`` and top rank ``top`` (R5 order, R5.8)."""
    if order == PAIUTE:
        return 1.0
    shares = dict(SHARES)
    if royal_high:
        shares[ROYAL_HIGH] = shares.pop(ROYAL)
    total = sum(share for other, share in shares.items() if other > order)
    if order in (ROYAL, ROYAL_HIGH):
        within = 0.5  # another Royal Flush ties (R5.11)
    elif order == STRAIGHT_FLUSH:
        within = (14 - top) / 9
    else:
        within = (15 - top) / 13
    return total + shares.get(order, 0.0) * within
