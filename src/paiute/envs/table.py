"""The table both learning environments run: one deal per episode, with chips (R8).

**An episode is one deal at a fresh table** by default: every seat starts with no chips won
or lost, the pot is empty, the first dealer is drawn at random (R2.3), the stakes go into the
pot (R8.2) and the deal is settled when it ends (R8). With ``carry_match=True`` the deals
instead continue one match, like a :class:`~paiute.match.Match`: the balances stay, a dead
deal's pot is carried to the next deal (R8.5) and the deal passes to the left (R2.3).

**Rewards** are each seat's change of *equity*: its chips plus an equal share of the pot
(every stake in the pot was paid equally, R8.2). So a deal's rewards always sum to zero (R8.6),
and a dead deal (R4.7) or a cut one pays every seat 0, whether its pot is handed back (a fresh
table has no next deal) or carried (``carry_match``). For a deal that has a winner the reward
is the chips won or lost, stake included (R8), plus the change of the seat's share of a
carried pot. The ledger itself (balances, pot) is :attr:`EnvTable.balances` / :attr:`EnvTable.pot`.

**Cut deals.** A deal can run for ever when players only take the discard pile's top card
(the R4.7 hole, docs/rules.md reading 17), so a deal in which ``max_turns`` turns
(:data:`~paiute.rules.DEFAULT_MAX_TURNS`) have been played without a call is *cut*: it ends
then, settled as a dead deal (R8.5), which is what R4.7 does to a deal that cannot end. After a
call the last round (R7.2) is always played out, as R4.7 plays it out. The rule is
:mod:`paiute.envs.truncation`'s; the OpenSpiel game and the batch simulator cut at the same
point and settle the same way.

Chance comes from a NumPy generator (each deal gets a :class:`~paiute.chance.SeededChance`
drawn from it, R10.1), so a seeded environment is repeatable. Each seat's observation vector
comes from a :class:`~paiute.envs.encoding.DealEncoder` fed with every event as the table
applies it, so nothing is re-read from the start of the deal; the encoding equals
:meth:`ObservationEncoder.encode` of the seat's :class:`Observation` (a test checks it), so
R9 holds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from paiute.actions import ACTIONS, NUM_ACTIONS
from paiute.chance import SeededChance
from paiute.deal import Deal, Event
from paiute.envs.encoding import Float32Array, Int8Array, ObservationEncoder
from paiute.envs.truncation import cut_outcome, past_max_turns
from paiute.errors import IllegalActionError, PaiuteError
from paiute.observation import Observation
from paiute.rules import DEFAULT_MAX_TURNS, RuleSet
from paiute.settlement import collect_stakes, settle

__all__ = [
    "DEFAULT_MAX_TURNS",
    "END_CUT",
    "END_DEAD",
    "END_ILLEGAL",
    "END_MAX_CYCLES",
    "END_OVER",
    "EnvTable",
]

#: Why a deal ended (``info["end"]``): the last round was played (R7.1, R7.3).
END_OVER = "over"
#: A dead deal: the draw that needed one rebuild too many (R4.7).
END_DEAD = "dead"
#: Cut: ``max_turns`` turns without a call (the R4.7 hole), settled as dead (R8.5).
END_CUT = "max_turns"
#: Cut by PettingZoo's ``max_cycles``, settled as dead (R8.5).
END_MAX_CYCLES = "max_cycles"
#: Ended by an illegal action (the environments' convention), settled as dead (R8.5).
END_ILLEGAL = "illegal"

#: The rule behind each way a deal ends.
END_RULES = {
    END_OVER: "R7.3",
    END_DEAD: "R4.7",
    END_CUT: "R8.5",
    END_MAX_CYCLES: "R8.5",
    END_ILLEGAL: "R8.5",
}


class EnvTable:
    """Deals at one table with chips, for the environments (see the module docstring)."""

    def __init__(
        self,
        rules: RuleSet,
        players: int,
        *,
        max_turns: int = DEFAULT_MAX_TURNS,
        carry_match: bool = False,
    ) -> None:
        rules.check_players(players)
        if isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1:
            raise PaiuteError(f"max_turns must be a whole number of at least 1, not {max_turns!r}")
        self.rules = rules
        self.players = players
        self.max_turns = max_turns
        self.carry_match = bool(carry_match)
        self.encoder = ObservationEncoder(rules, players)
        self.balances: list[int] = [0] * players
        self.pot = 0
        self.next_dealer = 0
        self._deal: Deal | None = None
        self._tracker = self.encoder.deal_encoder()
        self._start: list[int] = [0] * players
        self._pot_start = 0
        self._turns = 0
        self._decisions = [0] * players
        self._mask = np.zeros(NUM_ACTIONS, np.int8)  # the seat to act's, once computed
        self._mask_ids: list[int] = []
        self._mask_valid = False
        self._no_actions = np.zeros(NUM_ACTIONS, np.int8)
        #: The deal was cut (``max_turns``, ``max_cycles``): a truncation, not an end by the rules.
        self.truncated = False
        #: The deal has ended (R7.3, R4.7), been cut or ended by an illegal action.
        self.done = False
        #: Why it ended: one of the ``END_*`` names (None while it lasts).
        self.end: str | None = None
        #: Each seat's change of equity (chips plus its share of the pot) this deal.
        self.rewards: list[float] = [0.0] * players
        #: Each seat's change of balance this deal, stakes included (the ledger, R8).
        self.chips: list[int] = [0] * players
        self.illegal: dict[str, Any] = {}

    # -- deals ---------------------------------------------------------------------------------

    def new_match(self, rng: np.random.Generator, *, dealer: int | None = None) -> None:
        """Start afresh: no chips won or lost, an empty pot, a random first dealer (R2.3)."""
        self.balances = [0] * self.players
        self.pot = 0
        self.next_dealer = int(rng.integers(self.players)) if dealer is None else dealer

    def start_deal(self, rng: np.random.Generator, *, dealer: int | None = None) -> Deal:
        """Deal the next deal: at a fresh table unless ``carry_match`` (see the module
        docstring); collect the stakes (R8.2) and deal with a chance drawn from ``rng`` (R10.1)."""
        if dealer is not None and not (
            isinstance(dealer, int) and not isinstance(dealer, bool) and 0 <= dealer < self.players
        ):
            raise PaiuteError(f"R2.2 dealer seat {dealer!r} is not one of the {self.players} seats")
        if not self.carry_match:
            self.new_match(rng)  # one deal, one match: the first dealer is random (R2.3)
        if dealer is not None:
            self.next_dealer = dealer
        self._start = list(self.balances)
        self._pot_start = self.pot
        balances, pot = collect_stakes(self.rules, self.balances, self.pot)
        chance = SeededChance(int(rng.integers(2**63)))
        deal = Deal.new(self.rules, self.players, self.next_dealer, chance, balances=balances, pot=pot)
        self.balances, self.pot = balances, pot
        self._deal = deal
        self._turns = 0
        self._decisions = [0] * self.players
        self.truncated = False
        self.done = False
        self.end = None
        self.rewards = [0.0] * self.players
        self.chips = [0] * self.players
        self.illegal = {}
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

    def decisions(self, seat: int) -> int:
        """Actions ``seat`` has taken in this deal."""
        return self._decisions[seat]

    def apply(self, action_id: int) -> Event:
        """Apply the action with this id for the seat to act; raises
        :class:`~paiute.errors.IllegalActionError` (naming the rule) if it is illegal now,
        changing nothing."""
        deal = self.deal
        if self.done:
            raise IllegalActionError("R7.3", "the deal is over: reset", str(action_id))
        if isinstance(action_id, bool) or not isinstance(action_id, int) or not 0 <= action_id < NUM_ACTIONS:
            raise PaiuteError(f"unknown action id {action_id!r} (0..{NUM_ACTIONS - 1})")
        action = ACTIONS[action_id]
        seat = deal.current_seat
        event = deal.apply(action)  # raises with the rule, changing nothing
        self._decisions[seat] += 1
        self._mask_valid = False
        self._tracker.push(event)
        if action_id < 2 and not event.ends_deal:
            self._turns += 1
        if deal.is_over:
            outcome = deal.outcome
            self._finish(END_DEAD if outcome is not None and outcome.dead else END_OVER)
        elif past_max_turns(deal, self._turns, self.max_turns):
            self.cut(END_CUT)  # the R4.7 hole: settle it as a dead deal (R8.5)
        return event

    def cut(self, reason: str) -> None:
        """Truncate the deal now (``max_turns``, ``max_cycles``), settled as a dead deal (R8.5)."""
        if not self.done:
            self.truncated = True
            self._finish(reason)

    def abandon(self, error: PaiuteError, seat: int) -> None:
        """End the deal because ``seat`` tried an illegal action: settled as a dead deal (R8.5);
        the environment gives the penalty. ``illegal`` says why."""
        if not self.done:
            self.illegal = {"illegal": str(error), "offender": seat}
            if isinstance(error, IllegalActionError):
                self.illegal["rule"] = error.rule
            self._finish(END_ILLEGAL)

    def _finish(self, reason: str) -> None:
        deal = self.deal
        self.done = True
        self.end = reason
        outcome = deal.outcome if reason in (END_OVER, END_DEAD) else None
        if outcome is None:
            outcome = cut_outcome(deal)
        # R8: the same settlement as a Match; a cut deal is settled like a dead one (R8.5).
        self.balances, self.pot = settle(self.rules, outcome, self.balances, self.pot, deal.dealer)
        players = self.players
        pot_change = (self.pot - self._pot_start) / players
        self.chips = [after - before for after, before in zip(self.balances, self._start, strict=True)]
        self.rewards = [float(chips) + pot_change for chips in self.chips]
        self.next_dealer = (deal.dealer + 1) % players  # R2.3
        self._mask_valid = False

    def end_info(self) -> dict[str, Any]:
        """What both environments put in the end-of-deal ``info``: why it ended (``end``,
        ``rule``), ``chips`` (each seat's balance change, stakes included, R8), ``rewards``
        (each seat's equity change), ``pot`` (left for the next deal, R8.5), ``winners``
        (seats, R8.1) and ``turns``; after an illegal action also ``illegal`` (the error),
        ``rule`` (the rule it broke) and ``offender`` (the seat)."""
        outcome = self.deal.outcome if self.end == END_OVER else None
        info: dict[str, Any] = {
            "end": self.end,
            "rule": END_RULES.get(self.end or "", ""),
            "chips": list(self.chips),
            "rewards": list(self.rewards),
            "pot": self.pot,
            "winners": list(outcome.winners) if outcome is not None else [],
            "turns": self._turns,
        }
        info.update(self.illegal)
        return info

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

    def state(self, out: Float32Array | None = None) -> Float32Array:
        """The whole table as one vector, for centralised critics: it sees *everything*, every
        hand and the stock's order (see :meth:`ObservationEncoder.state_layout`). Never give it
        to a seat's policy (R9)."""
        deal = self.deal
        return self._tracker.encode_state(
            [deal.hand(seat) for seat in range(self.players)], deal.stock_cards(), out
        )

    def observation(self, seat: int) -> Observation:
        """Seat ``seat``'s full :class:`Observation` (for bots and for text)."""
        return self.deal.observation(seat)
