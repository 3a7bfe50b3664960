"""Python's ``random.Random`` on arrays (paiute.compiled.pyrandom) against Python's own."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numba")

import numpy as np

from paiute.compiled.pyrandom import STATE_SIZE, randrange_kernel, seed, seed_rows

# Seeds of one 32-bit word and of two, zero, and the ends of both ranges.
SEEDS = [0, 1, 7, 2**31, 2**32 - 1, 2**32, 2**32 + 5, 2**40 + 7, 2**62 + 3, 2**63 - 1]


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 6, 7, 17])
def test_seed_rows_seeds_each_row_as_seed_does(count: int) -> None:
    """Groups of four rows, and a last group of one to three, which the last row fills out
    (only the given rows change)."""
    values = np.array(SEEDS + [random.Random(1).randrange(2**63) for _ in range(7)], dtype=np.int64)[-count:]
    rows = np.random.default_rng(count).permutation(values.size + 3)[: values.size].astype(np.int64)
    together = np.random.default_rng(0).integers(2**32, size=(values.size + 3, STATE_SIZE), dtype=np.uint32)
    one_by_one = together.copy()
    seed_rows(together, rows, values)
    for row, value in zip(rows.tolist(), values.tolist(), strict=True):
        seed(one_by_one, row, value)
    assert np.array_equal(together, one_by_one)


@pytest.mark.parametrize("value", SEEDS)
def test_seeded_rows_draw_what_python_draws(value: int) -> None:
    state = np.zeros((5, STATE_SIZE), dtype=np.uint32)
    seed_rows(state, np.array([4, 0, 2, 1, 3], dtype=np.int64), np.array([value, 1, 2, 3, 4], dtype=np.int64))
    python = random.Random(value)
    # Past 624 draws: the generator's words are twisted anew (both loops of the twist).
    for n in (2, 52, 2**31, 3**19):
        drawn = [randrange_kernel(state, 4, n) for _ in range(700)]
        assert drawn == [python.randrange(n) for _ in range(700)]
