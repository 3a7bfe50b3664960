"""How well a belief about the opponents' hidden cards predicts them, scored against the true
deal without playing a game on it: the beliefs of ``belief_bound.py`` side by side, with no
tournament noise.

Over every decision of ``--deals`` deals of greedy against itself (4 seats; decisions with
one legal action and those after a rebuild, R4.6, left out), each belief draws ``--samples``
sets of each opponent's hidden cards from the deciding seat's observation (R9: only public
facts and its own hand), and its chance that the opponent holds a card is the share of the
sets holding it. Scores, per opponent and card unseen by the deciding seat:

* ``log-loss``: the mean of ``-log p`` for a card held and ``-log(1 - p)`` for one not
  (``p`` clipped to [1e-3, 1 - 1e-3]); lower is better, ``uniform`` is the floor any reading
  must beat.
* ``share``: the expected share of a drawn set's cards that are the opponent's true ones.
* ``pair-outs``: the chance given to the cards that would give the opponent a new natural
  pair (another card of a rank it holds one of) averaged over the cards that truly would;
  these are the discards that feed a Paiute.

Beliefs: ``uniform``; ``ranks`` (pimc's rank weights, ``inference_weights``); and
``learned``, a logistic model fitted on ``--train`` deals of greedy self-play before the run
(``learned_belief.py``); ``model:DEPTH:PARTICLES:EPS``, the opponents' last DEPTH turns read
under greedy's model with PARTICLES hands each (``paiute.compiled.belief``), proposed by the
rank weights (``model:2:256:0.1`` is ``pimc:belief=moves``'s setting; pimc's default is ``ranks``)
or, as ``learned-model:…``, by the learned model. The rank-weight sets of each seat are drawn
independently of the other seats' (the marginals, not the joint deal).

    .venv/bin/python -m research.belief_quality --deals 100 --preset gamerules
    .venv/bin/python -m research.belief_quality --beliefs ranks,model:2:256:0.1,model:8:4096:0.02
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
import numpy.typing as npt

from paiute.observation import Observation
from research.belief_bound import PLAYERS, derive, propose, rank_weights
from research.learned_belief import fitted, odds
from research.self_play import greedy_deal

SCORES = ("log-loss", "share", "pair-outs")
CLIP = 1e-3


def parse_belief(text: str) -> tuple[str, tuple[int, int, float] | None]:
    """``uniform``, ``ranks`` or ``model:DEPTH:PARTICLES:EPS`` (see the module)."""
    if text in ("uniform", "ranks", "learned"):
        return text, None
    parts = text.split(":")
    if len(parts) != 4 or parts[0] not in ("model", "learned-model"):
        raise ValueError(
            f"a belief is uniform, ranks, learned or [learned-]model:DEPTH:PARTICLES:EPS, not {text!r}"
        )
    try:
        depth, particles, eps = int(parts[1]), int(parts[2]), float(parts[3])
    except ValueError:
        raise ValueError(
            f"model:DEPTH:PARTICLES:EPS wants two whole numbers and a number, not {text!r}"
        ) from None
    if depth < 1 or particles < 1 or not 0 < eps <= 1:
        raise ValueError(f"{text!r}: need DEPTH >= 1, PARTICLES >= 1 and 0 < EPS <= 1")
    return parts[0], (depth, particles, eps)


def marginals(
    belief: str,
    observation: Observation,
    samples: int,
    seed: int,
    coefficients: npt.NDArray[np.float64] | None = None,
) -> tuple[Any, npt.NDArray[np.float64]]:
    """The belief's chance that each opponent holds each card, ``[MAX_SEATS, 54]`` (0 for the
    deciding seat and cards it has seen), and the compiled position it read."""
    from paiute.compiled.belief import Belief
    from paiute.compiled.search import Position
    from paiute.compiled.state import HAND_CAP, MAX_SEATS

    name, spec = parse_belief(belief)
    position = Position.from_observation(observation)
    if name == "uniform":
        weights = np.ones((MAX_SEATS, 54))
    elif name.startswith("learned"):
        assert coefficients is not None
        weights = odds(observation, position.unseen, coefficients)
    else:
        weights = rank_weights(observation, None)
    chance = np.zeros((MAX_SEATS, 54))
    held = None
    if spec is not None:
        depth, particles, eps = spec
        read = Belief.read(observation, position, weights, seed, depth=depth, eps=eps, particles=particles)
        if not read.empty:
            held = np.zeros((samples, MAX_SEATS, HAND_CAP), dtype=np.int64)
            read.deal(0, samples, held)
    rng = np.random.default_rng(seed)
    for seat in range(observation.players):
        need = int(position.need[seat])
        if seat == observation.seat or need == 0:
            continue
        hidden = (
            held[:, seat, :need]
            if held is not None
            else propose(rng, observation, position, weights, seat, samples)[0]
        )
        np.add.at(chance[seat], hidden.ravel(), 1.0 / samples)
    return position, chance


def score_deal(task: tuple[int, str, int, tuple[str, ...], int, Any]) -> npt.NDArray[np.float64]:
    """Sums of each score and their counts, ``[beliefs, 2 * len(SCORES)]``, over one deal."""
    index, preset, seed, beliefs, samples, coefficients = task
    bot_seeds = [derive(seed, index, seat) for seat in range(PLAYERS)]
    match, deal, bots = greedy_deal(preset, index, derive(seed, index, "quality"), bot_seeds)
    totals = np.zeros((len(beliefs), 2 * len(SCORES)))
    while not deal.is_over:
        observation = deal.observation(deal.current_seat)
        if not observation.rebuilds and len(observation.legal_actions) > 1:
            decision = derive(seed, index, len(observation.history)) & 0xFFFFFFFFFFFFFFFF
            for b, belief in enumerate(beliefs):
                position, p = marginals(belief, observation, samples, decision, coefficients)
                _score(totals[b], observation, position, p, deal)
        match.apply(bots[deal.current_seat].act(observation))
    return totals


def _score(
    total: npt.NDArray[np.float64], observation: Observation, position: Any, p: Any, deal: Any
) -> None:
    wild = {int(card) for card in observation.wild_cards}
    unseen = position.unseen
    for seat in range(observation.players):
        need = int(position.need[seat])
        if seat == observation.seat or need == 0:
            continue
        hand = [int(card) for card in deal.hand(seat)]
        known = {int(card) for card in observation.known_cards[seat]}
        truth = np.zeros(54, dtype=bool)
        truth[[card for card in hand if card not in known]] = True
        q = np.clip(p[seat, unseen], CLIP, 1 - CLIP)
        y = truth[unseen]
        total[0] += float(-(np.log(q[y]).sum() + np.log(1 - q[~y]).sum()))
        total[1] += len(unseen)
        total[2] += float(p[seat, unseen][y].sum() / need)
        total[3] += 1
        ranks = [card // 4 for card in hand if card < 52 and card not in wild]
        singles = {rank for rank in ranks if ranks.count(rank) == 1}
        outs = [c for c in unseen if c < 52 and c not in wild and c // 4 in singles]
        if outs:
            total[4] += float(p[seat, outs].mean())
            total[5] += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--beliefs", default="uniform,ranks,model:2:256:0.1", help="comma-separated (see the module)"
    )
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument(
        "--samples", type=int, default=200, help="hidden-card sets drawn per belief and decision"
    )
    parser.add_argument("--preset", default="pagat")
    parser.add_argument("--seed", type=int, default=20261210)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--train", type=int, default=300, help="learned beliefs: deals of greedy self-play to fit on"
    )
    args = parser.parse_args()
    beliefs = tuple(args.beliefs.split(","))
    for belief in beliefs:
        try:
            parse_belief(belief)
        except ValueError as error:
            parser.error(str(error))
    if args.deals < 1 or args.samples < 1 or args.workers < 1:
        parser.error("--deals, --samples and --workers must be at least 1")
    from paiute.compiled import warm

    warm.prepare(block=True)
    coefficients = None
    if any(belief.startswith("learned") for belief in beliefs):
        coefficients = fitted(args.preset, args.train, args.seed + 1, args.workers)
    started, load = time.time(), os.getloadavg()[0]
    tasks = [(i, args.preset, args.seed, beliefs, args.samples, coefficients) for i in range(args.deals)]
    with ProcessPoolExecutor(args.workers) as pool:
        totals = sum(pool.map(score_deal, tasks, chunksize=2))
    print(
        f"{args.preset}, {args.deals} deals of greedy self-play, {int(totals[0, 3])} opponent hands scored, "
        f"{args.samples} sets a belief; {time.time() - started:.0f} s, load {load:.1f} -> {os.getloadavg()[0]:.1f}"
    )
    print(f"{'belief':<24} {'log-loss':>9} {'share':>7} {'pair-outs':>10}")
    for b, belief in enumerate(beliefs):
        row = totals[b]
        print(
            f"{belief:<24} {row[0] / row[1]:>9.4f} {row[2] / row[3]:>7.3f} {row[4] / max(row[5], 1):>10.3f}"
        )


if __name__ == "__main__":
    main()
