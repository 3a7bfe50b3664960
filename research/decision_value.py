"""pimc's decisions valued on the true deal: what each way of searching gains over greedy's move,
one decision at a time, with far less noise than a tournament.

Positions come from greedy playing itself (4 seats, a match's antes in the pot). At each
decision with a choice, every legal action is valued on the *true* hidden cards (the real
hands, the stock's order still unknown: ``--exact`` determinizations, playouts by the compiled
playout policy, or with ``--truth-policy greedy`` by the exact compiled greedy, which is how the
real opponents play), which is an unbiased sample of what the action is worth to the seat: the true
deal is a draw from the posterior of the seat's belief. Each variant then decides from the
observation only (R9) and scores the true value of its choice less that of greedy's (the mean
over greedy's tied discards). The variant ``exact`` searches the true hands: the bound no
honest bot reaches.

A variant is ``BELIEF[#g][+e][@Z][/N]``: the belief (``uniform``, ``ranks``, ``moves``, ``exact``),
``#g`` for playouts played by the exact greedy (else the compiled playout policy), ``+e`` to
start from the ``expert`` level's move instead of greedy's, ``@Z`` to keep that move unless
beaten by Z standard errors (else plain argmax), ``/N`` its determinizations (else
``--determinizations``). The variant ``expert`` is the expert level's move alone (no search).
Differences are paired against the first.

    .venv/bin/python -m research.decision_value --games 40 --variants ranks,ranks@1,moves@1,exact
    .venv/bin/python -m research.decision_value --variants ranks@1/1500,ranks#g@1/250
    .venv/bin/python -m research.decision_value --preset gamerules --truth-policy greedy
    .venv/bin/python -m research.decision_value --variants expert,ranks+e@1.96/1000,ranks+e@1/1000
"""

from __future__ import annotations

import argparse
import math
import os
import re
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from paiute import RuleSet
from paiute.players import make_player
from paiute.players.base import MAX_ITERATIONS, MAX_WORKERS
from paiute.rules import PRESETS
from research.self_play import greedy_positions

PLAYERS = 4
KINDS = ("draw", "discard", "call?", "last draw", "last discard", "last call?")
VARIANT = re.compile(r"expert|(uniform|ranks|moves|exact)(#g)?(\+e)?(?:@([\d.]+))?(?:/(\d+))?")


def decision_kind(observation: Any) -> str:
    """The kind of a decision, for the breakdown: ``draw``, ``discard`` or ``call?`` (a
    call is legal), prefixed ``last`` once somebody has called (R7.2)."""
    legal = observation.legal_actions
    if legal[0].kind.is_draw:
        kind = "draw"
    elif any(action.kind.is_call for action in legal):
        kind = "call?"
    else:
        kind = "discard"
    return f"last {kind}" if observation.calls else kind


def play_game(task: tuple[int, str, int, int, list[str], str]) -> tuple[dict[str, list[float]], list[str]]:
    """Each variant's gain over greedy's move at every decision of one deal, and each
    decision's kind (:func:`decision_kind`), in the same order."""
    from paiute.compiled.belief import Belief
    from paiute.compiled.search import Position, inference_weights, run_estimates

    seed, preset, determinizations, exact, variants, truth_policy = task
    rules = RuleSet.from_preset(preset)
    gains: dict[str, list[float]] = {name: [] for name in variants}
    kinds: list[str] = []
    wants_expert = any(name == "expert" or "+e" in name for name in variants)
    for deal, observation, bot in greedy_positions(seed, rules):
        legal = observation.legal_actions
        kinds.append(decision_kind(observation))
        ids = [action.id for action in legal]
        position = Position.from_observation(observation)
        truth = np.ones((8, 54))
        for seat in range(observation.players):
            if seat != observation.seat:
                for card in deal.hand(seat):
                    truth[seat, int(card)] = 1e12  # the true hand, as good as certainly
        values = np.zeros((len(ids), exact))
        run_estimates(
            position, ids, seed * 7919 + len(observation.history), 0, exact, values, truth, truth_policy
        )
        true_value = values.mean(axis=1)
        ties = [legal.index(action) for action in bot.choices(observation)]
        base = float(np.mean(true_value[ties]))
        # The expert's move, where a variant asks for it (it is the same for all of them).
        expert = (
            legal.index(make_player("expert", seed=seed * 7919 + len(observation.history)).act(observation))
            if wants_expert
            else -1
        )
        for name in variants:
            if name == "expert":
                gains[name].append(float(true_value[expert]) - base if expert not in ties else 0.0)
                continue
            match = VARIANT.fullmatch(name)
            assert match is not None
            kind, by_greedy, from_expert, z_text, count = match.groups()
            baseline = expert if from_expert else ties[0]
            count_n = int(count) if count else determinizations
            weights = None
            belief = None
            if kind == "exact":
                weights = truth
            elif kind in ("ranks", "moves"):
                weights = inference_weights(observation)
            if kind == "moves":
                assert weights is not None
                belief = Belief.read(observation, position, weights, 99 + len(observation.history))
            sampled = np.zeros((len(ids), count_n))
            decision_seed = 12345 + 31 * len(observation.history) + seed
            policy = "greedy" if by_greedy else None
            run_estimates(position, ids, decision_seed, 0, count_n, sampled, weights, policy, belief)
            choice = int(np.argmax(sampled.mean(axis=1)))
            kept = [baseline] if from_expert else ties
            if z_text is not None and choice not in kept:
                advantage = sampled[choice] - sampled[baseline]
                se = float(advantage.std(ddof=1)) / math.sqrt(count_n)
                if not float(advantage.mean()) > float(z_text) * se:
                    choice = baseline
            gains[name].append(float(true_value[choice]) - base if choice not in ties else 0.0)
    return gains, kinds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--variants", default="ranks,ranks@1,moves@1,exact", help="comma-separated (see above)"
    )
    parser.add_argument(
        "--games", type=int, default=40, help="deals of greedy self-play (~33 decisions each)"
    )
    parser.add_argument("--determinizations", type=int, default=200)
    parser.add_argument("--exact", type=int, default=1000, help="determinizations valuing the true deal")
    parser.add_argument(
        "--truth-policy",
        choices=("playout", "greedy"),
        default="playout",
        help="who plays the playouts that value the true deal: the compiled playout policy (fast) "
        "or the exact greedy (the real opponents' play, about six times slower)",
    )
    parser.add_argument("--preset", choices=sorted(PRESETS), default="pagat")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.games < 1:
        parser.error(f"--games must be at least 1, not {args.games}")
    for option, value in (("--determinizations", args.determinizations), ("--exact", args.exact)):
        if not 1 <= value <= MAX_ITERATIONS:
            parser.error(f"{option} must be from 1 to {MAX_ITERATIONS}, not {value}")
    if not 1 <= args.workers <= MAX_WORKERS:
        parser.error(f"--workers must be from 1 to {MAX_WORKERS}, not {args.workers}")
    variants = args.variants.split(",")
    for name in variants:
        if not VARIANT.fullmatch(name):
            parser.error(f"bad variant {name!r}: expert or BELIEF[#g][+e][@Z][/N]")
    from paiute.compiled import warm

    warm.prepare(block=True)
    started, load = time.time(), os.getloadavg()[0]
    tasks = [
        (args.seed + i, args.preset, args.determinizations, args.exact, variants, args.truth_policy)
        for i in range(args.games)
    ]
    gains: dict[str, list[float]] = {name: [] for name in variants}
    kinds: list[str] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for game_gains, game_kinds in pool.map(play_game, tasks):
            for name, values in game_gains.items():
                gains[name].extend(values)
            kinds.extend(game_kinds)
    first = np.array(gains[variants[0]])
    print(
        f"{args.preset}, {args.games} deals, {len(first)} decisions, the true deal valued by "
        f"{args.truth_policy} playouts; chips a decision over greedy's move:"
    )
    for name in variants:
        gain = np.array(gains[name])
        paired = gain - first
        half = 1.96 * float(gain.std(ddof=1)) / math.sqrt(len(gain))
        paired_half = 1.96 * float(paired.std(ddof=1)) / math.sqrt(len(paired))
        print(
            f"  {name:<16} {gain.mean():+.4f} ± {half:.4f}   "
            f"minus {variants[0]}: {paired.mean():+.4f} ± {paired_half:.4f}   "
            f"left greedy's move at {np.count_nonzero(gain) / len(gain):.0%}"
        )
    kind_of = np.array(kinds)
    print("by kind of decision (gain over greedy's move, chips a decision; n decisions):")
    for kind in KINDS:
        chosen = kind_of == kind
        if not chosen.any():
            continue
        cells = []
        for name in variants:
            gain = np.array(gains[name])[chosen]
            half = 1.96 * float(gain.std(ddof=1)) / math.sqrt(len(gain)) if len(gain) > 1 else math.inf
            cells.append(f"{name} {gain.mean():+.4f} ± {half:.4f}")
        print(f"  {kind:<13} n={int(chosen.sum()):<5} " + "   ".join(cells))
    print(f"{time.time() - started:.0f} s; load {load:.1f} -> {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
