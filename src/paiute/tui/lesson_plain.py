"""``paiute learn --plain``: the guided deal of :mod:`paiute.tui.lesson` as lines of text.

For screen readers and installs without Textual. The table is printed from the person's
observation (R9) in the canonical card text (``Th``, wild cards marked ``*``), each bot action
as one line, and the coach's words as lines that start with "Coach:". Commands are the game's
(``s``, ``d``, ``x CARD`` or a number, ``c``) with an empty line to go on, ``w`` for the
combinations, ``?`` for the commands and ``q`` to leave (after a question). End of input leaves.

>>> import io
>>> out = io.StringIO()
>>> PlainLesson(io.StringIO("\\n2\\nq\\ny\\n"), out).run()
'left'
>>> "Coach: Right: 7h* is wild." in out.getvalue()
True
"""

from __future__ import annotations

import time
from typing import TextIO

from paiute.actions import CALL_SIX, DRAW_DISCARD, DRAW_STOCK, ActionKind
from paiute.errors import N_
from paiute.events import Phase
from paiute.i18n import Translator, translator
from paiute.tui import describe
from paiute.tui.help import LESSON_COMMANDS, combinations_table, rules_text
from paiute.tui.lesson import Lesson, Reply, Step
from paiute.tui.plain import parse_command, wrap_text

__all__ = ["PlainLesson"]

#: The steps that begin with the whole table printed (the turn has come round again).
_TABLE_STEPS = frozenset({Step.WILD, Step.TAKE, Step.LAST_ROUND, Step.LAST_DRAW})
#: The steps that begin with the hand printed (a card has just come in or gone out).
_HAND_STEPS = frozenset({Step.DISCARD, Step.TRY_TAKEN, Step.DISCARD_OTHER, Step.COMBINATIONS})
_QUIT = ("q", "quit", "exit")


class PlainLesson:
    """The lesson's line-based loop (see the module documentation).

    ``run`` returns ``"done"`` once the lesson is gone through, ``"left"`` when the person
    leaves it (``q``, or the end of input).
    """

    def __init__(
        self,
        stdin: TextIO,
        stdout: TextIO,
        *,
        tr: Translator | None = None,
        delay: float = 0.0,
        echo: bool = False,
        width: int | None = None,
        then_play: bool = False,
    ) -> None:
        self.tr = tr or translator()
        self.stdin = stdin
        self.stdout = stdout
        self.delay = delay
        self.echo = echo
        self.width = width
        self.lesson = Lesson(self.tr, plain=True, then_play=then_play)
        self._narrated = 0

    # -- output and input -------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        self.stdout.write(wrap_text(text, self.width) + "\n")
        self.stdout.flush()

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

    def coach(self, text: str) -> None:
        if text:
            self.say(self.tr.gettext(N_("Coach: {text}"), text=text))

    # -- the loop ---------------------------------------------------------------------------

    def run(self) -> str:
        lesson = self.lesson
        tr = self.tr
        self.say(tr.gettext(N_("Paiute: the lesson. Type a command, then Enter; ? lists them.")))
        shown: Step | None = None
        while not lesson.finished:
            self._bots()
            if shown is not lesson.step:
                shown = lesson.step
                self._show_step()
            line = self.ask(f"{lesson.names[0]}> ")
            if line is None:
                return "left"
            words = " ".join(line.strip().split()).lower()
            if words in _QUIT:
                answer = self.ask(tr.gettext(N_("Leave the lesson? (y/n) ")))
                if answer is None or answer.strip().lower() in ("y", "yes", *_QUIT):
                    return "left"
                continue
            reply = self._command(line)
            if reply is not None and reply.text:
                self.say(reply.text if reply.warning else tr.gettext(N_("Coach: {text}"), text=reply.text))
        return "done"

    def _bots(self) -> None:
        """The bots play until the coach's step can be taken, each action a line."""
        lesson = self.lesson
        while lesson.bot_to_move():
            lesson.move_bot()
            self._narrate()
            if self.delay:
                time.sleep(self.delay)
        self._narrate()

    def _narrate(self) -> None:
        obs = self.lesson.observation()
        for event in obs.history[self._narrated :]:
            if event.seat != 0:  # the person's own moves are answered by the coach
                self.say("  " + describe.event_text(event, self.lesson.names, obs.wild_cards, tr=self.tr))
        self._narrated = len(obs.history)

    def _show_step(self) -> None:
        """The table or the hand where the step needs them, then the coach's words."""
        lesson = self.lesson
        step = lesson.step
        if step in _TABLE_STEPS:
            self._show_table()
        if step in _TABLE_STEPS or step in _HAND_STEPS:
            self._show_hand()
        if step is Step.RESULT:
            self._show_result()
        self.coach(lesson.coach())

    def _show_table(self) -> None:
        lesson = self.lesson
        obs = lesson.observation()
        self.say()
        for line in describe.table_lines(obs, lesson.names, tr=self.tr):
            self.say(line)
        for line in describe.seat_lines(obs, lesson.names, lesson.session.match.balances, tr=self.tr):
            self.say("  " + line)

    def _show_hand(self) -> None:
        obs = self.lesson.observation()
        drawn = describe.drawn_card(obs)
        shown = []
        # Card numbers stay ASCII digits: they are what is typed to discard.
        for number, card in enumerate(describe.hand_order(obs), 1):
            text = f"{number}:{describe.card_text(card, obs.wild_cards)}"
            if card == drawn:
                text += self.tr.gettext(N_("(new)"))
            shown.append(text)
        self.say(self.tr.gettext(N_("Your hand: {cards}"), cards="  ".join(shown)))

    def _show_result(self) -> None:
        lesson = self.lesson
        session = lesson.session
        result = session.last_result
        assert result is not None
        self.say(self.tr.gettext(N_("--- Deal {n} is over ---"), n=1))
        for line in describe.deal_summary(
            lesson.observation(),
            lesson.names,
            session.balances_before(0),
            result.balances,
            result.pot,
            reveal=session.showdown(),
            tr=self.tr,
        ):
            self.say(line)

    def _command(self, line: str) -> Reply | None:
        """The lesson's answer to one line (after printing what the line asks to see)."""
        lesson = self.lesson
        tr = self.tr
        words = " ".join(line.strip().split()).lower()
        obs = lesson.observation()
        if words == "":
            if lesson.step in (Step.WELCOME, Step.LAST_ROUND, Step.RESULT, Step.DONE):
                return lesson.proceed()
            self._show_step()  # an empty line elsewhere: the state again
            return None
        if words in ("?", "help"):
            self.say(tr.gettext(LESSON_COMMANDS).rstrip())
            return None
        if words == "rules":
            self.say(rules_text(obs.rules, tr))
            return None
        if words == "w":
            self.say(combinations_table(obs.rules, tr))
            return lesson.combinations()
        if lesson.step is Step.WILD and words.isdigit():
            return lesson.answer(int(words))
        command = parse_command(line, obs, tr)
        if command.error is not None:
            return Reply(command.error, warning=True)
        if command.meta == "call":
            options = describe.call_options(obs) if obs.is_my_turn and obs.phase is Phase.DISCARD else []
            return lesson.call(options[0].action if options else CALL_SIX)
        action = command.action
        if action is None:
            return lesson.hint()
        if action in (DRAW_STOCK, DRAW_DISCARD):
            return lesson.draw(action)
        if action.kind is ActionKind.DISCARD:
            assert action.card is not None
            return lesson.discard(action.card)
        return lesson.call(action)
