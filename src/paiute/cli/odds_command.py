"""``paiute odds``: how likely each combination is after the first draw and within N turns."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from paiute.analysis.odds import (
    POLICY,
    WILD_OPTIONS,
    FirstDrawOdds,
    Probability,
    TurnsOdds,
    category_order,
    exact_first_draw,
    monte_carlo_first_draw,
    monte_carlo_turns,
)
from paiute.analysis.simulate import require_sim_extra
from paiute.cli.common import args_translator
from paiute.errors import N_, PaiuteError
from paiute.i18n import Translator, localized_digits, translator
from paiute.rules import MAX_SEATS, MIN_PLAYERS

_EPILOG = N_("""\
After the first draw: the six cards a player holds after its first draw (five dealt, one drawn
from the stock) are six cards taken at random from the cards it has not seen. The number of
players does not change this. With --wild any, three wild cards are left among 51 unseen cards
(the upcard is the fourth, R3.1); with opposite, two (R3.3); with jokers, two among 54 (R3.2).
"available": the six cards can show that combination; "best": it is their best call.
Exact figures count all C(51,6) = 18,009,460 (C(54,6) = 25,827,165 with jokers) holdings
by rank pattern and suit, averaged over the 13 upcard ranks; --monte-carlo samples instead.

Within N turns (Monte Carlo, Wilson {level} intervals): the chance that a player at the dealer's
left has been able to call by its t-th turn, drawing from the stock and keeping the five cards
closest to a combination, while the other players draw from the stock and discard what they
drew: the player count acts through the stock, its rebuilds (R4.6) and dead deals (R4.7).
A Paiute counts only on the first turn (R5.7) unless there are 6 or more players (R2.1).

examples:
  paiute odds
  paiute odds --wild all --players 2,4,6 --turns 8
  paiute odds --wild jokers --monte-carlo --samples 200000 --json
""")


def register(commands: Any, tr: Translator | None = None) -> None:
    tr = tr or translator()
    _ = tr.gettext
    parser = commands.add_parser(
        "odds",
        help=_(N_("odds of each combination after the first draw and within N turns")),
        description=_(
            N_(
                "Probabilities of holding each winning combination (R5) after the first draw, "
                "exact by counting or by Monte Carlo, and of having been able to call within N turns, per "
                "player count and wild-card option."
            )
        ),
        epilog=_(_EPILOG, level=tr.number(95) + "%"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--players",
        default="4",
        metavar=_(N_("K[,K...]")),
        help=_(N_("player count(s) for the turns figures (default 4)")),
    )
    parser.add_argument(
        "--wild",
        default="any",
        metavar=_(N_("OPTION[,...]")),
        help=_(N_("wild cards: any, opposite, jokers, a comma list, or all (default any)")),
    )
    parser.add_argument(
        "--turns",
        type=int,
        default=10,
        metavar="N",
        help=_(N_("turns for the within-N-turns figures (0: none)")),
    )
    method = parser.add_mutually_exclusive_group()
    method.add_argument(
        "--exact", action="store_true", help=_(N_("exact first-draw odds by counting (the default)"))
    )
    method.add_argument(
        "--monte-carlo", action="store_true", help=_(N_("estimate the first-draw odds by sampling"))
    )
    parser.add_argument(
        "--samples",
        type=int,
        default=20_000,
        metavar="S",
        help=_(N_("Monte Carlo samples per figure (default 20000)")),
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        metavar=_(N_("SEED")),
        help=_(N_("seed of the Monte Carlo samples (default 0)")),
    )
    parser.add_argument(
        "--royal-high", action="store_true", help=_(N_("Royal Flush above Five of a Kind (R5.8)"))
    )
    parser.add_argument("--json", action="store_true", help=_(N_("print the results as one JSON object")))
    parser.add_argument("--quiet", action="store_true", help=_(N_("no progress bar")))
    parser.set_defaults(run=run)


def _parse_wild(text: str) -> list[str]:
    if text.strip().lower() == "all":
        return list(WILD_OPTIONS)
    options = [part.strip().lower() for part in text.split(",") if part.strip()]
    for option in options:
        if option not in WILD_OPTIONS:
            raise PaiuteError(
                N_("unknown wild option {option!r}: one of {options}, or all"),
                option=option,
                options=", ".join(WILD_OPTIONS),
            )
    if not options:
        raise PaiuteError(N_("--wild: give any, opposite, jokers or all"))
    return list(dict.fromkeys(options))


def _parse_players(text: str) -> list[int]:
    counts = []
    for part in (piece.strip() for piece in text.split(",")):
        if not part:
            continue
        try:
            count = int(part)
        except ValueError:
            raise PaiuteError(N_("--players: {text!r} is not a number"), text=part) from None
        if not MIN_PLAYERS <= count <= MAX_SEATS:
            raise PaiuteError(
                N_("R2.1 {count} players: {low} to {high} (6 or more: max_players)"),
                count=count,
                low=MIN_PLAYERS,
                high=MAX_SEATS,
            )
        counts.append(count)
    if not counts:
        raise PaiuteError(N_("--players: give a player count"))
    return list(dict.fromkeys(counts))


def run(args: argparse.Namespace) -> int:
    wilds = _parse_wild(args.wild)
    players = _parse_players(args.players)
    if args.turns < 0:
        raise PaiuteError(N_("--turns must not be negative, not {n}"), n=args.turns)
    if args.samples < 1:
        raise PaiuteError(N_("--samples must be at least 1, not {n}"), n=args.samples)
    if not args.json:
        require_sim_extra("rich", "paiute odds")
    tr = args_translator(args)
    first: list[FirstDrawOdds] = []
    # (wild, reason) of each figure sampled because counting is not feasible; the JSON keeps
    # the English note, people read it in their language.
    infeasible: list[tuple[str, str]] = []
    notes: list[str] = []
    turns: list[TurnsOdds] = []
    work = len(wilds) * (args.samples if args.monte_carlo else 0) + (
        len(wilds) * len(players) * args.samples if args.turns else 0
    )
    with _progress(work, quiet=args.quiet) as advance:
        for wild in wilds:

            def sample(wild: str = wild) -> FirstDrawOdds:
                return monte_carlo_first_draw(
                    wild, samples=args.samples, seed=args.seed, royal_high=args.royal_high, progress=advance
                )

            if args.monte_carlo:
                first.append(sample())
            else:
                try:
                    first.append(exact_first_draw(wild, royal_high=args.royal_high))
                except NotImplementedError as error:  # not feasible: say so, and sample instead
                    notes.append(
                        f"wild {wild}: exact counting is not feasible ({error}); Monte Carlo instead"
                    )
                    infeasible.append((wild, str(error)))
                    first.append(sample())
            if args.turns:
                for count in players:
                    turns.append(
                        monte_carlo_turns(
                            wild,
                            players=count,
                            turns=args.turns,
                            samples=args.samples,
                            seed=args.seed,
                            royal_high=args.royal_high,
                            progress=advance,
                        )
                    )
    if args.json:
        print(
            json.dumps(
                {
                    "command": "odds",
                    "wild": wilds,
                    "players": players,
                    "turns": args.turns,
                    "first_draw": [odds.to_json() for odds in first],
                    "first_draw_note": "the player count does not change the first-draw odds",
                    "notes": notes,
                    "within_turns": [odds.to_json() for odds in turns],
                }
            )
        )
        return 0
    for wild, reason in infeasible:
        print(
            tr.gettext(
                N_("wild {wild}: exact counting is not feasible ({reason}); Monte Carlo instead"),
                wild=wild,
                reason=reason,
            )
        )
    _print(first, turns, args.turns, tr)
    return 0


@contextmanager
def _progress(total: int, *, quiet: bool) -> Iterator[Callable[[int], None] | None]:
    if quiet or total <= 0 or not sys.stderr.isatty():
        yield None
        return
    try:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    except ImportError:
        yield None
        return
    columns = (
        TextColumn("samples"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("samples", total=total)
        yield lambda count: progress.advance(task, count)


def _percent(p: Probability, tr: Translator, *, digits: int = 4) -> str:
    text = f"{100 * p.value:.{digits}f}%"
    if not p.exact:
        low, high = p.interval
        text += f" [{100 * low:.{digits}f}, {100 * high:.{digits}f}]"
    return localized_digits(text, tr)


def _one_in(p: Probability, tr: Translator) -> str:
    if p.value <= 0:
        return "-"
    return tr.gettext(N_("1 in {n}"), n=localized_digits(f"{1 / p.value:,.0f}", tr))


def _print(first: list[FirstDrawOdds], turns: list[TurnsOdds], turn_count: int, tr: Translator) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    _ = tr.gettext
    console = Console(width=None if sys.stdout.isatty() else 120, highlight=False)
    for odds in first:
        wild = odds.wild
        holdings = localized_digits(f"{odds.holdings:,}", tr)
        if odds.method == "exact" and odds.settings > 1:
            how = _(
                N_(
                    "exact: all C({unseen},6) = {holdings} holdings counted, averaged over the {ranks} upcard ranks"
                ),
                unseen=odds.unseen,
                holdings=holdings,
                ranks=odds.settings,
            )
        elif odds.method == "exact":
            how = _(
                N_("exact: all C({unseen},6) = {holdings} holdings counted"),
                unseen=odds.unseen,
                holdings=holdings,
            )
        else:
            how = _(
                N_("Monte Carlo: {samples} samples, seed {seed}, Wilson {level} intervals"),
                level=tr.number(95) + "%",
                samples=localized_digits(f"{odds.samples:,}", tr),
                seed=odds.seed,
            )
        console.print(
            "[bold]"
            + escape(
                _(
                    N_(
                        "wild {wild}: the six cards held after the first draw ({left} wild cards among "
                        "{unseen} unseen) — {how}; the player count does not change these odds"
                    ),
                    wild=wild,
                    left=odds.wild_left,
                    unseen=odds.unseen,
                    how=how,
                )
            )
            + "[/]"
        )
        table = Table()
        table.add_column(_(N_("combination")))
        table.add_column(_(N_("available")), justify="right")
        table.add_column(_(N_("best call")), justify="right")
        table.add_column(_(N_("best, 1 in")), justify="right")
        for category in category_order(odds.royal_high):
            best = odds.best[category]
            table.add_row(
                tr.category(category),
                _percent(odds.available[category], tr),
                _percent(best, tr),
                _one_in(best, tr),
            )
        table.add_section()
        table.add_row(
            _(N_("any call")), _percent(odds.any, tr), _percent(odds.any, tr), _one_in(odds.any, tr)
        )
        console.print(table)
        chosen = [odds for odds in turns if odds.wild == wild]
        if not chosen:
            continue
        samples = chosen[0].samples
        console.print(
            "[bold]"
            + escape(
                _(
                    N_(
                        "wild {wild}: able to call within t of one's own turns, in {percent} — Monte Carlo, "
                        "{samples} deals per column, Wilson {level} intervals"
                    ),
                    wild=wild,
                    samples=localized_digits(f"{samples:,}", tr),
                    percent="%",
                    level=tr.number(95) + "%",
                )
            )
            + "[/]"
        )
        table = Table(caption=_(N_("policy: {policy}"), policy=_(POLICY)), caption_justify="left")
        table.add_column(_(N_("turn t")), justify="right")
        for column in chosen:
            if column.paiute_any_turn:
                heading = _(N_("{n} players, Paiute any turn"), n=column.players)
            else:
                heading = _(N_("{n} players"), n=column.players)
            table.add_column(heading, justify="right")
        for turn in range(turn_count):
            table.add_row(
                tr.number(turn + 1),
                *(_percent(column.within[turn], tr, digits=2).replace("%", "") for column in chosen),
            )
        table.add_section()
        table.add_row(
            _(N_("dead (R4.7)")), *(_percent(column.dead, tr, digits=2).replace("%", "") for column in chosen)
        )
        for category in category_order(odds.royal_high):
            table.add_row(
                _(N_("could call first: {category}"), category=category),
                *(
                    _percent(column.completed_with[category], tr, digits=2).replace("%", "")
                    for column in chosen
                ),
            )
        console.print(table)
