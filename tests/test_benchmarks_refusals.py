"""Benchmark scripts refuse what they cannot run in one line, never a traceback:
``strength.py`` and ``review_speed.py`` (issue 11), ``batch_sim.py`` and ``run.py``. Their
figures are never asserted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from helpers import load_script

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--workers", "0"], "--workers must be at least 1, not 0"),
        (["--pimc-boards", "0"], "--pimc-boards must be at least 1, not 0"),
        (["--ms-boards", "-3"], "--ms-boards must be at least 1, not -3"),
        (["--ms", "abc"], "--ms wants whole numbers separated by commas, not 'abc'"),
        (["--pimc-ms", "10,0"], "--pimc-ms wants budgets from 1 to 600000, not '10,0'"),
        (["--pimc-iterations", "2000000"], "--pimc-iterations wants budgets from 1 to 1000000"),
        (["--iterations", ""], "--iterations wants budgets from 1 to 1000000, not ''"),
        (["--pimc-seconds", "nan"], "--pimc-seconds must be a positive number of seconds, not nan"),
        (["--it-seconds", "0"], "--it-seconds must be a positive number of seconds, not 0.0"),
        (["--presets", "pagat,nope"], "--presets:"),
        (["--only", "pimc,nope"], "unknown sections ['nope']"),
    ],
)
def test_strength_refuses_a_bad_option_in_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    script = load_script(BENCHMARKS / "strength.py", "strength_bench")
    with pytest.raises(SystemExit):
        script.parse_args(args)
    error = capsys.readouterr().err
    assert said in error
    assert "Traceback" not in error


def test_strength_reads_its_budgets() -> None:
    script = load_script(BENCHMARKS / "strength.py", "strength_bench")
    args = script.parse_args(["--pimc-ms", "10,20", "--pimc-boards", "2", "--quick"])
    assert args.pimc_ms_list == [10, 20]
    assert args.pimc_boards == 2
    assert args.preset_list == ["pagat", "gamerules"]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--deals", "0"], "--deals must be at least 1, not 0"),
        (["--playouts", "0"], "--playouts must be from 1 to 1000000, not 0"),
    ],
)
def test_review_speed_refuses_a_bad_option_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    script = load_script(BENCHMARKS / "review_speed.py", "review_speed_bench")
    monkeypatch.setattr(sys, "argv", ["review_speed.py", *args])
    with pytest.raises(SystemExit):
        script.main()
    error = capsys.readouterr().err
    assert said in error
    assert "Traceback" not in error


@pytest.mark.parametrize("script", ["batch_sim.py", "run.py"])
@pytest.mark.parametrize("args", [["--seconds", "0"], ["--seconds", "nan"], ["--repeats", "0"]])
def test_timing_benchmarks_refuse_no_time_or_no_repeat(script: str, args: list[str]) -> None:
    # --repeats 0 asked statistics for the median of nothing; --seconds 0 failed in a child.
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2
    assert "--seconds must be positive and --repeats at least 1" in done.stderr
    assert "Traceback" not in done.stderr
