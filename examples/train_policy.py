"""Train a small policy network for Paiute on the CPU, against the ``greedy`` bot.

The agent plays one seat of :class:`paiute.envs.gymnasium.PaiuteEnv` (``gymnasium.make
("paiute/Paiute-v0")``); the other seats are ``greedy`` bots. It learns with REINFORCE and a
learned baseline (a value head): a few episodes are played with the current policy, then one
gradient step raises the log-probability of each action in proportion to how much better than
expected the episode's chips turned out. Illegal actions are masked out of the policy (their
logits set to -inf) with the environment's action mask, so it never picks one.

Needs the ``train`` extra (``pip install paiute[train]``: torch, matplotlib)::

    python examples/train_policy.py --quick              # seconds: the pipeline only
    python examples/train_policy.py                      # a few minutes, writes train_policy.png
    python examples/train_policy.py --episodes 500 --players 3 --plot curve.png
    python examples/train_policy.py --time-limit 60 --save policy.pt

The learning curve (chips per deal, averaged over the last episodes) is written as a PNG
(``--plot``, default ``train_policy.png`` in the working directory), with the average of a
random legal player against the same bots for comparison; the weights only with ``--save``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import deque
from pathlib import Path

import gymnasium as gym
import numpy as np

try:
    import torch
    from torch import nn
except ImportError:
    sys.exit("train_policy.py needs PyTorch (the train extra): pip install 'paiute[train]'")

import paiute.envs.gymnasium  # noqa: F401 - registers paiute/Paiute-v0
from paiute.envs import GYMNASIUM_ID


class Policy(nn.Module):
    """A two-layer body with a policy head (one logit per action id) and a value head."""

    def __init__(self, inputs: int, actions: int, hidden: int = 256) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(inputs, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.logits = nn.Linear(hidden, actions)
        self.value = nn.Linear(hidden, 1)

    def forward(self, observations: torch.Tensor, masks: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        hidden = self.body(observations)
        logits = self.logits(hidden).masked_fill(~masks, float("-inf"))  # illegal actions: never
        return logits, self.value(hidden).squeeze(-1)


def random_baseline(env: gym.Env, episodes: int, seed: int) -> float:  # type: ignore[type-arg]
    """Average chips per deal of a player choosing uniformly among the legal actions."""
    rng = np.random.default_rng(seed)
    total = 0.0
    _, info = env.reset(seed=seed)
    for _ in range(episodes):
        while True:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, reward, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                total += float(reward)
                break
        _, info = env.reset()
    return total / episodes


def train(args: argparse.Namespace) -> dict[str, list[float]]:
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    env = gym.make(GYMNASIUM_ID, players=args.players, opponents=args.opponents, max_turns=args.max_turns)
    inner = env.unwrapped
    size = env.observation_space.shape[0]  # type: ignore[index]
    policy = Policy(size, env.action_space.n, args.hidden)  # type: ignore[attr-defined]
    optimiser = torch.optim.Adam(policy.parameters(), lr=args.lr)
    scale = inner.table.encoder.chip_scale  # type: ignore[attr-defined]  # rewards in "pots"

    baseline = random_baseline(env, args.baseline_episodes, args.seed + 1)
    print(f"random legal player against {args.opponents}: {baseline:+.3f} chips per deal")

    curve: dict[str, list[float]] = {"episode": [], "chips": [], "baseline": [baseline]}
    recent: deque[float] = deque(maxlen=args.window)
    start = time.monotonic()
    episode = 0
    observation, info = env.reset(seed=args.seed)
    while episode < args.episodes and time.monotonic() - start < args.time_limit:
        observations, masks, actions, returns = [], [], [], []
        for _ in range(args.batch):
            steps = 0
            while True:
                mask = info["action_mask"].astype(bool)
                with torch.no_grad():
                    logits, _ = policy(torch.from_numpy(observation)[None], torch.from_numpy(mask)[None])
                action = int(torch.distributions.Categorical(logits=logits).sample())
                observations.append(observation)
                masks.append(mask)
                actions.append(action)
                steps += 1
                observation, reward, terminated, truncated, info = env.step(action)
                if terminated or truncated:
                    break
            # One deal, one reward at its end (R8): every decision of the deal gets it.
            returns.extend([float(reward) / scale] * steps)
            recent.append(float(reward))
            episode += 1
            observation, info = env.reset()
        batch_obs = torch.from_numpy(np.stack(observations))
        batch_masks = torch.from_numpy(np.stack(masks))
        batch_actions = torch.tensor(actions)
        batch_returns = torch.tensor(returns, dtype=torch.float32)
        logits, values = policy(batch_obs, batch_masks)
        distribution = torch.distributions.Categorical(logits=logits)
        advantages = batch_returns - values.detach()
        # Normalised per batch: the chips of a deal are rare and lopsided (mostly a lost stake).
        advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-6)
        loss = (
            -(distribution.log_prob(batch_actions) * advantages).mean()
            + args.value_coef * (values - batch_returns).pow(2).mean()
            - args.entropy_coef * distribution.entropy().mean()
        )
        optimiser.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
        optimiser.step()
        curve["episode"].append(episode)
        curve["chips"].append(float(np.mean(recent)))
        if len(curve["episode"]) % args.log_every == 0:
            print(f"episode {episode:6d}  chips per deal (last {len(recent)}): {np.mean(recent):+.3f}")
    elapsed = time.monotonic() - start
    print(f"{episode} episodes in {elapsed:.0f} s; final chips per deal {curve['chips'][-1]:+.3f}")
    if args.save:
        torch.save(policy.state_dict(), args.save)
        print(f"saved the policy to {args.save}")
    return curve


def plot(curve: dict[str, list[float]], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4))
    axes.plot(curve["episode"], curve["chips"], label="policy network (moving average)")
    axes.axhline(curve["baseline"][0], color="grey", linestyle="--", label="random legal player")
    axes.set_xlabel("episodes (deals)")
    axes.set_ylabel("chips per deal")
    axes.set_title(title)
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    print(f"learning curve: {path}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Train a small policy network against greedy bots (REINFORCE)."
    )
    parser.add_argument(
        "--quick", action="store_true", help="8 deals at 2 players, 4 a step: the pipeline only (seconds)"
    )
    parser.add_argument("--episodes", type=int, default=20_000, help="deals to train on (default 20000)")
    parser.add_argument(
        "--time-limit", type=float, default=180.0, help="stop after this many seconds (default 180)"
    )
    parser.add_argument("--players", type=int, default=3, help="players at the table (default 3)")
    parser.add_argument("--opponents", default="greedy", help="bot spec for the other seats (default greedy)")
    parser.add_argument("--max-turns", type=int, default=200, help="truncate a deal after this many turns")
    parser.add_argument("--batch", type=int, default=32, help="episodes per gradient step (default 32)")
    parser.add_argument("--hidden", type=int, default=256, help="hidden units (default 256)")
    parser.add_argument("--lr", type=float, default=3e-4, help="Adam learning rate (default 3e-4)")
    parser.add_argument("--entropy-coef", type=float, default=0.01)
    parser.add_argument("--value-coef", type=float, default=0.5)
    parser.add_argument(
        "--window", type=int, default=500, help="episodes in the moving average (default 500)"
    )
    parser.add_argument("--baseline-episodes", type=int, default=300, help="episodes of the random player")
    parser.add_argument("--log-every", type=int, default=50, help="print every N gradient steps")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", type=Path, default=Path("train_policy.png"), help="the learning curve PNG")
    parser.add_argument("--save", type=Path, help="save the trained weights here")
    args = parser.parse_args(argv)
    if args.quick:
        args.episodes, args.batch, args.players, args.baseline_episodes = 8, 4, 2, 4
    curve = train(args)
    plot(curve, args.plot, f"REINFORCE against {args.opponents}, {args.players} players")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
