"""``paiute replay``: validate a ``paiute-record/1`` file and replay it deal by deal."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from paiute.cards import format_cards
from paiute.errors import RecordError
from paiute.record import Record, Replay, ReplayError, load

_EPILOG = """\
Each deal is re-created from the record's decks and rebuilt stocks, action by action. The
record is refused at the first action that breaks a rule (deal, action, text and rule ID) or
at the first malformed field. Exit status 0 for a valid record, 1 for an invalid one.

--json prints one object:
  {"ok": true, "deals": [{"dead": false, "callers": [{"seat": 1, "cards": [...], "value": VALUE,
    "first_turn": true}], "winners": [1], "balances": [...], "pot": 0}]}
  {"ok": false, "error": {"deal": 0, "action": 14, "text": "discard Ks", "rule": "R4.3", "message": "..."}}
  {"ok": false, "error": {"malformed": "what and where"}}

examples:
  paiute replay match.json
  paiute replay match.json --json | jq .deals[0].winners
  cat match.json | paiute replay -
  paiute replay match.json --watch              step through it in the terminal
"""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "replay",
        help="validate and replay a game record",
        description="Validate a paiute-record/1 game record and print, per deal, the callers, "
        "the winners, the balances and the pot.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", metavar="FILE", help="the record file, or - for standard input")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
    parser.add_argument(
        "--watch", action="store_true", help="step through the match in the terminal table of paiute play"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if getattr(args, "watch", False):
        from paiute.tui.launch import run_watch

        return run_watch(args.file)
    try:
        record = Record.loads(sys.stdin.buffer.read()) if args.file == "-" else load(args.file)
        replay = record.replay()
    except ReplayError as error:
        return _fail({"ok": False, "error": error.to_json()}, str(error), args.json)
    except RecordError as error:
        return _fail(
            {"ok": False, "error": {"malformed": str(error)}}, f"malformed record: {error}", args.json
        )
    if args.json:
        print(json.dumps(replay.to_json()))
    else:
        _print(record, replay)
    return 0


def _fail(data: dict[str, object], text: str, as_json: bool) -> int:
    if as_json:
        print(json.dumps(data))
    else:
        print(f"invalid record: {text}")
    return 1


def _print(record: Record, replay: Replay) -> None:
    names = record.players
    print(f"{len(names)} players ({', '.join(names)}), rules {json.dumps(record.rules.to_dict())}")
    print(f"before: balances {' '.join(map(str, record.balances))}, pot {record.pot}")
    for index, report in enumerate(replay.reports):
        state = "in progress" if not report.finished else ("dead (R4.7)" if report.dead else "")
        print(f"deal {index}: dealer {names[report.dealer]} (seat {report.dealer}) {state}".rstrip())
        for call in report.calls:
            turn = ", first turn" if call.first_turn else ""
            print(
                f"  seat {call.seat} {names[call.seat]} called {call.value}: {format_cards(call.shown)}{turn}"
            )
        if report.winners:
            winners = ", ".join(f"seat {seat} {names[seat]}" for seat in sorted(report.winners))
            print(f"  winner{'s' if len(report.winners) > 1 else ''}: {winners}")
        print(f"  balances {' '.join(map(str, report.balances))}, pot {report.pot}")
    print("record is valid")
