"""An account in the pages (Debian's Chromium through Playwright, a real ``paiute serve``): one
browser signs up from the lobby by keyboard and plays now; a second browser, which has never
seen the table, logs in, opens "My tables", and resumes the table at the account's seat."""

from __future__ import annotations

from conftest_browser import STEP_MS, Server, browser, server  # noqa: F401 - the fixtures this module uses
from playwright.sync_api import Browser, Page, expect

from paiute.i18n import catalogue_json
from paiute.server.lesson import LESSON_TABLE_NAME

NAME = "Anneliese"
PASSWORD = "correct horse battery"


def fill_account_dialog(page: Page, name: str, password: str) -> None:
    """Type into the open account dialog and send it with Enter, as a keyboard user would."""
    expect(page.locator("#account-dialog")).to_be_visible(timeout=STEP_MS)
    expect(page.locator("#account-name-input")).to_be_focused()
    page.keyboard.type(name)
    page.keyboard.press("Tab")
    expect(page.locator("#account-password")).to_be_focused()
    page.keyboard.type(password)
    page.keyboard.press("Enter")


def test_sign_up_play_now_and_a_second_browser_resumes_the_table_from_my_tables(
    server: Server, browser: Browser
) -> None:
    errors: list[str] = []
    first = browser.new_context()
    page = first.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url + "/")
    expect(page.locator("#signup-open")).to_be_visible(timeout=STEP_MS)

    # The dialog by keyboard: Escape closes it and gives the focus back.
    page.locator("#login-open").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#account-dialog")).to_be_visible(timeout=STEP_MS)
    page.keyboard.press("Escape")
    expect(page.locator("#account-dialog")).to_be_hidden(timeout=STEP_MS)
    expect(page.locator("#login-open")).to_be_focused()

    page.locator("#signup-open").focus()
    page.keyboard.press("Enter")
    fill_account_dialog(page, NAME, PASSWORD)
    expect(page.locator("#account-name")).to_contain_text(NAME, timeout=STEP_MS)
    expect(page.locator("#signup-open")).to_be_hidden()
    session = [cookie for cookie in first.cookies() if cookie["name"] == "paiute_session"]
    assert len(session) == 1
    assert session[0]["httpOnly"]
    assert session[0]["sameSite"] == "Lax"
    expect(page.locator("#player-name")).to_have_value(NAME)  # the account's name, for the table

    page.click("#play-submit")
    page.wait_for_url("**/t/*", timeout=STEP_MS)
    page.wait_for_selector("#app[data-version]", timeout=STEP_MS)
    table_id = page.url.rstrip("/").split("/t/")[1].split("?")[0].split("#")[0]

    second = browser.new_context()
    other = second.new_page()
    other.on("pageerror", lambda error: errors.append(str(error)))
    other.goto(server.url + "/")
    other.click("#login-open")
    fill_account_dialog(other, NAME.upper(), PASSWORD)  # names are case-folded
    expect(other.locator("#account-name")).to_contain_text(NAME, timeout=STEP_MS)
    other.click("#my-tables-link")
    other.wait_for_url("**/me/tables", timeout=STEP_MS)
    item = other.locator(f'#mine-list li[data-table-id="{table_id}"]')
    expect(item).to_be_visible(timeout=STEP_MS)
    expect(item).to_contain_text(NAME)
    assert other.evaluate(f"localStorage.getItem('paiute.seat.{table_id}')") is None
    item.locator("button.primary").click()
    other.wait_for_url(f"**/t/{table_id}", timeout=STEP_MS)
    other.wait_for_selector('#app[data-version][data-you="0"]', timeout=STEP_MS)
    assert other.evaluate(f"localStorage.getItem('paiute.seat.{table_id}')")  # a fresh seat link, kept

    # The first browser still holds its seat (a fresh link adds a token, it takes none away).
    page.reload()
    page.wait_for_selector('#app[data-version][data-you="0"]', timeout=STEP_MS)

    # Leaving from "My tables", with the token this browser now keeps: the bot plays the seat.
    other.goto(server.url + "/me/tables")
    other.locator(f'#mine-list li[data-table-id="{table_id}"] button.ghost').click()
    expect(other.locator("#mine-status")).to_contain_text("You have left", timeout=STEP_MS)
    token = other.evaluate(f"localStorage.getItem('paiute.seat.{table_id}')")
    view = server.api("GET", f"/api/tables/{table_id}/state", token)
    assert view["table"]["players"][0]["autoplay"] == "left"
    assert errors == []
    first.close()
    second.close()


def test_my_tables_names_a_lesson_table_in_the_pages_language(server: Server, browser: Browser) -> None:
    """A lesson table is stored under the server's English name; "My tables" in Romanian shows
    it, and says it in its buttons, as the lesson's Romanian title."""
    messages = catalogue_json("ro")["messages"]
    assert isinstance(messages, dict)
    title = messages["lesson.title"]
    assert title != LESSON_TABLE_NAME
    context = browser.new_context(locale="ro-RO")
    context.add_cookies([{"name": "paiute_lang", "value": "ro", "url": server.url}])
    signed = context.request.post(
        server.url + "/api/accounts", data={"name": "Ruxandra", "password": PASSWORD}
    )
    assert signed.status == 201, signed.text()
    lesson = context.request.post(server.url + "/api/lessons", data={"player_name": "Ruxandra"})
    assert lesson.status == 201, lesson.text()
    table_id = lesson.json()["table"]["id"]
    assert lesson.json()["table"]["name"] == LESSON_TABLE_NAME

    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url + "/me/tables")
    item = page.locator(f'#mine-list li[data-table-id="{table_id}"]')
    expect(item.locator("h3")).to_have_text(title, timeout=STEP_MS)
    expect(item.locator("button.primary")).to_contain_text(title)
    expect(item).not_to_contain_text(LESSON_TABLE_NAME)
    assert errors == []
    context.close()
