"""The experiment ``research/guard_departures.py`` runs and reports: a row for the deciding
seat and for its team after each continuation, and one clear error for a bad count. Never a
margin."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from research import guard_departures


def test_guard_departures_reports_own_and_team_for_each_continuation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "departures.json"
    argv = ["--games", "8", "--rollouts", "2", "--workers", "1", "--preset", "pagat", "--json", str(out)]
    assert guard_departures.main(argv) == 0
    report = json.loads(out.read_text())
    assert report["weighed"] > report["departures"] > 0  # these eight seeded deals have one
    assert [(row["after"], row["scope"]) for row in report["rows"]] == [
        ("greedy", "own"),
        ("greedy", "team"),
        ("guarded", "own"),
        ("guarded", "team"),
    ]
    assert "discards weighed before a call" in capsys.readouterr().out


def test_guard_departures_refuses_zero_rollouts(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        guard_departures.main(["--rollouts", "0"])
    assert "--rollouts" in capsys.readouterr().err
