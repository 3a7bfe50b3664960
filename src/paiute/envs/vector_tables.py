"""What the compiled vector env (:mod:`paiute.envs.vector`) keeps of a table in Python: who
sits at each other seat, parsed from its spec or given as a policy, and the table's own
generator, which draws as ``PaiuteEnv``'s ``np_random`` does."""

from __future__ import annotations

import ctypes
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from paiute.envs import vector_kernels as kernels
from paiute.envs.encoding import Float32Array
from paiute.errors import PaiuteError
from paiute.players.levels import level_spec
from paiute.players.registry import parse_spec

__all__ = ["BoolArray", "OpponentPolicy", "Seat", "TableGenerator", "entry_points", "parse_opponent"]

BoolArray = npt.NDArray[np.bool_]
#: A policy at the other seats: ``policy(observations, masks) -> actions`` (see
#: :mod:`paiute.envs.vector`).
OpponentPolicy = Callable[[Float32Array, BoolArray], npt.ArrayLike]

_KINDS = {"random": kernels.RANDOM, "greedy": kernels.GREEDY, "playout": kernels.PLAYOUT}
_OPTIONS = {"random": ("seed",), "greedy": ("aggression", "horizon", "seed"), "playout": ("seed",)}
_MASK64 = (1 << 64) - 1


class TableGenerator:
    """A table's own generator (its ``np_random``, a PCG64 ``Generator`` as Gymnasium's
    seeding makes), drawing ``integers(n)`` through its bit generator's C entry points (its
    ``ctypes`` interface): the very numbers ``Generator.integers`` draws (NumPy's Lemire
    rejection, on 32-bit words below ``2**32``, on 64-bit words above), without the cost of
    that call, which a deal pays a few times. ``address`` is its bit generator's state, which
    compiled code passes to :func:`entry_points` to draw in bulk."""

    __slots__ = ("_next32", "_next64", "_state", "address", "generator")

    def __init__(self, generator: np.random.Generator) -> None:
        if not isinstance(generator.bit_generator, np.random.PCG64):
            raise PaiuteError(f"a table's generator must be a PCG64 one, not {generator.bit_generator!r}")
        self.generator = generator  # kept alive: the entry points use its bit generator's state
        entry = generator.bit_generator.ctypes
        self._next32: Callable[[Any], int] = entry.next_uint32
        self._next64: Callable[[Any], int] = entry.next_uint64
        self._state = entry.state
        self.address: int = entry.state_address

    def integers(self, n: int) -> int:
        """``generator.integers(n)`` for ``1 <= n < 2**32`` or ``2**32 < n <= 2**63``."""
        if n == 1:
            return 0
        if n < 1 << 32:
            m = self._next32(self._state) * n
            if m & 0xFFFFFFFF < n:
                threshold = ((1 << 32) - n) % n
                while m & 0xFFFFFFFF < threshold:
                    m = self._next32(self._state) * n
            return m >> 32
        m = self._next64(self._state) * n
        if m & _MASK64 < n:
            threshold = ((1 << 64) - n) % n
            while m & _MASK64 < threshold:
                m = self._next64(self._state) * n
        return m >> 64


@functools.cache
def entry_points() -> tuple[Any, Any]:
    """PCG64's ``next_uint32`` and ``next_uint64`` C functions (one pair for every PCG64 bit
    generator: the state is their argument), typed to take the state's address as an integer,
    so that Numba kernels call them with a :attr:`TableGenerator.address`."""
    entry = np.random.PCG64(0).ctypes

    def address(function: Any) -> int:
        return cast(int, ctypes.cast(function, ctypes.c_void_p).value)

    next32 = ctypes.CFUNCTYPE(ctypes.c_uint32, ctypes.c_size_t)(address(entry.next_uint32))
    next64 = ctypes.CFUNCTYPE(ctypes.c_uint64, ctypes.c_size_t)(address(entry.next_uint64))
    return next32, next64


@dataclass(frozen=True)
class Seat:
    """Who sits at one of the other seats."""

    kind: int
    seed: int | None = None  # a seed the spec gives (else the table's generator draws one)
    aggression: float = 0.5
    horizon: int = 3
    policy: OpponentPolicy | None = None


def parse_opponent(spec: str | OpponentPolicy) -> Seat:
    """One opponent: a compiled bot's spec or a policy (see :mod:`paiute.envs.vector`)."""
    if callable(spec):
        return Seat(kernels.CALLER, policy=spec)
    if not isinstance(spec, str):
        raise PaiuteError(f"opponent {spec!r}: expected a player spec or a policy(observations, masks)")
    name, raw = parse_spec(spec)
    level = level_spec(name)
    if level is not None:
        name, own = parse_spec(level)
        raw = {**own, **raw}
    if name not in _KINDS:
        raise PaiuteError(
            f"opponent {spec!r}: the vector env seats random, greedy, playout or a "
            "policy(observations, masks); use vectorization_mode='sync' for other bots"
        )
    values: dict[str, Any] = {}
    for key, text in raw.items():
        if key not in _OPTIONS[name]:
            raise PaiuteError(f"opponent {spec!r}: {name} has no option {key!r} here")
        try:
            values[key] = float(text) if key == "aggression" else int(text)
        except ValueError:
            raise PaiuteError(f"opponent {spec!r}: {key}={text!r} is not a number") from None
    seat = Seat(_KINDS[name], **values)
    if not 0.0 <= seat.aggression <= 1.0 or seat.horizon < 2:
        raise PaiuteError(f"opponent {spec!r}: aggression must lie in 0..1 and horizon be at least 2")
    return seat
