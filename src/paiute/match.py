"""A match: consecutive deals at one table, with chips, the pot and the deal passing left.

>>> from paiute import Match, RuleSet, SeededChance
>>> match = Match(RuleSet(), ["Ana", "Bo", "Cy"], chance=SeededChance(3))
>>> deal = match.start_deal()
>>> match.pot, match.balances  # R8.2: the stakes are in the pot
(3, (99, 99, 99))
>>> while not deal.is_over:
...     _ = match.apply(deal.legal_actions()[0])
>>> sum(match.balances) + match.pot  # R8.6
300
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from paiute.actions import Action
from paiute.cards import Card
from paiute.chance import Chance, SecureChance
from paiute.deal import Deal, Event, Outcome
from paiute.errors import PaiuteError
from paiute.rules import RuleSet
from paiute.settlement import collect_stakes, settle

__all__ = ["DealResult", "Match"]

DEFAULT_BALANCE = 100


@dataclass(frozen=True, slots=True)
class DealResult:
    """A settled deal: its outcome and every balance and the pot afterwards (R8)."""

    dealer: int
    outcome: Outcome
    balances: tuple[int, ...]
    pot: int


class Match:
    """Deals at one table (R2.3) with chip balances and a pot (R8).

    ``chance`` shuffles, cuts and rebuilds; it defaults to the secure source (R10.1), so pass
    a :class:`~paiute.chance.SeededChance` for repeatable simulations.
    """

    def __init__(
        self,
        rules: RuleSet,
        players: Sequence[str] | int,
        *,
        balances: Sequence[int] | None = None,
        pot: int = 0,
        chance: Chance | None = None,
        dealer: int | None = None,
    ) -> None:
        names = [f"Player {i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
        rules.check_players(len(names))
        self.rules = rules
        self.players: tuple[str, ...] = tuple(names)
        start = [DEFAULT_BALANCE] * len(names) if balances is None else list(balances)
        if len(start) != len(names):
            raise PaiuteError(f"{len(start)} balances for {len(names)} players")
        self.initial_balances: tuple[int, ...] = tuple(start)
        self.initial_pot = pot
        self._balances = start
        self._pot = pot
        self.chance: Chance = chance if chance is not None else SecureChance()
        if dealer is not None and not 0 <= dealer < len(names):
            raise PaiuteError(f"R2.2 dealer seat {dealer!r} is not one of the {len(names)} seats")
        self._next_dealer = dealer
        self.deals: list[Deal] = []
        self.results: list[DealResult] = []
        self.commitments: list[Mapping[str, object] | None] = []

    @property
    def balances(self) -> tuple[int, ...]:
        return tuple(self._balances)

    @property
    def pot(self) -> int:
        return self._pot

    @property
    def deal(self) -> Deal | None:
        """The current (or last) deal."""
        return self.deals[-1] if self.deals else None

    @property
    def next_dealer(self) -> int:
        """The dealer of the next deal: chosen at random at first, then to the left (R2.3)."""
        if self._next_dealer is None:
            self._next_dealer = self.chance.below(len(self.players))
        return self._next_dealer

    def start_deal(
        self,
        deck: Sequence[Card] | None = None,
        *,
        chance: Chance | None = None,
        commitment: Mapping[str, object] | None = None,
    ) -> Deal:
        """Collect the stakes (R8.2) and deal, from ``deck`` (top first) or a new shuffle."""
        current = self.deal
        if current is not None and not current.is_over:
            raise PaiuteError("R7.3 the current deal has not ended")
        dealer = self.next_dealer
        balances, pot = collect_stakes(self.rules, self._balances, self._pot)
        source = chance if chance is not None else self.chance
        if deck is None:
            deal = Deal.new(self.rules, len(self.players), dealer, source, balances=balances, pot=pot)
        else:
            deal = Deal(self.rules, len(self.players), dealer, deck, source, balances=balances, pot=pot)
        self._balances, self._pot = balances, pot
        self.deals.append(deal)
        self.commitments.append(commitment)
        return deal

    def apply(self, action: Action) -> Event:
        """Apply ``action`` to the current deal, settling it when it ends (R8)."""
        deal = self.deal
        if deal is None:
            raise PaiuteError("no deal has started: call start_deal()")
        event = deal.apply(action)
        if deal.is_over:
            self._settle(deal)
        return event

    def _settle(self, deal: Deal) -> None:
        assert deal.outcome is not None
        self._balances, self._pot = settle(self.rules, deal.outcome, self._balances, self._pot, deal.dealer)
        self.results.append(DealResult(deal.dealer, deal.outcome, self.balances, self._pot))
        self._next_dealer = (deal.dealer + 1) % len(self.players)  # R2.3: to the left
