"""Hints (paiute.analysis.hint): the move is the expert's unless the playouts show another better beyond
their noise (then the best of those), each discard's feed chance is the expert's guard's, the
outs equal a brute-force count, the hint sees only the seat's observation (R9), and asking for
one changes nothing the bots do."""

from __future__ import annotations

import itertools
import json
import math
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import choose, make_deal, play, random_deal
from paiute import Action, Card, Deal, Evaluator, Match, RuleSet, SeededChance, pack
from paiute.analysis.hint import (
    HINT_LEVEL,
    Hint,
    PositionError,
    assess,
    draw_chance,
    hint,
    position_before,
    position_seed,
)
from paiute.events import Phase
from paiute.i18n import translator
from paiute.observation import Observation
from paiute.players import PlayerError, make_player
from paiute.players.feed import FeedModel
from paiute.record import Record, save
from paiute.tui.hint_view import FEED_WORTH_SAYING, hint_lines
from paiute.tui.session import PlayConfig, SeatSpec, Session

ROOT = Path(__file__).resolve().parent.parent
CARD_TEXT = re.compile(r"^(?:[2-9TJQKA][cdhs]|Jk[12])$")


def _position(seed: int, *, phase: str = "discard", rules: RuleSet | None = None, players: int = 3) -> Deal:
    """A seeded deal played by greedy up to a position of ``phase`` with several moves."""
    deal = Deal.new(
        rules or RuleSet(),
        players=players,
        dealer=0,
        chance=SeededChance(seed),
        balances=[20] * players,
        pot=players,
    )
    bots = [make_player("greedy", seed=seed * 7 + seat) for seat in range(players)]
    steps = 0
    while not deal.is_over and steps < 60:
        if deal.phase.value == phase and steps >= 2 * seed % 5:
            return deal
        deal.apply(bots[deal.current_seat].act(deal.observation(deal.current_seat)))
        steps += 1
    pytest.skip("the deal ended before the position")


def _visible(obs: Observation) -> set[Card]:
    """Every card the seat may see (R9.1, R9.2), written out plainly from the observation."""
    cards = set(obs.hand) | set(obs.discard_pile)
    if obs.stock_bottom is not None:
        cards.add(obs.stock_bottom)  # the upcard, face up under the stock (R2.6)
    if obs.upcard is not None and not obs.rules.upcard_under_stock:
        cards.add(obs.upcard)  # out of play, face up (R2.6, gamerules)
    for call in obs.calls:
        cards.update(call.shown)
    for known in obs.known_cards:
        cards.update(known)
    return cards


def _brute_outs(obs: Observation, keeps: tuple[Card, ...], paiute_ok: bool) -> list[Card]:
    """Every unseen card that, added to ``keeps``, makes a call the rules allow then."""
    evaluator = Evaluator(obs.wild_cards, royal_high=obs.rules.royal_high)
    floor = obs.highest_call
    visible = _visible(obs)
    found = []
    for card in pack(obs.rules.jokers):
        if card in visible:
            continue
        call = evaluator.best([*keeps, card])
        if call is None:
            continue
        if call.value.category.value == "paiute" and not paiute_ok:  # R5.7
            continue
        if floor is not None and call.value < floor:  # R6.4
            continue
        found.append(card)
    return sorted(found)


# -- the best move ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3, 5, 8])
def test_the_hint_is_always_the_experts_move_and_the_playouts_explain_it(seed: int) -> None:
    # Overruling the expert where the playouts showed another move better, even beyond their
    # noise, cost chips against the expert's move itself (benchmarks/hint_strength.py).
    for phase in ("draw", "discard"):
        deal = _position(seed, phase=phase)
        obs = deal.observation(deal.current_seat)
        found = hint(obs, playouts=6, draw_playouts=1, seed=seed)
        assert found.expert == make_player(HINT_LEVEL, seed=seed).act(obs)  # the expert level's move
        assert found.recommended == found.expert
        assert found.versus(found.expert) == (0.0, 0.0, 0.0)
        # The moves the paired playouts show better than the expert's, with 95% confidence.
        beaten = [e for e in found.estimates if found.versus(e.action)[1] > 0]
        if beaten:
            assert found.beyond_noise == max(beaten, key=lambda e: found.versus(e.action)[0]).action
        else:
            assert found.beyond_noise is None
        data = found.to_json()
        assert data["recommended"] == str(found.recommended)
        assert data["expert"] == str(found.expert)
        assert data["beyond_noise"] == (None if found.beyond_noise is None else str(found.beyond_noise))
        rows = data["actions"]
        assert isinstance(rows, list)
        assert [row["action"] for row in rows] == [str(a) for a in deal.legal_actions()]
        for row, estimate in zip(rows, found.estimates, strict=True):
            mean, low, high = found.versus(estimate.action)
            assert row["versus_expert"] == {
                "mean": round(mean, 3),
                "low": round(low, 3),
                "high": round(high, 3),
            }


def _rated(found: Hint, other: Action, versus: tuple[float, float, float]) -> Hint:
    """``found`` with ``other`` shown ``versus`` the expert's move (its mean raised to match)."""
    base = found.best.mean
    estimates = tuple(
        replace(e, mean=base + versus[0]) if e.action == other else replace(e, mean=min(e.mean, base))
        for e in found.estimates
    )
    paired = tuple(versus if e.action == other else (0.0, 0.0, 0.0) for e in found.estimates)
    return replace(found, estimates=estimates, versus_expert=paired)


def test_a_move_rated_higher_beyond_the_noise_is_named_and_the_hint_says_why_it_keeps_the_experts() -> None:
    deal = _position(2)
    obs = deal.observation(deal.current_seat)
    found = hint(obs, playouts=4, draw_playouts=1, seed=2)
    other = next(e.action for e in found.estimates if e.action != found.expert)
    beyond = _rated(found, other, (0.3, 0.1, 0.5))
    assert beyond.beyond_noise == other
    assert beyond.to_json()["beyond_noise"] == str(other)  # --json and the web page's
    assert beyond.recommended == found.expert
    lines = hint_lines(beyond, obs, ("Ana", "Bo", "Cy"))
    text = "\n".join(lines)
    assert "(the expert's move; below, each of the" in text
    # One sentence names the move, by how much and why the hint keeps the expert's.
    (why,) = [line for line in lines if "rate another move higher" in line]
    assert "by +0.30 chips [+0.10, +0.50], beyond their noise; the hint still keeps the expert's move" in why
    assert "moves chosen by the playouts lost chips against the expert's in play" in why
    assert "within their noise" not in text
    within = _rated(found, other, (0.3, -0.1, 0.7))
    assert within.beyond_noise is None
    lines = hint_lines(within, obs, ("Ana", "Bo", "Cy"))
    (why,) = [line for line in lines if "rate another move higher" in line]
    assert (
        "by +0.30 chips, but that is within their noise (4 playouts); the hint keeps the expert's move" in why
    )
    assert "lost chips in play" not in "\n".join(lines)
    # The recommended move heads the table even below the move rated higher.
    table = lines[lines.index(next(line for line in lines if line.startswith("Chips you expect"))) + 1 :]
    assert table[0].endswith("<- the hint")
    assert len(table) == len(found.estimates)


def test_the_hints_first_line_counts_its_playouts_in_the_right_plural() -> None:
    deal = _position(2)
    obs = deal.observation(deal.current_seat)
    for playouts, english, romanian in ((1, "1 time).", "1 simulare)."), (4, "4 times).", "4 simulări).")):
        found = hint(obs, playouts=playouts, draw_playouts=1, seed=2)
        assert hint_lines(found, obs, ("Ana", "Bo", "Cy"))[0].endswith(f"played out {english}")
        assert hint_lines(found, obs, ("Ana", "Bo", "Cy"), tr=translator("ro"))[0].endswith(romanian)


@pytest.mark.parametrize("preset", ["pagat", "gamerules"])
def test_r4_2_each_discard_before_a_call_has_the_experts_feed_chance(preset: str) -> None:
    rules = RuleSet.from_preset(preset)
    for seed in (1, 2, 4):
        deal = _position(seed, rules=rules, players=4)
        obs = deal.observation(deal.current_seat)
        found = hint(obs, playouts=1, draw_playouts=0, seed=seed)
        if obs.calls:
            continue  # the last round (R7.2): no feed chance, checked below
        assert found.feed_seat == (obs.seat + 1) % 4 if obs.seat is not None else False
        discards = [e.action for e in found.estimates if e.action.kind.value == "discard"]
        expected = FeedModel.shipped(obs.rules, obs.players).chances(
            obs, [a.card for a in discards if a.card is not None]
        )
        assert [found.feed(action) for action in discards] == expected
        for estimate in found.estimates:
            if estimate.action.kind.is_call:
                assert found.feed(estimate.action) is None
        rows = found.to_json()["actions"]
        assert isinstance(rows, list)
        assert [row["feed"] for row in rows] == [None if f is None else round(f, 4) for f in found.feeds]
    draw = _position(3, phase="draw", rules=rules, players=4)
    found = hint(draw.observation(draw.current_seat), playouts=1, draw_playouts=0, seed=3)
    assert found.feed_seat is None
    assert set(found.feeds) == {None}


def test_r7_2_no_feed_chance_in_the_last_round() -> None:
    # Seat 1 calls; seat 2 draws in the last round and discards: the model is of play before any call.
    deal = make_deal(RuleSet(), 3, 0, {1: "Qc Qd Qh Qs 9c", 2: "Jc Jd 7h 7s 4c"}, upcard="2d", stock="9d 5s")
    play(deal, "draw stock", "call", "draw stock")
    obs = deal.observation(deal.current_seat)
    assert obs.calls
    assert obs.phase is Phase.DISCARD
    found = hint(obs, playouts=1, draw_playouts=0, seed=1)
    assert found.feed_seat is None
    assert set(found.feeds) == {None}


def _with_feeds(found: Hint, risky: Action, chance: float) -> Hint:
    feeds = tuple(
        (chance if e.action == risky else 0.01) if e.action.kind.value == "discard" else None
        for e in found.estimates
    )
    return replace(found, feeds=feeds, feed_seat=(found.seat + 1) % 3)


def test_r4_2_the_hint_says_in_words_which_discard_could_feed_the_next_player() -> None:
    deal = _position(2)
    obs = deal.observation(deal.current_seat)
    found = hint(obs, playouts=2, draw_playouts=1, seed=2)
    names = ("Ana", "Bo", "Cy")
    follower = names[(found.seat + 1) % 3]
    other = next(
        e.action for e in found.estimates if e.action != found.recommended and e.action.card is not None
    )
    text = "\n".join(hint_lines(_with_feeds(found, other, 0.37), obs, names))
    assert f"Not {other.card}: the next player, {follower}, could call at once with it about 37%" in text
    assert "(next player could call with it: 37%)" in text
    assert "(next player could call with it: 1%)" in text
    text = "\n".join(hint_lines(_with_feeds(found, found.recommended, 0.25), obs, names))
    assert f"The next player, {follower}, could call at once with {found.recommended.card} about 25%" in text
    quiet = "\n".join(hint_lines(_with_feeds(found, other, FEED_WORTH_SAYING / 2), obs, names))
    assert "could call at once" not in quiet


def test_only_the_seat_to_move_gets_a_hint() -> None:
    deal = _position(3)
    with pytest.raises(PlayerError, match="seat to move"):
        hint(deal.observation((deal.current_seat + 1) % 3), playouts=1)


# -- outs --------------------------------------------------------------------------------------


def test_r5_outs_of_a_hand_made_draw_equal_a_brute_force_count() -> None:
    # Threes wild (the upcard 3d under the stock, R2.6): 3h 3s Ad Ac Ks on the first turn.
    deal = make_deal(RuleSet(), 3, 0, {1: "3h 3s Ad Ac Ks", 2: "Kh 7c 7d 8c 9c"}, upcard="3d", stock="2c 4d")
    obs = deal.observation(1)
    found = hint(obs, playouts=1, draw_playouts=2, seed=1)
    assert found.plan is not None
    assert found.plan.keeps == obs.hand
    brute = _brute_outs(obs, obs.hand, paiute_ok=True)
    assert list(found.plan.out_cards) == brute
    assert found.plan.outs == len(brute)
    # The last wild (3c), the two aces and the two kings left unseen: Kh is in seat 2's hand,
    # which seat 1 cannot see, so it counts as an out too (it might be in the stock).
    assert {str(card) for card in brute} >= {"3c", "Ah", "As", "Kd", "Kh"}


def test_r5_7_r6_4_outs_follow_the_paiute_turn_and_the_highest_call() -> None:
    # Seat 1 calls Four/Two queens over nines; seat 2 then draws in the last round (R7.2).
    deal = make_deal(
        RuleSet(),
        3,
        0,
        {1: "Qc Qd Qh Qs 9c", 2: "Jc Jd 7h 7s 4c"},
        upcard="2d",
        stock="9d 5s",
    )
    play(deal, "draw stock", "call")
    obs = deal.observation(2)
    found = hint(obs, playouts=1, draw_playouts=1, seed=2)
    assert found.plan is not None
    brute = _brute_outs(obs, obs.hand, paiute_ok=True)
    assert list(found.plan.out_cards) == brute
    # A Paiute (4d, 4h, 4s) would be lower than the call (R6.4): not an out.
    assert not {"4d", "4h", "4s"} & {str(card) for card in brute}


def test_r6_4_the_same_hand_has_those_outs_before_any_call() -> None:
    deal = make_deal(RuleSet(), 3, 1, {2: "Jc Jd 7h 7s 4c"}, upcard="2d")  # seat 2 draws first
    obs = deal.observation(2)
    found = hint(obs, playouts=1, draw_playouts=1, seed=2)
    assert found.plan is not None
    brute = _brute_outs(obs, obs.hand, paiute_ok=True)
    assert list(found.plan.out_cards) == brute
    # R5.6 on the first turn (R5.7): a four, or a wild two naming one, makes a Paiute.
    assert {str(card) for card in brute} == {"4d", "4h", "4s", "2c", "2h", "2s"}
    assert found.plan.category is not None
    assert found.plan.category.value == "paiute"


@pytest.mark.parametrize(
    ("rules", "hand", "upcard", "expected"),
    [
        # Jokers wild (R3.2): four nines and a king: a joker makes Five of a Kind (2), a
        # king Four/Two (3).
        (RuleSet(jokers=True), "9c 9d 9h 9s Kc", None, 2 + 3),
        # Opposite colour (R3.3): upcard 5h, so only 5c and 5s are wild: Th, 5c or 5s make
        # a straight flush (5h is the upcard, seen under the stock, R2.6).
        (RuleSet(wild_colour="opposite"), "6h 7h 8h 9h 2c", "5h", 3),
        # gamerules: the upcard 4c stays out of play (R2.6) and 3d starts the discard pile
        # (R2.7): Td or a wild 4d 4h 4s make a Royal Flush.
        (RuleSet.from_preset("gamerules"), "Ad Kd Qd Jd 7s", "4c", 4),
    ],
)
def test_r5_outs_of_hand_made_cases_equal_a_brute_force_count(
    rules: RuleSet, hand: str, upcard: str | None, expected: int | None
) -> None:
    deal = make_deal(rules, 2, 0, {1: hand}, upcard=upcard, stock="3d")
    obs = deal.observation(1)
    found = hint(obs, playouts=1, draw_playouts=1, seed=3)
    assert found.plan is not None
    brute = _brute_outs(obs, obs.hand, paiute_ok=True)
    assert brute  # each case has outs
    assert list(found.plan.out_cards) == brute
    assert found.plan.outs == len(brute)
    if expected is not None:
        assert found.plan.outs == expected


@pytest.mark.parametrize("preset", ["pagat", "gamerules"])
def test_outs_equal_a_brute_force_count_on_random_positions_with_outs(preset: str) -> None:
    from paiute.outs import Unseen, completing

    checked = 0
    for seed in range(400):
        rules = RuleSet.from_preset(preset, jokers=seed % 3 == 0)
        deal = Deal.new(rules, 2 + seed % 4, 0, SeededChance(seed), balances=[9] * (2 + seed % 4), pot=4)
        bots = [make_player("greedy", seed=seed) for _ in range(deal.players)]
        for _ in range(seed % 9):
            if deal.is_over:
                break
            deal.apply(bots[deal.current_seat].act(deal.observation(deal.current_seat)))
        if deal.is_over or deal.phase.value != "draw":
            continue
        obs = deal.observation(deal.current_seat)
        evaluator = Evaluator(obs.wild_cards, royal_high=rules.royal_high)
        if not completing(obs.hand, Unseen.of(obs), evaluator):
            continue
        found = hint(obs, playouts=1, draw_playouts=0, seed=seed)
        if found.plan is None:
            continue
        paiute_ok = rules.paiute_allowed_any_turn(obs.players) or obs.first_turn
        assert list(found.plan.out_cards) == _brute_outs(obs, obs.hand, paiute_ok)
        checked += 1
        if checked == 6:
            break
    assert checked >= 3


def test_draw_chance_is_the_hypergeometric_count() -> None:
    for unseen, outs, draws in [(10, 3, 2), (9, 1, 4), (8, 0, 3), (7, 5, 3), (6, 2, 0), (5, 5, 9)]:
        sets = list(itertools.combinations(range(unseen), min(draws, unseen)))
        hits = sum(1 for chosen in sets if any(card < outs for card in chosen))
        expected = hits / len(sets) if draws else 0.0
        assert math.isclose(draw_chance(outs, unseen, draws), expected)


# -- R9: the seat's view only ------------------------------------------------------------------


@pytest.mark.parametrize("seed", [2, 4, 6])
def test_r9_same_hint_when_the_unseen_cards_are_dealt_again(seed: int) -> None:
    deal = _position(seed)
    seat = deal.current_seat
    obs = deal.observation(seat)
    first = hint(obs, playouts=2, draw_playouts=2, seed=9).to_json()
    for other_seed in (99, 100):
        other = deal.resample_hidden(seat, SeededChance(other_seed))  # every unseen card moved
        assert other.observation(seat) == obs
        assert hint(other.observation(seat), playouts=2, draw_playouts=2, seed=9).to_json() == first


def _cards_in(data: object, key: str = "") -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    if isinstance(data, dict):
        for k, v in data.items():
            found += _cards_in(v, k)
    elif isinstance(data, list):
        for v in data:
            found += _cards_in(v, key)
    elif isinstance(data, str):
        for word in data.split():
            if CARD_TEXT.match(word):
                found.append((key, word))
    return found


@pytest.mark.parametrize("seed", [1, 3, 7, 9])
def test_r9_the_json_names_no_card_outside_the_seats_observation(seed: int) -> None:
    for phase in ("draw", "discard"):
        deal = _position(seed, phase=phase)
        obs = deal.observation(deal.current_seat)
        data = hint(obs, playouts=2, draw_playouts=2, seed=seed).to_json()
        visible = {str(card) for card in _visible(obs)}
        unseen = {str(card) for card in pack(obs.rules.jokers)} - visible
        for key, text in _cards_in(data):
            if key == "out_cards":
                assert text in unseen  # a card the seat has not seen: it may be anywhere
            else:
                assert text in {str(card) for card in obs.hand} | set(map(str, obs.discard_pile)), (key, text)


# -- the bots at the table ---------------------------------------------------------------------


def _play_match(ask_hints: bool) -> dict[str, object]:
    config = PlayConfig(
        RuleSet(), (SeatSpec("You"), SeatSpec("G", "greedy"), SeatSpec("R", "random")), seed=5, hint=2
    )
    session = Session(config)
    for _ in range(2):
        session.start_deal()
        while session.in_deal:
            seat = session.current
            assert seat is not None
            if session.is_human(seat):
                if ask_hints:
                    session.hint(seat)
                session.apply(session.observation(seat).legal_actions[-1])
            else:
                session.apply(session.bot_action())
    return Record.from_match(session.match).to_json()


def test_a_hint_changes_nothing_the_bots_do() -> None:
    assert _play_match(ask_hints=True) == _play_match(ask_hints=False)


# -- paiute hint -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    match = Match(RuleSet(), ("Ana", "Bo", "Cy"), balances=[20] * 3, chance=SeededChance(4))
    bots = [make_player("greedy", seed=seat) for seat in range(3)]
    deal = match.start_deal()
    while not deal.is_over:
        match.apply(bots[deal.current_seat].act(deal.observation(deal.current_seat)))
    path = tmp_path_factory.mktemp("hint") / "match.json"
    save(Record.from_match(match), path)
    return path


def _paiute(*args: str) -> subprocess.CompletedProcess[str]:
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    return subprocess.run(
        [sys.executable, "-m", "paiute", "hint", *args], capture_output=True, text=True, env=env, timeout=120
    )


def test_cli_hint_json_equals_the_hint_of_the_position(record_file: Path) -> None:
    # Deal 1, move 2 as people count them: the record's deal 0, action 1 (--json's indexes).
    result = _paiute(
        str(record_file), "--deal", "1", "--move", "2", "--playouts", "2", "--draw-playouts", "1", "--json"
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    obs = position_before(Record.loads(record_file.read_bytes()), 0, 1)
    # Seeded from --seed (0), the deal and the move, as paiute review seeds that decision.
    seed = position_seed(0, 0, 1)
    assert data == {"deal": 0, "action": 1, **hint(obs, playouts=2, draw_playouts=1, seed=seed).to_json()}
    assert data["format"] == "paiute-hint/2"
    text = _paiute(str(record_file), "--deal", "1", "--move", "2", "--playouts", "2", "--draw-playouts", "1")
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("Deal 1, before move 2: ")
    assert "Hint: " in text.stdout
    assert (
        "Chips you expect to win or lose this deal with each move, after your stake (0 is break-even)"
        in text.stdout
    )


def test_cli_hint_refuses_a_position_that_is_not_there(record_file: Path, tmp_path: Path) -> None:
    moves = len(Record.loads(record_file.read_bytes()).deals[0].actions)  # a finished deal
    for deal, move, said in [
        ("7", "1", "--deal 7: this record has 1 deal: choose 1"),
        ("0", "1", "--deal 0: this record has 1 deal: choose 1"),  # deals are counted from 1
        ("1", "0", f"--move 0: choose a move of deal 1 from 1 to {moves}"),
        ("1", str(moves + 1), f"--move {moves + 1}: choose a move of deal 1 from 1 to {moves}"),
    ]:
        missing = _paiute(str(record_file), "--deal", deal, "--move", move)
        assert missing.returncode == 2
        assert missing.stderr == f"paiute hint: error: {said}\n"
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "nope"}')
    invalid = _paiute(str(bad), "--deal", "1", "--move", "1")
    assert invalid.returncode == 1
    assert "invalid record" in invalid.stderr
    with pytest.raises(PositionError):
        position_before(Record.loads(record_file.read_bytes()), 0, 10_000)


def test_a_hint_is_repeatable_under_a_seed() -> None:
    deal = _position(4)
    obs = deal.observation(deal.current_seat)
    first: Hint = hint(obs, playouts=2, draw_playouts=3, seed=3)
    assert hint(obs, playouts=2, draw_playouts=3, seed=3) == first
    assert isinstance(first.recommended, Action)


def test_r5_7_two_cards_away_counts_no_paiute_past_the_first_turn() -> None:
    # 2h 4c 8c* Th Qh (eights wild): two more cards make a Paiute most often, but the second
    # of them comes after the first turn, when a Paiute may no longer be called (R5.7).
    deal = make_deal(RuleSet(), 3, 0, {1: "2h 4c 8c Th Qh"}, upcard="8d")
    plan = hint(deal.observation(1), playouts=1, draw_playouts=2, seed=1).plan
    assert plan is not None
    assert plan.cards_away == 2
    assert plan.category is not None
    assert plan.category.value != "paiute"
    assert set(map(str, plan.uses)) <= {"8c", "Th", "Qh"}  # the cards of that combination
    anytime = make_deal(RuleSet(paiute_any_turn=True), 3, 0, {1: "2h 4c 8c Th Qh"}, upcard="8d")
    plan = hint(anytime.observation(1), playouts=1, draw_playouts=2, seed=1).plan
    assert plan is not None
    assert plan.category is not None
    assert plan.category.value == "paiute"


def test_r7_1_a_call_by_the_dealer_with_nobody_after_it_wins_for_certain() -> None:
    deal = make_deal(
        RuleSet(), 2, 0, {0: "Qc Qd Qh Qs 9c"}, upcard="2d", stock="5s 9d", balances=[9, 9], pot=2
    )
    play(deal, "draw stock", "discard 5s", "draw stock")  # the dealer, seat 0, holds Q Q Q Q 9 9
    found = hint(deal.observation(0), playouts=2, draw_playouts=1, seed=1)
    odds = found.call_odds(Action.parse("call"))
    assert odds is not None
    assert odds.still_to_play == ()
    assert odds.certain
    assert odds.chance == 1.0
    assert odds.wins == odds.samples  # the playouts agree: the deal ends at once (R7.1)


def test_r7_2_a_call_lists_the_seats_still_to_play() -> None:
    deal = make_deal(RuleSet(), 4, 3, {0: "Qc Qd Qh Qs 9c"}, upcard="2d", stock="9d")
    play(deal, "draw stock")  # seat 0 (the dealer's left) holds Q Q Q Q 9 9 on its first turn
    found = hint(deal.observation(0), playouts=2, draw_playouts=1, seed=1)
    odds = found.call_odds(Action.parse("call"))
    assert odds is not None
    assert odds.still_to_play == (1, 2, 3)  # up to and including the dealer (R7.2)
    assert not odds.certain
    assert 0.0 <= odds.low <= odds.chance <= odds.high <= 1.0


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 40), pick=st.integers(0, 5))
def test_every_out_and_only_outs_on_random_positions(seed: int, steps: int, pick: int) -> None:
    """paiute.outs (shared by greedy and the hints): for any five cards a seat may keep, the
    completing cards are exactly the unseen cards with which the evaluator finds a call (R5),
    and the unseen cards are exactly the pack less what the seat may see (R9)."""
    from paiute.outs import Unseen, completing

    deal, rng = random_deal(seed)
    for _ in range(steps):
        if deal.is_over:
            break
        deal.apply(choose(rng, deal.legal_actions(), call_bias=0.05))
    seat = deal.current_seat
    obs = deal.observation(seat)
    unseen = Unseen.of(obs)
    assert set(unseen.cards) == set(pack(obs.rules.jokers)) - _visible(obs)
    hand = list(obs.hand)
    if len(hand) == 6:
        hand.pop(pick % 6)
    if len(hand) != 5:
        return
    evaluator = Evaluator(obs.wild_cards, royal_high=obs.rules.royal_high)
    found: dict[Card, int] = {}
    for out in completing(hand, unseen, evaluator):
        for card in out.cards:
            assert card not in found  # each unseen card in one group
            found[card] = out.code
    brute = {card: evaluator.best_code([*hand, card]) for card in unseen.cards}
    assert found == {card: code for card, code in brute.items() if code}


# -- the figures a player reads -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "paid"), [(RuleSet(), 1), (RuleSet(stake=3), 3), (RuleSet(payout="scale"), 0)]
)
def test_r8_2_each_moves_figure_is_net_chips_after_the_stake(rules: RuleSet, paid: int) -> None:
    # What the seat ends the deal with less what it put in (R8.2: the stake; R8.4: nothing), so
    # break-even is 0: the playouts' values (chips from now on) less the stake paid.
    deal = _position(2, rules=rules)
    obs = deal.observation(deal.current_seat)
    assessed = assess(obs, playouts=3, seed=4)
    assert assessed.paid == paid
    for net, raw in zip(assessed.estimates, assessed.estimated.estimates, strict=True):
        assert (net.mean, net.low, net.high) == (raw.mean - paid, raw.low - paid, raw.high - paid)
    found = hint(obs, playouts=3, draw_playouts=0, seed=4)
    assert found.estimates == assessed.estimates
    assert found.to_json()["paid"] == paid
    rows = found.to_json()["actions"]
    assert isinstance(rows, list)
    assert [row["net"] for row in rows] == [round(e.mean, 3) for e in assessed.estimates]


def test_the_table_of_moves_is_headed_by_the_hint_in_one_format_and_fixed_columns() -> None:
    deal = _position(3)
    obs = deal.observation(deal.current_seat)
    found = hint(obs, playouts=4, draw_playouts=0, seed=2)
    for lang, number in (("en", r"[+-]\d+\.\d\d"), ("ro", r"[+-]\d+,\d\d"), ("bn", r"[+-][০-৯]+\.[০-৯]{2}")):
        lines = hint_lines(found, obs, ("Ana", "Bo", "Cy"), tr=translator(lang))
        table = lines[-len(found.estimates) :]
        figures = [re.match(rf"  ( *{number}) \[( *{number}), ( *{number})\]  ", row) for row in table]
        assert all(figures), table
        # Every column as wide in every row: the figures line up.
        assert len({tuple(len(group) for group in match.groups()) for match in figures if match}) == 1
        assert len({row.index("]") for row in table}) == 1
    english = hint_lines(found, obs, ("Ana", "Bo", "Cy"))
    assert english[-len(found.estimates)].endswith("<- the hint")
    means = [e.mean for e in found.ordered]
    assert found.ordered[0].action == found.recommended
    assert means[1:] == sorted(means[1:], reverse=True)


def test_the_terminal_hint_gives_the_figures_of_the_deals_review() -> None:
    # paiute play seeds a hint from the deal and the move, as the deal's review (seed 0, the
    # hint's playouts) seeds that decision: the same figures in both.
    from paiute.analysis.review import review_record

    config = PlayConfig(
        RuleSet(), (SeatSpec("You"), SeatSpec("G", "greedy"), SeatSpec("R", "greedy")), seed=3, hint=4
    )
    session = Session(config)
    session.start_deal()
    told: dict[int, Hint] = {}
    while session.in_deal:
        seat = session.current
        assert seat is not None
        if session.is_human(seat):
            deal = session.match.deal
            assert deal is not None
            found = session.hint(seat)
            told[len(deal.actions)] = found
            session.apply(found.ordered[-1].action)  # not always the hint's move
        else:
            session.apply(session.bot_action())
    review = review_record(Record.from_match(session.match), seats=[0], deal=0, playouts=4)
    assert review.decisions
    for decision in review.decisions:
        found = told[decision.action]
        nets = {e.action: e.mean for e in found.estimates}
        assert (nets[decision.played], nets[decision.best]) == (decision.net_played, decision.net_best)
