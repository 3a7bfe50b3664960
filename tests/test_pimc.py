"""The compiled estimator and the ``pimc`` / ``playout`` players (paiute.compiled.search).

* The position built from an observation holds exactly what the seat may see (R9) and has
  the engine's legal actions; re-dealing the unseen cards changes no estimate (R9).
* The compiled and the pure-Python estimators agree statistically where their playout
  policies play alike (the last round: call if you can, else take the top only to call).
* ``pimc`` is repeatable under a seed with an iteration budget, whatever ``workers``; it plays
  ``greedy``'s move while the kernels are not ready under a time budget (no stall).
* A small duplicate tournament runs and reports (never a margin: see benchmarks/).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("numba")

from paiute import Deal, RuleSet, SeededChance
from paiute.actions import Action
from paiute.analysis.tournament import run_tournament
from paiute.cards import pack
from paiute.compiled import warm
from paiute.compiled.rules import legal_actions_one
from paiute.compiled.search import Position, inference_weights
from paiute.observation import Observation
from paiute.players import make_player, prepare_player
from paiute.players import pimc as pimc_module
from paiute.players.base import PlayerError
from paiute.players.evaluate import BELIEFS, estimate_actions
from paiute.players.greedy import GreedyPlayer
from paiute.players.pimc import PIMCPlayer


@pytest.fixture(scope="module", autouse=True)
def _kernels() -> None:
    assert warm.prepare(block=True), warm.error()


def _played(seed: int, steps: int, preset: str = "pagat", players: int = 4) -> Deal:
    """A deal ``steps`` greedy actions in, from a carried pot, at a seat with a choice (the
    next seed's deal when this one ends first)."""
    for attempt in range(50):
        deal = Deal.new(
            RuleSet.from_preset(preset),
            players,
            0,
            SeededChance(seed + 1000 * attempt),
            balances=[0] * players,
            pot=players,
        )
        bots = [GreedyPlayer(seed=seat) for seat in range(players)]
        for _ in range(steps):
            if deal.is_over:
                break
            deal.apply(bots[deal.current_seat].act(deal.observation(deal.current_seat)))
        while not deal.is_over and len(deal.legal_actions()) < 2:
            deal.apply(deal.legal_actions()[0])
        if not deal.is_over:
            return deal
    raise AssertionError("no position found")


def _last_round(seed: int) -> Deal:
    """A position in the last round (R7.2), at a seat that still has two or more seats to
    play after it, its draw made (the first such position from ``seed`` on)."""
    for attempt in range(200):
        deal = Deal.new(RuleSet(), 5, 4, SeededChance(seed * 1000 + attempt), balances=[0] * 5, pot=5)
        bots = [GreedyPlayer(seed=seat) for seat in range(5)]
        while not deal.is_over:
            seat = deal.current_seat
            if deal.calls and deal.phase.value == "discard" and seat <= 2 and len(deal.legal_actions()) > 1:
                return deal
            deal.apply(bots[seat].act(deal.observation(seat)))
    raise AssertionError("no last-round position found")


@pytest.mark.parametrize("preset", ["pagat", "gamerules"])
@pytest.mark.parametrize("steps", [0, 7, 18, 29])
def test_r9_position_holds_what_the_seat_may_see(preset: str, steps: int) -> None:
    deal = _played(11 + steps, steps, preset)
    seat = deal.current_seat
    observation = deal.observation(seat)
    position = Position.from_observation(observation)
    template = position.template
    assert sorted(template.hands[0, seat, : template.hand_len[0, seat]].tolist()) == sorted(observation.hand)
    for other in range(observation.players):
        if other != seat:  # only the cards seen going into the hand (R4.5), the rest to deal
            assert template.hand_len[0, other] == len(observation.known_cards[other])
            assert template.hand_len[0, other] + position.need[other] == observation.hand_sizes[other]
    unseen = set(position.unseen.tolist())
    hidden_hands = {
        card for other in range(observation.players) if other != seat for card in deal.hand(other)
    }
    hidden_hands -= {card for known in observation.known_cards for card in known}
    assert hidden_hands <= unseen  # every card the seat cannot see is among those dealt at random
    assert not unseen & set(observation.hand)
    assert not unseen & set(observation.discard_pile)
    assert len(unseen) == position.hidden_stock + int(position.need.sum())
    assert set(pack(observation.rules.jokers)) >= unseen
    # the compiled core's legal actions from the position are the engine's (R4, R6)
    out = np.zeros(16, dtype=np.int64)
    count = legal_actions_one(template, position.tables, position.params, 0, out)
    assert out[:count].tolist() == [action.id for action in observation.legal_actions]


@pytest.mark.parametrize("steps", [9, 24])
def test_r9_compiled_estimates_do_not_depend_on_unseen_cards(steps: int) -> None:
    deal = _played(5, steps)
    seat = deal.current_seat
    observation = deal.observation(seat)
    other = Deal.from_observation(observation, SeededChance(99))  # the unseen cards re-dealt
    assert other.observation(seat) == observation
    first = estimate_actions(observation, playouts=64, seed=4, core="compiled")
    second = estimate_actions(other.observation(seat), playouts=64, seed=4, core="compiled")
    assert first.values == second.values
    assert [e.action for e in first.estimates] == list(observation.legal_actions)
    assert all(e.samples == 64 and e.low <= e.mean <= e.high for e in first.estimates)
    assert first.playouts == 64 * len(observation.legal_actions)


@pytest.mark.parametrize("belief", BELIEFS)
def test_compiled_estimates_do_not_depend_on_workers(belief: str) -> None:
    deal = _played(8, 15)
    observation = deal.observation(deal.current_seat)
    one = estimate_actions(observation, playouts=50, seed=3, core="compiled", belief=belief)
    two = estimate_actions(observation, playouts=50, seed=3, core="compiled", workers=2, belief=belief)
    assert one.values == two.values


@pytest.mark.parametrize("steps", [9, 24])
def test_r9_estimates_reading_the_moves_do_not_depend_on_unseen_cards(steps: int) -> None:
    deal = _played(5, steps)
    seat = deal.current_seat
    observation = deal.observation(seat)
    other = Deal.from_observation(observation, SeededChance(7))  # the unseen cards re-dealt
    first = estimate_actions(observation, playouts=32, seed=2, core="compiled", belief="moves")
    second = estimate_actions(other.observation(seat), playouts=32, seed=2, core="compiled", belief="moves")
    assert first.values == second.values
    plain = estimate_actions(observation, playouts=32, seed=2, core="compiled", belief="ranks")
    assert first.values != plain.values  # the moves were read: other hands dealt


def test_a_belief_is_chosen_by_name() -> None:
    deal = _played(21, 12)
    observation = deal.observation(deal.current_seat)
    assert make_player("pimc:iterations=20,belief=moves,seed=2").act(observation) in observation.legal_actions
    with pytest.raises(PlayerError, match="belief must be one of uniform, ranks, moves, not 'psychic'"):
        make_player("pimc:belief=psychic")
    with pytest.raises(PlayerError, match="belief must be one of"):
        estimate_actions(observation, playouts=2, belief="psychic")


def test_inference_weights_read_public_actions() -> None:
    deal = _played(3, 40)
    observation = deal.observation(deal.current_seat)
    weights = inference_weights(observation)
    assert (weights[observation.seat] == 1).all()  # the seat's own row is never weighted
    thrown = [
        e for e in observation.history if e.action.kind.value == "discard" and e.seat != observation.seat
    ]
    assert thrown
    event = thrown[0]
    if event.card is not None and event.card not in observation.wild_cards:
        assert weights[event.seat, event.card] < 1.0  # a seat that threw a rank holds it less


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 6])
def test_compiled_and_python_estimators_agree_where_their_policies_agree(seed: int) -> None:
    """In the last round both playout policies call when they can and otherwise take the
    top only to call (R7.2), so the estimators measure the same thing: their means agree
    within the sampling error (an independent 5-standard-error band)."""
    deal = _last_round(seed)
    observation = deal.observation(deal.current_seat)
    python = estimate_actions(observation, playouts=60, seed=seed, core="python")
    compiled = estimate_actions(observation, playouts=3000, seed=seed, core="compiled", belief="uniform")
    for slow, fast in zip(python.estimates, compiled.estimates, strict=True):
        assert slow.action == fast.action
        se = math.hypot((slow.high - slow.mean) / 1.96, (fast.high - fast.mean) / 1.96)
        assert abs(slow.mean - fast.mean) <= 5 * se + 1e-9, (slow, fast)


def test_pimc_is_repeatable_under_a_seed_whatever_the_workers() -> None:
    deal = _played(21, 12)
    observation = deal.observation(deal.current_seat)
    first = make_player("pimc:iterations=40,seed=5").act(observation)
    again = make_player("pimc:iterations=40,seed=5").act(observation)
    threads = PIMCPlayer(iterations=40, seed=5, workers=2)
    assert first == again == threads.act(observation)
    threads.close()
    assert first in observation.legal_actions


def test_pimc_plays_greedys_move_until_the_kernels_are_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    """No stall: under a time budget a decision never waits for compilation."""
    deal = _played(21, 12)
    observation = deal.observation(deal.current_seat)
    monkeypatch.setattr(warm, "prepare", lambda block=False, timeout=None: False)
    player = PIMCPlayer(ms=50, seed=2)
    action = player.act(observation)
    assert player.last_search is not None
    assert not player.last_search.compiled
    assert action == player.last_search.baseline


def test_pimc_with_the_guarded_baseline_plays_guardeds_move_until_the_kernels_are_ready(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``baseline=guarded``: the move kept unless beaten is the expert's (R4.2 guard), and so
    is every move while the kernels are not ready."""
    monkeypatch.setattr(warm, "prepare", lambda block=False, timeout=None: False)
    for seed in (21, 22, 23, 24):
        deal = _played(seed, 13)
        observation = deal.observation(deal.current_seat)
        player = make_player(f"pimc:ms=50,seed={seed},baseline=guarded")
        action = player.act(observation)
        guarded = make_player(f"guarded:seed={seed}")
        guarded._random.seed(pimc_module.decision_seed(seed, observation))  # type: ignore[attr-defined]
        assert action == guarded.act(observation)


def test_pimc_refuses_an_unknown_baseline() -> None:
    with pytest.raises(PlayerError, match="baseline must be one of greedy, guarded"):
        make_player("pimc:baseline=oracle")


def test_pimc_over_the_guarded_baseline_is_repeatable_and_legal() -> None:
    deal = _played(21, 12)
    observation = deal.observation(deal.current_seat)
    first = make_player("pimc:iterations=30,seed=5,baseline=guarded").act(observation)
    assert first == make_player("pimc:iterations=30,seed=5,baseline=guarded").act(observation)
    assert first in observation.legal_actions


def test_a_tournament_waits_for_the_kernels_a_table_does_not(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tournament measures pimc itself: it prepares each bot (prepare_player) before the
    bot plays, so under a time budget no decision there is greedy's for want of the kernels
    (the first seconds of every worker were, before). A table only ever asks without waiting."""
    loaded = {"ready": False, "waited": 0}

    def prepare(*, block: bool = False, timeout: float | None = None) -> bool:
        if block:  # the kernels load while someone waits for them
            loaded["ready"] = True
            loaded["waited"] += 1
        return bool(loaded["ready"])

    monkeypatch.setattr(warm, "prepare", prepare)
    searched: list[bool] = []
    act = PIMCPlayer.act

    def recording_act(self: PIMCPlayer, observation: Observation) -> Action:
        self.last_search = None
        action = act(self, observation)
        if self.last_search is not None:  # not a forced move (one legal action)
            searched.append(self.last_search.compiled)
        return action

    monkeypatch.setattr(PIMCPlayer, "act", recording_act)
    deal = _played(21, 12)
    observation = deal.observation(deal.current_seat)
    assert PIMCPlayer(ms=5, seed=1).act(observation) in observation.legal_actions
    assert searched == [False]  # a table's bot: greedy's move, and no wait
    assert loaded["waited"] == 0
    searched.clear()
    run_tournament(["pimc:ms=2", "greedy"], deals=1, players=2, seed=3, workers=1, seating="rotations")
    assert loaded["waited"] >= 1
    assert searched
    assert all(searched)


def test_prepare_says_whether_pimc_will_search(monkeypatch: pytest.MonkeyPatch) -> None:
    assert prepare_player(PIMCPlayer(ms=5, seed=1))
    assert prepare_player(make_player("greedy"))
    monkeypatch.setattr(pimc_module, "available", lambda: False)  # no Numba: greedy's moves for good
    assert not prepare_player(PIMCPlayer(ms=5, seed=1))


@pytest.mark.parametrize("preset", ["pagat", "gamerules"])
def test_a_small_duplicate_tournament_runs_and_reports(preset: str) -> None:
    # The CI tournament: a few hundred boards at a small iteration budget, 4 seats
    # A B A B, every board in both rotations. It asserts that it runs and reports, never a
    # margin or a timing (benchmarks/README.md has those).
    result = run_tournament(
        ["pimc:iterations=3", "greedy"],
        deals=200,
        players=4,
        seed=7,
        workers=2,
        rules=RuleSet.from_preset(preset),
        seating="rotations",
    )
    assert result.deals == 400
    assert {standing.spec for standing in result.standings} == {"pimc:iterations=3", "greedy"}
    for standing in result.standings:
        assert standing.deals == 800  # two seats of four, on every deal
        assert standing.ci95 is not None
        low, high = standing.ci95
        assert low <= standing.chips_per_deal <= high
        assert set(standing.rating) == {"mu", "sigma", "ordinal"}
        assert sum(standing.calls.values()) > 0
    assert sum(standing.chips for standing in result.standings) <= 0  # R8.6: a dead deal keeps its pot


def test_playout_player_plays_legal_moves_to_the_end() -> None:
    deal = Deal.new(RuleSet(), 4, 0, SeededChance(2))
    bots = [make_player("playout"), make_player("greedy:seed=1")] * 2
    while not deal.is_over:
        seat = deal.current_seat
        deal.apply(bots[seat].act(deal.observation(seat)))  # apply checks legality
    assert deal.outcome is not None


def test_the_playout_policy_decides_as_the_golden_digest_says() -> None:
    """Every decision of the compiled playout policy (R3-R8: the presets and each option it
    reads) in whole seeded deals, against tests/data/golden_playout_policy.txt: the policy
    runs inside every pimc playout, and a change meant to make it faster must change no
    decision. Regenerate with ``python scripts/make_playout_golden.py --write`` only if the policy is
    meant to play differently."""
    import importlib.util
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location(
        "make_playout_golden", root / "scripts" / "make_playout_golden.py"
    )
    assert spec is not None
    assert spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    expected = script.GOLDEN.read_text(encoding="utf-8").splitlines()
    got = script.digest_lines()
    assert got == expected, (
        "the playout policy decides differently in these cases:\n"
        + "\n".join(f"  golden {e}\n  now    {g}" for e, g in zip(expected, got, strict=False) if e != g)
        + "\nregenerate with scripts/make_playout_golden.py --write only if the change is intended"
    )
