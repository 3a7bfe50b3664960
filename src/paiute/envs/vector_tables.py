"""What the compiled vector env (:mod:`paiute.envs.vector`) keeps of a table in Python: who
sits at each other seat, parsed from its spec or given as a policy, the table's own
generator, which draws as ``PaiuteEnv``'s ``np_random`` does, and where its match stands."""

from __future__ import annotations

import ctypes
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import numpy.typing as npt
from gymnasium.utils import seeding

from paiute.envs import vector_kernels as kernels
from paiute.envs.encoding import Float32Array
from paiute.errors import PaiuteError
from paiute.players.levels import level_spec
from paiute.players.registry import parse_spec
from paiute.rules import MAX_SEATS

__all__ = [
    "BoolArray",
    "Matches",
    "OpponentPolicy",
    "Seat",
    "TableGenerator",
    "entry_points",
    "parse_opponent",
]

BoolArray = npt.NDArray[np.bool_]
#: A policy at the other seats: ``policy(observations, masks) -> actions`` (see
#: :mod:`paiute.envs.vector`).
OpponentPolicy = Callable[[Float32Array, BoolArray], npt.ArrayLike]

_KINDS = {"random": kernels.RANDOM, "greedy": kernels.GREEDY, "playout": kernels.PLAYOUT}
_OPTIONS = {"random": ("seed",), "greedy": ("aggression", "horizon", "seed"), "playout": ("seed",)}
_MASK64 = (1 << 64) - 1
_SEED_BOUND = 2**63  # SeededChance(int(np_random.integers(2**63))), as EnvTable deals


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


class Matches:
    """Each table's generator (its ``np_random``) and match, as ``PaiuteEnv`` keeps them:
    whether the match has started and who deals next. ``seats`` are the env's seats (``None``
    for the learner's); with ``carry_match`` a match goes on from deal to deal, else each
    deal is a match of its own at a fresh table."""

    def __init__(self, num_envs: int, seats: list[Seat | None], carry_match: bool) -> None:
        self.seats = seats
        self.players = len(seats)
        self.carry_match = carry_match
        self.generators: list[TableGenerator | None] = [None] * num_envs
        self.addresses = np.zeros(num_envs, dtype=np.uint64)  # each generator's state
        self.started = [False] * num_envs
        self.unstarted = num_envs  # tables whose first match has not started
        self.next_dealer = [0] * num_envs

    def draw(
        self,
        tables: kernels.Tables,
        rows: npt.NDArray[np.int64],
        seeds: Sequence[int | None],
        dealer: int | None,
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """What a deal at each of ``rows`` draws from its table's generator, in its order: a
        new match where seeded (``seeds``, one a row) or not yet started (the first dealer,
        then a seed per bot, seeding the bots of ``tables``), the dealer of a fresh table
        (R2.3), then the deal's chance (R10.1). Returns each row's dealer (``dealer`` where
        given) and chance seed."""
        players = self.players
        dealers: list[int] = []
        chance: list[int] = []
        bot_rows: list[int] = []
        bot_seeds: list[int] = []
        generators = self.generators
        started = self.started
        next_dealer = self.next_dealer
        fresh = not self.carry_match
        for row, seed in zip(rows.tolist(), seeds, strict=True):
            rng = generators[row]
            if seed is not None or rng is None:
                rng = generators[row] = TableGenerator(seeding.np_random(seed)[0])
                self.addresses[row] = rng.address
            if seed is not None or not started[row]:
                tables.balance[row] = 0
                tables.carried[row] = 0
                next_dealer[row] = rng.integers(players)
                for place, who in enumerate(self.seats):
                    if who is None:
                        continue
                    drawn = rng.integers(2**31)
                    bot_rows.append(row * MAX_SEATS + place)
                    bot_seeds.append(drawn if who.seed is None else who.seed)
                if not started[row]:
                    self.unstarted -= 1
                    started[row] = True
            if fresh:  # one deal, one match: a fresh table
                next_dealer[row] = rng.integers(players)
            if dealer is not None:
                next_dealer[row] = dealer
            dealers.append(next_dealer[row])
            chance.append(rng.integers(_SEED_BOUND))
        if bot_rows:
            kernels.seed_bots(tables, np.array(bot_rows, dtype=np.int64), np.array(bot_seeds, dtype=np.int64))
        return np.array(dealers, dtype=np.int64), np.array(chance, dtype=np.int64)

    def pass_the_deal(self, rows: npt.NDArray[np.int64], dealers: npt.NDArray[np.int64]) -> None:
        """The deals at ``rows``, dealt by ``dealers``, have ended: the deal passes to the left
        (R2.3) where the match goes on (a fresh table draws its dealer)."""
        if self.carry_match:
            for row, dealer in zip(rows.tolist(), dealers.tolist(), strict=True):
                self.next_dealer[row] = (dealer + 1) % self.players
