"""``paiute verify``: check the fair-deal proofs (R10.2) of a ``paiute-record/1`` file."""

from __future__ import annotations

import argparse
import json
from typing import Any

from paiute.cli.common import add_record_arguments, read_record
from paiute.errors import N_, RecordError
from paiute.fairness import verify_record
from paiute.i18n import Translator, translator
from paiute.record import ReplayError

_EPILOG = N_("""\
A server game commits to each shuffled pack before the cut and to each rebuilt stock, and
reveals the orders and salts when the deal ends (R10.2). This command replays the record (it
must be valid: see paiute replay) and checks, for every deal, that the deck dealt is the
committed order cut at the recorded point and that every rebuilt stock matches its
commitment. Exit status 0 when every deal is verified, 1 otherwise.

--json prints one object:
  {"ok": true, "deals": [{"deal": 0, "verified": true, "problems": []}]}

examples:
  paiute verify match.json
  curl -s http://127.0.0.1:8000/api/tables/ID/record | paiute verify -
""")
_EPILOG_PROOFS = N_("""\
Only games dealt by paiute serve carry these proofs. A record of paiute play or paiute
tournament has none: verify says so and exits 1, as git verify-commit does for an unsigned
commit (nothing was verified); --json then gives "proofs": false. Exit status 2 for a usage
error (a missing file, JSON lines without --match).
""")


def register(commands: Any, tr: Translator | None = None) -> None:
    _ = (tr or translator()).gettext
    parser = commands.add_parser(
        "verify",
        help=_(N_("check the fair-deal proofs of a game record (R10.2)")),
        description=_(
            N_(
                "Check that every deal of a paiute-record/1 file followed from its committed "
                "shuffle, the cut and the committed stock rebuilds."
            )
        ),
        epilog=_(_EPILOG) + "\n" + _(_EPILOG_PROOFS),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_record_arguments(parser, tr)
    parser.add_argument("--json", action="store_true", help=_(N_("print the result as one JSON object")))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    tr: Translator = getattr(args, "translator", None) or translator()
    _ = tr.gettext
    try:
        record = read_record(args.file, args.match)
        record.replay()
    except (ReplayError, RecordError) as error:
        if args.json:
            print(json.dumps({"ok": False, "error": str(error)}))
        else:
            print(_(N_("invalid record: {message}"), message=tr.explain(error)))
        return 1
    results = verify_record(record)
    proofs = any(deal.commitment is not None for deal in record.deals)
    ok = bool(results) and all(not problems for _, problems in results)
    if args.json:
        deals = [{"deal": i, "verified": not problems, "problems": problems} for i, problems in results]
        print(json.dumps({"ok": ok, "proofs": proofs, "deals": deals}))
        return 0 if ok else 1
    if results and not proofs:
        print(
            tr.ngettext(
                "nothing to verify: the record's {n} deal carries no fair-deal proof. Only games dealt by "
                "paiute serve commit to their shuffles (R10.2); a game of paiute play or paiute tournament "
                "has none. paiute replay checks that it follows the rules.",
                "nothing to verify: none of the record's {n} deals carries a fair-deal proof. Only games "
                "dealt by paiute serve commit to their shuffles (R10.2); a game of paiute play or paiute "
                "tournament has none. paiute replay checks that it follows the rules.",
                len(results),
            )
        )
        return 1
    if not results:
        print(_(N_("the record has no deals to verify")))
    for index, problems in results:
        deal = record.deals[index]
        number = index + 1  # people count deals from 1 (as `paiute play` does); --json from 0
        if problems:
            print(_(N_("deal {deal}: NOT verified"), deal=number))
            for problem in problems:
                # paiute.fairness keeps each problem's template: English in --json, translated here.
                message_id = getattr(problem, "message_id", problem)
                print("  " + tr.gettext(message_id, **getattr(problem, "params", {})))
        else:
            assert deal.commitment is not None
            count = len(deal.rebuilds)
            cut = deal.commitment["cut"]
            if count:
                print(
                    tr.ngettext(
                        "deal {deal}: verified (the committed order cut at {cut}, {n} rebuilt stock verified)",
                        "deal {deal}: verified (the committed order cut at {cut}, {n} rebuilt stocks verified)",
                        count,
                        deal=number,
                        cut=cut,
                    )
                )
            else:
                print(_(N_("deal {deal}: verified (the committed order cut at {cut})"), deal=number, cut=cut))
    return 0 if ok else 1
