"""``benchmarks/hint_strength.py`` runs and reports: a row for every rule asked (the hint's old
argmax, the expert's move, which is the hint's, and the rules that overrule it), played on the
same boards, each paired with the first, and one clear error for a rule it does not know.
Never a margin or a timing."""

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
    assert [row["rule"] for row in report["rows"]] == [
        "argmax",
        "overrule",
        "expert",
        "strict",
        "last-round",
        "calls",
        "draws",
        "discards",
    ]
    for row in report["rows"]:
        assert isinstance(row["chips_per_deal"], float)
    # Every rule after the first, paired with it board by board.
    assert [(row["rule"], row["against"]) for row in report["paired"]] == [
        ("overrule", "argmax"),
        ("expert", "argmax"),
        ("strict", "argmax"),
        ("last-round", "argmax"),
        ("calls", "argmax"),
        ("draws", "argmax"),
        ("discards", "argmax"),
    ]
    printed = capsys.readouterr().out
    assert "| `expert` |" in printed
    assert "strict - argmax: " in printed


def test_the_strict_rule_needs_more_than_one_interval_above_zero() -> None:
    # 9h beats the expert's 2c with its plain 95% interval above zero (t = 2.10 on 20 paired
    # playouts), not with Bonferroni's for two alternatives (z = 2.24): the overrule rule
    # leaves the expert's move, the strict rule does not; a clear win overrules both.
    from paiute.actions import Action
    from paiute.cards import Card
    from paiute.players.evaluate import ActionEstimate, Estimates

    module = load_script(SCRIPT, "hint_strength_strict")
    actions = [Action.discard(Card.parse(text)) for text in ("2c", "9h", "Ks")]

    def estimates(nine: list[float]) -> Estimates:
        values = [[0.0] * len(nine), nine, [-1.0] * len(nine)]
        rows = [
            ActionEstimate(action, sum(row) / len(row), 0.0, 0.0, len(row))
            for action, row in zip(actions, values, strict=True)
        ]
        return Estimates(0, tuple(rows), tuple(tuple(row) for row in values), 3 * len(nine), 0.0)

    close = estimates([1, -1, 1, 1, 0, 1, 1, -1, 1, 1, 0, 1, 0, 0, 1, 0, 1, -1, 0, 0])
    assert module.overrule(close, actions[0]) == actions[1]
    assert module.overrule(close, actions[0], strict=True) == actions[0]
    clear = estimates([1.0] * 19 + [0.5])
    assert module.overrule(clear, actions[0]) == module.overrule(clear, actions[0], strict=True) == actions[1]
    # Within the noise (every paired difference but one is zero): the expert's move stands.
    assert module.overrule(estimates([0.0] * 19 + [5.0]), actions[0]) == actions[0]


def test_hint_strength_refuses_an_unknown_rule(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        load_script(SCRIPT, "hint_strength_bad").main(["--rules", "hint,oracle"])
    assert exit_info.value.code == 2
    assert "--rules 'hint,oracle'" in capsys.readouterr().err
