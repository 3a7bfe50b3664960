"""A room that feels alive and never stalls, in a real browser (Debian's Chromium through
Playwright) against a real ``paiute serve`` (a two-second grace period):

* two people on a phone and a desktop: the waiting panel, the title on your turn, cards that
  move (not under ``prefers-reduced-motion``), the deal summary that closes on a phone when the
  next deal starts, seats that show nothing of the last deal during the cut, a reopened
  summary with its wild cards, a 32-character name that stays in its box;
* two people and a bot: one leaves mid-deal, the grace period runs, the bot plays for the
  seat, the player comes back and plays on;
* "play now" against bots of a level, and a rematch after the match.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from conftest_browser import STEP_MS, Server, browser, play_until, run_server  # noqa: F401 - fixtures
from conftest_browser import TablePage as RandomCutPage
from playwright.sync_api import Browser, Page, expect

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
LONG_NAME = "Bartholomew-Maximilian-Longname7"  # 32 characters, the server's limit
GRACE = 2.0
# Every element that gets the "arrive" class (a card that moves), with its animation then.
WATCH_MOVES = """
window.__moves = [];
new MutationObserver((changes) => {
  for (const change of changes) for (const node of change.addedNodes) {
    if (node.nodeType !== 1) continue;
    for (const el of [node, ...node.querySelectorAll(".arrive")]) {
      if (el.classList.contains("arrive")) window.__moves.push([el.className, getComputedStyle(el).animationName]);
    }
  }
}).observe(document, { subtree: true, childList: true });
"""


#: The module's server deals from this seed (paiute.server.deals, tests only): every table gets
#: the same deals, which run long enough for each scenario and end (a secure deal may not).
DEAL_SEED = "9"


class TablePage(RandomCutPage):
    """The pages of this module cut at one place: with the seeded server, the same deals."""

    cut_at = 20


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # Every page of the module comes from 127.0.0.1: room for the lobby's many tables.
    flags = ["--max-tables-per-address", "200", "--max-seats-per-address", "200"]
    flags += ["--insecure-deal-seed", DEAL_SEED]
    with run_server(
        tmp_path_factory.mktemp("live"), deal_pause=2.0, away_grace=GRACE, extra=flags
    ) as running:
        yield running


# A browser whose notifications are allowed and recorded, and whose tab can be "hidden".
FAKE_NOTIFICATIONS = """
window.__notes = [];
window.Notification = class {
  static permission = "granted";
  static requestPermission() { return Promise.resolve("granted"); }
  constructor(title, options) { window.__notes.push([title, options?.body ?? ""]); }
  close() {}
};
Object.defineProperty(Document.prototype, "hidden", { get() { return window.__hidden === true; }, configurable: true });
"""


def open_page(
    browser: Browser,
    errors: list[str],
    viewport: dict[str, int] = DESKTOP,
    *,
    script: str = "",
    **options: Any,
) -> Page:
    phone = viewport["width"] < 600
    context = browser.new_context(viewport=viewport, has_touch=phone, is_mobile=phone, **options)  # type: ignore[arg-type]
    context.add_init_script(WATCH_MOVES + script)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    return page


def create_in_lobby(page: Page, server: Server, name: str, **fields: str) -> str:
    page.goto(server.url + "/")
    page.fill("#player-name", name)
    for selector, value in fields.items():
        if selector in ("#seats", "#bots"):
            page.select_option(selector, value)
        else:
            page.fill(selector, value)
    page.click("#create-submit")
    page.wait_for_url("**/t/*")
    return page.url.rsplit("/", 1)[1]


def join_in_lobby(page: Page, server: Server, table_id: str, name: str) -> None:
    page.goto(server.url + "/")
    page.fill("#player-name", name)
    page.locator(f"li[data-table-id='{table_id}'] button").click()
    page.wait_for_url(f"**/t/{table_id}")


def inside(page: Page, inner: str, outer: str) -> bool:
    """Whether every ``inner`` element lies within its closest ``outer`` box (no overflow)."""
    result: bool = page.evaluate(
        """([inner, outer]) => [...document.querySelectorAll(inner)].every(el => {
            const box = el.closest(outer).getBoundingClientRect(), r = el.getBoundingClientRect();
            return r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
        })""",
        [inner, outer],
    )
    return result


def test_two_people_phone_and_desktop(server: Server, browser: Browser) -> None:
    errors: list[str] = []
    # Ana on a phone, who asked for no motion; Bo on a desktop.
    ana = open_page(browser, errors, PHONE, reduced_motion="reduce")
    table_id = create_in_lobby(ana, server, LONG_NAME, **{"#seats": "2", "#bots": "", "#max-deals": "2"})
    bo = open_page(browser, errors, script=FAKE_NOTIFICATIONS)
    join_in_lobby(bo, server, table_id, "Bo")
    watcher = open_page(browser, errors)
    watcher.goto(f"{server.url}/t/{table_id}?watch=1")
    players = [TablePage(ana), TablePage(bo)]
    for page in [*players, TablePage(watcher)]:
        page.wait_ready()

    # The waiting panel asks a spectator to take a seat, and tells a seated player what is next.
    expect(ana.locator("#waiting-heading")).to_have_text("Waiting for the match to start")
    expect(watcher.locator("#waiting-heading")).to_have_text("Take a seat")

    # A 32-character name stays in its boxes on a phone; the page does not scroll sideways.
    ana.locator("#chat-input").fill("x" * 150)
    ana.locator("#chat-form button").click()
    expect(ana.locator("#chat li")).to_have_count(1, timeout=STEP_MS)
    assert inside(ana, "li.seat .seat-name", "li.seat")
    assert inside(ana, "#chat .chat-text", ".panel")
    assert inside(ana, "#log li", ".panel")
    assert inside(ana, "#balances li > span", ".panel")
    assert ana.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # Bo wants a sound and a notification on his turn; both choices are remembered.
    bo.check("#alert-sound")
    bo.check("#alert-notify")
    expect(bo.locator("#alert-notify")).to_be_checked()
    remembered = "[localStorage.getItem('paiute.alerts.sound'), localStorage.getItem('paiute.alerts.notify')]"
    assert bo.evaluate(remembered) == ["true", "true"]
    assert not ana.is_checked("#alert-sound")  # off unless chosen
    tones = int(bo.evaluate("document.documentElement.dataset.toneCount ?? '0'"))
    bo.evaluate("window.__hidden = true")
    ana.click("#start-button")

    # Until a discard shows on both pages: on Bo's it moves, on Ana's (reduced motion) not.
    def moves(page: Page) -> list[list[str]]:
        found: list[list[str]] = page.evaluate("window.__moves")
        return [move for move in found if "from-seat" in move[0]]

    play_until(players, lambda: moves(ana) and moves(bo))
    assert {name for _, name in moves(bo)} == {"arrive-pile"}
    assert {name for _, name in moves(ana)} == {"none"}

    # The title says whose turn it is.
    def title_follows_the_turn() -> bool:
        for player in players:
            mine = player.data("status") == "playing" and player.data("turn") == str(player.seat)
            if mine:
                return player.page.title().startswith("▶") and not players[
                    1 - players.index(player)
                ].page.title().startswith("▶")
        return False

    play_until(players, title_follows_the_turn)
    # Bo's turns came while his tab was "hidden": a tone and a notification.
    play_until(players, lambda: bo.evaluate("window.__notes.length") >= 1)
    assert bo.evaluate("window.__notes[0][0]") == "Paiute: your turn"
    assert int(bo.evaluate("document.documentElement.dataset.toneCount")) > tones
    assert ana.evaluate("document.documentElement.dataset.toneCount ?? '0'") == "0"

    # The first deal ends: the summary opens on the phone...
    play_until(players, lambda: ana.locator("#app").get_attribute("data-status") == "deal_over")
    expect(ana.locator("#summary")).to_be_visible()
    # ...and closes by itself when the next deal starts (the cut), before anyone taps it.
    # (On both pages: one of them is not the cutter, whose move it is not.)
    ana.wait_for_function("() => document.getElementById('app').dataset.status === 'cut'", timeout=STEP_MS)
    bo.wait_for_function("() => document.getElementById('app').dataset.status === 'cut'", timeout=STEP_MS)
    expect(ana.locator("#summary")).to_be_hidden()
    expect(bo.locator("#summary")).to_be_hidden()
    # During the cut the seats show nothing of the last deal: no call, no last move, no cards,
    # and the dealer tag is the new deal's dealer.
    view = server.api("GET", f"/api/tables/{table_id}/state")
    assert view["status"] == "cut"
    for page in (ana, bo, watcher):
        assert page.locator("li.seat .seat-call, li.seat .seat-last, li.seat .backs").count() == 0
        dealer = page.locator("li.seat:has(.tag.dealer)")
        expect(dealer).to_have_count(1)
        assert dealer.get_attribute("data-seat") == str(view["dealer"])
    # The summary reopened during the next deal keeps its wild-card marks.
    play_until(players, lambda: ana.locator("#app").get_attribute("data-status") == "playing")
    last = server.api("GET", f"/api/tables/{table_id}/state")["last_deal"]
    wild_in_hands = sum(card in last["wild_cards"] for hand in last["hands"] for card in hand)
    ana.click("#open-summary")
    expect(ana.locator("#summary")).to_be_visible()
    assert ana.locator("#summary-table .card.wild").count() == wild_in_hands
    ana.click("#summary-close")
    assert errors == []


def test_a_player_leaves_mid_deal_the_bot_plays_then_they_come_back(server: Server, browser: Browser) -> None:
    errors: list[str] = []
    ana = open_page(browser, errors)
    table_id = create_in_lobby(ana, server, "Ana", **{"#seats": "3", "#bots": "medium"})
    bo = open_page(browser, errors)
    join_in_lobby(bo, server, table_id, "Bo")
    players = [TablePage(ana), TablePage(bo)]
    for page in players:
        page.wait_ready()
    ana.click("#start-button")
    play_until(players, lambda: all(p.data("status") == "playing" and p.turns >= 1 for p in players))
    context = bo.context
    bo.close()  # Bo goes mid-deal
    seat = ana.locator("li.seat[data-seat='1']")
    expect(seat.locator(".seat-away")).to_contain_text("the bot plays in", timeout=STEP_MS)
    expect(seat.locator(".tag.autoplay")).to_be_visible(timeout=STEP_MS + 3000)
    events = lambda: server.api("GET", f"/api/tables/{table_id}/events")["events"]  # noqa: E731
    alone = [TablePage(ana)]
    play_until(
        alone,
        lambda: any(
            e["seat"] == 1 and e.get("by") == "bot" for e in events() if e["type"] in ("action", "cut")
        ),
    )
    # Bo comes back on the same device: the seat is Bo's again, and Bo plays on.
    back = context.new_page()
    back.on("pageerror", lambda error: errors.append(str(error)))
    back.goto(f"{server.url}/t/{table_id}")
    again = TablePage(back)
    again.wait_ready()
    expect(seat.locator(".tag.autoplay")).to_have_count(0, timeout=STEP_MS)
    assert again.seat == 1
    before = sum(1 for e in events() if e["type"] == "action" and e["seat"] == 1 and e["by"] == "player")
    players = [TablePage(ana), again]
    play_until(
        players,
        lambda: (
            sum(1 for e in events() if e["type"] == "action" and e["seat"] == 1 and e["by"] == "player")
            > before
        ),
    )
    assert errors == []


def test_play_now_and_a_rematch(server: Server, browser: Browser) -> None:
    errors: list[str] = []
    solo = open_page(browser, errors)
    solo.goto(server.url + "/")
    solo.fill("#player-name", "Solo")
    expect(solo.locator("#play-level option")).to_have_text(["easy", "medium", "hard", "expert"])
    assert solo.locator("#play-level").input_value() == "medium"
    solo.click("#play-submit")
    solo.wait_for_url("**/t/*")
    TablePage(solo).wait_ready()
    solo.wait_for_function("() => ['cut', 'playing'].includes(document.getElementById('app').dataset.status)")
    expect(solo.locator("li.seat .tag.bot")).to_have_count(2)
    expect(solo.locator("li.seat .tag.bot").first).to_contain_text("medium")

    # A match of one deal, then the rematch: Bo accepts first, Ana joins it.
    ana = open_page(browser, errors)
    table_id = create_in_lobby(ana, server, "Ana", **{"#seats": "3", "#bots": "easy", "#max-deals": "1"})
    bo = open_page(browser, errors)
    join_in_lobby(bo, server, table_id, "Bo")
    players = [TablePage(ana), TablePage(bo)]
    for page in players:
        page.wait_ready()
    ana.click("#start-button")
    # The pages call at their first chance: the deal is only the way to the rematch (169 moves
    # and 46 s by the default of three turns first, 13 moves this way).
    play_until(players, lambda: ana.locator("#app").get_attribute("data-status") == "closed", call_after=0)
    # The last deal's summary is open at the end: the rematch is offered there too.
    expect(bo.locator("#summary-rematch")).to_be_visible()
    bo.click("#summary-rematch")
    bo.wait_for_url(lambda url: "/t/" in url and table_id not in url)
    new_id = bo.url.rsplit("/", 1)[1]
    assert new_id != table_id
    expect(ana.locator("#summary-rematch")).to_have_text("Join the rematch", timeout=STEP_MS)
    ana.click("#summary-close")
    ana.click("#rematch-button")
    ana.wait_for_url(f"**/t/{new_id}")
    for page, seat in ((ana, "0"), (bo, "1")):
        TablePage(page).wait_ready()
        page.wait_for_function("s => document.getElementById('app').dataset.you === s", arg=seat)
    assert errors == []


def test_the_lobby_filters_and_pages_its_tables(server: Server, browser: Browser) -> None:
    errors: list[str] = []
    made = [
        server.api(
            "POST", "/api/tables", json={"player_name": f"P{n}", "seats": 2, "stake": 77, "name": f"S77 {n}"}
        )
        for n in range(12)
    ]
    server.api("POST", f"/api/tables/{made[0]['table']['id']}/join", json={"name": "Full"})
    page = open_page(browser, errors)
    page.goto(server.url + "/")
    page.fill("#filter-stake", "77")
    page.locator("#filter-stake").dispatch_event("change")
    expect(page.locator("#page-info")).to_have_text("Page 1 of 2")
    expect(page.locator("#table-list li.table-item")).to_have_count(10)
    page.click("#page-next")
    expect(page.locator("#page-info")).to_have_text("Page 2 of 2")
    expect(page.locator("#table-list li.table-item")).to_have_count(2)
    expect(page.locator("#page-next")).to_be_disabled()
    page.check("#filter-open")  # the full table goes; back to the first page
    expect(page.locator("#page-info")).to_have_text("Page 1 of 2")
    page.click("#page-next")
    expect(page.locator("#table-list li.table-item")).to_have_count(1)
    full = made[0]["table"]["id"]
    assert page.locator(f"li[data-table-id='{full}']").count() == 0
    page.fill("#filter-stake", "78")
    page.locator("#filter-stake").dispatch_event("change")
    expect(page.locator("#table-list li.empty")).to_have_text("No open table matches these filters.")
    assert errors == []
