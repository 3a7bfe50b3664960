"""How the compiled core is compiled (paiute.compiled.compilation)."""

from __future__ import annotations

import pytest

pytest.importorskip("numba")

import numpy as np

from paiute.compiled.compilation import entry_point
from paiute.compiled.pyrandom import STATE_SIZE, seed_rows


def test_an_entry_point_is_the_function_a_call_of_those_types_runs() -> None:
    """Called through its entry point, a kernel does what a call through Numba's dispatcher
    does, for arguments of the types it was looked up with."""
    rows = np.array([2, 0], dtype=np.int64)
    values = np.array([5, 2**40 + 1], dtype=np.int64)
    dispatched = np.zeros((3, STATE_SIZE), dtype=np.uint32)
    direct = dispatched.copy()
    seed_rows(dispatched, rows, values)
    run = entry_point(seed_rows, direct, rows, values)
    run(direct, rows, values)
    assert np.array_equal(direct, dispatched)
    assert entry_point(seed_rows, direct, rows, values) is run  # looked up, not compiled anew
