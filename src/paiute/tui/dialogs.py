"""The full screen's dialogs, laid out in the columns a terminal draws (Textual).

Textual measures text with rich's ``cell_len``, which gives a Bengali vowel sign (Mc) no column
where a terminal gives it one: a line of Bengali in a plain widget is padded too far and pushes
the right border out of place, or is cut before its end. Here every line of a dialog is broken,
cut and padded with :func:`~paiute.tui.describe.display_width` (:mod:`paiute.tui.cells`) and
drawn by :class:`CellLines` as exactly that many terminal columns, so a border stands in one
column in every language. A dialog's title is drawn into its top border the same way
(:class:`FrameTop`). A dialog is as wide as its text, never wider than the screen, and scrolls
when it is taller; the rows it stands on are its own from edge to edge (a strip of the table
beside it could be drawn wider than Textual counts, and push the dialog out of place).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar, TypeVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.geometry import Size
from textual.screen import ModalScreen
from textual.strip import Strip
from textual.visual import VisualType
from textual.widget import Widget
from textual.widgets import Static

from paiute.tui.cells import display_width, fit, wrap_lines

__all__ = ["CellLines", "ChoiceScreen", "Dialog", "FrameTop", "TextScreen", "styled"]

ResultT = TypeVar("ResultT")

# Card faces of every language (English T J Q K A; Romanian 10 V D R A), then a suit symbol.
_FACE = r"(?:10|[2-9TJQKAVDR])"
_WILD = re.compile(rf"(?:{_FACE}[♣♦♥♠]|Jk[12])(?:\*|→{_FACE}[♣♦♥♠])")
_RED = re.compile(rf"{_FACE}[♦♥](?!\*)")
_BLACK = re.compile(rf"{_FACE}[♣♠](?!\*)")


def styled(text: str) -> Text:
    """Text with its cards coloured: red suits red, black suits bold, wild cards yellow."""
    result = Text(text)
    result.highlight_regex(_RED, "bold red")
    result.highlight_regex(_BLACK, "bold")
    result.highlight_regex(_WILD, "bold yellow")
    return result


def _segments(text: Text, style: Style, widget: Widget) -> list[Segment]:
    """``text`` as segments on the widget's ``style`` (one line: no wrapping, no newline)."""
    return list(Segment.apply_style(text.render(widget.app.console, end=""), style))


class CellLines(Static):
    """Text drawn line by line in exactly the columns a terminal gives it: broken between words
    to the widget's width (``wrap``) or cut with an ellipsis (one line each), padded with
    spaces to the width, counted with :func:`~paiute.tui.describe.display_width`; cards are
    coloured (:func:`styled`). ``center`` centres each line."""

    DEFAULT_CSS = "CellLines { height: auto; }"

    def __init__(
        self,
        text: str = "",
        *,
        wrap: bool = True,
        center: bool = False,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(styled(text), id=id, classes=classes, markup=False)
        self._text = text
        self._wrap = wrap
        self._center = center
        self._laid_out: tuple[int, list[str]] | None = None

    @property
    def text(self) -> str:
        """The text as given, before it is broken into lines."""
        return self._text

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        """Show ``content`` (its plain text) instead."""
        self._text = content.plain if isinstance(content, Text) else str(content)
        self._laid_out = None
        super().update(styled(self._text), layout=layout)

    def lines(self, width: int) -> list[str]:
        """The lines drawn at ``width`` columns."""
        if self._laid_out is None or self._laid_out[0] != width:
            if self._wrap:
                lines = wrap_lines(self._text, width)
            else:
                lines = [fit(line, width) for line in self._text.split("\n")]
            self._laid_out = (width, lines)
        return self._laid_out[1]

    def natural_width(self) -> int:
        """The columns of its longest line, unbroken."""
        return max(display_width(line) for line in self._text.split("\n"))

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self.natural_width()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines(width)) if width > 0 else 0

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        style = self.visual_style.rich_style
        lines = self.lines(width)
        if not 0 <= y < len(lines) or width <= 0:
            return Strip.blank(width, style)
        line = lines[y]
        left = (width - display_width(line)) // 2 if self._center else 0
        text = styled(" " * left + line)
        return self.line_strip(text, width, style)

    def line_strip(self, text: Text, width: int, style: Style) -> Strip:
        """``text`` padded to ``width`` terminal columns: a strip whose cell length is what a
        terminal draws, whatever rich counts (Textual then adds no padding of its own)."""
        segments = _segments(text, style, self)
        segments.append(Segment(" " * max(width - display_width(text.plain), 0), style))
        return Strip(segments, width)


class FrameTop(Widget):
    """A dialog's top border with its title in it, ``╭─ Title ───╮``: the title is cut to fit
    and the line padded in terminal columns, so that the corner stands above the side border."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"frame-top--title"}
    DEFAULT_CSS = """
    FrameTop { height: 1; color: $accent; }
    FrameTop > .frame-top--title { color: $text; text-style: bold; }
    """

    def __init__(self, title: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.caption = title

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        border = self.visual_style.rich_style
        if y != 0 or width < 2:
            return Strip.blank(width, border)
        title = fit(self.caption, width - 6) if width > 6 else ""
        head = "╭─ " if title else "╭─"
        tail = " " if title else ""
        rest = max(width - display_width(head + title + tail) - 1, 0)
        segments = [
            Segment(head, border),
            Segment(title, border + self.get_component_rich_style("frame-top--title")),
            Segment(tail + "─" * rest + "╮", border),
        ]
        return Strip(segments, width)


class Dialog(ModalScreen[ResultT]):
    """A box in the middle of the screen: a title in its top border, a body that scrolls, a
    line of keys at its foot. As wide as its widest line (at most :attr:`max_width` columns and
    the screen's width), as tall as its lines (at most the screen's height)."""

    DEFAULT_CSS = """
    Dialog { align: center middle; }
    Dialog #band { width: 100%; height: auto; align: center top; background: $background 70%; }
    Dialog #dialog { width: auto; height: auto; }
    Dialog #frame { height: 1fr; border: round $accent; border-top: none; background: $surface; }
    Dialog #scroll { height: 1fr; scrollbar-size-vertical: 1; scrollbar-gutter: stable; }
    Dialog #text { padding: 0 0 0 1; }
    Dialog #keys { height: auto; dock: bottom; background: $primary; color: $text; padding: 0 1; }
    """

    #: The columns of a dialog that are not its text: two borders, a space, the scroll bar.
    CHROME_WIDTH = 4
    #: The rows of a dialog that are not its text or keys: the top and the bottom border.
    CHROME_HEIGHT = 2

    def __init__(self, title: str, footer: str, *, max_width: int = 84) -> None:
        super().__init__()
        self._title = title
        self._footer = footer
        self.max_width = max_width

    def compose(self) -> ComposeResult:
        with Vertical(id="band"), Vertical(id="dialog"):
            yield FrameTop(self._title, id="top")
            with Vertical(id="frame"):
                yield CellLines(self._footer, id="keys")
                with VerticalScroll(id="scroll"):
                    yield from self.body()

    def body(self) -> ComposeResult:
        """The widgets inside the scrolling part."""
        yield from ()

    def body_width(self) -> int:
        """The columns the body's longest line takes, unbroken."""
        return 0

    def body_height(self, width: int) -> int:
        """The rows of the body at ``width`` columns of text."""
        return 0

    def on_mount(self) -> None:
        self.fit_to(self.app.size)

    def on_resize(self, event: events.Resize) -> None:
        self.fit_to(event.size)

    def fit_to(self, screen: Size) -> None:
        """Size the dialog for a screen of ``screen``: min(its content, the screen)."""
        natural = max(
            self.body_width() + self.CHROME_WIDTH,
            display_width(self._title) + 6,
            display_width(self._footer) + 4,
        )
        width = max(min(natural, self.max_width, screen.width), 8)
        footer = len(wrap_lines(self._footer, width - 4))
        rows = self.body_height(width - self.CHROME_WIDTH)
        height = max(min(rows + footer + self.CHROME_HEIGHT, screen.height), 3)
        box = self.query_one("#dialog")
        box.styles.width = width
        box.styles.height = height
        self.query_one("#band").styles.height = height

    def refit(self) -> None:
        """Size the dialog again, after its body has changed."""
        self.fit_to(self.app.size)


class TextScreen(Dialog[str]):
    """A scrollable page of text (help, history, the end of a deal, a hint) closed by a key.

    ``keys`` maps each key that closes it to the result; any other key is ignored (the arrows
    and PgUp/PgDn scroll)."""

    def __init__(
        self, title: str, text: str, keys: dict[str, str], footer: str, *, max_width: int = 84
    ) -> None:
        super().__init__(title, footer, max_width=max_width)
        self._text = text
        self._keys = keys

    def body(self) -> ComposeResult:
        yield CellLines(self._text, id="text")

    def body_width(self) -> int:
        return max(display_width(line) for line in self._text.split("\n"))

    def body_height(self, width: int) -> int:
        return len(wrap_lines(self._text, width))

    def set_text(self, text: str) -> None:
        """Show ``text`` instead, the dialog sized again for it."""
        self._text = text
        self.query_one("#text", CellLines).update(text)
        self.refit()

    def on_key(self, event: events.Key) -> None:
        result = self._keys.get(event.key)
        if result is not None:
            event.stop()
            self.dismiss(result)


class ChoiceScreen(Dialog[int | None]):
    """Pick one of several lines (the legal calls): up and down move, Enter or a click picks,
    Escape cancels."""

    DEFAULT_CSS = """
    ChoiceScreen #frame { border: round $success; border-top: none; }
    ChoiceScreen #top { color: $success; }
    ChoiceScreen .choice { padding: 0 0 0 1; }
    ChoiceScreen .choice.-chosen { background: $accent 40%; text-style: bold; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("up", "move(-1)", show=False),
        Binding("down", "move(1)", show=False),
        Binding("enter", "choose", show=False),
    ]

    def __init__(self, title: str, lines: Sequence[str], keys: str = "Enter: call  Esc: cancel") -> None:
        super().__init__(title, keys, max_width=96)
        self._lines = list(lines)
        self.chosen = 0

    def body(self) -> ComposeResult:
        for index, line in enumerate(self._lines):
            yield CellLines(line, id=f"choice-{index}", classes="choice -chosen" if index == 0 else "choice")

    def body_width(self) -> int:
        return max(display_width(line) for line in self._lines)

    def body_height(self, width: int) -> int:
        return sum(len(wrap_lines(line, width)) for line in self._lines)

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#scroll").can_focus = False  # up and down move the choice, not the view

    def action_move(self, step: int) -> None:
        self.choose(self.chosen + step)

    def choose(self, index: int) -> None:
        """Highlight the line at ``index`` (wrapping around) and scroll it into view."""
        self.chosen = index % len(self._lines)
        for widget in self.query(".choice"):
            widget.set_class(widget.id == f"choice-{self.chosen}", "-chosen")
        self.query_one(f"#choice-{self.chosen}").scroll_visible(animate=False)

    def action_choose(self) -> None:
        self.dismiss(self.chosen)

    def on_click(self, event: events.Click) -> None:
        widget = event.widget
        if widget is not None and widget.id is not None and widget.id.startswith("choice-"):
            event.stop()
            self.dismiss(int(widget.id.removeprefix("choice-")))

    def action_cancel(self) -> None:
        self.dismiss(None)
