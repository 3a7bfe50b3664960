"""Fair-deal proofs (R10.2): commit to a shuffled pack before the cut, reveal it after the deal.

A server shuffles with a secure source (R10.1), publishes the SHA-256 hash of the shuffled
order together with a secret salt, lets the cutter choose the split point (R2.4), and deals.
Every stock rebuild (R4.6) is committed the same way when it is made. When the deal ends the
orders and salts are revealed, so that anyone can check that the cards dealt followed from
the committed orders and the cut.

The hashed text is ``"paiute-commit/1|" + salt + "|" + cards``, the cards in canonical text
separated by single spaces (top of the pack first), encoded as UTF-8. It is simple enough to
recompute anywhere (the web page does it with ``crypto.subtle``).

>>> from paiute.cards import format_cards, parse_cards
>>> order = parse_cards("As Kd 7h 2c")
>>> digest = commitment_hash(order, "salt")
>>> len(digest)
64
>>> format_cards(cut(order, 1))
'Kd 7h 2c As'
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from paiute.cards import Card, format_cards, pack
from paiute.errors import N_, format_message

if TYPE_CHECKING:
    from paiute.chance import Chance
    from paiute.record import DealRecord, Record

__all__ = [
    "SCHEME",
    "CommittingChance",
    "DealCommitment",
    "Problem",
    "RebuildCommitment",
    "commitment_hash",
    "cut",
    "new_salt",
    "secure_order",
    "uncut",
    "verify_deal",
    "verify_record",
]

SCHEME = "paiute-commit/1"


def new_salt() -> str:
    """A fresh secret salt: 128 random bits as 32 hexadecimal digits."""
    return secrets.token_hex(16)


def commitment_hash(order: Sequence[Card], salt: str) -> str:
    """The hex SHA-256 commitment to ``order`` (top first) under ``salt`` (R10.2)."""
    text = f"{SCHEME}|{salt}|{format_cards(order)}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cut(order: Sequence[Card], position: int) -> tuple[Card, ...]:
    """Cut ``order`` at ``position`` (R2.4): the cards from ``position`` on go on top.

    This is the cut of :meth:`paiute.deal.Deal.new`.
    """
    if not 0 <= position < len(order):
        raise ValueError(f"R2.4 cut position {position!r} is not between 0 and {len(order) - 1}")
    return tuple(order[position:]) + tuple(order[:position])


def uncut(deck: Sequence[Card], position: int) -> tuple[Card, ...]:
    """The order before a cut at ``position`` that gave ``deck``: the inverse of :func:`cut`.

    >>> from paiute.cards import format_cards, parse_cards
    >>> format_cards(uncut(cut(parse_cards("As Kd 7h 2c"), 3), 3))
    'As Kd 7h 2c'
    """
    if not 0 <= position < len(deck):
        raise ValueError(f"R2.4 cut position {position!r} is not between 0 and {len(deck) - 1}")
    split = len(deck) - position
    return tuple(deck[split:]) + tuple(deck[:split])


def secure_order(jokers: bool) -> list[Card]:
    """A uniformly shuffled pack from the operating system's secure source (R10.1, R10.2)."""
    cards = pack(jokers)
    # Fisher-Yates over ``secrets``: every permutation equally likely.
    for i in range(len(cards) - 1, 0, -1):
        j = secrets.randbelow(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


@dataclass(frozen=True, slots=True)
class RebuildCommitment:
    """The commitment to one rebuilt stock (R4.6), top card first."""

    sha256: str
    salt: str
    order: tuple[Card, ...]

    @classmethod
    def make(cls, order: Sequence[Card], salt: str | None = None) -> RebuildCommitment:
        salt = new_salt() if salt is None else salt
        return cls(commitment_hash(order, salt), salt, tuple(order))


@dataclass(frozen=True, slots=True)
class DealCommitment:
    """The commitment of one deal: the shuffled pack's hash and salt, the cut, the rebuilds."""

    sha256: str
    salt: str
    cut: int | None = None
    rebuilds: tuple[RebuildCommitment, ...] = field(default=())

    @classmethod
    def make(cls, order: Sequence[Card], salt: str | None = None) -> DealCommitment:
        """Commit to the shuffled ``order`` before the cut."""
        salt = new_salt() if salt is None else salt
        return cls(commitment_hash(order, salt), salt)

    def public_json(self) -> dict[str, object]:
        """What may be shown while the deal lasts: the hashes only, never a salt."""
        return {"sha256": self.sha256, "rebuilds": [{"sha256": r.sha256} for r in self.rebuilds]}

    def to_json(self) -> dict[str, object]:
        """The record form (RECORD.md ``commitment``), with the rebuilds' commitments added."""
        data: dict[str, object] = {"sha256": self.sha256, "salt": self.salt, "cut": self.cut}
        if self.rebuilds:
            data["rebuilds"] = [{"sha256": r.sha256, "salt": r.salt} for r in self.rebuilds]
        return data


class CommittingChance:
    """A :class:`~paiute.chance.Chance` that commits to every stock it rebuilds (R4.6, R10.2).

    The shuffle itself comes from ``inner`` (a secure source for real games).
    """

    __slots__ = ("inner", "rebuilds")

    def __init__(self, inner: Chance) -> None:
        self.inner = inner
        self.rebuilds: list[RebuildCommitment] = []

    def shuffle(self, cards: list[Card]) -> None:
        self.inner.shuffle(cards)
        self.rebuilds.append(RebuildCommitment.make(cards))  # index 0 is the new top

    def below(self, n: int) -> int:
        return self.inner.below(n)


class Problem(str):
    """A fair-deal problem: its English text (what ``--json`` and ``str()`` give) that also
    keeps its template and parameters (``message_id``, ``params``) for translation, as the
    engine's errors do (:meth:`paiute.i18n.Translator.gettext`).

    >>> problem = Problem(N_("R10.2 rebuild {index} does not match its commitment"), index=2)
    >>> problem, problem.message_id, problem.params
    ('R10.2 rebuild 2 does not match its commitment', 'R10.2 rebuild {index} does not match its commitment', {'index': 2})
    """

    message_id: str
    params: dict[str, object]

    def __new__(cls, message_id: str, /, **params: object) -> Problem:
        problem = super().__new__(cls, format_message(message_id, params) if params else message_id)
        problem.message_id = message_id
        problem.params = params
        return problem


def verify_deal(deal: DealRecord) -> list[str]:
    """Check a recorded deal against its commitment (R10.2); return the problems found.

    An empty list means the deck dealt is the committed order cut at the recorded point and
    every rebuilt stock matches its commitment.
    """
    commitment = deal.commitment
    if commitment is None:
        return [Problem(N_("R10.2 the deal has no commitment"))]
    problems: list[str] = []
    position = commitment.get("cut")
    salt = commitment.get("salt")
    if not isinstance(position, int) or not 0 <= position < len(deal.deck):
        return [Problem(N_("R10.2 the cut {position!r} is not a position in the pack"), position=position)]
    if not isinstance(salt, str):
        return [Problem(N_("R10.2 the commitment has no salt"))]
    if commitment_hash(uncut(deal.deck, position), salt) != commitment.get("sha256"):
        problems.append(
            Problem(N_("R10.2 the deck dealt is not the committed order cut at the recorded point"))
        )
    rebuilds = commitment.get("rebuilds", [])
    if not isinstance(rebuilds, list) or len(rebuilds) != len(deal.rebuilds):
        count = len(rebuilds) if isinstance(rebuilds, list) else 0
        problems.append(
            Problem(
                N_("R10.2 stock rebuilds: {rebuilds}, rebuild commitments: {commitments}"),
                rebuilds=len(deal.rebuilds),
                commitments=count,
            )
        )
        return problems
    for index, (order, rebuild) in enumerate(zip(deal.rebuilds, rebuilds, strict=True)):
        if not _matches(rebuild, order):
            # Rebuilds counted from 1, as people count them (and the deals, and the moves).
            problems.append(
                Problem(N_("R10.2 rebuild {index} does not match its commitment"), index=index + 1)
            )
    return problems


def _matches(rebuild: object, order: Sequence[Card]) -> bool:
    if not isinstance(rebuild, Mapping):
        return False
    salt, digest = rebuild.get("salt"), rebuild.get("sha256")
    return isinstance(salt, str) and commitment_hash(order, salt) == digest


def verify_record(record: Record) -> list[tuple[int, list[str]]]:
    """Each deal's index and its problems (:func:`verify_deal`), for every deal of ``record``."""
    return [(index, verify_deal(deal)) for index, deal in enumerate(record.deals)]
