"""What the record readers of the command line accept and refuse (issue 15: points 1, 2,
16, 17); the generated hostile inputs are in tests/fuzz."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from conftest import CONFORMANCE
from paiute.cli.main import main

RECORDS = CONFORMANCE / "records"


def run(capsys: pytest.CaptureFixture[str], *argv: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        status = main(list(argv))
    finally:
        sys.stdin = sys.__stdin__
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def lines(out: str, err: str) -> list[str]:
    return [line for line in (out + err).splitlines() if line.strip()]


DEEP_LISTS = b"[" * 100_000 + b"]" * 100_000
DEEP_OBJECTS = b'{"a":' * 100_000 + b"1" + b"}" * 100_000


@pytest.mark.parametrize("data", [DEEP_LISTS, DEEP_OBJECTS], ids=["lists", "objects"])
def test_replay_deep_nesting_one_line_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data: bytes
) -> None:
    path = tmp_path / "deep.json"
    path.write_bytes(data)
    status, out, err = run(capsys, "replay", str(path))
    assert status == 1
    assert lines(out, err) == [out.strip()]
    assert out.startswith("invalid record: malformed record: nested deeper than 32 levels at line 1 column ")


@pytest.mark.parametrize("data", [DEEP_LISTS, DEEP_OBJECTS], ids=["lists", "objects"])
def test_replay_json_deep_nesting_still_prints_its_json_error(
    capsys: pytest.CaptureFixture[str], data: bytes
) -> None:
    status, out, err = run(capsys, "replay", "--json", "-", stdin=data)
    assert (status, err) == (1, "")
    error = json.loads(out)
    assert error["ok"] is False
    assert "nested deeper than 32 levels" in error["error"]["malformed"]


def test_verify_deep_nesting_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "verify", "-", stdin=DEEP_LISTS)
    assert status == 1
    assert len(lines(out, err)) == 1
    assert "nested deeper than 32 levels" in out


def test_play_resume_deep_nesting_one_line_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_bytes(DEEP_OBJECTS)
    status, out, err = run(capsys, "play", "--plain", "--no-save", "--resume", str(path), stdin=b"q\n")
    assert status == 1
    assert len(lines(out, err)) == 1
    assert "nested deeper than 32 levels" in err


def test_nesting_just_under_the_parser_limit_names_the_field(capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads((RECORDS / "ok_000.json").read_text())
    text = json.dumps(record).replace('"balances": [', '"balances": [' + "[" * 40 + "]" * 40 + ", ", 1)
    status, out, _ = run(capsys, "replay", "-", stdin=text.encode())
    assert status == 1
    assert "nested deeper than 32 levels at balances[0]" in out


def huge_balance() -> bytes:
    record = json.loads((RECORDS / "ok_000.json").read_text())
    text = json.dumps(record)
    first = str(record["balances"][0])
    return text.replace(f'"balances": [{first}', '"balances": [' + "7" * 5001, 1).encode()


def test_replay_huge_integer_in_balances_says_where(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "huge.json"
    path.write_bytes(huge_balance())
    for argv in (["replay", str(path)], ["replay", "-"], ["verify", "-"]):
        status, out, err = run(capsys, *argv, stdin=huge_balance())
        assert status == 1, argv
        assert len(lines(out, err)) == 1, argv
        assert "balances[0]: a number of 5001 digits (at most 24)" in out, argv
    status, out, _ = run(capsys, "replay", "--json", "-", stdin=huge_balance())
    assert status == 1
    assert json.loads(out)["error"]["malformed"] == "balances[0]: a number of 5001 digits (at most 24)"


# -- JSON lines and --match (point 16) ----------------------------------------------------------


@pytest.fixture
def jsonl(tmp_path: Path) -> Path:
    path = tmp_path / "games.jsonl"
    texts = [json.dumps(json.loads((RECORDS / f"ok_{n:03d}.json").read_text())) for n in (0, 10, 20)]
    path.write_text("\n".join(texts) + "\n")
    return path


def test_replay_match_reads_one_record_of_json_lines(capsys: pytest.CaptureFixture[str], jsonl: Path) -> None:
    # --match K counts the records from 1, as people count: --match 1 is the first line.
    for k, number in enumerate((0, 10, 20), start=1):
        expected = json.loads((RECORDS / f"ok_{number:03d}.expected.json").read_text())
        status, out, _ = run(capsys, "replay", str(jsonl), "--match", str(k), "--json")
        assert status == 0
        balances = [deal["balances"] for deal in json.loads(out)["deals"]]
        assert balances == [deal["balances"] for deal in expected["deals"]]
    status, out, _ = run(capsys, "verify", str(jsonl), "--match", "1", "--json")
    assert json.loads(out)["proofs"] is False


def test_json_lines_without_match_say_how_many_and_what_to_pass(
    capsys: pytest.CaptureFixture[str], jsonl: Path
) -> None:
    for command in ("replay", "verify"):
        status, out, err = run(capsys, command, str(jsonl))
        assert (status, out) == (2, "")
        assert "holds 3 matches (JSON lines): choose one with --match K, 1 to 3" in err
        assert len(lines(out, err)) == 1


@pytest.mark.parametrize("command", ["replay", "verify", "review"])
@pytest.mark.parametrize("k", ["0", "4"])
def test_match_outside_the_file_is_one_line_naming_the_ones_there(
    capsys: pytest.CaptureFixture[str], jsonl: Path, command: str, k: str
) -> None:
    status, out, err = run(capsys, command, str(jsonl), "--match", k)
    assert (status, out) == (2, "")
    assert err == f"paiute {command}: error: --match {k}: {str(jsonl)!r} holds 3 matches: choose 1 to 3\n"


def test_match_one_of_a_single_record_and_a_bad_line(capsys: pytest.CaptureFixture[str], jsonl: Path) -> None:
    single = str(RECORDS / "ok_000.json")
    status, _, _ = run(capsys, "replay", single, "--match", "1")
    assert status == 0
    for k in ("0", "2"):
        status, out, err = run(capsys, "replay", single, "--match", k)
        assert (status, out) == (2, "")
        assert err == f"paiute replay: error: --match {k}: {single!r} holds a single match: choose 1\n"
    with pytest.raises(SystemExit) as usage:
        main(["replay", single, "--match", "-1"])
    assert usage.value.code == 2
    assert "expected a match number (1 is the first), got '-1'" in capsys.readouterr().err
    jsonl.write_text(jsonl.read_text() + "{broken\n")
    status, out, _ = run(capsys, "replay", str(jsonl), "--match", "4")
    assert status == 1
    assert "match 4 (line 4): not JSON" in out
    status, _, _ = run(capsys, "replay", str(jsonl), "--match", "3")
    assert status == 0


def test_replay_watch_takes_match(capsys: pytest.CaptureFixture[str], jsonl: Path) -> None:
    # --watch needs a terminal; without one it says so (exit 2) after taking --match.
    status, _, err = run(capsys, "replay", str(jsonl), "--watch", "--match", "1")
    assert status == 2
    assert "--watch needs a terminal" in err


# -- verify without proofs, replay of a missing path (point 17) ----------------------------------


def test_r10_2_verify_without_commitments_says_only_server_games_carry_proofs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(capsys, "verify", str(RECORDS / "ok_000.json"))
    assert status == 1
    assert len(lines(out, err)) == 1
    assert out.startswith("nothing to verify: ")
    assert "Only games dealt by paiute serve commit to their shuffles (R10.2)" in out
    assert "NOT verified" not in out
    status, out, _ = run(capsys, "verify", str(RECORDS / "ok_000.json"), "--json")
    assert status == 1
    assert json.loads(out)["proofs"] is False


def test_verify_help_documents_its_exit_statuses(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["verify", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "verify says so and exits 1, as git verify-commit does for an unsigned commit" in out
    assert "Exit status 2 for a usage error" in out


@pytest.mark.parametrize(
    "command", [["replay"], ["replay", "--json"], ["verify"], ["play", "--plain", "--resume"]]
)
def test_missing_path_is_a_usage_error_everywhere(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str]
) -> None:
    status, out, err = run(capsys, *command, str(tmp_path / "nowhere.json"))
    assert (status, out) == (2, "")
    assert len(lines(out, err)) == 1
    assert "cannot read" in err
    assert "nowhere.json" in err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["hint", "--deal", "1", "--move", "2", "--playouts", "100000000"],
            "--playouts must be from 1 to 1000000",
        ),
        (
            ["hint", "--deal", "1", "--move", "2", "--draw-playouts", "99999999999"],
            "--draw-playouts from 0 to 1000000",
        ),
        (["review", "--playouts", "999999999"], "--playouts must be from 1 to 1000000, not 999999999"),
    ],
    ids=["hint-playouts", "hint-draw-playouts", "review-playouts"],
)
def test_a_search_budget_beyond_the_bound_is_a_usage_error_not_a_hang_or_a_crash(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    # Each playout's values are held in memory: an unbounded count ran out of it (a NumPy
    # MemoryError traceback) or never ended. Refused before any work, exit 2.
    status, out, err = run(capsys, argv[0], str(RECORDS / "ok_000.json"), *argv[1:])
    assert status == 2
    assert said in err
    assert "Traceback" not in out + err
