"""The action mask under ``gymnasium.make_vec`` in every autoreset mode (docs/encoding.md).

A CleanRL-style masked policy (illegal logits set to -inf, softmax, sample) runs over many
steps of four vectorised copies of paiute/Paiute-v0. Every row of ``info["action_mask"]`` must
admit a sample, and every action the environment applies must be legal for the observation
it was sampled on (R4.2, R6): the seat's ``Observation`` (``observation_object=True``) is the
independent check, and no environment may ever report an illegal action. At the end of a
deal the mask admits every action: the next-step autoreset discards that action.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import paiute.envs.gymnasium  # noqa: F401 - registers paiute/Paiute-v0
from paiute.actions import NUM_ACTIONS
from paiute.envs import GYMNASIUM_ID
from paiute.envs.encoding import ObservationEncoder
from paiute.rules import RuleSet

NUM_ENVS = 4
PLAYERS = 4
STEPS = 10_000
#: Turns without a call before a deal is cut: random play calls seldom, and short deals end
#: (terminated or truncated) often enough for many resets in STEPS steps.
MAX_TURNS = 40


class NoLegalActionError(ValueError):
    """A mask row with no admitted action: a masked Categorical cannot sample from it."""


def masked_sample(logits: np.ndarray, masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action a row, as CleanRL's masked ``Categorical``: logits of masked-out actions set
    to -inf, a softmax, a sample; a row that admits no action raises."""
    admitted = masks.astype(bool)
    empty = np.flatnonzero(~admitted.any(axis=1))
    if empty.size:
        raise NoLegalActionError(f"rows {empty.tolist()} of the action mask admit no action")
    masked = np.where(admitted, logits, -np.inf)
    weights = np.exp(masked - masked.max(axis=1, keepdims=True))
    probabilities = weights / weights.sum(axis=1, keepdims=True)
    return np.array([rng.choice(NUM_ACTIONS, p=row) for row in probabilities])


def make_envs(mode: AutoresetMode, vectorization: str) -> gym.vector.VectorEnv:  # type: ignore[type-arg]
    return gym.make_vec(
        GYMNASIUM_ID,
        num_envs=NUM_ENVS,
        vectorization_mode=vectorization,
        vector_kwargs={"autoreset_mode": mode},
        players=PLAYERS,
        opponents="random",
        max_turns=MAX_TURNS,
        observation_object=True,
    )


def observations_of(info: dict[str, Any]) -> np.ndarray:
    """Each row's ``Observation``, None where its deal has ended (the key is absent when every
    row's has)."""
    return info.get("observation_object", np.full(NUM_ENVS, None, dtype=object))


def check_acting_rows(
    observations: np.ndarray, info: dict[str, Any], encoders: list[ObservationEncoder]
) -> None:
    """Each row a policy acts on: its mask is the legal actions of the seat's Observation and
    its observation vector encodes that Observation; a row without one is a deal's end,
    where the mask admits every action."""
    for row, seen in enumerate(observations_of(info)):
        mask = info["action_mask"][row]
        if seen is None:
            assert mask.all(), f"env {row}: a deal's end should admit every action"
            continue
        assert np.flatnonzero(mask).tolist() == sorted(action.id for action in seen.legal_actions)
        assert np.array_equal(observations[row], encoders[row].encode(seen))


def run_masked_policy(mode: AutoresetMode, vectorization: str, steps: int) -> int:
    """``steps`` vector steps of a masked random-logit policy; returns the deals finished."""
    rng = np.random.default_rng(41)
    encoders = [ObservationEncoder(RuleSet(), PLAYERS) for _ in range(NUM_ENVS)]  # one a row: incremental
    envs = make_envs(mode, vectorization)
    finished = 0
    try:
        observations, info = envs.reset(seed=7)
        ended = np.zeros(NUM_ENVS, dtype=bool)  # next-step mode: these rows' actions are discarded
        for _ in range(steps):
            check_acting_rows(observations, info, encoders)
            # The documented alternative: each sub-env's action_masks() is the same mask.
            assert np.array_equal(np.stack(envs.call("action_masks")), info["action_mask"].astype(bool))
            actions = masked_sample(rng.normal(size=(NUM_ENVS, NUM_ACTIONS)), info["action_mask"], rng)
            for row, seen in enumerate(observations_of(info)):
                if seen is not None:
                    assert int(actions[row]) in {action.id for action in seen.legal_actions}
                else:
                    assert ended[row], f"env {row}: no observation to act on, yet no deal ended"
            observations, rewards, terminated, truncated, info = envs.step(actions)
            assert "illegal" not in info, "an environment applied an illegal action"
            assert "illegal" not in info.get("final_info", {}), "an environment applied an illegal action"
            if mode is AutoresetMode.NEXT_STEP:
                assert not rewards[ended].any()  # the reset step: the action was discarded
            done = terminated | truncated
            finished += int(done.sum())
            if mode is AutoresetMode.SAME_STEP and done.any():
                assert info["final_info"]["action_mask"][done].all()
            if mode is AutoresetMode.DISABLED and done.any():
                assert info["action_mask"][done].all()
                observations, reset_info = envs.reset(options={"reset_mask": done})
                # Only the reset rows come back in reset_info (its "_key" arrays say which).
                info["observation_object"] = observations_of(info)
                for key in ("action_mask", "observation_object"):
                    info[key][done] = reset_info[key][done]
            ended = done if mode is AutoresetMode.NEXT_STEP else np.zeros(NUM_ENVS, dtype=bool)
    finally:
        envs.close()
    return finished


@pytest.mark.parametrize(
    ("mode", "vectorization", "steps"),
    [
        (AutoresetMode.NEXT_STEP, "sync", STEPS),
        (AutoresetMode.SAME_STEP, "sync", STEPS),
        (AutoresetMode.DISABLED, "sync", STEPS),
        # Four worker processes pickling each Observation: fewer steps, the same checks.
        (AutoresetMode.NEXT_STEP, "async", STEPS // 5),
    ],
)
def test_a_masked_policy_only_ever_plays_legal_actions(
    mode: AutoresetMode, vectorization: str, steps: int
) -> None:
    finished = run_masked_policy(mode, vectorization, steps)
    assert finished > steps // 10, f"only {finished} deals ended in {steps} steps"


def test_make_vec_defaults_to_next_step_and_the_ended_row_admits_every_action() -> None:
    """The default ``gym.make_vec`` (next-step autoreset): the step that ends a deal gives that
    row an all-true mask, and the reset observation that follows brings its own legal mask."""
    envs = gym.make_vec(GYMNASIUM_ID, num_envs=NUM_ENVS, opponents="random")
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    rng = np.random.default_rng(3)
    _, info = envs.reset(seed=3)
    for _ in range(200):
        actions = masked_sample(rng.normal(size=(NUM_ENVS, NUM_ACTIONS)), info["action_mask"], rng)
        _, _, terminated, truncated, info = envs.step(actions)
        done = terminated | truncated
        if done.any():
            break
    assert done.any()
    assert info["action_mask"][done].all()
    actions = masked_sample(rng.normal(size=(NUM_ENVS, NUM_ACTIONS)), info["action_mask"], rng)
    _, rewards, terminated, truncated, info = envs.step(actions)
    assert not rewards[done].any()
    assert not (terminated | truncated)[done].any()
    assert 0 < info["action_mask"][done].sum(axis=1).min() < NUM_ACTIONS  # the reset deal's own mask
    envs.close()


def test_masked_sampling_raises_on_a_row_without_a_legal_action() -> None:
    """The sampler the tests above rely on does fail where a mask row is all zeros."""
    masks = np.ones((2, NUM_ACTIONS), dtype=np.int8)
    masks[1] = 0
    with pytest.raises(NoLegalActionError, match=r"rows \[1\]"):
        masked_sample(np.zeros((2, NUM_ACTIONS)), masks, np.random.default_rng(0))
