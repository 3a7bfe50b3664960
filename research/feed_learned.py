"""A learned guard against feeding the next player: the chance that a discard lets the next
player call, fitted on greedy's self-play, and what guarding greedy's discards with it is worth.

``feed_bound.py`` found that almost all that the true hands are worth to a greedy seat is not
throwing the card that completes the next player's hand (+0.12 pagat, +0.14 gamerules), and
that the feed chances of hands dealt from an honest belief catch little of it. Here the feed
chance is learned instead, straight on its own target: a logistic model, fitted by Newton's
method (:func:`learned_belief.fit`), of whether a card greedy considers throwing would let the
next player call at once (R4.3, R6.2; a Paiute only where R5.7 allows it), from what the
deciding seat sees (R9). A row is one (decision, card) pair of :func:`features`:

* what the next player did with cards of the card's rank and suit, and when (the columns of
  :func:`learned_belief.features`: wild, known, threw, took, passed, last turn, the cards of
  the rank and suit the seat has not seen, suit and neighbours, rank, draws so far); whether
  it may still call a Paiute (R5.7);
* with ``stacked``, also the feed chances of the hands dealt by the ``ranks`` and ``model``
  beliefs of ``feed_bound.py`` (what those beliefs know, for the model to weigh).

The labels (whether the true next hand could call with the card) are read from the deal,
never from an observation; the rows come from ``--train`` deals of greedy against itself, four
seats, on seeds apart from the ``--test`` deals the fit is scored on (AUC and log-loss, beside
the beliefs' own feed chances) and the boards it is then played on: greedy whose discards are
guarded by the learned chance, 4 seats A B A B against plain greedy, every board in both
rotations, for each ``--weights`` (what a feed chance of 1 costs in greedy's score).

    .venv/bin/python -m research.feed_learned --preset pagat --train 2000 --boards 2000
    .venv/bin/python -m research.feed_learned --preset gamerules --columns public --weights 0.5,1,2

The ``public`` fit is the ``guarded`` player's model: ``scripts/make_feed_model.py`` writes the
package's coefficients file (``src/paiute/players/data/feed.json``) with it.
"""

from __future__ import annotations

import argparse
import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from paiute.actions import ActionKind
from paiute.cards import Card
from paiute.deal import Deal
from paiute.observation import Observation
from paiute.players.feed import COLUMNS, FeedModel, feed_rows, next_seat
from research import learned_belief
from research.feed_bound import (
    Guard,
    GuardedGreedy,
    auc,
    dealt_hands,
    derive,
    feed_chances,
    interval,
    play_board,
    pool_map,
)
from research.self_play import PLAYERS, greedy_deal

#: Columns of :func:`features`: the public facts (the package's, :data:`paiute.players.feed.COLUMNS`),
#: then the beliefs' feed chances.
PUBLIC = list(COLUMNS)
BELIEF_COLUMNS = ["ranks chance", "model chance", "model log chance", "model zero"]
NAMES = PUBLIC + BELIEF_COLUMNS
#: Which columns each kind of fit reads.
COLUMNS = {"public": len(PUBLIC), "stacked": len(NAMES)}


def features(
    observation: Observation, cards: Sequence[Card], guard: Guard | None, rng: np.random.Generator
) -> npt.NDArray[np.float64]:
    """The rows of ``cards`` thrown now, ``[len(cards), len(NAMES)]``, from the deciding
    seat's ``observation`` alone (R9); the belief columns only where a ``guard`` says how to
    deal its hands (zeros otherwise)."""
    rows = np.zeros((len(cards), len(NAMES)))
    rows[:, : len(PUBLIC)] = np.array(feed_rows(observation, cards), dtype=np.float64).reshape(len(cards), -1)
    if guard is not None:
        ranks = feed_chances(observation, cards, dealt_hands("ranks", observation, guard, rng))
        model = feed_chances(observation, cards, dealt_hands("model", observation, guard, rng))
        at = len(PUBLIC)
        rows[:, at] = ranks
        rows[:, at + 1] = model
        rows[:, at + 2] = np.log(model + 1.0 / guard.hands)
        rows[:, at + 3] = model == 0
    return rows


def _collect_deal(
    task: tuple[int, str, int, Guard | None, int],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """One deal of greedy self-play at ``seats`` seats: the rows of every card greedy
    considered putting down before any call, whether the true next hand could call with it,
    and whether greedy threw it."""
    index, preset, seed, guard, seats = task
    bot_seeds = [derive(seed, index, "seat", seat) for seat in range(seats)]
    match, deal, players = greedy_deal(preset, index, derive(seed, index, "deck"), bot_seeds)
    rng = np.random.default_rng(derive(seed, index, "beliefs"))
    xs, ys, thrown = [], [], []
    while not deal.is_over:
        observation = deal.observation(deal.current_seat)
        action = players[deal.current_seat].act(observation)
        scores = (
            players[deal.current_seat].discard_scores(observation)
            if action.kind is ActionKind.DISCARD
            else {}
        )
        if len(scores) >= 2:
            cards = list(scores)
            truth = np.array([deal.hand(next_seat(observation))], dtype=np.uint8)  # the label only
            xs.append(features(observation, cards, guard, rng))
            ys.append(feed_chances(observation, cards, truth) > 0)
            thrown.append(np.array([card == action.card for card in cards]))
        match.apply(action)
    if not xs:
        return np.zeros((0, len(NAMES))), np.zeros(0, dtype=bool), np.zeros(0, dtype=bool)
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(thrown)


def collect(
    preset: str, deals: int, seed: int, guard: Guard | None, workers: int, seats: int = PLAYERS
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """The rows, labels and throws of ``deals`` deals of greedy self-play at ``seats`` seats."""
    parts = pool_map(workers, _collect_deal, [(i, preset, seed, guard, seats) for i in range(deals)])
    return (
        np.concatenate([x for x, _, _ in parts]),
        np.concatenate([y for _, y, _ in parts]),
        np.concatenate([t for _, _, t in parts]),
    )


def chances(coefficients: npt.NDArray[np.float64], rows: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The fitted chance that each row's card feeds the next player."""
    return 1.0 / (1.0 + np.exp(-(rows[:, : coefficients.size] @ coefficients)))


def log_loss(p: npt.NDArray[np.float64], y: npt.NDArray[np.bool_]) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(np.where(y, np.log(p), np.log(1 - p))))


@dataclass(frozen=True)
class LearnedGuard(Guard):
    """A guard whose feed chance is the fitted model's (``coefficients`` over the first
    columns of :data:`NAMES`, as many as there are coefficients)."""

    coefficients: tuple[float, ...] = ()

    def player(self, seed: int, deal: Deal | None) -> GuardedGreedy:
        return LearnedGuardedGreedy(self, seed)


class LearnedGuardedGreedy(GuardedGreedy):
    """``greedy`` guarded by the learned feed chance (never shown the deal, R9)."""

    def __init__(self, guard: LearnedGuard, seed: int) -> None:
        super().__init__(guard, seed)
        self.coefficients = np.array(guard.coefficients)
        self.belief_guard = guard if self.coefficients.size > len(PUBLIC) else None

    def chances(self, observation: Observation, cards: Sequence[Card]) -> Sequence[float]:
        if self.belief_guard is None:  # the public columns: the package's model, as ``guarded`` plays it
            model = FeedModel(
                observation.rules.preset, observation.players, tuple(self.coefficients.tolist())
            )
            return model.chances(observation, cards)
        return chances(self.coefficients, features(observation, cards, self.belief_guard, self.rng))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", choices=("pagat", "gamerules"), default="pagat")
    parser.add_argument("--train", type=int, default=2000, help="deals of self-play to fit on")
    parser.add_argument("--test", type=int, default=300, help="deals of self-play to score the fit on")
    parser.add_argument("--boards", type=int, default=2000, help="boards to play each weight on (0: none)")
    parser.add_argument("--columns", choices=tuple(COLUMNS), default="stacked")
    parser.add_argument("--weights", default="1", help="comma-separated: what a feed chance of 1 costs")
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument("--hands", type=int, default=256, help="stacked: the beliefs' hands a decision")
    parser.add_argument(
        "--seed", default="20261213", help="the boards played; comma-separated seeds are also pooled"
    )
    parser.add_argument("--train-seed", type=int, default=20261214)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--seats",
        type=int,
        default=PLAYERS,
        help="the seats of the deals fitted and scored on, 2 to 5 (the boards are played at 4)",
    )
    args = parser.parse_args()
    try:
        weights = [float(text) for text in args.weights.split(",")]
    except ValueError:
        parser.error(f"--weights must be numbers separated by commas, not {args.weights!r}")
    if not all(0 <= weight < math.inf for weight in weights):
        parser.error(f"--weights must be finite and not negative, not {args.weights!r}")
    try:
        seeds = [int(text) for text in args.seed.split(",")]
    except ValueError:
        parser.error(f"--seed must be whole numbers separated by commas, not {args.seed!r}")
    for option, value in (("--train", args.train), ("--test", args.test), ("--hands", args.hands)):
        if value < 1:
            parser.error(f"{option} must be at least 1, not {value}")
    if args.boards < 0 or args.workers < 1 or not (0 <= args.ridge < math.inf):
        parser.error("--boards must not be negative, --workers at least 1, --ridge finite and not negative")
    if not 2 <= args.seats <= 5:
        parser.error(f"--seats must be 2 to 5 (R2.1), not {args.seats}")
    if args.seats != PLAYERS and args.boards:
        parser.error(
            "--seats other than 4 fits and scores only (--boards 0): benchmarks/guarded.py plays them"
        )
    from paiute.compiled import warm

    warm.prepare(block=True)
    belief = Guard("model", hands=args.hands) if args.columns == "stacked" else None
    width = COLUMNS[args.columns]
    started, load = time.time(), os.getloadavg()[0]
    x, y, _ = collect(args.preset, args.train, args.train_seed, belief, args.workers, args.seats)
    coefficients = learned_belief.fit(x[:, :width], y, ridge=args.ridge)
    print(
        f"{args.preset}: fitted {args.columns} ({width} columns) on {y.size} cards of {args.train} deals "
        f"at {args.seats} seats "
        f"(seed {args.train_seed}; {y.mean():.2%} feed), {time.time() - started:.0f} s, "
        f"load {load:.1f} -> {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    test_seed = args.train_seed + 1
    tx, ty, thrown = collect(
        args.preset, args.test, test_seed, Guard("model", hands=args.hands), args.workers, args.seats
    )
    fitted = chances(coefficients, tx)
    at = len(PUBLIC)
    print(
        f"held out: {ty.size} cards of {args.test} deals (seed {test_seed}); greedy's throw feeds {ty[thrown].mean():.2%}"
    )
    print("| feed chance | AUC | log-loss | mean, cards that feed | cards that do not |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, p in (("ranks", tx[:, at]), ("model", tx[:, at + 1]), (f"learned {args.columns}", fitted)):
        print(
            f"| {name} | {auc(p, ty):.3f} | {log_loss(p, ty):.4f} | {p[ty].mean():.4f} | {p[~ty].mean():.4f} |",
            flush=True,
        )
    for weight in weights if args.boards else []:
        guard = LearnedGuard(
            "learned", weight, args.hands, coefficients=tuple(float(c) for c in coefficients)
        )
        pooled = []
        for seed in seeds:
            started, load = time.time(), os.getloadavg()[0]
            tasks = [(i, args.preset, seed, guard) for i in range(args.boards)]
            pooled.append(np.array(pool_map(args.workers, play_board, tasks)))
            print(
                f"learned {args.columns} {args.preset} {args.boards} boards (seed {seed}, weight {weight}): "
                f"{interval(pooled[-1])} chips/deal against greedy; {time.time() - started:.0f} s; "
                f"load {load:.1f} -> {os.getloadavg()[0]:.1f}",
                flush=True,
            )
        if len(seeds) > 1:  # independent boards: the pooled interval is over all of them
            print(
                f"learned {args.columns} {args.preset} weight {weight}, {len(seeds)} seeds pooled "
                f"({len(seeds) * args.boards} boards): {interval(np.concatenate(pooled))} chips/deal"
            )


if __name__ == "__main__":
    main()
