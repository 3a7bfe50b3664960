"""Levels resolve to registered bots wherever a bot is chosen by name."""

import pytest

from paiute import Deal, RuleSet, SeededChance
from paiute.players import DEFAULT_LEVEL, LEVELS, PlayerError, make_player, parse_spec


def test_four_levels_weakest_first() -> None:
    assert list(LEVELS) == ["easy", "medium", "hard", "expert"]
    assert DEFAULT_LEVEL == "medium"


@pytest.mark.parametrize("level", list(LEVELS))
def test_level_plays_a_legal_action(level: str) -> None:
    deal = Deal.new(RuleSet(), players=3, dealer=0, chance=SeededChance(5))
    observation = deal.observation(deal.current_seat)
    searches = parse_spec(LEVELS[level])[0] in {"mc", "pimc"}  # a small budget keeps it quick
    player = make_player(f"{level}:iterations=8" if searches else level, seed=1)
    assert player.act(observation) in observation.legal_actions


def test_level_names_are_case_blind_and_take_options() -> None:
    assert make_player("Hard").name == "greedy"
    assert make_player("MEDIUM:seed=3").name == "greedy"
    with pytest.raises(PlayerError, match="no option"):
        make_player("medium:nonsense=1")
