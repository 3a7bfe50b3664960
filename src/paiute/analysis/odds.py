"""Odds of the combinations (R3, R5): after the first draw, and within N turns.

**After the first draw** a player holds six cards: the five dealt and one drawn from the
stock. From the player's point of view these are six cards taken uniformly from the cards it
has not seen: the pack less the upcard (R2.6; with ``jokers`` no upcard is turned, R2.8).
So with ``wild_colour = any`` three wild cards are left among 51 unseen cards (R3.1), with
``opposite`` two (R3.3; the upcard's same-colour twin is a natural card), and with ``jokers``
two jokers among 54 (R3.2). The number of players plays no part in this.

:func:`exact_first_draw` counts every six-card holding exactly, without visiting the
C(51, 6) = 18,009,460 of them one by one:

* a holding is ``w`` wild cards (``C(W, w)`` ways) and ``n = 6 - w`` natural cards;
* what the rank-based combinations (R5.1, R5.4-R5.6) need is only the *pattern* of the
  naturals' rank counts (``(2, 2, 1, 1)``…), and the number of natural sets with each pattern
  is a sum of products of binomials over the ranks;
* a straight flush (R5.2, R5.3) in six cards needs ``5 - w = n - 1`` naturals of one suit in
  one window, so only the "flushy" natural sets (all of one suit, or all but one) can make
  one. Those are enumerated explicitly, one suit at a time (a few thousand sets; the odd card
  out matters only by whether its rank repeats one of the suited ranks), and subtracted from
  the pattern counts; the rest cannot make a straight flush.

The counts are exact integers; they are averaged over the 13 equally likely upcard ranks (the
wild rank changes which straight flushes need a wild card). :func:`monte_carlo_first_draw`
samples the same thing (with a uniformly random upcard of any suit) and judges the best call
with :class:`~paiute.evaluator.Evaluator`, so the two are independent checks of each other.

**Within N turns** (:func:`monte_carlo_turns`) is Monte Carlo only: one player, seated at the
dealer's left, draws from the stock each turn, calls as soon as it can (R6.1; a Paiute only on
its first turn unless ``paiute_any_turn`` or six or more players, R5.7, R2.1), and otherwise
discards by a simple keep-best policy. The other players only draw from the stock and discard
the card drawn, so the player count acts through the stock: the more players, the sooner the
stock is rebuilt from the discards (R4.6) and the sooner a deal goes dead (R4.7).

>>> odds = exact_first_draw("jokers")
>>> odds.holdings, odds.any.count, f"{odds.any.value:.4f}"
(25827165, 433809, '0.0168')
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

from paiute.cards import CARDS, Card, pack
from paiute.combos import Category, may_call
from paiute.errors import N_
from paiute.evaluator import STRAIGHT_FLUSH_WINDOWS, Evaluator
from paiute.rules import RuleSet

__all__ = [
    "WILD_OPTIONS",
    "FirstDrawOdds",
    "Probability",
    "TurnsOdds",
    "category_order",
    "exact_first_draw",
    "holding_categories",
    "monte_carlo_first_draw",
    "monte_carlo_turns",
    "rules_with_wild_option",
    "wilson",
]

#: The wild-card options of R3: all four cards of the upcard's rank, the two of the other
#: colour, or the two jokers.
WILD_OPTIONS = ("any", "opposite", "jokers")

_HELD = 6  # cards held after a draw (R4.4)
_ROYAL_WINDOW = STRAIGHT_FLUSH_WINDOWS[0][1]
_LOW_WINDOWS = tuple(window for top, window in STRAIGHT_FLUSH_WINDOWS if top != 14)
_BIT = {category: 1 << index for index, category in enumerate(Category)}
_Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    >>> low, high = wilson(50, 100)
    >>> round(low, 4), round(high, 4)
    (0.4038, 0.5962)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return low, high


def category_order(royal_high: bool = False) -> tuple[Category, ...]:
    """The six categories best first (R5; R5.8 moves the Royal Flush to the top)."""
    return tuple(sorted(Category, key=lambda category: -category.order(royal_high)))


def rules_with_wild_option(wild: str, players: int = 2) -> RuleSet:
    """The default rules with the wild option ``wild`` and room for ``players`` (R2.1)."""
    if wild not in WILD_OPTIONS:
        raise ValueError(f"unknown wild option {wild!r} (one of {', '.join(WILD_OPTIONS)})")
    return RuleSet(
        jokers=wild == "jokers",
        wild_colour="opposite" if wild == "opposite" else "any",
        max_players=max(5, players),
    )


# -- what a holding can make ------------------------------------------------------------------


@cache
def _rank_bits(pattern: tuple[int, ...], wild: int) -> int:
    """Categories of R5.1 and R5.4-R5.6 that six cards can make: naturals whose rank counts
    are ``pattern`` (high first) plus ``wild`` wild cards naming anything (R3.4)."""
    distinct = len(pattern)
    top = pattern[0] if pattern else 0
    bits = 0
    if top + wild >= 5:  # R5.1: five of one rank, in any five of the six
        bits |= _BIT[Category.FIVE_OF_A_KIND]
    if distinct <= 2 and top <= 4 and (distinct < 2 or pattern[1] <= 2):  # R5.4
        bits |= _BIT[Category.FOUR_TWO]
    if distinct <= 2 and top <= 3:  # R5.5
        bits |= _BIT[Category.THREE_THREE]
    if distinct <= 3 and top <= 2:  # R5.6
        bits |= _BIT[Category.PAIUTE]
    return bits


@cache
def _flush_bits(mask: int, wild: int) -> int:
    """R5.2 and R5.3 in any five of six cards: ``mask`` is one suit's naturals (bit 0 = two)."""
    bits = 0
    if (mask & _ROYAL_WINDOW).bit_count() + wild >= 5:
        bits |= _BIT[Category.ROYAL_FLUSH]
    if any((mask & window).bit_count() + wild >= 5 for window in _LOW_WINDOWS):
        bits |= _BIT[Category.STRAIGHT_FLUSH]
    return bits


def _holding_bits(held: Iterable[Card], wild_cards: frozenset[Card]) -> int:
    counts = [0] * 13
    masks = [0, 0, 0, 0]
    wild = 0
    for card in held:
        if card in wild_cards or card.is_joker:
            wild += 1
        else:
            counts[card >> 2] += 1
            masks[card & 3] |= 1 << (card >> 2)
    pattern = tuple(sorted((count for count in counts if count), reverse=True))
    bits = _rank_bits(pattern, wild)
    for mask in masks:
        if mask:
            bits |= _flush_bits(mask, wild)
    return bits


def holding_categories(held: Iterable[Card], wild_cards: Iterable[Card]) -> frozenset[Category]:
    """Every category that six held cards can show (not only the best), with ``wild_cards``.

    >>> from paiute.cards import parse_cards
    >>> sorted(c.value for c in holding_categories(parse_cards("3h 3s Ad Ac Ks Kh"), parse_cards("3c 3d 3h 3s")))
    ['four_two', 'paiute', 'three_three']
    """
    bits = _holding_bits(held, frozenset(wild_cards))
    return frozenset(category for category in Category if bits & _BIT[category])


def _best_of(bits: int, order: Sequence[Category]) -> Category | None:
    for category in order:
        if bits & _BIT[category]:
            return category
    return None


# -- results ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Probability:
    """A probability: exact (``count / total`` holdings) or estimated (``count`` of ``total``
    samples, with a Wilson 95% interval ``low .. high``)."""

    count: int
    total: int
    exact: bool

    @property
    def value(self) -> float:
        return self.count / self.total if self.total else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        if self.exact:
            return self.value, self.value
        return wilson(self.count, self.total)

    @property
    def fraction(self) -> Fraction:
        return Fraction(self.count, self.total) if self.total else Fraction(0)

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"p": self.value}
        if self.exact:
            fraction = self.fraction
            data["fraction"] = f"{fraction.numerator}/{fraction.denominator}"
        else:
            data["ci95"] = list(self.interval)
            data["count"] = self.count
            data["samples"] = self.total
        return data


@dataclass(frozen=True)
class FirstDrawOdds:
    """How likely each category is in the six cards held after the first draw.

    ``available[c]``: the holding can show a ``c`` (a call of that category is possible);
    ``best[c]``: ``c`` is its best call; ``any``: some call is possible (R6.1, R5.7: the first
    draw is the first turn, so a Paiute counts).
    """

    wild: str
    method: str  # "exact" or "monte-carlo"
    royal_high: bool
    unseen: int  # cards the player has not seen before the deal: 51, or 54 with jokers
    wild_left: int  # wild cards among them
    holdings: int  # C(unseen, 6)
    settings: int  # upcard ranks averaged over (13, or 1 with jokers)
    available: dict[Category, Probability]
    best: dict[Category, Probability]
    any: Probability
    samples: int = 0
    seed: int | None = None

    def to_json(self) -> dict[str, object]:
        order = category_order(self.royal_high)
        data: dict[str, object] = {
            "wild": self.wild,
            "method": self.method,
            "royal_high": self.royal_high,
            "unseen": self.unseen,
            "wild_left": self.wild_left,
            "holdings": self.holdings,
            "upcard_ranks": self.settings,
            "available": {category.value: self.available[category].to_json() for category in order},
            "best": {category.value: self.best[category].to_json() for category in order},
            "any": self.any.to_json(),
        }
        if self.method == "monte-carlo":
            data["samples"] = self.samples
            data["seed"] = self.seed
        return data


@dataclass(frozen=True)
class TurnsOdds:
    """How likely a player is to have been able to call within ``t`` of its own turns, for
    ``t = 1 .. turns`` (Monte Carlo; see the module text for the model)."""

    wild: str
    players: int
    turns: int
    samples: int
    seed: int
    paiute_any_turn: bool
    within: tuple[Probability, ...]  # within[t - 1]: could call by its t-th turn
    dead: Probability  # the deal went dead (R4.7) before the player could call
    completed_with: dict[Category, Probability] = field(default_factory=dict)  # first call's category

    def to_json(self) -> dict[str, object]:
        return {
            "wild": self.wild,
            "players": self.players,
            "turns": self.turns,
            "samples": self.samples,
            "seed": self.seed,
            "method": "monte-carlo",
            "paiute_any_turn": self.paiute_any_turn,
            "policy": POLICY,
            "within": [{"turn": turn + 1, **p.to_json()} for turn, p in enumerate(self.within)],
            "dead": self.dead.to_json(),
            "completed_with": {category.value: p.to_json() for category, p in self.completed_with.items()},
        }


#: The bots' policy (a message: ``paiute odds`` shows it translated; ``--json`` in English).
POLICY = N_(
    "the player draws from the stock, calls as soon as it can, else keeps the five cards closest "
    "to a combination (fewest cards missing, then most combinations at that distance, then most "
    "wild cards); the other players draw from the stock and discard the card drawn"
)


# -- exact counting ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Setting:
    """One first-draw situation: the cards unseen and which of them are wild."""

    unseen: tuple[Card, ...]
    wild_cards: frozenset[Card]


def _settings(wild: str) -> list[_Setting]:
    """The situations to average over: one per upcard rank (the suit does not matter, by
    symmetry: clubs is taken), or the one situation of the jokers option."""
    rules = rules_with_wild_option(wild)
    if rules.jokers:
        cards = tuple(pack(True))
        return [_Setting(cards, rules.wild_cards(None))]
    settings = []
    for rank in range(13):
        upcard = CARDS[rank * 4]  # the clubs of that rank
        unseen = tuple(card for card in pack(False) if card != upcard)
        settings.append(_Setting(unseen, rules.wild_cards(upcard)))
    return settings


@cache
def _pattern_totals(availability: tuple[int, ...], naturals: int) -> dict[tuple[int, ...], int]:
    """How many sets of ``naturals`` natural cards have each rank pattern, when rank ``r``
    has ``availability[r]`` natural cards left (any suits)."""
    totals: Counter[tuple[int, ...]] = Counter()
    ranks = len(availability)

    def walk(rank: int, left: int, counts: tuple[int, ...], weight: int) -> None:
        if left == 0:
            totals[tuple(sorted(counts, reverse=True))] += weight
            return
        if rank == ranks:
            return
        for take in range(min(left, availability[rank]) + 1):
            walk(
                rank + 1,
                left - take,
                (*counts, take) if take else counts,
                weight * math.comb(availability[rank], take),
            )

    walk(0, naturals, (), 1)
    return dict(totals)


def _count_setting(setting: _Setting) -> tuple[Counter[int], int]:
    """Exact counts for one situation: how many six-card holdings have each set of available
    categories (a bit mask), and the number of holdings (as a check, C(unseen, 6))."""
    wilds = [card for card in setting.unseen if card in setting.wild_cards]
    naturals = [card for card in setting.unseen if card not in setting.wild_cards]
    suit_masks = [0, 0, 0, 0]
    for card in naturals:
        suit_masks[card & 3] |= 1 << (card >> 2)
    availability = tuple(sum(1 for mask in suit_masks if mask >> rank & 1) for rank in range(13))
    by_bits: Counter[int] = Counter()
    total = 0
    for wild in range(min(len(wilds), _HELD) + 1):
        n = _HELD - wild
        if n > len(naturals):
            continue
        if n < 3:  # the dominant suit below is unique only for three naturals or more
            raise NotImplementedError("exact counting needs at most three wild cards")
        ways = math.comb(len(wilds), wild)
        remaining = dict(_pattern_totals(availability, n))
        flushy: Counter[tuple[tuple[int, ...], int]] = Counter()  # (pattern, flush bits) -> sets
        # Suits with the same naturals contribute alike: count one, weighted.
        for mask, suits in Counter(suit_masks).items():
            if not mask:
                continue
            ranks = [rank for rank in range(13) if mask >> rank & 1]
            # The odd card out: a natural of another suit; by rank, how many such cards.
            others = [availability[rank] - (mask >> rank & 1) for rank in range(13)]
            all_others = sum(others)
            for chosen in itertools.combinations(ranks, n):  # all n naturals of this suit
                bits = _flush_bits(sum(1 << rank for rank in chosen), wild)
                flushy[(1,) * n, bits] += suits
            for chosen in itertools.combinations(ranks, n - 1):  # all but one
                bits = _flush_bits(sum(1 << rank for rank in chosen), wild)
                repeat = sum(others[rank] for rank in chosen)  # the odd card pairs a suited rank
                if repeat:
                    flushy[(2, *(1,) * (n - 2)), bits] += suits * repeat
                if all_others - repeat:
                    flushy[(1,) * n, bits] += suits * (all_others - repeat)
        for (pattern, bits), sets in flushy.items():
            remaining[pattern] -= sets
            by_bits[_rank_bits(pattern, wild) | bits] += sets * ways
            total += sets * ways
        for pattern, sets in remaining.items():
            if sets < 0:
                raise AssertionError(f"negative count for pattern {pattern}")
            by_bits[_rank_bits(pattern, wild)] += sets * ways
            total += sets * ways
    return by_bits, total


def exact_first_draw(wild: str = "any", *, royal_high: bool = False) -> FirstDrawOdds:
    """Exact odds after the first draw, by counting (see the module text)."""
    order = category_order(royal_high)
    settings = _settings(wild)
    by_bits: Counter[int] = Counter()
    holdings = math.comb(len(settings[0].unseen), _HELD)
    for setting in settings:
        counts, total = _count_setting(setting)
        if total != holdings:
            raise AssertionError(f"counted {total} holdings, expected C(unseen, 6) = {holdings}")
        by_bits.update(counts)
    grand_total = holdings * len(settings)
    available = {
        category: Probability(
            sum(n for bits, n in by_bits.items() if bits & _BIT[category]), grand_total, True
        )
        for category in order
    }
    best = {
        category: Probability(
            sum(n for bits, n in by_bits.items() if _best_of(bits, order) is category), grand_total, True
        )
        for category in order
    }
    any_call = Probability(sum(n for bits, n in by_bits.items() if bits), grand_total, True)
    return FirstDrawOdds(
        wild=wild,
        method="exact",
        royal_high=royal_high,
        unseen=len(settings[0].unseen),
        wild_left=len(settings[0].wild_cards & set(settings[0].unseen)),
        holdings=holdings,
        settings=len(settings),
        available=available,
        best=best,
        any=any_call,
    )


# -- Monte Carlo ------------------------------------------------------------------------------


def monte_carlo_first_draw(
    wild: str = "any",
    *,
    samples: int = 20_000,
    seed: int = 0,
    royal_high: bool = False,
    progress: Callable[[int], None] | None = None,
) -> FirstDrawOdds:
    """Estimated odds after the first draw: a random upcard (any suit), six random cards of
    the rest. The best call is judged by :class:`~paiute.evaluator.Evaluator`."""
    rules = rules_with_wild_option(wild)
    order = category_order(royal_high)
    rng = random.Random(seed)
    full = pack(rules.jokers)
    evaluators: dict[Card | None, tuple[Evaluator, frozenset[Card], list[Card]]] = {}
    available: Counter[Category] = Counter()
    best: Counter[Category] = Counter()
    any_call = 0
    for index in range(samples):
        upcard = None if rules.jokers else full[rng.randrange(52)]
        entry = evaluators.get(upcard)
        if entry is None:
            wild_cards = rules.wild_cards(upcard)
            unseen = [card for card in full if card != upcard]
            entry = evaluators[upcard] = (Evaluator(wild_cards, royal_high=royal_high), wild_cards, unseen)
        evaluator, wild_cards, unseen = entry
        held = rng.sample(unseen, _HELD)
        bits = _holding_bits(held, wild_cards)
        for category in order:
            if bits & _BIT[category]:
                available[category] += 1
        code = evaluator.best_code(held)
        if code:
            any_call += 1
            best[Category.from_code(code)] += 1
        if progress is not None and (index + 1) % 1000 == 0:
            progress(1000)
    if progress is not None and samples % 1000:
        progress(samples % 1000)
    settings = _settings(wild)
    return FirstDrawOdds(
        wild=wild,
        method="monte-carlo",
        royal_high=royal_high,
        unseen=len(settings[0].unseen),
        wild_left=len(settings[0].wild_cards & set(settings[0].unseen)),
        holdings=math.comb(len(settings[0].unseen), _HELD),
        settings=len(settings),
        available={category: Probability(available[category], samples, False) for category in order},
        best={category: Probability(best[category], samples, False) for category in order},
        any=Probability(any_call, samples, False),
        samples=samples,
        seed=seed,
    )


@cache
def _window_hits() -> tuple[int, ...]:
    """For each 13-bit suit mask, the most naturals it has in one straight-flush window."""
    windows = [window for _, window in STRAIGHT_FLUSH_WINDOWS]
    return tuple(max((mask & window).bit_count() for window in windows) for mask in range(1 << 13))


def _keep_score(
    keep: Sequence[Card], wild_cards: frozenset[Card], paiute_later: bool
) -> tuple[int, int, int]:
    """How close five kept cards are to a combination: (-fewest cards missing, how many
    categories are that close, wild cards kept); higher is better."""
    counts = [0] * 13
    masks = [0, 0, 0, 0]
    wild = 0
    for card in keep:
        if card in wild_cards:
            wild += 1
        else:
            counts[card >> 2] += 1
            masks[card & 3] |= 1 << (card >> 2)
    first, second, third = sorted(counts, reverse=True)[:3]
    hits = _window_hits()
    missing = [
        5 - min(5, first + wild),  # Five of a Kind
        5 - min(5, max(hits[mask] for mask in masks) + wild),  # straight or royal flush
        6 - min(5, min(first, 4) + min(second, 2) + wild),  # Four/Two
        6 - min(5, min(first, 3) + min(second, 3) + wild),  # Three/Three
    ]
    if paiute_later:
        missing.append(6 - min(5, min(first, 2) + min(second, 2) + min(third, 2) + wild))
    fewest = min(missing)
    return -fewest, missing.count(fewest), wild


class _StockAndPile:
    """The stock and the discard pile of :func:`monte_carlo_turns` (R4.6, R4.7)."""

    __slots__ = ("discard", "max_rebuilds", "rebuilds", "rng", "stock")

    def __init__(self, stock: list[Card], rng: random.Random, max_rebuilds: int) -> None:
        self.stock = stock
        self.discard: list[Card] = []
        self.rng = rng
        self.max_rebuilds = max_rebuilds
        self.rebuilds = 0

    def draw(self) -> Card | None:
        """The top of the stock, rebuilding it when empty; ``None`` when the deal goes dead."""
        if not self.stock:
            if self.rebuilds >= self.max_rebuilds or len(self.discard) < 2:
                return None  # R4.7: the deal goes dead
            self.stock, self.discard = self.discard[:-1], self.discard[-1:]  # R4.6: the top stays
            self.rng.shuffle(self.stock)
            self.rebuilds += 1
        return self.stock.pop()


def monte_carlo_turns(
    wild: str = "any",
    *,
    players: int = 4,
    turns: int = 10,
    samples: int = 20_000,
    seed: int = 0,
    royal_high: bool = False,
    progress: Callable[[int], None] | None = None,
) -> TurnsOdds:
    """Estimated chance of being able to call within ``t`` own turns (see the module text)."""
    rules = rules_with_wild_option(wild, players)
    rules.check_players(players)
    if turns < 1:
        raise ValueError("turns must be at least 1")
    paiute_any_turn = rules.paiute_allowed_any_turn(players)
    rng = random.Random(seed)
    full = pack(rules.jokers)
    evaluators: dict[Card | None, tuple[Evaluator, frozenset[Card]]] = {}
    completed_at = [0] * (turns + 1)
    dead = 0
    completed_with: Counter[Category] = Counter()
    for index in range(samples):
        deck = full[:]
        rng.shuffle(deck)
        hand = deck[:5]
        position = 5 * players
        upcard: Card | None = None
        if not rules.jokers:
            upcard = deck[position]
            position += 1
        stock = deck[position:][::-1]  # the top of the stock is last
        if upcard is not None:
            stock.insert(0, upcard)  # R2.6: face up under the stock, drawn last
        entry = evaluators.get(upcard)
        if entry is None:
            wild_cards = rules.wild_cards(upcard)
            entry = evaluators[upcard] = (Evaluator(wild_cards, royal_high=royal_high), wild_cards)
        evaluator, wild_cards = entry
        table = _StockAndPile(stock, rng, rules.max_rebuilds)
        outcome = 0  # the turn the player could first call; 0: never, -1: dead
        for turn in range(1, turns + 1):
            card = table.draw()
            if card is None:
                outcome = -1
                break
            held = [*hand, card]
            five = evaluator.best_five_code(held)
            six = evaluator.code(held)
            if not may_call(six, 0, paiute_now=paiute_any_turn or turn == 1):  # R5.7
                six = 0
            code = max(five, six)
            if code:
                outcome = turn
                completed_with[Category.from_code(code)] += 1
                break
            scores = [
                (_keep_score(held[:i] + held[i + 1 :], wild_cards, paiute_any_turn), -i) for i in range(_HELD)
            ]
            table.discard.append(held.pop(-max(scores)[1]))
            hand = held
            for _ in range(players - 1):  # the others draw and discard what they drew
                other = table.draw()
                if other is None:
                    outcome = -1
                    break
                table.discard.append(other)
            if outcome == -1:
                break
        if outcome > 0:
            completed_at[outcome] += 1
        elif outcome == -1:
            dead += 1
        if progress is not None and (index + 1) % 100 == 0:
            progress(100)
    if progress is not None and samples % 100:
        progress(samples % 100)
    within = tuple(
        Probability(sum(completed_at[1 : turn + 1]), samples, False) for turn in range(1, turns + 1)
    )
    order = category_order(royal_high)
    return TurnsOdds(
        wild=wild,
        players=players,
        turns=turns,
        samples=samples,
        seed=seed,
        paiute_any_turn=paiute_any_turn,
        within=within,
        dead=Probability(dead, samples, False),
        completed_with={
            category: Probability(completed_with[category], samples, False) for category in order
        },
    )
