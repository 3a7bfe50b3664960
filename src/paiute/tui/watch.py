"""``paiute replay FILE --watch``: step through a saved match in the table of ``paiute play``.

The record is replayed through the engine (RECORD.md) and shown one action at a time, as a
spectator sees it (R9.1: public facts only) or, after ``v``, as one seat sees it: its hand too.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType

from paiute.chance import RecordedChance
from paiute.errors import N_, RecordError
from paiute.events import Phase
from paiute.i18n import Translator, translator
from paiute.match import Match
from paiute.record import Record
from paiute.showdown import showdown
from paiute.tui import describe
from paiute.tui.review_screen import WatchReviews
from paiute.tui.widgets import MinimumSize, TableView, TextScreen

__all__ = ["WatchApp"]

_KEYS = N_("""\
KEYS
  Right, Space, n   next action          Left, b     previous action
  ] or PgDn         next deal            [ or PgUp   previous deal
  Home, End         first, last action   v           whose view: spectator, seat 0, 1...
  a                 play on by itself    ?           this help      q  quit
""")

_BUTTONS = (
    (N_("<- back"), "step_back"),
    (N_("-> next"), "next"),
    (N_("[ deal"), "previous_deal"),
    (N_("] deal"), "next_deal"),
    (N_("v view"), "view"),
    (N_("a auto"), "auto"),
    (N_("q quit"), "quit"),
)


class WatchApp(MinimumSize, App[int]):
    """Steps through ``record``; every state is rebuilt by replaying it (see the module)."""

    TITLE = "Paiute replay"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space,n", "next", "Next"),
        Binding("left,b", "step_back", "Back"),
        Binding("right_square_bracket,pagedown", "next_deal", "Next deal"),
        Binding("left_square_bracket,pageup", "previous_deal", "Previous deal"),
        Binding("home", "first", "First", show=False),
        Binding("end", "last", "Last", show=False),
        Binding("v", "view", "View"),
        Binding("a", "auto", "Auto"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, record: Record, *, delay: float = 0.7, tr: Translator | None = None) -> None:
        super().__init__()
        #: The language of every text on the screen.
        self.tr = tr or translator()
        record.replay()  # refuse a record that breaks a rule, with its rule
        if not record.deals:
            raise RecordError(N_("the record has no deals to watch"))
        self.record = record
        self.delay = delay
        #: Every position: (deal index, actions applied in that deal).
        self.positions = [
            (index, count)
            for index, deal in enumerate(record.deals)
            for count in range(len(deal.actions) + 1)
        ]
        self.position = 0
        self.seat: int | None = None
        self.auto = False
        self._match: Match | None = None
        self._at: tuple[int, int] | None = None
        #: The review marks shown as it steps (tui/review_screen.py), computed in the background.
        self.reviews = WatchReviews(record)
        self._review_ticking = False

    def compose(self) -> ComposeResult:
        yield TableView([(self.tr.gettext(label), name) for label, name in _BUTTONS], self.tr)

    def on_mount(self) -> None:
        self.show()
        self.check_size()

    # -- the state at a position ----------------------------------------------------------

    def _new_match(self) -> Match:
        record = self.record
        return Match(
            record.rules,
            record.players,
            balances=record.balances,
            pot=record.pot,
            chance=RecordedChance(()),
            dealer=record.deals[0].dealer,
        )

    def match_at(self, deal_index: int, count: int) -> Match:
        """The match after ``count`` actions of deal ``deal_index`` (replayed, or stepped on)."""
        match = self._match
        at = self._at
        if match is None or at is None or at[0] != deal_index or at[1] > count:
            match = self._new_match()
            for index in range(deal_index + 1):
                deal_record = self.record.deals[index]
                match.start_deal(deal_record.deck, chance=RecordedChance(deal_record.rebuilds))
                actions = deal_record.actions if index < deal_index else deal_record.actions[:count]
                for action in actions:
                    match.apply(action)
        else:
            actions = self.record.deals[deal_index].actions
            for action in actions[at[1] : count]:
                match.apply(action)
        self._match = match
        self._at = (deal_index, count)
        return match

    # -- drawing --------------------------------------------------------------------------

    def show(self) -> None:
        deal_index, count = self.positions[self.position]
        match = self.match_at(deal_index, count)
        deal = match.deal
        assert deal is not None
        obs = deal.observation(self.seat)
        names = describe.person_names(match.players, self.tr)
        tr = self.tr
        # The table lives on the base screen; another may be on top (a summary, "too small",
        # the help) when a step or a finished review redraws it.
        table = self.screen_stack[0].query_one(TableView)
        total = len(self.record.deals[deal_index].actions)
        view = tr.gettext(N_("spectator")) if self.seat is None else names[self.seat]
        # Deals and moves counted from 1 as everywhere: "move 7/42" once the deal's seventh move
        # is shown (move 0 before its first), the move a review note names.
        title = tr.gettext(
            N_("Replay  deal {deal}/{deals}  move {move}/{moves}  view: {view}"),
            deal=deal_index + 1,
            deals=len(self.record.deals),
            move=count,
            moves=total,
            view=view,
        )
        table.set_title(title + (tr.gettext(N_("  [auto]")) if self.auto else ""))
        table.set_seats(describe.seat_lines(obs, names, match.balances, pretty=True, tr=tr))
        table.set_table(describe.table_lines(obs, names, pretty=True, tr=tr))
        cards = describe.hand_order(obs) if self.seat is not None else []
        table.set_hand(
            "" if self.seat is None else names[self.seat],
            cards,
            wild=obs.wild_cards,
            new=describe.drawn_card(obs),
        )
        summary: list[str] = []
        if obs.phase is Phase.OVER and match.results:
            before = self.record.balances if deal_index == 0 else match.results[deal_index - 1].balances
            result = match.results[deal_index]
            summary = describe.deal_summary(
                obs, names, before, result.balances, result.pot, pretty=True, tr=tr
            )
        table.set_calls(summary)
        if count < total:
            table.set_message(
                tr.gettext(
                    N_("Next: {who} - Right for the next action, ? for the keys."),
                    who=names[obs.current_seat],
                )
            )
        elif obs.phase is Phase.OVER:
            table.set_message(tr.gettext(N_("End of the deal - ] for the next deal.")))
        else:
            table.set_message(tr.gettext(N_("The record ends here.")))
        note, pending = self.reviews.note(deal_index, count, names, tr, self.seat)  # finished deals
        if note:
            table.set_calls([*summary, note])
        if pending and not self._review_ticking:
            self._review_ticking = True
            self.set_timer(0.5, self._review_tick)
        table.clear_log()
        table.log_lines(
            describe.event_text(event, names, obs.wild_cards, pretty=True, tr=tr) for event in obs.history
        )
        if deal.is_over:  # R9.3: every hand, at the end of the log (it scrolls)
            table.log_lines(
                ["", *describe.showdown_lines(showdown(deal), names, obs.wild_cards, pretty=True, tr=tr)]
            )

    def _review_tick(self) -> None:
        self._review_ticking = False
        self.show()

    # -- keys -----------------------------------------------------------------------------

    def _go(self, position: int) -> None:
        self.position = max(0, min(position, len(self.positions) - 1))
        self.show()

    def action_next(self) -> None:
        self._go(self.position + 1)

    def action_step_back(self) -> None:
        self._go(self.position - 1)

    def action_first(self) -> None:
        self._go(0)

    def action_last(self) -> None:
        self._go(len(self.positions) - 1)

    def action_next_deal(self) -> None:
        deal_index = self.positions[self.position][0]
        if deal_index + 1 < len(self.record.deals):
            self._go(self.positions.index((deal_index + 1, 0)))

    def action_previous_deal(self) -> None:
        deal_index, count = self.positions[self.position]
        target = deal_index - 1 if count == 0 and deal_index > 0 else deal_index
        self._go(self.positions.index((target, 0)))

    def action_view(self) -> None:
        players = len(self.record.players)
        self.seat = 0 if self.seat is None else (None if self.seat + 1 >= players else self.seat + 1)
        self.show()

    def action_auto(self) -> None:
        self.auto = not self.auto
        if self.auto:
            self.set_timer(self.delay, self._tick)
        self.show()

    def _tick(self) -> None:
        if not self.auto:
            return
        if self.position + 1 >= len(self.positions):
            self.auto = False
            self.show()
            return
        self.action_next()
        self.set_timer(self.delay, self._tick)

    def action_help(self) -> None:
        keys = {key: "close" for key in ("escape", "question_mark", "q", "enter")}
        tr = self.tr
        self.push_screen(
            TextScreen(tr.gettext(N_("Replay keys")), tr.gettext(_KEYS), keys, tr.gettext(N_("Esc: back")))
        )
