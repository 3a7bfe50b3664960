"""The full-screen game of ``paiute play`` (Textual).

The screen shows the table as the person at it may see it (R9): everything is built from
that seat's :class:`~paiute.observation.Observation` by :mod:`paiute.tui.describe`. Bots
move one action at a time, ``delay`` seconds apart, and each move is shown in the log and on
its seat's line. With several people (hot seat) the table is covered whenever the turn
passes to another person, and the log only tells what everyone may see.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.timer import Timer

from paiute.actions import CALL_SIX, DRAW_DISCARD, DRAW_STOCK, Action, ActionKind
from paiute.analysis.hint import Hint
from paiute.cards import Card
from paiute.errors import N_, IllegalActionError
from paiute.events import Phase
from paiute.i18n import LANGUAGES, Translator, translator
from paiute.observation import Observation
from paiute.record import Record
from paiute.tui import describe
from paiute.tui.help import GOAL, combinations_list, rules_text, tui_keys
from paiute.tui.hint_view import hint_lines
from paiute.tui.preparing import BotPreparation
from paiute.tui.review_screen import DealReview, ReviewScreen
from paiute.tui.session import Session
from paiute.tui.widgets import (
    CardWidget,
    ChoiceScreen,
    CombinationsPanel,
    CoverScreen,
    MinimumSize,
    TableView,
    TextScreen,
    combinations_screen,
)

__all__ = ["PlayApp"]

# Button labels: the key, then the word (translated whole: the key letters stay the keys).
_BUTTONS = (
    (N_("s Stock"), "stock"),
    (N_("d Pile"), "pile_draw"),
    (N_("x Discard"), "discard"),
    (N_("c Call"), "call"),
    (N_("h Hint"), "hint"),
    (N_("p History"), "history"),
    (N_("o Sort"), "sort"),
    (N_("? Help"), "help"),
    (N_("q Quit"), "quit_match"),
)


# What the hand's order is now, said when ``o`` changes it, with the order ``o`` gives next.
_ORDER_NOTES = {
    "dealt": N_("Your cards as dealt, each card drawn at the end (o: by rank)."),
    "rank": N_("Your cards by rank (o: by suit)."),
    "suit": N_("Your cards by suit (o: as dealt)."),
}


class PlayApp(MinimumSize, App[int]):
    """A match of Paiute at the terminal (see the module documentation)."""

    TITLE = "Paiute"
    CSS = "Screen { layout: vertical; }"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "stock", "Stock"),
        Binding("d", "pile_draw", "Discard pile"),
        Binding("left", "move(-1)", "Left", show=False),
        Binding("right", "move(1)", "Right", show=False),
        *(Binding(str(number), f"pick({number})", show=False) for number in range(1, 7)),
        Binding("x,enter", "discard", "Discard"),
        Binding("c", "call", "Call"),
        Binding("w", "combinations", "Combinations"),
        Binding("h", "hint", "Hint"),
        Binding("p", "history", "History"),
        Binding("o", "sort", "Sort"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "quit_match", "Quit"),
        Binding("l", "language", "Language"),
    ]

    def __init__(self, session: Session, *, delay: float = 0.5, tr: Translator | None = None) -> None:
        super().__init__()
        #: The language of every text on the screen (``l`` switches to the next one).
        self.tr = tr or translator()
        self.session = session
        self.bot_delay = delay
        self.hotseat = len(session.humans) > 1
        #: The person at the screen, whose hand is shown (``None``: nobody yet, hot seat).
        self.viewer: int | None = None if self.hotseat else session.humans[0]
        self.selected = 0
        self.note = ""
        self.warning = False
        self.busy = False
        self._logged = 0
        self._logged_deal = 0
        #: The turn (deal, history length) whose default card is chosen: after a draw the
        #: drawn card, never the card taken from the discard pile (R4.3).
        self._chosen_for: tuple[int, int] | None = None
        #: Notes on forbidden calls already told this deal (rule, combination) and the turn
        #: they were first told: a Paiute after the first turn (R5.7) is told once, not every turn.
        self._told: dict[tuple[int, str, str], int] = {}
        #: Lines for the terminal after the app has closed (where the match is saved).
        self.farewell: list[str] = []
        #: The review of the deal just ended (``r`` on its summary), computed in the background.
        self.deal_review: DealReview | None = None
        #: A bot still waiting for the compiled search (it plays greedy's moves meanwhile):
        #: a line under the title says so until it is ready (no stall).
        self.preparation = BotPreparation.of_session(session)
        self._preparing_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield CombinationsPanel()  # beside the table on a wide terminal
        yield TableView(self._buttons(), self.tr, optional=("sort",))  # on the bar where it fits

    def _buttons(self) -> list[tuple[str, str]]:
        return [(self.tr.gettext(label), name) for label, name in _BUTTONS]

    def _not_allowed(self, error: IllegalActionError) -> str:
        """A refusal with its rule (R-ID kept), in the screen's language."""
        return self.tr.gettext(N_("Not allowed: {reason}."), reason=describe.explain(error, self.tr))

    @property
    def names(self) -> tuple[str, ...]:
        """The seat names as shown (the default "You" in the screen's language)."""
        bots = [seat.bot for seat in self.session.config.seats]
        return describe.person_names(self.session.names, self.tr, bots=bots)

    @property
    def table(self) -> TableView:
        return self.query_one(TableView)

    # -- the game loop ----------------------------------------------------------------------

    def on_mount(self) -> None:
        self._show_combinations()
        if self.preparation.waiting():
            self._preparing_timer = self.set_interval(0.25, self.show_preparing)
        self.show_preparing()
        if self.session.deal is None:
            if self.session.match_over:
                self.finish()
                return
            self.session.start_deal()
        self.advance()
        self.check_size()

    def show_preparing(self) -> None:
        """Show (or update, or once it is ready take away) the line about a bot being prepared."""
        line = self.preparation.line(self.tr)
        self.table.set_preparing(line or "")
        if line is None and self._preparing_timer is not None:
            self._preparing_timer.stop()
            self._preparing_timer = None

    def on_resize(self, event: events.Resize) -> None:
        self.query_one(CombinationsPanel).fit(event.size.width)

    def _show_combinations(self) -> None:
        """The combinations beside the table (where it is wide enough), in the screen's language."""
        panel = self.query_one(CombinationsPanel)
        panel.show_text(combinations_list(self.session.match.rules, self.tr))
        panel.fit(self.size.width)

    def leave(self) -> None:
        """``q`` while the terminal is too small: save and close, the summary printed after."""
        self.finish(quit=True, show=False)

    def size_restored(self) -> None:
        self.advance()

    @property
    def waiting(self) -> bool:
        """A person is to act on the table itself (no bot moving, no other screen up)."""
        seat = self.session.current
        return (
            not self.busy
            and len(self.screen_stack) == 1
            and seat is not None
            and self.session.is_human(seat)
            and seat == self.viewer
        )

    def advance(self) -> None:
        """Carry on until a person must act: bots move, a deal ends, the hot seat changes."""
        session = self.session
        self.refresh_view()
        if len(self.screen_stack) > 1 or self.busy:
            return
        if not session.in_deal:
            self.show_deal_over()
            return
        seat = session.current
        assert seat is not None
        if not session.is_human(seat):
            self.busy = True
            self.run_worker(self._bots(), exclusive=True, group="bots")
            return
        if seat != self.viewer:
            self.viewer = None  # nothing private on screen while it changes hands
            self.refresh_view()
            self.push_screen(CoverScreen(self.names[seat], self.tr), self._seated(seat))
            return
        self.refresh_view()

    def _seated(self, seat: int) -> Callable[[str | None], None]:
        def seated(result: str | None) -> None:
            if result == "quit":
                self.ask_to_leave(self.advance)  # staying covers the table again
                return
            self.viewer = seat
            self.note = ""
            self._chosen_for = None
            self.advance()

        return seated

    async def _bots(self) -> None:
        session = self.session
        try:
            while session.in_deal:
                seat = session.current
                if seat is None or session.is_human(seat):
                    break
                await asyncio.sleep(self.bot_delay)
                player = session.players[seat]
                assert player is not None
                # The bot thinks in a thread on its observation (R9), built here: the deal
                # itself is only ever touched by this thread.
                obs = session.observation(seat)
                action = await asyncio.to_thread(player.act, obs)
                session.apply(action)
                self.refresh_view()
        finally:
            self.busy = False
        self.advance()

    def show_deal_over(self) -> None:
        session = self.session
        result = session.last_result
        obs = session.observation(self.viewer)
        tr = self.tr
        lines = [tr.gettext(N_("Deal {n} is over."), n=session.deal_number), ""]
        if result is not None:
            index = session.deal_number - 1
            lines += describe.deal_summary(
                obs,
                self.names,
                session.balances_before(index),
                result.balances,
                result.pot,
                reveal=session.showdown(),
                pretty=True,
                tr=tr,
            )
        out = session.out_of_chips()
        if out:
            who = tr.gettext(N_(", ")).join(self.names[seat] for seat in out)
            lines += ["", tr.gettext(N_("Match over: {who} out of chips."), who=who)]
            footer = tr.gettext(N_("Enter: the match summary"))
        else:
            footer = tr.gettext(N_("Enter or n: next deal    q: quit (the match is saved)"))
        keys = {"enter": "next", "n": "next", "space": "next", "q": "quit", "escape": "next", "r": "review"}
        footer += tr.gettext(N_("    r: review"))
        index = session.deal_number - 1
        if self.deal_review is None or self.deal_review.deal != index:  # review_screen: once a deal
            self.deal_review = DealReview(Record.from_match(session.match), index, session.humans)
        self.push_screen(
            TextScreen(tr.gettext(N_("End of the deal")), "\n".join(lines), keys, footer), self._after_deal
        )

    def _after_deal(self, result: str | None) -> None:
        session = self.session
        if result == "review" and self.deal_review is not None:
            # The person's own seat is told "you"; in a hot seat game every seat by its name.
            you = None if self.hotseat else self.viewer
            screen = ReviewScreen(self.deal_review, self.names, self.tr, you=you)
            self.push_screen(screen, lambda _back: self.show_deal_over())
            return
        if result == "quit" and not session.match_over:
            self.ask_to_leave(self.show_deal_over)
            return
        if self.deal_review is not None:
            self.deal_review.cancel()
        if result == "quit" or session.match_over:
            self.finish(quit=result == "quit")
            return
        session.start_deal()
        self.note = ""
        self._chosen_for = None
        self.advance()

    def finish(self, *, quit: bool = False, show: bool = True) -> None:
        """Save, show the match summary (``show``), then close."""
        session = self.session
        tr = self.tr
        self.workers.cancel_group(self, "bots")
        if self.deal_review is not None:
            self.deal_review.cancel()
        session.save()
        names = self.names
        start = session.match.initial_balances
        now = session.match.balances
        deals = session.deal_number
        if quit and session.in_deal:  # the summary says the deal was not finished
            ended = tr.gettext(N_("You left the match during deal {n}."), n=deals)
        elif quit:
            ended = tr.ngettext(
                "You left the match after {n} deal.", "You left the match after {n} deals.", deals
            )
        else:
            ended = tr.ngettext(
                "The match is over after {n} deal.", "The match is over after {n} deals.", deals
            )
        lines = [ended, ""]
        out = session.out_of_chips()
        if out and not session.in_deal:
            who = tr.gettext(N_(", ")).join(names[seat] for seat in out)
            lines.append(tr.gettext(N_("Out of chips: {who}."), who=who))
        for seat, name in enumerate(names):
            lines.append(
                tr.ngettext(
                    "  {name} {chips} chip ({change})",
                    "  {name} {chips} chips ({change})",
                    now[seat],
                    name=name + " " * max(12 - describe.display_width(name), 0),
                    chips=tr.number(now[seat]).rjust(5),
                    change=describe.signed(now[seat] - start[seat], tr),
                )
            )
        lines.append(tr.gettext(N_("  pot {pot}"), pot=session.match.pot))
        if session.saved_path is not None:
            lines += ["", tr.gettext(N_("Saved to {path}"), path=str(session.saved_path))]
            if not session.finished:
                lines.append(
                    tr.gettext(N_("Continue it with: paiute play --resume {id}"), id=session.match_id)
                )
        self.farewell = [line for line in lines if line]
        if not show:
            self.exit(0)
            return
        keys = {key: "exit" for key in ("enter", "q", "escape", "space")}
        self.push_screen(
            TextScreen(
                tr.gettext(N_("Match summary")), "\n".join(lines), keys, tr.gettext(N_("Enter: close"))
            ),
            self._close,
        )

    def _close(self, _result: str | None) -> None:
        self.exit(0)

    # -- drawing ----------------------------------------------------------------------------

    def _log_view(self) -> Observation:
        """The log tells what the viewer may see; with several people, what all may see."""
        return self.session.observation(None if self.hotseat else self.viewer)

    def refresh_view(self) -> None:
        session = self.session
        if session.deal is None:
            return
        tr = self.tr
        names = self.names
        table = self.table
        obs = session.observation(self.viewer)
        wild = obs.wild_cards
        number, pot = session.deal_number, obs.pot
        if obs.phase is Phase.OVER:
            title = tr.gettext(N_("Paiute  deal {n}  pot {pot}  deal over"), n=number, pot=pot)
        elif obs.current_seat == self.viewer:
            title = tr.gettext(
                N_("Paiute  deal {n}  pot {pot}  {who}, your turn"),
                n=number,
                pot=pot,
                who=names[obs.current_seat],
            )
        else:
            title = tr.gettext(
                N_("Paiute  deal {n}  pot {pot}  {who} to play"),
                n=number,
                pot=pot,
                who=names[obs.current_seat],
            )
        table.set_title(title)
        # The match's first deal says what the game is about; the combinations are one key away.
        table.set_goal(tr.gettext(GOAL) if number == 1 else "")
        table.set_seats(describe.seat_lines(obs, names, session.match.balances, pretty=True, tr=tr))
        table.set_table(describe.table_lines(obs, names, pretty=True, tr=tr))
        cards = self._cards(obs)
        forbidden = {obs.taken_card} if obs.taken_card is not None and obs.is_my_turn else set()
        mine = obs.is_my_turn and obs.phase is Phase.DISCARD
        turn = (session.deal_number, len(obs.history))
        if mine and self._chosen_for != turn:
            # A new six-card holding (a draw, a resumed game, the hot seat): the drawn card is
            # chosen, unless it came from the discard pile and may not go back (R4.3).
            self._chosen_for = turn
            drawn = describe.drawn_card(obs)
            allowed = [index for index, card in enumerate(cards) if card not in forbidden]
            self.selected = cards.index(drawn) if drawn in cards and drawn not in forbidden else allowed[0]
        self.selected = min(self.selected, max(len(cards) - 1, 0))
        label = (
            ""
            if self.viewer is None
            else (tr.gettext(N_("Your hand")) if not self.hotseat else names[self.viewer])
        )
        table.set_hand(
            label,
            cards,
            wild=wild,
            selected=self.selected if mine else None,
            forbidden=forbidden,
            new=describe.drawn_card(obs),
        )
        calls: list[str] = []
        if mine:
            options = describe.call_options(obs)
            if options:
                best = options[0].text(wild, pretty=True, tr=tr)
                if len(options) > 1:
                    calls.append(
                        tr.ngettext(
                            "CALL POSSIBLE (c): {call}  (or {n} other call)",
                            "CALL POSSIBLE (c): {call}  (or {n} other calls)",
                            len(options) - 1,
                            call=best,
                        )
                    )
                else:
                    calls.append(tr.gettext(N_("CALL POSSIBLE (c): {call}"), call=best))
            for blocked in describe.blocked_calls(obs, session.why, pretty=True, tr=tr):
                line = tr.gettext(N_("No call: {note}."), note=blocked.text)
                if blocked.lasts:  # told on the turn it first holds, not on every later one
                    told = self._told.setdefault((session.deal_number, *blocked.key), turn[1])
                    if told != turn[1]:
                        continue
                if line not in self.note:  # not twice on screen when `c` has just said it
                    calls.append(line)
        table.set_calls(calls)
        legal = obs.legal_actions if obs.is_my_turn and self.waiting else ()
        table.enable(
            {
                "stock": DRAW_STOCK in legal,
                "pile_draw": DRAW_DISCARD in legal,
                "discard": any(action.kind is ActionKind.DISCARD for action in legal),
                "call": any(action.kind.is_call for action in legal),
                "hint": bool(legal),
            }
        )
        if self.note:
            table.set_message(self.note, warning=self.warning)
        else:
            table.set_message(self._prompt(obs))
        self._update_log()

    def _prompt(self, obs: Observation) -> str:
        tr = self.tr
        names = self.names
        if obs.phase is Phase.OVER:
            return tr.gettext(N_("The deal is over."))
        if not obs.is_my_turn:
            return tr.gettext(N_("{who} is playing..."), who=names[obs.current_seat])
        if obs.phase is Phase.DRAW:
            if DRAW_DISCARD in obs.legal_actions:
                top = describe.card_text(obs.discard_pile[-1], obs.wild_cards, pretty=True, tr=tr)
                return tr.ngettext(
                    "Draw: s from the stock ({n} card) or d the discard-pile top {card}.",
                    "Draw: s from the stock ({n} cards) or d the discard-pile top {card}.",
                    obs.stock_size,
                    card=top,
                )
            return tr.gettext(N_("Draw: s from the stock (the discard pile is empty, R4.2)."))
        if obs.taken_card is not None:
            taken = describe.card_text(obs.taken_card, obs.wild_cards, pretty=True, tr=tr)
            return tr.gettext(
                N_(
                    "Discard: choose a card (1-6, arrows or a click), then x or Enter. {card} stays this turn (R4.3)."
                ),
                card=taken,
            )
        return tr.gettext(N_("Discard: choose a card (1-6, arrows or a click), then x or Enter."))

    def _update_log(self) -> None:
        session = self.session
        table = self.table
        if self._logged_deal != session.deal_number:
            if self._logged_deal:
                table.log_lines([""])
            dealer = self.names[session.observation(None).dealer]
            table.log_lines(
                [self.tr.gettext(N_("-- Deal {n}, dealer {dealer} --"), n=session.deal_number, dealer=dealer)]
            )
            self._logged_deal = session.deal_number
            self._logged = 0
        obs = self._log_view()
        events = obs.history[self._logged :]
        table.log_lines(
            describe.event_text(event, self.names, obs.wild_cards, pretty=True, tr=self.tr)
            for event in events
        )
        self._logged = len(obs.history)

    def say(self, text: str, *, warning: bool = False) -> None:
        self.note = text
        self.warning = warning
        self.refresh_view()

    # -- the person's actions ---------------------------------------------------------------

    def _table_up(self) -> bool:
        return len(self.screen_stack) == 1

    def _hand(self) -> tuple[Observation, list[Card]] | None:
        if self.viewer is None:
            return None
        obs = self.session.observation(self.viewer)
        return obs, self._cards(obs)

    def _cards(self, obs: Observation) -> list[Card]:
        """The hand in the order the person chose (``o``), numbered 1 to 6 on the screen."""
        return describe.hand_order(obs, self.session.hand_order)

    def act(self, action: Action) -> None:
        """Play the viewer's ``action``, or say which rule forbids it (why_illegal)."""
        if not self._table_up():
            return
        if self.busy or not self.waiting:
            self.say(self.tr.gettext(N_("Wait: it is not your turn.")), warning=True)
            return
        error = self.session.why(action)
        if error is not None:
            self.say(self._not_allowed(error), warning=True)
            return
        self.session.apply(action)
        self.note = ""
        self.advance()

    def action_stock(self) -> None:
        self.act(DRAW_STOCK)

    def action_pile_draw(self) -> None:
        self.act(DRAW_DISCARD)

    def action_move(self, step: int) -> None:
        hand = self._hand()
        if hand is None or not self._table_up() or not hand[1]:
            return
        self.selected = (self.selected + step) % len(hand[1])
        self.note = ""
        self.refresh_view()

    def action_pick(self, number: int) -> None:
        self.choose(number - 1)

    def choose(self, index: int) -> None:
        """Choose the card at ``index``; say why if it may not be discarded (R4.3)."""
        hand = self._hand()
        if hand is None or not self._table_up():
            return
        obs, cards = hand
        if not 0 <= index < len(cards):
            return
        self.selected = index
        if obs.is_my_turn and obs.phase is Phase.DISCARD:
            error = self.session.why(Action.discard(cards[index]))
            if error is not None:
                self.say(
                    self.tr.gettext(
                        N_("{card} may not be discarded: {reason}."),
                        card=self.tr.card(cards[index]),
                        reason=describe.explain(error, self.tr),
                    ),
                    warning=True,
                )
                return
        self.note = ""
        self.refresh_view()

    def action_discard(self) -> None:
        hand = self._hand()
        if hand is None or not self._table_up():
            return
        obs, cards = hand
        if obs.phase is not Phase.DISCARD or not cards:
            error = self.session.why(Action.discard(cards[0])) if cards and self.waiting else None
            self.say(
                self._not_allowed(error) if error else self.tr.gettext(N_("Wait: it is not your turn.")),
                warning=True,
            )
            return
        self.act(Action.discard(cards[min(self.selected, len(cards) - 1)]))

    def on_card_widget_chosen(self, message: CardWidget.Chosen) -> None:
        hand = self._hand()
        if hand is None:
            return
        obs, _cards = hand
        if message.index == self.selected and obs.is_my_turn and obs.phase is Phase.DISCARD:
            self.action_discard()
        else:
            self.choose(message.index)

    def action_call(self) -> None:
        hand = self._hand()
        if hand is None or not self._table_up():
            return
        obs, _cards = hand
        tr = self.tr
        if not self.waiting:
            self.say(tr.gettext(N_("Wait: it is not your turn.")), warning=True)
            return
        options = describe.call_options(obs)
        if not options:
            if obs.phase is not Phase.DISCARD:
                error = self.session.why(CALL_SIX)
                self.say(self._not_allowed(error) if error else tr.gettext(N_("No call now.")), warning=True)
                return
            notes = describe.blocked_calls(obs, self.session.why, pretty=True, tr=tr)
            text = " ".join(tr.gettext(N_("No call: {note}."), note=note.text) for note in notes)
            self.say(
                text or tr.gettext(N_("No call: R6.1 your six cards make no winning combination (R5).")),
                warning=True,
            )
            return
        lines = [option.text(obs.wild_cards, pretty=True, tr=tr) for option in options]
        lines[0] = tr.gettext(N_("{call}  <- best"), call=lines[0])

        def chosen(index: int | None) -> None:
            if index is not None:
                self.act(options[index].action)
            else:
                self.advance()

        self.push_screen(
            ChoiceScreen(tr.gettext(N_("Call (R6)")), lines, tr.gettext(N_("Enter: call  Esc: cancel"))),
            chosen,
        )

    def action_combinations(self) -> None:
        """The winning combinations, best first (R5), in the order of this match's rules (R5.8)."""
        if not self._table_up():
            return
        self.push_screen(combinations_screen(self.session.match.rules, self.tr), self._resume_play)

    def action_hint(self) -> None:
        if not self._table_up():
            return
        if not self.waiting or self.viewer is None:
            self.say(self.tr.gettext(N_("A hint is for your own turn.")), warning=True)
            return
        self.say(self.tr.gettext(N_("Thinking (the hint plays every move out)...")))
        self.run_worker(self._hint(self.viewer), exclusive=True, group="hint")

    async def _hint(self, seat: int) -> None:
        session = self.session
        obs = session.observation(seat)
        found = await asyncio.to_thread(session.hint, seat)  # its own chance: the bots are untouched
        if session.current != seat or session.observation(seat).history != obs.history:
            return  # the game moved on meanwhile
        action = found.recommended
        if action.kind is ActionKind.DISCARD and action.card is not None:
            cards = self._cards(obs)
            if action.card in cards:
                self.selected = cards.index(action.card)
        self.say(describe.action_text(action, obs, pretty=True, tr=self.tr))
        if len(self.screen_stack) == 1:
            self.push_screen(_hint_screen(found, obs, self.names, self.tr), self._resume_play)

    def action_history(self) -> None:
        if not self._table_up() or self.session.deal is None:
            return
        obs = self._log_view()
        names = self.names
        wild = obs.wild_cards
        tr = self.tr
        lines = [
            tr.gettext(N_("Discard pile, bottom to top (R4.5):")),
            "  "
            + (describe.cards_text(obs.discard_pile, wild, pretty=True, tr=tr) or tr.gettext(N_("(empty)"))),
            "",
            tr.gettext(N_("Deal {n} so far:"), n=self.session.deal_number),
        ]
        lines += ["  " + describe.event_text(event, names, wild, pretty=True, tr=tr) for event in obs.history]
        keys = {key: "close" for key in ("escape", "p", "q", "enter")}
        self.push_screen(
            TextScreen(
                tr.gettext(N_("Discard pile and history")),
                "\n".join(lines),
                keys,
                tr.gettext(N_("Esc: back")),
            ),
            self._resume_play,
        )

    def action_help(self) -> None:
        if not self._table_up():
            return
        tr = self.tr
        text = tui_keys(tr) + "\n" + rules_text(self.session.match.rules, tr)
        keys = {key: "close" for key in ("escape", "question_mark", "q", "enter")}
        footer = tr.gettext(N_("Esc: back   arrows/PgUp/PgDn: scroll"))
        self.push_screen(TextScreen(tr.gettext(N_("Help")), text, keys, footer), self._resume_play)

    def _resume_play(self, _result: str | None) -> None:
        """Back at the table: carry on (the bots may have finished the deal meanwhile)."""
        self.advance()

    def action_quit_match(self) -> None:
        if not self._table_up():
            return
        self.ask_to_leave(self.advance)

    def ask_to_leave(self, stay: Callable[[], None]) -> None:
        """Ask before ending the match: ``y`` saves and leaves, ``n`` or Esc calls ``stay``."""
        tr = self.tr
        if self.session.kept_on_leaving:
            text = tr.gettext(N_("The match is saved as you leave: paiute play --resume continues it."))
        else:
            text = tr.gettext(N_("Nothing of this match is kept: leaving ends it."))
        keys = {"y": "leave", "Y": "leave", "n": "stay", "N": "stay", "escape": "stay"}
        footer = tr.gettext(N_("y: leave    n or Esc: stay"))

        def answered(result: str | None) -> None:
            if result == "leave":
                self.finish(quit=True)
            else:
                stay()

        self.push_screen(TextScreen(tr.gettext(N_("Leave the match?")), text, keys, footer), answered)

    def action_sort(self) -> None:
        """Show the hand in the next order (as dealt, by rank, by suit), kept for the match;
        the chosen card stays chosen."""
        hand = self._hand()
        if hand is None or not self._table_up():
            return
        obs, cards = hand
        chosen = cards[self.selected] if 0 <= self.selected < len(cards) else None
        orders = describe.HAND_ORDERS
        session = self.session
        session.hand_order = orders[(orders.index(session.hand_order) + 1) % len(orders)]
        cards = self._cards(obs)
        if chosen in cards:
            self.selected = cards.index(chosen)
        self.say(self.tr.gettext(_ORDER_NOTES[session.hand_order]))

    def action_language(self) -> None:
        """Switch every text to the next language (English, Română, Soomaali, বাংলা)."""
        if not self._table_up():
            return
        self.set_language(LANGUAGES[(LANGUAGES.index(self.tr.lang) + 1) % len(LANGUAGES)])

    def set_language(self, lang: str) -> None:
        """Show the table in ``lang``: buttons, table, message and the deal's log rewritten."""
        self.tr = translator(lang)
        self.table.tr = self.tr
        self.table.relabel(dict((name, label) for label, name in self._buttons()))
        self._show_combinations()
        self.table.clear_log()
        self._logged_deal = 0  # the log of this deal is written again, in the new language
        self.note = ""
        self.refresh_view()


def _hint_screen(found: Hint, obs: Observation, names: Sequence[str], tr: Translator) -> TextScreen:
    """The full screen's page for a hint (Esc, Enter or ``h`` goes back to the table)."""
    text = "\n".join(hint_lines(found, obs, names, pretty=True, tr=tr))
    keys = {key: "close" for key in ("escape", "h", "q", "enter")}
    return TextScreen(tr.gettext(N_("Hint")), text, keys, tr.gettext(N_("Esc: back")))
