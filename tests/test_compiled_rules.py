"""The compiled core's rule helpers (paiute.compiled.rules) against the pure engine's."""

from __future__ import annotations

import itertools

import pytest

from paiute.combos import CATEGORY_SHIFT, Value, may_call
from test_combos import ALL_VALUES

pytest.importorskip("numba")

from paiute.compiled.rules import may_call as compiled_may_call


def every_code() -> list[int]:
    """0 (no combination) and the code of every value of R5, under both ``royal_high``."""
    codes = {Value(v.category, v.ranks, royal_high=high).code for v in ALL_VALUES for high in (False, True)}
    return [0, *sorted(codes)]


def test_r5_7_r6_4_compiled_may_call_agrees_with_the_pure_one() -> None:
    codes = every_code()
    by_category: dict[int, list[int]] = {}
    for code in codes[1:]:
        by_category.setdefault(code >> CATEGORY_SHIFT, []).append(code)
    # The highest calls that matter: none (0), each category's lowest and highest, a spread.
    highests = sorted({0, *(c[0] for c in by_category.values()), *(c[-1] for c in by_category.values())})
    highests += codes[1::11]
    checked = 0
    for first_turn, paiute_any_turn in itertools.product((False, True), repeat=2):
        paiute_now = first_turn or paiute_any_turn  # R5.7
        for code in codes:
            for highest in highests:
                pure = may_call(code, highest, paiute_now=paiute_now)
                assert compiled_may_call(code, highest, paiute_now) == pure, (code, highest, paiute_now)
                checked += pure
    assert 0 < checked < len(codes) * len(highests) * 4  # both answers occur
