"""Paiute as a PettingZoo AEC environment (classic style), one deal per episode.

>>> from paiute.envs.pettingzoo import env
>>> table = env(players=3, preset="pagat")
>>> table.reset(seed=7)
>>> observation, reward, termination, truncation, info = table.last()
>>> observation["observation"].shape, observation["action_mask"].nonzero()[0].tolist()
((1036,), [0])
>>> table.step(0)  # draw stock

* Agents ``player_0`` ... ``player_{n-1}`` are the seats (R2.2); the one to act is
  ``agent_selection``. ``players`` above 5 raises ``max_players`` with it (R2.1).
* Actions are the ids of :mod:`paiute.actions` (``Discrete(111)``); an observation is
  ``{"observation": float32 vector, "action_mask": int8 mask}`` from
  :mod:`paiute.envs.encoding` (layout in docs/encoding.md), built only from what R9 lets the
  seat see. :meth:`raw_env.state` is the whole table, for centralised critics only.
* **An episode is one deal at a fresh table** (no chips won, an empty pot, a random dealer,
  R2.3), whether ``reset`` gets a seed or not; ``carry_match=True`` carries the balances and a
  dead deal's pot (R8.5) from deal to deal instead (a seed still starts a new match).
  ``options={"dealer": k}`` chooses the dealer.
* **Rewards** (floats) come when the deal ends: each seat's change of chips plus its share of
  the pot (:mod:`paiute.envs.table`), so they sum to zero and a dead or cut deal pays 0.
  The end-of-deal ``infos`` (every agent the same) say why it ended and give the chips and the
  winners (:meth:`EnvTable.end_info <paiute.envs.table.EnvTable.end_info>`).
* **Illegal actions** follow PettingZoo's classic convention (``TerminateIllegalWrapper``):
  the offender gets ``illegal_reward`` (-1), the others 0, the deal ends for everyone
  (``terminations`` all True, settled as a dead deal) and ``infos`` carry ``illegal`` (the
  error, naming the rule), ``rule`` and ``offender``. ``illegal="raise"`` raises
  :class:`~paiute.errors.IllegalActionError` instead and changes nothing.
  ``illegal="replace"``, for agents that sample without the mask: the illegal action is
  replaced by a legal one drawn uniformly by the environment's own seeded generator (one
  derived from the reset seed, apart from the deals' chance), the offender gets
  ``illegal_reward`` at that step (0 for no penalty) and the deal goes on; the offender's
  ``infos`` say ``illegal``, ``rule``, ``action`` (what it asked) and ``replaced_by`` (the id
  played), and the end-of-deal ``infos`` add ``penalties`` (each seat's total). The deal's own
  rewards still sum to zero; the penalties come on top.
* **Truncation**: ``max_turns`` turns without a call cut the deal (the R4.7 hole), settled as
  a dead deal, the same rule as every other interface. ``max_cycles`` (default none) bounds
  how many times each agent is asked for an action, as in PettingZoo's envs: the AEC env asks
  only the agent to act, so it cuts the deal once the agent to act has already taken
  ``max_cycles`` actions (every agent acted ``max_cycles`` times); :func:`parallel_env` asks
  every live agent at every step, so it cuts after ``max_cycles`` parallel steps
  (``cycle="step"``: ``max_cycles`` actions in all). Either cut is a truncation settled as a
  dead deal (``infos["end"] == "max_cycles"``).
* ``observation_object=True`` adds the agent to act's own
  :class:`~paiute.observation.Observation` (what R9 lets it see, its ``legal_actions`` the
  mask's) to its ``infos`` as ``"observation_object"``: what the bots of
  :mod:`paiute.players` and hand-made features read (``examples/train_learned.py``).
* ``render()`` shows one seat's view (R9): the agent to act's, or ``render_view``'s (an agent
  or a seat number); ``render_view="table"`` shows the whole table, every hand included.
* ``is_parallelizable`` is False: seats act in turn, never at once. :func:`parallel_env` is
  PettingZoo's turn-based conversion: every live agent submits an action at every step, the
  agent to act's is applied and the others' are ignored.
"""

from __future__ import annotations

import functools
import operator
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]
from pettingzoo.utils.conversions import turn_based_aec_to_parallel  # type: ignore[import-untyped]
from pettingzoo.utils.env_logger import EnvLogger  # type: ignore[import-untyped]

from paiute.actions import NUM_ACTIONS
from paiute.envs.encoding import rules_for_seats
from paiute.envs.table import DEFAULT_MAX_TURNS, END_MAX_CYCLES, EnvTable
from paiute.errors import IllegalActionError, PaiuteError

__all__ = ["env", "parallel_env", "raw_env"]

ObsDict = dict[str, np.ndarray[Any, Any]]
ILLEGAL_MODES = ("terminate", "raise", "replace")
CYCLES = ("agent", "step")


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's order checks (:class:`OrderEnforcing`).

    Illegal actions are handled by the environment itself, the way ``TerminateIllegalWrapper``
    would (see the module docstring), and an action outside ``Discrete(111)`` counts as
    illegal; so ``AssertOutOfBoundsWrapper`` and ``TerminateIllegalWrapper`` are not added.
    """
    return OrderEnforcing(raw_env(**kwargs))


def parallel_env(**kwargs: Any) -> ParallelEnv:
    """:func:`env` through PettingZoo's ``turn_based_aec_to_parallel``: every step takes one
    action per live agent and uses only the agent to act's (Paiute is turn-based). One step
    is one cycle, so ``max_cycles`` counts steps (``cycle="step"``, the default here)."""
    kwargs.setdefault("cycle", "step")
    return turn_based_aec_to_parallel(env(**kwargs))


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
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        players: int = 4,
        preset: str = "pagat",
        render_mode: str | None = None,
        max_turns: int = DEFAULT_MAX_TURNS,
        max_cycles: int | None = None,
        illegal: str = "terminate",
        illegal_reward: float = -1.0,
        carry_match: bool = False,
        render_view: str | int = "agent",
        cycle: str = "agent",
        observation_object: bool = False,
        **options: Any,
    ) -> None:
        EzPickle.__init__(
            self,
            players,
            preset,
            render_mode,
            max_turns,
            max_cycles,
            illegal,
            illegal_reward,
            carry_match,
            render_view,
            cycle,
            observation_object,
            **options,
        )
        super().__init__()
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: expected None, 'human' or 'ansi'")
        if illegal not in ILLEGAL_MODES:
            raise PaiuteError(f"illegal={illegal!r}: expected one of {', '.join(ILLEGAL_MODES)}")
        if max_cycles is not None and (
            isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1
        ):
            raise PaiuteError(f"max_cycles must be None or a whole number of at least 1, not {max_cycles!r}")
        if cycle not in CYCLES:
            raise PaiuteError(f"cycle={cycle!r}: expected 'agent' (AEC) or 'step' (parallel steps)")
        self.render_mode = render_mode
        self.rules = rules_for_seats(preset, players, options)
        self.table = EnvTable(self.rules, players, max_turns=max_turns, carry_match=carry_match)
        self.encoder = self.table.encoder
        self.max_cycles = max_cycles
        #: What ``max_cycles`` counts: each agent's actions ("agent") or all actions ("step").
        self.cycle = cycle
        self.observation_object = bool(observation_object)
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents: list[str] = []
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.render_view = render_view
        self._render_seat = self._view_seat(render_view)
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
        state_low, state_high = self.encoder.state_bounds()
        #: The space of :meth:`state`: the whole table (every hand and the stock's order).
        self.state_space = spaces.Box(state_low, state_high, dtype=np.float32)
        self.np_random, self.np_random_seed = seeding.np_random(None)
        self._replace_rng = np.random.default_rng([self.np_random_seed, 1])
        self._penalised: str | None = None  # the agent penalised at the last step
        self._penalties = [0.0] * players
        self._started = False

    def _view_seat(self, view: str | int) -> int | None:
        """The seat ``render_view`` names; None for the agent to act; -1 for the whole table."""
        if view == "agent":
            return None
        if view == "table":
            return -1
        if isinstance(view, str) and view in self._seats:
            return self._seats[view]
        if isinstance(view, int) and not isinstance(view, bool) and 0 <= view < len(self.possible_agents):
            return view
        raise PaiuteError(f"render_view {view!r}: expected 'agent', 'table', an agent name or a seat number")

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
            # illegal="replace": its own stream, so a seed deals the same deals in every mode
            self._replace_rng = np.random.default_rng([self.np_random_seed, 1])
            table.new_match(self.np_random)
            self._started = True
        table.start_deal(self.np_random, dealer=dealer)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._penalised = None
        self._penalties = [0.0] * table.players
        self.agent_selection = self.possible_agents[table.deal.current_seat]
        self._add_observation_object()
        if self.render_mode == "human":
            self.render()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for a finished agent")
        table = self.table
        seat = self._seats[agent]
        self._cumulative_rewards[agent] = 0.0
        if self._penalised is not None:  # rewards are 0.0 until the deal ends, but for a penalty
            self.rewards[self._penalised] = 0.0
            self._penalised = None
        if self.observation_object or self.illegal == "replace":
            self.infos[agent] = {}  # what it was told before it acted
        try:
            table.apply(operator.index(action))
        except (PaiuteError, TypeError) as error:  # IllegalActionError names the rule
            if self.illegal == "raise":
                raise
            failure = (
                error if isinstance(error, PaiuteError) else PaiuteError(f"bad action {action!r}: {error}")
            )
            if self.illegal == "replace":
                self._replace(agent, action, failure)
            else:
                EnvLogger.warn_on_illegal_move()  # as TerminateIllegalWrapper logs it
                table.abandon(failure, seat)
        cycles = self.max_cycles
        if not table.done and cycles is not None:
            taken = (
                table.decisions(table.deal.current_seat)
                if self.cycle == "agent"
                else sum(table.decisions(other) for other in range(table.players))
            )
            if taken >= cycles:
                table.cut(END_MAX_CYCLES)
        if table.done:
            self._end_deal()
        elif self._penalised is not None:
            self._accumulate_rewards()
        self.agent_selection = self.possible_agents[table.deal.current_seat]
        self._add_observation_object()
        if self.render_mode == "human":
            self.render()

    def _replace(self, agent: str, action: Any, failure: PaiuteError) -> None:
        """``illegal="replace"``: play a legal action drawn by the environment's generator
        instead, penalise ``agent`` by ``illegal_reward`` and say so in its ``infos``."""
        table = self.table
        legal = table.legal_ids()
        played = int(legal[int(self._replace_rng.integers(len(legal)))])
        table.apply(played)
        seat = self._seats[agent]
        self.rewards[agent] = self.illegal_reward
        self._penalised = agent
        self._penalties[seat] += self.illegal_reward
        info: dict[str, Any] = {"illegal": str(failure), "action": _requested(action), "replaced_by": played}
        if isinstance(failure, IllegalActionError):
            info["rule"] = failure.rule
        self.infos[agent] = info

    def _add_observation_object(self) -> None:
        """``observation_object=True``: the agent to act's own Observation (R9) in its infos."""
        table = self.table
        if self.observation_object and not table.done:
            agent = self.agent_selection
            self.infos[agent] = {
                **self.infos[agent],
                "observation_object": table.observation(self._seats[agent]),
            }

    def _end_deal(self) -> None:
        table = self.table
        info = table.end_info()
        if table.illegal:  # TerminateIllegalWrapper: the offender is penalised, the others 0
            offender = table.illegal["offender"]
            rewards = [self.illegal_reward if seat == offender else 0.0 for seat in range(table.players)]
            info["offender"] = self.possible_agents[offender]
            info["rewards"] = rewards
        else:
            rewards = table.rewards
        self.rewards = {name: rewards[seat] for seat, name in enumerate(self.possible_agents)}
        if self.illegal == "replace":
            info["penalties"] = list(self._penalties)
            if self._penalised is not None:  # the last action was replaced: its penalty too
                self.rewards[self._penalised] += self.illegal_reward
        self.infos = {name: dict(info) for name in self.possible_agents}
        if table.truncated:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()

    # -- observations --------------------------------------------------------------------------

    def observe(self, agent: str) -> ObsDict:
        seat = self._seats[agent]
        table = self.table
        return {"observation": table.encode(seat), "action_mask": table.mask(seat)}

    def state(self) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The whole table for a centralised critic (``state_space``): it sees *everything*,
        every hand and the stock's order (layout: ``encoder.state_layout()``). Never feed it to
        a seat's policy: that would break R9."""
        return self.table.state()

    def render(self) -> str | None:
        """One seat's view (R9): the agent to act's, or ``render_view``'s; the whole table
        only with ``render_view="table"``."""
        if self.render_mode is None:
            from gymnasium import logger

            logger.warn("render() was called without a render_mode (None, 'human' or 'ansi')")
            return None
        text = self.render_text(self._render_seat)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def render_text(self, seat: int | None = None) -> str:
        """The text :meth:`render` shows: seat ``seat``'s view (None: the agent to act; -1:
        the whole table, every hand)."""
        table = self.table
        deal = table.deal
        if seat == -1:
            text = str(deal)
        else:
            shown = deal.current_seat if seat is None else seat
            text = f"{self.possible_agents[shown]} sees:\n{table.observation(shown)}"
        if table.done:
            text += f"\n  the deal ended: {table.end}"
            if table.end == "max_turns":
                text += f" (cut after {table.turns} turns without a call, settled as dead, R8.5)"
            text += "\n  rewards: " + ", ".join(
                f"{agent} {self.rewards.get(agent, 0.0):+g}" for agent in self.possible_agents
            )
        return text

    def close(self) -> None:
        pass


def _requested(action: Any) -> Any:
    """The action an agent asked for, as a plain int where it is one (for ``infos``)."""
    try:
        return operator.index(action)
    except TypeError:
        return repr(action)
