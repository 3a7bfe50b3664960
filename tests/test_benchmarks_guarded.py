"""``benchmarks/guarded.py`` runs and reports (issue 11): a row of margin for every preset and
table size asked, the decision times of both players on the same positions, and one clear
error for bad arguments. Never a margin or a timing."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from helpers import load_script

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "guarded.py"


def _script() -> ModuleType:
    return load_script(SCRIPT, "guarded_benchmark")


def test_guarded_benchmark_reports_every_table_and_both_timings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "guarded.json"
    argv = ["--boards", "2", "--seats", "2,5", "--presets", "gamerules", "--workers", "1"]
    assert _script().main([*argv, "--positions", "6", "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert [(row["preset"], row["seats"]) for row in report["margins"]] == [
        ("gamerules", 2),
        ("gamerules", 5),
    ]
    for row in report["margins"]:
        assert row["boards"] == 2
        assert row["deals"] == 2 * row["seats"]  # every rotation of the line-up plays each board
        assert row["ci95"] is not None
    timing = report["decision_times"]
    assert timing["positions"] == 6
    assert timing["guarded"]["mean_ms"] > 0
    assert timing["greedy"]["mean_ms"] > 0
    printed = capsys.readouterr().out
    assert printed.count("| gamerules |") == 2
    assert "time a decision, 6 positions" in printed


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seats", "1"], "seat counts from 2 to 8 (R2.1)"),
        (["--seats", "4,x"], "--seats must be whole numbers"),
        (["--presets", "poker"], "unknown preset 'poker'"),
        (["--boards", "1"], "--boards must be at least 2"),
        (["--lineup", "all"], "invalid choice: 'all'"),
        (["--bot", "psychic"], "--bot 'psychic': unknown player 'psychic'"),
        (["--bot", "guarded:weight=-1"], "--bot 'guarded:weight=-1'"),
    ],
)
def test_guarded_benchmark_refuses_bad_arguments(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        _script().parse_args(args)
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err


def test_guarded_benchmark_field_reports_what_the_greedy_seat_loses(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--lineup field``: one greedy among guarded bots; the figure is the greedy seat's
    chips a deal with the sign turned (its loss), the interval turned with it."""
    script = _script()
    row = script.margin("pagat", 3, 3, 5, 1, "field")
    assert row["lineup"] == "field"
    assert row["deals"] == 9  # three rotations a board
    low, high = row["ci95"]
    assert low <= row["chips_per_deal"] <= high
    assert script.lineup(4, "field") == ["greedy", "guarded", "guarded", "guarded"]
    from paiute import RuleSet
    from paiute.analysis.tournament import run_tournament

    greedy = run_tournament(
        ["greedy", "guarded", "guarded"],
        deals=3,
        players=3,
        seed=5,
        workers=1,
        rules=RuleSet(),
        seating="rotations",
    ).standings[0]
    assert greedy.ci95 is not None
    assert (row["chips_per_deal"], tuple(row["ci95"])) == (
        -greedy.chips_per_deal,
        (-greedy.ci95[1], -greedy.ci95[0]),
    )
