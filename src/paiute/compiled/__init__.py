"""The compiled rules core: one implementation of the rules of a deal on arrays (R2-R8), in
Numba, shared by the batch simulator (:mod:`paiute.envs.batch_sim`) and the search players
(:mod:`paiute.players.pimc`).

The kernels mirror :class:`paiute.deal.Deal` line for line; ``tests/envs/test_batch_sim.py``
holds them to the engine for every preset and option mix, and ``tests/test_pimc.py`` checks
the search's determinization and playouts against it.

* :mod:`~paiute.compiled.state`: the arrays of a batch of deals, the rules as an integer
  array (:func:`~paiute.compiled.state.rule_params`), the shared constants;
* :mod:`~paiute.compiled.rng`: a xoshiro256** generator per deal;
* :mod:`~paiute.compiled.tables`: the evaluator on arrays (R5);
* :mod:`~paiute.compiled.dealing`, :mod:`~paiute.compiled.rules`,
  :mod:`~paiute.compiled.settle`: the deal (R2, R3), turns and calls (R4-R7), settlement (R8);
* :mod:`~paiute.compiled.playout`, :mod:`~paiute.compiled.greedy`,
  :mod:`~paiute.compiled.search`: a rule-of-thumb playout policy, ``greedy`` exactly
  (``tests/test_compiled_greedy.py`` holds it to the Python player decision for decision),
  determinizations of an observation and paired playouts of every legal action by either.

Numba is an optional dependency (the ``rl`` extra): importing this package does not import
it; :func:`available` says whether the submodules can be used.
"""

from __future__ import annotations

import importlib.util

__all__ = ["available"]


def available() -> bool:
    """Whether Numba and NumPy are installed, so that the compiled core can run."""
    return importlib.util.find_spec("numba") is not None and importlib.util.find_spec("numpy") is not None
