"""What a seat of ``python_paiute`` observes, as OpenSpiel's observers give it (R9).

An OpenSpiel observer fills a tensor (:attr:`PaiuteObserver.tensor`, with named views in
:attr:`PaiuteObserver.dict`) and makes a string, for one state and one player. Which one
depends on the ``pyspiel.IIGObservationType``:

* **observation** (``perfect_recall=False``, the default): the tensor is the shared encoding of
  :class:`paiute.envs.encoding.ObservationEncoder` (layout in ``docs/encoding.md``); the string
  is that encoding in words (:meth:`ObservationEncoder.describe`).
* **information state** (``perfect_recall=True``): the same tensor (piece ``info_state``) plus
  the cards dealt to the player (``dealt``) and the cards it drew from the stock (``drew``);
  the string is everything the player has seen, in order, then its hand: perfect recall.
  OpenSpiel's ISMCTS keys its tree on this string.
* **public** or **private** only (``private_info=NONE`` or ``public_info=False``): strings only.

Nothing here reads a card the player may not see: the stock's order, other hands' unshown
cards (R9.2, R9.3) and other seats' draws from the stock never enter a string or a tensor.
While the cards are being dealt the tensor holds only the player's own cards so far. A deal
ended by ``max_turns`` shows as over (``phase_over``), like a dead deal (R4.7).
"""

# pyspiel ships no type information.
# mypy: disable-error-code="import-not-found,import-untyped"

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import numpy.typing as npt
import pyspiel

from paiute.actions import ActionKind
from paiute.cards import Card, format_cards
from paiute.envs.encoding import ObservationEncoder

if TYPE_CHECKING:
    from paiute.envs.openspiel_table import SpielTable
    from paiute.rules import RuleSet

__all__ = ["ObservedState", "PaiuteObserver"]


class ObservedState(Protocol):
    """What an observer reads of a state: its table (a ``PaiuteState`` of
    :mod:`paiute.envs.openspiel`)."""

    @property
    def table(self) -> SpielTable: ...


class PaiuteObserver:
    """OpenSpiel's Python observer interface (``tensor``, ``dict``, ``set_from``,
    ``string_from``) for ``python_paiute``."""

    def __init__(
        self, rules: RuleSet, players: int, iig_obs_type: Any, params: Mapping[str, Any] | None
    ) -> None:
        if params:
            raise ValueError(f"python_paiute observers take no parameters, got {dict(params)!r}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("python_paiute does not observe every player's private cards (R9.2)")
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = bool(iig_obs_type.public_info)
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.encoder = ObservationEncoder(rules, players)
        self.rules = rules
        cards = rules.pack_size
        pieces: list[tuple[str, int]] = []
        if self.private and self.public:
            if self.perfect_recall:
                pieces = [("info_state", self.encoder.size), ("dealt", cards), ("drew", cards)]
            else:
                pieces = [("observation", self.encoder.size)]
        self.tensor: npt.NDArray[np.float32] | None = None
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        if pieces:
            self.tensor = np.zeros(sum(size for _, size in pieces), np.float32)
            start = 0
            for name, size in pieces:
                self.dict[name] = self.tensor[start : start + size]
                start += size
        encoder = self.encoder
        self._hand = encoder.field("hand").offset
        self._phases = [encoder.field(name).offset for name in ("phase_draw", "phase_discard", "phase_over")]
        self._my_turn = encoder.field("my_turn").offset

    # -- tensors -----------------------------------------------------------------------------

    def set_from(self, state: ObservedState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s view of ``state``."""
        if self.tensor is None:
            return
        table = state.table
        main = self.dict["info_state" if self.perfect_recall else "observation"]
        deal = table.deal
        if deal is None:  # still dealing: only the player's own cards so far (R9.2)
            self.tensor.fill(0.0)
            for card in table.dealt_to(player):
                main[self._hand + card] = 1.0
        else:
            self.encoder.encode(deal.observation(player), out=main)
            if table.truncated:  # ended as dead by max_turns
                for offset in self._phases:
                    main[offset] = 0.0
                main[self._phases[2]] = 1.0
                main[self._my_turn] = 0.0
        if self.perfect_recall:
            for name, cards in (("dealt", table.dealt_to(player)), ("drew", _drawn(table, player))):
                plane = self.dict[name]
                plane.fill(0.0)
                for card in cards:
                    plane[card] = 1.0

    # -- strings -----------------------------------------------------------------------------

    def string_from(self, state: ObservedState, player: int) -> str:
        """``player``'s view of ``state`` as text (see the module docstring)."""
        table = state.table
        if self.private and self.public:
            if self.perfect_recall:
                return table.view(player)
            return self._observation_string(table, player)
        if self.public:
            return self._public_string(table)
        return self._private_string(table, player)

    def _observation_string(self, table: SpielTable, player: int) -> str:
        deal = table.deal
        if deal is None:
            return f"seat {player}: dealing (R2.5)\nhand: {format_cards(table.dealt_to(player))}"
        text = f"seat {player}: " + self.encoder.describe(deal.observation(player))
        return text + _status(table)

    def _public_string(self, table: SpielTable) -> str:
        if self.perfect_recall:
            return table.public_view()
        deal = table.deal
        if deal is None:
            return f"dealing (R2.5), {table.dealt_count} cards dealt"
        return str(deal.observation(None)) + _status(table)

    def _private_string(self, table: SpielTable, player: int) -> str:
        text = f"seat {player} hand {format_cards(sorted(table.hand(player)))}"
        if self.perfect_recall:
            text += f", dealt {format_cards(table.dealt_to(player))}"
            text += f", drew {format_cards(_drawn(table, player))}"
        return text


def _status(table: SpielTable) -> str:
    """What the engine's views do not say: a draw waiting for chance, a truncated deal."""
    deal = table.deal
    assert deal is not None
    if table.truncated:
        return "\ndead deal: max_turns turns without a call"
    if table.is_chance:
        return f"\nseat {deal.current_seat} draws from the stock"
    return ""


def _drawn(table: SpielTable, seat: int) -> list[Card]:
    """The cards ``seat`` drew from the stock this deal, in order (its own private draws)."""
    deal = table.deal
    if deal is None:
        return []
    return [
        event.card
        for event in deal.history_seen_by(seat)
        if event.seat == seat and event.action.kind is ActionKind.DRAW_STOCK and event.card is not None
    ]
