"""One seat at many Paiute tables at once: a compiled Gymnasium vector environment.

``gymnasium.make_vec("paiute/Paiute-v0", num_envs=n)`` (``vectorization_mode=
"vector_entry_point"``, the default once the id is registered) returns a
:class:`PaiuteVectorEnv`: ``n`` tables of the single environment
(:class:`paiute.envs.gymnasium.PaiuteEnv`), each one seat against bots, played in Numba
(:mod:`paiute.envs.vector_kernels` on the compiled rules core, :mod:`paiute.compiled`). The
bots' turns are played inside :meth:`~PaiuteVectorEnv.step`, so a step costs microseconds a
table, not a Python round trip per bot decision.

>>> import gymnasium as gym
>>> import paiute.envs.gymnasium  # registers paiute/Paiute-v0
>>> envs = gym.make_vec("paiute/Paiute-v0", num_envs=3, opponents="greedy", players=3)
>>> observations, info = envs.reset(seed=1)
>>> observations.shape, info["action_mask"].shape, envs.metadata["autoreset_mode"].name
((3, 1036), (3, 111), 'NEXT_STEP')
>>> actions = info["action_mask"].argmax(axis=1)  # the first legal action of every table
>>> observations, rewards, terminated, truncated, info = envs.step(actions)
>>> rewards.dtype, terminated.shape
(dtype('float64'), (3,))

* **The same tables as the single environment.** Every keyword of ``PaiuteEnv`` means the
  same here (``seat``, ``players``, ``preset`` and the rule options, ``max_turns``,
  ``illegal``, ``illegal_reward``, ``carry_match``), and so do the observations (the shared
  encoding, docs/encoding.md), the action ids, the masks (``info["action_mask"]``, all ones
  once a deal has ended), the rewards and the end-of-deal ``info``. Table ``i`` seeded with
  ``s`` (``reset(seed=s0)`` seeds table ``i`` with ``s0 + i``, as ``SyncVectorEnv`` does)
  deals the deals, plays the bots' moves and pays the rewards of ``PaiuteEnv`` seeded with
  ``s`` under ``vectorization_mode="sync"``, step for step: the engine's chance and the bots'
  generators are Python's ``random.Random`` (:mod:`paiute.compiled.pyrandom`), and
  ``tests/envs/test_vector_env.py`` holds both side by side.
* **Opponents**: ``"random"``, ``"greedy"`` (decision for decision
  :class:`~paiute.players.greedy.GreedyPlayer`, ``aggression``, ``horizon`` and ``seed``
  options included; the levels ``medium`` and ``hard`` name greedy) and ``"playout"`` (the
  compiled playout policy of :mod:`paiute.compiled.playout`), as a spec string; or a
  *policy*, any callable ``policy(observations, masks) -> actions`` (self-play: a learned
  network at the other seats). ``opponents`` is one of these for every other seat, or one
  each, in seat order, as ``PaiuteEnv`` takes them. Between kernel calls a step gathers every
  table where a policy's seat is to act and calls the policy once with all of them:
  ``observations`` is ``float32 [k, size]``, each row what that seat sees (R9) in the shared
  encoding (relative to that seat, as the learner's own observations are to the learner),
  ``masks`` is ``bool [k, 111]``, its legal actions; it returns ``k`` action ids. An illegal
  one raises :class:`~paiute.errors.IllegalActionError` naming the table, the seat and the
  rule; nothing of that round is applied. Other bots (``ismcts``, ``pimc``, ``learned``...)
  run under ``vectorization_mode="sync"``.
* **Autoreset**: ``autoreset_mode`` (a keyword here, as ``make_vec`` passes no
  ``vector_kwargs`` to an entry point) is Gymnasium 1.x's ``NEXT_STEP`` by default:
  the step after a deal ends ignores that table's action and deals it a new deal (reward 0,
  the new deal's observation and mask). ``SAME_STEP`` (the new deal's first observation at
  once, the ended one's in ``info["final_obs"]`` and ``info["final_info"]``) and
  ``DISABLED`` (``reset(options={"reset_mask": done})`` before the next step) work as in
  ``SyncVectorEnv``; ``metadata["autoreset_mode"]`` says which.
* **Illegal actions** follow ``illegal``: ``"terminate"`` (the default) ends that table's
  deal with ``illegal_reward``, ``"replace"`` plays a legal action drawn by the table's own
  generator, ``"raise"`` raises :class:`~paiute.errors.IllegalActionError` naming the table
  (``env i``), the seat and the rule, applying nothing of the step.
* **Compiled once**: the kernels are compiled on first use and cached on disk
  (:mod:`paiute.compiled.compilation`); the first process on a machine compiles them and says
  so on one line of stderr, later ones load them (docs/vector-env.md has the times).
* Not here: ``render_mode`` and ``observation_object`` (both need the engine's
  :class:`~paiute.observation.Observation`): ``vectorization_mode="sync"`` has them.

:func:`paiute.envs.sb3.sb3_vec_env` wraps the environment for Stable-Baselines3
(``MaskablePPO``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from paiute.actions import NUM_ACTIONS
from paiute.compiled import state as core
from paiute.compiled import tables as core_tables
from paiute.compiled.compilation import entry_point
from paiute.compiled.greedy import GREEDY_WORK, greedy_tables
from paiute.compiled.playout import policy_tables
from paiute.envs import vector_kernels as kernels
from paiute.envs.batch_sim import int8_scales, observation_layout, refusal
from paiute.envs.encoding import Float32Array, Int8Array, ObservationEncoder, rules_for_seats
from paiute.envs.vector_infos import put, put_deal_ends, step_info
from paiute.envs.vector_tables import (
    BoolArray,
    Matches,
    OpponentPolicy,
    Seat,
    entry_points,
    parse_opponent,
)
from paiute.errors import IllegalActionError, PaiuteError
from paiute.rules import DEFAULT_MAX_TURNS, MAX_SEATS

__all__ = ["OpponentPolicy", "PaiuteVectorEnv"]

_SCRATCH = 40  # the kernels' legal-action, live-count and held-card room


class PaiuteVectorEnv(gymnasium.vector.VectorEnv[Float32Array, npt.NDArray[np.int64], np.ndarray[Any, Any]]):
    """``num_envs`` tables of :class:`~paiute.envs.gymnasium.PaiuteEnv` in compiled code (see
    the module docstring)."""

    def __init__(
        self,
        num_envs: int = 1,
        *,
        seat: int = 0,
        opponents: str | OpponentPolicy | Sequence[str | OpponentPolicy] = "greedy",
        players: int = 4,
        preset: str = "pagat",
        render_mode: str | None = None,
        max_turns: int = DEFAULT_MAX_TURNS,
        illegal: str = "terminate",
        illegal_reward: float = -1.0,
        carry_match: bool = False,
        observation_object: bool = False,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        **options: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise PaiuteError(f"num_envs must be a whole number of at least 1, not {num_envs!r}")
        self.rules = rules_for_seats(preset, players, options)
        self.rules.check_players(players)
        if isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1:
            raise PaiuteError(f"max_turns must be a whole number of at least 1, not {max_turns!r}")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise PaiuteError(f"R2.2 seat {seat!r} is not one of the {players} seats")
        if render_mode is not None or observation_object:
            raise PaiuteError(
                "render_mode and observation_object need the engine's Observation: "
                "use vectorization_mode='sync' for them"
            )
        if illegal == "penalty":  # the old name
            illegal = "terminate"
        if illegal not in ("terminate", "raise", "replace"):
            raise PaiuteError(f"illegal={illegal!r}: expected 'terminate', 'raise' or 'replace'")
        try:
            mode = AutoresetMode(autoreset_mode)
        except ValueError:
            names = ", ".join(repr(m.value) for m in AutoresetMode)
            raise PaiuteError(f"autoreset_mode={autoreset_mode!r}: expected one of {names}") from None
        specs = (
            [opponents] * (players - 1)
            if isinstance(opponents, str) or callable(opponents)
            else list(opponents)
        )
        if len(specs) != players - 1:
            raise PaiuteError(f"{len(specs)} opponent specs for {players - 1} other seats")
        seats: list[Seat | None] = []
        others = iter(specs)
        for place in range(players):
            seats.append(None if place == seat else parse_opponent(next(others)))
        greedy = {(s.aggression, s.horizon) for s in seats if s is not None and s.kind == kernels.GREEDY}
        if len(greedy) > 1:
            raise PaiuteError("the vector env's greedy opponents must share one aggression and horizon")
        aggression, horizon = greedy.pop() if greedy else (0.5, 3)

        self.num_envs = num_envs
        self.seat = seat
        self.players = players
        self.max_turns = max_turns
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.carry_match = bool(carry_match)
        self.autoreset_mode = mode
        self.metadata = {"render_modes": [], "autoreset_mode": mode}
        self.render_mode = None
        self.encoder = ObservationEncoder(self.rules, players)
        low, high = self.encoder.bounds()
        self.single_observation_space = spaces.Box(low, high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

        self._seats = seats
        self._kinds = np.array(
            [kernels.LEARNER if s is None else s.kind for s in seats]
            + [kernels.LEARNER] * (MAX_SEATS - players),
            dtype=np.int64,
        )
        self._policies: list[tuple[OpponentPolicy, npt.NDArray[np.int64]]] = []
        for policy in {
            id(s.policy): s.policy for s in seats if s is not None and s.policy is not None
        }.values():
            assert policy is not None
            at = [place for place, s in enumerate(seats) if s is not None and s.policy is policy]
            self._policies.append((policy, np.array(at, dtype=np.int64)))
        self._core_tables = core_tables.tables(self.rules.royal_high)
        self._greedy = greedy_tables(self.rules, aggression=aggression, horizon=horizon)
        self._playout = policy_tables(self.rules.payout == "scale")
        self._params = np.tile(core.rule_params(self.rules, players, max_turns=max_turns), (num_envs, 1))
        self._layout = observation_layout(self.encoder)
        self._scales = int8_scales(self.encoder)
        self._view = (self._layout, self._scales, self.encoder.chip_scale)
        self._batch = core.new_batch(num_envs, 0, 0)
        self._tables = kernels.new_tables(num_envs)
        self._work = np.zeros(GREEDY_WORK, dtype=np.int64)
        self._scratch = np.zeros(_SCRATCH, dtype=np.int64)
        self._all = np.arange(num_envs, dtype=np.int64)
        self._learner = np.full(num_envs, seat, dtype=np.int64)
        self._matches = Matches(num_envs, seats, carry_match)
        self._dealers = np.zeros(num_envs, dtype=np.int64)  # room for a step's fresh deals
        self._chance = np.zeros(num_envs, dtype=np.int64)
        self._penalty = np.zeros(num_envs, dtype=np.float64)
        self._dealt = False
        self._abandoned: dict[int, tuple[int, int]] = {}  # table -> (why_illegal's code, action)
        self._last_masks = np.ones((num_envs, NUM_ACTIONS), dtype=np.int8)
        # The kernels a step calls, without Numba's dispatch: every argument is one of these
        # arrays, or a C-contiguous int64, bool or int8 array made for the call.
        self._play_kernel: Callable[..., Any] | None = None
        self._fresh_deals_kernel: Callable[..., Any] | None = None
        _prepare_kernels()

    # -- episodes --------------------------------------------------------------------------

    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Float32Array, dict[str, Any]]:
        """Deal a new deal at every table (or at those of ``options["reset_mask"]``), seeded as
        ``SyncVectorEnv`` seeds its environments: ``seed + i`` for table ``i``, a list one
        each, or ``None``; ``options={"dealer": k}`` chooses every dealer, as in ``PaiuteEnv``."""
        n = self.num_envs
        seeds: list[int | None]
        if seed is None:
            seeds = [None] * n
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(n)]
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise PaiuteError(f"{len(seeds)} seeds for {n} tables")
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        if mask is None:
            rows = self._all
        else:
            if not (
                isinstance(mask, np.ndarray) and mask.dtype == np.bool_ and mask.shape == (n,) and mask.any()
            ):
                raise PaiuteError(f"options['reset_mask'] must be a bool array of shape ({n},) with a True")
            rows = np.flatnonzero(mask).astype(np.int64)
        self._deal(rows, [seeds[i] for i in rows], options.get("dealer"))
        observations, masks, _ = self._run(np.zeros(n, dtype=np.int64), np.zeros(n, dtype=bool))
        info = step_info(self._batch, masks, rows)
        # A deal that max_turns cut before the learner's first turn has ended already.
        ended = np.zeros(n, dtype=bool)
        ended[rows] = self._tables.end[rows] != 0
        self._add_end_infos(info, np.flatnonzero(ended), {})
        return observations, info

    def _deal(self, rows: npt.NDArray[np.int64], seeds: Sequence[int | None] | None, dealer: Any) -> None:
        """Start a deal at each of ``rows`` as ``PaiuteEnv.reset`` does, drawing from each
        table's generator in its order: a new match where seeded (``seeds``, one a row, or
        none; the first dealer, then a seed per bot), the dealer of a fresh table (R2.3), then
        the deal's chance (R10.1)."""
        players = self.players
        if dealer is not None and not (
            isinstance(dealer, int) and not isinstance(dealer, bool) and 0 <= dealer < players
        ):
            raise PaiuteError(f"R2.2 dealer seat {dealer!r} is not one of the {players} seats")
        fresh = not self.carry_match
        t = self._tables
        if seeds is None and dealer is None and fresh and not self._matches.unstarted:
            # A step's deals: started tables, each deal a fresh table, drawn in compiled code.
            next32, next64 = entry_points()
            states = self._matches.addresses
            args = (
                next32,
                next64,
                states,
                self._batch,
                t,
                self._params,
                rows,
                players,
                self._dealers,
                self._chance,
            )
            if self._fresh_deals_kernel is None:
                self._fresh_deals_kernel = entry_point(kernels.deal_fresh_tables, *args)
            self._fresh_deals_kernel(*args)
        else:
            dealers, chance = self._matches.draw(
                t, rows, [None] * rows.size if seeds is None else seeds, dealer
            )
            kernels.deal_tables(self._batch, t, self._params, rows, dealers, chance, fresh)
        if self.illegal == "replace":
            self._penalty[rows] = 0.0
        self._dealt = True

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Float32Array, npt.NDArray[np.float64], BoolArray, BoolArray, dict[str, Any]]:
        """One action id per table (``int [num_envs]``); see the module for what comes back."""
        if not self._dealt:
            raise PaiuteError("no deal has started: reset the environment first")
        n = self.num_envs
        ids = np.asarray(actions)
        if ids.shape != (n,) or ids.dtype.kind not in "iu":
            raise PaiuteError(
                f"actions must be {n} integer action ids, one per table; got shape {ids.shape} of {ids.dtype}"
            )
        ids = np.array(ids, dtype=np.int64, order="C")  # the kernel's type, and the caller's array kept
        resetting = self._tables.end != 0  # deals that ended at the last step (or reset)
        if resetting.any():
            rows = resetting.nonzero()[0]
            if self.autoreset_mode is AutoresetMode.DISABLED:
                raise PaiuteError(
                    f"env {int(rows[0])}'s deal has ended: reset it first (options={{'reset_mask': ...}})"
                )
            self._deal(rows, None, None)  # NEXT_STEP: this step deals anew
        observations, masks, replaced = self._run(ids, ~resetting)
        end = self._tables.end
        done = end != 0
        ended = done.nonzero()[0]
        rewards = np.zeros(n, dtype=np.float64)
        rewards[ended] = self._tables.rewards[ended, self.seat]
        if self.illegal == "terminate":
            rewards[ended[end[ended] == kernels.END_ILLEGAL]] = self.illegal_reward
        for row in replaced:
            rewards[row] += self.illegal_reward
        truncated = end == kernels.END_CUT
        terminated = done & ~truncated
        if self.autoreset_mode is AutoresetMode.SAME_STEP and ended.size:
            # The ended deals' last observation and info go to final_obs and final_info; their
            # tables are dealt again at once.
            final_obs = np.empty(n, dtype=object)  # Nones
            for row in ended.tolist():
                final_obs[row] = observations[row]
            final_info = step_info(self._batch, masks, ended)
            self._add_end_infos(final_info, ended, replaced, skip=~done)
            self._deal(ended, None, None)
            observations, masks, _ = self._run(np.zeros(n, dtype=np.int64), np.zeros(n, dtype=bool))
            info = step_info(self._batch, masks, self._all)
            self._add_end_infos(info, np.zeros(0, dtype=np.int64), replaced, skip=done)
            info["final_obs"], info["_final_obs"] = final_obs, done
            info["final_info"], info["_final_info"] = final_info, done.copy()
        else:
            info = step_info(self._batch, masks, self._all)
            self._add_end_infos(info, ended, replaced)
        return observations, rewards, terminated, truncated, info

    # -- the kernels -------------------------------------------------------------------------

    def _play(
        self,
        ids: npt.NDArray[np.int64],
        acting: BoolArray,
        legal_masks: Int8Array,
        abandon: bool,
        reasons: npt.NDArray[np.int64],
        observations: Float32Array,
        masks: Int8Array,
    ) -> int:
        """``kernels.play``: ``ids`` checked against ``legal_masks`` (the masks last given for
        the seats to act), writing the learner's observation and mask of every table it leaves
        with the learner to act or the deal ended."""
        args = (
            self._batch,
            self._tables,
            self._core_tables,
            self._greedy,
            self._playout,
            self._params,
            self._kinds,
            ids,
            acting,
            legal_masks,
            abandon,
            reasons,
            self._work,
            self._scratch,
            self._view,
            self.seat,
            observations,
            masks,
        )
        if self._play_kernel is None:
            self._play_kernel = entry_point(kernels.play, *args)
        return int(self._play_kernel(*args))

    def _run(
        self, ids: npt.NDArray[np.int64], acting: BoolArray
    ) -> tuple[Float32Array, Int8Array, dict[int, dict[str, Any]]]:
        """Apply the learner's actions where ``acting``, then play every bot until the learner
        is to act again (asking the policies at their seats); returns every table's
        observation and mask as :meth:`_observe` gives them for the learner, and the ``info``
        of each table whose action was replaced (``illegal="replace"``)."""
        n = self.num_envs
        observations = np.empty((n, self.encoder.size), dtype=np.float32)
        masks = np.empty((n, NUM_ACTIONS), dtype=np.int8)
        reasons = np.zeros(n, dtype=np.int64)
        replaced: dict[int, dict[str, Any]] = {}
        abandon = self.illegal == "terminate"
        while (
            waiting := self._play(ids, acting, self._last_masks, abandon, reasons, observations, masks)
        ) < 0:
            refused = np.flatnonzero(reasons)
            if self.illegal == "raise":
                row = int(refused[0])
                more = f" ({refused.size} envs refused; nothing was applied)" if refused.size > 1 else ""
                raise refusal(
                    int(reasons[row]), int(ids[row]), f"env {row}", f"env {row}, seat {self.seat}", more
                )
            ids = ids.copy()
            for row in refused.tolist():  # "replace": a legal action from the table's generator
                legal = np.flatnonzero(self._observe(np.array([row]), self._learner[:1])[1][0])
                rng = self._matches.generators[row]
                assert rng is not None
                played = int(legal[rng.integers(len(legal))])
                error = refusal(
                    int(reasons[row]), int(ids[row]), f"env {row}", f"env {row}, seat {self.seat}"
                )
                extra: dict[str, Any] = {
                    "illegal": str(error),
                    "action": int(ids[row]),
                    "replaced_by": played,
                }
                if isinstance(error, IllegalActionError):
                    extra["rule"] = error.rule
                replaced[row] = extra
                self._penalty[row] += self.illegal_reward
                ids[row] = played
        if abandon and reasons.any():
            for row in reasons.nonzero()[0].tolist():
                self._abandoned[row] = (int(reasons[row]), int(ids[row]))
        while waiting > 0:
            waiting = self._ask_policies(observations, masks)
        self._last_masks = masks.copy()  # kept from the caller, who may write to info's masks
        return observations, masks, replaced

    def _ask_policies(self, learner_observations: Float32Array, learner_masks: Int8Array) -> int:
        """Every table where a policy's seat is to act: ask each policy once for all of its
        tables, then play on (see the module), as :meth:`_play` does."""
        t = self._tables
        waiting = t.waiting >= 0
        rows = np.flatnonzero(waiting)
        seats = t.waiting[rows]
        observations, masks = self._observe(rows, seats)
        chosen_actions = np.full(rows.size, -1, dtype=np.int64)
        for policy, at in self._policies:
            chosen = np.isin(seats, at)
            if not chosen.any():
                continue
            answer = np.asarray(policy(observations[chosen], masks[chosen].astype(bool)))
            count = int(chosen.sum())
            if answer.shape != (count,) or answer.dtype.kind not in "iu":
                raise PaiuteError(
                    f"an opponent policy must return {count} integer action ids; got shape "
                    f"{answer.shape} of {answer.dtype}"
                )
            chosen_actions[chosen] = answer
        actions = np.zeros(self.num_envs, dtype=np.int64)
        actions[rows] = chosen_actions
        legal_masks = np.zeros((self.num_envs, NUM_ACTIONS), dtype=np.int8)
        legal_masks[rows] = masks
        reasons = np.zeros(self.num_envs, dtype=np.int64)
        waiting_again = self._play(
            actions, waiting, legal_masks, False, reasons, learner_observations, learner_masks
        )
        if waiting_again < 0:
            row = int(np.flatnonzero(reasons)[0])
            seat = int(self._batch.seat[row])
            raise refusal(
                int(reasons[row]), int(actions[row]), f"env {row}", f"env {row}, the policy at seat {seat}"
            )
        return waiting_again

    def _observe(
        self, rows: npt.NDArray[np.int64], seats: npt.NDArray[np.int64]
    ) -> tuple[Float32Array, Int8Array]:
        """The observations of tables ``rows`` as ``seats`` see them, and the masks of the seat
        to act there (all ones where the deal has ended)."""
        rows = rows.astype(np.int64, copy=False)
        out = np.empty((rows.size, self.encoder.size), dtype=np.float32)
        masks = np.empty((rows.size, NUM_ACTIONS), dtype=np.int8)
        kernels.observe(
            self._batch,
            self._tables,
            self._core_tables,
            self._params,
            self._layout,
            self._scales,
            self.encoder.chip_scale,
            rows,
            seats.astype(np.int64, copy=False),
            out,
            masks,
            self._scratch,
        )
        return out, masks

    # -- infos -------------------------------------------------------------------------------

    def _add_end_infos(
        self,
        info: dict[str, Any],
        rows: npt.NDArray[np.int64],
        replaced: dict[int, dict[str, Any]],
        skip: BoolArray | None = None,
    ) -> None:
        """Add to ``info`` what ``PaiuteEnv`` adds to the ``info`` of the step that ends a deal,
        for each table of ``rows``, and what it adds where it replaced an illegal action
        (``illegal="replace"``) at tables not in ``skip``, batched as Gymnasium batches infos."""
        players = self.players
        batch = self._batch
        t = self._tables
        if rows.size:
            ends = t.end[rows]
            self._matches.pass_the_deal(rows, batch.dealer[rows])
            put_deal_ends(info, rows, ends, batch, t, players)
            # ``turns``, in PaiuteEnv's end-of-deal info too, is every row's already.
            illegal = rows[ends == kernels.END_ILLEGAL]
            if illegal.size:
                errors = [
                    refusal(*self._abandoned.pop(row), f"env {row}", f"env {row}, seat {self.seat}")
                    for row in illegal.tolist()
                ]
                put(info, "illegal", illegal, [str(error) for error in errors])
                put(info, "offender", illegal, [self.seat] * illegal.size)
                ruled = [
                    (row, error.rule)
                    for row, error in zip(illegal.tolist(), errors, strict=True)
                    if isinstance(error, IllegalActionError)
                ]
                if ruled:
                    put(info, "rule", np.array([row for row, _ in ruled]), [rule for _, rule in ruled])
            if self.illegal == "replace":
                penalties = [
                    [penalty if seat == self.seat else 0.0 for seat in range(players)]
                    for penalty in self._penalty[rows].tolist()
                ]
                put(info, "penalties", rows, penalties)
            if illegal.size:
                put(
                    info,
                    "rewards",
                    illegal,
                    [
                        [self.illegal_reward if seat == self.seat else 0.0 for seat in range(players)]
                        for _ in range(illegal.size)
                    ],
                )
        for row, entries in sorted(replaced.items()):
            if skip is None or not skip[row]:
                self._add_info(info, entries, row)

    # -- for maskable algorithms --------------------------------------------------------------

    def action_masks(self) -> BoolArray:
        """Every table's legal actions now, as booleans (all true where a deal has ended): the
        rows of the last ``info["action_mask"]``."""
        if not self._dealt:
            raise PaiuteError("no deal has started: reset the environment first")
        return self._last_masks.astype(bool)

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """``SyncVectorEnv.call`` for ``"action_masks"``: each table's :meth:`action_masks` row,
        so that ``np.stack(envs.call("action_masks"))`` works in either vectorization."""
        if name != "action_masks" or args or kwargs:
            raise PaiuteError(f"the compiled vector env answers call('action_masks') only, not {name!r}")
        return tuple(self.action_masks())

    def __repr__(self) -> str:
        return f"PaiuteVectorEnv(num_envs={self.num_envs}, players={self.players}, seat={self.seat})"


# -- the first compile ------------------------------------------------------------------------

_PREPARED = False


def _prepare_kernels() -> None:
    """Run every kernel once on two small tables, once a process: Numba loads them from its
    disk cache or, where the cache does not hold them yet (the first use on a machine, or after
    an upgrade), compiles them, which this says on one line of stderr first."""
    global _PREPARED
    if _PREPARED:
        return
    _PREPARED = True
    compiled = (
        kernels.play,
        kernels.observe,
        kernels.deal_tables,
        kernels.seed_bots,
        kernels.deal_fresh_tables,
    )
    try:
        cached = all(getattr(kernel, "_cache")._cache_file._load_index() for kernel in compiled)  # noqa: B009
    except Exception:  # a Numba without this cache layout: compile (or load) without a word
        cached = True
    if not cached:
        print(
            "paiute: compiling the vector env's kernels (first use on this machine, a minute or two)…",
            file=sys.stderr,
            flush=True,
        )
    envs = PaiuteVectorEnv(2, players=3, opponents=["greedy", _first_legal], max_turns=1)
    _, info = envs.reset(seed=0)
    for _ in range(4):  # max_turns=1 ends the deals: the next step deals them anew
        _, _, _, _, info = envs.step(info["action_mask"].argmax(axis=1))


def _first_legal(observations: Float32Array, masks: BoolArray) -> npt.NDArray[np.int64]:
    """A policy for :func:`_prepare_kernels`: the lowest legal action id."""
    return np.asarray(masks.argmax(axis=1), dtype=np.int64)
