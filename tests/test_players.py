"""Every registered player: legal moves only, repeatable under a seed, blind to hidden cards (R9)."""

from __future__ import annotations

import pickle
import random

import pytest

from paiute import Deal, Match, RuleSet, SeededChance
from paiute.observation import Observation
from paiute.players import PLAYERS, Player, PlayerError, make_player, parse_spec, play_deal

# Small budgets so that search players decide quickly in tests.
_TEST_SPECS = {"mc": "mc:iterations=12", "ismcts": "ismcts:iterations=24"}


def spec_for(name: str) -> str:
    return _TEST_SPECS.get(name, name)


ALL_PLAYERS = sorted(PLAYERS)


def positions(count: int, seed: int) -> list[Deal]:
    """Mid-deal states of seeded random deals, at a seat's turn."""
    rng = random.Random(seed)
    found: list[Deal] = []
    while len(found) < count:
        players = rng.randint(2, 6)
        rules = RuleSet.from_preset(rng.choice(["pagat", "gamerules"]), max_players=8)
        deal = Deal.new(rules, players, rng.randrange(players), SeededChance(rng.getrandbits(32)))
        for _ in range(rng.randint(0, 60)):
            if deal.is_over:
                break
            deal.apply(rng.choice(deal.legal_actions()))
        if not deal.is_over:
            found.append(deal)
    return found


@pytest.mark.parametrize("name", ALL_PLAYERS)
def test_players_choose_legal_actions(name: str) -> None:
    for index, deal in enumerate(positions(12, 1)):
        player = make_player(spec_for(name), seed=index)
        observation = deal.observation(deal.current_seat)
        assert player.act(observation) in observation.legal_actions


@pytest.mark.parametrize("name", ALL_PLAYERS)
def test_r10_1_players_are_repeatable_under_a_seed(name: str) -> None:
    for index, deal in enumerate(positions(6, 2)):
        observation = deal.observation(deal.current_seat)
        first = make_player(spec_for(name), seed=index).act(observation)
        second = make_player(spec_for(name), seed=index).act(observation)
        assert first is second


@pytest.mark.parametrize("name", ALL_PLAYERS)
def test_r9_decisions_do_not_depend_on_hidden_cards(name: str) -> None:
    """Re-deal every card the seat cannot see: its observation, and so its decision, stay."""
    for index, deal in enumerate(positions(6, 3)):
        seat = deal.current_seat
        observation = deal.observation(seat)
        decision = make_player(spec_for(name), seed=index).act(observation)
        for redeal in range(3):
            other = deal.resample_hidden(seat, SeededChance(1000 + redeal))
            assert other.observation(seat) == observation
            assert make_player(spec_for(name), seed=index).act(other.observation(seat)) is decision


def test_r9_an_observation_carries_no_state() -> None:
    """Players get an Observation, a plain value: it holds no reference to the Deal."""
    deal = positions(1, 4)[0]
    observation = deal.observation(deal.current_seat)
    assert isinstance(observation, Observation)
    assert not any(
        isinstance(getattr(observation, field), Deal) for field in observation.__dataclass_fields__
    )
    assert pickle.loads(pickle.dumps(observation)) == observation


def test_registry_specs_and_errors() -> None:
    assert parse_spec(" Random : seed = 4 ") == ("random", {"seed": "4"})
    assert isinstance(make_player("random:seed=4"), Player)
    with pytest.raises(PlayerError, match="unknown player 'nobody'"):
        make_player("nobody")
    with pytest.raises(PlayerError, match="has no option 'depth'"):
        make_player("random:depth=3")
    with pytest.raises(PlayerError, match="expected a number"):
        make_player("random:seed=abc")
    with pytest.raises(PlayerError, match="KEY=VALUE"):
        make_player("random:seed")


def test_play_deal_with_players_conserves_chips() -> None:
    match = Match(RuleSet(), 4, chance=SeededChance(9))
    players = [make_player("random", seed=seat) for seat in range(4)]
    for _ in range(5):
        deal = play_deal(match, players)
        assert deal.is_over
    assert sum(match.balances) + match.pot == 400


def test_an_illegal_choice_is_refused_with_the_rule() -> None:
    class Cheat:
        name = "cheat"

        def act(self, observation: Observation) -> object:
            from paiute import Action

            return Action.parse("draw discard")  # the discard pile is empty at the start (pagat)

    match = Match(RuleSet(), 2, chance=SeededChance(1))
    with pytest.raises(PlayerError, match=r"R4\.2"):
        play_deal(match, [Cheat(), Cheat()])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("pimc:iterations=1000000000000", "iterations must be from 1 to 1000000"),
        ("mc:iterations=1000000000", "iterations must be from 1 to 1000000"),
        ("ismcts:workers=100000", "workers must be from 1 to 64"),
        ("pimc:workers=0", "workers must be from 1 to 64"),
        ("pimc:ms=1e300", "ms must be more than 0 and at most 600000"),
        ("ismcts:ms=nan", "ms must be more than 0 and at most 600000"),
        # NaN compares false with everything: a bare "z < 0" let it through, and pimc then
        # never left its baseline; ismcts's tree read NaN bounds.
        ("pimc:z=nan", "z must be a finite number, not negative, not nan"),
        ("pimc:z=inf", "z must be a finite number, not negative, not inf"),
        ("pimc:z=-1", "z must be a finite number, not negative, not -1"),
        ("ismcts:exploration=nan", "exploration must be a finite number, not negative, not nan"),
        ("ismcts:exploration=-0.5", "exploration must be a finite number, not negative"),
    ],
)
def test_a_search_budget_beyond_the_bounds_is_refused_when_the_player_is_chosen(spec: str, said: str) -> None:
    # pimc:iterations=10**12 asked NumPy for 44 TiB; ismcts:workers=100000 would start as many
    # processes. Refused with the bound, before any work (paiute.players.base.check_budget).
    with pytest.raises(PlayerError, match=said):
        make_player(spec)


def test_the_estimator_refuses_more_playouts_than_the_bound() -> None:
    from paiute import Deal, RuleSet, SeededChance
    from paiute.players.base import MAX_ITERATIONS
    from paiute.players.evaluate import estimate_actions

    deal = Deal.new(RuleSet(), players=3, dealer=0, chance=SeededChance(1))
    observation = deal.observation(deal.current_seat)
    with pytest.raises(PlayerError, match="playouts must be from 1 to 1000000"):
        estimate_actions(observation, playouts=MAX_ITERATIONS + 1)
    with pytest.raises(PlayerError, match="budget must be at most"):
        estimate_actions(observation, budget_ms=float("nan"))
