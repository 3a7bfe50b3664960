"""``paiute play``: play Paiute in the terminal against bots (and other people, hot seat)."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from paiute.cli.common import add_rule_arguments, args_translator, rule_options
from paiute.errors import N_, PaiuteError
from paiute.i18n import Translator, translator
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

_EPILOG = N_("""\
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
""")

_BOT_NAMES = {"mc": "MC", "ismcts": "ISMCTS"}
#: Pause after each bot action in the full-screen game, seconds (--delay).
DEFAULT_DELAY = 0.5


def register(commands: Any, tr: Translator | None = None) -> None:
    tr = tr or translator()
    _ = tr.gettext
    parser = commands.add_parser(
        "play",
        help=_(N_("play Paiute in the terminal against bots")),
        description=_(
            N_(
                "Play a match of Paiute in the terminal against bots, or with other people "
                "on one screen (--hotseat). Full-screen with keyboard and mouse, or --plain."
            )
        ),
        epilog=_(_EPILOG),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--players", type=int, metavar="N", help=_(N_("seats at the table (default: people + bots)"))
    )
    parser.add_argument(
        "--bots",
        metavar=_(N_("SPEC,...")),
        help=_(
            N_(
                "the bots, a comma list of player specs repeated to fill the seats "
                "(random, greedy, mc, ismcts, e.g. ismcts:ms=200; default greedy,greedy)"
            )
        ),
    )
    add_rule_arguments(parser, tr)
    parser.add_argument(
        "--stake", type=int, metavar=_(N_("CHIPS")), help=_(N_("chips each player stakes per deal (R8.2)"))
    )
    parser.add_argument(
        "--chips",
        type=int,
        default=DEFAULT_CHIPS,
        help=_(N_("chips each player starts with (default {chips})"), chips=DEFAULT_CHIPS),
    )
    parser.add_argument(
        "--seed", type=int, help=_(N_("reproducible deals (default: a secure shuffle, R10.1)"))
    )
    parser.add_argument(
        "--name", action="append", default=[], help=_(N_("your name (repeat it for each --hotseat player)"))
    )
    parser.add_argument(
        "--hotseat",
        type=int,
        nargs="?",
        const=2,
        default=1,
        metavar="N",
        help=_(N_("N people take turns at one screen, hands hidden between turns (default N 2)")),
    )
    parser.add_argument(
        "--delay",
        type=float,
        metavar=_(N_("SECONDS")),
        help=_(N_("pause after each bot action (default {delay}, 0 with --plain)"), delay=DEFAULT_DELAY),
    )
    parser.add_argument(
        "--hint",
        type=int,
        default=DEFAULT_HINT,
        metavar=_(N_("PLAYOUTS")),
        help=_(
            N_("playouts per move behind a hint: more is surer and slower (default {playouts})"),
            playouts=DEFAULT_HINT,
        ),
    )
    parser.add_argument(
        "--plain", action="store_true", help=_(N_("line-based play over standard input and output"))
    )
    parser.add_argument(
        "--resume",
        nargs="?",
        const="",
        metavar=_(N_("FILE")),
        help=_(
            N_(
                "continue the latest unfinished match, or the one saved in FILE (its seats, rules and "
                "seed are the saved ones)"
            )
        ),
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        metavar=_(N_("DIR")),
        help=_(
            N_("the data directory; matches are saved in DIR/matches (default: the user's data directory)")
        ),
    )
    parser.add_argument("--no-save", action="store_true", help=_(N_("do not save the match")))
    parser.set_defaults(run=run)


def build_config(args: argparse.Namespace) -> PlayConfig:
    """The match the arguments describe (checked: rules, seats, bot specs)."""
    options = rule_options(args)
    if args.stake is not None:
        options["stake"] = args.stake
    rules = RuleSet.from_preset(args.preset, **options)
    humans = max(args.hotseat, len(args.name), 1)
    if args.hotseat < 1:
        raise PaiuteError(N_("--hotseat {n}: at least one person plays"), n=args.hotseat)
    specs = [spec.strip() for spec in (args.bots or "").split(",") if spec.strip()]
    if args.players is not None:
        bot_seats = args.players - humans
        if bot_seats < 0:
            raise PaiuteError(
                N_("--players {n}: fewer seats than the {people} people playing"),
                n=args.players,
                people=humans,
            )
    else:
        bot_seats = len(specs) if specs else max(0, 3 - humans)
    if bot_seats and not specs:
        specs = ["greedy"]
    if len(specs) > bot_seats:
        raise PaiuteError(
            N_("--bots names {bots} bots but only {seats} seats are left for bots"),
            bots=len(specs),
            seats=bot_seats,
        )
    bots = [specs[index % len(specs)] for index in range(bot_seats)] if bot_seats else []
    if args.hint < 1:
        raise PaiuteError(N_("--hint {n}: a hint needs at least 1 playout"), n=args.hint)
    for spec in dict.fromkeys(bots):
        # Refuse an unknown bot or option now, with the registry's message.
        player = make_player(spec)
        close = getattr(player, "close", None)
        if callable(close):
            close()
    if humans == 1:
        # Default names are data saved in the record, which is never translated: the same
        # command gives the same record in every language (--name chooses another).
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
        raise PaiuteError(N_("--chips {n}: a player starts with at least one chip"), n=args.chips)
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
            args_translator(args).gettext(
                N_(
                    "paiute play: standard input and output are not a terminal, so the full-screen game "
                    "cannot start.\nUse --plain to play line by line over any stream, e.g.\n"
                    "  paiute play --plain --bots greedy"
                )
            ),
            file=sys.stderr,
        )
        return 2
    if not args.plain and importlib.util.find_spec("textual") is None:
        raise PaiuteError(N_("the full-screen game needs Textual: pip install 'paiute[tui]', or use --plain"))
    directory = None if args.no_save else _matches_dir(args)
    if args.resume is not None:
        if args.resume:
            path = Path(args.resume)
        else:
            found = latest_unfinished(_matches_dir(args))
            if found is None:
                raise PaiuteError(N_("no unfinished match to resume in {path}"), path=str(_matches_dir(args)))
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
        ui = PlainUI(
            session, sys.stdin, sys.stdout, delay=delay, echo=not sys.stdin.isatty(), tr=args_translator(args)
        )
        return ui.run()
    from paiute.tui.app import PlayApp

    delay = DEFAULT_DELAY if args.delay is None else args.delay
    app = PlayApp(session, delay=delay, tr=args_translator(args))
    status = app.run()
    for line in app.farewell:
        print(line)
    return 0 if status is None else status
