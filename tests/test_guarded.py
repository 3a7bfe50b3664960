"""The ``guarded`` player (docs/guarded.md) and its feed model (``paiute.players.feed``):
registered, legal at every table size and option mix, repeatable, blind to hidden cards (R9),
greedy's moves where the guard has nothing to say, never throwing what its model says feeds,
and its shipped coefficients well formed; a bad option or coefficients file is refused with
one clear error when the player is chosen.

No strength is asserted here: the margins over ``greedy`` are measured by
``benchmarks/guarded.py`` and ``paiute tournament`` (docs/guarded.md).
"""

from __future__ import annotations

import json
import math
import pickle
import random
from pathlib import Path

import pytest

from helpers import play_every_table_size
from paiute import Deal, Phase, RuleSet, SeededChance
from paiute.actions import ActionKind
from paiute.cards import Card
from paiute.players import PLAYERS, PlayerError, make_player
from paiute.players.feed import (
    COLUMNS,
    FACTS,
    FEED_FORMAT,
    SHIPPED,
    FeedModel,
    feed_rows,
    next_seat,
    paiute_allowed,
    read_models,
)
from paiute.players.greedy import GreedyPlayer
from paiute.players.guarded import DEFAULT_WEIGHT, GuardedPlayer
from paiute.rules import PRESETS

ROOT = Path(__file__).resolve().parent.parent
AT = {name: i for i, name in enumerate(COLUMNS)}


def discard_positions(count: int, seed: int) -> list[Deal]:
    """Deals at a seat's discard with a choice of cards, reached by greedy and random play
    at 2 to 8 seats, both presets, jokers and options mixed."""
    rng = random.Random(seed)
    found: list[Deal] = []
    while len(found) < count:
        players = rng.randint(2, 8)
        rules = RuleSet.from_preset(
            rng.choice(sorted(PRESETS)),
            jokers=rng.random() < 0.3,
            max_players=8,
            open_discard=rng.random() < 0.5,
            paiute_any_turn=rng.random() < 0.5,
        )
        deal = Deal.new(rules, players, rng.randrange(players), SeededChance(rng.getrandbits(32)))
        bots = [make_player(rng.choice(["greedy", "random"]), seed=seat) for seat in range(players)]
        for _ in range(80):
            if deal.is_over:
                break
            observation = deal.observation(deal.current_seat)
            weighed = (
                observation.phase is Phase.DISCARD and len(GreedyPlayer().discard_scores(observation)) >= 2
            )
            if weighed and rng.random() < 0.25:
                found.append(deal.copy())
                break
            deal.apply(bots[deal.current_seat].act(observation))
    return found


def write_model(path: Path, coefficients: dict[str, float], **changes: object) -> Path:
    """A coefficients file whose every preset's model, at four seats, has ``coefficients``
    (by column name, 0 elsewhere), with ``changes`` made to the document."""
    row = [coefficients.get(name, 0.0) for name in COLUMNS]
    document = {
        "format": FEED_FORMAT,
        "columns": list(COLUMNS),
        "models": {preset: {"4": {"coefficients": row}} for preset in PRESETS},
    }
    document.update(changes)
    path.write_text(json.dumps(document))
    return path


def test_guarded_is_registered_with_its_options() -> None:
    assert "guarded" in PLAYERS
    player = make_player("guarded:weight=0.25,seed=4")
    assert isinstance(player, GuardedPlayer)
    assert (player.name, player.weight, player.seed) == ("guarded", 0.25, 4)
    assert make_player("guarded").weight == DEFAULT_WEIGHT
    assert set(PLAYERS["guarded"].options()) == {"seed", "weight", "model"}


@pytest.mark.parametrize("weight", ["-1", "nan", "inf", "heavy"])
def test_a_bad_weight_is_refused_when_chosen(weight: str) -> None:
    with pytest.raises(PlayerError, match="weight"):
        make_player(f"guarded:weight={weight}")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p / "missing.json", "cannot read the feed model file"),
        (lambda p: p, "not a regular file"),  # a folder
        (lambda p: Path("/dev/zero"), "not a regular file"),  # never read to its end
        (lambda p: (p / "huge.json").write_text(" " * (2 << 20)) and p / "huge.json", "at most 1024 KiB"),
        (lambda p: (p / "bad.json").write_text("{not json") and p / "bad.json", "cannot read"),
        (lambda p: write_model(p / "f.json", {}, format="other/1"), "not a feed model file"),
        (lambda p: write_model(p / "c.json", {}, columns=["bias"]), "other columns"),
        (lambda p: write_model(p / "m.json", {}, models=[1, 2]), "no 'models' object"),
        (
            lambda p: write_model(p / "p.json", {}, models={"poker": {"4": {"coefficients": []}}}),
            "bad entry 'poker'",
        ),
        (
            lambda p: write_model(p / "q.json", {}, models={"pagat": {"coefficients": [0.0] * len(COLUMNS)}}),
            "bad seat count 'coefficients'",
        ),
        (
            lambda p: write_model(p / "r.json", {}, models={"pagat": {"9": {"coefficients": [0.0]}}}),
            "bad seat count '9'",
        ),
        (
            lambda p: write_model(p / "n.json", {}, models={"pagat": {"4": {"coefficients": [1.0, 2.0]}}}),
            f"{len(COLUMNS)} coefficients",
        ),
        (
            lambda p: write_model(
                p / "s.json", {}, models={"pagat": {"4": {"coefficients": ["1"] * len(COLUMNS)}}}
            ),
            "must be numbers",
        ),
    ],
)
def test_a_coefficients_file_that_cannot_serve_is_refused_when_chosen(
    tmp_path: Path, make: object, message: str
) -> None:
    path = make(tmp_path)  # type: ignore[operator]
    with pytest.raises(PlayerError, match=message):
        make_player(f"guarded:model={path}")


def test_a_file_without_the_tables_preset_says_so(tmp_path: Path) -> None:
    path = write_model(
        tmp_path / "one.json", {}, models={"pagat": {"4": {"coefficients": [0.0] * len(COLUMNS)}}}
    )
    player, greedy = make_player(f"guarded:model={path}"), GreedyPlayer(seed=1)
    deal = Deal.new(RuleSet.from_preset("gamerules"), 4, 0, SeededChance(3))
    observation = deal.observation(deal.current_seat)
    while len(greedy.discard_scores(observation)) < 2:  # until a discard the guard weighs
        deal.apply(greedy.act(observation))
        observation = deal.observation(deal.current_seat)
    with pytest.raises(PlayerError, match="no coefficients for the preset 'gamerules'"):
        player.act(observation)


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("jokers", [False, True])
def test_guarded_plays_legal_actions_to_the_end_at_2_to_8_seats(preset: str, jokers: bool) -> None:
    """R2.1 (2 to 8 seats with max_players=8, served by the models of 2 to 5), both presets,
    with and without jokers, against greedy."""
    play_every_table_size(preset, lambda seat: "guarded" if seat % 2 == 0 else "greedy", jokers=jokers)


def test_guarded_is_deterministic_for_a_seed() -> None:
    for deal in discard_positions(12, 3):
        observation = deal.observation(deal.current_seat)
        assert make_player("guarded:seed=2").act(observation) == make_player("guarded:seed=2").act(
            observation
        )


def test_r9_guarded_decisions_and_feed_chances_do_not_depend_on_hidden_cards() -> None:
    """Re-deal every card the seat cannot see (R9.2, R9.3): the same observation, the same
    feed chances and the same decision."""
    for index, deal in enumerate(discard_positions(25, 7)):
        seat = deal.current_seat
        observation = deal.observation(seat)
        model = FeedModel.shipped(observation.rules, observation.players)
        decision = GuardedPlayer(seed=index).act(observation)
        chances = model.chances(observation, observation.hand)
        for redeal in range(2):
            other = deal.resample_hidden(seat, SeededChance(1000 * index + redeal))
            assert other.observation(seat) == observation
            assert GuardedPlayer(seed=index).act(other.observation(seat)) == decision
            assert model.chances(other.observation(seat), observation.hand) == chances


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_weight_zero_plays_greedys_moves_for_whole_deals(preset: str) -> None:
    """With a feed chance that costs nothing the guard changes no move, ties included."""
    for seed in range(6):
        rules = RuleSet.from_preset(preset)
        guarded = [GuardedPlayer(seed=seat, weight=0.0) for seat in range(4)]
        greedy = [GreedyPlayer(seed=seat) for seat in range(4)]
        deal = Deal.new(rules, 4, seed % 4, SeededChance(seed))
        while not deal.is_over:
            observation = deal.observation(deal.current_seat)
            action = guarded[deal.current_seat].act(observation)
            assert action == greedy[deal.current_seat].act(observation)
            deal.apply(action)


def test_r4_3_r3_guarded_never_throws_a_card_its_model_says_feeds(tmp_path: Path) -> None:
    """A model that says every two feeds the next player for sure, and nothing else does: the
    guarded seat never throws a two while greedy weighs another card, and never the card it
    took (R4.3) or a wild card while a natural one can go (R3), which greedy never weighs."""
    path = write_model(tmp_path / "twos.json", {"bias": -30.0, "rank 0": 60.0})
    guarded, greedy = make_player(f"guarded:model={path},weight=100,seed=1"), GreedyPlayer(seed=1)
    changed = 0
    for deal in discard_positions(60, 11):
        observation = deal.observation(deal.current_seat)
        weighed = GreedyPlayer().discard_scores(observation)
        action = guarded.act(observation)
        if action.kind is not ActionKind.DISCARD:  # a call: greedy's, which the guard leaves alone
            assert action == greedy.act(observation)
            continue
        assert action.card in weighed
        wild = observation.wild_cards

        def feeds(card: Card | None, wild: frozenset[Card] = frozenset(wild)) -> bool:
            return card is not None and not card.is_joker and card not in wild and int(card) // 4 == 0

        if not all(feeds(card) for card in weighed):
            assert not feeds(action.card)
        changed += action != greedy.act(observation)
    assert changed  # the positions hold some where greedy throws a two


def test_r4_5_r5_7_feed_rows_name_the_next_players_public_actions() -> None:
    """One row a card, one value a column; the bias set, the rank one-hot (the ace the
    baseline) unless the card is wild, R5.7 read from the rules and the next player's draws,
    and a card of the rank the next player just took from the pile marked so (R4.5)."""
    took_seen = 0
    for deal in discard_positions(80, 5):
        observation = deal.observation(deal.current_seat)
        cards = list(observation.hand)
        rows = feed_rows(observation, cards)
        following = next_seat(observation)
        assert len(rows) == len(cards)
        assert all(len(row) == len(COLUMNS) == len(FACTS) + 1 for row in rows)
        last_take = None
        for event in observation.history:
            if event.seat == following and event.action.kind.is_draw:
                last_take = event.card if event.action.kind is ActionKind.DRAW_DISCARD else None
        for card, row in zip(cards, rows, strict=True):
            assert row[AT["bias"]] == 1.0
            assert row[AT["paiute allowed"]] == float(paiute_allowed(observation, following))
            wild = card.is_joker or card in observation.wild_cards
            assert row[AT["wild"]] == float(wild)
            ranks = [row[AT[f"rank {r}"]] for r in range(12)]
            assert sum(ranks) == (0 if wild or int(card) // 4 == 12 else 1)
            same_rank = (
                last_take is not None and not last_take.is_joker and int(last_take) // 4 == int(card) // 4
            )
            if not wild and same_rank:
                took_seen += 1
                assert row[AT["took last turn"]] == 1.0
                assert row[AT["took 1"]] + row[AT["took 2+"]] == 1.0
    assert took_seen  # the positions hold such a card


def test_r5_7_paiute_allowed_follows_the_rules_and_the_next_players_draws() -> None:
    for deal in discard_positions(40, 9):
        observation = deal.observation(deal.current_seat)
        following = next_seat(observation)
        drew = any(e.seat == following and e.action.kind.is_draw for e in observation.history)
        any_turn = observation.rules.paiute_allowed_any_turn(observation.players)
        assert paiute_allowed(observation, following) == (any_turn or not drew)


def test_the_shipped_models_serve_both_presets_every_table_and_option_mix() -> None:
    """``data/feed.json``: small, a model a preset and table size from 2 to 5 seats over this
    version's columns, fitted chances strictly between 0 and 1; a rule set built from a preset
    with options changed is served by that preset's models, a table of 6 to 8 by the model
    of 5 (docs/guarded.md)."""
    assert SHIPPED.is_file()
    assert SHIPPED.stat().st_size < 64 * 1024
    document = json.loads(SHIPPED.read_text())
    assert document["format"] == FEED_FORMAT
    assert document["columns"] == list(COLUMNS)
    assert set(document["models"]) == set(PRESETS)
    for preset in PRESETS:
        assert list(document["models"][preset]) == ["2", "3", "4", "5"]
        for seats, entry in document["models"][preset].items():
            assert entry["fitted"]["deals"] >= 1000
            assert entry["fitted"]["seats"] == int(seats)
    models = read_models(str(SHIPPED))
    assert FeedModel.shipped(RuleSet.from_preset("pagat", open_discard=True), 4) == models["pagat"][4]
    assert FeedModel.shipped(RuleSet.from_preset("gamerules", jokers=True), 3) == models["gamerules"][3]
    assert FeedModel.shipped(RuleSet.from_preset("pagat", max_players=8), 8) == models["pagat"][5]
    for deal in discard_positions(10, 4):
        observation = deal.observation(deal.current_seat)
        chances = FeedModel.shipped(observation.rules, observation.players).chances(
            observation, observation.hand
        )
        assert all(0.0 < p < 1.0 and math.isfinite(p) for p in chances)


@pytest.mark.parametrize(
    ("fitted", "players", "served"),
    [((2, 5), 3, 2), ((2, 5), 4, 5), ((3, 5), 4, 5), ((4,), 8, 4), ((2, 3, 4, 5), 2, 2), ((3, 4), 2, 3)],
)
def test_a_table_is_served_by_the_model_fitted_nearest_its_size(
    tmp_path: Path, fitted: tuple[int, ...], players: int, served: int
) -> None:
    """The seat count nearest the table's, the larger of two as near."""
    rows = {str(seats): {"coefficients": [float(seats)] * len(COLUMNS)} for seats in fitted}
    path = write_model(tmp_path / "seats.json", {}, models={"pagat": rows})
    model = FeedModel.read(path, RuleSet(), players)
    assert (model.preset, model.seats, model.coefficients[0]) == ("pagat", served, float(served))


def test_a_feed_model_refuses_coefficients_it_cannot_use() -> None:
    with pytest.raises(PlayerError, match="one a column"):
        FeedModel("pagat", 4, (1.0,))
    with pytest.raises(PlayerError, match="finite"):
        FeedModel("pagat", 4, (math.nan,) * len(COLUMNS))


def test_extreme_coefficients_give_chances_without_overflow() -> None:
    deal = discard_positions(1, 2)[0]
    observation = deal.observation(deal.current_seat)
    for bias in (-1e6, 1e6):
        chances = FeedModel("pagat", 4, (bias,) + (0.0,) * (len(COLUMNS) - 1)).chances(
            observation, observation.hand
        )
        assert chances == [0.0 if bias < 0 else 1.0] * len(observation.hand)


def test_guarded_survives_pickling() -> None:
    """Tournaments send players to worker processes."""
    deal = discard_positions(1, 11)[0]
    observation = deal.observation(deal.current_seat)
    player = make_player("guarded:seed=1")
    assert pickle.loads(pickle.dumps(player)).act(observation) == player.act(observation)


def test_a_spectator_has_no_next_player() -> None:
    deal = Deal.new(RuleSet(), 4, 0, SeededChance(1))
    with pytest.raises(PlayerError, match="spectator"):
        next_seat(deal.observation(None))
