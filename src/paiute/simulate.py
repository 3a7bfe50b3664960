"""Simulating many deals with bots: the facts of the game (R4.7, R5, R6, R7, R8).

Every deal is independent: deal ``i`` of a run with seed ``s`` is shuffled, cut and rebuilt by
a generator seeded from ``(s, i)`` alone, its dealer is seat ``i mod players`` (so every seat
deals equally often, R2.3), every seat's bot is made afresh with a seed from ``(s, i, seat)``,
and every seat starts with no chips and an empty pot. So a run gives the same results however
its deals are shared among processes, and two runs with the same seed but one option changed
play the same shuffles (:func:`compare`): the difference in each fact is the option's effect.

The facts (:func:`fact_definitions`) are rates (with Wilson 95% intervals) and means (with
normal 95% intervals) over the deals: deal length in actions and turns, dead deals (R4.7),
stock rebuilds (R4.6), calls, how often each category is called and wins (R5), how often the
first caller is overtaken in the last round (R6.4, R7.2), ties (R8.3), and each seat's and
each position's chip edge. A seat's *edge* in a deal is its chip result (R8) plus an equal
share of any pot left on the table by a dead deal (R8.5: that pot goes to a later deal), so
the edges of a deal add up to zero. Position 1 is the dealer's left (plays first, R4.1);
the last position is the dealer (plays last, R7.2).

>>> config = SimulationConfig(RuleSet(), players=3, bots=("random",) * 3, seed=1)
>>> report = simulate(config, deals=4)
>>> report.completed, sorted(report.estimates())[:3]
(4, ['called.five_of_a_kind', 'called.four_two', 'called.paiute'])

Nothing here imports rich or matplotlib at the top: :func:`plot` imports matplotlib when
called (the ``sim`` extra).
"""

from __future__ import annotations

import hashlib
import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TypedDict

from paiute.chance import SeededChance
from paiute.combos import Category
from paiute.errors import N_, Message, PaiuteError
from paiute.match import Match
from paiute.odds import category_order, wilson
from paiute.parallel import parallel_map
from paiute.players import make_player, play_deal
from paiute.rules import OPTIONS, RuleSet

__all__ = [
    "CallFact",
    "Comparison",
    "DealCounts",
    "DealFacts",
    "Difference",
    "Estimate",
    "Fact",
    "SimulationConfig",
    "SimulationReport",
    "compare",
    "compare_values",
    "deal_seed",
    "fact_definitions",
    "normal_interval",
    "parse_bots",
    "plot",
    "require_sim_extra",
    "simulate",
    "simulate_deal",
]

_Z95 = 1.959963984540054
SIM_EXTRA_HINT = "pip install 'paiute[sim]'"


def require_sim_extra(module: str, what: str) -> Any:
    """Import ``module`` (rich, matplotlib…) or raise a :class:`PaiuteError` saying how to
    install the ``sim`` extra."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise PaiuteError(f"{what} needs {module.split('.')[0]}: {SIM_EXTRA_HINT}") from None


def deal_seed(seed: int, *path: int) -> int:
    """A 64-bit seed derived from ``seed`` and a path of indices (deal, seat…).

    >>> deal_seed(1, 0) == deal_seed(1, 0) != deal_seed(1, 1)
    True
    """
    text = "/".join(str(part) for part in ("paiute-simulate", seed, *path))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def parse_bots(texts: Sequence[str], players: int) -> tuple[str, ...]:
    """One bot spec per seat from ``--bots`` texts: ``"random"``, ``"greedy,random"``…

    A comma separates specs, except that ``key=value`` after a comma belongs to the spec
    before it (``"ismcts:iterations=200,seed=3,random"`` is two specs). One spec fills every
    seat; otherwise there must be one per seat. Every spec is checked with
    :func:`~paiute.players.make_player`.

    >>> parse_bots(["random:seed=1,seed=2,random"], 2)
    ('random:seed=1,seed=2', 'random')
    """
    specs: list[str] = []
    for text in texts:
        for part in (piece.strip() for piece in text.split(",")):
            if not part:
                continue
            if "=" in part and ":" not in part and specs:
                specs[-1] += "," + part
            else:
                specs.append(part)
    if not specs:
        specs = ["random"]
    if len(specs) == 1:
        specs *= players
    if len(specs) != players:
        raise PaiuteError(f"{len(specs)} bots for {players} players: give one bot, or one per seat")
    for spec in specs:
        make_player(spec, seed=0)  # an unknown bot or option is refused here (PlayerError)
    return tuple(specs)


@dataclass(frozen=True)
class SimulationConfig:
    """What to simulate: the rules, the table size, a bot spec per seat, and the seed."""

    rules: RuleSet
    players: int
    bots: tuple[str, ...]
    seed: int = 0

    def __post_init__(self) -> None:
        self.rules.check_players(self.players)
        if len(self.bots) != self.players:
            raise PaiuteError(f"{len(self.bots)} bots for {self.players} players")

    def to_json(self) -> dict[str, object]:
        return {
            "players": self.players,
            "bots": list(self.bots),
            "seed": self.seed,
            "rules": self.rules.to_dict(),
        }


# -- one deal ---------------------------------------------------------------------------------


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


def simulate_deal(config: SimulationConfig, index: int) -> DealFacts:
    """Play deal ``index`` of the run (seeded from ``(config.seed, index)``) and measure it."""
    seed = deal_seed(config.seed, index)
    players = config.players
    bots = [
        make_player(spec, seed=deal_seed(config.seed, index, seat)) for seat, spec in enumerate(config.bots)
    ]
    match = Match(
        config.rules, players, balances=[0] * players, chance=SeededChance(seed), dealer=index % players
    )
    deal = play_deal(match, bots)
    outcome = deal.outcome
    assert outcome is not None
    turns = 0
    rebuilds = 0
    calls: list[CallFact] = []
    for event in deal.events:
        if event.action.kind.is_draw and event.card is not None:  # R4.7: a dead draw draws nothing
            turns += 1
        if event.rebuilt:
            rebuilds += 1
        if event.call is not None:
            value = event.call.value
            calls.append(CallFact(event.seat, value.category, value.code, event.call.first_turn, turns))
    return DealFacts(
        index=index,
        dealer=deal.dealer,
        actions=len(deal.events),
        turns=turns,
        dead=outcome.dead,
        rebuilds=rebuilds,
        calls=tuple(calls),
        winners=tuple(outcome.winners),
        net=match.balances,
        pot=match.pot,
    )


# -- facts and estimates ----------------------------------------------------------------------


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
    half = _Z95 * statistics.stdev(values) / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n)


def _estimate(fact: Fact, values: Sequence[float]) -> Estimate:
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


def _values(fact: Fact, deals: Sequence[DealFacts]) -> list[float]:
    values = []
    for deal in deals:
        value = fact.extract(deal)
        if value is not None:
            values.append(float(value))
    return values


def _quantiles(values: Sequence[int]) -> dict[str, float]:
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


class DealCounts(TypedDict):
    """Plain totals over the deals of a run (:meth:`SimulationReport.counts`)."""

    deals: int
    dead: int
    called: int
    rebuilds: int
    calls: dict[str, int]  # calls made, by category
    winning_calls: dict[str, int]  # calls that won (R8.1), by category


@dataclass
class SimulationReport:
    """The deals of one run (sorted by index) and the facts measured on them."""

    config: SimulationConfig
    requested: int
    deals: list[DealFacts]
    interrupted: bool = False
    _facts: list[Fact] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self.deals.sort(key=lambda deal: deal.index)
        if not self._facts:
            self._facts = fact_definitions(
                self.config.players, self.config.bots, royal_high=self.config.rules.royal_high
            )

    @property
    def completed(self) -> int:
        return len(self.deals)

    @property
    def facts(self) -> list[Fact]:
        return self._facts

    def estimates(self) -> dict[str, Estimate]:
        return {fact.key: _estimate(fact, _values(fact, self.deals)) for fact in self._facts}

    def lengths(self) -> dict[str, dict[str, float]]:
        """Median and spread of the deal length, in actions and in turns."""
        return {
            "actions": _quantiles([deal.actions for deal in self.deals]),
            "turns": _quantiles([deal.turns for deal in self.deals]),
        }

    def counts(self) -> DealCounts:
        """Plain totals: deals, dead deals, rebuilds, calls and winning calls by category."""
        order = category_order(self.config.rules.royal_high)
        calls = {category.value: 0 for category in order}
        wins = {category.value: 0 for category in order}
        for deal in self.deals:
            for call in deal.calls:
                calls[call.category.value] += 1
                if call.seat in deal.winners and call.code == deal.best_code:
                    wins[call.category.value] += 1
        return {
            "deals": len(self.deals),
            "dead": sum(1 for deal in self.deals if deal.dead),
            "called": sum(1 for deal in self.deals if deal.calls),
            "rebuilds": sum(deal.rebuilds for deal in self.deals),
            "calls": calls,
            "winning_calls": wins,
        }

    def chips_conserved(self) -> bool:
        """R8.6: in every deal the chips won, lost and left in the pot add up to zero."""
        return all(sum(deal.net) + deal.pot == 0 for deal in self.deals)

    def to_json(self) -> dict[str, object]:
        estimates = self.estimates()
        return {
            "config": self.config.to_json(),
            "deals_requested": self.requested,
            "deals": self.completed,
            "interrupted": self.interrupted,
            "facts": {
                fact.key: {
                    "label": fact.label,
                    "group": fact.group,
                    "kind": fact.kind,
                    **estimates[fact.key].to_json(),
                }
                for fact in self._facts
            },
            "lengths": self.lengths(),
            "counts": self.counts(),
            "chips_conserved": self.chips_conserved(),
        }


# -- running many deals -----------------------------------------------------------------------


class _StopAsked:
    """Adapts a ``stop()`` callable to the ``is_set()`` flag of :func:`parallel_map`."""

    def __init__(self, stop: Callable[[], bool] | None) -> None:
        self._stop = stop
        self._set = False

    def check(self) -> None:
        self._set = self._set or (self._stop is not None and self._stop())

    def is_set(self) -> bool:
        self.check()  # asked live: a stop (SIGINT) must end the wait for a slow chunk too
        return self._set


def _run_chunk(job: tuple[int, SimulationConfig, int, int]) -> tuple[int, list[DealFacts]]:
    variant, config, start, stop = job
    try:
        return variant, [simulate_deal(config, index) for index in range(start, stop)]
    except PaiuteError as error:  # keep the message; some errors do not pickle back as they are
        raise PaiuteError(f"deal {start}..{stop - 1}: {error}") from None


def _run(
    configs: Sequence[SimulationConfig],
    deals: int,
    *,
    workers: int,
    progress: Callable[[int], None] | None,
    stop: Callable[[], bool] | None,
    backend: str = "local",
    address: str | None = None,
) -> tuple[list[list[DealFacts]], bool]:
    """Play ``deals`` deals for every config; returns what finished and whether it stopped early."""
    if deals < 0:
        raise PaiuteError(f"the number of deals must not be negative, not {deals}")
    if workers < 1:
        raise PaiuteError(f"workers must be at least 1, not {workers}")
    results: list[list[DealFacts]] = [[] for _ in configs]
    interrupted = False
    if backend == "local" and (workers == 1 or deals * len(configs) <= 1):
        try:
            for variant, config in enumerate(configs):
                for index in range(deals):
                    if stop is not None and stop():
                        return results, True
                    results[variant].append(simulate_deal(config, index))
                    if progress is not None:
                        progress(1)
        except KeyboardInterrupt:
            interrupted = True
        return results, interrupted
    size = max(1, min(4, deals // (workers * 16)))  # small chunks: an interrupt loses little
    jobs = [
        (variant, config, start, min(deals, start + size))
        for variant, config in enumerate(configs)
        for start in range(0, deals, size)
    ]
    flag = _StopAsked(stop)
    try:
        for _, (variant, chunk) in parallel_map(
            _run_chunk, jobs, workers=workers, backend=backend, address=address, stop=flag
        ):
            results[variant].extend(chunk)
            if progress is not None:
                progress(len(chunk))
            flag.check()
    except KeyboardInterrupt:
        interrupted = True
    interrupted = interrupted or sum(map(len, results)) < deals * len(configs)
    return results, interrupted


def simulate(
    config: SimulationConfig,
    deals: int,
    *,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    stop: Callable[[], bool] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> SimulationReport:
    """Play ``deals`` deals and measure them. ``progress(n)`` is told of every ``n`` deals
    finished; ``stop()`` is asked between deals (or chunks of deals, with ``workers > 1``)
    whether to stop. A stop or a ``KeyboardInterrupt`` keeps what finished (``interrupted``)."""
    results, interrupted = _run(
        [config], deals, workers=workers, progress=progress, stop=stop, backend=backend, address=address
    )
    return SimulationReport(config, deals, results[0], interrupted)


# -- comparisons ------------------------------------------------------------------------------


def compare_values(rules: RuleSet, text: str) -> tuple[str, tuple[object, ...]]:
    """The option and values of ``--compare NAME`` or ``--compare NAME=V1,V2,...``.

    A true/false option compares off and on, a choice compares every choice; a number needs
    its values. The rules' own value comes first (the baseline) when it is among them.

    >>> compare_values(RuleSet(), "royal_high")
    ('royal_high', (False, True))
    >>> compare_values(RuleSet(), "max_rebuilds=1,3")
    ('max_rebuilds', (3, 1))
    """
    name, sep, raw = text.partition("=")
    name = name.strip().replace("-", "_")
    option = next((option for option in OPTIONS if option.name == name), None)
    if option is None:
        raise PaiuteError(
            f"bad option to compare {name!r}: one of {', '.join(option.name for option in OPTIONS)}"
        )
    values: list[object]
    if sep:
        values = [RuleSet.parse_option(f"{name}={item}")[1] for item in raw.split(",") if item.strip()]
    elif option.kind is bool:
        values = [False, True]
    elif option.choices:
        values = list(option.choices)
    else:
        raise PaiuteError(
            f"give the values of {name} to compare, e.g. --compare {name}=1,3 ({option.allowed()})"
        )
    unique: list[object] = []
    for value in values:
        if value not in unique:
            unique.append(value)
    if len(unique) < 2:
        raise PaiuteError(f"--compare {text}: give at least two different values")
    current = getattr(rules, name)
    if current in unique:
        unique.remove(current)
        unique.insert(0, current)
    return name, tuple(unique)


def _paired(fact: Fact, base: Sequence[DealFacts], other: Sequence[DealFacts]) -> Difference:
    """Deal-by-deal differences over the deals both runs finished (the same seeds)."""
    by_index = {deal.index: deal for deal in base}
    diffs = []
    for deal in other:
        mine = by_index.get(deal.index)
        if mine is None:
            continue
        a, b = fact.extract(mine), fact.extract(deal)
        if a is not None and b is not None:
            diffs.append(float(b) - float(a))
    estimate = normal_interval(diffs)
    return Difference(estimate.value, estimate.low, estimate.high, estimate.n, True)


def _unpaired(fact: Fact, base: Sequence[DealFacts], other: Sequence[DealFacts]) -> Difference:
    """The difference of two independent means (or rates), normal 95% interval."""
    a, b = _values(fact, base), _values(fact, other)
    if not a or not b:
        return Difference(None, None, None, min(len(a), len(b)), False)
    mean_a, mean_b = math.fsum(a) / len(a), math.fsum(b) / len(b)
    if fact.kind == "rate":
        var_a, var_b = mean_a * (1 - mean_a), mean_b * (1 - mean_b)
    else:
        var_a = statistics.variance(a) if len(a) > 1 else 0.0
        var_b = statistics.variance(b) if len(b) > 1 else 0.0
    half = _Z95 * math.sqrt(var_a / len(a) + var_b / len(b))
    diff = mean_b - mean_a
    return Difference(diff, diff - half, diff + half, min(len(a), len(b)), False)


@dataclass
class Comparison:
    """Runs over the same seeds with one option set to each value; ``reports[0]`` is the
    baseline and :meth:`effects` gives every other value's difference in each fact."""

    option: str
    values: tuple[object, ...]
    reports: list[SimulationReport]

    @property
    def interrupted(self) -> bool:
        return any(report.interrupted for report in self.reports)

    def effects(self) -> list[dict[str, Difference]]:
        """For each value after the baseline: fact key -> difference from the baseline."""
        base = self.reports[0]
        facts = base.facts
        result = []
        for report in self.reports[1:]:
            other_keys = {fact.key for fact in report.facts}
            effect = {}
            for fact in facts:
                if fact.key not in other_keys:
                    continue
                measure = _unpaired if fact.conditional else _paired
                effect[fact.key] = measure(fact, base.deals, report.deals)
            result.append(effect)
        return result

    def to_json(self) -> dict[str, object]:
        return {
            "compare": {"option": self.option, "values": list(self.values), "baseline": self.values[0]},
            "interrupted": self.interrupted,
            "variants": [
                {"value": value, **report.to_json()}
                for value, report in zip(self.values, self.reports, strict=True)
            ],
            "effects": [
                {"value": value, "facts": {key: diff.to_json() for key, diff in effect.items()}}
                for value, effect in zip(self.values[1:], self.effects(), strict=True)
            ],
        }


def compare(
    config: SimulationConfig,
    option: str,
    values: Sequence[object],
    deals: int,
    *,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    stop: Callable[[], bool] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> Comparison:
    """Run ``deals`` deals (the same seeds) with ``option`` set to each of ``values``."""
    configs = [
        SimulationConfig(config.rules.replace(**{option: value}), config.players, config.bots, config.seed)
        for value in values
    ]
    results, interrupted = _run(
        configs, deals, workers=workers, progress=progress, stop=stop, backend=backend, address=address
    )
    reports = [SimulationReport(c, deals, r, interrupted) for c, r in zip(configs, results, strict=True)]
    return Comparison(option, tuple(values), reports)


# -- charts -----------------------------------------------------------------------------------


def plot(result: SimulationReport | Comparison, directory: str | Path) -> list[Path]:
    """Write PNG charts of a run or a comparison into ``directory``; returns their paths.

    Uses matplotlib without pyplot (no display, no global state): the ``sim`` extra.
    """
    require_sim_extra("matplotlib", "--plot")
    from matplotlib.figure import Figure

    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def save(figure: Figure, name: str) -> None:
        path = folder / name
        figure.tight_layout()
        figure.savefig(path, format="png", dpi=100)
        written.append(path)

    if isinstance(result, Comparison):
        _plot_comparison(result, save)
        return written
    report = result
    estimates = report.estimates()
    title = _title(report)

    figure = Figure(figsize=(10, 4))
    for axes, attribute, unit in zip(
        figure.subplots(1, 2), ("actions", "turns"), ("actions", "turns"), strict=True
    ):
        values = [getattr(deal, attribute) for deal in report.deals]
        axes.hist(values, bins=min(50, max(5, len(set(values)))), color="#4c72b0")
        axes.set_xlabel(f"deal length ({unit})")
        axes.set_ylabel("deals")
        if values:
            axes.axvline(statistics.median(values), color="black", linestyle="--", label="median")
            axes.legend()
    figure.suptitle(f"Deal length — {title}")
    save(figure, "deal_length.png")

    order = category_order(report.config.rules.royal_high)
    figure = Figure(figsize=(10, 4.5))
    axes = figure.subplots()
    width = 0.38
    for offset, (prefix, label) in zip(
        (-width / 2, width / 2), (("called", "called"), ("won", "wins the deal")), strict=True
    ):
        keys = [f"{prefix}.{category.value}" for category in order]
        _bars(
            axes,
            [i + offset for i in range(len(order))],
            [estimates[key] for key in keys],
            width,
            label,
            percent=True,
        )
    axes.set_xticks(range(len(order)), [category.title for category in order])
    axes.set_ylabel("share of deals (%)")
    axes.legend()
    axes.set_title(f"Categories called and winning — {title}")
    save(figure, "categories.png")

    figure = Figure(figsize=(10, 4.5))
    left, right = figure.subplots(1, 2)
    players = report.config.players
    keys = [f"edge.position.{p + 1}" for p in range(players)]
    _bars(left, list(range(players)), [estimates[key] for key in keys], 0.7, None)
    left.set_xticks(
        range(players), [("dealer" if p == players - 1 else f"pos {p + 1}") for p in range(players)]
    )
    left.axhline(0, color="black", linewidth=0.8)
    left.set_ylabel("chips per deal")
    left.set_title("edge by position (1 = dealer's left)")
    keys = [f"edge.seat.{s}" for s in range(players)]
    _bars(right, list(range(players)), [estimates[key] for key in keys], 0.7, None, color="#dd8452")
    right.set_xticks(range(players), [f"{s}\n{report.config.bots[s]}" for s in range(players)])
    right.axhline(0, color="black", linewidth=0.8)
    right.set_title("edge by seat (bot)")
    figure.suptitle(f"Chip edge, 95% intervals — {title}")
    save(figure, "edge.png")

    figure = Figure(figsize=(10, 4.5))
    axes = figure.subplots()
    keys = ["dead", "rebuilt", "first_call.first_turn", "overtaken", "tied"]
    labels = ["dead (R4.7)", "rebuilt (R4.6)", "1st call on\nfirst turn", "1st caller\novertaken", "tied"]
    _bars(axes, list(range(len(keys))), [estimates[key] for key in keys], 0.6, None, percent=True)
    axes.set_xticks(range(len(keys)), labels)
    axes.set_ylabel("%")
    axes.set_title(f"How deals end, 95% intervals — {title}")
    save(figure, "outcomes.png")
    return written


def _title(report: SimulationReport) -> str:
    bots = sorted(set(report.config.bots))
    return f"{report.completed} deals, {report.config.players} players, {'/'.join(bots)}"


def _bars(
    axes: Any,
    positions: Sequence[float],
    estimates: Sequence[Estimate],
    width: float,
    label: str | None,
    *,
    percent: bool = False,
    color: str | None = None,
) -> None:
    scale = 100.0 if percent else 1.0
    heights = [(e.value or 0.0) * scale for e in estimates]
    lows = [((e.value or 0.0) - (e.low if e.low is not None else e.value or 0.0)) * scale for e in estimates]
    highs = [
        ((e.high if e.high is not None else e.value or 0.0) - (e.value or 0.0)) * scale for e in estimates
    ]
    axes.bar(positions, heights, width, yerr=[lows, highs], capsize=3, label=label, color=color)


def _plot_comparison(result: Comparison, saver: Callable[[Any, str], None]) -> None:
    from matplotlib.figure import Figure

    base = result.reports[0]
    option = result.option
    values = [str(value) for value in result.values]
    estimates = [report.estimates() for report in result.reports]

    keys = ["dead", "overtaken", "tied", "first_call.first_turn"] + [
        f"won.{category.value}" for category in category_order(base.config.rules.royal_high)
    ]
    order = category_order(base.config.rules.royal_high)
    labels = ["dead\n(R4.7)", "1st caller\novertaken", "best call\ntied", "1st call on\nfirst turn"] + [
        f"wins with\n{category.title}" for category in order
    ]
    figure = Figure(figsize=(12, 5))
    axes = figure.subplots()
    width = 0.8 / len(values)
    for number, (value, estimate) in enumerate(zip(values, estimates, strict=True)):
        offset = (number - (len(values) - 1) / 2) * width
        _bars(
            axes,
            [i + offset for i in range(len(keys))],
            [estimate[key] for key in keys],
            width,
            f"{option}={value}",
            percent=True,
        )
    axes.set_xticks(range(len(keys)), labels, fontsize=8)
    axes.set_ylabel("%")
    axes.legend()
    axes.set_title(f"{option}: rates for each value, 95% intervals ({base.completed} deals each)")
    saver(figure, f"compare_{option}_rates.png")

    effects = result.effects()
    rate_keys = [fact.key for fact in base.facts if fact.kind == "rate"]
    figure = Figure(figsize=(10, max(4.0, 0.22 * len(rate_keys) * len(effects) + 1)))
    axes = figure.subplots()
    rows = []
    for value, effect in zip(values[1:], effects, strict=True):
        for key in rate_keys:
            diff = effect.get(key)
            if diff is None or diff.difference is None:
                continue
            rows.append((f"{key} [{value}]", diff))
    ys = list(range(len(rows)))
    axes.errorbar(
        [100 * d.difference for _, d in rows if d.difference is not None],
        ys,
        xerr=[
            [
                100 * (d.difference - (d.low if d.low is not None else d.difference))
                for _, d in rows
                if d.difference is not None
            ],
            [
                100 * ((d.high if d.high is not None else d.difference) - d.difference)
                for _, d in rows
                if d.difference is not None
            ],
        ],
        fmt="o",
        capsize=3,
    )
    axes.axvline(0, color="black", linewidth=0.8)
    axes.set_yticks(ys, [name for name, _ in rows], fontsize=7)
    axes.invert_yaxis()
    axes.set_xlabel(f"difference from {option}={values[0]} (percentage points, 95% interval)")
    axes.set_title(f"Effect of {option}")
    saver(figure, f"compare_{option}_effects.png")

    figure = Figure(figsize=(10, 4))
    axes = figure.subplots()
    for value, report in zip(values, result.reports, strict=True):
        axes.hist(
            [deal.actions for deal in report.deals], bins=40, histtype="step", label=f"{option}={value}"
        )
    axes.set_xlabel("deal length (actions)")
    axes.set_ylabel("deals")
    axes.legend()
    axes.set_title(f"Deal length for each value of {option}")
    saver(figure, f"compare_{option}_length.png")
