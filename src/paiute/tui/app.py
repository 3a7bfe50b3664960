"""The full-screen game of ``paiute play`` (Textual).

The screen shows the table as the person at it may see it (R9): everything is built from
that seat's :class:`~paiute.observation.Observation` by :mod:`paiute.tui.describe`. Bots
move one action at a time, ``delay`` seconds apart, and each move is shown in the log and on
its seat's line. With several people (hot seat) the table is covered whenever the turn
passes to another person, and the log only tells what everyone may see.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Button

from paiute.actions import CALL_SIX, DRAW_DISCARD, DRAW_STOCK, Action, ActionKind
from paiute.cards import Card
from paiute.observation import Observation
from paiute.tui import describe
from paiute.tui.help import TUI_KEYS, rules_text
from paiute.tui.session import Session
from paiute.tui.widgets import CardWidget, ChoiceScreen, CoverScreen, TableView, TextScreen

__all__ = ["PlayApp"]

_BUTTONS = (
    ("s Stock", "stock"),
    ("d Pile", "pile_draw"),
    ("x Discard", "discard"),
    ("c Call", "call"),
    ("h Hint", "hint"),
    ("p History", "history"),
    ("? Help", "help"),
    ("q Quit", "quit_match"),
)


class PlayApp(App[int]):
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
        Binding("h", "hint", "Hint"),
        Binding("p", "history", "History"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "quit_match", "Quit"),
    ]

    def __init__(self, session: Session, *, delay: float = 0.5) -> None:
        super().__init__()
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
        #: Lines for the terminal after the app has closed (where the match is saved).
        self.farewell: list[str] = []

    def compose(self) -> ComposeResult:
        yield TableView(_BUTTONS)

    @property
    def table(self) -> TableView:
        return self.query_one(TableView)

    # -- the game loop ----------------------------------------------------------------------

    def on_mount(self) -> None:
        if self.session.deal is None:
            if self.session.match_over:
                self.finish()
                return
            self.session.start_deal()
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
            self.push_screen(CoverScreen(session.names[seat]), self._seated(seat))
            return
        self.refresh_view()

    def _seated(self, seat: int) -> Callable[[str | None], None]:
        def seated(result: str | None) -> None:
            if result == "quit":
                self.finish(quit=True)
                return
            self.viewer = seat
            self.note = ""
            self.selected = 0
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
        lines = [f"Deal {session.deal_number} is over.", ""]
        if result is not None:
            index = session.deal_number - 1
            lines += describe.deal_summary(
                obs, session.names, session.balances_before(index), result.balances, result.pot, pretty=True
            )
        out = session.out_of_chips()
        if out:
            lines += ["", "Match over: " + ", ".join(session.names[seat] for seat in out) + " out of chips."]
            footer = "Enter: the match summary"
        else:
            footer = "Enter or n: next deal    q: quit (the match is saved)"
        keys = {"enter": "next", "n": "next", "space": "next", "q": "quit", "escape": "next"}
        self.push_screen(TextScreen("End of the deal", "\n".join(lines), keys, footer), self._after_deal)

    def _after_deal(self, result: str | None) -> None:
        session = self.session
        if result == "quit" or session.match_over:
            self.finish(quit=result == "quit")
            return
        session.start_deal()
        self.note = ""
        self.selected = 0
        self.advance()

    def finish(self, *, quit: bool = False) -> None:
        """Save, show the match summary, then close."""
        session = self.session
        self.workers.cancel_group(self, "bots")
        session.save()
        names = session.names
        start = session.match.initial_balances
        now = session.match.balances
        lines = [
            f"{'You left the match' if quit else 'The match is over'} after {session.deal_number} deal(s).",
            "",
        ]
        out = session.out_of_chips()
        if out and not session.in_deal:
            lines.append("Out of chips: " + ", ".join(names[seat] for seat in out) + ".")
        for seat, name in enumerate(names):
            lines.append(f"  {name:<12} {now[seat]:>5} chips ({now[seat] - start[seat]:+d})")
        lines.append(f"  pot {session.match.pot}")
        if session.path is not None:
            lines += ["", f"Saved to {session.path}"]
            if not session.finished:
                lines.append("Continue it with: paiute play --resume")
        self.farewell = [line for line in lines if line]
        keys = {key: "exit" for key in ("enter", "q", "escape", "space")}
        self.push_screen(TextScreen("Match summary", "\n".join(lines), keys, "Enter: close"), self._close)

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
        names = session.names
        table = self.table
        obs = session.observation(self.viewer)
        wild = obs.wild_cards
        if obs.phase == "over":
            state = "deal over"
        elif obs.current_seat == self.viewer:
            state = f"{names[obs.current_seat]}, your turn"
        else:
            state = f"{names[obs.current_seat]} to play"
        table.set_title(f"Paiute  deal {session.deal_number}  pot {obs.pot}  {state}")
        table.set_seats(describe.seat_lines(obs, names, session.match.balances, pretty=True))
        table.set_table(describe.table_lines(obs, names, pretty=True))
        cards = describe.hand_order(obs)
        self.selected = min(self.selected, max(len(cards) - 1, 0))
        forbidden = {obs.taken_card} if obs.taken_card is not None and obs.is_my_turn else set()
        mine = obs.is_my_turn and obs.phase == "discard"
        label = "" if self.viewer is None else ("Your hand" if not self.hotseat else names[self.viewer])
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
                more = (
                    f"  (or {len(options) - 1} other call{'s' if len(options) > 2 else ''})"
                    if len(options) > 1
                    else ""
                )
                calls.append(f"CALL POSSIBLE (c): {options[0].text(wild, pretty=True)}{more}")
            calls += [f"No call: {note}." for note in describe.blocked_calls(obs, session.why, pretty=True)]
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
        names = self.session.names
        if obs.phase == "over":
            return "The deal is over."
        if not obs.is_my_turn:
            return f"{names[obs.current_seat]} is playing..."
        if obs.phase == "draw":
            if DRAW_DISCARD in obs.legal_actions:
                top = describe.card_text(obs.discard_pile[-1], obs.wild_cards, pretty=True)
                return f"Draw: s from the stock ({obs.stock_size} cards) or d the discard-pile top {top}."
            return "Draw: s from the stock (the discard pile is empty, R4.2)."
        text = "Discard: choose a card (1-6, arrows or a click), then x or Enter."
        if obs.taken_card is not None:
            taken = describe.card_text(obs.taken_card, obs.wild_cards, pretty=True)
            text += f" {taken} stays this turn (R4.3)."
        return text

    def _update_log(self) -> None:
        session = self.session
        table = self.table
        if self._logged_deal != session.deal_number:
            if self._logged_deal:
                table.log_lines([""])
            table.log_lines(
                [
                    f"-- Deal {session.deal_number}, dealer {session.names[session.observation(None).dealer]} --"
                ]
            )
            self._logged_deal = session.deal_number
            self._logged = 0
        obs = self._log_view()
        events = obs.history[self._logged :]
        table.log_lines(
            describe.event_text(event, session.names, obs.wild_cards, pretty=True) for event in events
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
        return obs, describe.hand_order(obs)

    def act(self, action: Action) -> None:
        """Play the viewer's ``action``, or say which rule forbids it (why_illegal)."""
        if not self._table_up():
            return
        if self.busy or not self.waiting:
            self.say("Wait: it is not your turn.", warning=True)
            return
        error = self.session.why(action)
        if error is not None:
            self.say(f"Not allowed: {error.rule} {error.reason}.", warning=True)
            return
        event = self.session.apply(action)
        self.note = ""
        if event.action.kind.is_draw and self.viewer is not None:
            self.selected = len(self.session.observation(self.viewer).hand) - 1
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
        if obs.is_my_turn and obs.phase == "discard":
            error = self.session.why(Action.discard(cards[index]))
            if error is not None:
                self.say(
                    f"{cards[index].pretty()} may not be discarded: {error.rule} {error.reason}.",
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
        if obs.phase != "discard" or not cards:
            error = self.session.why(Action.discard(cards[0])) if cards and self.waiting else None
            self.say(
                f"Not allowed: {error.rule} {error.reason}." if error else "Wait: it is not your turn.",
                warning=True,
            )
            return
        self.act(Action.discard(cards[min(self.selected, len(cards) - 1)]))

    def on_card_widget_chosen(self, message: CardWidget.Chosen) -> None:
        hand = self._hand()
        if hand is None:
            return
        obs, _cards = hand
        if message.index == self.selected and obs.is_my_turn and obs.phase == "discard":
            self.action_discard()
        else:
            self.choose(message.index)

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        name = (event.button.id or "").removeprefix("button-")
        if name:
            await self.run_action(name)

    def action_call(self) -> None:
        hand = self._hand()
        if hand is None or not self._table_up():
            return
        obs, _cards = hand
        if not self.waiting:
            self.say("Wait: it is not your turn.", warning=True)
            return
        options = describe.call_options(obs)
        if not options:
            if obs.phase != "discard":
                error = self.session.why(CALL_SIX)
                self.say(
                    f"Not allowed: {error.rule} {error.reason}." if error else "No call now.", warning=True
                )
                return
            notes = describe.blocked_calls(obs, self.session.why, pretty=True)
            text = " ".join(f"No call: {note}." for note in notes)
            self.say(text or "No call: R6.1 your six cards make no winning combination (R5).", warning=True)
            return
        lines = [option.text(obs.wild_cards, pretty=True) for option in options]
        lines[0] += "  <- best"

        def chosen(index: int | None) -> None:
            if index is not None:
                self.act(options[index].action)
            else:
                self.advance()

        self.push_screen(ChoiceScreen("Call (R6)", lines), chosen)

    def action_hint(self) -> None:
        if not self._table_up():
            return
        if not self.waiting or self.viewer is None:
            self.say("A hint is for your own turn.", warning=True)
            return
        self.say(f"Thinking ({self.session.config.hint})...")
        self.run_worker(self._hint(self.viewer), exclusive=True, group="hint")

    async def _hint(self, seat: int) -> None:
        session = self.session
        obs = session.observation(seat)
        action = await asyncio.to_thread(session.hint_player().act, obs)
        if session.current != seat or session.observation(seat).history != obs.history:
            return  # the game moved on meanwhile
        if action.kind is ActionKind.DISCARD and action.card is not None:
            cards = describe.hand_order(obs)
            if action.card in cards:
                self.selected = cards.index(action.card)
        self.say(f"Hint ({session.config.hint}): {describe.action_text(action, obs, pretty=True)}.")

    def action_history(self) -> None:
        if not self._table_up() or self.session.deal is None:
            return
        obs = self._log_view()
        names = self.session.names
        wild = obs.wild_cards
        lines = [
            "Discard pile, bottom to top (R4.5):",
            "  " + (describe.cards_text(obs.discard_pile, wild, pretty=True) or "(empty)"),
            "",
            f"Deal {self.session.deal_number} so far:",
        ]
        lines += ["  " + describe.event_text(event, names, wild, pretty=True) for event in obs.history]
        keys = {key: "close" for key in ("escape", "p", "q", "enter")}
        self.push_screen(
            TextScreen("Discard pile and history", "\n".join(lines), keys, "Esc: back"), self._resume_play
        )

    def action_help(self) -> None:
        if not self._table_up():
            return
        text = TUI_KEYS + "\n" + rules_text(self.session.match.rules)
        keys = {key: "close" for key in ("escape", "question_mark", "q", "enter")}
        self.push_screen(
            TextScreen("Help", text, keys, "Esc: back   arrows/PgUp/PgDn: scroll"), self._resume_play
        )

    def _resume_play(self, _result: str | None) -> None:
        """Back at the table: carry on (the bots may have finished the deal meanwhile)."""
        self.advance()

    def action_quit_match(self) -> None:
        if not self._table_up():
            return
        self.finish(quit=True)
