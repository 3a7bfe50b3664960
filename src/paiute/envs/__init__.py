"""Learning environments for Paiute (the ``rl`` extra: ``pip install paiute[rl]``).

Importing this package is cheap: it loads no numpy, PettingZoo, Gymnasium, Numba or OpenSpiel.
Each submodule is loaded on first use:

* :mod:`paiute.envs.encoding`: the action ids, legal-action masks and the per-seat observation
  encoding every environment shares (layout in ``docs/encoding.md``).
* :mod:`paiute.envs.pettingzoo`: the PettingZoo AEC environment, ``paiute.envs.pettingzoo.env()``.
* :mod:`paiute.envs.gymnasium`: a single-seat Gymnasium environment against bots,
  ``gymnasium.make("paiute/Paiute-v0")``. The id is registered by importing
  :mod:`paiute.envs.gymnasium`, by :func:`register`, and by importing this package when
  Gymnasium is already imported (``import gymnasium`` first; this package never imports it
  itself). ``gymnasium.make("paiute.envs.gymnasium:paiute/Paiute-v0")`` works in any order.
* :mod:`paiute.envs.vector`: many tables of that environment at once in compiled code, what
  ``gymnasium.make_vec("paiute/Paiute-v0", num_envs=n)`` returns (``vectorization_mode=
  "sync"`` vectorizes the single environment instead).
* :mod:`paiute.envs.openspiel`: the game for OpenSpiel.
* :mod:`paiute.envs.batch_sim`: a Numba batch simulator.

>>> import paiute.envs
>>> paiute.envs.encoding.NUM_ACTIONS
111
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import Any

__all__ = ["GYMNASIUM_ID", "make_vector_env", "register"]

#: The Gymnasium id of :class:`paiute.envs.gymnasium.PaiuteEnv`.
GYMNASIUM_ID = "paiute/Paiute-v0"

_SUBMODULES = frozenset({"encoding", "pettingzoo", "gymnasium", "vector", "openspiel", "batch_sim"})


def __getattr__(name: str) -> ModuleType:
    # PEP 562: load a submodule on first access, so `import paiute.envs` stays cheap.
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def register() -> None:
    """Register ``paiute/Paiute-v0`` with Gymnasium (idempotent; imports gymnasium)."""
    import gymnasium

    _register_with(gymnasium)


def _register_with(gymnasium: ModuleType) -> None:
    # The entry points are strings: the environment modules are imported only by gymnasium.make
    # and gymnasium.make_vec. make_vec refuses a vector entry point beside a spec's additional
    # wrappers, so the single env's entry point wraps it itself, ActionMasks outermost
    # (``action_masks()`` on what gymnasium.make returns), with the checker and order
    # enforcement gymnasium.make would add inside it.
    if GYMNASIUM_ID not in gymnasium.registry:
        gymnasium.register(
            id=GYMNASIUM_ID,
            entry_point="paiute.envs.gymnasium:make_env",
            vector_entry_point="paiute.envs:make_vector_env",
            disable_env_checker=True,
            order_enforce=False,
        )


def make_vector_env(num_envs: int = 1, **kwargs: Any) -> Any:
    """The ``vector_entry_point`` of ``paiute/Paiute-v0``: the compiled vector env,
    ``paiute.envs.vector.PaiuteVectorEnv(num_envs, **kwargs)``; without Numba, one line that
    says what to install (or to vectorize the single env instead)."""
    from paiute.compiled import available
    from paiute.errors import PaiuteError

    if not available():
        raise PaiuteError(
            "gym.make_vec's compiled vector env needs Numba: pip install 'paiute[rl]', "
            "or pass vectorization_mode='sync'"
        )
    from paiute.envs.vector import PaiuteVectorEnv

    return PaiuteVectorEnv(num_envs, **kwargs)


if "gymnasium" in sys.modules:  # already loaded, so registering costs nothing
    _register_with(sys.modules["gymnasium"])
