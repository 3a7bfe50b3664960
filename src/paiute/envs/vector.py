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

:func:`sb3_vec_env` wraps the environment for Stable-Baselines3 (``MaskablePPO``).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from paiute.actions import NUM_ACTIONS
from paiute.compiled import state as core
from paiute.compiled import tables as core_tables
from paiute.compiled.greedy import GREEDY_WORK, greedy_tables
from paiute.compiled.playout import policy_tables
from paiute.envs import vector_kernels as kernels
from paiute.envs.batch_sim import int8_scales, observation_layout, refusal
from paiute.envs.encoding import Float32Array, Int8Array, ObservationEncoder, rules_for_seats
from paiute.envs.table import END_CUT, END_DEAD, END_ILLEGAL, END_OVER, END_RULES
from paiute.errors import IllegalActionError, PaiuteError
from paiute.players.levels import level_spec
from paiute.players.registry import parse_spec
from paiute.rules import DEFAULT_MAX_TURNS, MAX_SEATS

__all__ = ["OpponentPolicy", "PaiuteVectorEnv", "sb3_vec_env"]

BoolArray = npt.NDArray[np.bool_]
#: A policy at the other seats: ``policy(observations, masks) -> actions`` (see the module).
OpponentPolicy = Callable[[Float32Array, BoolArray], npt.ArrayLike]

_END_NAMES = {
    kernels.END_OVER: END_OVER,
    kernels.END_DEAD: END_DEAD,
    kernels.END_CUT: END_CUT,
    kernels.END_ILLEGAL: END_ILLEGAL,
}
_KINDS = {"random": kernels.RANDOM, "greedy": kernels.GREEDY, "playout": kernels.PLAYOUT}
_OPTIONS = {"random": ("seed",), "greedy": ("aggression", "horizon", "seed"), "playout": ("seed",)}
_SCRATCH = 40  # the kernels' legal-action, live-count and held-card room
_SEED_BOUND = 2**63  # SeededChance(int(np_random.integers(2**63))), as EnvTable deals
_MASK64 = (1 << 64) - 1
# The seats of each winners bit mask (R7.3), lowest first.
_WINNERS = tuple(
    tuple(seat for seat in range(MAX_SEATS) if mask >> seat & 1) for mask in range(1 << MAX_SEATS)
)


class _TableGenerator:
    """A table's own generator (its ``np_random``), drawing ``integers(n)`` through its bit
    generator's C entry points (its ``ctypes`` interface): the very numbers
    ``Generator.integers`` draws (NumPy's Lemire rejection, on 32-bit words below ``2**32``,
    on 64-bit words above), without the cost of that call, which a deal pays a few times."""

    __slots__ = ("_next32", "_next64", "_state", "generator")

    def __init__(self, generator: np.random.Generator) -> None:
        self.generator = generator  # kept alive: the entry points use its bit generator's state
        entry = generator.bit_generator.ctypes
        self._next32: Callable[[Any], int] = entry.next_uint32
        self._next64: Callable[[Any], int] = entry.next_uint64
        self._state = entry.state

    def integers(self, n: int) -> int:
        """``generator.integers(n)`` for ``1 <= n < 2**32`` or ``2**32 < n <= 2**63``."""
        if n == 1:
            return 0
        if n < 1 << 32:
            m = self._next32(self._state) * n
            if m & 0xFFFFFFFF < n:
                threshold = ((1 << 32) - n) % n
                while m & 0xFFFFFFFF < threshold:
                    m = self._next32(self._state) * n
            return m >> 32
        m = self._next64(self._state) * n
        if m & _MASK64 < n:
            threshold = ((1 << 64) - n) % n
            while m & _MASK64 < threshold:
                m = self._next64(self._state) * n
        return m >> 64


@dataclass(frozen=True)
class _Seat:
    """Who sits at one of the other seats."""

    kind: int
    seed: int | None = None  # a seed the spec gives (else the table's generator draws one)
    aggression: float = 0.5
    horizon: int = 3
    policy: OpponentPolicy | None = None


def _parse_opponent(spec: str | OpponentPolicy) -> _Seat:
    """One opponent: a compiled bot's spec or a policy (see the module)."""
    if callable(spec):
        return _Seat(kernels.CALLER, policy=spec)
    if not isinstance(spec, str):
        raise PaiuteError(f"opponent {spec!r}: expected a player spec or a policy(observations, masks)")
    name, raw = parse_spec(spec)
    level = level_spec(name)
    if level is not None:
        name, own = parse_spec(level)
        raw = {**own, **raw}
    if name not in _KINDS:
        raise PaiuteError(
            f"opponent {spec!r}: the vector env seats random, greedy, playout or a "
            "policy(observations, masks); use vectorization_mode='sync' for other bots"
        )
    values: dict[str, Any] = {}
    for key, text in raw.items():
        if key not in _OPTIONS[name]:
            raise PaiuteError(f"opponent {spec!r}: {name} has no option {key!r} here")
        try:
            values[key] = float(text) if key == "aggression" else int(text)
        except ValueError:
            raise PaiuteError(f"opponent {spec!r}: {key}={text!r} is not a number") from None
    seat = _Seat(_KINDS[name], **values)
    if not 0.0 <= seat.aggression <= 1.0 or seat.horizon < 2:
        raise PaiuteError(f"opponent {spec!r}: aggression must lie in 0..1 and horizon be at least 2")
    return seat


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
        seats: list[_Seat | None] = []
        others = iter(specs)
        for place in range(players):
            seats.append(None if place == seat else _parse_opponent(next(others)))
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
        self._batch = core.new_batch(num_envs, 0, 0)
        self._tables = kernels.new_tables(num_envs)
        self._work = np.zeros(GREEDY_WORK, dtype=np.int64)
        self._scratch = np.zeros(_SCRATCH, dtype=np.int64)
        self._all = np.arange(num_envs, dtype=np.int64)
        self._learner = np.full(num_envs, seat, dtype=np.int64)
        # Each table's generator (its np_random) and match, as PaiuteEnv keeps them.
        self._rngs: list[_TableGenerator | None] = [None] * num_envs
        self._started = [False] * num_envs
        self._next_dealer = [0] * num_envs
        self._penalty = np.zeros(num_envs, dtype=np.float64)
        self._dealt = False
        self._abandoned: dict[int, tuple[int, int]] = {}  # table -> (why_illegal's code, action)
        self._last_masks = np.ones((num_envs, NUM_ACTIONS), dtype=np.int8)
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
        self._run(np.zeros(n, dtype=np.int64), np.zeros(n, dtype=bool))
        observations, masks = self._observe()
        info = self._step_info(masks, rows)
        # A deal that max_turns cut before the learner's first turn has ended already.
        ended = np.zeros(n, dtype=bool)
        ended[rows] = self._tables.end[rows] != 0
        self._add_end_infos(info, np.flatnonzero(ended), {})
        return observations, info

    def _deal(self, rows: npt.NDArray[np.int64], seeds: Sequence[int | None], dealer: Any) -> None:
        """Start a deal at each of ``rows`` as ``PaiuteEnv.reset`` does, drawing from each
        table's generator in its order: a new match where seeded (the first dealer, then a
        seed per bot), the dealer of a fresh table (R2.3), then the deal's chance (R10.1)."""
        players = self.players
        if dealer is not None and not (
            isinstance(dealer, int) and not isinstance(dealer, bool) and 0 <= dealer < players
        ):
            raise PaiuteError(f"R2.2 dealer seat {dealer!r} is not one of the {players} seats")
        t = self._tables
        dealers: list[int] = []
        chance: list[int] = []
        bot_rows: list[int] = []
        bot_seeds: list[int] = []
        rngs = self._rngs
        started = self._started
        next_dealer = self._next_dealer
        fresh = not self.carry_match
        for row, seed in zip(rows.tolist(), seeds, strict=True):
            rng = rngs[row]
            if seed is not None or rng is None:
                rng = rngs[row] = _TableGenerator(seeding.np_random(seed)[0])
            if seed is not None or not started[row]:
                t.balance[row] = 0
                t.carried[row] = 0
                next_dealer[row] = rng.integers(players)
                for place, who in enumerate(self._seats):
                    if who is None:
                        continue
                    drawn = rng.integers(2**31)
                    bot_rows.append(row * MAX_SEATS + place)
                    bot_seeds.append(drawn if who.seed is None else who.seed)
                started[row] = True
            if fresh:  # one deal, one match: a fresh table
                next_dealer[row] = rng.integers(players)
            if dealer is not None:
                next_dealer[row] = dealer
            dealers.append(next_dealer[row])
            chance.append(rng.integers(_SEED_BOUND))
        if fresh:
            t.balance[rows] = 0
            t.carried[rows] = 0
        if bot_rows:
            kernels.seed_bots(t, np.array(bot_rows, dtype=np.int64), np.array(bot_seeds, dtype=np.int64))
        kernels.deal_tables(
            self._batch,
            t,
            self._params,
            rows,
            np.array(dealers, dtype=np.int64),
            np.array(chance, dtype=np.int64),
        )
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
        ids = ids.astype(np.int64)
        resetting = self._tables.end != 0  # deals that ended at the last step (or reset)
        if resetting.any():
            rows = np.flatnonzero(resetting)
            if self.autoreset_mode is AutoresetMode.DISABLED:
                raise PaiuteError(
                    f"env {int(rows[0])}'s deal has ended: reset it first (options={{'reset_mask': ...}})"
                )
            self._deal(rows, [None] * rows.size, None)  # NEXT_STEP: this step deals anew
        replaced = self._run(ids, ~resetting)
        end = self._tables.end
        done = end != 0
        rewards = np.zeros(n, dtype=np.float64)
        rewards[done] = self._tables.rewards[done, self.seat]
        if self.illegal == "terminate":
            rewards[end == kernels.END_ILLEGAL] = self.illegal_reward
        for row in replaced:
            rewards[row] += self.illegal_reward
        truncated = end == kernels.END_CUT
        terminated = done & ~truncated
        observations, masks = self._observe()
        ended = np.flatnonzero(done)
        if self.autoreset_mode is AutoresetMode.SAME_STEP and ended.size:
            # The ended deals' last observation and info go to final_obs and final_info; their
            # tables are dealt again at once.
            final_obs = np.empty(n, dtype=object)  # Nones
            for row in ended.tolist():
                final_obs[row] = observations[row]
            final_info = self._step_info(masks, ended)
            self._add_end_infos(final_info, ended, replaced, skip=~done)
            self._deal(ended, [None] * ended.size, None)
            self._run(np.zeros(n, dtype=np.int64), np.zeros(n, dtype=bool))
            observations, masks = self._observe()
            info = self._step_info(masks, self._all)
            self._add_end_infos(info, np.zeros(0, dtype=np.int64), replaced, skip=done)
            info["final_obs"], info["_final_obs"] = final_obs, done
            info["final_info"], info["_final_info"] = final_info, done.copy()
        else:
            info = self._step_info(masks, self._all)
            self._add_end_infos(info, ended, replaced)
        return observations, rewards, terminated, truncated, info

    # -- the kernels -------------------------------------------------------------------------

    def _play(
        self, ids: npt.NDArray[np.int64], acting: BoolArray, abandon: bool, reasons: npt.NDArray[np.int64]
    ) -> int:
        return int(
            kernels.play(
                self._batch,
                self._tables,
                self._core_tables,
                self._greedy,
                self._playout,
                self._params,
                self._kinds,
                ids,
                acting,
                abandon,
                reasons,
                self._work,
                self._scratch,
            )
        )

    def _run(self, ids: npt.NDArray[np.int64], acting: BoolArray) -> dict[int, dict[str, Any]]:
        """Apply the learner's actions where ``acting``, then play every bot until the learner
        is to act again (asking the policies at their seats); returns the ``info`` of each
        table whose action was replaced (``illegal="replace"``)."""
        reasons = np.zeros(self.num_envs, dtype=np.int64)
        replaced: dict[int, dict[str, Any]] = {}
        abandon = self.illegal == "terminate"
        while (waiting := self._play(ids, acting, abandon, reasons)) < 0:
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
                rng = self._rngs[row]
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
        if abandon:
            for row in np.flatnonzero(reasons).tolist():
                self._abandoned[row] = (int(reasons[row]), int(ids[row]))
        while waiting > 0:
            waiting = self._ask_policies()
        return replaced

    def _ask_policies(self) -> int:
        """Every table where a policy's seat is to act: ask each policy once for all of its
        tables, then play on (see the module)."""
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
        reasons = np.zeros(self.num_envs, dtype=np.int64)
        waiting_again = self._play(actions, waiting, False, reasons)
        if waiting_again < 0:
            row = int(np.flatnonzero(reasons)[0])
            seat = int(self._batch.seat[row])
            raise refusal(
                int(reasons[row]), int(actions[row]), f"env {row}", f"env {row}, the policy at seat {seat}"
            )
        return waiting_again

    def _observe(
        self, rows: npt.NDArray[np.int64] | None = None, seats: npt.NDArray[np.int64] | None = None
    ) -> tuple[Float32Array, Int8Array]:
        """The observations of ``rows`` (every table) as ``seats`` (the learner) sees them, and
        the masks of the seat to act there (all ones where the deal has ended)."""
        if rows is None or seats is None:
            rows, seats = self._all, self._learner
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
        if rows is self._all:
            self._last_masks = masks
        return out, masks

    # -- infos -------------------------------------------------------------------------------

    def _step_info(self, masks: Int8Array, rows: npt.NDArray[np.int64]) -> dict[str, Any]:
        """``action_mask`` and ``turns`` of ``rows``, batched as Gymnasium batches infos."""
        batch = self._batch
        turns = batch.turns + (batch.phase == core.DISCARD)
        if rows.size == self.num_envs:
            present = np.ones(self.num_envs, dtype=bool)
        else:
            present = np.zeros(self.num_envs, dtype=bool)
            present[rows] = True
            masks = np.where(present[:, None], masks, 0).astype(np.int8)
            turns = np.where(present, turns, 0)
        return {"action_mask": masks, "_action_mask": present, "turns": turns, "_turns": present.copy()}

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
            for row, dealer in zip(rows.tolist(), batch.dealer[rows].tolist(), strict=True):
                self._next_dealer[row] = (dealer + 1) % players  # R2.3
            names = [_END_NAMES[end] for end in ends.tolist()]
            _put(info, "end", rows, names)
            _put(info, "rule", rows, [END_RULES[name] for name in names])
            _put(info, "chips", rows, batch.payouts[rows, :players].tolist())
            _put(info, "rewards", rows, t.rewards[rows, :players].tolist())
            _put(info, "pot", rows, batch.pot[rows].tolist())
            winners = np.where(ends == kernels.END_OVER, batch.winners[rows], 0).tolist()
            _put(info, "winners", rows, [list(_WINNERS[w]) for w in winners])
            # ``turns``, in PaiuteEnv's end-of-deal info too, is every row's already.
            illegal = rows[ends == kernels.END_ILLEGAL]
            if illegal.size:
                errors = [
                    refusal(*self._abandoned.pop(row), f"env {row}", f"env {row}, seat {self.seat}")
                    for row in illegal.tolist()
                ]
                _put(info, "illegal", illegal, [str(error) for error in errors])
                _put(info, "offender", illegal, [self.seat] * illegal.size)
                ruled = [
                    (row, error.rule)
                    for row, error in zip(illegal.tolist(), errors, strict=True)
                    if isinstance(error, IllegalActionError)
                ]
                if ruled:
                    _put(info, "rule", np.array([row for row, _ in ruled]), [rule for _, rule in ruled])
            if self.illegal == "replace":
                penalties = [
                    [penalty if seat == self.seat else 0.0 for seat in range(players)]
                    for penalty in self._penalty[rows].tolist()
                ]
                _put(info, "penalties", rows, penalties)
            if illegal.size:
                _put(
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


def _put(info: dict[str, Any], key: str, rows: npt.NDArray[np.int64], values: Sequence[Any]) -> None:
    """``VectorEnv._add_info`` of ``values[i]`` for table ``rows[i]``, each: an array of the
    first value's type (an object array for anything but a number) and its ``_key`` mask."""
    array = info.get(key)
    if array is None:
        first = values[0]
        kind = type(first)
        n = info["_action_mask"].size
        array = np.zeros(n, dtype=kind) if kind in (int, float, bool) else np.empty(n, dtype=object)  # Nones
        info[key], info[f"_{key}"] = array, np.zeros(n, dtype=bool)
    if array.dtype == object:
        for row, value in zip(rows.tolist(), values, strict=True):
            array[row] = value
    else:
        array[rows] = values
    info[f"_{key}"][rows] = True


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
    entry_points = (
        kernels.play,
        kernels.observe,
        kernels.deal_tables,
        kernels.seed_bots,
    )
    try:
        cached = all(getattr(kernel, "_cache")._cache_file._load_index() for kernel in entry_points)  # noqa: B009
    except Exception:  # a Numba without this cache layout: compile (or load) without a word
        cached = True
    if not cached:
        print(
            "paiute: compiling the vector env's kernels (first use on this machine, a minute or two)…",
            file=sys.stderr,
            flush=True,
        )
    envs = PaiuteVectorEnv(2, players=3, opponents=["greedy", _first_legal])
    _, info = envs.reset(seed=0)
    for _ in range(4):
        _, _, _, _, info = envs.step(info["action_mask"].argmax(axis=1))


def _first_legal(observations: Float32Array, masks: BoolArray) -> npt.NDArray[np.int64]:
    """A policy for :func:`_prepare_kernels`: the lowest legal action id."""
    return np.asarray(masks.argmax(axis=1), dtype=np.int64)


# -- Stable-Baselines3 ---------------------------------------------------------------------


def sb3_vec_env(env: PaiuteVectorEnv) -> Any:
    """``env`` as a Stable-Baselines3 ``VecEnv`` (needs ``stable-baselines3``), for
    ``sb3_contrib.MaskablePPO``: SB3 resets a table as soon as its deal ends and wants the
    last observation in ``infos[i]["terminal_observation"]``, so ``env`` must be made with
    ``autoreset_mode=AutoresetMode.SAME_STEP`` (or ``"SameStep"``); ``action_masks`` is
    reachable through ``env_method``, where sb3-contrib's ``get_action_masks`` looks."""
    try:
        vec_env: Any = importlib.import_module("stable_baselines3.common.vec_env")
    except ImportError:
        raise PaiuteError("sb3_vec_env needs stable-baselines3: pip install stable-baselines3") from None
    if env.autoreset_mode is not AutoresetMode.SAME_STEP:
        raise PaiuteError("sb3_vec_env needs the env made with autoreset_mode=AutoresetMode.SAME_STEP")

    class PaiuteSB3VecEnv(vec_env.VecEnv):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)
            self._actions: np.ndarray[Any, Any] = np.zeros(env.num_envs, dtype=np.int64)
            self._seed: int | None = None

        def reset(self) -> np.ndarray[Any, Any]:
            observations, _ = env.reset(seed=self._seed)
            self._seed = None
            return observations

        def step_async(self, actions: np.ndarray[Any, Any]) -> None:
            self._actions = np.asarray(actions, dtype=np.int64).reshape(env.num_envs)

        def step_wait(self) -> Any:
            observations, rewards, terminated, truncated, info = env.step(self._actions)
            done = terminated | truncated
            infos: list[dict[str, Any]] = [{} for _ in range(env.num_envs)]
            for row in np.flatnonzero(done).tolist():
                infos[row]["terminal_observation"] = info["final_obs"][row]
                infos[row]["TimeLimit.truncated"] = bool(truncated[row] and not terminated[row])
            return observations, rewards.astype(np.float32), done, infos

        def close(self) -> None:
            env.close()

        def seed(self, seed: int | None = None) -> list[int | None]:
            self._seed = seed
            return [None if seed is None else seed + i for i in range(env.num_envs)]

        def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
            return [getattr(env, attr_name)] * len(self._indices(indices))

        def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
            setattr(env, attr_name, value)

        def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
            rows = self._indices(indices)
            if method_name == "action_masks":
                masks = env.action_masks()
                return [masks[row] for row in rows]
            result = getattr(env, method_name)(*args, **kwargs)
            return [result] * len(rows)

        def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
            return [False] * len(self._indices(indices))

        def has_attr(self, attr_name: str) -> bool:
            return hasattr(env, attr_name)

        def _indices(self, indices: Any) -> list[int]:
            if indices is None:
                return list(range(env.num_envs))
            if isinstance(indices, int):
                return [indices]
            return list(indices)

    return PaiuteSB3VecEnv()
