"""``paiute hint``: the best move at one position of a record, and why (paiute.analysis.hint)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from paiute.analysis.hint import DEFAULT_DRAW_PLAYOUTS, DEFAULT_PLAYOUTS, PositionError, hint, position_before
from paiute.cli.common import add_record_arguments, read_record
from paiute.errors import N_, RecordError
from paiute.i18n import Translator, translator
from paiute.players.base import MAX_ITERATIONS
from paiute.record import ReplayError
from paiute.tui.describe import cards_text
from paiute.tui.hint_view import hint_lines

_EPILOG = N_("""\
The position is the one before action K of deal D (both counted from 0, as record errors count
them), seen by the seat to move only (R9): its hand and the public table, never the other
hands or the stock. Every legal move is played out on the same random deals of the cards that
seat has not seen. The hint is the expert level's move: the playouts explain it and never
overrule it (they play greedy after the move). A discard before any call also gets the chance
that the next player could call at once with it (R4.2). The same seed gives the same hint.
Exit status 0, 1 for an invalid record, 2 for a position that is not in it.

--json prints one object: {"deal", "action", "format": "paiute-hint/1", "seat", "phase",
  "recommended", "expert", "beyond_noise", "feed_seat", "actions": [{"action", "mean", "low",
  "high", "samples", "versus_expert": {"mean", "low", "high"}, "feed"}], "plan": {"keeps",
  "category", "uses", "cards_away", "outs", "out_cards", "by_category", "unseen",
  "draws_left", "draw_samples", "chance", "last_turn", "pile_completes"} or null, "calls":
  [{"action", "value", "chance", "low", "high", "wins", "samples", "still_to_play",
  "certain"}], "playouts", "draw_playouts", "seed"}

examples:
  paiute hint match.json --deal 0 --action 6
  paiute hint match.json --deal 2 --action 0 --playouts 128 --json
""")


def register(commands: Any, tr: Translator | None = None) -> None:
    _ = (tr or translator()).gettext
    parser = commands.add_parser(
        "hint",
        help=_(N_("the best move at a position of a game record, and why")),
        description=_(
            N_(
                "Show the best move for the seat to move before an action of a game record, with "
                "the expected chips of every legal move, the combination the hand is building, its "
                "outs and, for a call, its chance to win."
            )
        ),
        epilog=_(_EPILOG),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_record_arguments(parser, tr)
    parser.add_argument("--deal", type=int, required=True, metavar="D", help=_(N_("the deal, from 0")))
    parser.add_argument(
        "--action", type=int, required=True, metavar="K", help=_(N_("the action of the deal, from 0"))
    )
    parser.add_argument(
        "--playouts",
        type=int,
        default=DEFAULT_PLAYOUTS,
        metavar="N",
        help=_(N_("random deals each move is played out on (default {n})"), n=DEFAULT_PLAYOUTS),
    )
    parser.add_argument(
        "--draw-playouts",
        type=int,
        default=DEFAULT_DRAW_PLAYOUTS,
        metavar="N",
        help=_(N_("playouts counting the draws left (default {n})"), n=DEFAULT_DRAW_PLAYOUTS),
    )
    parser.add_argument(
        "--seed", type=int, default=0, metavar=_(N_("SEED")), help=_(N_("seed of the playouts (default 0)"))
    )
    parser.add_argument("--json", action="store_true", help=_(N_("print the result as one JSON object")))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    tr: Translator = getattr(args, "translator", None) or translator()
    command = "hint"
    if not (1 <= args.playouts <= MAX_ITERATIONS and 0 <= args.draw_playouts <= MAX_ITERATIONS):
        message = tr.gettext(
            N_("--playouts must be from 1 to {most} and --draw-playouts from 0 to {most}"),
            most=MAX_ITERATIONS,
        )
        print(
            tr.gettext(N_("paiute {command}: error: {message}"), command=command, message=message),
            file=sys.stderr,
        )
        return 2
    try:
        record = read_record(args.file, args.match)
        obs = position_before(record, args.deal, args.action)
    except PositionError as error:
        print(
            tr.gettext(N_("paiute {command}: error: {message}"), command=command, message=tr.explain(error)),
            file=sys.stderr,
        )
        return 2
    except (ReplayError, RecordError) as error:
        print(tr.gettext(N_("invalid record: {message}"), message=tr.explain(error)), file=sys.stderr)
        return 1
    found = hint(obs, playouts=args.playouts, draw_playouts=args.draw_playouts, seed=args.seed)
    if args.json:  # machine-readable: never translated
        print(json.dumps({"deal": args.deal, "action": args.action, **found.to_json()}))
        return 0
    names = record.players
    seat = found.seat
    print(
        tr.gettext(
            N_("Deal {deal}, before action {action}: {name} (seat {seat}) to move, holding {cards}."),
            deal=args.deal,
            action=args.action,
            name=names[seat],
            seat=seat,
            cards=cards_text(obs.hand, obs.wild_cards, tr=tr),
        )
    )
    for line in hint_lines(found, obs, names, tr=tr):
        print(line)
    return 0
