"""The players' rules page (/rules) in Debian's Chromium: the lobby opens it (its top bar, and
beside the rule-set choice at the rule sets), the table page opens it in a new tab and stays
in the game, and in each language every sentence shows its catalogue's words (no bare key),
the combinations come in the engine's order with card pictures named for screen readers, the
headings do not skip a level, and a phone never scrolls sideways.
"""

from __future__ import annotations

import importlib.util
import itertools
import re
from pathlib import Path

import pytest
from conftest_browser import STEP_MS, Server, TablePage, browser, server  # noqa: F401 - the fixtures this module uses
from playwright.sync_api import Browser, Page, expect

from paiute.combos import Category
from paiute.i18n import LANGUAGES, catalogue_json

ROOT = Path(__file__).resolve().parents[2]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
BEST_FIRST = [category.value for category in sorted(Category, key=Category.order, reverse=True)]


def english() -> dict[str, object]:
    spec = importlib.util.spec_from_file_location(
        "update_catalogues", ROOT / "scripts" / "update_catalogues.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    strings: dict[str, object] = module.web_strings()
    return strings


def new_page(browser: Browser, errors: list[str], viewport: dict[str, int] = DESKTOP) -> Page:
    """A page in a fresh context whose script errors and CSP violations are kept in ``errors``."""
    phone = viewport["width"] < 600
    context = browser.new_context(viewport=viewport, has_touch=phone, is_mobile=phone)  # type: ignore[arg-type]
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    page.on(
        "console",
        lambda message: (
            (message.type == "error" or "Content Security Policy" in message.text)
            and errors.append(f"{page.url}: {message.text}")
        ),
    )
    return page


def wait_drawn(page: Page) -> None:
    page.wait_for_selector("#combo-list li", timeout=STEP_MS)


def combinations(page: Page) -> list[str]:
    return page.locator("#combo-list li").evaluate_all("els => els.map(e => e.dataset.combination)")


def test_the_lobby_opens_the_rules_page(server: Server, browser: Browser) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(server.url + "/")
    page.click("#rules-link")
    page.wait_for_url("**/rules?lang=en", timeout=STEP_MS)
    wait_drawn(page)
    assert page.title() == "Paiute — how to play"
    assert combinations(page) == BEST_FIRST
    # How a call is named at the table, beside cards that make it.
    four_two = page.locator("li[data-combination='four_two']")
    assert "“Four / Two, fives over twos”" in four_two.inner_text()
    shown = four_two.locator(".card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert shown == ["5c", "5d", "5h", "5s", "2c", "2d"]
    page.context.close()
    assert errors == []


def test_the_link_beside_the_rule_set_choice_lands_on_the_rule_sets(server: Server, browser: Browser) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, PHONE)
    page.goto(server.url + "/")
    page.click("#preset-help")
    page.wait_for_url("**/rules?lang=en#presets", timeout=STEP_MS)
    wait_drawn(page)
    expect(page.locator("#presets-heading")).to_be_in_viewport(timeout=STEP_MS)
    expect(page.locator("#deal-heading")).not_to_be_in_viewport()  # scrolled down to it
    assert page.locator("#preset-list > li").evaluate_all("els => els.map(e => e.dataset.preset)") == [
        "pagat",
        "gamerules",
    ]
    page.context.close()
    assert errors == []


def test_the_table_page_opens_the_rules_in_a_new_tab_and_stays_at_the_table(
    server: Server, browser: Browser
) -> None:
    errors: list[str] = []
    made = server.api("POST", "/api/tables", json={"player_name": "Ana", "seats": 2, "bots": "greedy"})
    page = new_page(browser, errors, PHONE)
    table_url = f"{server.url}/t/{made['table']['id']}#seat={made['token']}"
    page.goto(table_url)
    TablePage(page).wait_ready()
    link = page.locator("#rules-link")
    assert link.get_attribute("aria-label") == "How to play (opens in a new tab)"
    with page.context.expect_page(timeout=STEP_MS) as opened:
        link.click()
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url == f"{server.url}/rules?lang=en"
    wait_drawn(rules)
    assert page.url.split("#")[0] == table_url.split("#")[0]  # the game is still there
    assert page.locator("#app").get_attribute("data-version")
    page.context.close()
    assert errors == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_sentence_shows_in_each_language_and_the_page_reads_well(
    server: Server, browser: Browser, lang: str
) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, PHONE)
    page.goto(f"{server.url}/rules?lang={lang}")
    wait_drawn(page)
    assert page.get_attribute("html", "lang") == lang
    # Each sentence is its catalogue's (strings.js's English where a catalogue lacks it).
    messages = catalogue_json(lang)["messages"]
    assert isinstance(messages, dict)
    strings = english()
    shown = page.locator("[data-i18n]").evaluate_all("els => els.map(e => [e.dataset.i18n, e.textContent])")
    assert shown
    for key, text in shown:
        assert text == messages.get(key, strings[key]), key
    # No key shows bare (what t() gives for a string it does not have).
    words = page.evaluate(
        "() => document.body.innerText + ' ' +"
        " [...document.querySelectorAll('[aria-label]')].map(e => e.getAttribute('aria-label')).join(' ')"
    )
    families = "|".join(sorted({key.split(".")[0] for key in strings}))
    bare = sorted(set(re.findall(rf"\b(?:{families})(?:\.[a-z0-9_]+)+", words)))
    assert bare == [], f"{lang}: keys shown as text: {bare}"
    assert combinations(page) == BEST_FIRST
    # Card pictures: each an image with its name; each row a group named for its example.
    cards = page.locator(".rules .card")
    assert cards.count() == 4 + 5 + 5 + 5 + 6 + 6 + 6
    assert cards.evaluate_all("els => els.every(e => e.getAttribute('role') === 'img' && e.ariaLabel)")
    groups = page.locator(".rules-cards").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert len(groups) == 7
    assert all(groups)
    levels = page.locator("h1, h2, h3, h4").evaluate_all("els => els.map(e => Number(e.tagName[1]))")
    assert levels[0] == 1
    assert all(later <= earlier + 1 for earlier, later in itertools.pairwise(levels))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.context.close()
    assert errors == []
