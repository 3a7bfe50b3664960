"""Random numbers of the compiled core: a xoshiro256** generator per deal, seeded by
splitmix64, and unbiased bounded integers (Lemire)."""

from __future__ import annotations

from typing import Any

import numpy as np

from paiute.compiled.compilation import inline

__all__ = ["below", "seed_deal", "uniform"]


@inline
def _splitmix(x: np.uint64) -> np.uint64:
    """One splitmix64 output for state ``x`` (used only to seed)."""
    z = x + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@inline
def seed_deal(rng: np.ndarray[Any, Any], d: int, seed: np.uint64, index: np.uint64) -> None:
    """Seed deal ``d``'s generator from the run's seed and the deal's index."""
    x = _splitmix(_splitmix(seed) ^ _splitmix(index ^ np.uint64(0x5851F42D4C957F2D)))
    for i in range(4):
        x = _splitmix(x)
        rng[d, i] = x
    if rng[d, 0] == 0 and rng[d, 1] == 0 and rng[d, 2] == 0 and rng[d, 3] == 0:
        rng[d, 0] = np.uint64(1)  # xoshiro's one forbidden state


@inline
def _next(rng: np.ndarray[Any, Any], d: int) -> np.uint64:
    """xoshiro256** of deal ``d``."""
    s0 = rng[d, 0]
    s1 = rng[d, 1]
    s2 = rng[d, 2]
    s3 = rng[d, 3]
    x = s1 * np.uint64(5)
    result = ((x << np.uint64(7)) | (x >> np.uint64(57))) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << np.uint64(45)) | (s3 >> np.uint64(19))
    rng[d, 0] = s0
    rng[d, 1] = s1
    rng[d, 2] = s2
    rng[d, 3] = s3
    return np.uint64(result)


@inline
def below(rng: np.ndarray[Any, Any], d: int, n: int) -> int:
    """A uniform integer in 0..n-1 (Lemire's multiply-and-reject on 32 bits: unbiased)."""
    bound = np.uint64(n)
    m = (_next(rng, d) >> np.uint64(32)) * bound
    low = m & np.uint64(0xFFFFFFFF)
    if low < bound:
        threshold = (np.uint64(0x100000000) - bound) % bound
        while low < threshold:
            m = (_next(rng, d) >> np.uint64(32)) * bound
            low = m & np.uint64(0xFFFFFFFF)
    return int(m >> np.uint64(32))


@inline
def uniform(rng: np.ndarray[Any, Any], d: int) -> float:
    """A uniform float in [0, 1) with 53 random bits."""
    return float(_next(rng, d) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
