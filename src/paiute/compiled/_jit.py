"""How the compiled rules core is compiled: ``numba.njit`` with an on-disk cache.

Reference counting is off in every kernel (``_nrt=False``): none allocates (the callers pass
every array in), and with it on, Numba increfs and decrefs each of the state's arrays at
every inlined helper whose control flow its pruning pass cannot follow, which cost ~800 ns
a legal-action query against ~2 ns without.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

__all__ = ["inline", "jit"]

F = TypeVar("F", bound=Callable[..., Any])

OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}


def jit(function: F) -> F:
    """``numba.njit`` with an on-disk cache (cast so that mypy keeps the signature): a kernel."""
    return cast(F, numba.njit(**OPTIONS)(function))


def inline(function: F) -> F:
    """A helper of the kernels, inlined into its callers by Numba (a call that passes the
    state, a tuple of some forty arrays, costs more than most helpers' work)."""
    return cast(F, numba.njit(inline="always", **OPTIONS)(function))
