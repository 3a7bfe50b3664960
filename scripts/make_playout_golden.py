"""Write tests/data/golden_playout_policy.txt: a digest of every decision the compiled playout
policy (``paiute.compiled.playout``, the ``playout`` player) makes in whole seeded deals, on
every preset and option mix that changes what it computes. tests/test_pimc.py recomputes it
and compares, so a change meant only to make the policy faster (it runs inside every pimc
playout) is shown to change no decision.

Each line is one case: its name, the number of deals and of decisions, and the SHA-256 of
the decisions (one ``"<deal> <seat> <action>"`` line per action, in order). Every seat of a
deal is the ``playout`` player; the deals start from an empty pot and are dealt by
``SeededChance(seed)``. A deal is cut after :data:`CUT` decisions: seats that keep taking the
pile's top never empty the stock, so R4.7 does not end every deal (docs/rules.md, reading 14;
with jokers the policy does this in some deals).

By default the script only compares: it prints the cases that differ from the golden file and
exits 1 if any does (``--check`` says the same explicitly). ``--write`` rewrites the golden
file; do that only when the policy is meant to play differently::

    python scripts/make_playout_golden.py            # compare (nothing is written)
    python scripts/make_playout_golden.py --write    # rewrite tests/data/golden_playout_policy.txt
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paiute import Deal, RuleSet, SeededChance  # noqa: E402
from paiute.players import make_player  # noqa: E402

GOLDEN = ROOT / "tests" / "data" / "golden_playout_policy.txt"
DEALS = 12
CUT = 200

#: (name, players, rule options): the presets, and each option the policy reads (R3 wild
#: cards, R5.7 Paiute on any turn, R5.8 royal high, R8.4 the scale's weights, R4.6-R4.7 the
#: stock) at more than one table size.
CASES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("pagat-4", 4, {"preset": "pagat"}),
    ("gamerules-4", 4, {"preset": "gamerules"}),
    ("pagat-2", 2, {"preset": "pagat"}),
    ("pagat-5", 5, {"preset": "pagat"}),
    ("gamerules-3", 3, {"preset": "gamerules"}),
    ("jokers-4", 4, {"preset": "pagat", "jokers": True}),
    ("opposite-colour-4", 4, {"preset": "pagat", "wild_colour": "opposite"}),
    ("scale-royal-high-3", 3, {"preset": "pagat", "payout": "scale", "royal_high": True}),
    ("paiute-any-turn-4", 4, {"preset": "pagat", "paiute_any_turn": True}),
    ("six-seats", 6, {"preset": "pagat", "max_players": 6}),
    ("no-rebuild-whole-pile-5", 5, {"preset": "pagat", "max_rebuilds": 0, "reshuffle_keeps_top": False}),
)


def _rules(options: dict[str, Any]) -> RuleSet:
    options = dict(options)
    preset = options.pop("preset")
    return RuleSet.from_preset(preset, **options) if options else RuleSet.from_preset(preset)


def digest_lines() -> list[str]:
    """The golden file's lines, computed now."""
    lines = []
    for name, players, options in CASES:
        rules = _rules(options)
        bots = [make_player("playout") for _ in range(players)]
        decisions = []
        for seed in range(DEALS):
            deal = Deal.new(rules, players, seed % players, SeededChance(seed))
            for _ in range(CUT):
                if deal.is_over:
                    break
                seat = deal.current_seat
                action = bots[seat].act(deal.observation(seat))
                decisions.append(f"{seed} {seat} {action.id}")
                deal.apply(action)  # checks legality
        text = "\n".join(decisions).encode()
        lines.append(f"{name} deals={DEALS} decisions={len(decisions)} {hashlib.sha256(text).hexdigest()}")
    return lines


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="compare with the golden file (the default)")
    mode.add_argument("--write", action="store_true", help=f"rewrite {GOLDEN.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    lines = digest_lines()
    if not args.write:
        expected = GOLDEN.read_text(encoding="utf-8").splitlines() if GOLDEN.is_file() else []
        if expected != lines:
            print("\n".join(f"now    {line}" for line in lines if line not in expected))
            print("\n".join(f"golden {line}" for line in expected if line not in lines))
            print(f"{GOLDEN.relative_to(ROOT)} differs (--write rewrites it, only if the change is intended)")
            return 1
        print(f"{GOLDEN.relative_to(ROOT)} matches")
        return 0
    GOLDEN.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN.relative_to(ROOT)} ({len(lines)} cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
