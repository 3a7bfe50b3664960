"""Who gains when ``guarded`` leaves greedy's discard? Each departure valued on the true deal.

Positions come from greedy playing itself (4 seats). At every discard before any call (R7.2)
where the guarded player (the ``expert`` level) throws a card that is not one of greedy's
tied choices, both moves are played out ``--rollouts`` times on the *true* hands with the stock's order
dealt afresh at each draw (its order is seen by nobody, R9.3: every order is as likely; the
upcard under the stock stays last, R2.6). After the move the
other seats are played by ``greedy`` and the deciding seat by ``greedy`` or, as the guarded
player does, by ``guarded`` on every later turn (``after``). A departure is scored twice:

* ``own``: the deciding seat's chips, the guarded move's less greedy's (the mean over greedy's
  tied cards);
* ``team``: the mean of the deciding seat's and the seat two on's (its partner in the issue's
  ``A B A B`` line-up, where that seat is the other ``guarded`` bot).

    .venv/bin/python -m research.guard_departures --games 300 --rollouts 30           # ~3 minutes
    .venv/bin/python -m research.guard_departures --preset gamerules --games 1000 --json out.json
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from paiute import Phase, RuleSet, SeededChance
from paiute.actions import DRAW_STOCK, Action
from paiute.deal import Deal
from paiute.errors import PaiuteError
from paiute.players.greedy import GreedyPlayer
from paiute.players.guarded import DEFAULT_WEIGHT, GuardedPlayer
from paiute.settlement import settle
from research.self_play import PLAYERS, greedy_positions

AFTER = ("greedy", "guarded")
#: Actions after which a rollout is cut and valued as a dead deal (R4.7, R8.5).
CAP = 400


def _values(deal: Deal, seat: int, before: Sequence[int]) -> tuple[float, float]:
    """The seat's chips, and the mean of its and its partner's (the seat two on); a dead or
    cut deal is worth 0 to both (R8.5)."""
    outcome = deal.outcome
    if outcome is None or outcome.dead:
        return 0.0, 0.0
    after, _ = settle(deal.rules, outcome, deal.balances, deal.pot, deal.dealer)
    partner = (seat + 2) % deal.players
    own = float(after[seat] - before[seat])
    return own, (own + float(after[partner] - before[partner])) / 2


def rollout(
    deal: Deal, action: Action, seat: int, after: str, seed: int, weight: float = DEFAULT_WEIGHT
) -> tuple[float, float]:
    """``action`` played on a copy of the true deal with its stock shuffled again, then the
    deal played out (see the module); the seat's and its team's chips."""
    copy = deal.copy(SeededChance(seed))
    rng = random.Random(seed)
    before = list(copy.balances)
    _draw(copy, action, rng)
    bots: list[GreedyPlayer] = [GreedyPlayer(seed=seed * 16 + other) for other in range(copy.players)]
    if after == "guarded":
        bots[seat] = GuardedPlayer(seed=seed * 16 + seat, weight=weight)
    steps = 0
    while not copy.is_over and steps < CAP:
        current = copy.current_seat
        _draw(copy, bots[current].act(copy.observation(current)), rng)
        steps += 1
    return _values(copy, seat, before)


def _draw(deal: Deal, action: Action, rng: random.Random) -> None:
    """Apply ``action``; a stock draw first puts a card of the stock chosen at random on top
    (an explicit chance node, as OpenSpiel's interface does: nobody sees the stock's order,
    R9.3, so every order is as likely; the upcard under the stock stays last, R2.6)."""
    stock = deal.stock_cards()
    if action == DRAW_STOCK and stock:  # an empty stock is rebuilt by the draw itself (R4.6)
        card = rng.choice(stock)
        try:
            deal.put_on_stock_top(card)
        except PaiuteError:  # the upcard under the stock (R2.6): another card, drawn before it
            deal.put_on_stock_top(rng.choice(stock[1:]))
    deal.apply(action)


def play_game(task: tuple[int, str, int, float]) -> tuple[list[list[float]], int]:
    """Every departure of one deal of greedy self-play: ``[own, team]`` for each ``after``
    (in the order of :data:`AFTER`), and the number of discards weighed."""
    seed, preset, rollouts, weight = task
    rows: list[list[float]] = []
    weighed = 0
    for deal, observation, bot in greedy_positions(seed, RuleSet.from_preset(preset)):
        seat = observation.seat
        assert seat is not None
        if observation.phase is Phase.DISCARD and not observation.calls:
            weighed += 1
            guarded = GuardedPlayer(seed=seed * 7919 + len(observation.history), weight=weight).act(
                observation
            )
            ties = bot.choices(observation)
            if guarded not in ties:
                row: list[float] = []
                for after in AFTER:
                    own, team = [], []
                    for k in range(rollouts):
                        rollout_seed = seed * 100003 + len(observation.history) * 101 + k
                        mine = rollout(deal, guarded, seat, after, rollout_seed, weight)
                        theirs = [rollout(deal, tie, seat, after, rollout_seed, weight) for tie in ties]
                        own.append(mine[0] - statistics.fmean(value[0] for value in theirs))
                        team.append(mine[1] - statistics.fmean(value[1] for value in theirs))
                    row += [statistics.fmean(own), statistics.fmean(team)]
                rows.append(row)
    return rows, weighed


def _interval(values: Sequence[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return mean, half


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="deals of greedy self-play (default 300)")
    parser.add_argument("--rollouts", type=int, default=30, help="playouts of each move (default 30)")
    parser.add_argument("--preset", choices=("pagat", "gamerules"), default="pagat")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument(
        "--weight", type=float, default=DEFAULT_WEIGHT, help=f"guarded's weight (default {DEFAULT_WEIGHT})"
    )
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", help="also write the figures as JSON to this file")
    args = parser.parse_args(argv)
    if args.games < 1 or args.rollouts < 1 or args.workers < 1:
        parser.error("--games, --rollouts and --workers must be at least 1")
    started, load = time.monotonic(), os.getloadavg()[0]
    if not (0.0 <= args.weight < math.inf):
        parser.error(f"--weight {args.weight}: a finite number, not negative")
    tasks = [(args.seed + index, args.preset, args.rollouts, args.weight) for index in range(args.games)]
    rows: list[list[float]] = []
    weighed = 0
    if args.workers == 1:
        results = [play_game(task) for task in tasks]
    else:
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(play_game, tasks))
    for game_rows, game_weighed in results:
        rows += game_rows
        weighed += game_weighed
    print(
        f"{args.preset}, guarded:weight={args.weight:g}, {args.games} deals of greedy self-play, "
        f"{weighed} discards weighed before a call, "
        f"{len(rows)} departures of guarded ({len(rows) / (args.games * PLAYERS):.3f} a seat a deal), "
        f"{args.rollouts} rollouts a move; chips a departure, guarded's move less greedy's [95%]:"
    )
    figures: dict[str, object] = {
        "preset": args.preset,
        "games": args.games,
        "rollouts": args.rollouts,
        "seed": args.seed,
        "weight": args.weight,
        "weighed": weighed,
        "departures": len(rows),
        "rows": [],
    }
    for index, (after, scope) in enumerate((a, s) for a in AFTER for s in ("own", "team")):
        values = [row[index] for row in rows]
        if not values:
            continue
        mean, half = _interval(values)
        print(f"  seat then played by {after:<8} {scope:<5} {mean:+.4f} ± {half:.4f}")
        # One departure has no interval: its half-width is null in the JSON.
        row = {"after": after, "scope": scope, "mean": mean, "half": half if math.isfinite(half) else None}
        figures["rows"].append(row)  # type: ignore[attr-defined]
    print(f"{time.monotonic() - started:.0f} s; load {load:.1f} -> {os.getloadavg()[0]:.1f}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2, allow_nan=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
