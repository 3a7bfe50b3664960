"""The table both learning environments run: one deal per episode, with chips (R8).

A :class:`Table` plays consecutive deals like a :class:`~paiute.match.Match`: the stakes go
into the pot before each deal (R8.2), the deal is settled when it ends (R8), a dead deal's pot
stays for the next one (R8.5) and the deal passes to the left (R2.3). Chance comes from a
NumPy generator (each deal gets a :class:`~paiute.chance.SeededChance` drawn from it, R10.1),
so a seeded environment is repeatable.

A deal can run forever when players only draw from the discard pile (the R4.7 hole, see
docs/rules.md), so the table *truncates* a deal after ``max_turns`` turns: it is then settled
as a dead deal (R8.5), which is what R4.7 would have done. A deal left unfinished (a new deal
started in its middle) is abandoned: its stakes stay in the pot. Either way chips are never
created or lost (R8.6): the seats' changes add up to minus the pot's.

Each seat's observation vector comes from a :class:`~paiute.envs.encoding.DealEncoder` fed with
every event as the table applies it, so nothing is re-read from the start of the deal; the
encoding equals :meth:`ObservationEncoder.encode` of the seat's :class:`Observation` (a test
checks it), so R9 holds.
"""

from __future__ import annotations

import numpy as np

from paiute.actions import ACTIONS, NUM_ACTIONS
from paiute.chance import SeededChance
from paiute.deal import Deal, Event, Outcome, Phase
from paiute.envs.encoding import Float32Array, Int8Array, ObservationEncoder
from paiute.errors import PaiuteError
from paiute.observation import Observation
from paiute.rules import RuleSet
from paiute.settlement import collect_stakes, settle

__all__ = ["DEFAULT_MAX_TURNS", "Table"]

#: Turns (draws) after which a deal is truncated: far beyond any deal that ends by the rules.
DEFAULT_MAX_TURNS = 500


class Table:
    """Deals at one table with chips, for the environments (see the module docstring)."""

    def __init__(self, rules: RuleSet, players: int, *, max_turns: int = DEFAULT_MAX_TURNS) -> None:
        rules.check_players(players)
        if max_turns < 1:
            raise PaiuteError(f"max_turns must be at least 1, not {max_turns!r}")
        self.rules = rules
        self.players = players
        self.max_turns = max_turns
        self.encoder = ObservationEncoder(rules, players)
        self.balances: list[int] = [0] * players
        self.pot = 0
        self.next_dealer = 0
        self._deal: Deal | None = None
        self._tracker = self.encoder.deal_encoder()
        self._start: list[int] = [0] * players
        self._pot_start = 0
        self._turns = 0
        self._mask = np.zeros(NUM_ACTIONS, np.int8)  # the seat to act's, once computed
        self._mask_ids: list[int] = []
        self._mask_valid = False
        self._no_actions = np.zeros(NUM_ACTIONS, np.int8)
        self.truncated = False
        #: The deal has ended (R7.3, R4.7) or been truncated.
        self.done = False
        self.rewards: list[int] = [0] * players

    # -- deals ---------------------------------------------------------------------------------

    def new_match(self, rng: np.random.Generator, *, dealer: int | None = None) -> None:
        """Start afresh: no chips won or lost, an empty pot, a random first dealer (R2.3)."""
        self.balances = [0] * self.players
        self.pot = 0
        self.next_dealer = int(rng.integers(self.players)) if dealer is None else dealer

    def start_deal(self, rng: np.random.Generator, *, dealer: int | None = None) -> Deal:
        """Collect the stakes (R8.2) and deal with a chance drawn from ``rng`` (R10.1)."""
        if dealer is not None:
            if not 0 <= dealer < self.players:
                raise PaiuteError(f"R2.2 dealer seat {dealer!r} is not one of the {self.players} seats")
            self.next_dealer = dealer
        self._start = list(self.balances)
        self._pot_start = self.pot
        balances, pot = collect_stakes(self.rules, self.balances, self.pot)
        chance = SeededChance(int(rng.integers(2**63)))
        deal = Deal.new(self.rules, self.players, self.next_dealer, chance, balances=balances, pot=pot)
        self.balances, self.pot = balances, pot
        self._deal = deal
        self._turns = 0
        self.truncated = False
        self.done = False
        self.rewards = [0] * self.players
        self._mask_valid = False
        self._tracker.reset(
            dealer=deal.dealer,
            upcard=deal.upcard,
            initial_discard=deal.initial_discard,
            wild_cards=deal.wild_cards,
            balances=balances,
            pot=pot,
        )
        return deal

    @property
    def deal(self) -> Deal:
        if self._deal is None:
            raise PaiuteError("no deal has started: reset the environment first")
        return self._deal

    @property
    def turns(self) -> int:
        """Turns started in this deal (draws)."""
        return self._turns

    def apply(self, action_id: int) -> Event:
        """Apply the action with this id for the seat to act; raises
        :class:`~paiute.errors.IllegalActionError` (naming the rule) if it is illegal now."""
        deal = self.deal
        if self.truncated:
            raise PaiuteError(f"the deal was truncated after {self.max_turns} turns: reset")
        if deal.is_over:
            raise PaiuteError("R7.3 the deal is over: reset")
        if not 0 <= action_id < NUM_ACTIONS:
            raise PaiuteError(f"unknown action id {action_id!r} (0..{NUM_ACTIONS - 1})")
        action = ACTIONS[action_id]
        event = deal.apply(action)  # raises with the rule, changing nothing
        self._mask_valid = False
        self._tracker.push(event)
        if action_id < 2 and not event.ends_deal:
            self._turns += 1
        if deal.is_over:
            self.done = True
            self._settle(deal.outcome)
        elif deal.phase is Phase.DRAW and self._turns >= self.max_turns:
            self.truncated = self.done = True  # the R4.7 hole: settle it as a dead deal (R8.5)
            self._settle(Outcome(True, deal.calls, ()))
        return event

    def abandon(self) -> None:
        """End the deal now, settled as a dead deal (R8.5): for an environment's illegal-action penalty."""
        if not self.done:
            self.done = True
            self._settle(Outcome(True, self.deal.calls, ()))

    def _settle(self, outcome: Outcome | None) -> None:
        assert outcome is not None
        deal = self.deal
        # R8: the same settlement as a Match; a truncated deal is settled like a dead one.
        self.balances, self.pot = settle(self.rules, outcome, self.balances, self.pot, deal.dealer)
        self.rewards = [after - before for after, before in zip(self.balances, self._start, strict=True)]
        self.next_dealer = (deal.dealer + 1) % self.players  # R2.3

    # -- what a seat sees ----------------------------------------------------------------------

    def legal_ids(self) -> list[int]:
        """The ids of the legal actions of the seat to act (empty once the deal is done)."""
        self._refresh_mask()
        return self._mask_ids

    def mask(self, seat: int) -> Int8Array:
        """Seat ``seat``'s legal-action mask (a new array): zeros unless it is to act."""
        if self.done or seat != self.deal.current_seat:
            return self._no_actions.copy()
        self._refresh_mask()
        return self._mask.copy()

    def _refresh_mask(self) -> None:
        if self._mask_valid:
            return
        self._mask_ids = [] if self.done else [action.id for action in self.deal.legal_actions()]
        flags = bytearray(NUM_ACTIONS)  # cheaper than NumPy fancy indexing for a few ids
        for action_id in self._mask_ids:
            flags[action_id] = 1
        self._mask = np.frombuffer(flags, np.int8)
        self._mask_valid = True

    def encode(self, seat: int, out: Float32Array | None = None) -> Float32Array:
        """Seat ``seat``'s observation vector (built only from what R9 lets it see)."""
        return self._tracker.encode(seat, self.deal.hand(seat), out)

    def observation(self, seat: int) -> Observation:
        """Seat ``seat``'s full :class:`Observation` (for bots and for text)."""
        return self.deal.observation(seat)
