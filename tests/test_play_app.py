"""The full-screen game (Textual, headless pilot at 80x24): complete deals against bots by keys
and mouse, the call preview and choice, refusals that name their rule (R4.3, R5.7, R6.4),
hints, help, hot seat, resume, ``replay --watch``, and that the screen never shows a card the
person at it may not see (R9)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from helpers import make_deck
from paiute import Action, Card, Match, Phase, RuleSet, SeededChance
from paiute.cli.main import main
from paiute.players import make_player, play_deal
from paiute.record import Record, load, save
from paiute.tui.app import PlayApp
from paiute.tui.describe import call_options, hand_order, visible_cards
from paiute.tui.session import PlayConfig, SeatSpec, Session
from paiute.tui.watch import WatchApp
from paiute.tui.widgets import CardWidget, ChoiceScreen, CoverScreen, KeyBar, TextScreen

SIZE = (80, 24)
PRETTY_CARD = re.compile(r"(?<![0-9A-Za-z])([2-9TJQKA][♣♦♥♠]|Jk[12])")
BOTS = (SeatSpec("You"), SeatSpec("Greedy", "greedy"), SeatSpec("Random", "random"))


def screen_text(app: PlayApp | WatchApp) -> str:
    """The characters on the (virtual) terminal, line by line."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def flat(text: str) -> str:
    """Screen text as one line: box edges gone, wrapped lines joined."""
    return " ".join(text.replace("│", " ").split())


def screen_cards(app: PlayApp | WatchApp) -> set[Card]:
    return {Card.parse(text) for text in PRETTY_CARD.findall(screen_text(app))}


async def settle(pilot: Pilot[int], app: PlayApp) -> None:
    """Wait until a person must act or another screen is up (bots move in a thread)."""
    for _ in range(3000):
        await pilot.pause()
        if (app.waiting or len(app.screen_stack) > 1) and not app.busy:
            return
        await asyncio.sleep(0.002)
    raise AssertionError("the app never came back to a person")


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(scenario())


def new_session(
    tmp_path: Path | None = None, *, seed: int = 1, seats: tuple[SeatSpec, ...] = BOTS
) -> Session:
    config = PlayConfig(RuleSet(), seats, seed=seed, hint=2)
    return Session.new(config, None if tmp_path is None else tmp_path)


def stacked(dealer: int, hands: dict[int, str | Sequence[Card]], *, upcard: str, stock: str) -> Session:
    rules = RuleSet()
    config = PlayConfig(rules, BOTS, seed=3, hint=2)
    match = Match(rules, config.names, dealer=dealer)
    session = Session(config, match=match)
    match.start_deal(make_deck(3, dealer, hands, upcard=upcard, stock=stock))
    return session


def message(app: PlayApp) -> str:
    return str(app.query_one("#message", Static).render())


# -- complete deals ------------------------------------------------------------------------


def test_app_plays_complete_deals_by_keys_and_mouse_r9(tmp_path: Path) -> None:
    session = new_session(tmp_path, seed=5)
    app = PlayApp(session, delay=0)
    seen: set[Card] = set()
    steps = 0

    def check_r9() -> None:
        # Everything on screen was shown to seat 0 at some point (R9), step by step.
        if session.deal is not None:
            seen.update(visible_cards(session.observation(0)))
            reveal = session.showdown()
            if reveal is not None:  # R9.3: once the deal is over every hand may be shown
                seen.update(reveal.cards)
        shown = screen_cards(app)
        assert shown <= seen, f"R9: the screen shows {sorted(map(str, shown - seen))}"

    async def scenario() -> None:
        nonlocal steps
        deals = 0
        async with app.run_test(size=SIZE) as pilot:
            while True:
                await settle(pilot, app)
                check_r9()
                steps += 1
                assert steps < 2000
                if isinstance(app.screen, TextScreen):
                    text = screen_text(app)
                    assert "End of the deal" in text
                    assert "Chips: You" in text
                    assert "Winner" in text or "Dead deal (R4.7)" in text
                    deals += 1
                    if deals == 2:
                        await pilot.press("q")  # asks first: the match is not over
                        await pilot.pause()
                        assert "Leave the match?" in screen_text(app)
                        await pilot.press("y")
                        await pilot.pause()
                        assert "Match summary" in screen_text(app)
                        await pilot.press("enter")
                        break
                    await pilot.press("enter")
                    continue
                obs = session.observation(0)
                text = screen_text(app)
                assert "Your hand" in text
                assert "s Stock" in text
                assert "Upcard" in text
                if obs.phase is Phase.DRAW:
                    assert "Draw: s from the stock" in text
                    if steps % 3 == 0:
                        stock = next(
                            first
                            for first, _last, name in app.table.query_one(KeyBar).spans()
                            if name == "stock"
                        )
                        await pilot.click("#keys", offset=(stock + 1, 0))
                    else:
                        await pilot.press("s")
                    await pilot.pause()
                    after = session.observation(0)
                    if after.is_my_turn:  # the drawn card is on screen, marked new (R4.2)
                        assert len(after.hand) == 6
                        assert app.query_one("#card-5", CardWidget).card == hand_order(after)[-1]
                    continue
                if call_options(obs):
                    assert "CALL POSSIBLE (c)" in text
                    await pilot.press("c")
                    await pilot.pause()
                    assert isinstance(app.screen, ChoiceScreen)
                    await pilot.press("enter")
                    continue
                cards = hand_order(obs)
                index = next(i for i, card in enumerate(cards) if card != obs.taken_card)
                if steps % 2:
                    await pilot.click(f"#card-{index}")  # choose...
                    await pilot.click(f"#card-{index}")  # ...and play
                else:
                    await pilot.press(str(index + 1), "x")
        assert app.return_value == 0

    run(scenario)
    assert session.deal_number == 2
    path = session.path
    assert path is not None
    assert path.is_file()
    record = load(path)
    assert len(record.deals) == 2
    record.replay()
    assert any("Continue it with" in line for line in app.farewell)


def test_app_shows_each_step_of_a_turn() -> None:
    session = stacked(2, {0: "4c 8d Th Qs 2h"}, upcard="5c", stock="Kd 9s")
    app = PlayApp(session, delay=0)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            text = screen_text(app)
            assert "You, your turn" in text
            assert "Upcard 5♣*, wild fives: 5♣ 5♦ 5♥ 5♠. Dealer Random." in text
            assert "Stock 37 (upcard at the bottom), discard pile empty, pot 3." in text
            assert "Draw: s from the stock (the discard pile is empty, R4.2)." in text
            await pilot.press("d")
            assert "Not allowed: R4.2 the discard pile is empty: draw from the stock." in message(app)
            await pilot.press("s")
            await pilot.pause()
            text = screen_text(app)
            assert "You drew from the stock: K♦" in text
            assert "drew K♦" in text  # the seat line's last action
            assert [w.card for w in app.query(CardWidget)] == [
                Card.parse(c) for c in ("2h", "4c", "8d", "Th", "Qs", "Kd")
            ]
            assert "new" in str(app.query_one("#card-5", CardWidget).border_subtitle)
            await pilot.press("left", "left", "x")  # from Kd (new) to Th
            await settle(pilot, app)
            text = screen_text(app)
            assert "You discarded T♥" in text
            assert "Greedy" in text.split("You discarded T♥")[1]  # the bots' moves follow in the log

    run(scenario)


def test_app_call_preview_best_and_another_call() -> None:
    session = stacked(2, {0: "3d 3h 3s 7d 9c"}, upcard="3c", stock="7c")
    app = PlayApp(session, delay=0)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("c")
            assert "Not allowed: R6.1 you must draw before calling." in message(app)  # not "seat 0"
            await pilot.press("s")
            await pilot.pause()
            calls = str(app.query_one("#calls", Static).render())
            assert (
                "CALL POSSIBLE (c): Five of a Kind, sevens: show 7♣ 7♦ 3♦→7♦ 3♥→7♥ 3♠→7♠, put down 9♣"
                in calls
            )
            assert "(or 2 other calls)" in calls
            await pilot.press("c")
            await pilot.pause()
            assert isinstance(app.screen, ChoiceScreen)
            text = screen_text(app)
            assert "Five of a Kind, sevens: show 7♣ 7♦ 3♦→7♦ 3♥→7♥ 3♠→7♠, put down 9♣  <- best" in text
            assert "Straight Flush, jack high: show 7♣ 3♦→8♣ 9♣ 3♥→T♣ 3♠→J♣, put down 7♦" in text
            assert "Four/Two, nines over sevens" in text
            await pilot.press("escape")  # back: nothing called
            await pilot.pause()
            assert session.in_deal
            assert session.observation(0).phase is Phase.DISCARD
            await pilot.press("c", "down", "enter")  # the second-best call
            await settle(pilot, app)
            text = screen_text(app)
            assert "End of the deal" in text
            assert (
                "You called Straight Flush, jack high (first turn): 7♣ 3♦→8♣ 9♣ 3♥→T♣ 3♠→J♣, put down 7♦"
                in flat(text)
            )

    run(scenario)


def test_r4_3_app_dims_the_taken_card_and_says_why() -> None:
    session = stacked(0, {0: "4c 8d Th Qs 2h"}, upcard="5c", stock="Kd 9s 6h")
    app = PlayApp(session, delay=0)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            top = session.observation(0).discard_pile[-1]
            await pilot.press("d")
            await pilot.pause()
            obs = session.observation(0)
            assert obs.taken_card == top
            index = hand_order(obs).index(top)
            widget = app.query_one(f"#card-{index}", CardWidget)
            assert widget.has_class("forbidden")
            assert f" {top.pretty()}" in message(app)
            assert "stays this turn (R4.3)" in message(app)
            await pilot.press(str(index + 1))
            assert "may not be discarded: R4.3" in message(app)
            await pilot.press("x")
            assert "Not allowed: R4.3 the card taken from the discard pile may not be discarded" in message(
                app
            )
            assert session.observation(0).phase is Phase.DISCARD  # nothing happened
            other = next(i for i, card in enumerate(hand_order(obs)) if card != top)
            await pilot.press(str(other + 1), "x")
            await settle(pilot, app)
            assert top in session.observation(0).hand

    run(scenario)


def test_r5_7_and_r6_4_app_explains_forbidden_calls() -> None:
    paiute = stacked(2, {0: "Jc Jd 7h 7s 4c"}, upcard="2c", stock="9d Kh Qh 4d")
    for text in ("draw stock", "discard 9d", "draw stock", "discard Kh", "draw stock", "discard Qh"):
        paiute.apply(Action.parse(text))
    low = stacked(0, {0: "Qc Qd Qh Qs 9c", 1: "2d 2h 2s Kc Kd"}, upcard="2c", stock="Kh 3c 9d")
    for text in ("draw stock", "call 2d", "draw stock", "discard 3c"):
        low.apply(Action.parse(text))

    async def scenario(session: Session, rule: str, note: str) -> None:
        app = PlayApp(session, delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("s")
            await pilot.pause()
            calls = str(app.query_one("#calls", Static).render())
            assert f"No call: {note}: not allowed, {rule}" in calls
            await pilot.press("c")
            assert f"not allowed, {rule}" in message(app)
            assert not isinstance(app.screen, ChoiceScreen)

    asyncio.run(scenario(paiute, "R5.7", "Paiute, jacks/sevens/fours"))
    asyncio.run(scenario(low, "R6.4", "Four/Two, queens over nines"))


def test_app_hint_help_and_history() -> None:
    session = new_session(seed=2)
    app = PlayApp(session, delay=0)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("h")
            for _ in range(400):
                await pilot.pause()
                # The page is pushed, then drawn: wait for its words (a busy machine is slow to draw).
                if isinstance(app.screen, TextScreen) and "Hint: " in flat(screen_text(app)):
                    break
                await asyncio.sleep(0.01)
            # The hint's page: the move, the reasons, every move's expected chips (paiute.analysis.hint).
            assert isinstance(app.screen, TextScreen)
            text = flat(screen_text(app))
            assert "Hint: " in text
            assert "Why: keeping " in text
            assert "after your stake (0 is break-even), with a 95% interval:" in text
            assert "<- the hint" in text
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, TextScreen)
            await pilot.press("question_mark")
            await pilot.pause()
            text = screen_text(app)
            assert isinstance(app.screen, TextScreen)
            assert "KEYS" in text
            assert "Cards (R1)" in text
            await pilot.press("pagedown", "pagedown", "end")
            await pilot.pause()
            assert "EXAMPLES" in screen_text(app) or "pays" in screen_text(app)
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, TextScreen)
            await pilot.press("p")
            await pilot.pause()
            assert "Discard pile, bottom to top (R4.5):" in screen_text(app)
            await pilot.press("escape")
            await pilot.pause()
            assert app.waiting

    run(scenario)


def test_app_hotseat_covers_the_table_between_people() -> None:
    seats = (SeatSpec("Ana"), SeatSpec("Bo"), SeatSpec("Greedy", "greedy"))
    session = new_session(seed=4, seats=seats)
    app = PlayApp(session, delay=0)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            for _turn in range(4):
                await settle(pilot, app)
                assert isinstance(app.screen, CoverScreen)
                seat = session.current
                assert seat is not None
                text = screen_text(app)
                assert f"Pass the screen to {session.names[seat]}" in text
                assert not screen_cards(app), "R9: no hand is visible while the screen changes hands"
                await pilot.press("enter")
                await pilot.pause()
                assert app.viewer == seat
                # Only what this person may see (R9): never the other person's hidden cards.
                assert screen_cards(app) <= visible_cards(session.observation(seat))
                await pilot.press("s")
                await pilot.pause()
                await pilot.press("1", "x")

    run(scenario)


def test_app_resume_continues_the_saved_deal(tmp_path: Path) -> None:
    session = new_session(tmp_path, seed=9)
    session.start_deal()
    while session.in_deal and not session.is_human(session.current or 0):
        session.apply(session.bot_action())
    session.apply(Action.parse("draw stock"))
    held = hand_order(session.observation(0))
    session.apply(Action.discard(held[0]))
    session.save()
    assert session.path is not None
    resumed = Session.resume(session.path)
    app = PlayApp(resumed, delay=0)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            text = screen_text(app)
            assert "deal 1" in text
            assert f"You discarded {held[0].pretty()}" in text
            assert [w.card for w in app.query(CardWidget) if w.display][:5] == hand_order(
                resumed.observation(0)
            )[:5]

    run(scenario)


def test_app_works_in_a_larger_terminal() -> None:
    session = new_session(seed=6)
    app = PlayApp(session, delay=0)

    async def scenario() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            text = screen_text(app)
            assert "Your hand" in text
            assert "q Quit" in text

    run(scenario)


# -- paiute replay --watch -------------------------------------------------------------------


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    players = [make_player("greedy", seed=seat) for seat in range(3)]
    match = Match(RuleSet(), ["Ana", "Bo", "Cy"], chance=SeededChance(11))
    for _ in range(2):
        play_deal(match, players)
    path = tmp_path / "match.json"
    save(Record.from_match(match), path)
    return path


def test_replay_watch_steps_through_a_saved_match(record_file: Path) -> None:
    record = load(record_file)
    app = WatchApp(record, delay=0.01)
    first = len(record.deals[0].actions)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            # Moves counted from 1: "move 0" before the first, "move K" once move K is shown.
            assert f"Replay  deal 1/2  move 0/{first}  view: spectator" in screen_text(app)
            seen: set[Card] = set()
            for step in range(1, 6):
                await pilot.press("right")
                await pilot.pause()
                assert f"move {step}/{first}" in screen_text(app)
                deal = app._match.deal if app._match else None
                assert deal is not None
                assert len(deal.actions) == step  # the title's move is the last one played
                seen |= visible_cards(deal.observation(None))
                assert screen_cards(app) <= seen  # a spectator sees public cards only (R9.1)
            await pilot.press("left")
            await pilot.pause()
            assert f"move 4/{first}" in screen_text(app)
            await pilot.press("v")
            await pilot.pause()
            assert "view: Ana" in screen_text(app)
            assert any(w.display for w in app.query(CardWidget))
            await pilot.press("right_square_bracket")
            await pilot.pause()
            assert "deal 2/2  move 0/" in screen_text(app)
            await pilot.press("end")
            await pilot.pause()
            text = screen_text(app)
            assert "End of the deal" in text
            assert "Chips: Ana" in text
            await pilot.press("left_square_bracket")
            await pilot.pause()
            assert "deal 2/2  move 0/" in screen_text(app)
            await pilot.press("left_square_bracket")
            await pilot.pause()
            assert "deal 1/2  move 0/" in screen_text(app)
            await pilot.press("a")
            for _ in range(100):
                await pilot.pause()
                await asyncio.sleep(0.01)
                if "move 0/" not in screen_text(app):
                    break
            assert "move 0/" not in screen_text(app)  # auto-play moved on
            await pilot.press("q")

    run(scenario)


def test_replay_watch_needs_a_terminal(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(record_file), "--watch"]) == 2
    assert "--watch needs a terminal" in capsys.readouterr().err
    assert main(["replay", str(record_file)]) == 0  # without --watch: as before
    assert "record is valid" in capsys.readouterr().out
