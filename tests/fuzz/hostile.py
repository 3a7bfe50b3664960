"""Hostile inputs for every command that reads a record (tests/fuzz), and a way to run a
command in this process and see what it printed.

Each generator gives ``(label, data)`` pairs: the label says what the input is, so that a
failing case names itself.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass

from paiute import Match, RuleSet, SeededChance
from paiute.cli.common import READERS as RECORD_READERS
from paiute.cli.main import main
from paiute.players import make_player
from paiute.record import Record

#: Every command that reads a record, as the words before its FILE argument. The shared list
#: of paiute.cli.common (replay, verify, and review once it lands) and play --resume, which
#: reads the same records; "-" as FILE is standard input.
READERS: tuple[tuple[str, ...], ...] = (*RECORD_READERS, ("play", "--plain", "--no-save", "--resume"))


@dataclass(frozen=True)
class Outcome:
    status: int
    out: str
    err: str

    @property
    def lines(self) -> list[str]:
        return [line for line in (self.out + self.err).splitlines() if line.strip()]


def run_command(argv: list[str], stdin: bytes = b"q\n") -> Outcome:
    """``paiute ARGV`` in this process, standard input ``stdin``; what it printed."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(argv)
    finally:
        sys.stdin = saved
    return Outcome(status, out.getvalue(), err.getvalue())


def small_record() -> dict[str, object]:
    """A valid record of one short deal (12 actions) with a commitment, as parsed JSON."""
    match = Match(RuleSet(), ["Ana", "Bo"], chance=SeededChance(12))
    deal = match.start_deal()
    players = [make_player("greedy", seed=1), make_player("greedy", seed=2)]
    while not deal.is_over:
        match.apply(players[deal.current_seat].act(deal.observation(deal.current_seat)))
    data = json.loads(Record.from_match(match).dumps())
    data["deals"][0]["commitment"] = {"sha256": "0" * 64, "salt": "00", "cut": 3}
    return data


def dumps(data: object) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode()


def paths(value: object, path: tuple[object, ...] = ()) -> Iterator[tuple[object, ...]]:
    """The path of every value in a JSON tree (keys and list indexes), the root first."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*path, index))


def replaced(data: object, path: tuple[object, ...], new: object) -> object:
    """A copy of ``data`` with the value at ``path`` replaced by ``new``."""
    if not path:
        return new
    copy = json.loads(json.dumps(data))
    node = copy
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = new
    return copy


#: Values of every JSON type, put at each field in turn.
WRONG_VALUES: tuple[object, ...] = (None, True, -1, 1.5, "x", [], {"k": []})


def deep(depth: int) -> Iterator[tuple[str, bytes]]:
    """Nesting ``depth`` deep: bare, and in each kind of field of a valid record."""
    yield f"lists {depth} deep", b"[" * depth + b"]" * depth
    yield f"objects {depth} deep", b'{"a":' * depth + b"1" + b"}" * depth
    record = small_record()
    nested = "[" * depth + "]" * depth
    for field in ("players", "balances", "pot"):
        text = dumps(record).decode().replace(f'"{field}":', f'"{field}":{nested},"x":', 1)
        yield f"{field} {depth} deep", text.encode()
    text = dumps(record).decode().replace('"actions":', f'"actions":[{nested}],"y":', 1)
    yield f"an action {depth} deep", text.encode()


def huge_numbers() -> Iterator[tuple[str, bytes]]:
    record = small_record()
    digits = "9" * 5001
    for path in (("balances", 0), ("pot",), ("deals", 0, "dealer"), ("deals", 0, "commitment", "cut")):
        data = dumps(replaced(record, path, 0)).decode()
        # Put the digits in the text itself: json.dumps of such an int would fail first.
        field = f'"{path[-1]}":0' if isinstance(path[-1], str) else None
        if field is None:
            text = data.replace('"balances":[0,', f'"balances":[{digits},', 1)
        else:
            text = data.replace(field, f'"{path[-1]}":{digits}', 1)
        yield f"a 5001-digit number at {path}", text.encode()
        yield f"a negative 5001-digit number at {path}", text.replace(digits, "-" + digits).encode()
    yield "a bare 5001-digit number", digits.encode()
    yield "a 100000-digit float", ("1." + "1" * 100000).encode()
    yield "1e999999", dumps(record).replace(b'"pot":0', b'"pot":1e999999')
    yield "NaN", dumps(record).replace(b'"pot":0', b'"pot":NaN')
    yield "-Infinity", dumps(record).replace(b'"pot":0', b'"pot":-Infinity')


def huge_strings() -> Iterator[tuple[str, bytes]]:
    record = small_record()
    big = "A" * 2_000_000
    yield "a 2 MB player name", dumps(replaced(record, ("players", 0), big))
    yield "a 2 MB card", dumps(replaced(record, ("deals", 0, "deck", 5), big))
    yield "a 2 MB action", dumps(replaced(record, ("deals", 0, "actions", 2), "discard " + big))
    yield "a 2 MB format", dumps(replaced(record, ("format",), big))
    yield "a 2 MB preset", dumps(replaced(record, ("rules", "preset"), big))
    yield "a 2 MB rule option", dumps(replaced(record, ("rules",), {"preset": "pagat", big: 1}))
    yield "a name with an escape sequence", dumps(replaced(record, ("players", 0), "\x1b[2J\x1b[31mEvil"))
    yield "a name with a lone surrogate", dumps(record).replace(b'"Ana"', b'"\\ud800"')
    yield "a card with a lone surrogate", dumps(record).replace(b'"format"', b'"\\udfff"')


def bad_bytes() -> Iterator[tuple[str, bytes]]:
    data = dumps(small_record())
    for position in (0, 1, len(data) // 3, len(data) // 2, len(data) - 1):
        for inserted in (b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\x00"):
            yield f"{inserted!r} at byte {position}", data[:position] + inserted + data[position:]
    yield "a NUL in a name (escaped)", data.replace(b'"Ana"', b'"A\\u0000na"')
    yield "a NUL in a card (escaped)", data.replace(b'"format"', b'"for\\u0000mat"', 1)
    yield "UTF-16", json.dumps(small_record()).encode("utf-16")
    yield "only NULs", b"\x00" * 1000
    yield "empty", b""
    yield "spaces", b" \n\t\r\n"


def wrong_types() -> Iterator[tuple[str, bytes]]:
    """Every field of the small record given a value of each other JSON type."""
    record = small_record()
    for path in paths(record):
        for value in WRONG_VALUES:
            new = replaced(record, path, value)
            if new != record:
                yield f"{value!r} at {path}", dumps(new)


def truncations(step: int = 1) -> Iterator[tuple[str, bytes]]:
    """The small record cut at every ``step``-th byte."""
    data = dumps(small_record())
    for end in range(0, len(data), step):
        yield f"cut at byte {end}", data[:end]


def json_lines() -> Iterator[tuple[str, bytes]]:
    line = dumps(small_record())
    yield "a record then junk on its line", line + b" junk\n"
    yield "two records on one line", line + line + b"\n"
    yield "a record then a bad line", line + b"\n{not json\n"
