"""One deal of greedy against itself (four seats, or one a bot seed), dealt from a seed: the positions the
belief experiments (``belief_bound.py``, ``belief_quality.py``, ``learned_belief.py``) measure
their beliefs on, with the true deal at hand for the labels and never shown to a bot (R9)."""

from __future__ import annotations

from collections.abc import Sequence

from paiute import RuleSet
from paiute.cards import pack
from paiute.chance import SeededChance
from paiute.deal import Deal
from paiute.match import Match
from paiute.observation import Observation
from paiute.players.greedy import GreedyPlayer

PLAYERS = 4


def greedy_deal(
    preset: str, index: int, chance_seed: int, bot_seeds: Sequence[int]
) -> tuple[Match, Deal, list[GreedyPlayer]]:
    """The match, its deal (a seat a bot seed, dealer ``index`` modulo the seats, the pack
    shuffled by ``chance_seed``) and a greedy bot a seat, each seeded by ``bot_seeds``."""
    players = len(bot_seeds)
    rules = RuleSet.from_preset(preset, max_players=max(5, players))
    chance = SeededChance(chance_seed)
    deck = pack(rules.jokers)
    chance.shuffle(deck)
    names = [chr(ord("a") + seat) for seat in range(players)]
    match = Match(rules, names, balances=[0] * players, dealer=index % players, chance=chance)
    deal = match.start_deal(deck, chance=chance)
    return match, deal, [GreedyPlayer(seed=seed) for seed in bot_seeds]


def greedy_positions(seed: int, rules: RuleSet) -> list[tuple[Deal, Observation, GreedyPlayer]]:
    """Every decision with a choice in a deal of greedy against itself at four seats, dealt
    from ``seed``: a copy of the true deal there (for the labels, never shown to a bot, R9),
    the seat's observation and the seat's greedy bot."""
    chance = SeededChance(seed)
    deck = pack(rules.jokers)
    chance.shuffle(deck)
    names = [f"s{seat}" for seat in range(PLAYERS)]
    match = Match(rules, names, balances=[0] * PLAYERS, dealer=seed % PLAYERS, chance=SeededChance(seed + 1))
    deal = match.start_deal(deck, chance=SeededChance(seed + 2))
    bots = [GreedyPlayer(seed=seed * 16 + seat) for seat in range(PLAYERS)]
    found = []
    while not deal.is_over and len(deal.events) < 200:
        seat = deal.current_seat
        observation = deal.observation(seat)
        if len(observation.legal_actions) > 1:
            found.append((deal.copy(), observation, bots[seat]))
        match.apply(bots[seat].act(observation))
    return found
