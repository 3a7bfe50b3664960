"""How often pimc's compiled playout policy makes a move greedy could make, by kind of decision.

Positions come from greedy playing itself (4 seats, as ``decision_value.py``). At each decision
with a choice, the ``playout`` player (:mod:`paiute.compiled.playout`) counts as agreeing when
its move is one of greedy's (greedy breaks ties between equal discards at random, so its tied
discards all count). Calls are where the rules of the presets differ most (R5.7: on
gamerules a Paiute may be called on any turn), so the table also says how often each called.

    .venv/bin/python -m research.policy_agreement --preset gamerules --games 60
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter

from paiute import RuleSet
from paiute.players.pimc import PlayoutPlayer
from research.decision_value import KINDS, decision_kind
from research.self_play import greedy_positions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="pagat")
    parser.add_argument("--games", type=int, default=60, help="deals of greedy self-play")
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    if args.games < 1:
        parser.error(f"--games must be at least 1, not {args.games}")
    rules = RuleSet.from_preset(args.preset)
    playout = PlayoutPlayer()
    started, load = time.time(), os.getloadavg()[0]
    agree: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    tied: Counter[str] = Counter()
    calls: Counter[tuple[bool, bool]] = Counter()
    for game in range(args.games):
        for _, observation, bot in greedy_positions(args.seed + game, rules):
            kind = decision_kind(observation)
            choices = bot.choices(observation)
            move = playout.act(observation)
            seen[kind] += 1
            agree[kind] += move in choices
            tied[kind] += len(choices) > 1
            if kind.endswith("call?"):
                calls[choices[0].kind.is_call, move.kind.is_call] += 1
    print(
        f"{args.preset}, {args.games} deals of greedy self-play: the playout policy's move is one of greedy's"
    )
    for kind in KINDS:
        if seen[kind]:
            print(
                f"  {kind:<13} {agree[kind]:>5} / {seen[kind]:<5} = {agree[kind] / seen[kind]:.0%}"
                f"   (greedy tied between discards at {tied[kind]})"
            )
    if calls:
        print(
            "  where a call is legal: both call "
            f"{calls[True, True]}, only greedy {calls[True, False]}, only the playout policy "
            f"{calls[False, True]}, neither {calls[False, False]}"
        )
    print(f"{time.time() - started:.0f} s; load {load:.1f} -> {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
