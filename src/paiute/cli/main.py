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
    odds_command,
    play_command,
    replay_command,
    rules_command,
    serve_command,
    simulate_command,
    tournament_command,
    verify_command,
)
from paiute.errors import PaiuteError

_DESCRIPTION = """\
Paiute, the Hawaiian draw-and-discard card game: evaluate holdings, replay and check game
records, print the rules, pit bots against each other and measure the game.

examples:
  paiute eval "3h 3s Ad Ac Ks Kh" --wild 3     best call of a six-card holding, threes wild
  paiute eval --jokers --json < hands.txt       one JSON result per input line
  paiute replay match.json                      check a paiute-record/1 file, deal by deal
  paiute rules --preset gamerules               every option and its value
  paiute tournament greedy random --deals 500   duplicate tournament between bots
  paiute simulate --deals 2000 --bots greedy    the facts of the game, --plot DIR for charts
  paiute odds --wild all                        chances of holding each combination
  paiute play                                   play against bots in the terminal (--plain)
  paiute verify match.json                      check a server game's fair-deal proofs
  paiute serve                                  play in the browser, with people and bots
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="paiute",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"paiute {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in (
        eval_command,
        replay_command,
        rules_command,
        tournament_command,
        simulate_command,
        odds_command,
        play_command,
        verify_command,
        serve_command,
    ):
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        status: int = args.run(args)
    except PaiuteError as error:
        print(f"paiute {args.command}: error: {error}", file=sys.stderr)
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
