"""The pages under their security headers in a real browser (Debian's Chromium): no
Content-Security-Policy violation, /docs works with every outside request blocked, a foreign
page cannot frame a table, a missing table says so, the lobby explains a refused name.
"""

from __future__ import annotations

import time

from conftest_browser import STEP_MS, Server, browser, server  # noqa: F401 - the fixtures this module uses
from playwright.sync_api import Browser, Page, Route, expect

EVIL = "http://evil.example"  # another origin, served by the test itself (route)


def watched_page(browser: Browser, console: list[str], outside: list[str], server: Server) -> Page:
    """A fresh page whose console is kept and whose requests off the server are refused."""
    page = browser.new_context().new_page()
    page.on("console", lambda message: console.append(message.text))
    page.on("pageerror", lambda error: console.append(f"pageerror: {error}"))

    def only_ours(route: Route) -> None:
        if route.request.url.startswith(server.url) or route.request.url.startswith(EVIL):
            route.continue_() if route.request.url.startswith(server.url) else route.fallback()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_ours)
    return page


def test_pages_and_docs_run_under_the_csp_with_nothing_from_outside(browser: Browser, server: Server) -> None:
    console: list[str] = []
    outside: list[str] = []
    page = watched_page(browser, console, outside, server)
    table_id = server.api("POST", "/api/tables", json={"player_name": "Ana", "seats": 2})["table"]["id"]
    for path in ("/", f"/t/{table_id}", f"/t/{table_id}/replay", "/me/tables"):
        page.goto(server.url + path)
        page.wait_for_load_state("networkidle")
    page.goto(server.url + "/docs")
    page.wait_for_selector(".opblock", timeout=STEP_MS)  # Swagger UI drew the operations
    expect(page.locator(".opblock").first).to_be_visible()
    violations = [text for text in console if "Content Security Policy" in text or "pageerror" in text]
    assert violations == []
    assert outside == []
    page.context.close()


def test_a_foreign_page_cannot_frame_a_table(browser: Browser, server: Server) -> None:
    console: list[str] = []
    outside: list[str] = []
    page = watched_page(browser, console, outside, server)
    table_id = server.api("POST", "/api/tables", json={"player_name": "Ana", "seats": 2})["table"]["id"]
    evil = f'<!doctype html><iframe id="victim" src="{server.url}/t/{table_id}"></iframe>'
    page.route(f"{EVIL}/", lambda route: route.fulfill(body=evil, content_type="text/html"))
    page.goto(f"{EVIL}/")
    frame = page.frames[-1]
    deadline = time.monotonic() + STEP_MS / 1000
    while frame.url in ("", "about:blank") and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    page.wait_for_timeout(200)
    # Chromium shows its own error page in the frame instead of the table page.
    assert frame.url.startswith("chrome-error:"), frame.url
    assert frame.query_selector("#app") is None  # nothing of the table was drawn inside it
    page.context.close()


def test_a_missing_table_says_so_and_does_not_reconnect(browser: Browser, server: Server) -> None:
    page = browser.new_context().new_page()
    page.goto(server.url + "/t/nosuchtable")
    expect(page.locator("#missing-title")).to_have_text("No such table")
    page.wait_for_timeout(500)
    assert "reconnecting" not in page.locator("body").inner_text()
    page.context.close()


def test_the_lobby_keeps_names_to_the_servers_limit_and_explains_a_refusal(
    browser: Browser, server: Server
) -> None:
    page = browser.new_context().new_page()
    page.goto(server.url + "/")
    name = page.locator("#player-name")
    name.fill("x" * 40)
    assert len(name.input_value()) <= 32
    assert name.get_attribute("maxlength") == "32"
    name.fill("\u3164")
    page.locator("#create-submit").click()
    error = page.locator("#create-error")
    expect(error).to_be_visible(timeout=STEP_MS)
    expect(error).to_contain_text("invisible character U+3164")
    page.context.close()


def test_a_private_table_page_without_the_invitation_says_why_and_stops(
    browser: Browser, server: Server
) -> None:
    created = server.api("POST", "/api/tables", json={"player_name": "Ana", "seats": 2, "private": True})
    table_id = created["table"]["id"]
    page = browser.new_context().new_page()
    page.goto(f"{server.url}/t/{table_id}")
    expect(page.locator("#conn")).to_have_text("Not connected", timeout=STEP_MS)
    expect(page.locator("body")).to_contain_text("this table is private")
    invited = browser.new_context().new_page()
    invited.goto(server.url + created["invite"])
    invited.wait_for_selector("#app[data-version]", timeout=STEP_MS)  # the invitation shows it
    page.context.close()
    invited.context.close()
