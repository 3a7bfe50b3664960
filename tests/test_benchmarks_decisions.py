"""``benchmarks/decision_value.py`` and ``benchmarks/belief_bound.py`` run and report (issue 11):
never a margin or a timing, only that every variant gets a row from the same decisions."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("numba")

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_decision_value_scores_every_variant_on_the_same_decisions() -> None:
    script = _script("decision_value")
    variants = ["ranks", "uniform@1/8", "moves#g/4", "exact"]
    gains, kinds = script.play_game((3, "gamerules", 6, 12, variants))
    counts = {len(values) for values in gains.values()}
    assert counts == {len(kinds)}
    assert len(kinds) > 5
    assert set(gains) == set(variants)
    assert set(kinds) <= set(script.KINDS)


def test_decision_value_refuses_a_bad_variant(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = _script("decision_value")
    monkeypatch.setattr(sys, "argv", ["decision_value.py", "--variants", "ranks,psychic"])
    with pytest.raises(SystemExit):
        script.main()
    assert "bad variant 'psychic'" in capsys.readouterr().err


def test_belief_bound_plays_a_board_with_each_belief() -> None:
    script = _script("belief_bound")
    for variant in script.VARIANTS:
        chips = script.play_board((1, variant, 4, "playout", "pagat", 5, (2, 8, 0.1)))
        assert isinstance(chips, float)
