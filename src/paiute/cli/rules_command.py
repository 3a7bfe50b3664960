"""``paiute rules``: the rule set and every option with its value (R1-R8)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from paiute.cli.common import add_rule_arguments, rules_from_arguments
from paiute.rules import OPTIONS, RuleSet


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "rules",
        help="print a rule set: every option and its value",
        description="Print the rule set of a preset (with any options changed): each option, "
        "the rule of RULES.md it belongs to, its value and what it does.",
        epilog="examples:\n  paiute rules\n  paiute rules --preset gamerules\n"
        "  paiute rules --option royal_high=on --option payout=scale --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_rule_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the options as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_arguments(args)
    if args.json:
        print(json.dumps({"preset": rules.preset, "options": rules.options(), "record": rules.to_dict()}))
        return 0
    base = RuleSet.from_preset(args.preset)
    print(f"preset: {rules.preset}")
    width = max(len(option.name) for option in OPTIONS)
    for name, rule, value, help_text in rules.describe():
        shown = _show(value)
        mark = "*" if value != getattr(base, name) else " "
        print(f"{mark} {name:<{width}}  {rule:<5}  {shown:<8}  {help_text}")
    if any(value != getattr(base, name) for name, _, value, _ in rules.describe()):
        print("* changed from the preset")
    return 0


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)
