"""``paiute review``: what every decision of a finished record cost (docs/review.md)."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Iterator
from typing import Any

from paiute.analysis.review import (
    DEFAULT_PLAYOUTS,
    MARK_WORDS,
    UNMARKED_WORDS,
    Decision,
    Mark,
    Review,
    ReviewError,
    action_words,
    advice_words,
    review_header,
    review_record,
)
from paiute.cli.common import add_record_arguments, args_translator, deal_number_problem
from paiute.cli.replay_command import load_replayed
from paiute.errors import N_
from paiute.i18n import Translator, localized_digits, translator
from paiute.players.base import MAX_ITERATIONS
from paiute.record import Record
from paiute.tui.describe import person_names

_EPILOG = N_("""\
Every decision of the chosen seats (a turn point with more than one legal action) is
estimated from that seat's view at that moment only (R9: never the stock or another
seat's hidden cards): every legal action's net chips (what the seat expects to win or lose
this deal, after its stake: 0 is break-even), from playouts of the deal on the same samples
of the unseen cards. The best action is the hint's (paiute hint): the expert level's move,
which the playouts explain and never overrule; the figures are the hint's too (paiute hint
--deal D --move K with the same --seed and --playouts). The loss is what the best action is
worth more than the action played. Marks, by the loss as a share of the deal's stake (the
pot; with payout=scale, what the others pay for a Paiute):
  inaccuracy  from 0.10 of the stake
  mistake     from 0.20
  blunder     from 0.30
A smaller loss, or one whose 95-percent interval reaches 0 (within the noise of the
playouts), is not marked, and the table says which. Accuracy (0-100%) is lichess's: each
decision scores 103.17*exp(-0.04354*drop)-2.17 (drop = 100*loss/stake), the seat gets
the mean of the plain and harmonic means. Deals in progress are not reviewed. The same
seed and playouts give the same review; --budget makes it depend on the machine's speed.
Deals and moves are counted from 1, as paiute play, replay and hint count them: the table's
deal 2, move 7 is paiute hint --deal 2 --move 7 (a deal's moves are every seat's, forced ones
too). Seats are counted from 0. See docs/review.md.

--json prints one object a line per decision, then one summary line ("deal" and "action" are
the record's indexes, from 0: deal 1, move 2 is "deal": 0, "action": 1):
  {"deal": 0, "action": 1, "seat": 1, "played": "discard As", "best": "call 3d",
   "net_played": -1.9, "net_best": 1.8, "interval": [1.6, 2.0], "loss": 3.7,
   "loss_interval": [3.4, 4.0], "mark": "blunder", "unmarked": null, "stake": 3.0,
   "samples": 16, "expert": "call 3d", "better": "call 3d"}
  {"format": "paiute-review/2", "summary": [{"seat": 1, "decisions": 9, "loss": 4.1,
   "inaccuracy": 0, "mistake": 1, "blunder": 1, "accuracy": 61.3}], "playouts": 16, "seed": 0}
A record that is malformed or breaks a rule is refused as paiute replay refuses it (exit 1).

examples:
  paiute review match.json                   every seat of every finished deal
  paiute review match.json --seat 1 --deal 1
  paiute review match.json --json | jq 'select(.mark == "blunder")'
  cat match.json | paiute review - --playouts 64 --seed 7
""")


def register(commands: Any, tr: Translator | None = None) -> None:
    _ = (tr or translator()).gettext
    parser = commands.add_parser(
        "review",
        help=_(N_("review a game record: the cost of every decision")),
        description=_(
            N_(
                "Review a finished paiute-record/1 record: for every decision of the chosen seats, "
                "the action played, the best action, the expected chips of each and the loss, "
                "marked inaccuracy, mistake or blunder; a summary per seat."
            )
        ),
        epilog=_(_EPILOG),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_record_arguments(parser, tr)
    seats = parser.add_mutually_exclusive_group()
    seats.add_argument("--seat", type=int, metavar="N", help=_(N_("review this seat only (0 first)")))
    seats.add_argument("--all", action="store_true", help=_(N_("review every seat (the default)")))
    parser.add_argument("--deal", type=int, metavar="K", help=_(N_("review this deal only (1 first)")))
    parser.add_argument(
        "--playouts",
        type=int,
        default=DEFAULT_PLAYOUTS,
        metavar="N",
        help=_(N_("samples of the unseen cards per decision (default {n})"), n=DEFAULT_PLAYOUTS),
    )
    parser.add_argument(
        "--budget",
        type=float,
        metavar=_(N_("MS")),
        help=_(N_("at most this many milliseconds per decision (fewer playouts on a slow machine)")),
    )
    parser.add_argument(
        "--seed", type=int, default=0, metavar="S", help=_(N_("seed of the samples (default 0)"))
    )
    parser.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help=_(N_("processes sharing the decisions (default: 2 for a long review, else 1)")),
    )
    parser.add_argument(
        "--json", action="store_true", help=_(N_("one JSON object per decision, then a summary line"))
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    tr = args_translator(args)
    if not 1 <= args.playouts <= MAX_ITERATIONS:
        raise ReviewError(
            N_("--playouts must be from 1 to {most}, not {n}"), most=MAX_ITERATIONS, n=args.playouts
        )
    if args.budget is not None and not args.budget > 0:
        raise ReviewError(N_("--budget must be more than 0 milliseconds"))
    if args.workers is not None and args.workers < 1:
        raise ReviewError(N_("--workers must be at least 1, not {n}"), n=args.workers)
    loaded = load_replayed(args, tr)  # refused exactly as paiute replay refuses it
    if isinstance(loaded, int):
        return loaded
    record, _replay = loaded
    players = len(record.players)
    if args.seat is not None and not 0 <= args.seat < players:
        raise ReviewError(
            N_("--seat {seat}: the record has seats 0 to {last}"), seat=args.seat, last=players - 1
        )
    problem = None if args.deal is None else deal_number_problem("--deal", args.deal, len(record.deals), tr)
    if problem is not None:
        print(
            tr.gettext(N_("paiute {command}: error: {message}"), command="review", message=problem),
            file=sys.stderr,
        )
        return 2
    seats = None if args.seat is None else [args.seat]
    with _progress_bar(tr) as progress:
        review = review_record(
            record,
            seats=seats,
            deal=None if args.deal is None else args.deal - 1,
            playouts=args.playouts,
            budget_ms=args.budget,
            seed=args.seed,
            workers=args.workers,
            progress=progress,
        )
    if args.json:
        for line in review.json_lines():
            print(json.dumps(line))
    else:
        _print(record, review, tr)
    return 0


@contextlib.contextmanager
def _progress_bar(tr: Translator) -> Iterator[Callable[[int, int], None] | None]:
    """A rich progress bar on standard error when it is a terminal (nothing otherwise)."""
    try:
        import rich.console
        import rich.progress
    except ImportError:  # rich is an extra: review works without it
        yield None
        return
    errors = rich.console.Console(stderr=True)
    if not errors.is_terminal:
        yield None
        return
    columns = (
        rich.progress.TextColumn("[progress.description]{task.description}"),
        rich.progress.BarColumn(),
        rich.progress.MofNCompleteColumn(),
        rich.progress.TextColumn(tr.gettext(N_("decisions"))),
        rich.progress.TimeElapsedColumn(),
        rich.progress.TimeRemainingColumn(),
    )
    with rich.progress.Progress(*columns, console=errors, transient=True) as bar:
        task = bar.add_task(tr.gettext(N_("review")), total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield progress


def _row(decision: Decision, tr: Translator) -> list[str]:
    if decision.mark is not None:
        mark = tr.gettext(MARK_WORDS[decision.mark])
    elif decision.unmarked is not None:
        mark = tr.gettext(UNMARKED_WORDS[decision.unmarked])  # why a loss has no mark
    else:
        mark = ""
    better = decision.better
    # The better action and its chips only where one is named (Decision.better): beside an
    # empty cell, the expert's move's chips (lower, or no higher) would read as a better one.
    best = "" if better is None else advice_words(better, tr)
    return [
        tr.number(decision.deal_number),
        tr.number(decision.move),
        action_words(decision.played, tr),
        tr.chips(decision.net_played),
        best,
        "" if better is None else tr.chips(decision.net_best),
        tr.chips(decision.loss, signed=False),
        mark,
    ]


def _aligned(rows: list[list[str]]) -> list[list[str]]:
    """The plain table's rows with every column as wide as its widest cell (figures, the
    numbers and the loss right-aligned), so that its columns line up."""
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    right = {0, 1, 3, 5, 6}
    return [
        [
            cell.rjust(w) if i in right else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        for row in rows
    ]


def _rich_tables() -> Any:
    """rich's modules for the tables, or None without rich (an extra): plain lines then."""
    try:
        import rich.box
        import rich.console
        import rich.markup
        import rich.table
    except ImportError:
        return None
    return rich


def _print(record: Record, review: Review, tr: Translator) -> None:
    _ = tr.gettext
    headers = [
        _(N_("Deal")),
        _(N_("Move")),
        _(N_("Played")),
        _(N_("Chips")),
        _(N_("Better")),
        _(N_("Chips")),
        _(N_("Loss")),
        _(N_("Mark")),
    ]
    names = person_names(record.players, tr)  # the default "You" in the reader's language
    rich = _rich_tables()
    console: Any = None if rich is None else rich.console.Console(highlight=False)
    header = review_header(review.playouts, tr)
    if console is None:
        print(header)
    else:
        console.print(rich.markup.escape(header))
    for summary in review.summaries:
        title = _(N_("seat {seat} {name}"), seat=summary.seat, name=names[summary.seat])
        rows = [_row(d, tr) for d in review.decisions if d.seat == summary.seat]
        accuracy = "-" if summary.accuracy is None else localized_digits(f"{summary.accuracy:.1f}%", tr)
        line = _(
            N_(
                "decisions: {decisions}; expected loss: {loss} chips; inaccuracies: {inaccuracies}; "
                "mistakes: {mistakes}; blunders: {blunders}; accuracy: {accuracy}"
            ),
            decisions=summary.decisions,
            loss=tr.chips(summary.loss, signed=False),
            inaccuracies=summary.inaccuracies,
            mistakes=summary.mistakes,
            blunders=summary.blunders,
            accuracy=accuracy,
        )
        if rich is None:
            print(title)
            for cells in _aligned([headers, *rows]):
                print("  " + " | ".join(cells).rstrip())
            print("  " + line)
            continue
        table = rich.table.Table(
            title=rich.markup.escape(title),
            box=rich.box.SIMPLE_HEAD,
            caption=rich.markup.escape(line),
            caption_justify="left",
        )
        for index, header in enumerate(headers):
            justify = "right" if index in (0, 1, 3, 5, 6) else "left"
            table.add_column(rich.markup.escape(header), justify=justify, no_wrap=index != 2 and index != 4)
        styles = {Mark.BLUNDER: "bold red", Mark.MISTAKE: "yellow", Mark.INACCURACY: "cyan"}
        for decision, row in zip([d for d in review.decisions if d.seat == summary.seat], rows, strict=True):
            style = None if decision.mark is None else styles[decision.mark]
            table.add_row(*(rich.markup.escape(cell) for cell in row), style=style)
        console.print(table)
