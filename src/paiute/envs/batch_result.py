"""The results of the batch simulator as values: :class:`BatchResult` (arrays, one row per
deal) and :class:`SimulatedDeal` (one deal as plain Python values, replayable in the engine).

:mod:`paiute.envs.batch_sim` produces them and re-exports every name here.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from paiute.actions import Action
from paiute.cards import CARDS, Card
from paiute.chance import RecordedChance
from paiute.combos import Value
from paiute.compiled import state
from paiute.deal import Deal
from paiute.errors import PaiuteError
from paiute.rules import RuleSet

__all__ = ["DEAD", "OVER", "STATUS_NAMES", "TRUNCATED", "BatchResult", "SimulatedCall", "SimulatedDeal"]

#: Status of a finished deal: it ended with winners (R7.1, R7.3).
OVER = state.OVER
#: Status: a dead deal (R4.7), no winner.
DEAD = state.DEAD
#: Status: stopped after ``max_turns`` turns without ending (the R4.7 hole).
TRUNCATED = state.TRUNCATED
STATUS_NAMES = {OVER: "over", DEAD: "dead", TRUNCATED: "truncated"}


# -- one simulated deal ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SimulatedCall:
    """A call of a simulated deal (R6): seat, shown cards, card put down, value, first turn."""

    seat: int
    shown: tuple[Card, ...]
    discard: Card | None
    value: Value
    first_turn: bool


@dataclass(frozen=True, slots=True)
class SimulatedDeal:
    """One deal of a :class:`BatchResult`, with what the engine needs to replay it: the dealt
    deck (top first, as :class:`~paiute.deal.Deal` takes it), the dealer, the actions in
    order and each stock rebuild's order (top first, as :class:`~paiute.chance.RecordedChance`
    takes them). ``deck``, ``actions`` and ``rebuild_orders`` are empty unless recorded."""

    index: int
    players: int
    dealer: int
    status: str  # "over", "dead" or "truncated"
    winners: tuple[int, ...]
    payouts: tuple[int, ...]
    pot: int
    calls: tuple[SimulatedCall, ...]
    decisions: int
    turns: int
    rebuilds: int
    deck: tuple[Card, ...]
    actions: tuple[Action, ...]
    rebuild_orders: tuple[tuple[Card, ...], ...]

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict (cards and actions in their text forms)."""
        return {
            "index": self.index,
            "players": self.players,
            "dealer": self.dealer,
            "status": self.status,
            "winners": list(self.winners),
            "payouts": list(self.payouts),
            "pot": self.pot,
            "calls": [
                {
                    "seat": call.seat,
                    "cards": [str(card) for card in call.shown],
                    "discard": None if call.discard is None else str(call.discard),
                    "value": call.value.to_json(),
                    "first_turn": call.first_turn,
                }
                for call in self.calls
            ],
            "decisions": self.decisions,
            "turns": self.turns,
            "rebuilds": self.rebuilds,
            "deck": [str(card) for card in self.deck],
            "actions": [str(action) for action in self.actions],
            "rebuild_orders": [[str(card) for card in order] for order in self.rebuild_orders],
        }


# -- results --------------------------------------------------------------------------------


@dataclass(frozen=True)
class BatchResult:
    """The deals of a run, as arrays (one row per deal, ``P`` = players).

    ``status`` holds :data:`OVER`, :data:`DEAD` or :data:`TRUNCATED`; ``payouts`` the chips
    each seat won or paid (R8, from zero balances and an empty pot, stakes included);
    ``pot`` what is left in the pot (a dead deal's stakes with ``payout = pot``, R8.5), so
    every row of ``payouts`` plus its ``pot`` sums to zero (R8.6). Calls are in call order,
    padded with -1 (``call_card`` is -1 for a six-card call, R6.3). The recorded parts are
    ``None`` unless the run recorded: ``decks`` (top first), ``actions`` with
    ``action_offsets`` (deal ``i``'s ids are ``actions[action_offsets[i]:action_offsets[i+1]]``)
    and ``rebuild_log`` with ``rebuild_offsets`` (per rebuild its size, then its cards top
    first, R4.6).
    """

    rules: RuleSet
    players: int
    seed: int
    first_deal: int
    status: npt.NDArray[np.int8]
    dealer: npt.NDArray[np.int8]
    winners: npt.NDArray[np.bool_]
    payouts: npt.NDArray[np.int64]
    pot: npt.NDArray[np.int64]
    decisions: npt.NDArray[np.int32]
    turns: npt.NDArray[np.int32]
    rebuilds: npt.NDArray[np.int32]
    call_count: npt.NDArray[np.int8]
    call_seat: npt.NDArray[np.int8]
    call_code: npt.NDArray[np.int32]
    call_first: npt.NDArray[np.bool_]
    call_card: npt.NDArray[np.int8]
    call_shown: npt.NDArray[np.uint8]
    decks: npt.NDArray[np.uint8] | None = None
    actions: npt.NDArray[np.uint8] | None = None
    action_offsets: npt.NDArray[np.int64] | None = None
    rebuild_log: npt.NDArray[np.uint8] | None = None
    rebuild_offsets: npt.NDArray[np.int64] | None = None

    @property
    def rewards(self) -> npt.NDArray[np.float64]:
        """``[N, P]``: what each seat gets for the deal at a fresh table, as the environments
        and the OpenSpiel game pay it: its chips plus an equal share of what the pot kept
        (every stake was paid equally, R8.2). A row sums to zero; a dead or cut deal is all 0."""
        rewards: npt.NDArray[np.float64] = self.payouts + self.pot[:, None] / self.players
        return rewards

    def __len__(self) -> int:
        return int(self.status.size)

    @property
    def recorded(self) -> bool:
        return self.decks is not None

    @property
    def over(self) -> npt.NDArray[np.bool_]:
        return np.asarray(self.status == OVER)

    @property
    def dead(self) -> npt.NDArray[np.bool_]:
        return np.asarray(self.status == DEAD)

    @property
    def truncated(self) -> npt.NDArray[np.bool_]:
        return np.asarray(self.status == TRUNCATED)

    def summary(self) -> dict[str, int]:
        """Counts of deals by status, and all decisions (actions applied)."""
        return {
            "deals": len(self),
            "over": int(self.over.sum()),
            "dead": int(self.dead.sum()),
            "truncated": int(self.truncated.sum()),
            "decisions": int(self.decisions.sum()),
        }

    def deal(self, i: int) -> SimulatedDeal:
        """Deal ``i`` of the result as plain Python values."""
        if not 0 <= i < len(self):
            raise IndexError(f"deal {i} is not one of the {len(self)} deals")
        royal_high = self.rules.royal_high
        calls = []
        for j in range(int(self.call_count[i])):
            card = int(self.call_card[i, j])
            size = 5 if card >= 0 else 6
            value = Value.from_code(int(self.call_code[i, j]), royal_high=royal_high)
            assert value is not None
            calls.append(
                SimulatedCall(
                    int(self.call_seat[i, j]),
                    tuple(CARDS[int(c)] for c in self.call_shown[i, j, :size]),
                    CARDS[card] if card >= 0 else None,
                    value,
                    bool(self.call_first[i, j]),
                )
            )
        deck: tuple[Card, ...] = ()
        actions: tuple[Action, ...] = ()
        orders: list[tuple[Card, ...]] = []
        if self.decks is not None:
            assert self.actions is not None
            assert self.action_offsets is not None
            assert self.rebuild_log is not None
            assert self.rebuild_offsets is not None
            deck = tuple(CARDS[int(c)] for c in self.decks[i])
            ids = self.actions[self.action_offsets[i] : self.action_offsets[i + 1]]
            actions = tuple(Action.from_id(int(a)) for a in ids)
            log = self.rebuild_log[self.rebuild_offsets[i] : self.rebuild_offsets[i + 1]].tolist()
            at = 0
            while at < len(log):
                size = log[at]
                orders.append(tuple(CARDS[c] for c in log[at + 1 : at + 1 + size]))
                at += 1 + size
        return SimulatedDeal(
            index=self.first_deal + i,
            players=self.players,
            dealer=int(self.dealer[i]),
            status=STATUS_NAMES[int(self.status[i])],
            winners=tuple(int(s) for s in np.flatnonzero(self.winners[i])),
            payouts=tuple(int(x) for x in self.payouts[i]),
            pot=int(self.pot[i]),
            calls=tuple(calls),
            decisions=int(self.decisions[i]),
            turns=int(self.turns[i]),
            rebuilds=int(self.rebuilds[i]),
            deck=deck,
            actions=actions,
            rebuild_orders=tuple(orders),
        )

    def __iter__(self) -> Iterator[SimulatedDeal]:
        for i in range(len(self)):
            yield self.deal(i)

    def to_records(self) -> list[dict[str, object]]:
        """Every deal as a JSON-ready dict (:meth:`SimulatedDeal.to_json`)."""
        return [deal.to_json() for deal in self]

    def replay(self, i: int) -> Deal:
        """Deal ``i`` rebuilt in the engine from its deck and rebuild orders, with its actions
        applied (each must be legal there, else the engine raises); needs a recorded run."""
        if self.decks is None:
            raise PaiuteError("replay needs a recorded run (run(..., record=True))")
        record = self.deal(i)
        deal = Deal(
            self.rules,
            self.players,
            record.dealer,
            record.deck,
            RecordedChance(record.rebuild_orders, where=f"batch deal {record.index}: "),
        )
        for action in record.actions:
            deal.apply(action)
        return deal

    @staticmethod
    def concatenate(results: Sequence[BatchResult]) -> BatchResult:
        """The deals of several results of the same rules, one after another."""
        if not results:
            raise PaiuteError("nothing to concatenate")
        first = results[0]
        recorded = all(result.recorded for result in results)
        fields: dict[str, Any] = {}
        for name in _ARRAY_FIELDS:
            fields[name] = np.concatenate([getattr(result, name) for result in results])
        if recorded:
            fields["decks"] = np.concatenate([r.decks for r in results])
            fields["actions"] = np.concatenate([r.actions for r in results])
            fields["rebuild_log"] = np.concatenate([r.rebuild_log for r in results])
            for log, offsets in (("actions", "action_offsets"), ("rebuild_log", "rebuild_offsets")):
                parts = [np.zeros(1, dtype=np.int64)]
                base = 0
                for result in results:
                    parts.append(getattr(result, offsets)[1:] + base)
                    base += getattr(result, log).size
                fields[offsets] = np.concatenate(parts)
        return BatchResult(
            rules=first.rules, players=first.players, seed=first.seed, first_deal=first.first_deal, **fields
        )


_ARRAY_FIELDS = (
    "status",
    "dealer",
    "winners",
    "payouts",
    "pot",
    "decisions",
    "turns",
    "rebuilds",
    "call_count",
    "call_seat",
    "call_code",
    "call_first",
    "call_card",
    "call_shown",
)
