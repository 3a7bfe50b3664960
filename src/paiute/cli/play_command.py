"""``paiute play``: play Paiute in the terminal against bots (and other people, hot seat)."""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from paiute.cli.common import (
    add_rule_arguments,
    args_translator,
    check_output_dir,
    non_negative_seconds,
    rule_options,
)
from paiute.errors import N_, IllegalActionError, InputError, PaiuteError, RecordError
from paiute.i18n import Translator, translator
from paiute.players import DEFAULT_LEVEL, make_player, parse_spec
from paiute.record import MAX_NAME
from paiute.rules import RuleSet
from paiute.tui.cells import wrap
from paiute.tui.session import (
    DEFAULT_CHIPS,
    DEFAULT_HINT,
    PlayConfig,
    SavedMatch,
    SeatSpec,
    Session,
    data_dir,
    find_match,
    saved_matches,
)

__all__ = ["build_config", "register", "run"]

_EPILOG = N_("""\
The full-screen game needs a terminal (at least 80x24); --plain plays line by line over any
stream: it prints the table and reads commands (s, d, x CARD or a number, c, c CARD, c6, h,
?, q). Every match is saved as a paiute-record/1 file in the user's data directory (or
$PAIUTE_DATA_DIR, or --data-dir) once you have played a turn, then after every turn and deal.
--list shows the saved matches with their IDs; --resume ID continues one (or --resume FILE);
--resume alone continues the unfinished match when there is only one. `paiute replay FILE
--watch` steps through a saved match.

""")
_EPILOG_SEATS = N_("""\
Seats: --players N, else 3 (or the people and the --bots listed, when they are more); the
--bots specs are repeated to fill the seats left after the people, so --bots expert plays
you against two expert bots and --players 2 --bots expert heads-up.

""")
_EPILOG_EXAMPLES = N_("""\
examples:
  paiute play                                   you against two medium bots
  paiute play --bots expert,hard --name Ana
  paiute play --plain --seed 1 --bots easy      line by line, the same deals every time
  paiute play --preset gamerules --option royal_high=on --stake 5
  paiute play --hotseat 2 --name Ana --name Bo --bots hard
  paiute play --bots pimc:ms=100                a bot by its player spec
  paiute play --list                            the saved matches and their IDs
  paiute play --resume 20261201-210000-a1b2c3   continue one of them
""")


_BOT_NAMES = {"mc": "MC", "ismcts": "ISMCTS"}
#: Pause after each bot action in the full-screen game, seconds (--delay).
DEFAULT_DELAY = 0.5
#: Seats at the table without --players (more when the people and the bots listed need them).
DEFAULT_SEATS = 3


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
        epilog=_(_EPILOG) + _(_EPILOG_SEATS) + _(_EPILOG_EXAMPLES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--players",
        type=int,
        metavar="N",
        help=_(N_("seats at the table (default 3, or the people and the --bots listed when they are more)")),
    )
    parser.add_argument(
        "--bots",
        metavar=_(N_("SPEC,...")),
        help=_(
            N_(
                "the bots, a comma list repeated to fill the seats: levels easy, medium, hard, "
                "expert (default medium) or player specs such as greedy or pimc:ms=100"
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
        metavar=_(N_("CHIPS")),
        help=_(N_("chips each player starts with (default {chips})"), chips=DEFAULT_CHIPS),
    )
    parser.add_argument(
        "--seed",
        type=int,
        metavar=_(N_("SEED")),
        help=_(N_("reproducible deals (default: a secure shuffle, R10.1)")),
    )
    parser.add_argument(
        "--name",
        action="append",
        default=[],
        metavar=_(N_("NAME")),
        help=_(N_("your name (repeat it for each --hotseat player)")),
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
        type=non_negative_seconds(tr),
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
        metavar=_(N_("ID|FILE")),
        help=_(
            N_(
                "continue a saved match: its ID (see --list) or its FILE; alone, the only unfinished "
                "one (its seats, rules and seed are the saved ones)"
            )
        ),
    )
    parser.add_argument(
        "--list", action="store_true", help=_(N_("list the saved matches, the latest first, and exit"))
    )
    parser.add_argument("--json", action="store_true", help=_(N_("with --list: one JSON object")))
    parser.add_argument(
        "--data-dir",
        type=Path,
        metavar=_(N_("DIR")),
        help=_(
            N_("the data directory; matches are saved in DIR/matches (default: the user's data directory)")
        ),
    )
    parser.add_argument("--no-save", action="store_true", help=_(N_("do not save the match")))
    parser.add_argument(
        "--no-lesson",
        action="store_true",
        help=_(N_("do not offer the lesson on the first run (or set PAIUTE_NO_LESSON=1)")),
    )
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
    for name in args.name:
        if not name.isprintable() or not 0 < len(name.strip()) <= MAX_NAME:
            raise PaiuteError(
                N_("--name {name!r}: a name is 1 to {limit} printable characters"), name=name, limit=MAX_NAME
            )
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
        # Three seats unless more are named: one bot spec fills every bot seat (never a
        # heads-up game by surprise; --players 2 asks for one).
        bot_seats = max(DEFAULT_SEATS, humans + len(specs)) - humans
    if bot_seats and not specs:
        specs = [DEFAULT_LEVEL]  # the level interfaces offer first (medium)
    if len(specs) > bot_seats:
        raise PaiuteError(
            N_("--bots names {bots} bots but only {seats} seats are left for bots"),
            bots=len(specs),
            seats=bot_seats,
        )
    bots = [specs[index % len(specs)] for index in range(bot_seats)] if bot_seats else []
    if args.hint < 1:
        raise PaiuteError(N_("--hint {n}: a hint needs at least 1 playout"), n=args.hint)
    bot_names: dict[str, str] = {}
    for spec in dict.fromkeys(bots):
        # Refuse an unknown bot or option now, with the registry's message.
        player = make_player(spec)
        bot_names[spec] = _bot_name(spec, player)
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
    names = people + [bot_names[spec] for spec in bots]
    names = _unique(names)
    seats = tuple(SeatSpec(name) for name in names[:humans]) + tuple(
        SeatSpec(name, spec) for name, spec in zip(names[humans:], bots, strict=True)
    )
    rules.check_players(len(seats))
    if args.chips < 1:
        raise PaiuteError(N_("--chips {n}: a player starts with at least one chip"), n=args.chips)
    return PlayConfig(rules, seats, args.seed, args.chips, args.hint)


def _bot_name(spec: str, player: object) -> str:
    """A bot's name at the table: its player's (``Greedy``, ``ISMCTS``); an agent made by a
    dotted path (``mylab.agent.make``) goes by the name it gives itself."""
    name = parse_spec(spec)[0]
    if "." not in name:
        return _BOT_NAMES.get(name, name.capitalize())
    own = str(getattr(player, "name", "")).strip()
    if not own or not own.isprintable():
        own = name.rpartition(".")[2]
    return (own[:1].upper() + own[1:])[:MAX_NAME]


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


def _prepare_matches_dir(args: argparse.Namespace) -> Path:
    """The matches folder, made now and checked writable before anything is played. The
    default data directory is made with its parents (the platform's place for it); --data-dir
    DIR only when DIR's parent exists (never a silent chain of new folders)."""
    if args.data_dir is not None:
        check_output_dir(args.data_dir)
        return check_output_dir(args.data_dir / "matches")
    return check_output_dir(_matches_dir(args), parents=True)


def _when(stamp: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp))


def _list(args: argparse.Namespace) -> int:
    tr = args_translator(args)
    directory = _matches_dir(args)
    matches = saved_matches(directory)
    if args.json:  # machine-readable: never translated
        print(json.dumps({"directory": str(directory), "matches": [match.to_json() for match in matches]}))
        return 0
    if not matches:
        print(tr.gettext(N_("no saved matches in {path}"), path=str(directory)))
        return 0
    for match in matches:
        template = (
            N_("{id}  {when}  {players}  deals {deals}, finished")
            if match.finished
            else N_("{id}  {when}  {players}  deals {deals}, unfinished")
        )
        print(
            tr.gettext(
                template,
                id=match.id,
                when=_when(match.updated),
                players=", ".join(match.players),
                deals=match.deals,
            )
        )
    print(tr.gettext(N_("continue one with: paiute play --resume ID")))
    return 0


def _unfinished(args: argparse.Namespace) -> list[SavedMatch]:
    return [match for match in saved_matches(_matches_dir(args)) if not match.finished]


def _resume_target(args: argparse.Namespace) -> Path:
    """The record that --resume names: a FILE, an ID, or alone the only unfinished match."""
    tr = args_translator(args)
    if args.resume:
        path = Path(args.resume)
        if path.suffix == ".json" or path.exists() or "/" in args.resume:
            return path
        return find_match(_matches_dir(args), args.resume)
    unfinished = _unfinished(args)
    if not unfinished:
        raise InputError(N_("no unfinished match to resume in {path}"), path=str(_matches_dir(args)))
    if len(unfinished) > 1:
        raise InputError(
            N_(
                "{n} unfinished matches in {path}: choose one with paiute play --resume ID (paiute play --list)"
            ),
            n=len(unfinished),
            path=str(_matches_dir(args)),
        )
    chosen = unfinished[0]
    _note(tr.gettext(N_("resuming match {id}, saved {when}"), id=chosen.id, when=_when(chosen.updated)))
    return chosen.path


def _mention_unfinished(args: argparse.Namespace) -> None:
    """Say, before a new match starts, that unfinished ones are kept and how to go back."""
    unfinished = _unfinished(args)
    if unfinished:
        tr = args_translator(args)
        _note(
            tr.ngettext(
                "note: {n} unfinished match is saved ({id}, {when}): paiute play --resume {id}",
                "note: {n} unfinished matches are saved, the latest {id} ({when}): paiute play --resume "
                "{id}; paiute play --list shows them all",
                len(unfinished),
                id=unfinished[0].id,
                when=_when(unfinished[0].updated),
            )
        )


def _terminal_width(stream: Any) -> int | None:
    """The columns to break lines at on ``stream`` if it is a terminal (one less than its
    width: a line that fills the last column makes some terminals add a blank one); ``None``
    for a pipe or a file, which get every line whole."""
    if not stream.isatty():
        return None
    width = shutil.get_terminal_size().columns - 1
    return width if width >= 20 else None


def _note(text: str) -> None:
    """A note on standard error, broken between words where that is a terminal."""
    width = _terminal_width(sys.stderr)
    print(text if width is None else wrap(text, width, break_long_words=False), file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    if args.list:
        return _list(args)
    if args.json:
        raise InputError(N_("--json goes with --list"))
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
    if args.resume is not None:
        path = _resume_target(args)
        try:
            session = Session.resume(path, config)
        except (RecordError, IllegalActionError) as error:
            tr = args_translator(args)
            print(
                tr.gettext(
                    N_("paiute play: invalid record {path!r}: {message}"),
                    path=str(path),
                    message=tr.explain(error),
                ),
                file=sys.stderr,
            )
            return 1
        if args.no_save:
            session.path = None
    else:
        directory = None if args.no_save else _prepare_matches_dir(args)
        _mention_unfinished(args)
        if _first_run(args) and not _offer_lesson(args):
            return 0
        session = Session.new(config, directory)
    try:
        return _play(session, args)
    finally:
        session.close()


def _data_base(args: argparse.Namespace) -> Path:
    """The data directory: --data-dir, else the user's (matches are saved in its ``matches``)."""
    return args.data_dir if args.data_dir is not None else data_dir()


def _first_run(args: argparse.Namespace) -> bool:
    """Whether to offer the lesson: a person at a terminal who has never been offered it and
    has no saved match, unless --no-lesson or PAIUTE_NO_LESSON says not to (scripts)."""
    from paiute.tui.lesson import lesson_offered, lesson_turned_off

    if args.no_lesson or lesson_turned_off() or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    return not lesson_offered(_data_base(args)) and not saved_matches(_matches_dir(args))


def _offer_lesson(args: argparse.Namespace) -> bool:
    """Offer the lesson once (remembered in the data directory) and give it if it is taken;
    whether the game is to start (not when the person quits at the question)."""
    from paiute.tui.launch import run_lesson
    from paiute.tui.lesson import OFFER, remember_lesson

    tr = args_translator(args)
    base = _data_base(args)
    parents = args.data_dir is None  # --data-dir DIR: made only where its parent exists
    remember_lesson(base, parents=parents)
    if args.plain:
        width = _terminal_width(sys.stdout)
        offer = tr.gettext(OFFER)
        sys.stdout.write((offer if width is None else wrap(offer, width, break_long_words=False)) + " ")
        sys.stdout.flush()
        taken = sys.stdin.readline().strip().lower() in ("l", "lesson")
        ended = run_lesson(tr, plain=True, then_play=True) if taken else ""
    else:
        ended = run_lesson(tr, plain=False, offer=True)
    if ended == "done":
        remember_lesson(base, finished=True, parents=parents)
    return ended != "quit"


def _play(session: Session, args: argparse.Namespace) -> int:
    if args.plain:
        from paiute.tui.plain import PlainUI

        delay = 0.0 if args.delay is None else args.delay
        # On a terminal long lines are wrapped between words; a pipe gets them whole.
        ui = PlainUI(
            session,
            sys.stdin,
            sys.stdout,
            delay=delay,
            echo=not sys.stdin.isatty(),
            tr=args_translator(args),
            width=_terminal_width(sys.stdout),
        )
        return ui.run()
    from paiute.tui.app import PlayApp

    delay = DEFAULT_DELAY if args.delay is None else args.delay
    app = PlayApp(session, delay=delay, tr=args_translator(args))
    status = app.run()
    width = _terminal_width(sys.stdout)
    for line in app.farewell:
        print(line if width is None else wrap(line, width, break_long_words=False))
    return 0 if status is None else status
