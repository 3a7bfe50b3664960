"""``benchmarks/vector_env.py`` runs and reports (issue 39): every case, its rate, peak RSS and
load, and the ratio of the compiled env to the synchronous one for each opponent; never a
timing or a ratio asserted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")
pytest.importorskip("gymnasium")

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "vector_env.py"


def test_vector_env_benchmark_reports_every_case_side_by_side(tmp_path: Path) -> None:
    out = tmp_path / "vector.json"
    command = [sys.executable, str(SCRIPT), "--seconds", "0.05", "--repeats", "1", "--num-envs", "4"]
    command += ["--players", "3", "--json", str(out)]
    printed = subprocess.run(command, check=True, capture_output=True, text=True, timeout=900).stdout
    report = json.loads(out.read_text(encoding="utf-8"))
    cases = ["compiled_greedy", "sync_greedy", "compiled_random", "sync_random"]
    assert sorted(report["medians"]) == sorted(cases)
    for case in cases:
        assert len(report["rates"][case]) == 1
        assert report["medians"][case] > 0
        assert report["peak_rss_mib"][case] > 0
        assert report["loads"][case]
    assert set(report["ratios"]) == {"greedy", "random"}
    assert "ratio compiled / sync, greedy opponents" in printed
    assert "load average at start" in printed


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--repeats", "0"], "--repeats must be at least 1, not 0"),
        (["--num-envs", "0"], "--num-envs must be at least 1, not 0"),
        (["--seconds", "0"], "--seconds must be positive, not 0.0"),
        (["--players", "9"], "--players must lie in 2..8, not 9"),
    ],
)
def test_vector_env_benchmark_refuses_bad_arguments_in_one_line(argv: list[str], said: str) -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), *argv], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert said in done.stderr
    assert "Traceback" not in done.stderr
