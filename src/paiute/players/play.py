"""Driving players through deals and matches: the one game loop every interface shares."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from paiute.deal import Deal, Event
from paiute.match import Match
from paiute.players.base import Player, PlayerError

__all__ = ["play_deal", "play_turn"]


def play_turn(deal: Deal, players: Sequence[Player], apply: Callable[[object], Event] | None = None) -> Event:
    """Ask the current seat's player for an action (it sees only its observation, R9)."""
    seat = deal.current_seat
    action = players[seat].act(deal.observation(seat))
    if not deal.is_legal(action):
        error = deal.why_illegal(action)
        raise PlayerError(f"player {players[seat].name!r} at seat {seat} chose {action}: {error}")
    return deal.apply(action) if apply is None else apply(action)


def play_deal(match: Match, players: Sequence[Player]) -> Deal:
    """Start a deal in ``match`` and play it to the end with ``players`` (one per seat)."""
    if len(players) != len(match.players):
        raise PlayerError(f"{len(players)} players for {len(match.players)} seats")
    deal = match.start_deal()
    while not deal.is_over:
        play_turn(deal, players, match.apply)  # type: ignore[arg-type]
    return deal
