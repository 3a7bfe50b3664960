"""``paiute review``: the --json lines, the table, and records refused as paiute replay refuses them."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest

from conftest import CONFORMANCE
from paiute.cli.main import main
from paiute.i18n import chips_in_hundredths
from review_helpers import played_record

RECORDS = CONFORMANCE / "records"
WILD = dict(players=2, dealer=0, hands={1: "3c Kc Kh Kd 9s"}, upcard="3h", stock="2d")
KEYS = [
    "deal",
    "action",
    "seat",
    "played",
    "best",
    "net_played",
    "net_best",
    "interval",
    "loss",
    "loss_interval",
    "mark",
    "unmarked",
    "stake",
    "samples",
    "expert",
    "better",
]


def run(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8")
    try:
        status = main(list(argv))
    finally:
        sys.stdin = sys.__stdin__
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture(scope="module")
def wild_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("review") / "wild.json"
    path.write_text(played_record(**WILD, actions=["draw stock", "discard 3c"]).dumps())
    return path


def test_json_one_line_per_decision_then_a_summary(capsys, wild_record):
    status, out, _ = run(capsys, "review", str(wild_record), "--json", "--playouts", "16", "--workers", "1")
    assert status == 0
    lines = [json.loads(line) for line in out.splitlines()]
    *decisions, summary = lines
    assert decisions
    for line in decisions:
        assert list(line) == KEYS
        assert line["mark"] in (None, "inaccuracy", "mistake", "blunder")
        assert len(line["interval"]) == 2
        assert line["loss"] >= 0
    first = next(line for line in decisions if line["seat"] == 1)
    assert first["deal"] == 0
    assert first["action"] == 1  # numbered as in the record: the forced first draw is action 0
    assert first["played"] == "discard 3c"
    assert first["mark"] == "blunder"
    assert summary["format"] == "paiute-review/2"
    assert [entry["seat"] for entry in summary["summary"]] == [0, 1]
    assert set(summary["summary"][1]) == {
        "seat",
        "decisions",
        "loss",
        "inaccuracy",
        "mistake",
        "blunder",
        "accuracy",
    }


def test_seat_deal_seed_and_stdin(capsys, wild_record):
    text = wild_record.read_text()
    args = ["review", "-", "--json", "--seat", "1", "--deal", "1", "--playouts", "4", "--seed", "3"]
    status, out, _ = run(capsys, *args, "--workers", "1", stdin=text)
    assert status == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert {line["seat"] for line in lines[:-1]} == {1}
    again = run(capsys, *args, "--workers", "2", stdin=text)[1]
    assert again == out  # the same review in one process or two


def test_human_table_shows_the_mark(capsys, wild_record):
    status, out, _ = run(
        capsys, "review", str(wild_record), "--seat", "1", "--playouts", "16", "--workers", "1"
    )
    assert status == 0
    assert "blunder" in out
    assert re.search(r"accuracy: \d+\.\d%", out)
    # As a player tells it, numbered as people count: deal 1, move 2 (the record's action 1).
    row = next(line for line in out.splitlines() if "discarded 3♣" in line)
    assert row.split()[:2] == ["1", "2"]
    assert "Move" in out
    assert "Action" not in out
    # What the figures mean, said once above the tables; every figure signed, two decimals.
    assert out.count("(0 is break-even)") == 1
    chips = row.split("discarded 3♣")[1].split()[0]
    assert re.fullmatch(r"[+-]\d+\.\d\d", chips), row


def test_the_table_says_why_a_loss_has_no_mark_and_the_total_is_the_sum_shown(capsys, tmp_path):
    # Seat 1 throws a king of three kings and a wild three for nothing: a loss, unmarked at 2
    # playouts (its interval reaches 0) or marked at more; either way the table says which.
    path = tmp_path / "kings.json"
    path.write_text(played_record(**WILD, actions=["draw stock", "discard Kc"]).dumps())
    for playouts in ("2", "16"):
        status, out, _ = run(
            capsys, "review", str(path), "--seat", "1", "--playouts", playouts, "--workers", "1"
        )
        assert status == 0
        status, lines, _ = run(capsys, "review", str(path), "--seat", "1", "--playouts", playouts, "--json")
        *decisions, summary = [json.loads(line) for line in lines.splitlines()]
        for decision in decisions:
            row = next(
                line for line in out.splitlines() if re.match(rf"\s+1\s+{decision['action'] + 1}\s", line)
            )
            if decision["mark"] is not None:
                assert decision["unmarked"] is None
                assert row.rstrip().endswith(decision["mark"])
            elif decision["unmarked"] == "noise":
                assert row.rstrip().endswith("within noise")
            elif decision["unmarked"] == "small":
                assert row.rstrip().endswith("small loss")
            else:
                assert round(decision["loss"], 2) == 0
        total = summary["summary"][0]["loss"]
        assert f"expected loss: {total:.2f} chips" in out
        assert sum(chips_in_hundredths(d["loss"]) for d in decisions) == chips_in_hundredths(total)


def _refusals() -> list[Path]:
    return [*sorted(RECORDS.glob("bad_*.json"))[::4], RECORDS / "missing.json"]


@pytest.mark.parametrize("path", _refusals(), ids=lambda path: path.name)
@pytest.mark.parametrize("as_json", [False, True])
def test_a_bad_record_is_refused_as_replay_refuses_it(capsys, path, as_json):
    flags = ["--json"] if as_json else []
    replay = run(capsys, "replay", str(path), *flags)
    review = run(capsys, "review", str(path), *flags)
    # A missing file is a usage error (2, issue 15 point 17), a bad record an invalid one (1).
    assert replay[0] == (2 if path.name == "missing.json" else 1)
    status, out, err = review
    assert (status, out, err.replace("paiute review:", "paiute replay:")) == replay
    assert len((out or err).splitlines()) == 1


def test_not_json_on_stdin_is_refused_as_replay_refuses_it(capsys):
    assert run(capsys, "review", "-", stdin="{nope") == run(capsys, "replay", "-", stdin="{nope")


@pytest.mark.parametrize(
    "argv",
    [
        ["--seat", "7"],
        ["--deal", "3"],
        ["--deal", "0"],
        ["--playouts", "0"],
        ["--seat", "1", "--all"],
        ["--budget", "-5"],
    ],
)
def test_usage_errors_exit_2(capsys, wild_record, argv):
    try:
        status = run(capsys, "review", str(wild_record), *argv)[0]
    except SystemExit as exit_:  # argparse's own usage errors
        status = exit_.code
    assert status == 2
    assert "Traceback" not in capsys.readouterr().err


def test_a_seat_or_deal_not_in_the_record_is_named_with_the_ones_there(capsys, wild_record):
    status, _, err = run(capsys, "review", str(wild_record), "--deal", "3")
    assert status == 2
    assert err == "paiute review: error: --deal 3: this record has 1 deal: choose 1\n"
    status, _, err = run(capsys, "review", str(wild_record), "--deal", "0")
    assert status == 2
    assert "--deal 0: this record has 1 deal: choose 1" in err  # deals are counted from 1
    status, _, err = run(capsys, "review", str(wild_record), "--seat", "7")
    assert status == 2
    assert "--seat 7: the record has seats 0 to 1" in err


def test_json_better_names_the_better_action_only_where_the_loss_is_above_zero(capsys, wild_record):
    status, out, _ = run(capsys, "review", str(wild_record), "--json", "--playouts", "8", "--workers", "1")
    assert status == 0
    decisions = [json.loads(line) for line in out.splitlines()[:-1]]
    assert decisions
    for row in decisions:  # (loss is rounded to the JSON's places: a named one may show 0.0)
        if row["better"] is None:
            assert row["best"] == row["played"] or row["loss"] <= 0
        else:
            assert row["better"] == row["best"] != row["played"]
            assert row["loss"] >= 0
    assert any(row["better"] is not None for row in decisions)
    assert any(row["better"] is None for row in decisions)
