"""``benchmarks/search_speed.py`` runs and reports (issue 11): every case in every round, its
rate and its ratio to ``ismcts`` within the rounds; never a timing or a ratio asserted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "search_speed.py"


def test_search_speed_reports_each_case_over_interleaved_rounds(tmp_path: Path) -> None:
    out = tmp_path / "speed.json"
    command = [sys.executable, str(SCRIPT), "--seconds", "0.05", "--rounds", "2", "--positions", "2"]
    command += ["--only", "ismcts,pimc_estimator", "--json", str(out)]
    printed = subprocess.run(command, check=True, capture_output=True, text=True, timeout=600).stdout
    assert "2 round(s)" in printed
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["rounds"] == 2
    assert [row["case"] for row in report["rows"]] == ["ismcts", "pimc_estimator"]
    for row in report["rows"]:
        assert len(row["runs"]) == 2
        assert row["rate"] > 0
        low, high = row["ratio_range"]
        assert low <= row["ratio"] <= high
        assert row["case"] in printed
    assert report["rows"][0]["ratio"] == 1.0


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--rounds", "0"], "--rounds must be at least 1, not 0"),
        (["--seconds", "-1"], "--seconds must be positive, not -1.0"),
        (["--positions", "0"], "--positions must be at least 1, not 0"),
        (["--only", "nosuch"], "unknown case 'nosuch'"),
    ],
)
def test_search_speed_refuses_bad_arguments_in_one_line(argv: list[str], said: str) -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), *argv], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert said in done.stderr
    assert "Traceback" not in done.stderr
