"""How much the search bot's *belief* about the hidden cards limits it: pimc against greedy
with the opponents' hands dealt uniformly, weighted by inference from their public actions
(R4.5, what ``pimc`` does), or known exactly (a cheating upper bound no real bot may use, R9).

Each variant decides as ``pimc:z=0`` does (argmax of the paired means of every legal action
over ``--determinizations`` determinizations), its playouts played by the compiled
``--policy`` (``playout`` or ``greedy``), at 4 seats A B A B against ``greedy``, every board
played in both rotations (duplicate). The cheating variant is given the true deal by this
script only, to measure the bound; nothing in the package can see it. ``structure`` deals the
hands the rank weights propose, resampled by how much likelier each hand's profile (pairs,
the most of one rank, wild cards) is among greedy's real hands after as many draws
(:func:`calibrate`, on ``--calibrate`` deals of greedy self-play before the run). ``learned``
deals them by a logistic model of each card's chance, fitted on ``--train`` deals of greedy
self-play before the run (``learned_belief.py``); ``greedy+learned`` reads the opponents' last
turns under greedy's model from hands that model proposes.

``feed`` deals by the rank weights and, on a discard before any call (R7.2), mixes each throw's
mean over the determinizations where the next player could call at once with the card
(``feed_bound.feed_table``, R4.2) and those where it could not by the shipped feed model's
chance (``paiute.players.feed``) instead of the determinizations' own share: the search with
the guard's sharper prediction of the one thing the true hands are worth. With ``--keep
BOT:Z`` it keeps BOT's move unless the best throw beats it by Z standard errors of the paired
difference, and plays BOT's move at every other decision; ``kept`` plays BOT alone on the
same boards (the pair to compare). ``--save PREFIX`` writes each variant's chips a board to
``PREFIX-VARIANT.npy``, to pair runs made apart. ``--continuation`` plays the ``feed``
variant's playouts with ``guard_playouts.py``: the searching seat by the compiled playout
policy, greedy exactly, or greedy guarding its discards (``playout``, ``greedy``, ``guard``),
every other seat by the compiled playout policy.

    .venv/bin/python -m research.belief_bound --boards 400                  # ~5 CPU-min a variant
    .venv/bin/python -m research.belief_bound --variants exact --policy greedy
    .venv/bin/python -m research.belief_bound --variants inference,greedy --depth 1   # paired
    .venv/bin/python -m research.belief_bound --variants inference --factors 0.4,0.8,3
    .venv/bin/python -m research.belief_bound --preset gamerules --variants inference,structure
    .venv/bin/python -m research.belief_bound --variants kept,feed --keep guarded:1 --boards 10000
    .venv/bin/python -m research.belief_bound --variants kept,feed --keep guarded:1 --continuation guard
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from paiute import RuleSet
from paiute.actions import Action, ActionKind
from paiute.cards import pack
from paiute.chance import SeededChance
from paiute.deal import Deal
from paiute.events import Phase
from paiute.match import Match
from paiute.observation import Observation
from paiute.players.base import MAX_ITERATIONS, MAX_WORKERS
from paiute.players.greedy import GreedyPlayer
from paiute.players.guarded import DEFAULT_WEIGHT
from paiute.players.play import play_turn
from paiute.rules import PRESETS
from research.self_play import PLAYERS, greedy_deal

VARIANTS = (
    "uniform",
    "inference",
    "greedy",
    "greedy+inference",
    "structure",
    "learned",
    "greedy+learned",
    "exact",
    "feed",
    "kept",
)


def derive(*parts: object) -> int:
    """A 64-bit seed derived from ``parts`` (a board, a seat, a purpose), the same in every process."""
    text = "|".join(map(str, parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


#: A hand's profile (see :func:`profiles`): pairs 0-2, the most of one natural rank 0-3, wilds 0-2.
PROFILES = 3 * 4 * 3
#: The opponent's draws so far, 0..BUCKETS-1 (the last bucket for that many or more).
BUCKETS = 7
#: The ``structure`` variant: hands proposed per opponent, and kept (resampled) as particles.
CANDIDATES, KEPT = 2048, 256


@dataclass(frozen=True)
class Setup:
    """What every board of a variant's run shares."""

    determinizations: int
    policy: str
    preset: str
    seed: int
    belief: tuple[int, int, float] = (2, 256, 0.1)  # depth, particles, eps of the "greedy" variants
    factors: tuple[float, float, float] | None = None  # threw, passed, took (None: pimc's weights)
    ratio: npt.NDArray[np.float64] | None = None  # the "structure" variant's, [BUCKETS, PROFILES]
    coefficients: npt.NDArray[np.float64] | None = None  # the "learned" variants' (learned_belief.py)
    keep: tuple[str, float] | None = None  # the "feed" variant: keep this bot's move unless beaten by z SE
    # The "feed" variant's playouts: the searching seat played by guard_playouts.CONTINUATIONS'
    # policy and every other seat by the compiled playout policy (None: --policy for every seat).
    continuation: str | None = None


def rank_weights(
    observation: Observation, factors: tuple[float, float, float] | None
) -> npt.NDArray[np.float64]:
    """pimc's rank weights for ``observation`` (R4.5), with ``factors`` (threw, passed, took) in
    place of its own where given."""
    from paiute.compiled.search import inference_weights

    if factors is None:
        return inference_weights(observation)
    threw, passed, took = factors
    return inference_weights(observation, threw=threw, passed=passed, took=took)


def profiles(hands: npt.NDArray[np.int64], wild: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """Each five-card hand's (rows of card ids) profile index: how many natural ranks it pairs
    (at most 2), the most cards of one natural rank (at most 3), its wild cards (at most 2)."""
    is_wild = wild[hands] | (hands >= 52)
    ranks = np.where(is_wild, 13, hands // 4)
    counts = np.zeros((hands.shape[0], 14), dtype=np.int64)
    np.add.at(counts, (np.arange(hands.shape[0])[:, None], ranks), 1)
    natural = counts[:, :13]
    pairs = np.minimum((natural >= 2).sum(axis=1), 2)
    top = np.minimum(natural.max(axis=1), 3)
    return np.asarray(pairs * 12 + top * 3 + np.minimum(counts[:, 13], 2), dtype=np.int64)


def _draws(observation: Observation, seat: int) -> int:
    return sum(1 for e in observation.history if e.seat == seat and e.action.kind.is_draw and not e.ends_deal)


def _wild(observation: Observation) -> npt.NDArray[np.bool_]:
    mask = np.zeros(54, dtype=np.bool_)
    mask[[int(card) for card in observation.wild_cards]] = True
    return mask


def propose(
    rng: np.random.Generator,
    observation: Observation,
    position: Any,
    weights: npt.NDArray[np.float64],
    seat: int,
    count: int,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """``count`` sets of ``seat``'s hidden cards drawn from the unseen ones in proportion to
    ``weights``, without replacement (the Gumbel top-k trick), and the whole hands they make
    with the cards it is known to hold (R4.5)."""
    unseen = position.unseen
    need = int(position.need[seat])
    keys = np.log(weights[seat, unseen])[None, :] + rng.gumbel(size=(count, len(unseen)))
    hidden = unseen[np.argpartition(-keys, need - 1, axis=1)[:, :need]]
    known = np.array([int(card) for card in observation.known_cards[seat]], dtype=np.int64)
    return hidden, np.concatenate([np.broadcast_to(known, (count, len(known))), hidden], axis=1)


def _calibrate_deal(task: tuple[int, str, int]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Profile counts of the opponents' true hands and of hands the weights propose, by the
    opponent's draws, over every decision of one deal of greedy against itself."""
    from paiute.compiled.search import Position

    index, preset, seed = task
    rng = np.random.default_rng(derive(seed, index, "calibrate") & 0xFFFFFFFF)
    bot_seeds = [derive(seed, index, seat) for seat in range(PLAYERS)]
    match, deal, bots = greedy_deal(preset, index, derive(seed, index, "calibrate"), bot_seeds)
    true = np.zeros((BUCKETS, PROFILES))
    proposed = np.zeros((BUCKETS, PROFILES))
    while not deal.is_over:
        observation = deal.observation(deal.current_seat)
        if not observation.rebuilds and len(observation.legal_actions) > 1:
            position = Position.from_observation(observation)
            weights = rank_weights(observation, None)
            wild = _wild(observation)
            for seat in range(PLAYERS):
                if seat == observation.seat or position.need[seat] == 0:
                    continue
                bucket = min(_draws(observation, seat), BUCKETS - 1)
                truth = np.array([[int(card) for card in deal.hand(seat)]], dtype=np.int64)
                true[bucket, profiles(truth, wild)[0]] += 1
                _, hands = propose(rng, observation, position, weights, seat, 16)
                np.add.at(proposed[bucket], profiles(hands, wild), 1 / 16)
        match.apply(bots[deal.current_seat].act(observation))
    return true, proposed


def calibrate(preset: str, deals: int, seed: int, workers: int) -> npt.NDArray[np.float64]:
    """How much likelier each hand profile is among greedy's true hands than among the hands
    the rank weights deal, by the opponent's draws so far: ``[BUCKETS, PROFILES]``, from
    ``deals`` deals of greedy self-play (a prior for the ``structure`` variant)."""
    true = np.zeros((BUCKETS, PROFILES))
    proposed = np.zeros((BUCKETS, PROFILES))
    with ProcessPoolExecutor(workers) as pool:
        for t, p in pool.map(_calibrate_deal, [(i, preset, seed) for i in range(deals)], chunksize=4):
            true += t
            proposed += p
    # Add-half smoothing: an unseen profile keeps a ratio near 1.
    true_share = (true + 0.5) / (true.sum(axis=1, keepdims=True) + 0.5 * PROFILES)
    proposed_share = (proposed + 0.5) / (proposed.sum(axis=1, keepdims=True) + 0.5 * PROFILES)
    return np.asarray(true_share / proposed_share, dtype=np.float64)


class BeliefBot:
    """pimc's argmax over paired compiled playouts, with a chosen belief (see the module)."""

    def __init__(self, variant: str, setup: Setup, seed: int) -> None:
        self.variant, self.setup, self.seed = variant, setup, seed
        self.deal: Deal | None = None  # the true deal: read only by the "exact" variant
        self.base: Any = None
        if setup.keep is not None:
            from paiute.players import make_player

            self.base = make_player(setup.keep[0], seed=seed)

    def act(self, observation: Observation) -> Action:
        from paiute.compiled.belief import Belief
        from paiute.compiled.search import Position, run_estimates

        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        setup = self.setup
        position = Position.from_observation(observation)
        weights = None
        if self.variant == "kept":  # the --keep bot alone, on the same boards: what feed pairs with
            return self.base.act(observation)
        if self.variant == "feed" and observation.phase is Phase.DISCARD and not observation.calls:
            return self._feed(observation, position, rank_weights(observation, setup.factors))
        if self.variant == "feed" and self.base is not None:
            return self.base.act(observation)  # draws, calls and the last round: the kept bot's
        if self.variant.endswith("inference") or self.variant in ("structure", "feed"):
            weights = rank_weights(observation, setup.factors)
        elif self.variant.endswith("learned"):
            from research.learned_belief import odds

            assert setup.coefficients is not None
            weights = odds(observation, position.unseen, setup.coefficients)
        elif self.variant == "exact":
            assert self.deal is not None
            weights = np.ones((8, 54))
            for seat in range(observation.players):
                if seat != observation.seat:
                    for card in self.deal.hand(seat):
                        weights[seat, int(card)] = 1e12  # the true hand, as good as certainly
        values = np.zeros((len(legal), setup.determinizations))
        seed = derive(self.seed, len(observation.history)) & 0xFFFFFFFFFFFFFFFF
        belief = None
        if self.variant.startswith("greedy"):
            depth, particles, eps = setup.belief
            proposal = np.ones((8, 54)) if weights is None else weights
            belief = Belief.read(
                observation, position, proposal, seed, depth=depth, eps=eps, particles=particles
            )
        elif self.variant == "structure" and not observation.rebuilds:  # R4.6: see Belief
            assert weights is not None
            assert setup.ratio is not None
            belief = self._structure(observation, position, weights, setup.ratio, seed)
        actions = [action.id for action in legal]
        run_estimates(
            position, actions, seed, 0, setup.determinizations, values, weights, setup.policy, belief
        )
        return legal[int(np.argmax(values.mean(axis=1)))]

    def _feed(self, observation: Observation, position: Any, weights: npt.NDArray[np.float64]) -> Action:
        """The rank weights' determinizations, each action's mean taken over those where the
        next player could call with the card thrown and those where it could not, mixed by the
        feed model's chance (``paiute.players.feed``) instead of the determinizations' share."""
        from paiute.compiled.belief import deal_hands_kernel
        from paiute.compiled.search import run_estimates
        from paiute.compiled.state import HAND_CAP, MAX_SEATS
        from paiute.players.feed import FeedModel, next_seat
        from research.feed_bound import feed_table

        legal = observation.legal_actions
        n = self.setup.determinizations
        seed = derive(self.seed, len(observation.history)) & 0xFFFFFFFFFFFFFFFF
        dealt = np.zeros((n, MAX_SEATS, HAND_CAP), dtype=np.int64)
        if not observation.rebuilds:  # R4.6: after a rebuild the kernel deals the stock first
            deal_hands_kernel(
                np.zeros((MAX_SEATS, 0, HAND_CAP), dtype=np.int64),
                position.params,
                position.unseen,
                position.need,
                weights,
                0,
                np.uint64(seed),
                0,
                n,
                dealt,
                np.zeros((1, 4), dtype=np.uint64),
            )
        values = np.zeros((len(legal), n))
        # After a rebuild nothing was dealt above: the kernel deals as it always does.
        if self.setup.continuation is not None:
            from research import guard_playouts

            guard_playouts.run_estimates(
                position,
                [a.id for a in legal],
                seed,
                0,
                n,
                values,
                weights,
                self.setup.continuation,
                (*guard_playouts.EMULATION[self.setup.preset], DEFAULT_WEIGHT),
                None if observation.rebuilds else dealt,
            )
        else:
            dealer = None if observation.rebuilds else _Dealt(dealt)
            run_estimates(
                position, [a.id for a in legal], seed, 0, n, values, weights, self.setup.policy, dealer
            )
        means = values.mean(axis=1)
        if observation.rebuilds:
            return legal[int(np.argmax(means))]
        seat = next_seat(observation)
        known = np.array([int(card) for card in observation.known_cards[seat]], dtype=np.int64)
        hidden = dealt[:, seat, : int(position.need[seat])]
        hands = np.concatenate([np.broadcast_to(known, (n, known.size)), hidden], axis=1).astype(np.uint8)
        throws = [i for i, a in enumerate(legal) if a.kind is ActionKind.DISCARD]
        cards = [legal[i].card for i in throws]
        calls, possible = feed_table(observation, cards, hands)
        chances = FeedModel.shipped(observation.rules, observation.players).chances(observation, cards)
        fed = values[:, possible]
        feeds = calls[:, possible]
        # The mean of a stratum with too few determinizations leans on the pooled mean of all.
        pooled_fed = fed[throws][feeds].mean() if feeds.any() else means.min()
        adjusted = means.copy()
        for row, index in enumerate(throws):
            yes = feeds[row]
            v_yes = (fed[index, yes].sum() + 4 * pooled_fed) / (yes.sum() + 4)
            v_no = fed[index, ~yes].mean() if (~yes).any() else means[index]
            p = chances[row]
            adjusted[index] = p * v_yes + (1 - p) * v_no
        best = int(np.argmax(adjusted))
        if self.base is None:
            return legal[best]
        base = legal.index(self.base.act(observation))
        spread = float(np.std(values[best] - values[base], ddof=1)) / math.sqrt(n)
        return legal[best] if adjusted[best] - adjusted[base] > self.setup.keep[1] * spread else legal[base]

    @staticmethod
    def _structure(
        observation: Observation,
        position: Any,
        weights: npt.NDArray[np.float64],
        ratio: npt.NDArray[np.float64],
        seed: int,
    ) -> Any:
        """Particles of each opponent's hidden cards: proposed by the weights, resampled by
        how much likelier their hand's profile is among greedy's hands (:func:`calibrate`)."""
        from paiute.compiled.belief import Belief
        from paiute.compiled.state import HAND_CAP, MAX_SEATS

        rng = np.random.default_rng(seed)
        wild = _wild(observation)
        held = np.zeros((MAX_SEATS, KEPT, HAND_CAP), dtype=np.int64)
        for seat in range(observation.players):
            need = int(position.need[seat])
            if seat == observation.seat or need == 0:
                continue
            hidden, hands = propose(rng, observation, position, weights, seat, CANDIDATES)
            chance = ratio[min(_draws(observation, seat), BUCKETS - 1), profiles(hands, wild)]
            held[seat, :, :need] = hidden[rng.choice(CANDIDATES, size=KEPT, p=chance / chance.sum())]
        return Belief(held, position.params, position.unseen, position.need, weights, seed)


class _Dealt:
    """Determinizations dealt already, in the shape of a belief ``run_estimates`` reads."""

    empty = False

    def __init__(self, dealt: npt.NDArray[np.int64]) -> None:
        self.dealt = dealt

    def deal(self, first: int, stop: int, dealt: npt.NDArray[np.int64]) -> int:
        dealt[:] = self.dealt[first:stop]
        return 0


def play_board(task: tuple[int, str, Setup]) -> float:
    """The variant's chips per deal on one board, both rotations."""
    index, variant, setup = task
    seed = setup.seed
    rules = RuleSet.from_preset(setup.preset)
    chance = SeededChance(derive(seed, index, "deck"))
    deck = pack(rules.jokers)
    chance.shuffle(deck)
    cut = chance.below(len(deck))
    deck = deck[cut:] + deck[:cut]
    dealer = chance.below(PLAYERS)
    rebuilds = derive(seed, index, "rebuilds")
    chips = 0.0
    for rotation in (0, 1):
        match = Match(
            rules, ["a", "b", "c", "d"], balances=[0] * PLAYERS, dealer=dealer, chance=SeededChance(rebuilds)
        )
        deal = match.start_deal(deck, chance=SeededChance(rebuilds))
        seated: list[Any] = []
        for seat in range(PLAYERS):
            bot_seed = derive(seed, index, "seat", seat)
            if (seat + rotation) % 2 == 0:
                bot = BeliefBot(variant, setup, bot_seed)
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
    parser.add_argument("--preset", choices=sorted(PRESETS), default="pagat")
    parser.add_argument(
        "--continuation",
        choices=("playout", "greedy", "guard"),
        help="feed variant: the searching seat's policy in the playouts, every other seat's the "
        "compiled playout policy (guard_playouts.py; default: --policy for every seat)",
    )
    parser.add_argument(
        "--save", help="write each variant's chips a board to SAVE-VARIANT.npy (to pair runs later)"
    )
    parser.add_argument(
        "--keep", help="feed variant: BOT:Z, keep BOT's move unless beaten by Z standard errors"
    )
    parser.add_argument("--seed", type=int, default=20261202)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--depth", type=int, default=2, help="greedy variants: turns read back per opponent")
    parser.add_argument("--particles", type=int, default=256, help="greedy variants: hands per opponent")
    parser.add_argument("--eps", type=float, default=0.1, help="greedy variants: the model's chance to stray")
    parser.add_argument(
        "--factors",
        help="inference variants: THREW,PASSED,TOOK, the weights' factors per card of a rank the "
        "seat threw, left on the pile, took (default: pimc's, inference_weights)",
    )
    parser.add_argument(
        "--calibrate",
        type=int,
        default=400,
        help="structure variant: deals of greedy self-play that calibrate its hand-profile prior",
    )
    parser.add_argument(
        "--train",
        type=int,
        default=300,
        help="learned variants: deals of greedy self-play to fit the model on",
    )
    args = parser.parse_args()
    if args.boards < 2:
        parser.error(f"--boards must be at least 2 (an interval needs two), not {args.boards}")
    if not 1 <= args.determinizations <= MAX_ITERATIONS:
        parser.error(f"--determinizations must be from 1 to {MAX_ITERATIONS}, not {args.determinizations}")
    if not 1 <= args.workers <= MAX_WORKERS:
        parser.error(f"--workers must be from 1 to {MAX_WORKERS}, not {args.workers}")
    if args.depth < 1 or args.particles < 1 or not 0 < args.eps < 1:
        parser.error("--depth and --particles must be at least 1, --eps between 0 and 1")
    factors = None
    if args.factors:
        try:
            threw, passed, took = (float(part) for part in args.factors.split(","))
        except ValueError:
            parser.error(f"--factors wants THREW,PASSED,TOOK (three numbers), not {args.factors!r}")
        factors = (threw, passed, took)
        if not all(0 < factor < math.inf for factor in factors):
            parser.error(f"--factors must be positive finite numbers, not {args.factors!r}")
    for option, value in (("--calibrate", args.calibrate), ("--train", args.train)):
        if value < 1:
            parser.error(f"{option} must be at least 1, not {value}")
    variants = args.variants.split(",")
    for variant in variants:
        if variant not in VARIANTS:
            parser.error(f"unknown variant {variant!r}")
    keep = None
    if args.keep is not None:
        from paiute.players import PlayerError, make_player

        bot, _, z = args.keep.rpartition(":")
        try:
            keep = (bot, float(z))
            make_player(bot)
        except (ValueError, PlayerError) as error:
            parser.error(f"--keep wants BOT:Z, such as guarded:1, not {args.keep!r} ({error})")
        if not 0 <= keep[1] < math.inf:
            parser.error(f"--keep's Z must be a finite number, not negative, not {z!r}")
    elif "kept" in variants:
        parser.error("the kept variant plays the --keep bot: give --keep BOT:Z")
    if args.continuation is not None and "feed" not in variants:
        parser.error("--continuation plays the feed variant's playouts: add feed to --variants")
    from paiute.compiled import warm

    warm.prepare(block=True)
    ratio = None
    if "structure" in variants:
        started = time.time()
        ratio = calibrate(args.preset, args.calibrate, args.seed + 1, args.workers)
        print(
            f"structure: the profile prior from {args.calibrate} deals of greedy, {time.time() - started:.0f} s"
        )
    coefficients = None
    if any(variant.endswith("learned") for variant in variants):
        from research.learned_belief import fitted

        coefficients = fitted(args.preset, args.train, args.seed + 2, args.workers)
    setup = Setup(
        args.determinizations,
        args.policy,
        args.preset,
        args.seed,
        (args.depth, args.particles, args.eps),
        factors,
        ratio,
        coefficients,
        keep,
        args.continuation,
    )
    results: dict[str, Any] = {}
    for variant in variants:
        started, load = time.time(), os.getloadavg()[0]
        tasks = [(i, variant, setup) for i in range(args.boards)]
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
        if args.save:
            np.save(f"{args.save}-{variant}.npy", chips)
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
