"""What each legal action is worth to a seat: expected chips, with an interval, from playouts.

This is the one estimator that the strong bot, the hints and the game review stand on. From a
seat's :class:`~paiute.observation.Observation` only (R9), it *determinizes* the position
(:meth:`Deal.from_observation <paiute.deal.Deal.from_observation>` deals the cards the seat
cannot see at random, consistently with every public fact), applies each legal action to the
same determinization (common random numbers, so differences between actions are measured on
paired samples) and plays the deal out with a playout policy for every seat. A playout's
value is the chips the seat ends the deal with less the chips it has now (R8 settlement):

* a deal that ends with a winner pays as R8.3 (pot) or R8.4 (scale) says;
* a dead deal, or a playout cut after :data:`PLAYOUT_CAP` actions (R4.7 bounds no deal of
  discard-pile draws), keeps the pot for the next deal (R8.5): it is valued at an even share
  of the pot, which is what each seat may expect of it then.

>>> from paiute import Deal, RuleSet, SeededChance
>>> deal = Deal.new(RuleSet(), players=3, dealer=0, chance=SeededChance(4), balances=[0, 0, 0], pot=6)
>>> estimates = estimate_actions(deal.observation(deal.current_seat), playouts=4, seed=1)
>>> [e.action for e in estimates.estimates] == list(deal.observation(deal.current_seat).legal_actions)
True
>>> best = estimates.best()
>>> best.mean == max(e.mean for e in estimates.estimates) and best.low <= best.mean <= best.high
True
"""

from __future__ import annotations

import concurrent.futures
import itertools
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from paiute.actions import Action
from paiute.chance import SeededChance
from paiute.deal import Deal
from paiute.observation import Observation
from paiute.players.base import MAX_ITERATIONS, MAX_MS, MAX_WORKERS, Player, PlayerError
from paiute.players.greedy import GreedyPlayer
from paiute.settlement import settle

__all__ = [
    "BELIEFS",
    "CORES",
    "PLAYOUT_CAP",
    "POLICIES",
    "Z95",
    "ActionEstimate",
    "Estimates",
    "estimate_actions",
]

#: The playout engines of :func:`estimate_actions`.
CORES = ("auto", "compiled", "python")
#: The playout policies of the compiled core (:data:`paiute.compiled.search.POLICIES`).
POLICIES = ("playout", "greedy")
#: How the compiled core deals the hidden cards (see :func:`estimate_actions`).
BELIEFS = ("uniform", "ranks", "moves")

#: Actions after which a playout is cut and valued as a dead deal (R4.7, R8.5).
PLAYOUT_CAP = 400
#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class ActionEstimate:
    """One legal action's expected chips for the seat (R8), with a 95% interval."""

    action: Action
    mean: float
    low: float
    high: float
    samples: int


@dataclass(frozen=True, slots=True)
class Estimates:
    """Every legal action's estimate, in the order of ``observation.legal_actions``.

    ``values[i][k]`` is the value of action ``i`` on determinization ``k``: the same
    determinizations for every action, so :meth:`advantage` measures paired differences.
    """

    seat: int
    estimates: tuple[ActionEstimate, ...]
    values: tuple[tuple[float, ...], ...]
    playouts: int
    seconds: float

    def best(self) -> ActionEstimate:
        """The action with the highest expected chips (the first of equals, in legal order)."""
        return max(self.estimates, key=lambda estimate: estimate.mean)

    def of(self, action: Action) -> ActionEstimate:
        """The estimate of ``action``, which must be one of the legal actions."""
        for estimate in self.estimates:
            if estimate.action == action:
                return estimate
        raise PlayerError(f"{action} is not one of the legal actions estimated")

    def advantage(self, better: Action, worse: Action) -> tuple[float, float, float]:
        """Mean of ``better``'s value less ``worse``'s on the same determinizations, and its
        95% interval: ``(mean, low, high)``."""
        index = {estimate.action: i for i, estimate in enumerate(self.estimates)}
        first, second = self.values[index[better]], self.values[index[worse]]
        count = min(len(first), len(second))
        return _interval([a - b for a, b in zip(first[:count], second[:count], strict=True)])


def _interval(samples: Sequence[float]) -> tuple[float, float, float]:
    count = len(samples)
    if count == 0:
        return 0.0, -math.inf, math.inf
    mean = math.fsum(samples) / count
    if count == 1:
        return mean, -math.inf, math.inf
    variance = math.fsum((x - mean) ** 2 for x in samples) / (count - 1)
    half = Z95 * math.sqrt(variance / count)
    return mean, mean - half, mean + half


def _greedy_policy(seed: int) -> Callable[[int], Player]:
    return lambda seat: GreedyPlayer(seed=seed * 16 + seat)


class _Valuer:
    """The value of a finished (or cut) playout for one seat, in chips (R8)."""

    __slots__ = ("_before", "_dead", "_seat")

    def __init__(self, observation: Observation, seat: int) -> None:
        self._seat = seat
        self._before = observation.balances[seat]
        # R8.5: a dead deal keeps the pot for the next deal; each seat may expect an even share.
        pot_kept = observation.pot if observation.rules.payout == "pot" else 0
        self._dead = pot_kept / observation.players

    def value(self, deal: Deal) -> float:
        outcome = deal.outcome
        if outcome is None or outcome.dead:
            return self._dead
        after, _ = settle(deal.rules, outcome, deal.balances, deal.pot, deal.dealer)
        return float(after[self._seat] - self._before)


def _play_out(deal: Deal, players: Sequence[Player]) -> None:
    steps = 0
    while not deal.is_over and steps < PLAYOUT_CAP:
        seat = deal.current_seat
        deal.apply(players[seat].act(deal.observation(seat)))
        steps += 1


def estimate_actions(
    observation: Observation,
    *,
    playouts: int | None = None,
    budget_ms: float | None = None,
    seed: int = 0,
    core: str = "auto",
    workers: int = 1,
    belief: str = "ranks",
    pool: concurrent.futures.Executor | None = None,
    policy: str | None = None,
) -> Estimates:
    """Estimate every legal action of the seat to move from its observation only (R9).

    ``playouts`` is the number of determinizations (each action is played out once on each);
    ``budget_ms`` stops earlier when the next round of playouts would run past the budget.
    With neither, 32 determinizations (``python``) or 1,000 (``compiled``). The result depends
    only on the observation, the seed, ``playouts`` and the core (not on the time, nor on
    ``workers``) when no time budget is given.

    ``core``: ``python`` plays the playouts with :class:`~paiute.players.greedy.GreedyPlayer` in
    the engine; ``compiled`` with the compiled playout policy on the compiled rules core
    (:mod:`paiute.compiled.search`, hundreds of times as many playouts a second, figures in
    benchmarks/README.md, "Search speed"; it needs Numba, and its first use in a fresh install
    compiles the kernels, which :func:`paiute.compiled.warm.prepare` can do ahead in the
    background); ``auto`` is ``compiled`` where Numba is installed, else ``python``. The
    compiled core shares the determinizations between ``workers`` threads (``pool``: an executor
    to run them on) and deals the hidden cards as ``belief`` says (:data:`BELIEFS`, R4.5):
    ``uniform``, every unseen card alike; ``ranks`` (the default), weighted by the ranks each
    opponent threw, passed or took (:func:`~paiute.compiled.search.inference_weights`);
    ``moves``, hands that explain each opponent's last turns as greedy would have played them
    (:mod:`paiute.compiled.belief`, with the ``ranks`` weights as its proposal; no stronger than
    ``ranks`` in play, research/README.md). The ``python`` core deals uniformly.

    ``policy`` plays the compiled core's playouts (:data:`POLICIES`): ``playout``, the
    compiled essence of greedy (the default, None), or ``greedy``, greedy exactly,
    compiled (:mod:`paiute.compiled.greedy`: the same decisions as
    :class:`~paiute.players.greedy.GreedyPlayer`, ties broken by the playout's generator).
    The ``python`` core's playouts are always greedy's: it takes None or ``greedy``.
    """
    seat = observation.seat
    legal = observation.legal_actions
    if seat is None or not legal:
        raise PlayerError("only the seat to move has legal actions to estimate")
    if core not in CORES:
        raise PlayerError(f"core must be one of {', '.join(CORES)}, not {core!r}")
    if playouts is not None and not 1 <= playouts <= MAX_ITERATIONS:
        raise PlayerError(f"playouts must be from 1 to {MAX_ITERATIONS}, not {playouts!r}")
    if budget_ms is not None and not budget_ms <= MAX_MS:  # NaN too
        raise PlayerError(f"the budget must be at most {MAX_MS:.0f} ms, not {budget_ms!r}")
    if not 1 <= workers <= MAX_WORKERS:
        raise PlayerError(f"workers must be from 1 to {MAX_WORKERS}, not {workers!r}")
    if policy is not None and policy not in POLICIES:
        raise PlayerError(f"policy must be one of {', '.join(POLICIES)}, not {policy!r}")
    if belief not in BELIEFS:
        raise PlayerError(f"belief must be one of {', '.join(BELIEFS)}, not {belief!r}")
    if core == "auto":
        from paiute.compiled import available

        core = "compiled" if available() else "python"
    if core == "compiled":
        chosen = "playout" if policy is None else policy
        return _estimate_compiled(observation, playouts, budget_ms, seed, workers, belief, pool, chosen)
    if policy == "playout":
        raise PlayerError(
            "the python core plays its playouts with greedy: policy 'playout' needs core 'compiled'"
        )
    if playouts is None and budget_ms is None:
        playouts = 32
    started = time.perf_counter()
    deadline = None if budget_ms is None else started + budget_ms / 1000.0
    valuer = _Valuer(observation, seat)
    rng = random.Random(seed)
    values: list[list[float]] = [[] for _ in legal]
    rounds = 0
    while playouts is None or rounds < playouts:
        if deadline is not None and rounds:
            elapsed = time.perf_counter() - started
            if time.perf_counter() + elapsed / rounds > deadline:
                break
        round_seed = rng.getrandbits(48)
        chance = SeededChance(round_seed)
        base = Deal.from_observation(observation, chance)
        seat_player = _greedy_policy(round_seed)
        for index, action in enumerate(legal):  # the same determinization for every action
            deal = base.copy(SeededChance(round_seed ^ 0x9E3779B9))
            deal.apply(action)
            _play_out(deal, [seat_player(other) for other in range(observation.players)])
            values[index].append(valuer.value(deal))
        rounds += 1
    estimates = []
    for action, samples in zip(legal, values, strict=True):
        mean, low, high = _interval(samples)
        estimates.append(ActionEstimate(action, mean, low, high, len(samples)))
    return Estimates(
        seat,
        tuple(estimates),
        tuple(tuple(samples) for samples in values),
        rounds * len(legal),
        time.perf_counter() - started,
    )


#: Determinizations per chunk of a time-budgeted compiled estimate, per thread.
COMPILED_CHUNK = 16
#: The most determinizations one compiled estimate runs under a time budget.
COMPILED_CAP = 1 << 16


def _estimate_compiled(
    observation: Observation,
    playouts: int | None,
    budget_ms: float | None,
    seed: int,
    workers: int,
    belief: str,
    pool: concurrent.futures.Executor | None,
    policy: str,
) -> Estimates:
    """:func:`estimate_actions` on the compiled core (see there)."""
    import numpy as np

    from paiute.compiled import available, warm

    if not available():
        raise PlayerError("the compiled core needs Numba: pip install 'paiute[search]'")
    from paiute.compiled.belief import Belief
    from paiute.compiled.search import Position, inference_weights, run_estimates

    started = time.perf_counter()
    warm.prepare(block=True)
    if warm.error() is not None:
        raise PlayerError(f"the compiled core could not be prepared: {warm.error()}")
    legal = observation.legal_actions
    seat = observation.seat
    assert seat is not None
    try:
        position = Position.from_observation(observation, policy=policy)
    except ValueError as error:
        raise PlayerError(str(error)) from None
    weights = inference_weights(observation) if belief != "uniform" else None
    actions = [action.id for action in legal]
    seed64 = seed & 0xFFFFFFFFFFFFFFFF
    dealt = None
    if belief == "moves":
        try:
            assert weights is not None
            dealt = Belief.read(observation, position, weights, seed64)
        except ValueError as error:
            raise PlayerError(str(error)) from None
    own_pool = None
    if workers > 1 and pool is None:
        pool = own_pool = concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix="estimate")

    def run(values: Any, first: int, stop: int) -> None:
        """Determinizations first..stop-1, split between the workers."""
        if workers == 1 or stop - first < 2 or pool is None:
            run_estimates(position, actions, seed64, first, stop, values, weights, belief=dealt)
            return
        edges = [first + (stop - first) * i // workers for i in range(workers + 1)]
        jobs = [
            pool.submit(run_estimates, position, actions, seed64, a, b, values, weights, None, dealt)
            for a, b in itertools.pairwise(edges)
            if b > a
        ]
        for job in jobs:
            job.result()

    try:
        if playouts is None and budget_ms is None:
            playouts = 1000
        if playouts is not None:
            done = playouts
            values = np.zeros((len(actions), done), dtype=np.float64)
            run(values, 0, done)
        else:
            assert budget_ms is not None
            deadline = started + budget_ms / 1000.0
            values = np.zeros((len(actions), 1024), dtype=np.float64)
            done = 0
            while done < COMPILED_CAP:
                step = COMPILED_CHUNK * workers
                if done + step > values.shape[1]:
                    grown = np.zeros((len(actions), values.shape[1] * 2), dtype=np.float64)
                    grown[:, :done] = values[:, :done]
                    values = grown
                round_started = time.perf_counter()
                run(values, done, done + step)
                done += step
                now = time.perf_counter()
                if now + (now - round_started) > deadline:
                    break
            values = values[:, :done]
    finally:
        if own_pool is not None:
            own_pool.shutdown()
    estimates = []
    for action, row in zip(legal, values, strict=True):
        mean = float(row.mean())
        if done > 1:
            half = Z95 * float(row.std(ddof=1)) / math.sqrt(done)
            low, high = mean - half, mean + half
        else:
            low, high = -math.inf, math.inf
        estimates.append(ActionEstimate(action, mean, low, high, done))
    return Estimates(
        seat,
        tuple(estimates),
        tuple(tuple(row.tolist()) for row in values),
        done * len(legal),
        time.perf_counter() - started,
    )
