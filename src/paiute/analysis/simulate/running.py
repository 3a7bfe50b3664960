"""Running many simulated deals with bots, on one core or many (R2.3, R8).

Deal ``i`` of a run with seed ``s`` is seeded from ``(s, i)`` alone (:func:`deal_seed`), so a
run gives the same :class:`SimulationReport` however its deals are shared among processes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from paiute.analysis.odds import category_order
from paiute.analysis.simulate.facts import (
    CallFact,
    DealFacts,
    Estimate,
    Fact,
    estimate,
    fact_definitions,
    fact_values,
    quantiles,
)
from paiute.chance import SeededChance, derive_seed
from paiute.errors import PaiuteError
from paiute.match import Match
from paiute.parallel import parallel_map
from paiute.players import make_player, play_deal
from paiute.rules import RuleSet

__all__ = [
    "SIM_EXTRA_HINT",
    "DealCounts",
    "SimulationConfig",
    "SimulationReport",
    "deal_seed",
    "parse_bots",
    "require_sim_extra",
    "run_configs",
    "simulate",
    "simulate_deal",
]

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
    return derive_seed("paiute-simulate", seed, *path, method="blake2b")


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
        return {fact.key: estimate(fact, fact_values(fact, self.deals)) for fact in self._facts}

    def lengths(self) -> dict[str, dict[str, float]]:
        """Median and spread of the deal length, in actions and in turns."""
        return {
            "actions": quantiles([deal.actions for deal in self.deals]),
            "turns": quantiles([deal.turns for deal in self.deals]),
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


def run_configs(
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
    results, interrupted = run_configs(
        [config], deals, workers=workers, progress=progress, stop=stop, backend=backend, address=address
    )
    return SimulationReport(config, deals, results[0], interrupted)
