"""OpenSpiel's Python ISMCTS bot against paiute's ``ismcts`` on OpenSpiel's ``python_paiute``.

Run from the repository root (OpenSpiel is in the ``openspiel`` extra)::

    .venv/bin/python examples/openspiel_ismcts.py --quick               # 1 deal, tiny searches
    .venv/bin/python examples/openspiel_ismcts.py                       # 4 deals, about 30 s
    .venv/bin/python examples/openspiel_ismcts.py --deals 10 --simulations 20 --iterations 200

Both bots play the same ``pyspiel.State``: OpenSpiel's ``ISMCTSBot`` through ``bot.step(state)``
(it samples the hidden cards with ``state.resample_from_infostate`` and values leaves with one
random playout), ours through ``state.observation(seat)``, the seat's R9 view. The seats swap
every deal. OpenSpiel's C++ bots cannot play a game written in Python: use the Python ones.
For a comparison at the same time per decision, see benchmarks/openspiel_ismcts.py.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import paiute.envs.openspiel  # noqa: F401  (registers python_paiute)
from paiute.players import make_player


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--quick", action="store_true", help="1 deal, 2 simulations, 10 iterations: the pipeline only"
    )
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=10, help="OpenSpiel ISMCTS simulations per move")
    parser.add_argument("--iterations", type=int, default=100, help="our ismcts iterations per move")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.quick:
        args.deals, args.simulations, args.iterations = 1, 2, 10

    game = pyspiel.load_game("python_paiute(players=2)")
    rng = np.random.RandomState(args.seed)
    theirs = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, rng),
        uct_c=2.0,
        max_simulations=args.simulations,
        random_state=rng,
    )
    ours = make_player(f"ismcts:iterations={args.iterations}", seed=args.seed)
    totals = {"ours": 0.0, "OpenSpiel": 0.0}
    for number in range(args.deals):
        our_seat = number % 2  # swap seats every deal
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            elif state.current_player() == our_seat:
                state.apply_action(ours.act(state.observation(our_seat)).id)
            else:
                state.apply_action(int(theirs.step(state)))
        returns = state.returns()
        totals["ours"] += returns[our_seat]
        totals["OpenSpiel"] += returns[1 - our_seat]
        deal = state.table.deal
        calls = (
            ", ".join(f"seat {call.seat} {call.value}" for call in deal.outcome.calls) if deal.outcome else ""
        )
        print(
            f"deal {number + 1}: ours at seat {our_seat}, {len(deal.actions)} actions, "
            f"{'dead deal' if not calls else 'calls: ' + calls}; returns {returns}"
        )
    print(
        f"after {args.deals} deals: ours {totals['ours']:+g} chips, OpenSpiel's ISMCTS {totals['OpenSpiel']:+g}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
