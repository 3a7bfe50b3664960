"""paiute: the rules engine, evaluator and records of Paiute, the Hawaiian draw-and-discard game.

>>> from paiute import Evaluator, parse_cards
>>> print(Evaluator.for_rank("3").best(parse_cards("3h 3s Ad Ac Ks Kh")).value)
Four/Two, aces over kings
"""

from paiute.actions import ACTIONS, CALL_SIX, DRAW_DISCARD, DRAW_STOCK, NUM_ACTIONS, Action, ActionKind
from paiute.cards import CARDS, JOKERS, Card, Rank, Suit, format_cards, pack, parse_cards
from paiute.chance import Chance, RecordedChance, SecureChance, SeededChance
from paiute.combos import Category, Value
from paiute.deal import CallMade, Deal, Event, Outcome, Phase
from paiute.errors import IllegalActionError, PaiuteError, ParseError, RecordError, RulesError
from paiute.evaluator import Call, Evaluator
from paiute.match import DealResult, Match
from paiute.observation import Observation
from paiute.record import FORMAT, DealRecord, DealReport, Record, Replay, ReplayError
from paiute.rules import OPTIONS, PRESETS, RuleSet

__version__ = "0.1.0"

__all__ = [
    "ACTIONS",
    "CALL_SIX",
    "CARDS",
    "DRAW_DISCARD",
    "DRAW_STOCK",
    "FORMAT",
    "JOKERS",
    "NUM_ACTIONS",
    "OPTIONS",
    "PRESETS",
    "Action",
    "ActionKind",
    "Call",
    "CallMade",
    "Card",
    "Category",
    "Chance",
    "Deal",
    "DealRecord",
    "DealReport",
    "DealResult",
    "Evaluator",
    "Event",
    "IllegalActionError",
    "Match",
    "Observation",
    "Outcome",
    "PaiuteError",
    "ParseError",
    "Phase",
    "Rank",
    "Record",
    "RecordError",
    "RecordedChance",
    "Replay",
    "ReplayError",
    "RuleSet",
    "RulesError",
    "SecureChance",
    "SeededChance",
    "Suit",
    "Value",
    "format_cards",
    "pack",
    "parse_cards",
]
