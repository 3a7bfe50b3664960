"""A trained network as a player: it sees only its seat's observation (R9).

The network reads the shared encoding (:class:`~paiute.envs.encoding.ObservationEncoder`, the
vector the environments give a learner) and scores the 111 action ids; the player plays the
legal action of highest score. Its weights are a ``.npz`` of the layers' arrays (``w0``, ``b0``,
``w1``, ``b1``, ...) with ReLU between the layers, run on NumPy alone, so playing needs neither
PyTorch nor Stable-Baselines3. Both baselines write their network in this form
(:func:`save_mlp`).

Enter one in a tournament by its dotted path::

    paiute tournament paiute.training.agent.load:weights=runs/dmc/agent.npz greedy expert
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from paiute.actions import Action
from paiute.envs.encoding import ObservationEncoder, action_mask
from paiute.errors import N_, PaiuteError
from paiute.observation import Observation
from paiute.players.base import PlayerError
from paiute.rules import RuleSet

__all__ = ["MLP", "NetworkPlayer", "load", "save_mlp"]

Float32Array = npt.NDArray[np.float32]


class MLP:
    """A ReLU perceptron on NumPy: ``layers`` is ``[(w0, b0), (w1, b1), ...]``, ``w`` of shape
    ``(inputs, outputs)``; the last layer has no ReLU."""

    def __init__(self, layers: list[tuple[Float32Array, Float32Array]]) -> None:
        if not layers:
            raise PaiuteError(N_("a network needs at least one layer"))
        self.layers = [
            (np.ascontiguousarray(w, np.float32), np.ascontiguousarray(b, np.float32)) for w, b in layers
        ]
        for (w, _), (next_w, _) in zip(self.layers, self.layers[1:], strict=False):
            if w.shape[1] != next_w.shape[0]:
                raise PaiuteError(
                    N_("layers do not chain: {shape!r} then {next_shape!r}"),
                    shape=w.shape,
                    next_shape=next_w.shape,
                )

    @classmethod
    def from_linear(cls, layers: Iterable[Any]) -> MLP:
        """The perceptron of PyTorch ``Linear`` layers, in order, copied off their device (the
        layers are only read: PyTorch is not imported here)."""
        return cls(
            [
                (layer.weight.detach().cpu().numpy().T.copy(), layer.bias.detach().cpu().numpy().copy())
                for layer in layers
            ]
        )

    @property
    def inputs(self) -> int:
        return int(self.layers[0][0].shape[0])

    @property
    def outputs(self) -> int:
        return int(self.layers[-1][0].shape[1])

    def __call__(self, x: Float32Array) -> Float32Array:
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < len(self.layers) - 1:
                np.maximum(x, 0.0, out=x)
        return x

    def act(self, observations: Float32Array, masks: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        """The legal action of highest score in each row (a policy for the vector env)."""
        scores = self(np.asarray(observations, np.float32))
        scores[~masks.astype(bool)] = -np.inf
        chosen: npt.NDArray[np.int64] = scores.argmax(axis=1)
        return chosen


def save_mlp(path: str | Path, mlp: MLP, **metadata: str) -> None:
    """Write ``mlp`` as the ``.npz`` :func:`load` reads (``metadata``: text kept beside)."""
    arrays: dict[str, np.ndarray] = {}
    for i, (w, b) in enumerate(mlp.layers):
        arrays[f"w{i}"], arrays[f"b{i}"] = w, b
    for key, text in metadata.items():
        arrays[f"meta_{key}"] = np.array(text)
    np.savez(path, **arrays)  # type: ignore[arg-type]


@functools.lru_cache(maxsize=8)
def read_mlp(path: str) -> MLP:
    """The network stored at ``path`` (cached: one read per file and process)."""
    try:
        with np.load(path) as data:
            count = sum(1 for key in data.files if key.startswith("w") and key[1:].isdigit())
            layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(count)]
    except (OSError, ValueError, KeyError) as error:
        raise PlayerError(N_("cannot read the network {path!r}: {error}"), path=path, error=error) from None
    return MLP(layers)


class NetworkPlayer:
    """Plays the legal action its network scores highest, from its seat's observation only."""

    name = "network"

    def __init__(self, network: MLP) -> None:
        self.network = network
        self._encoders: dict[tuple[RuleSet, int], ObservationEncoder] = {}

    def act(self, observation: Observation) -> Action:
        actions = observation.legal_actions
        if not actions:
            raise PlayerError(
                N_("seat {seat} has no legal action: it is not its turn"), seat=observation.seat
            )
        if len(actions) == 1:
            return actions[0]
        key = (observation.rules, observation.players)
        encoder = self._encoders.get(key)
        if encoder is None:
            encoder = self._encoders[key] = ObservationEncoder(*key)
        vector = encoder.encode(observation)
        if vector.shape[0] != self.network.inputs:
            raise PlayerError(
                N_(
                    "the network reads {inputs} numbers, but a {players}-seat table of this pack is "
                    "encoded in {size}: it was trained for another table"
                ),
                inputs=self.network.inputs,
                players=observation.players,
                size=vector.shape[0],
            )
        mask = action_mask(observation).astype(bool)
        choice = int(self.network.act(vector[None, :], mask[None, :])[0])
        return Action.from_id(choice)


def load(weights: str, seed: int | None = None) -> NetworkPlayer:
    """A :class:`NetworkPlayer` with the network at ``weights`` (a ``.npz`` of
    :func:`save_mlp`); ``seed`` is accepted and unused: the player is deterministic."""
    del seed
    return NetworkPlayer(read_mlp(str(Path(weights).expanduser())))
