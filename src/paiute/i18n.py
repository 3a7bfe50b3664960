"""The one translation layer: every text a person reads goes through a :class:`Translator`.

Catalogues are GNU gettext files shipped in the package (``paiute/locale/LANG/LC_MESSAGES/
paiute.po`` and the compiled ``paiute.mo``), read with the standard library's :mod:`gettext`:
the engine needs nothing else at run time. Babel is only the tool that extracts messages and
compiles the catalogues (``scripts/update_catalogues.py``, see docs/i18n.md).

Messages are English sentences with named ``{placeholders}``, filled with :meth:`str.format`
*after* translation, so a translation may move them; a message defined at import time is
marked with :func:`N_`. Plurals come from the catalogue's ``Plural-Forms`` (Romanian has three).
Machine-readable output (``--json``, records, the API) never goes through here.

>>> from paiute.combos import Value
>>> ro = translator("ro")
>>> ro.value(Value.parse("four_two A K")), ro.card(Card.parse("Qs")), ro.card_name(Card.parse("Qs"))
('Careu/Pereche, ași peste popi', 'D♠', 'damă de pică')
>>> [ro.gettext(N_("seat {seat} {name}"), seat=n, name="Ana") for n in (1, 2)]
['locul 1 Ana', 'locul 2 Ana']
>>> translator("bn").number(2024), translator("en").value(Value.parse("four_two A K"))
('২০২৪', 'Four/Two, aces over kings')
"""

from __future__ import annotations

import gettext
import math
import os
import re
import struct
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path

from paiute.cards import Card, Rank, Suit, parse_cards
from paiute.combos import Category, Value
from paiute.errors import N_, IllegalActionError, Message, PaiuteError, ParseError, ReplayError

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "LOCALE_DIR",
    "NP_",
    "N_",
    "Translator",
    "catalogue_json",
    "chips_in_hundredths",
    "choose_language",
    "format_chips",
    "format_number",
    "match_language",
    "parse_accept_language",
    "translator",
]

#: The languages with a complete catalogue, English first (the default).
LANGUAGES: tuple[str, ...] = ("en", "ro", "so", "bn")
DEFAULT_LANGUAGE = "en"
#: Each language's name in itself, for a language switcher.
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "ro": "Română", "so": "Soomaali", "bn": "বাংলা"}
DOMAIN = "paiute"
#: The catalogues of the web pages (``server/static/js/strings.js``): key = ``msgctxt``.
WEB_DOMAIN = "web"
DOMAINS: tuple[str, ...] = (DOMAIN, WEB_DOMAIN)
LOCALE_DIR = Path(__file__).with_name("locale")

# Bengali text writes numbers in Bengali digits (CLDR's default numbering system for bn);
# the other three use the ASCII digits. No grouping separators anywhere: the numbers people
# see (seats, chips, counts) are small, and English output keeps its plain ASCII digits.
_DIGITS: Mapping[str, str] = {"bn": "০১২৩৪৫৬৭৮৯"}
_DECIMAL_SIGN: Mapping[str, str] = {"ro": ","}


def format_number(number: int | float, lang: str) -> str:
    """``number`` as a person reading ``lang`` expects it.

    >>> format_number(-105, "bn"), format_number(2.5, "ro"), format_number(1000, "en")
    ('-১০৫', '2,5', '1000')
    """
    text = str(number)
    if isinstance(number, float):
        text = text.replace(".", _DECIMAL_SIGN.get(lang, "."))
    digits = _DIGITS.get(lang)
    if digits is not None:
        text = text.translate(str.maketrans("0123456789", digits))
    return text


def chips_in_hundredths(chips: float) -> int:
    """``chips`` as shown, in hundredths: rounded to the thousandth, as ``--json`` and the API
    give it, then to the hundredth, halves away from zero, so that a page formatting the JSON
    figure shows the same digits as the terminal.

    >>> chips_in_hundredths(0.125), chips_in_hundredths(-0.125), chips_in_hundredths(0.1249), chips_in_hundredths(1 / 3)
    (13, -13, 13, 33)
    """
    thousandths = round(abs(round(chips, 3)) * 1000)
    hundredths = (thousandths + 5) // 10
    return -hundredths if chips < 0 else hundredths


def format_chips(chips: float, lang: str, *, signed: bool = True) -> str:
    """Chips as every view writes a figure of the hint and the review: signed, two decimals
    (:func:`chips_in_hundredths`), in the language's digits and decimal sign (``?`` for an
    unknown bound); ``signed=False`` for an amount that is never negative, such as a loss.

    >>> format_chips(0.754, "en"), format_chips(-0.31, "ro"), format_chips(-0.001, "en")
    ('+0.75', '-0,31', '+0.00')
    >>> format_chips(1.5, "bn"), format_chips(float("inf"), "en"), format_chips(0.5, "ro", signed=False)
    ('+১.৫০', '?', '0,50')
    """
    if not math.isfinite(chips):
        return "?"
    hundredths = chips_in_hundredths(chips)
    sign = "-" if hundredths < 0 else "+" if signed else ""
    whole, cents = divmod(abs(hundredths), 100)
    text = f"{sign}{whole}{_DECIMAL_SIGN.get(lang, '.')}{cents:02d}"
    digits = _DIGITS.get(lang)
    return text if digits is None else text.translate(str.maketrans("0123456789", digits))


def match_language(tag: str | None) -> str | None:
    """The supported language a locale name or language tag asks for, else ``None``.

    >>> match_language("ro_RO.UTF-8"), match_language("bn-BD"), match_language("C"), match_language("de")
    ('ro', 'bn', None, None)
    """
    if not tag:
        return None
    primary = re.split(r"[-_.@]", tag.strip().lower(), maxsplit=1)[0]
    return primary if primary in LANGUAGES else None


def choose_language(cli_value: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language of a terminal session: ``--lang``, then ``PAIUTE_LANG``, then the system
    locale (``LANGUAGE``, then the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set),
    else English. An unsupported ``--lang`` is an error; an unsupported environment value is
    passed over, as gettext does.

    >>> choose_language("bn", {"PAIUTE_LANG": "ro"}), choose_language(None, {"PAIUTE_LANG": "ro"})
    ('bn', 'ro')
    >>> choose_language(None, {"LANG": "so_SO.UTF-8"}), choose_language(None, {"LANG": "C.UTF-8"})
    ('so', 'en')
    """
    if cli_value is not None:
        lang = match_language(cli_value)
        if lang is None:
            raise PaiuteError(
                N_("unknown language {lang!r} (languages: {languages})"),
                lang=cli_value,
                languages=", ".join(LANGUAGES),
            )
        return lang
    env = os.environ if environ is None else environ
    lang = match_language(env.get("PAIUTE_LANG"))
    if lang is not None:
        return lang
    for tag in env.get("LANGUAGE", "").split(":"):
        lang = match_language(tag)
        if lang is not None:
            return lang
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return match_language(value) or DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def parse_accept_language(header: str | None) -> str:
    """The best supported language of an HTTP ``Accept-Language`` header, else English.

    >>> parse_accept_language("fr-FR, bn;q=0.8, ro;q=0.9"), parse_accept_language("de"), parse_accept_language(None)
    ('ro', 'en', 'en')
    """
    choices: list[tuple[float, int, str]] = []
    for position, part in enumerate((header or "").split(",")):
        tag, _, params = part.partition(";")
        quality = 1.0
        match = re.search(r"q\s*=\s*([0-9.]+)", params)
        if match:
            try:
                quality = float(match.group(1))
            except ValueError:
                continue
        lang = match_language(tag)
        if lang is not None and quality > 0:
            choices.append((-quality, position, lang))
    return min(choices)[2] if choices else DEFAULT_LANGUAGE


# -- words for cards and combinations ---------------------------------------------------------
# The catalogue context (msgctxt) tells translators which form a word takes: a rank's letter
# on the card face, its name ("king"), its plural after a count or "over" ("kings"), a suit's
# name alone and inside a card's name ("king of hearts").

_TITLES = {
    Category.FIVE_OF_A_KIND: N_("Five of a Kind"),
    Category.ROYAL_FLUSH: N_("Royal Flush"),
    Category.STRAIGHT_FLUSH: N_("Straight Flush"),
    Category.FOUR_TWO: N_("Four/Two"),
    Category.THREE_THREE: N_("Three/Three"),
    Category.PAIUTE: N_("Paiute"),
}
# Whole phrases per combination, so that each language orders and inflects them its own way.
_VALUE_TEXTS = {
    Category.FIVE_OF_A_KIND: N_("Five of a Kind, {rank}"),
    Category.ROYAL_FLUSH: N_("Royal Flush"),
    Category.STRAIGHT_FLUSH: N_("Straight Flush, {rank} high"),
    Category.FOUR_TWO: N_("Four/Two, {high} over {low}"),
    Category.THREE_THREE: N_("Three/Three, {high} over {low}"),
    Category.PAIUTE: N_("Paiute, {first}/{second}/{third}"),
}
_PLACES = ("high", "low")
_PAIUTE_PLACES = ("first", "second", "third")


def NP_(context: str, message: str) -> str:  # noqa: N802 - the name the extractor looks for
    """Mark ``message`` in ``context`` for the catalogues; return the message unchanged."""
    return message


_RANK_NAMES = {
    rank: name
    for rank, name in zip(
        Rank,
        (
            NP_("rank", "two"),
            NP_("rank", "three"),
            NP_("rank", "four"),
            NP_("rank", "five"),
            NP_("rank", "six"),
            NP_("rank", "seven"),
            NP_("rank", "eight"),
            NP_("rank", "nine"),
            NP_("rank", "ten"),
            NP_("rank", "jack"),
            NP_("rank", "queen"),
            NP_("rank", "king"),
            NP_("rank", "ace"),
        ),
        strict=True,
    )
}
_RANK_PLURALS = {
    rank: name
    for rank, name in zip(
        Rank,
        (
            NP_("ranks", "twos"),
            NP_("ranks", "threes"),
            NP_("ranks", "fours"),
            NP_("ranks", "fives"),
            NP_("ranks", "sixes"),
            NP_("ranks", "sevens"),
            NP_("ranks", "eights"),
            NP_("ranks", "nines"),
            NP_("ranks", "tens"),
            NP_("ranks", "jacks"),
            NP_("ranks", "queens"),
            NP_("ranks", "kings"),
            NP_("ranks", "aces"),
        ),
        strict=True,
    )
}
_RANK_SYMBOLS = {
    rank: symbol
    for rank, symbol in zip(
        Rank,
        (
            NP_("rank symbol", "2"),
            NP_("rank symbol", "3"),
            NP_("rank symbol", "4"),
            NP_("rank symbol", "5"),
            NP_("rank symbol", "6"),
            NP_("rank symbol", "7"),
            NP_("rank symbol", "8"),
            NP_("rank symbol", "9"),
            NP_("rank symbol", "T"),
            NP_("rank symbol", "J"),
            NP_("rank symbol", "Q"),
            NP_("rank symbol", "K"),
            NP_("rank symbol", "A"),
        ),
        strict=True,
    )
}
_SUIT_NAMES = {
    Suit.CLUBS: NP_("suit", "clubs"),
    Suit.DIAMONDS: NP_("suit", "diamonds"),
    Suit.HEARTS: NP_("suit", "hearts"),
    Suit.SPADES: NP_("suit", "spades"),
}
# A suit inside a card's name may take another form (Bengali: the genitive, "হরতনের").
_SUIT_IN_CARD_NAMES = {
    Suit.CLUBS: NP_("suit in a card name", "clubs"),
    Suit.DIAMONDS: NP_("suit in a card name", "diamonds"),
    Suit.HEARTS: NP_("suit in a card name", "hearts"),
    Suit.SPADES: NP_("suit in a card name", "spades"),
}


class Translator:
    """Messages, numbers, cards and combinations in one language."""

    def __init__(self, lang: str, catalogue: gettext.NullTranslations) -> None:
        self.lang = lang
        self._catalogue = catalogue
        self._letters: dict[str, Rank | None] | None = None

    def __repr__(self) -> str:
        return f"translator({self.lang!r})"

    # -- messages ----------------------------------------------------------------------------

    def gettext(self, message: str, /, **params: object) -> str:
        """``message`` translated, its placeholders then filled from ``params``.

        Without ``params`` the translation is returned as it is (braces need no escaping).
        """
        return self._fill(self._catalogue.gettext(message), params)

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        """The plural form for ``n`` (the language's ``Plural-Forms``); ``{n}`` is ``n`` unless
        ``params`` says otherwise."""
        params.setdefault("n", n)
        return self._fill(self._catalogue.ngettext(singular, plural, n), params)

    def message(self, message: Message) -> str:
        """A :class:`paiute.errors.Message` (a template with its parameters) translated."""
        return self.gettext(message.message_id, **message.params)

    def pgettext(self, context: str, message: str, /, **params: object) -> str:
        """``message`` in ``context`` (a word that takes another form elsewhere)."""
        return self._fill(self._catalogue.pgettext(context, message), params)

    def _fill(self, text: str, params: Mapping[str, object]) -> str:
        if not params:
            return text
        return text.format(**{name: _Local(self, value) for name, value in params.items()})

    def number(self, number: int | float) -> str:
        """A number as people reading this language write it."""
        return format_number(number, self.lang)

    def chips(self, chips: float, *, signed: bool = True) -> str:
        """Chips as the hint and the review write them (:func:`format_chips`: ``+0.75``)."""
        return format_chips(chips, self.lang, signed=signed)

    # -- cards -------------------------------------------------------------------------------

    def rank_symbol(self, rank: Rank) -> str:
        """The rank as printed on the card face in this language (``K``; Romanian ``R``)."""
        return self.pgettext("rank symbol", _RANK_SYMBOLS[rank])

    def rank_name(self, rank: Rank) -> str:
        """``"king"``."""
        return self.pgettext("rank", _RANK_NAMES[rank])

    def rank_plural(self, rank: Rank) -> str:
        """``"kings"``, as in "aces over kings"."""
        return self.pgettext("ranks", _RANK_PLURALS[rank])

    def suit_name(self, suit: Suit) -> str:
        """``"hearts"``."""
        return self.pgettext("suit", _SUIT_NAMES[suit])

    def card(self, card: Card) -> str:
        """The card for people: rank letter and suit symbol (``K♥``), jokers ``Jk1``."""
        if card.rank is None:
            return self.gettext(N_("Jk{number}"), number=int(card) - 51)
        assert card.suit is not None
        return self.rank_symbol(card.rank) + card.suit.symbol

    def _rank_letters(self) -> dict[str, Rank | None]:
        """The rank letters this language prints that are not the canonical ones (R1.4),
        upper-cased, each with its rank, or ``None`` where the letter is ambiguous: it is the
        canonical letter of another rank, or two ranks print it."""
        if self._letters is not None:
            return self._letters
        table: dict[str, Rank | None] = {}
        for rank in Rank:
            letter = self.rank_symbol(rank).upper()
            try:
                canonical: Rank | None = Rank.parse(letter)
            except ParseError:
                canonical = None
            if canonical is rank:
                continue  # the canonical letter itself ("A", "10")
            table[letter] = None if canonical is not None or letter in table else rank
        self._letters = table
        return table

    def parse_card(self, text: str) -> Card:
        """A card as typed by a reader of this language: the canonical text of R1.4, or the
        rank letter this language prints (Romanian ``R♠`` is the king, ``Rs`` too). A letter that
        could mean two ranks is refused, quoted, with the way to write each.

        >>> ro = translator("ro")
        >>> ro.parse_card("R♠"), ro.parse_card("d♥"), ro.parse_card("V♣"), ro.parse_card("Ks")
        (Card.parse('Ks'), Card.parse('Qh'), Card.parse('Jc'), Card.parse('Ks'))
        >>> translator("en").parse_card("R♠")
        Traceback (most recent call last):
        ...
        paiute.errors.ParseError: unknown card text 'R♠' (R1.4: rank 2-9, T or 10, J, Q, K, A then suit c d h s or ♣ ♦ ♥ ♠; jokers Jk1, Jk2)
        """
        return Card.parse(self._canonical_card_text(text))

    def _canonical_card_text(self, text: str) -> str:
        word = text.strip()
        for number in (1, 2):  # a joker as this language prints it
            if word.lower() == self.gettext(N_("Jk{number}"), number=number).lower():
                return f"Jk{number}"
        rank = self._local_rank(word[:-1], text) if len(word) >= 2 else None
        return text if rank is None else rank.symbol + word[-1]

    def _local_rank(self, letter: str, text: str) -> Rank | None:
        """The rank of one of this language's own rank letters; ``None`` for any other text."""
        key = letter.upper()
        letters = self._rank_letters()
        if key not in letters:
            return None
        rank = letters[key]
        if rank is None:
            # Each rank the letter may mean, with another way to write it.
            ways = [
                self.gettext(
                    N_("{letter} for the {rank}"),
                    letter=_Verbatim(
                        next((t for t in (other.symbol, self.rank_symbol(other)) if t.upper() != key), key)
                    ),
                    rank=self.rank_name(other),
                )
                for other in Rank
                if self.rank_symbol(other).upper() == key or other.symbol == key
            ]
            raise ParseError(
                N_("card text {text!r} is ambiguous in this language: write {ways} (R1.4)"),
                text=text,
                ways=_Verbatim(self.gettext(N_(" or ")).join(ways)),
            )
        return rank

    def parse_cards(self, text: str, *, plain_jokers: bool = False) -> list[Card]:
        """Cards separated by spaces or commas, each as :meth:`parse_card` reads it, checked as
        :func:`paiute.cards.parse_cards` checks them (no card twice; ``plain_jokers``).

        >>> translator("ro").parse_cards("R♠ D♠ V♠ 10♠ A♠")
        [Card.parse('Ks'), Card.parse('Qs'), Card.parse('Js'), Card.parse('Ts'), Card.parse('As')]
        """
        words = text.replace(",", " ").split()
        canonical = [
            word if plain_jokers and word.lower() == "jk" else self._canonical_card_text(word)
            for word in words
        ]
        return parse_cards(canonical, plain_jokers=plain_jokers)

    def parse_rank(self, text: str) -> Rank:
        """A rank as typed by a reader of this language (Romanian ``R`` is the king), as
        :meth:`parse_card` reads the rank of a card.

        >>> translator("ro").parse_rank("r"), translator("ro").parse_rank("10")
        (<Rank.KING: 13>, <Rank.TEN: 10>)
        """
        return self._local_rank(text.strip(), text) or Rank.parse(text)

    def cards(self, cards: Iterable[Card]) -> str:
        """Cards for people, separated by spaces."""
        return " ".join(self.card(card) for card in cards)

    def card_name(self, card: Card) -> str:
        """The card in words, for screen readers: ``"king of hearts"``, ``"joker 1"``."""
        if card.rank is None:
            return self.gettext(N_("joker {number}"), number=int(card) - 51)
        assert card.suit is not None
        suit = self.pgettext("suit in a card name", _SUIT_IN_CARD_NAMES[card.suit])
        return self.gettext(N_("{rank} of {suit}"), rank=self.rank_name(card.rank), suit=suit)

    # -- combinations ------------------------------------------------------------------------

    def category(self, category: Category) -> str:
        """A combination's name: ``"Four/Two"``."""
        return self.gettext(_TITLES[category])

    def value(self, value: Value) -> str:
        """A combination's worth in words; English is exactly ``str(value)``."""
        category = value.category
        names: dict[str, object] = {}
        if category is Category.STRAIGHT_FLUSH:
            names["rank"] = self.rank_name(value.ranks[0])
        elif category is Category.FIVE_OF_A_KIND:
            names["rank"] = self.rank_plural(value.ranks[0])
        else:
            places = _PAIUTE_PLACES if category is Category.PAIUTE else _PLACES
            names.update(zip(places, (self.rank_plural(rank) for rank in value.ranks), strict=False))
        return self.gettext(_VALUE_TEXTS[category], **names)

    # -- errors ------------------------------------------------------------------------------

    def explain(self, error: PaiuteError) -> str:
        """An engine error in this language; a rule explanation keeps its rule ID (``R4.3``).

        A message built without a template (a finished English text) stays English.
        """
        reason = self.gettext(error.message_id, **error.params)
        if isinstance(error, ReplayError):  # deals and moves counted from 1, as people count
            return self.gettext(
                N_('deal {deal}, move {move} "{text}": {rule} {reason}'),
                deal=error.deal + 1,
                move=error.index + 1,
                text=_Verbatim(error.text),
                rule=_Verbatim(error.rule),
                reason=_Verbatim(reason),
            )
        if isinstance(error, IllegalActionError):
            return self.gettext(N_("{rule} {reason}"), rule=_Verbatim(error.rule), reason=_Verbatim(reason))
        return reason


def localized_digits(text: str, tr: Translator) -> str:
    """A number already formatted (``+0.125``, ``12.5%``, ``1,234``) in the reader's digits and
    decimal sign."""
    if tr.lang == "en":
        return text
    sign = tr.number(0.5)[1]
    table = {str(digit): tr.number(digit) for digit in range(10)}
    return "".join(table.get(char, sign if char == "." else char) for char in text)


class _Verbatim(str):
    """A parameter shown exactly as it is (no digits or card letters changed)."""

    __slots__ = ()


class _Local:
    """A message parameter shown in the translator's language: numbers, cards, values."""

    __slots__ = ("translator", "value")

    def __init__(self, translator: Translator, value: object) -> None:
        self.translator = translator
        self.value = value

    def text(self) -> str:
        value, tr = self.value, self.translator
        if isinstance(value, str):
            return value
        if isinstance(value, Card):
            return tr.card(value)
        if isinstance(value, Rank):
            return tr.rank_name(value)
        if isinstance(value, Category):
            return tr.category(value)
        if isinstance(value, Value):
            return tr.value(value)
        if isinstance(value, PaiuteError):  # a nested error: its own message, translated too
            return tr.explain(value)
        if isinstance(value, Message):
            return tr.message(value)
        if isinstance(value, bool):
            return str(value)
        if isinstance(value, int | float):
            return tr.number(value)
        if isinstance(value, list | tuple):
            return " ".join(_Local(tr, item).text() for item in value)
        return str(value)

    def __format__(self, spec: str) -> str:
        return format(self.text(), spec)

    def __repr__(self) -> str:
        # ``{text!r}`` quotes what the user typed: shown as typed, in any language.
        return repr(self.value)


def _check_language(lang: str) -> None:
    if lang not in LANGUAGES:
        raise PaiuteError(
            N_("unknown language {lang!r} (languages: {languages})"),
            lang=lang,
            languages=", ".join(LANGUAGES),
        )


@cache
def translator(lang: str = DEFAULT_LANGUAGE, domain: str = DOMAIN) -> Translator:
    """The translator of ``lang`` (one of :data:`LANGUAGES`), catalogue loaded once.

    ``domain`` picks the catalogue: ``paiute`` (the package's messages) or ``web`` (the pages).
    """
    _check_language(lang)
    catalogue = gettext.translation(domain, LOCALE_DIR, languages=[lang], fallback=True)
    return Translator(lang, catalogue)


def _mo_entries(data: bytes) -> list[tuple[str, str]]:
    """The (original, translation) pairs of a GNU ``.mo`` file, both still NUL-joined."""
    magic = struct.unpack("<I", data[:4])[0]
    order = "<" if magic == 0x950412DE else ">"
    _, count, originals, translations = struct.unpack(order + "4I", data[4:20])
    entries = []
    for index in range(count):
        o_len, o_at = struct.unpack(order + "2I", data[originals + 8 * index : originals + 8 * index + 8])
        t_len, t_at = struct.unpack(
            order + "2I", data[translations + 8 * index : translations + 8 * index + 8]
        )
        entries.append((data[o_at : o_at + o_len].decode(), data[t_at : t_at + t_len].decode()))
    return entries


@cache
def catalogue_json(lang: str, domain: str = WEB_DOMAIN) -> dict[str, object]:
    """A compiled catalogue as JSON for a client (the web pages' ``GET /api/i18n/{lang}``).

    ``{"lang", "nplurals", "plural": the C expression of the catalogue's Plural-Forms,
    "messages": {key: text | [plural forms]}}``; the key is the message's context when it has
    one (every ``web`` message does: strings.js's key), else its English text.
    """
    _check_language(lang)
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.mo"
    messages: dict[str, str | list[str]] = {}
    nplurals, plural = 2, "n != 1"
    for original, translation in _mo_entries(path.read_bytes()):
        if not original:
            match = re.search(r"nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*([^;\n]+)", translation)
            if match:
                nplurals, plural = int(match.group(1)), match.group(2).strip()
            continue
        context, _, msgid = original.rpartition("\x04")
        key = context or msgid.split("\x00")[0]
        forms = translation.split("\x00")
        messages[key] = forms if "\x00" in msgid else forms[0]
    return {"lang": lang, "nplurals": nplurals, "plural": plural, "messages": messages}
