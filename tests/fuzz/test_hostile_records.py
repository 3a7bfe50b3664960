"""The hostile-input suite: generated hostile records for every command that reads one.

Whatever the input, a reader answers in bounded time with one line that says what is wrong
and where, never a traceback: exit status 1 for an invalid record, 2 for a usage error (a
directory, a missing file). The commands run in this process through ``paiute.cli.main``
(fast); a few through a real ``paiute`` process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterable
from pathlib import Path

import pytest
from hostile import (
    READERS,
    Outcome,
    bad_bytes,
    deep,
    dumps,
    huge_numbers,
    huge_strings,
    json_lines,
    run_command,
    small_record,
    truncations,
    wrong_types,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paiute.record_file import MAX_RECORD_BYTES

#: Longest line an answer may print: a hostile value is quoted cut short.
LONGEST = 600


def check(outcome: Outcome, label: str, statuses: Iterable[int] = (1,)) -> None:
    where = f"{label}: {outcome}"[:2000]
    assert "Traceback" not in outcome.out + outcome.err, where
    assert outcome.status in tuple(statuses), where
    assert len(outcome.lines) == 1, where
    assert len(outcome.lines[0]) <= LONGEST, where
    assert outcome.lines[0].strip(), where


def run_all(
    command: tuple[str, ...], cases: Iterable[tuple[str, bytes]], tmp_path: Path, **kw: object
) -> None:
    path = tmp_path / "hostile.json"
    for label, data in cases:
        path.write_bytes(data)
        outcome = run_command([*command, str(path)])
        check(outcome, f"{' '.join(command)} {label}", **kw)  # type: ignore[arg-type]


@pytest.fixture(autouse=True)
def _data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAIUTE_DATA_DIR", str(tmp_path / "data"))


def test_the_small_record_is_valid_for_every_reader(tmp_path: Path) -> None:
    # The base of every mutation below: the checks can fail only because of the mutation.
    path = tmp_path / "ok.json"
    path.write_bytes(dumps(small_record()))
    assert run_command(["replay", str(path)]).status == 0
    assert run_command(["verify", str(path)]).status == 1  # a made-up commitment: not verified


@pytest.mark.parametrize("command", READERS, ids=" ".join)
def test_deep_nesting_one_line_error(command: tuple[str, ...], tmp_path: Path) -> None:
    run_all(command, [*deep(100_000), *deep(40)], tmp_path)


@pytest.mark.parametrize("command", READERS, ids=" ".join)
def test_huge_numbers_one_line_error(command: tuple[str, ...], tmp_path: Path) -> None:
    run_all(command, huge_numbers(), tmp_path)


@pytest.mark.parametrize("command", READERS, ids=" ".join)
def test_huge_strings_one_line_error(command: tuple[str, ...], tmp_path: Path) -> None:
    run_all(command, huge_strings(), tmp_path)


@pytest.mark.parametrize("command", READERS, ids=" ".join)
def test_invalid_utf8_and_nul_bytes_one_line_error(command: tuple[str, ...], tmp_path: Path) -> None:
    run_all(command, bad_bytes(), tmp_path)


@pytest.mark.parametrize("command", READERS, ids=" ".join)
def test_wrong_type_at_every_field(command: tuple[str, ...], tmp_path: Path) -> None:
    # A value of another type may still make a valid record (a balance of -1): then the
    # command answers as for any record, but never with a traceback.
    path = tmp_path / "hostile.json"
    for label, data in wrong_types():
        path.write_bytes(data)
        outcome = run_command([*command, str(path)])
        assert "Traceback" not in outcome.out + outcome.err, label
        if outcome.status != 0 and command[0] != "verify":
            # hint: a valid record without the position asked for is a usage error (2).
            check(outcome, label, statuses=(1, 2) if command[0] == "hint" else (1,))


@pytest.mark.parametrize("command", READERS, ids=" ".join)
def test_truncation_at_every_byte(command: tuple[str, ...], tmp_path: Path) -> None:
    # Every byte through the two ways in (the shared reader, and play's resume); the other
    # readers share the first, so every fifth byte keeps the suite short.
    every = command in (("replay", "--json"), ("verify", "--json"))
    run_all(command, truncations(1 if every else 5), tmp_path)


@pytest.mark.parametrize("command", READERS, ids=" ".join)
def test_json_lines_faults(command: tuple[str, ...], tmp_path: Path) -> None:
    run_all(command, json_lines(), tmp_path, statuses=(1, 2))


@pytest.mark.parametrize("command", READERS, ids=" ".join)
def test_directory_and_missing_file_are_usage_errors(command: tuple[str, ...], tmp_path: Path) -> None:
    for label, path in (("a directory", tmp_path), ("a missing file", tmp_path / "missing.json")):
        check(run_command([*command, str(path)]), label, statuses=(2,))


@pytest.mark.parametrize("command", READERS, ids=" ".join)
def test_fifo_without_writer_does_not_hang(command: tuple[str, ...], tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    result: list[Outcome] = []
    worker = threading.Thread(target=lambda: result.append(run_command([*command, str(fifo)])), daemon=True)
    worker.start()
    worker.join(10)
    if worker.is_alive():  # unblock the reader so that the test run can end
        with open(fifo, "wb"):
            pass
        worker.join(10)
        pytest.fail(f"{command} hung on a FIFO with no writer")
    check(result[0], "a FIFO with no writer")


@pytest.mark.parametrize("command", READERS, ids=" ".join)
def test_file_far_larger_than_any_record_is_refused_before_reading(
    command: tuple[str, ...], tmp_path: Path
) -> None:
    # 64 GiB, sparse: reading it whole would take minutes and more memory than the machine has.
    path = tmp_path / "huge.json"
    with open(path, "wb") as stream:
        stream.truncate(64 << 30)
    started = time.monotonic()
    outcome = run_command([*command, str(path)])
    check(outcome, "a 64 GiB file")
    assert time.monotonic() - started < 5, "the size is checked before reading"
    assert str(MAX_RECORD_BYTES) in outcome.lines[0]


class _Endless:
    """Standard input that never ends: the reader must stop after its limit."""

    def __init__(self) -> None:
        self.given = 0

    def read(self, size: int = -1) -> bytes:
        assert size > 0, "never read without a bound"
        self.given += size
        return b"[" * size


@pytest.mark.parametrize("command", [c for c in READERS if c[0] != "play"], ids=" ".join)
def test_endless_standard_input_is_refused_at_the_limit(
    command: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    from paiute.cli import common

    endless = _Endless()
    monkeypatch.setattr(common, "sys", type("S", (), {"stdin": type("I", (), {"buffer": endless})}))
    outcome = run_command([*command, "-"])
    check(outcome, "endless standard input")
    assert endless.given <= MAX_RECORD_BYTES + 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=300) | st.text(max_size=200).map(str.encode), which=st.sampled_from(READERS))
def test_arbitrary_bytes_on_standard_input_or_in_a_file(
    data: bytes, which: tuple[str, ...], tmp_path: Path
) -> None:
    path = tmp_path / "any.json"
    path.write_bytes(data)
    outcome = run_command([*which, str(path)])
    assert "Traceback" not in outcome.out + outcome.err
    check(outcome, repr(data), statuses=(1, 2))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.integers(0, 10_000), noise=st.binary(min_size=1, max_size=8))
def test_a_record_with_random_bytes_spliced_in(cut: int, noise: bytes, tmp_path: Path) -> None:
    data = dumps(small_record())
    cut %= len(data)
    spliced = data[:cut] + noise + data[cut:]
    outcome = run_command(["replay", "--json", "-"], stdin=spliced)
    assert "Traceback" not in outcome.out + outcome.err
    if outcome.status != 0:  # a space or a digit may keep it valid
        check(outcome, repr(spliced))
        assert json.loads(outcome.out)["ok"] is False


# -- paiute eval: one hand a line on standard input ---------------------------------------------


EVAL_LINES: tuple[tuple[str, bytes], ...] = (
    ("a 20 MB line", b"A" * 20_000_000 + b"\n"),
    ("invalid UTF-8", b"Ah \xff Kh Qh Jh Th\n"),
    ("a NUL", b"Ah\x00Kh Qh Jh Th\n"),
    ("deep JSON", b"{" + b'"a":{' * 50_000 + b"}\n"),
    ("deep JSON list", b'{"cards": ' + b"[" * 50_000 + b"\n"),
    ("a huge number", b'{"cards": "Ah Kh Qh Jh Th", "royal_high": ' + b"9" * 5001 + b"}\n"),
    ("NaN", b'{"cards": "Ah Kh Qh Jh Th", "royal_high": NaN}\n'),
    ("a 2 MB card", b'{"cards": "' + b"Z" * 2_000_000 + b'"}\n'),
)


@pytest.mark.parametrize(("label", "line"), EVAL_LINES, ids=[label for label, _ in EVAL_LINES])
def test_eval_hostile_lines_one_line_error(label: str, line: bytes) -> None:
    for json_flag in ([], ["--json"]):
        outcome = run_command(["eval", *json_flag], stdin=line + b"Ah Kh Qh Jh Th\n")
        assert "Traceback" not in outcome.out + outcome.err, label
        assert outcome.status == 1, (label, outcome.status)
        # One line for the error, then the good hand's answer (two lines as text, one as JSON).
        assert len(outcome.lines) == (2 if json_flag else 3), (label, outcome.lines[:3])
        assert "line 1" in outcome.lines[0], label
        assert len(outcome.lines[0]) <= LONGEST, label


# -- a few through a real process -----------------------------------------------------------------


def _paiute(*argv: str, stdin: bytes = b"", timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "paiute", *argv],
        input=stdin,
        capture_output=True,
        timeout=timeout,
        check=False,
    )


@pytest.mark.parametrize(
    ("label", "data"),
    [
        ("lists 100000 deep", b"[" * 100_000 + b"]" * 100_000),
        ("a 5001-digit balance", next(case for case in huge_numbers())[1]),
        ("invalid UTF-8", b"\xff\xfe garbage"),
    ],
    # The label alone names a case: the data in the test's id would pass into the
    # subprocess's environment (PYTEST_CURRENT_TEST), past the kernel's limit on one variable.
    ids=["lists 100000 deep", "a 5001-digit balance", "invalid UTF-8"],
)
def test_hostile_standard_input_through_a_real_process(label: str, data: bytes) -> None:
    for argv in (["replay", "-"], ["replay", "--json", "-"], ["verify", "-"]):
        result = _paiute(*argv, stdin=data)
        text = (result.stdout + result.stderr).decode()
        assert result.returncode == 1, (label, argv, text[-2000:])
        assert "Traceback" not in text, (label, argv, text[-2000:])
        assert len(text.strip().splitlines()) == 1, (label, argv, text[-2000:])
    result = _paiute("replay", "--json", "-", stdin=data)
    assert json.loads(result.stdout)["ok"] is False
