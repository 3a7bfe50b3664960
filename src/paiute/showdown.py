"""What a finished deal reveals (R9.3): every hand, each seat's best combination at its last
turn and whether it could have called it, and the last round turn by turn.

While a deal lasts nobody sees another player's unshown cards (R9.3); once it has ended a table
may show everything, and the end-of-deal summaries of the terminal game do. The deal is replayed
from its dealt deck and recorded stock rebuilds (R4.6), and at each seat's last six-card holding
(after its last draw, R4.2) the engine itself says which calls were legal then: R4.3 (the card
taken from the discard pile), R5.7 (a Paiute after the first turn) and R6.4 (a later call must
equal or beat the highest).

>>> from paiute import Match, RuleSet, SeededChance
>>> from paiute.players import make_player, play_deal
>>> match = Match(RuleSet(), ("Ana", "Bo", "Cy"), chance=SeededChance(10))
>>> deal = play_deal(match, [make_player("greedy", seed=1) for _ in range(3)])
>>> shown = showdown(deal)
>>> [seat.could_call for seat in shown.seats], str(shown.seats[0].call.value)
([True, False, False], 'Five of a Kind, sixes')
>>> print(shown.seats[1].best.value, "-", shown.seats[1].refusal.rule)
Straight Flush, eight high - R6.4
>>> [[str(event.action) for event in turn] for turn in shown.last_round]
[['draw stock', 'call 3c'], ['draw stock', 'discard 4c'], ['draw stock', 'discard 4h']]
"""

from __future__ import annotations

from dataclasses import dataclass

from paiute.actions import CALL_SIX, Action
from paiute.cards import Card
from paiute.chance import RecordedChance
from paiute.deal import CallMade, Deal, Event, Phase
from paiute.errors import N_, IllegalActionError, PaiuteError
from paiute.evaluator import Call

__all__ = ["SeatShowdown", "Showdown", "showdown"]


@dataclass(frozen=True, slots=True)
class SeatShowdown:
    """One seat at the end of a deal.

    ``hand``: the cards it holds at the end (a caller's are in ``call``, R6.5). ``holding``:
    the six cards it held after its last draw (empty if it never held six). ``best``: the best
    call those six cards make (R5), whatever the rules of the moment said; ``legal``: the best
    call it was allowed to make then; ``refusal``: why ``best`` was not allowed, if it was not.
    """

    seat: int
    hand: tuple[Card, ...]
    call: CallMade | None
    holding: tuple[Card, ...]
    best: Call | None
    legal: Call | None
    refusal: IllegalActionError | None

    @property
    def could_call(self) -> bool:
        """It called, or its last holding allowed a call that it did not make."""
        return self.call is not None or self.legal is not None


@dataclass(frozen=True, slots=True)
class Showdown:
    """Every seat's :class:`SeatShowdown`, and the last round (R7.2) as turns of events, from
    the turn of the first call on, every draw shown (R9.3). A dead deal has no last round."""

    seats: tuple[SeatShowdown, ...]
    last_round: tuple[tuple[Event, ...], ...]

    @property
    def cards(self) -> frozenset[Card]:
        """Every card it names (what a screen may show beyond the seat's own view, R9.3)."""
        cards: set[Card] = set()
        for seat in self.seats:
            cards.update(seat.hand, seat.holding)
            if seat.call is not None:
                cards.update(seat.call.shown)
        cards.update(event.card for turn in self.last_round for event in turn if event.card is not None)
        return frozenset(cards)


def _as_action(call: Call) -> Action:
    return CALL_SIX if call.discard is None else Action.call(call.discard)


def _last_turn(deal: Deal) -> tuple[tuple[Card, ...], Call | None, Call | None, IllegalActionError | None]:
    """The seat to act holds six cards: its holding, best call, best legal call and refusal."""
    holding = deal.hand(deal.current_seat)
    evaluator = deal.evaluator
    best = evaluator.best(holding)
    legal: Call | None = None
    for action in deal.legal_actions():
        if not action.kind.is_call:
            continue
        shown = tuple(card for card in holding if card != action.card)
        value = evaluator.value(shown)
        if value is not None and (legal is None or value > legal.value):
            legal = Call(value, shown, action.card)
    refusal = None if best is None else deal.why_illegal(_as_action(best))
    return holding, best, legal, refusal


def _turns(events: tuple[Event, ...]) -> list[tuple[Event, ...]]:
    """Events grouped into turns: each begins with a draw (R4.2)."""
    turns: list[list[Event]] = []
    for event in events:
        if event.action.kind.is_draw or not turns:
            turns.append([])
        turns[-1].append(event)
    return [tuple(turn) for turn in turns]


def showdown(deal: Deal) -> Showdown:
    """What ``deal``, which must be over, reveals (see the module documentation)."""
    if not deal.is_over:
        raise PaiuteError(N_("R9.3 the hands are shown only once the deal is over"))
    replay = Deal(
        deal.rules,
        deal.players,
        deal.dealer,
        deal.deck,
        RecordedChance(deal.rebuild_orders),
        balances=deal.balances,
        pot=deal.pot,
    )
    last: dict[int, tuple[tuple[Card, ...], Call | None, Call | None, IllegalActionError | None]] = {}
    for event in deal.events:
        if replay.phase is Phase.DISCARD:
            last[replay.current_seat] = _last_turn(replay)
        replay.apply(event.action)
    calls = {call.seat: call for call in deal.calls}
    seats = []
    for seat in range(deal.players):
        holding, best, legal, refusal = last.get(seat, ((), None, None, None))
        seats.append(SeatShowdown(seat, deal.hand(seat), calls.get(seat), holding, best, legal, refusal))
    turns = _turns(deal.events)
    first = next((index for index, turn in enumerate(turns) if any(e.call for e in turn)), len(turns))
    return Showdown(tuple(seats), tuple(turns[first:]))
