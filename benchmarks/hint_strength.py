"""How good is the hint's move? Each rule a hint could recommend by, played as a bot against
``greedy``: 4 seats ``A B A B``, both rotations of every board (duplicate), chips a deal with a
95% interval, side by side on the same boards in one run.

* ``argmax``: the action with the most chips expected in the hint's playouts
  (:func:`paiute.players.evaluate.estimate_actions`, ``--playouts`` determinizations). The hint
  recommended this before 2026-12-05.
* ``expert``: the ``expert`` level's move (:data:`paiute.analysis.hint.HINT_LEVEL`). The hint's move
  since the fifth session of 2026-12-05.
* ``overrule``: the expert's move unless another action beats it, paired on the same
  estimates, with its 95% interval above zero; then the best of those (the hint's move in the
  fourth session of 2026-12-05).
* ``strict``: as ``overrule``, but each alternative's interval is widened for the number of
  alternatives tested at once (Bonferroni: ``k`` alternatives at ``0.05 / k`` each), so that
  the expert's move is overruled by noise in at most 5% of decisions where nothing beats it.
* ``last-round``: as ``overrule`` after the first call (R7.2), the expert's move before it,
  where the expert guards its discards and the playouts, played by greedy, cannot value the
  guard.
* ``calls``: as ``overrule`` on the decision to call alone (a call against the expert's move,
  or any move against the expert's call); never one discard or draw for another.
* ``draws``, ``discards``: as ``overrule`` in that phase of a turn alone (R4.1: the draw, from
  the stock or the pile; the discard, or a call in its place).

Each rule after the first is also compared with the first, paired board by board (the same
deals, the same greedy opponents): a far tighter interval than the two rows apart.

The estimate is made as the hint makes it (the same function, the seat's observation only,
R9), with ``--core`` (``auto``: compiled where Numba is installed, as ``paiute serve`` and
``paiute play`` with the ``search`` extra; ``python``: greedy's playouts in the engine, as a
bare ``paiute play`` install, some 200 playouts a second, so use few boards). The plan and the
draws left, which do not change the move, are not worked out.

    .venv/bin/python benchmarks/hint_strength.py --boards 1000               # ~5 minutes, compiled
    .venv/bin/python benchmarks/hint_strength.py --core python --boards 30 --playouts 24
    .venv/bin/python benchmarks/hint_strength.py --rules expert,overrule,strict --boards 10000
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from statistics import NormalDist

from paiute import RuleSet
from paiute.actions import Action
from paiute.analysis.hint import HINT_LEVEL
from paiute.cards import pack
from paiute.chance import SeededChance, derive_seed
from paiute.deal import Deal
from paiute.match import Match
from paiute.observation import Observation
from paiute.players import Player, make_player
from paiute.players.evaluate import Z95, Estimates, estimate_actions
from paiute.players.greedy import GreedyPlayer
from paiute.players.play import play_turn

PLAYERS = 4
RULES = ("argmax", "overrule", "expert", "strict", "last-round", "calls", "draws", "discards")


def _derive(*parts: object) -> int:
    return derive_seed("paiute-hint-strength", *parts, bits=48)


def greedy_deal(
    preset: str, index: int, chance_seed: int, bot_seeds: Sequence[int]
) -> tuple[Match, Deal, list[GreedyPlayer]]:
    """The board's match and deal (dealer ``index`` modulo the seats, the pack shuffled by
    ``chance_seed``) and a greedy bot a seat, each seeded by ``bot_seeds``."""
    players = len(bot_seeds)
    rules = RuleSet.from_preset(preset, max_players=max(5, players))
    chance = SeededChance(chance_seed)
    deck = pack(rules.jokers)
    chance.shuffle(deck)
    names = [chr(ord("a") + seat) for seat in range(players)]
    match = Match(rules, names, balances=[0] * players, dealer=index % players, chance=chance)
    deal = match.start_deal(deck, chance=chance)
    return match, deal, [GreedyPlayer(seed=seed) for seed in bot_seeds]


class HintRule:
    """A bot that plays what a hint would recommend by ``rule`` (see the module)."""

    def __init__(self, rule: str, playouts: int, core: str, seed: int) -> None:
        self.rule = rule
        self.playouts = playouts
        self.core = core
        self.seed = seed
        self.decisions = 0

    def act(self, observation: Observation) -> Action:
        self.decisions += 1
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        seed = _derive(self.seed, self.decisions)
        expert = make_player(HINT_LEVEL, seed=seed).act(observation)  # as the hint seeds it
        if self.rule == "expert":
            return expert
        estimates = estimate_actions(observation, playouts=self.playouts, seed=seed, core=self.core)
        if self.rule == "argmax":
            return estimates.best().action
        if self.rule == "last-round" and not observation.calls:
            return expert
        if self.rule == "calls":
            return _overrule_calls(estimates, expert)
        if self.rule in ("draws", "discards") and observation.phase.value != self.rule[:-1]:
            return expert
        return overrule(estimates, expert, strict=self.rule == "strict")


def _overrule_calls(estimates: Estimates, expert: Action) -> Action:
    """``overrule`` on the decision to call alone: a call against the expert's other move, or
    another move against the expert's call; never one discard or draw for another."""
    if expert.kind.is_call:
        return overrule(estimates, expert)
    calls = [e for e in estimates.estimates if e.action == expert or e.action.kind.is_call]
    if len(calls) < 2:
        return expert
    index = {e.action: i for i, e in enumerate(estimates.estimates)}
    only = Estimates(
        estimates.seat,
        tuple(calls),
        tuple(estimates.values[index[e.action]] for e in calls),
        estimates.playouts,
        estimates.seconds,
    )
    return overrule(only, expert)


def overrule(estimates: Estimates, expert: Action, *, strict: bool = False) -> Action:
    """``expert``, unless some action's chips less the expert's, paired on the same
    determinizations, have their 95% interval above zero (``strict``: widened by Bonferroni's
    correction for the alternatives tested); then the best of those by mean."""
    alternatives = [e for e in estimates.estimates if e.action != expert]
    if not alternatives:
        return expert
    # Estimates.advantage gives the 95% interval; its half-width scaled to the wider z.
    widen = NormalDist().inv_cdf(1 - 0.025 / (len(alternatives) if strict else 1)) / Z95
    better = []
    for estimate in alternatives:
        mean, low, _ = estimates.advantage(estimate.action, expert)
        if mean - widen * (mean - low) > 0:
            better.append(estimate)
    if not better:
        return expert
    return max(better, key=lambda estimate: estimate.mean).action


def play_board(task: tuple[int, str, int, str, int, str]) -> float:
    """The rule's chips a deal on one board, its two seats in both rotations."""
    index, preset, seed, rule, playouts, core = task
    chance_seed = _derive(seed, index, "deck")
    chips = 0.0
    for rotation in (0, 1):
        bot_seeds = [_derive(seed, index, "seat", seat) for seat in range(PLAYERS)]
        match, deal, players = greedy_deal(preset, index, chance_seed, bot_seeds)
        seated: list[Player] = [
            HintRule(rule, playouts, core, bot_seeds[seat]) if (seat + rotation) % 2 == 0 else players[seat]
            for seat in range(PLAYERS)
        ]
        while not deal.is_over:
            play_turn(deal, seated, match.apply)
        chips += sum(match.balances[seat] for seat in range(PLAYERS) if (seat + rotation) % 2 == 0) / 2
    return chips / 2


def _interval(values: Sequence[float]) -> tuple[float, float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, -math.inf, math.inf
    half = 1.96 * math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1) / n)
    return mean, mean - half, mean + half


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default=",".join(RULES), help="comma-separated: " + ", ".join(RULES))
    parser.add_argument("--boards", type=int, default=1000)
    parser.add_argument(
        "--playouts", type=int, default=32, help="determinizations of the estimate (default 32)"
    )
    parser.add_argument("--core", choices=("auto", "compiled", "python"), default="auto")
    parser.add_argument("--preset", choices=("pagat", "gamerules"), default="pagat")
    parser.add_argument("--seed", type=int, default=20261223)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", help="also write every row as JSON to this file")
    args = parser.parse_args(argv)
    rules = [name.strip() for name in args.rules.split(",") if name.strip()]
    if not rules or any(name not in RULES for name in rules):
        parser.error(f"--rules {args.rules!r}: a comma-separated list of {', '.join(RULES)}")
    if args.boards < 1 or args.playouts < 1 or args.workers < 1:
        parser.error("--boards, --playouts and --workers must be at least 1")
    print(f"# python benchmarks/hint_strength.py {' '.join(sys.argv[1:] if argv is None else argv)}")
    print(
        f"# {os.cpu_count()} CPUs, {args.workers} workers, preset {args.preset}, seed {args.seed}, "
        f"{args.boards} boards, 4 seats A B A B against greedy, both rotations; "
        f"{args.playouts} determinizations, core {args.core}"
    )
    rows = []
    per_board: dict[str, list[float]] = {}
    for rule in rules:
        load = os.getloadavg()[0]
        started = time.monotonic()
        tasks = [
            (index, args.preset, args.seed, rule, args.playouts, args.core) for index in range(args.boards)
        ]
        if args.workers == 1:
            results = [play_board(task) for task in tasks]
        else:
            with ProcessPoolExecutor(args.workers) as pool:
                results = list(pool.map(play_board, tasks, chunksize=4))
        per_board[rule] = results
        mean, low, high = _interval(results)
        rows.append((rule, mean, low, high, time.monotonic() - started, load, os.getloadavg()[0]))
        print(
            f"{rule}: {mean:+.3f} [{low:+.3f}, {high:+.3f}] chips/deal against greedy, "
            f"{time.monotonic() - started:.0f} s, load {load:.1f} -> {os.getloadavg()[0]:.1f}",
            flush=True,
        )
    paired = [
        (rule, *_interval([a - b for a, b in zip(per_board[rule], per_board[rules[0]], strict=True)]))
        for rule in rules[1:]
    ]
    for rule, mean, low, high in paired:
        print(
            f"{rule} - {rules[0]}: {mean:+.3f} [{low:+.3f}, {high:+.3f}] chips/deal, paired on the same boards"
        )
    if args.json:
        report = {
            "preset": args.preset,
            "seed": args.seed,
            "boards": args.boards,
            "playouts": args.playouts,
            "core": args.core,
            "rows": [
                {
                    "rule": rule,
                    "chips_per_deal": mean,
                    "ci95": [low, high] if math.isfinite(low) else None,
                    "seconds": wall,
                    "load": [before, after],
                }
                for rule, mean, low, high, wall, before, after in rows
            ],
            "paired": [
                {
                    "rule": rule,
                    "against": rules[0],
                    "chips_per_deal": mean,
                    "ci95": [low, high] if math.isfinite(low) else None,
                }
                for rule, mean, low, high in paired
            ],
        }
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    print()
    print("| rule | chips/deal against greedy [95% CI] | boards | wall | load |")
    print("| --- | ---: | ---: | ---: | --- |")
    for rule, mean, low, high, wall, before, after in rows:
        print(
            f"| `{rule}` | {mean:+.3f} [{low:+.3f}, {high:+.3f}] | {args.boards} | {wall:.0f} s | {before:.1f}-{after:.1f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
