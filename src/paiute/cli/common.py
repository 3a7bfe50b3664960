"""Arguments shared by several commands: the rule set (--preset, --option)."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator

from paiute.errors import N_
from paiute.i18n import Translator, translator
from paiute.rules import PRESETS, RuleSet

__all__ = [
    "ARGPARSE_MESSAGES",
    "add_rule_arguments",
    "argparse_language",
    "rule_options",
    "rules_from_arguments",
]


def add_rule_arguments(parser: argparse.ArgumentParser, tr: Translator | None = None) -> None:
    """``--preset NAME`` and repeatable ``--option NAME=VALUE`` (every option of RULES.md)."""
    _ = (tr or translator()).gettext
    parser.add_argument(
        "--preset", default="pagat", choices=sorted(PRESETS), help=_(N_("preset (default pagat)"))
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar=_(N_("NAME=VALUE")),
        help=_(N_("change a rule option (repeatable), e.g. royal_high=on, stake=5, payout=scale")),
    )


def rule_options(args: argparse.Namespace) -> dict[str, object]:
    """The options given with ``--option``, parsed and checked."""
    return dict(RuleSet.parse_option(text) for text in args.option)


def rules_from_arguments(args: argparse.Namespace) -> RuleSet:
    """The rule set that ``--preset`` and ``--option`` describe (refused with a clear error)."""
    return RuleSet.from_preset(args.preset, **rule_options(args))


# -- languages (paiute.i18n) -------------------------------------------------------------------

#: argparse's own words, put in paiute's catalogues (argparse looks them up with gettext).
ARGPARSE_MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
)


@contextlib.contextmanager
def argparse_language(tr: Translator) -> Iterator[None]:
    """Let argparse's own words ("usage:", "options", its errors) come from ``tr`` meanwhile.

    argparse calls the module-level ``gettext``/``ngettext`` it imported; they are swapped for
    the translator's and put back afterwards, so nothing else in the process is affected.
    """
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._ = tr.gettext  # type: ignore[attr-defined]
    argparse.ngettext = lambda singular, plural, n: tr.ngettext(singular, plural, n, n=n)  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]


def args_translator(args: argparse.Namespace) -> Translator:
    """The translator ``paiute`` chose for this run (``--lang``, ``PAIUTE_LANG``, the locale)."""
    found = getattr(args, "translator", None)
    return found if isinstance(found, Translator) else translator()


def localized_digits(text: str, tr: Translator) -> str:
    """A number already formatted (``+0.125``, ``12.5%``, ``1,234``) in the reader's digits and
    decimal sign."""
    if tr.lang == "en":
        return text
    sign = tr.number(0.5)[1]
    table = {str(digit): tr.number(digit) for digit in range(10)}
    return "".join(table.get(char, sign if char == "." else char) for char in text)
