"""``paiute hint``: the best move at one position of a record, and why (paiute.analysis.hint)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from paiute.analysis.hint import (
    DEFAULT_DRAW_PLAYOUTS,
    DEFAULT_PLAYOUTS,
    PositionError,
    hint,
    position_before,
    position_seed,
)
from paiute.cli.common import add_record_arguments, deal_number_problem, read_record
from paiute.errors import N_, RecordError
from paiute.i18n import Translator, translator
from paiute.players.base import MAX_ITERATIONS
from paiute.record import Record, ReplayError
from paiute.tui.describe import cards_text, person_names
from paiute.tui.hint_view import hint_lines

_EPILOG = N_("""\
The position is the one before move K of deal D, both counted from 1 as paiute play, replay
and review count them: a review's deal 2, move 7 is --deal 2 --move 7 (a deal's moves are
every seat's, forced ones too). --action K, the option's former name, is still accepted and
counts from 1 too. The position is seen by the seat to move only (R9): its hand and the
public table, never the other hands or the stock. Every legal move is played out on the same
random deals of the cards that seat has not seen. Its figure is net chips: what the seat
expects to win or lose this deal, after its stake (0 is break-even). The hint is the expert
level's move: the playouts explain it and never overrule it (they play greedy after the
move). A discard before any call also gets the chance that the next player could call at
once with it (R4.2). The playouts are seeded from --seed, the deal and the move, as paiute
review seeds its decisions: with the same --seed and --playouts, the hint's figures for a
move are the review's for that decision. Exit status 0, 1 for an invalid record, 2 for a
position that is not in it.

--json prints one object: {"deal", "action", "format": "paiute-hint/2", "seat", "phase",
  "recommended", "paid", "expert", "beyond_noise", "feed_seat", "actions": [{"action", "net",
  "low", "high", "samples", "versus_expert": {"mean", "low", "high"}, "feed"}], "plan": {"keeps",
  "category", "uses", "cards_away", "outs", "out_cards", "by_category", "unseen",
  "draws_left", "draw_samples", "chance", "last_turn", "pile_completes"} or null, "calls":
  [{"action", "value", "chance", "low", "high", "wins", "samples", "still_to_play",
  "certain"}], "playouts", "draw_playouts", "seed"}
  "deal" and "action" are the record's indexes, from 0, as in paiute review --json and
  paiute replay --json: --deal 2 --move 7 gives "deal": 1, "action": 6. "net" is a move's
  net chips and "low", "high" its 95% interval; "paid" is the seat's stake in the deal (the
  share of the pot a move is worth is net + paid); "seed" is the playouts' own, derived from
  --seed and the position.

examples:
  paiute hint match.json --deal 1 --move 7
  paiute hint match.json --deal 3 --move 1 --playouts 128 --json
""")


def register(commands: Any, tr: Translator | None = None) -> None:
    _ = (tr or translator()).gettext
    parser = commands.add_parser(
        "hint",
        help=_(N_("the best move at a position of a game record, and why")),
        description=_(
            N_(
                "Show the best move for the seat to move before a move of a game record, with "
                "the expected chips of every legal move, the combination the hand is building, its "
                "outs and, for a call, its chance to win."
            )
        ),
        epilog=_(_EPILOG),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_record_arguments(parser, tr)
    parser.add_argument("--deal", type=int, required=True, metavar="D", help=_(N_("the deal, from 1")))
    move = parser.add_mutually_exclusive_group(required=True)
    move.add_argument(
        "--move", type=int, metavar="K", help=_(N_("the position before move K of the deal, from 1"))
    )
    # The former name (counted from 0 once): kept for scripts, counted from 1 like --move.
    move.add_argument("--action", type=int, dest="move", help=argparse.SUPPRESS)
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
        reports = record.replay().reports
        problem = deal_number_problem("--deal", args.deal, len(record.deals), tr) or _move_problem(
            args.deal, args.move, record, reports[args.deal - 1].finished, tr
        )
        if problem is not None:
            print(
                tr.gettext(N_("paiute {command}: error: {message}"), command=command, message=problem),
                file=sys.stderr,
            )
            return 2
        obs = position_before(record, args.deal - 1, args.move - 1)
    except PositionError as error:
        print(
            tr.gettext(N_("paiute {command}: error: {message}"), command=command, message=tr.explain(error)),
            file=sys.stderr,
        )
        return 2
    except (ReplayError, RecordError) as error:
        print(tr.gettext(N_("invalid record: {message}"), message=tr.explain(error)), file=sys.stderr)
        return 1
    # Seeded as paiute review seeds this decision: the same figures for the same moves.
    seed = position_seed(args.seed, args.deal - 1, args.move - 1)
    found = hint(obs, playouts=args.playouts, draw_playouts=args.draw_playouts, seed=seed)
    if args.json:  # machine-readable, never translated; the record's indexes, from 0
        print(json.dumps({"deal": args.deal - 1, "action": args.move - 1, **found.to_json()}))
        return 0
    names = person_names(record.players, tr)
    seat = found.seat
    print(
        tr.gettext(
            N_("Deal {deal}, before move {move}: {name} (seat {seat}) to move, holding {cards}."),
            deal=args.deal,
            move=args.move,
            name=names[seat],
            seat=seat,
            cards=cards_text(obs.hand, obs.wild_cards, tr=tr),
        )
    )
    for line in hint_lines(found, obs, names, tr=tr):
        print(line)
    return 0


def _move_problem(deal: int, move: int, record: Record, finished: bool, tr: Translator) -> str | None:
    """Why ``--move move`` names no position of deal ``deal`` (both from 1) with a seat to move,
    in one line; None when it names one. A finished deal's last move is its last position; a
    deal in progress has one more, the move it waits for."""
    last = len(record.deals[deal - 1].actions) + (0 if finished else 1)
    if 1 <= move <= last:
        return None
    return tr.gettext(
        N_("--move {move}: choose a move of deal {deal} from {first} to {last}"),
        move=move,
        deal=deal,
        first=1,
        last=last,
    )
