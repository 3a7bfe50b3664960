"""The facts of a simulated deal and the estimates over many (R4.7, R5, R6, R7, R8).

:class:`DealFacts` is what one deal came to; a :class:`Fact` extracts one value from it
(:func:`fact_definitions` lists them all), and :func:`estimate` turns the values over a run
into a rate with a Wilson 95% interval or a mean with a normal 95% interval.

>>> normal_interval([1.0, 2.0, 3.0]).value
2.0
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from paiute.analysis.odds import category_order, wilson
from paiute.combos import Category
from paiute.errors import N_, Message

__all__ = [
    "Z95",
    "CallFact",
    "DealFacts",
    "Difference",
    "Estimate",
    "Fact",
    "estimate",
    "fact_definitions",
    "fact_values",
    "normal_interval",
    "quantiles",
]

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval


@dataclass(frozen=True, slots=True)
class CallFact:
    """One call (R6): the seat, its category and code, whether it was the caller's first turn
    (R5.7), and the deal turn it was made on (1 = the first turn of the deal)."""

    seat: int
    category: Category
    code: int
    first_turn: bool
    turn: int


@dataclass(frozen=True, slots=True)
class DealFacts:
    """What one simulated deal came to. ``net[seat]``: chips won or lost, stake included
    (R8); ``pot``: chips left in the pot (a dead deal's, R8.5)."""

    index: int
    dealer: int
    actions: int
    turns: int  # draws that drew a card (a dead deal's last draw draws nothing, R4.7)
    dead: bool
    rebuilds: int
    calls: tuple[CallFact, ...]
    winners: tuple[int, ...]
    net: tuple[int, ...]
    pot: int

    @property
    def players(self) -> int:
        return len(self.net)

    @property
    def best_code(self) -> int:
        return max((call.code for call in self.calls), default=0)

    def edge(self, seat: int) -> float:
        """Chips won or lost, plus an equal share of a pot left on the table (R8.5)."""
        return self.net[seat] + self.pot / self.players

    def position(self, seat: int) -> int:
        """0 for the dealer's left (plays first) … players - 1 for the dealer."""
        return (seat - self.dealer - 1) % self.players


@dataclass(frozen=True)
class Fact:
    """One measured fact: ``extract`` gives a deal's value (``None`` where the fact does not
    apply to that deal, e.g. "overtaken" for a dead deal); ``kind`` is ``rate`` (0/1 values)
    or ``mean``."""

    key: str
    title: Message  # the fact's name, translatable (``Translator.message``)
    group: str
    kind: str
    extract: Callable[[DealFacts], float | None]
    unit: str = ""
    conditional: bool = False  # defined only on some deals: comparisons are then unpaired

    @property
    def label(self) -> str:
        """The fact's name in English (what ``--json`` holds)."""
        return str(self.title)


@dataclass(frozen=True, slots=True)
class Estimate:
    """A rate or a mean with its 95% interval, over ``n`` deals."""

    value: float | None
    low: float | None
    high: float | None
    n: int

    def to_json(self) -> dict[str, object]:
        return {"value": self.value, "ci95": [self.low, self.high], "n": self.n}


@dataclass(frozen=True, slots=True)
class Difference:
    """The effect of an option on a fact: ``value`` minus the baseline's, with a 95%
    interval; ``paired``: computed deal by deal over the same seeds."""

    difference: float | None
    low: float | None
    high: float | None
    n: int
    paired: bool

    def to_json(self) -> dict[str, object]:
        return {
            "difference": self.difference,
            "ci95": [self.low, self.high],
            "n": self.n,
            "paired": self.paired,
        }


def normal_interval(values: Sequence[float]) -> Estimate:
    """The mean with a normal-approximation 95% interval (none for fewer than two values)."""
    n = len(values)
    if n == 0:
        return Estimate(None, None, None, 0)
    mean = math.fsum(values) / n
    if n < 2:
        return Estimate(mean, None, None, n)
    half = Z95 * statistics.stdev(values) / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n)


def estimate(fact: Fact, values: Sequence[float]) -> Estimate:
    if fact.kind == "rate":
        n = len(values)
        if n == 0:
            return Estimate(None, None, None, 0)
        hits = sum(1 for value in values if value)
        low, high = wilson(hits, n)
        return Estimate(hits / n, low, high, n)
    return normal_interval(values)


def _was_called(category: Category, deal: DealFacts) -> bool:
    return any(call.category is category for call in deal.calls)


def _won_with(category: Category, deal: DealFacts) -> bool:
    """A call of ``category`` is the best call of the deal (R8.1)."""
    return any(call.category is category and call.code == deal.best_code for call in deal.calls)


def _won_when_called(category: Category, deal: DealFacts) -> bool | None:
    return _won_with(category, deal) if _was_called(category, deal) else None


def _seat_at(position: int, deal: DealFacts) -> int:
    return (deal.dealer + 1 + position) % deal.players


def _position_edge(position: int, deal: DealFacts) -> float:
    return deal.edge(_seat_at(position, deal))


def _position_wins(position: int, deal: DealFacts) -> bool:
    return _seat_at(position, deal) in deal.winners


def _seat_edge(seat: int, deal: DealFacts) -> float:
    return deal.edge(seat)


def _seat_wins(seat: int, deal: DealFacts) -> bool:
    return seat in deal.winners


def fact_definitions(players: int, bots: Sequence[str] = (), *, royal_high: bool = False) -> list[Fact]:
    """Every fact measured for a table of ``players`` (see the module text)."""

    def called(deal: DealFacts) -> bool:
        return bool(deal.calls)

    facts = [
        Fact(
            "length.actions",
            Message(N_("deal length (actions)")),
            "deal",
            "mean",
            lambda d: d.actions,
            "actions",
        ),
        Fact("length.turns", Message(N_("deal length (turns)")), "deal", "mean", lambda d: d.turns, "turns"),
        Fact("dead", Message(N_("dead deals (R4.7)")), "deal", "rate", lambda d: d.dead),
        Fact(
            "rebuilt",
            Message(N_("deals with a stock rebuild (R4.6)")),
            "deal",
            "rate",
            lambda d: d.rebuilds > 0,
        ),
        Fact(
            "rebuilds",
            Message(N_("stock rebuilds per deal (R4.6)")),
            "deal",
            "mean",
            lambda d: d.rebuilds,
            "rebuilds",
        ),
        Fact("calls", Message(N_("calls per deal (R6)")), "deal", "mean", lambda d: len(d.calls), "calls"),
        Fact(
            "first_call.turn",
            Message(N_("turn of the first call (called deals)")),
            "deal",
            "mean",
            lambda d: d.calls[0].turn if called(d) else None,
            "turns",
            conditional=True,
        ),
        Fact(
            "first_call.first_turn",
            Message(N_("first call made on the caller's first turn (R5.7)")),
            "deal",
            "rate",
            lambda d: d.calls[0].first_turn if called(d) else None,
            conditional=True,
        ),
        Fact(
            "overtaken",
            Message(N_("first caller overtaken in the last round (R6.4, R7.2)")),
            "deal",
            "rate",
            lambda d: d.best_code > d.calls[0].code if called(d) else None,
            conditional=True,
        ),
        Fact(
            "tied",
            Message(N_("best call tied (R8.3)")),
            "deal",
            "rate",
            lambda d: sum(1 for c in d.calls if c.code == d.best_code) > 1 if called(d) else None,
            conditional=True,
        ),
    ]
    for category in category_order(royal_high):
        name = category.value
        facts += [
            Fact(
                f"called.{name}",
                Message(N_("{category}: called"), category=category),
                "categories",
                "rate",
                partial(_was_called, category),
            ),
            Fact(
                f"won.{name}",
                Message(N_("{category}: wins the deal"), category=category),
                "categories",
                "rate",
                partial(_won_with, category),
            ),
            Fact(
                f"won_when_called.{name}",
                Message(N_("{category}: wins when called"), category=category),
                "categories",
                "rate",
                partial(_won_when_called, category),
                conditional=True,
            ),
        ]
    for position in range(players):
        # Whole messages for each kind of position (R3.1: the dealer's left plays first).
        if position == players - 1:
            edge, wins = N_("position {n} (dealer): chip edge"), N_("position {n} (dealer): wins")
        elif position == 0:
            edge = N_("position {n} (dealer's left, plays first): chip edge")
            wins = N_("position {n} (dealer's left, plays first): wins")
        else:
            edge, wins = N_("position {n}: chip edge"), N_("position {n}: wins")
        facts += [
            Fact(
                f"edge.position.{position + 1}",
                Message(edge, n=position + 1),
                "positions",
                "mean",
                partial(_position_edge, position),
                "chips",
            ),
            Fact(
                f"win.position.{position + 1}",
                Message(wins, n=position + 1),
                "positions",
                "rate",
                partial(_position_wins, position),
            ),
        ]
    for seat in range(players):
        if seat < len(bots):
            edge_label = Message(N_("seat {seat} ({bot}): chip edge"), seat=seat, bot=bots[seat])
            wins_label = Message(N_("seat {seat} ({bot}): wins"), seat=seat, bot=bots[seat])
        else:
            edge_label = Message(N_("seat {seat}: chip edge"), seat=seat)
            wins_label = Message(N_("seat {seat}: wins"), seat=seat)
        facts += [
            Fact(f"edge.seat.{seat}", edge_label, "seats", "mean", partial(_seat_edge, seat), "chips"),
            Fact(f"win.seat.{seat}", wins_label, "seats", "rate", partial(_seat_wins, seat)),
        ]
    return facts


def fact_values(fact: Fact, deals: Sequence[DealFacts]) -> list[float]:
    values = []
    for deal in deals:
        value = fact.extract(deal)
        if value is not None:
            values.append(float(value))
    return values


def quantiles(values: Sequence[int]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)

    def at(q: float) -> float:
        return float(ordered[min(len(ordered) - 1, int(q * len(ordered)))])

    return {
        "median": float(statistics.median(ordered)),
        "p10": at(0.10),
        "p90": at(0.90),
        "min": float(ordered[0]),
        "max": float(ordered[-1]),
    }
