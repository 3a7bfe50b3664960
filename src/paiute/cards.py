"""Cards, ranks, suits and packs (R1).

A :class:`Card` is a small immutable integer: ``(rank - 2) * 4 + suit`` for the 52 natural
cards and 52, 53 for the two jokers. Every card is interned, so cards compare, hash and index
tables as fast as plain ints, while ``str()`` gives the canonical text of R1.4.

>>> card = Card.parse("10h")
>>> card, str(card), card.pretty()
(Card.parse('Th'), 'Th', 'T♥')
>>> Card.parse("t♥") is card
True
>>> [str(c) for c in parse_cards("Jk1 as 2C")]
['Jk1', 'As', '2c']
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

from paiute.errors import N_, ParseError

__all__ = [
    "CARDS",
    "JOKERS",
    "Card",
    "Rank",
    "Suit",
    "format_cards",
    "pack",
    "parse_cards",
]


class Rank(enum.IntEnum):
    """Card ranks, ace high (R1.1); the ace is low only in 5-4-3-2-A (R1.2)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        """The one-character form used in card text and records: ``2``…``9``, ``T``…``A``."""
        return _RANK_SYMBOLS[self - 2]

    @property
    def plural(self) -> str:
        """English plural name, as in "aces over kings"."""
        return _RANK_PLURALS[self - 2]

    @property
    def singular(self) -> str:
        """English name, as in "king high"."""
        return _RANK_SINGULARS[self - 2]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse ``"T"``, ``"10"``, ``"q"``… into a rank.

        >>> Rank.parse("10"), Rank.parse("a")
        (<Rank.TEN: 10>, <Rank.ACE: 14>)
        """
        rank = _RANK_TEXT.get(text.strip().upper())
        if rank is None:
            raise ParseError(N_("unknown rank {text!r} (R1.4: 2-9, T or 10, J, Q, K, A)"), text=text)
        return rank


class Suit(enum.IntEnum):
    """The four suits; they have no order (R1.1) and never break ties (R5.11)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "cdhs"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def is_red(self) -> bool:
        """Diamonds and hearts are red, clubs and spades black (R3.3)."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)


_RANK_SYMBOLS = "23456789TJQKA"
_RANK_SINGULARS = [
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
]
_RANK_PLURALS = [
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "sevens",
    "eights",
    "nines",
    "tens",
    "jacks",
    "queens",
    "kings",
    "aces",
]
_RANK_TEXT: dict[str, Rank] = {symbol: Rank(i + 2) for i, symbol in enumerate(_RANK_SYMBOLS)}
_RANK_TEXT["10"] = Rank.TEN
_SUIT_TEXT: dict[str, Suit] = {}
for _suit in Suit:
    _SUIT_TEXT[_suit.letter] = _suit
    _SUIT_TEXT[_suit.letter.upper()] = _suit
    _SUIT_TEXT[_suit.symbol] = _suit


class Card(int):
    """One card of the pack, interned: use :meth:`parse`, :data:`CARDS` or :meth:`of`."""

    __slots__ = ()

    @classmethod
    def of(cls, rank: Rank | int, suit: Suit | int) -> Card:
        """The natural card of that rank and suit.

        >>> str(Card.of(Rank.ACE, Suit.SPADES))
        'As'
        """
        return CARDS[(int(rank) - 2) * 4 + int(suit)]

    @classmethod
    def joker(cls, number: int) -> Card:
        """Joker 1 or 2 (R1.3)."""
        if number not in (1, 2):
            raise ParseError(N_("unknown joker number {number!r} (R1.4: Jk1 or Jk2)"), number=number)
        return CARDS[51 + number]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse any text form of R1.4; anything else raises :class:`ParseError` quoting it.

        >>> Card.parse("Jk2")
        Card.parse('Jk2')
        >>> Card.parse("11s")
        Traceback (most recent call last):
        ...
        paiute.errors.ParseError: unknown card text '11s' (R1.4: rank 2-9, T or 10, J, Q, K, A then suit c d h s or ♣ ♦ ♥ ♠; jokers Jk1, Jk2)
        """
        card = _CARD_TEXT.get(text) or _CARD_TEXT.get(text.strip().lower())
        if card is None:
            raise ParseError(_CARD_TEXT_HELP, text=text)
        return card

    @property
    def is_joker(self) -> bool:
        return self >= 52

    @property
    def rank(self) -> Rank | None:
        """The rank, or ``None`` for a joker."""
        return None if self >= 52 else Rank(self // 4 + 2)

    @property
    def suit(self) -> Suit | None:
        """The suit, or ``None`` for a joker."""
        return None if self >= 52 else Suit(self % 4)

    @property
    def is_red(self) -> bool:
        """True for diamonds and hearts; jokers have no colour."""
        return self < 52 and self % 4 in (1, 2)

    def pretty(self) -> str:
        """The card with its suit symbol: ``T♥``; jokers print as ``Jk1``."""
        return _PRETTY[self]

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return f"Card.parse({_TEXT[self]!r})"

    def __format__(self, spec: str) -> str:
        return format(_TEXT[self], spec)

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (_card_from_index, (int(self),))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


def _card_from_index(index: int) -> Card:
    return CARDS[index]


_CARD_TEXT_HELP = N_(
    "unknown card text {text!r} (R1.4: rank 2-9, T or 10, J, Q, K, A then suit c d h s or ♣ ♦ ♥ ♠; jokers Jk1, Jk2)"
)

#: All 54 cards by index: the 52 naturals (rank-major, suits c d h s) then Jk1, Jk2.
CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(54))
#: The two jokers (R1.3).
JOKERS: tuple[Card, Card] = (CARDS[52], CARDS[53])

_TEXT: tuple[str, ...] = tuple([_RANK_SYMBOLS[i // 4] + "cdhs"[i % 4] for i in range(52)] + ["Jk1", "Jk2"])
_PRETTY: tuple[str, ...] = tuple([_RANK_SYMBOLS[i // 4] + "♣♦♥♠"[i % 4] for i in range(52)] + ["Jk1", "Jk2"])
_CARD_TEXT: dict[str, Card] = {}
for _index in range(52):
    for _rank_text, _rank in _RANK_TEXT.items():
        if _rank - 2 != _index // 4:
            continue
        for _suit_text, _suit in _SUIT_TEXT.items():
            if _suit == _index % 4:
                _CARD_TEXT[(_rank_text + _suit_text).lower()] = CARDS[_index]
                _CARD_TEXT[_rank_text + _suit_text] = CARDS[_index]
_CARD_TEXT["jk1"] = JOKERS[0]
_CARD_TEXT["jk2"] = JOKERS[1]
_CARD_TEXT["Jk1"] = JOKERS[0]
_CARD_TEXT["Jk2"] = JOKERS[1]


def pack(jokers: bool = False) -> list[Card]:
    """A new, unshuffled pack: 52 cards, or 54 with the two jokers (R1.1, R1.3).

    >>> len(pack()), len(pack(jokers=True))
    (52, 54)
    """
    return list(CARDS if jokers else CARDS[:52])


def parse_cards(text: str | Iterable[str], *, plain_jokers: bool = False) -> list[Card]:
    """Parse cards separated by spaces or commas: ``"3h 3s Ad"``.

    With ``plain_jokers`` a bare ``Jk`` is accepted and numbered in order of appearance,
    where the two jokers need not be told apart (R1.4, ``paiute eval``).

    >>> format_cards(parse_cards("Jk Jk 2c", plain_jokers=True))
    'Jk1 Jk2 2c'
    >>> parse_cards("Ah Ah")
    Traceback (most recent call last):
    ...
    paiute.errors.ParseError: card 'Ah' appears twice in 'Ah Ah'
    """
    if isinstance(text, str):
        source = text
        words = text.replace(",", " ").split()
    else:
        words = list(text)
        source = " ".join(words)
    # Explicit cards first, so that a bare "Jk" takes whichever joker is left over.
    explicit = [None if plain_jokers and word.lower() == "jk" else Card.parse(word) for word in words]
    spare = [joker for joker in JOKERS if joker not in explicit]
    cards: list[Card] = []
    seen: set[Card] = set()
    for card in explicit:
        if card is None:
            if not spare:
                raise ParseError(N_("more than two jokers in {source!r} (R1.3)"), source=source)
            card = spare.pop(0)
        if card in seen:
            raise ParseError(N_("card {card!r} appears twice in {source!r}"), card=str(card), source=source)
        seen.add(card)
        cards.append(card)
    return cards


def format_cards(cards: Iterable[Card], *, pretty: bool = False) -> str:
    """Cards in canonical text separated by spaces (or with suit symbols)."""
    table = _PRETTY if pretty else _TEXT
    return " ".join(table[card] for card in cards)
