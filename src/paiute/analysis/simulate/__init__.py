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

>>> from paiute.rules import RuleSet
>>> config = SimulationConfig(RuleSet(), players=3, bots=("random",) * 3, seed=1)
>>> report = simulate(config, deals=4)
>>> report.completed, sorted(report.estimates())[:3]
(4, ['called.five_of_a_kind', 'called.four_two', 'called.paiute'])

Nothing here imports rich or matplotlib at the top: :func:`plot` imports matplotlib when
called (the ``sim`` extra).

The package's parts, one way down: :mod:`~paiute.analysis.simulate.facts` (what a deal came to and the
estimates), :mod:`~paiute.analysis.simulate.running` (playing the deals), :mod:`~paiute.analysis.simulate.comparison`
(one option's values side by side) and :mod:`~paiute.analysis.simulate.plots` (charts).
"""

from __future__ import annotations

from paiute.analysis.simulate.comparison import Comparison, compare, compare_values
from paiute.analysis.simulate.facts import (
    CallFact,
    DealFacts,
    Difference,
    Estimate,
    Fact,
    fact_definitions,
    normal_interval,
)
from paiute.analysis.simulate.plots import plot
from paiute.analysis.simulate.running import (
    DealCounts,
    SimulationConfig,
    SimulationReport,
    deal_seed,
    parse_bots,
    require_sim_extra,
    simulate,
    simulate_deal,
)

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
