"""Starting the full-screen tools without importing Textual until it is needed."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from typing import TextIO

from paiute.errors import N_, InputError, PaiuteError
from paiute.i18n import Translator, translator
from paiute.record import load
from paiute.tui.lesson import LESSON_DELAY

__all__ = ["full_screen_possible", "run_lesson", "run_watch"]


def run_watch(file: str, tr: Translator | None = None, *, match: int | None = None) -> int:
    """``paiute replay FILE --watch``: needs a terminal, Textual and a file (not standard input);
    ``match`` is the index, from 0, of the record in a file of JSON lines."""
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


def full_screen_possible() -> bool:
    """Standard input and output are a terminal and Textual is installed."""
    return sys.stdin.isatty() and sys.stdout.isatty() and importlib.util.find_spec("textual") is not None


def run_lesson(
    tr: Translator | None = None,
    *,
    plain: bool,
    delay: float | None = None,
    then_play: bool = False,
    offer: bool = False,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> str:
    """The lesson of ``paiute learn``, full screen or ``plain``; how it ended: ``"done"``,
    ``"left"``, or with ``offer`` (full screen) ``"play"`` or ``"quit"`` at the question."""
    tr = tr or translator()
    if plain:
        from paiute.tui.lesson_plain import PlainLesson

        stdin = stdin or sys.stdin
        stdout = stdout or sys.stdout
        # On a terminal long lines are wrapped between words; a pipe gets them whole.
        width = shutil.get_terminal_size().columns - 1 if stdout.isatty() else None
        lesson = PlainLesson(
            stdin,
            stdout,
            tr=tr,
            delay=0.0 if delay is None else delay,
            echo=not stdin.isatty(),
            width=None if width is None or width < 20 else width,
            then_play=then_play,
        )
        return lesson.run()
    from paiute.tui.lesson_app import LessonApp

    app = LessonApp(tr=tr, delay=LESSON_DELAY if delay is None else delay, offer=offer, then_play=then_play)
    return app.run() or "left"
