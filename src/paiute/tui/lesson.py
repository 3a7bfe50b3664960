"""``paiute learn``: a guided first deal, with no user interface of its own.

The lesson is one prepared deal at a table of three: the person (the dealer) against two
``greedy`` bots, Lani and Kai. Its script, the deal, the steps and each step's check, is
:mod:`paiute.analysis.lesson`'s, which the web room's "Learn to play" plays too; this module
gives it the terminal's words: the coach's, in the reader's language, with the keys to press.

A :class:`Lesson` is a state machine of :class:`Step`\\ s. A user interface (the full-screen
:mod:`paiute.tui.lesson_app`, the line-based :mod:`paiute.tui.lesson_plain`) shows the table
from the person's observation (R9), the coach's words for the current step (:meth:`Lesson.coach`)
and hands the person's input to the lesson, which checks it and answers with a :class:`Reply`;
only the step's own action goes on (and is played), anything else gets a gentle hint and
changes nothing. Between the person's turns the UI moves the bots one action at a time
(:meth:`Lesson.bot_to_move`, :meth:`Lesson.move_bot`).

>>> from paiute.actions import DRAW_STOCK
>>> lesson = Lesson()
>>> lesson.step, lesson.ready()
(<Step.WELCOME: 'welcome'>, True)
>>> lesson.draw(DRAW_STOCK).text
'Press Enter to begin.'
>>> lesson.proceed().advanced, lesson.step, lesson.ready()
(True, <Step.WILD: 'wild'>, False)
>>> while lesson.bot_to_move():
...     _ = lesson.move_bot()
>>> [describe.card_text(card) for card in lesson.hand()]
['2c', '7h', '9h', 'Qc', 'Kd']
>>> lesson.answer(3).text
'9♥ is not wild: look for the card marked *.'
>>> lesson.answer(2).advanced
True

The first time ``paiute play`` starts it offers the lesson once (:func:`lesson_offered`,
:func:`remember_lesson`): a small file in the user's data directory, where matches are saved,
remembers that it was offered.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from paiute.actions import Action
from paiute.analysis import lesson as script
from paiute.analysis.lesson import (
    BOT_NAMES,
    FIRST_DISCARD,
    LESSON_BOT,
    LESSON_CHIPS,
    LESSON_PACK,
    LESSON_SEED,
    SECOND_DISCARD,
    YOU,
    Check,
    Say,
    Step,
)
from paiute.cards import Card
from paiute.chance import SeededChance
from paiute.combos import Value
from paiute.deal import Deal, Event
from paiute.errors import N_, IllegalActionError
from paiute.i18n import Translator, translator
from paiute.match import Match
from paiute.observation import Observation
from paiute.rules import RuleSet
from paiute.tui import describe
from paiute.tui.session import PlayConfig, SeatSpec, Session

__all__ = [
    "LESSON_DELAY",
    "LESSON_FILE",
    "LESSON_NAMES",
    "LESSON_PACK",
    "NO_LESSON_ENV",
    "OFFER",
    "Lesson",
    "Reply",
    "Step",
    "lesson_offered",
    "lesson_turned_off",
    "remember_lesson",
]

#: The seats: the person (the default name, shown in the reader's language) and two bots.
LESSON_NAMES = (describe.DEFAULT_NAME, *BOT_NAMES)

#: Pause after each bot action in the full-screen lesson, seconds: time to see each one.
LESSON_DELAY = 0.8

#: The first run's offer, one line (``paiute play``).
OFFER = N_("New to Paiute? Press L for a five-minute lesson, Enter to play")
#: The file in the data directory that remembers the offer was made.
LESSON_FILE = "lesson.json"
LESSON_FORMAT = "paiute-lesson/1"
#: An environment variable that, set to anything but 0 or empty, turns the offer off (scripts).
NO_LESSON_ENV = "PAIUTE_NO_LESSON"


@dataclass(frozen=True, slots=True)
class Reply:
    """The lesson's answer to an input: words for the person, whether they warn (a refusal or
    a hint), and whether the lesson went on to its next step."""

    text: str
    warning: bool = False
    advanced: bool = False


def lesson_session() -> Session:
    """The prepared deal, dealt: the bots seeded, nothing saved (see :data:`LESSON_PACK`)."""
    rules = RuleSet()
    seats = (SeatSpec(LESSON_NAMES[0]), *(SeatSpec(name, LESSON_BOT) for name in LESSON_NAMES[1:]))
    config = PlayConfig(rules, seats, seed=LESSON_SEED, chips=LESSON_CHIPS)
    match = Match(
        rules,
        config.names,
        balances=[config.chips] * len(seats),
        chance=SeededChance(LESSON_SEED),
        dealer=YOU,
    )
    session = Session(config, match=match)
    match.start_deal(LESSON_PACK)
    return session


class Lesson:
    """The guided deal in progress (see the module documentation).

    ``plain`` words the steps for the line mode (``x 1`` is typed, not chosen with a key);
    ``then_play`` says at the end that a game starts next (the lesson was chosen at the first
    run of ``paiute play``).
    """

    def __init__(self, tr: Translator | None = None, *, plain: bool = False, then_play: bool = False) -> None:
        self.tr = tr or translator()
        self.plain = plain
        self.then_play = then_play
        self.session = lesson_session()
        self.step = Step.WELCOME
        #: The person has gone through the last step.
        self.finished = False
        #: The seat names as shown (the person's in the reader's language).
        self.names = describe.person_names(self.session.names, self.tr)

    # -- the table --------------------------------------------------------------------------

    def observation(self) -> Observation:
        """What the person may see now (R9)."""
        return self.session.observation(YOU)

    def hand(self) -> list[Card]:
        """The person's cards as the screen numbers them (from 1)."""
        return describe.hand_order(self.observation())

    def number(self, card: Card) -> int:
        """The number the screen gives ``card`` in the person's hand."""
        return self.hand().index(card) + 1

    @property
    def deal(self) -> Deal:
        """The prepared deal (for the script's checks, never for drawing a screen)."""
        deal = self.session.deal
        assert deal is not None
        return deal

    def ready(self) -> bool:
        """Whether the current step can be taken now; until then the bots play."""
        return script.ready(self.step, self.deal)

    def bot_to_move(self) -> bool:
        """A bot is to act before the current step can be taken."""
        return script.to_move(self.step, self.deal)

    def move_bot(self) -> Event:
        """Play the next bot action (it sees only its own observation, R9)."""
        return self.session.apply(self.session.bot_action())

    def playing(self) -> str:
        """Words for the moments the bots play."""
        seat = self.session.current
        who = self.names[seat] if seat is not None else ""
        return self.tr.gettext(N_("{who} is playing..."), who=who)

    # -- the coach's words ------------------------------------------------------------------

    def _card(self, card: Card) -> str:
        """A card as the screen writes it: ``2♣`` full screen, ``2c`` in the line mode."""
        return describe.card_text(card, self.observation().wild_cards, pretty=not self.plain, tr=self.tr)

    def _taken(self) -> Card:
        """The card the person took from the discard pile this turn (R4.3)."""
        return script.taken(self.observation())

    def _pile_top(self) -> Card:
        return script.pile_top(self.observation())

    def _pair_for(self, card: Card) -> Card | None:
        """A card of the person's hand of ``card``'s rank (not ``card`` itself)."""
        return script.pair_for(self.hand(), card)

    def _caller(self) -> tuple[str, Value]:
        call = script.caller(self.observation())
        return self.names[call.seat], call.value

    def _best_call(self) -> describe.CallOption:
        return describe.call_options(self.observation())[0]

    def _discard_text(self, card: Card) -> str:
        """How to discard ``card``: with the keys, or as typed in the line mode."""
        if self.plain:
            return self.tr.gettext(
                N_("type x {n} (or x {card})"), n=str(self.number(card)), card=self._card(card)
            )
        return self.tr.gettext(N_("choose it (number {n}) and press x"), n=str(self.number(card)))

    def coach(self) -> str:
        """What the coach says at the current step (once it is :meth:`ready`)."""
        tr = self.tr
        step = self.step
        if step is Step.WELCOME:
            return tr.gettext(
                N_(
                    "Welcome! You play one prepared deal against two bots, Lani and Kai: about five "
                    "minutes. The goal: make a winning combination of five or six cards and call it; "
                    "the best call wins the pot. I will ask you to do each thing once. Press Enter to "
                    "begin (? help, q leave)."
                )
            )
        if step is Step.WILD:
            obs = self.observation()
            assert obs.upcard is not None
            assert obs.upcard.rank is not None
            return tr.gettext(
                N_(
                    "The upcard {upcard} lies face up under the stock: its rank is wild, so all "
                    "{ranks} are wild cards, marked * (R3). A wild card stands for any card you need. "
                    "One of your cards is wild: press its number."
                ),
                upcard=self._card(obs.upcard),
                ranks=tr.rank_plural(obs.upcard.rank),
            )
        if step is Step.DRAW:
            return tr.gettext(
                N_(
                    "Your turn. Every turn starts with a draw: the top card of the stock (s) or of "
                    "the discard pile (d) (R4.2). Draw from the stock now: press s."
                )
            )
        if step is Step.DISCARD:
            return tr.gettext(
                N_(
                    "You hold six cards: end your turn by discarding one, face up on the discard "
                    "pile (R4.2). {card} fits nothing in your hand: {how}."
                ),
                card=self._card(FIRST_DISCARD),
                how=self._discard_text(FIRST_DISCARD),
            )
        if step is Step.TAKE:
            top = self._pile_top()
            who = self.names[script.discarder(self.observation())]
            pair = self._pair_for(top)
            assert pair is not None
            return tr.gettext(
                N_(
                    "{who} discarded {card}. With your {pair} it makes a pair: take it from the "
                    "discard pile. Press d."
                ),
                who=who,
                card=self._card(top),
                pair=self._card(pair),
            )
        if step is Step.TRY_TAKEN:
            taken = self._taken()
            return tr.gettext(
                N_("Now try to throw {card} straight back: {how}. Go on, see what the rules say."),
                card=self._card(taken),
                how=self._discard_text(taken),
            )
        if step is Step.DISCARD_OTHER:
            text = (
                N_(
                    "That is rule R4.3: a card taken from the discard pile stays in your hand for the "
                    "rest of the turn. Now discard {card}, which does not fit: {how}."
                )
                if self.plain
                else N_(
                    "That is rule R4.3: a card taken from the discard pile stays in your hand for the "
                    'rest of the turn (it is dimmed and marked "no"). Now discard {card}, which does '
                    "not fit: {how}."
                )
            )
            return tr.gettext(text, card=self._card(SECOND_DISCARD), how=self._discard_text(SECOND_DISCARD))
        if step is Step.LAST_ROUND:
            who, value = self._caller()
            return tr.gettext(
                N_(
                    "{who} called {value}! A call starts the last round (R7.2): every player after "
                    "the caller, up to the dealer, has one more turn. You are the dealer ({mark}), "
                    "so you play last. To win you must call a combination that equals or beats "
                    "{value} (R6.4). Press Enter."
                ),
                who=who,
                value=value,
                mark=tr.pgettext("dealer mark", "D"),
            )
        if step is Step.LAST_DRAW:
            return tr.gettext(N_("Your last turn: press s to draw from the stock."))
        if step is Step.COMBINATIONS:
            best = self._best_call()
            return tr.gettext(
                N_(
                    "Your six cards make a winning combination: {call}. The wild card stands for "
                    "the card you lack (R3.4). Press w to see the six combinations, best first, and "
                    "where yours ranks."
                ),
                call=best.text(self.observation().wild_cards, pretty=not self.plain, tr=tr),
            )
        if step is Step.CALL:
            if self.plain:
                return tr.gettext(N_("Call it now: type c for the best call."))
            return tr.gettext(N_("Call it now: press c, then Enter for the best call (the first line)."))
        if step is Step.RESULT:
            return self._result()
        if self.then_play:
            return tr.gettext(
                N_(
                    "That is Paiute: draw, discard, call, and the last round. Press Enter to start "
                    "your first real game."
                )
            )
        return tr.gettext(
            N_(
                "That is Paiute: draw, discard, call, and the last round. Press Enter to leave the "
                "lesson; a real game starts with: paiute play"
            )
        )

    def _result(self) -> str:
        tr = self.tr
        obs = self.observation()
        outcome = obs.outcome
        assert outcome is not None
        winners = ", ".join(self.names[seat] for seat in outcome.winners)
        if outcome.winners == (YOU,):
            won = tr.ngettext("You won the pot of {n} chip!", "You won the pot of {n} chips!", obs.pot)
        else:
            won = tr.gettext(N_("{who} won the pot."), who=winners)
        explained = tr.gettext(
            N_(
                "The deal ended after the dealer's turn (R7.3). Only players who call can win, and "
                "the highest call takes the pot (R8.1). Now every hand is shown (R9.3). Press Enter."
            )
        )
        return f"{won} {explained}"

    def hint(self) -> Reply:
        """The current step's instruction, short: the answer to an input that does not fit."""
        tr = self.tr
        step = self.step
        if not self.ready():
            return Reply(self.playing())
        if step is Step.WELCOME:
            text = tr.gettext(N_("Press Enter to begin."))
        elif step is Step.WILD:
            text = tr.gettext(N_("Press the number (1-5) of your wild card, the one marked *."))
        elif step in (Step.DRAW, Step.LAST_DRAW):
            text = tr.gettext(N_("Press s to draw from the stock."))
        elif step is Step.DISCARD:
            text = tr.gettext(
                N_("Discard {card}: {how}."),
                card=self._card(FIRST_DISCARD),
                how=self._discard_text(FIRST_DISCARD),
            )
        elif step is Step.TAKE:
            text = tr.gettext(
                N_("Press d to take {card} from the discard pile."), card=self._card(self._pile_top())
            )
        elif step is Step.TRY_TAKEN:
            taken = self._taken()
            text = tr.gettext(
                N_("Try to discard {card}, the card you took: {how}."),
                card=self._card(taken),
                how=self._discard_text(taken),
            )
        elif step is Step.DISCARD_OTHER:
            text = tr.gettext(
                N_("Discard {card}: {how}."),
                card=self._card(SECOND_DISCARD),
                how=self._discard_text(SECOND_DISCARD),
            )
        elif step is Step.COMBINATIONS:
            text = tr.gettext(N_("Press w to see the combinations, best first."))
        elif step is Step.CALL:
            text = (
                tr.gettext(N_("Type c to call."))
                if self.plain
                else tr.gettext(N_("Press c, then Enter, to call."))
            )
        elif step is Step.DONE and self.then_play:
            text = tr.gettext(N_("Press Enter to start your first game."))
        elif step is Step.DONE:
            text = tr.gettext(N_("Press Enter to leave the lesson."))
        else:
            text = tr.gettext(N_("Press Enter to go on."))
        return Reply(text, warning=True)

    # -- the person's inputs ----------------------------------------------------------------

    def _next(self, text: str, *, warning: bool = False) -> Reply:
        """Go on to the next step, saying ``text``."""
        if self.step is Step.DONE:
            self.finished = True
        else:
            self.step = script.next_step(self.step)
        return Reply(text, warning=warning, advanced=True)

    def _refused(self, error: IllegalActionError) -> Reply:
        """The engine's refusal, with its rule, as the game says it."""
        return Reply(
            self.tr.gettext(N_("Not allowed: {reason}."), reason=describe.explain(error, self.tr)),
            warning=True,
        )

    def _answer(self, check: Check) -> Reply:
        """The words for the script's answer to an input; the step's own action is played
        first (:attr:`~paiute.analysis.lesson.Check.play`), and the lesson goes on."""
        if check.play is not None:
            step = self.step
            self.session.apply(check.play)
            return self._played(script.played(step, self.deal))
        if check.says in (Say.HINT, Say.PLAYING):
            return self.hint()
        if check.says is Say.REFUSED:
            assert check.error is not None
            refused = self._refused(check.error)
            return self._next(refused.text, warning=True) if check.advance else refused
        if check.advance:
            return self._next(self._words(check))
        return Reply(self._words(check), warning=True)

    def _played(self, check: Check) -> Reply:
        """The words once the step's own action is played."""
        tr = self.tr
        card = "" if check.card is None else self._card(check.card)
        says = check.says
        if says is Say.TOOK:
            return self._next(tr.gettext(N_("You took {card}: everyone saw it (R4.5)."), card=card))
        if says is Say.DREW_PAIR:
            assert check.card is not None
            pair = self._pair_for(check.card)  # the first of its rank as the screen numbers them
            assert pair is not None
            return self._next(
                tr.gettext(N_("You drew {card}: a pair with your {pair}."), card=card, pair=self._card(pair))
            )
        if says is Say.DREW:
            return self._next(tr.gettext(N_("You drew {card}."), card=card))
        if says is Say.DISCARDED:
            return self._next(
                tr.gettext(
                    N_("Good: {card} is on the discard pile, where everyone sees it (R4.5)."), card=card
                )
            )
        assert says is Say.CALLED
        value = script.called_value(self.observation())
        return self._next(tr.gettext(N_("You called {value}!"), value=value))

    def _words(self, check: Check) -> str:
        """The words of an answer that plays nothing."""
        tr = self.tr
        says = check.says
        card = "" if check.card is None else self._card(check.card)
        if says is Say.GO_ON:
            return ""
        if says is Say.NOT_WILD:
            return tr.gettext(N_("{card} is not wild: look for the card marked *."), card=card)
        if says is Say.WILD:
            return tr.gettext(
                N_("Right: {card} is wild. It can stand for any card you need, even one you hold (R3.4)."),
                card=card,
            )
        if says is Say.TAKE_THIS_TIME:
            return tr.gettext(N_("This time take {card} from the discard pile: press d."), card=card)
        if says is Say.STOCK_THIS_TIME:
            return tr.gettext(
                N_("Not this time: press s to draw from the stock. You take from the discard pile next turn.")
            )
        if says is Say.TRY_TAKEN_FIRST:
            return tr.gettext(
                N_("First try to discard {card}, the card you just took: see what the rules say."), card=card
            )
        if says is Say.NO_DISCARD_NOW:
            return tr.gettext(N_("Do not discard now: you can call."))
        if says is Say.KEEP:
            assert check.other is not None
            return tr.gettext(
                N_("Keep {card}: it can still help you. Discard {target} instead."),
                card=card,
                target=self._card(check.other),
            )
        if says is Say.RANK_FIRST:
            return tr.gettext(N_("First press w to see where your combination ranks; then call."))
        if says is Say.BEST_CALL:
            best = self._best_call()
            return tr.gettext(
                N_("Call the best: {call}."),
                call=best.text(self.observation().wild_cards, pretty=not self.plain, tr=tr),
            )
        assert says is Say.RANKS
        ranks = script.ranks(self.observation())
        return tr.gettext(
            N_("{mine} is number {a} of 6 and {who}'s {theirs} number {b}: yours is higher."),
            mine=ranks.mine,
            a=ranks.mine_place,
            who=self.names[ranks.caller],
            theirs=ranks.theirs,
            b=ranks.theirs_place,
        )

    def proceed(self) -> Reply:
        """Enter (an empty line): go on where the step is read, not played."""
        return self._answer(script.check_proceed(self.step, self.deal))

    def answer(self, number: int) -> Reply:
        """A card number pressed at the wild-card step: is that card wild (R3)?"""
        cards = self.hand()
        card = cards[number - 1] if 1 <= number <= len(cards) else None
        return self._answer(script.check_answer(self.step, self.deal, card))

    def draw(self, action: Action) -> Reply:
        """A draw: from the stock at the draw steps, from the discard pile at :attr:`Step.TAKE`."""
        return self._answer(script.check_action(self.step, self.deal, action))

    def discard(self, card: Card) -> Reply:
        """An attempt to discard ``card``: refused by the engine where a rule forbids it."""
        return self._answer(script.check_action(self.step, self.deal, Action.discard(card)))

    def combinations(self) -> Reply | None:
        """The person has opened the list of combinations (``w``); at
        :attr:`Step.COMBINATIONS`, where the hand's combination ranks in it."""
        check = script.check_combinations(self.step, self.deal)
        return None if check is None else self._answer(check)

    def call(self, action: Action) -> Reply:
        """A call: at :attr:`Step.CALL`, the best one (the engine refuses what a rule forbids)."""
        return self._answer(script.check_action(self.step, self.deal, action))


def _lesson_path(directory: Path) -> Path:
    return directory / LESSON_FILE


def lesson_offered(directory: Path) -> bool:
    """Whether the data directory remembers the offer (or a lesson gone through)."""
    return _lesson_path(directory).is_file()


def remember_lesson(directory: Path, *, finished: bool = False, parents: bool = True) -> None:
    """Remember in the data directory that the lesson was offered (or ``finished``), so that
    ``paiute play`` offers it only once. The directory is made (with its missing ``parents``, for
    the default location). One that cannot be written is passed over: the offer is a courtesy,
    never a reason to stop a game."""
    path = _lesson_path(directory)
    data: dict[str, object] = {"format": LESSON_FORMAT, "offered": True, "finished": finished}
    try:
        if path.is_file() and not finished:
            return
        directory.mkdir(parents=parents, exist_ok=True)
        path.write_text(json.dumps(data) + "\n", encoding="utf-8")
    except OSError:
        return


def lesson_turned_off(environ: dict[str, str] | None = None) -> bool:
    """Whether :data:`NO_LESSON_ENV` turns the offer off."""
    value = (os.environ if environ is None else environ).get(NO_LESSON_ENV, "")
    return value.strip() not in ("", "0")
