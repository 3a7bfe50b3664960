"""A batch simulator: thousands of deals at once on arrays, with the engine's rules (R2-R8).

:class:`BatchSimulator` plays whole deals of Paiute on NumPy arrays with Numba kernels
(the compiled rules core :mod:`paiute.compiled`, driven by :mod:`paiute.envs.batch_kernels`), either uniformly at random over the legal actions (the
whole deal inside one compiled loop) or with a *masked policy* that sees every running deal's
observation and legal-action mask at once and returns one action per deal. The rules are the
engine's, every option of :data:`paiute.rules.OPTIONS` included: a deal simulated here and
replayed in :class:`paiute.deal.Deal` (:meth:`BatchResult.replay`) has the same legal actions
at every step, the same outcome and the same payouts (``tests/envs/test_batch_sim.py``).
Observations are the one encoding every learning interface shares
(:class:`paiute.envs.encoding.ObservationEncoder`): :meth:`BatchSimulator.observe` gives,
row for row, what ``encode_int8`` (or ``encode``) gives for the current seat's engine
:class:`~paiute.observation.Observation`.

>>> from paiute.rules import RuleSet
>>> sim = BatchSimulator(RuleSet(), players=4, batch_size=256, seed=7)
>>> result = sim.run(1000, record=True)
>>> len(result), int(result.decisions.sum()) > 100_000
(1000, True)
>>> bool((result.payouts.sum(axis=1) + result.pot == 0).all())  # R8.6: chips are conserved
True
>>> deal = result.replay(0)  # the first deal, rebuilt and replayed in the engine
>>> deal.outcome.winners == result.deal(0).winners
True

Randomness: deal ``i`` of a run (its shuffle, its dealer when not fixed, its stock rebuilds
and its random actions) comes from its own xoshiro256** generator seeded from ``(seed, i)``,
so a deal depends only on the seed, its index and the actions chosen, never on the batch size
or on how the deals are split between processes (:func:`run_parallel`).

The R4.7 hole (a deal in which nobody ever draws from the stock never ends) is closed by
``max_turns`` (:data:`~paiute.rules.DEFAULT_MAX_TURNS`, the same default as every learning
interface): a deal still running after that many turns is *cut*, with status
:data:`TRUNCATED` (reported apart from dead deals, R4.7, and won deals) and settled as a dead
deal (R8.5): every stake stays in the pot. :attr:`BatchResult.rewards` gives what the
environments and the OpenSpiel game pay for a deal at a fresh table: the chips plus an equal
share of what is left in the pot, so a dead or cut deal pays every seat 0.

The compiled kernels, the environments and OpenSpiel all cut a deal after ``max_turns`` turns
only while nobody has called: after a call the last round is played out (R7.2;
``tests/envs/test_truncation.py`` checks every interface).

Compiled code: every kernel is ``paiute.compiled.compilation.jit`` (``cache=True``), so the first
process on a machine compiles them into Numba's disk cache and every later one loads them from
it (``benchmarks/batch_sim.py --startup`` measures both; docs/batch-simulator.md has the
figures); see :mod:`paiute.compiled.compilation` for when that cache goes stale. The results,
:class:`BatchResult` and :class:`SimulatedDeal`, live in :mod:`paiute.envs.batch_result` and are
re-exported here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from paiute.actions import Action
from paiute.cards import Card
from paiute.compiled import state
from paiute.compiled import tables as core_tables
from paiute.compiled.state import rule_params
from paiute.compiled.tables import rank_table, straight_flush_tables
from paiute.envs import batch_kernels as kernels
from paiute.envs.batch_result import DEAD, OVER, TRUNCATED, BatchResult, SimulatedCall, SimulatedDeal
from paiute.envs.encoding import COUNT_SCALE, Field, ObservationEncoder
from paiute.errors import IllegalActionError, PaiuteError, ParseError
from paiute.parallel import default_workers, parallel_map
from paiute.rules import DEFAULT_MAX_TURNS, RuleSet

__all__ = [
    "DEAD",
    "OVER",
    "TRUNCATED",
    "BatchResult",
    "BatchSimulator",
    "Policy",
    "SimulatedCall",
    "SimulatedDeal",
    "compile_kernels",
    "evaluate_holdings",
    "int8_scales",
    "observation_layout",
    "rank_table",
    "refusal",
    "rule_params",
    "run_parallel",
    "straight_flush_tables",
]


#: A masked policy: ``policy(observations, masks) -> actions``, one action id per deal
#: (``observations`` is ``int8 [B, encoder.size]``, the shared encoding's ``encode_int8`` of
#: each deal's current seat; ``masks`` is ``bool [B, 111]``; the entries of deals that have
#: ended are ignored).
Policy = Callable[[npt.NDArray[np.int8], npt.NDArray[np.bool_]], npt.ArrayLike]


# Why the step API refused an action: rule and words.
_REASONS: dict[int, tuple[str, str]] = {
    state.ILLEGAL_OVER: ("R7.3", "the deal is over"),
    state.ILLEGAL_DRAW_FIRST: ("R4.2", "the seat must draw first"),
    state.ILLEGAL_DRAWN: ("R4.2", "the seat has drawn this turn: discard or call"),
    state.ILLEGAL_STOCK: ("R4.6", "the stock is empty and no rebuild is possible"),
    state.ILLEGAL_DISCARD_EMPTY: ("R4.2", "the discard pile is empty: draw from the stock"),
    state.ILLEGAL_NOT_HELD: ("R4.2", "the seat does not hold that card"),
    state.ILLEGAL_TAKEN: ("R4.3", "the card taken from the discard pile may not leave the hand this turn"),
    state.ILLEGAL_NO_FIVE: ("R6.2", "the other five cards make no five-card combination"),
    state.ILLEGAL_NO_SIX: ("R6.3", "the six cards make no six-card combination"),
    state.ILLEGAL_PAIUTE: ("R5.7", "a Paiute may be called only on the caller's first turn"),
    state.ILLEGAL_BELOW: ("R6.4", "the call does not equal or beat the highest call"),
}


def compile_kernels() -> None:
    """Compile every kernel now, or load it from Numba's on-disk cache (``cache=True``): the
    first call on a machine compiles, a later process only loads (docs/batch-simulator.md has
    how long each takes)."""
    simulator = BatchSimulator(RuleSet(), 2, batch_size=2, seed=0)
    simulator.run(2, record=True)
    simulator.reset()
    simulator.legal_mask()
    simulator.observe()
    simulator.observe(np.float32)
    simulator.step(np.zeros(2, dtype=np.int64))
    simulator.step_random()
    simulator.result()
    evaluate_holdings(np.arange(6)[None, :], ())


# -- the evaluator's tables as arrays ----------------------------------------------------------


def evaluate_holdings(
    holdings: npt.ArrayLike, wild_cards: Sequence[Card] | frozenset[Card], *, royal_high: bool = False
) -> npt.NDArray[np.int64]:
    """The kernels' evaluation of six-card holdings, for checking them against
    :class:`~paiute.evaluator.Evaluator`: an ``int64 [N, 9]`` array whose columns are
    ``best_code``, ``best_five_code``, ``code`` of all six, then ``code`` of the five cards
    left when card ``j`` of the row is put down, for ``j`` = 0..5."""
    array = np.ascontiguousarray(holdings, dtype=np.int64)
    if array.ndim != 2 or array.shape[1] != 6 or (array.size and (array.min() < 0 or array.max() > 53)):
        raise PaiuteError(f"holdings must be an (N, 6) array of card ids 0..53, not shape {array.shape}")
    out = np.zeros((array.shape[0], 9), dtype=np.int64)
    core_tables.evaluate_rows(core_tables.tables(royal_high), core_tables.wild_mask(wild_cards), array, out)
    return out


# -- the simulator --------------------------------------------------------------------------


class BatchSimulator:
    """Deals of one rule set and table size, simulated ``batch_size`` at a time.

    ``dealer`` fixes the dealer's seat; ``None`` (the default) draws it uniformly for each
    deal (R2.3). ``max_turns`` stops a deal that has not ended after that many turns (status
    :data:`TRUNCATED`). ``seed`` makes every run repeatable (R10.1); successive runs of one
    simulator continue with new deals unless ``start`` says which deal to begin with.
    """

    def __init__(
        self,
        rules: RuleSet,
        players: int,
        batch_size: int = 4096,
        seed: int = 0,
        *,
        dealer: int | None = None,
        max_turns: int = DEFAULT_MAX_TURNS,
    ) -> None:
        rules.check_players(players)
        if batch_size < 1:
            raise PaiuteError(f"batch_size must be at least 1, not {batch_size}")
        if dealer is not None and not 0 <= dealer < players:
            raise PaiuteError(f"R2.2 dealer seat {dealer!r} is not one of the {players} seats")
        if max_turns < 1:
            raise PaiuteError(f"max_turns must be at least 1, not {max_turns}")
        self.rules = rules
        self.players = players
        self.batch_size = batch_size
        self.seed = seed
        self.dealer = dealer
        self.max_turns = max_turns
        self.next_deal = 0
        self._tables = core_tables.tables(rules.royal_high)
        self._params = rule_params(rules, players, dealer=dealer, max_turns=max_turns)
        #: The shared observation encoding of this table (:mod:`paiute.envs.encoding`), which
        #: :meth:`observe` produces: ``encoder.layout`` names its fields, ``encoder.size``
        #: is the length of a row.
        self.encoder = ObservationEncoder(rules, players)
        self._obs_layout = observation_layout(self.encoder)
        self._obs_scales = int8_scales(self.encoder)
        self._batch: Any = None
        self._batch_start = 0
        self._batch_recorded = False

    @property
    def _seed64(self) -> np.uint64:
        return np.uint64(self.seed & 0xFFFFFFFFFFFFFFFF)

    def _take(self, count: int, start: int | None) -> int:
        first = self.next_deal if start is None else start
        if first < 0:
            raise PaiuteError(f"start must be a deal index >= 0, not {first}")
        self.next_deal = first + count
        return first

    # -- whole runs -------------------------------------------------------------------------

    def run(
        self,
        deals: int,
        policy: Policy | None = None,
        *,
        record: bool = False,
        start: int | None = None,
    ) -> BatchResult:
        """Simulate ``deals`` deals to their end, ``batch_size`` at a time.

        Without ``policy`` every decision is uniform over the legal actions, inside the
        compiled loop. With one, deals go in lock step: each step the policy gets the
        observations (:meth:`observe`, but all zeros for deals that have ended) and legal
        masks of the whole batch and returns an action per deal (:data:`Policy`); an
        illegal action for a running deal raises :class:`~paiute.errors.IllegalActionError`.
        ``record`` keeps the decks, actions and rebuild orders (for
        :meth:`BatchResult.replay`).
        """
        if deals < 0:
            raise PaiuteError(f"deals must be 0 or more, not {deals}")
        first = self._take(deals, start)
        parts = []
        for offset in range(0, deals, self.batch_size):
            count = min(self.batch_size, deals - offset)
            if policy is None:
                parts.append(self._run_random(first + offset, count, record))
            else:
                parts.append(self._run_policy(first + offset, count, record, policy))
        if not parts:
            return self._empty(first, record)
        return BatchResult.concatenate(parts)

    def _params_for(self, record: bool) -> npt.NDArray[np.int64]:
        params = self._params.copy()
        params[state.P_RECORD] = record
        return params

    def _run_random(self, first: int, count: int, record: bool) -> BatchResult:
        params = self._params_for(record)
        action_cap = rebuild_cap = 0
        if record:
            action_cap = count * 600 + 4 * (self.max_turns + self.players) + 256
            rebuild_cap = count * 80 + 4 * (self.max_turns + self.players) + 512
        batch = state.new_batch(count, action_cap, rebuild_cap)
        cursors = np.zeros(2, dtype=np.int64)
        done = 0
        while done < count:
            done = kernels.run_random(
                batch, self._tables, params, self._seed64, first, done, count, cursors, _scratch()
            )
            if done < count:  # a log is full: grow it (worst case of one deal stays free)
                batch = batch._replace(
                    action_log=_grown(batch.action_log),
                    rebuild_log=_grown(batch.rebuild_log),
                )
        return self._collect(batch, first, count, record)

    def _run_policy(self, first: int, count: int, record: bool, policy: Policy) -> BatchResult:
        self._reset(first, count, record)
        # Every step moves every running deal on by one action; none lasts longer than this.
        # Every deal ends within max_turns turns and a last round (R7.2): two actions a turn.
        for _ in range(2 * (self.max_turns + self.players) + 2):
            if self.done.all():
                break
            actions = policy(self._observe_running(), self.legal_mask())
            self.step(actions)
        return self.result()

    def _empty(self, first: int, record: bool) -> BatchResult:
        batch = state.new_batch(0, 0, 0)
        return self._collect(batch, first, 0, record)

    def _collect(self, batch: Any, first: int, count: int, record: bool) -> BatchResult:
        """Copy the outcome of ``count`` finished (or truncated) deals out of ``batch``."""
        players = self.players
        n = slice(0, count)
        winners = ((batch.winners[n, None] >> np.arange(players)) & 1).astype(np.bool_)
        status = batch.status[n].astype(np.int8)
        payouts = batch.payouts[n, :players].copy()
        pot = batch.pot[n].copy()
        if self.rules.payout == "pot":
            # A cut deal is settled as a dead one (R8.5): the kernels stop it before its
            # settlement, so its stakes go into the pot here and stay there.
            cut = status == TRUNCATED
            payouts[cut] = -self.rules.stake
            pot[cut] = self.rules.stake * players
        recorded: dict[str, Any] = {}
        if record:
            recorded["decks"] = batch.deck[n, : self.rules.pack_size].copy()
            for log, start, pos, offsets in (
                ("actions", batch.action_start, batch.action_pos, "action_offsets"),
                ("rebuild_log", batch.rebuild_start, batch.rebuild_pos, "rebuild_offsets"),
            ):
                source = batch.action_log if log == "actions" else batch.rebuild_log
                lengths = pos[n] - start[n]
                offset_array = np.zeros(count + 1, dtype=np.int64)
                np.cumsum(lengths, out=offset_array[1:])
                if count and (start[1:count] == pos[: count - 1]).all():
                    # Logged one after another (random play): one slice.
                    recorded[log] = source[start[0] : pos[count - 1]].copy()
                else:
                    recorded[log] = (
                        np.concatenate([source[start[i] : pos[i]] for i in range(count)])
                        if count
                        else np.zeros(0, dtype=np.uint8)
                    )
                recorded[offsets] = offset_array
        return BatchResult(
            rules=self.rules,
            players=players,
            seed=self.seed,
            first_deal=first,
            status=status,
            dealer=batch.dealer[n].astype(np.int8),
            winners=winners,
            payouts=payouts,
            pot=pot,
            decisions=batch.n_actions[n].astype(np.int32),
            turns=batch.turns[n].astype(np.int32),
            rebuilds=batch.rebuilds[n].astype(np.int32),
            call_count=batch.n_calls[n].astype(np.int8),
            call_seat=np.where(
                np.arange(players) < batch.n_calls[n, None], batch.call_seat[n, :players], -1
            ).astype(np.int8),
            call_code=np.where(
                np.arange(players) < batch.n_calls[n, None], batch.call_code[n, :players], 0
            ).astype(np.int32),
            call_first=((np.arange(players) < batch.n_calls[n, None]) & (batch.call_first[n, :players] == 1)),
            call_card=np.where(
                np.arange(players) < batch.n_calls[n, None], batch.call_card[n, :players], -1
            ).astype(np.int8),
            call_shown=batch.call_shown[n, :players].copy(),
            **recorded,
        )

    # -- lock-step API ----------------------------------------------------------------------

    def reset(self, *, record: bool = True, start: int | None = None) -> None:
        """Deal ``batch_size`` new deals (the next ones, or from deal ``start``) to be played
        with :meth:`legal_mask`, :meth:`observe` and :meth:`step`."""
        self._reset(self._take(self.batch_size, start), self.batch_size, record)

    def _reset(self, first: int, count: int, record: bool) -> None:
        longest = self.max_turns + self.players  # max_turns, then a last round (R7.2)
        action_cap = 2 * longest + 2 if record else 0
        rebuild_cap = 2 * longest + 2 * state.PACK_CAP + 2 if record else 0
        self._batch = state.new_batch(count, action_cap * count, rebuild_cap * count)
        self._batch_params = self._params_for(record)
        self._batch_start = first
        self._batch_recorded = record
        kernels.reset_all(self._batch, self._batch_params, self._seed64, first, action_cap, rebuild_cap)

    def _require_batch(self) -> Any:
        if self._batch is None:
            raise PaiuteError("no deals in play: call reset() first")
        return self._batch

    @property
    def done(self) -> npt.NDArray[np.bool_]:
        """Which deals of the current batch have ended (or been truncated)."""
        return np.asarray(self._require_batch().status != state.RUNNING)

    @property
    def current_seat(self) -> npt.NDArray[np.int64]:
        """The seat to act in each deal of the current batch."""
        return np.asarray(self._require_batch().seat.copy())

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """``bool [B, 111]``: the legal action ids of each deal (all false once it ended)."""
        batch = self._require_batch()
        mask = np.zeros((batch.status.size, state.NUM_ACTIONS), dtype=np.bool_)
        kernels.legal_masks(batch, self._tables, self._batch_params, mask, _scratch())
        return mask

    @property
    def observation_layout(self) -> tuple[Field, ...]:
        """The fields of an observation row: ``encoder.layout`` (``docs/encoding.md``)."""
        return self.encoder.layout

    @property
    def observation_size(self) -> int:
        """The length of an observation row: ``encoder.size``."""
        return self.encoder.size

    def observe(
        self, dtype: npt.DTypeLike = np.int8, *, out: npt.NDArray[Any] | None = None
    ) -> npt.NDArray[Any]:
        """Each deal as its current seat may see it (R9), in the shared encoding
        (:attr:`encoder`): ``int8 [B, encoder.size]``, row ``d`` equal to
        ``encoder.encode_int8(deal.observation(deal.current_seat))`` of the engine's deal;
        with ``dtype=np.float32``, equal to ``encoder.encode(...)``. Seats are relative to
        the observer (block ``seat0`` is the seat to act). A deal that has ended shows the
        seat that acted last, with ``phase_over`` set (a truncated one too, though the engine
        would say that deal is still running). ``out`` (C-contiguous, ``[B, size]``, of that
        dtype) is filled instead of a new array."""
        batch = self._require_batch()
        kind = np.dtype(dtype)
        if kind not in (np.dtype(np.int8), np.dtype(np.float32)):
            raise PaiuteError(f"observations are int8 or float32, not {kind}")
        shape = (batch.status.size, self.encoder.size)
        if out is None:
            out = np.empty(shape, dtype=kind)
        elif out.shape != shape or out.dtype != kind or not out.flags.c_contiguous:
            raise PaiuteError(f"out must be a C-contiguous {kind} array of shape {shape}")
        quantize = kind == np.dtype(np.int8)
        kernels.observe_all(
            batch, self._batch_params, self._obs_layout, self._obs_scales, out, quantize, False
        )
        return out

    def _observe_running(self) -> npt.NDArray[np.int8]:
        """:meth:`observe` for a policy: the rows of deals that have ended are left zero (the
        policy's entries for them are ignored), which spares building them at every step
        while the batch's longest deals finish."""
        batch = self._require_batch()
        out = np.zeros((batch.status.size, self.encoder.size), dtype=np.int8)
        kernels.observe_all(batch, self._batch_params, self._obs_layout, self._obs_scales, out, True, True)
        return out

    def observe_float(self) -> npt.NDArray[np.float32]:
        """``observe(np.float32)``: the float32 encoding (``encoder.encode``) of every deal."""
        return self.observe(np.float32)

    def step(self, actions: npt.ArrayLike) -> None:
        """Apply one action id per deal to every running deal (entries of ended deals are
        ignored). If any is illegal, nothing is applied and
        :class:`~paiute.errors.IllegalActionError` names the first refused deal and the rule."""
        batch = self._require_batch()
        ids = np.asarray(actions)
        if ids.shape != batch.status.shape or ids.dtype.kind not in "iu":
            raise PaiuteError(
                f"actions must be {batch.status.size} integer action ids, one per deal; got "
                f"shape {ids.shape} of {ids.dtype}"
            )
        ids = ids.astype(np.int64)
        reasons = np.zeros(batch.status.size, dtype=np.int64)
        refused = kernels.step_all(batch, self._tables, self._batch_params, ids, reasons, _scratch())
        if refused:
            deal = int(np.flatnonzero(reasons)[0])
            more = f" ({refused} deals refused; nothing was applied)" if refused > 1 else ""
            who = f"deal {deal}, seat {int(batch.seat[deal])}"
            raise refusal(int(reasons[deal]), int(ids[deal]), f"deal {deal}", who, more)

    def step_random(self) -> None:
        """One uniformly random legal action in every running deal."""
        kernels.step_random(self._require_batch(), self._tables, self._batch_params, _scratch())

    def result(self) -> BatchResult:
        """The current batch as a :class:`BatchResult` (deals still running are counted as
        :data:`TRUNCATED`)."""
        batch = self._require_batch()
        result = self._collect(batch, self._batch_start, batch.status.size, self._batch_recorded)
        running = result.status == state.RUNNING
        if running.any():
            result.status[running] = TRUNCATED
        return result


def refusal(reason: int, action_id: int, where: str, who: str, more: str = "") -> PaiuteError:
    """The error for an action the kernels refused (``why_illegal``'s code ``reason``): an
    :class:`~paiute.errors.IllegalActionError` naming the rule, ``who`` (the deal or table and
    the seat) and the action, then ``more``; a :class:`~paiute.errors.ParseError` naming
    ``where`` for an id that is no action."""
    if reason == state.ILLEGAL_BAD_ID:
        return ParseError(f"{where}: unknown action id {action_id} (0..{state.NUM_ACTIONS - 1})")
    rule, words = _REASONS[reason]
    action = Action.from_id(action_id)
    if reason == state.ILLEGAL_DRAW_FIRST and action.kind.is_call:
        rule = "R6.1"
    if reason == state.ILLEGAL_NOT_HELD and action.kind.is_call:
        rule = "R6.2"
    return IllegalActionError(rule, f"{who}: {action}: {words}{more}", str(action))


def observation_layout(encoder: ObservationEncoder) -> npt.NDArray[np.int64]:
    """The offsets the observation kernel reads (``batch_kernels.OBS_GLOBAL_FIELDS``...),
    taken from the encoder's own layout."""
    base = encoder.seat_offset
    offsets = [encoder.field(name).offset for name in kernels.OBS_GLOBAL_FIELDS]
    offsets += [base, encoder.seat_block]
    offsets += [encoder.seat_field(0, name).offset - base for name in kernels.OBS_SEAT_FIELDS]
    layout = np.array(offsets, dtype=np.int64)
    assert layout.size == kernels.OBS_LAYOUT_SIZE
    # The kernel writes these fields' int8 form as the count itself: their int8 scale must be
    # the divisor the kernel uses (see batch_kernels._put_count).
    divisors = {
        "pile": encoder.cards,
        "stock_size": encoder.cards,
        "rebuilds": encoder.rules.max_rebuilds + 1,
        "turn": COUNT_SCALE,
        "discard_turn": COUNT_SCALE,
        "seat0.hand_size": kernels.HAND_SCALE,
        "seat0.draws": COUNT_SCALE,
        "seat0.pile_draws": COUNT_SCALE,
    }
    for name, divisor in divisors.items():
        if encoder.int8_scale(name) != divisor:
            raise PaiuteError(f"the encoding's int8 scale of {name} is not {divisor}: update batch_kernels")
    return layout


def int8_scales(encoder: ObservationEncoder) -> npt.NDArray[np.float32]:
    """The int8 scale of every entry of ``encoder``'s vector (``encoder.int8_scale`` of its
    field): ``encode_int8`` stores ``round(value * scale)``, so ``int8 / scale`` approximates
    the float32 encoding (``observe(np.float32)`` gives it exactly)."""
    return np.concatenate(
        [np.full(field.length, encoder.int8_scale(field.name), dtype=np.float32) for field in encoder.layout]
    )


def _scratch() -> npt.NDArray[np.int64]:
    """Room for one deal's legal actions (the kernels allocate nothing)."""
    return np.empty(state.LEGAL_CAP, dtype=np.int64)


def _grown(log: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    grown = np.zeros(max(2 * log.size, 1024), dtype=np.uint8)
    grown[: log.size] = log
    return grown


# -- several processes ----------------------------------------------------------------------


@dataclass(frozen=True)
class _Job:
    rules: dict[str, object]
    players: int
    batch_size: int
    seed: int
    dealer: int | None
    max_turns: int
    start: int
    deals: int
    record: bool


def _run_job(job: _Job) -> BatchResult:
    simulator = BatchSimulator(
        RuleSet.from_dict(job.rules),
        job.players,
        job.batch_size,
        job.seed,
        dealer=job.dealer,
        max_turns=job.max_turns,
    )
    return simulator.run(job.deals, record=job.record, start=job.start)


def run_parallel(
    rules: RuleSet,
    players: int,
    deals: int,
    *,
    seed: int = 0,
    workers: int | None = None,
    batch_size: int = 4096,
    chunk: int | None = None,
    dealer: int | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    record: bool = False,
) -> BatchResult:
    """Random play of ``deals`` deals split into chunks over ``workers`` processes
    (:func:`paiute.parallel.parallel_map`); the result equals one process's ``run`` with the
    same seed, deal for deal."""
    if deals < 1:
        raise PaiuteError(f"deals must be at least 1, not {deals}")
    size = chunk or max(1, -(-deals // (workers or default_workers())))
    jobs = [
        _Job(
            rules.to_dict(),
            players,
            batch_size,
            seed,
            dealer,
            max_turns,
            start,
            min(size, deals - start),
            record,
        )
        for start in range(0, deals, size)
    ]
    results: list[BatchResult | None] = [None] * len(jobs)
    for index, result in parallel_map(_run_job, jobs, workers=workers):
        results[index] = result
    return BatchResult.concatenate([r for r in results if r is not None])
