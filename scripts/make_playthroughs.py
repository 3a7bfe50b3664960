"""Write tests/playthroughs/<name>.txt: golden playthroughs of whole deals (OpenSpiel style).

Each playthrough is one full deal at a seeded table, played by a deterministic seeded random
policy (a call whenever one is legal, else a random legal action). The file lists every state
(``str(deal)``), the legal actions, the action chosen and the event it made (``str(event)``),
then the outcome, the calls and the settlement (R8). tests/test_playthroughs.py regenerates
each one in memory and compares it line by line, so any change in the engine's behaviour or
its printed forms shows up as a short diff.

By default the script only compares (``--check`` says the same explicitly): it prints a diff
and exits 1 if any file differs. ``--write`` regenerates the files; do that only when the
engine is meant to behave or print differently::

    .venv/bin/python scripts/make_playthroughs.py           # compare: a diff, exit 1 if any differs
    .venv/bin/python scripts/make_playthroughs.py --write   # regenerate every file
"""

from __future__ import annotations

import argparse
import difflib
import json
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paiute import Action, Match, RuleSet, SeededChance  # noqa: E402

OUTPUT = ROOT / "tests" / "playthroughs"


@dataclass(frozen=True)
class Playthrough:
    """One golden deal: a table (preset, options, players) and a seed for chance and policy."""

    name: str
    preset: str
    players: int
    seed: int
    options: dict[str, object] = field(default_factory=dict)
    note: str = ""

    @property
    def path(self) -> Path:
        return OUTPUT / f"{self.name}.txt"


PLAYTHROUGHS: tuple[Playthrough, ...] = (
    Playthrough("pagat_3p_seed1", "pagat", 3, 1, note="a stock rebuild (R4.6)"),
    Playthrough("pagat_4p_seed11", "pagat", 4, 11),
    Playthrough("pagat_2p_seed9", "pagat", 2, 9),
    Playthrough("gamerules_3p_seed2", "gamerules", 3, 2),
    Playthrough("gamerules_5p_seed5", "gamerules", 5, 5, note="a rebuild of the whole pile (R4.6)"),
    Playthrough("gamerules_2p_seed4", "gamerules", 2, 4),
    Playthrough("jokers_4p_seed11", "pagat", 4, 11, {"jokers": True}, "jokers wild, no upcard (R2.8, R3.2)"),
    Playthrough("scale_3p_seed9", "pagat", 3, 9, {"payout": "scale"}, "scale payout (R8.4)"),
    Playthrough("dead_4p_seed11", "pagat", 4, 11, {"max_rebuilds": 0}, "a dead deal (R4.7, R8.5)"),
    Playthrough(
        "gamerules_7p_seed11", "gamerules", 7, 11, {"max_players": 7}, "seven players, two calls (R2.1, R7.2)"
    ),
)


def choose(rng: random.Random, legal: Sequence[Action]) -> Action:
    """The policy: a random call when one is legal, else a random legal action."""
    calls = [action for action in legal if action.kind.is_call]
    return rng.choice(calls) if calls else rng.choice(list(legal))


def render(playthrough: Playthrough) -> str:
    """The full text of one playthrough."""
    rules = RuleSet.from_preset(playthrough.preset, **playthrough.options)
    names = [f"P{seat}" for seat in range(playthrough.players)]
    match = Match(rules, names, chance=SeededChance(playthrough.seed))
    rng = random.Random(playthrough.seed)
    lines = [
        f"# paiute playthrough {playthrough.name}" + (f": {playthrough.note}" if playthrough.note else ""),
        "# made by scripts/make_playthroughs.py; do not edit (run it to regenerate)",
        f"rules: {json.dumps(rules.to_dict(), sort_keys=True)}",
        f"players: {', '.join(names)}",
        f"seed: {playthrough.seed} (chance and policy)",
        f"balances before: {list(match.balances)}, pot {match.pot}",
    ]
    deal = match.start_deal()
    lines += [
        f"dealer: {deal.dealer}",
        f"deck: {' '.join(str(card) for card in deal.deck)}",
        f"balances after stakes: {list(match.balances)}, pot {match.pot}",
    ]
    step = 0
    while not deal.is_over:
        legal = deal.legal_actions()
        action = choose(rng, legal)
        lines += [
            f"-- step {step}",
            str(deal),
            f"legal: {', '.join(str(a) for a in legal)}",
            f"action: {action}",
        ]
        event = match.apply(action)
        lines.append(f"event: {event}")
        step += 1
    outcome = deal.outcome
    assert outcome is not None
    lines += ["-- end", str(deal), f"actions: {step}", f"rebuilds: {deal.rebuilds}"]
    for number, order in enumerate(deal.rebuild_orders):
        lines.append(f"rebuild {number}: {' '.join(str(card) for card in order)}")
    if outcome.dead:
        lines.append("outcome: dead deal (R4.7), nobody wins (R8.5)")
    else:
        for call in outcome.calls:
            turn = ", first turn" if call.first_turn else ""
            lines.append(
                f"call: seat {call.seat} shows {' '.join(map(str, call.shown))}"
                f" = {call.value} {json.dumps(call.value.to_json())}{turn}"
            )
        lines.append(f"winners: {', '.join(map(str, outcome.winners))}")
    lines += [
        f"balances after: {list(match.balances)}, pot {match.pot}",
        f"chips: {sum(match.balances) + match.pot} (R8.6)",
    ]
    return "\n".join(lines) + "\n"


def diff(playthrough: Playthrough, text: str, context: int = 3) -> list[str]:
    """A unified diff from the checked-in file to ``text`` (empty when they agree)."""
    path = playthrough.path
    old = path.read_text(encoding="utf-8").splitlines(keepends=True) if path.exists() else []
    relative = path.relative_to(ROOT)
    return list(
        difflib.unified_diff(old, text.splitlines(keepends=True), f"a/{relative}", f"b/{relative}", n=context)
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="compare, exit 1 on a difference (the default)")
    mode.add_argument("--write", action="store_true", help=f"regenerate {OUTPUT.relative_to(ROOT)}/*.txt")
    args = parser.parse_args(argv)
    args.check = not args.write
    failed = False
    for playthrough in PLAYTHROUGHS:
        text = render(playthrough)
        if args.check:
            lines = diff(playthrough, text)
            if lines:
                failed = True
                sys.stdout.writelines(lines)
        else:
            playthrough.path.parent.mkdir(parents=True, exist_ok=True)
            playthrough.path.write_text(text, encoding="utf-8")
            print(f"wrote {playthrough.path.relative_to(ROOT)} ({text.count(chr(10))} lines)")
    if args.check:
        known = {playthrough.path for playthrough in PLAYTHROUGHS}
        stale = sorted(path for path in OUTPUT.glob("*.txt") if path not in known)
        for path in stale:
            failed = True
            print(f"{path.relative_to(ROOT)}: no playthrough makes this file (remove it)")
        verdict = "playthroughs differ (--write regenerates them)"
        print(verdict if failed else f"{len(PLAYTHROUGHS)} playthroughs agree", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
