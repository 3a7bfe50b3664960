"""Paiute for OpenSpiel: the game ``python_paiute``, registered when this module is imported.

>>> import pyspiel
>>> import paiute.envs.openspiel
>>> game = pyspiel.load_game("python_paiute(players=3,preset=gamerules)")
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(3, 111, 52)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())  # the first card dealt (R2.5)
(True, 52)

One deal of the engine (:class:`paiute.deal.Deal`) behind OpenSpiel's ``pyspiel.Game`` /
``pyspiel.State`` API, with explicit chance nodes for every card dealt and every card drawn
from the stock (see :mod:`paiute.envs.openspiel_table`), observers for information-state and
observation tensors and strings (:mod:`paiute.envs.openspiel_observer`), returns in chips (R8)
and :meth:`PaiuteState.resample_from_infostate` for OpenSpiel's Python ISMCTS bot.

**Parameters** (:data:`PARAMETERS`): ``players`` (default 2), ``preset`` (``pagat`` or
``gamerules``), ``dealer`` (-1: the last seat, so that seat 0 plays first), ``max_turns``
(turns without a call before the deal ends as dead; R4.7 alone does not make a deal finite),
and every option of RULES.md. The options that a preset changes (``upcard_under_stock``,
``open_discard``, ``reshuffle_keeps_top``, ``paiute_any_turn``) are strings: ``preset`` (the
preset's value, the default), ``on`` or ``off``; OpenSpiel's parameter types are fixed, so a
boolean parameter could not tell "not given" from "given as the default". The others keep
their types (``royal_high=True``, ``stake=5``, ``payout=scale``).

Action ids are :mod:`paiute.actions`' (``NUM_ACTIONS = 111``); chance outcomes are card ids.
OpenSpiel's C++ bots (``pyspiel.MCTSBot``, ``pyspiel.ISMCTSBot``...) cannot call back into a
Python game: use the Python ones (``open_spiel.python.algorithms.ismcts.ISMCTSBot``,
``open_spiel.python.algorithms.mcts.MCTSBot``). See ``docs/openspiel.md``.
"""

# pyspiel ships no type information: its classes are Any to mypy (hence the ignores on the
# two classes that subclass them).
# mypy: disable-error-code="import-not-found,import-untyped"

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import pyspiel

from paiute.actions import NUM_ACTIONS
from paiute.envs.openspiel_observer import PaiuteObserver
from paiute.envs.openspiel_table import SpielTable
from paiute.errors import PaiuteError, RulesError
from paiute.observation import Observation
from paiute.players import Player
from paiute.rules import DEFAULT_MAX_TURNS, MAX_SEATS, MIN_PLAYERS, OPTIONS, PRESETS, RuleSet

__all__ = [
    "DEFAULT_MAX_TURNS",
    "GAME_TYPE",
    "PARAMETERS",
    "SHORT_NAME",
    "GameSettings",
    "PaiuteGame",
    "PaiuteState",
    "PlayerBot",
    "game_parameters",
    "load_game",
]

SHORT_NAME = "python_paiute"
#: The value of a preset-dependent option that means "as the preset says".
FROM_PRESET = "preset"
_ON_OFF = {True: "on", False: "off"}
#: Options that some preset sets: given as strings (FROM_PRESET, on, off).
_PRESET_OPTIONS = frozenset(name for options in PRESETS.values() for name in options)

#: Every game parameter with its default (OpenSpiel takes each one's type from its default).
PARAMETERS: dict[str, object] = {
    "players": 2,
    "preset": "pagat",
    "dealer": -1,
    "max_turns": DEFAULT_MAX_TURNS,
    **{option.name: FROM_PRESET if option.name in _PRESET_OPTIONS else option.default for option in OPTIONS},
}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Paiute",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_SEATS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=True,
    parameter_specification=PARAMETERS,
)


@dataclass(frozen=True, slots=True)
class GameSettings:
    """The game parameters, checked: the rule set, the table and the turn limit."""

    rules: RuleSet
    players: int
    dealer: int
    max_turns: int

    @classmethod
    def from_parameters(cls, parameters: Mapping[str, object]) -> GameSettings:
        """Check ``parameters`` (missing ones take :data:`PARAMETERS`' defaults); a bad one
        raises :class:`~paiute.errors.RulesError` naming it."""
        unknown = sorted(set(parameters) - set(PARAMETERS))
        if unknown:
            raise RulesError(
                f"unknown {SHORT_NAME} parameter(s) {unknown} (parameters: {', '.join(PARAMETERS)})"
            )
        values = {**PARAMETERS, **parameters}
        options: dict[str, object] = {}
        for option in OPTIONS:
            value = values[option.name]
            if option.name not in _PRESET_OPTIONS:
                options[option.name] = value
            elif value != FROM_PRESET:
                if value not in ("on", "off", "yes", "no"):
                    raise RulesError(
                        f"bad value for option {option.name}: {value!r} ({FROM_PRESET}, on or off)"
                    )
                _, options[option.name] = RuleSet.parse_option(f"{option.name}={value}")
        players = _whole(values, "players")
        # R2.1: max_players follows players (up to 8) unless set to something else than its
        # default (OpenSpiel fills every parameter in, so "not given" reads as the default).
        if options["max_players"] == PARAMETERS["max_players"] and isinstance(players, int):
            options["max_players"] = min(max(players, RuleSet().max_players), MAX_SEATS)
        preset = values["preset"]
        if not isinstance(preset, str):
            raise RulesError(f"bad preset {preset!r}: expected a name ({', '.join(PRESETS)})")
        rules = RuleSet.from_preset(preset, **options)
        rules.check_players(players)
        dealer = _whole(values, "dealer")
        if dealer == -1:
            dealer = players - 1
        if not 0 <= dealer < players:
            raise RulesError(f"R2.2 dealer {dealer} is not one of the {players} seats (or -1: the last)")
        max_turns = _whole(values, "max_turns")
        if max_turns < 1:
            raise RulesError(f"max_turns must be at least 1, not {max_turns}")
        return cls(rules, players, dealer, max_turns)

    def utility_bounds(self) -> tuple[float, float]:
        """The fewest and most chips a seat can win in one deal (R8)."""
        rules, players = self.rules, self.players
        if rules.payout == "pot":  # R8.2: lose the stake, or win everyone else's
            low, high = -rules.stake, rules.stake * (players - 1)
        else:
            # R8.4: Five of a Kind on the first turn pays 2 x 5 units. With k tied winners a
            # loser pays each ceil(amount / k): at most the amount plus k - 1 chips.
            top = 10 * rules.unit
            high = top * (players - 1)
            low = -(top + players - 2) if top else 0
        if low == high:  # nothing at stake; OpenSpiel needs a non-empty range
            return -1.0, 1.0
        return float(low), float(high)

    def max_game_length(self) -> int:
        """The most seat actions in a deal: ``max_turns`` turns before a call, the last round
        after it (R7.2), two actions a turn (R4.2)."""
        return 2 * (self.max_turns + self.players - 1)


def game_parameters(
    rules: RuleSet | None = None, players: int = 2, *, dealer: int = -1, max_turns: int = DEFAULT_MAX_TURNS
) -> dict[str, object]:
    """The parameters that load ``rules`` for ``players`` (only those that differ from the
    defaults): ``pyspiel.load_game("python_paiute", game_parameters(rules, 3))``."""
    rules = rules if rules is not None else RuleSet()
    wanted: dict[str, object] = {
        "players": players,
        "preset": rules.preset,
        "dealer": dealer,
        "max_turns": max_turns,
    }
    for name, value in rules.to_dict().items():
        if name == "max_players" and value == max(players, RuleSet().max_players):
            continue  # what max_players follows anyway
        if name != "preset":
            wanted[name] = _ON_OFF[value] if name in _PRESET_OPTIONS and isinstance(value, bool) else value
    return {name: value for name, value in wanted.items() if value != PARAMETERS[name]}


def load_game(
    rules: RuleSet | None = None, players: int = 2, *, dealer: int = -1, max_turns: int = DEFAULT_MAX_TURNS
) -> PaiuteGame:
    """``pyspiel.load_game`` for ``rules`` and ``players`` (see :func:`game_parameters`)."""
    game: PaiuteGame = pyspiel.load_game(
        SHORT_NAME, game_parameters(rules, players, dealer=dealer, max_turns=max_turns)
    )
    return game


class PaiuteGame(pyspiel.Game):  # type: ignore[misc]
    """The game ``python_paiute``: one deal of Paiute (R2-R8) for ``players`` seats."""

    def __init__(self, params: Mapping[str, object] | None = None) -> None:
        settings = GameSettings.from_parameters(params or {})
        self.settings = settings
        low, high = settings.utility_bounds()
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=settings.rules.pack_size,
            num_players=settings.players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            max_game_length=settings.max_game_length(),
        )
        super().__init__(GAME_TYPE, info, {**PARAMETERS, **(params or {})})

    @property
    def rules(self) -> RuleSet:
        return self.settings.rules

    def new_initial_state(self) -> PaiuteState:
        """A deal before its first card: a chance node (R2.5)."""
        return PaiuteState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> PaiuteObserver:
        """An observer for ``iig_obs_type`` (default: the observation, without perfect recall)."""
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return PaiuteObserver(self.settings.rules, self.settings.players, iig_obs_type, params)


class PaiuteState(pyspiel.State):  # type: ignore[misc]
    """One deal in progress. Its only attribute is a :class:`~paiute.envs.openspiel_table.SpielTable`,
    which OpenSpiel's ``clone`` deep-copies cheaply and ``serialize`` pickles as the history
    (replayed on ``deserialize``: every chance outcome is in the history)."""

    def __init__(self, game: PaiuteGame) -> None:
        super().__init__(game)
        settings = game.settings
        self._table = SpielTable(settings.rules, settings.players, settings.dealer, settings.max_turns)

    # -- beyond OpenSpiel's API -----------------------------------------------------------------

    @property
    def table(self) -> SpielTable:
        """The deal with its chance bookkeeping."""
        return self._table

    def observation(self, player: int) -> Observation:
        """``player``'s view of the deal (R9) as :mod:`paiute.players` bots take it:
        ``make_player("ismcts").act(state.observation(state.current_player()))``."""
        deal = self._table.deal
        if deal is None:
            raise PaiuteError("the cards are still being dealt (R2.5): no observation yet")
        return deal.observation(player)

    # -- OpenSpiel's State API ------------------------------------------------------------------

    def current_player(self) -> int:
        table = self._table
        if table.is_terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        if table.is_chance:
            return int(pyspiel.PlayerId.CHANCE)
        return table.current_seat

    def _legal_actions(self, player: int) -> list[int]:
        return self._table.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._table.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._table.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self._table.action_text(action, chance=player == pyspiel.PlayerId.CHANCE)

    def is_terminal(self) -> bool:
        return self._table.is_terminal

    def returns(self) -> list[float]:
        return self._table.returns()

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> PaiuteState:
        """A state ``player_id`` cannot tell from this one, its hidden cards dealt anew
        (:meth:`SpielTable.resampled_actions <paiute.envs.openspiel_table.SpielTable.resampled_actions>`),
        reached by applying the new history to a new state, so that its history, information
        states and serialization agree. ``probability_sampler()`` gives floats in [0, 1)."""
        actions = self._table.resampled_actions(player_id, probability_sampler)
        state: PaiuteState = self.get_game().new_initial_state()
        for action in actions:
            state.apply_action(action)
        return state

    def __str__(self) -> str:
        return str(self._table)


class PlayerBot(pyspiel.Bot):  # type: ignore[misc]
    """One of our :mod:`paiute.players` as a ``pyspiel.Bot``, so that it plays in OpenSpiel's
    ``evaluate_bots``: it acts from the seat's :class:`Observation` alone (R9).

    >>> from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    >>> from paiute.players import make_player
    >>> import numpy as np
    >>> game = pyspiel.load_game("python_paiute(players=2)")
    >>> bots = [PlayerBot(make_player("greedy", seed=s)) for s in (1, 2)]
    >>> sum(evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0)))
    0.0
    """

    def __init__(self, player: Player) -> None:
        pyspiel.Bot.__init__(self)
        self.player = player

    def step(self, state: PaiuteState) -> int:
        return self.player.act(state.observation(state.current_player())).id

    def restart_at(self, state: PaiuteState) -> None:
        """Nothing to forget: the player reads each observation afresh."""

    def inform_action(self, state: PaiuteState, player_id: int, action: int) -> None:
        """Nothing to follow: the player reads each observation afresh."""


def _whole(values: Mapping[str, object], name: str) -> int:
    value = values[name]
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(f"bad {name} {value!r}: expected a whole number")
    return value


pyspiel.register_game(GAME_TYPE, PaiuteGame)
