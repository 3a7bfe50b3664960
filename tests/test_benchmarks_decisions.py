"""``benchmarks/decision_value.py``, ``benchmarks/belief_bound.py`` and
``benchmarks/policy_agreement.py`` run and report (issue 11):
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
    gains, kinds = script.play_game((3, "gamerules", 6, 12, variants, "playout"))
    counts = {len(values) for values in gains.values()}
    assert counts == {len(kinds)}
    assert len(kinds) > 5
    assert set(gains) == set(variants)
    assert set(kinds) <= set(script.KINDS)


def _refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str, *args: str
) -> str:
    """What the script ``name`` says on stderr when it refuses ``args`` (it must exit)."""
    script = _script(name)
    monkeypatch.setattr(sys, "argv", [f"{name}.py", *args])
    with pytest.raises(SystemExit):
        script.main()
    return capsys.readouterr().err


def test_decision_value_refuses_a_bad_variant(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "bad variant 'psychic'" in _refused(
        monkeypatch, capsys, "decision_value", "--variants", "ranks,psychic"
    )


def test_belief_bound_plays_a_board_with_each_belief() -> None:
    script = _script("belief_bound")
    ratio = script.calibrate("pagat", 2, 5, 1)
    assert ratio.shape == (script.BUCKETS, script.PROFILES)
    assert (ratio > 0).all()
    setup = script.Setup(4, "playout", "pagat", 5, (2, 8, 0.1), None, ratio)
    for variant in script.VARIANTS:
        chips = script.play_board((1, variant, setup))
        assert isinstance(chips, float)


def test_belief_bound_profiles_count_pairs_the_top_rank_and_wild_cards() -> None:
    import numpy as np

    from paiute.cards import parse_cards

    script = _script("belief_bound")

    wild = np.zeros(54, dtype=np.bool_)
    wild[[int(card) for card in parse_cards("3c 3d 3h 3s")]] = True
    hands = np.array(
        [
            [int(card) for card in parse_cards(text)]
            for text in ("Ah Ad 7c 7s 9d", "Ah Ad As 3c 9d", "2c 5d 8h Js Kc")
        ]
    )
    assert script.profiles(hands, wild).tolist() == [
        2 * 12 + 2 * 3 + 0,
        1 * 12 + 3 * 3 + 1,
        0 * 12 + 1 * 3 + 0,
    ]


def test_decision_value_can_value_the_true_deal_with_greedy_playouts() -> None:
    script = _script("decision_value")
    variants = ["ranks", "exact"]
    by_playout = script.play_game((3, "gamerules", 6, 12, variants, "playout"))
    by_greedy = script.play_game((3, "gamerules", 6, 12, variants, "greedy"))
    assert by_greedy[1] == by_playout[1]  # the same decisions, valued by other playouts
    assert {len(values) for values in by_greedy[0].values()} == {len(by_greedy[1])}


def test_belief_bound_plays_with_the_factors_asked_for() -> None:
    script = _script("belief_bound")
    setup = script.Setup(4, "playout", "gamerules", 5, factors=(0.3, 0.5, 3.0))
    chips = script.play_board((2, "inference", setup))
    assert isinstance(chips, float)


def test_belief_bound_refuses_bad_factors(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    error = _refused(monkeypatch, capsys, "belief_bound", "--factors", "0.5,lots")
    assert "--factors wants THREW,PASSED,TOOK (three numbers), not '0.5,lots'" in error
    for hostile in ("0,0.8,1.6", "-1,0.8,1.6", "nan,1,1", "inf,1,1"):
        error = _refused(monkeypatch, capsys, "belief_bound", f"--factors={hostile}")
        assert f"--factors must be positive finite numbers, not '{hostile}'" in error
    assert "--calibrate must be at least 1, not 0" in _refused(
        monkeypatch, capsys, "belief_bound", "--variants", "structure", "--calibrate", "0"
    )


def test_policy_agreement_reports_every_kind_it_met(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = _script("policy_agreement")
    monkeypatch.setattr(sys, "argv", ["policy_agreement.py", "--preset", "gamerules", "--games", "2"])
    script.main()
    out = capsys.readouterr().out
    assert out.startswith("gamerules, 2 deals of greedy self-play")
    assert " draw " in out
    assert " discard " in out
    assert "% " in out
