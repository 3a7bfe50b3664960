"""``paiute play``: play Paiute in the terminal against bots (and other people, hot seat)."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from paiute.cli.common import add_rule_arguments, rule_options
from paiute.errors import PaiuteError
from paiute.players import make_player, parse_spec
from paiute.rules import RuleSet
from paiute.tui.session import (
    DEFAULT_CHIPS,
    DEFAULT_HINT,
    PlayConfig,
    SeatSpec,
    Session,
    data_dir,
    latest_unfinished,
)

__all__ = ["build_config", "register", "run"]

_EPILOG = """\
The full-screen game needs a terminal (at least 80x24); --plain plays line by line over any
stream: it prints the table and reads commands (s, d, x CARD or a number, c, c CARD, c6, h,
?, q). Every match is saved as a paiute-record/1 file in the user's data directory (or
$PAIUTE_DATA_DIR, or --data-dir) after every deal; --resume continues the latest unfinished
one (or FILE), and `paiute replay FILE --watch` steps through it.

examples:
  paiute play                                   you against two greedy bots
  paiute play --bots ismcts:ms=200,greedy --name Ana
  paiute play --plain --seed 1 --bots random    line by line, the same deals every time
  paiute play --preset gamerules --option royal_high=on --stake 5
  paiute play --hotseat 2 --name Ana --name Bo --bots greedy
  paiute play --resume
"""

_BOT_NAMES = {"mc": "MC", "ismcts": "ISMCTS"}
#: Pause after each bot action in the full-screen game, seconds (--delay).
DEFAULT_DELAY = 0.5


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "play",
        help="play Paiute in the terminal against bots",
        description="Play a match of Paiute in the terminal against bots, or with other people "
        "on one screen (--hotseat). Full-screen with keyboard and mouse, or --plain.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--players", type=int, metavar="N", help="seats at the table (default: people + bots)"
    )
    parser.add_argument(
        "--bots",
        metavar="SPEC,...",
        help="the bots, a comma list of player specs repeated to fill the seats "
        "(random, greedy, mc, ismcts, e.g. ismcts:ms=200; default greedy,greedy)",
    )
    add_rule_arguments(parser)
    parser.add_argument("--stake", type=int, metavar="CHIPS", help="chips each player stakes per deal (R8.2)")
    parser.add_argument(
        "--chips",
        type=int,
        default=DEFAULT_CHIPS,
        help=f"chips each player starts with (default {DEFAULT_CHIPS})",
    )
    parser.add_argument("--seed", type=int, help="reproducible deals (default: a secure shuffle, R10.1)")
    parser.add_argument(
        "--name", action="append", default=[], help="your name (repeat it for each --hotseat player)"
    )
    parser.add_argument(
        "--hotseat",
        type=int,
        nargs="?",
        const=2,
        default=1,
        metavar="N",
        help="N people take turns at one screen, hands hidden between turns (default N 2)",
    )
    parser.add_argument(
        "--delay",
        type=float,
        metavar="SECONDS",
        help=f"pause after each bot action (default {DEFAULT_DELAY}, 0 with --plain)",
    )
    parser.add_argument(
        "--hint",
        default=DEFAULT_HINT,
        metavar="SPEC",
        help=f"the bot that gives hints (default {DEFAULT_HINT})",
    )
    parser.add_argument("--plain", action="store_true", help="line-based play over standard input and output")
    parser.add_argument(
        "--resume",
        nargs="?",
        const="",
        metavar="FILE",
        help="continue the latest unfinished match, or the one saved in FILE (its seats, rules and "
        "seed are the saved ones)",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        metavar="DIR",
        help="the data directory; matches are saved in DIR/matches (default: the user's data directory)",
    )
    parser.add_argument("--no-save", action="store_true", help="do not save the match")
    parser.set_defaults(run=run)


def build_config(args: argparse.Namespace) -> PlayConfig:
    """The match the arguments describe (checked: rules, seats, bot specs)."""
    options = rule_options(args)
    if args.stake is not None:
        options["stake"] = args.stake
    rules = RuleSet.from_preset(args.preset, **options)
    humans = max(args.hotseat, len(args.name), 1)
    if args.hotseat < 1:
        raise PaiuteError(f"--hotseat {args.hotseat}: at least one person plays")
    specs = [spec.strip() for spec in (args.bots or "").split(",") if spec.strip()]
    if args.players is not None:
        bot_seats = args.players - humans
        if bot_seats < 0:
            raise PaiuteError(f"--players {args.players}: fewer seats than the {humans} people playing")
    else:
        bot_seats = len(specs) if specs else max(0, 3 - humans)
    if bot_seats and not specs:
        specs = ["greedy"]
    if len(specs) > bot_seats:
        raise PaiuteError(f"--bots names {len(specs)} bots but only {bot_seats} seats are left for bots")
    bots = [specs[index % len(specs)] for index in range(bot_seats)] if bot_seats else []
    for spec in dict.fromkeys([*bots, args.hint]):
        # Refuse an unknown bot or option now, with the registry's message.
        player = make_player(spec)
        close = getattr(player, "close", None)
        if callable(close):
            close()
    if humans == 1:
        people = [args.name[0] if args.name else "You"]
    else:
        people = [
            args.name[index] if index < len(args.name) else f"Player {index + 1}" for index in range(humans)
        ]
    names = people + [_BOT_NAMES.get(parse_spec(spec)[0], parse_spec(spec)[0].capitalize()) for spec in bots]
    names = _unique(names)
    seats = tuple(SeatSpec(name) for name in names[:humans]) + tuple(
        SeatSpec(name, spec) for name, spec in zip(names[humans:], bots, strict=True)
    )
    rules.check_players(len(seats))
    if args.chips < 1:
        raise PaiuteError(f"--chips {args.chips}: a player starts with at least one chip")
    return PlayConfig(rules, seats, args.seed, args.chips, args.hint)


def _unique(names: list[str]) -> list[str]:
    counts = Counter(names)
    seen: Counter[str] = Counter()
    result = []
    for name in names:
        seen[name] += 1
        result.append(f"{name} {seen[name]}" if counts[name] > 1 else name)
    return result


def _matches_dir(args: argparse.Namespace) -> Path:
    return (args.data_dir if args.data_dir is not None else data_dir()) / "matches"


def run(args: argparse.Namespace) -> int:
    config = build_config(args)
    if not args.plain and not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(
            "paiute play: standard input and output are not a terminal, so the full-screen game "
            "cannot start.\nUse --plain to play line by line over any stream, e.g.\n"
            "  paiute play --plain --bots greedy",
            file=sys.stderr,
        )
        return 2
    if not args.plain and importlib.util.find_spec("textual") is None:
        raise PaiuteError("the full-screen game needs Textual: pip install 'paiute[tui]', or use --plain")
    directory = None if args.no_save else _matches_dir(args)
    if args.resume is not None:
        if args.resume:
            path = Path(args.resume)
        else:
            found = latest_unfinished(_matches_dir(args))
            if found is None:
                raise PaiuteError(f"no unfinished match to resume in {_matches_dir(args)}")
            path = found
        session = Session.resume(path, config)
        if args.no_save:
            session.path = None
    else:
        session = Session.new(config, directory)
    try:
        return _play(session, args)
    finally:
        session.close()


def _play(session: Session, args: argparse.Namespace) -> int:
    if args.plain:
        from paiute.tui.plain import PlainUI

        delay = 0.0 if args.delay is None else args.delay
        return PlainUI(session, sys.stdin, sys.stdout, delay=delay, echo=not sys.stdin.isatty()).run()
    from paiute.tui.app import PlayApp

    delay = DEFAULT_DELAY if args.delay is None else args.delay
    app = PlayApp(session, delay=delay)
    status = app.run()
    for line in app.farewell:
        print(line)
    return 0 if status is None else status
