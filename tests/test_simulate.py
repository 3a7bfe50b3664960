"""``paiute simulate``: the facts of many deals, their consistency, determinism and the CLI."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

import paiute.analysis.simulate.running as simulate_module  # where run_configs looks up simulate_deal
from paiute.actions import Action
from paiute.analysis.simulate import (
    Comparison,
    SimulationConfig,
    SimulationReport,
    compare,
    compare_values,
    deal_seed,
    parse_bots,
    simulate,
    simulate_deal,
)
from paiute.cli.main import main
from paiute.combos import Category
from paiute.errors import PaiuteError
from paiute.observation import Observation
from paiute.players import PLAYERS, PlayerInfo
from paiute.rules import RuleSet

# Deals with random bots are long (hundreds of actions); few rebuilds keep the tests quick.
QUICK = RuleSet(max_rebuilds=1)


class EagerCaller:
    """Calls whenever it can (the last call offered: the six-card one if any), else random."""

    name = "eager"

    def __init__(self, *, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    def act(self, observation: Observation) -> Action:
        actions = observation.legal_actions
        calls = [action for action in actions if action.kind.is_call]
        if calls:
            return calls[-1]
        return actions[self._random.randrange(len(actions))]


@pytest.fixture
def eager(monkeypatch: pytest.MonkeyPatch) -> str:
    """A bot that calls often, registered for this test only (in this process only)."""
    monkeypatch.setitem(PLAYERS, "eager", PlayerInfo("eager", EagerCaller, "calls whenever it can"))
    return "eager"


def _check_consistent(report: SimulationReport) -> None:
    deals = report.deals
    estimates = report.estimates()
    counts = report.counts()
    n = report.completed
    for key, estimate in estimates.items():
        fact = next(f for f in report.facts if f.key == key)
        assert estimate.n <= n
        if estimate.value is None:
            assert estimate.n == 0
            continue
        if fact.kind == "rate":
            assert 0.0 <= estimate.value <= 1.0, key
        if estimate.low is not None and estimate.high is not None:
            assert estimate.low - 1e-9 <= estimate.value <= estimate.high + 1e-9, key
    # R4.7, R7: a deal ends dead or after a call, never both.
    assert counts["dead"] + counts["called"] == n
    assert estimates["dead"].value == pytest.approx(counts["dead"] / n)
    calls = counts["calls"]
    assert sum(calls.values()) == sum(len(deal.calls) for deal in deals)
    assert estimates["calls"].value == pytest.approx(sum(calls.values()) / n)
    # R8.1, R5.11: the best call of a decided deal is of exactly one category.
    won = sum(estimates[f"won.{c.value}"].value or 0.0 for c in Category)
    assert won == pytest.approx(1 - (estimates["dead"].value or 0.0))
    for category in Category:
        assert (estimates[f"won.{category.value}"].value or 0) <= (
            estimates[f"called.{category.value}"].value or 0
        )
    # R8.6: chips are never created or lost; the edges of a deal add up to zero.
    assert report.chips_conserved()
    for deal in deals:
        assert sum(deal.net) + deal.pot == 0
        assert math.fsum(deal.edge(seat) for seat in range(deal.players)) == pytest.approx(0.0, abs=1e-9)
        assert deal.turns <= deal.actions
        assert deal.dead == (not deal.calls)
        assert deal.dead == (not deal.winners)
        if len(deal.calls) < 2:
            assert deal.best_code == (deal.calls[0].code if deal.calls else 0)
    players = report.config.players
    positions = [estimates[f"edge.position.{p + 1}"].value or 0.0 for p in range(players)]
    seats = [estimates[f"edge.seat.{s}"].value or 0.0 for s in range(players)]
    assert math.fsum(positions) == pytest.approx(0.0, abs=1e-9)
    assert math.fsum(seats) == pytest.approx(0.0, abs=1e-9)
    wins_by_position = sum(estimates[f"win.position.{p + 1}"].value or 0.0 for p in range(players))
    wins_by_seat = sum(estimates[f"win.seat.{s}"].value or 0.0 for s in range(players))
    assert wins_by_position == pytest.approx(wins_by_seat)
    assert wins_by_position >= 1 - (estimates["dead"].value or 0.0) - 1e-9  # ties give several winners
    spread = report.lengths()["actions"]
    assert spread["min"] <= spread["median"] <= spread["max"]


@pytest.mark.parametrize(
    "rules",
    [
        QUICK,
        RuleSet.from_preset("gamerules", max_rebuilds=1, payout="scale", ties="first_call", royal_high=True),
    ],
    ids=["pagat", "gamerules-scale"],
)
def test_r8_6_simulated_facts_are_consistent(eager: str, rules: RuleSet) -> None:
    config = SimulationConfig(rules, 3, (eager, eager, "random"), seed=3)
    report = simulate(config, 30)
    assert report.completed == 30
    assert not report.interrupted
    assert report.counts()["called"] > 0
    _check_consistent(report)
    assert [deal.index for deal in report.deals] == list(range(30))
    assert [deal.dealer for deal in report.deals] == [index % 3 for index in range(30)]  # R2.3


def test_each_deal_depends_only_on_the_seed_and_its_index(eager: str) -> None:
    config = SimulationConfig(QUICK, 2, (eager, "random"), seed=9)
    report = simulate(config, 4)
    assert simulate_deal(config, 3) == report.deals[3]
    assert deal_seed(9, 3) != deal_seed(9, 4)


def test_results_are_identical_whatever_the_workers() -> None:
    config = SimulationConfig(RuleSet(max_rebuilds=0), 2, ("random", "random"), seed=4)
    one = simulate(config, 12, workers=1)
    two = simulate(config, 12, workers=2)
    assert json.dumps(one.to_json()) == json.dumps(two.to_json())
    _check_consistent(two)


def test_stop_keeps_the_deals_that_finished(eager: str) -> None:
    config = SimulationConfig(QUICK, 2, (eager, eager), seed=1)
    done: list[int] = []
    report = simulate(config, 50, stop=lambda: len(done) >= 5, progress=done.append)
    assert report.interrupted
    assert report.completed == 5
    assert report.requested == 50
    _check_consistent(report)

    def interrupt(count: int) -> None:
        done.append(count)
        if len(done) >= 8:
            raise KeyboardInterrupt

    report = simulate(config, 50, progress=interrupt)  # Ctrl-C
    assert report.interrupted
    assert report.completed == 3
    assert report.to_json()["interrupted"] is True


def test_stop_with_workers_keeps_whole_deals() -> None:
    config = SimulationConfig(RuleSet(max_rebuilds=0), 2, ("random", "random"), seed=2)
    finished: list[int] = []
    report = simulate(config, 400, workers=2, progress=finished.append, stop=lambda: sum(finished) >= 4)
    assert report.interrupted
    assert 4 <= report.completed < 400
    reference = {deal.index: deal for deal in simulate(config, max(d.index for d in report.deals) + 1).deals}
    assert all(reference[deal.index] == deal for deal in report.deals)


def test_compare_runs_the_same_seeds(eager: str) -> None:
    config = SimulationConfig(QUICK, 2, (eager, "random"), seed=6)
    # R8.2: with a pot payout the scale unit changes nothing: every effect is exactly zero.
    result = compare(config, "unit", (25, 50), 8)
    assert isinstance(result, Comparison)
    assert [report.config.rules.unit for report in result.reports] == [25, 50]
    (effect,) = result.effects()
    assert effect["dead"].paired
    assert not effect["overtaken"].paired
    for key, diff in effect.items():
        if diff.difference is not None and diff.paired:
            assert diff.difference == 0.0, key
    data = json.loads(json.dumps(result.to_json()))
    assert data["compare"] == {"option": "unit", "values": [25, 50], "baseline": 25}
    assert [variant["value"] for variant in data["variants"]] == [25, 50]
    assert set(data["effects"][0]["facts"]) <= set(data["variants"][0]["facts"])


def test_compare_values() -> None:
    assert compare_values(RuleSet(), "royal_high") == ("royal_high", (False, True))
    assert compare_values(RuleSet(royal_high=True), "royal-high") == ("royal_high", (True, False))
    assert compare_values(RuleSet(), "wild_colour") == ("wild_colour", ("any", "opposite"))
    assert compare_values(RuleSet(), "max_rebuilds=0,3") == ("max_rebuilds", (3, 0))
    with pytest.raises(PaiuteError, match="give the values of max_rebuilds"):
        compare_values(RuleSet(), "max_rebuilds")
    with pytest.raises(PaiuteError, match="bad option to compare"):
        compare_values(RuleSet(), "colour")
    with pytest.raises(PaiuteError, match="at least two"):
        compare_values(RuleSet(), "stake=2,2")


def test_parse_bots() -> None:
    assert parse_bots([], 3) == ("random",) * 3
    assert parse_bots(["random"], 2) == ("random", "random")
    assert parse_bots(["random:seed=1,seed=2", "random"], 2) == ("random:seed=1,seed=2", "random")
    with pytest.raises(PaiuteError, match="3 bots for 2 players"):
        parse_bots(["random,random,random"], 2)
    with pytest.raises(PaiuteError, match="unknown player 'nosuchbot'"):
        parse_bots(["nosuchbot"], 2)


# -- the command ------------------------------------------------------------------------------


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


_SMALL = ("simulate", "--deals", "6", "--players", "2", "--option", "max_rebuilds=0", "--seed", "5")


def test_simulate_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, *_SMALL, "--json")
    assert status == 0
    data = json.loads(out)
    assert data["command"] == "simulate"
    assert data["config"] == {
        "players": 2,
        "bots": ["random", "random"],
        "seed": 5,
        "rules": {"preset": "pagat", "max_rebuilds": 0},
    }
    assert data["deals"] == data["deals_requested"] == 6
    assert data["interrupted"] is False
    assert data["chips_conserved"] is True
    for key in ("length.actions", "dead", "overtaken", "called.paiute", "won.four_two", "edge.position.2"):
        fact = data["facts"][key]
        assert set(fact) == {"label", "group", "kind", "value", "ci95", "n"}
    assert data["facts"]["edge.position.2"]["label"].startswith("position 2 (dealer)")
    assert set(data["lengths"]["turns"]) == {"median", "p10", "p90", "min", "max"}
    assert data["counts"]["deals"] == 6


def test_simulate_command_text_and_plots(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    status, out, err = _run(capsys, *_SMALL, "--plot", str(tmp_path / "charts"))
    assert status == 0
    for heading in (
        "Deals",
        "Combinations",
        "Positions",
        "Seats",
        "chips conserved in every deal (R8.6): yes",
    ):
        assert heading in out
    names = sorted(path.name for path in (tmp_path / "charts").iterdir())
    assert names == ["categories.png", "deal_length.png", "edge.png", "outcomes.png"]
    for name in names:
        assert (tmp_path / "charts" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "wrote 4 charts" in err


def test_simulate_command_compare(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    status, out, _ = _run(capsys, *_SMALL, "--compare", "royal_high", "--json", "--plot", str(tmp_path))
    assert status == 0
    data = json.loads(out)
    assert data["compare"]["option"] == "royal_high"
    assert len(data["variants"]) == 2
    assert data["variants"][1]["config"]["rules"]["royal_high"] is True
    assert "dead" in data["effects"][0]["facts"]
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "compare_royal_high_effects.png",
        "compare_royal_high_length.png",
        "compare_royal_high_rates.png",
    ]
    status, out, _ = _run(capsys, *_SMALL, "--compare", "royal_high")
    assert status == 0
    assert "Effect of royal_high" in out


def test_simulate_command_ctrl_c_reports_what_finished(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = simulate_module.simulate_deal

    def interrupted_at_3(config: SimulationConfig, index: int) -> simulate_module.DealFacts:
        if index == 3:
            raise KeyboardInterrupt
        return real(config, index)

    monkeypatch.setattr(simulate_module, "simulate_deal", interrupted_at_3)
    status, out, _ = _run(capsys, *_SMALL, "--workers", "1", "--json")
    assert status == 130
    data = json.loads(out)
    assert data["interrupted"] is True
    assert data["deals"] == 3
    assert data["deals_requested"] == 6
    status, out, _ = _run(capsys, *_SMALL, "--workers", "1")
    assert status == 130
    assert "interrupted" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "nosuchbot"], "unknown player 'nosuchbot'"),
        (["--bots", "random:depth=3"], "has no option 'depth'"),
        (["--bots", "random,random,random"], "3 bots for 2 players"),
        (["--option", "royal_high=maybe"], "bad value for option royal_high"),
        (["--option", "colour=any"], "bad option 'colour=any'"),
        (["--compare", "max_rebuilds"], "give the values of max_rebuilds"),
        (["--compare", "nosuch"], "bad option to compare"),
        (["--deals", "0"], "--deals must be at least 1"),
        (["--players", "9"], "R2.1"),
        (["--workers", "-1"], "--workers must be at least 1"),
    ],
)
def test_simulate_command_errors(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    status, out, err = _run(capsys, "simulate", "--deals", "2", "--players", "2", *argv)
    assert status == 2
    assert out == ""
    assert message in err
    assert "Traceback" not in err


def test_ray_backend_gives_the_local_results() -> None:
    ray = pytest.importorskip("ray")
    config = SimulationConfig(RuleSet(max_rebuilds=0), 2, ("random", "random"), seed=4)
    local = simulate(config, 12, workers=1)
    ray.init(address="local", num_cpus=2, include_dashboard=False)  # never a stale cluster
    try:
        remote = simulate(config, 12, workers=2, backend="ray")
        assert ray.is_initialized()  # a Ray started by the caller is left running
    finally:
        ray.shutdown()
    assert json.dumps(remote.to_json()) == json.dumps(local.to_json())
