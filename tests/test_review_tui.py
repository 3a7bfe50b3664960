"""The review in the terminal game (a key on the deal's summary, computed in the background) and
the review marks of ``paiute replay --watch`` (Textual, headless pilot)."""

from __future__ import annotations

import asyncio

from paiute.tui.app import PlayApp
from paiute.tui.review_screen import ReviewScreen, WatchReviews
from paiute.tui.watch import WatchApp
from paiute.tui.widgets import TextScreen
from review_helpers import played_record
from test_play_app import SIZE, flat, run, screen_text, settle, stacked


def test_r7_3_deal_summary_opens_the_review_with_the_blunder_and_the_better_call() -> None:
    # Greedy (seat 1) calls a Royal Flush on its first turn; the person, dealer, holds Five of a
    # Kind (three wild threes, two queens) in the last round (R7.2) and discards instead of
    # calling it: the deal is lost (R8.1), a blunder.
    session = stacked(
        0, {1: "As Ks Qs Js 9d", 0: "3c 3d 3s Qh Qd", 2: "2h 5c 7d 9s Jc"}, upcard="3h", stock="Ts 2c 4d"
    )
    app = PlayApp(session, delay=0)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("s")
            await pilot.pause()
            await pilot.press("x")  # a discard, not the call
            await settle(pilot, app)
            assert isinstance(app.screen, TextScreen)
            assert "r: review" in screen_text(app)
            review = app.deal_review
            assert review is not None
            assert review.seats == (0,)  # the person's seat only
            await pilot.press("r")
            await pilot.pause()
            assert isinstance(app.screen, ReviewScreen)
            assert "Review of deal 1" in screen_text(app)
            assert await asyncio.to_thread(review.wait, 120)
            await pilot.pause(0.6)
            text = flat(screen_text(app))
            assert "Your moves" in text  # the person's own seat, never "seat 0 You"
            assert "seat 0" not in text
            assert "blunders: 1" in text
            assert "blunder! you discarded" in text
            assert "better: call, putting down" in text
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, TextScreen)  # back on the deal's summary
            assert "End of the deal" in screen_text(app)
            assert app.deal_review is review  # not computed again

    run(scenario)


def test_replay_watch_shows_the_review_marks_as_it_steps() -> None:
    # Seat 1 throws its wild three away (a blunder, test_review.py); the watch says so at
    # that step, naming the better action only in seat 1's own view (R9.2).
    record = played_record(
        players=2,
        dealer=0,
        hands={1: "3c Kc Kh Kd 9s"},
        upcard="3h",
        stock="2d",
        actions=["draw stock", "discard 3c"],
    )
    app = WatchApp(record, delay=0.01)
    app.reviews = WatchReviews(record, playouts=16)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert await asyncio.to_thread(app.reviews.of(0).wait, 120)
            await pilot.press("right", "right")  # after action 1, "discard 3c"
            await pilot.pause()
            text = flat(screen_text(app))
            assert "Review: p1: blunder! discarded 3♣" in text
            assert "better" not in text  # a spectator is not told what seat 1 held
            await pilot.press("v", "v")  # seat 1's view
            await pilot.pause()
            text = flat(screen_text(app))
            assert "view: p1" in text
            assert "blunder! discarded 3♣" in text
            assert "better: discard" in text

    run(scenario)
