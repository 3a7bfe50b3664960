"""Bounded work and writable outputs, checked before any work starts (issue 15: points 3, 4,
5, 6)."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from paiute.cli.main import main

ROOT = Path(__file__).resolve().parent.parent


def run(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str = "") -> tuple[int, str, str]:
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8")
    try:
        status = main(list(argv))
    except SystemExit as exit_:  # argparse's own usage errors
        status = int(exit_.code or 0)
    finally:
        sys.stdin = sys.__stdin__
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def one_line(out: str, err: str) -> str:
    found = [line for line in (out + err).splitlines() if line.strip()]
    assert len(found) == 1, found
    return found[0]


# -- point 3: counts checked before seatings are listed -------------------------------------------


@pytest.mark.parametrize("players", ["99", "12", "11", "9"])
def test_r2_1_tournament_refuses_a_big_table_at_once(
    capsys: pytest.CaptureFixture[str], players: str
) -> None:
    started = time.process_time()
    status, out, err = run(capsys, "tournament", "greedy", "random", "--deals", "10", "--players", players)
    assert status == 2
    assert one_line(out, err).startswith(f"paiute tournament: error: R2.1 {players} players")
    # CPU time, not wall time: listing 11! seatings alone takes seconds of it.
    assert time.process_time() - started < 2


def test_r2_1_seatings_refuse_a_table_too_big_to_list() -> None:
    from paiute.analysis.tournament import TournamentError, seating_count, seatings

    with pytest.raises(TournamentError, match=r"R2\.1 12 players"):
        seatings(2, 12)
    with pytest.raises(TournamentError, match=r"R2\.1 99 players"):
        seating_count(99, 99)
    assert seating_count(8, 8) == len(seatings(8, 8)) == 40320
    assert seating_count(3, 6) == len(seatings(3, 6)) == 90
    assert seating_count(2, 6, "rotations") == len(seatings(2, 6, "rotations")) == 2


# -- point 4: --delay ------------------------------------------------------------------------------


@pytest.mark.parametrize("delay", ["-1", "nan", "inf", "1e9", "soon"])
def test_play_plain_bad_delay_is_a_usage_error_before_a_match_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, delay: str
) -> None:
    status, out, err = run(
        capsys,
        "play",
        "--plain",
        "--delay",
        delay,
        "--data-dir",
        str(tmp_path),
        "--bots",
        "random",
        stdin="q\n",
    )
    assert (status, out) == (2, "")
    # argparse's usage error: the usage, then one line naming the option.
    assert err.splitlines()[-1].startswith(
        "paiute play: error: argument --delay: expected seconds from 0 to 60"
    )
    assert list(tmp_path.iterdir()) == []


# -- point 5: output paths ------------------------------------------------------------------------


@pytest.fixture
def a_file(tmp_path: Path) -> Path:
    path = tmp_path / "plain-file"
    path.write_text("x")
    return path


def unwritable_cases(a_file: Path, tmp_path: Path) -> list[tuple[list[str], str]]:
    missing = tmp_path / "nonexistent" / "dir"
    return [
        (["play", "--plain", "--bots", "random", "--data-dir", "/proc/nope"], "/proc/nope"),
        (["play", "--plain", "--bots", "random", "--data-dir", str(a_file)], str(a_file)),
        (["play", "--plain", "--bots", "random", "--data-dir", str(missing)], str(missing)),
        (["simulate", "--deals", "5", "--workers", "1", "--plot", "/proc/x"], "/proc/x"),
        (["simulate", "--deals", "5", "--workers", "1", "--plot", str(a_file / "x")], str(a_file)),
        (["simulate", "--deals", "5", "--workers", "1", "--plot", str(missing)], str(missing)),
        (
            ["tournament", "greedy", "random", "--deals", "2", "--records", str(a_file / "x.jsonl")],
            str(a_file),
        ),
        (
            ["tournament", "greedy", "random", "--deals", "2", "--records", str(missing / "x.jsonl")],
            str(missing),
        ),
        (["tournament", "greedy", "random", "--deals", "2", "--records", "/proc/x.jsonl"], "/proc/x.jsonl"),
        (["tournament", "greedy", "random", "--deals", "2", "--records", str(tmp_path)], str(tmp_path)),
        (["serve", "--port", "0", "--data-dir", "/proc/nope"], "/proc/nope"),
        (["serve", "--port", "0", "--data-dir", str(missing)], str(missing)),
    ]


def test_unwritable_output_paths_are_refused_in_one_line_before_any_work(
    capsys: pytest.CaptureFixture[str], a_file: Path, tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib")
    for argv, shown in unwritable_cases(a_file, tmp_path):
        status, out, err = run(capsys, *argv, stdin="q\n")
        assert status == 2, argv
        line = one_line(out, err)  # nothing else: no report, no table, no deal
        assert line.startswith(f"paiute {argv[0]}: error: cannot write"), (argv, line)
        assert shown in line, (argv, line)
    assert not (tmp_path / "nonexistent").exists(), "a missing parent is never made"


def test_data_dir_is_made_when_its_parent_exists(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "new"
    status, _, _ = run(capsys, "play", "--plain", "--bots", "random", "--data-dir", str(target), stdin="q\n")
    assert status == 0
    assert (target / "matches").is_dir()


# -- point 6: SIGINT to the main process only ------------------------------------------------------


def _descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (the forkserver, the resource tracker, the workers)."""
    found: list[int] = []
    waiting = [pid]
    while waiting:
        parent = waiting.pop()
        try:
            children = [
                int(child) for child in Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
            ]
        except OSError:
            children = []
        found += children
        waiting += children
    return found


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_simulate_sigint_to_the_main_process_reports_the_finished_part() -> None:
    environment = {**os.environ, "PYTHONPATH": os.environ.get("PAIUTE_TEST_SRC", str(ROOT / "src"))}
    command = [sys.executable, "-m", "paiute", "simulate", "--deals", "200000", "--workers", "2", "--quiet"]
    # At different points: the pool starting (its forkserver up, workers on the way), then
    # running; before the fix about one in ten runs lost its report, most near the start.
    for attempt, processes in enumerate((1, 1, 2, 2, 3, 3, 4, 4)):
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment)
        deadline = time.monotonic() + 60
        while len(_descendants(process.pid)) < processes and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.05 * (attempt % 2))
        process.send_signal(signal.SIGINT)  # the main process only, as kill -INT does
        out, err = process.communicate(timeout=120)
        text = out.decode()
        assert process.returncode == 130, (attempt, err.decode()[-2000:])
        assert "Traceback" not in err.decode(), err.decode()[-2000:]
        assert "interrupted: the facts below are of the" in text, (attempt, err.decode()[-2000:])
        assert "Combinations (R5)" in text
