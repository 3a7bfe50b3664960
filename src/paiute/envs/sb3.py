"""The compiled vector env as a Stable-Baselines3 ``VecEnv`` (``sb3_contrib.MaskablePPO`` trains
through it): :func:`sb3_vec_env`. Stable-Baselines3 is imported when it is called."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode

from paiute.envs.vector import PaiuteVectorEnv
from paiute.errors import PaiuteError

__all__ = ["sb3_vec_env"]


def sb3_vec_env(env: PaiuteVectorEnv) -> Any:
    """``env`` as a Stable-Baselines3 ``VecEnv`` (needs ``stable-baselines3``), for
    ``sb3_contrib.MaskablePPO``: SB3 resets a table as soon as its deal ends and wants the
    last observation in ``infos[i]["terminal_observation"]``, so ``env`` must be made with
    ``autoreset_mode=AutoresetMode.SAME_STEP`` (or ``"SameStep"``); ``action_masks`` is
    reachable through ``env_method``, where sb3-contrib's ``get_action_masks`` looks."""
    try:
        vec_env: Any = importlib.import_module("stable_baselines3.common.vec_env")
    except ImportError:
        raise PaiuteError("sb3_vec_env needs stable-baselines3: pip install stable-baselines3") from None
    if env.autoreset_mode is not AutoresetMode.SAME_STEP:
        raise PaiuteError("sb3_vec_env needs the env made with autoreset_mode=AutoresetMode.SAME_STEP")

    class PaiuteSB3VecEnv(vec_env.VecEnv):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)
            self._actions: np.ndarray[Any, Any] = np.zeros(env.num_envs, dtype=np.int64)
            self._seed: int | None = None

        def reset(self) -> np.ndarray[Any, Any]:
            observations, _ = env.reset(seed=self._seed)
            self._seed = None
            return observations

        def step_async(self, actions: np.ndarray[Any, Any]) -> None:
            self._actions = np.asarray(actions, dtype=np.int64).reshape(env.num_envs)

        def step_wait(self) -> Any:
            observations, rewards, terminated, truncated, info = env.step(self._actions)
            done = terminated | truncated
            infos: list[dict[str, Any]] = [{} for _ in range(env.num_envs)]
            for row in np.flatnonzero(done).tolist():
                infos[row]["terminal_observation"] = info["final_obs"][row]
                infos[row]["TimeLimit.truncated"] = bool(truncated[row] and not terminated[row])
            return observations, rewards.astype(np.float32), done, infos

        def close(self) -> None:
            env.close()

        def seed(self, seed: int | None = None) -> list[int | None]:
            self._seed = seed
            return [None if seed is None else seed + i for i in range(env.num_envs)]

        def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
            return [getattr(env, attr_name)] * len(self._indices(indices))

        def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
            setattr(env, attr_name, value)

        def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
            rows = self._indices(indices)
            if method_name == "action_masks":
                masks = env.action_masks()
                return [masks[row] for row in rows]
            result = getattr(env, method_name)(*args, **kwargs)
            return [result] * len(rows)

        def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
            return [False] * len(self._indices(indices))

        def has_attr(self, attr_name: str) -> bool:
            return hasattr(env, attr_name)

        def _indices(self, indices: Any) -> list[int]:
            if indices is None:
                return list(range(env.num_envs))
            if isinstance(indices, int):
                return [indices]
            return list(indices)

    return PaiuteSB3VecEnv()
