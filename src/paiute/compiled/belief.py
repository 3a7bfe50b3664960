"""What the opponents' recent moves say about their hidden cards, under a model of how they play.

A seat deciding from its observation (R9) knows the public history: which card each opponent
took from the pile or drew unseen from the stock, and which card it threw (R4.5). An opponent
who plays well throws the card its hand needs least and takes the pile's top only when it
helps: so a hand that would have kept the card it threw is unlikely. This module deals the
hidden cards of a determinization (:mod:`paiute.compiled.search`) *consistently* with that
(the "inference of hidden cards from the opponents' public actions" of Solinas, Rebstock &
Buro, 2019, with greedy as the model of the opponents instead of a learned one):

1. :func:`recent_turns` replays the public history and keeps, for each opponent, its last
   ``depth`` complete turns (a draw and a discard; none before a rebuild, R4.6, whose
   stock's cards were public before it): the public state before each of those two actions
   (:class:`~paiute.compiled.state.Batch` deals whose own hand is left to fill), the card it
   drew where that was public, the card it threw and which draw it made.
2. :func:`particles_kernel` draws many hands for each opponent (*particles*, from the unseen
   cards in proportion to the proposal ``weights``) and reads its turns back from the
   newest: for each particle it rebuilds the opponent's hand before the turn (its discard
   put back, its draw taken out: a card drawn unseen is one of the cards it was not known
   to hold, chosen at random), asks the compiled greedy
   (:func:`~paiute.compiled.greedy.greedy_action`) what it would have done there, weights
   the particle by the chance the model gives the moves actually made (each move the
   model's with chance ``1 - eps``, any legal choice with ``eps``; a discard tied with
   others shares greedy's chance among them), and resamples the particles by those weights
   (sequential importance resampling). It runs once a decision, a few milliseconds.
3. :func:`deal_hands_kernel` deals each determinization from the particles: a particle per
   opponent at random, disjoint from those already dealt (where none is after ``tries``,
   the one that shares fewest cards, those cards drawn afresh). The opponents' moves are
   read independently of one another, which is what the model says: each one's moves
   depend on its own hand only.

After a rebuild (R4.6) the stock can hold only cards that went into it, which the particles
do not know: the belief is then empty and the determinizations are dealt by the proposal.

Only public facts and the deciding seat's own cards are read: the opponent's hand is the
determinization's, never the true one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from paiute.actions import ActionKind
from paiute.compiled.compilation import inline, jit
from paiute.compiled.greedy import greedy_action
from paiute.compiled.greedy_score import GREEDY_WORK, W_TIED, W_TIES
from paiute.compiled.rng import below, seed_deal, uniform
from paiute.compiled.state import (
    DISCARD,
    DISCARD_BASE,
    DRAW,
    HAND_CAP,
    MAX_SEATS,
    RUNNING,
    Batch,
    new_batch,
)
from paiute.compiled.tables import rekey_hand
from paiute.observation import Observation

__all__ = [
    "DEPTH",
    "EPS",
    "PARTICLES",
    "TRIES",
    "Belief",
    "RecentTurns",
    "deal_hands_kernel",
    "particles_kernel",
    "recent_turns",
]

#: The opponents' turns read back, most recent first.
DEPTH = 2
#: The chance the model gives a move that is not its own (any legal choice alike).
EPS = 0.1
#: Particles (hands) per opponent.
PARTICLES = 256
#: Particles drawn per opponent in a determinization before one that shares cards is taken.
TRIES = 32
#: Per-turn fields of :attr:`RecentTurns.turns`.
T_DRAW_AT = 0  # the deal of ``past`` before the draw
T_DISCARD_AT = 1  # the deal of ``past`` before the discard
T_DRAWN = 2  # the card drawn where it was public (from the pile, or the face-up upcard), else -1
T_THREW = 3  # the card discarded
T_FROM_PILE = 4  # 1 if the draw was from the discard pile (its action id)
T_EVENT = 5  # the discard's index in the history
T_FIELDS = 6


@dataclass(frozen=True)
class RecentTurns:
    """Each opponent's last turns and the public state before each of their moves."""

    past: Batch  # one deal per move, the mover's hand empty
    turns: npt.NDArray[np.int64]  # [n, T_FIELDS], each opponent's most recent first
    start: npt.NDArray[np.int64]  # [MAX_SEATS]: where a seat's turns begin in ``turns``
    count: npt.NDArray[np.int64]  # [MAX_SEATS]: how many
    eps: float = EPS  # the model's chance of a move not its own

    @property
    def empty(self) -> bool:
        return not self.count.any()


class _Public:
    """The public state of a deal as the history is replayed (what every seat saw, R4.5)."""

    def __init__(self, observation: Observation) -> None:
        rules = observation.rules
        players = observation.players
        self.observation = observation
        self.pile: list[int] = (
            [] if observation.initial_discard is None else [int(observation.initial_discard)]
        )
        upcard = observation.upcard
        self.upcard_in_stock = upcard is not None and rules.upcard_under_stock  # R2.6
        stock = rules.pack_size - 5 * players  # R2.5
        if upcard is not None and not self.upcard_in_stock:
            stock -= 1  # R2.8: turned up beside the stock
        if observation.initial_discard is not None:
            stock -= 1  # R2.7
        self.stock = stock
        self.rebuilds = 0
        self.draws = [0] * players
        self.turns = 0
        self.known: dict[int, int] = {}  # card -> the seat seen taking it (R4.5, R2.6)
        self.calls: list[Any] = []
        self.best = 0
        self.taken = -1

    def snapshot(self, past: Batch, d: int, seat: int, phase: int) -> None:
        """Write the state before ``seat``'s next move into deal ``d`` of ``past``."""
        observation = self.observation
        wild = 0
        for card in observation.wild_cards:
            wild |= 1 << int(card)
        past.wild[d] = wild
        past.upcard[d] = -1 if observation.upcard is None else int(observation.upcard)
        past.upcard_in_stock[d] = self.upcard_in_stock
        past.dealer[d] = observation.dealer
        past.seat[d] = seat
        past.phase[d] = phase
        past.taken[d] = self.taken if phase == DISCARD else -1
        past.status[d] = RUNNING
        past.turns[d] = self.turns
        past.rebuilds[d] = self.rebuilds
        past.stock_len[d] = self.stock
        if self.upcard_in_stock and self.stock:
            past.stock[d, 0] = past.upcard[d]
        for other, draws in enumerate(self.draws):
            past.draws[d, other] = draws
        for i, top in enumerate(self.pile):
            past.discard[d, i] = top
        past.discard_len[d] = len(self.pile)
        past.known[d, :] = -1
        for held, holder in self.known.items():
            past.known[d, held] = holder
        for i, call in enumerate(self.calls):
            for j, card in enumerate(sorted(call.shown)):  # R6.5, sorted as the core keeps them
                past.call_shown[d, i, j] = int(card)
            past.call_seat[d, i] = call.seat
            past.call_code[d, i] = call.value.code
            past.call_first[d, i] = call.first_turn
            past.call_card[d, i] = -1 if call.discard is None else int(call.discard)
        past.n_calls[d] = len(self.calls)
        past.best[d] = self.best
        past.rng[d, :] = d + 1  # greedy's ties read it; any state but the all-zero one

    def apply(self, event: Any) -> None:
        """One event of the history, as everyone saw it."""
        rules = self.observation.rules
        kind = event.action.kind
        seat = event.seat
        if kind.is_draw:
            if event.ends_deal:
                return
            self.draws[seat] += 1
            if kind is ActionKind.DRAW_DISCARD:
                card = self.pile.pop()
                self.known[card] = seat
                self.taken = card
            else:
                if event.rebuilt:  # R4.6
                    self.pile = self.pile[-1:] if rules.reshuffle_keeps_top else []
                    self.rebuilds += 1
                    self.stock = event.rebuilt
                self.stock -= 1
                if event.public and event.card is not None:  # R2.6: the face-up upcard
                    self.upcard_in_stock = False
                    self.known[int(event.card)] = seat
                self.taken = -1
            return
        self.turns += 1
        self.taken = -1
        if event.card is not None and kind is not ActionKind.CALL_SIX:
            self.pile.append(int(event.card))
            self.known.pop(int(event.card), None)
        if event.call is not None:
            self.calls.append(event.call)
            self.best = max(self.best, event.call.value.code)
            for card in event.call.shown:  # R6.5: face up, out of every hand
                self.known.pop(int(card), None)


def recent_turns(observation: Observation, *, depth: int = DEPTH, eps: float = EPS) -> RecentTurns:
    """Each hidden-handed opponent's last ``depth`` complete turns (see the module), to be
    read with a model that strays from its move with chance ``eps``."""
    if depth < 0 or not 0.0 < eps <= 1.0:
        raise ValueError(f"depth {depth}, eps {eps}: need depth >= 0 and 0 < eps <= 1")
    seat = observation.seat
    players = observation.players
    history = observation.history
    last_rebuild = max((i for i, event in enumerate(history) if event.rebuilt), default=-1)
    wanted: list[tuple[int, int]] = []  # (draw index, discard index) per turn, newest first
    owners: list[int] = []
    called = {call.seat for call in observation.calls}
    for other in range(players):
        if other == seat or other in called or depth < 1:
            continue
        found = 0
        i = len(history) - 1
        while i > last_rebuild and found < depth:
            event = history[i]
            if event.seat == other and event.action.kind is ActionKind.DISCARD:
                draw = i - 1
                if (
                    draw <= last_rebuild
                    or history[draw].seat != other
                    or not history[draw].action.kind.is_draw
                ):
                    break
                wanted.append((draw, i))
                owners.append(other)
                found += 1
                i = draw
            i -= 1
    past = new_batch(max(1, 2 * len(wanted)), 0, 0)
    at: dict[int, list[tuple[int, int]]] = {}  # event index -> [(past deal, phase)]
    for n, (draw, discard) in enumerate(wanted):
        at.setdefault(draw, []).append((2 * n, DRAW))
        at.setdefault(discard, []).append((2 * n + 1, DISCARD))
    public = _Public(observation)
    for i, event in enumerate(history):
        for d, phase in at.get(i, ()):
            public.snapshot(past, d, event.seat, phase)
        public.apply(event)
    if public.stock != observation.stock_size:
        raise ValueError("the public history does not add up to the stock's size (R9 view inconsistent)")
    turns = np.zeros((len(wanted), T_FIELDS), dtype=np.int64)
    start = np.zeros(MAX_SEATS, dtype=np.int64)
    count = np.zeros(MAX_SEATS, dtype=np.int64)
    for n, ((draw, discard), owner) in enumerate(zip(wanted, owners, strict=True)):
        drawn = history[draw]
        if count[owner] == 0:
            start[owner] = n
        count[owner] += 1
        turns[n, T_DRAW_AT] = 2 * n
        turns[n, T_DISCARD_AT] = 2 * n + 1
        turns[n, T_DRAWN] = int(drawn.card) if drawn.public and drawn.card is not None else -1
        turns[n, T_THREW] = int(history[discard].card)  # type: ignore[arg-type]
        turns[n, T_FROM_PILE] = drawn.action.kind is ActionKind.DRAW_DISCARD
        turns[n, T_EVENT] = discard
    return RecentTurns(past, turns, start, count, eps)


@jit
def _set_hand(past: Any, d: int, seat: int, cards: Any, n: int) -> None:
    """Deal ``d``'s hand of ``seat`` := ``cards[:n]``, sorted, with its rank key and suit bits."""
    for i in range(n):
        past.hands[d, seat, i] = cards[i]
    past.hand_len[d, seat] = n
    rekey_hand(past, d, seat)


@inline
def _weighted_pick(rng: Any, unseen: Any, used: int, weights: Any, seat: int) -> int:
    """One of the ``unseen`` cards not in the card mask ``used``, drawn in proportion to
    ``seat``'s ``weights``."""
    total = 0.0
    for c in range(unseen.size):
        if not (used >> unseen[c]) & 1:
            total += weights[seat, unseen[c]]
    target = uniform(rng, 0) * total
    pick = -1
    for c in range(unseen.size):
        if not (used >> unseen[c]) & 1:
            pick = unseen[c]
            target -= weights[seat, pick]
            if target < 0.0:
                break
    return int(pick)


@jit
def _move_chance(
    past: Any,
    tables: Any,
    gtables: Any,
    p: Any,
    turns: Any,
    t: int,
    seat: int,
    hand: Any,
    n: int,
    eps: float,
    rng: Any,
    work: Any,
) -> float:
    """The model's chance of ``seat``'s moves in turn ``t`` had it held ``hand[:n]`` after
    it; ``hand[:n]`` becomes its hand before the turn (its discard put back, its draw taken
    out: a card drawn unseen is one it was not known to hold, chosen at random)."""
    threw = turns[t, T_THREW]
    hand[n] = threw
    n += 1
    d = turns[t, T_DISCARD_AT]
    _set_hand(past, d, seat, hand, n)
    work[W_TIED] = 0
    move = greedy_action(past, tables, gtables, p, d, work)
    tied = work[W_TIED]
    options = n - (1 if past.taken[d] >= 0 else 0)  # R4.3: not the card just taken
    model = 0.0
    if tied > 0 and move >= DISCARD_BASE and move < DISCARD_BASE + 54:
        for i in range(tied):
            if work[W_TIES + i] == threw:
                model = 1.0 / tied
    elif move == DISCARD_BASE + threw:
        model = 1.0
    chance = (1.0 - eps) * model + eps / max(options, 1)
    drawn = turns[t, T_DRAWN]
    if drawn < 0:  # drawn unseen: one of the cards not known to be held, at random
        candidates = 0
        for i in range(n):
            if past.known[d, hand[i]] != seat:
                candidates += 1
        pick = below(rng, 0, candidates)
        for i in range(n):
            if past.known[d, hand[i]] != seat:
                if pick == 0:
                    drawn = hand[i]
                    break
                pick -= 1
    for i in range(n):
        if hand[i] == drawn:
            hand[i] = hand[n - 1]
            break
    n -= 1
    d = turns[t, T_DRAW_AT]
    _set_hand(past, d, seat, hand, n)
    move = greedy_action(past, tables, gtables, p, d, work)
    model = 1.0 if move == turns[t, T_FROM_PILE] else 0.0
    return chance * ((1.0 - eps) * model + eps / 2.0)


@jit
def particles_kernel(
    template: Any,
    past: Any,
    tables: Any,
    gtables: Any,
    p: Any,
    unseen: Any,
    need: Any,
    weights: Any,
    turns: Any,
    turn_start: Any,
    turn_count: Any,
    eps: float,
    seed: np.uint64,
    particles: Any,
    back: Any,
    spare: Any,
    chances: Any,
    rng: Any,
    work: Any,
) -> None:
    """Each opponent's hidden cards, ``particles[seat, i, :need[seat]]`` for the
    ``particles.shape[1]`` particles ``i``: drawn from the unseen cards in proportion to
    ``weights``, then, turn by turn back from the newest, weighted by the model's chance of
    the moves made and resampled (sequential importance resampling; see the module).
    ``back``, ``spare``: int64 [N, 16] work (a particle's hand back in time, then its
    hidden cards now); ``chances``: float64 [N]."""
    players = p[0]
    size = particles.shape[1]
    seed_deal(rng, 0, seed ^ np.uint64(0x2545F4914F6CDD1D), np.uint64(0))
    for seat in range(players):
        n_hidden = need[seat]
        if n_hidden == 0:
            continue
        known = template.hand_len[0, seat]
        for i in range(size):  # drawn in proportion to the weights, without replacement
            taken = 0
            for h in range(n_hidden):
                pick = _weighted_pick(rng, unseen, taken, weights, seat)
                taken |= 1 << pick
                particles[seat, i, h] = pick
            for j in range(known):
                back[i, j] = template.hands[0, seat, j]
            for h in range(n_hidden):
                back[i, known + h] = particles[seat, i, h]
        hand_size = known + n_hidden
        for t in range(turn_start[seat], turn_start[seat] + turn_count[seat]):
            total = 0.0
            for i in range(size):
                chances[i] = _move_chance(
                    past, tables, gtables, p, turns, t, seat, back[i], hand_size, eps, rng, work
                )
                total += chances[i]
            # Systematic resampling: particle j is kept about size * chances[j] / total times.
            step = total / size
            target = uniform(rng, 0) * step
            acc = chances[0]
            j = 0
            for i in range(size):
                while acc <= target and j < size - 1:
                    j += 1
                    acc += chances[j]
                for h in range(8):
                    spare[i, h] = back[j, h]
                for h in range(n_hidden):
                    spare[i, 8 + h] = particles[seat, j, h]
                target += step
            for i in range(size):
                for h in range(8):
                    back[i, h] = spare[i, h]
                for h in range(n_hidden):
                    particles[seat, i, h] = spare[i, 8 + h]


@jit
def deal_hands_kernel(
    particles: Any,
    p: Any,
    unseen: Any,
    need: Any,
    weights: Any,
    tries: int,
    seed: np.uint64,
    first: int,
    stop: int,
    dealt: Any,
    rng: Any,
) -> int:
    """The hidden cards of each opponent in determinizations ``first..stop-1``:
    ``dealt[k - first, seat, :need[seat]]``, a particle of each seat's drawn at random, the
    seats' particles disjoint (redrawn up to ``tries`` times; then the one that shares
    fewest cards with the seats dealt before, those cards drawn afresh from what is left in
    proportion to ``weights``; with no particles, every card so). Returns how many seats
    shared cards."""
    players = p[0]
    size = particles.shape[1]
    fallbacks = 0
    for k in range(first, stop):
        seed_deal(rng, 0, seed ^ np.uint64(0x6A09E667F3BCC909), np.uint64(k))
        used = 0
        for seat in range(players):
            n_hidden = need[seat]
            if n_hidden == 0:
                continue
            chosen = np.int64(0)
            fewest = 99
            for _ in range(tries if size else 0):  # a particle disjoint from the seats dealt before
                i = np.int64(below(rng, 0, size))
                clashes = 0
                for h in range(n_hidden):
                    clashes += (used >> particles[seat, i, h]) & 1
                if clashes < fewest:
                    chosen, fewest = i, clashes
                    if clashes == 0:
                        break
            if fewest and size:
                fallbacks += 1
            for h in range(n_hidden):
                card = particles[seat, chosen, h] if size else -1
                if card < 0 or (used >> card) & 1:  # none, or taken already: drawn afresh
                    card = _weighted_pick(rng, unseen, used, weights, seat)
                used |= 1 << card
                dealt[k - first, seat, h] = card
    return fallbacks


@dataclass(frozen=True)
class Belief:
    """Particles of each opponent's hidden cards for one decision (see the module): built
    once, read by every thread's determinizations."""

    particles: npt.NDArray[np.int64]  # [MAX_SEATS, N, HAND_CAP]
    params: npt.NDArray[np.int64]
    unseen: npt.NDArray[np.int64]
    need: npt.NDArray[np.int64]
    weights: npt.NDArray[np.float64]
    seed: int
    tries: int = TRIES

    @property
    def empty(self) -> bool:
        return bool(self.particles.shape[1] == 0)

    @classmethod
    def read(
        cls,
        observation: Observation,
        position: Any,
        weights: npt.NDArray[np.float64],
        seed: int,
        *,
        depth: int = DEPTH,
        eps: float = EPS,
        particles: int = PARTICLES,
        tries: int = TRIES,
    ) -> Belief:
        """The belief of ``observation``'s seat about the hidden cards of its
        :class:`~paiute.compiled.search.Position` (the proposal ``weights``, then the
        opponents' last ``depth`` turns read with the model)."""
        recent = recent_turns(observation, depth=depth, eps=eps)
        size = 0 if recent.empty or observation.rebuilds else particles  # R4.6: see the module
        held = np.zeros((MAX_SEATS, size, HAND_CAP), dtype=np.int64)
        if size:
            particles_kernel(
                position.template,
                recent.past,
                position.tables,
                position.gtables,
                position.params,
                position.unseen,
                position.need,
                weights,
                recent.turns,
                recent.start,
                recent.count,
                eps,
                np.uint64(seed & 0xFFFFFFFFFFFFFFFF),
                held,
                np.zeros((size, 16), dtype=np.int64),
                np.zeros((size, 16), dtype=np.int64),
                np.zeros(size, dtype=np.float64),
                np.zeros((1, 4), dtype=np.uint64),
                np.zeros(GREEDY_WORK, dtype=np.int64),
            )
        return cls(held, position.params, position.unseen, position.need, weights, seed, tries)

    def deal(self, first: int, stop: int, dealt: npt.NDArray[np.int64]) -> int:
        """:func:`deal_hands_kernel` into ``dealt`` (``stop - first`` rows); how many seats
        shared cards. An empty belief has nothing to deal (after a rebuild its stock must
        be dealt first, R4.6: :func:`~paiute.compiled.search.run_estimates` does that)."""
        if self.empty:
            raise ValueError("an empty belief deals nothing: deal the position's hidden cards as usual")
        return int(
            deal_hands_kernel(
                self.particles,
                self.params,
                self.unseen,
                self.need,
                self.weights,
                self.tries,
                np.uint64(self.seed & 0xFFFFFFFFFFFFFFFF),
                first,
                stop,
                dealt,
                np.zeros((1, 4), dtype=np.uint64),
            )
        )
