"""The chance that a discard feeds the next player: a logistic model over public facts (R9).

Almost every deal is won by its first caller (R8.1), and many first calls are made with the
card just taken from the discard pile (R4.2): the card the player before threw. A discard
that completes the next player's combination hands it the deal. :class:`FeedModel` estimates,
for each card a seat considers throwing, the chance that the next player (R2.2) could call at
once after taking it (R4.3, R6.2; a Paiute only where R5.7 allows it), from what the seat has
seen alone: a row of :func:`public_facts` per card, then the logistic function of the row's
dot product with the model's coefficients.

The columns (:data:`FACTS`, then ``paiute allowed``; :data:`COLUMNS`) say what the next player
did with cards of the card's rank and suit, and when: whether the card is wild (R3), how many
of its rank the next player is known to hold (R4.5), threw, took from the pile and passed over
for a stock draw, on its last turn or before; how many of the rank and suit the deciding seat
has not seen; the next player's cards of the suit and of the ranks beside it known or thrown;
the rank; the next player's draws so far; whether it may still call a Paiute (R5.7).

The coefficients shipped with the package (``data/feed.json``, one set per preset and table
size from 2 to 5 seats) were fitted by ``scripts/make_feed_model.py`` on greedy's
self-play, the labels read from the true
next hand and never shown to a player; ``docs/guarded.md`` says how, and what guarding
greedy's discards with them is worth (:mod:`paiute.players.guarded`).

>>> from paiute import Deal, RuleSet, SeededChance
>>> deal = Deal.new(RuleSet(), players=4, dealer=0, chance=SeededChance(5))
>>> observation = deal.observation(deal.current_seat)
>>> model = FeedModel.shipped(observation.rules, observation.players)
>>> chances = model.chances(observation, observation.hand)
>>> len(chances) == len(observation.hand) and all(0.0 < p < 1.0 for p in chances)
True
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from paiute.actions import ActionKind
from paiute.cards import Card
from paiute.observation import Observation
from paiute.outs import Unseen
from paiute.players.base import PlayerError
from paiute.rules import MAX_SEATS, PRESETS, RuleSet

__all__ = [
    "COLUMNS",
    "FACTS",
    "FEED_FORMAT",
    "SHIPPED",
    "FeedModel",
    "feed_rows",
    "next_seat",
    "paiute_allowed",
    "public_facts",
    "read_models",
]

#: Columns of :func:`public_facts`.
FACTS: tuple[str, ...] = (
    "bias",
    "wild",
    *(f"known {k}" for k in ("1", "2+")),
    *(f"threw {k}" for k in ("1", "2+")),
    *(f"took {k}" for k in ("1", "2+")),
    *(f"passed {k}" for k in ("1", "2+")),
    "threw last turn",
    "took last turn",
    "passed last turn",
    *(f"rank unseen {k}" for k in ("1", "2", "3")),
    "suit known",
    "suit threw",
    "suit unseen",
    "beside known",
    "beside threw",
    *(f"rank {r}" for r in range(12)),
    *(f"draws {k}" for k in ("1", "2", "3-4", "5+")),
)
#: Columns of :func:`feed_rows` and of a :class:`FeedModel`'s coefficients.
COLUMNS: tuple[str, ...] = (*FACTS, "paiute allowed")
_AT = {name: i for i, name in enumerate(COLUMNS)}

#: The format of the coefficients file.
FEED_FORMAT = "paiute-feed-model/1"
#: The coefficients shipped with the package, a set a preset and table size.
SHIPPED = Path(__file__).with_name("data") / "feed.json"
#: The largest coefficients file read.
_MAX_FILE_BYTES = 1 << 20


def next_seat(observation: Observation) -> int:
    """The seat that draws after this one before any call: the next one clockwise (R2.2)."""
    if observation.seat is None:
        raise PlayerError("a spectator's observation has no next player")
    return (observation.seat + 1) % observation.players


def paiute_allowed(observation: Observation, seat: int) -> bool:
    """Whether ``seat`` may call a Paiute on its next turn: any turn where the rules allow it,
    else only before its first draw (R5.7, R2.1)."""
    if observation.rules.paiute_allowed_any_turn(observation.players):
        return True
    return not any(event.seat == seat and event.action.kind.is_draw for event in observation.history)


@dataclass(frozen=True, slots=True)
class _Actions:
    """What each seat did, read from the public history: cards of each rank (13) it threw,
    took from the pile and passed over for a stock draw, cards of each suit (4) it threw,
    and its last turn's rank thrown, taken and passed (-1 for none)."""

    threw: list[list[int]]
    took: list[list[int]]
    passed: list[list[int]]
    threw_suit: list[list[int]]
    last: list[list[int]]

    @classmethod
    def of(cls, observation: Observation) -> _Actions:
        players = observation.players
        actions = cls(
            [[0] * 13 for _ in range(players)],
            [[0] * 13 for _ in range(players)],
            [[0] * 13 for _ in range(players)],
            [[0] * 4 for _ in range(players)],
            [[-1, -1, -1] for _ in range(players)],
        )
        pile: list[int] = [] if observation.initial_discard is None else [int(observation.initial_discard)]
        keeps_top = observation.rules.reshuffle_keeps_top
        for event in observation.history:
            kind, seat = event.action.kind, event.seat
            if event.rebuilt:  # R4.6: the pile goes into the new stock, its top card kept or not
                pile = pile[-1:] if keeps_top else []
            if kind is ActionKind.DRAW_STOCK and not event.ends_deal:
                actions.last[seat] = [-1, -1, -1]
                if pile and pile[-1] < 52:
                    actions.passed[seat][pile[-1] // 4] += 1
                    actions.last[seat][2] = pile[-1] // 4
            elif kind is ActionKind.DRAW_DISCARD:
                card = pile.pop()
                actions.last[seat] = [-1, -1, -1]
                if card < 52:
                    actions.took[seat][card // 4] += 1
                    actions.last[seat][1] = card // 4
            elif kind in (ActionKind.DISCARD, ActionKind.CALL_FIVE) and event.card is not None:
                card = int(event.card)
                pile.append(card)
                if card < 52:  # a joker has no rank or suit
                    actions.threw[seat][card // 4] += 1
                    actions.threw_suit[seat][card % 4] += 1
                    actions.last[seat][0] = card // 4
        return actions


def _draws_bucket(draws: int) -> str | None:
    if draws < 1:
        return None
    return "draws " + ("1" if draws == 1 else "2" if draws == 2 else "3-4" if draws <= 4 else "5+")


def public_facts(
    observation: Observation,
    cards: Iterable[Card | int],
    seat: int,
    counted: Iterable[Card | int] | None = None,
) -> list[list[float]]:
    """A row of :data:`FACTS` per card: what ``seat`` did with cards of its rank and suit,
    read from ``observation`` alone (R9; see the module).

    The unseen cards of a row's rank and suit are counted among ``cards``, the row's card
    included. For cards the deciding seat holds, ``counted`` gives the cards it has not seen
    instead, and the row's card is counted with them, so that the columns mean the same.

    >>> from paiute import Deal, RuleSet, SeededChance
    >>> deal = Deal.new(RuleSet(), players=4, dealer=0, chance=SeededChance(5))
    >>> observation = deal.observation(deal.current_seat)
    >>> rows = public_facts(observation, observation.hand, 1, Unseen.of(observation).cards)
    >>> [len(row) for row in rows] == [len(FACTS)] * len(observation.hand)
    True
    """
    actions = _Actions.of(observation)
    wild = {int(card) for card in observation.wild_cards}
    cards = [int(card) for card in cards]
    known = [int(c) for c in observation.known_cards[seat] if int(c) < 52 and int(c) not in wild]
    known_rank, known_suit = [0] * 13, [0] * 4
    for card in known:
        known_rank[card // 4] += 1
        known_suit[card % 4] += 1
    unseen_rank, unseen_suit = [0] * 13, [0] * 4
    for card in cards if counted is None else (int(c) for c in counted):
        if card < 52 and card not in wild:
            unseen_rank[card // 4] += 1
            unseen_suit[card % 4] += 1
    own = 0 if counted is None else 1  # the row's card, held and so not among ``counted``
    draws = sum(
        1 for e in observation.history if e.seat == seat and e.action.kind.is_draw and not e.ends_deal
    )
    bucket = _draws_bucket(draws)
    threw, took, passed = actions.threw[seat], actions.took[seat], actions.passed[seat]
    last = actions.last[seat]
    rows = []
    for card in cards:
        row = [0.0] * len(FACTS)
        row[_AT["bias"]] = 1.0
        if bucket is not None:
            row[_AT[bucket]] = 1.0
        rows.append(row)
        if card >= 52 or card in wild:  # R3: a wild card is kept whatever its rank
            row[_AT["wild"]] = 1.0
            continue
        rank, suit = card // 4, card % 4
        for name, count in (
            ("known", known_rank[rank]),
            ("threw", threw[rank]),
            ("took", took[rank]),
            ("passed", passed[rank]),
        ):
            if count:
                row[_AT[f"{name} {'1' if count == 1 else '2+'}"]] = 1.0
        row[_AT["threw last turn"]] = float(last[0] == rank)
        row[_AT["took last turn"]] = float(last[1] == rank)
        row[_AT["passed last turn"]] = float(last[2] == rank)
        if unseen_rank[rank] + own <= 3:  # all four unseen is the baseline
            row[_AT[f"rank unseen {unseen_rank[rank] + own}"]] = 1.0
        row[_AT["suit known"]] = float(known_suit[suit])
        row[_AT["suit threw"]] = float(actions.threw_suit[seat][suit])
        row[_AT["suit unseen"]] = (unseen_suit[suit] + own) / 13
        beside = [r for r in (rank - 1, rank + 1) if 0 <= r < 13]
        row[_AT["beside known"]] = float(sum(known_rank[r] for r in beside))
        row[_AT["beside threw"]] = float(sum(threw[r] for r in beside))
        if rank < 12:  # the ace is the baseline
            row[_AT[f"rank {rank}"]] = 1.0
    return rows


def feed_rows(observation: Observation, cards: Sequence[Card]) -> list[list[float]]:
    """A row of :data:`COLUMNS` per card the deciding seat might throw now: the next player's
    :func:`public_facts` about it, and whether that player may still call a Paiute (R5.7)."""
    seat = next_seat(observation)
    allowed = float(paiute_allowed(observation, seat))
    rows = public_facts(observation, cards, seat, Unseen.of(observation).cards)
    return [[*row, allowed] for row in rows]


@dataclass(frozen=True, slots=True)
class FeedModel:
    """Coefficients over :data:`COLUMNS` of the logistic chance that a card feeds the next
    player (see the module), fitted on the rule set of one ``preset`` at ``seats`` seats."""

    preset: str
    seats: int
    coefficients: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.coefficients) != len(COLUMNS):
            raise PlayerError(
                f"a feed model has {len(COLUMNS)} coefficients, one a column, not {len(self.coefficients)}"
            )
        if not all(math.isfinite(c) for c in self.coefficients):
            raise PlayerError("a feed model's coefficients must be finite numbers")

    def chances(self, observation: Observation, cards: Sequence[Card]) -> list[float]:
        """For each of ``cards`` thrown now, the chance that the next player could call at once
        with it (from ``observation`` alone, R9)."""
        chances = []
        for row in feed_rows(observation, cards):
            score = sum(c * x for c, x in zip(self.coefficients, row, strict=True))
            # The logistic function, written so that neither branch overflows.
            chances.append(
                1.0 / (1.0 + math.exp(-score)) if score >= 0 else math.exp(score) / (1.0 + math.exp(score))
            )
        return chances

    @classmethod
    def shipped(cls, rules: RuleSet, players: int) -> FeedModel:
        """The package's model for ``rules`` at ``players`` seats (``data/feed.json``, read
        once a process; see :meth:`read`)."""
        return cls.read(SHIPPED, rules, players)

    @classmethod
    def read(cls, path: str | Path, rules: RuleSet, players: int) -> FeedModel:
        """The model for ``rules`` at ``players`` seats in a coefficients file written by
        ``scripts/make_feed_model.py``; a :class:`PlayerError` that says what is wrong
        with a file that cannot serve.

        A rule set is always a preset with options changed (:meth:`RuleSet.from_preset`): it
        is served by the models of the preset it was built from, since the options that tell
        the presets apart (an open discard pile, a Paiute on any turn, the upcard) are the ones
        that change what a next player's actions mean. Of those, the one fitted at the seat
        count nearest ``players`` serves (the larger of two as near): a table of six is
        served by the model of five."""
        models = read_models(str(path)).get(rules.preset)
        if not models:
            raise PlayerError(
                f"the feed model file {str(path)!r} has no coefficients for the preset {rules.preset!r}"
            )
        return models[min(models, key=lambda seats: (abs(seats - players), -seats))]


@cache
def read_models(path: str) -> dict[str, dict[int, FeedModel]]:
    """The models of a coefficients file, by preset and seat count (each file is read once a
    process)."""
    file = Path(path)
    try:
        # A device or a huge file is refused before it is read (the shipped one is far smaller).
        if not file.is_file() or file.stat().st_size > _MAX_FILE_BYTES:
            raise ValueError(f"not a regular file of at most {_MAX_FILE_BYTES // 1024} KiB")
        document = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise PlayerError(f"cannot read the feed model file {path!r}: {error}") from None
    if not isinstance(document, dict) or document.get("format") != FEED_FORMAT:
        raise PlayerError(f"{path!r} is not a feed model file (expected format {FEED_FORMAT!r})")
    if document.get("columns") != list(COLUMNS):
        raise PlayerError(f"the feed model file {path!r} was fitted on other columns than this version's")
    models = document.get("models")
    if not isinstance(models, dict):
        raise PlayerError(f"the feed model file {path!r} has no 'models' object")
    read: dict[str, dict[int, FeedModel]] = {}
    for preset, by_seats in models.items():
        if preset not in PRESETS or not isinstance(by_seats, dict):
            raise PlayerError(f"the feed model file {path!r}: bad entry {preset!r}")
        read[preset] = {}
        for seats, entry in by_seats.items():
            coefficients = entry.get("coefficients") if isinstance(entry, dict) else None
            if not (isinstance(seats, str) and seats.isdigit() and 2 <= int(seats) <= MAX_SEATS):
                raise PlayerError(f"the feed model file {path!r}: {preset!r} has a bad seat count {seats!r}")
            if not isinstance(coefficients, list) or not all(
                isinstance(c, int | float) and not isinstance(c, bool) for c in coefficients
            ):
                raise PlayerError(
                    f"the feed model file {path!r}: the coefficients of {preset!r} at {seats} seats must be numbers"
                )
            read[preset][int(seats)] = FeedModel(preset, int(seats), tuple(float(c) for c in coefficients))
    return read
