"""The table's small things (issue 38): the hand sorted by a key (``o``; ``sort`` in --plain)
and kept for the match, ``q`` that asks before it ends a match and a summary that says when
the person left, bots' level names in the reader's language, one row a seat and cards of one
width in every language, and a key bar that drops an optional key where it has no room."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from helpers import make_deck
from paiute import Match, RuleSet
from paiute.i18n import LANGUAGES, translator
from paiute.tui.app import PlayApp
from paiute.tui.describe import display_width, hand_order, person_names
from paiute.tui.plain import PlainUI
from paiute.tui.session import PlayConfig, SeatSpec, Session
from paiute.tui.widgets import CardWidget, KeyBar, TextScreen
from test_play_app import flat, run, screen_text, settle

SEATS = (SeatSpec("You"), SeatSpec("Medium 1", "medium"), SeatSpec("Medium 2", "medium"))
HAND = "Kd 4c Qs 2h 9d"  # dealt in this order; shown by rank as dealt (2h 4c 9d Qs Kd)


def stacked(directory: Path | None = None) -> Session:
    """The person (seat 0) plays first with HAND; 7s is on top of the stock."""
    rules = RuleSet()
    config = PlayConfig(rules, SEATS, seed=3, hint=2)
    match = Match(rules, config.names, dealer=2)
    session = Session(config, match=match, path=None if directory is None else directory / "match.json")
    match.start_deal(make_deck(3, 2, {0: HAND}, upcard="5c", stock="7s 3d 8h"))
    return session


def shown_hand(app: PlayApp) -> list[str]:
    return [str(widget.card) for widget in app.query(CardWidget) if widget.card is not None]


# -- sorting the hand ----------------------------------------------------------------------


def test_o_cycles_the_hand_by_rank_by_suit_and_as_dealt_keeping_the_chosen_card() -> None:
    session = stacked()
    app = PlayApp(session, delay=0)

    async def scenario() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            await pilot.press("s")  # draws 7s: the chosen card, last as dealt
            await settle(pilot, app)
            assert shown_hand(app) == ["2h", "4c", "9d", "Qs", "Kd", "7s"]
            assert shown_hand(app)[app.selected] == "7s"
            await pilot.press("o")
            assert shown_hand(app) == ["2h", "4c", "7s", "9d", "Qs", "Kd"]
            assert shown_hand(app)[app.selected] == "7s"  # the same card stays chosen
            assert "by rank" in flat(screen_text(app))
            await pilot.press("o")
            assert shown_hand(app) == ["4c", "9d", "Kd", "2h", "7s", "Qs"]  # clubs, diamonds, hearts, spades
            await pilot.press("3", "x")  # the number counts the hand as shown: Kd
            await settle(pilot, app)
            assert session.match.deal is not None
            assert "Kd" in [str(card) for card in session.match.deal.discard_pile]
            await pilot.press("o")
            assert session.hand_order == "dealt"

    run(scenario)


def test_the_hand_order_is_kept_for_the_match_and_after_resume(tmp_path: Path) -> None:
    session = stacked(tmp_path)
    session.hand_order = "suit"
    session.apply(session.observation(0).legal_actions[0])  # a person's move: the match is saved
    session.save()
    resumed = Session.resume(tmp_path / "match.json")
    assert resumed.hand_order == "suit"
    obs = resumed.observation(0)
    assert hand_order(obs, resumed.hand_order) == hand_order(obs, "suit")


def test_plain_sort_command_orders_the_numbers_typed_after_it() -> None:
    session = stacked()
    out = io.StringIO()
    PlainUI(session, io.StringIO("s\nsort\n1\nq\n"), out, echo=True).run()
    text = out.getvalue()
    assert "Your cards by rank (sort: by suit)." in text
    assert "Your hand: 1:2h  2:4c  3:7s(new)  4:9d  5:Qs  6:Kd" in text
    assert "You discarded 2h" in text  # card 1 as sorted by rank
    assert "SORT" not in text  # the command is a word typed, not told as unknown
    assert "unknown command" not in text


# -- q asks before it ends a match ----------------------------------------------------------


@pytest.mark.parametrize("answer", ["n", "escape"])
def test_q_asks_and_n_or_escape_stays_at_the_table(answer: str) -> None:
    session = stacked()
    app = PlayApp(session, delay=0)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press("q")
            await pilot.pause()
            assert isinstance(app.screen, TextScreen)
            assert "Leave the match?" in screen_text(app)
            await pilot.press(answer)
            await settle(pilot, app)
            assert len(app.screen_stack) == 1
            assert app.waiting  # still playing, nothing ended
            assert app.farewell == []

    run(scenario)


def test_leaving_during_a_deal_says_during_and_between_deals_says_after(tmp_path: Path) -> None:
    session = stacked(tmp_path)
    app = PlayApp(session, delay=0)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press("s")
            await settle(pilot, app)
            await pilot.press("q")
            await pilot.pause()
            assert "is saved as you leave" in flat(screen_text(app))  # a move made: kept
            await pilot.press("y")
            await pilot.pause()
            assert "Match summary" in screen_text(app)

    run(scenario)
    assert app.farewell[0] == "You left the match during deal 1."
    session = stacked()
    session.apply(session.observation(0).legal_actions[0])
    out = io.StringIO()
    PlainUI(session, io.StringIO("q\n"), out).run()
    assert "You left the match during deal 1." in out.getvalue()


def test_leaving_from_the_deals_summary_asks_and_says_after_the_deal() -> None:
    session = Session(
        PlayConfig(RuleSet(), SEATS, seed=3, hint=2),
        match=Match(RuleSet(), tuple(seat.name for seat in SEATS), dealer=2),
    )
    session.match.start_deal(make_deck(3, 2, {0: "3d 3h 3s 7d 9c"}, upcard="3c", stock="7c"))
    app = PlayApp(session, delay=0)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press("s", "c")
            await pilot.pause()
            await pilot.press("enter")  # Five of a Kind; the bots play the last round
            await settle(pilot, app)
            assert "End of the deal" in screen_text(app)
            await pilot.press("q")
            await pilot.pause()
            assert "Leave the match?" in screen_text(app)
            await pilot.press("n")  # back to the deal's summary
            await pilot.pause()
            assert "End of the deal" in screen_text(app)
            await pilot.press("q")
            await pilot.pause()
            await pilot.press("y")
            await pilot.pause()

    run(scenario)
    assert app.farewell[0] == "You left the match after 1 deal."


# -- names, seats, cards, keys in every language ---------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_bots_named_by_their_level_are_shown_in_the_readers_language(lang: str) -> None:
    tr = translator(lang)
    medium = tr.pgettext("bot level", "Medium")
    names = person_names(
        ("You", "Medium 1", "Medium 2", "Hard", "Expert"),
        tr,
        bots=(None, "medium", "medium", None, "greedy"),
    )
    assert names[1:3] == (f"{medium} {tr.number(1)}", f"{medium} {tr.number(2)}")
    assert names[3:] == ("Hard", "Expert")  # a person called Hard; a greedy bot named Expert


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_seat_takes_one_row_at_80x24_and_every_card_one_width(lang: str) -> None:
    tr = translator(lang)
    session = stacked()
    app = PlayApp(session, delay=0, tr=tr)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            for _ in range(3):  # draws and discards: every seat's last action is long
                await pilot.press("s")
                await settle(pilot, app)
                widths = {widget.region.width for widget in app.query(CardWidget) if widget.display}
                assert len(widths) == 1, widths  # the new card no wider than the others
                await pilot.press("x")
                await settle(pilot, app)
                if not session.in_deal:
                    break
                seats = app.query_one("#seats")
                assert seats.region.height == len(SEATS)  # nothing wraps onto a second row
                assert all(display_width(line) <= seats.size.width for line in seats.lines(seats.size.width))

    run(scenario)


@pytest.mark.parametrize(
    ("lang", "size", "shown"), [("en", (80, 24), True), ("so", (80, 24), False), ("so", (100, 30), True)]
)
def test_the_key_bar_shows_the_sort_key_only_where_it_has_room(
    lang: str, size: tuple[int, int], shown: bool
) -> None:
    app = PlayApp(stacked(), delay=0, tr=translator(lang))

    async def scenario() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            bar = app.table.query_one(KeyBar)
            names = [name for _first, _last, name in bar.spans()]
            assert ("sort" in names) is shown
            assert names[-1] == "quit_match"  # q Quit always stays
            assert bar.spans()[-1][1] < bar.size.width

    run(scenario)
