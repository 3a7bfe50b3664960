"""The experiment of ``research/guard_playouts.py``: playouts whose searching seat guards."""

from __future__ import annotations

import importlib
from dataclasses import replace
from types import ModuleType
from typing import Any

import pytest

from paiute import Deal, Phase, RuleSet, SeededChance
from paiute.cards import CARDS
from paiute.evaluator import Evaluator
from paiute.greedy_weights import PAIUTE
from paiute.players.feed import next_seat, paiute_allowed
from paiute.players.greedy import GreedyPlayer

numba = pytest.importorskip("numba")
np = pytest.importorskip("numpy")

from paiute.compiled.greedy import GREEDY_WORK, greedy_action  # noqa: E402 (needs numba)
from paiute.compiled.search import Position  # noqa: E402
from paiute.compiled.state import DISCARD_BASE, HAND_CAP, MAX_SEATS, new_batch  # noqa: E402


def _script(name: str) -> ModuleType:
    return importlib.import_module(f"research.{name}")


_GUARD = _script("guard_playouts")
_feeds, _guarded_action, _seed_deal = _GUARD.feeds, _GUARD.guarded_action, _GUARD.seed_deal
_determinize = _GUARD.determinize


@numba.njit(cache=True)
def _probe(position: Any, s: Any, dealt: Any, seed: Any, out: Any, work: Any, emulation: Any) -> Any:
    """Deal the true hidden cards into a seat's template, then answer ``feeds`` for each card
    the seat holds, greedy's action and the guarded action (the same tie-break for both)."""
    template, tables, gtables, p, unseen, eligible, hidden_stock, need, weights, pool = position
    _seed_deal(s.rng, 0, seed, np.uint64(0))
    _determinize(template, s, p[0], unseen, eligible, hidden_stock, need, weights, pool, dealt, 0)
    seat = s.seat[0]
    for i in range(s.hand_len[0, seat]):
        out[i] = 1 if _feeds(s, tables, p, 0, (seat + 1) % p[0], s.hands[0, seat, i]) else 0
    _seed_deal(s.rng, 0, seed, np.uint64(1))
    greedy = greedy_action(s, tables, gtables, p, 0, work)
    _seed_deal(s.rng, 0, seed, np.uint64(1))
    return greedy, _guarded_action(s, tables, gtables, p, 0, work, emulation)


def _decisions(preset: str, deals: int) -> Any:
    """Every discard before any call (R7.2) in ``deals`` deals of greedy self-play, with the deal."""
    rules = RuleSet.from_preset(preset)
    for index in range(deals):
        deal = Deal.new(rules, players=4, dealer=index % 4, chance=SeededChance(index))
        player = GreedyPlayer(seed=index)
        while not deal.is_over:
            observation = deal.observation(deal.current_seat)
            if observation.phase is Phase.DISCARD and not observation.calls:
                yield deal, observation
            deal.apply(player.act(observation))


@pytest.mark.parametrize("preset", ["pagat", "gamerules"])
def test_r4_2_r4_3_r5_7_feeds_and_the_guard_in_the_playouts(preset: str) -> None:
    # feeds: the next player could call at once with the card taken from the pile (R4.2), a
    # five-card call never putting that card down (R4.3, R6.2), a six-card one (R6.3), a
    # Paiute only where R5.7 allows it -- against the evaluator on the true next hand. With a
    # weight of 0 the guard is greedy, decision for decision; with the shipped weight it
    # departs from greedy somewhere, and only to a card greedy weighs throwing.
    checked = departed = 0
    for deal, observation in _decisions(preset, 12):
        position = Position.from_observation(observation)
        dealt = np.zeros((1, MAX_SEATS, HAND_CAP), dtype=np.int64)
        for seat in range(observation.players):
            if seat != observation.seat:
                hidden = [c for c in deal.hand(seat) if c not in observation.known_cards[seat]]
                dealt[0, seat, : len(hidden)] = [int(c) for c in hidden]
        arrays = (
            position.template,
            position.tables,
            position.gtables,
            position.params,
            position.unseen,
            position.eligible,
            position.hidden_stock,
            position.need,
            np.ones((MAX_SEATS, 54)),
            np.zeros(64, dtype=np.int64),
        )
        out = np.zeros(8, dtype=np.int64)
        work = np.zeros(GREEDY_WORK, dtype=np.int64)
        seed = np.uint64(len(observation.history))
        for weight in (0.0, 0.25):
            emulation = np.array([*_GUARD.EMULATION[preset], weight])
            greedy, guarded = _probe(arrays, new_batch(1, 0, 0), dealt, seed, out, work, emulation)
            if weight == 0.0:
                assert guarded == greedy
            elif guarded != greedy:
                departed += 1
                assert CARDS[guarded - DISCARD_BASE] in GreedyPlayer().discard_scores(observation)
        following = next_seat(observation)
        evaluator = Evaluator(observation.wild_cards, royal_high=observation.rules.royal_high)
        allowed = paiute_allowed(observation, following)
        for i, card in enumerate(sorted(observation.hand, key=int)):
            held = [*deal.hand(following), card]
            six = evaluator.code(held)
            if (six >> 12) == PAIUTE and not allowed:
                six = 0
            assert bool(out[i]) == (six > 0 or evaluator.best_five(held, forbidden=card) is not None)
            checked += 1
    assert checked > 100
    assert departed > 0


def test_belief_bound_plays_the_feed_variant_with_each_continuation() -> None:
    script = _script("belief_bound")
    setup = script.Setup(4, "playout", "pagat", 5, keep=("guarded", 1.0))
    for continuation in ("playout", "greedy", "guard"):
        chips = script.play_board((1, "feed", replace(setup, continuation=continuation)))
        assert isinstance(chips, float)


def test_the_playout_continuation_is_the_library_kernel() -> None:
    # continuation=playout plays every seat by the compiled playout policy, as the library's
    # kernel does with policy=playout: the same board gives the same chips.
    script = _script("belief_bound")
    setup = script.Setup(6, "playout", "gamerules", 7, keep=("guarded", 1.0))
    library = script.play_board((2, "feed", setup))
    assert script.play_board((2, "feed", replace(setup, continuation="playout"))) == library


def test_calibrate_measures_the_emulations_figures_on_greedy_self_play() -> None:
    # The figures EMULATION ships are measured by calibrate (400 deals, seed 777); on a few
    # deals they are finite, and a card that feeds the true next hand gets the higher logit.
    safe_mean, safe_spread, fed_mean, fed_spread = _GUARD.calibrate("pagat", 20, 777, 1)
    assert all(np.isfinite([safe_mean, safe_spread, fed_mean, fed_spread]))
    assert safe_spread > 0
    assert fed_spread > 0
    assert fed_mean > safe_mean
