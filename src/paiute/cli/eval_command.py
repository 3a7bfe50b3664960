"""``paiute eval``: the best combination(s) of five or six cards (R3, R5, R5.10)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Mapping
from typing import Any, BinaryIO, TextIO

from paiute.cards import Card, Rank, format_cards, parse_cards
from paiute.errors import N_, PaiuteError, ParseError, RecordError
from paiute.evaluator import Call, Evaluator
from paiute.i18n import Translator, translator
from paiute.record_file import parse_json
from paiute.rules import RuleSet

_EPILOG = N_("""\
wild cards (R3): --wild RANK makes the four cards of RANK wild; --opposite-of UPCARD makes
only the two cards of the upcard's rank in the other colour wild (R3.3); --jokers makes the
two jokers (written Jk, Jk1, Jk2) the only wild cards (R3.2). Without any of them no card is
wild.

batch form: with no CARDS, read one hand a line from standard input and write one result a
line. A line is either a card list (this command's options apply) or a JSON object:
  {"cards": "3h 3s Ad Ac Ks Kh", "wild": {"rank": "3"}, "royal_high": false}
  "wild" is {"rank": "3"}, {"jokers": true} or {"rank": "3", "colour": "opposite", "upcard": "3d"}

--json output, one line per hand (VALUE as in RECORD.md, best5/best6 only for six cards):
  {"best": VALUE|null, "best5": {"value": VALUE, "discard": "Kh"}|null, "best6": VALUE|null}

examples:
  paiute eval "3h 3s Ad Ac Ks Kh" --wild 3
  paiute eval "9h Th Jh Qh 3c 2s" --wild 3 --json
  printf '%s\\n' "Ks Qs Js Ts Jk" '{"cards": "Ah 2h 3d 4h 5h 9c", "wild": {"rank": "9"}}' | paiute eval --jokers
""")


def register(commands: Any, tr: Translator | None = None) -> None:
    _ = (tr or translator()).gettext
    parser = commands.add_parser(
        "eval",
        help=_(N_("best combination of 5 or 6 cards, with wild cards")),
        description=_(
            N_(
                "Print the best combination five or six shown cards make (R5.10); for six "
                "cards also the best five-card call (with the card put down) and the six-card call."
            )
        ),
        epilog=_(_EPILOG),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "cards", nargs="*", metavar=_(N_("CARDS")), help=_(N_('cards, e.g. "3h 3s Ad Ac Ks Kh"'))
    )
    wild = parser.add_mutually_exclusive_group()
    wild.add_argument("--wild", metavar=_(N_("RANK")), help=_(N_("every card of RANK is wild (R3.1)")))
    wild.add_argument(
        "--jokers", action="store_true", help=_(N_("the two jokers are the only wild cards (R3.2)"))
    )
    parser.add_argument(
        "--opposite-of",
        metavar=_(N_("UPCARD")),
        help=_(N_("only the wild-rank cards of the colour opposite to UPCARD are wild (R3.3)")),
    )
    parser.add_argument(
        "--royal-high", action="store_true", help=_(N_("Royal Flush above Five of a Kind (R5.8)"))
    )
    parser.add_argument("--json", action="store_true", help=_(N_("one JSON object per result")))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    tr: Translator = getattr(args, "translator", None) or translator()
    default = _evaluator_from_options(args.wild, args.jokers, args.opposite_of, args.royal_high, tr)
    if args.cards:
        # Cards as R1.4 writes them, or with the rank letters the language prints (R♠ in Romanian).
        cards = tr.parse_cards(" ".join(args.cards), plain_jokers=True)
        _check_cards(cards, default)
        _write(sys.stdout, cards, default, args.json, tr)
        return 0
    return _batch(sys.stdin, sys.stdout, default, args.json, tr)


#: The longest input line read (a hand with its JSON options needs a few hundred bytes); the
#: rest of a longer line is skipped, never held in memory.
MAX_LINE = 4096


def _lines(source: TextIO | BinaryIO) -> Iterator[tuple[int, str | PaiuteError]]:
    """Each line's number and its text, or the error that makes it unreadable (too long, not
    UTF-8), reading at most :data:`MAX_LINE` bytes of a line."""
    stream = getattr(source, "buffer", None)
    if stream is None:  # a text stream with no bytes below it (tests, scripts)
        yield from enumerate((line for line in source), start=1)
        return
    number = 0
    while True:
        raw: bytes = stream.readline(MAX_LINE + 1)
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):  # skip the rest of the line
                raw = stream.readline(1 << 16)
            yield number, ParseError(N_("the line is longer than {limit} bytes"), limit=MAX_LINE)
            continue
        try:
            yield number, raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError as error:
            yield (
                number,
                ParseError(
                    N_("not UTF-8 text: byte {byte} at column {column}"),
                    byte=f"0x{raw[error.start]:02x}",
                    column=error.start + 1,
                ),
            )


def _batch(
    source: TextIO | BinaryIO, out: TextIO, default: Evaluator, as_json: bool, tr: Translator | None = None
) -> int:
    tr = tr or translator()
    failures = 0
    for number, line in _lines(source):
        text = line if isinstance(line, PaiuteError) else line.strip()
        if not text:
            continue
        try:
            if isinstance(text, PaiuteError):
                raise text
            cards, evaluator = _parse_line(text, default, tr)
            _write(out, cards, evaluator, as_json, tr)
        except PaiuteError as error:
            failures += 1
            if as_json:  # machine-readable: never translated
                out.write(json.dumps({"error": f"line {number}: {error}"}) + "\n")
            else:
                message = tr.gettext(
                    N_("error: line {number}: {message}"), number=number, message=tr.explain(error)
                )
                out.write(message + "\n")
        out.flush()
    return 1 if failures else 0


def _parse_line(text: str, default: Evaluator, tr: Translator) -> tuple[list[Card], Evaluator]:
    if not text.startswith("{"):
        cards = tr.parse_cards(text, plain_jokers=True)
        _check_cards(cards, default)
        return cards, default
    try:
        data = parse_json(text)  # the limits of records: nesting, long numbers, NaN
    except RecordError as error:
        raise ParseError(N_("not a JSON object: {error}"), error=error) from None
    if not isinstance(data, dict) or not isinstance(data.get("cards"), str):
        raise ParseError(N_("expected {shape}"), shape='{"cards": "...", "wild": {...}, "royal_high": false}')
    royal_high = data.get("royal_high", False)
    if not isinstance(royal_high, bool):
        raise ParseError(N_("royal_high must be true or false, not {value!r}"), value=royal_high)
    evaluator = _evaluator_from_json(data.get("wild"), royal_high)
    cards = parse_cards(data["cards"], plain_jokers=True)  # JSON is machine-readable: R1.4 only
    _check_cards(cards, evaluator)
    return cards, evaluator


def _evaluator_from_json(wild: object, royal_high: bool) -> Evaluator:
    if wild is None:
        return Evaluator(royal_high=royal_high)
    if not isinstance(wild, Mapping):
        raise ParseError(N_("wild must be an object, not {value!r}"), value=wild)
    if wild.get("jokers") is True:
        return Evaluator.for_jokers(royal_high=royal_high)
    rank = wild.get("rank")
    if not isinstance(rank, str):
        raise ParseError(
            N_("wild must be {rank}, {jokers} or an opposite-colour object, not {value!r}"),
            rank='{"rank": R}',
            jokers='{"jokers": true}',
            value=dict(wild),
        )
    upcard = None
    if wild.get("colour") == "opposite":
        upcard = wild.get("upcard")
        if not isinstance(upcard, str):
            raise ParseError(N_('wild with "colour": "opposite" needs "upcard": CARD (R3.3)'))
    elif "colour" in wild and wild.get("colour") != "any":
        raise ParseError(N_("unknown wild colour {value!r} (any or opposite)"), value=wild.get("colour"))
    return _evaluator_from_options(rank, False, upcard, royal_high)


def _evaluator_from_options(
    rank_text: str | None,
    jokers: bool,
    upcard_text: str | None,
    royal_high: bool,
    tr: Translator | None = None,
) -> Evaluator:
    # Typed options read the language's rank letters too; JSON lines pass no translator.
    parse_card = Card.parse if tr is None else tr.parse_card
    parse_rank = Rank.parse if tr is None else tr.parse_rank
    if jokers:
        if upcard_text is not None:
            raise ParseError(
                N_("--opposite-of names an upcard; with jokers no upcard is turned (R2.8, R3.2)")
            )
        return Evaluator.for_jokers(royal_high=royal_high)
    if upcard_text is not None:
        upcard = parse_card(upcard_text)
        if upcard.is_joker:
            raise ParseError(N_("the upcard {text!r} cannot be a joker (R2.8)"), text=upcard_text)
        if rank_text is not None and parse_rank(rank_text) != upcard.rank:
            raise ParseError(
                N_("--wild {rank} disagrees with the upcard {text!r}: the upcard's rank is wild (R2.6)"),
                rank=rank_text,
                text=upcard_text,
            )
        wild = RuleSet(wild_colour="opposite").wild_cards(upcard)
        return Evaluator(wild, royal_high=royal_high)
    if rank_text is not None:
        return Evaluator.for_rank(parse_rank(rank_text), royal_high=royal_high)
    return Evaluator(royal_high=royal_high)


def _check_cards(cards: list[Card], evaluator: Evaluator) -> None:
    if len(cards) not in (5, 6):
        raise ParseError(
            N_("a combination is 5 or 6 cards (R5), got {n}: {text!r}"),
            n=len(cards),
            text=format_cards(cards),
        )
    jokers = [card for card in cards if card.is_joker]
    if jokers and not all(joker in evaluator.wild_cards for joker in jokers):
        raise ParseError(N_("jokers are in the pack only with the jokers option: use --jokers (R1.3, R3.2)"))


def evaluate(cards: list[Card], evaluator: Evaluator) -> dict[str, object]:
    """The JSON result of one hand, as ``paiute eval --json`` prints it."""
    if len(cards) == 5:
        value = evaluator.value(cards)
        return {"best": None if value is None else value.to_json()}
    best = evaluator.best(cards)
    five = evaluator.best_five(cards)
    six = evaluator.best_six(cards)
    return {
        "best": None if best is None else best.value.to_json(),
        "best5": None if five is None else {"value": five.value.to_json(), "discard": str(five.discard)},
        "best6": None if six is None else six.value.to_json(),
    }


def _write(
    out: TextIO, cards: list[Card], evaluator: Evaluator, as_json: bool, tr: Translator | None = None
) -> None:
    if as_json:
        out.write(json.dumps(evaluate(cards, evaluator)) + "\n")
        return
    tr = tr or translator()
    _ = tr.gettext
    wild = [card for card in cards if card in evaluator.wild_cards]
    head = tr.cards(cards)
    if wild:
        head = _(N_("{cards}  (wild: {wild})"), cards=head, wild=tr.cards(wild))
    nothing = _(N_("no combination"))
    if len(cards) == 5:
        value = evaluator.value(cards)
        best_text = tr.value(value) if value is not None else nothing
        out.write(head + "\n" + _(N_("  best: {value}"), value=best_text) + "\n")
        return
    best = evaluator.best(cards)
    five = evaluator.best_five(cards)
    six = evaluator.best_six(cards)
    none = _(N_("none"))
    # The three labels line up, whatever their length in the language shown.
    labels = [_(N_("best:")), _(N_("best five:")), _(N_("best six:"))]
    width = max(len(label) for label in labels) + 1
    texts = [
        _call_text(best, tr) if best is not None else nothing,
        _call_text(five, tr) if five is not None else none,
        tr.value(six.value) if six is not None else none,
    ]
    lines = [head, *(f"  {label:<{width}}{text}" for label, text in zip(labels, texts, strict=True))]
    out.write("\n".join(lines) + "\n")


def _call_text(call: Call, tr: Translator) -> str:
    """A call for people: English exactly as ``str(call)``."""
    if call.discard is None:
        return tr.gettext(N_("{value} (show {shown})"), value=call.value, shown=_Canonical(call.shown))
    return tr.gettext(
        N_("{value} (show {shown}, put down {card})"),
        value=call.value,
        shown=_Canonical(call.shown),
        card=_Canonical([call.discard]),
    )


class _Canonical(str):
    """Cards in their canonical text (``Ks Qs``), as in the existing output, in any language."""

    __slots__ = ()

    def __new__(cls, cards: list[Card] | tuple[Card, ...]) -> _Canonical:
        return super().__new__(cls, format_cards(cards))
