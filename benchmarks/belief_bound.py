"""How much the search bot's *belief* about the hidden cards limits it: pimc against greedy
with the opponents' hands dealt uniformly, weighted by inference from their public actions
(R4.5, what ``pimc`` does), or known exactly (a cheating upper bound no real bot may use, R9).

Each variant decides as ``pimc:z=0`` does (argmax of the paired means of every legal action
over ``--determinizations`` determinizations), its playouts played by the compiled
``--policy`` (``playout`` or ``greedy``), at 4 seats A B A B against ``greedy``, every board
played in both rotations (duplicate). The cheating variant is given the true deal by this
script only, to measure the bound; nothing in the package can see it.

    .venv/bin/python benchmarks/belief_bound.py --boards 400                  # ~5 CPU-min a variant
    .venv/bin/python benchmarks/belief_bound.py --variants exact --policy greedy
    .venv/bin/python benchmarks/belief_bound.py --variants inference,greedy --depth 1   # paired
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from paiute import RuleSet
from paiute.actions import Action
from paiute.cards import pack
from paiute.chance import SeededChance
from paiute.deal import Deal
from paiute.match import Match
from paiute.observation import Observation
from paiute.players.greedy import GreedyPlayer
from paiute.players.play import play_turn

VARIANTS = ("uniform", "inference", "greedy", "greedy+inference", "exact")
PLAYERS = 4


def _derive(*parts: object) -> int:
    text = "|".join(map(str, parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


class BeliefBot:
    """pimc's argmax over paired compiled playouts, with a chosen belief (see the module)."""

    def __init__(
        self, variant: str, determinizations: int, policy: str, seed: int, belief: tuple[int, int, float]
    ) -> None:
        self.variant, self.determinizations, self.policy, self.seed = variant, determinizations, policy, seed
        self.belief = belief  # depth, particles, eps of the "greedy" variants
        self.deal: Deal | None = None  # the true deal: read only by the "exact" variant

    def act(self, observation: Observation) -> Action:
        from paiute.compiled.belief import Belief
        from paiute.compiled.search import Position, inference_weights, run_estimates

        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        position = Position.from_observation(observation)
        weights = None
        if self.variant.endswith("inference"):
            weights = inference_weights(observation)
        elif self.variant == "exact":
            assert self.deal is not None
            weights = np.ones((8, 54))
            for seat in range(observation.players):
                if seat != observation.seat:
                    for card in self.deal.hand(seat):
                        weights[seat, int(card)] = 1e12  # the true hand, as good as certainly
        values = np.zeros((len(legal), self.determinizations))
        seed = _derive(self.seed, len(observation.history)) & 0xFFFFFFFFFFFFFFFF
        belief = None
        if self.variant.startswith("greedy"):
            depth, particles, eps = self.belief
            proposal = np.ones((8, 54)) if weights is None else weights
            belief = Belief.read(
                observation, position, proposal, seed, depth=depth, eps=eps, particles=particles
            )
        actions = [action.id for action in legal]
        run_estimates(position, actions, seed, 0, self.determinizations, values, weights, self.policy, belief)
        return legal[int(np.argmax(values.mean(axis=1)))]


def play_board(task: tuple[int, str, int, str, str, int, tuple[int, int, float]]) -> float:
    """The variant's chips per deal on one board, both rotations."""
    index, variant, determinizations, policy, preset, seed, belief = task
    rules = RuleSet.from_preset(preset)
    chance = SeededChance(_derive(seed, index, "deck"))
    deck = pack(rules.jokers)
    chance.shuffle(deck)
    cut = chance.below(len(deck))
    deck = deck[cut:] + deck[:cut]
    dealer = chance.below(PLAYERS)
    rebuilds = _derive(seed, index, "rebuilds")
    chips = 0.0
    for rotation in (0, 1):
        match = Match(
            rules, ["a", "b", "c", "d"], balances=[0] * PLAYERS, dealer=dealer, chance=SeededChance(rebuilds)
        )
        deal = match.start_deal(deck, chance=SeededChance(rebuilds))
        seated: list[Any] = []
        for seat in range(PLAYERS):
            bot_seed = _derive(seed, index, "seat", seat)
            if (seat + rotation) % 2 == 0:
                bot = BeliefBot(variant, determinizations, policy, bot_seed, belief)
                bot.deal = deal
                seated.append(bot)
            else:
                seated.append(GreedyPlayer(seed=bot_seed))
        while not deal.is_over:
            play_turn(deal, seated, match.apply)
        chips += sum(match.balances[seat] for seat in range(PLAYERS) if (seat + rotation) % 2 == 0) / 2
    return chips / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--variants", default=",".join(VARIANTS), help="comma-separated: " + ", ".join(VARIANTS)
    )
    parser.add_argument("--boards", type=int, default=400)
    parser.add_argument("--determinizations", type=int, default=200)
    parser.add_argument("--policy", choices=("playout", "greedy"), default="playout")
    parser.add_argument("--preset", default="pagat")
    parser.add_argument("--seed", type=int, default=20261202)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--depth", type=int, default=2, help="greedy variants: turns read back per opponent")
    parser.add_argument("--particles", type=int, default=256, help="greedy variants: hands per opponent")
    parser.add_argument("--eps", type=float, default=0.1, help="greedy variants: the model's chance to stray")
    args = parser.parse_args()
    belief = (args.depth, args.particles, args.eps)
    results: dict[str, Any] = {}
    from paiute.compiled import warm

    warm.prepare(block=True)
    for variant in args.variants.split(","):
        if variant not in VARIANTS:
            parser.error(f"unknown variant {variant!r}")
        started, load = time.time(), os.getloadavg()[0]
        tasks = [
            (i, variant, args.determinizations, args.policy, args.preset, args.seed, belief)
            for i in range(args.boards)
        ]
        with ProcessPoolExecutor(args.workers) as pool:
            chips = np.array(list(pool.map(play_board, tasks, chunksize=4)))
        mean = float(chips.mean())
        half = 1.96 * float(chips.std(ddof=1)) / math.sqrt(len(chips))
        print(
            f"{variant:<9} policy={args.policy} n={args.determinizations} {args.preset} {args.boards} boards: "
            f"{mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}] chips/deal against greedy; "
            f"{time.time() - started:.0f} s; load {load:.1f} -> {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        results[variant] = chips
    names = list(results)
    for other in names[1:]:  # the same boards: paired differences against the first variant
        diff = results[other] - results[names[0]]
        mean = float(diff.mean())
        half = 1.96 * float(diff.std(ddof=1)) / math.sqrt(len(diff))
        print(
            f"{other} - {names[0]}: {mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}] (paired, same boards)"
        )


if __name__ == "__main__":
    main()
