"""Chance, injected (R2.3, R2.4, R4.6, R10.1).

The engine never touches a global random generator: every shuffle, cut and choice of the
first dealer comes from a :class:`Chance` passed in. :class:`SeededChance` makes simulations
repeatable; :class:`SecureChance` draws from the operating system's secure source for games
between real players (R10.1). Both shuffle with Fisher-Yates (``random.shuffle``), which is a
uniform permutation when its source is uniform (R10.2).

>>> a, b = SeededChance(7), SeededChance(7)
>>> cards_a, cards_b = list(range(10)), list(range(10))
>>> a.shuffle(cards_a); b.shuffle(cards_b)
>>> cards_a == cards_b
True
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Protocol, TypeVar

from paiute.cards import Card
from paiute.errors import N_, RecordError, format_message

__all__ = ["Chance", "RecordedChance", "SecureChance", "SeededChance"]

T = TypeVar("T")


class Chance(Protocol):
    """Where randomness comes from: a shuffle, a cut and a choice."""

    def shuffle(self, cards: list[Card]) -> None:
        """Put ``cards`` in a random order, in place; index 0 becomes the top."""

    def below(self, n: int) -> int:
        """A uniform whole number in ``0 .. n-1`` (a cut point, the first dealer)."""


class SeededChance:
    """A seeded generator (R10.1, simulations): the same seed gives the same deals."""

    __slots__ = ("_random", "seed")

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def shuffle(self, cards: list[Card]) -> None:
        self._random.shuffle(cards)

    def below(self, n: int) -> int:
        return self._random.randrange(n)


class SecureChance:
    """The operating system's secure source (R10.1): for games between real players."""

    __slots__ = ("_random",)

    def __init__(self) -> None:
        self._random = secrets.SystemRandom()

    def shuffle(self, cards: list[Card]) -> None:
        self._random.shuffle(cards)

    def below(self, n: int) -> int:
        return secrets.randbelow(n)


class RecordedChance:
    """Replays the stock rebuilds written in a record (RECORD.md ``rebuilds``).

    Each :meth:`shuffle` must be asked for exactly the cards R4.6 moves; the recorded order
    then replaces them. Anything else is a malformed record.
    """

    __slots__ = ("_orders", "_used", "deal", "where")

    def __init__(self, orders: Iterable[Sequence[Card]], where: str = "", *, deal: int | None = None) -> None:
        self._orders = [list(order) for order in orders]
        self._used = 0
        # ``deal``: the record's deal number, named by the (translatable) messages;
        # ``where``: a free English prefix for internal callers (it stays English).
        self.deal = deal
        self.where = where

    def _error(self, message: str, in_deal: str, **params: object) -> RecordError:
        # Each message comes whole in two variants (with and without the deal's number), so
        # that no translation is glued together from pieces.
        if self.deal is not None:
            return RecordError(in_deal, deal=self.deal, **params)
        if self.where:
            return RecordError(self.where + format_message(message, params))
        return RecordError(message, **params)

    def shuffle(self, cards: list[Card]) -> None:
        if self._used >= len(self._orders):
            raise self._error(
                N_("rebuild {rebuild}: the record has no stock order for this rebuild (R4.6; {n} recorded)"),
                N_(
                    "deal {deal}: rebuild {rebuild}: the record has no stock order for this rebuild "
                    "(R4.6; {n} recorded)"
                ),
                rebuild=self._used,
                n=len(self._orders),
            )
        order = self._orders[self._used]
        if Counter(order) != Counter(cards):
            missing = sorted(set(cards) - set(order))
            extra = sorted(set(order) - set(cards))
            raise self._error(
                N_(
                    "rebuild {rebuild} is not the cards R4.6 moves ({given} cards, {expected} expected; "
                    "missing {missing}; extra {extra})"
                ),
                N_(
                    "deal {deal}: rebuild {rebuild} is not the cards R4.6 moves ({given} cards, {expected} "
                    "expected; missing {missing}; extra {extra})"
                ),
                rebuild=self._used,
                given=len(order),
                expected=len(cards),
                missing=str([str(c) for c in missing]),
                extra=str([str(c) for c in extra]),
            )
        self._used += 1
        cards[:] = order

    def below(self, n: int) -> int:
        raise self._error(
            N_("a record's chance is written down, not drawn"),
            N_("deal {deal}: a record's chance is written down, not drawn"),
        )

    @property
    def unused(self) -> int:
        """Recorded rebuilds not yet asked for."""
        return len(self._orders) - self._used
