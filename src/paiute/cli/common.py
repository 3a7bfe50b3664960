"""Arguments shared by several commands: the rule set (--preset, --option), the record a
command reads (FILE or -, --match) and the paths it writes (checked before any work)."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from paiute.errors import N_, InputError
from paiute.i18n import Translator, translator
from paiute.record import Record
from paiute.record_file import MAX_RECORD_BYTES, read_bytes, read_stream
from paiute.rules import PRESETS, RuleSet

__all__ = [
    "ARGPARSE_MESSAGES",
    "READERS",
    "add_record_arguments",
    "add_rule_arguments",
    "argparse_language",
    "check_output_dir",
    "check_output_file",
    "deal_number_problem",
    "match_index",
    "non_negative_seconds",
    "option_value_text",
    "read_record",
    "rule_options",
    "rules_from_arguments",
    "stop_on_interrupt",
]


def add_rule_arguments(parser: argparse.ArgumentParser, tr: Translator | None = None) -> None:
    """``--preset NAME`` and repeatable ``--option NAME=VALUE`` (every option of RULES.md)."""
    _ = (tr or translator()).gettext
    parser.add_argument(
        "--preset", default="pagat", choices=sorted(PRESETS), help=_(N_("preset (default pagat)"))
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar=_(N_("NAME=VALUE")),
        help=_(N_("change a rule option (repeatable), e.g. royal_high=on, stake=5, payout=scale")),
    )


def rule_options(args: argparse.Namespace) -> dict[str, object]:
    """The options given with ``--option``, parsed and checked."""
    return dict(RuleSet.parse_option(text) for text in args.option)


def rules_from_arguments(args: argparse.Namespace) -> RuleSet:
    """The rule set that ``--preset`` and ``--option`` describe (refused with a clear error)."""
    return RuleSet.from_preset(args.preset, **rule_options(args))


# -- languages (paiute.i18n) -------------------------------------------------------------------

#: argparse's own words, put in paiute's catalogues (argparse looks them up with gettext).
ARGPARSE_MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
)


@contextlib.contextmanager
def argparse_language(tr: Translator) -> Iterator[None]:
    """Let argparse's own words ("usage:", "options", its errors) come from ``tr`` meanwhile.

    argparse calls the module-level ``gettext``/``ngettext`` it imported; they are swapped for
    the translator's and put back afterwards, so nothing else in the process is affected.
    """
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._ = tr.gettext  # type: ignore[attr-defined]
    argparse.ngettext = lambda singular, plural, n: tr.ngettext(singular, plural, n, n=n)  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]


def option_value_text(value: object, tr: Translator) -> str:
    """A rule option's value for people: off/on (never False/True), numbers in the language."""
    if isinstance(value, bool):
        return tr.pgettext("option value", "on") if value else tr.pgettext("option value", "off")
    if isinstance(value, int):
        return tr.number(value)
    return str(value)


def args_translator(args: argparse.Namespace) -> Translator:
    """The translator ``paiute`` chose for this run (``--lang``, ``PAIUTE_LANG``, the locale)."""
    found = getattr(args, "translator", None)
    return found if isinstance(found, Translator) else translator()


# -- the record a command reads -----------------------------------------------------------------

#: Every command that reads a record with :func:`read_record` (the hostile-input suite of
#: ``tests/fuzz`` runs each of them): its words before the FILE argument.
READERS: tuple[tuple[str, ...], ...] = (
    ("replay",),
    ("replay", "--json"),
    ("verify",),
    ("verify", "--json"),
    ("hint", "--deal", "1", "--move", "1"),
    ("hint", "--deal", "1", "--move", "1", "--json"),
    ("review", "--playouts", "1"),
    ("review", "--playouts", "1", "--json"),
)


def add_record_arguments(parser: argparse.ArgumentParser, tr: Translator | None = None) -> None:
    """``FILE`` (or ``-``) and ``--match K`` for a command that reads one record."""
    _ = (tr or translator()).gettext
    parser.add_argument(
        "file",
        metavar=_(N_("FILE")),
        help=_(
            N_(
                "the record file, or - for standard input: one paiute-record/1 record, or JSON lines "
                "of several (at most {size} MiB)"
            ),
            size=MAX_RECORD_BYTES >> 20,
        ),
    )
    parser.add_argument(
        "--match",
        type=_match_number(tr or translator()),
        metavar="K",
        help=_(
            N_("the record on line K of a JSON-lines file such as paiute tournament --records writes, from 1")
        ),
    )


def _match_number(tr: Translator) -> Callable[[str], int]:
    """``--match K`` as typed, from 1; 0 and a K past the file's records are refused once the
    file is read, in one line naming the records there (:func:`match_index`)."""

    def number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = -1
        if value < 0 or len(text) > 12:
            raise argparse.ArgumentTypeError(
                tr.gettext(N_("expected a match number (1 is the first), got {text!r}"), text=text)
            )
        return value

    return number


def match_index(number: int | None) -> int | None:
    """The index, from 0, of the record ``--match number`` names (people count from 1); 0 gives
    -1, which :func:`paiute.record_file.select_json` refuses naming the numbers there.

    >>> match_index(1), match_index(None)
    (0, None)
    """
    return None if number is None else number - 1


def read_record(file: str, match: int | None = None) -> Record:
    """The record a command was given: FILE or ``-`` (standard input), ``--match K`` of JSON
    lines (``match`` is K, from 1); every limit of :mod:`paiute.record_file` holds.

    A malformed record raises :class:`~paiute.errors.RecordError` (exit status 1); a file that
    cannot be read as asked, :class:`~paiute.errors.InputError` (a usage error, 2).
    """
    index = match_index(match)
    if file == "-":
        data = read_stream(sys.stdin.buffer, MAX_RECORD_BYTES, "-")
        return Record.select(data, match=index, source="-")
    return Record.select(read_bytes(file), match=index, source=file)


def deal_number_problem(option: str, number: int, deals: int, tr: Translator) -> str | None:
    """Why ``option number`` names no deal of a record of ``deals`` deals, in one line in
    ``tr``'s language; None when it names one. People count deals from 1, in every command's
    words and options (``--json`` keeps the record's indexes, from 0).

    >>> deal_number_problem("--deal", 6, 5, translator("en"))
    '--deal 6: this record has 5 deals: choose 1 to 5'
    >>> deal_number_problem("--deal", 1, 5, translator("en")) is None
    True
    """
    if 1 <= number <= deals:
        return None
    if deals == 0:
        return tr.gettext(N_("{option} {number}: this record has no deals"), option=option, number=number)
    return tr.ngettext(
        "{option} {number}: this record has {n} deal: choose {first}",
        "{option} {number}: this record has {n} deals: choose {first} to {n}",
        deals,
        option=option,
        number=number,
        first=1,
    )


# -- the paths a command writes -------------------------------------------------------------------


def check_output_file(path: str | os.PathLike[str]) -> Path:
    """Refuse, before any work, a file that cannot be written: its folder missing (never made
    silently), not a folder, or not writable; the file itself a folder."""
    target = Path(path)
    if target.is_dir():
        raise InputError(N_("cannot write {path!r}: it is a directory"), path=str(target))
    _probe(target.parent, str(target))
    return target


def check_output_dir(path: str | os.PathLike[str], *, parents: bool = False) -> Path:
    """Refuse, before any work, a folder that cannot be written into. A missing folder is made
    when its parent exists (``parents``: its missing parents too, for a default location)."""
    target = Path(path)
    try:
        target.mkdir(parents=parents, exist_ok=True)
    except FileNotFoundError:
        raise InputError(
            N_("cannot write into {path!r}: its parent folder does not exist"), path=str(target)
        ) from None
    except OSError as error:
        raise InputError(
            N_("cannot write into {path!r}: {error}"), path=str(target), error=error.strerror
        ) from None
    _probe(target, str(target))
    return target


def _probe(folder: Path, shown: str) -> None:
    """Create and remove a file in ``folder``: the only test that holds for root, read-only
    mounts and ``/proc`` alike."""
    if not folder.exists():
        raise InputError(
            N_("cannot write {path!r}: the folder {folder!r} does not exist"), path=shown, folder=str(folder)
        )
    if not folder.is_dir():
        raise InputError(
            N_("cannot write {path!r}: {folder!r} is not a folder"), path=shown, folder=str(folder)
        )
    try:
        handle, name = tempfile.mkstemp(dir=folder, prefix=".paiute-probe-")
    except OSError as error:
        raise InputError(N_("cannot write {path!r}: {error}"), path=shown, error=error.strerror) from None
    os.close(handle)
    with contextlib.suppress(OSError):
        os.unlink(name)


def non_negative_seconds(tr: Translator, most: int = 60) -> Callable[[str], float]:
    """The type of a pause in seconds: a number from 0 to ``most`` (a usage error otherwise)."""

    def seconds(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = -1.0
        if not 0.0 <= value <= most:  # also refuses nan and inf
            raise argparse.ArgumentTypeError(
                tr.gettext(N_("expected seconds from 0 to {most}, got {text!r}"), most=int(most), text=text)
            )
        return value

    return seconds


# -- interrupting a long run ----------------------------------------------------------------------


@contextlib.contextmanager
def stop_on_interrupt() -> Iterator[threading.Event]:
    """A flag that SIGINT sets, meanwhile, instead of raising KeyboardInterrupt wherever the
    main thread happens to be (inside concurrent.futures, a KeyboardInterrupt could leave the
    pool half shut and lose the report). Ctrl-C in a terminal, ``kill -INT`` and ``timeout -s
    INT`` all set it; the run stops at its next check and reports what finished. A second
    SIGINT stops at once (KeyboardInterrupt)."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop  # signals reach only the main thread: nothing to install
        return

    def interrupted(signum: int, frame: object) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    previous = signal.signal(signal.SIGINT, interrupted)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous)
