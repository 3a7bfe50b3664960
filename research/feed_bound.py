"""What feeding the next player costs greedy, and how much of it an honest belief can save.

Almost every deal is won by its first caller (R8.1; 91-94% in greedy self-play at four seats),
and some 40% of first calls are made with the card just taken from the discard pile (R4.2):
the card the player before them threw. A discard that completes the next player's
combination hands it the deal. This script plays ``greedy`` whose discards are *guarded*
against that, at 4 seats A B A B against plain ``greedy``, every board in both rotations
(duplicate), the variants differing only in what the guard believes the next player holds:

* ``oracle``: its true hand (a cheating bound no real bot may use, R9; this script alone
  hands it the deal): the guard avoids exactly the discards that would let it call;
* ``uniform``: its hidden cards dealt at random from the cards the seat has not seen;
* ``ranks``: dealt in proportion to pimc's rank weights (the ranks it threw, passed over and
  took, R4.5; :func:`paiute.compiled.search.inference_weights`);
* ``model``: hands that explain its last ``--depth`` turns as greedy would have played them
  (:mod:`paiute.compiled.belief`, ``--hands`` particles, ``--eps``).

The guard: before any call (R7.2), of the discards greedy considers
(:meth:`GreedyPlayer.discard_scores <paiute.players.greedy.GreedyPlayer.discard_scores>`),
it throws the one whose score less ``--weight`` times its *feed chance* is highest. The feed
chance of a card is the share of the next player's dealt hands (``--hands`` of them) with
which, taking the card from the pile, it could call at once: a six-card call, or a five-card
call that shows the card taken (R4.3, R6.2), a Paiute only where R5.7 lets it (its first
turn, or any turn where the rules allow). A dealt hand whose five cards already make a
combination is dropped: greedy would have called with it.

``--diagnose N`` plays N deals of greedy self-play instead and scores the beliefs' feed
chances against the truth on every guarded decision: how often greedy's own discard feeds
the next player, each belief's mean feed chance for the cards that do and the cards that do
not, and its AUC (the chance it ranks a feeding card above a safe one; 0.5 is blind).

    .venv/bin/python -m research.feed_bound --boards 2000 --preset pagat
    .venv/bin/python -m research.feed_bound --variants oracle,model --depth 8 --hands 1024
    .venv/bin/python -m research.feed_bound --diagnose 150 --preset gamerules
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from paiute.actions import ActionKind
from paiute.batch import BatchEvaluator
from paiute.cards import Card
from paiute.deal import Deal
from paiute.evaluator import Evaluator
from paiute.greedy_weights import PAIUTE
from paiute.observation import Observation
from paiute.outs import Unseen
from paiute.players.feed import next_seat, paiute_allowed
from paiute.players.greedy import GreedyPlayer
from paiute.players.guarded import GuardedPlayer
from paiute.players.play import play_turn
from research.self_play import PLAYERS, greedy_deal

VARIANTS = ("oracle", "uniform", "ranks", "model")
#: The beliefs the diagnosis scores (the oracle is the truth it scores them against).
BELIEFS = VARIANTS[1:]


def derive(*parts: object) -> int:
    """A 64-bit seed derived from ``parts`` (a board, a seat, a purpose), the same in every process."""
    text = "|".join(map(str, parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


@dataclass(frozen=True)
class Guard:
    """What a guarded seat believes and how much a feed chance weighs against greedy's score."""

    variant: str
    weight: float = 1.0
    hands: int = 256
    depth: int = 4
    eps: float = 0.02

    def player(self, seed: int, deal: Deal | None) -> GuardedGreedy:
        """The guarded seat; ``deal`` is read by the ``oracle`` variant alone."""
        return GuardedGreedy(self, seed, deal)


_EVALUATORS: dict[tuple[frozenset[Card], bool], tuple[BatchEvaluator, Evaluator]] = {}


def _evaluators(observation: Observation) -> tuple[BatchEvaluator, Evaluator]:
    """The batch and scalar evaluators of the deal's wild cards, made once a process."""
    key = (frozenset(observation.wild_cards), observation.rules.royal_high)
    if key not in _EVALUATORS:
        _EVALUATORS[key] = (BatchEvaluator(key[0], royal_high=key[1]), Evaluator(key[0], royal_high=key[1]))
    return _EVALUATORS[key]


def dealt_hands(
    belief: str, observation: Observation, guard: Guard, rng: np.random.Generator
) -> npt.NDArray[np.uint8]:
    """``guard.hands`` hands of five for the next player under an honest ``belief`` (R9: the
    seat's observation only): the cards it is known to hold (R4.5) and hidden cards dealt
    from those the seat has not seen."""
    seat = next_seat(observation)
    known = np.array(observation.known_cards[seat], dtype=np.uint8)
    hidden = observation.hand_sizes[seat] - known.size
    unseen = np.array(Unseen.of(observation).cards, dtype=np.int64)
    count = guard.hands
    keys = rng.random((count, unseen.size))
    if belief in ("ranks", "model"):
        from paiute.compiled.search import Position, inference_weights

        weights = inference_weights(observation)
        if belief == "model":
            from paiute.compiled.belief import Belief

            position = Position.from_observation(observation)
            read = Belief.read(
                observation,
                position,
                weights,
                int(rng.integers(1 << 62)),
                depth=guard.depth,
                eps=guard.eps,
                particles=count,
            )
            if not read.empty and position.need[seat] == hidden:
                drawn = read.particles[seat, :, :hidden].astype(np.uint8)
                return np.concatenate([np.tile(known, (count, 1)), drawn], axis=1)
            # After a rebuild (R4.6) the model reads nothing: the rank weights deal instead.
        keys = -np.log(keys) / weights[seat, unseen]  # exponential races: weighted, no repeats
    chosen = np.argpartition(keys, hidden - 1, axis=1)[:, :hidden] if hidden < unseen.size else None
    drawn = (unseen[chosen] if chosen is not None else np.tile(unseen, (count, 1))).astype(np.uint8)
    return np.concatenate([np.tile(known, (count, 1)), drawn], axis=1)


def feed_chances(
    observation: Observation, cards: Sequence[Card], hands: npt.NDArray[np.uint8]
) -> npt.NDArray[np.float64]:
    """For each of ``cards`` thrown now, the share of ``hands`` (the next player's five cards)
    that could call at once after taking it from the pile (see the module)."""
    calls, possible = feed_table(observation, cards, hands)
    if not possible.any():
        return np.zeros(len(cards))
    # A hand that makes a combination by itself would have called: it is not counted.
    return np.asarray((calls & possible).sum(axis=1) / possible.sum(), dtype=np.float64)


def feed_table(
    observation: Observation, cards: Sequence[Card], hands: npt.NDArray[np.uint8]
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """``calls[c, h]``: whether hand ``h`` could call at once after taking ``cards[c]`` from the
    pile (a six-card call, or a five-card one showing the card taken, R4.3, R6.2; a Paiute only
    where R5.7 allows it); ``possible[h]``: whether hand ``h`` makes no combination alone."""
    evaluator, single = _evaluators(observation)
    count = hands.shape[0]
    # The batch form reads six cards, so the five alone go through the scalar evaluator.
    possible = np.array([single.code(hand) == 0 for hand in hands.tolist()], dtype=np.bool_)
    paiute_ok = paiute_allowed(observation, next_seat(observation))
    calls = np.zeros((len(cards), count), dtype=np.bool_)
    for index, card in enumerate(cards):
        held = np.concatenate([hands, np.full((count, 1), card, dtype=np.uint8)], axis=1)
        six = evaluator.six_codes(held)
        if not paiute_ok:
            six = np.where((six >> 12) == PAIUTE, 0, six)  # R5.7
        calls[index] = (six > 0) | (evaluator.best5_codes(held) > 0)
    return calls, possible


class GuardedGreedy(GuardedPlayer):
    """``greedy`` whose discards weigh the chance of feeding the next player: the package's
    ``guarded`` player (:mod:`paiute.players.guarded`, one implementation of the guard) with
    the feed chances of the guard's belief (see the module); ``deal`` is read by the
    ``oracle`` variant alone."""

    def __init__(self, guard: Guard, seed: int, deal: Deal | None = None) -> None:
        # The oracle's feed chance is 0 or 1: a feeding card is never thrown while another can go.
        super().__init__(seed=seed, weight=1e6 if guard.variant == "oracle" else guard.weight)
        self.guard = guard
        self.deal = deal
        self.rng = np.random.default_rng(seed)

    def chances(self, observation: Observation, cards: Sequence[Card]) -> npt.NDArray[np.float64]:
        """Each card's feed chance under the guard's belief (see the module)."""
        if self.guard.variant == "oracle":
            assert self.deal is not None  # the cheating bound: the true hand (R9 broken on purpose)
            hands = np.array([self.deal.hand(next_seat(observation))], dtype=np.uint8)
        else:
            hands = dealt_hands(self.guard.variant, observation, self.guard, self.rng)
        return feed_chances(observation, cards, hands)


def play_board(task: tuple[int, str, int, Guard]) -> float:
    """The guarded variant's chips per deal on one board, both rotations (duplicate)."""
    index, preset, seed, guard = task
    chance_seed = derive(seed, index, "deck")
    chips = 0.0
    for rotation in (0, 1):
        bot_seeds = [derive(seed, index, "seat", seat) for seat in range(PLAYERS)]
        match, deal, players = greedy_deal(preset, index, chance_seed, bot_seeds)
        seated: list[GreedyPlayer] = [
            guard.player(bot_seeds[seat], deal) if (seat + rotation) % 2 == 0 else players[seat]
            for seat in range(PLAYERS)
        ]
        while not deal.is_over:
            play_turn(deal, seated, match.apply)
        chips += sum(match.balances[seat] for seat in range(PLAYERS) if (seat + rotation) % 2 == 0) / 2
    return chips / 2


def diagnose_deal(task: tuple[int, str, int, Guard]) -> list[tuple[float, ...]]:
    """One deal of greedy self-play: a row per card greedy considered putting down before
    any call, ``(greedy threw it, it feeds the next player, each belief's feed chance)``."""
    index, preset, seed, guard = task
    bot_seeds = [derive(seed, index, "seat", seat) for seat in range(PLAYERS)]
    match, deal, players = greedy_deal(preset, index, derive(seed, index, "deck"), bot_seeds)
    rng = np.random.default_rng(derive(seed, index, "beliefs"))
    rows: list[tuple[float, ...]] = []
    while not deal.is_over:
        seat = deal.current_seat
        observation = deal.observation(seat)
        action = players[seat].act(observation)
        scores = players[seat].discard_scores(observation) if action.kind is ActionKind.DISCARD else {}
        if len(scores) >= 2:
            cards = list(scores)
            truth = feed_chances(
                observation, cards, np.array([deal.hand(next_seat(observation))], dtype=np.uint8)
            )
            beliefs = [
                feed_chances(observation, cards, dealt_hands(b, observation, guard, rng)) for b in BELIEFS
            ]
            for i, card in enumerate(cards):
                rows.append((float(card == action.card), truth[i], *(chances[i] for chances in beliefs)))
        match.apply(action)
    return rows


def auc(scores: npt.NDArray[np.float64], positive: npt.NDArray[np.bool_]) -> float:
    """The chance that a random positive scores above a random negative (ties count half):
    the Mann-Whitney statistic, over average ranks."""
    wins, losses = scores[positive], scores[~positive]
    if not wins.size or not losses.size:
        return math.nan
    values = np.concatenate([wins, losses])
    _, inverse, counts = np.unique(values, return_inverse=True, return_counts=True)
    order = np.argsort(values, kind="mergesort")
    ranks = np.empty(values.size)
    ranks[order] = np.arange(1, values.size + 1)
    average = np.bincount(inverse, weights=ranks) / counts
    rank_sum = float(average[inverse][: wins.size].sum())
    return (rank_sum - wins.size * (wins.size + 1) / 2) / (wins.size * losses.size)


def interval(values: npt.NDArray[np.float64]) -> str:
    """The mean of ``values`` with its 95% interval (1.96 standard errors), as text."""
    mean = float(values.mean())
    half = 1.96 * float(values.std(ddof=1)) / math.sqrt(values.size) if values.size > 1 else math.inf
    return f"{mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]"


def pool_map(workers: int, function: Any, tasks: list[Any]) -> list[Any]:
    """``function`` over ``tasks`` in order, in ``workers`` processes (in this one for 1)."""
    if workers == 1:
        return [function(task) for task in tasks]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(function, tasks, chunksize=4))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--variants", default=",".join(VARIANTS), help="comma-separated: " + ", ".join(VARIANTS)
    )
    parser.add_argument("--boards", type=int, default=1000)
    parser.add_argument("--preset", choices=("pagat", "gamerules"), default="pagat")
    parser.add_argument("--seed", type=int, default=20261211)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--weight", type=float, default=1.0, help="how much a feed chance of 1 costs in greedy's score"
    )
    parser.add_argument("--hands", type=int, default=256, help="the next player's hands dealt a decision")
    parser.add_argument("--depth", type=int, default=4, help="model: its turns read back")
    parser.add_argument(
        "--eps", type=float, default=0.02, help="model: the chance it strays from greedy's move"
    )
    parser.add_argument(
        "--diagnose", type=int, default=0, metavar="N", help="score the beliefs on N deals instead"
    )
    args = parser.parse_args()
    variants = args.variants.split(",")
    for variant in variants:
        if variant not in VARIANTS:
            parser.error(f"unknown variant {variant!r} (one of {', '.join(VARIANTS)})")
    for option, value in (("--boards", args.boards), ("--hands", args.hands), ("--depth", args.depth)):
        if value < 1:
            parser.error(f"{option} must be at least 1, not {value}")
    if args.workers < 1 or args.diagnose < 0:
        parser.error("--workers must be at least 1 and --diagnose not negative")
    if not (0 <= args.weight < math.inf and 0 < args.eps < 1):
        parser.error(
            f"--weight must be finite and not negative, --eps in (0, 1); not {args.weight}, {args.eps}"
        )
    from paiute.compiled import warm

    warm.prepare(block=True)
    guard = Guard(variants[0], args.weight, args.hands, args.depth, args.eps)
    if args.diagnose:
        started, load = time.time(), os.getloadavg()[0]
        tasks = [(i, args.preset, args.seed, guard) for i in range(args.diagnose)]
        rows = np.array([row for rows in pool_map(args.workers, diagnose_deal, tasks) for row in rows])
        thrown, feeds = rows[:, 0] == 1, rows[:, 1] > 0
        print(
            f"{args.preset}, {args.diagnose} deals of greedy self-play, {int(thrown.sum())} guarded decisions "
            f"({rows.shape[0]} cards considered), {time.time() - started:.0f} s, load {load:.1f} -> "
            f"{os.getloadavg()[0]:.1f}: greedy's discard feeds the next player {feeds[thrown].mean():.2%} of the "
            f"time; {feeds.mean():.2%} of the cards considered would"
        )
        print("| belief | mean feed chance, cards that feed | cards that do not | AUC |")
        print("| --- | ---: | ---: | ---: |")
        for column, belief in enumerate(BELIEFS, start=2):
            chances = rows[:, column]
            print(
                f"| {belief} | {chances[feeds].mean():.4f} | {chances[~feeds].mean():.4f} | {auc(chances, feeds):.3f} |"
            )
        return
    results: dict[str, npt.NDArray[np.float64]] = {}
    for variant in variants:
        started, load = time.time(), os.getloadavg()[0]
        setup = Guard(variant, args.weight, args.hands, args.depth, args.eps)
        tasks = [(i, args.preset, args.seed, setup) for i in range(args.boards)]
        chips = np.array(pool_map(args.workers, play_board, tasks))
        print(
            f"{variant:<8} {args.preset} {args.boards} boards (weight {args.weight}, {args.hands} hands): "
            f"{interval(chips)} chips/deal against greedy; {time.time() - started:.0f} s; "
            f"load {load:.1f} -> {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        results[variant] = chips
    names = list(results)
    for other in names[1:]:  # the same boards: paired differences against the first variant
        print(f"{other} - {names[0]}: {interval(results[other] - results[names[0]])} (paired, same boards)")


if __name__ == "__main__":
    main()
