"""The fair-deal side of a server table: a deal's proof (R10.2) and the chance of its deal.

A deal's pack is shuffled and committed while planning (R10.1, R10.2); :class:`DealProof`
keeps what the commitment reveals once the deal has ended, and :class:`QueuedChance` replays
the stored rebuild orders (R4.6) so a table read back deals exactly the same stock.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass, field

from paiute.cards import Card
from paiute.errors import PaiuteError
from paiute.fairness import SCHEME, DealCommitment, RebuildCommitment, cut

__all__ = ["DealProof", "Pending", "QueuedChance"]


@dataclass(slots=True)
class DealProof:
    """Everything R10.2 reveals of a deal once it has ended."""

    sha256: str
    salt: str
    shuffled: tuple[Card, ...]
    position: int | None = None
    rebuilds: list[RebuildCommitment] = field(default_factory=list)

    @property
    def commitment(self) -> DealCommitment:
        return DealCommitment(self.sha256, self.salt, self.position, tuple(self.rebuilds))

    def public_json(self) -> dict[str, object]:
        """What may be shown while the deal lasts: the hashes only."""
        return self.commitment.public_json()

    def record_json(self) -> dict[str, object]:
        """The ``commitment`` of a finished deal in a paiute-record/1 file (RECORD.md)."""
        return self.commitment.to_json()

    def proof_json(self) -> dict[str, object]:
        """The proof endpoint's body (docs/web-protocol.md)."""
        assert self.position is not None
        return {
            "scheme": SCHEME,
            "sha256": self.sha256,
            "salt": self.salt,
            "cut": self.position,
            "shuffled": [str(card) for card in self.shuffled],
            "deck": [str(card) for card in cut(self.shuffled, self.position)],
            "rebuilds": [
                {"sha256": made.sha256, "salt": made.salt, "order": [str(card) for card in made.order]}
                for made in self.rebuilds
            ],
        }


class QueuedChance:
    """The chance of a server deal: each rebuild (R4.6) takes the next order queued.

    Orders are decided securely (R10.1) while planning, stored, and only then queued here and
    applied, so a replay after a restart deals exactly the same stock.
    """

    __slots__ = ("_orders",)

    def __init__(self) -> None:
        self._orders: deque[tuple[Card, ...]] = deque()

    def push(self, order: Sequence[Card]) -> None:
        self._orders.append(tuple(order))

    def shuffle(self, cards: list[Card]) -> None:
        if not self._orders:
            raise PaiuteError("R4.6 a rebuild with no stored stock order")
        order = self._orders.popleft()
        if Counter(order) != Counter(cards):
            raise PaiuteError("R4.6 the stored stock order is not the cards the rebuild moves")
        cards[:] = order

    def below(self, n: int) -> int:
        raise PaiuteError("a server deal draws nothing at random outside its plans")


@dataclass(frozen=True, slots=True)
class Pending:
    """A committed, shuffled pack waiting for its cut (R2.4, R10.2)."""

    deal: int
    dealer: int
    cutter: int
    proof: DealProof
