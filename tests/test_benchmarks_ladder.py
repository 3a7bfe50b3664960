"""``benchmarks/level_ladder.py`` runs and reports (issue 11): never a margin or a timing, only
that every level gets a rating, every adjacent pair a gain and the table its rows."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from helpers import load_script

pytest.importorskip("openskill")

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "level_ladder.py"


def _ladder() -> ModuleType:
    return load_script(SCRIPT, "level_ladder")


def test_ladder_runs_and_reports_every_level(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ladder = _ladder()
    out = tmp_path / "ladder.json"
    argv = ["--boards", "2", "--workers", "1", "--four", "--json", str(out)]
    argv += [
        "--spec",
        "easy=random",
        "--spec",
        "hard=pimc:iterations=2",
        "--spec",
        "expert=pimc:iterations=3,z=0",
    ]
    assert ladder.main(argv) == 0
    report = json.loads(out.read_text())
    assert set(report["ratings"]) == set(ladder.ORDER)
    assert [(pair["upper"], pair["lower"]) for pair in report["pairs"]] == [
        ("medium", "easy"),
        ("hard", "medium"),
        ("expert", "hard"),
    ]
    for pair in report["pairs"]:
        assert pair["boards"] == 2
        assert pair["deals"] == 4
        assert pair["bots"][0]["ci95"] is not None
    assert report["four"]["deals"] == 8  # four rotations a board
    printed = capsys.readouterr().out
    table = [line for line in printed.splitlines() if line.startswith("| ")]
    assert len(table) == 2 + len(ladder.ORDER)
    assert "| expert | `pimc:iterations=3,z=0` |" in printed
    assert "over hard" in printed


def test_ladder_iterations_mode_prints_the_mapping(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ladder = _ladder()
    out = tmp_path / "ladder.json"
    argv = [
        "--boards",
        "1",
        "--workers",
        "1",
        "--iterations-mode",
        "--calib-decisions",
        "2",
        "--json",
        str(out),
    ]
    argv += ["--spec", "easy=random", "--spec", "hard=pimc:ms=2", "--spec", "expert=pimc:ms=3,z=0"]
    from paiute.compiled import available

    if not available():
        with pytest.raises(SystemExit):
            ladder.main(argv)
        return
    assert ladder.main(argv) == 0
    report = json.loads(out.read_text())
    mapping = report["iterations_mapping"]
    assert set(mapping) == {"hard", "expert"}
    assert mapping["expert"]["iterations_spec"].startswith("pimc:iterations=")
    assert mapping["expert"]["iterations_spec"].endswith(",z=0")
    assert report["specs"]["hard"] == mapping["hard"]["iterations_spec"]
    assert "pimc:ms=2 -> pimc:iterations=" in capsys.readouterr().out


def test_ladder_refuses_an_unknown_level(capsys: pytest.CaptureFixture[str]) -> None:
    ladder = _ladder()
    with pytest.raises(SystemExit) as stopped:
        ladder.parse_args(["--spec", "grandmaster=greedy"])
    assert stopped.value.code == 2
    assert "grandmaster=greedy" in capsys.readouterr().err


def test_rate_ladder_puts_bots_of_several_tournaments_on_one_scale() -> None:
    from paiute.analysis.tournament import rate_ladder, run_tournament

    first = run_tournament(["greedy", "random"], deals=2, players=4, seed=3, workers=1, seating="rotations")
    second = run_tournament(
        ["mc:iterations=2", "greedy"], deals=2, players=4, seed=3, workers=1, seating="rotations"
    )
    ladder = rate_ladder([first, second], {"mc:iterations=2": "easy"})
    assert list(ladder) == ["greedy", "random", "easy"]  # greedy met twice, rated once
    alone = rate_ladder([first])
    assert ladder["greedy"] != alone["greedy"]  # the second tournament moved it
    assert set(ladder["easy"]) == {"mu", "sigma", "ordinal"}


def test_ladder_plays_more_boards_where_a_pair_asks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ladder = _ladder()
    out = tmp_path / "ladder.json"
    argv = ["--boards", "1", "--workers", "1", "--pair-boards", "expert=3", "--json", str(out)]
    argv += ["--spec", "easy=random", "--spec", "medium=random"]
    assert ladder.main(argv) == 0
    report = json.loads(out.read_text())
    assert [pair["boards"] for pair in report["pairs"]] == [1, 1, 3]
    assert report["pair_boards"] == {"expert": 3}
    assert "(3 for expert over the level below)" in capsys.readouterr().out


@pytest.mark.parametrize("item", ["easy=3", "expert=0", "expert=x", "expert"])
def test_ladder_refuses_bad_pair_boards(item: str, capsys: pytest.CaptureFixture[str]) -> None:
    ladder = _ladder()
    with pytest.raises(SystemExit) as stopped:
        ladder.parse_args(["--pair-boards", item])
    assert stopped.value.code == 2
    assert f"--pair-boards {item!r}" in capsys.readouterr().err
