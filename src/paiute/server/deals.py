"""Where a server table's chance comes from: the secure source, or a seeded one for tests.

Every table deals from :data:`SECURE_DEALS` (R10.1: the operating system's secure source):
the first dealer (R2.3), each pack's order (R10.2), a cut made on a cutter's behalf (R2.4),
every rebuilt stock (R4.6), and the bots' own tie-breaks.

:class:`SeededDeals` is for tests only (``paiute serve --insecure-deal-seed N``, refused
unless the server listens on a loopback address with no proxy in front of it): each of those
draws comes from a generator seeded by the seed and what is drawn (the deal's number, the
table's version), so every table of a test server gets the same deals, whatever the other
tables do, and a test reaches its scenario every time. Anyone who knows the seed knows every
hand: it must never serve real players. The fair-deal commitments (R10.2) work the same way
over the seeded orders (the salts stay secret and random), so the proofs still verify.

>>> seeded = SeededDeals(7)
>>> seeded.order(False, 1) == SeededDeals(7).order(False, 1)
True
>>> seeded.order(False, 1) == seeded.order(False, 2)
False
>>> SECURE_DEALS.secure, seeded.secure
(True, False)
"""

from __future__ import annotations

import random
import secrets
from typing import Protocol

from paiute.cards import Card, pack
from paiute.chance import Chance, SecureChance, SeededChance
from paiute.fairness import secure_order

__all__ = ["SECURE_DEALS", "DealSource", "SecureDeals", "SeededDeals", "deal_source"]


class DealSource(Protocol):
    """The chance of a server table (see the module's docstring)."""

    @property
    def secure(self) -> bool:
        """Whether this is the secure source (R10.1): the only one for real players."""

    def dealer(self, seats: int) -> int:
        """The first dealer (R2.3)."""

    def order(self, jokers: bool, deal: int) -> list[Card]:
        """Deal ``deal``'s pack, top first, to be committed before the cut (R10.2)."""

    def cut(self, size: int, deal: int) -> int:
        """A cut on the cutter's behalf (R2.4): a position from 0 to ``size - 1``."""

    def rebuilds(self, deal: int, version: int) -> Chance:
        """The chance of the stocks rebuilt (R4.6) by a change planned at table ``version``."""

    def bot_seed(self, seat: int) -> int | None:
        """The seed of the bot playing ``seat`` (None: its own random tie-breaks)."""


class SecureDeals:
    """The operating system's secure source (R10.1): every real table's."""

    __slots__ = ()

    @property
    def secure(self) -> bool:
        return True

    def dealer(self, seats: int) -> int:
        return secrets.randbelow(seats)

    def order(self, jokers: bool, deal: int) -> list[Card]:
        return secure_order(jokers)

    def cut(self, size: int, deal: int) -> int:
        return secrets.randbelow(size)

    def rebuilds(self, deal: int, version: int) -> Chance:
        return SecureChance()

    def bot_seed(self, seat: int) -> int | None:
        return None


class SeededDeals:
    """A seeded source, for tests only: anyone who knows the seed knows every hand."""

    __slots__ = ("seed",)

    def __init__(self, seed: int) -> None:
        self.seed = seed

    @property
    def secure(self) -> bool:
        return False

    def _random(self, *what: object) -> random.Random:
        # A string seed is hashed (SHA-512) by random.Random: the same on every run and machine.
        return random.Random("/".join(map(str, (self.seed, *what))))

    def dealer(self, seats: int) -> int:
        return self._random("dealer").randrange(seats)

    def order(self, jokers: bool, deal: int) -> list[Card]:
        cards = pack(jokers)
        self._random("order", deal).shuffle(cards)
        return cards

    def cut(self, size: int, deal: int) -> int:
        return self._random("cut", deal).randrange(size)

    def rebuilds(self, deal: int, version: int) -> Chance:
        return SeededChance(self._random("rebuild", deal, version).randrange(2**63))

    def bot_seed(self, seat: int) -> int | None:
        return self._random("bot", seat).randrange(2**31)


SECURE_DEALS = SecureDeals()


def deal_source(seed: int | None) -> DealSource:
    """:data:`SECURE_DEALS`, or with a ``seed`` (tests only) a :class:`SeededDeals`."""
    return SECURE_DEALS if seed is None else SeededDeals(seed)
