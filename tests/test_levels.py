"""Levels resolve to registered bots wherever a bot is chosen by name."""

import pytest

from paiute import Deal, RuleSet, SeededChance
from paiute.players import DEFAULT_LEVEL, LEVELS, PlayerError, make_player


def test_four_levels_weakest_first() -> None:
    assert list(LEVELS) == ["easy", "medium", "hard", "expert"]
    assert DEFAULT_LEVEL == "medium"


@pytest.mark.parametrize("level", list(LEVELS))
def test_level_plays_a_legal_action(level: str) -> None:
    deal = Deal.new(RuleSet(), players=3, dealer=0, chance=SeededChance(5))
    observation = deal.observation(deal.current_seat)
    player = make_player(f"{level}:iterations=8" if level != "medium" else level, seed=1)
    assert player.act(observation) in observation.legal_actions


def test_level_names_are_case_blind_and_take_options() -> None:
    assert make_player("Medium").name == "greedy"
    with pytest.raises(PlayerError, match="no option"):
        make_player("medium:nonsense=1")
