"""One share of a search by ``mc`` or ``ismcts``: determinize, play out, score (R8, R9).

A share is what one process searches of one decision: :func:`search_share` takes the seat's
:class:`~paiute.observation.Observation`, a :class:`SearchConfig`, a seed and a budget, and
returns the root statistics. It runs in the deciding process or in a worker process
(:mod:`paiute.players.search_workers`), and the players of :mod:`paiute.players.search` sum
the shares. The playouts are played by a fast default policy and scored with
:func:`~paiute.settlement.settle`.
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from paiute.actions import DRAW_DISCARD, DRAW_STOCK, Action
from paiute.chance import SeededChance
from paiute.deal import Deal, Phase
from paiute.observation import Observation
from paiute.settlement import settle

__all__ = ["DISCOUNT", "ROLLOUT_CAP", "SearchConfig", "ShareResult", "search_share"]

#: Actions after which a playout (and the tree descent before it) is scored as a dead deal.
ROLLOUT_CAP = 400
#: Chance that the heuristic rollout plays a uniformly random legal action instead.
_EPSILON = 0.05
#: Rewards are discounted by this factor per action from the searched state, so that of
#: two ways to the same result the search prefers the shorter: a sure call now over the same
#: call a few turns later, when the sampled opponents had more chances to beat it.
DISCOUNT = 0.998
_DISCOUNTS = [DISCOUNT**steps for steps in range(ROLLOUT_CAP + 1)]
_NATURALS = 52  # cards 52 and 53 are jokers


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """How a share searches: its algorithm, the UCB constant, what it scores and its playouts."""

    kind: str  # "mc" or "ismcts"
    exploration: float
    utility: str
    heuristic: bool


#: Root statistics (action id -> visits, total scaled reward) and the iterations run.
ShareResult = tuple[dict[int, tuple[int, float]], int]


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


# -- one share of a search ------------------------------------------------------------------


def _deadline(budget_s: float | None) -> float | None:
    return None if budget_s is None else time.perf_counter() + budget_s


def _out_of_time(deadline: float | None, done: int, started: float) -> bool:
    """Whether another iteration, as long as the average one so far, would miss the deadline."""
    if deadline is None:
        return False
    now = time.perf_counter()
    average = (now - started) / done if done else 0.0
    return now + average > deadline


def search_share(
    observation: Observation, config: SearchConfig, seed: int, iterations: int | None, budget_s: float | None
) -> ShareResult:
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
    observation: Observation, config: SearchConfig, seed: int, iterations: int | None, budget_s: float | None
) -> ShareResult:
    if config.kind == "mc":
        return _mc_share(observation, config, seed, iterations, budget_s)
    return _ismcts_share(observation, config, seed, iterations, budget_s)


def _mc_share(
    observation: Observation, config: SearchConfig, seed: int, rounds: int | None, budget_s: float | None
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
    observation: Observation, config: SearchConfig, seed: int, iterations: int | None, budget_s: float | None
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
