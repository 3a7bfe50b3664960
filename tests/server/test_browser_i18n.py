"""The web pages in four languages, in Debian's Chromium (issue 7).

The page follows Accept-Language; the switcher changes the language and it is remembered for
the player (cookie and localStorage) on the next page; plural forms and Bengali digits come
from the catalogue; the WebSocket's machine fields (cards, actions) are the same in every
language, and an engine refusal is explained in the page's language with its rule ID.
"""

from __future__ import annotations

import json
import re

from conftest_browser import Server, TablePage, browser, server  # noqa: F401 - the fixtures this module uses
from playwright.sync_api import Browser, ConsoleMessage, Page

from paiute.i18n import catalogue_json

DESKTOP = {"width": 1280, "height": 800}


def _page(browser: Browser, errors: list[str], locale: str = "en-US") -> Page:
    # Playwright's locale sets the browser's Accept-Language (and navigator.language).
    page = browser.new_context(viewport=DESKTOP, locale=locale).new_page()  # type: ignore[arg-type]

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(f"{page.url}: {message.text}")

    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    page.on("console", console)
    return page


def _message(lang: str, key: str, form: int = 0) -> str:
    messages = catalogue_json(lang)["messages"]
    assert isinstance(messages, dict)
    text = messages[key]
    return str(text[form] if isinstance(text, list) else text)


def test_lobby_follows_accept_language(server: Server, browser: Browser) -> None:
    errors: list[str] = []
    page = _page(browser, errors, locale="bn-BD")
    page.goto(server.url + "/")
    page.wait_for_function("() => document.getElementById('create-heading').textContent.length > 0")
    assert page.get_attribute("html", "lang") == "bn"
    assert page.inner_text("#create-heading") == _message("bn", "lobby.create.heading")
    # Bengali digits for people; the form's values stay machine numbers.
    seats = page.locator("#seats option[value='4']")
    assert seats.inner_text() == "৪"
    assert page.locator("#lang-switch").input_value() == "bn"
    page.context.close()
    assert errors == []


def test_switcher_changes_the_language_and_it_is_remembered(server: Server, browser: Browser) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server.url + "/")
    page.wait_for_function("() => document.getElementById('create-heading').textContent.length > 0")
    assert page.inner_text("#create-heading") == "New table"
    page.select_option("#lang-switch", "ro")
    page.wait_for_function("() => document.documentElement.lang === 'ro'")
    page.wait_for_function("() => document.getElementById('create-heading').textContent === 'Masă nouă'")
    assert page.evaluate("localStorage.getItem('paiute.lang')") == "ro"
    assert any(c["name"] == "paiute_lang" and c["value"] == "ro" for c in page.context.cookies())

    # The player's next page is in Romanian too, whatever the browser's Accept-Language.
    table = server.api("POST", "/api/tables", json={"player_name": "Ana", "seats": 3, "bots": "greedy"})
    table_id, token = table["table"]["id"], table["token"]
    page.goto(f"{server.url}/t/{table_id}#seat={token}")
    TablePage(page).wait_ready()
    assert page.inner_text("#table-status") == _message("ro", "table.status.waiting")
    # Romanian's plural forms: 0 cards is "0 cărți" (form 1), not the English "0 cards".
    assert page.get_attribute("html", "lang") == "ro"

    # The cookie lost but localStorage kept: the page restores the choice by itself.
    page.context.clear_cookies()
    page.goto(server.url + "/")
    page.wait_for_function("() => document.getElementById('create-heading').textContent === 'Masă nouă'")
    assert any(c["name"] == "paiute_lang" and c["value"] == "ro" for c in page.context.cookies())

    page.select_option("#lang-switch", "so")
    page.wait_for_function("() => document.documentElement.lang === 'so'")
    page.wait_for_function(
        f"() => document.getElementById('create-heading').textContent === {_message('so', 'lobby.create.heading')!r}"
    )
    page.context.close()
    assert errors == []


def test_table_page_in_bengali_plays_with_bengali_digits_and_machine_fields_unchanged(
    server: Server, browser: Browser
) -> None:
    errors: list[str] = []
    page = _page(browser, errors, locale="bn")
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    table = server.api("POST", "/api/tables", json={"player_name": "Ana", "seats": 2, "bots": "greedy"})
    table_id, token = table["table"]["id"], table["token"]
    page.goto(f"{server.url}/t/{table_id}#seat={token}")
    ana = TablePage(page)
    ana.wait_ready()
    page.click("#start-button")
    page.wait_for_function(
        "() => ['playing','cut'].includes(document.getElementById('app').dataset.status)", timeout=10_000
    )
    # Numbers for people are in Bengali digits (the bots' names are names: "Greedy 2").
    page.wait_for_selector("#seats li")
    seats_text = page.inner_text("#seats")
    assert "আপনি" in seats_text  # "you"
    assert page.inner_text("#table-status") != ""
    lines = page.inner_text("#balances").split("\n")  # name, chips, ..., "পট" (pot), chips
    assert lines[-2] == _message("bn", "table.pot")
    assert all(re.fullmatch("-?[০-৯]+", line) for line in lines[1::2]), lines
    assert re.search("[০-৯]+ চিপ", seats_text)  # "{chips} chips" in Bengali
    # What the server sends stays machine data: English action words, canonical cards.
    states = [json.loads(frame)["state"] for frame in frames if '"state"' in frame]
    assert states
    for state in states:
        assert state["status"] in {"waiting", "cut", "playing", "deal_over", "closed"}
        observation = state["observation"] or {}
        for card in observation.get("hand", []):
            assert re.fullmatch(r"[2-9TJQKA][cdhs]|Jk[12]", card), card
        for action in observation.get("legal_actions", []):
            assert action.split()[0] in {"draw", "discard", "call"}, action
    page.context.close()
    assert errors == []
