"""Paiute for one seat as a Gymnasium environment; bots play the other seats.

>>> import gymnasium as gym
>>> import paiute.envs.gymnasium  # registers paiute/Paiute-v0
>>> env = gym.make("paiute/Paiute-v0", players=3, opponents="random")
>>> observation, info = env.reset(seed=1)
>>> observation.shape, info["action_mask"].nonzero()[0].tolist()  # draw stock (R4.2)
((1036,), [0])
>>> observation, reward, terminated, truncated, info = env.step(0)  # draw stock
>>> int(info["action_mask"][2:56].sum())  # now discard one of six cards
6

* An episode is one deal (R2-R7) seen from ``seat``; the other seats are played by
  ``opponents``, a :func:`~paiute.players.make_player` spec (``"greedy"``, ``"random"``,
  ``"ismcts:iterations=200"``...) or one spec per other seat. They see only their own
  observation (R9).
* Observations are the float32 vectors of :mod:`paiute.envs.encoding` (docs/encoding.md);
  actions are the ids of :mod:`paiute.actions` (``Discrete(111)``). The legal ones are in
  ``info["action_mask"]`` and :meth:`PaiuteEnv.action_masks` (for sb3-contrib's maskable
  algorithms).
* **An episode is one deal at a fresh table** (no chips won, an empty pot, a random dealer,
  R2.3), with or without a seed; ``carry_match=True`` carries the balances and a dead deal's
  pot (R8.5) from deal to deal instead. The reward (a float) comes when the deal ends: the
  seat's change of chips plus its share of the pot (:mod:`paiute.envs.table`), so a dead or
  cut deal pays 0. The last ``info`` says why it ended and gives every seat's chips and the
  winners, as the PettingZoo environment's end-of-deal ``infos`` do.
* **Illegal actions** end the episode (``illegal="terminate"``, the default, as PettingZoo's
  classic convention): reward ``illegal_reward`` (-1), ``terminated``, ``info["illegal"]`` the
  error naming the rule, ``info["rule"]`` the rule; the deal is settled as a dead deal.
  ``illegal="raise"`` raises :class:`~paiute.errors.IllegalActionError` instead, changing
  nothing (``"penalty"`` is an old name for ``"terminate"``). ``illegal="replace"`` (for
  agents that sample without the mask) plays a legal action drawn by the environment's
  generator instead, as the PettingZoo environment does: the step's reward includes
  ``illegal_reward``, the deal goes on, and ``info`` has ``illegal``, ``rule``, ``action`` and
  ``replaced_by`` (and ``penalties``, the seat's total, when the deal ends).
* ``observation_object=True`` adds our seat's :class:`~paiute.observation.Observation` (R9)
  to ``info`` as ``"observation_object"`` while it is to act.
* ``max_turns`` turns without a call cut the deal (the R4.7 hole): ``truncated``, settled as
  a dead deal, the same rule as every other interface.
* **At the end of a deal** (``terminated`` or ``truncated``) ``info["action_mask"]`` and
  :meth:`PaiuteEnv.action_masks` admit every action: nothing is legal any more, and the action
  a vector env's policy samples for that observation is discarded by Gymnasium's next-step
  autoreset. So under ``gymnasium.make_vec`` in any autoreset mode a masked sample never
  meets an empty row, and the reset observation comes with its own mask (docs/encoding.md).
* What ``gymnasium.make`` returns has :class:`ActionMasks` outermost (:func:`make_env`), so
  ``env.action_masks()`` (what sb3-contrib's ``get_action_masks`` calls) works on it; under
  wrappers of your own use ``env.get_wrapper_attr("action_masks")()`` or
  ``env.unwrapped.action_masks()``.
* ``render()`` shows only what our seat may see (R9).
* ``gymnasium.make_vec("paiute/Paiute-v0", num_envs=n)`` plays ``n`` such tables in compiled
  code (:mod:`paiute.envs.vector`, the id's vector entry point), the same deals, bot moves and
  rewards as this environment under ``vectorization_mode="sync"``, which still vectorizes this
  one (and seats any bot).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from paiute.actions import NUM_ACTIONS
from paiute.envs import register
from paiute.envs.encoding import Float32Array, Int8Array, rules_for_seats
from paiute.envs.table import DEFAULT_MAX_TURNS, EnvTable
from paiute.errors import IllegalActionError, PaiuteError
from paiute.players import Player, make_player

__all__ = ["ActionMasks", "PaiuteEnv", "make_env", "register"]

BoolArray = np.ndarray[Any, np.dtype[np.bool_]]


class PaiuteEnv(gymnasium.Env[Float32Array, int]):
    """One seat of a Paiute table against bots (see the module docstring)."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 4}  # noqa: RUF012 - Gymnasium's API

    def __init__(
        self,
        seat: int = 0,
        opponents: str | Sequence[str] = "greedy",
        players: int = 4,
        preset: str = "pagat",
        render_mode: str | None = None,
        max_turns: int = DEFAULT_MAX_TURNS,
        illegal: str = "terminate",
        illegal_reward: float = -1.0,
        carry_match: bool = False,
        observation_object: bool = False,
        **options: Any,
    ) -> None:
        self.rules = rules_for_seats(preset, players, options)
        self.table = EnvTable(self.rules, players, max_turns=max_turns, carry_match=carry_match)
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise PaiuteError(f"R2.2 seat {seat!r} is not one of the {players} seats")
        if render_mode not in (None, "human", "ansi"):
            raise PaiuteError(f"render_mode {render_mode!r}: expected None, 'human' or 'ansi'")
        if illegal == "penalty":  # the old name
            illegal = "terminate"
        if illegal not in ("terminate", "raise", "replace"):
            raise PaiuteError(f"illegal={illegal!r}: expected 'terminate', 'raise' or 'replace'")
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != players - 1:
            raise PaiuteError(f"{len(specs)} opponent specs for {players - 1} other seats")
        self.seat = seat
        self.players = players
        self.opponent_specs = specs
        self.render_mode = render_mode
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.observation_object = bool(observation_object)
        self._penalty = 0.0  # illegal="replace": the penalties of this deal
        low, high = self.table.encoder.bounds()
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)  # type: ignore[assignment]
        # Opponents by seat (None at our own); built (and seeded) at the first reset.
        self._opponents: list[Player | None] = []
        self._started = False

    # -- episodes ------------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Float32Array, dict[str, Any]]:
        """Deal a new deal at a fresh table (``options={"dealer": k}`` chooses the dealer); a
        seed also reseeds the opponents (and starts a new match with ``carry_match``)."""
        super().reset(seed=seed)
        table = self.table
        if seed is not None or not self._started:
            table.new_match(self.np_random)
            self._opponents = self._make_opponents()
            self._started = True
        dealer = None if options is None else options.get("dealer")
        table.start_deal(self.np_random, dealer=dealer)
        self._penalty = 0.0
        self._play_opponents()
        if self.render_mode == "human":
            self.render()
        return table.encode(self.seat), self._info()

    def _make_opponents(self) -> list[Player | None]:
        specs = iter(self.opponent_specs)
        opponents: list[Player | None] = []
        for seat in range(self.players):
            if seat == self.seat:
                opponents.append(None)
            else:
                opponents.append(make_player(next(specs), seed=int(self.np_random.integers(2**31))))
        return opponents

    def step(self, action: Any) -> tuple[Float32Array, float, bool, bool, dict[str, Any]]:
        table = self.table
        if table.done:
            raise PaiuteError("the episode has ended: call reset()")
        replaced: dict[str, Any] = {}
        try:
            table.apply(operator.index(action))
        except (PaiuteError, TypeError) as error:  # IllegalActionError names the rule
            if self.illegal == "raise":
                raise
            failure = (
                error if isinstance(error, PaiuteError) else PaiuteError(f"bad action {action!r}: {error}")
            )
            if self.illegal == "terminate":
                table.abandon(failure, self.seat)
                return table.encode(self.seat), self.illegal_reward, True, False, self._info()
            legal = table.legal_ids()  # "replace": a legal action from our generator
            played = int(legal[int(self.np_random.integers(len(legal)))])
            table.apply(played)
            self._penalty += self.illegal_reward
            replaced = {"illegal": str(failure), "action": _requested(action), "replaced_by": played}
            if isinstance(failure, IllegalActionError):
                replaced["rule"] = failure.rule
        self._play_opponents()
        if self.render_mode == "human":
            self.render()
        reward = table.rewards[self.seat] if table.done else 0.0
        if replaced:
            reward += self.illegal_reward
        terminated = table.done and not table.truncated
        info = self._info()
        info.update(replaced)
        return table.encode(self.seat), reward, terminated, table.truncated, info

    def _play_opponents(self) -> None:
        """Let the bots act until it is our seat's turn or the deal is done."""
        table = self.table
        deal = table.deal
        while not table.done and deal.current_seat != self.seat:
            player = self._opponents[deal.current_seat]
            assert player is not None
            action = player.act(table.observation(deal.current_seat))
            table.apply(action.id)

    # -- what the seat sees --------------------------------------------------------------------

    def action_masks(self) -> BoolArray:
        """The legal actions now, as booleans (sb3-contrib's ``MaskablePPO`` calls this);
        every action once the deal has ended (see :meth:`action_mask`)."""
        return self.action_mask().astype(bool)

    def action_mask(self) -> Int8Array:
        """The legal actions now, as an int8 mask of ``NUM_ACTIONS``. Once the deal has ended
        it admits every action: none is legal any more, and whatever a policy samples there is
        never applied (a vector env's next-step autoreset discards it and resets), so a masked
        sample never meets an empty row."""
        if self.table.done:
            return np.ones(NUM_ACTIONS, dtype=np.int8)
        return self.table.mask(self.seat)

    def _info(self) -> dict[str, Any]:
        table = self.table
        info: dict[str, Any] = {"action_mask": self.action_mask(), "turns": table.turns}
        if self.observation_object and not table.done:
            info["observation_object"] = table.observation(self.seat)
        if table.done:
            info.update(table.end_info())
            if self.illegal == "replace":
                info["penalties"] = [
                    self._penalty if seat == self.seat else 0.0 for seat in range(self.players)
                ]
            if table.illegal:
                info["rewards"] = [
                    self.illegal_reward if seat == self.seat else 0.0 for seat in range(self.players)
                ]
        return info

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (None, 'human' or 'ansi')")
            return None
        table = self.table
        text = table.encoder.describe(table.observation(self.seat))
        if table.done:
            text += f"\nthe deal ended: {table.end}"
            if table.truncated:
                text += f" (cut after {table.turns} turns without a call, settled as dead, R8.5)"
            text += f"\nreward this deal: {table.rewards[self.seat]:+g}"
        if self.render_mode == "ansi":
            return text
        print(text)
        return None


def _requested(action: Any) -> Any:
    """The action asked for, as a plain int where it is one (for ``info``)."""
    try:
        return operator.index(action)
    except TypeError:
        return repr(action)


def make_env(**kwargs: Any) -> ActionMasks:
    """The entry point of ``paiute/Paiute-v0``: :class:`PaiuteEnv` inside Gymnasium's passive
    checker and order enforcement, as ``gymnasium.make`` wraps an environment, then
    :class:`ActionMasks` outermost (the id is registered without additional wrappers, which
    ``gymnasium.make_vec`` refuses beside its vector entry point)."""
    env = PaiuteEnv(**kwargs)
    checked = gymnasium.wrappers.OrderEnforcing(gymnasium.wrappers.PassiveEnvChecker(env))
    return ActionMasks(checked)


class ActionMasks(
    gymnasium.Wrapper[Float32Array, int, Float32Array, int], gymnasium.utils.RecordConstructorArgs
):
    """The outermost wrapper of what ``gymnasium.make`` returns: it makes :meth:`PaiuteEnv.action_masks`
    reachable on what ``make`` returns (Gymnasium 1.x wrappers forward no other attributes),
    which is where sb3-contrib's ``get_action_masks`` and ``is_masking_supported`` look."""

    def __init__(self, env: gymnasium.Env[Float32Array, int]) -> None:
        gymnasium.utils.RecordConstructorArgs.__init__(self)
        gymnasium.Wrapper.__init__(self, env)

    def action_masks(self) -> BoolArray:
        """The legal actions of the wrapped :class:`PaiuteEnv` now, as booleans."""
        masks: BoolArray = self.env.get_wrapper_attr("action_masks")()
        return masks

    def action_mask(self) -> Int8Array:
        """The legal actions now, as an int8 mask of ``NUM_ACTIONS``."""
        mask: Int8Array = self.env.get_wrapper_attr("action_mask")()
        return mask


register()  # paiute/Paiute-v0 (idempotent)
