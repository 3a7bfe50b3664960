"""Starting the full-screen tools without importing Textual until it is needed."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from paiute.errors import N_, InputError, PaiuteError
from paiute.i18n import Translator, translator
from paiute.record import load

__all__ = ["run_watch"]


def run_watch(file: str, tr: Translator | None = None, *, match: int | None = None) -> int:
    """``paiute replay FILE --watch``: needs a terminal, Textual and a file (not standard input)."""
    tr = tr or translator()
    if file == "-":
        raise PaiuteError(N_("--watch reads the record from a file, not from standard input"))
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(
            tr.gettext(
                N_(
                    "paiute replay: --watch needs a terminal (standard input and output are not one); "
                    "without --watch the record is checked and summarised as text"
                )
            ),
            file=sys.stderr,
        )
        return 2
    if importlib.util.find_spec("textual") is None:
        raise PaiuteError(N_("--watch needs Textual: pip install 'paiute[tui]'"))
    from paiute.tui.watch import WatchApp

    try:
        app = WatchApp(load(Path(file), match=match), tr=tr)
    except InputError:  # a missing file, a directory, no --match: a usage error (exit 2)
        raise
    except PaiuteError as error:  # a malformed record, or an action that breaks a rule
        print(tr.gettext(N_("invalid record: {error}"), error=tr.explain(error)))
        return 1
    status = app.run()
    return 0 if status is None else status
