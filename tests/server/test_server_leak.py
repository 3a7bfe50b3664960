"""R9, R10.2: nothing a seat or a spectator is sent reveals a card it may not see.

Every WebSocket frame and every HTTP state and events response sent to each seat and to a
spectator during complete matches is captured. The secret cards of the deal in play at the
frame's version come from the server's own in-memory table (recorded right after each event
is applied): the stock, the other seats' unshown cards (R9.2, R9.3), and the committed
order's salts (R10.2). The captured JSON is walked structurally: no card text in it may be
secret, no other seat's stock draw may show its card, and no field may carry an order, a
salt or a hand, except ``last_deal`` (a finished deal, which may be revealed).
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import auth, create, fast_limits, fast_settings, join, start, steady
from starlette.testclient import WebSocketTestSession

from paiute.cards import Card
from paiute.deal import Deal
from paiute.record import Record
from paiute.server import create_app, patch
from paiute.server.table import LiveTable, TableEvent

CARD = re.compile(r"\b(?:[2-9TJQKA][cdhs]|Jk[12])\b")
#: Keys whose strings are random identifiers the server makes, not text that could name a card.
RANDOM_IDS = frozenset({"id", "token"})
FORBIDDEN_KEYS = {"salt", "shuffled", "order", "deck", "stock", "hands", "secret", "token"}
ROUNDS = 5000


@dataclass(frozen=True)
class Secrets:
    """What must not reach each viewer at one version of a table."""

    deal: int | None
    cards: dict[int | None, frozenset[str]]  # by viewer (None: a spectator)
    salts: frozenset[str]
    upcard: str | None


def secrets_of(table: LiveTable) -> Secrets:
    proof = table.pending_proof
    salts = frozenset() if proof is None else frozenset([proof.salt, *(made.salt for made in proof.rebuilds)])
    deal = table.deal
    if deal is None or deal.is_over:
        return Secrets(table.deal_number, {}, salts, None)  # R9.3: an ended deal may be shown
    seats = range(deal.players)
    unknown = {seat: set(deal.hand(seat)) - set(deal.known_cards(seat)) for seat in seats}
    stock = set(deal.hidden_from(0)) - set().union(*(unknown[s] for s in seats if s != 0))
    cards: dict[int | None, frozenset[str]] = {}
    for viewer in [None, *seats]:
        hidden = set(stock).union(*(unknown[s] for s in seats if s != viewer))
        hidden -= seen_by(deal, viewer)
        cards[viewer] = frozenset(str(card) for card in hidden)
    upcard = None if deal.upcard is None else str(deal.upcard)
    return Secrets(table.deal_number, cards, salts, upcard)


def seen_by(deal: Deal, viewer: int | None) -> set[Card]:
    """Cards whose identity ``viewer`` has seen in this deal (their place may still be hidden)."""
    seen = set(deal.discard_pile)
    seen.update(event.card for event in deal.history_seen_by(viewer) if event.card is not None)
    for call in deal.calls:
        seen.update(call.shown)
    for card in (deal.upcard, deal.initial_discard, deal.stock_bottom):
        if card is not None:
            seen.add(card)
    if viewer is not None:
        seen.update(deal.hand(viewer))
    return seen


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> dict[tuple[str, int], Secrets]:
    """The secrets of every version of every table, taken as the server applies events."""
    found: dict[tuple[str, int], Secrets] = {}
    apply = LiveTable.apply

    def spy(self: LiveTable, event: TableEvent) -> None:
        apply(self, event)
        found[(self.id, self.version)] = secrets_of(self)

    monkeypatch.setattr(LiveTable, "apply", spy)
    return found


class Capture:
    """Everything sent to the viewers of one table, checked as it arrives."""

    def __init__(self, table_id: str, secrets: dict[tuple[str, int], Secrets]) -> None:
        self.table_id = table_id
        self.secrets = secrets
        self.checked = 0
        self.cards_seen = 0

    def check(self, viewer: int | None, version: int, payload: Any) -> None:
        secrets = self.secrets[(self.table_id, version)]
        text = json.dumps(payload)
        for salt in secrets.salts:
            assert salt not in text, f"viewer {viewer} got a salt before the deal ended"
        if isinstance(payload, dict) and "patch" in payload:
            # An update's patch: each value is walked as if it stood at its path in the View.
            self._walk(viewer, secrets, {**payload, "patch": None}, "$")
            for op in payload["patch"]:
                parts = op["path"].split("/")[1:]
                if parts[:1] == ["last_deal"] or "wild_cards" in parts:
                    continue  # a finished deal (R9.3); which cards are wild (R3)
                for key in parts:
                    assert key not in FORBIDDEN_KEYS, f"{op['path']} sent to viewer {viewer}"
                self._walk(viewer, secrets, op.get("value"), f"$.state{'.'.join(['', *parts])}")
        else:
            self._walk(viewer, secrets, payload, "$")
        self.checked += 1

    def _walk(self, viewer: int | None, secrets: Secrets, value: Any, path: str) -> None:
        if isinstance(value, dict):
            current = value.get("deal") == secrets.deal and bool(secrets.cards)
            stock_draw = value.get("type") == "action" and value.get("action") == "draw stock"
            if current and stock_draw and value.get("seat") != viewer and value.get("card"):
                # R4.5: another seat's stock draw shows no card, unless it is the upcard (R2.6).
                assert value["card"] == secrets.upcard, f"{path}: viewer {viewer} saw a stock draw"
            if "type" in value and "deal" in value and value["deal"] != secrets.deal:
                return  # an event of a deal that has ended
            for key, item in value.items():
                if key == "last_deal":
                    continue  # a finished deal: all may be shown (R9.3)
                if key == "wild_cards":
                    continue  # which cards are wild (R3), not where any card is
                assert key not in FORBIDDEN_KEYS, f"{path}.{key} sent to viewer {viewer}"
                if isinstance(item, str) and (key in RANDOM_IDS or key.endswith("_id")):
                    continue  # secrets.token_urlsafe: "…-9s…" spells a card only by chance
                self._walk(viewer, secrets, item, f"{path}.{key}")
        elif isinstance(value, list):
            for index, item in enumerate(value):
                self._walk(viewer, secrets, item, f"{path}[{index}]")
        elif isinstance(value, str):
            hidden = secrets.cards.get(viewer, frozenset())
            for token in CARD.findall(value):
                self.cards_seen += 1
                assert token not in hidden, f"{path}: viewer {viewer} was sent {token}, which it may not see"


def drain(
    ws: WebSocketTestSession,
    viewer: int | None,
    version: int,
    capture: Capture,
    last: dict[int | None, int],
    rebuilt: dict[int | None, dict[str, Any]],
) -> None:
    """Read (and check) a connection's frames until it has seen ``version``; ``rebuilt``: each
    viewer's View, rebuilt from its patches (and checked as a whole View too)."""
    for _ in range(ROUNDS):
        if last[viewer] >= version:
            return
        message = json.loads(ws.receive_text())
        if message["type"] in ("welcome", "update"):
            capture.check(viewer, message["version"], message)
            if "patch" in message:
                assert rebuilt[viewer]["version"] == message["version"] - 1
                rebuilt[viewer] = patch.apply(rebuilt[viewer], message["patch"])
                capture.check(viewer, message["version"], rebuilt[viewer])
            else:
                rebuilt[viewer] = message["state"]
            last[viewer] = message["version"]
        elif message["type"] == "presence":
            capture.check(viewer, last[viewer], message)  # who is there, never a card
            merge_presence(rebuilt[viewer], message)
        else:
            assert message["type"] in ("ack", "error"), message
            assert "state" not in message
    raise AssertionError("a connection fell behind")


MATCHES = [
    pytest.param(
        {"seats": 2, "bots": None, "max_deals": 2, "options": {"max_rebuilds": 1}}, 2, "hurry", id="pagat-2"
    ),
    pytest.param(
        {"seats": 3, "bots": "random", "max_deals": 2, "preset": "gamerules"}, 2, "hurry", id="gamerules-3"
    ),
    pytest.param(
        {"seats": 4, "bots": "greedy", "max_deals": 1, "options": {"jokers": True}}, 1, "hurry", id="jokers-4"
    ),
    # Seat 1 leaves mid-match (the bot plays it: events autoplay), then takes it back.
    pytest.param({"seats": 3, "bots": "random", "max_deals": 2}, 2, "leave", id="pagat-3-leave"),
    # Five people who never call: the stock is rebuilt (R4.6) until the deal is dead (R4.7).
    pytest.param(
        {"seats": 5, "bots": None, "max_deals": 1, "options": {"max_rebuilds": 2, "wild_colour": "opposite"}},
        5,
        "stall",
        id="pagat-5-rebuilds",
    ),
]


def merge_presence(view: dict[str, Any], frame: dict[str, Any]) -> None:
    """What a client does with a presence frame (the page's ``mergePresence``)."""
    away = {item["seat"]: item["deadline"] for item in frame["away"]}
    for player in view["table"]["players"]:
        player["connected"] = player["seat"] in frame["connected"]
        player["away_until"] = away.get(player["seat"])
    view["table"]["spectators"] = frame["spectators"]


@pytest.mark.parametrize("patches", [False, True], ids=["views", "patches"])
@pytest.mark.parametrize(("table", "people", "policy"), MATCHES)
def test_r9_nothing_sent_reveals_a_hidden_card(
    db_url: str,
    recorded: dict[tuple[str, int], Secrets],
    table: dict[str, Any],
    people: int,
    policy: str,
    patches: bool,
) -> None:
    """R9 over every frame, with whole Views and with patches (``hello``'s ``patches``): each
    patch, and the View rebuilt from the patches, which must also be the HTTP View."""
    rng = random.Random(sum(map(ord, json.dumps(table))))
    with TestClient(create_app(db_url, limits=fast_limits(), settings=fast_settings())) as client:
        table_id, token = create(client, **table)
        tokens: dict[int | None, str | None] = {0: token, None: None}
        for number in range(1, people):
            seat, other = join(client, table_id, f"P{number}")
            tokens[seat] = other
        capture = Capture(table_id, recorded)
        last: dict[int | None, int] = {}
        rebuilt: dict[int | None, dict[str, Any]] = {}
        sockets: dict[int | None, WebSocketTestSession] = {}
        with contextlib_exit() as stack:
            for viewer, seat_token in tokens.items():
                ws = stack.enter_context(client.websocket_connect(f"/ws/tables/{table_id}"))
                ws.send_json({"type": "hello", "token": seat_token, "since": 0, "patches": patches})
                welcome = json.loads(ws.receive_text())
                capture.check(viewer, welcome["version"], welcome)
                last[viewer] = welcome["version"]
                rebuilt[viewer] = welcome["state"]
                sockets[viewer] = ws
            start(client, table_id, token)
            gone: set[int] = set()
            for _ in range(ROUNDS):
                views = {}
                for viewer, seat_token in tokens.items():
                    response = client.get(f"/api/tables/{table_id}/state", headers=auth(seat_token))
                    views[viewer] = response.json()
                    capture.check(viewer, views[viewer]["version"], views[viewer])
                version = max(view["version"] for view in views.values())
                for viewer, ws in sockets.items():
                    drain(ws, viewer, version, capture, last, rebuilt)
                    if rebuilt[viewer]["version"] == views[viewer]["version"]:
                        assert steady(rebuilt[viewer]) == steady(views[viewer]), f"viewer {viewer}"
                if views[None]["status"] == "closed":
                    break
                if policy == "leave" and views[1]["status"] == "playing":
                    left = views[1]["table"]["players"][1]["autoplay"]
                    if not gone and version > 12:
                        sockets[1].send_json({"type": "leave", "id": f"leave{version}"})
                        gone.add(version)
                    elif left == "left" and version > max(gone) + 12:
                        sockets[1].send_json({"type": "return", "id": "back"})
                for viewer, view in views.items():
                    if viewer is None or view["version"] != version:
                        continue
                    if view["table"]["players"][viewer]["autoplay"]:
                        continue  # the bot plays this seat now
                    ws = sockets[viewer]
                    if view["status"] == "cut" and view["cutter"] == viewer:
                        ws.send_json({"type": "cut", "id": f"c{version}", "position": rng.randrange(54)})
                    elif view["status"] == "playing" and view["observation"]["legal_actions"]:
                        action = choose(rng, view["observation"]["legal_actions"], policy)
                        ws.send_json(
                            {
                                "type": "action",
                                "id": f"a{version}",
                                "action": action,
                                "expected_version": version,
                            }
                        )
            else:
                raise AssertionError("the match did not end")
            if policy == "leave":  # the rematch event, after the match (R9.3: all may be shown now)
                made = client.post(f"/api/tables/{table_id}/rematch", headers=auth(token))
                assert made.status_code == 200, made.text
                client.cookies.clear()
            for viewer, seat_token in tokens.items():
                for since in (0, version // 2):
                    response = client.get(
                        f"/api/tables/{table_id}/events?since={since}", headers=auth(seat_token)
                    )
                    capture.check(viewer, response.json()["version"], response.json())
        record = Record.loads(client.get(f"/api/tables/{table_id}/record").text)
        rebuilds = sum(len(deal.rebuilds) for deal in record.deals)
    assert capture.checked > 10
    assert capture.cards_seen > 20
    if policy == "leave":
        assert gone, "seat 1 was meant to leave during the match"
    if policy == "stall":
        assert rebuilds == 2, "this match was meant to rebuild the stock twice (R4.6, R4.7)"


def choose(rng: random.Random, legal: list[str], policy: str) -> str:
    """A person in a hurry calls when it can; a staller never calls. Both mostly draw from
    the stock, so that it runs out."""
    calls = [action for action in legal if action.startswith("call")]
    if policy == "hurry" and calls and rng.random() < 0.8:
        return rng.choice(calls)
    if "draw stock" in legal and rng.random() < 0.9:
        return "draw stock"
    return rng.choice([action for action in legal if policy == "hurry" or action not in calls])


def contextlib_exit():  # type: ignore[no-untyped-def]
    import contextlib

    return contextlib.ExitStack()


def test_the_leak_check_finds_a_leak() -> None:
    """The checker itself: a frame showing another seat's hand card is caught."""
    secrets = Secrets(1, {0: frozenset({"7h"}), None: frozenset({"7h"})}, frozenset({"abc123"}), None)
    capture = Capture("t", {("t", 5): secrets})
    capture.check(0, 5, {"observation": {"hand": ["2c"]}, "last_deal": {"hands": [["7h"]]}})
    with pytest.raises(AssertionError, match="7h"):
        capture.check(0, 5, {"text": "Bo holds 7h"})
    with pytest.raises(AssertionError, match="salt"):
        capture.check(None, 5, {"x": "abc123"})
    with pytest.raises(AssertionError, match="stock draw"):
        capture.check(0, 5, {"type": "action", "deal": 1, "seat": 1, "action": "draw stock", "card": "2d"})
    with pytest.raises(AssertionError, match="hands"):
        capture.check(0, 5, {"hands": []})
    # In a patch: a value at its path, and a path naming what must not be sent.
    capture.check(
        0, 5, {"type": "update", "patch": [{"op": "replace", "path": "/last_deal", "value": [["7h"]]}]}
    )
    with pytest.raises(AssertionError, match="7h"):
        capture.check(0, 5, {"patch": [{"op": "add", "path": "/observation/hand/-", "value": "7h"}]})
    with pytest.raises(AssertionError, match="hands"):
        capture.check(0, 5, {"patch": [{"op": "replace", "path": "/observation/hands", "value": []}]})
