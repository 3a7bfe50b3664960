"""Cards, their text form and the pack (R1)."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiute.cards import CARDS, JOKERS, Card, Rank, Suit, format_cards, pack, parse_cards
from paiute.errors import ParseError

RANK_FORMS = {
    2: ["2"],
    3: ["3"],
    4: ["4"],
    5: ["5"],
    6: ["6"],
    7: ["7"],
    8: ["8"],
    9: ["9"],
    10: ["T", "t", "10"],
    11: ["J", "j"],
    12: ["Q", "q"],
    13: ["K", "k"],
    14: ["A", "a"],
}
SUIT_FORMS = {0: ["c", "C", "♣"], 1: ["d", "D", "♦"], 2: ["h", "H", "♥"], 3: ["s", "S", "♠"]}
CANONICAL_RANKS = "23456789TJQKA"


def every_text_form() -> list[tuple[str, int]]:
    """Every text of R1.4 for every natural card, with the card's index."""
    forms = []
    for rank, rank_texts in RANK_FORMS.items():
        for suit, suit_texts in SUIT_FORMS.items():
            for rank_text in rank_texts:
                for suit_text in suit_texts:
                    forms.append((rank_text + suit_text, (rank - 2) * 4 + suit))
    return forms


# -- R1.1 the pack ----------------------------------------------------------------------------


def test_r1_1_standard_pack_has_52_distinct_cards() -> None:
    cards = pack()
    assert len(cards) == 52
    assert len(set(cards)) == 52
    assert {(card.rank, card.suit) for card in cards} == {(rank, suit) for rank in Rank for suit in Suit}
    assert not any(card.is_joker for card in cards)


def test_r1_3_jokers_option_adds_two_jokers() -> None:
    cards = pack(jokers=True)
    assert len(cards) == 54
    assert len(set(cards)) == 54
    assert [card for card in cards if card.is_joker] == list(JOKERS)
    assert [str(joker) for joker in JOKERS] == ["Jk1", "Jk2"]


def test_r1_1_pack_is_a_fresh_list() -> None:
    first = pack()
    first.pop()
    assert len(pack()) == 52


def test_r1_1_card_indices_are_rank_major_suits_cdhs() -> None:
    assert len(CARDS) == 54
    for index, card in enumerate(CARDS[:52]):
        assert int(card) == index
        assert card.rank == Rank(index // 4 + 2)
        assert card.suit == Suit(index % 4)
        assert str(card) == CANONICAL_RANKS[index // 4] + "cdhs"[index % 4]
    assert int(JOKERS[0]) == 52
    assert int(JOKERS[1]) == 53


def test_r1_1_ranks_are_ace_high() -> None:
    assert [int(rank) for rank in Rank] == list(range(2, 15))
    assert max(Rank) is Rank.ACE
    assert min(Rank) is Rank.TWO
    assert "".join(rank.symbol for rank in Rank) == CANONICAL_RANKS


def test_r1_1_rank_names() -> None:
    assert Rank.ACE.plural == "aces"
    assert Rank.KING.singular == "king"
    assert Rank.SIX.plural == "sixes"
    assert Rank.TWO.singular == "two"


def test_r1_3_jokers_have_no_rank_suit_or_colour() -> None:
    for joker in JOKERS:
        assert joker.is_joker
        assert joker.rank is None
        assert joker.suit is None
        assert not joker.is_red
        assert joker.pretty() == str(joker)


def test_r3_3_card_colours() -> None:
    for card in CARDS[:52]:
        assert card.is_red == (str(card)[1] in "dh")
        assert card.suit is not None
        assert card.is_red == card.suit.is_red
    assert [suit.is_red for suit in Suit] == [False, True, True, False]


def test_r1_1_cards_of_rank_and_suit() -> None:
    assert str(Card.of(Rank.ACE, Suit.SPADES)) == "As"
    assert Card.of(10, 2) is Card.parse("Th")
    assert Card.joker(1) is JOKERS[0]
    assert Card.joker(2) is JOKERS[1]


@pytest.mark.parametrize("number", [0, 3, -1])
def test_r1_3_only_two_jokers(number: int) -> None:
    with pytest.raises(ParseError):
        Card.joker(number)


# -- R1.4 text form ----------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "index"), every_text_form())
def test_r1_4_every_text_form_parses(text: str, index: int) -> None:
    card = Card.parse(text)
    assert card is CARDS[index]
    assert str(card) == CANONICAL_RANKS[index // 4] + "cdhs"[index % 4]


@pytest.mark.parametrize(("text", "index"), [("Jk1", 52), ("Jk2", 53), ("jk1", 52), ("JK2", 53), ("jK1", 52)])
def test_r1_4_joker_text_forms_parse(text: str, index: int) -> None:
    assert Card.parse(text) is CARDS[index]


def test_r1_4_examples_from_the_rules() -> None:
    ten = Card.parse("Th")
    assert Card.parse("10h") is ten
    assert Card.parse("th") is ten
    assert Card.parse("T♥") is ten
    assert str(ten) == "Th"
    assert ten.pretty() == "T♥"


@pytest.mark.parametrize("card", CARDS, ids=str)
def test_r1_4_canonical_text_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) is card
    assert Card.parse(card.pretty()) is card
    assert f"{card}" == str(card)
    assert f"{card:>4}" == str(card).rjust(4)
    assert eval(repr(card), {"Card": Card}) is card


def test_r1_4_pretty_uses_suit_symbols() -> None:
    assert [card.pretty() for card in parse_cards("2c 3d 4h 5s Jk1")] == ["2♣", "3♦", "4♥", "5♠", "Jk1"]
    assert format_cards(parse_cards("Ah Td"), pretty=True) == "A♥ T♦"


BAD_TEXTS = [
    "",
    " ",
    "11s",
    "1h",
    "0h",
    "01h",
    "100h",
    "Tx",
    "T",
    "h",
    "hT",
    "♥T",
    "T h",
    "Thh",
    "TTh",
    "10",
    "Jk",
    "Jk0",
    "Jk3",
    "Jk12",
    "Joker",
    "1c",
    "Zc",
    "Ah1",
    "A♥♥",
    "Xs",
    "♥",
    "Jk 1",
]


@pytest.mark.parametrize("text", BAD_TEXTS)
def test_r1_4_bad_text_is_quoted_in_error(text: str) -> None:
    with pytest.raises(ParseError) as info:
        Card.parse(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("text", ["T♡", "A♤", "2♧", "K♢"])
def test_r1_4_other_suit_symbols_rejected(text: str) -> None:
    """R1.4 names the suits ``c d h s`` or ``♣ ♦ ♥ ♠`` and input rejects anything else."""
    with pytest.raises(ParseError) as info:
        Card.parse(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("text", ["Ah 11s", "Ah,Kd,Xx", "Jk", "Qd Jk3"])
def test_r1_4_bad_card_in_list_is_quoted(text: str) -> None:
    bad = text.replace(",", " ").split()[-1]
    with pytest.raises(ParseError) as info:
        parse_cards(text)
    assert repr(bad) in str(info.value)


FORMS = {form.lower() for form, _ in every_text_form()} | {"jk1", "jk2"}


@given(st.text(alphabet="0123456789TJQKAtjqkaxcdhsCDHS♣♦♥♠ ", max_size=4))
def test_r1_4_parse_accepts_only_card_texts(text: str) -> None:
    """Any text either is one of R1.4's forms of a card or raises a ParseError quoting it."""
    if text.strip().lower() in FORMS:
        card = Card.parse(text)
        assert Card.parse(str(card)) is card
    else:
        with pytest.raises(ParseError) as info:
            Card.parse(text)
        assert repr(text) in str(info.value)


# -- lists of cards ------------------------------------------------------------------------------


def test_r1_4_parse_cards_spaces_and_commas() -> None:
    cards = parse_cards("3h 3s,Ad, ac  K♠")
    assert format_cards(cards) == "3h 3s Ad Ac Ks"
    assert parse_cards(["Th", "10d", "jk2"]) == [Card.parse("Th"), Card.parse("Td"), JOKERS[1]]
    assert parse_cards("") == []


def test_r1_4_parse_cards_refuses_a_card_twice() -> None:
    with pytest.raises(ParseError) as info:
        parse_cards("Th 10h")
    assert "'Th'" in str(info.value)
    assert "'Th 10h'" in str(info.value)


def test_r1_4_plain_jokers_are_numbered_in_order() -> None:
    assert format_cards(parse_cards("Jk Jk 2c", plain_jokers=True)) == "Jk1 Jk2 2c"
    assert format_cards(parse_cards("2c jk", plain_jokers=True)) == "2c Jk1"
    assert format_cards(parse_cards("Jk1 Jk", plain_jokers=True)) == "Jk1 Jk2"
    assert format_cards(parse_cards("Jk2 Jk", plain_jokers=True)) == "Jk2 Jk1"


def test_r1_4_plain_jokers_off_refuses_bare_jk() -> None:
    with pytest.raises(ParseError) as info:
        parse_cards("Jk 2c")
    assert "'Jk'" in str(info.value)


def test_r1_3_at_most_two_jokers() -> None:
    with pytest.raises(ParseError):
        parse_cards("Jk Jk Jk", plain_jokers=True)
    with pytest.raises(ParseError):
        parse_cards("Jk1 Jk2 Jk", plain_jokers=True)


def test_r1_4_format_cards_is_canonical() -> None:
    assert format_cards(parse_cards("10h t♠ jk1 aC")) == "Th Ts Jk1 Ac"
    assert format_cards([]) == ""


@given(st.lists(st.sampled_from(CARDS), unique=True, max_size=10))
def test_r1_4_card_list_round_trip(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == cards
    assert parse_cards(format_cards(cards, pretty=True)) == cards


# -- values are interned -------------------------------------------------------------------------


@pytest.mark.parametrize("card", [CARDS[0], CARDS[37], JOKERS[1]], ids=str)
def test_cards_are_interned_through_copy_and_pickle(card: Card) -> None:
    assert copy.copy(card) is card
    assert copy.deepcopy(card) is card
    assert pickle.loads(pickle.dumps(card)) is card


def test_cards_hash_and_compare_as_ints() -> None:
    assert {CARDS[5]: "x"}[5] == "x"
    assert CARDS[5] == 5
    assert sorted(parse_cards("As 2c Kd")) == parse_cards("2c Kd As")


def test_r1_4_rank_parse() -> None:
    assert Rank.parse("10") is Rank.TEN
    assert Rank.parse("t") is Rank.TEN
    assert Rank.parse("a") is Rank.ACE
    with pytest.raises(ParseError) as info:
        Rank.parse("1")
    assert "'1'" in str(info.value)
