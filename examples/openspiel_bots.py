"""OpenSpiel's Python ``ISMCTSBot`` and ``MCTSBot`` on ``python_paiute`` through ``evaluate_bots``.

Run from the repository root (OpenSpiel is in the ``openspiel`` extra)::

    .venv/bin/python examples/openspiel_bots.py --quick              # 3 tiny deals: seconds
    .venv/bin/python examples/openspiel_bots.py                      # 6 deals, a minute or so
    .venv/bin/python examples/openspiel_bots.py --deals 20 --simulations 20 --players 3

Each deal seats, in turn order, OpenSpiel's ``ISMCTSBot``, OpenSpiel's ``MCTSBot`` and our
``greedy`` (one seat each, the rest ``greedy``), and rotates the seats every deal; the script
prints each bot's chips per deal. Three things a user of OpenSpiel meets on a Python game:

* **The restart_at shim.** ``evaluate_bots`` first calls ``bot.restart_at(state)`` on every
  bot. OpenSpiel's Python ``ISMCTSBot`` does not define it, so the C++ base class raises
  ``SpielError: RestartAt(state) not implemented`` -- on OpenSpiel's own ``kuhn_poker`` too;
  it is OpenSpiel's bug, not the game's. :class:`RestartableISMCTSBot` adds it: forget the
  search tree (``reset()``), which is what a new deal needs. ``inform_action`` needs nothing:
  the bot rebuilds its view from the state at every ``step``.
* **MCTSBot is a perfect-information search.** It searches the real state, so it sees the
  other seats' hands (only the stock stays hidden: its draws are chance nodes). It is a
  cheating upper baseline, not a fair player under R9; ``ISMCTSBot`` searches the seat's
  information state (``resample_from_infostate``) and is the fair one.
* **C++ bots cannot search a Python game.** ``pyspiel.MCTSBot`` and ``pyspiel.ISMCTSBot`` end
  the process with a segmentation fault (exit status 139) at their first search, on
  ``python_paiute`` and on OpenSpiel's own ``python_kuhn_poker`` alike. The C++ uniform random
  bot (``pyspiel.make_uniform_random_bot``), which never clones a state, works. Use the Python
  bots (``open_spiel.python.algorithms``).

Rollouts are random playouts through ``pyspiel`` (hundreds of actions a deal), so the
default ``--max-turns`` is short: a deal still without a call then is cut and pays 0
(docs/rules.md, reading 17).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

from paiute.envs.openspiel import PlayerBot, load_game
from paiute.players import make_player
from paiute.rules import RuleSet


class RestartableISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's Python ``ISMCTSBot`` with the ``restart_at`` that ``evaluate_bots`` calls."""

    def restart_at(self, state: pyspiel.State) -> None:
        self.reset()  # a new deal: forget the tree


def make_bots(game: pyspiel.Game, players: int, simulations: int, seed: int) -> dict[str, pyspiel.Bot]:
    rng = np.random.RandomState(seed)
    bots: dict[str, pyspiel.Bot] = {
        "OpenSpiel ISMCTSBot": RestartableISMCTSBot(
            game, mcts.RandomRolloutEvaluator(1, rng), 2.0, max_simulations=simulations, random_state=rng
        ),
        "OpenSpiel MCTSBot (sees all hands)": mcts.MCTSBot(
            game, 2.0, simulations, mcts.RandomRolloutEvaluator(1, rng), random_state=rng
        ),
    }
    for extra in range(max(1, players - len(bots))):
        bots[f"paiute greedy #{extra + 1}"] = PlayerBot(make_player("greedy", seed=seed + extra))
    return dict(list(bots.items())[:players])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--quick", action="store_true", help="3 deals, 2 simulations, cut after 6 turns: seconds"
    )
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--players", type=int, default=3, help="2 to 8")
    parser.add_argument("--simulations", type=int, default=10, help="simulations per move for both MCTS bots")
    parser.add_argument("--max-turns", type=int, default=40, help="turns without a call before a deal is cut")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.quick:
        args.deals, args.simulations, args.max_turns = 3, 2, 6
    if not 2 <= args.players <= 8 or args.deals < 1 or args.simulations < 1 or args.max_turns < 1:
        parser.error("need 2..8 players and at least one deal, simulation and turn")

    game = load_game(RuleSet(), args.players, max_turns=args.max_turns)
    bots = make_bots(game, args.players, args.simulations, args.seed)
    names = list(bots)
    rng = np.random.RandomState(args.seed)
    totals = dict.fromkeys(names, 0.0)
    started = time.process_time()
    for number in range(args.deals):
        seating = names[number % len(names) :] + names[: number % len(names)]  # rotate the seats
        returns = evaluate_bots(game.new_initial_state(), [bots[name] for name in seating], rng)
        for name, chips in zip(seating, returns, strict=True):
            totals[name] += chips
        print(
            f"deal {number + 1}: "
            + ", ".join(f"{name} {chips:+g}" for name, chips in zip(seating, returns, strict=True))
        )
    cpu = time.process_time() - started
    print(f"after {args.deals} deals ({cpu:.1f} CPU-s, load {os.getloadavg()[0]:.2f}), chips per deal:")
    for name in names:
        print(f"  {name}: {totals[name] / args.deals:+.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
