"""A belief about the opponents' hidden cards learned from greedy's self-play: a logistic
model of the chance that an opponent holds a card, from public facts only (R4.5, R9).

Each (opponent, unseen card) pair of a decision is a row of :func:`features`: whether the
card is wild, what the opponent did with cards of its rank (threw, took from the pile, left
on the pile for a stock draw, threw on its last turn, is known to hold), how many of its rank
and suit the deciding seat has not seen, the opponent's cards of its suit and of the ranks
beside it known to be held or thrown, its rank, and the opponent's draws so far. The model is
fitted by :func:`fit` (Newton's method on the log-likelihood with a small ridge) on the rows
of :func:`collect` (every decision of greedy against itself, the truth read from the deal,
never from an observation), and read by :func:`odds` as the per-card weights the search's
dealing takes (``weights[seat, card]``, in proportion to which the hidden cards are drawn).

Used by ``belief_quality.py`` and ``belief_bound.py`` (the ``learned`` belief).
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import numpy.typing as npt

from paiute.observation import Observation
from paiute.players.feed import FACTS, public_facts
from research.self_play import PLAYERS, greedy_deal

#: Columns of :func:`features` (:data:`paiute.players.feed.FACTS`).
NAMES = list(FACTS)
WIDTH = len(NAMES)


def features(
    observation: Observation,
    unseen: npt.NDArray[np.int64],
    seat: int,
    counted: npt.NDArray[np.int64] | None = None,
) -> npt.NDArray[np.float64]:
    """The rows of ``seat``'s ``unseen`` cards, ``[len(unseen), WIDTH]``: the package's
    :func:`paiute.players.feed.public_facts` (one implementation, which says what ``counted``
    means), as an array."""
    rows = public_facts(observation, unseen.tolist(), seat, None if counted is None else counted.tolist())
    return np.array(rows, dtype=np.float64).reshape(len(unseen), WIDTH)


def _collect_deal(task: tuple[int, str, int]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    from paiute.compiled.search import Position

    index, preset, seed = task
    bot_seeds = [seed * 31 + index * 7 + s for s in range(PLAYERS)]
    match, deal, bots = greedy_deal(preset, index, seed * 1_000_003 + index, bot_seeds)
    xs, ys = [], []
    while not deal.is_over:
        observation = deal.observation(deal.current_seat)
        if not observation.rebuilds and len(observation.legal_actions) > 1:
            position = Position.from_observation(observation)
            for seat in range(PLAYERS):
                if seat == observation.seat or position.need[seat] == 0:
                    continue
                held = {int(card) for card in deal.hand(seat)}  # the truth: the label only
                xs.append(features(observation, position.unseen, seat))
                ys.append(np.array([int(card) in held for card in position.unseen]))
        match.apply(bots[deal.current_seat].act(observation))
    if not xs:
        return np.zeros((0, WIDTH)), np.zeros(0, dtype=bool)
    return np.concatenate(xs), np.concatenate(ys)


def collect(
    preset: str, deals: int, seed: int, workers: int
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """The rows and labels of every decision of ``deals`` deals of greedy self-play."""
    with ProcessPoolExecutor(workers) as pool:
        parts = list(pool.map(_collect_deal, [(i, preset, seed) for i in range(deals)], chunksize=4))
    return np.concatenate([x for x, _ in parts]), np.concatenate([y for _, y in parts])


def fit(
    x: npt.NDArray[np.float64], y: npt.NDArray[np.bool_], ridge: float = 1.0, steps: int = 25
) -> npt.NDArray[np.float64]:
    """Logistic regression coefficients by Newton's method (ridge on all but the bias)."""
    w = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], ridge)
    penalty[0] = 0.0
    target = y.astype(np.float64)
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        gradient = x.T @ (p - target) + penalty * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    return w


def fitted(preset: str, deals: int, seed: int, workers: int) -> npt.NDArray[np.float64]:
    """The coefficients fitted on ``deals`` deals of greedy self-play, saying how long it took."""
    started = time.time()
    x, y = collect(preset, deals, seed, workers)
    coefficients = fit(x, y)
    print(f"learned: fitted on {len(y)} rows of {deals} deals (seed {seed}), {time.time() - started:.0f} s")
    return coefficients


def odds(
    observation: Observation, unseen: npt.NDArray[np.int64], coefficients: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """Per seat and card, the weights to deal the hidden cards by: the model's odds that the
    seat holds the card (its own row, and cards it cannot hold, 1)."""
    weights = np.ones((8, 54))
    for seat in range(observation.players):
        if seat == observation.seat:
            continue
        weights[seat, unseen] = np.exp(features(observation, unseen, seat) @ coefficients)
    return weights
