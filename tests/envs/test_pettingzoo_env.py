"""The PettingZoo AEC environment (paiute.envs.pettingzoo).

PettingZoo's own checks (api_test, seed_test, render_test) and a turn-based parallel
conversion, then what the environment promises: chips as rewards (R8, R8.6), truncation of
the R4.7 hole, illegal actions refused with the rule, and observations equal to the seat's
encoded Observation (R9). ``max_cycles_test`` does not apply: it steps unmasked random actions
in a parallel environment with ``max_cycles``, which a turn-based game with masks has not.
"""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from paiute.envs.encoding import ObservationEncoder
from paiute.envs.pettingzoo import env, raw_env
from paiute.errors import IllegalActionError, PaiuteError


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
@pytest.mark.parametrize(("players", "preset"), [(2, "pagat"), (4, "pagat"), (5, "gamerules")])
def test_pettingzoo_api_test(players: int, preset: str) -> None:
    api_test(env(players=players, preset=preset), num_cycles=200)


def test_pettingzoo_seed_test() -> None:
    seed_test(env, num_cycles=200)


def test_pettingzoo_render_test(capsys: pytest.CaptureFixture[str]) -> None:
    render_test(env)
    assert "seat 0" in capsys.readouterr().out  # human mode prints the table


def test_render_ansi_returns_the_table_as_text() -> None:
    table = env(players=3, render_mode="ansi")
    table.reset(seed=1)
    text = table.render()
    assert isinstance(text, str)
    assert text.startswith("deal: 3 players")


def test_turn_based_parallel_conversion_plays_a_deal() -> None:
    parallel = turn_based_aec_to_parallel(env(players=3))
    rng = np.random.default_rng(0)
    observations, _infos = parallel.reset(seed=5)
    assert set(observations) == {"player_0", "player_1", "player_2"}
    total: dict[str, float] = dict.fromkeys(parallel.possible_agents, 0.0)
    for _ in range(10_000):
        if not parallel.agents:
            break
        actions = {}
        for agent in parallel.agents:
            mask = observations[agent]["action_mask"]
            actions[agent] = int(rng.choice(np.flatnonzero(mask))) if mask.any() else 0
        observations, rewards, _terminations, _truncations, _infos = parallel.step(actions)
        for agent, reward in rewards.items():
            total[agent] += reward
    assert not parallel.agents
    assert all(value == int(value) for value in total.values())


def test_r8_6_rewards_are_chips_and_sum_to_what_the_pot_lost() -> None:
    """Each episode's rewards are the seats' chip changes, stakes included (R8.2); with the
    pot carried over dead deals (R8.5) they add up to minus the pot's change (R8.6)."""
    for preset, options in (("pagat", {}), ("gamerules", {"payout": "scale"}), ("pagat", {"stake": 3})):
        table = raw_env(players=4, preset=preset, max_turns=200, **options)
        rng = np.random.default_rng(1)
        seeds = [7, None, None, None, None, None]
        for seed in seeds:
            pot_before = 0 if seed is not None else table.table.pot
            rewards = play_episode(table, rng, seed)
            pot_after = table.table.pot
            assert sum(rewards.values()) == pot_before - pot_after
            if options.get("payout") == "scale":
                assert pot_after == 0


def test_reset_without_a_seed_passes_the_deal_to_the_left() -> None:
    table = raw_env(players=3)
    rng = np.random.default_rng(2)
    table.reset(seed=11)
    first = table.table.deal.dealer
    play_episode(table, rng, seed=11)
    table.reset()
    assert table.table.deal.dealer == (first + 1) % 3  # R2.3
    table.reset(options={"dealer": 0})
    assert table.table.deal.dealer == 0


def test_same_seed_same_deal() -> None:
    one, two = raw_env(players=4), raw_env(players=4)
    one.reset(seed=3)
    two.reset(seed=3)
    assert one.table.deal.deck == two.table.deal.deck
    assert np.array_equal(one.observe("player_1")["observation"], two.observe("player_1")["observation"])


def test_r4_7_hole_is_truncated_after_max_turns() -> None:
    """Players who only ever draw from the discard pile never end a deal (the R4.7 hole):
    the environment truncates it after max_turns turns and settles it as a dead deal."""
    table = env(players=3, preset="gamerules", max_turns=12)  # gamerules: open discard pile
    table.reset(seed=4)
    steps = 0
    for _agent in table.agent_iter(1000):
        observation, reward, termination, truncation, _ = table.last()
        if termination or truncation:
            assert truncation
            assert not termination
            assert reward == -1  # the stake stays in the pot (R8.5)
            table.step(None)
            continue
        mask = observation["action_mask"]
        action = 1 if mask[1] else int(np.flatnonzero(mask[2:56])[0]) + 2  # draw discard, discard
        table.step(action)
        steps += 1
    assert steps == 24  # 12 turns of two decisions
    assert table.unwrapped.table.truncated
    assert table.unwrapped.table.pot == 3


def test_illegal_action_raises_naming_the_rule_and_changes_nothing() -> None:
    table = env(players=4)
    table.reset(seed=1)
    agent = table.agent_selection
    before = table.observe(agent)["observation"].copy()
    with pytest.raises(IllegalActionError, match=r"R4\.2"):
        table.step(2)  # discard before drawing
    with pytest.raises(PaiuteError, match="unknown action id"):
        table.step(111)
    assert table.agent_selection == agent
    assert np.array_equal(table.observe(agent)["observation"], before)


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
