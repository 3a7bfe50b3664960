"""Our ``ismcts`` and ``pimc`` against OpenSpiel's Python ``ISMCTSBot`` at the same time per decision.

Run with the project venv (OpenSpiel is in the ``test`` and ``openspiel`` extras)::

    .venv/bin/python benchmarks/openspiel_ismcts.py --deals 50 --ms 50          # ~5 minutes here
    .venv/bin/python benchmarks/openspiel_ismcts.py --deals 50 --ms 20 --seed 2 # ~3 minutes
    .venv/bin/python benchmarks/openspiel_ismcts.py --deals 4 --ms 20           # smoke run
    .venv/bin/python benchmarks/openspiel_ismcts.py --deals 50 --ms 50 --json out.json
    .venv/bin/python benchmarks/openspiel_ismcts.py --deals 50 --ms 50 --ours pimc  # one of ours

**Side by side.** Each of our bots in ``--ours`` (default ``ismcts,pimc,guarded``: the
pure-Python information-set MCTS, the compiled determinized search, and ``guarded``, the
``expert`` level, which does not search and decides in under a millisecond whatever ``--ms``)
plays the same boards against OpenSpiel's bot in one run, one after the other, OpenSpiel's at
``--ms``, and the report puts them side by side with the load around each.
``pimc`` searches only once its compiled kernels are loaded (it plays ``greedy``'s move
before): the script loads them first (``paiute.compiled.warm.prepare(block=True)``); its
iterations are determinizations (each legal action played out once on each).

Figures of a run on the project's 2-vCPU machine are in ``docs/openspiel.md``.

**The game** is OpenSpiel's ``python_paiute`` (paiute.envs.openspiel), default rules, 2 seats
(``--players``), ``max_turns`` 1000 (``--max-turns``). Both bots play the same
``pyspiel.State``: OpenSpiel's bot through ``bot.step(state)`` (it keys its tree on
information-state strings and samples worlds with ``state.resample_from_infostate``), ours
through ``make_player("ismcts:ms=M,seed=S").act(state.observation(seat))``, which is exactly
what R9 lets the seat see.

**The same time per decision.** Ours searches under ``ms=M``: it stops when one more
iteration of its average length would run past M milliseconds (less a small margin), measured
with ``time.perf_counter``. OpenSpiel's ``ISMCTSBot`` takes a number of simulations, not a
time; :class:`TimedISMCTSBot` runs the same search (``sample_root_state`` then
``run_simulation``, as ``ISMCTSBot.run_search`` does) in a loop with the same stopping rule on
the same clock, but always at least two simulations (the first only expands the root). Its leaves are valued by OpenSpiel's
``RandomRolloutEvaluator`` (one random playout), with ``uct_c`` 2 (rewards are chips: ±1 with
two seats and a stake of 1). Neither searches when only one action is legal. The report gives
each bot's mean wall and CPU milliseconds per searched decision and its iterations per
decision, so the budgets can be compared.

**Duplicate deals.** Each board is one shuffled pack (``--seed`` and the board number fix it)
played once per rotation of the line-up (with 2 seats: ours at seat 0, then at seat 1), so
both bots get the same cards. Chance nodes take the board's pack in order: the deal takes
its next cards, and each stock draw takes, of the cards the stock may give, the one that
comes first in the board's pack (for the first stock: the next card of the pack; a rebuilt
stock, R4.6, holds different cards in each seating, as in any duplicate game).

**The figure**, as ``paiute tournament`` computes it (paiute.analysis.tournament): ours' chips per deal
(the game's returns: the chips won or lost in the deal, R8; a dead deal returns every stake,
R8.5) with a 95% confidence interval of 1.96 standard errors of the per-board means (the
boards are the independent samples). Zero-sum, so OpenSpiel's bot has the opposite figure.
OpenSpiel's C++ ISMCTS cannot play a Python game, so only the Python bot is measured.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shlex
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from paiute import SeededChance, pack
from paiute.analysis.tournament import confidence_interval, seatings
from paiute.envs.openspiel import PaiuteState, load_game
from paiute.players import make_player
from paiute.rules import RuleSet

OURS, THEIRS = 0, 1
THEIRS_LABEL = "OpenSpiel ISMCTSBot"
OUR_BOTS = ("ismcts", "pimc", "guarded")
#: Ours that search under a time budget; the others (``guarded``, the ``expert`` level) decide
#: in well under a millisecond whatever ``--ms`` gives OpenSpiel's bot.
TIMED_BOTS = ("ismcts", "pimc")
UCT_C = 2.0


class TimedISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's Python ISMCTS with a time budget instead of a simulation count.

    Each decision resets the tree and runs simulations from sampled worlds until one more of
    average length would pass ``ms`` milliseconds (``time.perf_counter``), at least two
    (the first one only expands the root).
    """

    def __init__(self, game: Any, ms: float, random_state: np.random.RandomState) -> None:
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
        super().__init__(game, evaluator, UCT_C, max_simulations=1, random_state=random_state)
        self.ms = ms
        self.simulations = 0

    def run_search(self, state: Any) -> list[tuple[int, float]]:
        self.reset()
        legal = state.legal_actions()
        self.simulations = 0
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        started = time.perf_counter()
        deadline = started + self.ms / 1000.0
        root = self.create_new_node(state)
        while True:
            self.run_simulation(self.sample_root_state(state))
            self.simulations += 1
            now = time.perf_counter()
            # The first simulation only expands the root: two at least, so the root has visits.
            if self.simulations >= 2 and now + (now - started) / self.simulations > deadline:
                break
        policy: list[tuple[int, float]] = self.get_final_policy(state, root)
        return policy


@dataclass
class Timing:
    """Searched decisions of one bot: count, wall and CPU seconds, iterations."""

    decisions: int = 0
    wall: float = 0.0
    cpu: float = 0.0
    iterations: int = 0

    def add(self, wall: float, cpu: float, iterations: int) -> None:
        self.decisions += 1
        self.wall += wall
        self.cpu += cpu
        self.iterations += iterations

    def to_json(self) -> dict[str, float]:
        n = max(self.decisions, 1)
        return {
            "decisions": self.decisions,
            "wall_ms": 1000 * self.wall / n,
            "cpu_ms": 1000 * self.cpu / n,
            "iterations": self.iterations / n,
        }


@dataclass
class Results:
    """Every deal's chips per bot, grouped by board."""

    ours: str = "ismcts"
    boards: list[list[tuple[tuple[int, ...], list[float]]]] = field(default_factory=list)
    timing: tuple[Timing, Timing] = field(default_factory=lambda: (Timing(), Timing()))
    dead: int = 0
    truncated: int = 0

    def board_means(self, bot: int) -> list[float]:
        means = []
        for deals in self.boards:
            chips = [
                returns[seat] for seating, returns in deals for seat, who in enumerate(seating) if who == bot
            ]
            means.append(sum(chips) / len(chips))
        return means

    def summary(self, bot: int) -> dict[str, Any]:
        means = self.board_means(bot)
        mean = sum(means) / len(means) if means else 0.0
        wins = sum(
            1
            for deals in self.boards
            for seating, returns in deals
            for seat, who in enumerate(seating)
            if who == bot and returns[seat] > 0
        )
        seats = sum(seating.count(bot) for deals in self.boards for seating, _ in deals)
        return {
            "bot": f"paiute {self.ours}" if bot == OURS else THEIRS_LABEL,
            "chips_per_deal": mean,
            "ci95": confidence_interval(mean, means),
            "wins": wins,
            "seats": seats,
            **self.timing[bot].to_json(),
        }


def derive(seed: int, *parts: object) -> int:
    text = "/".join(map(str, ("paiute-openspiel-bench", seed, *parts)))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")


def play_deal(
    game: Any, order: dict[int, int], seating: tuple[int, ...], ms: float, seeds: list[int], results: Results
) -> list[float]:
    """One deal of a board: chance takes the board's pack in order (see the module docstring)."""
    ours = {
        seat: make_player(
            f"{results.ours}:ms={ms},seed={seeds[seat]}"
            if results.ours in TIMED_BOTS
            else f"{results.ours}:seed={seeds[seat]}"
        )
        for seat, who in enumerate(seating)
        if who == OURS
    }
    theirs = {
        seat: TimedISMCTSBot(game, ms, np.random.RandomState(seeds[seat]))
        for seat, who in enumerate(seating)
        if who == THEIRS
    }
    state: PaiuteState = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(min(state.legal_actions(), key=order.__getitem__))
            continue
        seat = state.current_player()
        searched = len(state.legal_actions()) > 1
        wall, cpu = time.perf_counter(), time.process_time()
        if seat in ours:
            player = ours[seat]
            action = player.act(state.observation(seat)).id
            stats = getattr(player, "last_search", None) if searched else None
            # ismcts counts iterations, pimc determinizations (every legal action once each)
            iterations = getattr(stats, "iterations", getattr(stats, "determinizations", 0)) if stats else 0
        else:
            bot = theirs[seat]
            action = int(bot.step(state))
            iterations = bot.simulations
        if searched:
            results.timing[seating[seat]].add(
                time.perf_counter() - wall, time.process_time() - cpu, iterations
            )
        state.apply_action(action)
    deal = state.table.deal
    results.dead += bool(deal is not None and deal.outcome is not None and deal.outcome.dead)
    results.truncated += state.table.truncated
    return list(state.returns())


def run(args: argparse.Namespace, our_bot: str = "ismcts") -> Results:
    game = load_game(RuleSet(), args.players, max_turns=args.max_turns)
    lineup = seatings(2, args.players, "rotations")
    results = Results(ours=our_bot)
    start = time.monotonic()
    for board in range(args.deals):
        cards = pack(False)
        SeededChance(derive(args.seed, board, "pack")).shuffle(cards)
        order = {int(card): place for place, card in enumerate(cards)}
        seeds = [derive(args.seed, board, "seat", seat) for seat in range(args.players)]
        deals = [(seating, play_deal(game, order, seating, args.ms, seeds, results)) for seating in lineup]
        results.boards.append(deals)
        ours = results.summary(OURS)
        ci = ours["ci95"]
        ci_text = f" [{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else ""
        print(
            f"{our_bot} board {board + 1}/{args.deals}: ours {[round(r[s], 2) for seating, r in deals for s, w in enumerate(seating) if w == OURS]}"
            f"  running mean {ours['chips_per_deal']:+.3f}{ci_text}  ({time.monotonic() - start:.0f} s)",
            flush=True,
        )
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=40, help="boards (each played once per seating)")
    parser.add_argument("--ms", type=float, default=30.0, help="milliseconds per decision for both bots")
    parser.add_argument("--players", type=int, default=2, help="seats, filled ours, theirs, ours...")
    parser.add_argument("--max-turns", type=int, default=1000, help="the game's max_turns")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--ours",
        default=",".join(OUR_BOTS),
        help=f"our bots, each against OpenSpiel's (default {','.join(OUR_BOTS)})",
    )
    parser.add_argument("--json", help="also write the figures as JSON to this file")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.ms <= 0:
        parser.error("--deals must be at least 1 and --ms positive")
    ours_list = [name.strip() for name in args.ours.split(",") if name.strip()]
    if not ours_list or any(name not in OUR_BOTS for name in ours_list):
        parser.error(f"--ours {args.ours!r}: a comma-separated list of {', '.join(OUR_BOTS)}")
    command = "python benchmarks/openspiel_ismcts.py " + " ".join(
        map(shlex.quote, sys.argv[1:] if argv is None else argv)
    )
    print(f"# {command}")
    print(
        f"# {platform.python_implementation()} {platform.python_version()}, open_spiel "
        f"{_version('open_spiel')}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}"
    )
    if "pimc" in ours_list:
        from paiute.compiled import available, warm

        if not available() or not warm.prepare(block=True, timeout=900):
            print(
                f"# pimc: compiled kernels unavailable ({warm.error() or 'no Numba'}): it plays greedy's moves"
            )
    runs: list[dict[str, Any]] = []
    for name in ours_list:
        load_before = os.getloadavg()[0]
        started = time.monotonic()
        results = run(args, name)
        elapsed = time.monotonic() - started
        load_after = os.getloadavg()[0]
        deals = sum(len(board) for board in results.boards)
        print(
            f"\n{name}: {len(results.boards)} boards, {deals} deals ({results.dead} dead, {results.truncated} cut "
            f"by max_turns), {elapsed:.0f} s, load {load_before:.2f} -> {load_after:.2f}"
        )
        summaries = [results.summary(bot) for bot in (OURS, THEIRS)]
        for item in summaries:
            print(
                f"{item['bot']:>20}: {item['chips_per_deal']:+.3f} chips/deal, 95% CI {_ci(item['ci95'])}; "
                f"won {item['wins']}/{item['seats']} seats; per searched decision {item['wall_ms']:.1f} ms wall, "
                f"{item['cpu_ms']:.1f} ms CPU, {item['iterations']:.1f} iterations ({item['decisions']} decisions)"
            )
        ours_ci = summaries[OURS]["ci95"]
        verdict = "above zero" if ours_ci and ours_ci[0] > 0 else "NOT clear of zero"
        print(f"ours' interval is {verdict}")
        runs.append(
            {
                "ours": name,
                "elapsed_s": elapsed,
                "deals": deals,
                "boards": len(results.boards),
                "dead": results.dead,
                "truncated": results.truncated,
                "load_before": load_before,
                "load_after": load_after,
                "bots": summaries,
            }
        )
    print(f"\nside by side, {args.ms:g} ms a decision, the same {args.deals} boards, {args.players} seats:")
    print(
        "| ours | ours chips/deal [95% CI] | ours ms wall / CPU, iterations a decision "
        "| OpenSpiel ms wall / CPU, simulations a decision | load |"
    )
    print("| --- | ---: | ---: | ---: | --- |")
    for row in runs:
        mine, theirs = row["bots"]
        print(
            f"| `{row['ours']}{f':ms={args.ms:g}' if row['ours'] in TIMED_BOTS else ''}` "
            f"| {mine['chips_per_deal']:+.3f} {_ci(mine['ci95'])} "
            f"| {mine['wall_ms']:.1f} / {mine['cpu_ms']:.1f}, {mine['iterations']:.1f} "
            f"| {theirs['wall_ms']:.1f} / {theirs['cpu_ms']:.1f}, {theirs['iterations']:.1f} "
            f"| {row['load_before']:.2f}-{row['load_after']:.2f} |"
        )
    if args.json:
        first = runs[0]
        payload = {
            "command": command,
            "ms": args.ms,
            "players": args.players,
            # the first of ours at the top level, as before; every one under "runs"
            **{key: first[key] for key in ("elapsed_s", "deals", "boards", "dead", "truncated", "bots")},
            "runs": runs,
        }
        Path(args.json).write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    return 0


def _ci(ci: tuple[float, float] | None) -> str:
    return f"[{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else "(one board: no interval)"


def _version(name: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return "?"


if __name__ == "__main__":
    raise SystemExit(main())
