"""The host's "let the bot play" button for an absent seat, in a real browser (Debian's Chromium
through Playwright) against a real ``paiute serve``: the button shows on the host's page only
for a person's seat with no connection, and after a click the bot plays that seat (its turns
marked ``by: bot``) while the host plays on."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest_browser import STEP_MS, Server, browser, play_until, run_server  # noqa: F401 - fixtures
from conftest_browser import TablePage as RandomCutPage
from playwright.sync_api import Browser, expect


class TablePage(RandomCutPage):
    cut_at = 20  # with the seeded server: the same deals every run


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # A long grace period: the seat goes to the bot only when the host says so.
    flags = ["--insecure-deal-seed", "9"]
    with run_server(tmp_path_factory.mktemp("host"), away_grace=600.0, extra=flags) as running:
        yield running


def test_the_host_lets_the_bot_play_an_absent_seat(server: Server, browser: Browser) -> None:
    errors: list[str] = []
    context = browser.new_context()
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url + "/")
    page.fill("#player-name", "Ana")
    page.select_option("#seats", "2")
    page.select_option("#bots", "")
    page.click("#create-submit")
    page.wait_for_url("**/t/*")
    table_id = page.url.rsplit("/", 1)[1]
    # Bo takes the other seat over the API and never opens the page: absent all along.
    server.api("POST", f"/api/tables/{table_id}/join", json={"name": "Bo"})
    ana = TablePage(page)
    ana.wait_ready()
    seat = page.locator("li.seat[data-seat='1']")
    expect(seat).to_contain_text("Bo", timeout=STEP_MS)
    assert page.locator("[data-hand-to]").count() == 0  # no match yet: nothing to hand over
    page.click("#start-button")
    button = seat.locator("[data-hand-to='1']")
    expect(button).to_be_visible(timeout=STEP_MS)
    expect(page.locator("li.seat[data-seat='0'] [data-hand-to]")).to_have_count(0)  # not her own
    button.click()
    expect(seat.locator(".tag.autoplay")).to_be_visible(timeout=STEP_MS)
    expect(button).to_have_count(0)

    def events() -> list[dict[str, object]]:
        found: list[dict[str, object]] = server.api("GET", f"/api/tables/{table_id}/events")["events"]
        return found

    handed = [e for e in events() if e["type"] == "autoplay"]
    assert [(e["seat"], e["reason"]) for e in handed] == [(1, "host")]
    # The bot plays Bo's seat; Ana plays hers.
    play_until(
        [ana],
        lambda: any(
            e["seat"] == 1 and e.get("by") == "bot" for e in events() if e["type"] in ("action", "cut")
        ),
    )
    assert errors == []
    context.close()
