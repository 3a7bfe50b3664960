"""``benchmarks/hint_strength.py`` runs and reports: a row for every rule asked (the hint's old
argmax, the hint's move, the expert's), played on the same boards, and one clear error for a
rule it does not know. Never a margin or a timing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import load_script

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "hint_strength.py"


def test_hint_strength_reports_a_row_for_every_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "hint.json"
    argv = ["--boards", "1", "--playouts", "2", "--workers", "1", "--preset", "gamerules", "--json", str(out)]
    assert load_script(SCRIPT, "hint_strength").main(argv) == 0
    report = json.loads(out.read_text())
    assert [row["rule"] for row in report["rows"]] == ["argmax", "hint", "expert"]
    for row in report["rows"]:
        assert isinstance(row["chips_per_deal"], float)
    printed = capsys.readouterr().out
    assert "| `hint` |" in printed


def test_hint_strength_refuses_an_unknown_rule(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        load_script(SCRIPT, "hint_strength_bad").main(["--rules", "hint,oracle"])
    assert exit_info.value.code == 2
    assert "--rules 'hint,oracle'" in capsys.readouterr().err
