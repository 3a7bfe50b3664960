"""One action encoding and one observation encoding for learning agents.

**Actions** are the fixed ids of :mod:`paiute.actions` (``NUM_ACTIONS = 111`` over the
54-card pack): 0 ``draw stock``, 1 ``draw discard``, ``2 + c`` ``discard c``, ``56 + c``
``call c`` (a five-card call putting down card ``c``), 110 ``call`` (a six-card call).
:func:`action_mask` turns a seat's legal actions into an int8 mask of that length.

**Observations**: an :class:`ObservationEncoder` for a rule set and a number of players turns
one seat's :class:`~paiute.observation.Observation` (exactly what R9 lets the seat see) into a
flat float32 vector of fixed size (and an int8 form). Seats are *relative* to the observing
seat: block ``seat0`` is the observer, ``seat1`` the player on its left (next to act after it,
R2.2), and so on. :attr:`ObservationEncoder.layout` names every field with its offset, length
and meaning; ``docs/encoding.md`` holds that table, checked by a test.

Everything public is folded in incrementally from the deal's public history (R4.5, R9.1): a
:class:`DealEncoder` reads one :class:`~paiute.events.Event` at a time (a draw from the stock
whose card is private is read without its card) and keeps the public part of the vector in
absolute seat order; encoding a seat is one gather that rotates the seat blocks, plus the
seat's own hand. :meth:`ObservationEncoder.encode` keeps one such encoder per seat and feeds
it only the events an observation adds to the previous one, so a step costs a few
microseconds, not a loop over the pack.

>>> from paiute import Deal, RuleSet, SeededChance
>>> deal = Deal.new(RuleSet(), players=3, dealer=0, chance=SeededChance(1))
>>> encoder = ObservationEncoder(RuleSet(), players=3)
>>> vector = encoder.encode(deal.observation(1))
>>> vector.shape == (encoder.size,), vector.dtype
(True, dtype('float32'))
>>> int(vector[encoder.field("hand").offset : encoder.field("hand").end].sum())
5
>>> [int(i) for i in action_mask(deal.observation(1)).nonzero()[0]]
[0]
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
import numpy.typing as npt

from paiute.actions import NUM_ACTIONS, Action, ActionKind
from paiute.cards import CARDS, Card, format_cards
from paiute.combos import CATEGORY_SHIFT, ROYAL_HIGH_ORDER, Category, Value
from paiute.errors import PaiuteError
from paiute.rules import HAND_SIZE, MAX_SEATS, RuleSet

if TYPE_CHECKING:
    from paiute.deal import Event
    from paiute.observation import Observation

__all__ = [
    "CARD_PLANES",
    "CHIP_BOUND",
    "NUM_ACTIONS",
    "SEAT_SCALARS",
    "DealEncoder",
    "Field",
    "ObservationEncoder",
    "action_mask",
    "layout_table",
    "legal_mask",
    "rules_for_seats",
]

Float32Array = npt.NDArray[np.float32]
Int8Array = npt.NDArray[np.int8]

#: Counts (turns, draws) are divided by this and clipped to 1.
COUNT_SCALE = 100
#: A call's value is its evaluator code (``Value.code``, below the first code past the highest
#: category) divided by this.
VALUE_SCALE = float((ROYAL_HIGH_ORDER + 1) << CATEGORY_SHIFT)
_CATEGORIES = tuple(Category)  # R5 order, Paiute first
#: Chip features (``balance``, ``pot``) are chips / chip scale, clipped to [-CHIP_BOUND,
#: CHIP_BOUND]. One deal at a fresh table always stays inside (at most 10 units won from
#: each other seat, R8.4); a match carried across episodes is clipped there.
CHIP_BOUND = 10.0

#: The card planes of every seat block, in order: (name, meaning).
CARD_PLANES: tuple[tuple[str, str], ...] = (
    ("discarded", "1 for each card this seat discarded or put down with a call this deal (R4.5)"),
    ("took", "1 for each card this seat took from the discard pile this deal (R4.5)"),
    ("known", "1 for each card known to be in this seat's hand now: taken from the pile, or the upcard"),
    ("shown", "1 for each card this seat showed in its call (R6.5)"),
)
#: The scalars of every seat block, in order: (name, meaning, int8 scale).
SEAT_SCALARS: tuple[tuple[str, str, float], ...] = (
    ("hand_size", "cards in this seat's hand / 6", 6.0),
    ("dealer", "1 if this seat deals", 1.0),
    ("to_act", "1 if this seat is to act (after the deal ends: acted last)", 1.0),
    ("called", "1 if this seat has called (R6.5)", 1.0),
    ("call_value", f"its call's value code / {int(VALUE_SCALE)} (orders as R5)", 127.0),
    ("call_first_turn", "1 if its call came on its first turn (R5.7, R8.4)", 1.0),
    ("draws", f"its draws this deal / {COUNT_SCALE} (clipped to 1)", float(COUNT_SCALE)),
    ("pile_draws", f"its draws from the discard pile / {COUNT_SCALE} (clipped to 1)", float(COUNT_SCALE)),
    ("not_drawn", "1 if it has not drawn yet this deal (its next turn is its first, R5.7)", 1.0),
    ("balance", f"its chips / chip scale (see `pot`), clipped to ±{CHIP_BOUND:g}", 10.0),
)


class Field(NamedTuple):
    """One field of the observation vector: ``vector[offset : offset + length]``."""

    name: str
    offset: int
    length: int
    meaning: str

    @property
    def end(self) -> int:
        return self.offset + self.length


class ObservationEncoder:
    """Flat float32 (or int8) encoding of one seat's observation, for ``rules`` and ``players``.

    The size depends only on the pack (52 or 54 cards, R1.3) and the number of players.
    Use :meth:`encode` / :meth:`encode_int8` on an :class:`~paiute.observation.Observation`,
    :meth:`describe` for the readable form, :attr:`layout` for the offsets, and
    :meth:`deal_encoder` for the incremental encoder the environments use.

    An encoder remembers, per seat, the history it last encoded (so that the next observation
    costs only its new events): use one encoder per thread.
    """

    def __init__(self, rules: RuleSet, players: int) -> None:
        rules.check_players(players)
        self.rules = rules
        self.players = players
        self.cards = rules.pack_size
        cards = self.cards
        fields: list[Field] = []
        scales: list[float] = []

        def add(name: str, length: int, meaning: str, scale: float = 1.0) -> None:
            offset = fields[-1].end if fields else 0
            fields.append(Field(name, offset, length, meaning))
            scales.append(scale)

        add("hand", cards, "1 for each card in the observer's hand (R9.2)")
        add("taken", cards, "the card the seat to act took from the discard pile this turn (R4.3)")
        add("wild", cards, "1 for each wild card (R3)")
        add("upcard", cards, "the upcard, one-hot (none with jokers, R2.8)")
        add(
            "pile",
            cards,
            f"discard pile: (place from the bottom + 1) / {cards} for each card in it (R4.5)",
            cards,
        )
        add("pile_top", cards, "the top card of the discard pile, one-hot (what `draw discard` takes)")
        add(
            "discard_turn",
            cards,
            f"when each card was last discarded: turn / {COUNT_SCALE} (0: never; compare `turn`)",
            COUNT_SCALE,
        )
        add("phase_draw", 1, "1 while the seat to act must draw (R4.2)")
        add("phase_discard", 1, "1 while the seat to act holds six cards: discard or call (R4.2, R6)")
        add("phase_over", 1, "1 once the deal has ended (R4.7, R7)")
        add("my_turn", 1, "1 if the observer is to act")
        add("first_turn", 1, "1 if the observer's current (or next) turn is its first (R5.7)")
        add("stock_size", 1, f"cards in the stock / {cards}", cards)
        add("stock_bottom", 1, "1 while the upcard lies face up under the stock (R2.6)")
        add("rebuilds", 1, "stock rebuilds so far / (max_rebuilds + 1) (R4.6, R4.7)", rules.max_rebuilds + 1)
        add("turn", 1, f"turns started this deal / {COUNT_SCALE} (clipped to 1)", COUNT_SCALE)
        add("call_made", 1, "1 once anyone has called: the last round (R7)")
        add("highest_value", 1, f"highest value called / {int(VALUE_SCALE)} (R6.4)", 127.0)
        add(
            "highest_category",
            len(_CATEGORIES),
            "its category, one-hot: " + ", ".join(c.value for c in _CATEGORIES),
        )
        add(
            "pot",
            1,
            "chips in the pot / chip scale (stake × players, or unit × players for scale payouts; 1 when that is 0),"
            f" clipped to {CHIP_BOUND:g}",
            10.0,
        )
        self.seat_offset = fields[-1].end
        for seat in range(players):
            who = "the observer" if seat == 0 else f"the {_ordinal(seat)} seat to the observer's left"
            for name, meaning in CARD_PLANES:
                add(f"seat{seat}.{name}", cards, f"{who}: {meaning}")
            for name, meaning, scale in SEAT_SCALARS:
                add(f"seat{seat}.{name}", 1, f"{who}: {meaning}", scale)
        self.layout: tuple[Field, ...] = tuple(fields)
        self.size: int = fields[-1].end
        self.seat_block = (self.size - self.seat_offset) // players
        self._fields = {field.name: field for field in fields}
        self._scales = np.concatenate(
            [np.full(f.length, s, np.float32) for f, s in zip(fields, scales, strict=True)]
        )
        # With no stake (or no unit) chips never move; 1 keeps the balances readable.
        self.chip_scale = float((rules.stake if rules.payout == "pot" else rules.unit) * players) or 1.0
        # perm[s]: the gather that turns the absolute-seat vector into seat s's relative view.
        head = np.arange(self.seat_offset)
        block = np.arange(self.seat_block)
        self._perm = [
            np.concatenate(
                [head]
                + [self.seat_offset + ((s + k) % players) * self.seat_block + block for k in range(players)]
            ).astype(np.intp)
            for s in range(players)
        ]
        self._cache: dict[int, tuple[tuple[Event, ...], DealEncoder]] = {}

    # -- the layout --------------------------------------------------------------------------

    def field(self, name: str) -> Field:
        """The field called ``name`` (``"hand"``, ``"seat1.discarded"``...)."""
        try:
            return self._fields[name]
        except KeyError:
            raise PaiuteError(f"no field {name!r} in the observation layout") from None

    def seat_field(self, seat: int, name: str) -> Field:
        """Field ``name`` of relative seat ``seat`` (0 is the observer)."""
        return self.field(f"seat{seat}.{name}")

    def bounds(self) -> tuple[Float32Array, Float32Array]:
        """Lowest and highest values of every entry (for a Gymnasium ``Box``): 0 and 1, but
        the chips (``balance`` within ±:data:`CHIP_BOUND`, ``pot`` within [0, CHIP_BOUND])
        and ``rebuilds``: at most ``max_rebuilds`` before a call (R4.7), then at most one for
        each of the last round's ``players - 1`` draws (R7.2)."""
        low = np.zeros(self.size, np.float32)
        high = np.ones(self.size, np.float32)
        for field in self.layout:
            if field.name.endswith("balance"):
                low[field.offset : field.end] = -CHIP_BOUND
                high[field.offset : field.end] = CHIP_BOUND
            elif field.name == "pot":
                high[field.offset : field.end] = CHIP_BOUND
            elif field.name == "rebuilds":
                most = self.rules.max_rebuilds + self.players - 1
                high[field.offset : field.end] = most / (self.rules.max_rebuilds + 1)
        return low, high

    # -- the whole table, for centralised critics -----------------------------------------------

    @property
    def state_size(self) -> int:
        """Length of :meth:`DealEncoder.encode_state`: see :meth:`state_layout`."""
        return self.size + (self.players + 1) * self.cards

    def state_layout(self) -> tuple[Field, ...]:
        """The fields of the whole-table vector (it sees *everything*: never a seat's input, R9):
        the observation layout with the seat blocks in absolute seat order (``seat0`` is seat
        0; ``hand``, ``my_turn`` and ``first_turn`` are 0), then ``hands.k`` (seat k's hand)
        for every seat and ``stock`` ((place from the top + 1) / C for each card in the stock:
        1/C is drawn next)."""
        fields = list(self.layout)
        for seat in range(self.players):
            fields.append(
                Field(f"hands.{seat}", fields[-1].end, self.cards, f"1 for each card in seat {seat}'s hand")
            )
        fields.append(
            Field(
                "stock",
                fields[-1].end,
                self.cards,
                f"stock: (place from the top + 1) / {self.cards} for each card",
            )
        )
        return tuple(fields)

    def state_bounds(self) -> tuple[Float32Array, Float32Array]:
        """Lowest and highest values of every entry of the whole-table vector."""
        low, high = self.bounds()
        extra = (self.players + 1) * self.cards
        return np.concatenate([low, np.zeros(extra, np.float32)]), np.concatenate(
            [high, np.ones(extra, np.float32)]
        )

    def int8_scale(self, name: str) -> float:
        """``encode_int8`` stores ``round(value * scale)`` for this field, saturated to int8."""
        return float(self._scales[self.field(name).offset])

    # -- encoding -----------------------------------------------------------------------------

    def deal_encoder(self) -> DealEncoder:
        """A fresh incremental encoder for one deal (see :class:`DealEncoder`)."""
        return DealEncoder(self)

    def encode(self, observation: Observation, out: Float32Array | None = None) -> Float32Array:
        """The float32 vector of ``observation`` (a seat's R9 view), written into ``out`` if given."""
        seat = observation.seat
        if seat is None:
            raise PaiuteError("a spectator's observation has no seat to encode relative to")
        rules = observation.rules
        if observation.players != self.players or (rules is not self.rules and rules != self.rules):
            raise PaiuteError(
                f"this encoder is for {self.players} players under {self.rules.to_dict()}, "
                f"not {observation.players} players under {rules.to_dict()}"
            )
        tracker = self._sync(seat, observation)
        return tracker.encode(seat, observation.hand, out)

    def encode_int8(self, observation: Observation, out: Int8Array | None = None) -> Int8Array:
        """The int8 form: every field times its :meth:`int8_scale`, rounded and saturated."""
        return self.quantize(self.encode(observation), out)

    def quantize(self, vector: Float32Array, out: Int8Array | None = None) -> Int8Array:
        """The int8 form of an encoded float32 vector."""
        scaled: Float32Array = np.rint(vector * self._scales)
        np.clip(scaled, -128, 127, out=scaled)
        if out is None:
            out = np.empty(self.size, np.int8)
        out[:] = scaled
        return out

    def _sync(self, seat: int, observation: Observation) -> DealEncoder:
        """The seat's cached deal encoder, brought up to ``observation`` by its new events."""
        history = observation.history
        key = _start_key(observation)
        cached = self._cache.get(seat)
        if cached is not None:
            seen, tracker = cached
            if tracker.key == key and len(seen) <= len(history) and history[: len(seen)] == seen:
                for event in history[len(seen) :]:
                    tracker.push(event)
                self._cache[seat] = (history, tracker)
                return tracker
        tracker = DealEncoder(self)
        tracker.reset(
            dealer=observation.dealer,
            upcard=observation.upcard,
            initial_discard=observation.initial_discard,
            wild_cards=observation.wild_cards,
            balances=observation.balances,
            pot=observation.pot,
        )
        for event in history:
            tracker.push(event)
        self._cache[seat] = (history, tracker)
        return tracker

    # -- the readable form --------------------------------------------------------------------

    def describe(self, observation: Observation) -> str:
        """The encoding of ``observation`` as text: what the vector says, field by field."""
        return self.describe_vector(self.encode(observation))

    def describe_vector(self, vector: Float32Array) -> str:
        """Decode an encoded vector into readable lines (relative seats: +1 is on the left)."""

        def cards_of(name: str) -> list[Card]:
            part = self.slice(vector, name)
            return [CARDS[i] for i in np.flatnonzero(part)]

        def scalar(name: str) -> float:
            return float(vector[self.field(name).offset])

        def text(cards: Sequence[Card]) -> str:
            return format_cards(cards) or "-"

        phase = next(p for p in ("draw", "discard", "over") if scalar(f"phase_{p}") > 0.5)
        to_act = next((k for k in range(self.players) if scalar(f"seat{k}.to_act") > 0.5), 0)
        dealer = next((k for k in range(self.players) if scalar(f"seat{k}.dealer") > 0.5), 0)
        pile_part = self.slice(vector, "pile")
        pile = [CARDS[i] for i in sorted(np.flatnonzero(pile_part), key=lambda i: pile_part[i])]
        upcard = cards_of("upcard")
        lines = [
            f"{self.players} players, seats relative to you (+k: k places to your left); "
            f"dealer {_rel(dealer)}, phase {phase}, {_rel(to_act)} to act"
            + (
                " (your turn" + (", your first" if scalar("first_turn") > 0.5 else "") + ")"
                if scalar("my_turn") > 0.5
                else ""
            ),
            f"hand: {text(cards_of('hand'))}"
            + (f"; taken this turn: {text(cards_of('taken'))}" if cards_of("taken") else ""),
            f"wild: {text(cards_of('wild'))}; upcard {text(upcard)}"
            + (" (face up under the stock)" if scalar("stock_bottom") > 0.5 else ""),
            f"stock {round(scalar('stock_size') * self.cards)}, rebuilds "
            f"{round(scalar('rebuilds') * (self.rules.max_rebuilds + 1))}, turn {round(scalar('turn') * COUNT_SCALE)}, "
            f"pot {scalar('pot') * self.chip_scale:g}",
            f"discard pile (bottom first): {text(pile)}",
        ]
        if scalar("call_made") > 0.5:
            code = round(scalar("highest_value") * VALUE_SCALE)
            lines.append(f"highest call: {Value.from_code(code, royal_high=self.rules.royal_high)}")
        for k in range(self.players):
            prefix = f"seat{k}."
            parts = [
                f"{round(scalar(prefix + 'hand_size') * 6)} cards",
                f"drew {round(scalar(prefix + 'draws') * COUNT_SCALE)} "
                f"({round(scalar(prefix + 'pile_draws') * COUNT_SCALE)} from the pile)",
                f"balance {scalar(prefix + 'balance') * self.chip_scale:g}",
            ]
            for name, label in (("discarded", "discarded"), ("took", "took"), ("known", "known")):
                found = cards_of(prefix + name)
                if found:
                    parts.append(f"{label} {text(found)}")
            if scalar(prefix + "called") > 0.5:
                code = round(scalar(prefix + "call_value") * VALUE_SCALE)
                value = Value.from_code(code, royal_high=self.rules.royal_high)
                first = " on its first turn" if scalar(prefix + "call_first_turn") > 0.5 else ""
                parts.append(f"called {text(cards_of(prefix + 'shown'))} = {value}{first}")
            lines.append(f"{'you' if k == 0 else _rel(k)}: " + "; ".join(parts))
        return "\n".join(lines)

    def slice(self, vector: npt.NDArray[np.generic], name: str) -> npt.NDArray[np.generic]:
        """The part of ``vector`` that holds field ``name``."""
        field = self.field(name)
        return vector[field.offset : field.end]


class DealEncoder:
    """The public part of the encoding of one deal, kept up to date one event at a time.

    Call :meth:`reset` with the deal's public start (R9.1), :meth:`push` with each event as
    any seat may see it (a private stock draw's card is never read), and :meth:`encode` with a
    seat and that seat's own hand. :class:`ObservationEncoder` drives one from observations;
    the environments drive one from the deal's events directly (R9 holds either way: nothing
    here reads a card that the seat could not see).
    """

    def __init__(self, encoder: ObservationEncoder) -> None:
        self.encoder = encoder
        self.key: tuple[object, ...] = ()
        enc = encoder
        self._players = enc.players
        self._cards = enc.cards
        self._rules = enc.rules
        self._abs = np.zeros(enc.size, np.float32)
        f = enc.field
        self._o_hand = f("hand").offset
        self._o_taken = f("taken").offset
        self._o_wild = f("wild").offset
        self._o_upcard = f("upcard").offset
        self._o_pile = f("pile").offset
        self._o_top = f("pile_top").offset
        self._o_dturn = f("discard_turn").offset
        self._o_phase = f("phase_draw").offset  # draw, discard, over follow in order
        self._o_my_turn = f("my_turn").offset
        self._o_first = f("first_turn").offset
        self._o_stock = f("stock_size").offset
        self._o_bottom = f("stock_bottom").offset
        self._o_rebuilds = f("rebuilds").offset
        self._o_turn = f("turn").offset
        self._o_call_made = f("call_made").offset
        self._o_highest = f("highest_value").offset
        self._o_category = f("highest_category").offset
        self._o_pot = f("pot").offset
        base = enc.seat_offset
        block = enc.seat_block
        planes = {name: index for index, (name, _) in enumerate(CARD_PLANES)}
        scalars = {
            name: len(CARD_PLANES) * self._cards + index for index, (name, _, _) in enumerate(SEAT_SCALARS)
        }
        # Offsets of each seat's planes and scalars in the absolute-seat vector.
        self._o_seat = [base + s * block for s in range(self._players)]
        self._p_discarded = planes["discarded"] * self._cards
        self._p_took = planes["took"] * self._cards
        self._p_known = planes["known"] * self._cards
        self._p_shown = planes["shown"] * self._cards
        self._s = scalars
        self._pile: list[Card] = []
        self._stock = 0
        self._hand_sizes: list[int] = []
        self._draws: list[int] = []
        self._pile_draws: list[int] = []
        self._seat = 0
        self._phase = 0  # 0 draw, 1 discard, 2 over
        self._taken: Card | None = None
        self._turn = 0
        self._rebuilds = 0
        self._best = 0
        self._upcard_shown = False

    # -- state changes -------------------------------------------------------------------------

    def reset(
        self,
        *,
        dealer: int,
        upcard: Card | None,
        initial_discard: Card | None,
        wild_cards: Iterable[Card],
        balances: Sequence[int],
        pot: int,
    ) -> None:
        """Start a new deal from its public facts (R2.5-R2.8, R9.1)."""
        rules = self._rules
        players = self._players
        cards = self._cards
        balances = tuple(balances)
        self.key = (dealer, upcard, initial_discard, balances, pot)
        v = self._abs
        v[:] = 0.0
        for card in wild_cards:
            v[self._o_wild + card] = 1.0
        if upcard is not None:
            v[self._o_upcard + upcard] = 1.0
        # R2.5-R2.7: what is left for the stock after the hands, the upcard and an open discard.
        stock = cards - HAND_SIZE * players
        if upcard is not None and not rules.upcard_under_stock:
            stock -= 1  # R2.6 [gamerules]: out of play
        self._upcard_shown = upcard is not None and rules.upcard_under_stock
        v[self._o_bottom] = float(self._upcard_shown)
        self._pile = []
        if initial_discard is not None:
            stock -= 1
            self._pile_push(initial_discard)
        self._stock = stock
        v[self._o_stock] = stock / cards
        self._hand_sizes = [HAND_SIZE] * players
        self._draws = [0] * players
        self._pile_draws = [0] * players
        self._turn = 0
        self._rebuilds = 0
        self._best = 0
        self._taken = None
        self._phase = 0
        v[self._o_phase] = 1.0
        self._seat = (dealer + 1) % players  # R4.1
        scale = self.encoder.chip_scale
        s = self._s
        for seat in range(players):
            o = self._o_seat[seat]
            v[o + s["hand_size"]] = HAND_SIZE / 6
            v[o + s["not_drawn"]] = 1.0
            v[o + s["balance"]] = min(max(balances[seat] / scale, -CHIP_BOUND), CHIP_BOUND)
        v[self._o_seat[dealer] + s["dealer"]] = 1.0
        v[self._o_seat[self._seat] + s["to_act"]] = 1.0
        v[self._o_pot] = min(max(pot / scale, 0.0), CHIP_BOUND)

    def _pile_push(self, card: Card) -> None:
        v = self._abs
        pile = self._pile
        if pile:
            v[self._o_top + pile[-1]] = 0.0
        pile.append(card)
        v[self._o_pile + card] = len(pile) / self._cards
        v[self._o_top + card] = 1.0

    def _set_phase(self, phase: int) -> None:
        v = self._abs
        v[self._o_phase + self._phase] = 0.0
        v[self._o_phase + phase] = 1.0
        self._phase = phase

    def _set_hand_size(self, seat: int, size: int) -> None:
        self._hand_sizes[seat] = size
        self._abs[self._o_seat[seat] + self._s["hand_size"]] = size / 6

    def _draw(self, seat: int) -> None:
        v = self._abs
        o = self._o_seat[seat]
        s = self._s
        self._draws[seat] += 1
        v[o + s["draws"]] = min(self._draws[seat], COUNT_SCALE) / COUNT_SCALE
        v[o + s["not_drawn"]] = 0.0
        self._set_hand_size(seat, self._hand_sizes[seat] + 1)
        self._turn += 1
        v[self._o_turn] = min(self._turn, COUNT_SCALE) / COUNT_SCALE
        self._set_phase(1)

    def _rebuild(self) -> None:
        """R4.6: the discard pile (but its top card, by default) becomes the stock."""
        v = self._abs
        pile = self._pile
        keep = pile[-1:] if self._rules.reshuffle_keeps_top else []
        moved = pile[: len(pile) - len(keep)]
        for card in moved:
            v[self._o_pile + card] = 0.0
        if not keep and pile:
            v[self._o_top + pile[-1]] = 0.0
        self._pile = list(keep)
        for card in keep:
            v[self._o_pile + card] = 1 / self._cards
        self._stock += len(moved)
        self._rebuilds += 1
        v[self._o_rebuilds] = self._rebuilds / (self._rules.max_rebuilds + 1)

    def push(self, event: Event) -> None:
        """Fold in one event as everyone sees it: a private card is never read (R4.5, R9.3)."""
        v = self._abs
        seat = event.seat
        o = self._o_seat[seat]
        kind = event.action.kind
        if kind is ActionKind.DRAW_STOCK:
            if event.public and event.card is None:  # R4.7: the dead deal's draw draws nothing
                self._set_phase(2)
                return
            if event.rebuilt:
                self._rebuild()
            self._stock -= 1
            v[self._o_stock] = self._stock / self._cards
            if event.public and event.card is not None:  # R2.6: the face-up upcard
                v[o + self._p_known + event.card] = 1.0
                self._upcard_shown = False
                v[self._o_bottom] = 0.0
            self._draw(seat)
            return
        if kind is ActionKind.DRAW_DISCARD:
            card = self._pile.pop()
            v[self._o_pile + card] = 0.0
            v[self._o_top + card] = 0.0
            if self._pile:
                v[self._o_top + self._pile[-1]] = 1.0
            v[o + self._p_took + card] = 1.0
            v[o + self._p_known + card] = 1.0
            self._taken = card
            v[self._o_taken + card] = 1.0  # R4.3: it may not go back this turn
            self._pile_draws[seat] += 1
            v[o + self._s["pile_draws"]] = min(self._pile_draws[seat], COUNT_SCALE) / COUNT_SCALE
            self._draw(seat)
            return
        # A discard or a call ends the turn (R4.2, R6).
        if self._taken is not None:
            v[self._o_taken + self._taken] = 0.0
            self._taken = None
        put_down = event.card
        if put_down is not None:  # discarded, or put down with a five-card call (R6.2)
            self._pile_push(put_down)
            v[self._o_dturn + put_down] = min(self._turn, COUNT_SCALE) / COUNT_SCALE
            v[o + self._p_discarded + put_down] = 1.0
            v[o + self._p_known + put_down] = 0.0
            self._set_hand_size(seat, self._hand_sizes[seat] - 1)
        call = event.call
        if call is not None:  # R6.5: shown cards out of play, face up
            s = self._s
            v[o + self._p_known : o + self._p_known + self._cards] = 0.0
            for shown in call.shown:
                v[o + self._p_shown + shown] = 1.0
            code = call.value.code
            v[o + s["called"]] = 1.0
            v[o + s["call_value"]] = code / VALUE_SCALE
            v[o + s["call_first_turn"]] = float(call.first_turn)
            self._set_hand_size(seat, 0)
            v[self._o_call_made] = 1.0
            if code > self._best:
                self._best = code
                v[self._o_highest] = code / VALUE_SCALE
                v[self._o_category : self._o_category + len(_CATEGORIES)] = 0.0
                v[self._o_category + _CATEGORIES.index(call.value.category)] = 1.0
        if event.ends_deal:  # R7.1, R7.3
            self._set_phase(2)
            return
        s = self._s
        v[o + s["to_act"]] = 0.0
        self._seat = (seat + 1) % self._players  # R2.2, R7.2
        v[self._o_seat[self._seat] + s["to_act"]] = 1.0
        self._set_phase(0)

    # -- reading -------------------------------------------------------------------------------

    @property
    def current_seat(self) -> int:
        return self._seat

    @property
    def is_over(self) -> bool:
        return self._phase == 2

    def first_turn(self, seat: int) -> bool:
        """Whether ``seat``'s current or next turn is its first (R5.7), as Observation says."""
        if seat == self._seat and self._phase != 2:
            return self._draws[seat] == (0 if self._phase == 0 else 1)
        return self._draws[seat] == 0

    def encode(self, seat: int, hand: Iterable[Card], out: Float32Array | None = None) -> Float32Array:
        """Seat ``seat``'s vector, given its own hand (R9.2): one gather, then the private part."""
        enc = self.encoder
        if out is None:
            out = np.empty(enc.size, np.float32)
        self._abs.take(enc._perm[seat], out=out)
        o = self._o_hand
        for card in hand:
            out[o + card] = 1.0
        out[self._o_my_turn] = float(seat == self._seat and self._phase != 2)
        out[self._o_first] = float(self.first_turn(seat))
        return out

    def encode_state(
        self, hands: Sequence[Iterable[Card]], stock: Sequence[Card], out: Float32Array | None = None
    ) -> Float32Array:
        """The whole table (:meth:`ObservationEncoder.state_layout`) given every seat's hand
        and the stock, bottom card first: for centralised critics only (it sees everything)."""
        enc = self.encoder
        cards = enc.cards
        if out is None:
            out = np.empty(enc.state_size, np.float32)
        out[: enc.size] = self._abs
        out[enc.size :] = 0.0
        for seat, hand in enumerate(hands):
            base = enc.size + seat * cards
            for card in hand:
                out[base + card] = 1.0
        base = enc.size + len(hands) * cards
        for place, card in enumerate(reversed(stock)):
            out[base + card] = (place + 1) / cards
        return out


def _start_key(observation: Observation) -> tuple[object, ...]:
    return (
        observation.dealer,
        observation.upcard,
        observation.initial_discard,
        tuple(observation.balances),
        observation.pot,
    )


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _rel(k: int) -> str:
    return "you" if k == 0 else f"+{k}"


# -- action masks ------------------------------------------------------------------------------


def rules_for_seats(preset: str, players: int, options: dict[str, object]) -> RuleSet:
    """The rule set for ``players`` seats: ``max_players`` follows ``players`` above the
    default 5 unless it is given (R2.1)."""
    if (
        "max_players" not in options
        and isinstance(players, int)
        and RuleSet().max_players < players <= MAX_SEATS
    ):
        options = {**options, "max_players": players}
    return RuleSet.from_preset(preset, **options)


def legal_mask(actions: Iterable[Action], out: Int8Array | None = None) -> Int8Array:
    """An int8 mask of length ``NUM_ACTIONS`` with 1 at each action's id."""
    if out is None:
        out = np.zeros(NUM_ACTIONS, np.int8)
    else:
        out[:] = 0
    for action in actions:
        out[action.id] = 1
    return out


def action_mask(observation: Observation, out: Int8Array | None = None) -> Int8Array:
    """The legal-action mask of a seat's observation (all zeros when it is not its turn)."""
    return legal_mask(observation.legal_actions, out)


# -- documentation -----------------------------------------------------------------------------


@functools.lru_cache(maxsize=32)
def _encoder(rules: RuleSet, players: int) -> ObservationEncoder:
    return ObservationEncoder(rules, players)


def layout_table(rules: RuleSet, players: int) -> str:
    """The layout as a Markdown table (the one in ``docs/encoding.md``)."""
    encoder = _encoder(rules, players)
    rows = ["| field | offset | length | int8 scale | meaning |", "| --- | ---: | ---: | ---: | --- |"]
    for field in encoder.layout:
        scale = encoder.int8_scale(field.name)
        rows.append(f"| `{field.name}` | {field.offset} | {field.length} | {scale:g} | {field.meaning} |")
    rows.append(f"| (total) | {encoder.size} | | | |")
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m paiute.envs.encoding [players] [preset] [option=value ...]``: print the table.

    Bad arguments get one line on stderr and exit status 2."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    try:
        players = int(args.pop(0)) if args and args[0].isdigit() else 4
        preset = args.pop(0) if args and "=" not in args[0] else "pagat"
        options = dict(RuleSet.parse_option(arg) for arg in args)
        table = layout_table(rules_for_seats(preset, players, options), players)
    except PaiuteError as error:
        print(f"python -m paiute.envs.encoding: {error}", file=sys.stderr)
        return 2
    print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
