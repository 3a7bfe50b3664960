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

__all__ = ["STATE_SIZE", "randbelow", "seed", "seed_rows", "shuffle"]

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
def seed_rows(state: Any, rows: Any, values: Any) -> None:
    """:func:`seed` of ``state[rows[i]]`` with ``values[i]``, for every ``i``: four generators
    at a time, side by side (each one's words are a chain, every step waiting on the one
    before; four chains keep the processor busy where one leaves it waiting), a last group of
    fewer than four in the time of one."""
    for first in range(0, rows.size, 4):
        _seed_four(state, rows, values, first)


@inline
def _key_words(value: int) -> tuple[int, int]:
    """What :func:`seed`'s first loop adds at its even and its odd steps for ``value``: the key
    word ``j`` (``k`` mod the key's length) plus ``j``."""
    low = value & _MASK
    high = value >> 32
    if high:
        return low, high + 1
    return low, low


@inline
def _seed_four(state: Any, rows: Any, values: Any, first: int) -> None:
    """:func:`seed` of the rows ``rows[first:first + 4]`` at once (the same steps,
    interleaved). Where fewer than four are left, the last one fills the other lanes: lanes
    that seed one row compute the same words, and each step reads every lane's word before
    it writes any, so the row gets them as if seeded alone."""
    last = rows.size - 1
    k0, k1, k2, k3 = first, min(first + 1, last), min(first + 2, last), min(first + 3, last)
    r0, r1, r2, r3 = rows[k0], rows[k1], rows[k2], rows[k3]
    # What init_by_array adds at step k: word j = k mod length of the key, plus j.
    even0, odd0 = _key_words(values[k0])
    even1, odd1 = _key_words(values[k1])
    even2, odd2 = _key_words(values[k2])
    even3, odd3 = _key_words(values[k3])
    for k in range(_N):
        state[r0, k] = _START[k]
        state[r1, k] = _START[k]
        state[r2, k] = _START[k]
        state[r3, k] = _START[k]
    p0 = p1 = p2 = p3 = np.int64(_START[0])
    i = 1
    for k in range(_N):
        odd = k & 1
        p0 = ((np.int64(state[r0, i]) ^ ((p0 ^ (p0 >> 30)) * 1664525)) + (odd0 if odd else even0)) & _MASK
        p1 = ((np.int64(state[r1, i]) ^ ((p1 ^ (p1 >> 30)) * 1664525)) + (odd1 if odd else even1)) & _MASK
        p2 = ((np.int64(state[r2, i]) ^ ((p2 ^ (p2 >> 30)) * 1664525)) + (odd2 if odd else even2)) & _MASK
        p3 = ((np.int64(state[r3, i]) ^ ((p3 ^ (p3 >> 30)) * 1664525)) + (odd3 if odd else even3)) & _MASK
        state[r0, i] = p0
        state[r1, i] = p1
        state[r2, i] = p2
        state[r3, i] = p3
        i += 1
        if i >= _N:
            state[r0, 0] = p0
            state[r1, 0] = p1
            state[r2, 0] = p2
            state[r3, 0] = p3
            i = 1
    for _ in range(_N - 1):
        p0 = ((np.int64(state[r0, i]) ^ ((p0 ^ (p0 >> 30)) * 1566083941)) - i) & _MASK
        p1 = ((np.int64(state[r1, i]) ^ ((p1 ^ (p1 >> 30)) * 1566083941)) - i) & _MASK
        p2 = ((np.int64(state[r2, i]) ^ ((p2 ^ (p2 >> 30)) * 1566083941)) - i) & _MASK
        p3 = ((np.int64(state[r3, i]) ^ ((p3 ^ (p3 >> 30)) * 1566083941)) - i) & _MASK
        state[r0, i] = p0
        state[r1, i] = p1
        state[r2, i] = p2
        state[r3, i] = p3
        i += 1
        if i >= _N:
            state[r0, 0] = p0
            state[r1, 0] = p1
            state[r2, 0] = p2
            state[r3, 0] = p3
            i = 1
    for r in (r0, r1, r2, r3):
        state[r, 0] = 0x80000000
        state[r, _N] = _N


@jit
def _twist(state: Any, row: int) -> None:
    """The next 624 words of the state (the word ``k + 397`` is already the new one from
    ``k = 227`` on, as in CPython's three loops)."""
    words = state[row]  # a view, indexed from 0: loops without a test a word vectorize
    for k in range(_N - _M):
        y = (int(words[k]) & 0x80000000) | (int(words[k + 1]) & 0x7FFFFFFF)
        words[k] = int(words[k + _M]) ^ (y >> 1) ^ (0x9908B0DF * (y & 1))
    for k in range(_N - _M, _N - 1):
        y = (int(words[k]) & 0x80000000) | (int(words[k + 1]) & 0x7FFFFFFF)
        words[k] = int(words[k + _M - _N]) ^ (y >> 1) ^ (0x9908B0DF * (y & 1))
    y = (int(words[_N - 1]) & 0x80000000) | (int(words[0]) & 0x7FFFFFFF)
    words[_N - 1] = int(words[_M - 1]) ^ (y >> 1) ^ (0x9908B0DF * (y & 1))
    words[_N] = 0


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
