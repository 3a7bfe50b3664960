"""The evaluator against the shared conformance vectors (eval_sample.jsonl; R3, R5, R6.2, R6.3).

Each line is one case: ``cards``, ``wild`` (``{"rank": "3"}``, ``{"jokers": true}`` or
``{"rank": "3", "colour": "opposite", "upcard": "3d"}``), ``royal_high`` and the expected
``best``; six-card cases also give ``best5`` (``value``, ``discard``, ``discards``) and ``best6``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import reference
from conftest import CONFORMANCE
from paiute.cards import Card, Rank, parse_cards
from paiute.combos import Value
from paiute.evaluator import Evaluator
from paiute.rules import RuleSet

SAMPLE = CONFORMANCE / "eval_sample.jsonl"


def load_cases() -> list[Any]:
    cases = []
    with SAMPLE.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            case = json.loads(line)
            wild = case["wild"]
            wild_text = "jokers" if wild.get("jokers") else f"{wild.get('colour', 'any')}-{wild.get('rank')}"
            name = f"line{number}-{case['cards'].replace(' ', '_')}-{wild_text}"
            cases.append(pytest.param(case, id=name))
    return cases


CASES = load_cases()


def evaluator_for(wild: dict[str, Any], royal_high: bool) -> Evaluator:
    if wild.get("jokers"):
        return Evaluator.for_jokers(royal_high=royal_high)  # R3.2
    if wild.get("colour", "any") == "opposite":  # R3.3
        upcard = Card.parse(wild["upcard"])
        assert upcard.rank == Rank.parse(wild["rank"])
        rules = RuleSet(wild_colour="opposite")
        return Evaluator(rules.wild_cards(upcard), royal_high=royal_high)
    assert wild.get("colour", "any") == "any", wild
    return Evaluator.for_rank(wild["rank"], royal_high=royal_high)  # R3.1


def expected_value(data: dict[str, Any] | None, royal_high: bool) -> Value | None:
    return None if data is None else Value.from_json(data, royal_high=royal_high)


def show(value: Value | None) -> str:
    return "nothing" if value is None else f"{value} ({value.notation()})"


def test_conformance_sample_is_present_and_large() -> None:
    assert SAMPLE.is_file(), f"missing {SAMPLE}"
    assert len(CASES) >= 100
    sizes = {len(case.values[0]["cards"].split()) for case in CASES}
    assert sizes == {5, 6}


@pytest.mark.parametrize("case", CASES)
def test_r5_conformance_eval(case: dict[str, Any]) -> None:
    royal_high = bool(case.get("royal_high", False))
    evaluator = evaluator_for(case["wild"], royal_high)
    held = parse_cards(case["cards"], plain_jokers=True)
    best = expected_value(case["best"], royal_high)
    if len(held) == 5:
        # R5.10: five shown cards make only R5.1-R5.3.
        got = evaluator.value(held)
        assert got == best, f"{case['cards']}: expected {show(best)}, got {show(got)}"
        return

    assert len(held) == 6
    call = evaluator.best(held)
    got = None if call is None else call.value
    assert got == best, f"best of {case['cards']}: expected {show(best)}, got {show(got)}"
    assert evaluator.best_code(held) == (0 if best is None else best.code)

    # R6.2: the best five-card call and a card whose putting-down reaches it.
    five = evaluator.best_five(held)
    expected5 = case["best5"]
    if expected5 is None:
        assert five is None, f"best five of {case['cards']}: expected nothing, got {five}"
    else:
        value5 = Value.from_json(expected5["value"], royal_high=royal_high)
        assert five is not None, f"best five of {case['cards']}: expected {show(value5)}, got nothing"
        assert five.value == value5, (
            f"best five of {case['cards']}: expected {show(value5)}, got {show(five.value)}"
        )
        discards = {Card.parse(text) for text in expected5["discards"]}
        assert Card.parse(expected5["discard"]) in discards
        assert five.discard in discards, (
            f"best five of {case['cards']}: put down {five.discard}, expected one of {sorted(map(str, discards))}"
        )
        assert evaluator.value(list(five.shown)) == value5
        assert evaluator.best_five_code(held) == value5.code

    # R6.3: the six-card call.
    six = evaluator.best_six(held)
    expected6 = expected_value(case["best6"], royal_high)
    got6 = None if six is None else six.value
    assert got6 == expected6, (
        f"six-card call of {case['cards']}: expected {show(expected6)}, got {show(got6)}"
    )


def as_ref(data: dict[str, Any] | None) -> reference.Ref | None:
    if data is None:
        return None
    return (data["name"], tuple(int(Rank.parse(rank)) for rank in data["ranks"]))


@pytest.mark.parametrize("case", CASES)
def test_reference_agrees_with_conformance(case: dict[str, Any]) -> None:
    """The brute-force reference of tests/reference.py gives the vectors' answers too, so
    that test_evaluator.py checks the engine against something known to be right."""
    royal_high = bool(case.get("royal_high", False))
    wild = evaluator_for(case["wild"], royal_high).wild_cards
    held = parse_cards(case["cards"], plain_jokers=True)
    if len(held) == 5:
        assert reference.value(held, wild, royal_high) == as_ref(case["best"])
        return
    assert reference.best(held, wild, royal_high) == as_ref(case["best"])
    assert reference.value(held, wild, royal_high) == as_ref(case["best6"])
    value5, discards = reference.best_five(held, wild, royal_high)
    expected5 = case["best5"]
    assert value5 == (None if expected5 is None else as_ref(expected5["value"]))
    if expected5 is not None:
        assert sorted(map(str, discards)) == sorted(expected5["discards"])
