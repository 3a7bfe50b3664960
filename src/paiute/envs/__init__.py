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

__all__ = ["GYMNASIUM_ID", "register"]

#: The Gymnasium id of :class:`paiute.envs.gymnasium.PaiuteEnv`.
GYMNASIUM_ID = "paiute/Paiute-v0"

_SUBMODULES = frozenset({"encoding", "pettingzoo", "gymnasium", "openspiel", "batch_sim"})


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
    # The entry point is a string: the environment module is imported only by gymnasium.make.
    if GYMNASIUM_ID not in gymnasium.registry:
        # ActionMasks outermost: ``action_masks()`` on what gymnasium.make returns.
        masks = gymnasium.envs.registration.WrapperSpec(
            "ActionMasks", "paiute.envs.gymnasium:ActionMasks", {}
        )
        gymnasium.register(
            id=GYMNASIUM_ID, entry_point="paiute.envs.gymnasium:PaiuteEnv", additional_wrappers=(masks,)
        )


if "gymnasium" in sys.modules:  # already loaded, so registering costs nothing
    _register_with(sys.modules["gymnasium"])
