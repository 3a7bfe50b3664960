"""``paiute tournament``: a duplicate tournament between bots, with a live progress bar."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from paiute.analysis.tournament import (
    BACKENDS,
    SEATINGS,
    TournamentError,
    TournamentResult,
    run_tournament,
    seating_count,
)
from paiute.cli.common import (
    add_rule_arguments,
    args_translator,
    check_output_file,
    rules_from_arguments,
    stop_on_interrupt,
)
from paiute.combos import Category
from paiute.errors import N_
from paiute.i18n import Translator, localized_digits, translator
from paiute.parallel import ray_cluster
from paiute.players import make_player
from paiute.tui.preparing import BotPreparation

_EPILOG = N_("""\
How it is played:
  A board is one shuffled and cut pack, a dealer and a seed for the stock rebuilds. The seats
  are filled from the bots in turn (2 bots at 4 seats sit A B A B) and every distinct seating
  of that line-up plays the board (with --seating rotations, only its rotations): the same
  cards reach the same seats whoever sits there, which cancels the luck of the deal. --deals
  counts boards, so the tournament plays DEALS x SEATINGS deals: 2 bots at 2 seats make 2
  seatings, 3 bots 6, 2 bots at 4 seats 6, 5 bots 120 (5 with rotations). Each deal starts
  every balance at 0: the chips a seat won are its balance afterwards (a dead deal, R8.5,
  costs every seat its stake). The same --seed gives the same results whatever --workers or
  --backend; without one a seed is drawn and reported.

What it reports, per bot, by the seats it played: a deal at each of its seats (2 bots at 4
seats play 2 seats of every deal each, so 100 deals are 200 seats a bot and 400 in all, as
the footer counts them): chips won per seat with a {level} confidence interval (1.96
standard errors of the bot's per-board means: the boards are the independent samples), the
win rate (seats that won or shared), the calls it made by combination, and an openskill
Plackett-Luce rating from the deals that were not dead, the seats ranked by chips won
(ordinal = mu - 3 sigma). In --json a bot's "deals" counts its seats in the same way.

""")
_EPILOG_RECORDS = N_("""\
Records: with --records FILE every deal is written to FILE as JSON lines, one
  paiute-record/1 record per line (see RECORD.md), board after board, each board's seatings
  in turn; the players are named after the bots; paiute replay FILE --match K reads line K.
  Without --records nothing is written. FILE's folder must exist; it is checked before the
  first deal. Ctrl-C stops the tournament: the boards that finished are reported (marked
  interrupted), saved, and the exit status is 130.

""")
# The --json example is not translated (JSON is the same in every language), only its heading.
_EPILOG_JSON = N_("""\
--json prints one object:
  {"bots": [{"bot": "random", "spec": "random", "deals": 40, "chips": -28,
    "chips_per_deal": -0.7, "ci95": [-0.91, -0.49], "wins": 6, "win_rate": 0.15,
    "calls": {"paiute": 0, ..., "five_of_a_kind": 0},
    "rating": {"mu": 20.4, "sigma": 5.6, "ordinal": 3.6}}, ...],
   "players": 2, "seating": "permutations", "seatings": 2, "boards": 20,
   "boards_requested": 20, "deals": 40, "dead_deals": 25, "dead_rate": 0.625, "seed": 7,
   "rules": {"preset": "pagat"}, "interrupted": false, "records": "paiute-tournament-7.jsonl"}

""")
_EPILOG_EXAMPLES = N_("""\
examples:
  paiute tournament expert hard --players 4 --seating rotations --deals 2000 --seed 1
  paiute tournament random random:seed=1 --deals 200 --seed 7
  paiute tournament greedy random --players 4 --deals 100 --workers 4 --json
  paiute tournament greedy random --deals 500 --option stake=5 --records games.jsonl
  paiute tournament greedy random --deals 5000 --backend ray --address auto
""")


def _positive(tr: Translator) -> Callable[[str], int]:
    """The type of a count of at least 1, its complaint in ``tr``'s language."""

    def positive(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                tr.gettext(N_("expected a whole number, got {text!r}"), text=text)
            ) from None
        if value < 1:
            raise argparse.ArgumentTypeError(
                tr.gettext(N_("expected a whole number of at least 1, got {value}"), value=value)
            )
        return value

    return positive


def register(commands: Any, tr: Translator | None = None) -> None:
    tr = tr or translator()
    _ = tr.gettext
    positive = _positive(tr)
    parser = commands.add_parser(
        "tournament",
        help=_(N_("duplicate tournament between bots: chips per deal, win rates, ratings")),
        description=_(
            N_(
                "Play a duplicate tournament between two or more bots (levels easy, medium, hard, "
                "expert, or player specs such as greedy or random:seed=3): every seating of the "
                "bots plays the same shuffled packs. Reports, per bot, chips won per seat played with "
                "a {level} confidence interval, the win rate, the calls by combination and a rating."
            ),
            level=tr.number(95) + "%",
        ),
        epilog=_(_EPILOG, level=tr.number(95) + "%")
        + _(_EPILOG_RECORDS)
        + _(_EPILOG_JSON)
        + _(_EPILOG_EXAMPLES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "bots",
        nargs="+",
        metavar=_(N_("BOT")),
        help=_(
            N_(
                "a level (easy, medium, hard, expert), a player spec (NAME or NAME:KEY=VALUE,...) or "
                "your agent's factory: MODULE.FACTORY[:KEY=VALUE,...]"
            )
        ),
    )
    parser.add_argument(
        "--deals",
        type=positive,
        required=True,
        metavar="N",
        help=_(N_("boards to play: each shuffled pack is played once per seating (N x SEATINGS deals)")),
    )
    parser.add_argument(
        "--players", type=positive, metavar="K", help=_(N_("seats at the table (default: one per bot)"))
    )
    parser.add_argument(
        "--seating",
        choices=SEATINGS,
        default="permutations",
        help=_(N_("re-seat the line-up in every distinct way (default) or only rotate it")),
    )
    parser.add_argument(
        "--workers",
        type=positive,
        metavar="W",
        help=_(N_("processes (or Ray tasks in flight); default: one per core; 1 plays in this process")),
    )
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="local",
        help=_(N_("local processes (default) or a Ray cluster")),
    )
    parser.add_argument(
        "--address", metavar=_(N_("ADDR")), help=_(N_("the Ray cluster (default: start a local one)"))
    )
    parser.add_argument("--seed", type=int, metavar="S", help=_(N_("fixes every deck, rebuild and bot seed")))
    add_rule_arguments(parser, tr)
    records = parser.add_mutually_exclusive_group()
    records.add_argument(
        "--records",
        metavar=_(N_("FILE")),
        help=_(N_("save every deal to FILE, one record per line (default: save nothing)")),
    )
    # Saving nothing is the default now; the option stays so that older scripts still run.
    records.add_argument("--no-records", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help=_(N_("print the results as one JSON object")))
    parser.set_defaults(run=run)


@contextlib.contextmanager
def _backend(backend: str, address: str | None, workers: int | None, tr: Translator) -> Iterator[None]:
    """With --backend ray: the cluster joined (--address) or a private local one, said on
    standard error, for the whole run."""
    if backend != "ray":
        yield
        return
    with ray_cluster(address, workers) as where:
        print(tr.message(where), file=sys.stderr)
        yield


def _prepare(bots: list[str], errors: Any, stop: threading.Event, tr: Translator) -> None:
    """Compile (or load) the search kernels of the bots that need them here, once, before the
    workers start, saying so on standard error as ``paiute play`` does (no silent wait of
    minutes after a fresh install): the workers then load them from the disk cache
    in a second each. Ctrl-C stops the wait, and the tournament reports its zero boards."""
    preparation = BotPreparation.of_bots(bots)
    shown = False
    with contextlib.ExitStack() as stack:
        while preparation.waiting() and not stop.is_set():
            line = preparation.line(tr, spinner=False)
            if line is not None and errors.is_terminal:
                if not shown:
                    status = stack.enter_context(errors.status(line))
                status.update(line)
            elif line is not None and not shown:
                print(line, file=sys.stderr, flush=True)  # once, when not a terminal
            shown = shown or line is not None
            time.sleep(0.25)
    if shown and not stop.is_set():
        print(preparation.ready_line(tr), file=sys.stderr, flush=True)


def _rich() -> Any:
    try:
        import rich.box
        import rich.console
        import rich.markup
        import rich.progress
        import rich.table
    except ImportError:
        raise TournamentError(N_("the tournament command needs rich: pip install 'paiute[sim]'")) from None
    return rich


def run(args: argparse.Namespace) -> int:
    rich = _rich()
    tr = args_translator(args)
    rules = rules_from_arguments(args)
    if len(args.bots) < 2:
        raise TournamentError(N_("a tournament needs at least two bots, got {n}"), n=len(args.bots))
    if args.address is not None and args.backend != "ray":
        raise TournamentError(N_("--address needs --backend ray"))
    players = args.players if args.players is not None else len(args.bots)
    # Every count is checked before any work (R2.1 first: 12 seats would have 479 million
    # seatings), and the seatings are counted, not listed.
    rules.check_players(players)
    total = args.deals * seating_count(len(args.bots), players, args.seating)
    for spec in args.bots:
        # An unknown bot, or an agent's factory that cannot be imported or made, is refused
        # here, before a Ray instance starts and says so.
        make_player(spec, seed=0)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    path = None if args.records is None else str(check_output_file(args.records))

    errors = rich.console.Console(stderr=True)
    columns = (
        rich.progress.TextColumn("[progress.description]{task.description}"),
        rich.progress.BarColumn(),
        rich.progress.MofNCompleteColumn(),
        rich.progress.TextColumn(tr.gettext(N_("deals"))),
        rich.progress.TimeElapsedColumn(),
        rich.progress.TextColumn("ETA"),
        rich.progress.TimeRemainingColumn(),
    )
    with _backend(args.backend, args.address, args.workers, tr), stop_on_interrupt() as stop:
        _prepare(args.bots, errors, stop, tr)  # before the bar: one live display at a time
        with rich.progress.Progress(*columns, console=errors, disable=not errors.is_terminal) as bar:
            task = bar.add_task(tr.gettext(N_("tournament")), total=total)

            def progress(done: int, deals: int) -> None:
                bar.update(task, completed=done, total=deals)

            result = run_tournament(
                args.bots,
                deals=args.deals,
                players=players,
                seed=seed,
                workers=args.workers,
                rules=rules,
                seating=args.seating,
                backend=args.backend,
                address=args.address,
                records=path,
                progress=progress,
                stop=stop,
            )
    if args.json:
        print(json.dumps({**result.to_json(), "records": result.records_path}))
    else:
        _print(rich, result, tr)
    if result.interrupted:
        print(
            tr.gettext(
                N_("paiute tournament: interrupted: {done} of {boards} boards finished and are reported"),
                done=len(result.boards),
                boards=result.boards_requested,
            ),
            file=sys.stderr,
        )
        return 130
    return 0


_SHORT = {
    Category.FIVE_OF_A_KIND: "5K",
    Category.ROYAL_FLUSH: "RF",
    Category.STRAIGHT_FLUSH: "SF",
    Category.FOUR_TWO: "4/2",
    Category.THREE_THREE: "3/3",
    Category.PAIUTE: "Paiute",
}
# The abbreviations stay as they are (they are short table cells); the legend explains them.
_LEGEND = N_("calls: 5K five of a kind, RF royal flush, SF straight flush, 4/2 four/two, 3/3 three/three")


def _calls(calls: dict[str, int], tr: Translator) -> list[str]:
    """The calls of a bot as label-count pairs ("SF 3", "4/2 12"), the highest first."""
    return [f"{_SHORT[c]} {tr.number(calls[c.value])}" for c in reversed(Category) if calls.get(c.value)] or [
        "-"
    ]


class _Pairs:
    """A table cell of short phrases that wraps only between them, never inside one (rich
    wraps at any space, which would part "4/2" from its count)."""

    def __init__(self, phrases: list[str]) -> None:
        self.phrases = phrases

    def __rich_measure__(self, console: Any, options: Any) -> Any:
        from rich.measure import Measurement

        return Measurement(max(map(len, self.phrases)), len(" ".join(self.phrases)))

    def __rich_console__(self, console: Any, options: Any) -> Any:
        from rich.text import Text

        line = ""
        for phrase in self.phrases:
            if line and len(line) + 1 + len(phrase) > options.max_width:
                yield Text(line, no_wrap=True, overflow="ellipsis")
                line = phrase
            else:
                line = f"{line} {phrase}" if line else phrase
        yield Text(line, no_wrap=True, overflow="ellipsis")


def _print(rich: Any, result: TournamentResult, tr: Translator) -> None:
    _ = tr.gettext
    config = result.config
    title = rich.markup.escape(_(N_("Duplicate tournament, {n} seats"), n=config.players))
    if result.interrupted:
        interrupted = _(
            N_("(interrupted: {done} of {boards} boards)"),
            done=len(result.boards),
            boards=result.boards_requested,
        )
        title += f" [bold red]{rich.markup.escape(interrupted)}[/]"
    table = rich.table.Table(title=title, box=rich.box.SIMPLE_HEAD, caption_justify="left")
    table.add_column(_(N_("Bot")), no_wrap=True)
    table.add_column(_(N_("Seats")), justify="right")
    table.add_column(_(N_("Chips/seat ± 95% CI")), justify="right", no_wrap=True)
    table.add_column(_(N_("Win rate")), justify="right")
    table.add_column(_(N_("Calls")))
    table.add_column(_(N_("Rating μ ± σ")), justify="right", no_wrap=True)
    for bot in sorted(result.standings, key=lambda bot: -bot.chips_per_deal):
        chips = f"{bot.chips_per_deal:+.3f}"
        if bot.ci95 is not None:
            chips += f" ± {(bot.ci95[1] - bot.ci95[0]) / 2:.3f}"
        table.add_row(
            rich.markup.escape(bot.label),
            tr.number(bot.deals),
            localized_digits(chips, tr),
            localized_digits(f"{bot.win_rate:.1%}", tr),
            _Pairs(_calls(bot.calls, tr)),
            localized_digits(f"{bot.rating['mu']:.1f} ± {bot.rating['sigma']:.1f}", tr),
        )
    rules = " ".join(f"{key}={value}" for key, value in config.rules.to_dict().items())
    params = {
        "boards": len(result.boards),
        "seatings": len(result.seatings),
        "seating": config.seating,
        "deals": result.deals,
        "players": config.players,
        "seats": result.deals * config.players,
        "dead": localized_digits(f"{result.dead_rate:.1%}", tr),
        "seed": str(config.seed),
        "rules": rules,
        "seconds": localized_digits(f"{result.elapsed:.1f}", tr),
    }
    if result.workers:
        summary = tr.ngettext(
            "{boards} boards x {seatings} seatings ({seating}) = {deals} deals x {players} seats = "
            "{seats} seats played; dead deals {dead}; seed {seed}; {rules}; {seconds} s on {n} worker",
            "{boards} boards x {seatings} seatings ({seating}) = {deals} deals x {players} seats = "
            "{seats} seats played; dead deals {dead}; seed {seed}; {rules}; {seconds} s on {n} workers",
            result.workers,
            **params,
        )
    else:
        summary = _(
            N_(
                "{boards} boards x {seatings} seatings ({seating}) = {deals} deals x {players} seats = "
                "{seats} seats played; dead deals {dead}; seed {seed}; {rules}; {seconds} s"
            ),
            **params,
        )
    table.caption = rich.markup.escape(summary + "\n" + _(_LEGEND))
    console = rich.console.Console()
    console.print(table)
    if result.records_path is not None:
        console.print(
            _(
                N_("records: {deals} deals saved to {path} (one paiute-record/1 per line)"),
                deals=result.deals,
                path=str(result.records_path),
            ),
            highlight=False,
            markup=False,
        )
