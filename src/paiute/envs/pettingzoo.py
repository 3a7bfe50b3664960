"""Paiute as a PettingZoo AEC environment (classic style), one deal per episode.

>>> from paiute.envs.pettingzoo import env
>>> table = env(players=3, preset="pagat")
>>> table.reset(seed=7)
>>> observation, reward, termination, truncation, info = table.last()
>>> observation["observation"].shape, observation["action_mask"].nonzero()[0].tolist()
((1036,), [0])
>>> table.step(0)  # draw stock

* Agents ``player_0`` ... ``player_{n-1}`` are the seats (R2.2); the one to act is
  ``agent_selection``.
* Actions are the ids of :mod:`paiute.actions` (``Discrete(111)``); an observation is
  ``{"observation": float32 vector, "action_mask": int8 mask}`` from
  :mod:`paiute.envs.encoding` (layout in docs/encoding.md), built only from what R9 lets the
  seat see. An illegal action raises :class:`~paiute.errors.IllegalActionError` naming the
  rule, and changes nothing.
* Rewards are chips: at the end of the deal each seat gets its balance change, stake
  included (R8). They sum to minus what the pot kept (R8.5, R8.6).
* Episodes: ``reset(seed=s)`` starts a new match (no chips won, empty pot, random dealer);
  ``reset()`` deals the next deal of the same match: the dealer passes left (R2.3) and a dead
  deal's pot is carried (R8.5). ``options={"dealer": k}`` chooses the dealer.
* ``max_turns`` truncates a deal that is still going after that many turns: the R4.7 hole
  (players who only ever draw from the discard pile). It is settled as a dead deal.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from paiute.actions import NUM_ACTIONS
from paiute.envs.table import DEFAULT_MAX_TURNS, Table
from paiute.rules import RuleSet

__all__ = ["env", "raw_env"]

ObsDict = dict[str, np.ndarray[Any, Any]]


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's order checks (:class:`OrderEnforcing`).

    An action out of range or illegal now is refused by the environment itself with a
    :class:`~paiute.errors.PaiuteError` / :class:`~paiute.errors.IllegalActionError` naming
    the rule, so PettingZoo's ``AssertOutOfBoundsWrapper`` and ``TerminateIllegalWrapper`` are
    not used.
    """
    return OrderEnforcing(raw_env(**kwargs))


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper`` (the same checks) with a shorter path for what a
    step loop reads every decision: ``last()`` and the agent attributes go straight to the
    environment instead of through ``__getattr__`` twice (a third of a step's cost otherwise)."""

    def _checked(self, name: str) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    @property
    def agent_selection(self) -> str:
        return self._checked("agent_selection")  # type: ignore[no-any-return]

    @property
    def agents(self) -> list[str]:
        return self._checked("agents")  # type: ignore[no-any-return]

    @property
    def terminations(self) -> dict[str, bool]:
        return self._checked("terminations")  # type: ignore[no-any-return]

    @property
    def truncations(self) -> dict[str, bool]:
        return self._checked("truncations")  # type: ignore[no-any-return]

    @property
    def rewards(self) -> dict[str, float]:
        return self._checked("rewards")  # type: ignore[no-any-return]

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        return self._checked("infos")  # type: ignore[no-any-return]

    def last(self, observe: bool = True) -> tuple[ObsDict | None, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]


class raw_env(AECEnv, EzPickle):  # type: ignore[misc]  # noqa: N801 - PettingZoo's name
    """Paiute for ``players`` seats under ``preset`` and option overrides (see module docstring)."""

    metadata = {  # noqa: RUF012 - PettingZoo reads it as a class attribute
        "render_modes": ["human", "ansi"],
        "name": "paiute_v0",
        "is_parallelizable": True,
    }

    def __init__(
        self,
        players: int = 4,
        preset: str = "pagat",
        render_mode: str | None = None,
        max_turns: int = DEFAULT_MAX_TURNS,
        **options: Any,
    ) -> None:
        EzPickle.__init__(self, players, preset, render_mode, max_turns, **options)
        super().__init__()
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: expected None, 'human' or 'ansi'")
        self.render_mode = render_mode
        self.rules = RuleSet.from_preset(preset, **options)
        self.table = Table(self.rules, players, max_turns=max_turns)
        self.encoder = self.table.encoder
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents: list[str] = []
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        low, high = self.encoder.bounds()
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents}
        self.np_random, self.np_random_seed = seeding.np_random(None)
        self._started = False

    @functools.cache  # noqa: B019 - one space object per agent (PettingZoo's API test)
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- episodes ------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        table = self.table
        dealer = None if options is None else options.get("dealer")
        if seed is not None or not self._started:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
            table.new_match(self.np_random)
            self._started = True
        table.start_deal(self.np_random, dealer=dealer)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[table.deal.current_seat]
        if self.render_mode == "human":
            self.render()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for a finished agent")
        table = self.table
        table.apply(int(action))
        deal = table.deal
        self._cumulative_rewards[agent] = 0
        if table.done:
            self.rewards = {name: table.rewards[seat] for seat, name in enumerate(self.possible_agents)}
            if table.truncated:
                self.truncations = dict.fromkeys(self.agents, True)
            else:
                self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        self.agent_selection = self.possible_agents[deal.current_seat]
        if self.render_mode == "human":
            self.render()

    # -- observations --------------------------------------------------------------------------

    def observe(self, agent: str) -> ObsDict:
        seat = self._seats[agent]
        table = self.table
        return {"observation": table.encode(seat), "action_mask": table.mask(seat)}

    def render(self) -> str | None:
        if self.render_mode is None:
            from gymnasium import logger

            logger.warn("render() was called without a render_mode (None, 'human' or 'ansi')")
            return None
        table = self.table
        text = str(table.deal)
        if table.truncated:
            text += f"\n  truncated after {table.turns} turns (settled as a dead deal, R4.7, R8.5)"
        if table.done:
            text += "\n  chips: " + ", ".join(
                f"{a} {table.rewards[s]:+d}" for s, a in enumerate(self.possible_agents)
            )
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass
