"""The single-seat Gymnasium environment (paiute.envs.gymnasium): Gymnasium's checker on the
default env at every table size, the registered id, action masks through gym.make's wrappers,
opponents by name, whole episodes at a fresh table, illegal actions (a terminal step with the
classic -1 penalty by default, or raised with the rule)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import paiute.envs.gymnasium  # noqa: F401 - registers paiute/Paiute-v0
from paiute.deal import Deal
from paiute.envs import GYMNASIUM_ID
from paiute.envs.encoding import ObservationEncoder
from paiute.envs.gymnasium import PaiuteEnv
from paiute.errors import IllegalActionError, PaiuteError
from paiute.players import PlayerError


def play(
    env: PaiuteEnv, rng: np.random.Generator, seed: int | None = None
) -> tuple[float, int, bool, dict[str, object]]:
    """One episode of random legal actions: total reward, steps, truncated, the last info."""
    _, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        mask = env.action_masks()
        assert np.array_equal(mask, info["action_mask"].astype(bool))
        _, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += reward
        steps += 1
        if terminated or truncated:
            return total, steps, truncated, info


@pytest.mark.parametrize("players", range(2, 9))
def test_check_env_passes_on_the_default_env(players: int) -> None:
    """check_env steps random actions from the whole action space: each illegal one is a
    terminal step with the penalty, as the default says."""
    check_env(PaiuteEnv(players=players), skip_render_check=True)


@pytest.mark.filterwarnings("error")
def test_check_env_passes_on_the_registered_default_env() -> None:
    check_env(gym.make(GYMNASIUM_ID).unwrapped, skip_render_check=True)


def test_check_env_render_modes_through_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    check_env(gym.make(GYMNASIUM_ID, render_mode="ansi").unwrapped)
    env = gym.make(GYMNASIUM_ID, render_mode="human", opponents="random")
    env.reset(seed=1)
    assert "seats relative to you" in capsys.readouterr().out


def test_gym_make_builds_the_environment_with_options() -> None:
    env = gym.make(GYMNASIUM_ID, players=5, preset="gamerules", opponents="random", jokers=True)
    inner = env.unwrapped
    assert isinstance(inner, PaiuteEnv)
    assert inner.rules.jokers
    observation, _ = env.reset(seed=0)
    assert observation.shape == (ObservationEncoder(inner.rules, 5).size,)
    assert env.observation_space.contains(observation)


def test_registered_after_importing_gymnasium_then_paiute_envs() -> None:
    code = (
        "import gymnasium as gym, paiute.envs; "
        "env = gym.make('paiute/Paiute-v0', opponents='random'); env.reset(seed=0); print('ok')"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "ok"


def test_a_full_episode_against_greedy_pays_the_chips() -> None:
    env = PaiuteEnv(seat=1, opponents="greedy", players=4)
    rng = np.random.default_rng(0)
    for seed in (1, 2, None):
        total, steps, truncated, info = play(env, rng, seed)
        assert steps >= 2
        assert not truncated
        assert isinstance(total, float)
        assert total == info["rewards"][1]
        assert sum(info["rewards"]) == 0
        chips = info["chips"]
        if info["end"] == "over":
            assert total == chips[1]  # a won deal: our seat's chip change (R8)
            assert info["winners"]
        else:
            assert total == 0.0  # a dead deal pays nothing (R8.5)
        assert sum(chips) == -info["pot"]  # R8.6
        assert info["action_mask"].all()  # the deal has ended: every action admitted, none applied


def test_reset_with_or_without_a_seed_is_a_fresh_table() -> None:
    env = PaiuteEnv(opponents="random", players=3, max_turns=40)
    rng = np.random.default_rng(5)
    for seed in (3, None, None):
        play(env, rng, seed)
        env.reset(seed=seed)
        assert env.table.balances == [-1, -1, -1]  # only this deal's stake (R8.2)
        assert env.table.pot == 3


def test_carry_match_continues_the_match() -> None:
    env = PaiuteEnv(opponents="random", players=3, carry_match=True, max_turns=40)
    rng = np.random.default_rng(5)
    play(env, rng, seed=3)
    dealer = env.table.deal.dealer
    env.reset()
    assert env.table.deal.dealer == (dealer + 1) % 3  # R2.3


def test_r2_1_eight_players_need_no_max_players() -> None:
    env = gym.make(GYMNASIUM_ID, players=8, opponents="random")
    observation, _ = env.reset(seed=0)
    assert env.observation_space.contains(observation)


def get_action_masks(env: gym.Env) -> np.ndarray:  # type: ignore[type-arg]
    """sb3-contrib's ``get_action_masks`` for an environment that is not a VecEnv, and its
    ``is_masking_supported`` (sb3_contrib.common.maskable.utils): a plain attribute lookup."""
    assert hasattr(env, "action_masks")
    return np.asarray(env.action_masks())


def test_action_masks_are_reachable_through_gym_make() -> None:
    env = gym.make(GYMNASIUM_ID, players=3, opponents="random")
    _, info = env.reset(seed=2)
    assert np.array_equal(get_action_masks(env), info["action_mask"].astype(bool))
    assert np.array_equal(env.get_wrapper_attr("action_masks")(), info["action_mask"].astype(bool))
    assert np.array_equal(env.action_mask(), info["action_mask"])
    # Under a wrapper of one's own: get_wrapper_attr or unwrapped, as the docstring says.
    wrapped = gym.wrappers.RecordEpisodeStatistics(env)
    assert np.array_equal(wrapped.get_wrapper_attr("action_masks")(), wrapped.unwrapped.action_masks())


def test_action_masks_are_the_legal_actions_of_our_seat() -> None:
    env = PaiuteEnv(seat=2, opponents="random", players=3)
    observation, _ = env.reset(seed=4)
    encoder = ObservationEncoder(env.rules, 3)
    for _ in range(30):
        deal = env.table.deal
        if env.table.done:
            break
        assert deal.current_seat == 2
        seen = deal.observation(2)
        assert np.flatnonzero(env.action_masks()).tolist() == [a.id for a in seen.legal_actions]
        assert env.action_mask().dtype == np.int8
        assert np.array_equal(observation, encoder.encode(seen))  # R9: the seat's own view
        action = int(np.flatnonzero(env.action_masks())[0])
        observation, _, terminated, truncated, _info = env.step(action)
        if terminated or truncated:
            break


@pytest.mark.parametrize("opponents", ["random", "greedy", "random:seed=3", ["greedy", "random", "random"]])
def test_opponents_by_name(opponents: str | list[str]) -> None:
    env = PaiuteEnv(opponents=opponents, players=4, max_turns=60)
    play(env, np.random.default_rng(1), seed=8)


def test_bad_opponents_and_seats_are_refused() -> None:
    with pytest.raises(PlayerError, match="unknown player"):
        PaiuteEnv(opponents="nobody").reset(seed=0)
    with pytest.raises(PaiuteError, match="opponent specs"):
        PaiuteEnv(opponents=["greedy"], players=4)
    with pytest.raises(PaiuteError, match="seat"):
        PaiuteEnv(seat=4, players=4)
    with pytest.raises(PaiuteError, match="illegal"):
        PaiuteEnv(illegal="ignore")


def test_illegal_raise_keeps_the_engine_error() -> None:
    env = PaiuteEnv(opponents="random", illegal="raise")
    observation, _ = env.reset(seed=2)
    with pytest.raises(IllegalActionError, match=r"R6\.1 seat 0 must draw before calling") as caught:
        env.step(56)  # a call before drawing
    assert caught.value.rule == "R6.1"
    # Nothing changed: the same observation, still our turn to draw.
    assert np.array_equal(env.table.encode(env.seat), observation)
    env.step(0)


def test_illegal_action_is_a_terminal_step_with_the_penalty() -> None:
    env = PaiuteEnv(opponents="random")
    env.reset(seed=2)
    _, reward, terminated, truncated, info = env.step(2)  # discard before drawing
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["rule"] == "R4.2"
    assert "must draw" in info["illegal"]
    assert info["end"] == "illegal"
    assert info["rewards"] == [-1.0, 0.0, 0.0, 0.0]
    with pytest.raises(PaiuteError, match="reset"):
        env.step(0)
    old = PaiuteEnv(opponents="random", illegal="penalty", illegal_reward=-7)  # the old name
    old.reset(seed=2)
    assert old.step(200)[1] == -7.0


@pytest.mark.parametrize("players", range(2, 9))
def test_check_env_passes_with_illegal_replace(players: int) -> None:
    check_env(PaiuteEnv(players=players, illegal="replace"), skip_render_check=True)


def test_illegal_replace_plays_a_legal_action_and_penalises() -> None:
    """illegal="replace": a legal action drawn by the env's generator is played instead,
    the step's reward has the penalty, the deal goes on and info says what happened."""
    env = PaiuteEnv(opponents="random", illegal="replace", illegal_reward=-0.25)
    env.reset(seed=2)
    _, reward, terminated, truncated, info = env.step(2)  # discard before drawing (R4.2)
    assert (reward, terminated, truncated) == (-0.25, False, False)
    assert info["rule"] == "R4.2"
    assert info["action"] == 2
    assert info["replaced_by"] in (0, 1)
    total, steps, replaced = reward, 1, 1
    while not (terminated or truncated):
        _, reward, terminated, truncated, info = env.step(110 if steps % 2 else 0)  # 110 rarely legal
        total += reward
        steps += 1
        replaced += "replaced_by" in info
    assert replaced > 1
    assert info["penalties"] == [-0.25 * replaced, 0.0, 0.0, 0.0]
    assert total == pytest.approx(info["rewards"][0] + info["penalties"][0])
    assert sum(info["rewards"]) == pytest.approx(0.0)


def test_observation_object_in_info_while_our_seat_acts() -> None:
    env = PaiuteEnv(opponents="greedy", players=3, observation_object=True)
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    terminated = truncated = False
    while not (terminated or truncated):
        seen = info["observation_object"]
        assert seen.seat == 0
        assert [a.id for a in seen.legal_actions] == np.flatnonzero(info["action_mask"]).tolist()
        _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert "observation_object" not in info


def test_r4_7_hole_truncates_the_episode() -> None:
    """Only discard-pile draws never end a deal (R4.7 hole): truncated after max_turns."""
    env = PaiuteEnv(opponents="random", players=2, preset="gamerules", max_turns=6)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=1)
    for _ in range(100):
        mask = info["action_mask"]
        action = 1 if mask[1] else int(rng.choice(np.flatnonzero(mask)))
        _, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    if truncated:
        assert reward == 0.0  # settled as a dead deal: every seat gets 0 (R8.5)
        assert info["end"] == "max_turns"
        assert env.table.turns == 6
    else:  # the random opponent may have called first
        assert terminated


def test_train_policy_example_runs(tmp_path: Path) -> None:
    """examples/train_policy.py trains a few deals and plots its curve (torch is optional:
    the ``train`` extra; skipped where it is not installed)."""
    pytest.importorskip("torch")
    pytest.importorskip("matplotlib")
    path = Path(__file__).resolve().parents[2] / "examples" / "train_policy.py"
    spec = importlib.util.spec_from_file_location("train_policy_example", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    plot = tmp_path / "curve.png"
    arguments = ["--episodes", "8", "--batch", "4", "--players", "2", "--baseline-episodes", "4"]
    assert module.main([*arguments, "--plot", str(plot), "--save", str(tmp_path / "policy.pt")]) == 0
    assert plot.read_bytes().startswith(b"\x89PNG")
    assert (tmp_path / "policy.pt").stat().st_size > 0


def test_r9_render_never_prints_an_opponents_hidden_card(
    never_shown: Callable[[Deal, int], set[str]],
) -> None:
    """The seat's render is its own view: no card of another hand that it was never shown."""
    env = PaiuteEnv(seat=1, opponents="random", players=3, render_mode="ansi", max_turns=80)
    rng = np.random.default_rng(3)
    checked = 0
    for seed in range(4):
        _, info = env.reset(seed=seed)
        while True:
            hidden = never_shown(env.table.deal, 1)
            checked += len(hidden)
            text = env.render()
            assert isinstance(text, str)
            assert not set(text.replace(",", " ").split()) & hidden, text
            if env.table.done:
                break
            info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))[4]
    assert checked > 0  # there were hidden cards to leak
