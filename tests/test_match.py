"""A match: the deal passing left (R2.3), stakes and the pot across deals (R8), chance (R10.1).

The last test replays the team's shared conformance records (made by an independent
implementation) through :class:`Match` directly, deal by deal.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import make_deck, random_rules
from paiute import (
    Action,
    Card,
    Match,
    PaiuteError,
    RecordedChance,
    RulesError,
    RuleSet,
    SecureChance,
    SeededChance,
    parse_cards,
)

PAGAT = RuleSet()

ROOT = Path(__file__).resolve().parents[1]
_SHARED = ROOT.parent / "shared" / "conformance"
CONFORMANCE = _SHARED if _SHARED.is_dir() else ROOT / "tests" / "data" / "conformance"
OK_RECORDS = sorted(
    path for path in (CONFORMANCE / "records").glob("ok_*.json") if not path.name.endswith(".expected.json")
)


def play_out(match: Match, rng: random.Random) -> None:
    deal = match.deal
    assert deal is not None
    while not deal.is_over:
        actions = deal.legal_actions()
        calls = [a for a in actions if a.kind.is_call]
        match.apply(rng.choice(calls) if calls and rng.random() < 0.7 else rng.choice(actions))


def dead_deck(players: int, dealer: int, seed: int) -> list[Card]:
    return make_deck(players, dealer, upcard="3s", seed=seed)


def pass_turn(match: Match) -> None:
    """One turn through the match: draw from the stock, discard the card drawn."""
    deal = match.deal
    assert deal is not None
    event = match.apply(Action.parse("draw stock"))
    if not deal.is_over:  # (a dead deal's last draw draws nothing, R4.7)
        assert event.card is not None
        match.apply(Action.discard(event.card))


def pass_to_the_end(match: Match) -> None:
    """Draw and pass until the deal ends (dead with max_rebuilds = 0, R4.7)."""
    deal = match.deal
    assert deal is not None
    while not deal.is_over:
        pass_turn(match)


# -- R2.3: the dealer --------------------------------------------------------------------------


def test_r2_3_first_dealer_chosen_at_random() -> None:
    firsts = {Match(PAGAT, 4, chance=SeededChance(seed)).next_dealer for seed in range(60)}
    assert firsts == {0, 1, 2, 3}
    again = [Match(PAGAT, 4, chance=SeededChance(seed)).next_dealer for seed in range(20)]
    assert again == [Match(PAGAT, 4, chance=SeededChance(seed)).next_dealer for seed in range(20)]


def test_r2_3_first_dealer_may_be_given() -> None:
    match = Match(PAGAT, ["A", "B", "C"], chance=SeededChance(1), dealer=2)
    assert match.start_deal().dealer == 2
    with pytest.raises(PaiuteError, match=r"R2\.2"):
        Match(PAGAT, ["A", "B", "C"], dealer=3)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_r2_3_the_deal_passes_to_the_left(players: int) -> None:
    match = Match(PAGAT, players, chance=SeededChance(players))
    rng = random.Random(players)
    first = match.next_dealer
    for _ in range(2 * players + 1):
        match.start_deal()
        play_out(match, rng)
    assert [deal.dealer for deal in match.deals] == [(first + i) % players for i in range(2 * players + 1)]
    assert [result.dealer for result in match.results] == [deal.dealer for deal in match.deals]
    assert match.next_dealer == (first + 2 * players + 1) % players


def test_r2_3_the_deal_passes_left_after_a_dead_deal() -> None:
    rules = RuleSet(max_rebuilds=0)
    match = Match(rules, 3, chance=SeededChance(3), dealer=1)
    match.start_deal(dead_deck(3, 1, 1))
    pass_to_the_end(match)
    assert match.results[-1].outcome.dead
    assert match.start_deal().dealer == 2


# -- R8 across deals -----------------------------------------------------------------------


def test_r8_2_stakes_go_into_the_pot_at_the_start_of_each_deal() -> None:
    match = Match(RuleSet(stake=2), ["A", "B", "C"], balances=[50, 60, 70], pot=1, chance=SeededChance(2))
    deal = match.start_deal()
    assert match.balances == (48, 58, 68)
    assert match.pot == 7
    assert deal.balances == (48, 58, 68)  # the deal sees the chips after the stakes (R9.1)
    assert deal.pot == 7
    play_out(match, random.Random(2))
    result = match.results[-1]
    assert (result.balances, result.pot) == (match.balances, match.pot)
    if not result.outcome.dead:
        assert match.pot == 0
        gain = [after - before for after, before in zip(match.balances, (48, 58, 68), strict=True)]
        assert sum(gain) == 7
        assert all((g > 0) == (seat in result.outcome.winners) for seat, g in enumerate(gain))


def test_r8_2_default_balances_and_pot() -> None:
    match = Match(PAGAT, ["A", "B"])
    assert match.balances == (100, 100)
    assert match.pot == 0
    assert match.players == ("A", "B")
    assert Match(PAGAT, 3).players == ("Player 1", "Player 2", "Player 3")


def test_r8_4_scale_match_has_no_pot() -> None:
    rules = RuleSet(payout="scale")
    match = Match(rules, 3, chance=SeededChance(4), dealer=0)
    deck = make_deck(3, 0, {1: "Jc Jd 7h 7s 4c"}, upcard="3s", stock="4d")
    deal = match.start_deal(deck)
    assert (match.balances, match.pot) == ((100, 100, 100), 0)
    match.apply(Action.parse("draw stock"))
    match.apply(Action.parse("call"))  # Paiute on the first turn: 2 x 25 from each loser
    pass_turn(match)
    pass_turn(match)
    assert deal.is_over
    assert match.balances == (50, 200, 50)
    assert match.pot == 0


def test_r8_5_dead_deal_pot_is_carried_to_the_next_deal() -> None:
    rules = RuleSet(max_rebuilds=0, stake=3)
    match = Match(rules, 4, chance=SeededChance(5), dealer=0)
    match.start_deal(dead_deck(4, 0, 5))
    assert match.pot == 12
    pass_to_the_end(match)
    assert match.results[-1].outcome.dead
    assert match.balances == (97, 97, 97, 97)
    assert match.pot == 12
    match.start_deal(dead_deck(4, 1, 6))
    assert match.pot == 24
    assert match.balances == (94, 94, 94, 94)
    # A royal flush for the next dealer's left wins both deals' stakes.
    deck = make_deck(4, 2, {3: "Ah Kh Qh Jh Th"}, upcard="3s", seed=7)
    pass_to_the_end(match)
    match.start_deal(deck)
    assert match.pot == 36
    drawn = match.apply(Action.parse("draw stock")).card
    match.apply(Action.call(drawn))
    pass_to_the_end(match)
    assert len(match.results) == 3
    assert match.results[-1].outcome.winners == (3,)
    assert match.pot == 0
    assert match.balances == (91, 91, 91, 91 + 36)


@given(st.integers(0, 2**32 - 1))
def test_r8_6_chips_are_conserved_over_a_match(seed: int) -> None:
    rng = random.Random(seed)
    rules, players = random_rules(rng)
    rules = rules.replace(stake=rng.randint(0, 5), unit=rng.randint(0, 30))
    balances = [rng.randint(0, 200) for _ in range(players)]
    pot = rng.randint(0, 10)
    total = sum(balances) + pot
    match = Match(rules, players, balances=balances, pot=pot, chance=SeededChance(seed))
    for _ in range(3):
        match.start_deal()
        assert sum(match.balances) + match.pot == total
        play_out(match, rng)
        assert sum(match.balances) + match.pot == total
        result = match.results[-1]
        assert sum(result.balances) + result.pot == total
        if rules.payout == "scale":
            assert match.pot == pot


# -- the match's own errors -------------------------------------------------------------------


def test_r7_3_a_new_deal_waits_for_the_current_one_to_end() -> None:
    match = Match(PAGAT, 3, chance=SeededChance(8))
    match.start_deal()
    with pytest.raises(PaiuteError, match=r"R7\.3"):
        match.start_deal()


def test_apply_before_any_deal_refused() -> None:
    with pytest.raises(PaiuteError):
        Match(PAGAT, 3).apply(Action.parse("draw stock"))


def test_r2_1_match_table_size_and_balances_checked() -> None:
    with pytest.raises(RulesError):
        Match(PAGAT, 6)
    with pytest.raises(RulesError):
        Match(PAGAT, ["solo"])
    with pytest.raises(PaiuteError):
        Match(PAGAT, 3, balances=[100, 100])
    assert len(Match(RuleSet(max_players=8), 8).players) == 8


def test_start_deal_with_a_given_deck() -> None:
    deck = make_deck(3, 1, seed=9)
    match = Match(PAGAT, 3, chance=SeededChance(9), dealer=1)
    deal = match.start_deal(deck)
    assert deal.deck == tuple(deck)
    assert match.deal is deal


# -- R10.1 ----------------------------------------------------------------------------------


def test_r10_1_match_defaults_to_the_secure_source() -> None:
    assert isinstance(Match(PAGAT, 3).chance, SecureChance)
    decks = {Match(PAGAT, 3).start_deal().deck for _ in range(5)}
    assert len(decks) == 5


def test_r10_1_same_seed_same_actions_same_match() -> None:
    def run(seed: int) -> list[tuple[object, ...]]:
        match = Match(PAGAT, 4, chance=SeededChance(seed))
        rng = random.Random(seed)
        for _ in range(3):
            match.start_deal()
            play_out(match, rng)
        return [
            (deal.dealer, deal.deck, deal.rebuild_orders, deal.actions, result.balances, result.pot)
            for deal, result in zip(match.deals, match.results, strict=True)
        ]

    assert run(11) == run(11)
    assert run(11) != run(12)


# -- the shared conformance records, through Match ----------------------------------------


@pytest.mark.skipif(not OK_RECORDS, reason="no shared conformance records")
@pytest.mark.parametrize("path", OK_RECORDS, ids=lambda path: path.stem)
def test_conformance_records_replay_through_match(path: Path) -> None:
    record = json.loads(path.read_text())
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    assert expected["ok"]
    rules = RuleSet.from_dict(record["rules"])
    first = record["deals"][0]["dealer"]
    match = Match(rules, record["players"], balances=record["balances"], pot=record["pot"], dealer=first)
    for data, want in zip(record["deals"], expected["deals"], strict=True):
        assert match.next_dealer == data["dealer"]  # R2.3: the deal passes to the left
        orders = [parse_cards(order) for order in data["rebuilds"]]
        deal = match.start_deal(parse_cards(data["deck"]), chance=RecordedChance(orders))
        assert deal.dealer == data["dealer"]
        for text in data["actions"]:
            match.apply(Action.parse(text))
        assert deal.is_over
        assert deal.outcome is not None
        assert deal.outcome.dead == want["dead"]
        assert [
            (c.seat, sorted(str(x) for x in c.shown), c.value.to_json(), c.first_turn)
            for c in deal.outcome.calls
        ] == [(c["seat"], sorted(c["cards"]), c["value"], c["first_turn"]) for c in want["callers"]]
        assert list(deal.outcome.winners) == sorted(want["winners"])
        assert list(match.balances) == want["balances"]
        assert match.pot == want["pot"]
