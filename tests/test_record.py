"""Game records, ``paiute-record/1`` (RECORD.md): write, read, replay, refuse.

* Writing, reading and writing again gives the same JSON, for many seeded matches.
* Replaying a record re-creates every state, balance, pot and outcome.
* Every malformed record RECORD.md names is refused with a :class:`RecordError` that says where.
* A broken rule is reported at the first action that breaks it, with the deal index, the
  action index, the action text and the rule ID.
* Saving is atomic.
"""

from __future__ import annotations

import copy
import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paiute import Action, Deal, Match, Phase, RecordedChance, RuleSet, SeededChance
from paiute.cards import pack
from paiute.errors import IllegalActionError, InputError, PaiuteError, RecordError
from paiute.record import FORMAT, Record, ReplayError, load, save

# -- seeded matches ---------------------------------------------------------------------------


def play(
    rules: RuleSet,
    players: int,
    seed: int,
    deals: int,
    *,
    call_rate: float = 1.0,
    finish_last: bool = True,
) -> Match:
    """A match of ``deals`` deals played by a seeded random policy that calls with
    probability ``call_rate`` whenever it may (``0`` makes every deal end dead, R4.7)."""
    rng = random.Random(seed)
    match = Match(rules, [f"P{i}" for i in range(players)], chance=SeededChance(seed))
    for number in range(deals):
        deal = match.start_deal()
        # an unfinished last deal: a few actions, no call (so it cannot end, R7.1, R4.7)
        steps = rng.randrange(1, 30) if number == deals - 1 and not finish_last else None
        while not deal.is_over and steps != 0:
            legal = deal.legal_actions()
            calls = [action for action in legal if action.kind.is_call]
            if calls and steps is None and rng.random() < call_rate:
                action = rng.choice(calls)
            else:
                action = rng.choice([action for action in legal if not action.kind.is_call])
            match.apply(action)
            if steps is not None:
                steps -= 1
    return match


RULE_VARIANTS: list[tuple[str, dict[str, object]]] = [
    ("pagat", {}),
    ("gamerules", {}),
    ("pagat", {"jokers": True, "royal_high": True}),
    ("pagat", {"max_rebuilds": 0, "open_discard": True, "ties": "first_call"}),
    ("pagat", {"max_rebuilds": 1, "payout": "scale", "unit": 10}),
    ("gamerules", {"wild_colour": "opposite", "stake": 3, "max_players": 8}),
    ("gamerules", {"reshuffle_keeps_top": True, "upcard_under_stock": True, "max_rebuilds": 2}),
    ("pagat", {"paiute_any_turn": True, "max_players": 8, "stake": 0}),
]
SEEDS = range(4)
CALL_RATES = (1.0, 0.3, 0.0)


def _cases() -> list[Any]:
    cases = []
    for variant, (preset, options) in enumerate(RULE_VARIANTS):
        for seed in SEEDS:
            players = 2 + (seed + variant) % (4 if options.get("max_players", 5) == 5 else 7)
            rate = CALL_RATES[(seed + variant) % len(CALL_RATES)]
            cases.append(
                pytest.param(
                    preset, options, players, seed, rate, id=f"{preset}-v{variant}-s{seed}-p{players}-c{rate}"
                )
            )
    return cases


CASES = _cases()


def _match(preset: str, options: dict[str, object], players: int, seed: int, rate: float) -> Match:
    return play(RuleSet.from_preset(preset, **options), players, seed, 3, call_rate=rate)


def test_the_seeded_matches_cover_rebuilds_dead_deals_and_calls() -> None:
    """The matches below exercise what a record must carry (else the round trips prove little)."""
    rebuilds = dead = calls = 0
    for case in CASES:
        match = _match(*case.values)
        for deal in match.deals:
            rebuilds += deal.rebuilds
            assert deal.outcome is not None
            dead += deal.outcome.dead
            calls += len(deal.calls)
    assert rebuilds > 20
    assert dead > 5
    assert calls > 20


@pytest.mark.parametrize("seed", [8, 45])
def test_round_trip_with_several_callers(seed: int) -> None:
    """Seeds found to give more than one call in the last round (R6.4, R7.2)."""
    match = play(RuleSet.from_preset("gamerules", max_players=8), 8, seed, 1)
    assert len(match.deals[0].calls) > 1
    record = Record.loads(Record.from_match(match).dumps())
    assert record.dumps() == Record.from_match(match).dumps()
    report = record.replay().reports[0]
    assert report.calls == match.deals[0].calls
    assert report.balances == match.balances


# -- writing and reading ----------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "options", "players", "seed", "rate"), CASES)
def test_write_read_write_is_identical(
    preset: str, options: dict[str, object], players: int, seed: int, rate: float
) -> None:
    match = _match(preset, options, players, seed, rate)
    record = Record.from_match(match)
    text = record.dumps()
    again = Record.loads(text)
    assert again == record
    assert again.dumps() == text
    assert again.to_json() == json.loads(text)
    assert Record.from_json(json.loads(text)).dumps() == text
    data = json.loads(text)
    assert data["format"] == FORMAT == "paiute-record/1"
    assert data["rules"]["preset"] == preset
    assert data["players"] == [f"P{i}" for i in range(players)]
    for deal_data, deal in zip(data["deals"], match.deals, strict=True):
        assert deal_data["dealer"] == deal.dealer
        assert deal_data["deck"] == [str(card) for card in deal.deck]
        assert len(deal_data["rebuilds"]) == deal.rebuilds
        assert deal_data["actions"] == [str(action) for action in deal.actions]


@pytest.mark.parametrize(("preset", "options", "players", "seed", "rate"), CASES)
def test_replay_reproduces_every_state_and_settlement(
    preset: str, options: dict[str, object], players: int, seed: int, rate: float
) -> None:
    match = _match(preset, options, players, seed, rate)
    replay = Record.loads(Record.from_match(match).dumps()).replay()
    assert replay.match.balances == match.balances
    assert replay.match.pot == match.pot
    assert sum(replay.match.balances) + replay.match.pot == sum(match.initial_balances) + match.initial_pot
    assert len(replay.reports) == len(match.deals) == len(match.results)
    for original, replayed, result, report in zip(
        match.deals, replay.match.deals, match.results, replay.reports, strict=True
    ):
        assert str(replayed) == str(original)
        assert replayed.events == original.events
        assert replayed.rebuild_orders == original.rebuild_orders
        assert replayed.outcome == original.outcome
        assert report.finished
        assert report.dealer == result.dealer
        assert report.dead == result.outcome.dead
        assert report.winners == result.outcome.winners
        assert report.calls == result.outcome.calls
        assert report.balances == result.balances
        assert report.pot == result.pot
        assert "in_progress" not in report.to_json()
        for seat in [None, *range(players)]:
            assert replayed.observation(seat) == original.observation(seat)


def test_replay_json_shape() -> None:
    match = play(RuleSet(), 3, 11, 2)
    data = Record.from_match(match).replay().to_json()
    assert data["ok"] is True
    assert len(data["deals"]) == 2
    for deal_json, result in zip(data["deals"], match.results, strict=True):
        assert set(deal_json) == {"dead", "callers", "winners", "balances", "pot"}
        assert deal_json["winners"] == sorted(result.outcome.winners)
        assert deal_json["balances"] == list(result.balances)
        for caller, call in zip(deal_json["callers"], result.outcome.calls, strict=True):
            assert caller["seat"] == call.seat
            assert caller["cards"] == [str(card) for card in call.shown]
            assert set(caller["value"]) == {"name", "ranks"}
            assert caller["first_turn"] == call.first_turn
    json.dumps(data)  # JSON-ready


def test_replay_of_an_empty_record_has_no_deals() -> None:
    record = Record.from_match(Match(RuleSet(), ["A", "B"], chance=SeededChance(1)))
    assert record.deals == ()
    assert Record.loads(record.dumps()).replay().to_json() == {"ok": True, "deals": []}


def test_record_with_commitment_round_trips() -> None:
    data = Record.from_match(play(RuleSet(), 2, 3, 1)).to_json()
    data["deals"][0]["commitment"] = {"sha256": "ab" * 32, "salt": "00ff", "cut": 17}
    record = Record.from_json(data)
    assert record.deals[0].commitment == {"sha256": "ab" * 32, "salt": "00ff", "cut": 17}
    assert Record.loads(record.dumps()).to_json() == data
    assert record.replay().reports[0].finished


def test_unicode_player_names_round_trip() -> None:
    match = play(RuleSet(), 2, 4, 1)
    data = Record.from_match(match).to_json()
    data["players"] = ["Ānuenue", "Kōkua ♠"]
    record = Record.from_json(data)
    assert Record.loads(record.dumps().encode("utf-8")).players == ("Ānuenue", "Kōkua ♠")


# -- a match in progress ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_unfinished_last_deal_is_reported_in_progress(seed: int) -> None:
    match = play(
        RuleSet.from_preset(("pagat", "gamerules")[seed % 2]), 2 + seed % 3, seed, 2, finish_last=False
    )
    deal = match.deal
    assert deal is not None
    assert not deal.is_over
    record = Record.loads(Record.from_match(match).dumps())
    assert record.dumps() == Record.from_match(match).dumps()
    replay = record.replay()
    last = replay.reports[-1]
    assert last.finished is False
    assert replay.reports[0].finished is True
    assert last.winners == ()
    assert last.balances == match.balances
    assert last.pot == match.pot
    data = replay.to_json()
    assert data["ok"] is True
    assert data["deals"][-1]["in_progress"] is True
    assert data["deals"][-1]["dead"] is False
    assert "in_progress" not in data["deals"][0]
    assert str(replay.match.deal) == str(deal)
    # the replayed match can go on exactly like the original
    replayed = replay.match.deal
    assert replayed is not None
    assert replayed.legal_actions() == deal.legal_actions()


def test_deal_dealt_but_not_played_is_in_progress() -> None:
    match = Match(RuleSet(), 3, chance=SeededChance(8))
    match.start_deal()
    report = Record.from_match(match).replay().reports
    assert len(report) == 1
    assert report[0].finished is False
    assert report[0].to_json()["in_progress"] is True


# -- broken rules -------------------------------------------------------------------------------


def _two_deal_record(seed: int = 21, rules: RuleSet | None = None) -> dict[str, Any]:
    return Record.from_match(play(rules or RuleSet(), 3, seed, 2)).to_json()


def _replay_error(data: dict[str, Any]) -> ReplayError:
    record = Record.from_json(data)
    with pytest.raises(ReplayError) as caught:
        record.replay()
    return caught.value


def test_broken_rule_reports_deal_action_text_and_rule() -> None:
    data = _two_deal_record()
    actions = data["deals"][1]["actions"]
    # action 0 of deal 1 is a draw: a discard there breaks R4.2 (draw first)
    hand_card = data["deals"][1]["deck"][0]
    actions[0] = f"discard {hand_card}"
    error = _replay_error(data)
    assert isinstance(error, IllegalActionError)
    assert (error.deal, error.index, error.text, error.rule) == (1, 0, f"discard {hand_card}", "R4.2")
    assert error.to_json() == {
        "deal": 1,
        "action": 0,
        "text": f"discard {hand_card}",
        "rule": "R4.2",
        "message": str(error),
    }
    # The message counts as people do, from 1: the record's deal 1, action 0 is deal 2, move 1.
    assert str(error).startswith(f'deal 2, move 1 "discard {hand_card}": R4.2 ')


def test_broken_rule_r4_3_discarding_the_card_taken_from_the_discard_pile() -> None:
    for seed in range(40):
        match = play(RuleSet(), 3, seed, 1)
        deal = match.deals[0]
        taken = [i for i, event in enumerate(deal.events) if event.action.kind.name == "DRAW_DISCARD"]
        if not taken:
            continue
        index = taken[0]
        event = deal.events[index]
        data = Record.from_match(match).to_json()
        text = f"discard {event.card}"
        data["deals"][0]["actions"][index + 1] = text
        error = _replay_error(data)
        assert (error.deal, error.index, error.text, error.rule) == (0, index + 1, text, "R4.3")
        return
    pytest.fail("no seeded deal drew from the discard pile")


def test_broken_rule_only_the_first_is_reported() -> None:
    data = _two_deal_record()
    deal0 = data["deals"][0]["actions"]
    deal1 = data["deals"][1]["actions"]
    position = next(i for i, text in enumerate(deal0) if text.startswith("discard"))
    deal0[position] = "draw stock"  # after a draw: a second draw breaks R4.2
    deal0[-1] = "draw discard"  # also broken, but later: never reached
    deal1[0] = "call"  # likewise
    error = _replay_error(data)
    assert (error.deal, error.index, error.text) == (0, position, "draw stock")
    assert error.rule == "R4.2"


def test_broken_rule_six_card_call_without_a_combination() -> None:
    data = _two_deal_record()
    for position, deal in _walk(data, 0):
        if deal.phase is Phase.DISCARD and deal.evaluator.code(list(deal.hand(deal.current_seat))) == 0:
            data["deals"][0]["actions"][position] = "call"
            error = _replay_error(data)
            assert (error.deal, error.index, error.text, error.rule) == (0, position, "call", "R6.3")
            return
    pytest.fail("no six-card holding without a combination")


def _walk(data: dict[str, Any], index: int) -> Iterator[tuple[int, Deal]]:
    """Replay deal ``index`` of ``data``, yielding (action index, state before that action)."""
    record = Record.from_json(data)
    match = Match(
        record.rules, record.players, balances=record.balances, pot=record.pot, dealer=record.deals[0].dealer
    )
    for number, deal_record in enumerate(record.deals[: index + 1]):
        deal = match.start_deal(deal_record.deck, chance=RecordedChance(deal_record.rebuilds))
        for position, action in enumerate(deal_record.actions):
            if number == index:
                yield position, deal
            match.apply(action)


# -- malformed records ------------------------------------------------------------------------


def _malformed(data: object) -> str:
    """The message of the RecordError that reading (then replaying) ``data`` raises."""
    with pytest.raises(RecordError) as caught:
        Record.from_json(data).replay()
    message = str(caught.value)
    assert message
    assert isinstance(caught.value, PaiuteError)
    assert not isinstance(caught.value, ReplayError)
    return message


def _record(seed: int = 21, **options: object) -> dict[str, Any]:
    return copy.deepcopy(_two_deal_record(seed, RuleSet.from_preset("pagat", **options)))


def test_malformed_not_json() -> None:
    for text in ("{not json", "", '{"format": "paiute-record/1",', b"\xff\xfe\x00garbage"):
        with pytest.raises(RecordError, match="JSON"):
            Record.loads(text)


def test_malformed_not_an_object() -> None:
    for data in ([], "paiute-record/1", 3, None):
        with pytest.raises(RecordError):
            Record.from_json(data)


@pytest.mark.parametrize("fmt", ["paiute-record/2", "paiute-record", "", None, 1])
def test_malformed_unknown_format(fmt: object) -> None:
    data = _record()
    data["format"] = fmt
    assert "format" in _malformed(data)


def test_malformed_missing_format() -> None:
    data = _record()
    del data["format"]
    assert "format" in _malformed(data)


@pytest.mark.parametrize("name", ["payouts", "Jokers", "wild_color", "max-players", "seed"])
def test_malformed_unknown_option(name: str) -> None:
    data = _record()
    data["rules"][name] = True
    message = _malformed(data)
    assert "unknown option" in message
    assert name in message


def test_malformed_unknown_preset() -> None:
    data = _record()
    data["rules"]["preset"] = "hoyle"
    assert "hoyle" in _malformed(data)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("ties", -1),
        ("ties", "everyone"),
        ("payout", "double"),
        ("wild_colour", "red"),
        ("jokers", "yes"),
        ("jokers", 1),
        ("royal_high", None),
        ("max_players", 9),
        ("max_players", 1),
        ("max_players", "5"),
        ("max_rebuilds", -1),
        ("max_rebuilds", 1.5),
        ("stake", -1),
        ("stake", True),
        ("unit", -25),
    ],
)
def test_malformed_bad_option_value(name: str, value: object) -> None:
    data = _record()
    data["rules"][name] = value
    message = _malformed(data)
    assert name in message


@pytest.mark.parametrize(
    ("players", "options"),
    [(0, {}), (1, {}), (6, {}), (4, {"max_players": 3}), (9, {"max_players": 8})],
)
def test_malformed_players_count_outside_range(players: int, options: dict[str, object]) -> None:
    """R2.1: 2 to max_players players (at most 8)."""
    data = _record()
    data["rules"].update(options)
    data["players"] = [f"N{i}" for i in range(players)]
    data["balances"] = [100] * players
    data["deals"] = []
    message = _malformed(data)
    assert "players" in message
    assert "R2.1" in message or str(players) in message


def test_malformed_player_names_not_text() -> None:
    data = _record()
    data["players"] = ["A", 2, "C"]
    assert "players" in _malformed(data)


@pytest.mark.parametrize(
    "balances",
    [
        [100, 100],
        [100, 100, 100, 100],
        [],
        [100, "100", 100],
        [100, 1.5, 100],
        [True, 100, 100],
        [None, 1, 2],
        "100",
    ],
)
def test_malformed_balances(balances: object) -> None:
    data = _record()
    data["balances"] = balances
    assert "balances" in _malformed(data)


@pytest.mark.parametrize("pot", ["3", 1.5, None, False])
def test_malformed_pot(pot: object) -> None:
    data = _record()
    data["pot"] = pot
    assert "pot" in _malformed(data)


@pytest.mark.parametrize("field", ["rules", "players", "balances", "deals"])
def test_malformed_missing_field(field: str) -> None:
    data = _record()
    del data[field]
    assert field in _malformed(data)


def test_malformed_deal_not_an_object() -> None:
    data = _record()
    data["deals"][1] = ["not", "a", "deal"]
    assert _malformed(data).startswith("deal 2: ")  # deals[1], counted from 1


@pytest.mark.parametrize("dealer", [-1, 3, 7, "0", None, True])
def test_malformed_dealer_not_a_seat(dealer: object) -> None:
    data = _record()
    data["deals"][0]["dealer"] = dealer
    message = _malformed(data)
    assert message.startswith("deal 1: ")
    assert "dealer" in message


def test_malformed_deck_missing_a_card() -> None:
    data = _record()
    removed = data["deals"][1]["deck"].pop(17)
    message = _malformed(data)
    assert message.startswith("deal 2: ")
    assert "one pack" in message
    assert removed in message


def test_malformed_deck_extra_card() -> None:
    data = _record()
    data["deals"][1]["deck"].append("Jk1")
    message = _malformed(data)
    assert message.startswith("deal 2: ")
    assert "Jk1" in message


def test_malformed_deck_duplicate_card() -> None:
    data = _record()
    deck = data["deals"][1]["deck"]
    replaced = deck[30]
    deck[30] = deck[0]
    message = _malformed(data)
    assert message.startswith("deal 2: ")
    assert replaced in message  # missing
    assert deck[0] in message  # extra


def test_malformed_deck_without_the_jokers_of_a_joker_game() -> None:
    data = _record(jokers=True)
    deck = data["deals"][0]["deck"]
    deck.remove("Jk2")
    message = _malformed(data)
    assert message.startswith("deal 1: ")
    assert "Jk2" in message


def test_malformed_deck_with_jokers_in_a_game_without() -> None:
    data = _record()
    data["deals"][0]["deck"].extend(["Jk1", "Jk2"])
    assert _malformed(data).startswith("deal 1: ")


def test_malformed_deck_not_a_list() -> None:
    data = _record()
    data["deals"][1]["deck"] = "2c 3c 4c"
    assert _malformed(data).startswith("deal 2: ")


@pytest.mark.parametrize("text", ["11s", "1h", "Xx", "Jk3", "Jk", "", "10", "A"])
def test_malformed_unknown_card_text_in_deck_is_quoted(text: str) -> None:
    """R1.4: records use the canonical form; anything that is not a card is refused, quoted."""
    data = _record()
    data["deals"][1]["deck"][5] = text
    message = _malformed(data)
    assert message.startswith("deal 2: ")
    assert json.dumps(text) in message or repr(text) in message


def test_malformed_card_that_is_not_text() -> None:
    data = _record()
    data["deals"][0]["deck"][0] = 12
    message = _malformed(data)
    assert message.startswith("deal 1: ")
    assert "12" in message


def _record_with_rebuild() -> tuple[dict[str, Any], int]:
    """A record of two finished deals of which at least one has a rebuild (R4.6)."""
    for seed in range(100):
        data = _record(seed)
        for index, deal in enumerate(data["deals"]):
            if deal["rebuilds"]:
                return data, index
    pytest.fail("no seeded match rebuilt its stock")


def test_malformed_unknown_card_text_in_rebuild_is_quoted() -> None:
    data, index = _record_with_rebuild()
    data["deals"][index]["rebuilds"][0][0] = "Zq"
    message = _malformed(data)
    assert message.startswith(f"deal {index + 1}: rebuild 1: ")  # deals and rebuilds from 1
    assert "Zq" in message


def test_malformed_rebuild_missing_a_card() -> None:
    data, index = _record_with_rebuild()
    data["deals"][index]["rebuilds"][0].pop()
    message = _malformed(data)
    assert message.startswith(f"deal {index + 1}: rebuild 1 ")  # the record's first rebuild
    assert "R4.6" in message


def test_malformed_rebuild_with_a_card_from_a_hand() -> None:
    """A rebuild holds exactly the discard pile less its top card (R4.6), nothing else."""
    data, index = _record_with_rebuild()
    order = data["deals"][index]["rebuilds"][0]
    outsider = next(str(card) for card in pack() if str(card) not in order)
    order[0] = outsider
    message = _malformed(data)
    assert message.startswith(f"deal {index + 1}: rebuild 1 ")
    assert outsider in message


def test_malformed_rebuild_including_the_top_discard() -> None:
    """With reshuffle_keeps_top (pagat) the top discard stays out of the new stock (R4.6)."""
    data, index = _record_with_rebuild()
    for _position, deal in _walk(data, index):
        if deal.phase is Phase.DRAW and deal.stock_size == 0 and deal.rebuilds == 0:
            kept = deal.discard_pile[-1]
            break
    else:
        pytest.fail("no rebuild found")
    order = data["deals"][index]["rebuilds"][0]
    assert str(kept) not in order
    assert len(order) == len(deal.discard_pile) - 1
    order.append(str(kept))
    message = _malformed(data)
    assert message.startswith(f"deal {index + 1}: rebuild 1 ")


def test_malformed_rebuild_missing_from_the_record() -> None:
    data, index = _record_with_rebuild()
    data["deals"][index]["rebuilds"] = []
    message = _malformed(data)
    assert message.startswith(f"deal {index + 1}: rebuild 1: ")


def test_malformed_extra_unused_rebuild() -> None:
    data = _record()
    for index, deal in enumerate(data["deals"]):
        deal["rebuilds"].append(deal["deck"][:10])
        message = _malformed(copy.deepcopy(data))
        assert message.startswith(f"deal {index + 1}: ")
        assert "rebuild" in message
        deal["rebuilds"].pop()


def test_malformed_rebuilds_not_a_list() -> None:
    data = _record()
    data["deals"][0]["rebuilds"] = "none"
    assert _malformed(data).startswith("deal 1: ")


@pytest.mark.parametrize(
    "text", ["draw", "draw pile", "discard", "discard 11s", "call 1h", "pass", "knock", "call Ah Kh", "", 5]
)
def test_malformed_unknown_action_text(text: object) -> None:
    data = _record()
    data["deals"][1]["actions"][3] = text
    message = _malformed(data)
    assert message.startswith("deal 2, move 4: ")  # deals[1].actions[3], counted from 1
    if isinstance(text, str) and text:
        assert text.split()[-1] in message


def test_malformed_actions_missing() -> None:
    data = _record()
    del data["deals"][0]["actions"]
    message = _malformed(data)
    assert message.startswith("deal 1: ")
    assert "actions" in message


@pytest.mark.parametrize("deal_index", [0, 1])
def test_malformed_deal_continues_after_it_ended(deal_index: int) -> None:
    data = _record()
    actions = data["deals"][deal_index]["actions"]
    position = len(actions)
    actions.append("draw stock")
    message = _malformed(data)
    assert message.startswith(f'deal {deal_index + 1}, move {position + 1} "draw stock": ')
    assert "ended" in message


def test_malformed_missing_deal_end_before_the_next_deal() -> None:
    data = _record()
    del data["deals"][0]["actions"][-1]
    message = _malformed(data)
    assert message.startswith("deal 1 has not ended but deal 2 follows")


def test_malformed_dealer_not_passing_to_the_left() -> None:
    """R2.3: after each deal the deal passes to the left (the next seat)."""
    data = _record()
    first = data["deals"][0]["dealer"]
    for wrong in (first, (first + 2) % 3):
        data["deals"][1]["dealer"] = wrong
        message = _malformed(copy.deepcopy(data))
        assert message.startswith("deal 2: ")
        assert "R2.3" in message


def test_dealer_passes_to_the_left_after_a_dead_deal() -> None:
    match = play(RuleSet(max_rebuilds=0), 4, 2, 3, call_rate=0.0)
    assert all(result.outcome.dead for result in match.results)
    dealers = [deal.dealer for deal in match.deals]
    assert dealers == [(dealers[0] + i) % 4 for i in range(3)]
    assert Record.from_match(match).replay().match.balances == match.balances


def test_malformed_commitment() -> None:
    data = _record()
    data["deals"][0]["commitment"] = {"sha256": "00", "salt": "11"}
    assert _malformed(data).startswith("deal 1: ")


# -- files ------------------------------------------------------------------------------------


def test_save_then_load_round_trip(tmp_path: Path) -> None:
    record = Record.from_match(play(RuleSet.from_preset("gamerules", jokers=True), 4, 5, 3))
    path = tmp_path / "games" / "match.json"
    save(record, path)
    assert load(path) == record
    assert load(path).dumps() == record.dumps()
    assert json.loads(path.read_text(encoding="utf-8")) == record.to_json()
    assert sorted(p.name for p in path.parent.iterdir()) == ["match.json"]


def test_save_overwrites_and_leaves_no_temporary_files(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    first = Record.from_match(play(RuleSet(), 2, 1, 1))
    second = Record.from_match(play(RuleSet(), 3, 2, 2))
    save(first, path)
    save(second, str(path))
    assert load(str(path)) == second
    assert [p.name for p in tmp_path.iterdir()] == ["match.json"]


def test_save_that_fails_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "match.json"
    old = Record.from_match(play(RuleSet(), 2, 1, 1))
    new = Record.from_match(play(RuleSet(), 2, 9, 2))
    save(old, path)
    before = path.read_bytes()

    def broken_replace(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        save(new, path)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["match.json"]
    assert load(path) == old


def test_save_interrupted_while_writing_leaves_nothing_new(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "match.json"

    def broken_fsync(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(KeyboardInterrupt):
        save(Record.from_match(play(RuleSet(), 2, 1, 1)), path)
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []


def test_load_missing_file_names_it(tmp_path: Path) -> None:
    # A file that is not there is a usage error (InputError), not a malformed record.
    path = tmp_path / "nowhere.json"
    with pytest.raises(InputError, match=r"nowhere\.json"):
        load(path)


def test_load_malformed_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "paiute-record/9"}', encoding="utf-8")
    with pytest.raises(RecordError, match="format"):
        load(path)


def test_actions_in_records_are_canonical_text() -> None:
    """R1.4: records always use the canonical form, and read any accepted form."""
    data = _record()
    actions = data["deals"][0]["actions"]
    for position, text in enumerate(actions):
        assert str(Action.parse(text)) == text
        if text.startswith("discard T"):
            actions[position] = text.replace("discard T", "discard 10")
            break
    else:
        pytest.skip("no ten discarded")
    assert Record.from_json(data).dumps() == Record.from_json(_record()).dumps()
