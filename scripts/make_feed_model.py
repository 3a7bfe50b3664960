"""Write the ``guarded`` player's feed models (``src/paiute/players/data/feed.json``) from
greedy's self-play.

For each preset and table size asked, greedy plays itself for ``--deals`` deals dealt from
``--seed``. Every card greedy weighs throwing before any call (R7.2) is a row of the public
facts the player reads (:func:`paiute.players.feed.feed_rows`, R9), labelled by whether the
*true* next hand could call at once after taking it from the pile (R4.2, R4.3, R6.2; a Paiute
only where R5.7 allows it; a hand that makes a combination alone would have called, and is
not counted). The label is read from the deal and never shown to a player. A logistic model
is fitted on the rows by Newton's method with a ridge on all but the bias, and scored on
``--test`` deals of the next seed (its AUC is recorded beside the coefficients).
``docs/guarded.md`` says what guarding greedy's discards with these models is worth.

    .venv/bin/python scripts/make_feed_model.py                   # every model, into ./feed.json
    .venv/bin/python scripts/make_feed_model.py --preset pagat --seats 4 --out /tmp/feed.json
    .venv/bin/python scripts/make_feed_model.py --check           # compare with the shipped file
    .venv/bin/python scripts/make_feed_model.py --write-shipped   # rewrite the package's file

The defaults make the shipped models: every field equal, the coefficients to the rounding of
the machine's floating-point sums (``--check`` allows for that, :data:`TOLERANCE`). A file
that already exists at the output keeps its other models.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from paiute import RuleSet
from paiute.actions import ActionKind
from paiute.batch import BatchEvaluator
from paiute.cards import Card, pack
from paiute.chance import SeededChance
from paiute.deal import Deal
from paiute.evaluator import Evaluator
from paiute.greedy_weights import PAIUTE
from paiute.match import Match
from paiute.observation import Observation
from paiute.players.base import PlayerError
from paiute.players.feed import (
    COLUMNS,
    FEED_FORMAT,
    SHIPPED,
    feed_rows,
    next_seat,
    paiute_allowed,
    read_models,
)
from paiute.players.greedy import GreedyPlayer

PRESETS = ("gamerules", "pagat")
SEATS = (2, 3, 4, 5)
DEALS = 4000
TEST = 300
SEED = 20261214
RIDGE = 1.0
#: How far a coefficient may lie from the shipped one and still match (absolute, and relative
#: to its size): a sum of floating-point products may differ in its last bits from machine to
#: machine.
TOLERANCE = 1e-9

Rows = tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]


def derive(*parts: object) -> int:
    """A 64-bit seed derived from ``parts`` (a deal, a seat, a purpose), the same in every process."""
    text = "|".join(map(str, parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


def greedy_deal(
    preset: str, index: int, chance_seed: int, bot_seeds: Sequence[int]
) -> tuple[Match, Deal, list[GreedyPlayer]]:
    """The match and its deal (a seat a bot seed, dealer ``index`` modulo the seats, the pack
    shuffled by ``chance_seed``) and a greedy bot a seat, each seeded by ``bot_seeds``."""
    players = len(bot_seeds)
    rules = RuleSet.from_preset(preset, max_players=max(5, players))
    chance = SeededChance(chance_seed)
    deck = pack(rules.jokers)
    chance.shuffle(deck)
    names = [chr(ord("a") + seat) for seat in range(players)]
    match = Match(rules, names, balances=[0] * players, dealer=index % players, chance=chance)
    deal = match.start_deal(deck, chance=chance)
    return match, deal, [GreedyPlayer(seed=seed) for seed in bot_seeds]


_EVALUATORS: dict[tuple[frozenset[Card], bool], tuple[BatchEvaluator, Evaluator]] = {}


def feeds(observation: Observation, cards: Sequence[Card], hand: Sequence[Card]) -> list[bool]:
    """For each of ``cards`` thrown now, whether the next player holding ``hand`` (its true
    five cards, the label only) could call at once after taking it from the pile (see the
    module)."""
    key = (frozenset(observation.wild_cards), observation.rules.royal_high)
    if key not in _EVALUATORS:
        _EVALUATORS[key] = (BatchEvaluator(key[0], royal_high=key[1]), Evaluator(key[0], royal_high=key[1]))
    batch, single = _EVALUATORS[key]
    held = [int(card) for card in hand]
    if single.code(held) != 0:
        return [False] * len(cards)  # it makes a combination alone: it would have called
    sixes = np.array([[*held, int(card)] for card in cards], dtype=np.uint8)
    six = batch.six_codes(sixes)
    if not paiute_allowed(observation, next_seat(observation)):
        six = np.where((six >> 12) == PAIUTE, 0, six)  # R5.7
    return [bool(x) for x in (six > 0) | (batch.best5_codes(sixes) > 0)]


def collect_deal(task: tuple[str, int, int, int]) -> Rows:
    """One deal of greedy self-play: a row of :data:`~paiute.players.feed.COLUMNS` for every
    card greedy weighed throwing, and whether it feeds the true next hand."""
    preset, seats, seed, index = task
    bot_seeds = [derive(seed, index, "seat", seat) for seat in range(seats)]
    match, deal, players = greedy_deal(preset, index, derive(seed, index, "deck"), bot_seeds)
    rows: list[list[float]] = []
    labels: list[bool] = []
    while not deal.is_over:
        observation = deal.observation(deal.current_seat)
        player = players[deal.current_seat]
        action = player.act(observation)
        scores = player.discard_scores(observation) if action.kind is ActionKind.DISCARD else {}
        if len(scores) >= 2:
            cards = list(scores)
            rows += feed_rows(observation, cards)
            labels += feeds(observation, cards, deal.hand(next_seat(observation)))
        match.apply(action)
    return np.array(rows, dtype=np.float64).reshape(-1, len(COLUMNS)), np.array(labels, dtype=np.bool_)


def collect(preset: str, seats: int, deals: int, seed: int, workers: int) -> Rows:
    """The rows and labels of ``deals`` deals of greedy self-play at ``seats`` seats."""
    tasks = [(preset, seats, seed, index) for index in range(deals)]
    if workers == 1:
        parts = [collect_deal(task) for task in tasks]
    else:
        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(collect_deal, tasks, chunksize=4))
    return np.concatenate([x for x, _ in parts]), np.concatenate([y for _, y in parts])


def fit(
    x: npt.NDArray[np.float64], y: npt.NDArray[np.bool_], ridge: float = RIDGE, steps: int = 25
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


def command(preset: str, seats: int, deals: int, test: int, seed: int, ridge: float) -> str:
    """The command that makes one model, as its entry records it."""
    return (
        f"scripts/make_feed_model.py --preset {preset} --seats {seats} --deals {deals} --test {test} "
        f"--seed {seed} --ridge {ridge}"
    )


def make_model(
    preset: str,
    seats: int,
    deals: int = DEALS,
    test: int = TEST,
    seed: int = SEED,
    ridge: float = RIDGE,
    workers: int = 1,
) -> dict[str, Any]:
    """The entry of ``preset`` at ``seats`` seats in a coefficients file: the coefficients
    fitted on ``deals`` deals of ``seed``, and how (scored on ``test`` deals of ``seed + 1``)."""
    x, y = collect(preset, seats, deals, seed, workers)
    coefficients = fit(x, y, ridge)
    tx, ty = collect(preset, seats, test, seed + 1, workers)
    held_out = auc(1.0 / (1.0 + np.exp(-(tx @ coefficients))), ty)
    fitted = {
        "seats": seats,
        "deals": deals,
        "seed": seed,
        "ridge": ridge,
        "cards": int(y.size),
        "held_out_auc": round(held_out, 4),
        "command": command(preset, seats, deals, test, seed, ridge),
    }
    return {"coefficients": [float(c) for c in coefficients], "fitted": fitted}


def write_models(path: Path, models: dict[str, dict[int, dict[str, Any]]]) -> None:
    """Write ``models`` (entries by preset and seat count) into the coefficients file at
    ``path``, keeping the other models of a file already there (a file of another kind or
    other columns is refused with a :class:`PlayerError`, not overwritten)."""
    document: dict[str, Any] = {"format": FEED_FORMAT, "columns": list(COLUMNS), "models": {}}
    if path.exists():
        read_models.cache_clear()
        read_models(str(path))
        document = json.loads(path.read_text(encoding="utf-8"))
    for preset, by_seats in models.items():
        entries = document["models"].setdefault(preset, {})
        for seats, entry in by_seats.items():
            entries[str(seats)] = entry
        document["models"][preset] = dict(sorted(entries.items(), key=lambda item: int(item[0])))
    document["models"] = dict(sorted(document["models"].items()))
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    read_models.cache_clear()


def differences(made: dict[str, Any], shipped: dict[str, Any] | None) -> list[str]:
    """What tells a model just made from the shipped one (nothing where they match)."""
    if shipped is None:
        return ["the shipped file has no such model"]
    found = [
        f"{name}: made {made['fitted'].get(name)!r}, shipped {shipped['fitted'].get(name)!r}"
        for name in sorted(set(made["fitted"]) | set(shipped["fitted"]))
        if made["fitted"].get(name) != shipped["fitted"].get(name)
    ]
    ours, theirs = made["coefficients"], shipped["coefficients"]
    if len(ours) != len(theirs) or not all(
        math.isclose(a, b, rel_tol=TOLERANCE, abs_tol=TOLERANCE) for a, b in zip(ours, theirs, strict=False)
    ):
        found.append("coefficients differ")
    return found


def _choices(text: str, allowed: Sequence[object], option: str, parser: argparse.ArgumentParser) -> list[str]:
    chosen = [item.strip() for item in text.split(",") if item.strip()]
    bad = [item for item in chosen if item not in [str(a) for a in allowed]]
    if bad or not chosen:
        parser.error(f"{option} takes {', '.join(map(str, allowed))} separated by commas, not {text!r}")
    return chosen


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("``", ""))
    parser.add_argument("--preset", default=",".join(PRESETS), help="comma-separated (default: both)")
    parser.add_argument(
        "--seats", default=",".join(map(str, SEATS)), help="comma-separated (default: 2,3,4,5)"
    )
    parser.add_argument("--deals", type=int, default=DEALS, help="deals of self-play to fit on")
    parser.add_argument("--test", type=int, default=TEST, help="deals of the next seed to score the fit on")
    parser.add_argument("--seed", type=int, default=SEED, help="the deals fitted on")
    parser.add_argument("--ridge", type=float, default=RIDGE)
    parser.add_argument("--workers", type=int, default=2)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--out", type=Path, default=Path("feed.json"), help="the file to write (./feed.json)")
    where.add_argument(
        "--write-shipped", action="store_true", help=f"write the package's own file, {SHIPPED.name}"
    )
    where.add_argument("--check", action="store_true", help="compare with the shipped models, write nothing")
    args = parser.parse_args(argv)
    presets = _choices(args.preset, PRESETS, "--preset", parser)
    seats = [int(s) for s in _choices(args.seats, SEATS, "--seats", parser)]
    for option, value in (("--deals", args.deals), ("--test", args.test)):
        if value < 2:
            parser.error(f"{option} must be at least 2, not {value}")
    if not 1 <= args.workers <= 64:
        parser.error(f"--workers must be from 1 to 64, not {args.workers}")
    if not 0 <= args.ridge < math.inf:
        parser.error(f"--ridge must be finite and not negative, not {args.ridge}")
    out = SHIPPED if args.write_shipped else args.out
    if args.check:
        shipped = json.loads(SHIPPED.read_text(encoding="utf-8"))["models"]
    elif out.exists():
        try:
            read_models(str(out))
        except PlayerError as error:
            parser.error(str(error))
    made: dict[str, dict[int, dict[str, Any]]] = {}
    mismatched = 0
    for preset in presets:
        for count in seats:
            started = time.time()
            entry = make_model(preset, count, args.deals, args.test, args.seed, args.ridge, args.workers)
            made.setdefault(preset, {})[count] = entry
            fitted = entry["fitted"]
            print(
                f"{preset} at {count} seats: {fitted['cards']} cards of {args.deals} deals, "
                f"held-out AUC {fitted['held_out_auc']}, {time.time() - started:.0f} s",
                flush=True,
            )
            if args.check:
                found = differences(entry, shipped.get(preset, {}).get(str(count)))
                mismatched += bool(found)
                print("  matches the shipped model" if not found else "  DIFFERS: " + "; ".join(found))
    if args.check:
        return 1 if mismatched else 0
    write_models(out, made)
    print(f"wrote {sum(map(len, made.values()))} model(s) to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
