"""The review on the replay page of a finished deal, in a real browser (Debian's Chromium through
Playwright) against a real ``paiute serve``: progress until ready, then each seat's marks, the
better action at each step and the chart of expected chips (R9.3: after the deal nothing is
hidden)."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from conftest_browser import Server, browser, run_server  # noqa: F401 - the fixtures this module uses
from playwright.sync_api import Browser, expect
from server_helpers import hurried

from paiute.i18n import format_chips


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose reviews are quick (few playouts: the page, not the estimate, is tested)."""
    saved = os.environ.get("PAIUTE_REVIEW_PLAYOUTS")
    os.environ["PAIUTE_REVIEW_PLAYOUTS"] = "6"
    try:
        with run_server(tmp_path_factory.mktemp("serve"), deal_pause=0.2) as running:
            yield running
    finally:
        if saved is None:
            os.environ.pop("PAIUTE_REVIEW_PLAYOUTS", None)
        else:
            os.environ["PAIUTE_REVIEW_PLAYOUTS"] = saved


def play_one_deal(server: Server, rng: random.Random) -> str:
    """Ana, choosing at random over the API (but calling whenever she may, so the deal ends),
    and a greedy bot at a one-deal table, until the match closes."""
    body = {"player_name": "Ana", "seats": 2, "max_deals": 1, "bots": "greedy"}
    created = server.api("POST", "/api/tables", json=body)
    table_id = created["table"]["id"]
    tokens = {0: created["token"]}
    server.api("POST", f"/api/tables/{table_id}/start", tokens[0], json={"id": "start"})
    for _ in range(2000):
        for seat, token in tokens.items():
            view = server.api("GET", f"/api/tables/{table_id}/state", token)
            if view["status"] == "closed":
                return table_id
            if view["status"] == "cut" and view["cutter"] == seat:
                body = {"id": f"cut-{view['version']}", "position": rng.randrange(52)}
                server.api("POST", f"/api/tables/{table_id}/cut", token, json=body)
            elif view["status"] == "playing" and view["observation"]["legal_actions"]:
                action = hurried(rng, view["observation"]["legal_actions"])
                body = {"id": f"a-{view['version']}", "action": action, "expected_version": view["version"]}
                server.api("POST", f"/api/tables/{table_id}/actions", token, json=body)
                # Below the server's 20 state changes a second per token (http_rate): a faster
                # client is answered 429, as it should be.
                time.sleep(0.06)
        time.sleep(0.01)
    raise AssertionError("the match did not end")


def told_better(decision: dict[str, Any]) -> bool:
    """Whether the page names a better action at this decision: the server's ``better``
    (paiute.analysis.review.Decision.better), the best where it is another action and worth more on
    the paired playouts."""
    assert decision["better"] in (None, decision["best"])
    return decision["better"] is not None


def reviewed(server: Server, table_id: str) -> dict[str, Any]:
    """The review of the table's deal, asked for over the API until it is ready."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        review = server.api("GET", f"/api/tables/{table_id}/deals/1/review")
        if review["status"] == "ready":
            return review
        time.sleep(0.2)
    raise AssertionError(f"the review of table {table_id} was not ready in 120 s")


def test_replay_page_shows_the_review_marks_better_actions_and_chart(
    server: Server, browser: Browser
) -> None:
    rng = random.Random(12)
    table_id = play_one_deal(server, rng)
    errors: list[str] = []
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(f"{server.url}/t/{table_id}/replay?deal=1")
    expect(page.locator("#review-status")).to_contain_text("review", ignore_case=True, timeout=10_000)
    # The page asks until the review is ready, then shows the chart: a line per seat.
    expect(page.locator("#review-chart svg polyline")).to_have_count(2, timeout=120_000)
    expect(page.locator("#review-status")).to_have_text("")
    # The deal is shuffled by the server (R10.1), so a short one may leave no better action to
    # show (a call at the first chance): then more one-deal tables, until a review has one.
    tables = 1
    while not any(told_better(d) for d in reviewed(server, table_id)["decisions"]):
        assert tables < 6, f"{tables} deals of random play and no better action in their reviews"
        table_id = play_one_deal(server, rng)
        tables += 1
        page.goto(f"{server.url}/t/{table_id}/replay?deal=1")
        expect(page.locator("#review-chart svg polyline")).to_have_count(2, timeout=120_000)
    review = server.api("GET", f"/api/tables/{table_id}/deals/1/review")
    assert review["status"] == "ready"
    marked = [d for d in review["decisions"] if d["mark"]]
    expect(page.locator("#review-summary li.review-seat")).to_have_count(2)
    expect(page.locator("#review-summary .review-marks button")).to_have_count(len(marked))
    expect(page.locator("#review-chart svg circle.mark-dot")).to_have_count(len(marked))
    expect(page.locator("#review-meaning")).to_contain_text("(0 is break-even)")
    for summary in review["summary"]:
        item = page.locator(f"#review-summary li[data-seat='{summary['seat']}']")
        expect(item).to_contain_text(f"blunders: {summary['blunder']}")
        expect(item).to_contain_text(f"mistakes: {summary['mistake']}")
    # The step of the worst of the better actions shows it, with its mark if it has one.
    worse = [d for d in review["decisions"] if told_better(d)]
    decision = max(worse, key=lambda d: d["loss"])
    if decision["mark"]:  # the marks are listed under their seat, in the order of play
        of_seat = [d for d in marked if d["seat"] == decision["seat"]]
        seat_item = page.locator(f"#review-summary li[data-seat='{decision['seat']}']")
        seat_item.locator(".review-marks button").nth(of_seat.index(decision)).click()
    else:
        page.keyboard.press("Home")
        for _ in range(decision["action"] + 1):
            page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-step")).to_contain_text(f"Step {decision['action'] + 1} of")
    line = page.locator("#review-step .review-line")
    expect(line).to_contain_text("better")
    expect(line).to_contain_text(f"loss {format_chips(decision['loss'], 'en', signed=False)}")
    if decision["unmarked"] == "noise":  # why the loss has no mark
        expect(line).to_contain_text(f"Not marked: within the noise of {decision['samples']} playouts.")
    expect(line).to_have_attribute("data-mark", decision["mark"] or "none")
    if decision["mark"]:
        expect(line.locator(".mark")).to_have_text(decision["mark"])
    # A move that was not the hint's but did no worse on the playouts is told no better one.
    for other in review["decisions"]:
        if other["best"] != other["played"] and not told_better(other):
            page.keyboard.press("Home")
            for _ in range(other["action"] + 1):
                page.keyboard.press("ArrowRight")
            expect(page.locator("#replay-step")).to_contain_text(f"Step {other['action'] + 1} of")
            expect(page.locator("#review-step .review-line")).not_to_contain_text("better")
            break
    page.keyboard.press("Home")
    expect(page.locator("#review-step")).to_have_text("")
    assert not errors
    page.close()
