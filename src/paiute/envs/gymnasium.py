"""Paiute for one seat as a Gymnasium environment; bots play the other seats.

>>> import gymnasium as gym
>>> import paiute.envs.gymnasium  # registers paiute/Paiute-v0
>>> env = gym.make("paiute/Paiute-v0", players=3, opponents="random")
>>> observation, info = env.reset(seed=1)
>>> observation.shape, info["action_mask"].nonzero()[0].tolist()  # draw stock or discard
((1036,), [0, 1])
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
* An illegal action raises :class:`~paiute.errors.IllegalActionError` naming the rule, and
  changes nothing (``illegal="raise"``, the default). With ``illegal="penalty"`` it ends the
  episode instead: reward ``illegal_reward`` (default: minus the chip scale, stake × players
  or unit × players), ``terminated``, ``info["illegal"]`` the error text, and the deal is
  settled as a dead deal (R8.5). Gymnasium's ``check_env`` steps random actions, so it needs
  ``illegal="penalty"``.
* The reward is the seat's chip change for the deal, stake included (R8), given when the
  deal ends. ``reset(seed=s)`` starts a new match; ``reset()`` deals the next deal of the
  match (the dealer passes left, R2.3; a dead deal's pot is carried, R8.5).
* ``max_turns`` truncates a deal still going after that many turns (the R4.7 hole).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from paiute.actions import NUM_ACTIONS
from paiute.envs import register
from paiute.envs.encoding import Float32Array, Int8Array
from paiute.envs.table import DEFAULT_MAX_TURNS, Table
from paiute.errors import IllegalActionError, PaiuteError
from paiute.players import Player, make_player
from paiute.rules import RuleSet

__all__ = ["PaiuteEnv", "register"]

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
        illegal: str = "raise",
        illegal_reward: float | None = None,
        **options: Any,
    ) -> None:
        self.rules = RuleSet.from_preset(preset, **options)
        self.table = Table(self.rules, players, max_turns=max_turns)
        if not 0 <= seat < players:
            raise PaiuteError(f"R2.2 seat {seat!r} is not one of the {players} seats")
        if max_turns < players:
            raise PaiuteError(f"max_turns {max_turns} is less than a round: seat {seat} might never act")
        if render_mode not in (None, "human", "ansi"):
            raise PaiuteError(f"render_mode {render_mode!r}: expected None, 'human' or 'ansi'")
        if illegal not in ("raise", "penalty"):
            raise PaiuteError(f"illegal={illegal!r}: expected 'raise' or 'penalty'")
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != players - 1:
            raise PaiuteError(f"{len(specs)} opponent specs for {players - 1} other seats")
        self.seat = seat
        self.players = players
        self.opponent_specs = specs
        self.render_mode = render_mode
        self.illegal = illegal
        encoder = self.table.encoder
        self.illegal_reward = -encoder.chip_scale if illegal_reward is None else float(illegal_reward)
        low, high = encoder.bounds()
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)  # type: ignore[assignment]
        # Opponents by seat (None at our own); built (and seeded) at the first reset.
        self._opponents: list[Player | None] = []
        self._started = False
        self._illegal_end = False

    # -- episodes ------------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Float32Array, dict[str, Any]]:
        """Deal a new deal (``options={"dealer": k}`` chooses the dealer); a seed starts a new match."""
        super().reset(seed=seed)
        table = self.table
        if seed is not None or not self._started:
            table.new_match(self.np_random)
            self._opponents = self._make_opponents()
            self._started = True
        dealer = None if options is None else options.get("dealer")
        table.start_deal(self.np_random, dealer=dealer)
        self._illegal_end = False
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

    def step(self, action: int) -> tuple[Float32Array, float, bool, bool, dict[str, Any]]:
        table = self.table
        if table.done or self._illegal_end:
            raise PaiuteError("the episode has ended: call reset()")
        try:
            table.apply(int(action))
        except PaiuteError as error:  # IllegalActionError names the rule; out of range too
            if self.illegal == "raise":
                raise
            return self._penalise(error)
        self._play_opponents()
        if self.render_mode == "human":
            self.render()
        reward = float(table.rewards[self.seat]) if table.done else 0.0
        terminated = table.done and not table.truncated
        return table.encode(self.seat), reward, terminated, table.truncated, self._info()

    def _penalise(self, error: PaiuteError) -> tuple[Float32Array, float, bool, bool, dict[str, Any]]:
        """``illegal="penalty"``: end the episode, settled as a dead deal (R8.5)."""
        table = self.table
        table.abandon()
        self._illegal_end = True
        info = self._info()
        info["illegal"] = str(error)
        if isinstance(error, IllegalActionError):
            info["rule"] = error.rule
        return table.encode(self.seat), self.illegal_reward, True, False, info

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
        """The legal actions now, as booleans (sb3-contrib's ``MaskablePPO`` calls this)."""
        return self.table.mask(self.seat).astype(bool)

    def action_mask(self) -> Int8Array:
        """The legal actions now, as an int8 mask of ``NUM_ACTIONS``."""
        return self.table.mask(self.seat)

    def _info(self) -> dict[str, Any]:
        table = self.table
        info: dict[str, Any] = {"action_mask": table.mask(self.seat), "turns": table.turns}
        if table.done:
            info["chips"] = list(table.rewards)
            outcome = table.deal.outcome
            if outcome is not None and not outcome.dead:
                info["winners"] = list(outcome.winners)
        return info

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (None, 'human' or 'ansi')")
            return None
        table = self.table
        text = self.table.encoder.describe(table.observation(self.seat))
        if table.truncated:
            text += f"\ntruncated after {table.turns} turns (settled as a dead deal, R4.7, R8.5)"
        if table.done:
            text += f"\nchips this deal: {table.rewards[self.seat]:+d}"
        if self.render_mode == "ansi":
            return text
        print(text)
        return None


register()  # paiute/Paiute-v0 (idempotent)
