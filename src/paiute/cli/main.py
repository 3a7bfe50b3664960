"""Entry point of the ``paiute`` command: builds the parser and runs a command.

Every command has ``--help``; errors are one clear line on standard error (never a
traceback), with exit status 2 for bad usage and 1 for input that is not valid.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from paiute import __version__
from paiute.cli import (
    eval_command,
    hint_command,
    learn_command,
    odds_command,
    play_command,
    replay_command,
    review_command,
    rules_command,
    serve_command,
    simulate_command,
    tournament_command,
    train_command,
    verify_command,
)
from paiute.cli.common import argparse_language
from paiute.errors import N_, PaiuteError
from paiute.i18n import LANGUAGES, Translator, choose_language, match_language, translator

_DESCRIPTION = N_("""\
Paiute, the Hawaiian draw-and-discard card game: evaluate holdings, replay and check game
records, print the rules, pit bots against each other and measure the game.

examples:
  paiute eval "3h 3s Ad Ac Ks Kh" --wild 3     best call of a six-card holding, threes wild
  paiute eval --jokers --json < hands.txt       one JSON result per input line
  paiute replay match.json                      check a paiute-record/1 file, deal by deal
  paiute review match.json                      what every decision cost, mistakes marked
  paiute rules --preset gamerules               every option and its value
  paiute tournament greedy random --deals 500   duplicate tournament between bots
  paiute simulate --deals 2000 --bots greedy    the facts of the game, --plot DIR for charts
  paiute odds --wild all                        chances of holding each combination
  paiute play                                   play against bots in the terminal (--plain)
  paiute hint match.json --deal 0 --action 6    the best move at a position, and why
  paiute verify match.json                      check a server game's fair-deal proofs
  paiute serve                                  play in the browser, with people and bots
""")


def build_parser(tr: Translator | None = None) -> argparse.ArgumentParser:
    """The ``paiute`` parser, its help in ``tr``'s language (English by default)."""
    tr = tr or translator()
    _ = tr.gettext
    with argparse_language(tr):
        parser = argparse.ArgumentParser(
            prog="paiute",
            description=_(_DESCRIPTION),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        parser.add_argument("--version", action="version", version=f"paiute {__version__}")
        parser.add_argument(
            "--lang",
            choices=LANGUAGES,
            help=_(N_("language of the messages (default: PAIUTE_LANG, else the system locale, else en)")),
        )
        commands = parser.add_subparsers(dest="command", metavar=_(N_("COMMAND")))
        # Every command speaks the languages of paiute.i18n: each takes the translator.
        eval_command.register(commands, tr)
        replay_command.register(commands, tr)
        review_command.register(commands, tr)
        rules_command.register(commands, tr)
        for module in (
            tournament_command,
            simulate_command,
            odds_command,
            learn_command,
            play_command,
            hint_command,
        ):
            module.register(commands, tr)
        verify_command.register(commands, tr)
        serve_command.register(commands, tr)
        train_command.register(commands, tr)
    parser.set_defaults(translator=tr)
    return parser


def _take_language(argv: Sequence[str]) -> tuple[str | None, list[str]]:
    """``--lang X`` or ``--lang=X`` found anywhere before ``--`` (the last one wins), and the
    other words: ``--lang`` is global, so it may follow the command too."""
    value: str | None = None
    rest: list[str] = []
    words = iter(argv)
    for word in words:
        if word == "--":
            rest.append(word)
            rest.extend(words)
            break
        if word == "--lang":
            value = next(words, "")
        elif word.startswith("--lang="):
            value = word.partition("=")[2]
        else:
            rest.append(word)
    return value, rest


def main(argv: Sequence[str] | None = None) -> int:
    lang_text, words = _take_language(list(sys.argv[1:] if argv is None else argv))
    lang = match_language(lang_text) if lang_text is not None else None
    if lang_text is not None:
        # Checked by argparse (choices) like any other option: "ro_RO" is taken as "ro".
        words.insert(0, f"--lang={lang or lang_text}")
    tr = translator(lang or choose_language())
    parser = build_parser(tr)
    with argparse_language(tr):
        args = parser.parse_args(words)
        if args.command is None:
            parser.print_help()
            return 2
    try:
        status: int = args.run(args)
    except PaiuteError as error:
        message = tr.gettext(
            N_("paiute {command}: error: {message}"), command=args.command, message=tr.explain(error)
        )
        print(message, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``paiute eval ... | head``): not an error of ours.
        sys.stderr.close()
        return 0
    return status


if __name__ == "__main__":
    sys.exit(main())
