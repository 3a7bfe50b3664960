"""Reading record files safely: one reader for every command that takes a record.

A record file may come from anyone (a download, a pipe, a fuzzer), so the reader bounds
everything before it trusts anything:

* at most :data:`MAX_RECORD_BYTES` (16 MiB), refused before a regular file is read at all, and
  read no further than that from a pipe or a device; a FIFO with no writer reads as empty
  instead of hanging (it is opened non-blocking); a directory is refused;
* UTF-8 text (a byte-order mark is skipped), JSON with nesting at most :data:`MAX_DEPTH` deep
  and whole numbers of at most :data:`MAX_DIGITS` digits (Python's own limit, 4,300 digits,
  would raise a bare ``ValueError``); ``NaN`` and ``Infinity`` are not JSON;
* one record, or JSON lines (one record a line, as ``paiute tournament --records`` writes):
  ``match`` picks one by its index, from 0 (``--match K`` is index K - 1: the messages count
  the records from 1, as people do); without it a file of several is refused with their count.

A malformed input raises :class:`~paiute.errors.RecordError` saying what and where (line,
column, field path); an input that cannot be read as asked (missing, a directory, several
matches and no ``match``) raises :class:`~paiute.errors.InputError`, a usage error.

>>> parse_json('{"a": [1, 2]}')
{'a': [1, 2]}
>>> parse_json("[" * 100 + "]" * 100)
Traceback (most recent call last):
  ...
paiute.errors.RecordError: nested deeper than 32 levels at [0][0][0][0][0][0][0][0][0][0]...
>>> select_json(b'{"n": 1}\\n{"n": 2}\\n', match=1, source="t.jsonl")
{'n': 2}
"""

from __future__ import annotations

import json
import os
import re
import stat
from typing import BinaryIO

from paiute.errors import N_, Excerpt, InputError, RecordError

__all__ = [
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_RECORD_BYTES",
    "parse_json",
    "read_bytes",
    "read_stream",
    "select_json",
]

#: The largest record input accepted, in bytes (a deal takes about 1 KB: this is thousands of
#: deals). Documented in ``paiute replay --help``.
MAX_RECORD_BYTES = 16 * 1024 * 1024
#: The deepest nesting of lists and objects accepted (a record needs five).
MAX_DEPTH = 32
#: The most digits of a whole number (a chip count or a seed needs at most 20).
MAX_DIGITS = 24

_CHUNK = 1 << 16


# -- bytes ------------------------------------------------------------------------------------


def read_bytes(path: str | os.PathLike[str], limit: int = MAX_RECORD_BYTES) -> bytes:
    """The bytes of the file at ``path``, at most ``limit`` of them.

    >>> read_bytes("/")
    Traceback (most recent call last):
      ...
    paiute.errors.InputError: '/' is a directory, not a record file
    """
    name = os.fsdecode(path)
    try:
        # Non-blocking: opening a FIFO that no one writes to would otherwise wait forever.
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise InputError(N_("cannot read {path!r}: {error}"), path=name, error=error.strerror) from None
    try:
        info = os.fstat(handle)
        if stat.S_ISDIR(info.st_mode):
            raise InputError(N_("{path!r} is a directory, not a record file"), path=name)
        if stat.S_ISREG(info.st_mode) and info.st_size > limit:
            raise RecordError(
                N_("{path!r} holds {size} bytes, more than a record may ({limit} at most)"),
                path=name,
                size=info.st_size,
                limit=limit,
            )
        # A pipe with a writer now waits for its data (like standard input); one with no writer
        # reads as empty.
        os.set_blocking(handle, True)
        with os.fdopen(handle, "rb", closefd=False) as stream:
            return read_stream(stream, limit, name)
    except OSError as error:
        raise InputError(N_("cannot read {path!r}: {error}"), path=name, error=error.strerror) from None
    finally:
        os.close(handle)


def read_stream(stream: BinaryIO, limit: int = MAX_RECORD_BYTES, name: str = "-") -> bytes:
    """At most ``limit`` bytes of ``stream`` (standard input, a pipe), refused beyond that
    without reading further."""
    parts: list[bytes] = []
    size = 0
    while size <= limit:
        chunk = stream.read(min(_CHUNK, limit + 1 - size))
        if not chunk:
            return b"".join(parts)
        parts.append(chunk)
        size += len(chunk)
    raise RecordError(
        N_("{path!r} holds more than {limit} bytes, more than a record may"), path=name, limit=limit
    )


# -- text and JSON ----------------------------------------------------------------------------


class _HugeNumber:
    """A whole number with too many digits, kept (not converted) until its field is known."""

    __slots__ = ("digits",)

    def __init__(self, digits: int) -> None:
        self.digits = digits


def _parse_int(text: str) -> int | _HugeNumber:
    digits = len(text) - text.startswith("-")
    return int(text) if digits <= MAX_DIGITS else _HugeNumber(digits)


def _parse_constant(text: str) -> object:
    raise RecordError(N_("not JSON: {text} is not a JSON number"), text=text)


_DECODER = json.JSONDecoder(parse_int=_parse_int, parse_constant=_parse_constant)
_SPACE = re.compile(r"[ \t\n\r]*")
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,39}")


def _text(data: str | bytes) -> str:
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise RecordError(
            N_("not JSON in UTF-8: byte {byte} at line {line} (byte {position} of the file) is not UTF-8"),
            byte=f"0x{data[error.start]:02x}",
            line=data.count(b"\n", 0, error.start) + 1,
            position=error.start,
        ) from None


def _not_json(error: json.JSONDecodeError) -> RecordError:
    return RecordError(N_("not JSON: {error}"), error=str(error))


def _decode(text: str, start: int) -> tuple[object, int]:
    """The JSON value that starts at ``start`` (after spaces) and where it ends."""
    try:
        return _DECODER.raw_decode(text, _SPACE.match(text, start).end())  # type: ignore[union-attr]
    except json.JSONDecodeError as error:
        raise _not_json(error) from None
    except RecursionError:
        line, column = _too_deep_at(text, start)
        raise RecordError(
            N_("nested deeper than {depth} levels at line {line} column {column}"),
            depth=MAX_DEPTH,
            line=line,
            column=column,
        ) from None


def _too_deep_at(text: str, start: int) -> tuple[int, int]:
    """Line and column where the nesting first goes past :data:`MAX_DEPTH` (strings skipped)."""
    depth = 0
    for found in re.finditer(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', text[start:]):
        token = found.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                offset = start + found.start()
                return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)
        elif token in "]}":
            depth -= 1
    return 1, 1


def _check_tree(value: object) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` and numbers too long, by field path."""
    stack: list[tuple[object, str, int]] = [(value, "", 1)]
    while stack:
        node, path, depth = stack.pop()
        if isinstance(node, _HugeNumber):
            raise RecordError(
                N_("{field}: a number of {digits} digits (at most {limit})"),
                field=_shown(path),
                digits=node.digits,
                limit=MAX_DIGITS,
            )
        if depth > MAX_DEPTH:
            raise RecordError(
                N_("nested deeper than {depth} levels at {field}"), depth=MAX_DEPTH, field=_shown(path)
            )
        if isinstance(node, dict):
            items = [(_field(path, key), item) for key, item in node.items()]
        elif isinstance(node, list):
            items = [(f"{path}[{index}]", item) for index, item in enumerate(node)]
        else:
            continue
        for where, item in reversed(items):  # reversed: the first fault in reading order wins
            if isinstance(item, dict | list | _HugeNumber):
                stack.append((item, where, depth + 1))


def _field(path: str, key: str) -> str:
    name = key if _KEY.fullmatch(key) else str(Excerpt(key))
    return f"{path}.{name}" if path else name


def _shown(path: str) -> str:
    """A field path for a message (the record itself when empty), cut short if very long."""
    if not path:
        return "the record"
    return path if len(path) <= 120 else path[:117] + "..."


def parse_json(data: str | bytes) -> object:
    """One JSON value with the limits of this module, or :class:`RecordError` (what, where)."""
    text = _text(data)
    value, end = _decode(text, 0)
    rest = _SPACE.match(text, end).end()  # type: ignore[union-attr]
    if rest != len(text):
        raise _not_json(json.JSONDecodeError("Extra data", text, rest))
    _check_tree(value)
    return value


def select_json(data: str | bytes, *, match: int | None = None, source: str = "-") -> object:
    """The record of ``data``: its only JSON value, or the one of index ``match`` (from 0) of
    JSON lines.

    A file of one record takes ``match`` None or 0; JSON lines (one value a line, blank lines
    skipped) need ``match`` when they hold more than one. The messages name a record as
    ``--match`` does, counting from 1.
    """
    text = _text(data)
    first, end = _decode(text, 0)
    start = _SPACE.match(text).end()  # type: ignore[union-attr]
    rest = _SPACE.match(text, end).end()  # type: ignore[union-attr]
    if rest == len(text):
        lines = [(start, first)]
    elif "\n" in text[start:end] or "\n" not in text[end:rest]:
        # One record over several lines then more, or two values on a line: not JSON lines.
        raise _not_json(json.JSONDecodeError("Extra data", text, rest))
    else:
        lines = [(offset, None) for offset in _line_starts(text)]
        lines[0] = (start, first)
    count = len(lines)
    if match is None:
        if count > 1:
            raise InputError(
                N_("{path!r} holds {n} matches (JSON lines): choose one with --match K, {first} to {n}"),
                path=source,
                n=count,
                first=1,
            )
        match = 0
    if not 0 <= match < count:
        if count == 1:
            raise InputError(
                N_("--match {k}: {path!r} holds a single match: choose {first}"),
                k=match + 1,
                path=source,
                first=1,
            )
        raise InputError(
            N_("--match {k}: {path!r} holds {n} matches: choose {first} to {n}"),
            k=match + 1,
            path=source,
            n=count,
            first=1,
        )
    offset, value = lines[match]
    if value is None:
        line = text.count("\n", 0, offset) + 1
        stop = text.find("\n", offset)
        try:
            value = parse_json(text[offset : len(text) if stop < 0 else stop])
        except RecordError as error:
            raise RecordError(
                N_("match {k} (line {line}): {error}"), k=match + 1, line=line, error=error
            ) from None
        return value
    _check_tree(value)
    return value


def _line_starts(text: str) -> list[int]:
    """Where each non-blank line of JSON lines starts."""
    starts = []
    offset = 0
    for line in text.split("\n"):
        if line.strip(" \t\r"):
            starts.append(offset)
        offset += len(line) + 1
    return starts
