"""Rule sets: the options of RULES.md and the two presets, validated once (R1-R8).

A :class:`RuleSet` is an immutable value. Build it from a preset name plus the options that
differ; every option is checked on creation and nothing is silently ignored.

>>> rules = RuleSet.from_preset("gamerules", royal_high=True)
>>> rules.open_discard, rules.royal_high, rules.paiute_any_turn
(True, True, True)
>>> rules.to_dict()
{'preset': 'gamerules', 'royal_high': True}
>>> RuleSet.from_preset("pagat", payouts="scale")
Traceback (most recent call last):
...
paiute.errors.RulesError: unknown option 'payouts' (options: jokers, max_players, upcard_under_stock, open_discard, wild_colour, reshuffle_keeps_top, max_rebuilds, paiute_any_turn, royal_high, payout, stake, ties, unit)
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from paiute.cards import CARDS, JOKERS, Card
from paiute.errors import N_, Message, RulesError

__all__ = [
    "DEFAULT_MAX_TURNS",
    "HAND_SIZE",
    "MAX_SEATS",
    "MIN_PLAYERS",
    "OPTIONS",
    "PRESETS",
    "Option",
    "RuleSet",
]

MIN_PLAYERS = 2
#: The most seats any table may have (R2.1: ``max_players`` is at most 8).
MAX_SEATS = 8
#: Turns without a call after which a program that needs a bounded deal (every learning
#: interface and the batch simulator) cuts it, settled as a dead deal (R8.5): R4.7 alone does
#: not make a deal finite (docs/rules.md, reading 14). Far beyond the length of a deal of random
#: play, and further beyond one of bots (docs/openspiel.md has the figures).
DEFAULT_MAX_TURNS = 1000
#: Cards that R4.6 says are always outside the hands.
_CARDS_OUTSIDE_HANDS = 3
#: Cards dealt to each hand (R2.5).
HAND_SIZE = 5


@dataclass(frozen=True)
class Option:
    """One option of RULES.md: its name, rule ID, default and allowed values."""

    name: str
    rule: str
    default: object
    kind: type
    choices: tuple[object, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""

    def check(self, value: object) -> object:
        """Return ``value`` if this option allows it, else raise :class:`RulesError`."""
        if self.kind is bool:
            ok = isinstance(value, bool)
        elif self.kind is int:
            ok = isinstance(value, int) and not isinstance(value, bool)
            if ok and self.minimum is not None and value < self.minimum:  # type: ignore[operator]
                ok = False
            if ok and self.maximum is not None and value > self.maximum:  # type: ignore[operator]
                ok = False
        else:
            ok = value in self.choices
        if not ok:
            raise RulesError(
                N_("bad value for option {name}: {value!r} ({allowed})"),
                name=self.name,
                value=value,
                allowed=self.allowed_message(),
            )
        return value

    def allowed(self) -> str:
        """What values the option takes, in English words."""
        return str(self.allowed_message())

    def allowed_message(self) -> Message:
        """What values the option takes, as a message to translate (paiute.i18n)."""
        if self.kind is bool:
            return Message(N_("true or false"))
        if self.kind is int:
            if self.maximum is not None:
                if self.minimum is None:
                    return Message(N_("a whole number up to {high}"), high=self.maximum)
                return Message(N_("a whole number {low}..{high}"), low=self.minimum, high=self.maximum)
            return Message(N_("a whole number >= {low}"), low=self.minimum)
        return Message(N_("one of {choices}"), choices=", ".join(str(choice) for choice in self.choices))


#: Every option of RULES.md, in the order RULES.md introduces them.
OPTIONS: tuple[Option, ...] = (
    Option("jokers", "R1.3", False, bool, help=N_("two jokers join the pack and are the only wild cards")),
    Option(
        "max_players",
        "R2.1",
        5,
        int,
        minimum=MIN_PLAYERS,
        maximum=MAX_SEATS,
        help=N_("most players at the table; 6 or more allows a Paiute on any turn"),
    ),
    Option(
        "upcard_under_stock",
        "R2.6",
        True,
        bool,
        help=N_("the upcard goes face up under the stock and is drawn last (off: out of play)"),
    ),
    Option(
        "open_discard",
        "R2.7",
        False,
        bool,
        help=N_("the top card of the stock is turned face up to start the discard pile"),
    ),
    Option(
        "wild_colour",
        "R3.3",
        "any",
        str,
        choices=("any", "opposite"),
        help=N_("which cards of the wild rank are wild: all, or the two of the other colour"),
    ),
    Option(
        "reshuffle_keeps_top",
        "R4.6",
        True,
        bool,
        help=N_("a rebuild leaves the top discard in place (off: the whole pile is shuffled)"),
    ),
    Option(
        "max_rebuilds",
        "R4.7",
        3,
        int,
        minimum=0,
        help=N_("stock rebuilds allowed before a call; one more ends the deal dead"),
    ),
    Option(
        "paiute_any_turn",
        "R5.7",
        False,
        bool,
        help=N_("a Paiute may be called on any turn, not only the first"),
    ),
    Option("royal_high", "R5.8", False, bool, help=N_("the Royal Flush ranks above Five of a Kind")),
    Option(
        "payout",
        "R8.2",
        "pot",
        str,
        choices=("pot", "scale"),
        help=N_("pot: the winner takes the stakes; scale: losers pay by combination (R8.4)"),
    ),
    Option("stake", "R8.2", 1, int, minimum=0, help=N_("chips each player pays into the pot per deal")),
    Option(
        "ties",
        "R8.3",
        "split",
        str,
        choices=("split", "first_call"),
        help=N_("tied winners split the pot, or the first of them to call takes it"),
    ),
    Option("unit", "R8.4", 25, int, minimum=0, help=N_("chips per unit of the scale payout")),
)
_OPTIONS_BY_NAME: dict[str, Option] = {option.name: option for option in OPTIONS}

#: The presets of RULES.md: the options in which each differs from the defaults.
PRESETS: dict[str, dict[str, object]] = {
    "pagat": {},
    "gamerules": {
        "upcard_under_stock": False,
        "open_discard": True,
        "reshuffle_keeps_top": False,
        "paiute_any_turn": True,
    },
}


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleSet:
    """An immutable, validated set of rule options (see :data:`OPTIONS` for each one)."""

    preset: str = "pagat"
    jokers: bool = False
    max_players: int = 5
    upcard_under_stock: bool = True
    open_discard: bool = False
    wild_colour: str = "any"
    reshuffle_keeps_top: bool = True
    max_rebuilds: int = 3
    paiute_any_turn: bool = False
    royal_high: bool = False
    payout: str = "pot"
    stake: int = 1
    ties: str = "split"
    unit: int = 25

    def __post_init__(self) -> None:
        if self.preset not in PRESETS:
            raise RulesError(
                N_("unknown preset {preset!r} (presets: {presets})"),
                preset=self.preset,
                presets=", ".join(PRESETS),
            )
        for option in OPTIONS:
            option.check(getattr(self, option.name))

    @classmethod
    def from_preset(cls, preset: str = "pagat", **options: object) -> RuleSet:
        """The preset's rules with ``options`` overriding it; unknown names are refused."""
        if preset not in PRESETS:
            raise RulesError(
                N_("unknown preset {preset!r} (presets: {presets})"),
                preset=preset,
                presets=", ".join(PRESETS),
            )
        for name in options:
            if name not in _OPTIONS_BY_NAME:
                raise RulesError(
                    N_("unknown option {name!r} (options: {options})"),
                    name=name,
                    options=", ".join(o.name for o in OPTIONS),
                )
        values: dict[str, Any] = {**PRESETS[preset], **options}
        return cls(preset=preset, **values)

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> RuleSet:
        """Build from the ``rules`` object of a record: ``{"preset": ..., option: value}``."""
        options = dict(data)
        preset = options.pop("preset", "pagat")
        if not isinstance(preset, str):
            raise RulesError(N_("bad preset {preset!r}: expected a name"), preset=preset)
        return cls.from_preset(preset, **options)

    @classmethod
    def parse_option(cls, text: str) -> tuple[str, object]:
        """Parse ``name=value`` text from a command line into a typed option.

        >>> RuleSet.parse_option("royal_high=yes"), RuleSet.parse_option("stake=5")
        (('royal_high', True), ('stake', 5))
        """
        name, sep, raw = text.partition("=")
        name = name.strip().replace("-", "_")
        option = _OPTIONS_BY_NAME.get(name)
        if not sep or option is None:
            raise RulesError(
                N_("bad option {text!r}: expected NAME=VALUE with NAME one of {options}"),
                text=text,
                options=", ".join(o.name for o in OPTIONS),
            )
        raw = raw.strip()
        value: object = raw
        if option.kind is bool:
            lowered = raw.lower()
            if lowered in ("1", "true", "yes", "on"):
                value = True
            elif lowered in ("0", "false", "no", "off"):
                value = False
        elif option.kind is int:
            with contextlib.suppress(ValueError):
                value = int(raw)
        option.check(value)
        return name, value

    def to_dict(self) -> dict[str, object]:
        """The preset name and the options that differ from it, as a record writes them."""
        base = PRESETS[self.preset]
        result: dict[str, object] = {"preset": self.preset}
        for option in OPTIONS:
            value = getattr(self, option.name)
            if value != base.get(option.name, option.default):
                result[option.name] = value
        return result

    def options(self) -> dict[str, object]:
        """Every option with its value."""
        return {option.name: getattr(self, option.name) for option in OPTIONS}

    def replace(self, **options: object) -> RuleSet:
        """A copy with some options changed (validated like a new rule set)."""
        for name in options:
            if name not in _OPTIONS_BY_NAME:
                raise RulesError(N_("unknown option {name!r}"), name=name)
        return dataclasses.replace(self, **options)  # type: ignore[arg-type]

    # -- what the options imply ------------------------------------------------------------

    @property
    def pack_size(self) -> int:
        """52 cards, or 54 with jokers (R1.3)."""
        return 54 if self.jokers else 52

    def check_players(self, players: int) -> None:
        """Refuse a table of ``players`` that these rules do not allow (R2.1, R4.6)."""
        if not MIN_PLAYERS <= players <= self.max_players:
            raise RulesError(
                N_(
                    "R2.1 {players} players: these rules allow {low} to {high} (raise max_players, at most {most}, for more)"
                ),
                players=players,
                low=MIN_PLAYERS,
                high=self.max_players,
                most=MAX_SEATS,
            )
        needed = players * HAND_SIZE + 1 + _CARDS_OUTSIDE_HANDS
        if needed > self.pack_size:
            raise RulesError(
                N_("R4.6 a pack of {size} cards is too small for {players} players"),
                size=self.pack_size,
                players=players,
            )

    def paiute_allowed_any_turn(self, players: int) -> bool:
        """R5.7 and R2.1: a Paiute on any turn by option, or always with 6+ players."""
        return self.paiute_any_turn or players >= 6

    def wild_cards(self, upcard: Card | None) -> frozenset[Card]:
        """The wild cards of a deal whose upcard is ``upcard`` (R3).

        >>> rules = RuleSet(wild_colour="opposite")
        >>> sorted(str(card) for card in rules.wild_cards(Card.parse("3d")))
        ['3c', '3s']
        """
        if self.jokers:
            return frozenset(JOKERS)  # R3.2
        if upcard is None or upcard.is_joker:
            raise RulesError(N_("R3.1 without jokers the wild rank comes from an upcard"))
        base = (upcard // 4) * 4
        rank_cards = CARDS[base : base + 4]
        if self.wild_colour == "opposite":  # R3.3
            return frozenset(card for card in rank_cards if card.is_red != upcard.is_red)
        return frozenset(rank_cards)  # R3.1

    def describe(self) -> list[tuple[str, str, object, str]]:
        """Rows of (option, rule ID, value, help) for printing."""
        return [(option.name, option.rule, getattr(self, option.name), option.help) for option in OPTIONS]
