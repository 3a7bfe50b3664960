"""The lesson's script: one prepared deal, its steps and each step's check, with no words.

``paiute learn`` (:mod:`paiute.tui.lesson`) and the web room's "Learn to play"
(:mod:`paiute.server.lesson`) teach the same deal. The person (seat 0, the dealer) plays
against two ``greedy`` bots, Lani and Kai; the pack order is fixed (:data:`LESSON_PACK`) and
the bots are seeded, so the engine plays the same deal every time and every step happens: the
person reads the wild card (R3), draws from the stock, takes a card from the discard pile and
tries to throw it straight back, which the engine refuses (R4.3), discards, sees Lani call and
the last round begin (R7.2), draws, finds the hand's best combination (R5) and calls it,
beating Lani's call (R6.4), and sees the result (R8.1, R9.3). Nothing is faked: every card
comes from :class:`~paiute.deal.Deal` dealing that pack, and every refusal is the engine's own
(:meth:`~paiute.deal.Deal.why_illegal`).

An interface keeps the current :class:`Step` and the deal, and hands each input of the person
to a check (:func:`check_proceed`, :func:`check_answer`, :func:`check_action`,
:func:`check_combinations`). The :class:`Check` it gets back says what the coach answers (a
:class:`Say`, with the cards it names), whether the lesson goes on to :func:`next_step`, and
the engine action to play first; only the step's own input goes on, anything else changes
nothing. Once the action is played, :func:`played` says what the coach answers to it. Each
interface words a :class:`Say` its own way (keys at a terminal, clicks in a browser) in the
reader's language. While a step is not :func:`ready`, the bots play.

>>> from paiute.cards import Card
>>> deal = lesson_deal()
>>> check_proceed(Step.WELCOME, deal)
Check(says=<Say.GO_ON: 'go_on'>, advance=True, play=None, error=None, card=None, other=None)
>>> ready(Step.WILD, deal), deal.current_seat  # Lani plays first: the bots move until seat 0's turn
(False, 1)
>>> check_answer(Step.WILD, deal, Card.parse("7h")).says  # not yet: the bots are playing
<Say.PLAYING: 'playing'>
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from paiute.actions import DRAW_DISCARD, DRAW_STOCK, Action, ActionKind
from paiute.cards import Card, parse_cards
from paiute.chance import SeededChance, derive_seed
from paiute.combos import Category, Value
from paiute.deal import Deal
from paiute.errors import IllegalActionError
from paiute.evaluator import Call, Evaluator
from paiute.events import CallMade
from paiute.observation import Observation, legal_calls
from paiute.rules import RuleSet

__all__ = [
    "BOT_NAMES",
    "DISCARDING",
    "FIRST_DISCARD",
    "LESSON_BOT",
    "LESSON_CHIPS",
    "LESSON_PACK",
    "LESSON_SEATS",
    "LESSON_SEED",
    "PROCEED",
    "SECOND_DISCARD",
    "WARNINGS",
    "YOU",
    "Check",
    "Ranks",
    "Say",
    "Step",
    "best_call",
    "bot_seed",
    "called_value",
    "caller",
    "check_action",
    "check_answer",
    "check_combinations",
    "check_proceed",
    "discarder",
    "hint",
    "lesson_deal",
    "next_step",
    "pair_for",
    "pile_top",
    "played",
    "ranks",
    "ready",
    "taken",
    "to_move",
]

#: The prepared pack, top card first (R2.5: dealt one at a time from the dealer's left, seat 1).
#: You (seat 0, the dealer) are dealt 2c 7h 9h Qc Kd; Lani (seat 1) Jc Jh 5s 5d 3c; Kai (seat 2)
#: 9s Ts 7d 6s Kh. The upcard 7c makes the sevens wild (R2.6, R3.1); the stock's top cards are
#: 8d 6d Qd Jd Th 5c 5h Qs. With the bots seeded, the engine plays: Lani and Kai draw and
#: discard; you draw Qd and discard 2c; Kai discards 9s, which you take, try to throw back
#: (R4.3) and keep, discarding Kd; Lani draws 5c and calls Three/Three, jacks over fives; Kai has
#: its last turn (R7.2); you draw Qs and call Four/Two, queens over nines (the wild 7h a queen),
#: which beats Lani's call (R6.4) and wins the pot (R8.1). tests/test_lesson.py plays it through.
LESSON_PACK: tuple[Card, ...] = tuple(
    parse_cards(
        "Jc 9s 2c Jh Ts 7h 5s 7d 9h 5d 6s Qc 3c Kh Kd 7c 8d 6d Qd Jd Th 5c 5h Qs Ah 9c Ad As 6h Ac "
        "Td 2h Tc 4d 4s 9d 8c Kc Js 4c 3s 8h 4h 7s 2s 8s 3d 3h Qh 2d 6c Ks"
    )
)
#: The bots' names, seats 1 and 2 (the person's is the interface's).
BOT_NAMES = ("Lani", "Kai")
LESSON_SEATS = 1 + len(BOT_NAMES)
#: The bots' player spec and the seed their tie-breaks come from (the deal is built so that no
#: tie decides it: any seed plays the same deal).
LESSON_BOT = "greedy"
LESSON_SEED = 1
#: Each seat's chips at the start.
LESSON_CHIPS = 100
#: The person's seat, who deals: it plays last in every round, the last round included (R7.2).
YOU = 0
#: The cards the lesson asks the person to discard, in order (each fits nothing in the hand).
FIRST_DISCARD = Card.parse("2c")
SECOND_DISCARD = Card.parse("Kd")


class Step(enum.Enum):
    """The steps of the lesson, in order."""

    WELCOME = "welcome"
    WILD = "wild"  # R3: which card is wild
    DRAW = "draw"  # R4.2: a draw from the stock
    DISCARD = "discard"  # R4.2: a discard
    TAKE = "take"  # R4.2: a draw from the discard pile
    TRY_TAKEN = "try_taken"  # R4.3: the card taken may not go back
    DISCARD_OTHER = "discard_other"
    LAST_ROUND = "last_round"  # R7.2: a bot has called
    LAST_DRAW = "last_draw"
    COMBINATIONS = "combinations"  # R5: the hand's best combination, and where it ranks
    CALL = "call"  # R6, R6.4
    RESULT = "result"  # R7.3, R8.1, R9.3
    DONE = "done"


#: The steps that are read, then gone on from (Enter, a button).
PROCEED = frozenset({Step.WELCOME, Step.LAST_ROUND, Step.RESULT, Step.DONE})
#: The steps at which the person holds six cards and discards (or calls).
DISCARDING = frozenset({Step.DISCARD, Step.TRY_TAKEN, Step.DISCARD_OTHER, Step.COMBINATIONS, Step.CALL})
_STEPS = list(Step)


class Say(enum.Enum):
    """What the coach answers to an input; each interface has its words for each."""

    HINT = "hint"  # the input does not fit the step: its short instruction
    PLAYING = "playing"  # the bots are playing: the step comes after them
    REFUSED = "refused"  # the engine refuses the action (the check's error, with its rule)
    GO_ON = "go_on"  # a step that is read is gone on from
    NOT_WILD = "not_wild"  # the card answered is not wild (card)
    WILD = "wild"  # right: the card answered is wild (card)
    TAKE_THIS_TIME = "take_this_time"  # take the pile's top card, not the stock's (card)
    STOCK_THIS_TIME = "stock_this_time"  # draw from the stock this time, not the pile
    TOOK = "took"  # the pile's top card taken (card)
    DREW = "drew"  # a card drawn from the stock (card)
    DREW_PAIR = "drew_pair"  # a card drawn that pairs one of the hand (card, other: the pair)
    TRY_TAKEN_FIRST = "try_taken_first"  # first try to throw back the card taken (card)
    NO_DISCARD_NOW = "no_discard_now"  # do not discard: the hand can call
    KEEP = "keep"  # keep this card (card), discard the step's one (other)
    DISCARDED = "discarded"  # the step's card discarded (card)
    RANKS = "ranks"  # where the hand's combination ranks, and the caller's (ranks)
    RANK_FIRST = "rank_first"  # see where the combination ranks before calling
    BEST_CALL = "best_call"  # call the best call, not another
    CALLED = "called"  # the call made (its value: the caller's, played)


#: The answers that warn: the input was not the step's own (or the engine refused it).
WARNINGS = frozenset(
    {
        Say.HINT,
        Say.REFUSED,
        Say.NOT_WILD,
        Say.TAKE_THIS_TIME,
        Say.STOCK_THIS_TIME,
        Say.TRY_TAKEN_FIRST,
        Say.NO_DISCARD_NOW,
        Say.KEEP,
        Say.RANK_FIRST,
        Say.BEST_CALL,
    }
)


@dataclass(frozen=True, slots=True)
class Check:
    """The lesson's answer to one input: what the coach says (with the cards it names),
    whether the lesson goes on (``advance``) and the engine action to play first (``play``:
    the step's own action). ``error`` is the engine's refusal when it says
    :attr:`Say.REFUSED`: at :attr:`Step.TRY_TAKEN` the refusal of R4.3 is the step's own
    answer, and the lesson goes on with nothing played."""

    says: Say
    advance: bool = False
    play: Action | None = None
    error: IllegalActionError | None = None
    card: Card | None = None
    other: Card | None = None

    @property
    def warning(self) -> bool:
        """Whether the answer warns (a hint, a refusal): the input was not the step's own."""
        return self.says in WARNINGS


@dataclass(frozen=True, slots=True)
class Ranks:
    """Where the person's best combination and the caller's rank among the six (R5), from 1."""

    mine: Category
    mine_place: int
    caller: int
    theirs: Category
    theirs_place: int
    order: tuple[Category, ...]  # the six, best first


# -- the deal -------------------------------------------------------------------------------------


def lesson_deal() -> Deal:
    """The prepared deal, dealt from :data:`LESSON_PACK` with seat 0 the dealer (no stakes)."""
    return Deal(RuleSet(), LESSON_SEATS, YOU, LESSON_PACK, SeededChance(LESSON_SEED))


def bot_seed(seat: int) -> int:
    """The seed of the bot at ``seat`` (its tie-breaks): the one ``paiute play`` seeded with
    :data:`LESSON_SEED` gives that bot in its first deal (paiute.tui.session), so every
    interface plays the lesson move for move alike."""
    return derive_seed("paiute-play", LESSON_SEED, "bot", seat, 0, separator=":")


def next_step(step: Step) -> Step:
    """The step after ``step`` (:attr:`Step.DONE` is the last)."""
    return _STEPS[min(_STEPS.index(step) + 1, len(_STEPS) - 1)]


def _current(deal: Deal) -> int | None:
    """The seat to act, None once the deal is over."""
    return None if deal.is_over else deal.current_seat


def ready(step: Step, deal: Deal) -> bool:
    """Whether ``step`` can be taken now; until then the bots play."""
    if step in (Step.WILD, Step.TAKE, Step.LAST_DRAW):
        return _current(deal) == YOU
    if step is Step.LAST_ROUND:
        return bool(deal.calls)
    if step is Step.RESULT:
        return deal.is_over
    return True


def to_move(step: Step, deal: Deal) -> bool:
    """Whether a bot is to act before ``step`` can be taken (the person never is)."""
    seat = _current(deal)
    return not ready(step, deal) and seat is not None and seat != YOU


# -- the facts the coach names ---------------------------------------------------------------------


def _you(deal: Deal) -> Observation:
    return deal.observation(YOU)


def pile_top(obs: Observation) -> Card:
    """The discard pile's top card."""
    return obs.discard_pile[-1]


def discarder(obs: Observation) -> int:
    """The seat whose action was the last one (at :attr:`Step.TAKE`: who discarded the top card)."""
    return obs.history[-1].seat


def taken(obs: Observation) -> Card:
    """The card the person took from the discard pile this turn (R4.3)."""
    card = obs.taken_card
    assert card is not None, "no card was taken from the discard pile this turn"
    return card


def pair_for(hand: tuple[Card, ...] | list[Card], card: Card) -> Card | None:
    """A card of ``hand`` of ``card``'s rank (not ``card`` itself)."""
    return next((other for other in hand if other.rank == card.rank and other != card), None)


def caller(obs: Observation) -> CallMade:
    """The first call of the deal (a bot's: it starts the last round, R7.2)."""
    return obs.calls[0]


def best_call(obs: Observation) -> Call:
    """The person's best legal call (R6): the one the lesson asks for."""
    return legal_calls(obs, Evaluator(obs.wild_cards, royal_high=obs.rules.royal_high))[0]


def ranks(obs: Observation) -> Ranks:
    """Where the person's best combination and the caller's rank, best first (R5, R5.8)."""
    royal_high = obs.rules.royal_high
    order = tuple(sorted(Category, key=lambda category: category.order(royal_high), reverse=True))
    mine = best_call(obs).value.category
    call = caller(obs)
    theirs = call.value.category
    return Ranks(mine, order.index(mine) + 1, call.seat, theirs, order.index(theirs) + 1, order)


# -- the checks ----------------------------------------------------------------------------------------


def hint(step: Step, deal: Deal) -> Check:
    """The input does not fit: the step's instruction (or, before it, that the bots play)."""
    return Check(Say.HINT if ready(step, deal) else Say.PLAYING)


def _refused(error: IllegalActionError, *, advance: bool = False) -> Check:
    return Check(Say.REFUSED, advance=advance, error=error)


def check_proceed(step: Step, deal: Deal) -> Check:
    """Going on (Enter, a button): only from a step that is read, once it is ready."""
    if step in PROCEED and ready(step, deal):
        return Check(Say.GO_ON, advance=True)
    return hint(step, deal)


def check_answer(step: Step, deal: Deal, card: Card | None) -> Check:
    """A card of the hand chosen at :attr:`Step.WILD` (None: no such card): is it wild (R3)?"""
    if step is not Step.WILD or not ready(step, deal):
        return hint(step, deal)
    obs = _you(deal)
    if card is None or card not in obs.hand:
        return hint(step, deal)
    if card not in obs.wild_cards:
        return Check(Say.NOT_WILD, card=card)
    return Check(Say.WILD, advance=True, card=card)


def check_combinations(step: Step, deal: Deal) -> Check | None:
    """The person looks at the six combinations: at :attr:`Step.COMBINATIONS` the lesson goes
    on, saying where the hand's combination ranks; elsewhere nothing is said (None)."""
    if step is not Step.COMBINATIONS:
        return None
    return Check(Say.RANKS, advance=True)


def check_action(step: Step, deal: Deal, action: Action) -> Check:
    """A draw, discard or call of the person; the engine refuses what a rule forbids."""
    if action.kind.is_draw:
        return _check_draw(step, deal, action)
    if action.kind is ActionKind.DISCARD:
        assert action.card is not None
        return _check_discard(step, deal, action.card)
    return _check_call(step, deal, action)


def _check_draw(step: Step, deal: Deal, action: Action) -> Check:
    wanted = {Step.DRAW: DRAW_STOCK, Step.LAST_DRAW: DRAW_STOCK, Step.TAKE: DRAW_DISCARD}.get(step)
    if wanted is None or not ready(step, deal):
        error = deal.why_illegal(action) if _current(deal) == YOU and step in DISCARDING else None
        return _refused(error) if error is not None else hint(step, deal)
    if action != wanted:
        if wanted is DRAW_DISCARD:
            return Check(Say.TAKE_THIS_TIME, card=pile_top(_you(deal)))
        if step is Step.DRAW:
            return Check(Say.STOCK_THIS_TIME)
        return hint(step, deal)
    return Check(Say.GO_ON, advance=True, play=action)


def _check_discard(step: Step, deal: Deal, card: Card) -> Check:
    action = Action.discard(card)
    mine = _current(deal) == YOU
    if step not in DISCARDING or not mine:
        error = deal.why_illegal(action) if mine else None
        return _refused(error) if error is not None and ready(step, deal) else hint(step, deal)
    error = deal.why_illegal(action)
    if step is Step.TRY_TAKEN and error is not None and error.rule == "R4.3":
        return _refused(error, advance=True)  # the engine's refusal is the step's answer
    if error is not None:
        return _refused(error)
    if step is Step.TRY_TAKEN:
        return Check(Say.TRY_TAKEN_FIRST, card=taken(_you(deal)))
    target = {Step.DISCARD: FIRST_DISCARD, Step.DISCARD_OTHER: SECOND_DISCARD}.get(step)
    if target is None:
        return Check(Say.NO_DISCARD_NOW)
    if card != target:
        return Check(Say.KEEP, card=card, other=target)
    return Check(Say.GO_ON, advance=True, play=action)


def _check_call(step: Step, deal: Deal, action: Action) -> Check:
    error = deal.why_illegal(action) if _current(deal) == YOU and ready(step, deal) else None
    if step is not Step.CALL:
        if step is Step.COMBINATIONS and error is None:
            return Check(Say.RANK_FIRST)
        return _refused(error) if error is not None else hint(step, deal)
    if error is not None:
        return _refused(error)
    if action != Action.call(best_call(_you(deal)).discard):
        return Check(Say.BEST_CALL)
    return Check(Say.GO_ON, advance=True, play=action)


def played(step: Step, deal: Deal) -> Check:
    """What the coach says once the step's own action (a check's ``play``) is played on
    ``deal``: the card taken, drawn (and the pair it makes) or discarded, or the call made."""
    obs = _you(deal)
    last = obs.history[-1]
    assert last.seat == YOU, "the person's action is the deal's last"
    if step is Step.TAKE:
        return Check(Say.TOOK, advance=True, card=taken(obs))
    if last.action.kind.is_draw:
        assert last.card is not None  # the person sees the card it drew (R4.5, R9)
        pair = pair_for(obs.hand, last.card)
        if pair is not None:
            return Check(Say.DREW_PAIR, advance=True, card=last.card, other=pair)
        return Check(Say.DREW, advance=True, card=last.card)
    if last.action.kind is ActionKind.DISCARD:
        return Check(Say.DISCARDED, advance=True, card=last.action.card)
    return Check(Say.CALLED, advance=True)


def called_value(obs: Observation) -> Value:
    """The value of the person's call (after :attr:`Say.CALLED`)."""
    return next(call.value for call in obs.calls if call.seat == YOU)
