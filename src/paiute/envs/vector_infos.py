"""The ``info`` of the compiled vector env (:mod:`paiute.envs.vector`), batched as Gymnasium
batches the infos of its vector envs: each key an array over the tables, beside its ``_key``
mask of the tables that have it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from paiute.compiled import state as core
from paiute.envs import vector_kernels as kernels
from paiute.envs.encoding import Int8Array
from paiute.envs.table import END_CUT, END_DEAD, END_ILLEGAL, END_OVER, END_RULES
from paiute.rules import MAX_SEATS

__all__ = ["put", "put_deal_ends", "step_info"]

# Each ``kernels.END_*`` code's name and rule, object arrays indexed by the code.
_END_NAMES = np.full(5, None, dtype=object)
_END_NAMES[[kernels.END_OVER, kernels.END_DEAD, kernels.END_CUT, kernels.END_ILLEGAL]] = [
    END_OVER,
    END_DEAD,
    END_CUT,
    END_ILLEGAL,
]
_END_RULES = np.array([END_RULES.get(name) for name in _END_NAMES], dtype=object)
# The seats of each winners bit mask (R7.3), lowest first.
_WINNERS = tuple(
    tuple(seat for seat in range(MAX_SEATS) if mask >> seat & 1) for mask in range(1 << MAX_SEATS)
)


def step_info(batch: Any, masks: Int8Array, rows: npt.NDArray[np.int64]) -> dict[str, Any]:
    """``action_mask`` (``masks``, every table's) and ``turns`` of the tables ``rows`` of
    ``batch`` (the core's state of every table)."""
    n = masks.shape[0]
    turns = batch.turns + (batch.phase == core.DISCARD)
    if rows.size == n:
        present = np.ones(n, dtype=bool)
    else:
        present = np.zeros(n, dtype=bool)
        present[rows] = True
        masks = np.where(present[:, None], masks, 0).astype(np.int8)
        turns = np.where(present, turns, 0)
    return {"action_mask": masks, "_action_mask": present, "turns": turns, "_turns": present.copy()}


def put_deal_ends(
    info: dict[str, Any],
    rows: npt.NDArray[np.int64],
    ends: npt.NDArray[np.int64],
    batch: Any,
    tables: kernels.Tables,
    players: int,
) -> None:
    """What ``PaiuteEnv`` puts in the ``info`` of the step that ends a deal, for each table of
    ``rows`` whose deal ended as ``ends`` says: how (``end``, ``rule``), the chips each seat
    won or lost (R8), its reward, the pot and the winners (R7.3); ``info`` has none of these
    keys yet."""
    n = info["_action_mask"].size
    present = np.zeros(n, dtype=bool)
    present[rows] = True
    pot = np.zeros(n, dtype=np.int64)
    pot[rows] = batch.pot[rows]
    winners = np.where(ends == kernels.END_OVER, batch.winners[rows], 0).tolist()
    for key, values in (
        ("end", _END_NAMES[ends]),
        ("rule", _END_RULES[ends]),
        ("chips", batch.payouts[rows, :players].tolist()),
        ("rewards", tables.rewards[rows, :players].tolist()),
        ("winners", [list(_WINNERS[w]) for w in winners]),
    ):
        array = info[key] = np.empty(n, dtype=object)  # Nones
        for row, value in zip(rows.tolist(), values, strict=True):
            array[row] = value
        info[f"_{key}"] = present.copy()
    info["pot"], info["_pot"] = pot, present


def put(info: dict[str, Any], key: str, rows: npt.NDArray[np.int64], values: Sequence[Any]) -> None:
    """``VectorEnv._add_info`` of ``values[i]`` for table ``rows[i]``, each: an array of the
    first value's type (an object array for anything but a number) and its ``_key`` mask."""
    array = info.get(key)
    if array is None:
        kind = type(values[0])
        n = info["_action_mask"].size
        array = np.zeros(n, dtype=kind) if kind in (int, float, bool) else np.empty(n, dtype=object)  # Nones
        info[key], info[f"_{key}"] = array, np.zeros(n, dtype=bool)
    if array.dtype == object:
        for row, value in zip(rows.tolist(), values, strict=True):
            array[row] = value
    else:
        array[rows] = values
    info[f"_{key}"][rows] = True
