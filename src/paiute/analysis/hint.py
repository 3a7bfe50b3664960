"""Hints that explain: the best move for the seat to act, and why, from its observation only.

A :class:`Hint` is worked out from one seat's :class:`~paiute.observation.Observation` (R9),
never from the deal itself, with its own seeded chance (no generator is shared with the bots
at the table, so asking for a hint changes nothing they do). It holds:

* **the recommended action**: the move of the ``expert`` level (:data:`HINT_LEVEL`, the
  strongest bot, with the hint's own seed), always. Every legal action's **net chips** (what
  the seat expects to end the deal with less what it put in, its stake included: 0 is
  break-even, R8.2) are estimated by :func:`assess`, the one estimate the hint and the game
  review (:mod:`paiute.analysis.review`) share: every legal action played out on the same
  determinizations by :func:`paiute.players.evaluate.estimate_actions` (the seat's unseen
  cards dealt at random, every seat then played by the playout policy), each with a 95%
  interval and with its paired difference from the expert's move: they explain the move, they
  do not choose it. At a position of a record the seed is :func:`position_seed`'s, from the
  deal and the move, so the hint there and the review of that decision give the same
  figures. Moves chosen by the playouts lose chips in play (``benchmarks/hint_strength.py``):
  the action with the most chips expected follows the playouts' noise and loses to
  ``greedy``, and leaving the expert's move where another beats it with a paired 95% interval
  above zero loses to the expert's move itself, on draws and discards before a call alike. The playouts judge neither better
  than the expert's rules, and they play greedy after the move, blind to the guard against
  feeding the next player that the expert keeps up every turn (``docs/review.md`` and
  ``docs/guarded.md``, "The hint is the expert's move", have the figures). Hence no
  overruling; :attr:`Hint.beyond_noise` names a move the playouts rate higher beyond their
  noise, so that the hint can say why it still gives the expert's;
* **the feed chance** of each legal discard before any call (R7.2): the chance that the
  next player could call at once after taking the card from the pile (R4.2, R6.2), learned
  from public facts (:class:`paiute.players.feed.FeedModel`, the expert's guard, R9);
* **the plan** (:class:`Plan`): the five cards the seat holds after the move, the winning
  combination (R5) they are building and the cards of the hand it uses, and its **outs**: the
  exact number of unseen cards (the pack less the hand, the discard pile, the calls shown, the
  cards seen going into other hands and a face-up upcard; :mod:`paiute.outs`) that complete a
  combination that may be called then (a Paiute only where R5.7 allows it, a call only if it
  equals or beats the highest so far, R6.4), and the chance of drawing one within the turns
  likely left;
* **for a call** (:class:`CallOdds`): the chance it wins, given who still has a turn (R7.2),
  from as many playouts of the same kind (the call made, the last round played by ``greedy``):
  the share in which the seat is among the winners (a tie counts).

How "the turns likely left" is estimated: ``draw_playouts`` more playouts from the same kind of
determinizations, with the recommended action taken and every seat played by ``greedy``,
except that the seat never calls, count the seat's draws from the stock before the deal ends
(another player's call leaves it its last-round turn, R7.2; a dead deal, R4.7, ends it). Each
such count ``d`` gives the hypergeometric chance that ``d`` cards taken from the ``U`` unseen
cards hold at least one of the ``K`` outs, ``1 - C(U-K, d) / C(U, d)`` (from the seat's view the
stock is a random part of the unseen cards); the chance shown is the mean over the playouts.
Cards that come back through a rebuilt stock (R4.6) or an opponent's discard are left out, so
the chance leans low. When no single card completes a combination, the plan names the
combination that two more cards would complete most often, with the chance from sampled sets
of draws instead.

>>> from paiute import Deal, RuleSet, SeededChance
>>> deal = Deal.new(RuleSet(), players=3, dealer=0, chance=SeededChance(9), balances=[9, 9, 9], pot=3)
>>> found = hint(deal.observation(deal.current_seat), playouts=2, draw_playouts=2, seed=1)
>>> found.recommended == found.expert  # always the expert's move
True
>>> found.plan.category.value, found.plan.outs, [str(card) for card in found.plan.out_cards]
('five_of_a_kind', 6, ['Jh', 'Js', 'Qs', 'Kd', 'Kh', 'Ks'])
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from paiute.actions import DRAW_DISCARD, DRAW_STOCK, Action, ActionKind
from paiute.analysis.odds import wilson
from paiute.cards import Card
from paiute.chance import SeededChance, derive_seed
from paiute.combos import Category, Value, may_call
from paiute.deal import Deal
from paiute.errors import N_, PaiuteError
from paiute.evaluator import Evaluator
from paiute.events import Phase
from paiute.observation import Observation
from paiute.outs import Unseen, completing
from paiute.players.base import MAX_ITERATIONS, PlayerError
from paiute.players.evaluate import ActionEstimate, Estimates, estimate_actions
from paiute.players.feed import FeedModel, next_seat
from paiute.players.greedy import GreedyPlayer
from paiute.players.registry import make_player

if TYPE_CHECKING:
    from paiute.record import Record

__all__ = [
    "DEFAULT_DRAW_PLAYOUTS",
    "DEFAULT_PLAYOUTS",
    "HINT_FORMAT",
    "HINT_LEVEL",
    "Assessment",
    "CallOdds",
    "Hint",
    "Plan",
    "PositionError",
    "assess",
    "draw_chance",
    "hint",
    "position_before",
    "position_seed",
    "stake_paid",
]

#: The ``format`` of :meth:`Hint.to_json` (``paiute hint --json``, the server's hint): version 2
#: gives each move's net chips (``net``, after the stake) and the stake paid (``paid``).
HINT_FORMAT = "paiute-hint/2"
#: The level whose move a hint recommends (the strongest bot; the playouts explain its move).
HINT_LEVEL = "expert"
#: Determinizations each legal action is played out on, for the hint and the game review alike
#: (one decision, one figure, wherever it is read).
DEFAULT_PLAYOUTS = 16
#: Playouts that count the seat's draws left.
DEFAULT_DRAW_PLAYOUTS = 16
#: Actions after which a playout counting draws stops (as evaluate.PLAYOUT_CAP, R4.7).
_PLAYOUT_CAP = 400
#: Sampled sets of draws for a combination two cards away.
_PAIR_SAMPLES = 400


def position_seed(seed: int, deal: int, action: int) -> int:
    """The seed of the estimate before action ``action`` of deal ``deal`` (the record's
    indexes, from 0), from a hint's or a review's ``seed``: the hint at a position and the
    review of the decision there play the same playouts, in any order and in any process.

    >>> position_seed(0, 0, 6) == position_seed(0, 0, 6) != position_seed(0, 0, 7)
    True
    """
    return derive_seed("paiute-review", seed, deal, action, separator=":", method="random", bits=48)


def stake_paid(observation: Observation) -> int:
    """The chips the seat put into this deal: its stake with ``payout = pot`` (R8.2); nothing
    with ``payout = scale`` (R8.4: no pot, the losers pay the winner)."""
    rules = observation.rules
    return rules.stake if rules.payout == "pot" else 0


@dataclass(frozen=True, slots=True)
class Assessment:
    """Every legal action's net chips for the seat to move, and the expert's move: the one
    estimate of a decision, shared by the hint and the game review.

    ``estimates`` are net chips (the playouts' values less :func:`stake_paid`: 0 is
    break-even), in the order of the legal actions; ``estimated`` holds the playouts' values
    (chips from now on) for the paired differences."""

    seat: int
    expert: Action  # the expert level's move (HINT_LEVEL)
    estimates: tuple[ActionEstimate, ...]
    estimated: Estimates
    paid: int  # the chips the seat put into the deal (its stake)
    seed: int

    @property
    def playouts(self) -> int:
        """The determinizations each action was played out on."""
        return self.estimated.playouts // max(1, len(self.estimates))

    def of(self, action: Action) -> ActionEstimate:
        """``action``'s net chips and their 95% interval."""
        return next(e for e in self.estimates if e.action == action)

    def advantage(self, better: Action, worse: Action) -> tuple[float, float, float]:
        """``better``'s chips less ``worse``'s on the same determinizations: (mean, low, high),
        95%, paired."""
        return self.estimated.advantage(better, worse)


def assess(
    observation: Observation,
    *,
    playouts: int = DEFAULT_PLAYOUTS,
    budget_ms: float | None = None,
    seed: int = 0,
) -> Assessment:
    """Estimate every legal action of the seat to move from its observation only (R9), in net
    chips, and the expert's move there (with a generator of its own, seeded by ``seed``).

    The result depends only on the observation, ``seed`` and ``playouts`` (not on the time)
    when no ``budget_ms`` is given; with one, the playouts stop before running past it.
    """
    seat = observation.seat
    if seat is None or not observation.legal_actions:
        raise PlayerError("only the seat to move has a hint")
    estimated = estimate_actions(observation, playouts=playouts, budget_ms=budget_ms, seed=seed)
    # The expert decides from the observation alone (R9), with a generator of the hint's own.
    expert = make_player(HINT_LEVEL, seed=seed).act(observation)
    paid = stake_paid(observation)
    net = tuple(
        replace(e, mean=e.mean - paid, low=e.low - paid, high=e.high - paid) for e in estimated.estimates
    )
    return Assessment(seat, expert, net, estimated, paid, seed)


@dataclass(frozen=True, slots=True)
class Plan:
    """The combination the five cards held after the move are building, and its outs."""

    keeps: tuple[Card, ...]  # the five cards held after the recommended move
    category: Category | None  # the combination with the most outs (ties: the higher), if any
    uses: tuple[Card, ...]  # the cards of ``keeps`` that combination is made with
    cards_away: int  # 1: one card completes it; 2: two cards; 0: nothing within two cards
    outs: int  # unseen cards that, drawn next, complete a combination that may be called
    out_cards: tuple[Card, ...]  # those cards (candidates: each may be anywhere unseen)
    by_category: tuple[tuple[Category, int], ...]  # outs of each combination, highest first
    unseen: int  # cards the seat has not seen
    draws_left: float  # the seat's expected draws from the stock before the deal ends
    draw_samples: int  # the playouts that estimate it
    chance: float  # of completing a combination within those draws
    last_turn: bool  # no draw is left to the seat (R7.2: its last-round turn is this one)
    pile_completes: Value | None  # the discard pile's top card would make this call now

    def to_json(self) -> dict[str, object]:
        return {
            "keeps": [str(card) for card in self.keeps],
            "category": None if self.category is None else self.category.value,
            "uses": [str(card) for card in self.uses],
            "cards_away": self.cards_away,
            "outs": self.outs,
            "out_cards": [str(card) for card in self.out_cards],
            "by_category": {category.value: count for category, count in self.by_category},
            "unseen": self.unseen,
            "draws_left": round(self.draws_left, 2),
            "draw_samples": self.draw_samples,
            "chance": round(self.chance, 4),
            "last_turn": self.last_turn,
            "pile_completes": None if self.pile_completes is None else self.pile_completes.to_json(),
        }


@dataclass(frozen=True, slots=True)
class CallOdds:
    """How likely a legal call is to win, from the playouts (R7.2, R8.1)."""

    action: Action
    value: Value
    wins: int  # playouts in which it won or tied
    samples: int
    low: float  # 95% Wilson interval of the chance
    high: float
    still_to_play: tuple[int, ...]  # the seats that still have a turn after it (R7.2)
    certain: bool  # nobody still has a turn: the deal ends at once (R7.1) and it wins

    @property
    def chance(self) -> float:
        if self.certain:
            return 1.0
        return self.wins / self.samples if self.samples else 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "action": str(self.action),
            "value": self.value.to_json(),
            "chance": round(self.chance, 4),
            "low": round(1.0 if self.certain else self.low, 4),
            "high": round(1.0 if self.certain else self.high, 4),
            "wins": self.wins,
            "samples": self.samples,
            "still_to_play": list(self.still_to_play),
            "certain": self.certain,
        }


@dataclass(frozen=True, slots=True)
class Hint:
    """The best move for the seat to act, with its reasons (see the module documentation)."""

    seat: int
    phase: Phase
    recommended: Action
    estimates: tuple[ActionEstimate, ...]  # net chips (after the stake), in legal order
    plan: Plan | None  # None when the recommended move is a call
    calls: tuple[CallOdds, ...]  # every legal call, best value first
    playouts: int
    draw_playouts: int
    seed: int
    expert: Action  # the expert level's move (HINT_LEVEL): the recommended action
    # Each action's chips less the expert's move's, on the same determinizations: (mean, low,
    # high) of the paired difference, 95%; in the order of the estimates.
    versus_expert: tuple[tuple[float, float, float], ...]
    # Each action's feed chance (a discard before any call, R4.2, R7.2), else None; in the
    # order of the estimates. ``feed_seat`` is the seat that could take the card (R2.2).
    feeds: tuple[float | None, ...]
    feed_seat: int | None
    paid: int  # the chips the seat put into the deal (its stake, R8.2): net = ends with - paid

    @property
    def best(self) -> ActionEstimate:
        """The recommended action's estimate."""
        return next(e for e in self.estimates if e.action == self.recommended)

    def versus(self, action: Action) -> tuple[float, float, float]:
        """``action``'s chips less the expert's move's: (mean, low, high), 95%, paired."""
        return next(v for e, v in zip(self.estimates, self.versus_expert, strict=True) if e.action == action)

    @property
    def beyond_noise(self) -> Action | None:
        """The move the playouts rate above the expert's beyond their noise (its paired 95%
        interval above zero; of several, the most chips), or None. The hint still gives the
        expert's move: moves chosen that way lose chips in play (see the module)."""
        above = [
            (v[0], e.action) for e, v in zip(self.estimates, self.versus_expert, strict=True) if v[1] > 0
        ]
        return max(above, key=lambda pair: pair[0])[1] if above else None

    @property
    def ordered(self) -> tuple[ActionEstimate, ...]:
        """The estimates as a table shows them: the recommended move first, then the others by
        their net chips, highest first."""
        others = sorted((e for e in self.estimates if e.action != self.recommended), key=lambda e: -e.mean)
        return (self.best, *others)

    @property
    def top(self) -> ActionEstimate | None:
        """The move the playouts rate above the recommended one: the one beyond their noise
        (:attr:`beyond_noise`), else the one with the most net chips, where that is more than
        the recommended move's; None where the recommended move has the most."""
        beyond = self.beyond_noise
        if beyond is not None:
            return next(e for e in self.estimates if e.action == beyond)
        highest = max(self.estimates, key=lambda e: e.mean)
        return highest if highest.mean > self.best.mean else None

    def feed(self, action: Action) -> float | None:
        """``action``'s feed chance: a discard's before any call, else None."""
        return next(f for e, f in zip(self.estimates, self.feeds, strict=True) if e.action == action)

    def call_odds(self, action: Action) -> CallOdds | None:
        return next((odds for odds in self.calls if odds.action == action), None)

    def to_json(self) -> dict[str, object]:
        """The figures, as ``paiute hint --json`` and the server's hint endpoint give them."""
        beyond = self.beyond_noise
        return {
            "format": HINT_FORMAT,
            "seat": self.seat,
            "phase": self.phase.value,
            "recommended": str(self.recommended),
            "paid": self.paid,
            "actions": [
                {
                    "action": str(e.action),
                    "net": _round(e.mean),
                    "low": _round(e.low),
                    "high": _round(e.high),
                    "samples": e.samples,
                    "versus_expert": {"mean": _round(v[0]), "low": _round(v[1]), "high": _round(v[2])},
                    "feed": None if feed is None else round(feed, 4),
                }
                for e, v, feed in zip(self.estimates, self.versus_expert, self.feeds, strict=True)
            ],
            "expert": str(self.expert),
            "beyond_noise": None if beyond is None else str(beyond),
            "feed_seat": self.feed_seat,
            "plan": None if self.plan is None else self.plan.to_json(),
            "calls": [odds.to_json() for odds in self.calls],
            "playouts": self.playouts,
            "draw_playouts": self.draw_playouts,
            "seed": self.seed,
        }


def _round(x: float) -> float | None:
    return None if math.isinf(x) or math.isnan(x) else round(x, 3)


def draw_chance(outs: int, unseen: int, draws: int) -> float:
    """The chance that ``draws`` cards taken at random from ``unseen`` hold at least one of
    ``outs`` (hypergeometric).

    >>> round(draw_chance(4, 46, 1), 4), round(draw_chance(4, 46, 3), 4), draw_chance(0, 46, 5)
    (0.087, 0.2437, 0.0)
    """
    draws = min(max(draws, 0), unseen)
    if outs <= 0 or draws == 0:
        return 0.0
    if unseen - outs < draws:
        return 1.0
    return 1.0 - math.comb(unseen - outs, draws) / math.comb(unseen, draws)


def hint(
    observation: Observation,
    *,
    playouts: int = DEFAULT_PLAYOUTS,
    budget_ms: float | None = None,
    draw_playouts: int = DEFAULT_DRAW_PLAYOUTS,
    seed: int = 0,
) -> Hint:
    """The hint for the seat to act, from its observation only (R9).

    The moves' figures are :func:`assess`'s with the same ``playouts`` and ``seed``: the figures
    the review of this decision gives (at a record's position, seeded by :func:`position_seed`).
    The result depends only on the observation, ``seed`` and the playout counts (not on the
    time) when no ``budget_ms`` is given; with one, the estimate of the moves stops early when
    its next round of playouts would run past three quarters of it, and the playouts counting
    the draws left stop at the budget (after at least one).
    """
    seat = observation.seat
    if seat is None or not observation.legal_actions:
        raise PlayerError("only the seat to move has a hint")
    if not 0 <= draw_playouts <= MAX_ITERATIONS:
        raise PlayerError(f"draw playouts must be from 0 to {MAX_ITERATIONS}, not {draw_playouts!r}")
    deadline = None if budget_ms is None else time.perf_counter() + budget_ms / 1000.0
    moves_ms = None if budget_ms is None else 0.75 * budget_ms
    assessed = assess(observation, playouts=playouts, budget_ms=moves_ms, seed=seed)
    expert = assessed.expert
    recommended = expert  # the playouts explain it; overruling it cost chips (module docs)
    versus = tuple(assessed.advantage(e.action, expert) for e in assessed.estimates)
    feeds, feed_seat = _feeds(observation)
    evaluator = Evaluator(observation.wild_cards, royal_high=observation.rules.royal_high)
    calls = _call_odds(observation, evaluator, max(1, assessed.playouts), seed, deadline)
    plan = None
    if not recommended.kind.is_call:
        plan = _plan(observation, recommended, evaluator, draw_playouts, seed, deadline)
    return Hint(
        seat=seat,
        phase=observation.phase,
        recommended=recommended,
        estimates=assessed.estimates,
        plan=plan,
        calls=calls,
        playouts=assessed.playouts,
        draw_playouts=draw_playouts,
        seed=seed,
        expert=expert,
        versus_expert=versus,
        feeds=feeds,
        feed_seat=feed_seat,
        paid=assessed.paid,
    )


def _feeds(observation: Observation) -> tuple[tuple[float | None, ...], int | None]:
    """Each legal action's feed chance, and the seat that could take the card: for the
    discards before any call (R7.2; in the last round the model was not fitted), the chance
    that the next player (R2.2) could call at once after taking it (R4.2, R6.2), from public
    facts only (R9, :class:`~paiute.players.feed.FeedModel`)."""
    legal = observation.legal_actions
    if observation.calls or not any(action.kind is ActionKind.DISCARD for action in legal):
        return tuple(None for _ in legal), None
    cards = [action.card for action in legal if action.kind is ActionKind.DISCARD and action.card is not None]
    chances = dict(
        zip(
            cards,
            FeedModel.shipped(observation.rules, observation.players).chances(observation, cards),
            strict=True,
        )
    )
    feeds = tuple(
        chances[action.card] if action.kind is ActionKind.DISCARD and action.card is not None else None
        for action in legal
    )
    return feeds, next_seat(observation)


# -- calls ------------------------------------------------------------------------------------


def _still_to_play(observation: Observation) -> tuple[int, ...]:
    """The seats that have a turn after this one's call (R7.1, R7.2): after the seat, up to
    and including the dealer, less those who called (R6.5)."""
    seat = observation.seat
    assert seat is not None
    called = {call.seat for call in observation.calls}
    seats = []
    other = seat
    while other != observation.dealer:
        other = (other + 1) % observation.players
        if other not in called:
            seats.append(other)
    return tuple(seats)


def _call_odds(
    observation: Observation, evaluator: Evaluator, playouts: int, seed: int, deadline: float | None
) -> tuple[CallOdds, ...]:
    """Every legal call's chance to win: the share of ``playouts`` greedy playouts (the same
    kind of determinizations as the estimate, the call made, the last round played out,
    R7.2) in which the seat is among the winners (R8.1; a tie, R8.3, counts)."""
    seat = observation.seat
    assert seat is not None
    hand = observation.hand
    still = _still_to_play(observation)
    found = []
    for index, action in enumerate(observation.legal_actions):
        if not action.kind.is_call:
            continue
        shown = [card for card in hand if card != action.card] if action.card is not None else list(hand)
        value = evaluator.value(shown)
        if value is None:  # pragma: no cover - a legal call always makes a combination (R6.1)
            continue
        rng = random.Random((seed << 8) ^ 0xCA11 ^ index)
        wins = samples = 0
        for _ in range(playouts):
            if deadline is not None and samples and time.perf_counter() > deadline:
                break  # the hint's time budget is spent
            round_seed = rng.getrandbits(48)
            deal = Deal.from_observation(observation, SeededChance(round_seed))
            deal.apply(action)
            players = [GreedyPlayer(seed=round_seed * 16 + other) for other in range(observation.players)]
            steps = 0
            while not deal.is_over and steps < _PLAYOUT_CAP:
                current = deal.current_seat
                deal.apply(players[current].act(deal.observation(current)))
                steps += 1
            outcome = deal.outcome
            samples += 1
            wins += outcome is not None and seat in outcome.winners
        low, high = wilson(wins, samples) if samples else (0.0, 1.0)
        found.append(CallOdds(action, value, wins, samples, low, high, still, not still))
    found.sort(key=lambda odds: odds.value, reverse=True)
    return tuple(found)


# -- the plan -----------------------------------------------------------------------------------


def _plan(
    observation: Observation,
    recommended: Action,
    evaluator: Evaluator,
    draw_playouts: int,
    seed: int,
    deadline: float | None,
) -> Plan:
    rules = observation.rules
    hand = observation.hand
    paiute_any = rules.paiute_allowed_any_turn(observation.players)  # R5.7, R2.1
    floor = 0 if observation.highest_call is None else observation.highest_call.code  # R6.4
    pile_completes = None
    if observation.phase is Phase.DRAW:
        keeps = tuple(hand)
        paiute_ok = paiute_any or observation.first_turn  # this draw is the seat's first (R5.7)
        last_turn = False
        if DRAW_DISCARD in observation.legal_actions and observation.discard_pile:
            top = observation.discard_pile[-1]
            call = evaluator.best([*hand, top], top)  # R4.3: the card taken may not go down
            if call is not None and may_call(call.value.code, floor, paiute_now=paiute_ok):
                pile_completes = call.value
    else:
        put_down = recommended.card
        keeps = tuple(card for card in hand if card != put_down)
        paiute_ok = paiute_any  # the seat's next turn is not its first (R5.7)
        last_turn = bool(observation.calls)  # R7.2: its one last-round turn is this one
    unseen = Unseen.of(observation)
    outs = [
        out for out in completing(keeps, unseen, evaluator) if may_call(out.code, floor, paiute_now=paiute_ok)
    ]
    out_cards = tuple(sorted(card for out in outs for card in out.cards))
    per_category: Counter[Category] = Counter()
    for out in outs:
        per_category[Category.from_code(out.code)] += len(out.cards)
    order = [c for c in sorted(per_category, key=lambda c: c.order(rules.royal_high), reverse=True)]
    by_category = tuple((category, per_category[category]) for category in order)
    draws = [] if last_turn else _draws_left(observation, recommended, draw_playouts, seed, deadline)
    if observation.phase is Phase.DRAW and not draws and not last_turn:
        draws = [1]  # at least the draw about to be made
    draws_left = sum(draws) / len(draws) if draws else 0.0
    count = len(unseen.cards)
    rng = random.Random(seed ^ 0x5EED)
    category: Category | None = None
    uses: tuple[Card, ...] = ()
    if outs:
        category = max(per_category, key=lambda c: (per_category[c], c.order(rules.royal_high)))
        cards_away = 1
        chance = sum(draw_chance(len(out_cards), count, d) for d in draws) / len(draws) if draws else 0.0
        first = next(out for out in outs if Category.from_code(out.code) is category)
        uses = _uses(keeps, first.cards[0], evaluator)
    else:
        # Two more draws: the second is never a first turn, so a Paiute counts only where any
        # turn allows it (R5.7).
        category, uses, chance = _two_away(keeps, unseen, evaluator, paiute_any, floor, draws, rng)
        cards_away = 0 if category is None else 2
    return Plan(
        keeps,
        category,
        uses,
        cards_away,
        len(out_cards),
        out_cards,
        by_category,
        count,
        draws_left,
        len(draws),
        chance,
        last_turn,
        pile_completes,
    )


def _uses(keeps: Sequence[Card], card: Card, evaluator: Evaluator) -> tuple[Card, ...]:
    """The cards of ``keeps`` the best call of ``keeps`` plus ``card`` shows (R6.2, R6.3)."""
    call = evaluator.best([*keeps, card])
    if call is None:  # pragma: no cover - ``card`` is an out
        return tuple(keeps)
    return tuple(c for c in keeps if c in call.shown)


def _two_away(
    keeps: Sequence[Card],
    unseen: Unseen,
    evaluator: Evaluator,
    paiute_ok: bool,
    floor: int,
    draws: Sequence[int],
    rng: random.Random,
) -> tuple[Category | None, tuple[Card, ...], float]:
    """The combination two drawn cards complete most often (one card of ``keeps`` put down
    between the draws), the cards it uses, and the chance of drawing such a pair within the
    draws left (sampled: the sets of draws are random parts of the unseen cards)."""
    cards = unseen.cards
    royal_high = evaluator.royal_high
    best = evaluator.best_code
    pairs: dict[tuple[Card, Card], int] = {}
    for i, first in enumerate(cards):
        for second in cards[i + 1 :]:
            top = 0
            for index in range(5):
                held = [*keeps[:index], *keeps[index + 1 :], first, second]
                code = best(held)
                if may_call(code, floor, paiute_now=paiute_ok) and code > top:
                    top = code
            if top:
                pairs[(first, second)] = top
    if not pairs:
        return None, (), 0.0
    per_category = Counter(Category.from_code(code) for code in pairs.values())
    category = max(per_category, key=lambda c: (per_category[c], c.order(royal_high)))
    # The cards of ``keeps`` that the completed combination shows (R6.2, R6.3), in more than
    # half of the pairs that complete it.
    used: Counter[Card] = Counter()
    chosen_pairs = 0
    for (first, second), code in pairs.items():
        if Category.from_code(code) is not category:
            continue
        chosen_pairs += 1
        for index in range(5):
            held = [*keeps[:index], *keeps[index + 1 :], first, second]
            if best(held) == code:
                call = evaluator.best(held)
                if call is not None:
                    used.update(card for card in keeps if card in call.shown)
                break
    uses = tuple(card for card in keeps if used[card] * 2 > chosen_pairs)
    usable = [d for d in draws if d >= 2]
    if not usable:
        return category, uses, 0.0
    hits = 0
    samples = 0
    per_draws = max(1, _PAIR_SAMPLES // len(usable))
    for d in usable:
        for _ in range(per_draws):
            taken = rng.sample(cards, min(d, len(cards)))
            chosen = set(taken)
            samples += 1
            if any(first in chosen and second in chosen for first, second in pairs):
                hits += 1
    return category, uses, hits * len(usable) / (samples * len(draws)) if samples else 0.0


# -- the draws left -----------------------------------------------------------------------------


def _draws_left(
    observation: Observation, recommended: Action, playouts: int, seed: int, deadline: float | None
) -> list[int]:
    """The seat's draws from the stock before the deal ends, in ``playouts`` greedy playouts
    in which the seat never calls (see the module documentation)."""
    seat = observation.seat
    assert seat is not None
    rng = random.Random(seed ^ 0xD2A3)
    counts: list[int] = []
    for _ in range(playouts):
        if deadline is not None and counts and time.perf_counter() > deadline:
            break  # the hint's time budget is spent
        round_seed = rng.getrandbits(48)
        deal = Deal.from_observation(observation, SeededChance(round_seed))
        players = [GreedyPlayer(seed=round_seed * 16 + other) for other in range(observation.players)]
        drawn = 1 if recommended == DRAW_STOCK else 0
        deal.apply(recommended)
        steps = 0
        while not deal.is_over and steps < _PLAYOUT_CAP:
            current = deal.current_seat
            view = deal.observation(current)
            if current == seat:
                legal = tuple(a for a in view.legal_actions if not a.kind.is_call)
                action = players[current].act(replace(view, legal_actions=legal))
                if action == DRAW_STOCK:
                    drawn += 1
            else:
                action = players[current].act(view)
            event = deal.apply(action)
            if event.ends_deal and action.kind is ActionKind.DRAW_STOCK and current == seat:
                drawn -= 1  # R4.7: the draw that ends a dead deal draws nothing
            steps += 1
        counts.append(drawn)
    return counts


# -- a position of a record ----------------------------------------------------------------------


class PositionError(PaiuteError):
    """A deal or action number that names no position with a seat to move."""


def position_before(record: Record, deal: int, action: int) -> Observation:
    """The observation of the seat to move before action ``action`` of deal ``deal``, replayed
    from ``record``: that seat's view only (R9). Both are indexes of the record, from 0 (as
    ``--json`` and record errors count them); the deal N, move K that people read and type
    (``paiute hint --deal N --move K``) is ``position_before(record, N - 1, K - 1)``.

    Raises :class:`PositionError` for numbers outside the record, and what
    :meth:`Record.replay <paiute.record.Record.replay>` raises for a record that breaks a rule.
    """
    deals = record.deals
    if not deals:
        raise PositionError(N_("there is no deal {deal}: the record has no deals"), deal=deal)
    if not 0 <= deal < len(deals):
        raise PositionError(
            N_("there is no deal {deal}: the record has deals 0 to {last}"), deal=deal, last=len(deals) - 1
        )
    actions = deals[deal].actions
    if not 0 <= action <= len(actions):
        raise PositionError(
            N_("deal {deal} has actions 0 to {last}: there is no action {action}"),
            deal=deal,
            last=len(actions),
            action=action,
        )
    cut = replace(record, deals=(*deals[:deal], replace(deals[deal], actions=actions[:action])))
    current = cut.replay().match.deal
    assert current is not None
    if current.is_over:
        raise PositionError(
            N_("deal {deal} is over before action {action}: nobody is to move"), deal=deal, action=action
        )
    return current.observation(current.current_seat)
