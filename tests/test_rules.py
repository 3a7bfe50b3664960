"""Rule sets: every option, both presets, validation and what the options imply (R1-R8)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiute.cards import JOKERS, Card, parse_cards
from paiute.errors import RulesError
from paiute.rules import OPTIONS, PRESETS, RuleSet

# RULES.md, option by option: (name, rule ID, default).
DEFAULTS = {
    "jokers": ("R1.3", False),
    "max_players": ("R2.1", 5),
    "upcard_under_stock": ("R2.6", True),
    "open_discard": ("R2.7", False),
    "wild_colour": ("R3.3", "any"),
    "reshuffle_keeps_top": ("R4.6", True),
    "max_rebuilds": ("R4.7", 3),
    "paiute_any_turn": ("R5.7", False),
    "royal_high": ("R5.8", False),
    "payout": ("R8.2", "pot"),
    "stake": ("R8.2", 1),
    "ties": ("R8.3", "split"),
    "unit": ("R8.4", 25),
}
# Where the gamerules preset differs (the [gamerules: ...] marks of RULES.md).
GAMERULES = {
    "upcard_under_stock": False,  # R2.6
    "open_discard": True,  # R2.7
    "reshuffle_keeps_top": False,  # R4.6
    "paiute_any_turn": True,  # R5.7
}
# Values each option accepts, and values it must refuse.
VALID = {
    "jokers": [False, True],
    "max_players": [2, 5, 6, 8],
    "upcard_under_stock": [False, True],
    "open_discard": [False, True],
    "wild_colour": ["any", "opposite"],
    "reshuffle_keeps_top": [False, True],
    "max_rebuilds": [0, 1, 3, 1000],
    "paiute_any_turn": [False, True],
    "royal_high": [False, True],
    "payout": ["pot", "scale"],
    "stake": [0, 1, 500],
    "ties": ["split", "first_call"],
    "unit": [0, 1, 25, 100],
}
_NOT_BOOL = [0, 1, "true", "yes", None, 1.0, "on"]
INVALID = {
    "jokers": _NOT_BOOL,
    "max_players": [1, 0, -1, 9, 100, True, "5", 5.0, None],
    "upcard_under_stock": _NOT_BOOL,
    "open_discard": _NOT_BOOL,
    "wild_colour": ["Any", "same", "", "opposite ", None, True, 0],
    "reshuffle_keeps_top": _NOT_BOOL,
    "max_rebuilds": [-1, True, "3", 3.0, None],
    "paiute_any_turn": _NOT_BOOL,
    "royal_high": _NOT_BOOL,
    "payout": ["Pot", "scales", "", None, 1],
    "stake": [-1, True, "1", 1.5, None],
    "ties": ["first", "Split", "", None, 0],
    "unit": [-1, -25, False, "25", 2.5, None],
}


def test_options_are_exactly_those_of_the_rules() -> None:
    assert [option.name for option in OPTIONS] == list(DEFAULTS)
    for option in OPTIONS:
        rule, default = DEFAULTS[option.name]
        assert option.rule == rule, option.name
        assert option.default == default, option.name
        assert type(option.default) is type(default), option.name
        assert option.help


@pytest.mark.parametrize("name", list(DEFAULTS))
def test_pagat_preset_is_the_defaults(name: str) -> None:
    rules = RuleSet.from_preset("pagat")
    assert getattr(rules, name) == DEFAULTS[name][1]
    assert getattr(RuleSet(), name) == DEFAULTS[name][1]


def test_pagat_is_the_default_preset() -> None:
    assert RuleSet.from_preset() == RuleSet() == RuleSet.from_dict({})
    assert RuleSet().preset == "pagat"
    assert RuleSet().to_dict() == {"preset": "pagat"}


@pytest.mark.parametrize("name", list(DEFAULTS))
def test_gamerules_preset(name: str) -> None:
    rules = RuleSet.from_preset("gamerules")
    assert getattr(rules, name) == GAMERULES.get(name, DEFAULTS[name][1])


def test_presets_registry() -> None:
    assert set(PRESETS) == {"pagat", "gamerules"}
    assert PRESETS["pagat"] == {}
    assert PRESETS["gamerules"] == GAMERULES
    assert RuleSet.from_preset("gamerules").to_dict() == {"preset": "gamerules"}


@pytest.mark.parametrize("preset", ["Pagat", "", "gamerule", "poker", "default"])
def test_unknown_preset_refused(preset: str) -> None:
    with pytest.raises(RulesError) as info:
        RuleSet.from_preset(preset)
    assert repr(preset) in str(info.value)
    with pytest.raises(RulesError):
        RuleSet.from_dict({"preset": preset})
    with pytest.raises(RulesError):
        RuleSet(preset=preset)


@pytest.mark.parametrize("preset", [None, 1, ["pagat"]])
def test_preset_must_be_a_name(preset: object) -> None:
    with pytest.raises(RulesError):
        RuleSet.from_dict({"preset": preset})


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize(("name", "value"), [(n, v) for n, values in VALID.items() for v in values])
def test_every_valid_option_value_accepted(preset: str, name: str, value: object) -> None:
    rules = RuleSet.from_preset(preset, **{name: value})
    assert getattr(rules, name) == value
    assert rules.preset == preset
    assert RuleSet.from_dict(rules.to_dict()) == rules
    assert rules.options()[name] == value


@pytest.mark.parametrize(("name", "value"), [(n, v) for n, values in INVALID.items() for v in values])
def test_every_invalid_option_value_refused(name: str, value: object) -> None:
    with pytest.raises(RulesError) as info:
        RuleSet.from_preset("pagat", **{name: value})
    assert name in str(info.value)
    assert repr(value) in str(info.value)
    with pytest.raises(RulesError):
        RuleSet.from_dict({"preset": "gamerules", name: value})
    with pytest.raises(RulesError):
        RuleSet(**{name: value})  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        RuleSet().replace(**{name: value})


@pytest.mark.parametrize("name", ["payouts", "joker", "Jokers", "royal-high", "preset_name", "", "seed"])
def test_unknown_option_refused(name: str) -> None:
    with pytest.raises(RulesError) as info:
        RuleSet.from_preset("pagat", **{name: True})
    assert repr(name) in str(info.value)
    with pytest.raises(RulesError):
        RuleSet.from_dict({"preset": "pagat", name: True})
    with pytest.raises(RulesError):
        RuleSet().replace(**{name: True})


def test_rule_set_is_frozen() -> None:
    rules = RuleSet()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.royal_high = True  # type: ignore[misc]
    assert hash(rules) == hash(RuleSet())


def test_replace_makes_a_validated_copy() -> None:
    rules = RuleSet.from_preset("gamerules")
    changed = rules.replace(royal_high=True)
    assert changed.royal_high
    assert not rules.royal_high
    assert changed.preset == "gamerules"
    assert changed.to_dict() == {"preset": "gamerules", "royal_high": True}


def test_to_dict_lists_only_options_that_differ_from_the_preset() -> None:
    rules = RuleSet.from_preset("gamerules", upcard_under_stock=True, stake=5, open_discard=True)
    assert rules.to_dict() == {"preset": "gamerules", "upcard_under_stock": True, "stake": 5}
    pagat = RuleSet.from_preset("pagat", open_discard=True, wild_colour="opposite")
    assert pagat.to_dict() == {"preset": "pagat", "open_discard": True, "wild_colour": "opposite"}


OPTION_VALUES = st.fixed_dictionaries(
    {}, optional={name: st.sampled_from(values) for name, values in VALID.items()}
)


@given(preset=st.sampled_from(sorted(PRESETS)), options=OPTION_VALUES)
def test_to_dict_from_dict_round_trip(preset: str, options: dict[str, object]) -> None:
    rules = RuleSet.from_preset(preset, **options)
    data = rules.to_dict()
    assert data["preset"] == preset
    assert RuleSet.from_dict(data) == rules
    for name, value in data.items():
        if name != "preset":
            assert value != PRESETS[preset].get(name, DEFAULTS[name][1])
    for name, value in options.items():
        assert getattr(rules, name) == value


def test_describe_lists_every_option() -> None:
    rows = RuleSet().describe()
    assert [(name, rule) for name, rule, _, _ in rows] == [(n, r) for n, (r, _) in DEFAULTS.items()]


# -- options from the command line ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("royal_high=yes", ("royal_high", True)),
        ("royal_high=on", ("royal_high", True)),
        ("royal_high=TRUE", ("royal_high", True)),
        ("royal_high=1", ("royal_high", True)),
        ("royal-high=no", ("royal_high", False)),
        ("jokers=off", ("jokers", False)),
        ("jokers=false", ("jokers", False)),
        ("jokers=0", ("jokers", False)),
        ("stake=5", ("stake", 5)),
        ("stake = 0", ("stake", 0)),
        ("max_players=8", ("max_players", 8)),
        ("max-players=2", ("max_players", 2)),
        ("max_rebuilds=0", ("max_rebuilds", 0)),
        ("unit=50", ("unit", 50)),
        ("wild_colour=opposite", ("wild_colour", "opposite")),
        ("wild-colour=any", ("wild_colour", "any")),
        ("payout=scale", ("payout", "scale")),
        ("ties=first_call", ("ties", "first_call")),
        ("upcard_under_stock=off", ("upcard_under_stock", False)),
        ("open_discard=on", ("open_discard", True)),
        ("reshuffle_keeps_top=no", ("reshuffle_keeps_top", False)),
        ("paiute_any_turn=yes", ("paiute_any_turn", True)),
    ],
)
def test_parse_option(text: str, expected: tuple[str, object]) -> None:
    name, value = RuleSet.parse_option(text)
    assert (name, value) == expected
    assert type(value) is type(expected[1])
    assert getattr(RuleSet.from_preset("pagat", **{name: value}), name) == value


@pytest.mark.parametrize(
    "text",
    [
        "royal_high",
        "royal_high=",
        "royal_high=maybe",
        "royal_high=2",
        "stake=abc",
        "stake=-1",
        "stake=1.5",
        "max_players=9",
        "max_players=1",
        "wild_colour=same",
        "payout=Pot",
        "ties=",
        "unknown=1",
        "=1",
        "",
        "preset=gamerules",
    ],
)
def test_parse_option_refuses_bad_text(text: str) -> None:
    with pytest.raises(RulesError):
        RuleSet.parse_option(text)


# -- R2.1 players ------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_r2_1_two_to_five_players(players: int) -> None:
    RuleSet().check_players(players)
    RuleSet.from_preset("gamerules").check_players(players)


@pytest.mark.parametrize("players", [-1, 0, 1, 6, 7, 8, 9])
def test_r2_1_player_count_outside_range_refused(players: int) -> None:
    with pytest.raises(RulesError) as info:
        RuleSet().check_players(players)
    assert "R2.1" in str(info.value)


@pytest.mark.parametrize("max_players", [2, 5, 6, 7, 8])
def test_r2_1_max_players_allows_more(max_players: int) -> None:
    rules = RuleSet.from_preset("pagat", max_players=max_players)
    for players in range(2, max_players + 1):
        rules.check_players(players)
        rules.replace(jokers=True).check_players(players)
    for players in (1, max_players + 1):
        with pytest.raises(RulesError, match=r"R2\.1"):
            rules.check_players(players)


def test_r2_1_max_players_at_most_eight() -> None:
    with pytest.raises(RulesError):
        RuleSet.from_preset("pagat", max_players=9)


@pytest.mark.parametrize("players", range(2, 9))
def test_r2_1_six_or_more_players_allow_paiute_any_turn(players: int) -> None:
    assert RuleSet().paiute_allowed_any_turn(players) is (players >= 6)
    assert RuleSet(paiute_any_turn=True).paiute_allowed_any_turn(players) is True


def test_r5_7_paiute_any_turn_option() -> None:
    assert not RuleSet().paiute_allowed_any_turn(4)  # the worked example: first turn only
    assert RuleSet.from_preset("gamerules").paiute_allowed_any_turn(2)
    assert not RuleSet.from_preset("gamerules", paiute_any_turn=False).paiute_allowed_any_turn(5)


def test_r1_3_pack_size() -> None:
    assert RuleSet().pack_size == 52
    assert RuleSet(jokers=True).pack_size == 54


# -- R3 wild cards -----------------------------------------------------------------------------------


def cards(text: str) -> frozenset[Card]:
    return frozenset(parse_cards(text))


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("rank", list("23456789TJQKA"))
@pytest.mark.parametrize("suit", list("cdhs"))
def test_r3_1_every_card_of_the_wild_rank_is_wild(preset: str, rank: str, suit: str) -> None:
    rules = RuleSet.from_preset(preset)
    wild = rules.wild_cards(Card.parse(rank + suit))
    assert wild == cards(" ".join(rank + s for s in "cdhs"))


@pytest.mark.parametrize(
    ("upcard", "wild"),
    [
        ("3d", "3c 3s"),
        ("3h", "3c 3s"),
        ("3c", "3d 3h"),
        ("3s", "3d 3h"),
        ("Ah", "Ac As"),
        ("Tc", "Td Th"),
        ("2s", "2d 2h"),
    ],
)
def test_r3_3_opposite_colour_wild_cards(upcard: str, wild: str) -> None:
    rules = RuleSet(wild_colour="opposite")
    up = Card.parse(upcard)
    assert rules.wild_cards(up) == cards(wild)
    assert up not in rules.wild_cards(up)  # the upcard itself is a normal card


@pytest.mark.parametrize("rank", list("23456789TJQKA"))
@pytest.mark.parametrize("suit", list("cdhs"))
def test_r3_3_opposite_colour_every_upcard(rank: str, suit: str) -> None:
    up = Card.parse(rank + suit)
    wild = RuleSet(wild_colour="opposite").wild_cards(up)
    assert len(wild) == 2
    assert all(card.rank == up.rank and card.is_red != up.is_red for card in wild)


@pytest.mark.parametrize("upcard", [None, Card.parse("5h"), Card.parse("As")])
@pytest.mark.parametrize("wild_colour", ["any", "opposite"])
def test_r3_2_jokers_are_the_only_wild_cards(upcard: Card | None, wild_colour: str) -> None:
    rules = RuleSet(jokers=True, wild_colour=wild_colour)
    assert rules.wild_cards(upcard) == frozenset(JOKERS)


@pytest.mark.parametrize("upcard", [None, JOKERS[0]])
def test_r3_1_without_jokers_the_wild_rank_needs_an_upcard(upcard: Card | None) -> None:
    with pytest.raises(RulesError):
        RuleSet().wild_cards(upcard)
