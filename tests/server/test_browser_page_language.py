"""A page shown in one language says everything in it (Debian's Chromium, a real server).

A page opened with ``?lang=ro`` by a browser whose cookie and Accept-Language say English asks
the API in Romanian too (every call carries ``lang``), so the options' help and the server's
refusals are Romanian; the rule options have names for people, not ``max_players``; the
regions' names and a bot's level in its seat tag are translated; a table address that is no
table's is a 404 page in the reader's language that echoes nothing of the address.
"""

from __future__ import annotations

import gettext
from urllib.parse import parse_qs, urlsplit

import httpx
from conftest_browser import STEP_MS, Server, TablePage, browser, server  # noqa: F401 - the fixtures this module uses
from playwright.sync_api import Browser, BrowserContext, Page, expect

from paiute.i18n import catalogue_json, translator
from paiute.rules import OPTIONS

DESKTOP = {"width": 1280, "height": 800}


def english_context(browser: Browser, server: Server) -> BrowserContext:
    """A browser that says English everywhere: its Accept-Language and the language cookie."""
    context = browser.new_context(viewport=DESKTOP, locale="en-US")  # type: ignore[arg-type]
    context.add_cookies([{"name": "paiute_lang", "value": "en", "url": server.url}])
    return context


def words(page: Page, lang: str, key: str, **params: object) -> str:
    """What strings.js says for ``key`` in ``lang``: the catalogue's text, else its English."""
    messages = catalogue_json(lang)["messages"]
    assert isinstance(messages, dict)
    text = messages.get(key)
    if isinstance(text, list):
        text = text[0]
    if text is None:
        text = page.evaluate("key => import('/static/js/strings.js').then(m => m.EN[key])", key)
    assert isinstance(text, str), key
    return text.format(**params) if params else text


def test_a_page_in_romanian_asks_the_api_in_romanian_and_names_every_option(
    server: Server, browser: Browser
) -> None:
    context = english_context(browser, server)
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda request: "/api/" in request.url and asked.append(request.url))
    page.goto(server.url + "/?lang=ro")
    page.wait_for_selector("#options .field", state="attached", timeout=STEP_MS)
    assert page.get_attribute("html", "lang") == "ro"
    page.click("details.options summary")  # the options, shown

    # The options' help comes from the server, in the page's language, not the cookie's.
    ro = translator("ro")
    for option in OPTIONS:
        if option.name == "stake":  # the stake has its own field in the form
            continue
        label = page.locator(f"label[for='opt-{option.name}']").inner_text()
        assert label == words(page, "ro", f"option.{option.name}")
        assert label != option.name
        assert page.inner_text(f"#opt-{option.name}-help") == ro.gettext(option.help)
        for choice in option.choices or ():
            shown = page.locator(f"#opt-{option.name} option[value='{choice}']").inner_text()
            assert shown == words(page, "ro", f"option.{option.name}.{choice}")
    # A choice's default ("as the rules say (...)") names the value in words too.
    default = page.locator("#opt-payout option[value='']").inner_text()
    assert words(page, "ro", "option.payout.pot") in default

    # A refusal of the server, in Romanian.
    refusal = httpx.post(
        f"{server.url}/api/tables?lang=ro", json={"player_name": "\u3164", "seats": 2}, timeout=10
    ).json()["error"]["message"]
    assert (
        refusal
        != httpx.post(
            f"{server.url}/api/tables?lang=en", json={"player_name": "\u3164", "seats": 2}, timeout=10
        ).json()["error"]["message"]
    )
    page.fill("#player-name", "\u3164")
    page.click("#create-submit")
    expect(page.locator("#create-error")).to_contain_text(refusal, timeout=STEP_MS)

    assert asked
    assert all(parse_qs(urlsplit(url).query).get("lang") == ["ro"] for url in asked), asked
    context.close()


def test_seat_tags_and_region_names_are_in_the_pages_language(server: Server, browser: Browser) -> None:
    created = server.api("POST", "/api/tables", json={"player_name": "Ana", "seats": 2, "bots": "medium"})
    context = english_context(browser, server)
    page = context.new_page()
    sockets: list[str] = []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    page.goto(f"{server.url}/t/{created['table']['id']}?lang=ro#seat={created['token']}")
    me = TablePage(page)
    me.wait_ready()
    # The connection says its language as it opens (a refusal before the hello is in it too).
    assert sockets
    assert all(parse_qs(urlsplit(url).query).get("lang") == ["ro"] for url in sockets), sockets
    page.click("#start-button")
    bot = page.locator("#seats li[data-seat='1'] .tag.bot")
    expect(bot).to_have_text(
        words(page, "ro", "table.seat.bot", spec=words(page, "ro", "lobby.level.medium"))
    )
    expect(bot).not_to_contain_text("medium")
    assert page.get_attribute("section.play", "aria-label") == words(page, "ro", "table.area")
    assert page.get_attribute("#seats", "aria-label") == words(page, "ro", "table.seats.label")
    context.close()


def test_a_bad_table_address_is_a_404_page_in_the_readers_language(server: Server, browser: Browser) -> None:
    context = english_context(browser, server)
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    for path in ("/t/<script>alert(1)</script>", "/t/<img src=x onerror=alert(1)>/replay"):
        response = page.goto(f"{server.url}{path}?lang=ro")
        assert response is not None
        assert response.status == 404
        assert response.headers["content-type"].startswith("text/html")
        expect(page.locator("#missing-title")).to_have_text(words(page, "ro", "missing.title"))
        assert "alert(1)" not in page.content()
    assert dialogs == []
    context.close()


def test_counts_are_said_with_their_plural_forms(server: Server, browser: Browser) -> None:
    # Two chips each and a stake of one: one chip left each, two in the pot.
    created = server.api(
        "POST", "/api/tables", json={"player_name": "Ana", "seats": 2, "bots": "medium", "chips": 2}
    )
    page = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()  # type: ignore[arg-type]
    page.goto(f"{server.url}/t/{created['table']['id']}#seat={created['token']}")
    TablePage(page).wait_ready()
    page.click("#start-button")
    # Ana cuts when the bot deals (R2.4): the pot shows once the deal is played.
    page.wait_for_function(
        "() => !document.getElementById('cut-controls').hidden"
        " || document.getElementById('pot').textContent !== ''",
        timeout=STEP_MS,
    )
    if page.locator("#cut-controls").is_visible():
        page.click("#cut-button")
    expect(page.locator("#pot")).to_have_text("2 chips", timeout=STEP_MS)
    expect(page.locator("#seats .seat-facts .chips")).to_have_text(["1 chip", "1 chip"])
    said = page.evaluate(
        """() => import('/static/js/strings.js').then(({ t }) => [1, 2].map(n => [
               t('table.pot.value', { pot: n, count: n }), t('summary.pot', { pot: n, count: n }),
               t('event.rebuilt', { count: n }), t('event.closed.deals', { count: n })]))"""
    )
    assert said == [
        [
            "1 chip",
            "Pot after the deal: 1 chip",
            "The stock is rebuilt from 1 discard (R4.6)",
            "The match is over: its only deal has been played",
        ],
        [
            "2 chips",
            "Pot after the deal: 2 chips",
            "The stock is rebuilt from 2 discards (R4.6)",
            "The match is over: its 2 deals have been played",
        ],
    ]
    page.context.close()


def test_each_language_picks_its_plural_form_in_the_page(server: Server, browser: Browser) -> None:
    """The catalogue's Plural-Forms expression, under the pages' Content-Security-Policy (no
    eval): the form chosen for every count is gettext's (Romanian: "30 de cărți")."""
    page = browser.new_context(viewport=DESKTOP).new_page()  # type: ignore[arg-type]
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text))
    for lang in ("en", "ro", "so", "bn"):
        page.goto(f"{server.url}/rules?lang={lang}")
        forms = page.evaluate(
            "() => import('/static/js/strings.js').then(({ pluralForm }) => [...Array(250).keys()].map(pluralForm))"
        )
        expression = catalogue_json(lang)["plural"]
        assert isinstance(expression, str)
        chosen = gettext.c2py(expression)
        assert forms == [chosen(n) for n in range(250)], lang
    stock = page.evaluate(
        "() => import('/static/js/strings.js').then(({ t }) => t('table.stock.size', { count: 30 }))"
    )
    assert stock == "৩০টি তাস"  # the page is in Bengali now: its digits, its one form for many
    page.goto(f"{server.url}/rules?lang=ro")
    stock = page.evaluate(
        "() => import('/static/js/strings.js').then(({ t }) => t('table.stock.size', { count: 30 }))"
    )
    assert stock == "30 de cărți"  # Romanian's third form
    assert not [text for text in errors if "Content Security Policy" in text]
    page.context.close()
