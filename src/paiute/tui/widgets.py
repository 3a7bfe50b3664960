"""Textual widgets shared by ``paiute play`` and ``paiute replay --watch``.

:class:`TableView` is the whole table: a title line, one line per seat, the upcard, stock,
discard pile and pot, the hand as cards, the call preview, a message line and the log. It only
shows text it is given; the applications build that text from one seat's observation (R9).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.message import Message
from textual.screen import Screen
from textual.widgets import RichLog, Static

from paiute.cards import Card
from paiute.errors import N_
from paiute.i18n import Translator, translator
from paiute.rules import RuleSet
from paiute.tui.cells import wrap
from paiute.tui.describe import display_width
from paiute.tui.dialogs import CellLines, ChoiceScreen, TextScreen, styled
from paiute.tui.help import combinations_table

__all__ = [
    "MIN_SIZE",
    "CardWidget",
    "ChoiceScreen",
    "CombinationsPanel",
    "CoverScreen",
    "KeyBar",
    "MinimumSize",
    "TableView",
    "TextScreen",
    "TooSmallScreen",
    "combinations_screen",
    "styled",
]

#: The smallest terminal the table is drawn in (columns, rows); below it a notice says so.
MIN_SIZE = (80, 24)


class CardWidget(Static):
    """One card of the hand; a click chooses it (a second click on the chosen card plays it)."""

    class Chosen(Message):
        """The card at ``index`` was clicked."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, index: int) -> None:
        super().__init__("", id=f"card-{index}", classes="card")
        self.index = index
        self.card: Card | None = None

    def show(
        self,
        card: Card | None,
        *,
        wild: bool,
        selected: bool,
        forbidden: bool,
        new: bool,
        tr: Translator | None = None,
    ) -> None:
        self.card = card
        self.display = card is not None
        if card is None:
            return
        tr = tr or translator()
        text = Text(tr.card(card), style="bold red" if card.is_red else "bold")
        if wild:
            text.append("*", style="bold yellow")
        self.update(text)
        self.border_title = str(self.index + 1)  # the key that chooses it: ASCII in every language
        marks = {"new": tr.pgettext("card mark", "new"), "no": tr.pgettext("card mark", "no"), "": ""}
        # A card that may not be discarded says so ("no", R4.3) before saying it is new.
        mark = marks["no" if forbidden else ("new" if new else "")]
        self.border_subtitle = mark
        # A longer word than English "new" widens the cards rather than being cut ("cusub"):
        # every card of the hand alike, as wide as the language's longest mark needs.
        widest = max(display_width(word) for word in marks.values())
        self.styles.width = widest + 6 if widest > 3 else None
        self.set_class(wild, "wild")
        self.set_class(selected, "selected")
        self.set_class(forbidden, "forbidden")

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Chosen(self.index))


class EventLog(RichLog):
    """The log, following its newest line: when the table above it grows (a call preview, a
    two-line message) and the log shrinks, the newest line stays in view at once, unless the
    reader has scrolled back to older lines."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._was_at_end = True

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        self._was_at_end = new >= self.max_scroll_y

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        if self.auto_scroll and self._was_at_end:
            self.scroll_end(animate=False, immediate=True, x_axis=False)


class KeyBar(Static):
    """The keys as one line of labels (``s Stock  d Pile ...``); a click on a label runs its
    action, and a key the rules do not allow now is dimmed. One widget, drawn left to right: a
    label in any script (a Bengali vowel sign takes a column on a terminal but none in Textual's
    count) shifts only what follows it on its own line, and never overlaps another widget. At
    80 columns the whole bar fits, "q Quit" included, in every language; a key named
    ``optional`` is shown only where there is room for it as well."""

    def __init__(self, keys: Sequence[tuple[str, str]] = (), *, optional: Collection[str] = ()) -> None:
        super().__init__("", id="keys", markup=False)
        self._keys = list(keys)
        self._optional = set(optional)
        self._enabled: dict[str, bool] = {}

    def set_keys(self, keys: Sequence[tuple[str, str]]) -> None:
        self._keys = list(keys)
        self._draw()

    def enable(self, enabled: dict[str, bool]) -> None:
        self._enabled.update(enabled)
        self._draw()

    @staticmethod
    def _columns(keys: Sequence[tuple[str, str]], gap: int) -> int:
        return sum(display_width(label) for label, _name in keys) + gap * (len(keys) - 1)

    def shown(self) -> list[tuple[str, str]]:
        """The keys on the bar: every one, less the optional ones where they do not fit."""
        keys = list(self._keys)
        width = self.size.width
        for label, name in reversed(self._keys):
            if self._columns(keys, 1) <= width:
                break
            if name in self._optional:
                keys.remove((label, name))
        return keys

    def _gap(self) -> int:
        """Two columns between the labels where the whole bar fits so, else one."""
        shown = self.shown()
        return 2 if self._columns(shown, 2) + 2 <= self.size.width else 1

    def spans(self) -> list[tuple[int, int, str]]:
        """Each label's first and last column and action: in the columns a terminal draws
        them in (and reports clicks in), so that a click finds its label in any script."""
        spans = []
        x = 0
        gap = self._gap()
        for label, name in self.shown():
            width = display_width(label)
            spans.append((x, x + width - 1, name))
            x += width + gap
        return spans

    def _draw(self) -> None:
        text = Text()
        gap = " " * self._gap()
        for index, (label, name) in enumerate(self.shown()):
            if index:
                text.append(gap)
            text.append(label, style="bold" if self._enabled.get(name, True) else "dim")
        self.update(text)

    def on_resize(self, _event: events.Resize) -> None:
        self._draw()

    async def on_click(self, event: events.Click) -> None:
        event.stop()
        for first, last, name in self.spans():
            if first <= event.x <= last and self._enabled.get(name, True):
                await self.app.run_action(name)
                return


class TableView(Vertical):
    """The table as one seat sees it (see the module documentation)."""

    DEFAULT_CSS = """
    TableView { height: 1fr; }
    TableView #title { height: 1; background: $primary; color: $text; padding: 0 1; }
    TableView #goal { height: auto; padding: 0 1; color: $text-muted; }
    TableView #seats { height: auto; padding: 0 1; }
    TableView #table { height: auto; padding: 0 1; color: $text-muted; }
    TableView #hand-row { height: 3; padding: 0 1; }
    TableView #hand-label { width: 1fr; height: 3; padding: 0 1; content-align: left middle; }
    TableView .card { width: 9; height: 3; border: round $foreground 40%; content-align: center middle; }
    TableView .card.wild { border: round yellow; }
    TableView .card.selected { border: heavy $accent; background: $boost; }
    TableView .card.forbidden { color: $text-disabled; }
    TableView #calls { height: auto; padding: 0 1; color: $success; }
    TableView #message { height: auto; padding: 0 1; }
    TableView #preparing { height: auto; padding: 0 1; color: $warning; }
    TableView #keys { height: 1; padding: 0 1; }
    TableView #log { height: 1fr; min-height: 3; border-top: solid $panel; padding: 0 1; }
    """

    def __init__(
        self,
        buttons: Sequence[tuple[str, str]] = (),
        tr: Translator | None = None,
        *,
        optional: Collection[str] = (),
    ) -> None:
        super().__init__(id="tableview")
        self._buttons = list(buttons)
        #: The keys shown on the bar only where there is room for them.
        self._optional = tuple(optional)
        #: The language of the card faces and their marks.
        self.tr = tr or translator()

    def compose(self) -> ComposeResult:
        yield Static("", id="title", markup=False)
        # The table's lines are broken in the columns a terminal draws (CellLines): a line of
        # Bengali wraps before the screen's edge instead of running past it and losing words.
        goal = CellLines("", id="goal")
        goal.display = False  # shown only where an application sets a goal line
        yield goal
        preparing = Static("", id="preparing", markup=False)
        preparing.display = False  # shown only while a bot is being prepared
        yield preparing
        # One line a seat, cut with "…" in the columns a terminal draws: a long last action
        # (Somali) never wraps onto a second line and pushes the table down.
        yield CellLines("", wrap=False, id="seats")
        yield CellLines("", id="table")
        with Horizontal(id="hand-row"):
            # The cards first, the label after them: a label in any script (Bengali vowel
            # signs take a column on a terminal but none in Textual's count) moves no card.
            for index in range(6):
                yield CardWidget(index)
            yield Static("", id="hand-label", markup=False)
        yield CellLines("", id="calls")
        yield CellLines("", id="message")
        yield KeyBar(self._buttons, optional=self._optional)
        log = EventLog(id="log", markup=False, wrap=True, auto_scroll=True)
        log.can_focus = False  # the keys belong to the table; the log scrolls with the mouse
        yield log

    # -- setters ----------------------------------------------------------------------------

    def set_title(self, text: str) -> None:
        self.query_one("#title", Static).update(text)

    def set_goal(self, text: str) -> None:
        """The line under the title that says what the game is about ("" hides it)."""
        widget = self.query_one("#goal", Static)
        widget.update(text)
        widget.display = bool(text)

    def set_preparing(self, text: str) -> None:
        """The line under the title while a bot's compiled search is prepared ("" hides it)."""
        widget = self.query_one("#preparing", Static)
        widget.update(text)
        widget.display = bool(text)

    def set_seats(self, lines: Iterable[str]) -> None:
        self.query_one("#seats", CellLines).update("\n".join(lines))

    def set_table(self, lines: Iterable[str]) -> None:
        self.query_one("#table", Static).update(styled("\n".join(lines)))

    def set_hand(
        self,
        label: str,
        cards: Sequence[Card],
        *,
        wild: Collection[Card] = (),
        selected: int | None = None,
        forbidden: Collection[Card] = (),
        new: Card | None = None,
    ) -> None:
        self.query_one("#hand-label", Static).update(label)
        for widget in self.query(CardWidget):
            index = widget.index
            card = cards[index] if index < len(cards) else None
            widget.show(
                card,
                wild=card in wild,
                selected=index == selected,
                forbidden=card in forbidden,
                new=card is not None and card == new,
                tr=self.tr,
            )

    def set_calls(self, lines: Iterable[str]) -> None:
        self.query_one("#calls", Static).update(styled("\n".join(lines)))

    def set_message(self, text: str, *, warning: bool = False) -> None:
        widget = self.query_one("#message", Static)
        widget.update(styled(text))
        widget.styles.color = "orange" if warning else None

    def enable(self, buttons: dict[str, bool]) -> None:
        """Enable the named keys that are true, dim the others named: an action the rules do
        not allow now is not offered."""
        self.query_one(KeyBar).enable(buttons)

    def relabel(self, labels: dict[str, str]) -> None:
        """New labels for the named keys (another language)."""
        self._buttons = [(labels.get(name, label), name) for label, name in self._buttons]
        self.query_one(KeyBar).set_keys(self._buttons)

    def log_lines(self, lines: Iterable[str]) -> None:
        log = self.query_one("#log", EventLog)
        for line in lines:
            log.write(styled(line))

    def clear_log(self) -> None:
        self.query_one("#log", EventLog).clear()


class CombinationsPanel(Static):
    """The winning combinations, best first, beside the table where the terminal is wide enough
    (:data:`WIDE` columns or more); hidden on a narrower one, where a key shows them instead."""

    #: The narrowest terminal that shows the panel: the table keeps its 80 columns beside it.
    WIDE = 120

    DEFAULT_CSS = """
    CombinationsPanel { dock: right; width: 40; height: 100%; padding: 0 1; border-left: solid $panel;
                        color: $text-muted; }
    """

    def __init__(self) -> None:
        super().__init__("", id="combinations", markup=False)
        self.display = False

    #: The columns of text inside its border and padding.
    TEXT_WIDTH = 37

    def show_text(self, text: str) -> None:
        """Show ``text``, each long line broken between words (in terminal columns), indented
        under its start."""
        self.update(styled(wrap(text, self.TEXT_WIDTH)))

    def fit(self, width: int) -> None:
        """Show the panel on a terminal of ``width`` columns if it is wide enough."""
        self.display = width >= self.WIDE


def combinations_screen(rules: RuleSet, tr: Translator | None = None) -> TextScreen:
    """The page of the winning combinations, best first (``w``); Esc, Enter or ``w`` closes it."""
    tr = tr or translator()
    keys = {key: "close" for key in ("escape", "w", "q", "enter")}
    return TextScreen(
        tr.gettext(N_("Winning combinations")),
        combinations_table(rules, tr),
        keys,
        tr.gettext(N_("Esc: back")),
    )


class CoverScreen(Screen[str]):
    """Hot seat: hides the table until the next person is at the screen."""

    DEFAULT_CSS = """
    CoverScreen { align: center middle; }
    CoverScreen #cover { width: 64; max-width: 100%; height: auto; padding: 1 2; border: double $accent; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "ready", "Ready"),
        Binding("q", "quit_match", "Quit"),
    ]

    def __init__(self, name: str, tr: Translator | None = None) -> None:
        super().__init__()
        self._who = name
        self._tr = tr or translator()

    def compose(self) -> ComposeResult:
        text = self._tr.gettext(
            N_("Pass the screen to {who}.\n{who}: press Enter when ready (q quits)."), who=self._who
        )
        yield CellLines(text, center=True, id="cover")

    def on_click(self) -> None:
        self.dismiss("ready")

    def action_ready(self) -> None:
        self.dismiss("ready")

    def action_quit_match(self) -> None:
        self.dismiss("quit")


class TooSmallScreen(Screen[str]):
    """Covers everything while the terminal is smaller than :data:`MIN_SIZE`: cards are never
    cut off without a word. ``q`` leaves (the match is saved)."""

    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; }
    TooSmallScreen #small { width: 100%; height: auto; text-align: center; color: $warning; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "leave", "Quit")]

    def __init__(self, size: Size, tr: Translator | None = None) -> None:
        super().__init__()
        self._tr = tr or translator()
        self._size = size

    def _text(self) -> str:
        return self._tr.gettext(
            N_(
                "Terminal too small ({width}x{height}; need 80x24).\nEnlarge the window, or press q to save and quit."
            ),
            width=self._size.width,
            height=self._size.height,
        )

    def compose(self) -> ComposeResult:
        yield Static(self._text(), id="small", markup=False)

    def resized(self, size: Size) -> None:
        self._size = size
        self.query_one("#small", Static).update(self._text())

    def action_leave(self) -> None:
        self.dismiss("quit")


class MinimumSize:
    """For an :class:`~textual.app.App`: the :class:`TooSmallScreen` while the terminal is
    below :data:`MIN_SIZE`, taken away (and :meth:`size_restored` called) once it is not."""

    tr: Translator

    def check_size(self) -> None:
        app = self
        assert isinstance(app, App)
        size = app.size
        small = size.width < MIN_SIZE[0] or size.height < MIN_SIZE[1]
        top = app.screen
        if small and isinstance(top, TooSmallScreen):
            top.resized(size)
        elif small:
            app.push_screen(TooSmallScreen(size, self.tr), self._left_small)
        elif isinstance(top, TooSmallScreen):
            top.dismiss("restored")

    def _left_small(self, result: str | None) -> None:
        if result == "quit":
            self.leave()
        else:
            self.size_restored()

    def on_resize(self, _event: events.Resize) -> None:
        assert isinstance(self, App)
        self.call_after_refresh(self.check_size)

    def leave(self) -> None:
        """``q`` on the notice: end (an app saves what it must first)."""
        assert isinstance(self, App)
        self.exit(0)

    def size_restored(self) -> None:
        """The terminal is large enough again."""
