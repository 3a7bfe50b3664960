"""Python's own ``random.Random`` on arrays: the Mersenne Twister (MT19937) seeded from a whole
number as CPython seeds it, and the draws the engine's chance and bots make
(``randrange(n)``, ``shuffle``), number for number.

A compiled table that must deal and decide exactly as the engine does with the same seeds
(:class:`~paiute.chance.SeededChance` shuffles the pack, cuts it and rebuilds the stock, R2.4,
R4.6, R10.1; ``random`` and ``greedy`` break their choices with their own generator) holds
one generator per row of a ``uint32 [rows, STATE_SIZE]`` array: the 624 words of the state,
then the index of the next word.

>>> import random
>>> import numpy as np
>>> state = np.zeros((1, STATE_SIZE), dtype=np.uint32)
>>> seed(state, 0, 2**40 + 7)
>>> python = random.Random(2**40 + 7)
>>> [randrange_kernel(state, 0, 6) for _ in range(8)] == [python.randrange(6) for _ in range(8)]
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from paiute.compiled.compilation import inline, jit

__all__ = ["STATE_SIZE", "randbelow", "seed", "shuffle"]

_N = 624
_M = 397
#: Entries of one generator's row: the state's words and the index of the next one.
STATE_SIZE = _N + 1
_MASK = 0xFFFFFFFF


def _init_genrand(s: int) -> np.ndarray[Any, np.dtype[np.uint32]]:
    """CPython's ``init_genrand(s)``: the state every ``init_by_array`` starts from."""
    state = np.zeros(_N, dtype=np.uint32)
    previous = state[0] = s
    for i in range(1, _N):
        previous = (1812433253 * (previous ^ (previous >> 30)) + i) & _MASK
        state[i] = previous
    return state


_START = _init_genrand(19650218)  # a constant of the kernels that seed


@jit
def seed(state: Any, row: int, value: int) -> None:
    """``random.Random(value)`` for a whole number ``0 <= value < 2**63`` (CPython's
    ``init_by_array`` of its 32-bit words, least significant first)."""
    low = value & _MASK
    high = value >> 32
    length = 2 if high else 1
    for k in range(_N):
        state[row, k] = _START[k]
    # Each word depends on the one just written: keep that one in a register, not in memory.
    previous = np.int64(_START[0])
    i = 1
    j = 0
    for _ in range(max(_N, length)):
        word = low if j == 0 else high
        previous = ((np.int64(state[row, i]) ^ ((previous ^ (previous >> 30)) * 1664525)) + word + j) & _MASK
        state[row, i] = previous
        i += 1
        j += 1
        if i >= _N:
            state[row, 0] = previous
            i = 1
        if j >= length:
            j = 0
    for _ in range(_N - 1):
        previous = ((np.int64(state[row, i]) ^ ((previous ^ (previous >> 30)) * 1566083941)) - i) & _MASK
        state[row, i] = previous
        i += 1
        if i >= _N:
            state[row, 0] = previous
            i = 1
    state[row, 0] = 0x80000000
    state[row, _N] = _N  # the first draw twists


@jit
def _twist(state: Any, row: int) -> None:
    """The next 624 words of the state (the word ``k + 397`` is already the new one from
    ``k = 227`` on, as in CPython's three loops)."""
    for k in range(_N - 1):
        y = (int(state[row, k]) & 0x80000000) | (int(state[row, k + 1]) & 0x7FFFFFFF)
        value = int(state[row, k + _M if k < _N - _M else k + _M - _N]) ^ (y >> 1)
        if y & 1:
            value ^= 0x9908B0DF
        state[row, k] = value
    y = (int(state[row, _N - 1]) & 0x80000000) | (int(state[row, 0]) & 0x7FFFFFFF)
    value = int(state[row, _M - 1]) ^ (y >> 1)
    if y & 1:
        value ^= 0x9908B0DF
    state[row, _N - 1] = value
    state[row, _N] = 0


@inline
def _next32(state: Any, row: int) -> int:
    """``genrand_uint32``: the next tempered 32-bit word."""
    if state[row, _N] >= _N:
        _twist(state, row)
    index = int(state[row, _N])
    state[row, _N] = index + 1
    y = int(state[row, index])
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & _MASK


@inline
def randbelow(state: Any, row: int, n: int) -> int:
    """``randrange(n)`` for ``1 <= n < 2**32``: ``getrandbits(n.bit_length())`` until it is below
    ``n`` (CPython's ``_randbelow_with_getrandbits``; ``n = 1`` draws too)."""
    k = 0
    while (n >> k) > 0:
        k += 1
    r = _next32(state, row) >> (32 - k)
    while r >= n:
        r = _next32(state, row) >> (32 - k)
    return r


@inline
def shuffle(state: Any, row: int, items: Any, n: int) -> None:
    """``random.shuffle`` of ``items[:n]`` in place (Fisher-Yates from the end)."""
    for i in range(n - 1, 0, -1):
        j = randbelow(state, row, i + 1)
        t = items[i]
        items[i] = items[j]
        items[j] = t


@jit
def randrange_kernel(state: Any, row: int, n: int) -> int:
    """:func:`randbelow` as a kernel (for tests)."""
    return randbelow(state, row, n)
