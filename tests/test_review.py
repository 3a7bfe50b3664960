"""Game review (paiute.analysis.review): plain blunders are marked, good play is not, and the review of a
seat never depends on a card that seat could not see (R9)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from paiute.analysis import review
from paiute.analysis.review import Mark, ReviewError, review_record
from review_helpers import bot_record, cards_seen, played_record, redealt

PLAYOUTS = 24


def decision_at(record, seat, action, seed=0):
    review = review_record(record, seats=[seat], playouts=PLAYOUTS, seed=seed)
    (found,) = [d for d in review.decisions if d.action == action]
    return found


# Three seats, dealer 0. Seat 1 calls a Paiute on its first turn (R5.7); seat 2 then has its
# last turn (R7.2) holding four eights and a drawn wild three (upcard 3h, R3.1): Five of a Kind.
FIVE_OF_A_KIND = dict(
    players=3,
    dealer=0,
    hands={1: "Jc Jd 7h 7s 4c", 2: "8c 8d 8h 8s Kd"},
    upcard="3h",
    stock="4d 3c",
)


@pytest.mark.parametrize("seed", [0, 1])
def test_r7_2_throwing_a_card_of_five_of_a_kind_in_the_last_round_is_a_blunder(seed):
    record = played_record(**FIVE_OF_A_KIND, actions=["draw stock", "call", "draw stock", "discard 8c"])
    decision = decision_at(record, 2, 3, seed)
    assert decision.mark is Mark.BLUNDER
    assert str(decision.best) == "call Kd"
    assert decision.loss == pytest.approx(decision.net_best - decision.net_played)


@pytest.mark.parametrize("seed", [0, 1])
def test_r7_2_calling_five_of_a_kind_in_the_last_round_is_not_marked(seed):
    record = played_record(**FIVE_OF_A_KIND, actions=["draw stock", "call", "draw stock", "call Kd"])
    decision = decision_at(record, 2, 3, seed)
    assert decision.mark is None
    assert decision.loss == 0


# Two seats, dealer 0. Seat 1 holds three kings and a wild three and draws 2d.
WILD = dict(players=2, dealer=0, hands={1: "3c Kc Kh Kd 9s"}, upcard="3h", stock="2d")


@pytest.mark.parametrize("seed", [0, 1])
def test_r3_1_putting_down_a_wild_card_for_nothing_is_a_blunder(seed):
    record = played_record(**WILD, actions=["draw stock", "discard 3c"])
    decision = decision_at(record, 1, 1, seed)
    assert decision.mark is Mark.BLUNDER
    assert str(decision.best) in {"discard 2d", "discard 9s"}


@pytest.mark.parametrize("seed", [0, 1])
def test_r3_1_keeping_the_wild_card_is_not_marked(seed):
    record = played_record(**WILD, actions=["draw stock", "discard 2d"])
    assert decision_at(record, 1, 1, seed).mark is None


# Two seats, dealer 0. Seat 1 calls a Royal Flush (9d put down); the dealer, in its last turn
# (R7.2), draws Jh to three wild threes and two queens: Five of a Kind queens (call Jh) beats it,
# a Royal Flush (call Qd) only ties it (R8.3 split), a discard loses it (R8.1).
DEALER = dict(
    players=2, dealer=0, hands={1: "As Ks Qs Js 9d", 0: "3c 3d 3s Qh Qd"}, upcard="3h", stock="Ts Jh"
)
DEALER_START = ["draw stock", "call 9d", "draw stock"]


def test_r7_3_not_calling_the_winning_combination_on_the_dealers_last_turn_is_a_blunder():
    record = played_record(**DEALER, actions=[*DEALER_START, "discard Jh"])
    decision = decision_at(record, 0, 3)
    assert decision.mark is Mark.BLUNDER
    assert str(decision.best) == "call Jh"
    assert decision.loss == pytest.approx(2.0)  # the whole pot (R8.1)


def test_r5_1_calling_a_lower_combination_than_the_cards_make_is_a_blunder():
    record = played_record(**DEALER, actions=[*DEALER_START, "call Qd"])
    decision = decision_at(record, 0, 3)
    assert decision.mark is Mark.BLUNDER
    assert str(decision.best) == "call Jh"
    assert decision.loss == pytest.approx(1.0)  # half the pot: a tie splits it (R8.3)


def test_r7_3_calling_the_winning_combination_on_the_dealers_last_turn_is_not_marked():
    record = played_record(**DEALER, actions=[*DEALER_START, "call Jh"])
    review = review_record(record, seats=[0], playouts=PLAYOUTS, seed=0)
    assert [d.mark for d in review.decisions] == [None] * len(review.decisions)
    assert review.summaries[0].accuracy == pytest.approx(100.0)


def test_forced_moves_are_not_decisions():
    # The first draw of a deal with an empty discard pile is forced (R2.7, R4.2).
    record = played_record(**WILD, actions=["draw stock", "discard 2d"])
    review = review_record(record, seats=[1], playouts=2, seed=0)
    assert 0 not in {d.action for d in review.decisions if d.deal == 0}


def test_the_search_bot_against_itself_makes_no_blunder():
    # pimc, the search bot, under an iteration budget: repeatable.
    record = bot_record(2, "pimc:iterations=200,z=0,seed=5", seed=11)
    review = review_record(record, playouts=PLAYOUTS, seed=0)
    assert review.decisions
    assert [d for d in review.decisions if d.mark is Mark.BLUNDER] == []


@pytest.mark.parametrize("seed", [6, 7])
def test_the_reviews_better_action_is_the_hint_at_that_moment(seed):
    # One coach: what the review says was better is what the hint would have said there, from
    # the same observation (R9), seed and playouts: the expert's move.
    from paiute.analysis.hint import hint, position_seed

    record = bot_record(3, "greedy:horizon=2", seed=seed)
    points = {(p.deal, p.action): p for p in review.decision_points(record)}
    found = review_record(record, playouts=6, seed=seed)
    assert found.decisions
    for decision in found.decisions:
        point = points[decision.deal, decision.action]
        decision_seed = position_seed(seed, decision.deal, decision.action)
        told = hint(point.observation, playouts=6, draw_playouts=0, seed=decision_seed)
        assert (decision.best, decision.expert) == (told.recommended, told.expert)
        if decision.played == decision.expert and decision.best == decision.expert:
            assert decision.loss == 0
            assert decision.mark is None


def test_a_move_that_did_no_worse_than_the_hints_is_not_told_a_better_one():
    # The expert would have thrown 9s; the seat threw 2d and the paired playouts found it no
    # worse (loss 0): the review names no better action, in any view.
    from paiute.actions import Action
    from paiute.i18n import translator
    from paiute.tui.review_screen import mark_note

    played, hinted = Action.parse("discard 2d"), Action.parse("discard 9s")
    decision = review.Decision(
        deal=0,
        action=1,
        seat=1,
        played=played,
        best=hinted,
        net_played=0.4,
        net_best=0.3,
        interval=(0.1, 0.5),
        loss=0.0,
        loss_interval=(-0.2, 0.0),
        mark=None,
        stake=2.0,
        expert=hinted,
        samples=16,
    )
    assert decision.better is None
    assert decision.to_json()["better"] is None  # --json and the replay page's API say so too
    assert "better" not in mark_note(decision, translator("en"))
    # The table of paiute review: no better action, and no chips beside the empty cell.
    from paiute.cli.review_command import _row

    assert _row(decision, translator("en"))[4:6] == ["", ""]
    worse = review.Decision(
        **{**_fields(decision), "net_played": 0.1, "loss": 0.2, "loss_interval": (0.05, 0.35)}
    )
    assert worse.better == hinted
    assert worse.to_json()["better"] == "discard 9s"
    assert "better: discard 9" in mark_note(worse, translator("en"))
    assert _row(worse, translator("en"))[4:6] == ["discard 9♠", "+0.30"]


def _fields(decision: review.Decision) -> dict[str, Any]:
    return {name: getattr(decision, name) for name in review.Decision.__dataclass_fields__}


def test_the_better_action_is_always_the_experts_move():
    # However many playouts, and whatever they rate higher: the playouts explain, the expert
    # chooses (as the hint, paiute.analysis.hint).
    record = bot_record(3, "greedy", seed=8)
    found = review_record(record, playouts=12, seed=0)
    assert found.decisions
    assert all(decision.best == decision.expert for decision in found.decisions)


@pytest.mark.parametrize("seed", [2, 3])
def test_r9_review_does_not_depend_on_cards_the_seat_never_saw(seed):
    record = bot_record(3, "greedy", seed=seed)
    for seat in range(3):
        other = redealt(record, seat, seed=seed + 100)
        assert other.deals[0].deck != record.deals[0].deck
        assert cards_seen(other, seat) == cards_seen(record, seat)
        other.replay()  # still a valid record
        first = review_record(record, seats=[seat], playouts=3, seed=7)
        second = review_record(other, seats=[seat], playouts=3, seed=7)
        assert first.json_lines() == second.json_lines()


def test_review_is_the_same_with_two_workers():
    record = bot_record(2, "greedy", seed=4)
    one = review_record(record, playouts=2, seed=1)
    two = review_record(record, playouts=2, seed=1, workers=2)
    assert one.json_lines() == two.json_lines()


def test_a_short_review_stays_in_this_process_unless_told(monkeypatch: pytest.MonkeyPatch):
    record = bot_record(2, "greedy", seed=4)
    shared: list[int | None] = []

    def parallel_map(function: Callable[[Any], Any], jobs: list[Any], *, workers: int | None = None) -> Any:
        shared.append(workers)
        return ((index, function(job)) for index, job in enumerate(jobs))

    monkeypatch.setattr(review, "parallel_map", parallel_map)
    alone = review_record(record, playouts=2, seed=1, workers=None)
    assert shared == []  # a worker's start would cost more than the whole review
    monkeypatch.setattr(review, "PARALLEL_FROM", {"compiled": 1, "python": 1})
    monkeypatch.setattr(review, "default_workers", lambda: 8)
    assert review_record(record, playouts=2, seed=1, workers=None).json_lines() == alone.json_lines()
    assert shared == [2]  # a long one shares the decisions among two processes at most


def test_unknown_seat_or_deal_is_refused():
    record = bot_record(2, "greedy", seed=4)
    with pytest.raises(ReviewError):
        review_record(record, seats=[2])
    with pytest.raises(ReviewError):
        review_record(record, deal=1)


def test_review_is_below_the_interfaces():
    # Layer "analysis": it may use the players, never the command line, terminal or server.
    import subprocess
    import sys

    code = (
        "import sys, paiute.analysis.review; "
        "bad = sorted(m for m in sys.modules if m.startswith(('paiute.cli', 'paiute.tui', 'paiute.server', 'paiute.envs'))); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


# -- one estimate: the review's figures are the hint's ----------------------------------------


def _net(found, action):
    return next(e for e in found.estimates if e.action == action)


@pytest.mark.parametrize("seed", [0, 5])
def test_the_reviews_figures_for_the_move_played_and_the_best_are_the_hints_there(seed):
    # For several positions of a recorded match (two deals of three seats), the hint at that
    # position, seeded as the review seeds the decision, gives exactly the review's figures for
    # the move played and the best move: one estimator, one seeding, the same playouts.
    from paiute.analysis.hint import hint, position_before, position_seed

    record = bot_record(3, "greedy", seed=9, deals=2)
    found = review_record(record, playouts=6, seed=seed)
    decisions = found.decisions[::5]
    assert len(decisions) >= 5
    assert {decision.deal for decision in decisions} == {0, 1}
    for decision in decisions:
        obs = position_before(record, decision.deal, decision.action)
        told = hint(
            obs, playouts=6, draw_playouts=0, seed=position_seed(seed, decision.deal, decision.action)
        )
        assert told.recommended == decision.best
        best, played = _net(told, decision.best), _net(told, decision.played)
        assert (best.mean, (best.low, best.high)) == (decision.net_best, decision.interval)
        assert played.mean == decision.net_played
        if decision.played != decision.best:
            mean, low, high = told.versus(decision.played)  # the played move less the hint's
            assert (decision.loss, decision.loss_interval) == (max(0.0, -mean), (-high, -low))
        assert decision.samples == told.playouts == 6


def test_paiute_hint_and_paiute_review_print_the_same_figures_for_a_decision(capsys, tmp_path):
    import json

    from paiute.cli.main import main

    path = tmp_path / "match.json"
    path.write_text(bot_record(3, "greedy", seed=9).dumps())
    assert main(["review", str(path), "--playouts", "5", "--seed", "4", "--json", "--workers", "1"]) == 0
    decisions = [json.loads(line) for line in capsys.readouterr().out.splitlines()[:-1]]
    assert decisions
    for decision in decisions[::4]:
        deal, move = str(decision["deal"] + 1), str(decision["action"] + 1)
        argv = ["hint", str(path), "--deal", deal, "--move", move, "--playouts", "5", "--seed", "4", "--json"]
        assert main([*argv, "--draw-playouts", "0"]) == 0
        told = json.loads(capsys.readouterr().out)
        nets = {row["action"]: row for row in told["actions"]}
        assert told["recommended"] == decision["best"]
        assert nets[decision["played"]]["net"] == decision["net_played"]
        assert nets[decision["best"]]["net"] == decision["net_best"]
        assert [nets[decision["best"]]["low"], nets[decision["best"]]["high"]] == decision["interval"]


def test_r8_2_figures_are_net_chips_after_the_stake():
    # Two seats, stake 1 each (pot 2). The dealer's last turn (R7.1): calling Five of a Kind wins
    # the pot, +1 net; a Royal Flush ties the caller's and splits it (R8.3), 0; a discard loses
    # it (R8.1), -1. The deal ends at once, so every playout agrees.
    record = played_record(**DEALER, actions=[*DEALER_START, "discard Jh"])
    decision = decision_at(record, 0, 3)
    assert (decision.net_best, decision.net_played) == (1.0, -1.0)
    from paiute.analysis.hint import hint, position_before, position_seed

    told = hint(position_before(record, 0, 3), playouts=4, draw_playouts=0, seed=position_seed(0, 0, 3))
    assert told.paid == 1
    assert {str(e.action): e.mean for e in told.estimates if e.action.kind.is_call} == {
        "call Jh": 1.0,
        "call Qd": 0.0,
    }
    assert told.to_json()["format"] == "paiute-hint/2"


def test_the_summary_loss_is_the_sum_of_the_losses_shown():
    from paiute.i18n import format_chips

    record = bot_record(3, "random", seed=3)
    found = review_record(record, playouts=4, seed=1)
    for summary in found.summaries:
        own = [d for d in found.decisions if d.seat == summary.seat]
        shown = [format_chips(d.loss, "en", signed=False) for d in own]  # as every view shows them
        assert format_chips(summary.loss, "en", signed=False) == f"{sum(float(text) for text in shown):.2f}"


def test_an_unmarked_loss_says_why_in_every_view():
    from paiute.actions import Action
    from paiute.cli.review_command import _row
    from paiute.i18n import translator
    from paiute.tui.review_screen import mark_note

    en = translator("en")
    played, hinted = Action.parse("discard 2d"), Action.parse("discard 9s")
    # A loss of a quarter of a 3-chip pot whose interval reaches 0: within the noise.
    noisy = review.Decision(
        deal=0,
        action=1,
        seat=1,
        played=played,
        best=hinted,
        net_played=-0.5,
        net_best=0.25,
        interval=(-0.2, 0.7),
        loss=0.75,
        loss_interval=(-0.1, 1.6),
        mark=None,
        stake=3.0,
        expert=hinted,
        samples=16,
    )
    assert noisy.unmarked is review.Unmarked.NOISE
    assert noisy.to_json()["unmarked"] == "noise"
    note = mark_note(noisy, en)
    assert note == (
        "discarded 2♦ (-0.50); better: discard 9♠ (+0.25); loss 0.75, not marked: within the noise of 16 playouts"
    )
    assert _row(noisy, en)[3:] == ["-0.50", "discard 9♠", "+0.25", "0.75", "within noise"]
    # Sure of it, but under a tenth of the pot: small.
    small = review.Decision(**{**_fields(noisy), "loss": 0.25, "loss_interval": (0.1, 0.4)})
    assert small.unmarked is review.Unmarked.SMALL
    assert mark_note(small, en).endswith(
        "loss 0.25, not marked: under 10% of the 3 chips the deal is played for"
    )
    marked = review.Decision(**{**_fields(noisy), "loss_interval": (0.3, 1.2), "mark": review.Mark.MISTAKE})
    assert marked.unmarked is None
    assert mark_note(marked, en).startswith("mistake! discarded 2♦ (-0.50)")
