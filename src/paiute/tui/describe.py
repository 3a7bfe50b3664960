"""Words and card text for what one seat sees, built only from its Observation (R9).

Nothing here takes a :class:`~paiute.deal.Deal`: every function reads an
:class:`~paiute.observation.Observation` (plus the seat names and the public chip counts),
so a screen built from these texts can show no card its seat may not see. Cards print in the
canonical text of R1.4 (``Th``) or, with ``pretty``, with suit symbols (``T♥``); a wild card
(R3) is marked ``*``.

>>> from paiute import Deal, RuleSet, SeededChance
>>> deal = Deal.new(RuleSet(), players=3, dealer=0, chance=SeededChance(1))
>>> obs = deal.observation(1)
>>> prompt(obs, ("Ana", "Bo", "Cy"))
'Bo, your turn: draw from the stock (s); the discard pile is empty.'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass

from paiute.actions import CALL_SIX, DRAW_DISCARD, DRAW_STOCK, Action, ActionKind
from paiute.cards import Card
from paiute.combos import Category, Value
from paiute.deal import Event
from paiute.errors import N_, IllegalActionError
from paiute.evaluator import Evaluator, Placed, format_arranged
from paiute.events import Phase
from paiute.i18n import NP_, Translator, translator
from paiute.observation import Observation, legal_calls
from paiute.showdown import Showdown


def display_width(text: str) -> int:
    """The columns ``text`` takes on a terminal, to line up columns of names in any script: a
    wide character (East Asian Wide, Fullwidth) takes two, a non-spacing mark (Mn, Me) or a
    format character (Cf) none, anything else one. Unlike ``len()`` (Bengali: more characters
    than columns) and unlike rich's ``cell_len``, which gives a Bengali spacing vowel sign
    (Mc, as the া of আপনার) no column where terminals (xterm, tmux, glibc's wcwidth) give it one.

    >>> display_width("You"), display_width("আপনি"), len("আপনি"), display_width("王")
    (3, 4, 4, 2)
    >>> display_width("ক্ষ")  # the virama (Mn) takes no column
    2
    """
    width = 0
    for char in text:
        if unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


__all__ = [
    "DEFAULT_NAME",
    "HAND_ORDERS",
    "BlockedCall",
    "CallOption",
    "action_text",
    "blocked_calls",
    "call_options",
    "card_text",
    "cards_text",
    "chip_changes",
    "combination_text",
    "deal_summary",
    "display_width",
    "drawn_card",
    "evaluator",
    "event_text",
    "explain",
    "hand_order",
    "last_actions",
    "person_names",
    "prompt",
    "seat_lines",
    "showdown_lines",
    "signed",
    "table_lines",
    "visible_cards",
]

#: The name ``paiute play`` gives a lone person: data in the record, shown translated.
DEFAULT_NAME = "You"
# It is the subject of third-person sentences ("You drew from the stock"): a language whose verb
# agrees with "you" shows a word for "the player" instead (Romanian "Jucătorul a tras").
_DEFAULT_NAME_SHOWN = ("default player name", NP_("default player name", "You"))

Why = Callable[[Action], IllegalActionError | None]


def _tr(tr: Translator | None) -> Translator:
    return translator() if tr is None else tr


def signed(number: int, tr: Translator | None = None) -> str:
    """A change of chips with its sign, in the language's digits: ``+5``, ``-১০``."""
    return ("+" if number >= 0 else "-") + _tr(tr).number(abs(number))


def card_text(
    card: Card, wild: Collection[Card] = (), *, pretty: bool = False, tr: Translator | None = None
) -> str:
    """``Th`` (or, with ``pretty``, the language's face ``T♥``; Romanian ``10♥``), with ``*``
    when the card is wild (R3). The canonical text stays what people type, in every language."""
    text = _tr(tr).card(card) if pretty else str(card)
    return text + "*" if card in wild else text


def cards_text(
    cards: Iterable[Card], wild: Collection[Card] = (), *, pretty: bool = False, tr: Translator | None = None
) -> str:
    return " ".join(card_text(card, wild, pretty=pretty, tr=tr) for card in cards)


def combination_text(placed: Sequence[Placed], *, pretty: bool = False, tr: Translator | None = None) -> str:
    """Shown cards arranged by :meth:`~paiute.evaluator.Evaluator.arrange`, each wild card with
    the card it stands for (R3.4): ``4♠ 5♠ 6♠ 7♠ 2♥→8♠``."""
    tr = _tr(tr)
    return format_arranged(placed, lambda card: card_text(card, pretty=pretty, tr=tr))


def _shown_text(
    shown: Sequence[Card],
    value: Value | None,
    wild: Collection[Card],
    *,
    pretty: bool = False,
    tr: Translator | None = None,
) -> str:
    """A call's shown cards in their natural order, wild cards named (R3.4)."""
    return combination_text(Evaluator(wild).arrange(shown, value), pretty=pretty, tr=tr)


def person_names(
    names: Sequence[str], tr: Translator | None = None, *, bots: Sequence[str | None] = ()
) -> tuple[str, ...]:
    """The seat names as shown: the default name of a lone person (``"You"``, kept in English
    in the record) in the reader's language, and so the name ``paiute play`` gives a bot of a
    level (``"Medium 2"``, where ``bots`` gives that seat the spec ``"medium"``).

    >>> person_names(("You", "Medium 1", "Hard"), translator("ro"), bots=(None, "medium", "hard"))[0]
    'Jucătorul'
    """
    tr = _tr(tr)
    shown = tr.pgettext(*_DEFAULT_NAME_SHOWN)
    result = []
    for seat, name in enumerate(names):
        level = _LEVEL_NAME.fullmatch(name)
        spec = bots[seat] if seat < len(bots) else None
        if name == DEFAULT_NAME:
            name = shown
        elif level is not None and spec is not None and spec.lower() == level.group(1).lower():
            word = tr.pgettext(_LEVEL_CONTEXT, _LEVEL_WORDS[level.group(1)])
            name = word if level.group(2) is None else f"{word} {tr.number(int(level.group(2)))}"
        result.append(name)
    return tuple(result)


# The names paiute play gives the bots of a level (paiute.players.LEVELS), "Medium" or
# "Medium 2" when several share it: data in the record, shown in the reader's language.
_LEVEL_CONTEXT = "bot level"
_LEVEL_WORDS = {
    "Easy": NP_("bot level", "Easy"),
    "Medium": NP_("bot level", "Medium"),
    "Hard": NP_("bot level", "Hard"),
    "Expert": NP_("bot level", "Expert"),
}
_LEVEL_NAME = re.compile(r"(Easy|Medium|Hard|Expert)(?: ([1-9][0-9]?))?")


def explain(error: IllegalActionError, tr: Translator | None = None) -> str:
    """A refusal of the person's own action, with its rule, in the reader's language; the
    acting seat is "you" (the person at the screen), never "seat 0"."""
    return _tr(tr).explain(error.to_actor())


def evaluator(obs: Observation) -> Evaluator:
    """The evaluator for the deal's wild cards (R3) and ``royal_high`` (R5.8)."""
    return Evaluator(obs.wild_cards, royal_high=obs.rules.royal_high)


def drawn_card(obs: Observation) -> Card | None:
    """The card the seat drew this turn, while it holds six (R4.2)."""
    if obs.phase is not Phase.DISCARD or not obs.is_my_turn:
        return None
    for event in reversed(obs.history):
        if event.seat == obs.seat and event.action.kind.is_draw:
            return event.card
    return None


def _sort_key(card: Card) -> tuple[int, int]:
    rank, suit = card.rank, card.suit
    return (99 if rank is None else int(rank), int(card) if suit is None else int(suit))


def _suit_key(card: Card) -> tuple[int, int]:
    rank, suit = _sort_key(card)
    return (suit if card.suit is not None else 99, rank)


#: The orders a person may show the hand in (the ``o`` key, ``sort`` in ``--plain``), the
#: first the default: as dealt (no card moves but the one drawn), by rank, by suit.
HAND_ORDERS = ("dealt", "rank", "suit")


def hand_order(obs: Observation, order: str = "dealt") -> list[Card]:
    """The seat's cards as shown, numbered from 1, in ``order`` (:data:`HAND_ORDERS`).

    ``"rank"`` sorts the whole hand by rank (the jokers last), ``"suit"`` by suit, then rank.
    ``"dealt"``, the default, never re-sorts under the player: the cards dealt are shown by
    rank, and each card drawn since comes after those held (the card just drawn last), each
    keeping its place while it is held. The order follows from the seat's own history alone,
    so it is the same after ``--resume``.

    >>> from paiute import Deal, RuleSet, SeededChance
    >>> from paiute.actions import DRAW_STOCK, Action
    >>> deal = Deal.new(RuleSet(), players=2, dealer=0, chance=SeededChance(1))
    >>> [str(card) for card in hand_order(deal.observation(1))]
    ['5s', '7d', 'Js', 'Kh', 'As']
    >>> drawn = deal.apply(DRAW_STOCK).card
    >>> [str(card) for card in hand_order(deal.observation(1))]
    ['5s', '7d', 'Js', 'Kh', 'As', 'Tc']
    >>> _ = deal.apply(Action.discard(Card.parse("Js")))
    >>> [str(card) for card in hand_order(deal.observation(1))]
    ['5s', '7d', 'Kh', 'As', 'Tc']
    >>> [str(card) for card in hand_order(deal.observation(1), "rank")]
    ['5s', '7d', 'Tc', 'Kh', 'As']
    >>> [str(card) for card in hand_order(deal.observation(1), "suit")]
    ['Tc', '7d', 'Kh', '5s', 'As']
    """
    if obs.seat is None or not obs.hand:  # a spectator, or a caller (R6.5)
        return []
    if order == "rank":
        return sorted(obs.hand, key=_sort_key)
    if order == "suit":
        return sorted(obs.hand, key=_suit_key)
    mine = [
        (event.action.kind.is_draw, event.card)
        for event in obs.history
        if event.seat == obs.seat and event.card is not None
    ]
    dealt = list(obs.hand)
    for is_draw, card in reversed(mine):  # back to the five cards dealt (R2.5)
        if is_draw:
            dealt.remove(card)
        elif card not in dealt:
            dealt.append(card)
    cards = sorted(dealt, key=_sort_key)
    for is_draw, card in mine:
        if is_draw:
            cards.append(card)
        elif card in cards:
            cards.remove(card)
    return cards


@dataclass(frozen=True, slots=True)
class CallOption:
    """A legal call (R6): the action, its value, the cards shown and the card put down."""

    action: Action
    value: Value
    shown: tuple[Card, ...]
    discard: Card | None
    #: The shown cards in natural order, each wild card with the card it stands for (R3.4).
    arranged: tuple[Placed, ...] = ()

    def text(self, wild: Collection[Card] = (), *, pretty: bool = False, tr: Translator | None = None) -> str:
        tr = _tr(tr)
        shown = combination_text(self.arranged, pretty=pretty, tr=tr) if self.arranged else ""
        shown = shown or cards_text(self.shown, wild, pretty=pretty, tr=tr)
        if self.discard is None:
            return tr.gettext(N_("{value}: show {shown} (all six cards)"), value=self.value, shown=shown)
        return tr.gettext(
            N_("{value}: show {shown}, put down {card}"),
            value=self.value,
            shown=shown,
            card=card_text(self.discard, wild, pretty=pretty, tr=tr),
        )


def call_options(obs: Observation) -> list[CallOption]:
    """Every legal call, best first (the first one is the call the UI proposes)."""
    ev = evaluator(obs)
    return [
        CallOption(
            Action.call(call.discard),
            call.value,
            call.shown,
            call.discard,
            ev.arrange(call.shown, call.value),
        )
        for call in legal_calls(obs, ev)
    ]


@dataclass(frozen=True, slots=True)
class BlockedCall:
    """A call the cards make but a rule forbids now: the action, its value, the refusal (with
    its rule) and the note that says so."""

    action: Action
    value: Value
    error: IllegalActionError
    text: str

    @property
    def key(self) -> tuple[str, str]:
        """What the note is about: its rule and combination."""
        return (self.error.rule, self.value.category.value)

    @property
    def lasts(self) -> bool:
        """The refusal holds for the rest of the deal, whatever the player does: a Paiute after
        the first turn (R5.7). A UI tells it on the turn it first holds, not on every later one
        (the others, R4.3 and R6.4, depend on the turn)."""
        return self.error.rule == "R5.7"


def blocked_calls(
    obs: Observation, why: Why, *, pretty: bool = False, tr: Translator | None = None
) -> list[BlockedCall]:
    """Calls the cards make but a rule forbids now (R4.3, R5.7, R6.4), better than any legal
    call, each with the rule and the reason (from :meth:`~paiute.deal.Deal.why_illegal`)."""
    if obs.phase is not Phase.DISCARD or not obs.is_my_turn:
        return []
    tr = _tr(tr)
    wild = obs.wild_cards
    ev = evaluator(obs)
    legal = set(obs.legal_actions)
    best = max((option.value for option in call_options(obs)), default=None)
    notes: list[BlockedCall] = []
    for action in [CALL_SIX, *(Action.call(card) for card in hand_order(obs))]:
        if action in legal:
            continue
        shown = [card for card in obs.hand if card != action.card]
        value = ev.value(shown)
        if value is None or (best is not None and value <= best):
            continue
        error = why(action)
        if error is None:
            continue
        if action.card is None:
            note = tr.gettext(N_("{value}: not allowed, {reason}"), value=value, reason=tr.explain(error))
        else:
            note = tr.gettext(
                N_("{value} putting down {card}: not allowed, {reason}"),
                value=value,
                card=card_text(action.card, wild, pretty=pretty, tr=tr),
                reason=tr.explain(error),
            )
        if all(note != other.text for other in notes):
            notes.append(BlockedCall(action, value, error, note))
    return notes


def action_text(
    action: Action, obs: Observation, *, pretty: bool = False, tr: Translator | None = None
) -> str:
    """An action of ``obs``'s seat in words (for hints and confirmations)."""
    tr = _tr(tr)
    wild = obs.wild_cards
    kind = action.kind
    if kind is ActionKind.DRAW_STOCK:
        return tr.gettext(N_("draw from the stock"))
    if kind is ActionKind.DRAW_DISCARD:
        top = obs.discard_pile[-1] if obs.discard_pile else None
        if top is None:
            return tr.gettext(N_("take the top of the discard pile"))
        return tr.gettext(
            N_("take the top of the discard pile ({card})"), card=card_text(top, wild, pretty=pretty, tr=tr)
        )
    if kind is ActionKind.DISCARD:
        assert action.card is not None
        return tr.gettext(N_("discard {card}"), card=card_text(action.card, wild, pretty=pretty, tr=tr))
    shown = [card for card in obs.hand if card != action.card]
    value = evaluator(obs).value(shown)
    if action.card is None:
        return tr.gettext(N_("call {value} with all six cards"), value=value)
    return tr.gettext(
        N_("call {value}, putting down {card}"),
        value=value,
        card=card_text(action.card, wild, pretty=pretty, tr=tr),
    )


def event_text(
    event: Event,
    names: Sequence[str],
    wild: Collection[Card] = (),
    *,
    pretty: bool = False,
    tr: Translator | None = None,
) -> str:
    """One event of an observation's history, in words (private draws stay private, R9)."""
    tr = _tr(tr)
    who = names[event.seat]
    kind = event.action.kind

    def show(card: Card) -> str:
        return card_text(card, wild, pretty=pretty, tr=tr)

    if kind is ActionKind.DRAW_STOCK:
        if event.ends_deal and event.card is None:
            return tr.gettext(
                N_("{who} would need another stock rebuild: dead deal (R4.7), nobody wins"), who=who
            )
        if event.card is not None:
            text = tr.gettext(N_("{who} drew from the stock: {card}"), who=who, card=show(event.card))
        else:
            text = tr.gettext(N_("{who} drew from the stock"), who=who)
        if event.rebuilt:
            text = tr.ngettext(
                "the stock was rebuilt from {n} discard (R4.6); {text}",
                "the stock was rebuilt from {n} discards (R4.6); {text}",
                event.rebuilt,
                text=text,
            )
        return text
    if kind is ActionKind.DRAW_DISCARD:
        assert event.card is not None
        return tr.gettext(N_("{who} took {card} from the discard pile"), who=who, card=show(event.card))
    if kind is ActionKind.DISCARD:
        assert event.card is not None
        return tr.gettext(N_("{who} discarded {card}"), who=who, card=show(event.card))
    call = event.call
    assert call is not None
    shown = _shown_text(call.shown, call.value, wild, pretty=pretty, tr=tr)
    if call.discard is not None:
        return tr.gettext(
            N_("{who} called {value}: {shown}, put down {card}"),
            who=who,
            value=call.value,
            shown=shown,
            card=show(call.discard),
        )
    return tr.gettext(N_("{who} called {value}: {shown}"), who=who, value=call.value, shown=shown)


def last_actions(obs: Observation, *, pretty: bool = False, tr: Translator | None = None) -> dict[int, str]:
    """Each seat's latest turn of the deal, briefly: ``"took K♥, discarded 2♠"``."""
    tr = _tr(tr)
    wild = obs.wild_cards

    def show(card: Card) -> str:
        return card_text(card, wild, pretty=pretty, tr=tr)

    turns: dict[int, list[str]] = {}
    for event in obs.history:
        kind = event.action.kind
        if kind is ActionKind.DRAW_STOCK:
            if event.ends_deal and event.card is None:
                turns[event.seat] = [tr.gettext(N_("dead deal (R4.7)"))]
            elif event.card is not None and event.seat == obs.seat:
                turns[event.seat] = [tr.gettext(N_("drew {card}"), card=show(event.card))]
            elif event.card is not None:
                turns[event.seat] = [tr.gettext(N_("drew the upcard {card}"), card=show(event.card))]
            else:
                turns[event.seat] = [tr.gettext(N_("drew from the stock"))]
        elif kind is ActionKind.DRAW_DISCARD:
            assert event.card is not None
            turns[event.seat] = [tr.gettext(N_("took {card}"), card=show(event.card))]
        elif kind is ActionKind.DISCARD:
            assert event.card is not None
            turns.setdefault(event.seat, []).append(tr.gettext(N_("discarded {card}"), card=show(event.card)))
        elif event.call is not None:
            turns.setdefault(event.seat, []).append(tr.gettext(N_("called {value}"), value=event.call.value))
    # A list of one seat's moves, joined the way the language lists them.
    separator = tr.gettext(N_(", "))
    return {seat: separator.join(parts) for seat, parts in turns.items()}


def seat_lines(
    obs: Observation,
    names: Sequence[str],
    balances: Sequence[int],
    *,
    pretty: bool = False,
    tr: Translator | None = None,
) -> list[str]:
    """One line per seat: turn marker, name, chips, cards held, dealer, last action,
    the cards everyone has seen it take (R4.5) and its call (R6.5)."""
    tr = _tr(tr)
    wild = obs.wild_cards
    width = max(display_width(name) for name in names)
    last = last_actions(obs, pretty=pretty, tr=tr)
    calls = {call.seat: call for call in obs.calls}
    dealer_mark = tr.pgettext("dealer mark", "D")
    lines = []
    for seat, name in enumerate(names):
        marker = ">" if seat == obs.current_seat and obs.phase is not Phase.OVER else " "
        dealer = dealer_mark if seat == obs.dealer else " " * len(dealer_mark)
        you = "*" if seat == obs.seat else " "
        held = obs.hand_sizes[seat]
        text = (
            marker
            + you
            + tr.ngettext(
                "{name} {chips} chips {held} card {dealer}",
                "{name} {chips} chips {held} cards {dealer}",
                held,
                name=name + " " * (width - display_width(name)),
                chips=tr.number(balances[seat]).rjust(4),
                held=held,
                dealer=dealer,
            )
        )
        extra = []
        if seat in calls:
            call = calls[seat]
            extra.append(
                tr.gettext(
                    N_("CALLED {value}: {shown}"),
                    value=call.value,
                    shown=_shown_text(call.shown, call.value, wild, pretty=pretty, tr=tr),
                )
            )
        elif seat in last:
            extra.append(last[seat])
        known = obs.known_cards[seat]
        if known and seat != obs.seat:
            extra.append(tr.gettext(N_("holds {cards}"), cards=cards_text(known, wild, pretty=pretty, tr=tr)))
        lines.append(f"{text}  {'; '.join(extra)}".rstrip())
    return lines


def table_lines(
    obs: Observation, names: Sequence[str], *, pretty: bool = False, tr: Translator | None = None
) -> list[str]:
    """The table: upcard and wild cards (R2.6, R3), dealer, stock (R2.7), discard pile
    (R4.5), pot (R8.2) and, once someone has called, the last round (R7.2)."""
    tr = _tr(tr)
    wild = obs.wild_cards
    if obs.upcard is None:
        upcard = tr.gettext(N_("Wild: {cards} (jokers, R3.2)"), cards=cards_text(wild, pretty=pretty, tr=tr))
    else:
        rank = obs.upcard.rank
        assert rank is not None
        upcard = tr.gettext(
            N_("Upcard {card}, wild {ranks}: {cards}"),
            card=card_text(obs.upcard, wild, pretty=pretty, tr=tr),
            ranks=tr.rank_plural(rank),
            cards=cards_text(wild, pretty=pretty, tr=tr),
        )
    if obs.stock_bottom is not None and obs.rebuilds:
        stock = tr.gettext(
            N_("Stock {n} (upcard at the bottom) (rebuilt {times}x)"), n=obs.stock_size, times=obs.rebuilds
        )
    elif obs.stock_bottom is not None:
        stock = tr.gettext(N_("Stock {n} (upcard at the bottom)"), n=obs.stock_size)
    elif obs.rebuilds:
        stock = tr.gettext(N_("Stock {n} (rebuilt {times}x)"), n=obs.stock_size, times=obs.rebuilds)
    else:
        stock = tr.gettext(N_("Stock {n}"), n=obs.stock_size)
    pile = obs.discard_pile
    if pile:
        discard = tr.ngettext(
            "discard pile {card} ({n} card)",
            "discard pile {card} ({n} cards)",
            len(pile),
            card=card_text(pile[-1], wild, pretty=pretty, tr=tr),
        )
    else:
        discard = tr.gettext(N_("discard pile empty"))
    lines = [
        tr.gettext(N_("{upcard}. Dealer {dealer}."), upcard=upcard, dealer=names[obs.dealer]),
        tr.gettext(N_("{stock}, {discard}, pot {pot}."), stock=stock, discard=discard, pot=obs.pot),
    ]
    if obs.highest_call is not None and obs.phase is not Phase.OVER:
        lines.append(
            tr.gettext(N_("Last round (R7.2): equal or beat {value} (R6.4)."), value=obs.highest_call)
        )
    return lines


def prompt(obs: Observation, names: Sequence[str], *, tr: Translator | None = None) -> str:
    """What the seat is to do now, in one line (cards in the canonical text people type)."""
    tr = _tr(tr)
    if obs.phase is Phase.OVER:
        return tr.gettext(N_("The deal is over."))
    if not obs.is_my_turn:
        return tr.gettext(N_("Waiting for {who}."), who=names[obs.current_seat])
    who = names[obs.current_seat]
    if obs.phase is Phase.DRAW:
        if DRAW_DISCARD in obs.legal_actions:
            top = card_text(obs.discard_pile[-1], obs.wild_cards)
            if DRAW_STOCK not in obs.legal_actions:
                return tr.gettext(
                    N_("{who}, your turn: draw from the discard pile (d: {card})."), who=who, card=top
                )
            return tr.gettext(
                N_("{who}, your turn: draw from the stock (s) or the discard pile (d: {card})."),
                who=who,
                card=top,
            )
        return tr.gettext(
            N_("{who}, your turn: draw from the stock (s); the discard pile is empty."), who=who
        )
    can_call = any(action.kind.is_call for action in obs.legal_actions)
    if obs.taken_card is not None:
        taken = card_text(obs.taken_card, obs.wild_cards)
        if can_call:
            return tr.gettext(
                N_(
                    "{who}, discard a card (x CARD, or its number) or call (c); {card} came from the "
                    "discard pile and may not go back (R4.3)."
                ),
                who=who,
                card=taken,
            )
        return tr.gettext(
            N_(
                "{who}, discard a card (x CARD, or its number); {card} came from the discard pile "
                "and may not go back (R4.3)."
            ),
            who=who,
            card=taken,
        )
    if can_call:
        return tr.gettext(N_("{who}, discard a card (x CARD, or its number) or call (c)."), who=who)
    return tr.gettext(N_("{who}, discard a card (x CARD, or its number)."), who=who)


def deal_summary(
    obs: Observation,
    names: Sequence[str],
    before: Sequence[int],
    after: Sequence[int],
    pot_after: int,
    *,
    reveal: Showdown | None = None,
    pretty: bool = False,
    tr: Translator | None = None,
) -> list[str]:
    """The end of a deal: every call with its value and what its wild cards stood for (R3.4),
    the winners, chips won and paid, balances and pot (R8). ``before`` is every balance before
    the stakes were paid. With ``reveal`` (R9.3: only once the deal is over) also every hand
    and the last round turn by turn (:func:`showdown_lines`)."""
    tr = _tr(tr)
    wild = obs.wild_cards
    outcome = obs.outcome
    lines: list[str] = []
    if outcome is None:
        return [tr.gettext(N_("The deal is not over."))]
    if outcome.dead:
        lines.append(
            tr.ngettext(
                "Dead deal (R4.7): nobody wins; the pot of {n} chip stays for the next deal (R8.5).",
                "Dead deal (R4.7): nobody wins; the pot of {n} chips stays for the next deal (R8.5).",
                pot_after,
            )
        )
    for call in outcome.calls:
        params: dict[str, object] = {
            "who": names[call.seat],
            "value": call.value,
            "shown": _shown_text(call.shown, call.value, wild, pretty=pretty, tr=tr),
        }
        if call.discard is not None:
            params["card"] = card_text(call.discard, wild, pretty=pretty, tr=tr)
            message = (
                N_("{who} called {value} (first turn): {shown}, put down {card}")
                if call.first_turn
                else N_("{who} called {value}: {shown}, put down {card}")
            )
        else:
            message = (
                N_("{who} called {value} (first turn): {shown}")
                if call.first_turn
                else N_("{who} called {value}: {shown}")
            )
        lines.append(tr.gettext(message, **params))
    if not outcome.dead:
        if not outcome.winners:
            lines.append(tr.gettext(N_("Nobody won.")))
        elif len(outcome.winners) == 1:
            lines.append(
                tr.gettext(
                    N_("Winner: {who} with {value}."), who=names[outcome.winners[0]], value=outcome.best
                )
            )
        else:
            winners = tr.gettext(N_(", ")).join(names[seat] for seat in outcome.winners)
            lines.append(
                tr.gettext(N_("Winners (tie, R8.3): {who} with {value}."), who=winners, value=outcome.best)
            )
    lines.append(
        tr.gettext(
            N_("Chips: {changes}; pot {pot}."), changes=chip_changes(names, before, after, tr), pot=pot_after
        )
    )
    if reveal is not None:
        lines += ["", *showdown_lines(reveal, names, wild, pretty=pretty, tr=tr)]
    return lines


def _move_text(event: Event, wild: Collection[Card], *, pretty: bool, tr: Translator) -> str:
    """One move of a finished deal, every card shown (R9.3): ``drew K♥``, ``discarded 2♠``."""
    kind = event.action.kind

    def show(card: Card) -> str:
        return card_text(card, wild, pretty=pretty, tr=tr)

    if kind is ActionKind.DRAW_STOCK:
        if event.card is None:
            return tr.gettext(N_("dead deal (R4.7)"))
        if event.rebuilt:
            return tr.gettext(N_("drew {card} from a rebuilt stock (R4.6)"), card=show(event.card))
        return tr.gettext(N_("drew {card}"), card=show(event.card))
    if kind is ActionKind.DRAW_DISCARD:
        assert event.card is not None
        return tr.gettext(N_("took {card}"), card=show(event.card))
    if kind is ActionKind.DISCARD:
        assert event.card is not None
        return tr.gettext(N_("discarded {card}"), card=show(event.card))
    call = event.call
    assert call is not None
    shown = _shown_text(call.shown, call.value, wild, pretty=pretty, tr=tr)
    if call.discard is None:
        return tr.gettext(N_("called {value}: {shown}"), value=call.value, shown=shown)
    return tr.gettext(
        N_("called {value}: {shown}, put down {card}"), value=call.value, shown=shown, card=show(call.discard)
    )


def showdown_lines(
    reveal: Showdown,
    names: Sequence[str],
    wild: Collection[Card],
    *,
    pretty: bool = False,
    tr: Translator | None = None,
) -> list[str]:
    """What the finished deal reveals (R9.3), in words: every hand with the best combination of
    its last six-card holding and whether it could have been called (R4.3, R5.7, R6.4), then
    the last round (R7.2) turn by turn."""
    tr = _tr(tr)
    width = max(display_width(name) for name in names)
    lines = [tr.gettext(N_("Every hand (R9.3: nothing is hidden once the deal is over):"))]
    for seat in reveal.seats:
        name = names[seat.seat] + " " * (width - display_width(names[seat.seat]))
        if seat.call is not None:
            lines.append("  " + tr.gettext(N_("{name}  called {value}"), name=name, value=seat.call.value))
            continue
        hand = cards_text(sorted(seat.hand, key=_sort_key), wild, pretty=pretty, tr=tr)
        lines.append("  " + tr.gettext(N_("{name}  {hand}"), name=name, hand=hand))
        if not seat.holding:
            note = tr.gettext(N_("never held six cards"))
        elif seat.legal is not None:
            note = tr.gettext(
                N_("last turn: could have called {value}: {shown}"),
                value=seat.legal.value,
                shown=_shown_text(seat.legal.shown, seat.legal.value, wild, pretty=pretty, tr=tr),
            )
        elif seat.best is not None and seat.refusal is not None:
            note = tr.gettext(
                N_("last turn: {value} ({shown}), not allowed: {reason}"),
                value=seat.best.value,
                shown=_shown_text(seat.best.shown, seat.best.value, wild, pretty=pretty, tr=tr),
                reason=tr.explain(seat.refusal),
            )
        else:
            note = tr.gettext(N_("last turn: no combination"))
        # The note under the hand, indented past the names: short lines that wrap less.
        lines.append(" " * (width + 4) + note)
    if reveal.last_round:
        lines.append(tr.gettext(N_("The last round, turn by turn (R7.2):")))
        separator = tr.gettext(N_(", "))
        for turn in reveal.last_round:
            moves = separator.join(_move_text(event, wild, pretty=pretty, tr=tr) for event in turn)
            lines.append("  " + tr.gettext(N_("{who}: {moves}"), who=names[turn[0].seat], moves=moves))
    return lines


def chip_changes(
    names: Sequence[str], before: Sequence[int], after: Sequence[int], tr: Translator | None = None
) -> str:
    """``"Ana 105 (+5), Bo 95 (-5)"``: each seat's chips and their change."""
    tr = _tr(tr)
    return tr.gettext(N_(", ")).join(
        tr.gettext(
            N_("{name} {chips} ({change})"),
            name=name,
            chips=after[seat],
            change=signed(after[seat] - before[seat], tr),
        )
        for seat, name in enumerate(names)
    )


def visible_cards(obs: Observation) -> set[Card]:
    """Every card ``obs`` shows its seat (R9.1, R9.2): what a screen for it may name."""
    cards: set[Card] = set(obs.hand) | set(obs.discard_pile) | set(obs.wild_cards)
    for card in (obs.upcard, obs.stock_bottom, obs.initial_discard, obs.taken_card):
        if card is not None:
            cards.add(card)
    for known in obs.known_cards:
        cards.update(known)
    for call in obs.calls:
        cards.update(call.shown)
        if call.discard is not None:
            cards.add(call.discard)
    for event in obs.history:
        if event.card is not None:
            cards.add(event.card)
    return cards


# The categories of R5, best first, for the help screen's table.
CATEGORIES: tuple[Category, ...] = tuple(reversed(Category))
