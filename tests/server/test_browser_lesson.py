"""The web's "Learn to play" in Debian's Chromium: the lobby's button opens the lesson table,
and the coach's guided deal goes through to its end, driven by clicks and keys, in every language on a
desktop and on a phone (390x844). A wrong input is answered in the coach's panel and changes
nothing (the step, the table's version, the hand); the engine's refusal of R4.3 is the step's
answer; the deal summary opens only when the coach asks; the end offers a real game.
"""

from __future__ import annotations

import pytest
from conftest_browser import STEP_MS, Server, browser, server  # noqa: F401 - the fixtures this module uses
from playwright.sync_api import Browser, Page, expect

from paiute.i18n import LANGUAGES

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
LOCALES = {"en": "en-US", "ro": "ro-RO", "so": "so-SO", "bn": "bn-BD"}


def new_page(browser: Browser, errors: list[str], lang: str, viewport: dict[str, int]) -> Page:
    """A page in a fresh context reading ``lang``, its script errors kept in ``errors``."""
    phone = viewport["width"] < 600
    context = browser.new_context(
        viewport=viewport,  # type: ignore[arg-type]
        locale=LOCALES[lang],
        has_touch=phone,
        is_mobile=phone,
    )
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    page.on(
        "console", lambda message: message.type == "error" and errors.append(f"{page.url}: {message.text}")
    )
    return page


class Coach:
    """The coach's panel of a lesson table's page."""

    def __init__(self, page: Page) -> None:
        self.page = page

    def data(self, name: str, of: str = "#coach") -> str:
        return self.page.locator(of).get_attribute(f"data-{name}") or ""

    @property
    def step(self) -> str:
        return self.data("step")

    @property
    def version(self) -> str:
        return self.data("version", "#app")

    def hand(self) -> list[str]:
        return self.page.locator("#hand [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")

    def reach(self, step: str) -> None:
        """Until the lesson is at ``step`` and the step can be taken (the bots have played)."""
        self.page.wait_for_function(
            """step => { const c = document.getElementById('coach');
                         const a = document.getElementById('app');
                         return c && !c.hidden && c.dataset.step === step && c.dataset.ready === 'true'
                                && a.dataset.busy === 'false'; }""",
            arg=step,
            timeout=STEP_MS,
        )
        assert self.page.locator("#coach-text").inner_text().strip()

    def answered(self, says: str) -> str:
        """Until the coach's answer ``says`` is shown; its words."""
        self.page.wait_for_function(
            "says => document.getElementById('coach').dataset.says === says", arg=says, timeout=STEP_MS
        )
        text = self.page.locator("#coach-reply").inner_text()
        assert text.strip()
        assert "lesson." not in text, "a bare key instead of words"
        return text

    def wrong(self, selector: str, says: str) -> str:
        """Click ``selector``, a wrong input: the coach answers ``says``, and nothing changes."""
        step, version, hand = self.step, self.version, self.hand()
        self.page.locator(selector).first.click(timeout=STEP_MS)
        words = self.answered(says)
        assert self.page.locator("#coach-reply").evaluate("e => e.classList.contains('warning')")
        assert (self.step, self.version, self.hand()) == (step, version, hand)
        return words


def through_the_lesson(page: Page) -> Coach:
    """The whole lesson by clicks and keys, a wrong input tried at the steps that have one."""
    coach = Coach(page)
    coach.reach("welcome")
    assert page.evaluate("document.activeElement.id") == "coach-next"  # the keyboard is on "Begin"
    page.keyboard.press("Enter")

    coach.reach("wild")
    hand = coach.hand()
    assert hand == ["2c", "7h", "9h", "Qc", "Kd"]
    coach.wrong("#hand [data-card='2c']", "not_wild")
    page.locator("#hand [data-card='2c']").focus()
    page.keyboard.press("ArrowRight")  # to 7h, the wild card, by the hand's keys
    page.keyboard.press("Enter")

    coach.reach("draw")
    coach.answered("wild")
    page.locator("#draw-stock").click()

    coach.reach("discard")
    coach.answered("drew_pair")
    keep = coach.wrong("#hand [data-card='Qd']", "keep")
    assert "2" in keep
    page.locator("#hand [data-card='2c']").click()

    coach.reach("take")
    coach.wrong("#draw-stock", "take_this_time")
    page.locator("#draw-discard").click()

    coach.reach("try_taken")
    coach.answered("took")
    page.locator("#hand [data-card='9s']").click()  # the engine refuses it (R4.3): the step's answer

    coach.reach("discard_other")
    assert "R4.3" in coach.answered("refused")
    assert "9s" in coach.hand()  # the card taken stayed in the hand
    page.locator("#hand [data-card='Kd']").click()

    coach.reach("last_round")
    page.locator("#coach-next").focus()
    page.keyboard.press("Enter")

    coach.reach("last_draw")
    page.locator("#btn-draw-stock").click()

    coach.reach("combinations")
    coach.wrong("#call-best", "rank_first")
    page.locator("#coach-combos-button").click()

    coach.reach("call")
    coach.answered("ranks")
    order = page.locator("#coach-combos li").evaluate_all("els => els.map(e => e.dataset.combination)")
    assert order[3] == "four_two"
    assert page.locator("#coach-combos li.mine").get_attribute("data-combination") == "four_two"
    page.locator("#call-best").click()

    coach.reach("result")
    coach.answered("called")
    assert page.locator("#summary").is_hidden()  # it opens when the coach asks
    page.locator("#coach-hands").click()
    page.wait_for_selector("#summary:not([hidden])", timeout=STEP_MS)
    page.locator("#summary-close").click()
    page.locator("#coach-next").click()

    coach.reach("done")
    assert page.locator("#coach-play").is_visible()
    assert page.locator("#rematch-box").is_hidden()  # a lesson ends with a real game, not a rematch
    return coach


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lesson_goes_through_by_clicks_and_keys(
    server: Server, browser: Browser, lang: str, viewport: dict[str, int]
) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, lang, viewport)
    page.goto(server.url + "/")
    page.locator("#learn-button").click()
    page.wait_for_url("**/t/*", timeout=STEP_MS)
    assert page.get_attribute("html", "lang") == lang
    through_the_lesson(page)
    if viewport is PHONE:
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], "the phone scrolls sideways"
    page.context.close()
    assert errors == []


def test_the_lesson_ends_with_a_real_game_and_the_rules_page_opens_it(
    server: Server, browser: Browser
) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, "en", DESKTOP)
    page.goto(server.url + "/rules")
    page.locator("#learn-button").click()
    page.wait_for_url("**/t/*", timeout=STEP_MS)
    lesson_url = page.url
    expect(page.locator("#table-name")).to_have_text("Learn to play", timeout=STEP_MS)
    through_the_lesson(page)
    page.locator("#coach-play").click()
    page.wait_for_url(lambda url: url != lesson_url and "/t/" in url, timeout=STEP_MS)
    page.wait_for_function(
        "() => ['cut', 'playing'].includes(document.getElementById('app').dataset.status)", timeout=STEP_MS
    )
    assert page.locator("#coach").is_hidden()  # a real game has no coach
    page.context.close()
    assert errors == []
