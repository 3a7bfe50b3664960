"""The experiments ``research/decision_value.py``, ``belief_bound.py``, ``belief_quality.py``,
``learned_belief.py``, ``feed_bound.py``, ``feed_learned.py`` and ``policy_agreement.py`` run
and report: never a margin or a timing, only that every variant gets a row from the same
decisions."""

from __future__ import annotations

import importlib
import sys
from dataclasses import replace
from itertools import combinations
from types import ModuleType

import pytest

from paiute import Deal, RuleSet, SeededChance
from paiute.evaluator import Evaluator
from paiute.events import Phase
from paiute.greedy_weights import PAIUTE
from paiute.observation import Observation
from paiute.players.greedy import GreedyPlayer

pytest.importorskip("numba")


def _script(name: str) -> ModuleType:
    return importlib.import_module(f"research.{name}")


def test_decision_value_scores_every_variant_on_the_same_decisions() -> None:
    script = _script("decision_value")
    variants = ["ranks", "uniform@1/8", "moves#g/4", "exact", "expert", "ranks+e@1.96/8"]
    gains, kinds = script.play_game((3, "gamerules", 6, 12, variants, "playout"))
    counts = {len(values) for values in gains.values()}
    assert counts == {len(kinds)}
    assert len(kinds) > 5
    assert set(gains) == set(variants)
    assert set(kinds) <= set(script.KINDS)
    # The expert (guarded) leaves greedy's move on discards only (R4.2): never on a draw.
    assert all(gain == 0.0 for gain, kind in zip(gains["expert"], kinds, strict=True) if "draw" in kind)


def _refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str, *args: str
) -> str:
    """What the script ``name`` says on stderr when it refuses ``args`` (it must exit)."""
    script = _script(name)
    monkeypatch.setattr(sys, "argv", [f"{name}.py", *args])
    with pytest.raises(SystemExit):
        script.main()
    return capsys.readouterr().err


def test_decision_value_refuses_a_bad_variant(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "bad variant 'psychic'" in _refused(
        monkeypatch, capsys, "decision_value", "--variants", "ranks,psychic"
    )


@pytest.mark.parametrize(
    ("name", "args", "said"),
    [
        ("decision_value", ["--games", "0"], "--games must be at least 1, not 0"),
        (
            "decision_value",
            ["--determinizations", "0"],
            "--determinizations must be from 1 to 1000000, not 0",
        ),
        ("decision_value", ["--exact", "2000000"], "--exact must be from 1 to 1000000, not 2000000"),
        ("decision_value", ["--workers", "0"], "--workers must be from 1 to 64, not 0"),
        ("decision_value", ["--preset", "nope"], "invalid choice: 'nope'"),
        ("belief_bound", ["--boards", "1"], "--boards must be at least 2 (an interval needs two), not 1"),
        ("belief_bound", ["--determinizations", "0"], "--determinizations must be from 1 to 1000000, not 0"),
        ("belief_bound", ["--workers", "65"], "--workers must be from 1 to 64, not 65"),
        ("belief_bound", ["--eps", "1.5"], "--eps between 0 and 1"),
        ("belief_bound", ["--preset", "nope"], "invalid choice: 'nope'"),
        (
            "belief_bound",
            ["--variants", "inference", "--continuation", "guard"],
            "--continuation plays the feed variant's playouts",
        ),
        ("belief_bound", ["--continuation", "psychic"], "invalid choice: 'psychic'"),
        ("guard_playouts", [], "the playouts run through belief_bound.py --continuation"),
        ("guard_playouts", ["--calibrate", "0"], "--calibrate must be at least 1, not 0"),
        ("guard_playouts", ["--calibrate", "5", "--workers", "0"], "--workers must be from 1 to 64, not 0"),
    ],
)
def test_a_count_out_of_range_is_refused_in_one_line_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str, args: list[str], said: str
) -> None:
    # --boards 0 divided by zero, --workers 0 was the process pool's ValueError.
    error = _refused(monkeypatch, capsys, name, *args)
    assert said in error
    assert "Traceback" not in error


def test_belief_bound_plays_a_board_with_each_belief() -> None:
    script = _script("belief_bound")
    ratio = script.calibrate("pagat", 2, 5, 1)
    assert ratio.shape == (script.BUCKETS, script.PROFILES)
    assert (ratio > 0).all()
    learned = _script("learned_belief")
    coefficients = learned.fit(*learned.collect("pagat", 2, 5, 1))
    setup = script.Setup(4, "playout", "pagat", 5, (2, 8, 0.1), None, ratio, coefficients)
    for variant in script.VARIANTS:
        if variant != "kept":  # kept plays the --keep bot: below
            chips = script.play_board((1, variant, setup))
            assert isinstance(chips, float)
    kept = replace(setup, keep=("guarded", 1.0))
    for variant in ("kept", "feed"):
        assert isinstance(script.play_board((1, variant, kept)), float)


def test_r4_2_r7_2_belief_bound_feed_searches_only_the_throws_before_a_call() -> None:
    # R4.2, R7.2: only a throw before any call can feed the next player; every other decision
    # of the feed variant is the kept bot's.
    script = _script("belief_bound")
    setup = script.Setup(8, "playout", "gamerules", 5, keep=("guarded", 1.0))
    deal = Deal.new(RuleSet.from_preset("gamerules"), players=4, dealer=0, chance=SeededChance(3))
    searched = 0
    while not deal.is_over:
        observation = deal.observation(deal.current_seat)
        feed = script.BeliefBot("feed", setup, 11).act(observation)
        kept = script.BeliefBot("kept", setup, 11).act(observation)
        if observation.phase is Phase.DISCARD and not observation.calls:
            searched += 1
            assert feed in observation.legal_actions
        else:
            assert feed == kept
        deal.apply(kept)
    assert searched > 0


def test_belief_bound_profiles_count_pairs_the_top_rank_and_wild_cards() -> None:
    import numpy as np

    from paiute.cards import parse_cards

    script = _script("belief_bound")

    wild = np.zeros(54, dtype=np.bool_)
    wild[[int(card) for card in parse_cards("3c 3d 3h 3s")]] = True
    hands = np.array(
        [
            [int(card) for card in parse_cards(text)]
            for text in ("Ah Ad 7c 7s 9d", "Ah Ad As 3c 9d", "2c 5d 8h Js Kc")
        ]
    )
    assert script.profiles(hands, wild).tolist() == [
        2 * 12 + 2 * 3 + 0,
        1 * 12 + 3 * 3 + 1,
        0 * 12 + 1 * 3 + 0,
    ]


def test_decision_value_can_value_the_true_deal_with_greedy_playouts() -> None:
    script = _script("decision_value")
    variants = ["ranks", "exact"]
    by_playout = script.play_game((3, "gamerules", 6, 12, variants, "playout"))
    by_greedy = script.play_game((3, "gamerules", 6, 12, variants, "greedy"))
    assert by_greedy[1] == by_playout[1]  # the same decisions, valued by other playouts
    assert {len(values) for values in by_greedy[0].values()} == {len(by_greedy[1])}


def test_belief_bound_plays_with_the_factors_asked_for() -> None:
    script = _script("belief_bound")
    setup = script.Setup(4, "playout", "gamerules", 5, factors=(0.3, 0.5, 3.0))
    chips = script.play_board((2, "inference", setup))
    assert isinstance(chips, float)


def test_belief_bound_refuses_bad_factors(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    error = _refused(monkeypatch, capsys, "belief_bound", "--factors", "0.5,lots")
    assert "--factors wants THREW,PASSED,TOOK (three numbers), not '0.5,lots'" in error
    for hostile in ("0,0.8,1.6", "-1,0.8,1.6", "nan,1,1", "inf,1,1"):
        error = _refused(monkeypatch, capsys, "belief_bound", f"--factors={hostile}")
        assert f"--factors must be positive finite numbers, not '{hostile}'" in error
    assert "--calibrate must be at least 1, not 0" in _refused(
        monkeypatch, capsys, "belief_bound", "--variants", "structure", "--calibrate", "0"
    )
    assert "--train must be at least 1, not -3" in _refused(
        monkeypatch, capsys, "belief_bound", "--variants", "learned", "--train", "-3"
    )
    assert "give --keep BOT:Z" in _refused(monkeypatch, capsys, "belief_bound", "--variants", "kept")
    assert "--keep wants BOT:Z, such as guarded:1, not 'guarded'" in _refused(
        monkeypatch, capsys, "belief_bound", "--variants", "feed", "--keep", "guarded"
    )
    assert "unknown player 'psychic'" in _refused(
        monkeypatch, capsys, "belief_bound", "--variants", "feed", "--keep", "psychic:1"
    )
    assert "--keep's Z must be a finite number, not negative, not 'nan'" in _refused(
        monkeypatch, capsys, "belief_bound", "--variants", "feed", "--keep", "guarded:nan"
    )


def test_policy_agreement_reports_every_kind_it_met(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = _script("policy_agreement")
    monkeypatch.setattr(sys, "argv", ["policy_agreement.py", "--preset", "gamerules", "--games", "2"])
    script.main()
    out = capsys.readouterr().out
    assert out.startswith("gamerules, 2 deals of greedy self-play")
    assert " draw " in out
    assert " discard " in out
    assert "% " in out


def test_learned_belief_fit_recovers_a_known_logistic_model() -> None:
    import numpy as np

    learned = _script("learned_belief")
    rng = np.random.default_rng(7)
    x = np.concatenate([np.ones((40_000, 1)), rng.normal(size=(40_000, 3))], axis=1)
    truth = np.array([-1.5, 0.8, -0.4, 0.0])
    y = rng.random(40_000) < 1 / (1 + np.exp(-(x @ truth)))
    assert np.abs(learned.fit(x, y, ridge=0.0) - truth).max() < 0.08


def _greedy_positions(preset: str, deals: int) -> list:
    """Observations of the decisions of greedy self-play, 4 seats, with their deals."""
    from paiute import RuleSet
    from paiute.cards import pack
    from paiute.chance import SeededChance
    from paiute.match import Match
    from paiute.players.greedy import GreedyPlayer

    rules = RuleSet.from_preset(preset)
    found = []
    for index in range(deals):
        chance = SeededChance(index)
        deck = pack(rules.jokers)
        chance.shuffle(deck)
        match = Match(rules, list("abcd"), balances=[0] * 4, dealer=index % 4, chance=chance)
        deal = match.start_deal(deck, chance=chance)
        bots = [GreedyPlayer(seed=seat) for seat in range(4)]
        while not deal.is_over:
            observation = deal.observation(deal.current_seat)
            if not observation.rebuilds and len(observation.legal_actions) > 1:
                found.append(observation)
            match.apply(bots[deal.current_seat].act(observation))
    return found


def test_learned_belief_features_read_the_public_facts_they_name() -> None:
    import numpy as np

    from paiute.compiled.search import Position

    learned = _script("learned_belief")
    column = learned.NAMES.index
    checked = 0
    for observation in _greedy_positions("gamerules", 3):
        position = Position.from_observation(observation)
        wild = {int(card) for card in observation.wild_cards}
        for seat in range(observation.players):
            if seat == observation.seat or position.need[seat] == 0:
                continue
            rows = learned.features(observation, position.unseen, seat)
            assert rows.shape == (len(position.unseen), learned.WIDTH)
            known = [int(c) for c in observation.known_cards[seat] if int(c) < 52 and int(c) not in wild]
            for row, card in zip(rows, position.unseen, strict=True):
                if card >= 52 or int(card) in wild:  # R3: only whether it is wild, and the draws
                    drawn = [i for i, name in enumerate(learned.NAMES) if name.startswith("draws")]
                    rest = [i for i in range(2, learned.WIDTH) if i not in drawn]
                    assert row[:2].tolist() == [1.0, 1.0]
                    assert not row[rest].any()
                    continue
                held = sum(1 for c in known if c // 4 == card // 4)
                assert row[column("known 1")] == (held == 1)
                assert row[column("known 2+")] == (held >= 2)
                assert row[column("suit known")] == sum(1 for c in known if c % 4 == card % 4)
                checked += held > 0
            weights = learned.odds(observation, position.unseen, np.zeros(learned.WIDTH))
            assert (weights[observation.seat] == 1).all()
    assert checked > 0  # some opponent held a card it took from the pile (R4.5)


def test_belief_quality_scores_every_belief_on_the_same_hands() -> None:
    import numpy as np

    script = _script("belief_quality")
    learned = _script("learned_belief")
    coefficients = learned.fit(*learned.collect("gamerules", 2, 9, 1))
    beliefs = ("uniform", "ranks", "learned", "model:2:16:0.1", "learned-model:2:16:0.1")
    totals = script.score_deal((1, "gamerules", 5, beliefs, 20, coefficients))
    assert totals.shape == (len(beliefs), 2 * len(script.SCORES))
    assert len(set(totals[:, 1])) == 1  # every belief scored on the same cards
    assert len(set(totals[:, 3])) == 1
    assert np.isfinite(totals).all()
    assert (totals[:, 0] > 0).all()
    # A share of the true cards is a chance: at most one per hand scored.
    assert (totals[:, 2] <= totals[:, 3] + 1e-9).all()


@pytest.mark.parametrize(
    "text",
    ["psychic", "model:2:16", "model:x:16:0.1", "model:0:16:0.1", "model:2:16:0", "model:2:16:nan"],
)
def test_belief_quality_refuses_a_bad_belief(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    error = _refused(monkeypatch, capsys, "belief_quality", "--beliefs", f"ranks,{text}")
    assert repr(text) in error


def _feed_position(preset: str, seed: int, turns: int) -> tuple[Deal, Observation]:
    """A deal of greedy self-play stopped at its first discard after ``turns`` actions where
    greedy weighs two or more cards, and the observation of the seat to act."""
    deal = Deal.new(RuleSet.from_preset(preset), 4, seed % 4, SeededChance(seed))
    players = [GreedyPlayer(seed=seat) for seat in range(4)]
    steps = 0
    while not deal.is_over:
        observation = deal.observation(deal.current_seat)
        if steps >= turns and len(players[0].discard_scores(observation)) >= 2:
            return deal, observation
        deal.apply(players[deal.current_seat].act(observation))
        steps += 1
    raise AssertionError(f"the deal of seed {seed} ended before a discard with a choice")


@pytest.mark.parametrize(
    ("preset", "seed", "turns"), [("pagat", 1, 0), ("pagat", 4, 14), ("gamerules", 2, 6)]
)
def test_r5_7_r6_2_feed_bound_feed_chances_equal_a_brute_force_count(
    preset: str, seed: int, turns: int
) -> None:
    """The feed chance of each card is the share of the next player's dealt hands that could
    call at once after taking it: a six-card call (a Paiute only where R5.7 allows it) or a
    five-card call that shows the card taken (R4.3, R6.2), counted here card by card with the
    scalar evaluator over the hands that make nothing alone."""
    import numpy as np

    script = _script("feed_bound")
    deal, observation = _feed_position(preset, seed, turns)
    hands = script.dealt_hands(
        "uniform", observation, script.Guard("uniform", hands=60), np.random.default_rng(seed)
    )
    cards = list(GreedyPlayer(seed=0).discard_scores(observation))
    evaluator = Evaluator(observation.wild_cards, royal_high=observation.rules.royal_high)
    following = script.next_seat(observation)
    paiute_ok = observation.rules.paiute_allowed_any_turn(4) or deal.draws(following) == 0
    possible = [hand for hand in hands.tolist() if evaluator.code(hand) == 0]
    expected = []
    for card in cards:
        calls = 0
        for hand in possible:
            six = evaluator.code([*hand, card])
            if six >> 12 == PAIUTE and not paiute_ok:
                six = 0
            five = max(evaluator.code([*rest, card]) for rest in combinations(hand, 4))
            calls += bool(six or five)
        expected.append(calls / len(possible))
    assert script.feed_chances(observation, cards, hands).tolist() == pytest.approx(expected)


@pytest.mark.parametrize("belief", ["uniform", "ranks", "model"])
def test_r9_feed_bound_deals_the_next_hand_from_the_unseen_cards_only(belief: str) -> None:
    """R9: every honest belief deals the next player the cards it is known to hold (R4.5) and
    otherwise only cards the deciding seat has not seen; the same seed deals the same hands."""
    import numpy as np

    from paiute.observation import seen_cards

    script = _script("feed_bound")
    for preset, seed, turns in (("pagat", 4, 14), ("gamerules", 2, 6), ("pagat", 7, 30)):
        _, observation = _feed_position(preset, seed, turns)
        guard = script.Guard(belief, hands=40, depth=2)
        hands = script.dealt_hands(belief, observation, guard, np.random.default_rng(1))
        again = script.dealt_hands(belief, observation, guard, np.random.default_rng(1))
        assert (hands == again).all()
        following = script.next_seat(observation)
        known = {int(card) for card in observation.known_cards[following]}
        seen = {int(card) for card in seen_cards(observation)}
        assert hands.shape == (40, 5)
        for hand in hands.tolist():
            assert len(set(hand)) == 5
            assert known <= set(hand)
            assert not (set(hand) - known) & seen


def test_feed_bound_plays_and_diagnoses_with_each_belief() -> None:
    script = _script("feed_bound")
    for variant in script.VARIANTS:
        chips = script.play_board((1, "gamerules", 5, script.Guard(variant, hands=16, depth=2)))
        assert isinstance(chips, float)
    rows = [
        row
        for index in range(4)
        for row in script.diagnose_deal((index, "pagat", 5, script.Guard("uniform", hands=16, depth=2)))
    ]
    assert rows
    assert {len(row) for row in rows} == {2 + len(script.BELIEFS)}
    assert all(0.0 <= chance <= 1.0 for row in rows for chance in row[1:])


def test_feed_bound_auc_counts_ties_as_half() -> None:
    import numpy as np

    script = _script("feed_bound")
    positive = np.array([True, True, False, False])
    assert script.auc(np.array([0.9, 0.8, 0.1, 0.2]), positive) == 1.0
    assert script.auc(np.array([0.1, 0.2, 0.9, 0.8]), positive) == 0.0
    assert script.auc(np.array([0.5, 0.5, 0.5, 0.5]), positive) == 0.5


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--variants", "oracle,psychic"], "unknown variant 'psychic'"),
        (["--hands", "0"], "--hands must be at least 1, not 0"),
        (["--boards", "-2"], "--boards must be at least 1, not -2"),
        (["--eps", "1"], "--eps in (0, 1)"),
        (["--weight", "nan"], "--weight must be finite and not negative"),
    ],
)
def test_feed_bound_refuses_bad_arguments(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert message in _refused(monkeypatch, capsys, "feed_bound", *args)


@pytest.mark.parametrize(
    ("preset", "seed", "turns"), [("pagat", 4, 14), ("gamerules", 2, 6), ("pagat", 7, 30)]
)
def test_r4_5_r5_7_feed_learned_rows_read_the_next_players_public_actions(
    preset: str, seed: int, turns: int
) -> None:
    """A row says what the next player is known to hold of the card's rank (cards it took from
    the pile, R4.5) and whether it may still call a Paiute (R5.7); the belief columns are
    empty without a guard and feed chances with one, dealt repeatably from the seat's view."""
    import numpy as np

    from paiute.outs import Unseen

    script = _script("feed_learned")
    deal, observation = _feed_position(preset, seed, turns)
    cards = list(GreedyPlayer(seed=0).discard_scores(observation))
    following = script.next_seat(observation)
    rows = script.features(observation, cards, None, np.random.default_rng(0))
    assert rows.shape == (len(cards), len(script.NAMES))
    at = {name: i for i, name in enumerate(script.NAMES)}
    known = [
        int(card) // 4 for card in observation.known_cards[following] if card not in observation.wild_cards
    ]
    for card, row in zip(cards, rows, strict=True):
        held = known.count(int(card) // 4) if card not in observation.wild_cards else 0
        assert (row[at["known 1"]], row[at["known 2+"]]) == (held == 1, held >= 2)
        if card not in observation.wild_cards:  # it and the cards of its rank the seat has not seen
            unseen = 1 + sum(
                1
                for other in Unseen.of(observation).cards
                if other // 4 == int(card) // 4 and other not in observation.wild_cards
            )
            flags = [row[at[f"rank unseen {count}"]] for count in (1, 2, 3)]
            assert flags == [float(unseen == count) for count in (1, 2, 3)]
    paiute_ok = observation.rules.paiute_allowed_any_turn(4) or deal.draws(following) == 0
    assert (rows[:, at["paiute allowed"]] == paiute_ok).all()
    assert not rows[:, len(script.PUBLIC) :].any()
    guard = script.Guard("model", hands=32, depth=2)
    stacked = script.features(observation, cards, guard, np.random.default_rng(3))
    assert (stacked == script.features(observation, cards, guard, np.random.default_rng(3))).all()
    assert (stacked[:, : len(script.PUBLIC)] == rows[:, : len(script.PUBLIC)]).all()
    assert ((stacked[:, at["ranks chance"]] >= 0) & (stacked[:, at["model chance"]] <= 1)).all()


def test_feed_learned_collects_one_throw_a_decision_and_fits() -> None:
    import numpy as np

    script = _script("feed_learned")
    x, y, thrown = script.collect("gamerules", 6, 3, None, 1)
    x3, y3, thrown3 = script.collect("pagat", 4, 3, None, 1, seats=3)  # another table size
    assert x3.shape == (y3.size, len(script.NAMES))
    assert thrown3.sum() >= 4
    assert x.shape == (y.size, len(script.NAMES))
    assert thrown.shape == y.shape
    assert thrown.sum() >= 6  # greedy threw one of the cards it weighed, every decision
    coefficients = script.learned_belief.fit(x[:, : len(script.PUBLIC)], y)
    chances = script.chances(coefficients, x)
    assert chances.shape == y.shape
    assert ((chances > 0) & (chances < 1)).all()
    assert np.isfinite(script.log_loss(chances, y))


def test_feed_learned_guard_keeps_greedys_moves_when_every_card_is_alike() -> None:
    """A feed chance equal for every card changes no discard: the guarded seat plays greedy's
    moves with greedy's seeds, so over both rotations of a board it wins exactly nothing."""
    script = _script("feed_learned")
    flat = [0.0] * len(script.PUBLIC)
    flat[0] = 2.0  # the bias alone: the same chance for every card
    for preset in ("pagat", "gamerules"):
        for board in range(3):
            guard = script.LearnedGuard("learned", 5.0, coefficients=tuple(flat))
            assert script.play_board((board, preset, 11, guard)) == 0.0


def test_feed_learned_guard_throws_no_card_it_believes_feeds() -> None:
    """A guard whose model says every two feeds the next player for sure never throws a two
    while greedy weighs another card; without the weight it throws what greedy throws."""
    import numpy as np

    script = _script("feed_learned")
    coefficients = [0.0] * len(script.PUBLIC)
    coefficients[0] = -30.0
    coefficients[script.NAMES.index("rank 0")] = 60.0  # the twos
    guard = script.LearnedGuard("learned", 100.0, coefficients=tuple(coefficients))
    unguarded = script.LearnedGuard("learned", 0.0, coefficients=tuple(coefficients))
    checked = 0
    for seed in range(40):
        try:
            _, observation = _feed_position("pagat", seed, seed % 9)
        except AssertionError:
            continue
        scores = GreedyPlayer(seed=1).discard_scores(observation)
        twos = [card for card in scores if int(card) // 4 == 0]
        if not twos or len(twos) == len(scores):
            continue
        checked += 1
        action = guard.player(1, None).act(observation)
        assert int(action.card) // 4 != 0
        assert unguarded.player(1, None).act(observation) == GreedyPlayer(seed=1).act(observation)
        assert np.isclose(
            script.chances(
                np.array(coefficients), script.features(observation, twos, None, np.random.default_rng(0))
            ),
            1.0,
        ).all()
    assert checked >= 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--weights", "1,x"], "--weights must be numbers separated by commas, not '1,x'"),
        (["--weights", "nan"], "--weights must be finite and not negative"),
        (["--weights", "-1"], "--weights must be finite and not negative"),
        (["--train", "0"], "--train must be at least 1, not 0"),
        (["--boards", "-1"], "--boards must not be negative"),
        (["--columns", "psychic"], "invalid choice: 'psychic'"),
        (["--seed", "7,x"], "--seed must be whole numbers separated by commas, not '7,x'"),
        (["--seats", "6", "--boards", "0"], "--seats must be 2 to 5 (R2.1), not 6"),
        (["--seats", "3"], "--seats other than 4 fits and scores only (--boards 0)"),
    ],
)
def test_feed_learned_refuses_bad_arguments(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert message in _refused(monkeypatch, capsys, "feed_learned", *args)
