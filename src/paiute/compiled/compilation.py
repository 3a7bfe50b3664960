"""How the compiled rules core is compiled: ``numba.njit`` with an on-disk cache.

Reference counting is off in every kernel (``_nrt=False``): none allocates (the callers pass
every array in), and with it on, Numba increfs and decrefs each of the state's arrays at
every inlined helper whose control flow its pruning pass cannot follow, which makes a
legal-action query hundreds of times slower (docs/batch-simulator.md, "Design notes", has the
figures).

The disk cache (``cache=True``) is Numba's: a kernel's compiled code is stored beside its
source (``__pycache__/*.nbi``/``*.nbc``), or under the user's cache directory where the
package is not writable, or under ``NUMBA_CACHE_DIR`` when that is set; the first process
compiles, later ones load (``benchmarks/batch_sim.py --startup`` measures both). Numba checks
only the file that *defines* a kernel (a hash of its contents): a kernel of
``paiute.envs.batch_kernels`` or ``paiute.compiled.search`` has the helpers of the other
modules of ``paiute.compiled`` inlined into it, and editing one of those helpers does **not**
invalidate it. An installed package never changes under its cache, so users never meet this;
after editing a module of ``paiute.compiled``, delete ``src/paiute/**/__pycache__/*.nb[ic]``
(or point ``NUMBA_CACHE_DIR`` at a fresh directory) before measuring or testing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

__all__ = ["entry_point", "inline", "jit"]

F = TypeVar("F", bound=Callable[..., Any])

OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}


def jit(function: F) -> F:
    """``numba.njit`` with an on-disk cache (cast so that mypy keeps the signature): a kernel."""
    return cast(F, numba.njit(**OPTIONS)(function))


def inline(function: F) -> F:
    """A helper of the kernels, inlined into its callers by Numba (a call that passes the
    state, a tuple of some forty arrays, costs more than most helpers' work)."""
    return cast(F, numba.njit(inline="always", **OPTIONS)(function))


def entry_point(kernel: Any, *args: Any) -> Callable[..., Any]:
    """The compiled function that ``kernel(*args)`` runs, loaded from the disk cache or
    compiled as that call would: a caller that calls a kernel over and over with arguments of
    the same types calls this instead and skips Numba's dispatch, which types every argument
    anew at each call (a tuple of arrays, such as the state, element by element, in Python).

    Nothing checks the arguments of a call through it: each must have the type its
    counterpart in ``args`` has (an array the same dtype, dimensions and layout, a C-contiguous
    one C-contiguous), or the kernel reads memory it does not own."""
    return cast(Callable[..., Any], kernel.compile(tuple(kernel.typeof_pyval(arg) for arg in args)))
