"""The ``paiute`` command line: eval, replay, rules, and every error path."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CONFORMANCE
from paiute.cli.main import main

RECORDS = CONFORMANCE / "records"


def run(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8")
    try:
        status = main(list(argv))
    finally:
        sys.stdin = sys.__stdin__
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def json_lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


# -- paiute eval -----------------------------------------------------------------------------


def test_r5_4_eval_worked_example_four_two_aces_over_kings(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "eval", "3h 3s Ad Ac Ks Kh", "--wild", "3")
    assert status == 0
    assert "Four/Two, aces over kings" in out


def test_r5_1_eval_json_five_of_a_kind_with_discard(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "eval", "3c", "3d", "3h", "3s", "7d", "2c", "--wild", "3", "--json")
    assert status == 0
    (result,) = json_lines(out)
    assert result == {
        "best": {"name": "five_of_a_kind", "ranks": ["7"]},
        "best5": {"value": {"name": "five_of_a_kind", "ranks": ["7"]}, "discard": "2c"},
        "best6": {"name": "four_two", "ranks": ["7", "2"]},
    }


def test_r5_10_eval_five_cards_reports_only_best(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "eval", "9h Th Jh Qh 3c", "--wild", "3", "--json")
    assert status == 0
    assert json_lines(out) == [{"best": {"name": "straight_flush", "ranks": ["K"]}}]


def test_r5_9_eval_nothing_is_null(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "eval", "Ah 2h 3d 4h 5h Kc", "--wild", "9", "--json")
    assert status == 0
    assert json_lines(out) == [{"best": None, "best5": None, "best6": None}]
    status, out, _ = run(capsys, "eval", "Ah 2h 3d 4h 5h Kc", "--wild", "9")
    assert "no combination" in out


def test_r3_3_eval_opposite_of_upcard(capsys: pytest.CaptureFixture[str]) -> None:
    # Upcard 3d (red): only 3c and 3s are wild; 3h is a natural heart.
    status, out, _ = run(capsys, "eval", "3h 3s Ah Kh Qh Jh", "--opposite-of", "3d", "--json")
    assert status == 0
    (result,) = json_lines(out)
    assert result["best"] == {"name": "royal_flush", "ranks": []}
    assert result["best5"] == {"value": {"name": "royal_flush", "ranks": []}, "discard": "3h"}


def test_r5_8_eval_royal_high(capsys: pytest.CaptureFixture[str]) -> None:
    cards = "3c 3d 3h 3s Ah Kh"
    _, out, _ = run(capsys, "eval", cards, "--wild", "3", "--json")
    assert json_lines(out)[0]["best"] == {"name": "five_of_a_kind", "ranks": ["A"]}
    _, out, _ = run(capsys, "eval", cards, "--wild", "3", "--royal-high", "--json")
    assert json_lines(out)[0]["best"] == {"name": "royal_flush", "ranks": []}


def test_r3_2_eval_jokers_plain_jk(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "eval", "Ks Qs Js Ts Jk", "--jokers", "--json")
    assert status == 0
    assert json_lines(out) == [{"best": {"name": "royal_flush", "ranks": []}}]


def test_r1_4_eval_bad_card_text_is_quoted(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "eval", "3h 11s Ad Ac Ks Kh")
    assert status == 2
    assert out == ""
    assert "'11s'" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["eval", "3h 3s Ad"], "5 or 6 cards"),
        (["eval", "Ah Ah Kd Kc Qs"], "appears twice"),
        (["eval", "Jk Ks Qs Js Ts", "--wild", "3"], "--jokers"),
        (["eval", "Ks Qs Js Ts 9s", "--wild", "4", "--opposite-of", "3d"], "disagrees"),
        (["eval", "Ks Qs Js Ts 9s", "--wild", "Z"], "'Z'"),
    ],
)
def test_eval_errors_are_one_clear_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert out == ""
    assert status == 2
    assert needle in err
    assert len(err.strip().splitlines()) == 1


def test_eval_wild_and_jokers_are_exclusive(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["eval", "Ks Qs Js Ts 9s", "--wild", "3", "--jokers"])
    assert exit_info.value.code == 2
    assert "not allowed with" in capsys.readouterr().err


def test_eval_batch_mixed_lines_json(capsys: pytest.CaptureFixture[str]) -> None:
    lines = "\n".join(
        [
            "3h 3s Ad Ac Ks Kh",
            json.dumps({"cards": "Ah 2h 3d 4h 5h 9c", "wild": {"rank": "9"}}),
            json.dumps({"cards": "Ks Qs Js Ts Jk", "wild": {"jokers": True}, "royal_high": True}),
            json.dumps(
                {"cards": "3h 3s Ah Kh Qh Jh", "wild": {"rank": "3", "colour": "opposite", "upcard": "3d"}}
            ),
            "",
            "not cards",
            "{broken json",
        ]
    )
    status, out, _ = run(capsys, "eval", "--wild", "3", "--json", stdin=lines + "\n")
    results = json_lines(out)
    assert status == 1  # some lines were bad
    assert len(results) == 6
    assert results[0]["best"] == {"name": "four_two", "ranks": ["A", "K"]}
    assert results[1]["best5"] == {"value": {"name": "straight_flush", "ranks": ["5"]}, "discard": "3d"}
    assert results[2] == {"best": {"name": "royal_flush", "ranks": []}}
    assert results[3]["best"] == {"name": "royal_flush", "ranks": []}
    assert "line 6" in str(results[4]["error"])
    assert "line 7" in str(results[5]["error"])


def test_eval_batch_text_all_good_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "eval", "--wild", "3", stdin="3h 3s Ad Ac Ks Kh\n9h Th Jh Qh 3c 2s\n")
    assert status == 0
    assert "Four/Two, aces over kings" in out
    assert "Straight Flush, king high" in out


def test_eval_agrees_with_every_conformance_case(capsys: pytest.CaptureFixture[str]) -> None:
    cases = [json.loads(line) for line in (CONFORMANCE / "eval_sample.jsonl").read_text().splitlines()]
    stdin = "".join(
        json.dumps({"cards": c["cards"], "wild": c["wild"], "royal_high": c["royal_high"]}) + "\n"
        for c in cases
    )
    status, out, _ = run(capsys, "eval", "--json", stdin=stdin)
    assert status == 0
    for case, result in zip(cases, json_lines(out), strict=True):
        assert result["best"] == case["best"]
        if "best5" in case:
            assert result["best6"] == case["best6"]
            if case["best5"] is None:
                assert result["best5"] is None
            else:
                assert result["best5"]["value"] == case["best5"]["value"]
                assert result["best5"]["discard"] in case["best5"]["discards"]


# -- paiute replay ---------------------------------------------------------------------------


def test_replay_valid_record_json(capsys: pytest.CaptureFixture[str]) -> None:
    expected = json.loads((RECORDS / "ok_000.expected.json").read_text())
    status, out, _ = run(capsys, "replay", str(RECORDS / "ok_000.json"), "--json")
    assert status == 0
    result = json.loads(out)
    for deal in result["deals"] + expected["deals"]:
        for caller in deal["callers"]:
            caller["cards"] = sorted(caller["cards"])
    assert result == expected


def test_replay_valid_record_text(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "replay", str(RECORDS / "ok_030.json"))
    assert status == 0
    assert "Royal Flush" in out
    assert "record is valid" in out


def test_r4_3_replay_broken_rule_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "replay", str(RECORDS / "bad_060.json"), "--json")
    assert status == 1
    error = json.loads(out)["error"]
    assert (error["deal"], error["action"], error["text"], error["rule"]) == (0, 3, "call 5h", "R4.3")
    assert "R4.3" in error["message"]


def test_replay_malformed_record_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "replay", str(RECORDS / "bad_130.json"), "--json")
    assert status == 1
    assert "11s" in json.loads(out)["error"]["malformed"]


def test_replay_missing_path_is_a_usage_error_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Like play --resume: a path that is not there is bad usage (2), not a bad record (1).
    for extra in ([], ["--json"]):
        status, out, err = run(capsys, "replay", str(tmp_path / "missing.json"), *extra)
        assert (status, out) == (2, "")
        assert err.startswith("paiute replay: error: cannot read")
        assert err.count("\n") == 1
    junk = tmp_path / "junk.json"
    junk.write_text("not json at all")
    status, out, _ = run(capsys, "replay", str(junk))
    assert status == 1
    assert "not JSON" in out


def test_replay_reads_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = (RECORDS / "ok_020.json").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["replay", "-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True


# -- paiute rules ----------------------------------------------------------------------------


def test_rules_presets_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "rules", "--preset", "gamerules", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["options"]["open_discard"] is True
    assert data["record"] == {"preset": "gamerules"}
    status, out, _ = run(capsys, "rules", "--option", "royal_high=on", "--option", "stake=5")
    assert status == 0
    assert "R5.8" in out
    assert "* changed from the preset" in out


@pytest.mark.parametrize("option", ["payouts=scale", "stake=-1", "ties=sometimes", "royal_high"])
def test_rules_bad_option_is_refused(capsys: pytest.CaptureFixture[str], option: str) -> None:
    status, _, err = run(capsys, "rules", "--option", option)
    assert status == 2
    assert "error" in err


# -- the installed command -----------------------------------------------------------------


@pytest.mark.parametrize("command", [[], ["eval"], ["replay"], ["rules"]])
def test_help_on_every_command(command: list[str]) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "paiute", *command, "--help"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    assert "usage: paiute" in result.stdout
    assert "example" in result.stdout


def test_console_script_is_installed() -> None:
    script = shutil.which("paiute") or str(Path(sys.executable).parent / "paiute")
    result = subprocess.run(
        [script, "eval", "3h 3s Ad Ac Ks Kh", "--wild", "3", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["best"] == {"name": "four_two", "ranks": ["A", "K"]}
