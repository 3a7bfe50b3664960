"""Arguments shared by several commands: the rule set (--preset, --option)."""

from __future__ import annotations

import argparse

from paiute.rules import PRESETS, RuleSet

__all__ = ["add_rule_arguments", "rule_options", "rules_from_arguments"]


def add_rule_arguments(parser: argparse.ArgumentParser) -> None:
    """``--preset NAME`` and repeatable ``--option NAME=VALUE`` (every option of RULES.md)."""
    parser.add_argument("--preset", default="pagat", choices=sorted(PRESETS), help="preset (default pagat)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change a rule option (repeatable), e.g. royal_high=on, stake=5, payout=scale",
    )


def rule_options(args: argparse.Namespace) -> dict[str, object]:
    """The options given with ``--option``, parsed and checked."""
    return dict(RuleSet.parse_option(text) for text in args.option)


def rules_from_arguments(args: argparse.Namespace) -> RuleSet:
    """The rule set that ``--preset`` and ``--option`` describe (refused with a clear error)."""
    return RuleSet.from_preset(args.preset, **rule_options(args))
