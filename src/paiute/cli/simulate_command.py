"""``paiute simulate``: play many deals with bots and report the facts of the game."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from paiute.analysis.odds import category_order
from paiute.analysis.simulate import (
    Comparison,
    Difference,
    Estimate,
    Fact,
    SimulationConfig,
    SimulationReport,
    compare,
    compare_values,
    parse_bots,
    plot,
    require_sim_extra,
    simulate,
)
from paiute.cli.common import (
    add_rule_arguments,
    args_translator,
    check_output_dir,
    option_value_text,
    rule_options,
    stop_on_interrupt,
)
from paiute.errors import N_, PaiuteError
from paiute.i18n import Translator, localized_digits, translator
from paiute.parallel import BACKENDS, default_workers, ray_cluster
from paiute.rules import MAX_SEATS, MIN_PLAYERS, RuleSet

_EPILOG = N_("""\
Every deal is independent and seeded from (--seed, its index), its dealer is seat index mod
players, and every seat starts with no chips: the results are the same whatever --workers.
Rates come with Wilson {level} intervals, means with normal {level} intervals. A seat's chip edge
counts an equal share of a pot left by a dead deal (R8.5), so the edges of a deal add up to 0.
Position 1 is the dealer's left (plays first), the last position is the dealer.

--compare OPTION runs the same seeds once for each value of the option (true/false options:
off and on; choices: every choice; numbers: give them, --compare max_rebuilds=1,3,10) and
reports every fact for each value and its difference from the first (the rules' own value),
deal by deal over the same shuffles where the fact applies to every deal.

Ctrl-C stops the run and reports the deals that finished (exit status 130).

bots: one spec for every seat, or one per seat, comma-separated: random, greedy,
"ismcts:iterations=200,seed=3" (a key=value after a comma belongs to the spec before it).

examples:
  paiute simulate --deals 2000 --players 4 --workers 4
  paiute simulate --deals 500 --bots greedy,random,random --json > facts.json
  paiute simulate --deals 1000 --compare royal_high --plot charts/
  paiute simulate --preset gamerules --option max_rebuilds=1 --deals 300
""")


# The spread of deal lengths, one whole message per unit (``Report.lengths`` keys).
_LENGTH_SPREADS = {
    "actions": N_("deal length (actions): median [10%, 90%]"),
    "turns": N_("deal length (turns): median [10%, 90%]"),
}


def register(commands: Any, tr: Translator | None = None) -> None:
    tr = tr or translator()
    _ = tr.gettext
    parser = commands.add_parser(
        "simulate",
        help=_(N_("play many deals with bots and report the facts of the game")),
        description=_(
            N_(
                "Play many deals with bots and report deal length, dead deals (R4.7), each "
                "position's and seat's chip edge, how often each combination is called and wins, how "
                "often the first caller is overtaken in the last round, and the effect of an option."
            )
        ),
        epilog=_(_EPILOG, level=tr.number(95) + "%"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--deals", type=int, default=500, metavar="N", help=_(N_("deals to play (default 500)"))
    )
    parser.add_argument(
        "--players", type=int, default=4, metavar="K", help=_(N_("players at the table (default 4)"))
    )
    parser.add_argument(
        "--bots",
        action="append",
        default=[],
        metavar=_(N_("SPEC[,SPEC...]")),
        help=_(N_("bot for every seat, or one per seat (default random)")),
    )
    parser.add_argument(
        "--seed", type=int, default=0, metavar=_(N_("SEED")), help=_(N_("seed of the run (default 0)"))
    )
    add_rule_arguments(parser, tr)
    parser.add_argument(
        "--compare",
        metavar=_(N_("OPTION[=V1,V2...]")),
        help=_(N_("run each value of an option on the same seeds")),
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=0,
        metavar="W",
        help=_(N_("worker processes, or Ray tasks in flight (default 0: one per CPU; 1: in this process)")),
    )
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="local",
        help=_(N_("local processes (default) or a Ray cluster")),
    )
    parser.add_argument(
        "--address", metavar=_(N_("ADDR")), help=_(N_("the Ray cluster to use (with --backend ray)"))
    )
    parser.add_argument("--json", action="store_true", help=_(N_("print the results as one JSON object")))
    parser.add_argument(
        "--plot", metavar=_(N_("DIR")), help=_(N_("write PNG charts into DIR (needs matplotlib)"))
    )
    parser.add_argument("--quiet", action="store_true", help=_(N_("no progress bar")))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    tr = args_translator(args)
    options = rule_options(args)
    rules = RuleSet.from_preset(args.preset, **options)
    if not MIN_PLAYERS <= args.players <= MAX_SEATS:
        raise PaiuteError(
            N_("R2.1 {count} players: {low} to {high} (6 or more: max_players)"),
            count=args.players,
            low=MIN_PLAYERS,
            high=MAX_SEATS,
        )
    if args.players > rules.max_players and "max_players" not in options:
        rules = rules.replace(max_players=args.players)  # R2.1: the table asked for is allowed
    if args.deals < 1:
        raise PaiuteError(N_("--deals must be at least 1, not {n}"), n=args.deals)
    if args.workers < 0:
        raise PaiuteError(N_("--workers must be at least 1 (0: one per CPU), not {n}"), n=args.workers)
    if args.address is not None and args.backend != "ray":
        raise PaiuteError(N_("--address needs --backend ray"))
    workers = args.workers or default_workers()
    where = {"backend": args.backend, "address": args.address}
    bots = parse_bots(args.bots, args.players)
    config = SimulationConfig(rules, args.players, bots, args.seed)
    comparison: tuple[str, tuple[object, ...]] | None = None
    if args.compare:
        comparison = compare_values(rules, args.compare)
        for value in comparison[1]:
            SimulationConfig(rules.replace(**{comparison[0]: value}), args.players, bots, args.seed)
    if not args.json:
        require_sim_extra("rich", "paiute simulate")
    if args.plot:
        require_sim_extra("matplotlib", "--plot")
        check_output_dir(args.plot)  # before the run, not after its report
    total = args.deals * (len(comparison[1]) if comparison else 1)
    started = time.perf_counter()
    result: SimulationReport | Comparison
    with (
        _backend(args.backend, args.address, workers, tr),
        _progress(total, quiet=args.quiet) as advance,
        stop_on_interrupt() as stop,
    ):
        if comparison is None:
            result = simulate(
                config, args.deals, workers=workers, progress=advance, stop=stop.is_set, **where
            )
        else:
            result = compare(
                config,
                comparison[0],
                comparison[1],
                args.deals,
                workers=workers,
                progress=advance,
                stop=stop.is_set,
                **where,
            )
    elapsed = time.perf_counter() - started
    interrupted = result.interrupted
    if args.json:
        data = {"command": "simulate", **result.to_json()}
        print(json.dumps(data))
    elif isinstance(result, Comparison):
        _print_comparison(result, elapsed, tr)
    else:
        _print_report(result, elapsed, tr)
    if args.plot:
        paths = plot(result, args.plot)
        print(
            tr.ngettext(
                "wrote {n} chart: {paths}",
                "wrote {n} charts: {paths}",
                len(paths),
                paths=", ".join(str(path) for path in paths),
            ),
            file=sys.stderr,
        )
    return 130 if interrupted else 0


@contextmanager
def _backend(backend: str, address: str | None, workers: int, tr: Translator) -> Iterator[None]:
    """With --backend ray: the cluster joined (--address) or a private local one, said on
    standard error, for the whole run."""
    if backend != "ray":
        yield
        return
    with ray_cluster(address, workers) as where:
        print(tr.message(where), file=sys.stderr)
        yield


@contextmanager
def _progress(total: int, *, quiet: bool) -> Iterator[Callable[[int], None] | None]:
    """A rich progress bar with ETA on standard error, when it is a terminal."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    try:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
    except ImportError:
        yield None
        return
    columns = (
        TextColumn("deals"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("deals", total=total)

        def advance(count: int) -> None:
            progress.advance(task, count)

        yield advance


# -- text output ------------------------------------------------------------------------------


def _console() -> Any:
    from rich.console import Console

    return Console(width=None if sys.stdout.isatty() else 120, highlight=False)


def _show(fact: Fact, estimate: Estimate, tr: Translator, *, interval: bool = True) -> str:
    if estimate.value is None:
        return "-"
    if fact.kind == "rate":
        text = f"{100 * estimate.value:.1f}%"
        if interval and estimate.low is not None and estimate.high is not None:
            text += f" [{100 * estimate.low:.1f}, {100 * estimate.high:.1f}]"
        return localized_digits(text, tr)
    signed = fact.unit == "chips"
    text = f"{estimate.value:+.3f}" if signed else f"{estimate.value:.2f}"
    if interval and estimate.low is not None and estimate.high is not None:
        text += (
            f" [{estimate.low:+.3f}, {estimate.high:+.3f}]"
            if signed
            else f" [{estimate.low:.2f}, {estimate.high:.2f}]"
        )
    return localized_digits(text, tr)


def _show_difference(fact: Fact, diff: Difference | None, tr: Translator) -> str:
    if diff is None or diff.difference is None:
        return "-"
    scale = 100.0 if fact.kind == "rate" else 1.0
    text = f"{scale * diff.difference:+.2f}"
    if diff.low is not None and diff.high is not None:
        text += f" [{scale * diff.low:+.2f}, {scale * diff.high:+.2f}]"
    if diff.low is not None and diff.high is not None and (diff.low > 0 or diff.high < 0):
        text += " *"
    return localized_digits(text, tr)


def _header(report: SimulationReport, elapsed: float, tr: Translator, option: str | None = None) -> str:
    from rich.markup import escape

    _ = tr.gettext
    config = report.config
    bots = ", ".join(f"{seat}: {bot}" for seat, bot in enumerate(config.bots))
    rate = report.completed / elapsed if elapsed > 0 else 0.0
    params = {
        "done": report.completed,
        "deals": report.requested,
        "players": config.players,
        "seed": str(config.seed),
        "rules": json.dumps(config.rules.to_dict()),  # machine-readable: as it is
    }
    if option is None:
        first = _(
            N_("paiute simulate: {done} of {deals} deals, {players} players, seed {seed}, rules {rules}"),
            **params,
        )
    else:
        first = _(
            N_(
                "paiute simulate --compare {option}: {done} of {deals} deals, {players} players, "
                "seed {seed}, rules {rules}"
            ),
            option=option,
            **params,
        )
    lines = [
        escape(first),
        escape(
            _(
                N_("bots: {bots}   ({seconds} s, {rate} deals/s)"),
                bots=bots,
                seconds=localized_digits(f"{elapsed:.1f}", tr),
                rate=localized_digits(f"{rate:.1f}", tr),
            )
        ),
    ]
    if report.interrupted:
        lines.append(
            "[bold red]"
            + escape(_(N_("interrupted:")))
            + "[/] "
            + escape(_(N_("the facts below are of the {n} deals that finished"), n=report.completed))
        )
    return "\n".join(lines)


def _print_report(report: SimulationReport, elapsed: float, tr: Translator) -> None:
    from rich.markup import escape
    from rich.table import Table

    _ = tr.gettext
    console = _console()
    console.print(_header(report, elapsed, tr))
    estimates = report.estimates()
    facts = {fact.key: fact for fact in report.facts}
    lengths = report.lengths()
    ci = _(N_("chip edge per deal [95% CI]"))
    wins_ci = _(N_("wins [95% CI]"))

    table = Table(title=_(N_("Deals")), title_justify="left")
    table.add_column(_(N_("fact")))
    table.add_column(escape(_(N_("value [95% CI]"))), justify="right")
    table.add_column("n", justify="right")
    for fact in report.facts:
        if fact.group == "deal":
            # The facts' own names come from paiute.analysis.simulate (English, as in --json).
            table.add_row(
                tr.message(fact.title), _show(fact, estimates[fact.key], tr), tr.number(estimates[fact.key].n)
            )
    for unit, spread in lengths.items():
        if spread:
            table.add_row(
                escape(_(_LENGTH_SPREADS[unit])),
                localized_digits(f"{spread['median']:g} [{spread['p10']:g}, {spread['p90']:g}]", tr),
                tr.number(report.completed),
            )
    console.print(table)

    table = Table(title=_(N_("Combinations (R5): share of deals")), title_justify="left")
    table.add_column(_(N_("category")))
    table.add_column(_(N_("called")), justify="right")
    table.add_column(_(N_("wins the deal")), justify="right")
    table.add_column(_(N_("wins when called")), justify="right")
    table.add_column(_(N_("calls")), justify="right")
    counts = report.counts()
    calls = counts["calls"]
    for category in category_order(report.config.rules.royal_high):
        name = category.value
        table.add_row(
            tr.category(category),
            *(
                _show(facts[f"{prefix}.{name}"], estimates[f"{prefix}.{name}"], tr)
                for prefix in ("called", "won", "won_when_called")
            ),
            tr.number(calls[name]),
        )
    console.print(table)

    table = Table(title=_(N_("Positions (1 = dealer's left, plays first)")), title_justify="left")
    table.add_column(_(N_("position")))
    table.add_column(escape(ci), justify="right")
    table.add_column(escape(wins_ci), justify="right")
    players = report.config.players
    for position in range(1, players + 1):
        if position == players:
            label = _(N_("{n} dealer"), n=position)
        elif position == 1:
            label = _(N_("{n} plays first"), n=position)
        else:
            label = tr.number(position)
        edge, wins = f"edge.position.{position}", f"win.position.{position}"
        table.add_row(label, _show(facts[edge], estimates[edge], tr), _show(facts[wins], estimates[wins], tr))
    console.print(table)

    table = Table(title=_(N_("Seats")), title_justify="left")
    table.add_column(_(N_("seat")))
    table.add_column(_(N_("bot")))
    table.add_column(escape(ci), justify="right")
    table.add_column(escape(wins_ci), justify="right")
    for seat in range(players):
        edge, wins = f"edge.seat.{seat}", f"win.seat.{seat}"
        table.add_row(
            tr.number(seat),
            report.config.bots[seat],
            _show(facts[edge], estimates[edge], tr),
            _show(facts[wins], estimates[wins], tr),
        )
    console.print(table)
    conserved = (
        escape(_(N_("yes"))) if report.chips_conserved() else "[bold red]" + escape(_(N_("NO"))) + "[/]"
    )
    line = _(
        N_(
            "dead deals {dead}, called deals {called}, rebuilds {rebuilds}; chips conserved in every deal (R8.6): "
        ),
        dead=counts["dead"],
        called=counts["called"],
        rebuilds=counts["rebuilds"],
    )
    console.print(escape(line) + conserved)


def _print_comparison(result: Comparison, elapsed: float, tr: Translator) -> None:
    from rich.markup import escape
    from rich.table import Table

    _ = tr.gettext
    console = _console()
    base = result.reports[0]
    console.print(_header(base, elapsed, tr, option=result.option))
    values = [option_value_text(value, tr) for value in result.values]
    estimates = [report.estimates() for report in result.reports]
    effects = result.effects()
    table = Table(
        title=escape(
            _(
                N_(
                    "Effect of {option}: each value, and its difference from {option}={value} "
                    "(rates in percentage points; * : the {level} interval excludes 0)"
                ),
                option=result.option,
                value=values[0],
                level=tr.number(95) + "%",
            )
        ),
        title_justify="left",
    )
    table.add_column(_(N_("fact")))
    for value in values:
        table.add_column(f"{result.option}={value}", justify="right")
    for value in values[1:]:
        table.add_column(escape(_(N_("Δ {value} [95% CI]"), value=value)), justify="right")
    group = None
    for fact in base.facts:
        if fact.group != group:
            if group is not None:
                table.add_section()
            group = fact.group
        cells = [
            _show(fact, estimate[fact.key], tr, interval=False) if fact.key in estimate else "-"
            for estimate in estimates
        ]
        cells += [_show_difference(fact, effect.get(fact.key), tr) for effect in effects]
        table.add_row(tr.message(fact.title), *cells)
    console.print(table)
    for value, report in zip(values, result.reports, strict=True):
        spread = report.lengths()["actions"]
        conserved = _(N_("yes")) if report.chips_conserved() else _(N_("NO"))
        median = localized_digits(f"{spread['median']:g}", tr) if spread else "-"
        console.print(
            escape(
                _(
                    N_(
                        "{option}={value}: {n} deals, median length {median} actions, "
                        "chips conserved (R8.6): {conserved}"
                    ),
                    option=result.option,
                    value=value,
                    n=report.completed,
                    median=median,
                    conserved=conserved,
                )
            )
        )
