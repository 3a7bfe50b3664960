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

import contextlib
import gc
import hashlib
import json
import math
import multiprocessing
import random
import sys
import threading
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Self

from paiute.actions import DRAW_DISCARD, DRAW_STOCK, Action
from paiute.chance import SeededChance
from paiute.deal import Deal, Phase
from paiute.observation import Observation
from paiute.players.base import PlayerError, register
from paiute.settlement import settle

__all__ = ["DISCOUNT", "ROLLOUT_CAP", "ISMCTSPlayer", "MCPlayer", "SearchStats"]

#: Actions after which a playout (and the tree descent before it) is scored as a dead deal.
ROLLOUT_CAP = 400
#: Chance that the heuristic rollout plays a uniformly random legal action instead.
_EPSILON = 0.05
#: Kept back from an ``ms`` budget for merging results and returning: this many seconds ...
_MARGIN_S = 0.001
#: ... and this part of the budget (one long playout, a busy machine).
_MARGIN_PART = 0.04
#: Kept back as well from a worker's share of an ``ms`` budget: the task and reply travel.
_WORKER_MARGIN_S = 0.002
#: Rewards are discounted by this factor per action from the searched state, so that of
#: two ways to the same result the search prefers the shorter: a sure call now over the same
#: call a few turns later, when the sampled opponents had more chances to beat it.
DISCOUNT = 0.998
_DISCOUNTS = [DISCOUNT**steps for steps in range(ROLLOUT_CAP + 1)]
_UTILITIES = ("chips", "win")
_ROLLOUTS = ("heuristic", "random")
_NATURALS = 52  # cards 52 and 53 are jokers


@dataclass(frozen=True, slots=True)
class _Config:
    kind: str  # "mc" or "ismcts"
    exploration: float
    utility: str
    heuristic: bool


_Result = tuple[dict[int, tuple[int, float]], int]  # root statistics and iterations run


@dataclass(frozen=True, slots=True)
class SearchStats:
    """What the last decision's search did: summed over the workers that reported."""

    action: Action
    iterations: int  # playouts (mc) or tree iterations (ismcts)
    seconds: float
    workers: int  # searches whose results were merged
    root: dict[int, tuple[int, float]]  # action id -> (visits, total scaled reward)


# -- rewards ----------------------------------------------------------------------------------


class _Scorer:
    """Per-seat rewards of a finished (or cut) playout, scaled to about [-1, 1]."""

    __slots__ = ("_chips", "_dead", "_scale")

    def __init__(self, observation: Observation, utility: str) -> None:
        rules = observation.rules
        players = observation.players
        # An empty pot (a deal played outside a match, or stakes of 0) makes every chip
        # reward 0: then score the winning share instead, which is what the pot would pay.
        self._chips = utility == "chips" and (rules.payout != "pot" or observation.pot > 0)
        if rules.payout == "pot":
            self._scale = float(max(observation.pot, 1))
            # R8.5: the pot stays for the next deal; value it as an even share of it.
            share = 1.0 / players if utility == "chips" else 0.0
        else:
            # R8.4: the most a winner can take is Five of a Kind, doubled, from every loser.
            self._scale = float(max(rules.unit * 10 * (players - 1), 1))
            share = 0.0
        self._dead = [share] * players

    def rewards(self, deal: Deal) -> list[float]:
        outcome = deal.outcome
        if outcome is None or outcome.dead:  # a cut playout counts as dead (R4.7)
            return self._dead
        if not self._chips:
            rewards = [0.0] * deal.players
            for seat in outcome.winners:
                rewards[seat] = 1.0 / len(outcome.winners)
            return rewards
        after, _ = settle(deal.rules, outcome, deal.balances, deal.pot, deal.dealer)
        scale = self._scale
        return [(new - old) / scale for new, old in zip(after, deal.balances, strict=True)]


# -- the default policy -----------------------------------------------------------------------


def _best_call(deal: Deal, calls: Sequence[Action]) -> Action:
    if len(calls) == 1:
        return calls[0]
    hand = deal.hand(deal.current_seat)
    code = deal.evaluator.code
    best, best_code = calls[0], -1
    for action in calls:
        card = action.card
        value = code(hand) if card is None else code([other for other in hand if other != card])
        if value > best_code:
            best, best_code = action, value
    return best


def _heuristic_action(deal: Deal, rng: random.Random) -> Action:
    """Collect ranks: take a discard that is wild or pairs the hand, throw the card of the
    rarest rank (never a wild card), call the best call as soon as one is legal."""
    seat = deal.current_seat
    wild = deal.wild_cards
    if deal.phase is Phase.DRAW:
        if deal.stock_size == 0 and not deal.is_legal(DRAW_STOCK):
            return DRAW_DISCARD
        pile = deal.discard_pile
        if pile:
            top = pile[-1]
            if top in wild:
                return DRAW_DISCARD
            if top < _NATURALS:
                rank = top >> 2
                for card in deal.hand(seat):
                    if card < _NATURALS and card >> 2 == rank and card not in wild:
                        return DRAW_DISCARD
        return DRAW_STOCK
    actions = deal.legal_actions()
    if actions[-1].kind.is_call:  # calls follow the discards in id order
        return _best_call(deal, [action for action in actions if action.kind.is_call])
    counts = [0] * 13
    for card in deal.hand(seat):
        if card < _NATURALS and card not in wild:
            counts[card >> 2] += 1
    best = actions[0]
    best_key = 99
    ties = 0
    for action in actions:
        thrown = action.card
        assert thrown is not None
        key = 9 if thrown >= _NATURALS or thrown in wild else counts[thrown >> 2]
        if key < best_key:
            best, best_key, ties = action, key, 1
        elif key == best_key:
            ties += 1
            if rng.randrange(ties) == 0:
                best = action
    return best


def _rollout(deal: Deal, rng: random.Random, limit: int, heuristic: bool) -> int:
    """Play ``deal`` on with the default policy for at most ``limit`` actions; how many."""
    steps = 0
    while not deal.is_over and steps < limit:
        steps += 1
        if heuristic and rng.random() >= _EPSILON:
            action = _heuristic_action(deal, rng)
        else:
            actions = deal.legal_actions()
            if not heuristic and actions[-1].kind.is_call:
                action = _best_call(deal, [other for other in actions if other.kind.is_call])
            else:
                action = actions[rng.randrange(len(actions))]
        deal.apply(action)
    return steps


# -- one share of a search (run in this process or in a pool process) ------------------------


def _deadline(budget_s: float | None) -> float | None:
    return None if budget_s is None else time.perf_counter() + budget_s


def _out_of_time(deadline: float | None, done: int, started: float) -> bool:
    """Whether another iteration, as long as the average one so far, would miss the deadline."""
    if deadline is None:
        return False
    now = time.perf_counter()
    average = (now - started) / done if done else 0.0
    return now + average > deadline


def _search_share(
    observation: Observation, config: _Config, seed: int, iterations: int | None, budget_s: float | None
) -> _Result:
    """Root statistics (action id -> visits, total reward) and the iterations run.

    The cyclic garbage collector is paused meanwhile: the tree holds no cycles, and a full
    collection over thousands of fresh nodes would cost more than an iteration.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _search_share_inner(observation, config, seed, iterations, budget_s)
    finally:
        if enabled:
            gc.enable()


def _search_share_inner(
    observation: Observation, config: _Config, seed: int, iterations: int | None, budget_s: float | None
) -> _Result:
    if config.kind == "mc":
        return _mc_share(observation, config, seed, iterations, budget_s)
    return _ismcts_share(observation, config, seed, iterations, budget_s)


def _mc_share(
    observation: Observation, config: _Config, seed: int, rounds: int | None, budget_s: float | None
) -> tuple[dict[int, tuple[int, float]], int]:
    started = time.perf_counter()
    deadline = _deadline(budget_s)
    seat = observation.seat
    assert seat is not None
    legal = observation.legal_actions
    scorer = _Scorer(observation, config.utility)
    chance = SeededChance(seed)
    rng = random.Random(seed ^ 0x5EED)
    visits = [0] * len(legal)
    totals = [0.0] * len(legal)
    done = 0
    round_index = 0
    while rounds is None or round_index < rounds:
        if done and _out_of_time(deadline, done, started):
            break
        base = Deal.from_observation(observation, chance)
        for index, action in enumerate(legal):  # the same determinization for every action
            if index and _out_of_time(deadline, done, started):
                break
            deal = base.copy(chance)
            deal.apply(action)
            steps = 1 + _rollout(deal, rng, ROLLOUT_CAP - 1, config.heuristic)
            visits[index] += 1
            totals[index] += scorer.rewards(deal)[seat] * _DISCOUNTS[steps]
            done += 1
        round_index += 1
    return {action.id: (visits[i], totals[i]) for i, action in enumerate(legal)}, done


class _Node:
    """A node of the single-observer tree: reached by ``seat`` choosing an action."""

    __slots__ = ("avail", "children", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1


def _ismcts_share(
    observation: Observation, config: _Config, seed: int, iterations: int | None, budget_s: float | None
) -> tuple[dict[int, tuple[int, float]], int]:
    started = time.perf_counter()
    deadline = _deadline(budget_s)
    scorer = _Scorer(observation, config.utility)
    chance = SeededChance(seed)
    rng = random.Random(seed ^ 0x5EED)
    root = _Node(-1)
    c = config.exploration
    log = math.log
    sqrt = math.sqrt
    done = 0
    while iterations is None or done < iterations:
        if done and _out_of_time(deadline, done, started):
            break
        deal = Deal.from_observation(observation, chance)
        node = root
        path: list[_Node] = []
        steps = 0
        while not deal.is_over and steps < ROLLOUT_CAP:
            steps += 1
            legal = deal.legal_actions()
            children = node.children
            untried: list[Action] = []
            present: list[tuple[Action, _Node]] = []
            for action in legal:
                child = children.get(action.id)
                if child is None:
                    untried.append(action)
                else:
                    present.append((action, child))
            if untried:  # expand one, then play out
                action = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
                child = _Node(deal.current_seat)
                children[action.id] = child
                deal.apply(action)
                path.append(child)
                break
            best_action, best_child = present[0]
            best_score = -math.inf
            for action, child in present:
                score = child.total / child.visits + c * sqrt(log(child.avail) / child.visits)
                if score > best_score:
                    best_action, best_child, best_score = action, child, score
                child.avail += 1
            deal.apply(best_action)
            path.append(best_child)
            node = best_child
        steps += _rollout(deal, rng, ROLLOUT_CAP - steps, config.heuristic)
        rewards = scorer.rewards(deal)
        discount = _DISCOUNTS[steps]
        for visited in path:
            visited.visits += 1
            visited.total += rewards[visited.seat] * discount
        done += 1
    return {action_id: (child.visits, child.total) for action_id, child in root.children.items()}, done


# -- the players ------------------------------------------------------------------------------


def _observation_digest(observation: Observation) -> bytes:
    """A stable digest of everything the observation holds (the same in every process)."""
    text = json.dumps(observation.to_json(), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def _process_context() -> Any:
    """``fork`` on Linux while this process has a single thread (fast, and scripts need no
    ``if __name__ == "__main__"`` guard); otherwise ``forkserver`` or ``spawn``."""
    methods = multiprocessing.get_all_start_methods()
    if sys.platform == "linux" and "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _worker_main(conn: Connection) -> None:
    """A worker process: run search shares sent down the pipe until ``None`` or EOF."""
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            reply: tuple[_Result | None, str | None] = (_search_share(*task), None)
        except Exception as error:  # reported to the caller, which searches on without it
            reply = (None, repr(error))
        try:
            conn.send(reply)
        except OSError:
            return


class _Workers:
    """Worker processes, one pipe each, at most one task outstanding per worker.

    Tasks go down the pipes from the calling thread itself: no helper threads (a
    :class:`~concurrent.futures.ProcessPoolExecutor` feeds its queue from a thread that
    waits for the GIL while the caller searches, which delays every share).
    """

    def __init__(self, count: int) -> None:
        context = _process_context()
        self._conns: list[Connection] = []
        self._processes: list[Any] = []
        self._busy: list[bool] = []
        self._alive: list[bool] = []
        for _ in range(count):
            parent, child = context.Pipe()
            process = context.Process(target=_worker_main, args=(child,), daemon=True, name="paiute-search")
            try:
                process.start()
                alive = True
            except (AssertionError, OSError, RuntimeError):
                # E.g. inside a daemonic pool process, which may not have children: its
                # share is then searched in the calling process (see ``act``).
                alive = False
            child.close()
            self._conns.append(parent)
            self._processes.append(process)
            self._busy.append(False)
            self._alive.append(alive)

    def _dead(self, index: int) -> None:
        self._alive[index] = False
        self._busy[index] = False

    def submit(self, index: int, task: tuple[object, ...], wait_idle: float | None) -> bool:
        """Send ``task`` to worker ``index``; ``False`` if it is dead, or still busy with a
        late task after ``wait_idle`` seconds (``None``: wait as long as it takes)."""
        if self._busy[index]:
            self.collect(index, wait_idle)  # a late reply to an earlier decision: drop it
        if not self._alive[index] or self._busy[index]:
            return False
        try:
            self._conns[index].send(task)
        except OSError:
            self._dead(index)
            return False
        self._busy[index] = True
        return True

    def collect(self, index: int, timeout: float | None) -> _Result | None:
        """The reply of worker ``index`` within ``timeout`` seconds (``None``: no limit), or
        ``None`` if it failed, died or is not done yet (it stays busy then)."""
        if not self._busy[index]:
            return None
        conn = self._conns[index]
        try:
            if not conn.poll(timeout):
                return None
            reply: tuple[_Result | None, str | None] = conn.recv()
        except (EOFError, OSError):
            self._dead(index)
            return None
        self._busy[index] = False
        return reply[0]

    def close(self) -> None:
        for conn, alive in zip(self._conns, self._alive, strict=True):
            if alive:
                with contextlib.suppress(OSError):
                    conn.send(None)
        for process, conn, alive in zip(self._processes, self._conns, self._alive, strict=True):
            if alive or process.pid is not None:
                process.join(0.5)
                if process.is_alive():
                    process.terminate()
            conn.close()
        self._alive = [False] * len(self._alive)


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
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        if ms is not None and ms <= 0:
            raise ValueError(f"ms must be positive, not {ms}")
        if workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        if utility not in _UTILITIES:
            raise ValueError(f"utility must be one of {', '.join(_UTILITIES)}, not {utility!r}")
        if rollout not in _ROLLOUTS:
            raise ValueError(f"rollout must be one of {', '.join(_ROLLOUTS)}, not {rollout!r}")
        if exploration < 0:
            raise ValueError(f"exploration must not be negative, not {exploration}")
        self.iterations = iterations if iterations is not None or ms is not None else 500
        self.ms = ms
        self.seed = seed
        self.workers = workers
        self._config = _Config(self.kind, exploration, utility, rollout == "heuristic")
        self._base_seed = seed if seed is not None else random.SystemRandom().getrandbits(64)
        self._workers: _Workers | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None
        self.last_search: SearchStats | None = None
        if workers > 1:  # start the processes now rather than in the first decision
            self._start_workers()

    # -- the worker processes ----------------------------------------------------------------

    def _start_workers(self) -> _Workers:
        if self._workers is None:
            workers = _Workers(self.workers - 1)
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
            key = f"{self._base_seed}|{self.kind}|{worker}|".encode() + digest
            seeds.append(int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big"))
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
        results: dict[int, _Result] = {}
        for share in local:
            if shares[share] != 0:
                results[share] = _search_share(
                    observation, config, seeds[share], shares[share], budget(margin)
                )
        for share in sent:
            assert self._workers is not None
            timeout = None if hard_deadline is None else max(hard_deadline - time.perf_counter(), 0.0)
            result = self._workers.collect(share - 1, timeout)
            if result is not None:
                results[share] = result
            elif hard_deadline is None:  # the worker failed: search its share here
                results[share] = _search_share(observation, config, seeds[share], shares[share], None)
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
