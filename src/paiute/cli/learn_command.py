"""``paiute learn``: a guided first deal against two bots, about five minutes.

Full screen where standard input and output are a terminal and Textual is installed, else line
by line (the same lesson: for screen readers, pipes and installs without the ``tui`` extra).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from typing import Any

from paiute.cli.common import args_translator, check_output_dir, non_negative_seconds
from paiute.errors import N_
from paiute.i18n import Translator, translator

__all__ = ["register", "run"]

_EPILOG = N_("""\
The lesson is one prepared deal against two bots, Lani and Kai, and a coach asks you to do
each thing once: read the wild card, draw, take from the discard pile, discard, find your
combination, call, play the last round and see the result. A key that does not fit says what
to press instead. It runs full screen on a terminal with Textual (pip install 'paiute[tui]'),
otherwise, or with --plain, line by line over any stream. Once you have gone through it,
paiute play no longer offers it on its first run.

examples:
  paiute learn                      the lesson, full screen
  paiute learn --plain              line by line (screen readers)
  paiute --lang bn learn            in Bengali
""")


def register(commands: Any, tr: Translator | None = None) -> None:
    tr = tr or translator()
    _ = tr.gettext
    parser = commands.add_parser(
        "learn",
        help=_(N_("a guided first deal: learn to play in five minutes")),
        description=_(
            N_("Learn Paiute by playing one prepared deal against two bots, with a coach at every step.")
        ),
        epilog=_(_EPILOG),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--plain", action="store_true", help=_(N_("line-based lesson over standard input and output"))
    )
    parser.add_argument(
        "--delay",
        type=non_negative_seconds(tr),
        metavar=_(N_("SECONDS")),
        help=_(N_("pause after each bot action (default 0.8, 0 with --plain)")),
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        metavar=_(N_("DIR")),
        help=_(
            N_("the data directory that remembers the lesson is done (default: the user's data directory)")
        ),
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from paiute.tui.launch import full_screen_possible, run_lesson
    from paiute.tui.lesson import remember_lesson
    from paiute.tui.session import data_dir

    tr = args_translator(args)
    if args.data_dir is not None:
        check_output_dir(args.data_dir)  # refused in one line before the lesson, as paiute play does
    plain = args.plain or not full_screen_possible()
    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    if not args.plain and terminal and importlib.util.find_spec("textual") is None:
        # A terminal without Textual: the same lesson, line by line, and how to get the full screen.
        print(
            tr.gettext(
                N_(
                    "paiute learn: the full-screen lesson needs Textual (pip install 'paiute[tui]'); "
                    "here it is line by line."
                )
            ),
            file=sys.stderr,
        )
    ended = run_lesson(tr, plain=plain, delay=args.delay)
    if ended == "done":
        remember_lesson(args.data_dir if args.data_dir is not None else data_dir(), finished=True)
    return 0
