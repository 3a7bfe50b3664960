"""Learners train through the compiled vector env unchanged: sb3-contrib's ``MaskablePPO``
(through :func:`paiute.envs.sb3.sb3_vec_env`) and a CleanRL-style masked PPO loop in
PyTorch, a few hundred steps each. Neither may ever send an illegal action
(``illegal="raise"``)."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

pytest.importorskip("numba")

import paiute.envs.gymnasium  # noqa: F401 - registers paiute/Paiute-v0
from paiute.envs import GYMNASIUM_ID
from paiute.envs.sb3 import sb3_vec_env
from paiute.errors import PaiuteError


def make(num_envs: int, **kwargs: Any) -> Any:
    return gym.make_vec(
        GYMNASIUM_ID,
        num_envs=num_envs,
        vectorization_mode="vector_entry_point",
        players=3,
        opponents="greedy",
        illegal="raise",
        **kwargs,
    )


def test_maskable_ppo_trains_through_the_vector_env() -> None:
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks

    envs = make(8, autoreset_mode=AutoresetMode.SAME_STEP)
    venv = sb3_vec_env(envs)
    model = sb3_contrib.MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0)
    model.learn(total_timesteps=512)
    assert model.num_timesteps >= 512
    observations = venv.reset()
    masks = get_action_masks(venv)
    actions, _ = model.predict(observations, action_masks=masks, deterministic=True)
    assert masks[np.arange(8), actions].all()


def test_sb3_vec_env_wants_same_step_autoreset() -> None:
    pytest.importorskip("stable_baselines3")
    with pytest.raises(PaiuteError, match="SAME_STEP"):
        sb3_vec_env(make(2))


def test_a_cleanrl_style_masked_ppo_loop_trains() -> None:
    """CleanRL's PPO with invalid-action masking, small: masked logits (-1e8), a rollout of
    next-step autoreset steps, GAE, one clipped update; every sampled action is legal."""
    torch = pytest.importorskip("torch")
    from torch import nn
    from torch.distributions import Categorical

    torch.manual_seed(0)
    num_envs, steps = 8, 32
    envs = make(num_envs)
    size = envs.single_observation_space.shape[0]
    actions_n = envs.single_action_space.n
    agent = nn.ModuleDict(
        {
            "actor": nn.Sequential(nn.Linear(size, 64), nn.Tanh(), nn.Linear(64, actions_n)),
            "critic": nn.Sequential(nn.Linear(size, 64), nn.Tanh(), nn.Linear(64, 1)),
        }
    )
    optimizer = torch.optim.Adam(agent.parameters(), lr=3e-4)

    def act(obs: Any, mask: Any, action: Any = None) -> tuple[Any, Any, Any]:
        logits = torch.where(mask, agent["actor"](obs), torch.tensor(-1e8))
        distribution = Categorical(logits=logits)
        if action is None:
            action = distribution.sample()
        return action, distribution.log_prob(action), agent["critic"](obs).squeeze(-1)

    buffers = {
        "obs": torch.zeros(steps, num_envs, size),
        "masks": torch.zeros(steps, num_envs, actions_n, dtype=torch.bool),
        "actions": torch.zeros(steps, num_envs, dtype=torch.long),
        "logprobs": torch.zeros(steps, num_envs),
        "values": torch.zeros(steps, num_envs),
        "rewards": torch.zeros(steps, num_envs),
        "dones": torch.zeros(steps, num_envs),
    }
    observations, info = envs.reset(seed=1)
    obs = torch.as_tensor(observations)
    done = torch.zeros(num_envs)
    finished = 0
    for step in range(steps):
        mask = torch.as_tensor(info["action_mask"].astype(bool))
        with torch.no_grad():
            action, logprob, value = act(obs, mask)
        for key, item in zip(
            ("obs", "masks", "actions", "logprobs", "values", "dones"),
            (obs, mask, action, logprob, value, done),
            strict=True,
        ):
            buffers[key][step] = item
        observations, rewards, terminated, truncated, info = envs.step(action.numpy())
        buffers["rewards"][step] = torch.as_tensor(rewards, dtype=torch.float32)
        obs = torch.as_tensor(observations)
        done = torch.as_tensor(terminated | truncated, dtype=torch.float32)
        finished += int(done.sum())
    with torch.no_grad():  # GAE (gamma 0.99, lambda 0.95)
        advantages = torch.zeros(steps, num_envs)
        last = torch.zeros(num_envs)
        following = agent["critic"](obs).squeeze(-1)
        for step in reversed(range(steps)):
            not_done = 1.0 - (done if step == steps - 1 else buffers["dones"][step + 1])
            delta = buffers["rewards"][step] + 0.99 * following * not_done - buffers["values"][step]
            last = delta + 0.99 * 0.95 * not_done * last
            advantages[step] = last
            following = buffers["values"][step]
        returns = advantages + buffers["values"]
    flat = {key: value.reshape(steps * num_envs, *value.shape[2:]) for key, value in buffers.items()}
    _, logprob, value = act(flat["obs"], flat["masks"], flat["actions"])
    ratio = (logprob - flat["logprobs"]).exp()
    adv = advantages.reshape(-1)
    policy_loss = torch.max(-adv * ratio, -adv * ratio.clamp(0.8, 1.2)).mean()
    loss = policy_loss + 0.5 * ((value - returns.reshape(-1)) ** 2).mean()
    before = [parameter.detach().clone() for parameter in agent.parameters()]
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    assert torch.isfinite(loss)
    assert any(not torch.equal(a, b) for a, b in zip(before, agent.parameters(), strict=True))
    assert finished > 0
