"""What a player reads and does at the table (issue 15, points 8-15): the end-of-deal summary
that explains the result (R9.3), calls with named wild cards (R3.4), notes told once (R5.7),
the 80x24 minimum, the card chosen after a draw (R4.3), deals counted from 1 and the
person's own language."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.cells import cell_len
from textual.widgets import Static

from paiute import Action, Card, Match, Phase, RuleSet, SeededChance
from paiute.cli.main import main
from paiute.i18n import LANGUAGES, translator
from paiute.players import make_player, play_deal
from paiute.record import Record, save
from paiute.tui.app import PlayApp
from paiute.tui.describe import display_width, hand_order, person_names
from paiute.tui.plain import PlainUI
from paiute.tui.session import PlayConfig, SeatSpec, Session
from paiute.tui.widgets import CardWidget, TextScreen, TooSmallScreen
from test_play_app import SIZE, flat, message, run, screen_text, settle, stacked

FIVE_SEVENS = {0: "3d 3h 3s 7d 9c"}  # + 7c: Five of a Kind, sevens with the three wild threes


def five_sevens() -> Session:
    return stacked(2, FIVE_SEVENS, upcard="3c", stock="7c")


# -- point 8: the end of a deal explains the result (R9.3) -------------------------------------


def test_r9_3_app_end_of_deal_shows_every_hand_and_the_last_round() -> None:
    session = five_sevens()
    app = PlayApp(session, delay=0)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("s", "c", "enter")  # the best call: Five of a Kind, sevens
            await settle(pilot, app)
            assert isinstance(app.screen, TextScreen)
            text = flat(str(app.screen.query_one("#text", Static).render()))  # all of it, scrolled or not
            assert "Every hand (R9.3: nothing is hidden once the deal is over):" in text
            assert "You called Five of a Kind, sevens" in text
            # The other seats' hands, their best last holding and whether it could be called.
            deal = session.deal
            assert deal is not None
            for seat in (1, 2):
                hand = sorted(deal.hand(seat), key=lambda card: (card.rank or 99, card.suit or 0))
                assert " ".join(card.pretty() for card in hand) in text
            assert text.count("last turn:") == 2
            assert "The last round, turn by turn (R7.2):" in text
            assert "You: drew 7♣, called Five of a Kind, sevens: 7♣ 7♦ 3♦→7♦ 3♥→7♥ 3♠→7♠, put down 9♣" in text
            assert "Greedy: drew" in text or "Greedy: took" in text

    run(scenario)


def test_r9_3_plain_end_of_deal_shows_every_hand_and_the_last_round() -> None:
    session = five_sevens()
    out = io.StringIO()
    PlainUI(session, io.StringIO("s\nc\nq\n"), out).run()
    text = out.getvalue()
    summary = text.split("--- Deal 1 is over ---")[1]
    assert "You called Five of a Kind, sevens (first turn): 7c 7d 3d→7d 3h→7h 3s→7s, put down 9c" in summary
    assert "Every hand (R9.3: nothing is hidden once the deal is over):" in summary
    assert summary.count("last turn:") == 2
    assert "The last round, turn by turn (R7.2):" in summary
    assert "  You: drew 7c, called Five of a Kind, sevens: 7c 7d 3d→7d 3h→7h 3s→7s, put down 9c" in summary


def test_r6_4_summary_says_why_a_better_holding_could_not_be_called() -> None:
    from paiute.showdown import showdown
    from paiute.tui.describe import showdown_lines

    match = Match(RuleSet(), ("You", "Greedy", "Random"), chance=SeededChance(10))
    deal = play_deal(match, [make_player("greedy", seed=1) for _ in range(3)])
    lines = showdown_lines(showdown(deal), match.players, deal.wild_cards)
    greedy = next(index for index, line in enumerate(lines) if line.startswith("  Greedy  "))
    note = lines[greedy + 1].strip()  # under the hand
    assert note.startswith("last turn: Straight Flush, eight high ("), lines
    assert "not allowed: R6.4 Straight Flush, eight high does not equal or beat" in note


# -- point 9: a call in its natural order, wild cards named (R3.4) -----------------------------


def test_r3_4_the_log_and_seat_line_name_what_the_wild_cards_stand_for() -> None:
    session = stacked(2, {0: "7s 5s 4s 6s Kd"}, upcard="2c", stock="2h")
    app = PlayApp(session, delay=0)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("s")
            await pilot.pause()
            calls = str(app.query_one("#calls", Static).render())
            assert "Straight Flush, eight high: show 4♠ 5♠ 6♠ 7♠ 2♥→8♠, put down K♦" in calls
            await pilot.press("c", "enter")
            await settle(pilot, app)
            await pilot.press("escape")  # the summary away: the table, its log and seat lines
            await pilot.pause()
            text = flat(screen_text(app))
            assert "You called Straight Flush, eight high: 4♠ 5♠ 6♠ 7♠ 2♥→8♠, put down K♦" in text

    run(scenario)


# -- point 11: a lasting refusal is told once; `c` does not say it twice (R5.7) -----------------


def paiute_every_turn() -> Session:
    """Two pairs and a wild two: every six cards after a draw make a Paiute (R5.6)."""
    return stacked(2, {0: "Jc Jd 7h 7s 2d"}, upcard="2c", stock="9d Kh Qh 4d 5c 6c 8c 9c Tc Ac")


def test_r5_7_app_tells_a_forbidden_paiute_once_not_every_turn() -> None:
    session = paiute_every_turn()
    app = PlayApp(session, delay=0)
    seen: list[bool] = []

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            for _turn in range(4):
                await settle(pilot, app)
                if not session.in_deal or session.observation(0).phase is not Phase.DRAW:
                    break
                await pilot.press("s")
                await pilot.pause()
                calls = str(app.query_one("#calls", Static).render())
                seen.append("not allowed, R5.7" in calls)
                if len(seen) == 2:  # `c` explains it, once on the screen
                    await pilot.press("c")
                    await pilot.pause()
                    assert "not allowed, R5.7" in message(app)
                    assert screen_text(app).count("not allowed, R5.7") == 1
                await pilot.press("x")  # the card just drawn goes back
        assert seen[:3] == [False, True, False], seen  # first turn: legal; second: told; then not

    run(scenario)


def test_r5_7_plain_tells_a_forbidden_paiute_once() -> None:
    session = paiute_every_turn()
    out = io.StringIO()
    PlainUI(session, io.StringIO("s\nx 9d\ns\n6\ns\n6\ns\n6\nq\n"), out).run()
    text = out.getvalue()
    assert text.count("No call: Paiute") == 1, text


# -- point 12: 80x24 is enough, and smaller says so ------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_app_key_bar_keeps_quit_at_80x24(lang: str) -> None:
    tr = translator(lang)
    app = PlayApp(five_sevens(), delay=0, tr=tr)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            assert tr.gettext("q Quit") in screen_text(app)

    run(scenario)


def test_app_log_keeps_the_newest_line_in_view_when_the_table_grows() -> None:
    app = PlayApp(five_sevens(), delay=0)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            table = app.table
            table.log_lines([f"older line {n}" for n in range(30)])
            table.log_lines(["the newest line"])
            await pilot.pause()
            table.set_calls(["a call preview", "and another line"])  # the log shrinks
            table.set_message("a message long enough to take two lines " * 3)
            await pilot.pause()
            await pilot.pause()
            lines = [line for line in screen_text(app).splitlines() if line.strip()]
            assert "the newest line" in lines[-1]

    run(scenario)


def test_app_below_80x24_says_the_terminal_is_too_small(tmp_path: Path) -> None:
    session = Session.new(
        PlayConfig(RuleSet(), (SeatSpec("You"), SeatSpec("Greedy", "greedy")), seed=2), tmp_path
    )
    app = PlayApp(session, delay=0)

    async def scenario() -> None:
        async with app.run_test(size=(50, 16)) as pilot:
            await pilot.pause()
            await pilot.pause()
            assert isinstance(app.screen, TooSmallScreen)
            text = screen_text(app)
            assert "Terminal too small (50x16; need 80x24)." in text
            assert "╭─" not in text  # no card cut off
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            await settle(pilot, app)
            assert "Your hand" in screen_text(app)
            await pilot.resize_terminal(60, 30)
            await pilot.pause()
            await pilot.pause()
            assert "Terminal too small (60x30; need 80x24)." in screen_text(app)
            await pilot.press("q")  # saves and leaves
            await pilot.pause()
        assert app.return_value == 0
        # Nobody has acted yet, so nothing was saved (issue 15 point 10): no resume offered.
        assert not any("Continue it with" in line for line in app.farewell)

    run(scenario)


# -- point 13: the card chosen after a draw (R4.3); the hand keeps its order -------------------


def chosen(app: PlayApp) -> Card | None:
    return next(widget.card for widget in app.query(CardWidget) if widget.has_class("selected"))


def test_r4_3_the_card_taken_from_the_pile_is_never_chosen_for_discard() -> None:
    session = stacked(0, {0: "4c 8d Th Qs 2h"}, upcard="5c", stock="Kd 9s 6h")
    app = PlayApp(session, delay=0)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("d")
            await pilot.pause()
            obs = session.observation(0)
            assert obs.taken_card is not None
            assert chosen(app) not in (None, obs.taken_card)
            await pilot.press("x")  # the chosen card can go at once
            await settle(pilot, app)
            assert obs.taken_card in session.observation(0).hand

    run(scenario)


def test_resume_chooses_the_drawn_card(tmp_path: Path) -> None:
    session = Session.new(
        PlayConfig(RuleSet(), (SeatSpec("You"), SeatSpec("Greedy", "greedy")), seed=4), tmp_path
    )
    session.start_deal()
    while not session.is_human(session.current or 0):
        session.apply(session.bot_action())
    drawn = session.apply(Action.parse("draw stock")).card
    session.save()  # as quitting mid-turn does
    assert session.path is not None
    app = PlayApp(Session.resume(session.path), delay=0)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            assert chosen(app) == drawn

    run(scenario)


def test_the_hand_does_not_re_sort_after_a_discard() -> None:
    session = stacked(2, {0: "4c 8d Th Qs 2h"}, upcard="5c", stock="9s 3d")
    app = PlayApp(session, delay=0)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("s", "1", "x")  # draw 9s, discard 2h: 9s stays last
            await settle(pilot, app)
            shown = [widget.card for widget in app.query(CardWidget) if widget.display]
            assert [str(card) for card in shown] == ["4c", "8d", "Th", "Qs", "9s"]
            assert hand_order(session.observation(0)) == shown

    run(scenario)


# -- point 14: deals counted from 1; "you", not "seat 0" ------------------------------------


def test_replay_and_verify_count_deals_from_1_json_from_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match = Match(RuleSet(), ("Ana", "Bo"), chance=SeededChance(3))
    for _ in range(2):
        play_deal(match, [make_player("greedy", seed=1), make_player("greedy", seed=2)])
    path = tmp_path / "match.json"
    save(Record.from_match(match), path)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "deal 1: dealer" in out
    assert "deal 2: dealer" in out
    assert "deal 0:" not in out
    # A terminal game carries no proofs (R10.2): verify says so; its per-deal lines, counted
    # from 1, are checked on server records in tests/test_fairness.py.
    main(["verify", str(path)])
    out = capsys.readouterr().out
    assert "nothing to verify" in out
    assert "deal 0" not in out
    main(["verify", str(path), "--json"])
    assert [deal["deal"] for deal in json.loads(capsys.readouterr().out)["deals"]] == [0, 1]


def test_plain_refusals_say_you_not_seat_0() -> None:
    out = io.StringIO()
    PlainUI(five_sevens(), io.StringIO("c\nx 9c\nq\n"), out).run()
    text = out.getvalue()
    assert "Not allowed: R6.1 you must draw before calling." in text
    assert "Not allowed: R4.2 you must draw before discarding." in text
    assert "seat 0" not in text


# -- point 15: the person's own language ---------------------------------------------------


def test_the_default_name_is_shown_translated_and_kept_in_the_record() -> None:
    assert person_names(("You", "Greedy"), translator("ro")) == ("Jucătorul", "Greedy")
    assert person_names(("Ana", "Greedy"), translator("ro")) == ("Ana", "Greedy")
    session = five_sevens()
    app = PlayApp(session, delay=0, tr=translator("ro"))

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            text = screen_text(app)
            assert ">*Jucătorul " in text
            assert "You" not in text

    run(scenario)
    assert session.names[0] == "You"  # the record keeps the data as it was


@pytest.mark.parametrize("lang", LANGUAGES)
def test_labels_in_card_borders_take_the_columns_textual_counts(lang: str) -> None:
    # A card mark sits in a card's border: if a terminal drew it wider than Textual counts it
    # (a Bengali vowel sign, Mc), every card after it on the row would sit a column off.
    tr = translator(lang)
    for mark in ("new", "no"):
        text = tr.pgettext("card mark", mark)
        assert cell_len(text) == display_width(text), (lang, text)


def test_bengali_names_line_up_by_terminal_columns() -> None:
    from paiute.tui.describe import seat_lines

    tr = translator("bn")
    session = five_sevens()
    names = ("খেলোয়াড়", "Greedy", "Random")  # 8 characters, 7 columns (the nukta takes none)
    lines = seat_lines(session.observation(0), names, session.match.balances, tr=tr)
    starts = {display_width(line.split(tr.number(99))[0]) for line in lines}
    assert len(starts) == 1, lines  # the chips column starts at one terminal column
