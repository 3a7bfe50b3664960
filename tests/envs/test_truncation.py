"""One truncation rule in every learning interface (docs/rules.md, reading 17).

A deal in which ``max_turns`` turns (default :data:`paiute.rules.DEFAULT_MAX_TURNS`) have been
played without a call is cut and settled as a dead deal (R8.5): at a fresh table every seat
gets 0. After a call the last round (R7.2) is played out. The PettingZoo and Gymnasium
environments and the OpenSpiel game cut with :mod:`paiute.envs.truncation`, the batch
simulator with its compiled twin (``paiute.compiled.rules``); all share the default and the
settlement.
"""

from __future__ import annotations

import inspect
import random

import numpy as np

from paiute.actions import ACTIONS, Action
from paiute.chance import SeededChance
from paiute.deal import Deal, Phase
from paiute.envs.batch_sim import BatchSimulator, rule_params, run_parallel
from paiute.envs.gymnasium import PaiuteEnv
from paiute.envs.openspiel import GameSettings, load_game
from paiute.envs.pettingzoo import raw_env
from paiute.envs.table import EnvTable
from paiute.envs.truncation import cut_outcome, past_max_turns
from paiute.observation import Observation
from paiute.rules import DEFAULT_MAX_TURNS, RuleSet
from paiute.settlement import collect_stakes, settle

GAMERULES = RuleSet.from_preset("gamerules")  # an open discard pile from the start (R2.7)


def test_one_default_max_turns_everywhere() -> None:
    for function in (raw_env, PaiuteEnv, EnvTable, BatchSimulator, run_parallel, rule_params):
        assert inspect.signature(function).parameters["max_turns"].default == DEFAULT_MAX_TURNS, function
    assert GameSettings.from_parameters({}).max_turns == DEFAULT_MAX_TURNS
    assert raw_env().table.max_turns == PaiuteEnv().table.max_turns == DEFAULT_MAX_TURNS


def hoard_id(legal: list[int]) -> int:
    """Take the discard pile's top card when possible, then discard: such a deal never ends."""
    if 1 in legal:
        return 1
    discards = [a for a in legal if 2 <= a < 56]
    return discards[0] if discards else legal[0]


class Hoarder:
    """A bot that only hoards (for the Gymnasium environment's opponents)."""

    name = "hoarder"

    def act(self, observation: Observation) -> Action:
        return ACTIONS[hoard_id([action.id for action in observation.legal_actions])]


MAX = 9


def test_r8_5_a_cut_deal_pays_zero_in_pettingzoo() -> None:
    table = raw_env(players=3, preset="gamerules", max_turns=MAX)
    table.reset(seed=1)
    rewards = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter():
        observation, reward, termination, truncation, info = table.last()
        rewards[agent] += reward
        table.step(
            None
            if termination or truncation
            else hoard_id(np.flatnonzero(observation["action_mask"]).tolist())
        )
    assert info["end"] == "max_turns"
    assert table.table.turns == MAX
    assert set(rewards.values()) == {0.0}


def test_r8_5_a_cut_deal_pays_zero_in_gymnasium() -> None:
    env = PaiuteEnv(players=3, preset="gamerules", opponents="random", max_turns=MAX)
    _, info = env.reset(seed=1)
    env._opponents = [None if seat == env.seat else Hoarder() for seat in range(3)]
    env.reset()
    while True:
        _, reward, terminated, truncated, info = env.step(
            hoard_id(np.flatnonzero(env.action_masks()).tolist())
        )
        if terminated or truncated:
            break
    assert truncated
    assert not terminated
    assert info["end"] == "max_turns"
    assert env.table.turns == MAX
    assert reward == 0.0
    assert info["rewards"] == [0.0, 0.0, 0.0]


def test_r8_5_a_cut_deal_pays_zero_in_openspiel() -> None:
    game = load_game(GAMERULES, 3, max_turns=MAX)
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [action for action, _ in state.chance_outcomes()]
            state.apply_action(int(rng.choice(outcomes)))
        else:
            state.apply_action(hoard_id(state.legal_actions()))
    assert state.table.truncated
    assert state.table.turns == MAX
    assert state.returns() == [0.0, 0.0, 0.0]


def hoard_policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    chosen = np.where(masks[:, 1], 1, masks[:, 2:56].argmax(axis=1) + 2)
    return np.where(masks[:, 1] | masks[:, 2:56].any(axis=1), chosen, masks.argmax(axis=1))


def test_r8_5_a_cut_deal_is_settled_as_dead_in_the_batch_simulator() -> None:
    result = BatchSimulator(GAMERULES, 3, batch_size=4, seed=1, max_turns=MAX).run(4, hoard_policy)
    assert result.truncated.all()
    assert (result.turns == MAX).all()
    assert (result.payouts == -1).all()  # the stakes stay in the pot (R8.5)
    assert (result.pot == 3).all()
    assert (result.rewards == 0).all()  # what the environments pay


def call_on_the_last_turn(seed_range: range) -> tuple[raw_env, int]:
    """A deal (2 players, max_turns=1) whose first seat can call on turn 1, the last turn
    before the cut: the seed that gives it."""
    for seed in seed_range:
        table = raw_env(players=2, preset="gamerules", max_turns=1)
        table.reset(seed=seed)
        for draw in (0, 1):
            table.reset(seed=seed)
            if not table.table.mask(table.table.deal.current_seat)[draw]:
                continue
            table.step(draw)
            mask = table.table.mask(table.table.deal.current_seat)
            calls = np.flatnonzero(mask[56:]) + 56
            if calls.size:
                return table, int(calls[0])
    raise AssertionError("no deal in the range can call on its first turn")


def test_r7_2_after_a_call_the_last_round_is_played_out_not_cut() -> None:
    table, call = call_on_the_last_turn(range(2000))
    caller = table.table.deal.current_seat
    table.step(call)
    assert not table.table.done  # turn 1 ended with a call: the dealer still plays (R7.2)
    assert table.table.deal.current_seat == (caller + 1) % 2
    rng = np.random.default_rng(0)
    while not table.table.done:
        table.step(int(rng.choice(table.table.legal_ids())))
    assert table.table.end == "over"
    assert not table.table.truncated


def eager_policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Call whenever a call is legal, else the first legal action."""
    calls = masks[:, 56:].any(axis=1)
    return np.where(calls, masks[:, 56:].argmax(axis=1) + 56, masks.argmax(axis=1))


def test_r7_2_the_batch_kernels_play_out_the_last_round_after_a_call() -> None:
    """The compiled rules (paiute.compiled.rules ``_end_turn``) cut a deal after max_turns
    turns only while nobody has called: after a call the last round is played out (R7.2)."""
    result = BatchSimulator(GAMERULES, 2, batch_size=512, seed=3, max_turns=1).run(2048, eager_policy)
    called = result.call_count > 0
    assert called.any()  # the sample holds deals with a call on the last turn before the cut
    assert not (result.truncated & called).any()


def test_end_of_deal_infos_are_alike_in_both_environments() -> None:
    table = raw_env(players=3, preset="gamerules", max_turns=MAX)
    table.reset(seed=1)
    for _agent in table.agent_iter():
        observation, _, termination, truncation, pettingzoo_info = table.last()
        table.step(
            None
            if termination or truncation
            else hoard_id(np.flatnonzero(observation["action_mask"]).tolist())
        )
    env = PaiuteEnv(players=3, preset="gamerules", opponents="random", max_turns=MAX)
    env.reset(seed=1)
    env._opponents = [None if seat == env.seat else Hoarder() for seat in range(3)]
    env.reset()
    done = False
    while not done:
        *_, terminated, truncated, gymnasium_info = env.step(
            hoard_id(np.flatnonzero(env.action_masks()).tolist())
        )
        done = terminated or truncated
    assert set(gymnasium_info) - {"action_mask"} == set(pettingzoo_info)
    for key in ("end", "rule", "rewards", "pot", "winners", "turns"):
        assert gymnasium_info[key] == pettingzoo_info[key], key


def test_r4_7_past_max_turns_cuts_a_deal_only_where_a_turn_would_start() -> None:
    deal = Deal.new(GAMERULES, 3, dealer=2, chance=SeededChance(5))
    assert not past_max_turns(deal, turns=0, max_turns=1)
    assert past_max_turns(deal, turns=1, max_turns=1)
    assert past_max_turns(deal, turns=2, max_turns=1)
    deal.apply(deal.legal_actions()[0])  # the seat has drawn: its turn is under way
    assert not past_max_turns(deal, turns=1, max_turns=1)


def a_deal_after_a_call() -> Deal:
    """A deal in its last round (R7.2): someone has called and the next seat is to draw."""
    for seed in range(200):
        deal = Deal.new(GAMERULES, 3, dealer=2, chance=SeededChance(seed))
        rng = random.Random(seed)
        while not deal.is_over:
            if deal.calls and deal.phase is Phase.DRAW:
                return deal
            actions = deal.legal_actions()
            calls = [action for action in actions if action.kind.is_call]
            deal.apply(calls[0] if calls else rng.choice(actions))
    raise AssertionError("no deal in the range has a call before its dealer's turn")


def test_r7_2_past_max_turns_never_cuts_the_last_round() -> None:
    deal = a_deal_after_a_call()
    assert not past_max_turns(deal, turns=10**6, max_turns=1)


def test_r8_5_a_cut_deal_is_settled_as_a_dead_one() -> None:
    deal = Deal.new(GAMERULES, 3, dealer=2, chance=SeededChance(5))
    outcome = cut_outcome(deal)
    assert outcome.dead
    assert outcome.winners == ()
    balances, pot = collect_stakes(GAMERULES, [0, 0, 0], 0)
    assert settle(GAMERULES, outcome, balances, pot, deal.dealer) == (balances, pot)  # the pot stays
    called = a_deal_after_a_call()
    assert cut_outcome(called).calls == called.calls
    assert cut_outcome(called).dead
