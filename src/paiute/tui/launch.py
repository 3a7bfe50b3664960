"""Starting the full-screen tools without importing Textual until it is needed."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from paiute.errors import PaiuteError
from paiute.record import load

__all__ = ["run_watch"]


def run_watch(file: str) -> int:
    """``paiute replay FILE --watch``: needs a terminal, Textual and a file (not standard input)."""
    if file == "-":
        raise PaiuteError("--watch reads the record from a file, not from standard input")
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(
            "paiute replay: --watch needs a terminal (standard input and output are not one); "
            "without --watch the record is checked and summarised as text",
            file=sys.stderr,
        )
        return 2
    if importlib.util.find_spec("textual") is None:
        raise PaiuteError("--watch needs Textual: pip install 'paiute[tui]'")
    from paiute.tui.watch import WatchApp

    try:
        app = WatchApp(load(Path(file)))
    except PaiuteError as error:  # a malformed record, or an action that breaks a rule
        print(f"invalid record: {error}")
        return 1
    status = app.run()
    return 0 if status is None else status
