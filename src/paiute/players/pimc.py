"""``pimc``: imperfect-information Monte Carlo over compiled playouts (a rollout algorithm).

From the seat's :class:`~paiute.observation.Observation` only (R9), it deals the cards the seat
cannot see at random many times over (determinizations, optionally weighted by what the
opponents' public actions say, R4.5), plays every legal action out on each with the compiled
playout policy for every seat (:mod:`paiute.compiled.search`; benchmarks/README.md, "Search
speed", has its playouts a CPU-second) and compares the actions on the *same* determinizations
(paired samples). It keeps ``greedy``'s move unless another action's paired advantage over it is
significant (more than ``z`` standard errors): with thousands of playouts this is argmax where
the evidence is clear and the rule of thumb where it is not (Tesauro & Galperin's rollout
improves on its base policy; Furtak & Buro's IIMC in Skat).

Options (``make_player("pimc:ms=100")``, ``make_player("pimc:iterations=400,seed=1")``):

* ``iterations``: determinizations per decision (each legal action is played out once on
  each). With an iteration budget the decision is a function of the seed and the
  observation only, whatever the machine's load or ``workers``.
* ``ms``: a time budget per decision (default 100 when no ``iterations`` is given): it stops
  when one more chunk of determinizations would pass it.
* ``workers``: threads sharing the determinizations (the kernels release the GIL), for
  several cores; the same decisions as one thread under an iteration budget.
* ``z`` (default 1.0): how many standard errors an alternative's paired advantage over
  ``greedy``'s move must exceed; 0 is plain argmax.
* ``belief`` (default ``ranks``): how the hidden cards are dealt
  (:data:`~paiute.players.evaluate.BELIEFS`): ``ranks``, weighted by the ranks each
  opponent threw, passed or took (R4.5); ``moves``, hands that explain each opponent's
  last turns as greedy would have played them (:mod:`paiute.compiled.belief`; no stronger
  than ``ranks`` in play, research/README.md); ``uniform``.
* ``policy`` (default ``playout``): who plays the playouts, for every seat: ``playout``, the
  compiled essence of greedy (fastest), or ``greedy``, greedy exactly, compiled
  (:mod:`paiute.compiled.greedy`: the opponents of the playouts behave as the real
  ``greedy`` does, at a fraction of the playouts a second).
* ``baseline`` (default ``greedy``): the move kept unless beaten, and the move played while
  the kernels are not ready or without Numba: ``greedy``'s, or ``guarded``'s (the ``expert``
  level, :mod:`paiute.players.guarded`: greedy whose discards avoid feeding the next player).
* ``seed``.

**No stall** (the compiled kernels are compiled once and cached on disk, see
:mod:`paiute.compiled.warm`): with a time budget, a decision made before the kernels are ready
is ``greedy``'s, while they compile or load in a background thread; with an iteration budget
the decision waits for them (it must be repeatable). A tournament, which measures the bot
itself, waits for them first (:meth:`PIMCPlayer.prepare`, through
:func:`~paiute.players.base.prepare_player`). Without Numba (the ``rl`` extra), every decision
is ``greedy``'s.
"""

from __future__ import annotations

import concurrent.futures
import math
import random
import time
from dataclasses import dataclass
from typing import Any

from paiute.actions import Action
from paiute.chance import derive_seed
from paiute.compiled import available, warm
from paiute.observation import Observation
from paiute.players.base import PlayerError, check_budget, register
from paiute.players.evaluate import BELIEFS, POLICIES
from paiute.players.greedy import GreedyPlayer
from paiute.players.guarded import GuardedPlayer

__all__ = ["BASELINES", "PIMCPlayer", "PIMCStats"]

#: The players whose move pimc keeps unless another is significantly better.
BASELINES: dict[str, type[GreedyPlayer]] = {"greedy": GreedyPlayer, "guarded": GuardedPlayer}

#: Determinizations per chunk of a time-budgeted search (each thread's unit of work).
CHUNK = 8
#: Kept back from an ``ms`` budget: this part of it, for the last chunk's overrun.
_MARGIN_PART = 0.05


@dataclass(frozen=True, slots=True)
class PIMCStats:
    """What the last decision did."""

    action: Action
    baseline: Action  # the baseline player's move (greedy's, unless ``baseline=guarded``)
    determinizations: int
    playouts: int
    seconds: float
    compiled: bool  # False: greedy's move while the kernels were not ready


def decision_seed(seed: int, observation: Observation) -> int:
    """A 64-bit seed for one decision from the player's seed and what the seat has seen
    (the observation only, R9: the same for every deal of the hidden cards)."""
    parts = (seed, observation.seat, len(observation.history), observation.hand, observation.discard_pile)
    return derive_seed(*parts, separator="|", method="blake2b")


@register("pimc", "determinized Monte Carlo: compiled paired playouts of every action, greedy unless beaten")
class PIMCPlayer:
    """Imperfect-information Monte Carlo over compiled playouts; see the module."""

    name = "pimc"

    def __init__(
        self,
        *,
        iterations: int | None = None,
        ms: float | None = None,
        seed: int | None = None,
        workers: int = 1,
        z: float = 1.0,
        belief: str = "ranks",
        policy: str = "playout",
        baseline: str = "greedy",
    ) -> None:
        check_budget(iterations=iterations, ms=ms, workers=workers)
        if not 0 <= z < math.inf:  # NaN too
            raise ValueError(f"z must be a finite number, not negative, not {z}")
        if policy not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(POLICIES)}, not {policy!r}")
        if belief not in BELIEFS:
            raise ValueError(f"belief must be one of {', '.join(BELIEFS)}, not {belief!r}")
        if baseline not in BASELINES:
            raise ValueError(f"baseline must be one of {', '.join(BASELINES)}, not {baseline!r}")
        self.iterations = iterations
        self.ms = ms if ms is not None or iterations is not None else 100.0
        self.seed = seed
        self.workers = workers
        self.z = z
        self.belief = belief
        self.policy = policy
        self._base_seed = seed if seed is not None else random.SystemRandom().getrandbits(63)
        self.baseline = baseline
        self._greedy = BASELINES[baseline](seed=self._base_seed)
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None
        self.last_search: PIMCStats | None = None
        if available():
            warm.prepare(block=False)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(vars(self))
        state["_pool"] = None  # threads do not travel
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        vars(self).update(state)
        if available():
            warm.prepare(block=False)

    def prepare(self, *, timeout: float | None = None) -> bool:
        """Wait (at most ``timeout`` seconds) for the compiled kernels, so that every later
        decision searches (:func:`~paiute.players.base.prepare_player`; a table never calls
        it). False without Numba or if they failed to load: then every move is greedy's."""
        return available() and warm.prepare(block=True, timeout=timeout)

    def close(self) -> None:
        """Stop the worker threads (a later decision starts them again)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False)
            self._pool = None

    def act(self, observation: Observation) -> Action:
        started = time.perf_counter()
        legal = observation.legal_actions
        if not legal or observation.seat is None:
            raise PlayerError(f"seat {observation.seat} has no legal action: it is not its turn")
        if len(legal) == 1:
            return legal[0]
        self._greedy._random.seed(decision_seed(self._base_seed, observation))  # repeatable ties
        baseline = self._greedy.act(observation)
        if not available() or not warm.prepare(block=self.iterations is not None):
            self.last_search = PIMCStats(baseline, baseline, 0, 0, time.perf_counter() - started, False)
            return baseline
        from paiute.players.evaluate import estimate_actions

        budget_ms = None
        if self.ms is not None:
            spent = (time.perf_counter() - started) * 1000.0
            budget_ms = max(self.ms * (1.0 - _MARGIN_PART) - spent, 0.001)
        estimates = estimate_actions(
            observation,
            playouts=self.iterations,
            budget_ms=budget_ms if self.iterations is None else None,
            seed=decision_seed(self._base_seed, observation),
            core="compiled",
            workers=self.workers,
            belief=self.belief,
            pool=self._thread_pool(),
            policy=self.policy,
        )
        choice = baseline
        best = estimates.best()
        if best.action != baseline and best.samples >= 2:
            mean, low, _ = estimates.advantage(best.action, baseline)
            # low is mean - 1.96 se: the advantage must exceed z standard errors.
            se = (mean - low) / 1.959963984540054 if math.isfinite(low) else math.inf
            if mean > self.z * se:
                choice = best.action
        self.last_search = PIMCStats(
            choice, baseline, best.samples, estimates.playouts, time.perf_counter() - started, True
        )
        return choice

    def _thread_pool(self) -> concurrent.futures.ThreadPoolExecutor | None:
        if self.workers < 2:
            return None
        if self._pool is None:
            self._pool = concurrent.futures.ThreadPoolExecutor(self.workers, thread_name_prefix="pimc")
        return self._pool


@register("playout", "the compiled playout policy of pimc as a player: greedy's rules of thumb, simplified")
class PlayoutPlayer:
    """The compiled playout policy (:mod:`paiute.compiled.playout`) deciding alone; ``greedy``
    while the kernels are not ready (or without Numba). Deterministic: it has no seed."""

    name = "playout"

    def __init__(self, *, seed: int | None = None) -> None:
        self.seed = seed
        self._greedy = GreedyPlayer(seed=seed)
        if available():
            warm.prepare(block=False)

    def act(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        if not legal or observation.seat is None:
            raise PlayerError(f"seat {observation.seat} has no legal action: it is not its turn")
        if len(legal) == 1:
            return legal[0]
        if not available() or not warm.prepare(block=True):
            return self._greedy.act(observation)
        import numpy as np

        from paiute.compiled.search import SCRATCH, Position, policy_move

        position = Position.from_observation(observation)
        scratch = np.zeros(SCRATCH, dtype=np.int64)
        action = Action.from_id(
            policy_move(position.template, position.tables, position.ptables, position.params, 0, scratch)
        )
        if action not in legal:  # cannot happen: the kernel chooses among the legal ids
            raise PlayerError(f"the playout policy chose {action}, which is not legal here")
        return action
