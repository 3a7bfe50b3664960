"""A private table's pages opened by its seat link in a fresh browser (Debian's Chromium through
Playwright) against a real ``paiute serve``: the token is in the page's storage only, there is
no seat cookie, and the deal summary still verifies the proof, the record still downloads and
the replay page still shows the deal and its review; a stranger's replay page says it is not
allowed (not that the deal is unfinished)."""

from __future__ import annotations

import os
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest_browser import STEP_MS, Server, browser, run_server  # noqa: F401 - the fixtures this module uses
from playwright.sync_api import Browser, expect
from server_helpers import hurried

from paiute.record import Record


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose reviews are quick (few playouts: the page, not the estimate, is tested)."""
    saved = os.environ.get("PAIUTE_REVIEW_PLAYOUTS")
    os.environ["PAIUTE_REVIEW_PLAYOUTS"] = "2"
    try:
        with run_server(tmp_path_factory.mktemp("serve"), deal_pause=0.2) as running:
            yield running
    finally:
        if saved is None:
            os.environ.pop("PAIUTE_REVIEW_PLAYOUTS", None)
        else:
            os.environ["PAIUTE_REVIEW_PLAYOUTS"] = saved


def first_deal_over(server: Server, rng: random.Random) -> tuple[str, str]:
    """A "play now" table (private) whose first deal Ana has played over the API, at random
    but calling whenever she may: its id and her token. No browser has seen it yet."""
    created = server.api("POST", "/api/play", json={"player_name": "Ana", "seats": 2, "level": "easy"})
    table_id, token = created["table"]["id"], created["token"]
    for _ in range(2000):
        view = server.api("GET", f"/api/tables/{table_id}/state", token)
        if view["last_deal"] is not None:
            return table_id, token
        if view["status"] == "cut" and view["cutter"] == view["you"]:
            body = {"id": f"cut-{view['version']}", "position": rng.randrange(52)}
            server.api("POST", f"/api/tables/{table_id}/cut", token, json=body)
        elif view["status"] == "playing" and view["observation"]["legal_actions"]:
            action = hurried(rng, view["observation"]["legal_actions"])
            body = {"id": f"a-{view['version']}", "action": action, "expected_version": view["version"]}
            server.api("POST", f"/api/tables/{table_id}/actions", token, json=body)
        # Below the server's 20 requests a second per token (http_rate).
        time.sleep(0.06)
    raise AssertionError("the first deal did not end")


def test_a_seat_link_in_a_fresh_browser_sees_its_private_tables_proof_record_and_replay(
    server: Server, browser: Browser
) -> None:
    table_id, token = first_deal_over(server, random.Random(4))
    errors: list[str] = []
    context = browser.new_context(accept_downloads=True)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/t/{table_id}#seat={token}")
    page.wait_for_selector("#app[data-version]", timeout=STEP_MS)
    assert not [cookie for cookie in context.cookies() if cookie["name"].startswith("paiute_seat_")]
    if page.locator("#summary").is_hidden():
        page.click("#open-summary")
    status = page.locator("#proof-status")
    expect(status).to_have_attribute("data-result", "verified", timeout=STEP_MS)

    with page.expect_download(timeout=STEP_MS) as downloading:
        page.click("#summary-record")
    download = downloading.value
    assert download.suggested_filename == f"paiute-{table_id}.json"
    record = Record.loads(Path(download.path()).read_text(encoding="utf-8"))
    assert len(record.deals) >= 1
    assert token not in (page.locator("#summary-record").get_attribute("href") or "")

    page.click("#summary-replay")
    page.wait_for_url(re.compile(rf"/t/{re.escape(table_id)}/replay\?deal=1$"), timeout=STEP_MS)
    expect(page.locator("#replay-step")).to_contain_text("Step 0 of", timeout=STEP_MS)
    expect(page.locator("#replay-error")).to_be_hidden()
    expect(page.locator("#review-chart svg polyline")).to_have_count(2, timeout=120_000)
    assert not errors
    context.close()

    stranger = browser.new_context().new_page()
    stranger.goto(f"{server.url}/t/{table_id}/replay?deal=1")
    expect(stranger.locator("#replay-error")).to_contain_text("not allowed", timeout=STEP_MS)
    expect(stranger.locator("#replay-error")).not_to_contain_text("not finished")
    stranger.context.close()
