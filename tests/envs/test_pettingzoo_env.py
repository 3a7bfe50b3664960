"""The PettingZoo AEC environment (paiute.envs.pettingzoo).

PettingZoo's own checks as the library ships them (``api_test``, ``seed_test``,
``parallel_api_test`` and ``parallel_seed_test`` on the turn-based parallel conversion,
``render_test``) at every table size 2..8, then what the environment promises: one deal at a
fresh table per episode with zero-sum float rewards (R8, R8.6), PettingZoo's classic
illegal-action convention (or ``illegal="raise"``), one truncation rule (the R4.7 hole),
``max_cycles``, ``state()`` and renders that show a seat only what R9 lets it see.

``max_cycles_test`` runs as shipped too, at every table size, on a module whose ``env()`` and
``parallel_env()`` pass ``illegal="replace"`` (it samples actions without the mask: under the
classic convention its first illegal action would end the deal) and whose generators are
seeded (the environment's, by a first ``reset(seed=1)``, and the action spaces'), so that the
run is repeatable. It asserts that the parallel env ends after exactly ``max_cycles`` steps
(one step is one cycle: every live agent submits, the agent to act's action is applied) and
that every AEC agent is yielded ``max_cycles + 1`` times. The second can fail only when the
rules end the deal first: a call on the first turn (R5.7, R6) ends it after one turn each
(R7.2), which unmasked random play does in 1% (2 players) to 9% (6 players) of deals (seed 0
at 8 players is one);
:func:`test_max_cycles_test_fails_only_where_a_call_ended_the_deal_first` checks that over
seeds.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import (
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
)

from paiute.deal import Deal
from paiute.envs.encoding import CHIP_BOUND, ObservationEncoder
from paiute.envs.pettingzoo import env, parallel_env, raw_env
from paiute.errors import IllegalActionError, PaiuteError
from paiute.observation import Observation

ALL_PLAYERS = range(2, 9)


def random_legal(observation: dict[str, np.ndarray], rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def play_episode(table, rng: np.random.Generator, seed: int | None = None) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """Reset and play random legal actions to the end; the rewards each agent collected."""
    table.reset(seed=seed)
    collected = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter(100_000):
        observation, reward, termination, truncation, _ = table.last()
        collected[agent] += reward
        table.step(None if termination or truncation else random_legal(observation, rng))
    return collected


# api_test warns about every dict observation ({"observation", "action_mask"}), which is
# PettingZoo's own classic style; nothing else may warn.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("players", ALL_PLAYERS)
def test_pettingzoo_api_test(players: int) -> None:
    api_test(env(players=players), num_cycles=40)


def test_pettingzoo_api_test_gamerules() -> None:
    api_test(env(players=5, preset="gamerules"), num_cycles=40)


@pytest.mark.parametrize("players", ALL_PLAYERS)
def test_pettingzoo_seed_tests(players: int) -> None:
    """seed_test samples with the mask; parallel_seed_test without it (each illegal action
    ends the deal, the same way in both copies)."""
    seed_test(functools.partial(env, players=players), num_cycles=40)
    parallel_seed_test(functools.partial(parallel_env, players=players), num_cycles=40)


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("players", ALL_PLAYERS)
def test_pettingzoo_parallel_api_test(players: int) -> None:
    parallel_api_test(parallel_env(players=players), num_cycles=40)


def unmasked_module(players: int, seed: int) -> types.SimpleNamespace:
    """What max_cycles_test reads: env() and parallel_env() with illegal="replace" and
    seeded generators (the environment's by a first reset, the action spaces' by seed)."""

    def seeded(table):  # type: ignore[no-untyped-def]
        table.reset(seed=seed)
        for index, agent in enumerate(table.possible_agents):
            table.action_space(agent).seed(seed * 10 + index)
        return table

    return types.SimpleNamespace(
        env=lambda **kwargs: seeded(env(players=players, illegal="replace", **kwargs)),
        parallel_env=lambda **kwargs: seeded(parallel_env(players=players, illegal="replace", **kwargs)),
    )


@pytest.mark.parametrize("players", ALL_PLAYERS)
def test_pettingzoo_max_cycles_test(players: int) -> None:
    max_cycles_test(unmasked_module(players, seed=1))


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("players", ALL_PLAYERS)
def test_pettingzoo_tests_with_illegal_replace(players: int) -> None:
    """The other checks hold with illegal="replace" too; parallel_seed_test samples without
    the mask, so every illegal action there is replaced, the same way in both copies."""
    api_test(env(players=players, illegal="replace"), num_cycles=40)
    parallel_seed_test(functools.partial(parallel_env, players=players, illegal="replace"), num_cycles=40)


def test_max_cycles_test_fails_only_where_a_call_ended_the_deal_first() -> None:
    """Over seeds, max_cycles_test passes unless the deal ended by the rules before every
    agent had acted max_cycles times: a first-turn call (R5.7, R6), the last round played
    (R7.2), end "over" after one turn each."""
    passed = 0
    for players in (2, 8):
        for seed in range(12):
            module = unmasked_module(players, seed)
            try:
                max_cycles_test(module)
            except AssertionError:
                table = module.env(max_cycles=4)
                table.reset()
                for agent in table.agent_iter():
                    table.step(
                        None
                        if table.terminations[agent] or table.truncations[agent]
                        else table.action_space(agent).sample()
                    )
                deal_table = table.unwrapped.table
                assert deal_table.end == "over", (players, seed)
                assert deal_table.deal.calls
                assert deal_table.turns == players  # one turn each (R7.2)
            else:
                passed += 1
    assert passed > 0


def test_parallel_max_cycles_counts_steps() -> None:
    """In the parallel env one step is one cycle: the deal is cut after max_cycles steps, a
    truncation settled as a dead deal (R8.5)."""
    for players in (2, 5):
        table = parallel_env(players=players, max_cycles=3)
        observations, _ = table.reset(seed=2)
        rng = np.random.default_rng(0)
        steps = 0
        while steps < 10:
            steps += 1
            actions = {
                agent: random_legal(observations[agent], rng)
                if observations[agent]["action_mask"].any()
                else 0  # ignored: not its turn
                for agent in table.agents
            }
            observations, rewards, terminations, truncations, infos = table.step(actions)
            if all(terminations[a] or truncations[a] for a in terminations):
                break
        assert steps == 3
        assert all(truncations.values())
        assert set(rewards.values()) == {0.0}
        assert all(info["end"] == "max_cycles" for info in infos.values())
    with pytest.raises(PaiuteError, match="cycle"):
        env(cycle="deal")


@pytest.mark.parametrize("players", ALL_PLAYERS)
def test_pettingzoo_render_test(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    render_test(functools.partial(env, players=players))
    assert "sees:" in capsys.readouterr().out  # human mode prints a seat's view


def test_is_parallelizable_is_false_as_in_the_classic_envs() -> None:
    assert raw_env.metadata["is_parallelizable"] is False


def test_r2_1_eight_players_need_no_max_players() -> None:
    table = env(players=8)
    table.reset(seed=0)
    assert len(table.agents) == 8
    assert table.unwrapped.rules.max_players == 8
    with pytest.raises(PaiuteError, match=r"R2\.1"):
        env(players=7, max_players=6)  # given: kept


# -- episodes, rewards ----------------------------------------------------------------------


def test_reset_with_or_without_a_seed_is_a_fresh_table() -> None:
    table = raw_env(players=3, max_turns=30)
    rng = np.random.default_rng(2)
    for seed in (11, None, None, 5, None):
        play_episode(table, rng, seed)
        table.reset(seed=seed)
        assert table.table.balances == [-1, -1, -1]  # the stake only (R8.2)
        assert table.table.pot == 3


def test_r8_5_rewards_are_zero_sum_and_a_dead_deal_pays_zero() -> None:
    for preset, options in (("pagat", {}), ("gamerules", {"payout": "scale"}), ("pagat", {"stake": 3})):
        table = raw_env(players=4, preset=preset, max_turns=200, **options)
        rng = np.random.default_rng(1)
        for seed in (7, None, None, None, None, None):
            rewards = play_episode(table, rng, seed)
            assert all(isinstance(reward, float) for reward in rewards.values())
            assert sum(rewards.values()) == 0
            if table.table.end != "over":
                assert set(rewards.values()) == {0.0}


def test_carry_match_carries_the_balances_and_the_pot() -> None:
    """carry_match=True: the deal passes left (R2.3), a dead deal's pot is carried (R8.5),
    the balances stay; rewards are still zero-sum (chips plus a share of the pot)."""
    table = raw_env(players=3, max_turns=40, carry_match=True)
    rng = np.random.default_rng(2)
    play_episode(table, rng, seed=11)
    first = table.table.deal.dealer
    balances, pot = list(table.table.balances), table.table.pot
    rewards = play_episode(table, rng)
    assert table.table.deal.dealer == (first + 1) % 3
    assert sum(rewards.values()) == pytest.approx(0.0)
    change = [b - a for a, b in zip(balances, table.table.balances, strict=True)]
    share = (table.table.pot - pot) / 3
    assert [rewards[a] for a in table.possible_agents] == pytest.approx([c + share for c in change])
    table.reset(options={"dealer": 0})
    assert table.table.deal.dealer == 0


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    players=st.integers(2, 8),
    carry=st.booleans(),
    preset=st.sampled_from(["pagat", "gamerules"]),
)
def test_random_legal_play_is_zero_sum_and_inside_the_declared_bounds(
    seed: int, players: int, carry: bool, preset: str
) -> None:
    """Random legal play over seeds: every deal's rewards sum to zero; every observation,
    also of a match carried over many deals (stake 50 makes the chips move fast), lies in
    its declared Box, and so does state()."""
    options = {"stake": 50, "max_turns": 60} if carry else {"max_turns": 60}
    table = raw_env(players=players, preset=preset, carry_match=carry, **options)
    rng = np.random.default_rng(seed)
    space = table.observation_space("player_0")["observation"]
    for episode in range(4 if carry else 1):
        table.reset(seed=seed if episode == 0 else None)
        collected = dict.fromkeys(table.possible_agents, 0.0)
        for agent in table.agent_iter(10_000):
            observation, reward, termination, truncation, _ = table.last()
            collected[agent] += reward
            assert space.contains(observation["observation"]), agent
            assert table.state_space.contains(table.state())
            table.step(None if termination or truncation else random_legal(observation, rng))
        assert sum(collected.values()) == pytest.approx(0.0)


def test_carried_chip_features_are_clipped_to_the_bound() -> None:
    table = raw_env(players=2, carry_match=True, stake=1)
    table.reset(seed=0)
    table.table.balances = [1000, -1000]  # far beyond the bound: a long match
    table.reset()
    encoder = table.encoder
    vector = table.observe("player_0")["observation"]
    assert encoder.slice(vector, "seat0.balance")[0] == CHIP_BOUND
    assert encoder.slice(vector, "seat1.balance")[0] == -CHIP_BOUND
    assert table.observation_space("player_0")["observation"].contains(vector)


def test_end_of_deal_infos_say_why_with_chips_and_winners() -> None:
    table = env(players=3)
    rng = np.random.default_rng(4)
    table.reset(seed=3)
    seen: dict[str, dict[str, object]] = {}
    for agent in table.agent_iter():
        observation, _, termination, truncation, info = table.last()
        if termination or truncation:
            seen[agent] = info
        table.step(None if termination or truncation else random_legal(observation, rng))
    info = seen["player_0"]
    assert len(seen) == 3
    assert all(other == info for other in seen.values())
    assert info["end"] in ("over", "dead", "max_turns")
    assert sum(info["chips"]) == -info["pot"]  # R8.6
    assert len(info["rewards"]) == 3
    if info["end"] == "over":
        assert info["winners"]


def test_same_seed_same_deal() -> None:
    one, two = raw_env(players=4), raw_env(players=4)
    one.reset(seed=3)
    two.reset(seed=3)
    assert one.table.deal.deck == two.table.deal.deck
    assert np.array_equal(one.observe("player_1")["observation"], two.observe("player_1")["observation"])


# -- truncation -----------------------------------------------------------------------------


def hoard(mask: np.ndarray) -> int:
    """Draw from the discard pile when possible, then discard the first card: no deal ends."""
    return 1 if mask[1] else int(np.flatnonzero(mask[2:56])[0]) + 2


def test_r4_7_hole_is_cut_after_max_turns_and_pays_zero() -> None:
    """Players who only ever draw from the discard pile never end a deal (the R4.7 hole):
    the deal is cut after max_turns turns without a call, settled as a dead deal (R8.5)."""
    table = env(players=3, preset="gamerules", max_turns=12)  # gamerules: open discard pile
    table.reset(seed=4)
    steps = 0
    for _agent in table.agent_iter(1000):
        observation, reward, termination, truncation, info = table.last()
        if termination or truncation:
            assert truncation
            assert not termination
            assert reward == 0.0  # a fresh table: the stakes go back
            assert info["end"] == "max_turns"
            table.step(None)
            continue
        table.step(hoard(observation["action_mask"]))
        steps += 1
    assert steps == 24  # 12 turns of two decisions
    assert table.unwrapped.table.truncated
    assert table.unwrapped.table.pot == 3  # the ledger: R8.5 keeps the stakes in the pot


def test_max_cycles_cuts_after_that_many_actions_per_agent() -> None:
    """The AEC half of max_cycles_test, with legal actions: every agent acts max_cycles times,
    then each is iterated once more (with None) and the deal is truncated."""
    for players in (2, 5):
        table = env(players=players, preset="gamerules", max_cycles=4)
        table.reset(seed=1)
        counts = dict.fromkeys(table.possible_agents, 0)
        for agent in table.agent_iter():
            counts[agent] += 1
            observation, _, termination, truncation, info = table.last()
            table.step(None if termination or truncation else hoard(observation["action_mask"]))
        assert set(counts.values()) == {5}
        assert info["end"] == "max_cycles"
    with pytest.raises(PaiuteError, match="max_cycles"):
        env(max_cycles=0)


# -- illegal actions ------------------------------------------------------------------------


def test_illegal_action_ends_the_deal_as_terminate_illegal_wrapper_does() -> None:
    """PettingZoo's classic convention: the offender -1, the others 0, every agent
    terminated, the infos say why (with the rule)."""
    table = env(players=4)
    table.reset(seed=1)
    offender = table.agent_selection
    table.step(2)  # discard before drawing
    assert all(table.terminations.values())
    assert table.rewards == {agent: (-1.0 if agent == offender else 0.0) for agent in table.possible_agents}
    info = table.infos[offender]
    assert info["rule"] == "R4.2"
    assert "R4.2" in info["illegal"]
    assert info["offender"] == offender
    assert info["end"] == "illegal"
    collected = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter():
        _, reward, termination, _, _ = table.last()
        assert termination
        collected[agent] += reward
        table.step(None)
    assert collected[offender] == -1.0
    assert sum(collected.values()) == -1.0


def test_out_of_range_action_is_illegal_too() -> None:
    table = env(players=2, illegal_reward=-5)
    table.reset(seed=0)
    offender = table.agent_selection
    table.step(111)
    assert table.rewards[offender] == -5.0
    assert "unknown action id" in table.infos[offender]["illegal"]


def test_illegal_replace_plays_a_legal_action_and_penalises_the_offender() -> None:
    """illegal="replace": a legal action drawn by the environment's seeded generator is
    played instead, the offender gets illegal_reward at that step, the deal goes on, infos say
    what was asked and what was played; the deal's own rewards still sum to zero."""
    table = env(players=3, illegal="replace", illegal_reward=-0.5)
    table.reset(seed=5)
    offender = table.agent_selection
    table.step(2)  # discard before drawing (R4.2)
    assert not any(table.terminations.values())
    assert table.rewards[offender] == -0.5
    assert table.agent_selection == offender  # its draw was played: now it discards
    _, reward, _, _, info = table.last()
    assert reward == -0.5
    assert info["rule"] == "R4.2"
    assert info["action"] == 2
    assert info["replaced_by"] in (0, 1)
    table.step(111)  # unknown id: replaced by one of the legal discards
    assert table.infos[offender]["replaced_by"] in range(2, 111)
    rng = np.random.default_rng(3)
    collected = dict.fromkeys(table.possible_agents, 0.0)
    collected[offender] = -1.0  # the two penalties already given
    for agent in table.agent_iter():
        observation, reward, termination, truncation, info = table.last()
        if agent != offender or reward != -0.5:
            collected[agent] += reward
        table.step(None if termination or truncation else random_legal(observation, rng))
    assert info["penalties"] == [-1.0 if a == offender else 0.0 for a in table.possible_agents]
    assert sum(info["rewards"]) == pytest.approx(0.0)
    expected = {
        a: r + p for a, r, p in zip(table.possible_agents, info["rewards"], info["penalties"], strict=True)
    }
    assert collected == pytest.approx(expected)


def test_illegal_replace_is_repeatable_and_keeps_the_seeds_deals() -> None:
    """The same seed and actions give the same replacements; the replacements come from their
    own stream, so a seed deals the same deal in every illegal mode."""
    runs = []
    for _ in range(2):
        table = raw_env(players=4, illegal="replace", max_turns=20)
        table.reset(seed=8)
        played = []
        for agent in table.agent_iter():
            if table.terminations[agent] or table.truncations[agent]:
                table.step(None)
                continue
            table.step(2)
            played.append(table.infos[agent].get("replaced_by"))
        runs.append(played)
    assert runs[0] == runs[1]
    assert len(set(runs[0])) > 2
    one, two = raw_env(players=4, illegal="replace"), raw_env(players=4)
    one.reset(seed=8)
    two.reset(seed=8)
    assert one.table.deal.deck == two.table.deal.deck


def test_illegal_replace_without_penalty() -> None:
    table = env(players=2, illegal="replace", illegal_reward=0)
    table.reset(seed=0)
    offender = table.agent_selection
    table.step(5)
    assert table.rewards[offender] == 0.0
    assert "illegal" in table.infos[offender]


def test_observation_object_is_the_agent_to_acts_own_observation() -> None:
    """observation_object=True: the agent to act's infos carry its Observation (R9), whose
    legal actions are the mask's; no other agent's infos carry one."""
    table = env(players=3, observation_object=True)
    table.reset(seed=4)
    rng = np.random.default_rng(1)
    for agent in table.agent_iter():
        observation, _, termination, truncation, info = table.last()
        if termination or truncation:
            assert "observation_object" not in info
            table.step(None)
            continue
        seen = info["observation_object"]
        assert isinstance(seen, Observation)
        assert seen.seat == int(agent.split("_")[1])
        assert [a.id for a in seen.legal_actions] == np.flatnonzero(observation["action_mask"]).tolist()
        assert seen == table.unwrapped.table.observation(seen.seat)
        others = [a for a in table.agents if a != agent]
        assert not any("observation_object" in table.infos[a] for a in others)
        table.step(random_legal(observation, rng))


def test_illegal_raise_keeps_the_engine_error_and_changes_nothing() -> None:
    table = env(players=4, illegal="raise")
    table.reset(seed=1)
    agent = table.agent_selection
    before = table.observe(agent)["observation"].copy()
    with pytest.raises(IllegalActionError, match=r"R4\.2"):
        table.step(2)  # discard before drawing
    with pytest.raises(PaiuteError, match="unknown action id"):
        table.step(111)
    assert table.agent_selection == agent
    assert np.array_equal(table.observe(agent)["observation"], before)


# -- what a seat sees -----------------------------------------------------------------------


def test_r9_observations_are_the_encoded_seat_observations() -> None:
    """observe() comes from the incremental encoder; it equals encoding the seat's own
    Observation (so it shows only what R9 allows), and the mask is the legal actions."""
    table = raw_env(players=4, preset="gamerules")
    encoder = ObservationEncoder(table.rules, 4)
    rng = np.random.default_rng(3)
    table.reset(seed=9)
    for _agent in table.agent_iter(400):
        observation, _, termination, truncation, _ = table.last()
        deal = table.table.deal
        for other in table.possible_agents:
            seat = int(other.split("_")[1])
            seen = table.observe(other)
            assert np.array_equal(seen["observation"], encoder.encode(deal.observation(seat)))
            legal = [a.id for a in deal.observation(seat).legal_actions] if not table.table.done else []
            assert np.flatnonzero(seen["action_mask"]).tolist() == legal
        table.step(None if termination or truncation else random_legal(observation, rng))


def test_state_is_the_whole_table_for_critics() -> None:
    table = raw_env(players=3)
    table.reset(seed=2)
    state = table.state()
    assert state.shape == table.state_space.shape
    encoder = table.encoder
    layout = {field.name: field for field in encoder.state_layout()}
    deal = table.table.deal
    for seat in range(3):
        hands = layout[f"hands.{seat}"]
        assert sorted(np.flatnonzero(state[hands.offset : hands.end]).tolist()) == sorted(deal.hand(seat))
    stock = layout["stock"]
    order = state[stock.offset : stock.end]
    assert np.count_nonzero(order) == deal.stock_size
    assert int(np.argmin(np.where(order > 0, order, 2))) == deal.stock_cards()[-1]  # drawn next


@pytest.mark.parametrize("view", ["agent", "player_1", 2])
def test_r9_render_never_prints_an_opponents_hidden_card(
    view: str | int, never_shown: Callable[[Deal, int], set[str]]
) -> None:
    table = raw_env(players=3, render_mode="ansi", render_view=view)
    rng = np.random.default_rng(6)
    for seed in range(3):
        table.reset(seed=seed)
        for _agent in table.agent_iter(300):
            shown = table._render_seat
            seat = table.table.deal.current_seat if shown is None else shown
            text = table.render()
            assert isinstance(text, str)
            words = set(text.replace(",", " ").split())
            assert not words & never_shown(table.table.deal, seat), text
            observation, _, termination, truncation, _ = table.last()
            table.step(None if termination or truncation else random_legal(observation, rng))


def test_render_view_table_shows_every_hand_only_when_asked() -> None:
    table = raw_env(players=3, render_mode="ansi", render_view="table")
    table.reset(seed=1)
    text = table.render()
    assert isinstance(text, str)
    assert text.startswith("deal: 3 players")
    for seat in range(3):
        assert all(str(card) in text for card in table.table.deal.hand(seat))
    with pytest.raises(PaiuteError, match="render_view"):
        raw_env(render_view="everyone")


def test_observations_are_new_arrays_every_call() -> None:
    table = env(players=2)
    table.reset(seed=0)
    one, two = table.observe("player_0"), table.observe("player_0")
    assert one["observation"] is not two["observation"]
    assert one["action_mask"] is not two["action_mask"]


def test_bad_options_are_refused() -> None:
    with pytest.raises(PaiuteError):
        env(players=9)
    with pytest.raises(PaiuteError):
        env(payouts="pot")
    with pytest.raises(ValueError, match="render_mode"):
        env(render_mode="rgb_array")
    with pytest.raises(PaiuteError, match="illegal"):
        env(illegal="ignore")
