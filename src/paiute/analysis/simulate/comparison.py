"""Comparing one rule option's values over the same seeds: the effect of each on every fact.

Both runs play the same shuffles (deal ``i`` is seeded from ``(seed, i)``), so a fact defined
on every deal is compared deal by deal (paired); a fact defined only on some deals (say,
"overtaken", which needs a call) is compared as two independent samples.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from paiute.analysis.simulate.facts import Z95, DealFacts, Difference, Fact, fact_values, normal_interval
from paiute.analysis.simulate.running import SimulationConfig, SimulationReport, run_configs
from paiute.errors import PaiuteError
from paiute.rules import OPTIONS, RuleSet

__all__ = ["Comparison", "compare", "compare_values"]


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
    a, b = fact_values(fact, base), fact_values(fact, other)
    if not a or not b:
        return Difference(None, None, None, min(len(a), len(b)), False)
    mean_a, mean_b = math.fsum(a) / len(a), math.fsum(b) / len(b)
    if fact.kind == "rate":
        var_a, var_b = mean_a * (1 - mean_a), mean_b * (1 - mean_b)
    else:
        var_a = statistics.variance(a) if len(a) > 1 else 0.0
        var_b = statistics.variance(b) if len(b) > 1 else 0.0
    half = Z95 * math.sqrt(var_a / len(a) + var_b / len(b))
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
    results, interrupted = run_configs(
        configs, deals, workers=workers, progress=progress, stop=stop, backend=backend, address=address
    )
    reports = [SimulationReport(c, deals, r, interrupted) for c, r in zip(configs, results, strict=True)]
    return Comparison(option, tuple(values), reports)
