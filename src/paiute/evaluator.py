"""The combination evaluator with wild cards (R3, R5).

An :class:`Evaluator` is built for one set of wild cards and the ``royal_high`` option. It
answers, for shown cards, the value of the best combination they make (R5.10), and for a
six-card holding the best five-card call (with the card to put down, R6.2, honouring a card
that may not be put down, R4.3), the best six-card call (R6.3) and the best call overall.

>>> from paiute.cards import parse_cards
>>> ev = Evaluator.for_rank("3")
>>> held = parse_cards("3h 3s Ad Ac Ks Kh")
>>> print(ev.best(held))
Four/Two, aces over kings (show 3h 3s Ad Ac Ks Kh)
>>> print(ev.best(parse_cards("3c 3d 3h 3s 7d 2c")))
Five of a Kind, sevens (show 3c 3d 3h 3s 7d, put down 2c)

What the wild cards stand for (R3.4) is told by :meth:`Evaluator.arrange`: the shown cards in
the combination's natural order, each wild card with the card it is named as.

>>> print(format_arranged(Evaluator.for_rank("2").arrange(parse_cards("7s 5s 4s 6s 2h"))))
4s 5s 6s 7s 2h→8s

How it is fast: a holding is reduced to two integers, its *rank key* (how many natural cards
of each rank, and how many wild cards; three bits each) and its *suit mask* (which natural
cards, 13 bits a suit). Everything that depends on ranks alone (Five of a Kind, the six-card
combinations) is a table lookup on the rank key, the tables being built at import by
generating every combination best first; straight flushes are a memoised function of one
suit's 13-bit mask and the wild count. The tables are shared by every evaluator (only the
Royal Flush's place depends on ``royal_high``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from paiute.cards import CARDS, Card, Rank, Suit, format_cards
from paiute.combos import (
    CATEGORY_SHIFT,
    FIVE_OF_A_KIND_ORDER,
    FOUR_TWO_ORDER,
    PAIUTE_ORDER,
    ROYAL_FLUSH_ORDER,
    ROYAL_HIGH_ORDER,
    STRAIGHT_FLUSH_ORDER,
    THREE_THREE_ORDER,
    Category,
    Value,
)
from paiute.errors import PaiuteError

__all__ = ["STRAIGHT_FLUSH_WINDOWS", "Call", "Evaluator", "Placed", "format_arranged", "rank_codes"]

_WILD_SHIFT = 39  # rank key: 3 bits for each of the 13 ranks, then the wild count
_WILD_UNIT = 1 << _WILD_SHIFT
_RANK_UNIT = tuple(1 << (3 * r) for r in range(13))
_SUIT_MASK = 0x1FFF

# Codes: category order (R5) << CATEGORY_SHIFT | tie-break ranks, 4 bits each, high first.
_PAIUTE = PAIUTE_ORDER << CATEGORY_SHIFT
_THREE_THREE = THREE_THREE_ORDER << CATEGORY_SHIFT
_FOUR_TWO = FOUR_TWO_ORDER << CATEGORY_SHIFT
_STRAIGHT_FLUSH = STRAIGHT_FLUSH_ORDER << CATEGORY_SHIFT
_ROYAL = ROYAL_FLUSH_ORDER << CATEGORY_SHIFT
_FIVE_KIND = FIVE_OF_A_KIND_ORDER << CATEGORY_SHIFT
_ROYAL_HIGH = ROYAL_HIGH_ORDER << CATEGORY_SHIFT

# R5.3: the ten straight-flush windows as 13-bit rank masks (bit 0 = two), best first.
STRAIGHT_FLUSH_WINDOWS: tuple[tuple[int, int], ...] = tuple(
    (top, (0b11111 << (top - 6)) if top > 5 else (0b1111 | 1 << 12)) for top in range(14, 4, -1)
)


def _build_rank_tables() -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
    """Every rank key that makes a rank-based combination, with its code.

    Returns (six-card R5.4-R5.6 with all six used, Five of a Kind R5.1 in any five of six,
    Five of a Kind with exactly five used). Combinations are generated best first, so the
    first code a key receives is its best (``setdefault``). A key absent is no combination.
    """
    unit, wild = _RANK_UNIT, _WILD_UNIT
    ranks = range(12, -1, -1)
    six: dict[int, int] = {}
    for four in ranks:  # R5.4 Four/Two: the four's rank, then the pair's
        for pair in ranks:
            if pair != four:
                code = _FOUR_TWO | (four + 2) << 8 | (pair + 2) << 4
                for a in range(5):
                    for b in range(3):
                        six.setdefault(a * unit[four] + b * unit[pair] + (6 - a - b) * wild, code)
    for high in ranks:  # R5.5 Three/Three
        for low in range(high - 1, -1, -1):
            code = _THREE_THREE | (high + 2) << 8 | (low + 2) << 4
            for a in range(4):
                for b in range(4):
                    six.setdefault(a * unit[high] + b * unit[low] + (6 - a - b) * wild, code)
    for high in ranks:  # R5.6 Paiute: three pairs of different ranks
        for middle in range(high - 1, -1, -1):
            for low in range(middle - 1, -1, -1):
                code = _PAIUTE | (high + 2) << 8 | (middle + 2) << 4 | (low + 2)
                for a in range(3):
                    for b in range(3):
                        for c in range(3):
                            key = a * unit[high] + b * unit[middle] + c * unit[low]
                            six.setdefault(key + (6 - a - b - c) * wild, code)
    five_of_six: dict[int, int] = {}
    five: dict[int, int] = {}
    for rank in ranks:  # R5.1 Five of a Kind: naturals of the rank and wild cards
        code = _FIVE_KIND | (rank + 2) << 8
        for count in range(5):
            five.setdefault(count * unit[rank] + (5 - count) * wild, code)
            for spare in [*(unit[other] for other in range(13) if other != rank), wild, unit[rank]]:
                key = count * unit[rank] + (5 - count) * wild + spare
                if (key >> (3 * rank)) & 7 <= 4:
                    five_of_six.setdefault(key, code)
    return six, five_of_six, five


_SIX, _FIVE_OF_SIX, _FIVE = _build_rank_tables()
#: max(six-card combination, Five of a Kind in five of six) for every rank key with either.
_BEST_RANK: dict[int, int] = {
    key: max(_SIX.get(key, 0), _FIVE_OF_SIX.get(key, 0)) for key in _SIX.keys() | _FIVE_OF_SIX.keys()
}


def rank_codes(counts: Sequence[int], wild: int) -> tuple[int, int]:
    """Codes of the rank-based combinations of six cards: ``counts[r]`` natural cards of rank
    ``r + 2`` and ``wild`` wild cards. Returns (six-card combination using all six, R5.4-R5.6;
    Five of a Kind in any five of them, R5.1); 0 where there is none.

    >>> six, five = rank_codes([0] * 11 + [2, 2], 2)  # Ks Kh As Ah + two wilds
    >>> str(Value.from_code(six)), five
    ('Four/Two, aces over kings', 0)
    """
    key = sum(count * unit for count, unit in zip(counts, _RANK_UNIT, strict=True)) + wild * _WILD_UNIT
    return _SIX.get(key, 0), _FIVE_OF_SIX.get(key, 0)


def _straight_flush_code(suit_mask: int, wild: int, exact: bool, royal: int) -> int:
    """R5.2/R5.3 best straight flush from one suit's naturals plus ``wild`` wild cards.

    ``exact``: the naturals and wilds are the five shown cards, so every natural must lie in
    the window; otherwise any five of six cards may be shown.
    """
    for top, window in STRAIGHT_FLUSH_WINDOWS:
        hits = (suit_mask & window).bit_count()
        if exact:
            if suit_mask & ~window or hits + wild != 5:
                continue
        elif hits + wild < 5:
            continue
        return royal if top == 14 else _STRAIGHT_FLUSH | top << 8
    return 0


# Straight flushes by royal code, then (suit mask | wild count << 13); filled on first use.
_FLUSH_OF_SIX: dict[int, dict[int, int]] = {_ROYAL: {}, _ROYAL_HIGH: {}}  # any five of six
_FLUSH: dict[int, dict[int, int]] = {_ROYAL: {}, _ROYAL_HIGH: {}}  # exactly five


@dataclass(frozen=True, slots=True)
class Call:
    """A call a holding can make: its value, the cards shown, and the card put down
    (``None`` for a six-card call, R6.3)."""

    value: Value
    shown: tuple[Card, ...]
    discard: Card | None

    @property
    def is_six_card(self) -> bool:
        return self.discard is None

    def __str__(self) -> str:
        shown = format_cards(self.shown)
        if self.discard is None:
            return f"{self.value} (show {shown})"
        return f"{self.value} (show {shown}, put down {self.discard})"


@dataclass(frozen=True, slots=True)
class Placed:
    """One shown card of a combination and the card it stands for (R3.4): itself for a natural
    card, the named card for a wild one (which may be its own face, or a duplicate)."""

    card: Card
    named: Card
    wild: bool

    @property
    def renamed(self) -> bool:
        """A wild card named as another card than its own face."""
        return self.wild and self.named != self.card


def format_arranged(
    placed: Iterable[Placed], show: Callable[[Card], str] = str, *, arrow: str = "→", itself: str = "*"
) -> str:
    """An arranged combination as text: ``4s 5s 6s 7s 2h→8s``; ``show`` writes one card (the
    canonical text, or a language's face). A wild card named as its own face is ``show(card)``
    then ``itself`` (the wild mark).

    >>> from paiute.cards import parse_cards
    >>> ev = Evaluator.for_rank("7")
    >>> format_arranged(ev.arrange(parse_cards("7c 7d 7h 7s 9d")))
    '7c→9c 9d 7d→9d 7h→9h 7s→9s'
    >>> format_arranged(ev.arrange(parse_cards("7c 7d 7h 7s 2d")), arrow="=")
    '7c=2c 2d 7d=2d 7h=2h 7s=2s'
    """
    parts = []
    for item in placed:
        if item.renamed:
            parts.append(f"{show(item.card)}{arrow}{show(item.named)}")
        elif item.wild:
            parts.append(show(item.card) + itself)
        else:
            parts.append(show(item.card))
    return " ".join(parts)


class Evaluator:
    """Evaluates holdings under one set of wild cards (R3) and ``royal_high`` (R5.8)."""

    __slots__ = ("_bits", "_flush", "_flush6", "_keys", "royal_high", "wild_cards")

    def __init__(self, wild_cards: Iterable[Card] = (), *, royal_high: bool = False) -> None:
        self.wild_cards = frozenset(wild_cards)
        self.royal_high = royal_high
        royal = _ROYAL_HIGH if royal_high else _ROYAL
        self._flush6 = _FLUSH_OF_SIX[royal]
        self._flush = _FLUSH[royal]
        keys = []
        bits = []
        for card in CARDS:
            if card in self.wild_cards or card.is_joker:  # a joker can only stand in (R3.2)
                keys.append(_WILD_UNIT)
                bits.append(0)
            else:
                keys.append(_RANK_UNIT[card // 4])
                bits.append(1 << ((card // 4) + 13 * (card % 4)))
        self._keys = tuple(keys)
        self._bits = tuple(bits)

    @classmethod
    def for_rank(cls, rank: str | Rank, *, royal_high: bool = False) -> Evaluator:
        """All four cards of ``rank`` wild (R3.1, ``wild_colour = any``)."""
        rank = Rank.parse(rank) if isinstance(rank, str) else rank
        base = (int(rank) - 2) * 4
        return cls(CARDS[base : base + 4], royal_high=royal_high)

    @classmethod
    def for_jokers(cls, *, royal_high: bool = False) -> Evaluator:
        """The two jokers are the only wild cards (R3.2)."""
        return cls(CARDS[52:], royal_high=royal_high)

    def is_wild(self, card: Card) -> bool:
        return card in self.wild_cards

    # -- integer codes (the hot path) ------------------------------------------------------

    def code(self, cards: Sequence[Card]) -> int:
        """R5.10: the code of the best combination these exact cards make, 0 for none.

        Five cards can only make R5.1-R5.3, six only R5.4-R5.6.
        """
        keys = self._keys
        key = 0
        for card in cards:
            key += keys[card]
        if len(cards) == 6:
            return _SIX.get(key, 0)
        if len(cards) != 5:
            return 0
        code = _FIVE.get(key, 0)
        bits = self._bits
        mask = 0
        for card in cards:
            mask |= bits[card]
        suited = 0
        for shift in (0, 13, 26, 39):
            if (mask >> shift) & _SUIT_MASK:
                if suited:
                    return code  # naturals of two suits: no straight flush
                suited = (mask >> shift) & _SUIT_MASK
        flush_key = suited | (key >> _WILD_SHIFT) << 13
        flush = self._flush.get(flush_key)
        if flush is None:
            flush = self._flush[flush_key] = _straight_flush_code(
                suited, key >> _WILD_SHIFT, True, _ROYAL_HIGH if self.royal_high else _ROYAL
            )
        return flush if flush > code else code

    def best_code(self, held: Sequence[Card]) -> int:
        """Code of the best call a six-card holding can make, five- or six-card; 0 for none."""
        keys = self._keys
        bits = self._bits
        a, b, c, d, e, f = held
        key = keys[a] + keys[b] + keys[c] + keys[d] + keys[e] + keys[f]
        code = _BEST_RANK.get(key, 0)
        if code >= _FIVE_KIND and not self.royal_high:
            return code
        return self._flush_of_six(bits[a] | bits[b] | bits[c] | bits[d] | bits[e] | bits[f], key, code)

    def best_five_code(self, held: Sequence[Card]) -> int:
        """Code of the best five-card call (R6.2) in a six-card holding; 0 for none."""
        keys = self._keys
        bits = self._bits
        key = 0
        mask = 0
        for card in held:
            key += keys[card]
            mask |= bits[card]
        code = _FIVE_OF_SIX.get(key, 0)
        return self._flush_of_six(mask, key, code)

    def _flush_of_six(self, mask: int, key: int, code: int) -> int:
        wild = key >> _WILD_SHIFT
        wild_bits = wild << 13
        table = self._flush6
        for shift in (0, 13, 26, 39):
            suited = (mask >> shift) & _SUIT_MASK
            if suited:
                flush = table.get(suited | wild_bits)
                if flush is None:
                    flush = table[suited | wild_bits] = _straight_flush_code(
                        suited, wild, False, _ROYAL_HIGH if self.royal_high else _ROYAL
                    )
                if flush > code:
                    code = flush
        return code

    # -- values and calls ------------------------------------------------------------------

    def value(self, cards: Sequence[Card]) -> Value | None:
        """R5.10: the value of exactly these shown cards (5 or 6), or ``None``."""
        return Value.from_code(self.code(cards), royal_high=self.royal_high)

    def arrange(self, shown: Sequence[Card], value: Value | None = None) -> tuple[Placed, ...]:
        """The shown cards in the natural order of the combination they make, each wild card
        with the card it is named as (R3.4), so that they make ``value`` (by default their best,
        R5.10). Groups go high first (a Four/Two's four, then its pair); a straight flush goes
        from its lowest card up (the ace first in 5-4-3-2-A). A wild card names its own face
        where that fits, then a missing card, then a duplicate (Five of a Kind needs one, R3.4).
        Cards that make no combination come back in the order given, unnamed.

        >>> from paiute.cards import parse_cards
        >>> ev = Evaluator.for_rank("3")
        >>> format_arranged(ev.arrange(parse_cards("Kh 3h Ad 3s Ac Ks")))
        'Ac Ad 3h→Ah 3s→As Kh Ks'
        >>> format_arranged(ev.arrange(parse_cards("4c 3d Jd Jc 7s 7h")))
        'Jc Jd 7h 7s 4c 3d→4d'
        >>> format_arranged(Evaluator.for_rank("9").arrange(parse_cards("5h 4h 9c Ah 2h")))
        'Ah 2h 9c→3h 4h 5h'
        >>> format_arranged(Evaluator.for_jokers().arrange(parse_cards("Ks Jk1 Js Ts Jk2")))
        'Ts Js Jk1→Qs Ks Jk2→As'
        """
        cards = tuple(shown)
        value = self.value(cards) if value is None else value
        naturals = [card for card in cards if card not in self.wild_cards and not card.is_joker]
        wilds = sorted((card for card in cards if card in self.wild_cards or card.is_joker), key=int)
        if value is None:
            return tuple(Placed(card, card, card in wilds) for card in cards)
        category = value.category
        if category in (Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH):
            top = 14 if category is Category.ROYAL_FLUSH else int(value.ranks[0])
            ranks = [14, 2, 3, 4, 5] if top == 5 else list(range(top - 4, top + 1))  # R1.2
            # The naturals' one suit; with none, the first wild card's own suit (jokers: spades).
            suits = [card.suit for card in (*naturals, *wilds) if card.suit is not None]
            suit = suits[0] if suits else Suit.SPADES
            slots = [Card.of(rank, suit) for rank in ranks]
        else:
            counts = {
                Category.FIVE_OF_A_KIND: (5,),
                Category.FOUR_TWO: (4, 2),
                Category.THREE_THREE: (3, 3),
                Category.PAIUTE: (2, 2, 2),
            }[category]
            slots = []
            for rank, count in zip(value.ranks, counts, strict=True):
                # Each card of the group: its naturals' suits, then the wilds' own faces, then
                # the missing suits, then (Five of a Kind only) duplicates.
                have = [card.suit for card in naturals if card.rank == rank]
                faces = [card.suit for card in wilds if card.rank == rank]
                order = [*have, *faces, *Suit, *have, *Suit]
                chosen: list[Suit] = []
                for suit in order:
                    if len(chosen) == count:
                        break
                    if suit is not None and (suit not in chosen or len(chosen) >= 4):
                        chosen.append(suit)
                slots.extend(Card.of(rank, suit) for suit in sorted(chosen))
        placed: list[Placed | None] = [None] * len(slots)
        left = list(naturals)
        for index, slot in enumerate(slots):  # the natural cards in their places
            if slot in left:
                left.remove(slot)
                placed[index] = Placed(slot, slot, False)
        if left:
            raise PaiuteError(f"{format_cards(cards)} do not make {value}")
        spare = list(wilds)
        for index, slot in enumerate(slots):  # a wild card where it stands for its own face
            if placed[index] is None and slot in spare:
                spare.remove(slot)
                placed[index] = Placed(slot, slot, True)
        for index, slot in enumerate(slots):  # the others, in order
            if placed[index] is None:
                placed[index] = Placed(spare.pop(0), slot, True)
        return tuple(item for item in placed if item is not None)

    def best_five(self, held: Sequence[Card], forbidden: Card | None = None) -> Call | None:
        """The best five-card call (R6.2) and the card to put down, never ``forbidden`` (R4.3).

        Of several cards that reach the best value, the first in ``held`` is put down.
        """
        _check_six(held)
        if self.best_five_code(held) == 0:
            return None
        best_code = 0
        best_index = -1
        for index, card in enumerate(held):
            if card == forbidden:
                continue
            shown = [*held[:index], *held[index + 1 :]]
            code = self.code(shown)
            if code > best_code:
                best_code, best_index = code, index
        if best_index < 0:
            return None
        shown_cards = tuple(held[:best_index]) + tuple(held[best_index + 1 :])
        value = Value.from_code(best_code, royal_high=self.royal_high)
        assert value is not None
        return Call(value, shown_cards, held[best_index])

    def best_six(self, held: Sequence[Card]) -> Call | None:
        """The six-card call (R6.3) of this holding, if it makes R5.4-R5.6."""
        _check_six(held)
        value = self.value(held)
        return None if value is None else Call(value, tuple(held), None)

    def best(self, held: Sequence[Card], forbidden: Card | None = None) -> Call | None:
        """The best call of a six-card holding (the higher of :meth:`best_five` and
        :meth:`best_six`; a five-card call wins a tie of values, which cannot happen)."""
        five = self.best_five(held, forbidden)
        six = self.best_six(held)
        if five is None:
            return six
        if six is None or five.value > six.value:
            return five
        return six


def _check_six(held: Sequence[Card]) -> None:
    if len(held) != 6:
        raise PaiuteError(f"a holding after the draw has 6 cards, not {len(held)}")
