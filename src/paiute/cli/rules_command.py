"""``paiute rules``: the rule set and every option with its value (R1-R8)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from paiute.cli.common import add_rule_arguments, option_value_text, rules_from_arguments
from paiute.errors import N_
from paiute.i18n import Translator, translator
from paiute.rules import OPTIONS, RuleSet

_EPILOG = N_(
    "examples:\n  paiute rules\n  paiute rules --preset gamerules\n"
    "  paiute rules --option royal_high=on --option payout=scale --json"
)


def register(commands: Any, tr: Translator | None = None) -> None:
    tr = tr or translator()
    _ = tr.gettext
    parser = commands.add_parser(
        "rules",
        help=_(N_("print a rule set: every option and its value")),
        description=_(
            N_(
                "Print the rule set of a preset (with any options changed): each option, "
                "the rule of RULES.md it belongs to, its value and what it does."
            )
        ),
        epilog=_(_EPILOG),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_rule_arguments(parser, tr)
    parser.add_argument("--json", action="store_true", help=_(N_("print the options as JSON")))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    tr: Translator = getattr(args, "translator", None) or translator()
    rules = rules_from_arguments(args)
    if args.json:
        print(json.dumps({"preset": rules.preset, "options": rules.options(), "record": rules.to_dict()}))
        return 0
    base = RuleSet.from_preset(args.preset)
    print(tr.gettext(N_("preset: {preset}"), preset=rules.preset))
    width = max(len(option.name) for option in OPTIONS)
    # A table: option names and rule IDs are what --option and RULES.md use, in any language.
    for name, rule, value, help_text in rules.describe():
        shown = _show(value, tr)
        mark = "*" if value != getattr(base, name) else " "
        print(f"{mark} {name:<{width}}  {rule:<5}  {shown:<8}  {tr.gettext(help_text)}")
    if any(value != getattr(base, name) for name, _, value, _ in rules.describe()):
        print(tr.gettext(N_("* changed from the preset")))
    return 0


def _show(value: object, tr: Translator) -> str:
    return option_value_text(value, tr)
