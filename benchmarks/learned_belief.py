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

import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from self_play import PLAYERS, greedy_deal

from paiute.actions import ActionKind
from paiute.observation import Observation

#: Columns of :func:`features`.
NAMES = (
    ["bias", "wild"]
    + [f"known {k}" for k in ("1", "2+")]
    + [f"threw {k}" for k in ("1", "2+")]
    + [f"took {k}" for k in ("1", "2+")]
    + [f"passed {k}" for k in ("1", "2+")]
    + ["threw last turn", "took last turn", "passed last turn"]
    + [f"rank unseen {k}" for k in ("1", "2", "3")]
    + ["suit known", "suit threw", "suit unseen", "beside known", "beside threw"]
    + [f"rank {r}" for r in range(12)]
    + [f"draws {k}" for k in ("1", "2", "3-4", "5+")]
)
WIDTH = len(NAMES)
_AT = {name: i for i, name in enumerate(NAMES)}


def _rank_counts(observation: Observation) -> tuple[npt.NDArray[np.int64], ...]:
    """Per seat: cards of each rank (13) and suit (4) it threw, took and passed; its last
    turn's throw, take and pass (-1 for none)."""
    players = observation.players
    threw = np.zeros((players, 13), dtype=np.int64)
    took = np.zeros((players, 13), dtype=np.int64)
    passed = np.zeros((players, 13), dtype=np.int64)
    threw_suit = np.zeros((players, 4), dtype=np.int64)
    last = np.full((players, 3), -1, dtype=np.int64)  # rank thrown, taken, passed on the last turn
    pile: list[int] = [] if observation.initial_discard is None else [int(observation.initial_discard)]
    rules = observation.rules
    for event in observation.history:
        kind, seat = event.action.kind, event.seat
        if event.rebuilt:  # R4.6
            pile = pile[-1:] if rules.reshuffle_keeps_top else []
        if kind is ActionKind.DRAW_STOCK and not event.ends_deal:
            last[seat] = -1
            if pile and pile[-1] < 52:
                passed[seat, pile[-1] // 4] += 1
                last[seat, 2] = pile[-1] // 4
        elif kind is ActionKind.DRAW_DISCARD:
            card = pile.pop()
            last[seat] = -1
            if card < 52:
                took[seat, card // 4] += 1
                last[seat, 1] = card // 4
        elif (kind is ActionKind.DISCARD or kind is ActionKind.CALL_FIVE) and event.card is not None:
            card = int(event.card)
            pile.append(card)
            if card < 52:
                threw[seat, card // 4] += 1
                threw_suit[seat, card % 4] += 1
                last[seat, 0] = card // 4
    return threw, took, passed, threw_suit, last


def features(
    observation: Observation,
    unseen: npt.NDArray[np.int64],
    seat: int,
    counted: npt.NDArray[np.int64] | None = None,
) -> npt.NDArray[np.float64]:
    """The rows of ``seat``'s ``unseen`` cards, ``[len(unseen), WIDTH]`` (see the module).

    The unseen cards of a row's rank and suit are counted among ``unseen``, the row's card
    included. For rows of cards the deciding seat holds, ``counted`` gives the cards it has not
    seen instead, and the row's card is counted with them, so the columns mean the same."""
    threw, took, passed, threw_suit, last = _rank_counts(observation)
    wild = {int(card) for card in observation.wild_cards}
    known = [int(card) for card in observation.known_cards[seat] if int(card) < 52 and int(card) not in wild]
    known_rank = np.bincount([c // 4 for c in known], minlength=13)
    known_suit = np.bincount([c % 4 for c in known], minlength=4)
    naturals = [int(c) for c in (unseen if counted is None else counted) if c < 52 and int(c) not in wild]
    unseen_rank = np.bincount([c // 4 for c in naturals], minlength=13)
    unseen_suit = np.bincount([c % 4 for c in naturals], minlength=4)
    own = 0 if counted is None else 1  # the row's card, held and so not among ``counted``
    draws = sum(
        1 for e in observation.history if e.seat == seat and e.action.kind.is_draw and not e.ends_deal
    )
    rows = np.zeros((len(unseen), WIDTH))
    rows[:, _AT["bias"]] = 1.0
    if draws >= 1:
        rows[
            :, _AT["draws " + ("1" if draws == 1 else "2" if draws == 2 else "3-4" if draws <= 4 else "5+")]
        ] = 1.0
    for i, card in enumerate(int(c) for c in unseen):
        if card >= 52 or card in wild:  # R3: a wild card is kept whatever its rank
            rows[i, _AT["wild"]] = 1.0
            continue
        rank, suit = card // 4, card % 4
        for name, count in (
            ("known", known_rank[rank]),
            ("threw", threw[seat, rank]),
            ("took", took[seat, rank]),
            ("passed", passed[seat, rank]),
        ):
            if count:
                rows[i, _AT[f"{name} {'1' if count == 1 else '2+'}"]] = 1.0
        rows[i, _AT["threw last turn"]] = last[seat, 0] == rank
        rows[i, _AT["took last turn"]] = last[seat, 1] == rank
        rows[i, _AT["passed last turn"]] = last[seat, 2] == rank
        if unseen_rank[rank] + own <= 3:  # all four unseen is the baseline
            rows[i, _AT[f"rank unseen {unseen_rank[rank] + own}"]] = 1.0
        rows[i, _AT["suit known"]] = known_suit[suit]
        rows[i, _AT["suit threw"]] = threw_suit[seat, suit]
        rows[i, _AT["suit unseen"]] = (unseen_suit[suit] + own) / 13
        beside = [r for r in (rank - 1, rank + 1) if 0 <= r < 13]
        rows[i, _AT["beside known"]] = sum(known_rank[r] for r in beside)
        rows[i, _AT["beside threw"]] = sum(threw[seat, r] for r in beside)
        if rank < 12:  # the ace is the baseline
            rows[i, _AT[f"rank {rank}"]] = 1.0
    return rows


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
