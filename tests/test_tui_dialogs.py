"""Every dialog of the full-screen game laid out right in every language (issue 38): help, hint,
history, end of deal, review, combinations (``w``), the quit question and the lesson offer, in
English, Romanian, Somali and Bengali at 80x24 and 100x30.

Beyond each SVG snapshot (pytest-textual-snapshot; ``--snapshot-update`` writes them again), the
screen is read as a terminal draws it: each row's characters placed by their terminal columns
(:func:`~paiute.tui.describe.display_width`: a Bengali vowel sign takes one, though Textual
counts none). On every row of a dialog its left and right border stand in the dialog's own
columns and the row is exactly as wide as the screen: no line passes the border, none is lost.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Awaitable, Callable

import pytest

pytest.importorskip("textual")
pytest.importorskip("pytest_textual_snapshot")

from textual.app import App
from textual.pilot import Pilot

from helpers import make_deck
from paiute import Match, RuleSet
from paiute.i18n import LANGUAGES, translator
from paiute.tui.app import PlayApp
from paiute.tui.describe import display_width
from paiute.tui.dialogs import ChoiceScreen, Dialog, TextScreen
from paiute.tui.lesson_app import LessonApp
from paiute.tui.review_screen import DealReview, ReviewScreen
from paiute.tui.session import PlayConfig, SeatSpec, Session
from paiute.tui.widgets import CoverScreen

DIALOGS = ("help", "hint", "history", "deal_end", "review", "combinations", "quit", "offer")
SIZES = ((80, 24), (100, 30))
SEATS = (SeatSpec("You"), SeatSpec("Medium 1", "medium"), SeatSpec("Medium 2", "medium"))
LEFT, RIGHT = "╭│╰", "╮│╯"


def five_sevens() -> Session:
    """The person (seat 0) plays first and draws 7♣: Five of a Kind with three wild threes."""
    rules = RuleSet()
    config = PlayConfig(rules, SEATS, seed=3, hint=2)
    match = Match(rules, config.names, dealer=2)
    session = Session(config, match=match)
    match.start_deal(make_deck(3, 2, {0: "3d 3h 3s 7d 9c"}, upcard="3c", stock="7c"))
    return session


def terminal_rows(app: App[object]) -> list[list[str]]:
    """The screen as a terminal draws it: per row, the character at each column (a mark of
    no width goes with the letter before it)."""
    rows = []
    for strip in app.screen._compositor.render_strips():
        cells: list[str] = []
        for segment in strip:
            if segment.control:
                continue
            for char in segment.text:
                width = display_width(char)
                if width == 0 and cells:
                    cells[-1] += char
                else:
                    cells += [char] + [""] * (width - 1)
        rows.append(cells)
    return rows


def assert_laid_out_in_terminal_columns(app: App[object], size: tuple[int, int]) -> None:
    """The dialog on top stands inside the screen, its borders in its own columns on every
    row, every row exactly the screen's width."""
    rows = terminal_rows(app)
    screen = app.screen
    if isinstance(screen, Dialog):
        box = screen.query_one("#dialog").region
        assert box.width <= size[0]
        assert box.height <= size[1]
        for y in range(box.y, box.bottom):
            row = rows[y]
            text = "".join(row)
            assert len(row) == size[0], f"row {y} takes {len(row)} columns: {text!r}"
            assert row[box.x] in LEFT, f"row {y}: left border not at column {box.x}: {text!r}"
            assert row[box.right - 1] in RIGHT, f"row {y}: right border not at {box.right - 1}: {text!r}"
    else:  # the lesson offer: no side borders, its text inside its own columns
        box = screen.query_one("#offer").region
        for y in range(box.y, box.bottom):
            row = rows[y]
            assert len(row) == size[0], f"row {y} takes {len(row)} columns: {''.join(row)!r}"
            assert not "".join(row[box.right :]).strip(), f"row {y} runs past the offer: {''.join(row)!r}"


async def settle(pilot: Pilot[object], app: PlayApp) -> None:
    """Wait until a person must act or another screen is up (bots move in a thread)."""
    for _ in range(3000):
        await pilot.pause()
        if (app.waiting or len(app.screen_stack) > 1) and not app.busy:
            return
        await asyncio.sleep(0.002)
    raise AssertionError("the app never came back to a person")


async def wait_for(pilot: Pilot[object], done: Callable[[], bool], seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        await pilot.pause()
        if done():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the dialog never came up")


async def end_the_deal(pilot: Pilot[object], app: PlayApp) -> None:
    """Draw 7♣, call the best call; the bots play the last round (R7.2): the deal's summary."""
    await settle(pilot, app)
    await pilot.press("s", "c")
    await pilot.pause()
    await pilot.press("enter")
    await settle(pilot, app)
    await wait_for(pilot, lambda: isinstance(app.screen, TextScreen))


async def open_dialog(dialog: str, pilot: Pilot[object]) -> None:
    """Bring ``dialog`` up the way a person does."""
    app = pilot.app
    if dialog == "offer":
        await pilot.pause()
        return
    assert isinstance(app, PlayApp)
    if dialog == "deal_end":
        await end_the_deal(pilot, app)
    elif dialog == "review":
        await end_the_deal(pilot, app)
        review = app.deal_review
        assert review is not None
        assert await asyncio.to_thread(review.wait, 300)
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen))  # the review done: shown whole
    else:
        await settle(pilot, app)
        keys = {"help": "?", "history": "p", "combinations": "w", "quit": "q", "hint": "h"}
        if dialog in ("hint", "history"):
            await pilot.press("s")  # a turn under way: six cards, a history
            await settle(pilot, app)
        await pilot.press(keys[dialog])
        await wait_for(pilot, lambda: isinstance(app.screen, TextScreen))
    await pilot.pause()


def make_app(dialog: str, lang: str) -> App[object]:
    tr = translator(lang)
    if dialog == "offer":
        return LessonApp(tr=tr, offer=True, delay=0)
    return PlayApp(five_sevens(), delay=0, tr=tr)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("dialog", DIALOGS)
def test_dialog_stays_inside_its_borders_in_terminal_columns(
    dialog: str,
    lang: str,
    size: tuple[int, int],
    snap_compare: Callable[..., bool],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The hint's figures, every playout run whatever the time it takes: the same on any machine;
    # the deal's review on 2 playouts a decision (quick, and as deterministic).
    monkeypatch.setattr("paiute.tui.session.HINT_BUDGET_MS", None)
    monkeypatch.setattr("paiute.tui.app.DealReview", functools.partial(DealReview, playouts=2))
    checked = False

    def before(pilot: Pilot[object]) -> Awaitable[None]:
        async def check() -> None:
            nonlocal checked
            await open_dialog(dialog, pilot)
            assert_laid_out_in_terminal_columns(pilot.app, size)
            checked = True

        return check()

    assert snap_compare(make_app(dialog, lang), terminal_size=size, run_before=before)
    assert checked


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_the_call_choice_and_the_hot_seat_cover_stay_inside_their_borders_in_bengali(
    size: tuple[int, int],
) -> None:
    tr = translator("bn")
    app = PlayApp(five_sevens(), delay=0, tr=tr)

    async def scenario() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            await pilot.press("s", "c")
            await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
            assert_laid_out_in_terminal_columns(app, size)
            await pilot.click("#choice-1")  # a click picks the second call
            await settle(pilot, app)
            deal = app.session.match.deal
            assert deal is not None
            assert deal.calls[0].value.category.name == "STRAIGHT_FLUSH"

    asyncio.run(scenario())

    seats = (SeatSpec("আমিনা"), SeatSpec("রবিউল"), SeatSpec("Medium", "medium"))
    hotseat = Session(PlayConfig(RuleSet(), seats, seed=3, hint=2))
    app = PlayApp(hotseat, delay=0, tr=tr)

    async def cover() -> None:
        async with app.run_test(size=size) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, CoverScreen))
            rows = terminal_rows(app)
            box = app.screen.query_one("#cover").region
            for y in range(box.y, box.bottom):
                assert len(rows[y]) == size[0], "".join(rows[y])
                assert rows[y][box.x] in "╔║╚"
                assert rows[y][box.right - 1] in "╗║╝"

    asyncio.run(cover())
