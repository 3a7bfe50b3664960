"""Ratings in the pages (Debian's Chromium through Playwright, a real ``paiute serve``): after a
rated match between two accounts, the lobby opens the leaderboard, a name there opens the
player's profile by keyboard (axe-core finds no serious problem on either), a seat's name at
the table opens it too, and the lobby offers "Rated" only to a logged-in account, turning off
what a rated table rules out."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe
from conftest_browser import STEP_MS, Server, browser, run_server  # noqa: F401 - the fixtures this module uses
from live_helpers import RELAXED_LIMITS
from playwright.sync_api import Browser, BrowserContext, Page, expect
from server_helpers import play_http, start

PASSWORD = "correct horse battery"
NAMES = ("Evangelina", "Bartholomäus")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    flags = (*RELAXED_LIMITS, "--rate-limit", "0", "--logins-per-minute", "0")
    with run_server(tmp_path_factory.mktemp("ratings"), deal_pause=0.0, extra=flags) as running:
        yield running


@pytest.fixture(scope="module")
def match(server: Server) -> Iterator[tuple[str, dict[str, str]]]:
    """A rated match between two accounts, played to its end: its table id and each account's
    session cookie."""
    clients = [httpx.Client(base_url=server.url, timeout=30) for _ in NAMES]
    try:
        for client, name in zip(clients, NAMES, strict=True):
            signed = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
            assert signed.status_code == 201, signed.text
        body = {"player_name": NAMES[0], "seats": 2, "rated": True, "max_deals": 1, "turn_seconds": 600}
        made = clients[0].post("/api/tables", json=body).json()
        table_id = made["table"]["id"]
        joined = clients[1].post(f"/api/tables/{table_id}/join", json={"name": NAMES[1]}).json()
        tokens = {0: made["token"], joined["seat"]: joined["token"]}
        start(clients[0], table_id, made["token"])
        play_http(clients[0], table_id, tokens, random.Random(2))
        for _ in range(200):
            if all(clients[0].get(f"/api/players/{name}").json()["games"] for name in NAMES):
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the match was never rated")
        yield (
            table_id,
            {
                name: str(client.cookies["paiute_session"])
                for name, client in zip(NAMES, clients, strict=True)
            },
        )
    finally:
        for client in clients:
            client.close()


def serious(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now."""
    found = Axe().run(page, options={"resultTypes": ["violations"]}).response["violations"]
    return [
        f"{item['id']}: {item['help']}" for item in found if item.get("impact") in ("serious", "critical")
    ]


def new_page(context: BrowserContext, errors: list[str]) -> Page:
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


def test_the_lobby_opens_the_leaderboard_and_a_name_there_opens_the_profile_by_keyboard(
    server: Server, browser: Browser, match: tuple[str, dict[str, str]]
) -> None:
    table_id, _ = match
    errors: list[str] = []
    context = browser.new_context()
    page = new_page(context, errors)
    page.goto(server.url + "/")
    page.locator("#leaderboard-link").focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/leaderboard", timeout=STEP_MS)
    rows = page.locator("#board-rows tr")
    expect(rows).to_have_count(2, timeout=STEP_MS)
    assert page.title() == "Paiute — leaderboard"
    assert serious(page) == []
    shown = rows.evaluate_all("rows => rows.map(row => row.dataset.player)")
    assert sorted(shown) == sorted(NAMES)
    for row in rows.all():  # one rated match each: provisional, said in words too
        assert "?" in row.locator(".rating [aria-hidden=true]").inner_text()
        assert "provisional" in row.locator(".rating .sr-only").inner_text()

    link = page.locator("#board-rows a", has_text=NAMES[1])
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/players/*", timeout=STEP_MS)
    expect(page.locator("#player-name")).to_have_text(NAMES[1], timeout=STEP_MS)
    assert page.title() == f"Paiute — {NAMES[1]}"
    expect(page.locator("#player-rating")).to_contain_text("± 3", timeout=STEP_MS)
    expect(page.locator("#player-provisional")).to_be_visible()
    expect(page.locator("#player-games")).to_have_text("1")
    results = page.locator("#recent li")
    expect(results).to_have_count(1)
    assert results.first.locator(f"a[href='/t/{table_id}']").count() == 1
    assert "of 2" in results.first.inner_text()
    assert serious(page) == []
    assert errors == []
    page.goto(server.url + "/players/Nobody%20Here")  # the API's 404 is the console's only line
    expect(page.locator("#player-error")).to_contain_text("Nobody Here", timeout=STEP_MS)
    expect(page.locator("#player-facts")).to_be_hidden()
    context.close()
    assert [line for line in errors if "404 (Not Found)" not in line] == []


def test_a_seats_name_at_a_rated_table_opens_its_profile(
    server: Server, browser: Browser, match: tuple[str, dict[str, str]]
) -> None:
    table_id, _ = match
    errors: list[str] = []
    context = browser.new_context()
    page = new_page(context, errors)
    page.goto(f"{server.url}/t/{table_id}")
    page.wait_for_selector("#app[data-version]", timeout=STEP_MS)
    expect(page.locator("#rated-tag")).to_be_visible()
    links = page.locator("#seats .seat-name a.profile-link")
    expect(links).to_have_count(2, timeout=STEP_MS)
    links.nth(0).click()
    page.wait_for_url(f"**/players/{NAMES[0]}", timeout=STEP_MS)
    expect(page.locator("#player-name")).to_have_text(NAMES[0], timeout=STEP_MS)
    context.close()
    assert errors == []


def test_the_lobby_offers_rated_to_an_account_only(
    server: Server, browser: Browser, match: tuple[str, dict[str, str]]
) -> None:
    _, sessions = match
    errors: list[str] = []
    anonymous = browser.new_context()
    page = new_page(anonymous, errors)
    page.goto(server.url + "/")
    expect(page.locator("#signup-open")).to_be_visible(timeout=STEP_MS)
    expect(page.locator("#rated-field")).to_be_hidden()
    anonymous.close()

    logged_in = browser.new_context()
    host = server.url.split("//", 1)[1].split(":")[0]
    logged_in.add_cookies(
        [{"name": "paiute_session", "value": sessions[NAMES[0]], "domain": host, "path": "/"}]
    )
    page = new_page(logged_in, errors)
    page.goto(server.url + "/")
    expect(page.locator("#rated-field")).to_be_visible(timeout=STEP_MS)
    expect(page.locator("#bots option")).not_to_have_count(0, timeout=STEP_MS)
    page.select_option("#bots", "medium")
    page.check("#hints")
    page.locator("#rated").focus()
    page.keyboard.press("Space")
    expect(page.locator("#rated")).to_be_checked()
    expect(page.locator("#bots")).to_be_disabled()
    expect(page.locator("#bots")).to_have_value("")
    expect(page.locator("#hints")).to_be_disabled()
    expect(page.locator("#hints")).not_to_be_checked()
    page.check("#private")
    expect(page.locator("#no-clock")).to_be_disabled()  # a rated table keeps its clock
    page.click("#create-submit")
    page.wait_for_url("**/t/*", timeout=STEP_MS)
    page.wait_for_selector("#app[data-version]", timeout=STEP_MS)
    expect(page.locator("#rated-tag")).to_be_visible()
    expect(page.locator("#seats .seat-name a.profile-link")).to_have_text(NAMES[0])
    logged_in.close()
    assert errors == []
