"""``paiute play --plain``: the game as lines of text, over any pair of streams.

The state is printed from the human seat's :class:`~paiute.observation.Observation` (R9) in
the canonical card text of R1.4 (``Th``; wild cards marked ``*``), and commands are read one
a line (see :data:`~paiute.tui.help.PLAIN_COMMANDS`). A refused command prints the rule it
breaks. End of input quits (the match is saved and can be resumed).

>>> from paiute import Deal, RuleSet, SeededChance
>>> obs = Deal.new(RuleSet(), players=2, dealer=0, chance=SeededChance(1)).observation(1)
>>> parse_command("s", obs).action
Action.parse('draw stock')
>>> parse_command("x 10h", obs).action
Action.parse('discard Th')
>>> parse_command("c6", obs).action
Action.parse('call')
>>> parse_command("x 1h", obs).error
"unknown card text '1h' (R1.4: rank 2-9, T or 10, J, Q, K, A then suit c d h s or ♣ ♦ ♥ ♠; jokers Jk1, Jk2)"
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TextIO

from paiute.actions import CALL_SIX, DRAW_DISCARD, DRAW_STOCK, Action
from paiute.cards import Card
from paiute.errors import N_, IllegalActionError, ParseError
from paiute.events import Phase
from paiute.i18n import Translator, translator
from paiute.observation import Observation
from paiute.tui import describe
from paiute.tui.cells import wrap
from paiute.tui.help import GOAL, combinations_table, plain_commands, rules_text
from paiute.tui.hint_view import hint_lines
from paiute.tui.preparing import BotPreparation
from paiute.tui.session import Session

__all__ = ["Command", "PlainUI", "parse_command", "wrap_text"]

_META = {
    "h": "hint",
    "hint": "hint",
    "?": "help",
    "help": "help",
    "rules": "rules",
    "p": "pile",
    "pile": "pile",
    "history": "pile",
    "q": "quit",
    "quit": "quit",
    "w": "combinations",
    "exit": "quit",
    "sort": "sort",
    "o": "sort",
    "c": "call",
    "call": "call",
    "": "state",
}
_DRAW_STOCK = {"s", "stock", "draw stock"}
# What the hand's order is now, said after ``sort``, with the order it gives next.
_ORDER_NOTES = {
    "dealt": N_("Your cards as dealt, each card drawn at the end (sort: by rank)."),
    "rank": N_("Your cards by rank (sort: by suit)."),
    "suit": N_("Your cards by suit (sort: as dealt)."),
}
_DRAW_DISCARD = {"d", "draw discard", "take"}
_SIX = {"c6", "call6", "c 6", "call 6"}


@dataclass(frozen=True, slots=True)
class Command:
    """A parsed line: an action, a command word (``hint``, ``call``…), or an error."""

    action: Action | None = None
    meta: str | None = None
    error: str | None = None


def parse_command(
    text: str, obs: Observation, tr: Translator | None = None, *, order: str = "dealt"
) -> Command:
    """Read one line of input; card numbers count the hand as :func:`describe.hand_order` shows
    it in ``order``.

    The command words stay the same in every language (they are the keys of the full screen);
    cards are read as R1.4 writes them or with the language's rank letters (Romanian ``x R♥``);
    an error is in ``tr``'s language."""
    tr = tr or translator()
    line = " ".join(text.strip().split())
    lowered = line.lower()
    if lowered in _META:
        return Command(meta=_META[lowered])
    if lowered in _DRAW_STOCK:
        return Command(DRAW_STOCK)
    if lowered in _DRAW_DISCARD:
        return Command(DRAW_DISCARD)
    if lowered in _SIX:
        return Command(CALL_SIX)
    words = line.split(" ")
    try:
        if len(words) == 1 and words[0].isdigit():
            return Command(Action.discard(_numbered(int(words[0]), obs, order)))
        if len(words) == 2 and words[0].lower() in ("x", "discard"):
            word = words[1]
            card = _numbered(int(word), obs, order) if word.isdigit() else tr.parse_card(word)
            return Command(Action.discard(card))
        if len(words) == 2 and words[0].lower() in ("c", "call"):
            word = words[1]
            card = (
                _numbered(int(word), obs, order) if word.isdigit() and word != "10" else tr.parse_card(word)
            )
            return Command(Action.call(card))
    except ParseError as error:
        return Command(error=tr.explain(error))
    return Command(error=tr.gettext(N_("unknown command {text!r}: type ? for the commands"), text=line))


def _numbered(number: int, obs: Observation, order: str = "dealt") -> Card:
    cards = describe.hand_order(obs, order)
    if not 1 <= number <= len(cards):
        raise ParseError(
            N_("no card number {number}: your cards are numbered 1 to {count}"),
            # The numbers that are typed stay in ASCII digits, as the hand shows them.
            number=str(number),
            count=str(len(cards)),
        )
    return cards[number - 1]


def wrap_text(text: str, width: int | None) -> str:
    """``text`` with each line longer than ``width`` terminal columns broken between words
    (:func:`paiute.tui.cells.wrap`: a wide letter takes two, a Bengali vowel sign one, a
    combining mark none), the continuation indented two more than the line; a word longer
    than a line stays whole. ``None`` leaves it as it is (a pipe, a file)."""
    if width is None:
        return text
    return wrap(text, width, break_long_words=False)


class PlainUI:
    """The line-based game loop (see the module documentation)."""

    def __init__(
        self,
        session: Session,
        stdin: TextIO,
        stdout: TextIO,
        *,
        delay: float = 0.0,
        echo: bool = False,
        tr: Translator | None = None,
        width: int | None = None,
    ) -> None:
        #: The language of everything printed (the commands typed stay the same).
        self.tr = tr or translator()
        #: Lines longer than this are wrapped between words (None: printed as they are, for
        #: a pipe or a file; ``paiute play --plain`` passes a terminal's width).
        self.width = width
        self.session = session
        self.stdin = stdin
        self.stdout = stdout
        self.delay = delay
        self.echo = echo
        self.hotseat = len(session.humans) > 1
        # Narration is what the human sees; with several humans, only what all may see.
        self.viewer: int | None = None if self.hotseat else session.humans[0]
        self._narrated = 0
        self._at_screen: int | None = None
        #: Lasting notes on forbidden calls (R5.7) already told this deal: told once.
        self._told: set[tuple[int, str, str]] = set()
        #: The seat names as shown (the default "You" in the reader's language).
        self.names = describe.person_names(
            session.names, self.tr, bots=[seat.bot for seat in session.config.seats]
        )
        #: A bot still waiting for the compiled search (it plays greedy's moves meanwhile):
        #: told at the start and before each of the person's turns, then that it is ready.
        self.preparation = BotPreparation.of_session(session)
        self._ready_told = False

    # -- output and input -----------------------------------------------------------------

    def say(self, text: str = "") -> None:
        self.stdout.write(self.wrapped(text) + "\n")
        self.stdout.flush()

    def wrapped(self, text: str) -> str:
        """``text`` with each line longer than :attr:`width` broken between words, the
        continuation indented two more than the line (a terminal would break it mid-word).

        >>> ui = PlainUI.__new__(PlainUI)
        >>> ui.width = 24
        >>> print(ui.wrapped("  discard Qh shows +0.56 chips more in these playouts"))
          discard Qh shows +0.56
            chips more in these
            playouts
        """
        return wrap_text(text, self.width)

    def ask(self, prompt: str) -> str | None:
        """One line of input, or ``None`` at the end of input."""
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            if self.echo:
                self.stdout.write("\n")
            return None
        if self.echo:
            self.stdout.write(line if line.endswith("\n") else line + "\n")
        return line.rstrip("\n")

    # -- the loop -------------------------------------------------------------------------

    def not_allowed(self, error: IllegalActionError) -> str:
        """A refusal with its rule (the R-ID is kept in every language)."""
        return self.tr.gettext(N_("Not allowed: {reason}."), reason=describe.explain(error, self.tr))

    def run(self) -> int:
        session = self.session
        tr = self.tr
        names = self.names
        comma = tr.gettext(N_(", "))
        bots = [
            tr.gettext(N_("{name} ({bot})"), name=names[seat], bot=spec.bot)
            for seat, spec in enumerate(session.config.seats)
            if spec.bot
        ]
        people = comma.join(names[seat] for seat in session.humans)
        if bots:
            self.say(tr.gettext(N_("Paiute: {people} against {bots}."), people=people, bots=comma.join(bots)))
        else:
            self.say(tr.gettext(N_("Paiute: {people} against nobody."), people=people))
        self.say(tr.gettext(N_("Type ? for the commands, rules for the rules.")))
        if session.deal is None:  # a new match: what the game is about, and where the list is
            self.say(tr.gettext(GOAL))
        self._tell_preparing()
        if session.saved_path is not None:
            self.say(tr.gettext(N_("This match is saved to {path}"), path=str(session.saved_path)))
        elif session.path is not None:  # a new match is written at its first person's move
            self.say(
                tr.gettext(N_("This match is saved to {path} from your first move"), path=str(session.path))
            )
        if session.deal is not None:
            self.say(tr.gettext(N_("Resuming deal {n}."), n=session.deal_number))
            self._narrated = 0
        while True:
            if not session.in_deal:
                if session.deal is not None:
                    self._end_of_deal()
                    if session.match_over:
                        self._summary()
                        return 0
                    answer = self.ask(tr.gettext(N_("Enter for the next deal, q to quit: ")))
                    if answer is None or answer.strip().lower() in ("q", "quit", "exit"):
                        self._quit()
                        return 0
                session.start_deal()
                self._narrated = 0
                self.say()
                self.say(tr.gettext(N_("=== Deal {n} ==="), n=session.deal_number))
            if not self._play_deal():
                self._quit()
                return 0

    def _play_deal(self) -> bool:
        """Play until the deal ends; ``False`` if the player quits."""
        session = self.session
        while session.in_deal:
            seat = session.current
            assert seat is not None
            if session.is_human(seat):
                if not self._human_turn(seat):
                    return False
            else:
                session.apply(session.bot_action())
                self._narrate()
                if self.delay:
                    time.sleep(self.delay)
        return True

    def _narrate(self) -> None:
        obs = self.session.observation(self.viewer)
        names = self.names
        for event in obs.history[self._narrated :]:
            self.say("  " + describe.event_text(event, names, obs.wild_cards, tr=self.tr))
        self._narrated = len(obs.history)

    def _human_turn(self, seat: int) -> bool:
        session = self.session
        names = self.names
        self._narrate()
        if self.hotseat and self._at_screen != seat:
            self.say()
            answer = self.ask(
                self.tr.gettext(
                    N_("--- Pass to {who}: press Enter (hands are hidden until then) "), who=names[seat]
                )
            )
            if answer is None or answer.strip().lower() in ("q", "quit", "exit"):
                return False
            self._at_screen = seat
        self._show(session.observation(seat))
        while session.current == seat and session.in_deal:
            obs = session.observation(seat)
            line = self.ask(f"{names[seat]}> ")
            if line is None:
                return False
            command = parse_command(line, obs, self.tr, order=session.hand_order)
            if command.error is not None:
                self.say(command.error)
                continue
            action = command.action
            if command.meta == "quit":
                return False
            if command.meta == "call":
                action = self._best_call(obs)
                if action is None:
                    continue
            elif command.meta is not None:
                self._meta(command.meta, obs)
                continue
            assert action is not None
            error = session.why(action)
            if error is not None:
                self.say(self.not_allowed(error))
                continue
            session.apply(action)
            self._narrate()
            if session.current == seat and session.in_deal:
                self._show(session.observation(seat), brief=True)
        return True

    def _best_call(self, obs: Observation) -> Action | None:
        tr = self.tr
        options = describe.call_options(obs)
        if options:
            return options[0].action
        if obs.phase is not Phase.DISCARD:
            error = self.session.why(CALL_SIX)
            self.say(self.not_allowed(error) if error else tr.gettext(N_("No call now.")))
            return None
        notes = describe.blocked_calls(obs, self.session.why, tr=tr)
        if notes:
            for note in notes:
                self.say(tr.gettext(N_("No call: {note}."), note=note.text))
        else:
            self.say(tr.gettext(N_("No call: R6.1 your six cards make no winning combination (R5).")))
        return None

    def _meta(self, meta: str, obs: Observation) -> None:
        session = self.session
        tr = self.tr
        names = self.names
        wild = obs.wild_cards
        if meta == "state":
            self._show(obs)
        elif meta == "help":
            self.say(plain_commands(tr).rstrip())
        elif meta == "rules":
            self.say(rules_text(obs.rules, tr))
        elif meta == "combinations":
            self.say(combinations_table(obs.rules, tr))
        elif meta == "pile":
            pile = describe.cards_text(obs.discard_pile, wild) or tr.gettext(N_("(empty)"))
            self.say(tr.gettext(N_("Discard pile, bottom to top: {cards}"), cards=pile))
            self.say(tr.gettext(N_("Deal {n} so far:"), n=session.deal_number))
            for event in obs.history:
                self.say("  " + describe.event_text(event, names, wild, tr=tr))
        elif meta == "sort":
            orders = describe.HAND_ORDERS
            session.hand_order = orders[(orders.index(session.hand_order) + 1) % len(orders)]
            self.say(tr.gettext(_ORDER_NOTES[session.hand_order]))
            self._show(obs, brief=True)
        elif meta == "hint":
            found = session.hint(obs.current_seat)  # its own chance: the bots are untouched
            for line in hint_lines(found, obs, names, tr=tr):
                self.say(line)

    def _tell_preparing(self) -> None:
        """While a bot's compiled search is prepared, a line that says so with the seconds so
        far; once it is ready, one line that says that (a text stream cannot take a line back)."""
        line = self.preparation.line(self.tr, spinner=False)
        if line is not None:
            self.say(line)
        elif self.preparation.shown and not self._ready_told:
            self._ready_told = True
            self.say(self.preparation.ready_line(self.tr))

    def _show(self, obs: Observation, *, brief: bool = False) -> None:
        session = self.session
        tr = self.tr
        names = self.names
        wild = obs.wild_cards
        if not brief:
            self._tell_preparing()
            self.say()
            self.say(tr.gettext(N_("Deal {n}:"), n=session.deal_number))
            for line in describe.table_lines(obs, names, tr=tr):
                self.say(line)
            for line in describe.seat_lines(obs, names, session.match.balances, tr=tr):
                self.say("  " + line)
        cards = describe.hand_order(obs, session.hand_order)
        drawn = describe.drawn_card(obs)
        shown = []
        # Card numbers stay ASCII digits: they are what is typed to discard.
        for number, card in enumerate(cards, 1):
            text = f"{number}:{describe.card_text(card, wild)}"
            if card == drawn:
                text += tr.gettext(N_("(new)"))
            shown.append(text)
        self.say(tr.gettext(N_("Your hand: {cards}"), cards="  ".join(shown)))
        options = describe.call_options(obs)
        if options:
            self.say(tr.gettext(N_("You can call! Best: {call}  [c]"), call=options[0].text(wild, tr=tr)))
            for option in options[1:]:
                how = "c6" if option.discard is None else f"c {option.discard}"
                self.say(tr.gettext(N_("  or {call}  [{how}]"), call=option.text(wild, tr=tr), how=how))
        for note in describe.blocked_calls(obs, session.why, tr=tr):
            if note.lasts:  # told once a deal (R5.7 holds on every later turn)
                key = (session.deal_number, *note.key)
                if key in self._told:
                    continue
                self._told.add(key)
            self.say(tr.gettext(N_("No call: {note}."), note=note.text))
        if obs.phase is Phase.DRAW and DRAW_DISCARD not in obs.legal_actions:
            error = session.why(DRAW_DISCARD)
            if error is not None and obs.discard_pile:
                self.say(
                    tr.gettext(N_("The discard pile may not be drawn: {reason}."), reason=tr.explain(error))
                )
        self.say(describe.prompt(obs, names, tr=tr))

    def _end_of_deal(self) -> None:
        session = self.session
        self._narrate()
        obs = session.observation(self.viewer)
        result = session.last_result
        if result is None:
            return
        index = session.deal_number - 1
        self.say(self.tr.gettext(N_("--- Deal {n} is over ---"), n=session.deal_number))
        for line in describe.deal_summary(
            obs,
            self.names,
            session.balances_before(index),
            result.balances,
            result.pot,
            reveal=session.showdown(),
            tr=self.tr,
        ):
            self.say(line)

    def _summary(self, *, quit: bool = False) -> None:
        session = self.session
        tr = self.tr
        names = self.names
        out = session.out_of_chips()
        self.say()
        if quit and session.in_deal:  # a deal was left unfinished
            self.say(tr.gettext(N_("You left the match during deal {n}."), n=session.deal_number))
        elif quit:
            deals = session.deal_number
            self.say(
                tr.ngettext(
                    "You left the match after {n} deal.", "You left the match after {n} deals.", deals
                )
            )
        if out and not session.in_deal:
            who = tr.gettext(N_(", ")).join(names[seat] for seat in out)
            self.say(tr.gettext(N_("Match over: {who} out of chips."), who=who))
        chips = describe.chip_changes(names, session.match.initial_balances, session.match.balances, tr)
        self.say(tr.gettext(N_("Chips: {changes}; pot {pot}."), changes=chips, pot=session.match.pot))
        if session.saved_path is not None:
            self.say(tr.gettext(N_("Saved to {path}"), path=str(session.saved_path)))
            if not session.finished:
                self.say(tr.gettext(N_("Continue it with: paiute play --resume {id}"), id=session.match_id))

    def _quit(self) -> None:
        self.session.save()
        self._summary(quit=True)
