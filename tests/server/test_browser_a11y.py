"""The pages for keyboard and screen-reader users, in Debian's Chromium against a real server.

axe-core (through axe-playwright-python, which bundles it) finds no serious or critical
problem on any page: the lobby, a table in the middle of a deal (desktop and phone), the deal
summary with the final standings at the end of the match, the replay, the players' rules,
"My tables", a missing table, and the leaderboard and a player's profile where the server
has them. The hand is one Tab stop whose cards the arrow keys walk, and a move made from the
keyboard leaves the focus on the hand; the end of a match shows every seat's place and chips.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe
from conftest_browser import STEP_MS, Server, TablePage, browser, play_until, server  # noqa: F401 - the fixtures this module uses
from playwright.sync_api import Browser, Page, expect

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
AXE = Axe()
#: What must not be found: axe-core's two highest levels of impact.
SERIOUS = ("serious", "critical")


def new_page(browser: Browser, errors: list[str], viewport: dict[str, int] = DESKTOP) -> Page:
    page = browser.new_context(viewport=viewport).new_page()  # type: ignore[arg-type]
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    return page


def serious_violations(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now, its experimental
    rules included (label-content-name-mismatch is one: a control's visible words in its name)."""
    experimental = page.evaluate(AXE.axe_script + ";axe.getRules(['experimental']).map(rule => rule.ruleId)")
    options = {"resultTypes": ["violations"], "rules": {rule: {"enabled": True} for rule in experimental}}
    found = AXE.run(page, options=options).response["violations"]
    return [
        f"{item['id']} ({item['impact']}): {[node['target'] for node in item['nodes']]}"
        for item in found
        if item["impact"] in SERIOUS
    ]


def focused(page: Page) -> dict[str, object]:
    """The element that has the keyboard: its id, its card, its place in the hand (-1: elsewhere)."""
    result: dict[str, object] = page.evaluate(
        """() => { const e = document.activeElement;
                   const cards = [...document.querySelectorAll('#hand button[data-card]')];
                   return {id: e.id, card: e.dataset.card ?? null, at: cards.indexOf(e)}; }"""
    )
    return result


def wait_for_my_draw(player: TablePage, deal: str | None = None) -> bool:
    """Cut when this seat cuts (R2.4), until it is this seat's turn to draw: True; False when
    the deal ``deal`` ends first."""
    page = player.page
    for _ in range(40):
        page.wait_for_function(
            """deal => { const a = document.getElementById('app');
                         if (deal !== null && a.dataset.deal !== deal) return true;
                         return a.dataset.busy === 'false' && (
                             (a.dataset.status === 'cut' && !document.getElementById('cut-controls').hidden)
                             || (a.dataset.status === 'playing' && a.dataset.turn === a.dataset.you
                                 && a.dataset.phase === 'draw')); }""",
            arg=deal,
            timeout=30_000,
        )
        if deal is not None and player.data("deal") != deal:
            return False
        if player.data("status") == "playing":
            return True
        player.play_step()
    raise AssertionError("never this seat's turn to draw")


def test_the_hand_is_one_tab_stop_and_keeps_the_focus_after_every_move(
    server: Server, browser: Browser
) -> None:
    errors: list[str] = []
    created = server.api(
        "POST", "/api/tables", json={"name": "Keys", "player_name": "Kai", "seats": 2, "bots": "random"}
    )
    page = new_page(browser, errors)
    page.goto(f"{server.url}/t/{created['table']['id']}#seat={created['token']}")
    me = TablePage(page)
    me.wait_ready()
    page.click("#start-button")
    wait_for_my_draw(me)
    deal = me.data("deal")
    before = set(me.hand())

    # A draw from the keyboard: its button goes away for the discard, the card drawn takes the focus.
    page.focus("#btn-draw-stock")
    page.keyboard.press("Enter")
    expect(page.locator("#hand [data-card]")).to_have_count(6, timeout=STEP_MS)
    expect(page.locator("#app")).to_have_attribute("data-busy", "false", timeout=STEP_MS)
    (drawn,) = set(me.hand()) - before
    expect(page.locator(f"#hand [data-card='{drawn}']")).to_be_focused(timeout=STEP_MS)
    expect(page.locator("#hand button[tabindex='0']")).to_have_count(1)  # the hand: one Tab stop
    expect(page.locator("#hand")).to_have_attribute("role", "toolbar")

    # The arrow keys walk the hand, round from one end to the other; Home and End jump.
    page.keyboard.press("Home")
    assert focused(page)["at"] == 0
    page.keyboard.press("ArrowLeft")
    assert focused(page)["at"] == 5
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert focused(page)["at"] == 1
    expect(page.locator("#hand button[tabindex='0']")).to_have_count(1)

    # Enter discards the card in the second place: the card now in that place has the focus.
    discarded = focused(page)["card"]
    page.keyboard.press("Enter")
    expect(page.locator("#hand [data-card]")).to_have_count(5, timeout=STEP_MS)
    expect(page.locator("#app")).to_have_attribute("data-busy", "false", timeout=STEP_MS)
    now = focused(page)
    assert now["at"] == 1, now
    assert now["card"] not in (None, discarded)

    # The other seat plays; the focus waits on the hand. This seat's next draw: one Tab away.
    if wait_for_my_draw(me, deal):  # (unless the other seat called and ended the deal first)
        assert focused(page)["at"] == 1
        page.keyboard.press("Tab")
        assert focused(page)["id"] == "btn-draw-stock"
        page.keyboard.press("Shift+Tab")
        assert focused(page)["at"] == 1  # back into the hand at its one stop, not its first card
    assert errors == []
    page.context.close()


@dataclass
class Finished:
    """A match of one deal between a person and a bot, played by clicking to its end."""

    table_id: str
    page: Page
    during: dict[str, list[str]]  # axe's findings in the middle of the deal, per viewport
    errors: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def finished(server: Server, browser: Browser) -> Finished:
    errors: list[str] = []
    created = server.api(
        "POST",
        "/api/tables",
        json={"name": "Axe", "player_name": "Ada", "seats": 2, "bots": "medium", "max_deals": 1},
    )
    table_id = created["table"]["id"]
    page = new_page(browser, errors)
    page.goto(f"{server.url}/t/{table_id}#seat={created['token']}")
    me = TablePage(page)
    me.wait_ready()
    page.click("#start-button")
    wait_for_my_draw(me)
    page.click("#btn-draw-stock")  # mid-deal: six cards, the one drawn marked "new"
    expect(page.locator("#hand [data-card]")).to_have_count(6, timeout=STEP_MS)
    expect(page.locator("#app")).to_have_attribute("data-busy", "false", timeout=STEP_MS)
    during = {"desktop": serious_violations(page)}
    page.set_viewport_size(PHONE)  # type: ignore[arg-type]
    during["phone"] = serious_violations(page)
    page.set_viewport_size(DESKTOP)  # type: ignore[arg-type]
    play_until([me], lambda: me.data("status") == "closed", max_moves=600, seconds=90, call_after=0)
    return Finished(table_id, page, during, errors)


def test_axe_finds_no_serious_problem_on_the_table_mid_deal(finished: Finished) -> None:
    assert finished.during == {"desktop": [], "phone": []}


def test_the_end_of_the_match_shows_every_seats_place_name_and_chips(
    finished: Finished, server: Server
) -> None:
    page = finished.page
    expect(page.locator("#summary")).to_be_visible(timeout=STEP_MS)  # opened by itself at the end
    standings = page.locator("#standings")
    expect(standings).to_be_visible()
    expect(standings.locator("#standings-heading")).to_have_text("Final standings")
    view = server.api("GET", f"/api/tables/{finished.table_id}/state")
    balances, names = view["balances"], view["names"]
    rows = standings.locator("tbody tr")
    expect(rows).to_have_count(len(balances))
    shown = [row.split("\t") for row in rows.all_inner_texts()]
    ranked = sorted(range(len(balances)), key=lambda seat: (-balances[seat], seat))
    assert shown == [
        [str(1 + sum(other > balances[seat] for other in balances)), names[seat], str(balances[seat])]
        for seat in ranked
    ]
    assert serious_violations(page) == []
    # One deal played: said with the singular, not "the 1 deals".
    expect(page.locator("#log li.ev-closed")).to_have_text("The match is over: its only deal has been played")


def test_axe_finds_no_serious_problem_on_the_other_pages(
    finished: Finished, server: Server, browser: Browser
) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    # An account with a table, so that "My tables" lists one.
    signed = page.request.post(
        f"{server.url}/api/accounts", data={"name": "Axel", "password": "correct horse battery"}
    )
    assert signed.ok, signed.text()
    made = page.request.post(f"{server.url}/api/tables", data={"player_name": "Axel", "seats": 2})
    assert made.ok, made.text()
    pages = {
        "lobby": ("/", "#options .field"),
        "rules": ("/rules", "#deal-wild [data-card]"),
        "my tables": ("/me/tables", "#mine-list li"),
        "replay": (f"/t/{finished.table_id}/replay?deal=1", "#r-seats li"),
        "missing table": ("/t/nosuchtable", "#missing-title"),
    }
    # The ratings' pages, where this server has them.
    if httpx.get(f"{server.url}/leaderboard", timeout=10).status_code == 200:
        pages["leaderboard"] = ("/leaderboard", "body")
        pages["profile"] = ("/players/Axel", "body")
    found = {}
    for name, (path, ready) in pages.items():
        page.goto(server.url + path)
        page.wait_for_selector(ready, state="attached", timeout=STEP_MS)
        page.wait_for_load_state("networkidle")
        found[name] = serious_violations(page)
    assert found == {name: [] for name in pages}
    assert errors == []
    page.context.close()
