"""The web pages in a real browser (Debian's Chromium through Playwright) against a real
``paiute serve``: two friends and a bot play a deal by clicking, a spectator watches, a seat
comes back after a reload and on another device, the deal summary checks the fair-deal proof
(R10.2) in the browser, and the replay steps through the finished deal (R9.3).
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from conftest_browser import PLAYABLE_CARD, STEP_MS, Server, TablePage, browser, play_until, server  # noqa: F401 - the fixtures this module uses
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    WebSocket,
    WebSocketRoute,
    expect,
)
from server_helpers import steady

from paiute.deal import Deal
from paiute.fairness import SCHEME, RebuildCommitment, commitment_hash, cut, new_salt, secure_order
from paiute.rules import RuleSet
from paiute.server import patch

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
TAP = 44  # the smallest tap target, in CSS pixels


def new_page(browser: Browser, errors: list[str], viewport: dict[str, int] = DESKTOP) -> Page:
    """A page in a fresh context (its own storage and cookies: another person or device);
    at a phone's width with a touch screen."""
    phone = viewport["width"] < 600
    context: BrowserContext = browser.new_context(
        viewport=viewport,  # type: ignore[arg-type]
        has_touch=phone,
        is_mobile=phone,
    )
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    page.on(
        "console", lambda message: message.type == "error" and errors.append(f"{page.url}: {message.text}")
    )
    return page


@dataclass
class PlayedDeal:
    """What the module's one played deal left behind for the tests to look at."""

    table_id: str
    deal: int  # the match's last deal, played to its end
    deal_at_midpoint: int  # the deal the spectator was looked at halfway through
    players: list[TablePage]
    spectator: Page
    frames: list[dict[str, Any]]
    hidden_at_midpoint: set[str]  # cards in the friends' hands no spectator could see then
    spectator_cards_at_midpoint: list[str]
    spectator_hand_at_midpoint: int
    frames_at_midpoint: int
    moves: int
    errors: list[str] = field(default_factory=list)


def public_cards(page: Page, seat: int) -> set[str]:
    """Cards of ``seat``'s hand that may be named in public: seen taken (R4.5), shown in a
    call (R6.5), the upcard, and the wild cards (R3: which cards are wild, not who holds them)."""
    found = page.locator(
        f"li.seat[data-seat='{seat}'] :is(.seat-known, .seat-call) [data-card], #upcard [data-card], #wild [data-card]"
    )
    return set(found.evaluate_all("els => els.map(e => e.dataset.card)"))


@pytest.fixture(scope="module")
def played(server: Server, browser: Browser) -> PlayedDeal:
    """Ana creates a public table of two deals in the lobby, Bo joins from the lobby, a greedy
    bot takes the third seat; a spectator watches; they play the whole match by clicking."""
    errors: list[str] = []
    ana = new_page(browser, errors)
    ana.goto(server.url + "/")
    ana.fill("#player-name", "Ana")
    ana.fill("#table-name", "Friday game")
    ana.select_option("#seats", "3")
    ana.select_option("#bots", "medium")
    ana.fill("#max-deals", "2")
    ana.click("#create-submit")
    ana.wait_for_url("**/t/*")
    table_id = ana.url.rsplit("/", 1)[1]

    bo = new_page(browser, errors)
    bo.goto(server.url + "/")
    bo.fill("#player-name", "Bo")
    bo.locator(f"li[data-table-id='{table_id}'] button").click()
    bo.wait_for_url(f"**/t/{table_id}")

    frames: list[dict[str, Any]] = []
    spectator = new_page(browser, errors)

    def listen(socket: WebSocket) -> None:
        socket.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    spectator.on("websocket", listen)
    spectator.goto(f"{server.url}/t/{table_id}?watch=1")

    players = [TablePage(ana), TablePage(bo)]
    for player in players:
        player.wait_ready()
    TablePage(spectator).wait_ready()
    assert [player.seat for player in players] == [0, 1]
    ana.click("#start-button")

    # Halfway through a deal (the first one, unless it ended before both friends played):
    # look at what the spectator has.
    moves = play_until(players, lambda: all(p.data("status") == "playing" and p.turns >= 1 for p in players))
    deal = midpoint_deal = int(ana.locator("#app").get_attribute("data-deal") or 0)
    newest = max(int(player.data("version")) for player in players)
    spectator.wait_for_function("v => +document.getElementById('app').dataset.version >= v", arg=newest)
    hidden: set[str] = set()
    for seat, player in enumerate(players):
        hidden |= set(player.hand()) - public_cards(spectator, seat)
    # (The summary of an earlier deal may show its hands: once a deal has ended, R9.3.)
    spectator_cards = spectator.locator("[data-card]").evaluate_all(
        "els => els.filter(e => !e.closest('#summary')).map(e => e.dataset.card)"
    )
    midpoint = (len(frames), spectator.locator("#hand [data-card]").count())

    # Then the pages call at their first chance: what is looked at below needs the deals to
    # end, not to be long.
    moves += play_until(players, lambda: ended(players, deal), max_moves=600, seconds=75, call_after=0)
    # The match goes on to its last deal and closes (max_deals); the tests below look at it.
    moves += play_until(
        players,
        lambda: all(p.data("status") == "closed" for p in players),
        max_moves=600,
        seconds=75,
        call_after=0,
    )
    deal = int(ana.locator("#app").get_attribute("data-deal") or 0)
    assert deal == 2
    return PlayedDeal(
        table_id,
        deal,
        midpoint_deal,
        players,
        spectator,
        frames,
        hidden,
        spectator_cards,
        midpoint[1],
        midpoint[0],
        moves,
        errors,
    )


def ended(players: list[TablePage], deal: int) -> bool:
    """The deal is over for every page (its summary is available)."""
    summary = f"Deal {deal}: summary"
    return all(player.page.locator("#open-summary").inner_text() == summary for player in players)


def open_summary(page: Page) -> None:
    if page.locator("#summary").is_hidden():
        page.click("#open-summary")
    expect(page.locator("#summary")).to_be_visible()


def test_two_friends_and_a_bot_play_a_deal_through_the_pages(played: PlayedDeal) -> None:
    assert played.moves > 0
    for player in played.players:
        open_summary(player.page)
        summary = player.page.locator("#summary")
        expect(summary.locator("#summary-heading")).to_have_text(f"Deal {played.deal}: summary")
        # R8: one row per seat with the final hand revealed (R9.3) and the chips won or paid.
        rows = summary.locator("#summary-table tbody tr")
        expect(rows).to_have_count(3)
        for row in range(3):
            assert rows.nth(row).locator("[data-card]").count() >= 5
        payouts = [int(text) for text in rows.locator("td:nth-child(3)").all_inner_texts()]
        balances = [int(text) for text in rows.locator("td:nth-child(4)").all_inner_texts()]
        pot = int(summary.locator("#summary-pot").inner_text().split(":")[1].split()[0])
        # Everyone started with 100 chips and stakes 1 a deal (R8.2); the winners took the
        # pot, or a dead deal left it for the next (R8.5): chips are never made or lost (R8.6).
        assert sum(balances) + pot == 300
        assert (sum(payouts) + pot) % 3 == 0  # what changed hands is the pot carried in
    assert not played.errors


def test_deal_summary_verifies_the_fair_deal_proof_in_the_browser(played: PlayedDeal) -> None:
    seated = [player.page for player in played.players]
    for page in [*seated, played.spectator]:
        open_summary(page)
        status = page.locator("#proof-status")
        expect(status).to_have_attribute("data-result", "verified", timeout=10_000)
        expect(status).to_have_text("verified")
        checks = page.locator("#proof-checks li")
        expect(checks.filter(has_text="give the committed hash")).to_have_count(1)
        expect(checks.filter(has_text="shuffled order cut at")).to_have_count(1)
        expect(checks.filter(has_text="before the cut")).to_have_count(1)
        expect(checks.filter(has_text="The hands were dealt from this pack")).to_have_count(1)
        expect(checks.filter(has_text="is the card after the hands")).to_have_count(1)  # the upcard
        # A seat also checks the five cards it was dealt (a spectator has none).
        expect(checks.filter(has_text="Your five cards were dealt")).to_have_count(1 if page in seated else 0)
        expect(page.locator("#proof-checks li.bad")).to_have_count(0)


def test_spectator_sees_no_hand_in_the_page_or_the_websocket(played: PlayedDeal, server: Server) -> None:
    served = server.api("GET", f"/api/tables/{played.table_id}/state")  # a spectator's View
    played.spectator.wait_for_function(
        "v => +document.getElementById('app').dataset.version >= v", arg=served["version"]
    )
    # The page: no hand at all, and no card of a friend's hand that was never public (R9.2).
    assert played.spectator_hand_at_midpoint == 0
    assert played.spectator.locator("#hand [data-card]").count() == 0
    assert played.hidden_at_midpoint, "the friends hold cards nobody else has seen"
    assert not played.hidden_at_midpoint & set(played.spectator_cards_at_midpoint)
    # Every WebSocket frame: a spectator's view, no hand, no stock draw's card except the
    # face-up upcard (R2.6), revealed hands only for a finished deal (R9.3). The page asks for
    # patches: the View is rebuilt from them here, as the page does, and checked too.
    assert played.frames
    rebuilt: dict[str, Any] | None = None
    patches = 0
    for number, frame in enumerate(played.frames):
        text = json.dumps(without_last_deal(frame))
        assert '"salt"' not in text
        assert '"stock":' not in text
        if frame["type"] == "presence" and rebuilt is not None:
            merge_presence(rebuilt, frame)
        if frame["type"] not in ("welcome", "update"):
            assert_no_hidden_card(played, number, text, rebuilt)
            continue
        if "patch" in frame:
            assert rebuilt is not None
            assert rebuilt["version"] == frame["version"] - 1
            for op in frame["patch"]:
                if "hands" in op["path"].split("/") or isinstance(op.get("value"), dict):
                    assert_hands_only_in_last_deal(op.get("value"), ["state", *op["path"].split("/")[1:]])
            rebuilt = patch.apply(copy.deepcopy(rebuilt), frame["patch"])
            patches += 1
        else:
            rebuilt = copy.deepcopy(frame["state"])
        state = rebuilt
        assert_no_hidden_card(played, number, text, state)
        frame = {**{key: value for key, value in frame.items() if key != "patch"}, "state": state}
        assert state["you"] is None
        assert state["best_call"] is None
        observation = state["observation"]
        if observation is not None:
            assert observation["hand"] == []
            assert observation["seat"] is None
        assert_hands_only_in_last_deal(frame, [])
        upcard = None if observation is None else observation["upcard"]
        events = frame.get("events", []) + ([frame["event"]] if "event" in frame else [])
        for event in events:
            if event.get("action") == "draw stock":
                assert event["card"] in (None, upcard)
    assert patches > 20
    # The View the page rebuilt is the server's, at the end of the match.
    assert rebuilt is not None
    assert steady(rebuilt) == steady(served)


def assert_no_hidden_card(played: PlayedDeal, number: int, text: str, view: dict[str, Any] | None) -> None:
    """No frame of the midpoint's deal, up to the midpoint, names a card a friend held then
    unseen (R9.2). Only that deal's frames: a card public in an earlier deal (a discard, a
    call) may be dealt again unseen in the next, and naming it then was no leak."""
    if number >= played.frames_at_midpoint or view is None:
        return
    if view.get("deal_number") != played.deal_at_midpoint:
        return
    leaked = sorted(card for card in played.hidden_at_midpoint if f'"{card}"' in text)
    assert not leaked, f"frame {number} names the unseen cards {leaked}"


def merge_presence(view: dict[str, Any], frame: dict[str, Any]) -> None:
    """What the page does with a presence frame (api.js ``mergePresence``)."""
    away = {item["seat"]: item["deadline"] for item in frame["away"]}
    for player in view["table"]["players"]:
        player["connected"] = player["seat"] in frame["connected"]
        player["away_until"] = away.get(player["seat"])
    view["table"]["spectators"] = frame["spectators"]


def without_last_deal(frame: dict[str, Any]) -> dict[str, Any]:
    """A frame less the summary of the last finished deal (which may reveal it, R9.3)."""
    if "patch" in frame:
        kept = [op for op in frame["patch"] if not op["path"].startswith("/last_deal")]
        return {**frame, "patch": kept}
    if "state" not in frame:
        return frame
    return {**frame, "state": {**frame["state"], "last_deal": None}}


def assert_hands_only_in_last_deal(value: Any, path: list[str]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "hands":
                assert path[-2:] == ["state", "last_deal"], path
            assert_hands_only_in_last_deal(item, [*path, key])
    elif isinstance(value, list):
        for item in value:
            assert_hands_only_in_last_deal(item, path)


def test_chat_line_reaches_the_other_seat(server: Server, browser: Browser) -> None:
    # A table of its own: the played match has closed.
    errors: list[str] = []
    created = server.api("POST", "/api/tables", json={"name": "Chat", "player_name": "Ana", "seats": 2})
    table_id = created["table"]["id"]
    joined = server.api("POST", f"/api/tables/{table_id}/join", json={"name": "Bo"})
    ana, bo = new_page(browser, errors), new_page(browser, errors)
    for page, token in ((ana, created["token"]), (bo, joined["token"])):
        page.goto(f"{server.url}/t/{table_id}#seat={token}")
        TablePage(page).wait_ready()
    ana.fill("#chat-input", "good game!")
    ana.press("#chat-input", "Enter")
    expect(bo.locator("#chat li").filter(has_text="good game!")).to_have_count(1)
    expect(bo.locator("#chat li strong").last).to_have_text("Ana")
    assert not errors


def test_replay_steps_through_the_finished_deal_with_every_hand(played: PlayedDeal, server: Server) -> None:
    page = played.players[0].page.context.new_page()
    page.goto(f"{server.url}/t/{played.table_id}/replay?deal={played.deal}")
    expect(page.locator("#replay-action")).to_have_text("The cards are dealt.")
    seats = page.locator("#r-seats li.seat")
    expect(seats).to_have_count(3)
    for seat in range(3):
        expect(seats.nth(seat).locator("[data-card]")).to_have_count(5)  # every hand revealed
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-step")).to_contain_text("Step 1 of")
    expect(page.locator("#replay-action")).to_have_text(re.compile(r": draws \S+ from the stock$"))
    page.keyboard.press("End")
    expect(page.locator("#next")).to_be_disabled()
    steps = page.locator("#step-range").get_attribute("max")
    expect(page.locator("#replay-step")).to_have_text(f"Step {steps} of {steps}")
    page.keyboard.press("Home")
    expect(page.locator("#replay-action")).to_have_text("The cards are dealt.")
    assert page.locator("#record-link").get_attribute("href") == f"/api/tables/{played.table_id}/record"
    page.close()


def wait_for_my_draw(player: TablePage) -> None:
    """Cut if this seat cuts (R2.4), until it is this seat's turn to draw."""
    page = player.page
    for _ in range(20):
        page.wait_for_function(
            """() => { const a = document.getElementById('app');
                       return (a.dataset.status === 'cut' && !document.getElementById('cut-controls').hidden)
                           || (a.dataset.status === 'playing' && a.dataset.turn === a.dataset.you
                               && a.dataset.phase === 'draw'); }""",
            timeout=20_000,
        )
        if player.data("status") == "playing":
            return
        player.play_step()
    raise AssertionError("never this seat's turn")


def test_reconnect_mid_deal_keeps_the_seat_and_the_hand(server: Server, browser: Browser) -> None:
    errors: list[str] = []
    created = server.api(
        "POST",
        "/api/tables",
        json={
            "name": "Two devices",
            "player_name": "Cy",
            "preset": "gamerules",
            "seats": 2,
            "bots": "greedy",
        },
    )
    table_id, token = created["table"]["id"], created["token"]
    page = new_page(browser, errors)
    page.goto(f"{server.url}/t/{table_id}#seat={token}")
    me = TablePage(page)
    me.wait_ready()
    assert "seat=" not in page.url  # the seat link leaves the address bar...
    assert page.evaluate(f"localStorage.getItem('paiute.seat.{table_id}')") == token  # ...for storage
    page.click("#start-button")
    wait_for_my_draw(me)
    for _ in range(6):
        # The pile may be empty: a bot that took its only card and made a six-card call puts
        # nothing back (R6.3). Play on to a turn with a card to take.
        if page.locator("#draw-discard .empty-pile").count() == 0:
            break
        me.play_step()  # draw from the stock
        for _ in range(200):  # then discard or call, once the draw is acknowledged
            if me.play_step() is not None or me.data("phase") != "discard":
                break
            page.wait_for_timeout(50)
        wait_for_my_draw(me)

    # R4.3 through the page: the card taken from the discard pile (open_discard, R2.7) is
    # disabled; a stale page that sends it anyway gets the server's refusal with the rule.
    try:
        expect(page.locator("#btn-draw-discard")).to_be_enabled(timeout=STEP_MS)
    except AssertionError as error:  # say what the page and the server showed
        dataset = page.evaluate("JSON.stringify(document.getElementById('app').dataset)")
        view = server.api("GET", f"/api/tables/{table_id}/state", token)
        raise AssertionError(f"{error}\npage: {dataset}\nserver: {json.dumps(view)[:4000]}") from None
    page.click("#btn-draw-discard")
    taken = page.locator("#hand .card.taken")
    expect(taken).to_be_disabled()
    expect(page.locator("#taken-note")).to_contain_text("R4.3")
    taken.evaluate("button => { button.removeAttribute('aria-disabled'); button.click(); }")
    expect(page.locator("#message")).to_contain_text("(R4.3)")

    hand = sorted(me.hand())
    assert len(hand) == 6
    # Cards are buttons that say what they show and are ("7♥, seven of hearts, wild").
    spoken = re.compile(
        r"^\S+, (two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of (clubs|diamonds|hearts|spades)"
    )
    for label in page.locator("#hand button.card").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    ):
        assert spoken.match(label), label
    page.reload()
    me.wait_ready()
    expect(page.locator("#hand [data-card]")).to_have_count(6)
    assert me.seat == 0
    assert sorted(me.hand()) == hand

    # The seat link on another device (a phone): same seat, same hand, and it can play.
    link = page.locator("#seat-link").input_value()
    assert link.endswith(f"/t/{table_id}#seat={token}")
    phone = TablePage(new_page(browser, errors, PHONE))
    phone.page.goto(link)
    phone.wait_ready()
    expect(phone.page.locator("#hand [data-card]")).to_have_count(6)
    assert phone.seat == 0
    assert sorted(phone.hand()) == hand
    assert_fits_a_phone(phone.page)
    phone.page.locator(PLAYABLE_CARD).first.tap()
    expect(page.locator("#hand [data-card]")).to_have_count(5)
    expect(phone.page.locator("#hand [data-card]")).to_have_count(5)  # both pages have the update
    assert sorted(me.hand()) == sorted(phone.hand())
    assert not errors


def test_lost_ack_is_sent_again_with_the_same_id_and_applied_once(server: Server, browser: Browser) -> None:
    """The connection drops after the server applied a draw but before its ack arrived: the
    page reconnects (asking for the events it missed) and sends the draw again with the same
    id; the server answers with the first ack and draws nothing more."""
    errors: list[str] = []
    created = server.api(
        "POST", "/api/tables", json={"name": "Lossy", "player_name": "Di", "seats": 2, "bots": "greedy"}
    )
    table_id, token = created["table"]["id"], created["token"]
    page = new_page(browser, errors)
    sent: list[dict[str, Any]] = []
    hellos: list[dict[str, Any]] = []
    drop = {"ack": False}

    def route(socket: WebSocketRoute) -> None:
        upstream = socket.connect_to_server()

        def to_server(message: str | bytes) -> None:
            data = json.loads(message)
            (hellos if data["type"] == "hello" else sent).append(data)
            upstream.send(message)

        def to_page(message: str | bytes) -> None:
            if drop["ack"] and json.loads(message)["type"] == "ack":
                drop["ack"] = False
                upstream.close()
                socket.close()
                return
            socket.send(message)

        socket.on_message(to_server)
        upstream.on_message(to_page)

    page.route_web_socket(re.compile(r"/ws/tables/"), route)
    page.goto(f"{server.url}/t/{table_id}#seat={token}")
    me = TablePage(page)
    me.wait_ready()
    page.click("#start-button")
    wait_for_my_draw(me)
    deal = me.data("deal")
    drop["ack"] = True
    page.click("#btn-draw-stock")
    expect(page.locator("#hand [data-card]")).to_have_count(6)
    expect(page.locator("#app")).to_have_attribute("data-busy", "false")  # the ack came, at last

    draws = [m for m in sent if m.get("action") == "draw stock"]
    assert len(draws) == 2
    assert draws[0]["id"] == draws[1]["id"]
    assert hellos[-1]["since"] is not None  # the reconnection asked for what it missed
    events = server.api("GET", f"/api/tables/{table_id}/events?since=0", token=token)["events"]
    mine = [e for e in events if e["type"] == "action" and e["seat"] == 0 and str(e.get("deal")) == deal]
    assert [e["action"] for e in mine] == ["draw stock"]
    expect(page.locator("#message")).to_be_hidden()
    assert not errors


def test_a_lost_update_makes_the_page_resync(server: Server, browser: Browser) -> None:
    """The page asks for patches; one update is lost on the way: the next patch does not follow
    the page's version, so the page reconnects with ``since`` = the last version it applied and
    takes the welcome's whole View, then plays on with the server's state."""
    errors: list[str] = []
    created = server.api(
        "POST", "/api/tables", json={"name": "Gappy", "player_name": "Ed", "seats": 2, "bots": "greedy"}
    )
    table_id, token = created["table"]["id"], created["token"]
    page = new_page(browser, errors)
    hellos: list[dict[str, Any]] = []
    dropped: list[int] = []
    drop = {"update": False}

    def route(socket: WebSocketRoute) -> None:
        upstream = socket.connect_to_server()

        def to_server(message: str | bytes) -> None:
            data = json.loads(message)
            if data["type"] == "hello":
                hellos.append(data)
            upstream.send(message)

        def to_page(message: str | bytes) -> None:
            data = json.loads(message)
            if drop["update"] and data["type"] == "update" and "patch" in data:
                drop["update"] = False
                dropped.append(data["version"])
                return
            socket.send(message)

        socket.on_message(to_server)
        upstream.on_message(to_page)

    page.route_web_socket(re.compile(r"/ws/tables/"), route)
    page.goto(f"{server.url}/t/{table_id}#seat={token}")
    me = TablePage(page)
    me.wait_ready()
    assert hellos[0]["patches"] is True
    drop["update"] = True
    page.click("#start-button")  # started, commitment, ...: the first of them is lost
    wait_for_my_draw(me)
    assert dropped
    assert len(hellos) == 2
    assert hellos[1]["since"] == dropped[0] - 1  # the last version the page had applied
    page.click("#btn-draw-stock")
    expect(page.locator("#hand [data-card]")).to_have_count(6)
    served = server.api("GET", f"/api/tables/{table_id}/state", token=token)
    expect(page.locator("#app")).to_have_attribute("data-version", str(served["version"]))
    assert sorted(me.hand()) == sorted(served["observation"]["hand"])
    assert len(hellos) == 2
    assert not errors


def honest_proof(
    players: int = 3, dealer: int = 1, position: int = 17
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A proof as the server reveals it (R10.2) and what a seat saw during that deal, made
    with the engine: paiute.fairness for the hashes, paiute.deal for the dealing (R2.5)."""
    order = secure_order(jokers=False)
    salt = new_salt()
    deck = cut(order, position)
    rebuilt = RebuildCommitment.make(secure_order(jokers=False)[:20])
    deal = Deal(RuleSet(), players, dealer, deck)
    proof = {
        "scheme": SCHEME,
        "sha256": commitment_hash(order, salt),
        "salt": salt,
        "cut": position,
        "shuffled": [str(card) for card in order],
        "deck": [str(card) for card in deck],
        "rebuilds": [
            {"sha256": rebuilt.sha256, "salt": rebuilt.salt, "order": [str(c) for c in rebuilt.order]}
        ],
    }
    table = {"dealer": dealer, "players": players, "upcard": str(deal.upcard), "seat": 0}
    seen = {
        "sha256": proof["sha256"],
        "beforeCut": True,
        "rebuilds": [rebuilt.sha256],
        "myCut": position,
        "table": {**table, "hand": [str(card) for card in deal.hand(0)]},
    }
    return proof, seen


def test_proof_check_in_the_browser_catches_every_kind_of_tampering(server: Server, browser: Browser) -> None:
    """verify.js agrees with paiute.fairness on an honest proof and names what is wrong with
    a dishonest one: the order or salt, the cut, a rebuild, the hash shown before the cut,
    the seat's own dealt cards, the upcard (R2.4, R2.5, R2.6, R4.6, R10.2)."""
    proof, seen = honest_proof()
    swapped = [*proof["shuffled"]]
    swapped[3], swapped[40] = swapped[40], swapped[3]
    other, _ = honest_proof()
    cases = {
        "honest": (proof, seen),
        "salt": ({**proof, "salt": "0" * 32}, seen),
        "order": ({**proof, "shuffled": swapped, "deck": swapped[17:] + swapped[:17]}, seen),
        "cut": ({**proof, "cut": 18}, {**seen, "myCut": 18}),
        "my cut": (proof, {**seen, "myCut": 5}),
        "rebuild": (
            {**proof, "rebuilds": [{**proof["rebuilds"][0], "order": other["rebuilds"][0]["order"]}]},
            seen,
        ),
        "seen": (proof, {**seen, "sha256": other["sha256"]}),
        "hand": (proof, {**seen, "table": {**seen["table"], "hand": other["deck"][1:16:3]}}),
        # the card under the upcard (R2.5): never the upcard itself, where another deal's
        # card at that place is the same one time in 52 (the flake of the d99d4be CI)
        "upcard": (proof, {**seen, "table": {**seen["table"], "upcard": proof["deck"][16]}}),
    }
    page = new_page(browser, [])
    page.goto(server.url + "/")  # 127.0.0.1 is a secure context: crypto.subtle is there
    results = page.evaluate(
        """async cases => {
            const { verifyProof } = await import("/static/js/verify.js");
            const out = {};
            for (const [name, [proof, seen]] of Object.entries(cases)) {
                const result = await verifyProof(proof, { seen });
                out[name] = [result.ok, result.checks.filter(c => !c.ok).map(c => c.key)];
            }
            return out;
        }""",
        cases,
    )
    assert results == {
        "honest": [True, []],
        "salt": [False, ["proof.check.hash.bad"]],
        "order": [False, ["proof.check.hash.bad"]],  # cards 3 and 40 end up in the stock
        "cut": [False, ["proof.check.cut.bad"]],
        "my cut": [False, ["proof.check.my_cut.bad"]],
        "rebuild": [False, ["proof.check.rebuild.bad"]],
        "seen": [False, ["proof.check.seen.bad"]],
        "hand": [False, ["proof.check.my_hand.bad"]],
        "upcard": [False, ["proof.check.upcard.bad"]],
    }
    page.context.close()


def assert_fits_a_phone(page: Page) -> None:
    """No sideways scrolling at 390 px, and every visible control is a 44 px tap target (a
    check box's target is its label)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    small = page.evaluate(
        """tap => [...document.querySelectorAll('button, a.button, input, select, summary')]
                   .filter(e => e.offsetParent !== null)
                   .map(e => [e.id || e.textContent.trim(), (e.closest('label') || e).getBoundingClientRect()])
                   .filter(([, r]) => r.width < tap || r.height < tap)
                   .map(([name]) => name)""",
        TAP,
    )
    assert small == []


def test_lobby_fits_a_phone_and_lists_the_open_table(
    played: PlayedDeal, browser: Browser, server: Server
) -> None:
    errors: list[str] = []
    # The played match has closed and left the list; a new table is listed.
    table_id = server.api("POST", "/api/tables", json={"name": "Open one", "player_name": "Di"})["table"][
        "id"
    ]
    page = new_page(browser, errors, PHONE)
    page.goto(server.url + "/")
    expect(page.locator(f"li[data-table-id='{played.table_id}']")).to_have_count(0)
    expect(page.locator(f"li[data-table-id='{table_id}']")).to_contain_text("Open one")
    assert_fits_a_phone(page)
    assert not errors
