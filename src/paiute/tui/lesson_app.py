"""``paiute learn`` in full screen (Textual): the guided deal of :mod:`paiute.tui.lesson`.

The screen is the game's table (:class:`~paiute.tui.widgets.TableView`, built from the
person's observation, R9) with the coach's panel under it: the panel says what to do, the
message line answers each key (praise, a gentle hint, or the engine's refusal with its rule).
The keys are the game's (``s d 1-6 x c``), with Enter to go on, ``w`` for the combinations,
``?`` or Esc for help, and ``q`` to leave, after a question. The bots move one action at a
time, ``delay`` seconds apart, and the coach waits for them.

With ``offer`` the app first asks, in one line, whether to take the lesson (the first run of
``paiute play``): Enter ends the app at once with ``"play"`` for the game to start.
"""

from __future__ import annotations

import asyncio
from typing import ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from paiute.actions import CALL_SIX, DRAW_DISCARD, DRAW_STOCK
from paiute.errors import N_
from paiute.events import Phase
from paiute.i18n import Translator, translator
from paiute.tui import describe
from paiute.tui.cells import wrap
from paiute.tui.dialogs import CellLines
from paiute.tui.help import GOAL, LESSON_KEYS, combinations_list, rules_text
from paiute.tui.lesson import LESSON_DELAY, OFFER, Lesson, Reply, Step
from paiute.tui.widgets import (
    CardWidget,
    ChoiceScreen,
    CombinationsPanel,
    MinimumSize,
    TableView,
    TextScreen,
    combinations_screen,
)

__all__ = ["CoachPanel", "ConfirmScreen", "LessonApp", "OfferScreen", "wrap_columns"]

# Button labels of the key bar: the game's own words (the key letters stay the keys).
_BUTTONS = (
    (N_("s Stock"), "stock"),
    (N_("d Pile"), "pile_draw"),
    (N_("x Discard"), "discard"),
    (N_("c Call"), "call"),
    (N_("? Help"), "help"),
    (N_("q Quit"), "quit_lesson"),
)


def wrap_columns(text: str, width: int) -> str:
    """``text`` broken between words into lines of at most ``width`` terminal columns, counted
    as a terminal draws them (:func:`paiute.tui.cells.wrap`: a Bengali vowel sign takes a
    column there, none in Textual's count), so that no line runs past the screen or under a
    border; an indented line that is broken goes on indented two more.

    >>> print(wrap_columns("  one two three four", 14))
      one two
        three four
    """
    return wrap(text, width)


class CoachPanel(Static):
    """The coach's words for the current step: under a line with its title, no side borders (a
    line's end may lie further right on a terminal than Textual counts, in Bengali)."""

    DEFAULT_CSS = """
    CoachPanel { dock: bottom; height: auto; max-height: 12; border-top: heavy $success; padding: 0 1;
                 background: $boost; }
    """

    def say(self, text: str) -> None:
        """Show ``text``, broken to the columns inside the padding."""
        width = max(self.app.size.width - 2, 20)
        self.update(wrap_columns(text, width))


class OfferScreen(Screen[str]):
    """The first run's question, alone on the screen: L for the lesson, Enter to play (q leaves)."""

    DEFAULT_CSS = """
    OfferScreen { align: center middle; }
    OfferScreen #offer { width: 100%; max-width: 80; height: auto; border-top: double $accent;
                         border-bottom: double $accent; padding: 1 1; background: $surface; }
    """

    def __init__(self, tr: Translator | None = None) -> None:
        super().__init__()
        self._tr = tr or translator()

    def compose(self) -> ComposeResult:
        tr = self._tr
        # Broken and padded in the columns a terminal draws, in every language.
        yield CellLines(tr.gettext(GOAL) + "\n\n" + tr.gettext(OFFER), id="offer")

    def on_key(self, event: events.Key) -> None:
        choice = {"l": "lesson", "L": "lesson", "enter": "play", "escape": "play", "q": "quit"}.get(event.key)
        if choice is not None:
            event.stop()
            self.dismiss(choice)


class ConfirmScreen(ModalScreen[bool]):
    """Leave the lesson? ``q`` or ``y`` leaves, any other key stays."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen #confirm { width: 100%; max-width: 60; height: auto; border-top: heavy $warning;
                             border-bottom: heavy $warning; padding: 0 1; background: $surface; }
    """

    def __init__(self, tr: Translator | None = None) -> None:
        super().__init__()
        self._tr = tr or translator()

    def compose(self) -> ComposeResult:
        text = self._tr.gettext(N_("Leave the lesson? q or y: leave; any other key: stay."))
        yield CellLines(text, id="confirm")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        self.dismiss(event.key in ("q", "y", "Y"))

    def on_click(self) -> None:
        self.dismiss(False)


class LessonApp(MinimumSize, App[str]):
    """The guided first deal (see the module documentation). It ends with ``"done"`` (the
    lesson gone through), ``"left"`` (``q``), ``"play"`` (the offer turned down) or ``"quit"``."""

    TITLE = "Paiute"
    CSS = "Screen { layout: vertical; }"
    #: The keys the table answers, each with its action (any other key gets the step's hint).
    KEYS: ClassVar[dict[str, str]] = {
        "enter": "enter",
        "s": "stock",
        "d": "pile_draw",
        "x": "discard",
        "c": "call",
        "w": "combinations",
        "left": "move(-1)",
        "right": "move(1)",
        "question_mark": "help",
        "escape": "help",
        "q": "quit_lesson",
        **{str(number): f"pick({number})" for number in range(1, 7)},
    }

    def __init__(
        self,
        *,
        delay: float = LESSON_DELAY,
        tr: Translator | None = None,
        offer: bool = False,
        then_play: bool = False,
    ) -> None:
        super().__init__()
        self.tr = tr or translator()
        self.bot_delay = delay
        self.offer = offer
        self.lesson = Lesson(self.tr, then_play=then_play or offer)
        self.selected = 0
        self.reply = Reply("")
        self.busy = False
        self._logged = 0
        self._chosen_for: int | None = None

    def compose(self) -> ComposeResult:
        buttons = [(self.tr.gettext(label), name) for label, name in _BUTTONS]
        yield CombinationsPanel()
        yield TableView(buttons, self.tr)
        coach = CoachPanel("", id="coach", markup=False)
        coach.border_title = self.tr.gettext(N_("Coach"))
        yield coach

    @property
    def table(self) -> TableView:
        return self.query_one(TableView)

    # -- the flow ---------------------------------------------------------------------------

    def on_mount(self) -> None:
        panel = self.query_one(CombinationsPanel)
        panel.show_text(combinations_list(self.lesson.observation().rules, self.tr))
        panel.fit(self.size.width)
        if self.offer:
            self.push_screen(OfferScreen(self.tr), self._offered)
        self.advance()
        self.check_size()

    def on_resize(self, event: events.Resize) -> None:
        self.query_one(CombinationsPanel).fit(event.size.width)
        self.refresh_view()  # the coach's lines are broken to the new width

    def _offered(self, choice: str | None) -> None:
        if choice in ("play", "quit"):
            self.exit(choice)
            return
        self.advance()

    def leave(self) -> None:
        """``q`` while the terminal is too small."""
        self.exit("left")

    def size_restored(self) -> None:
        self.advance()

    def advance(self) -> None:
        """Let the bots play until the coach's step can be taken, then show it."""
        self.refresh_view()
        if len(self.screen_stack) > 1 or self.busy:
            return
        lesson = self.lesson
        if lesson.bot_to_move():
            self.busy = True
            self.run_worker(self._bots(), exclusive=True, group="bots")
            return
        if lesson.step is Step.RESULT and lesson.ready():
            self.show_result()

    async def _bots(self) -> None:
        lesson = self.lesson
        try:
            while lesson.bot_to_move():
                await asyncio.sleep(self.bot_delay)
                seat = lesson.session.current
                assert seat is not None
                player = lesson.session.players[seat]
                assert player is not None
                # The bot thinks in a thread on its own observation (R9).
                action = await asyncio.to_thread(player.act, lesson.session.observation(seat))
                lesson.session.apply(action)
                self.refresh_view()
        finally:
            self.busy = False
        self.advance()

    def show_result(self) -> None:
        """The end of the deal: the coach's words on the result, then the game's summary (R9.3)."""
        lesson = self.lesson
        session = lesson.session
        tr = self.tr
        result = session.last_result
        assert result is not None
        lines = [lesson.coach(), ""]
        lines += describe.deal_summary(
            lesson.observation(),
            lesson.names,
            session.balances_before(0),
            result.balances,
            result.pot,
            reveal=session.showdown(),
            pretty=True,
            tr=tr,
        )
        keys = {key: "next" for key in ("enter", "space", "escape")}
        text = "\n".join(lines)  # the dialog breaks its lines to its width
        screen = TextScreen(tr.gettext(N_("End of the deal")), text, keys, tr.gettext(N_("Enter: go on")))
        self.push_screen(screen, self._after_result)

    def _after_result(self, _result: str | None) -> None:
        self.answer(self.lesson.proceed())

    # -- drawing ----------------------------------------------------------------------------

    def refresh_view(self) -> None:
        lesson = self.lesson
        tr = self.tr
        obs = lesson.observation()
        names = lesson.names
        table = self.table
        # The game's own title: the lesson is a match's first deal.
        if obs.phase is Phase.OVER:
            title = tr.gettext(N_("Paiute  deal {n}  pot {pot}  deal over"), n=1, pot=obs.pot)
        elif obs.is_my_turn:
            who = names[obs.current_seat]
            title = tr.gettext(N_("Paiute  deal {n}  pot {pot}  {who}, your turn"), n=1, pot=obs.pot, who=who)
        else:
            who = names[obs.current_seat]
            title = tr.gettext(N_("Paiute  deal {n}  pot {pot}  {who} to play"), n=1, pot=obs.pot, who=who)
        table.set_title(title)
        table.set_seats(describe.seat_lines(obs, names, lesson.session.match.balances, pretty=True, tr=tr))
        table.set_table(describe.table_lines(obs, names, pretty=True, tr=tr))
        cards = describe.hand_order(obs)
        mine = obs.is_my_turn and obs.phase is Phase.DISCARD
        forbidden = {obs.taken_card} if obs.taken_card is not None and obs.is_my_turn else set()
        if mine and self._chosen_for != len(obs.history):
            # A new six-card holding: the drawn card is chosen, unless it may not go back (R4.3).
            self._chosen_for = len(obs.history)
            drawn = describe.drawn_card(obs)
            allowed = [index for index, card in enumerate(cards) if card not in forbidden]
            self.selected = cards.index(drawn) if drawn in cards and drawn not in forbidden else allowed[0]
        self.selected = min(self.selected, max(len(cards) - 1, 0))
        table.set_hand(
            tr.gettext(N_("Your hand")),
            cards,
            wild=obs.wild_cards,
            selected=self.selected if mine else None,
            forbidden=forbidden,
            new=describe.drawn_card(obs),
        )
        calls = []
        options = describe.call_options(obs) if mine else []
        if options and lesson.step in (Step.COMBINATIONS, Step.CALL):
            calls.append(
                tr.gettext(
                    N_("CALL POSSIBLE (c): {call}"), call=options[0].text(obs.wild_cards, pretty=True, tr=tr)
                )
            )
        table.set_calls(calls)
        table.set_message(
            wrap_columns(self.reply.text, max(self.size.width - 2, 20)), warning=self.reply.warning
        )
        legal = obs.legal_actions if not self.busy else ()
        table.enable(
            {
                "stock": DRAW_STOCK in legal,
                "pile_draw": DRAW_DISCARD in legal,
                "discard": mine,
                "call": bool(options),
            }
        )
        ready = lesson.ready() and not self.busy
        self.query_one(CoachPanel).say(lesson.coach() if ready else lesson.playing())
        self._update_log()

    def _update_log(self) -> None:
        obs = self.lesson.observation()
        events_seen = obs.history[self._logged :]
        self.table.log_lines(
            describe.event_text(event, self.lesson.names, obs.wild_cards, pretty=True, tr=self.tr)
            for event in events_seen
        )
        self._logged = len(obs.history)

    def answer(self, reply: Reply | None) -> None:
        """Show the lesson's answer to a key, and go on if it went on."""
        if reply is None:
            return
        self.reply = reply
        if self.lesson.finished:
            self.exit("done")
            return
        self.advance()

    # -- keys -------------------------------------------------------------------------------

    def _table_up(self) -> bool:
        return len(self.screen_stack) == 1

    async def on_key(self, event: events.Key) -> None:
        if not self._table_up():
            return
        action = self.KEYS.get(event.key)
        event.stop()
        if action is None:
            if event.is_printable or event.key in ("space", "tab", "backspace", "delete", "up", "down"):
                self.answer(self.lesson.hint())
            return
        if self.busy and action not in ("help", "quit_lesson"):
            self.answer(Reply(self.lesson.playing()))
            return
        await self.run_action(action)

    def on_card_widget_chosen(self, message: CardWidget.Chosen) -> None:
        if not self._table_up() or self.busy:
            return
        if message.index == self.selected and self.lesson.step is not Step.WILD:
            self.action_discard()
        else:
            self.action_pick(message.index + 1)

    def action_enter(self) -> None:
        lesson = self.lesson
        if lesson.step in (Step.DISCARD, Step.TRY_TAKEN, Step.DISCARD_OTHER):
            self.action_discard()
        else:
            self.answer(lesson.proceed())

    def action_stock(self) -> None:
        self.answer(self.lesson.draw(DRAW_STOCK))

    def action_pile_draw(self) -> None:
        self.answer(self.lesson.draw(DRAW_DISCARD))

    def action_move(self, step: int) -> None:
        cards = self.lesson.hand()
        if cards:
            self.selected = (self.selected + step) % len(cards)
        self.refresh_view()

    def action_pick(self, number: int) -> None:
        """A number: the answer at the wild-card step, else the card it chooses."""
        lesson = self.lesson
        if lesson.step is Step.WILD:
            self.answer(lesson.answer(number))
            return
        cards = lesson.hand()
        obs = lesson.observation()
        if not (obs.is_my_turn and obs.phase is Phase.DISCARD) or not 1 <= number <= len(cards):
            self.answer(lesson.hint())
            return
        self.selected = number - 1
        if cards[self.selected] == obs.taken_card:
            # Choosing the card taken from the pile is trying to discard it: the engine says no (R4.3).
            self.answer(lesson.discard(cards[self.selected]))
            return
        self.reply = Reply("")
        self.refresh_view()

    def action_discard(self) -> None:
        lesson = self.lesson
        cards = lesson.hand()
        obs = lesson.observation()
        if not (obs.is_my_turn and obs.phase is Phase.DISCARD) or not cards:
            self.answer(lesson.discard(cards[0]) if cards else lesson.hint())
            return
        self.answer(lesson.discard(cards[min(self.selected, len(cards) - 1)]))

    def action_call(self) -> None:
        lesson = self.lesson
        obs = lesson.observation()
        options = describe.call_options(obs) if obs.is_my_turn and obs.phase is Phase.DISCARD else []
        if lesson.step is not Step.CALL or not options:
            self.answer(lesson.call(options[0].action if options else CALL_SIX))
            return
        tr = self.tr
        lines = [option.text(obs.wild_cards, pretty=True, tr=tr) for option in options]
        lines[0] = tr.gettext(N_("{call}  <- best"), call=lines[0])

        def chosen(index: int | None) -> None:
            if index is not None:
                self.answer(lesson.call(options[index].action))
            else:
                self.advance()

        self.push_screen(
            ChoiceScreen(tr.gettext(N_("Call (R6)")), lines, tr.gettext(N_("Enter: call  Esc: cancel"))),
            chosen,
        )

    def action_combinations(self) -> None:
        reply = self.lesson.combinations()
        rules = self.lesson.observation().rules

        def closed(_result: str | None) -> None:
            if reply is not None:
                self.answer(reply)
            else:
                self.advance()

        self.push_screen(combinations_screen(rules, self.tr), closed)

    def action_help(self) -> None:
        tr = self.tr
        text = tr.gettext(LESSON_KEYS) + "\n" + rules_text(self.lesson.observation().rules, tr)
        keys = {key: "close" for key in ("escape", "question_mark", "q", "enter")}
        footer = tr.gettext(N_("Esc: back   arrows/PgUp/PgDn: scroll"))
        self.push_screen(
            TextScreen(tr.gettext(N_("Help")), text, keys, footer), lambda _closed: self.advance()
        )

    def action_quit_lesson(self) -> None:
        if not self._table_up():
            return

        def confirmed(leave: bool | None) -> None:
            if leave:
                self.workers.cancel_group(self, "bots")
                self.exit("left")
            else:
                self.advance()

        self.push_screen(ConfirmScreen(self.tr), confirmed)
