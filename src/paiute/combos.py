"""Winning combinations and their values (R5).

A :class:`Value` is what a set of shown cards is worth: a :class:`Category` and the
tie-break ranks of R5, high first. Values compare with ``<`` and ``==`` in R5 order
(``royal_high`` moves the Royal Flush above Five of a Kind, R5.8) and print in words.

>>> v = Value.parse("four_two A K")
>>> str(v), v.to_json()
('Four/Two, aces over kings', {'name': 'four_two', 'ranks': ['A', 'K']})
>>> Value.parse("straight_flush 5") < Value.parse("straight_flush 6")
True
>>> Value.parse("royal_flush") < Value.parse("five_of_a_kind A")
True
>>> Value.parse("royal_flush", royal_high=True) > Value.parse("five_of_a_kind A", royal_high=True)
True
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from paiute.cards import Rank
from paiute.errors import N_, ParseError

__all__ = [
    "CATEGORY_SHIFT",
    "FIVE_OF_A_KIND_ORDER",
    "FOUR_TWO_ORDER",
    "PAIUTE_ORDER",
    "ROYAL_FLUSH_ORDER",
    "ROYAL_HIGH_ORDER",
    "STRAIGHT_FLUSH_ORDER",
    "THREE_THREE_ORDER",
    "Category",
    "Value",
    "may_call",
]

#: An evaluator code (:attr:`Value.code`) is a category's order shifted left by this, plus the
#: tie-break ranks, four bits each, high first; 0 means no combination.
CATEGORY_SHIFT = 12
#: Each category's order (:meth:`Category.order`), R5's order from the lowest: the top bits of
#: its codes. ``ROYAL_HIGH_ORDER`` is the Royal Flush's under ``royal_high`` (R5.8).
PAIUTE_ORDER = 1  # R5.6
THREE_THREE_ORDER = 2  # R5.5
FOUR_TWO_ORDER = 3  # R5.4
STRAIGHT_FLUSH_ORDER = 4  # R5.3
ROYAL_FLUSH_ORDER = 5  # R5.2
FIVE_OF_A_KIND_ORDER = 6  # R5.1
ROYAL_HIGH_ORDER = 7  # R5.8


class Category(enum.Enum):
    """The six combinations of R5, with their record names (RECORD.md)."""

    PAIUTE = "paiute"  # R5.6
    THREE_THREE = "three_three"  # R5.5
    FOUR_TWO = "four_two"  # R5.4
    STRAIGHT_FLUSH = "straight_flush"  # R5.3
    ROYAL_FLUSH = "royal_flush"  # R5.2
    FIVE_OF_A_KIND = "five_of_a_kind"  # R5.1

    @property
    def cards(self) -> int:
        """How many shown cards make it: 5 (R5.1-R5.3) or 6 (R5.4-R5.6)."""
        return 6 if self in _SIX_CARD else 5

    @property
    def rank_count(self) -> int:
        """How many tie-break ranks it carries."""
        return _RANK_COUNTS[self]

    @property
    def title(self) -> str:
        return _TITLES[self]

    def order(self, royal_high: bool = False) -> int:
        """Its place in R5's order, 1 (Paiute) to 6, or 7 for a ``royal_high`` Royal Flush."""
        if royal_high and self is Category.ROYAL_FLUSH:
            return ROYAL_HIGH_ORDER
        return _ORDER[self]

    @classmethod
    def from_code(cls, code: int) -> Category:
        """The category of a non-zero evaluator code (:attr:`Value.code`)."""
        return _CATEGORY_BY_ORDER[code >> CATEGORY_SHIFT]

    @property
    def units(self) -> int:
        """Units a scale payout pays for it (R8.4)."""
        return _UNITS[self]


_SIX_CARD = frozenset({Category.FOUR_TWO, Category.THREE_THREE, Category.PAIUTE})
_ORDER = {
    Category.PAIUTE: PAIUTE_ORDER,
    Category.THREE_THREE: THREE_THREE_ORDER,
    Category.FOUR_TWO: FOUR_TWO_ORDER,
    Category.STRAIGHT_FLUSH: STRAIGHT_FLUSH_ORDER,
    Category.ROYAL_FLUSH: ROYAL_FLUSH_ORDER,
    Category.FIVE_OF_A_KIND: FIVE_OF_A_KIND_ORDER,
}
_RANK_COUNTS = {
    Category.FIVE_OF_A_KIND: 1,
    Category.ROYAL_FLUSH: 0,
    Category.STRAIGHT_FLUSH: 1,
    Category.FOUR_TWO: 2,
    Category.THREE_THREE: 2,
    Category.PAIUTE: 3,
}
_TITLES = {
    Category.FIVE_OF_A_KIND: "Five of a Kind",
    Category.ROYAL_FLUSH: "Royal Flush",
    Category.STRAIGHT_FLUSH: "Straight Flush",
    Category.FOUR_TWO: "Four/Two",
    Category.THREE_THREE: "Three/Three",
    Category.PAIUTE: "Paiute",
}
_UNITS = {
    Category.PAIUTE: 1,
    Category.THREE_THREE: 2,
    Category.FOUR_TWO: 3,
    Category.STRAIGHT_FLUSH: 4,
    Category.ROYAL_FLUSH: 4,
    Category.FIVE_OF_A_KIND: 5,
}
_CATEGORY_BY_ORDER = {order: category for category, order in _ORDER.items()}
_CATEGORY_BY_ORDER[ROYAL_HIGH_ORDER] = Category.ROYAL_FLUSH


def may_call(code: int, highest: int, *, paiute_now: bool) -> bool:
    """Whether a combination of evaluator code ``code`` may be called now: it is one (R6.1), a
    Paiute only where ``paiute_now`` says R5.7 allows it (the caller's first turn, or the
    option ``paiute_any_turn``), and it equals or beats ``highest``, the code of the highest
    call so far, 0 before any (R6.4). The compiled core's twin is
    :func:`paiute.compiled.rules.may_call`.

    >>> paiute = Value.parse("paiute A K Q").code
    >>> may_call(paiute, 0, paiute_now=True), may_call(paiute, 0, paiute_now=False)
    (True, False)
    >>> may_call(Value.parse("four_two 2 3").code, paiute, paiute_now=False)
    True
    >>> may_call(paiute, Value.parse("four_two 2 3").code, paiute_now=True)
    False
    """
    return code > 0 and code >= highest and (code >> CATEGORY_SHIFT != PAIUTE_ORDER or paiute_now)


@dataclass(frozen=True, slots=True)
class Value:
    """The worth of a combination: category and tie-break ranks, high first (R5).

    Equality ignores ``royal_high`` (a tie is a tie, R5.11); ordering uses it (R5.8).
    """

    category: Category
    ranks: tuple[Rank, ...] = ()
    royal_high: bool = False

    def __post_init__(self) -> None:
        category, ranks = self.category, self.ranks
        if len(ranks) != category.rank_count:
            raise ParseError(
                N_("{name} takes {count} rank(s), not {given}"),
                name=category.value,
                count=category.rank_count,
                given=len(ranks),
            )
        if category is Category.STRAIGHT_FLUSH and not Rank.FIVE <= ranks[0] <= Rank.KING:
            # R5.3: 5-4-3-2-A is the lowest; R5.2: ace high is the Royal Flush.
            raise ParseError(N_("no straight flush is {rank} high (R5.2, R5.3: five to king)"), rank=ranks[0])
        if category is Category.FOUR_TWO and ranks[0] == ranks[1]:
            raise ParseError(N_("a Four/Two's pair is of another rank than its four (R5.4)"))
        if category in (Category.THREE_THREE, Category.PAIUTE) and any(
            high <= low for high, low in itertools.pairwise(ranks)
        ):
            raise ParseError(
                N_("{title} ranks are different and listed high first (R5.5, R5.6): {ranks}"),
                title=category,
                ranks=" ".join(rank.symbol for rank in ranks),
            )

    # -- the integer code used by the evaluator ----------------------------------------------

    @property
    def code(self) -> int:
        """An integer that orders values exactly as R5 does (0 means no combination)."""
        code = self.category.order(self.royal_high) << CATEGORY_SHIFT
        shift = 8
        for rank in self.ranks:
            code |= int(rank) << shift
            shift -= 4
        return code

    @classmethod
    def from_code(cls, code: int, *, royal_high: bool = False) -> Value | None:
        """The value of an evaluator code, ``None`` for 0 (no combination)."""
        if code == 0:
            return None
        category = Category.from_code(code)
        ranks = tuple(Rank((code >> shift) & 0xF) for shift in (8, 4, 0)[: category.rank_count])
        return cls(category, ranks, royal_high=royal_high or code >> CATEGORY_SHIFT == ROYAL_HIGH_ORDER)

    # -- ordering --------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Value):
            return NotImplemented
        return self.category is other.category and self.ranks == other.ranks

    def __hash__(self) -> int:
        return hash((self.category, self.ranks))

    def _key(self, other: Value) -> tuple[int, int]:
        royal_high = self.royal_high or other.royal_high
        return self.category.order(royal_high), other.category.order(royal_high)

    def __lt__(self, other: Value) -> bool:
        if not isinstance(other, Value):
            return NotImplemented
        a, b = self._key(other)
        return (a, self.ranks) < (b, other.ranks)

    def __le__(self, other: Value) -> bool:
        if not isinstance(other, Value):
            return NotImplemented
        a, b = self._key(other)
        return (a, self.ranks) <= (b, other.ranks)

    def __gt__(self, other: Value) -> bool:
        if not isinstance(other, Value):
            return NotImplemented
        return other < self

    def __ge__(self, other: Value) -> bool:
        if not isinstance(other, Value):
            return NotImplemented
        return other <= self

    # -- text and JSON -----------------------------------------------------------------------

    def __str__(self) -> str:
        title = self.category.title
        ranks = self.ranks
        if self.category is Category.FIVE_OF_A_KIND:
            return f"{title}, {ranks[0].plural}"
        if self.category is Category.STRAIGHT_FLUSH:
            return f"{title}, {ranks[0].singular} high"
        if self.category in (Category.FOUR_TWO, Category.THREE_THREE):
            return f"{title}, {ranks[0].plural} over {ranks[1].plural}"
        if self.category is Category.PAIUTE:
            return f"{title}, " + "/".join(rank.plural for rank in ranks)
        return title

    def notation(self) -> str:
        """Compact text that :meth:`parse` reads back: ``"four_two A K"``."""
        return " ".join([self.category.value, *(rank.symbol for rank in self.ranks)])

    @classmethod
    def parse(cls, text: str, *, royal_high: bool = False) -> Value:
        """Parse the compact notation of :meth:`notation`."""
        words = text.split()
        if not words:
            raise ParseError(N_("empty combination value {text!r}"), text=text)
        try:
            category = Category(words[0].lower())
        except ValueError:
            raise ParseError(
                N_("unknown combination {name!r} in {text!r}"), name=words[0], text=text
            ) from None
        return cls(category, tuple(Rank.parse(word) for word in words[1:]), royal_high)

    def to_json(self) -> dict[str, object]:
        """The JSON form of RECORD.md: ``{"name": "four_two", "ranks": ["A", "K"]}``."""
        return {"name": self.category.value, "ranks": [rank.symbol for rank in self.ranks]}

    @classmethod
    def from_json(cls, data: Mapping[str, object], *, royal_high: bool = False) -> Value:
        """Read the JSON form of RECORD.md."""
        name = data.get("name")
        ranks = data.get("ranks", [])
        try:
            category = Category(name)
        except ValueError:
            raise ParseError(N_("unknown combination name {name!r}"), name=name) from None
        if not isinstance(ranks, Sequence) or isinstance(ranks, str):
            raise ParseError(N_("bad ranks {ranks!r}: expected a list"), ranks=ranks)
        return cls(category, tuple(Rank.parse(str(rank)) for rank in ranks), royal_high)
