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

_END_NAMES = {
    kernels.END_OVER: END_OVER,
    kernels.END_DEAD: END_DEAD,
    kernels.END_CUT: END_CUT,
    kernels.END_ILLEGAL: END_ILLEGAL,
}
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
    won or lost (R8), its reward, the pot and the winners (R7.3)."""
    names = [_END_NAMES[end] for end in ends.tolist()]
    put(info, "end", rows, names)
    put(info, "rule", rows, [END_RULES[name] for name in names])
    put(info, "chips", rows, batch.payouts[rows, :players].tolist())
    put(info, "rewards", rows, tables.rewards[rows, :players].tolist())
    put(info, "pot", rows, batch.pot[rows].tolist())
    winners = np.where(ends == kernels.END_OVER, batch.winners[rows], 0).tolist()
    put(info, "winners", rows, [list(_WINNERS[w]) for w in winners])


def put(info: dict[str, Any], key: str, rows: npt.NDArray[np.int64], values: Sequence[Any]) -> None:
    """``VectorEnv._add_info`` of ``values[i]`` for table ``rows[i]``, each: an array of the
    first value's type (an object array for anything but a number) and its ``_key`` mask."""
    array = info.get(key)
    if array is None:
        first = values[0]
        kind = type(first)
        n = info["_action_mask"].size
        array = np.zeros(n, dtype=kind) if kind in (int, float, bool) else np.empty(n, dtype=object)  # Nones
        info[key], info[f"_{key}"] = array, np.zeros(n, dtype=bool)
    if array.dtype == object:
        for row, value in zip(rows.tolist(), values, strict=True):
            array[row] = value
    else:
        array[rows] = values
    info[f"_{key}"][rows] = True
