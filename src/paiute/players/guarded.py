"""``guarded``: ``greedy`` whose discards weigh the chance of feeding the next player.

Before any call (R7.2), of the cards ``greedy`` considers putting down
(:meth:`~paiute.players.greedy.GreedyPlayer.discard_scores`: never the card just taken, R4.3,
nor a wild card while a natural one can go, R3), it throws the one whose score less
``weight`` times its *feed chance* is highest: the chance, learned from greedy's self-play
(:class:`~paiute.players.feed.FeedModel`), that the next player could call at once after
taking it from the pile (R4.2, R6.2). Where greedy's own choice is as good, it is kept, ties
and all; every other decision (draws, calls, the last round) is greedy's.

Why: almost every deal is won by its first caller (R8.1), and many first calls are made with
the card just taken from the pile, so a discard that completes the next player's combination
hands it the deal. Told the next player's true hand, the same guard would gain several times
what it gains over ``greedy`` guessed from public facts alone (R9), but guessed it still
gains: ``docs/guarded.md`` has the figures, the training, and how a rule set that is not a
preset and a table of any size are served (a model a preset and table size, 2 to 5 seats).

Options: ``weight`` (default 0.25, not negative: what a feed chance of 1 costs in greedy's
score; 0 is greedy), ``model`` (a coefficients file written by ``scripts/make_feed_model.py``;
default the package's ``data/feed.json``) and ``seed`` (greedy's ties). Pure
Python, as fast as ``greedy``: no NumPy, no compiled kernels, nothing to wait for.

>>> from paiute import Deal, RuleSet, SeededChance
>>> from paiute.players import make_player
>>> player = make_player("guarded", seed=1)
>>> deal = Deal.new(RuleSet(), players=4, dealer=0, chance=SeededChance(2))
>>> while not deal.is_over:
...     _ = deal.apply(player.act(deal.observation(deal.current_seat)))
>>> deal.is_over
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from paiute.actions import Action, ActionKind
from paiute.cards import Card
from paiute.observation import Observation
from paiute.players.base import PlayerError, register
from paiute.players.feed import SHIPPED, FeedModel, read_models
from paiute.players.greedy import GreedyPlayer

__all__ = ["DEFAULT_WEIGHT", "GuardedPlayer"]

#: What a feed chance of 1 costs in greedy's score: 0.25 gains as much as 0.5 in the ``A B A B``
#: line-up, and unlike 0.5 it also gains alone among greedy bots, since a departure from greedy
#: costs the guarding seat itself (docs/guarded.md, "Whose gain", has the tournaments).
DEFAULT_WEIGHT = 0.25


@register(
    "guarded", "greedy whose discards avoid feeding the next player (a chance learned from public facts)"
)
class GuardedPlayer(GreedyPlayer):
    """``greedy`` with its discards guarded by the learned feed chance; see the module."""

    name = "guarded"

    def __init__(
        self, *, seed: int | None = None, weight: float = DEFAULT_WEIGHT, model: str | None = None
    ) -> None:
        super().__init__(seed=seed)
        if not (0.0 <= weight < math.inf):
            raise ValueError(f"weight must be a finite number, not negative, not {weight!r}")
        self.weight = weight
        self.model = str(SHIPPED if model is None else Path(model))
        read_models(self.model)  # a file that cannot serve is refused when the player is chosen

    def act(self, observation: Observation) -> Action:
        action = super().act(observation)
        if action.kind is not ActionKind.DISCARD:
            return action
        scores = self.discard_scores(observation)
        if len(scores) < 2:
            return action
        cards = list(scores)
        chances = self.chances(observation, cards)
        guarded = [scores[card] - self.weight * chance for card, chance in zip(cards, chances, strict=True)]
        best = max(guarded)
        if action.card in scores and guarded[cards.index(action.card)] >= best - 1e-12:
            return action  # greedy's own choice is as good: keep it, and its tie-break
        choice = Action.discard(cards[guarded.index(best)])
        if choice not in observation.legal_actions:  # cannot happen: greedy weighs legal cards only
            raise PlayerError(f"the guarded player chose {choice}, which is not legal here")
        return choice

    def chances(self, observation: Observation, cards: Sequence[Card]) -> Sequence[float]:
        """Each card's chance of feeding the next player, from ``observation`` alone (R9)."""
        return FeedModel.read(self.model, observation.rules, observation.players).chances(observation, cards)
