"""``paiute odds``: how likely each combination is after the first draw and within N turns."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from paiute.errors import PaiuteError
from paiute.odds import (
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
from paiute.rules import MAX_SEATS, MIN_PLAYERS
from paiute.simulate import require_sim_extra

_EPILOG = """\
After the first draw: the six cards a player holds after its first draw (five dealt, one drawn
from the stock) are six cards taken at random from the cards it has not seen. The number of
players does not change this. With --wild any, three wild cards are left among 51 unseen cards
(the upcard is the fourth, R3.1); with opposite, two (R3.3); with jokers, two among 54 (R3.2).
"available": the six cards can show that combination; "best": it is their best call.
Exact figures count all C(51,6) = 18,009,460 (C(54,6) = 25,827,165 with jokers) holdings
by rank pattern and suit, averaged over the 13 upcard ranks; --monte-carlo samples instead.

Within N turns (Monte Carlo, Wilson 95% intervals): the chance that a player at the dealer's
left has been able to call by its t-th turn, drawing from the stock and keeping the five cards
closest to a combination, while the other players draw from the stock and discard what they
drew: the player count acts through the stock, its rebuilds (R4.6) and dead deals (R4.7).
A Paiute counts only on the first turn (R5.7) unless there are 6 or more players (R2.1).

examples:
  paiute odds
  paiute odds --wild all --players 2,4,6 --turns 8
  paiute odds --wild jokers --monte-carlo --samples 200000 --json
"""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "odds",
        help="odds of each combination after the first draw and within N turns",
        description="Probabilities of holding each winning combination (R5) after the first draw, "
        "exact by counting or by Monte Carlo, and of having been able to call within N turns, per "
        "player count and wild-card option.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--players", default="4", metavar="K[,K...]", help="player count(s) for the turns figures (default 4)"
    )
    parser.add_argument(
        "--wild",
        default="any",
        metavar="OPTION[,...]",
        help="wild cards: any, opposite, jokers, a comma list, or all (default any)",
    )
    parser.add_argument(
        "--turns", type=int, default=10, metavar="N", help="turns for the within-N-turns figures (0: none)"
    )
    method = parser.add_mutually_exclusive_group()
    method.add_argument(
        "--exact", action="store_true", help="exact first-draw odds by counting (the default)"
    )
    method.add_argument("--monte-carlo", action="store_true", help="estimate the first-draw odds by sampling")
    parser.add_argument(
        "--samples",
        type=int,
        default=20_000,
        metavar="S",
        help="Monte Carlo samples per figure (default 20000)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the Monte Carlo samples (default 0)")
    parser.add_argument("--royal-high", action="store_true", help="Royal Flush above Five of a Kind (R5.8)")
    parser.add_argument("--json", action="store_true", help="print the results as one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=run)


def _parse_wild(text: str) -> list[str]:
    if text.strip().lower() == "all":
        return list(WILD_OPTIONS)
    options = [part.strip().lower() for part in text.split(",") if part.strip()]
    for option in options:
        if option not in WILD_OPTIONS:
            raise PaiuteError(f"unknown wild option {option!r}: one of {', '.join(WILD_OPTIONS)}, or all")
    if not options:
        raise PaiuteError("--wild: give any, opposite, jokers or all")
    return list(dict.fromkeys(options))


def _parse_players(text: str) -> list[int]:
    counts = []
    for part in (piece.strip() for piece in text.split(",")):
        if not part:
            continue
        try:
            count = int(part)
        except ValueError:
            raise PaiuteError(f"--players: {part!r} is not a number") from None
        if not MIN_PLAYERS <= count <= MAX_SEATS:
            raise PaiuteError(f"R2.1 {count} players: {MIN_PLAYERS} to {MAX_SEATS} (6 or more: max_players)")
        counts.append(count)
    if not counts:
        raise PaiuteError("--players: give a player count")
    return list(dict.fromkeys(counts))


def run(args: argparse.Namespace) -> int:
    wilds = _parse_wild(args.wild)
    players = _parse_players(args.players)
    if args.turns < 0:
        raise PaiuteError(f"--turns must not be negative, not {args.turns}")
    if args.samples < 1:
        raise PaiuteError(f"--samples must be at least 1, not {args.samples}")
    if not args.json:
        require_sim_extra("rich", "paiute odds")
    first: list[FirstDrawOdds] = []
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
    for note in notes:
        print(note)
    _print(first, turns, args.turns)
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


def _percent(p: Probability, *, digits: int = 4) -> str:
    text = f"{100 * p.value:.{digits}f}%"
    if not p.exact:
        low, high = p.interval
        text += f" [{100 * low:.{digits}f}, {100 * high:.{digits}f}]"
    return text


def _one_in(p: Probability) -> str:
    return f"1 in {1 / p.value:,.0f}" if p.value > 0 else "-"


def _print(first: list[FirstDrawOdds], turns: list[TurnsOdds], turn_count: int) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=None if sys.stdout.isatty() else 120, highlight=False)
    for odds in first:
        wild = odds.wild
        if odds.method == "exact":
            how = f"exact: all C({odds.unseen},6) = {odds.holdings:,} holdings counted" + (
                f", averaged over the {odds.settings} upcard ranks" if odds.settings > 1 else ""
            )
        else:
            how = f"Monte Carlo: {odds.samples:,} samples, seed {odds.seed}, Wilson 95% intervals"
        console.print(
            f"[bold]wild {wild}[/]: the six cards held after the first draw ({odds.wild_left} wild cards "
            f"among {odds.unseen} unseen) — {how}; the player count does not change these odds"
        )
        table = Table()
        table.add_column("combination")
        table.add_column("available", justify="right")
        table.add_column("best call", justify="right")
        table.add_column("best, 1 in", justify="right")
        for category in category_order(odds.royal_high):
            best = odds.best[category]
            table.add_row(category.title, _percent(odds.available[category]), _percent(best), _one_in(best))
        table.add_section()
        table.add_row("any call", _percent(odds.any), _percent(odds.any), _one_in(odds.any))
        console.print(table)
        chosen = [odds for odds in turns if odds.wild == wild]
        if not chosen:
            continue
        samples = chosen[0].samples
        console.print(
            f"[bold]wild {wild}[/]: able to call within t of one's own turns, in % — Monte Carlo, "
            f"{samples:,} deals per column, Wilson 95% intervals"
        )
        table = Table(caption=f"policy: {POLICY}", caption_justify="left")
        table.add_column("turn t", justify="right")
        for column in chosen:
            anyturn = ", Paiute any turn" if column.paiute_any_turn else ""
            table.add_column(f"{column.players} players{anyturn}", justify="right")
        for turn in range(turn_count):
            table.add_row(
                str(turn + 1),
                *(_percent(column.within[turn], digits=2).replace("%", "") for column in chosen),
            )
        table.add_section()
        table.add_row("dead (R4.7)", *(_percent(column.dead, digits=2).replace("%", "") for column in chosen))
        for category in category_order(odds.royal_high):
            table.add_row(
                f"could call first: {category.title}",
                *(_percent(column.completed_with[category], digits=2).replace("%", "") for column in chosen),
            )
        console.print(table)
