"""``paiute learn`` full screen (Textual, headless pilot at 80x24): the lesson end to end by
its keys in every language, a wrong key that does not go on, ``q`` that asks first, help on
``?`` and Esc, the first run's offer; and in ``paiute play``: the goal line, the combinations
one key away (``w``) and beside the table on a wide terminal, and the help and the screen
naming the card that may not be discarded alike (R4.3)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from paiute import Card, Match, RuleSet, SeededChance
from paiute.i18n import LANGUAGES, translator
from paiute.tui.app import PlayApp
from paiute.tui.help import GOAL, TUI_KEYS, best_first, combinations_list
from paiute.tui.lesson import OFFER, Step
from paiute.tui.lesson_app import ConfirmScreen, LessonApp, OfferScreen
from paiute.tui.session import PlayConfig, SeatSpec, Session
from paiute.tui.widgets import CardWidget, CombinationsPanel, TextScreen
from test_play_app import message, screen_text, settle, stacked

SIZE = (80, 24)
#: The keys of the whole lesson, step by step (Step order), with a wrong key or two on the way.
KEYS: Sequence[tuple[Step, tuple[str, ...]]] = (
    (Step.WELCOME, ("enter",)),
    (Step.WILD, ("2",)),
    (Step.DRAW, ("s",)),
    (Step.DISCARD, ("1", "x")),
    (Step.TAKE, ("d",)),
    (Step.TRY_TAKEN, ("6", "x")),  # the engine refuses (R4.3); the lesson goes on
    (Step.DISCARD_OTHER, ("4", "x")),
    (Step.LAST_ROUND, ("enter",)),
    (Step.LAST_DRAW, ("s",)),
    (Step.COMBINATIONS, ("w", "escape")),
    (Step.CALL, ("c", "enter")),
    (Step.RESULT, ("enter",)),
    (Step.DONE, ("enter",)),
)


async def ready(pilot: Pilot[str], app: LessonApp) -> None:
    """Wait until the bots have played and the coach's step can be taken."""
    for _ in range(3000):
        await pilot.pause()
        if not app.busy and (app.lesson.ready() or len(app.screen_stack) > 1 or app.lesson.finished):
            return
        await asyncio.sleep(0.002)
    raise AssertionError("the lesson never came back to the person")


def coach(app: LessonApp) -> str:
    return str(app.query_one("#coach", Static).render())


def flat(text: str) -> str:
    """Screen text as one line: box edges gone, wrapped lines joined."""
    return " ".join(re.sub("[\u2500-\u257f]", " ", text).split())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_lesson_end_to_end_by_keys_at_80x24(lang: str) -> None:
    tr = translator(lang)
    app = LessonApp(delay=0, tr=tr)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            for step, keys in KEYS:
                await ready(pilot, app)
                assert app.lesson.step is step
                if not isinstance(app.screen, TextScreen):
                    # The coach's words are whole on the screen, under the table and its keys.
                    text = flat(screen_text(app))
                    assert flat(coach(app)) in text
                    assert flat(app.lesson.coach()) == flat(coach(app))
                    assert tr.gettext("s Stock") in text
                for key in keys:
                    await pilot.press(key)
                    await ready(pilot, app)
            assert app.lesson.finished
        assert app.return_value == "done"

    asyncio.run(scenario())
    outcome = app.lesson.session.deal.outcome if app.lesson.session.deal else None
    assert outcome is not None
    assert outcome.winners == (0,)


def test_lesson_screens_at_80x24_wild_refusal_and_result() -> None:
    app = LessonApp(delay=0)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await ready(pilot, app)
            assert "Welcome! You play one prepared deal" in flat(screen_text(app))
            await pilot.press("enter")
            await ready(pilot, app)
            text = screen_text(app)
            assert "Upcard 7♣*, wild sevens" in text
            assert "One of your cards is wild: press its number." in flat(text)
            await pilot.press("3")  # 9♥: not wild, nothing goes on
            await ready(pilot, app)
            assert app.lesson.step is Step.WILD
            assert "9♥ is not wild: look for the card marked *." in message(app)
            for key in ("2", "s", "1", "x", "d", "6"):
                await pilot.press(key)
                await ready(pilot, app)
            # The card taken from the pile is dimmed and marked "no", and the engine said why.
            widget = app.query_one("#card-5", CardWidget)
            assert widget.card == Card.parse("9s")
            assert widget.has_class("forbidden")
            assert widget.border_subtitle == "no"
            assert (
                "Not allowed: R4.3 the card taken from the discard pile may not be discarded this turn."
                in flat(message(app))
            )
            assert "That is rule R4.3" in coach(app)
            for key in ("4", "x", "enter", "s", "w", "escape", "c", "enter"):
                await pilot.press(key)
                await ready(pilot, app)
            assert isinstance(app.screen, TextScreen)
            text = flat(str(app.screen.query_one("#text", Static).render()))
            assert text.startswith("You won the pot of 3 chips!")
            assert "Winner: You with Four/Two, queens over nines." in text
            assert "Every hand (R9.3" in text

    asyncio.run(scenario())


@pytest.mark.parametrize(
    ("step", "wrong"),
    [
        (Step.WELCOME, ("s", "x", "z")),
        (Step.WILD, ("1", "3", "s", "enter", "space")),
        (Step.DRAW, ("d", "x", "c", "h")),
        (Step.DISCARD, ("x", "enter", "s")),
        (Step.TAKE, ("s", "enter", "c")),
        (Step.TRY_TAKEN, ("x", "enter", "s")),  # 7♥ is chosen: x tries that card, not the one taken
        (Step.COMBINATIONS, ("c", "x", "enter")),
    ],
    ids=lambda value: value.value if isinstance(value, Step) else " ".join(value),
)
def test_lesson_a_wrong_key_does_not_go_on(step: Step, wrong: tuple[str, ...]) -> None:
    app = LessonApp(delay=0)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            for reached, keys in KEYS:
                await ready(pilot, app)
                if reached is step:
                    break
                await pilot.press(*keys)
            history = app.lesson.observation().history
            for key in wrong:
                await pilot.press(key)
                await ready(pilot, app)
                assert app.lesson.step is step, key
                assert app.lesson.observation().history == history, key
                assert message(app), f"{key}: no word for a key that does not fit"

    asyncio.run(scenario())


def test_lesson_q_asks_before_leaving_and_help_on_question_mark_and_escape() -> None:
    app = LessonApp(delay=0)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await ready(pilot, app)
            for key in ("question_mark", "escape"):
                await pilot.press(key)
                await pilot.pause()
                assert isinstance(app.screen, TextScreen)
                assert "LESSON KEYS" in str(app.screen.query_one("#text", Static).render())
                await pilot.press("escape")
                await pilot.pause()
                assert not isinstance(app.screen, TextScreen)
            await pilot.press("q")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            assert "Leave the lesson?" in screen_text(app)
            await pilot.press("n")  # stays
            await pilot.pause()
            assert not isinstance(app.screen, ConfirmScreen)
            assert app.is_running
            await pilot.press("q", "q")
            await pilot.pause()
        assert app.return_value == "left"

    asyncio.run(scenario())


@pytest.mark.parametrize(("key", "ended"), [("enter", "play"), ("q", "quit")])
def test_first_run_offer_enter_plays_q_quits(key: str, ended: str) -> None:
    app = LessonApp(delay=0, offer=True)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, OfferScreen)
            text = flat(screen_text(app))
            assert OFFER in text
            assert GOAL in text
            await pilot.press(key)
            await pilot.pause()
        assert app.return_value == ended

    asyncio.run(scenario())


def test_first_run_offer_l_starts_the_lesson_and_ends_with_the_game() -> None:
    app = LessonApp(delay=0, offer=True)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("L")
            await ready(pilot, app)
            assert not isinstance(app.screen, OfferScreen)
            assert app.lesson.step is Step.WELCOME
            for _step, keys in KEYS[:-1]:
                await ready(pilot, app)
                await pilot.press(*keys)
            await ready(pilot, app)
            assert "Press Enter to start your first real game." in flat(coach(app))
            await pilot.press("enter")
            await pilot.pause()
        assert app.return_value == "done"

    asyncio.run(scenario())


# -- paiute play: the goal, the combinations ------------------------------------------------------


def test_play_says_the_goal_and_w_opens_the_combinations_at_80x24() -> None:
    app = PlayApp(stacked(2, {0: "4c 8d Th Qs 2h"}, upcard="5c", stock="Kd 9s"), delay=0)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            text = screen_text(app)
            assert GOAL in text  # the first deal says what the game is about, in one line
            assert not app.query_one(CombinationsPanel).display  # 80 columns: no room beside
            await pilot.press("w")
            await pilot.pause()
            assert isinstance(app.screen, TextScreen)
            page = str(app.screen.query_one("#text", Static).render())
            names = [line.split("  ")[2].strip() for line in page.splitlines()[2:8]]
            assert names == [category.title for category in best_first(RuleSet())]
            await pilot.press("w")  # closes it again
            await pilot.pause()
            assert app.waiting

    asyncio.run(scenario())


@pytest.mark.parametrize("royal_high", [False, True])
def test_play_shows_the_combinations_beside_the_table_when_wide(royal_high: bool) -> None:
    rules = RuleSet(royal_high=royal_high)  # the order follows the engine's (R5.8)
    config = PlayConfig(rules, (SeatSpec("You"), SeatSpec("Greedy", "greedy"), SeatSpec("Random", "random")))
    session = Session(config, match=Match(rules, config.names, dealer=2, chance=SeededChance(3)))
    app = PlayApp(session, delay=0)

    async def scenario() -> None:
        async with app.run_test(size=(120, 30)) as pilot:
            await settle(pilot, app)
            panel = app.query_one(CombinationsPanel)
            assert panel.display
            shown = str(panel.render())
            assert shown.splitlines()[0] == "Winning combinations, best first (w):"
            first = "1 Royal Flush (5 cards)" if royal_high else "1 Five of a Kind (5 cards)"
            assert first in shown
            assert flat(combinations_list(session.match.rules)) == flat(shown)
            assert "Your hand" in screen_text(app)  # the table keeps its 80 columns
            await pilot.resize_terminal(100, 30)
            await pilot.pause()
            assert not panel.display

    asyncio.run(scenario())


def test_r4_3_help_and_screen_name_the_card_that_may_not_be_discarded_alike() -> None:
    session = stacked(0, {0: "4c 8d Th Qs 2h"}, upcard="5c", stock="Kd 9s 6h")
    app = PlayApp(session, delay=0)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("d")
            await pilot.pause()
            obs = session.observation(0)
            taken = [widget for widget in app.query(CardWidget) if widget.card == obs.taken_card]
            assert len(taken) == 1
            mark = str(taken[0].border_subtitle)
            assert mark == "no"
            assert taken[0].has_class("forbidden")  # dimmed
            assert f'"{mark}"' in TUI_KEYS
            assert "dimmed and marked" in " ".join(TUI_KEYS.split())
            # A card drawn from the stock is the one marked "new".
            assert '"new"' in TUI_KEYS

    asyncio.run(scenario())
