"""``paiute replay``: validate a ``paiute-record/1`` file and replay it deal by deal."""

from __future__ import annotations

import argparse
import json
from typing import Any

from paiute.cards import format_cards
from paiute.cli.common import add_record_arguments, match_index, read_record
from paiute.errors import N_, RecordError
from paiute.i18n import Translator, translator
from paiute.record import Record, Replay, ReplayError

_EPILOG = N_("""\
Each deal is re-created from the record's decks and rebuilt stocks, action by action. The
record is refused at the first move that breaks a rule (its deal and move, counted from 1, its
text and rule ID) or at the first malformed field. Exit status 0 for a valid record, 1 for an
invalid one.

--json prints one object ("deal" and "action" are the record's indexes, from 0):
  {"ok": true, "deals": [{"dead": false, "callers": [{"seat": 1, "cards": [...], "value": VALUE,
    "first_turn": true}], "winners": [1], "balances": [...], "pot": 0}]}
  {"ok": false, "error": {"deal": 0, "action": 14, "text": "discard Ks", "rule": "R4.3", "message": "..."}}
  {"ok": false, "error": {"malformed": "what and where"}}

examples:
  paiute replay match.json
  paiute replay match.json --json | jq .deals[0].winners
  cat match.json | paiute replay -
  paiute replay match.json --watch              step through it in the terminal
""")
_EPILOG_INPUT = N_("""\
Exit status 2 for a usage error: a missing file, a directory, JSON lines without --match. A
file of JSON lines (paiute tournament --records) holds one record a line: --match K reads
line K, from 1. A record input is at most 16 MiB, nested at most 32 levels, with numbers of
at most 24 digits; a file over the size is refused before it is read.
  paiute replay games.jsonl --match 3           the third record of a JSON-lines file
""")


def register(commands: Any, tr: Translator | None = None) -> None:
    _ = (tr or translator()).gettext
    parser = commands.add_parser(
        "replay",
        help=_(N_("validate and replay a game record")),
        description=_(
            N_(
                "Validate a paiute-record/1 game record and print, per deal, the callers, "
                "the winners, the balances and the pot."
            )
        ),
        epilog=_(_EPILOG) + "\n" + _(_EPILOG_INPUT),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_record_arguments(parser, tr)
    parser.add_argument("--json", action="store_true", help=_(N_("print the result as one JSON object")))
    parser.add_argument(
        "--watch",
        action="store_true",
        help=_(N_("step through the match in the terminal table of paiute play")),
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if getattr(args, "watch", False):
        from paiute.tui.launch import run_watch

        return run_watch(args.file, getattr(args, "translator", None), match=match_index(args.match))
    tr: Translator = getattr(args, "translator", None) or translator()
    loaded = load_replayed(args, tr)
    if isinstance(loaded, int):
        return loaded
    record, replay = loaded
    if args.json:
        print(json.dumps(replay.to_json()))
    else:
        _print(record, replay, tr)
    return 0


def load_replayed(args: argparse.Namespace, tr: Translator) -> tuple[Record, Replay] | int:
    """The record ``args.file`` names (``-``: standard input), replayed; or, for a malformed
    or broken record, the exit status 1 after refusing it in one line (``--json``: one object).

    ``paiute review`` loads its records here too, so both refuse a record in the same words.
    """
    try:
        record = read_record(args.file, args.match)
        replay = record.replay()
    except ReplayError as error:
        return _fail({"ok": False, "error": error.to_json()}, tr.explain(error), args.json, tr)
    except RecordError as error:
        text = tr.gettext(N_("malformed record: {message}"), message=tr.explain(error))
        return _fail({"ok": False, "error": {"malformed": str(error)}}, text, args.json, tr)
    return record, replay


def _fail(data: dict[str, object], text: str, as_json: bool, tr: Translator) -> int:
    if as_json:  # machine-readable: never translated
        print(json.dumps(data))
    else:
        print(tr.gettext(N_("invalid record: {message}"), message=text))
    return 1


def _print(record: Record, replay: Replay, tr: Translator) -> None:
    _ = tr.gettext
    names = record.players
    print(
        tr.ngettext(
            "{n} player ({names}), rules {rules}",
            "{n} players ({names}), rules {rules}",
            len(names),
            names=", ".join(names),
            rules=json.dumps(record.rules.to_dict()),
        )
    )
    print(_(N_("before: balances {balances}, pot {pot}"), balances=record.balances, pot=record.pot))
    for index, report in enumerate(replay.reports):
        # People count deals from 1 (as `paiute play` does); --json keeps the 0-based index.
        dealer = {"deal": index + 1, "name": names[report.dealer], "seat": report.dealer}
        if not report.finished:
            print(_(N_("deal {deal}: dealer {name} (seat {seat}) in progress"), **dealer))
        elif report.dead:
            print(_(N_("deal {deal}: dealer {name} (seat {seat}) dead (R4.7)"), **dealer))
        else:
            print(_(N_("deal {deal}: dealer {name} (seat {seat})"), **dealer))
        for call in report.calls:
            template = (
                N_("  seat {seat} {name} called {value}: {cards}, first turn")
                if call.first_turn
                else N_("  seat {seat} {name} called {value}: {cards}")
            )
            # The shown cards stay in canonical text (as records write them) in every language.
            print(
                _(
                    template,
                    seat=call.seat,
                    name=names[call.seat],
                    value=call.value,
                    cards=format_cards(call.shown),
                )
            )
        if report.winners:
            winners = ", ".join(
                _(N_("seat {seat} {name}"), seat=seat, name=names[seat]) for seat in sorted(report.winners)
            )
            print(
                tr.ngettext(
                    "  winner: {winners}", "  winners: {winners}", len(report.winners), winners=winners
                )
            )
        print(_(N_("  balances {balances}, pot {pot}"), balances=report.balances, pot=report.pot))
    print(_(N_("record is valid")))
