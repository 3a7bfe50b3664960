"""The hint button at the web table, in Debian's Chromium against a real ``paiute serve``:
shown on the person's own move only, it asks the server and shows the best move, the reasons
and every move's expected chips; a spectator has no button (R9)."""

from __future__ import annotations

import re

from conftest_browser import STEP_MS, Server, TablePage, browser, play_until, server  # noqa: F401 - the fixtures this module uses
from playwright.sync_api import Browser, Route

DESKTOP = {"width": 1280, "height": 800}


def test_hint_button_shows_the_best_move_and_its_reasons(server: Server, browser: Browser) -> None:
    errors: list[str] = []
    page = browser.new_context(viewport=DESKTOP).new_page()  # type: ignore[arg-type]
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    table = server.api("POST", "/api/tables", json={"player_name": "Ana", "seats": 2, "bots": "greedy"})
    table_id, token = table["table"]["id"], table["token"]
    page.goto(f"{server.url}/t/{table_id}#seat={token}")
    ana = TablePage(page)
    ana.wait_ready()
    assert page.locator("#hint-button").is_hidden()
    page.click("#start-button")
    # Until it is Ana's move (she may have to cut first; the bot plays its turns).
    for _ in range(200):
        if page.locator("#hint-button").is_visible():
            break
        if page.locator("#cut-controls").is_visible():
            page.click("#cut-button")
        page.wait_for_timeout(50)
    assert page.locator("#hint-button").is_visible()
    assert ana.data("turn") == ana.data("you")
    legal = server.api("GET", f"/api/tables/{table_id}/state", token)["observation"]["legal_actions"]
    page.click("#hint-button")
    page.wait_for_selector("#hint-panel .hint-table", timeout=STEP_MS)
    text = page.inner_text("#hint-panel")
    assert "Recommended: " in text  # the expert's move, whatever the playouts show (hint.move)
    # The move is the expert level's; the playouts explain it.
    assert any(
        words in text for words in ("The expert's move; below, each of the", "Your only legal move now.")
    )
    assert "Expected chips of each move, with a 95% interval" in text
    rows = page.locator("#hint-panel tbody tr").evaluate_all("rows => rows.map(r => r.dataset.action)")
    assert sorted(rows) == sorted(legal)
    assert page.locator("#hint-panel tbody tr.winner").count() == 1
    # On a discard of Ana's with several cards to throw: the expert's move, and each discard's
    # chance of feeding the next player (R4.2) in its own column.
    page.click("#hint-panel .dialog-head button")

    def ana_discards() -> bool:
        # Before any call: in the last round a discard feeds nobody (R7.2) and the hint shows
        # no feed column. The bot may call first; then the next deal gives another chance.
        mine = ana.data("status") == "playing" and ana.data("turn") == ana.data("you")
        before_a_call = page.locator("#last-round").is_hidden()
        return mine and ana.data("phase") == "discard" and ana.turns >= 2 and before_a_call

    play_until([ana], ana_discards, seconds=60, call_after=99)
    page.click("#hint-button")
    page.wait_for_selector("#hint-panel .hint-table", timeout=STEP_MS)
    text = page.inner_text("#hint-panel")
    assert "The expert's move; below, each of the" in text
    assert "Feeds the next player" in text
    feeds = page.locator("#hint-panel tbody tr td:last-child").all_inner_texts()
    assert any(re.fullmatch(r"\d+%", cell) for cell in feeds)
    # A move the playouts rate above the expert's beyond their noise (the server's
    # beyond_noise, here set on the answer): named, with why the hint keeps the expert's.
    page.click("#hint-panel .dialog-head button")

    def rated_higher(route: Route) -> None:
        answer = route.fetch()
        body = answer.json()
        other = next(row for row in body["actions"] if row["action"] != body["recommended"])
        other["versus_expert"] = {"mean": 0.4, "low": 0.1, "high": 0.7}
        body["beyond_noise"] = other["action"]
        body["playouts"] = 1  # a hint cut short by its time budget: the singular
        route.fulfill(response=answer, json=body)

    page.route("**/api/tables/*/hint", rated_higher)
    page.click("#hint-button")
    page.wait_for_selector("#hint-panel .hint-table", timeout=STEP_MS)
    text = page.inner_text("#hint-panel")
    moves = len(page.locator("#hint-panel tbody tr").all())
    assert f"The expert's move; below, each of the {moves} moves played out 1 time." in text
    assert "shows +0.40 chips more in these playouts (+0.10 to +0.70); moves chosen that way" in text
    # Every figure of the table has two decimals, as the terminal's hint has.
    figures = page.locator("#hint-panel tbody td:nth-child(2)").all_inner_texts()
    assert figures
    assert all(re.fullmatch(r"[+−]\d+\.\d\d", figure) for figure in figures), figures
    assert "within their noise" not in text
    page.unroute("**/api/tables/*/hint")
    # A spectator sees no button.
    watcher = browser.new_context(viewport=DESKTOP).new_page()  # type: ignore[arg-type]
    watcher.goto(f"{server.url}/t/{table_id}")
    TablePage(watcher).wait_ready()
    assert watcher.locator("#hint-button").is_hidden()
    watcher.context.close()
    page.context.close()
    assert errors == []
