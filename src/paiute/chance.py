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

import hashlib
import random
import secrets
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Literal, Protocol, TypeVar

from paiute.cards import Card
from paiute.errors import N_, RecordError, format_message

__all__ = ["Chance", "RecordedChance", "SecureChance", "SeedHash", "SeededChance", "derive_seed"]

T = TypeVar("T")

#: How :func:`derive_seed` turns its parts into a number.
SeedHash = Literal["sha256", "blake2b", "random"]


def derive_seed(*parts: object, separator: str = "/", method: SeedHash = "sha256", bits: int = 64) -> int:
    """A seed of ``bits`` bits for one use (a deal's shuffle, a bot, a decision), derived from
    ``parts`` (the purpose's name, the seed it comes from, indices...): the same on every
    machine, in every process and run, and unrelated to the seeds of other parts.

    The parts are written as text (``bytes`` as they are) and joined with ``separator``; then
    ``method`` makes the number: ``"sha256"``, the first ``bits`` of their SHA-256 digest;
    ``"blake2b"``, their BLAKE2b digest of ``bits`` bits; ``"random"``, the first ``bits``
    drawn by ``random.Random`` seeded with them (which hashes them with SHA-512). Each caller
    keeps the separator and method its seeds have always come from: another one would change
    every game, tournament and review replayed from a seed.

    >>> derive_seed("paiute-tournament", 7, 0, "deck") == derive_seed("paiute-tournament", 7, 0, "deck")
    True
    >>> derive_seed("paiute-tournament", 7, 0, "deck") != derive_seed("paiute-tournament", 7, 1, "deck")
    True
    >>> derive_seed("paiute-hint", "T1", 3, 0, separator=":", bits=48) < 2**48
    True
    """
    if bits % 8 or not 8 <= bits <= 256:
        raise ValueError(f"bits must be a multiple of 8 from 8 to 256, not {bits!r}")
    data = separator.encode().join(part if isinstance(part, bytes) else str(part).encode() for part in parts)
    if method == "sha256":
        return int.from_bytes(hashlib.sha256(data).digest()[: bits // 8], "big")
    if method == "blake2b":
        return int.from_bytes(hashlib.blake2b(data, digest_size=bits // 8).digest(), "big")
    if method == "random":
        return random.Random(data).getrandbits(bits)
    raise ValueError(f"unknown seed hash {method!r} (one of sha256, blake2b, random)")


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
        # ``deal``: the record's deal index, from 0, named by the (translatable) messages as
        # people count, from 1 (as they count the rebuilds); ``where``: a free English prefix
        # for internal callers (it stays English).
        self.deal = deal
        self.where = where

    def _error(self, message: str, in_deal: str, **params: object) -> RecordError:
        # Each message comes whole in two variants (with and without the deal's number), so
        # that no translation is glued together from pieces.
        if self.deal is not None:
            return RecordError(in_deal, deal=self.deal + 1, **params)
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
                rebuild=self._used + 1,
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
                rebuild=self._used + 1,
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
