"""Search players ``mc`` and ``ismcts``: they sample the hidden cards and play the deal out.

Both see only their seat's :class:`~paiute.observation.Observation` (R9). Each iteration
*determinizes* it with :meth:`Deal.from_observation <paiute.deal.Deal.from_observation>`:
the cards the seat cannot see (the stock, the other seats' unshown cards, R9.3) are dealt at
random, consistently with every public fact and the seat's own hand. The deal is then played
to its end by a fast default policy and scored with :func:`~paiute.settlement.settle` (R8).

* ``mc``: flat Monte Carlo. Every legal action is tried on the same determinizations (common
  random numbers) and followed by a playout; the action with the best mean reward wins.
* ``ismcts``: single-observer information-set MCTS (Cowling, Powley & Whitehouse, 2012).
  One tree, keyed by the sequence of actions from the observed state, is shared by every
  determinization; each node maximises the reward of the seat that chose its action, and
  UCB uses availability counts because a node's legal actions differ between
  determinizations.

Options (``make_player("ismcts:iterations=2000,seed=7")``):

* ``iterations``: the search budget per decision: tree iterations (``ismcts``) or playouts
  spread evenly over the legal actions (``mc``). Default 500 without ``ms``; with ``ms``
  there is no iteration limit unless one is given.
* ``ms``: a time budget per decision in milliseconds, measured with :func:`time.perf_counter`:
  the search stops when one more iteration of average length would run past the budget less
  a small margin, so a decision returns within the budget (but for a busy machine).
* ``seed``: makes decisions repeatable. The decision is a function of the seed and the
  observation only (not of earlier decisions), as long as the budget is in iterations.
* ``workers``: processes searching in parallel (root parallelisation): the calling process
  and ``workers - 1`` worker processes, started with the player, each search with a seed
  derived from the seed, the observation and the worker's number, and the root statistics
  are summed. Deterministic for a given seed and ``workers`` under an iteration budget (a
  worker that cannot start or dies has its share searched in the calling process, with the
  same seed). Workers are forked on Linux; elsewhere (or in a multi-threaded process) they
  are spawned, which needs the usual ``if __name__ == "__main__":`` guard in scripts.
  :meth:`close` (or ``with``) stops them; so does garbage collection and exit.
* ``exploration`` (``ismcts``): the UCB constant, on rewards scaled to about [-1, 1].
* ``utility``: ``chips`` (default: the chips the seat wins or loses in the deal, R8, scaled
  by the pot or, with ``payout = scale``, by the largest possible win; a dead deal, R8.5,
  counts as an even share of the pot it carries over) or ``win`` (1 shared among the
  winners, 0 otherwise). With an empty pot (a deal outside a match) chips cannot tell the
  actions apart, so the winning share is scored instead.
* ``rollout``: ``heuristic`` (default: take a discard that pairs the hand or is wild, throw
  the loneliest card, call the best call as soon as one is legal; 5 % random actions) or
  ``random`` (call when one is legal, otherwise uniform).

A playout is cut after :data:`ROLLOUT_CAP` actions and scored as a dead deal (R4.7 does not
bound a deal of discard-pile draws). Rewards are discounted by :data:`DISCOUNT` per action,
so a sure call now beats the same result some turns later.

This module holds the players: their options, budgets, seeds and the merging of results. One
share of a search (determinize, descend, play out, score) is
:mod:`paiute.players.search_shares`; the worker processes are
:mod:`paiute.players.search_workers`.

>>> from paiute import Deal, RuleSet, SeededChance
>>> from paiute.players import make_player
>>> deal = Deal.new(RuleSet(), players=3, dealer=0, chance=SeededChance(4))
>>> while deal.current_seat != 0 or deal.phase.value != "discard":
...     _ = deal.apply(deal.legal_actions()[0])
>>> player = make_player("ismcts:iterations=60,seed=1")
>>> action = player.act(deal.observation(0))
>>> action in deal.legal_actions()
True
>>> action == make_player("ismcts:iterations=60,seed=1").act(deal.observation(0))
True
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Self

from paiute.actions import Action
from paiute.chance import derive_seed
from paiute.observation import Observation
from paiute.players.base import PlayerError, check_budget, register
from paiute.players.search_shares import DISCOUNT, ROLLOUT_CAP, SearchConfig, ShareResult, search_share
from paiute.players.search_workers import SearchWorkers

__all__ = ["DISCOUNT", "ROLLOUT_CAP", "ISMCTSPlayer", "MCPlayer", "SearchStats"]

#: Kept back from an ``ms`` budget for merging results and returning: this many seconds ...
_MARGIN_S = 0.001
#: ... and this part of the budget (one long playout, a busy machine).
_MARGIN_PART = 0.04
#: Kept back as well from a worker's share of an ``ms`` budget: the task and reply travel.
_WORKER_MARGIN_S = 0.002
_UTILITIES = ("chips", "win")
_ROLLOUTS = ("heuristic", "random")


@dataclass(frozen=True, slots=True)
class SearchStats:
    """What the last decision's search did: summed over the workers that reported."""

    action: Action
    iterations: int  # playouts (mc) or tree iterations (ismcts)
    seconds: float
    workers: int  # searches whose results were merged
    root: dict[int, tuple[int, float]]  # action id -> (visits, total scaled reward)


# -- the players ------------------------------------------------------------------------------


def _observation_digest(observation: Observation) -> bytes:
    """A stable digest of everything the observation holds (the same in every process)."""
    text = json.dumps(observation.to_json(), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


class _SearchPlayer:
    """The shared machinery of ``mc`` and ``ismcts``: budgets, seeds, workers."""

    name = "search"
    kind = "ismcts"

    def __init__(
        self,
        *,
        iterations: int | None,
        ms: float | None,
        seed: int | None,
        workers: int,
        exploration: float,
        utility: str,
        rollout: str,
    ) -> None:
        check_budget(iterations=iterations, ms=ms, workers=workers)
        if utility not in _UTILITIES:
            raise ValueError(f"utility must be one of {', '.join(_UTILITIES)}, not {utility!r}")
        if rollout not in _ROLLOUTS:
            raise ValueError(f"rollout must be one of {', '.join(_ROLLOUTS)}, not {rollout!r}")
        if not 0 <= exploration < math.inf:  # NaN too
            raise ValueError(f"exploration must be a finite number, not negative, not {exploration}")
        self.iterations = iterations if iterations is not None or ms is not None else 500
        self.ms = ms
        self.seed = seed
        self.workers = workers
        self._config = SearchConfig(self.kind, exploration, utility, rollout == "heuristic")
        self._base_seed = seed if seed is not None else random.SystemRandom().getrandbits(64)
        self._workers: SearchWorkers | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None
        self.last_search: SearchStats | None = None
        if workers > 1:  # start the processes now rather than in the first decision
            self._start_workers()

    # -- the worker processes ----------------------------------------------------------------

    def _start_workers(self) -> SearchWorkers:
        if self._workers is None:
            workers = SearchWorkers(self.workers - 1)
            self._workers = workers
            self._finalizer = weakref.finalize(self, workers.close)
        return self._workers

    def close(self) -> None:
        """Stop the worker processes (a later decision starts them again)."""
        if self._finalizer is not None:
            self._finalizer()
        self._workers = None
        self._finalizer = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __getstate__(self) -> dict[str, Any]:
        state = dict(vars(self))
        state["_workers"] = None  # processes do not travel; the copy starts its own
        state["_finalizer"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        vars(self).update(state)

    # -- deciding ----------------------------------------------------------------------------

    def _seeds(self, observation: Observation) -> list[int]:
        digest = _observation_digest(observation)
        seeds = []
        for worker in range(self.workers):
            seeds.append(
                derive_seed(self._base_seed, self.kind, worker, digest, separator="|", method="blake2b")
            )
        return seeds

    def _shares(self, observation: Observation) -> list[int | None]:
        if self.iterations is None:
            return [None] * self.workers
        total = self.iterations
        if self.kind == "mc":  # mc counts rounds: one playout per legal action each
            total = max(1, total // len(observation.legal_actions))
        share, extra = divmod(total, self.workers)
        return [share + (1 if worker < extra else 0) for worker in range(self.workers)]

    def act(self, observation: Observation) -> Action:
        """Search from ``observation`` and return one of its legal actions."""
        started = time.perf_counter()
        legal = observation.legal_actions
        if not legal or observation.seat is None:
            raise PlayerError(f"seat {observation.seat} has no legal action: it is not its turn")
        if len(legal) == 1:
            return legal[0]
        hard_deadline = None if self.ms is None else started + self.ms / 1000.0
        margin = 0.0 if self.ms is None else _MARGIN_S + _MARGIN_PART * self.ms / 1000.0
        seeds = self._seeds(observation)
        shares = self._shares(observation)
        config = self._config

        def budget(kept: float) -> float | None:
            """Seconds left for a share, keeping ``kept`` seconds back."""
            if hard_deadline is None:
                return None
            return max(hard_deadline - kept - time.perf_counter(), 0.0)

        def task(share: int) -> tuple[object, ...]:
            return (observation, config, seeds[share], shares[share], budget(margin + _WORKER_MARGIN_S))

        sent: list[int] = []
        local = [0]
        if self.workers > 1:
            workers = self._start_workers()
            for share in range(1, self.workers):
                if shares[share] == 0:
                    continue
                wait_idle = None if hard_deadline is None else 0.0
                if workers.submit(share - 1, task(share), wait_idle):
                    sent.append(share)
                elif hard_deadline is None:
                    local.append(share)  # the same seed here gives the same statistics
        results: dict[int, ShareResult] = {}
        for share in local:
            if shares[share] != 0:
                results[share] = search_share(
                    observation, config, seeds[share], shares[share], budget(margin)
                )
        for share in sent:
            assert self._workers is not None
            timeout = None if hard_deadline is None else max(hard_deadline - time.perf_counter(), 0.0)
            result = self._workers.collect(share - 1, timeout)
            if result is not None:
                results[share] = result
            elif hard_deadline is None:  # the worker failed: search its share here
                results[share] = search_share(observation, config, seeds[share], shares[share], None)
            # Under a time budget a late share is left out: the budget comes first.
        root: dict[int, tuple[int, float]] = {action.id: (0, 0.0) for action in legal}
        iterations = 0
        for share in sorted(results):  # a fixed order: float sums are repeatable
            stats, done = results[share]
            iterations += done
            for action_id, (visits, total) in stats.items():
                old_visits, old_total = root.get(action_id, (0, 0.0))
                root[action_id] = (old_visits + visits, old_total + total)
        action = self._choose(legal, root)
        self.last_search = SearchStats(action, iterations, time.perf_counter() - started, len(results), root)
        return action

    def _choose(self, legal: Sequence[Action], root: dict[int, tuple[int, float]]) -> Action:
        raise NotImplementedError


def _mean(stats: tuple[int, float]) -> float:
    visits, total = stats
    return total / visits if visits else -math.inf


@register("mc", "flat Monte Carlo over determinizations of what the seat has seen")
class MCPlayer(_SearchPlayer):
    """Flat Monte Carlo: every legal action is played out on the same sampled deals and
    the best mean reward wins. ``iterations`` counts playouts (spread over the actions).

    >>> from paiute import Deal, RuleSet, SeededChance
    >>> deal = Deal.new(RuleSet.from_preset("gamerules"), players=4, dealer=1, chance=SeededChance(2))
    >>> player = MCPlayer(iterations=40, seed=3)
    >>> player.act(deal.observation(2)) in deal.legal_actions()
    True
    >>> player.last_search.iterations  # 40 // 2 rounds of both draws
    40
    """

    name = "mc"
    kind = "mc"

    def __init__(
        self,
        *,
        iterations: int | None = None,
        ms: float | None = None,
        seed: int | None = None,
        workers: int = 1,
        utility: str = "chips",
        rollout: str = "heuristic",
    ) -> None:
        super().__init__(
            iterations=iterations,
            ms=ms,
            seed=seed,
            workers=workers,
            exploration=0.0,
            utility=utility,
            rollout=rollout,
        )

    def _choose(self, legal: Sequence[Action], root: dict[int, tuple[int, float]]) -> Action:
        # The best mean; ties go to more playouts, then to the lower action id.
        return max(legal, key=lambda action: (_mean(root[action.id]), root[action.id][0], -action.id))


@register("ismcts", "information-set Monte Carlo tree search (single observer)")
class ISMCTSPlayer(_SearchPlayer):
    """Single-observer information-set MCTS; the most visited root action wins."""

    name = "ismcts"
    kind = "ismcts"

    def __init__(
        self,
        *,
        iterations: int | None = None,
        ms: float | None = None,
        seed: int | None = None,
        workers: int = 1,
        exploration: float = 0.7,
        utility: str = "chips",
        rollout: str = "heuristic",
    ) -> None:
        super().__init__(
            iterations=iterations,
            ms=ms,
            seed=seed,
            workers=workers,
            exploration=exploration,
            utility=utility,
            rollout=rollout,
        )

    def _choose(self, legal: Sequence[Action], root: dict[int, tuple[int, float]]) -> Action:
        # The most visited; ties go to the better mean, then to the lower action id.
        return max(legal, key=lambda action: (root[action.id][0], _mean(root[action.id]), -action.id))
