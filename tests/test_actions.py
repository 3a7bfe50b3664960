"""Actions (R4.2, R6): their text, their ids, and the engine's answers about them.

The property tests check, on seeded random deals, that ``legal_actions``, ``is_legal``,
``why_illegal`` and ``apply`` always agree, and that a refused action changes nothing.
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import choose, random_deal, snapshot
from paiute import (
    ACTIONS,
    CALL_SIX,
    CARDS,
    DRAW_DISCARD,
    DRAW_STOCK,
    NUM_ACTIONS,
    Action,
    ActionKind,
    Card,
    IllegalActionError,
    ParseError,
)


def test_action_ids_cover_0_to_110() -> None:
    assert NUM_ACTIONS == 111
    assert len(ACTIONS) == 111
    assert [action.id for action in ACTIONS] == list(range(111))
    assert DRAW_STOCK.id == 0
    assert DRAW_DISCARD.id == 1
    assert CALL_SIX.id == 110
    for index, card in enumerate(CARDS):
        assert Action.discard(card).id == 2 + index
        assert Action.call(card).id == 56 + index
        assert Action.discard(card).card == card
        assert Action.call(card).card == card


def test_from_id_and_back() -> None:
    for action_id in range(NUM_ACTIONS):
        assert Action.from_id(action_id) is ACTIONS[action_id]
    for bad in (-1, 111, 1000):
        with pytest.raises(ParseError, match=str(bad)):
            Action.from_id(bad)


def test_text_round_trips() -> None:
    texts = [str(action) for action in ACTIONS]
    assert len(set(texts)) == 111
    for action in ACTIONS:
        assert Action.parse(str(action)) is action
    assert str(DRAW_STOCK) == "draw stock"
    assert str(DRAW_DISCARD) == "draw discard"
    assert str(CALL_SIX) == "call"
    assert str(Action.discard(Card.parse("Th"))) == "discard Th"
    assert str(Action.call(Card.parse("Jk2"))) == "call Jk2"
    assert repr(Action.parse("call 7h")) == "Action.parse('call 7h')"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("discard 10h", "discard Th"),
        ("discard th", "discard Th"),
        ("DISCARD T♥", "discard Th"),
        ("  discard   Th ", "discard Th"),
        ("Draw Stock", "draw stock"),
        ("draw DISCARD", "draw discard"),
        ("CALL", "call"),
        ("call as", "call As"),
        ("call jk1", "call Jk1"),
        ("call 7♣", "call 7c"),
    ],
)
def test_parse_accepts_every_card_form(text: str, canonical: str) -> None:
    assert str(Action.parse(text)) == canonical


@pytest.mark.parametrize(
    "text",
    ["", "draw", "discard", "draw pile", "play Ah", "discard Xx", "discard 11h", "call Ah Kh", "stock draw"],
)
def test_parse_rejects_anything_else_quoting_it(text: str) -> None:
    with pytest.raises(ParseError) as info:
        Action.parse(text)
    words = text.split()
    assert (repr(text) in str(info.value)) or any(repr(word) in str(info.value) for word in words)


def test_actions_are_interned_values() -> None:
    action = Action.parse("discard Th")
    assert action is Action.discard(Card.parse("10h"))
    assert copy.copy(action) is action
    assert copy.deepcopy(action) is action
    assert pickle.loads(pickle.dumps(action)) is action
    assert Action.call() is CALL_SIX
    assert Action.call(None) is CALL_SIX
    assert sorted([CALL_SIX, DRAW_DISCARD, action, DRAW_STOCK]) == [
        DRAW_STOCK,
        DRAW_DISCARD,
        action,
        CALL_SIX,
    ]


def test_action_kinds() -> None:
    assert DRAW_STOCK.kind is ActionKind.DRAW_STOCK
    assert DRAW_STOCK.kind.is_draw
    assert DRAW_DISCARD.kind.is_draw
    assert not DRAW_DISCARD.kind.is_call
    assert Action.parse("discard 2c").kind is ActionKind.DISCARD
    assert Action.parse("call 2c").kind is ActionKind.CALL_FIVE
    assert CALL_SIX.kind is ActionKind.CALL_SIX
    assert all(a.kind.is_call for a in ACTIONS[56:])
    assert not any(a.kind.is_call or a.kind.is_draw for a in ACTIONS[2:56])
    assert DRAW_STOCK.card is None
    assert CALL_SIX.card is None


# -- the engine's answers agree -----------------------------------------------------------


@settings(max_examples=20)
@given(st.integers(0, 2**32 - 1))
def test_legal_actions_is_legal_and_why_illegal_agree(seed: int) -> None:
    deal, rng = random_deal(seed)
    while True:
        legal = deal.legal_actions()
        assert legal == sorted(legal)  # in id order
        assert legal == [action for action in ACTIONS if deal.is_legal(action)]
        for action in ACTIONS:
            why = deal.why_illegal(action)
            assert (why is None) == (action in legal)
            if why is not None:
                assert isinstance(why, IllegalActionError)
                assert why.rule.startswith("R")
                assert str(why).startswith(why.rule + " ")
        if deal.is_over:
            assert legal == []
            break
        assert legal, "legal actions exist until the end"
        deal.apply(choose(rng, legal, 0.5))


@settings(max_examples=20)
@given(st.integers(0, 2**32 - 1))
def test_refused_actions_raise_the_rule_and_change_nothing(seed: int) -> None:
    deal, rng = random_deal(seed)
    pick = random.Random(seed)
    while True:
        illegal = [action for action in ACTIONS if not deal.is_legal(action)]
        before = snapshot(deal)
        for action in pick.sample(illegal, min(4, len(illegal))):
            why = deal.why_illegal(action)
            assert why is not None
            with pytest.raises(IllegalActionError) as info:
                deal.apply(action)
            assert info.value.rule == why.rule
            assert str(info.value) == str(why)
            assert snapshot(deal) == before
        if deal.is_over:
            break
        deal.apply(choose(rng, deal.legal_actions(), 0.5))


def test_every_refusal_names_a_rule_of_the_engine() -> None:
    """Over many random states, refusals only ever cite the rules the engine enforces."""
    seen: set[str] = set()
    for seed in range(25):
        deal, rng = random_deal(seed)
        while True:
            for action in ACTIONS:
                why = deal.why_illegal(action)
                if why is not None:
                    seen.add(why.rule)
            if deal.is_over:
                break
            deal.apply(choose(rng, deal.legal_actions(), 0.5))
    assert seen <= {"R4.2", "R4.3", "R4.6", "R5.7", "R6.1", "R6.2", "R6.3", "R6.4", "R7.3"}
    assert {"R4.2", "R4.3", "R6.1", "R6.2", "R6.3", "R7.3"} <= seen
