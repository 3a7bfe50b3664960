"""The batch simulator (paiute.envs.batch_sim) against the engine: the differential test.

* The kernels' evaluation equals :class:`paiute.evaluator.Evaluator` code for code (best call,
  best five-card call, six-card call, every five-card subset) under every kind of wild set.
* Deals played at random inside the compiled loop, rebuilt in :class:`paiute.deal.Deal` from
  their deck and rebuild orders and replayed action by action, are legal there at every step
  and end with the same outcome (dead or not, winners, calls) and the same payouts
  (:func:`paiute.settlement.settle`): both presets, 2 to 8 players, and random option mixes.
* Deals played in lock step (the masked-policy API) have the same legal-action set as the
  engine at every step, and on sampled steps every observation row is exactly the shared
  encoding (:class:`paiute.envs.encoding.ObservationEncoder`, int8 and float32) of the
  engine's :class:`~paiute.observation.Observation` for the seat to act (R9).
* Runs are repeatable by seed, independent of batch size and of the number of processes;
  the R4.7 hole is truncated by ``max_turns``; illegal actions are refused with the rule.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiute import CARDS, Action, CallMade, Card, Deal, Evaluator, IllegalActionError, Outcome, RuleSet, Value
from paiute.compiled import state
from paiute.compiled.settle import finish_deal
from paiute.envs.batch_sim import (
    DEAD,
    OVER,
    BatchResult,
    BatchSimulator,
    compile_kernels,
    evaluate_holdings,
    int8_scales,
    rank_table,
    rule_params,
    run_parallel,
)
from paiute.envs.encoding import ObservationEncoder
from paiute.errors import PaiuteError, ParseError
from paiute.evaluator import rank_codes
from paiute.rules import OPTIONS
from paiute.settlement import collect_stakes, settle

try:
    import fcntl
except ImportError:  # not on POSIX: each process compiles for itself
    fcntl = None  # type: ignore[assignment]

# -- helpers ----------------------------------------------------------------------------------


@pytest.fixture(scope="module", autouse=True)
def _compiled_kernels() -> None:
    """Compile the kernels once for every test process: pytest-xdist workers wait for the
    first to fill Numba's on-disk cache rather than each compiling everything."""
    with (Path(tempfile.gettempdir()) / "paiute-batch-kernels.lock").open("w") as lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)
        compile_kernels()


def engine_settlement(result: BatchResult, deal: Deal) -> tuple[list[int], int]:
    """R8 by the engine: balances and pot after the deal, from zero and an empty pot."""
    balances, pot = collect_stakes(result.rules, [0] * result.players, 0)
    assert deal.outcome is not None
    return settle(result.rules, deal.outcome, balances, pot, deal.dealer)


def assert_same_as_engine(result: BatchResult, i: int) -> Deal:
    """Replay deal ``i`` in the engine (every action must be legal there) and compare."""
    deal = result.replay(i)
    simulated = result.deal(i)
    assert len(deal.actions) == simulated.decisions
    assert deal.rebuilds == simulated.rebuilds
    if simulated.status == "truncated":
        assert not deal.is_over
        assert simulated.turns == result_turns(deal)
        return deal
    assert deal.is_over
    outcome = deal.outcome
    assert outcome is not None
    assert outcome.dead == (simulated.status == "dead")
    assert outcome.winners == simulated.winners
    assert [
        (call.seat, sorted(call.shown), call.discard, call.value, call.first_turn) for call in outcome.calls
    ] == [
        (call.seat, list(call.shown), call.discard, call.value, call.first_turn) for call in simulated.calls
    ]
    balances, pot = engine_settlement(result, deal)
    assert tuple(balances) == simulated.payouts
    assert pot == simulated.pot
    return deal


def result_turns(deal: Deal) -> int:
    """Turns completed: discards and calls."""
    return sum(1 for action in deal.actions if not action.kind.is_draw)


class SimulatorChance:
    """The engine's chance for a deal played in lock step: each rebuild (R4.6) takes the
    order the simulator chose for it (the simulator has rebuilt by the time the engine draws)."""

    def __init__(self, simulator: BatchSimulator, index: int) -> None:
        self.simulator = simulator
        self.index = index
        self.used = 0

    def shuffle(self, cards: list[Card]) -> None:
        order = self.simulator.result().deal(self.index).rebuild_orders[self.used]
        assert Counter(order) == Counter(cards)
        self.used += 1
        cards[:] = order

    def below(self, n: int) -> int:
        raise AssertionError("the engine never cuts or chooses during a deal")


def assert_rows_equal_the_encoding(
    simulator: BatchSimulator, engines: list[Deal], encoders: list[ObservationEncoder]
) -> int:
    """Every observation row is exactly the shared encoding of the engine deal's observation
    for its seat to act (for a deal that has ended, the seat that acted last): ``encode_int8``
    and ``encode``, entry for entry (R9: the encoder reads only what that seat may see).
    Truncated deals are left out (the engine's deal is still running). Returns the rows seen."""
    int8_rows, float_rows = simulator.observe(), simulator.observe_float()
    assert int8_rows.dtype == np.int8
    assert float_rows.dtype == np.float32
    assert int8_rows.shape == float_rows.shape == (len(engines), simulator.encoder.size)
    done = simulator.done
    compared = 0
    for i, (deal, encoder) in enumerate(zip(engines, encoders, strict=True)):
        if done[i] and not deal.is_over:
            continue  # truncated by max_turns
        compared += 1
        vector = encoder.encode(deal.observation(deal.current_seat))
        if not np.array_equal(float_rows[i], vector) or not np.array_equal(
            int8_rows[i], encoder.quantize(vector)
        ):
            wrong = np.flatnonzero((float_rows[i] != vector) | (int8_rows[i] != encoder.quantize(vector)))
            names = [field.name for field in encoder.layout for j in wrong if field.offset <= j < field.end]
            raise AssertionError(f"deal {i}: fields {sorted(set(names))} differ\n{deal}")
    return compared


def uniform_choice(generator: np.random.Generator, legal: list[int]) -> int:
    return int(generator.choice(legal))


def eager_caller(generator: np.random.Generator, legal: list[int]) -> int:
    """A call whenever one is legal (so first-turn calls, last rounds and R6.4 come often)."""
    calls = [action for action in legal if action >= 56]
    return int(generator.choice(calls or legal))


def lock_step(
    rules: RuleSet,
    players: int,
    seed: int,
    batch: int,
    *,
    max_turns: int = 1000,
    observe_every: int = 7,
    choose: Callable[[np.random.Generator, list[int]], int] = uniform_choice,
) -> BatchResult:
    """Play ``batch`` deals in lock step, each action chosen by ``choose`` from the legal
    mask, the engine alongside: legal sets equal at every step, every observation row equal
    to the shared encoding on a sample of steps (and at the end), and at the end the same
    outcomes and payouts."""
    simulator = BatchSimulator(rules, players, batch, seed, max_turns=max_turns)
    simulator.reset(record=True)
    first = simulator.result()
    engines = [
        Deal(rules, players, simulated.dealer, simulated.deck, SimulatorChance(simulator, i))
        for i, simulated in enumerate(first)
    ]
    encoders = [ObservationEncoder(rules, players) for _ in engines]  # one each: incremental
    generator = np.random.default_rng(seed)
    for step in range(2 * max_turns + 2):
        done = simulator.done
        if done.all():
            break
        mask = simulator.legal_mask()
        if step % observe_every == 0:
            assert_rows_equal_the_encoding(simulator, engines, encoders)
        actions = np.zeros(batch, dtype=np.int64)
        for i, deal in enumerate(engines):
            if done[i]:
                assert not mask[i].any()
                continue
            legal = [action.id for action in deal.legal_actions()]
            assert [int(a) for a in np.flatnonzero(mask[i])] == legal, (i, step, str(deal))
            actions[i] = choose(generator, legal)
        simulator.step(actions)
        for i, deal in enumerate(engines):
            if not done[i]:
                deal.apply(Action.from_id(int(actions[i])))
    result = simulator.result()
    for i in range(batch):
        assert_same_as_engine(result, i)
    assert assert_rows_equal_the_encoding(simulator, engines, encoders) == batch - int(result.truncated.sum())
    return result


# -- the evaluator ----------------------------------------------------------------------------


def wild_sets() -> list[tuple[str, list[Card]]]:
    sets = [("jokers", [CARDS[52], CARDS[53]]), ("none", [])]
    for rank in range(13):
        sets.append((f"rank{rank + 2}", list(CARDS[rank * 4 : rank * 4 + 4])))
        upcard = CARDS[rank * 4 + rank % 4]
        sets.append((f"opposite{upcard}", sorted(RuleSet(wild_colour="opposite").wild_cards(upcard))))
    return sets


def test_rank_table_holds_the_evaluators_rank_codes() -> None:
    keys, six, five, _ = rank_table()
    used = np.flatnonzero(keys)
    assert used.size > 3000
    for slot in used[::7]:
        key = int(keys[slot])
        counts = [(key >> (3 * rank)) & 7 for rank in range(13)]
        assert rank_codes(counts, key >> 39) == (int(six[slot]), int(five[slot]))


@pytest.mark.parametrize("royal_high", [False, True], ids=["royal_low", "royal_high"])
def test_r5_kernel_evaluation_equals_the_evaluator(royal_high: bool) -> None:
    rng = np.random.default_rng(5)
    for name, wild in wild_sets():
        evaluator = Evaluator(wild, royal_high=royal_high)
        pack_size = 54 if name == "jokers" else 52
        rows = np.argsort(rng.random((300, pack_size)), axis=1)[:, :6]
        # and rows rich in wild cards and in one suit: straight flushes, Five of a Kind
        skewed = []
        for _ in range(300):
            suit = int(rng.integers(4))
            low = int(rng.integers(13))
            pool = [((low + k) % 13) * 4 + suit for k in range(7)] + [int(c) for c in wild]
            pool += [int(c) for c in rng.choice(pack_size, 3, replace=False)]
            pool = list(dict.fromkeys(pool))
            skewed.append(rng.choice(pool, 6, replace=False))
        rows = np.concatenate([rows, np.array(skewed)])
        codes = evaluate_holdings(rows, wild, royal_high=royal_high)
        for row, got in zip(rows.tolist(), codes.tolist(), strict=True):
            held = [CARDS[c] for c in row]
            expected = [evaluator.best_code(held), evaluator.best_five_code(held), evaluator.code(held)]
            expected += [evaluator.code(held[:j] + held[j + 1 :]) for j in range(6)]
            assert got == expected, (name, [str(c) for c in held])


def test_evaluate_holdings_refuses_bad_input() -> None:
    with pytest.raises(PaiuteError, match=r"\(N, 6\)"):
        evaluate_holdings(np.zeros((2, 5), dtype=np.int64), [])
    with pytest.raises(PaiuteError):
        evaluate_holdings(np.full((1, 6), 54), [])


# -- the differential test ----------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["pagat", "gamerules"])
@pytest.mark.parametrize("players", range(2, 9))
def test_random_play_replays_in_the_engine_with_the_same_outcome(preset: str, players: int) -> None:
    rules = RuleSet.from_preset(preset, max_players=8)
    result = BatchSimulator(rules, players, batch_size=32, seed=players).run(100, record=True)
    assert len(result) == 100
    for i in range(len(result)):
        assert_same_as_engine(result, i)
    # R8.6: chips are never created or lost
    assert (result.payouts.sum(axis=1) + result.pot == 0).all()


#: Lock-step tables: preset, players, options (both presets, 2 to 8 players, the jokers).
LOCK_STEP_TABLES: list[tuple[str, int, dict[str, object]]] = [
    ("pagat", 4, {}),
    ("gamerules", 4, {}),
    ("pagat", 2, {"jokers": True}),
    ("gamerules", 3, {"wild_colour": "opposite", "reshuffle_keeps_top": False, "max_rebuilds": 0}),
    ("gamerules", 6, {"jokers": True, "max_players": 8, "payout": "scale"}),
    ("pagat", 8, {"max_players": 8, "royal_high": True, "open_discard": True}),
]


@pytest.mark.parametrize(
    ("preset", "players", "options"),
    LOCK_STEP_TABLES,
    ids=[
        f"{preset}-{players}-{'-'.join(options) or 'default'}"
        for preset, players, options in LOCK_STEP_TABLES
    ],
)
def test_lock_step_legal_sets_and_observations_equal_the_engine(
    preset: str, players: int, options: dict[str, object]
) -> None:
    result = lock_step(RuleSet.from_preset(preset, **options), players, seed=11, batch=10, observe_every=3)
    assert result.over.any() or result.dead.any()


@pytest.mark.parametrize("preset", ["pagat", "gamerules"])
@pytest.mark.parametrize("payout", ["pot", "scale"])
def test_eager_callers_lock_step_equal_the_engine(preset: str, payout: str) -> None:
    """Calls whenever legal: first-turn calls (R5.7, R8.4's double) and last rounds (R7)."""
    rules = RuleSet.from_preset(preset, payout=payout, max_players=8)
    result = lock_step(rules, 8, seed=21, batch=24, choose=eager_caller)
    assert result.call_first.any()


@pytest.mark.parametrize("preset", ["pagat", "gamerules"])
def test_eager_callers_replay_in_the_engine(preset: str) -> None:
    """Many deals with a call whenever one is legal: some end with several calls, each
    equal to or above the one before (R6.4), as the engine has them."""
    generator = np.random.default_rng(3)

    def eager(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        calls = masks.copy()
        calls[:, :56] = False
        allowed = np.where(calls.any(axis=1)[:, None], calls, masks)
        return (generator.random(masks.shape) * allowed).argmax(axis=1)

    rules = RuleSet.from_preset(preset, max_players=8, payout="scale")
    result = BatchSimulator(rules, 8, batch_size=500, seed=5).run(1500, eager, record=True)
    several = np.flatnonzero(result.call_count > 1)
    assert several.size > 5
    for i in range(len(result)):
        assert_same_as_engine(result, i)
    for i in several:
        codes = result.call_code[i, : result.call_count[i]]
        assert (np.diff(codes) >= 0).all()  # R6.4


#: A strategy for every option of OPTIONS but max_players (drawn with the number of players).
OPTION_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "jokers": st.booleans(),
    "upcard_under_stock": st.booleans(),
    "open_discard": st.booleans(),
    "wild_colour": st.sampled_from(["any", "opposite"]),
    "reshuffle_keeps_top": st.booleans(),
    "max_rebuilds": st.integers(0, 4),
    "paiute_any_turn": st.booleans(),
    "royal_high": st.booleans(),
    "payout": st.sampled_from(["pot", "scale"]),
    "stake": st.integers(0, 7),
    "ties": st.sampled_from(["split", "first_call"]),
    "unit": st.integers(0, 40),
}


def test_option_mixes_cover_every_option() -> None:
    assert {*OPTION_VALUES, "max_players"} == {option.name for option in OPTIONS}


@st.composite
def tables(draw: st.DrawFn) -> tuple[RuleSet, int]:
    """A rule set with every option drawn at random, and a number of players it allows."""
    players = draw(st.integers(2, 8))
    options: dict[str, object] = {"max_players": draw(st.integers(max(players, 2), 8))}
    for name, strategy in OPTION_VALUES.items():
        if draw(st.booleans()):
            options[name] = draw(strategy)
    return RuleSet.from_preset(draw(st.sampled_from(["pagat", "gamerules"])), **options), players


@given(tables(), st.integers(0, 2**32 - 1), st.sampled_from([None, 0]), st.sampled_from([1000, 25]))
@settings(max_examples=60, deadline=None)
def test_option_mixes_replay_in_the_engine(
    table: tuple[RuleSet, int], seed: int, dealer: int | None, max_turns: int
) -> None:
    rules, players = table
    simulator = BatchSimulator(rules, players, batch_size=8, seed=seed, dealer=dealer, max_turns=max_turns)
    result = simulator.run(16, record=True)
    for i in range(len(result)):
        assert_same_as_engine(result, i)
    if dealer is not None:
        assert (result.dealer == dealer).all()
    assert (result.payouts.sum(axis=1) + result.pot == 0).all()  # R8.6


@given(tables(), st.integers(0, 2**32 - 1))
@settings(max_examples=20, deadline=None)
def test_option_mixes_lock_step_legal_sets_and_observations_equal_the_engine(
    table: tuple[RuleSet, int], seed: int
) -> None:
    rules, players = table
    lock_step(rules, players, seed, batch=4, max_turns=200, observe_every=5)


def test_many_deals_replay_in_the_engine() -> None:
    """A larger sample of the default rules with 4 players, the benchmark's table."""
    result = BatchSimulator(RuleSet(), 4, batch_size=256, seed=2026).run(1000, record=True)
    for i in range(1000):
        assert_same_as_engine(result, i)
    summary = result.summary()
    assert summary["over"] + summary["dead"] == 1000
    assert summary["decisions"] == int(result.decisions.sum())


# -- rules seen directly ---------------------------------------------------------------------------

# Codes of a few combinations, low to high: a Paiute, a Three/Three, a Four/Two, a Straight
# Flush, a Royal Flush and Five of a Kind (as the evaluator writes them).
SAMPLE_CODES = sorted(
    Value.parse(text).code
    for text in (
        "paiute K Q J",
        "three_three A K",
        "four_two 9 2",
        "straight_flush 8",
        "royal_flush",
        "five_of_a_kind 7",
    )
)


@given(
    st.integers(2, 8),
    st.data(),
    st.sampled_from(["pot", "scale"]),
    st.integers(0, 9),
    st.sampled_from(["split", "first_call"]),
    st.integers(0, 60),
    st.booleans(),
)
@settings(max_examples=150, deadline=None)
def test_r8_settlement_equals_the_engine(
    players: int, data: st.DataObject, payout: str, stake: int, ties: str, unit: int, royal_high: bool
) -> None:
    """R8.1-R8.6 with ties, odd chips, first-turn doubles and dead deals: the kernel's
    settlement against :func:`paiute.settlement.settle`."""
    rules = RuleSet(max_players=8, payout=payout, stake=stake, ties=ties, unit=unit, royal_high=royal_high)
    dealer = data.draw(st.integers(0, players - 1))
    dead = data.draw(st.booleans())
    seats = [] if dead else data.draw(st.permutations(range(players)).map(lambda p: p[: max(1, len(p) // 2)]))
    # R6.4: each call equals or beats the highest so far; a small pool makes ties common
    codes = sorted(
        data.draw(st.lists(st.sampled_from(SAMPLE_CODES[:3]), min_size=len(seats), max_size=len(seats)))
    )
    firsts = data.draw(st.lists(st.booleans(), min_size=len(seats), max_size=len(seats)))
    batch = state.new_batch(1, 0, 0)
    batch.dealer[0] = dealer
    batch.n_calls[0] = len(seats)
    for i, (seat, code, first) in enumerate(zip(seats, codes, firsts, strict=True)):
        batch.call_seat[0, i] = seat
        batch.call_code[0, i] = code
        batch.call_first[0, i] = first
    finish_deal(batch, rule_params(rules, players), 0, dead)
    # R8.1, R8.3 written out: the best calls win; with first_call only the first of them
    calls = tuple(
        CallMade(seat, (), None, Value.from_code(code, royal_high=royal_high), first)  # type: ignore[arg-type]
        for seat, code, first in zip(seats, codes, firsts, strict=True)
    )
    winners: tuple[int, ...] = ()
    if not dead:
        tied = [call.seat for call in calls if call.value == max(call.value for call in calls)]
        winners = (tied[0],) if ties == "first_call" else tuple(sorted(tied))
    assert [seat for seat in range(players) if (int(batch.winners[0]) >> seat) & 1] == sorted(winners)
    balances, pot = collect_stakes(rules, [0] * players, 0)
    balances, pot = settle(rules, Outcome(dead, calls, winners), balances, pot, dealer)
    assert batch.payouts[0, :players].tolist() == balances
    assert int(batch.pot[0]) == pot
    assert sum(balances) + pot == 0  # R8.6


def test_r4_3_taken_card_is_neither_discarded_nor_put_down() -> None:
    rules = RuleSet.from_preset("gamerules")  # R2.7: an open discard pile to take from
    simulator = BatchSimulator(rules, 3, batch_size=64, seed=3)
    simulator.reset()
    pile_top = simulator.encoder.field("pile_top")
    top = simulator.observe()[:, pile_top.offset : pile_top.end].argmax(axis=1)
    simulator.step(np.ones(64, dtype=np.int64))  # draw discard everywhere
    mask = simulator.legal_mask()
    assert not mask[np.arange(64), 2 + top].any()  # R4.3
    assert not mask[np.arange(64), 56 + top].any()  # R4.3, R6.2
    assert (mask[:, 2:56].sum(axis=1) == 5).all()
    with pytest.raises(IllegalActionError) as error:
        simulator.step(2 + top)
    assert error.value.rule == "R4.3"


def test_step_refuses_illegal_actions_and_applies_nothing() -> None:
    simulator = BatchSimulator(RuleSet(), 4, batch_size=8, seed=1)
    simulator.reset()
    before = simulator.observe()
    with pytest.raises(IllegalActionError) as error:
        simulator.step(np.full(8, 2 + 51))  # discard before drawing
    assert error.value.rule == "R4.2"
    with pytest.raises(IllegalActionError) as error:
        simulator.step(np.full(8, 110))  # call before drawing
    assert error.value.rule == "R6.1"
    with pytest.raises(IllegalActionError) as error:
        simulator.step(np.ones(8, dtype=np.int64))  # R2.7: pagat's discard pile starts empty
    assert error.value.rule == "R4.2"
    with pytest.raises(ParseError):
        simulator.step(np.full(8, 111))
    with pytest.raises(PaiuteError, match="one per deal"):
        simulator.step(np.zeros(3, dtype=np.int64))
    assert (simulator.observe() == before).all()
    simulator.step(np.zeros(8, dtype=np.int64))
    assert (simulator.observe()[:, simulator.encoder.field("phase_discard").offset] == 1).all()  # R4.2


def test_observe_options_and_the_layout() -> None:
    """``observe`` fills ``out`` when given, refuses other dtypes and shapes, and its int8 rows
    divided by :func:`int8_scales` give the float32 rows to within half a step."""
    rules = RuleSet.from_preset("gamerules", jokers=True)
    simulator = BatchSimulator(rules, 3, batch_size=16, seed=2)
    simulator.reset(record=False)
    for _ in range(9):
        simulator.step_random()
    encoder = simulator.encoder
    assert simulator.observation_layout == encoder.layout == ObservationEncoder(rules, 3).layout
    assert simulator.observation_size == encoder.size == 7 * 54 + 18 + 3 * (4 * 54 + 10)
    out = np.full((16, encoder.size), 99, dtype=np.int8)
    assert simulator.observe(out=out) is out
    assert np.array_equal(out, simulator.observe())
    floats = simulator.observe(np.float32)
    scales = int8_scales(encoder)
    assert scales.shape == (encoder.size,)
    assert np.array_equal(encoder.quantize(floats[3]), out[3])
    assert (np.abs(out / scales - floats) <= 0.5 / scales + 1e-6).all()
    with pytest.raises(PaiuteError, match="int8 or float32"):
        simulator.observe(np.float64)
    with pytest.raises(PaiuteError, match="shape"):
        simulator.observe(out=np.zeros((16, encoder.size), dtype=np.float32))


def test_r4_7_hole_is_truncated_by_max_turns() -> None:
    """Never drawing from the stock (R4.7's hole, docs/rules.md) runs until max_turns."""

    def hoard(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        # draw discard when possible; otherwise the first legal action (never a call)
        chosen = np.where(masks[:, 1], 1, masks[:, :56].argmax(axis=1))
        return np.where(masks[:, 0] & ~masks[:, 1] & ~masks[:, 2:].any(axis=1), 0, chosen)

    rules = RuleSet.from_preset("gamerules")
    result = BatchSimulator(rules, 3, batch_size=8, seed=4, max_turns=30).run(8, hoard, record=True)
    assert result.truncated.all()
    assert (result.turns == 30).all()
    for i in range(8):
        assert not assert_same_as_engine(result, i).is_over


def test_masked_policy_runs_replay_in_the_engine() -> None:
    generator = np.random.default_rng(0)

    def uniform(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        assert observations.shape == (masks.shape[0], 7 * 52 + 18 + 5 * (4 * 52 + 10))  # docs/encoding.md
        scores = generator.random(masks.shape) * masks
        return scores.argmax(axis=1)

    result = BatchSimulator(RuleSet(), 5, batch_size=16, seed=9).run(20, uniform, record=True)
    assert set(result.status.tolist()) <= {OVER, DEAD}
    for i in range(20):
        assert_same_as_engine(result, i)


# -- repeatability ---------------------------------------------------------------------------------


def test_runs_repeat_by_seed_whatever_the_batch_size() -> None:
    rules = RuleSet.from_preset("gamerules", payout="scale")
    a = BatchSimulator(rules, 4, batch_size=37, seed=123).run(200, record=True)
    b = BatchSimulator(rules, 4, batch_size=200, seed=123).run(200, record=True)
    for name in ("status", "payouts", "decisions", "decks", "actions", "action_offsets", "rebuild_log"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    c = BatchSimulator(rules, 4, batch_size=64, seed=124).run(200)
    assert not np.array_equal(a.decisions, c.decisions)
    # successive runs continue with new deals; start= goes back
    simulator = BatchSimulator(rules, 4, batch_size=64, seed=123)
    first = simulator.run(50)
    second = simulator.run(50)
    assert second.first_deal == 50
    assert np.array_equal(second.decisions, a.decisions[50:100])
    assert np.array_equal(simulator.run(50, start=0).decisions, first.decisions)


def test_run_parallel_equals_one_process() -> None:
    rules = RuleSet()
    single = BatchSimulator(rules, 4, batch_size=100, seed=77).run(300, record=True)
    split = run_parallel(rules, 4, 300, seed=77, workers=2, batch_size=64, record=True)
    for name in ("status", "payouts", "pot", "decisions", "decks", "actions", "action_offsets"):
        assert np.array_equal(getattr(single, name), getattr(split, name)), name
    assert_same_as_engine(split, 299)


def test_results_convert_to_records() -> None:
    result = BatchSimulator(RuleSet(), 3, batch_size=8, seed=5).run(10, record=True)
    records = result.to_records()
    assert len(records) == 10
    first = records[0]
    assert first["status"] in ("over", "dead")
    assert len(first["deck"]) == 52
    assert Card.parse(first["deck"][0]) == result.deal(0).deck[0]
    assert [str(a) for a in result.replay(0).actions] == first["actions"]
    unrecorded = BatchSimulator(RuleSet(), 3, batch_size=8, seed=5).run(10)
    assert unrecorded.deal(0).actions == ()
    assert np.array_equal(unrecorded.payouts, result.payouts)
    with pytest.raises(PaiuteError, match="record"):
        unrecorded.replay(0)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(PaiuteError, match=r"R2\.1"):
        BatchSimulator(RuleSet(), 6)
    with pytest.raises(PaiuteError, match="dealer"):
        BatchSimulator(RuleSet(), 4, dealer=4)
    with pytest.raises(PaiuteError, match="batch_size"):
        BatchSimulator(RuleSet(), 4, batch_size=0)
    with pytest.raises(PaiuteError, match="reset"):
        BatchSimulator(RuleSet(), 4).legal_mask()
    with pytest.raises(PaiuteError, match="64-bit"):
        BatchSimulator(RuleSet(unit=10**18), 4)
    assert len(BatchSimulator(RuleSet(), 4).run(0)) == 0


def test_random_choice_is_uniform_over_legal_actions() -> None:
    """In the first draw of a gamerules deal both draws are legal: each is taken about half
    the time (the random policy is uniform over the legal set, like the engine's random)."""
    result = BatchSimulator(RuleSet.from_preset("gamerules"), 4, batch_size=4000, seed=8).run(
        4000, record=True
    )
    assert result.actions is not None
    assert result.action_offsets is not None
    first = result.actions[result.action_offsets[:-1]]
    share = float((first == 1).mean())
    assert 0.45 < share < 0.55
