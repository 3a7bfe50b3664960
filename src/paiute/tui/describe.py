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

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass

from paiute.actions import CALL_SIX, DRAW_DISCARD, DRAW_STOCK, Action, ActionKind
from paiute.cards import Card
from paiute.combos import Category, Value
from paiute.deal import Event
from paiute.errors import IllegalActionError
from paiute.evaluator import Evaluator
from paiute.observation import Observation

__all__ = [
    "CallOption",
    "action_text",
    "blocked_calls",
    "call_options",
    "card_text",
    "cards_text",
    "deal_summary",
    "drawn_card",
    "evaluator",
    "event_text",
    "hand_order",
    "last_actions",
    "prompt",
    "seat_lines",
    "table_lines",
    "visible_cards",
]

Why = Callable[[Action], IllegalActionError | None]


def card_text(card: Card, wild: Collection[Card] = (), *, pretty: bool = False) -> str:
    """``Th`` (or ``T♥``), with ``*`` when the card is wild (R3)."""
    text = card.pretty() if pretty else str(card)
    return text + "*" if card in wild else text


def cards_text(cards: Iterable[Card], wild: Collection[Card] = (), *, pretty: bool = False) -> str:
    return " ".join(card_text(card, wild, pretty=pretty) for card in cards)


def evaluator(obs: Observation) -> Evaluator:
    """The evaluator for the deal's wild cards (R3) and ``royal_high`` (R5.8)."""
    return Evaluator(obs.wild_cards, royal_high=obs.rules.royal_high)


def drawn_card(obs: Observation) -> Card | None:
    """The card the seat drew this turn, while it holds six (R4.2)."""
    if obs.phase != "discard" or not obs.is_my_turn:
        return None
    for event in reversed(obs.history):
        if event.seat == obs.seat and event.action.kind.is_draw:
            return event.card
    return None


def _sort_key(card: Card) -> tuple[int, int]:
    rank, suit = card.rank, card.suit
    return (99 if rank is None else int(rank), int(card) if suit is None else int(suit))


def hand_order(obs: Observation) -> list[Card]:
    """The seat's cards as shown, numbered from 1: by rank, the card just drawn last."""
    drawn = drawn_card(obs)
    cards = sorted((card for card in obs.hand if card != drawn), key=_sort_key)
    if drawn is not None and drawn in obs.hand:
        cards.append(drawn)
    return cards


@dataclass(frozen=True, slots=True)
class CallOption:
    """A legal call (R6): the action, its value, the cards shown and the card put down."""

    action: Action
    value: Value
    shown: tuple[Card, ...]
    discard: Card | None

    def text(self, wild: Collection[Card] = (), *, pretty: bool = False) -> str:
        shown = cards_text(self.shown, wild, pretty=pretty)
        if self.discard is None:
            return f"{self.value}: show {shown} (all six cards)"
        return f"{self.value}: show {shown}, put down {card_text(self.discard, wild, pretty=pretty)}"


def call_options(obs: Observation) -> list[CallOption]:
    """Every legal call, best first (the first one is the call the UI proposes)."""
    ev = evaluator(obs)
    options = []
    for action in obs.legal_actions:
        if not action.kind.is_call:
            continue
        shown = tuple(card for card in obs.hand if card != action.card)
        value = ev.value(shown)
        if value is not None:
            options.append(CallOption(action, value, shown, action.card))
    options.sort(key=lambda option: option.value, reverse=True)
    return options


def blocked_calls(obs: Observation, why: Why, *, pretty: bool = False) -> list[str]:
    """Calls the cards make but a rule forbids now (R4.3, R5.7, R6.4), better than any legal
    call, each with the rule and the reason (from :meth:`~paiute.deal.Deal.why_illegal`)."""
    if obs.phase != "discard" or not obs.is_my_turn:
        return []
    wild = obs.wild_cards
    ev = evaluator(obs)
    legal = set(obs.legal_actions)
    best = max((option.value for option in call_options(obs)), default=None)
    notes: list[str] = []
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
        what = (
            f"{value}"
            if action.card is None
            else f"{value} putting down {card_text(action.card, wild, pretty=pretty)}"
        )
        note = f"{what}: not allowed, {error.rule} {error.reason}"
        if note not in notes:
            notes.append(note)
    return notes


def action_text(action: Action, obs: Observation, *, pretty: bool = False) -> str:
    """An action of ``obs``'s seat in words (for hints and confirmations)."""
    wild = obs.wild_cards
    kind = action.kind
    if kind is ActionKind.DRAW_STOCK:
        return "draw from the stock"
    if kind is ActionKind.DRAW_DISCARD:
        top = obs.discard_pile[-1] if obs.discard_pile else None
        return "take the top of the discard pile" + (
            "" if top is None else f" ({card_text(top, wild, pretty=pretty)})"
        )
    if kind is ActionKind.DISCARD:
        assert action.card is not None
        return f"discard {card_text(action.card, wild, pretty=pretty)}"
    shown = [card for card in obs.hand if card != action.card]
    value = evaluator(obs).value(shown)
    if action.card is None:
        return f"call {value} with all six cards"
    return f"call {value}, putting down {card_text(action.card, wild, pretty=pretty)}"


def event_text(
    event: Event, names: Sequence[str], wild: Collection[Card] = (), *, pretty: bool = False
) -> str:
    """One event of an observation's history, in words (private draws stay private, R9)."""
    who = names[event.seat]
    kind = event.action.kind

    def show(card: Card) -> str:
        return card_text(card, wild, pretty=pretty)

    if kind is ActionKind.DRAW_STOCK:
        if event.ends_deal and event.card is None:
            return f"{who} would need another stock rebuild: dead deal (R4.7), nobody wins"
        text = f"{who} drew from the stock"
        if event.card is not None:
            text += f": {show(event.card)}"
        if event.rebuilt:
            text = f"the stock was rebuilt from {event.rebuilt} discards (R4.6); {text}"
        return text
    if kind is ActionKind.DRAW_DISCARD:
        assert event.card is not None
        return f"{who} took {show(event.card)} from the discard pile"
    if kind is ActionKind.DISCARD:
        assert event.card is not None
        return f"{who} discarded {show(event.card)}"
    call = event.call
    assert call is not None
    text = f"{who} called {call.value}: {cards_text(call.shown, wild, pretty=pretty)}"
    if call.discard is not None:
        text += f", put down {show(call.discard)}"
    return text


def last_actions(obs: Observation, *, pretty: bool = False) -> dict[int, str]:
    """Each seat's latest turn of the deal, briefly: ``"took K♥, discarded 2♠"``."""
    wild = obs.wild_cards
    turns: dict[int, list[str]] = {}
    for event in obs.history:
        kind = event.action.kind
        if kind is ActionKind.DRAW_STOCK:
            if event.ends_deal and event.card is None:
                turns[event.seat] = ["dead deal (R4.7)"]
            elif event.card is not None and event.seat == obs.seat:
                turns[event.seat] = [f"drew {card_text(event.card, wild, pretty=pretty)}"]
            elif event.card is not None:
                turns[event.seat] = [f"drew the upcard {card_text(event.card, wild, pretty=pretty)}"]
            else:
                turns[event.seat] = ["drew from the stock"]
        elif kind is ActionKind.DRAW_DISCARD:
            assert event.card is not None
            turns[event.seat] = [f"took {card_text(event.card, wild, pretty=pretty)}"]
        elif kind is ActionKind.DISCARD:
            assert event.card is not None
            turns.setdefault(event.seat, []).append(f"discarded {card_text(event.card, wild, pretty=pretty)}")
        elif event.call is not None:
            turns.setdefault(event.seat, []).append(f"called {event.call.value}")
    return {seat: ", ".join(parts) for seat, parts in turns.items()}


def seat_lines(
    obs: Observation,
    names: Sequence[str],
    balances: Sequence[int],
    *,
    pretty: bool = False,
) -> list[str]:
    """One line per seat: turn marker, name, chips, cards held, dealer, last action,
    the cards everyone has seen it take (R4.5) and its call (R6.5)."""
    wild = obs.wild_cards
    width = max(len(name) for name in names)
    last = last_actions(obs, pretty=pretty)
    calls = {call.seat: call for call in obs.calls}
    lines = []
    for seat, name in enumerate(names):
        marker = ">" if seat == obs.current_seat and obs.phase != "over" else " "
        dealer = "D" if seat == obs.dealer else " "
        you = "*" if seat == obs.seat else " "
        held = obs.hand_sizes[seat]
        text = f"{marker}{you}{name:<{width}} {balances[seat]:>4} chips {held} cards {dealer}"
        extra = []
        if seat in calls:
            call = calls[seat]
            extra.append(f"CALLED {call.value}: {cards_text(call.shown, wild, pretty=pretty)}")
        elif seat in last:
            extra.append(last[seat])
        known = obs.known_cards[seat]
        if known and seat != obs.seat:
            extra.append(f"holds {cards_text(known, wild, pretty=pretty)}")
        lines.append(f"{text}  {'; '.join(extra)}".rstrip())
    return lines


def table_lines(obs: Observation, names: Sequence[str], *, pretty: bool = False) -> list[str]:
    """The table: upcard and wild cards (R2.6, R3), dealer, stock (R2.7), discard pile
    (R4.5), pot (R8.2) and, once someone has called, the last round (R7.2)."""
    wild = obs.wild_cards
    if obs.upcard is None:
        upcard = f"Wild: {cards_text(wild, pretty=pretty)} (jokers, R3.2)"
    else:
        rank = obs.upcard.rank
        assert rank is not None
        upcard = (
            f"Upcard {card_text(obs.upcard, wild, pretty=pretty)}, wild {rank.plural}: "
            f"{cards_text(wild, pretty=pretty)}"
        )
    stock = f"Stock {obs.stock_size}"
    if obs.stock_bottom is not None:
        stock += " (upcard at the bottom)"
    if obs.rebuilds:
        stock += f" (rebuilt {obs.rebuilds}x)"
    pile = obs.discard_pile
    if pile:
        size = f"{len(pile)} card{'' if len(pile) == 1 else 's'}"
        discard = f"discard pile {card_text(pile[-1], wild, pretty=pretty)} ({size})"
    else:
        discard = "discard pile empty"
    lines = [f"{upcard}. Dealer {names[obs.dealer]}.", f"{stock}, {discard}, pot {obs.pot}."]
    if obs.highest_call is not None and obs.phase != "over":
        lines.append(f"Last round (R7.2): equal or beat {obs.highest_call} (R6.4).")
    return lines


def prompt(obs: Observation, names: Sequence[str]) -> str:
    """What the seat is to do now, in one line."""
    if obs.phase == "over":
        return "The deal is over."
    if not obs.is_my_turn:
        return f"Waiting for {names[obs.current_seat]}."
    who = names[obs.current_seat]
    if obs.phase == "draw":
        if DRAW_DISCARD in obs.legal_actions:
            top = obs.discard_pile[-1]
            where = f"the stock (s) or the discard pile (d: {card_text(top, obs.wild_cards)})"
            if DRAW_STOCK not in obs.legal_actions:
                where = f"the discard pile (d: {card_text(top, obs.wild_cards)})"
            return f"{who}, your turn: draw from {where}."
        return f"{who}, your turn: draw from the stock (s); the discard pile is empty."
    text = f"{who}, discard a card (x CARD, or its number)"
    if any(action.kind.is_call for action in obs.legal_actions):
        text += " or call (c)"
    if obs.taken_card is not None:
        text += f"; {card_text(obs.taken_card, obs.wild_cards)} came from the discard pile and may not go back (R4.3)"
    return text + "."


def deal_summary(
    obs: Observation,
    names: Sequence[str],
    before: Sequence[int],
    after: Sequence[int],
    pot_after: int,
    *,
    pretty: bool = False,
) -> list[str]:
    """The end of a deal: every call with its value, the winners, chips won and paid,
    balances and pot (R8). ``before`` is every balance before the stakes were paid."""
    wild = obs.wild_cards
    outcome = obs.outcome
    lines: list[str] = []
    if outcome is None:
        return ["The deal is not over."]
    if outcome.dead:
        lines.append(
            f"Dead deal (R4.7): nobody wins; the pot of {pot_after} chips stays for the next deal (R8.5)."
        )
    for call in outcome.calls:
        turn = " (first turn)" if call.first_turn else ""
        put = "" if call.discard is None else f", put down {card_text(call.discard, wild, pretty=pretty)}"
        lines.append(
            f"{names[call.seat]} called {call.value}{turn}: {cards_text(call.shown, wild, pretty=pretty)}{put}"
        )
    if not outcome.dead:
        if not outcome.winners:
            lines.append("Nobody won.")
        elif len(outcome.winners) == 1:
            lines.append(f"Winner: {names[outcome.winners[0]]} with {outcome.best}.")
        else:
            winners = ", ".join(names[seat] for seat in outcome.winners)
            lines.append(f"Winners (tie, R8.3): {winners} with {outcome.best}.")
    changes = []
    for seat, name in enumerate(names):
        delta = after[seat] - before[seat]
        changes.append(f"{name} {after[seat]} ({delta:+d})")
    lines.append("Chips: " + ", ".join(changes) + f"; pot {pot_after}.")
    return lines


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
