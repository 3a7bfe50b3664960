"""Who may use each HTTP route and WebSocket message of ``paiute serve``, walked from the router.

Every route of the application (``app.routes`` and the routers included in it) and every
WebSocket message type must have an entry in :data:`AUTHORITY` / :data:`WS_MESSAGES`, or
:func:`test_every_route_and_message_has_an_expected_authority` fails: a route is covered the
day it is added. Each table route is then called on a private and on a public table, whose
first deal is over and whose second is being played, by each :data:`CALLERS`: a spectator (no
credential: on a private table, a stranger), a seat of another table (its token as the header,
or as this table's seat cookie), the holder of the invitation (this table's or another's), and
the seat itself by its seat link (the token as the header, no cookie: what the pages send) or
by its cookie. A refused caller gets 403 or 401 and one answer whatever the deal it names (no
``conflict`` that tells how far the match is), and nothing is started for it: no review or
hint, no View, record, replay or proof built, no change stored (:class:`Work` spies on them).

The review of a private table is also attacked on a real ``paiute serve`` on 127.0.0.1.
"""

from __future__ import annotations

import itertools
import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from live_helpers import call, serve
from server_helpers import POLLS, fast_limits, fast_settings, hurried, my_move
from starlette.routing import Mount, WebSocketRoute

from paiute.server import create_app, views, ws
from paiute.server.core import ServiceCore
from paiute.server.hints import HintSettings, _Hints
from paiute.server.reviews import Reviewer

CARD = re.compile(r"\b(?:[2-9TJQKA][cdhs]|Jk[12])\b")

# -- the expected authority of every route --------------------------------------------------

ANYONE = "anyone"  # no table: anyone may (what it makes is the caller's own)
PAGE = "page"  # a page's shell: anyone, and it holds nothing of the table
READER = "reader"  # private: a seat or the invitation; public: anyone (a token is not read)
VIEWER = "viewer"  # as READER, but the token names the seat it is seen as: another's is refused
JOINER = "joiner"  # private: the invitation; public: anyone
SEAT = "seat"  # a seat of this table
LOGIN = "login"  # anyone, with a name and password: no table credential counts
ACCOUNT = "account"  # a session's own account only: no table credential stands for one

AUTHORITY: dict[str, str] = {
    "GET /openapi.json": ANYONE,
    "HEAD /openapi.json": ANYONE,
    "GET /api/health": ANYONE,
    "GET /api/health/live": ANYONE,
    "GET /api/health/ready": ANYONE,
    "GET /api/i18n/{lang}": ANYONE,
    "GET /api/presets": ANYONE,
    "GET /api/tables": ANYONE,
    "POST /api/tables": ANYONE,
    "POST /api/play": ANYONE,
    "POST /api/lessons": ANYONE,
    "GET /": ANYONE,
    "HEAD /": ANYONE,
    "GET /docs": ANYONE,
    "GET /rules": ANYONE,
    "HEAD /rules": ANYONE,
    "MOUNT /static": ANYONE,
    "MOUNT /docs/assets": ANYONE,
    "GET /t/{table_id}": PAGE,
    "HEAD /t/{table_id}": PAGE,
    "GET /t/{table_id}/replay": PAGE,
    "HEAD /t/{table_id}/replay": PAGE,
    "GET /api/tables/{table_id}/state": VIEWER,
    "GET /api/tables/{table_id}/events": VIEWER,
    "WS /ws/tables/{table_id}": VIEWER,
    "GET /api/tables/{table_id}/record": READER,
    "GET /api/tables/{table_id}/deals/{number}/replay": READER,
    "GET /api/tables/{table_id}/deals/{number}/proof": READER,
    "GET /api/tables/{table_id}/deals/{number}/review": READER,
    "POST /api/tables/{table_id}/join": JOINER,
    "POST /api/tables/{table_id}/rematch": SEAT,
    "POST /api/tables/{table_id}/return": SEAT,
    "POST /api/tables/{table_id}/seats/{seat}/bot": SEAT,
    "POST /api/tables/{table_id}/start": SEAT,
    "POST /api/tables/{table_id}/leave": SEAT,
    "POST /api/tables/{table_id}/actions": SEAT,
    "POST /api/tables/{table_id}/cut": SEAT,
    "POST /api/tables/{table_id}/chat": SEAT,
    "POST /api/tables/{table_id}/hint": SEAT,
    "POST /api/tables/{table_id}/lesson": SEAT,
    "POST /api/accounts": LOGIN,
    "POST /api/login": LOGIN,
    "POST /api/logout": ANYONE,
    "GET /api/me": ANYONE,
    "GET /me/tables": ANYONE,
    "HEAD /me/tables": ANYONE,
    "POST /api/logout/everywhere": ACCOUNT,
    "POST /api/me/claim": ACCOUNT,
    "GET /api/me/tables": ACCOUNT,
    "POST /api/me/tables/{table_id}/seat": ACCOUNT,
    # Ratings: public, and never anything of a match that is not over.
    "GET /api/players/{name}": ANYONE,
    "GET /api/leaderboard": ANYONE,
    "GET /leaderboard": ANYONE,
    "HEAD /leaderboard": ANYONE,
    "GET /players/{name}": ANYONE,
    "HEAD /players/{name}": ANYONE,
}

#: The WebSocket's messages after ``hello`` (whose authority is the route's, VIEWER).
WS_MESSAGES: dict[str, str] = {
    "ping": ANYONE,
    "action": SEAT,
    "cut": SEAT,
    "chat": SEAT,
    "start": SEAT,
    "leave": SEAT,
    "return": SEAT,
    "hand_to_bot": SEAT,
    "lesson": SEAT,
}

#: A body for each route that takes one: each refused only after the authority check when the
#: seat sends it (a stale version, a started match, a seat out of range), but for the chat line.
BODIES: dict[str, dict[str, Any]] = {
    "POST /api/tables": {"player_name": "Wanda", "seats": 2},
    "POST /api/play": {"player_name": "Wanda", "seats": 2, "level": "easy"},
    "POST /api/lessons": {"player_name": "Wanda"},
    "POST /api/tables/{table_id}/join": {"name": "Wanda"},
    "POST /api/tables/{table_id}/return": {"id": "probe-return"},
    "POST /api/tables/{table_id}/seats/{seat}/bot": {"id": "probe-bot"},
    "POST /api/tables/{table_id}/start": {"id": "probe-start"},
    "POST /api/tables/{table_id}/leave": {"id": "probe-leave"},
    "POST /api/tables/{table_id}/actions": {"id": "probe-action", "action": "call", "expected_version": 0},
    "POST /api/tables/{table_id}/cut": {"id": "probe-cut", "position": 0, "expected_version": 0},
    "POST /api/tables/{table_id}/chat": {"id": "probe-chat", "text": "hello"},
    "POST /api/tables/{table_id}/lesson": {"id": "probe-lesson", "input": "proceed"},
    "POST /api/accounts": {"name": "Wanda", "password": "a wrong password"},
    "POST /api/login": {"name": "Wanda", "password": "a wrong password"},
    "POST /api/me/claim": {"seats": []},
    "POST /api/me/tables/{table_id}/seat": {"seat": 0},
}
WS_BODIES: dict[str, dict[str, Any]] = {
    "action": {"action": "call", "expected_version": 0},
    "cut": {"position": 0, "expected_version": 0},
    "chat": {"text": "hello"},
    "start": {},
    "leave": {},
    "return": {},
    "hand_to_bot": {"target": 7},
    "lesson": {"input": "proceed"},
}
#: What the seat itself does not send for real: leaving would hand its seat to the bot, which
#: would then play on while the other callers are checked.
NOT_SENT_BY_THE_SEAT = frozenset({"POST /api/tables/{table_id}/leave", "leave"})
#: The deals a deal route is asked for: the finished one, the one being played, one never dealt.
DEALS = (1, 2, 99)
#: The account a player's route is asked for (the room makes it).
PLAYER = "Rhoda Rated"


@dataclass(frozen=True)
class Caller:
    """Who asks: the credentials sent ("own": this table's, "other": another table's)."""

    name: str
    header: str | None = None  # the seat token as Authorization: Bearer
    cookie: str | None = None  # the seat token as this table's seat cookie
    invite: str | None = None  # the invitation code (?invite=, the join body, the hello)


CALLERS = (
    Caller("spectator"),  # no credential: on a private table, a stranger
    Caller("seat of another table", header="other"),
    Caller("another table's token as the cookie", cookie="other"),
    Caller("invitation holder", invite="own"),
    Caller("another table's invitation", invite="other"),
    Caller("seat link without a cookie", header="own"),
    Caller("seat cookie", cookie="own"),
)


def allowed(kind: str, caller: Caller, private: bool, *, websocket: bool = False) -> str | None:
    """None when ``caller`` may use a route of ``kind``, else the error code it must get."""
    header = caller.header
    cookie = None if websocket else caller.cookie  # the WebSocket reads the hello's token only
    seated = header == "own" or cookie == "own"
    invited = caller.invite == "own"
    if kind in (ANYONE, PAGE, LOGIN):
        return None
    if kind == ACCOUNT:
        return "bad_token"  # none of these callers has an account's session
    if kind == SEAT:
        return None if seated else "bad_token"
    if kind == JOINER:
        return None if invited or not private else "forbidden"
    if private and not (seated or invited):
        return "forbidden"
    if kind == VIEWER and header == "other":
        return "bad_token"
    return None


# -- the spies: work that may start only for a caller allowed to see its result ----------------


class Work:
    """The calls that build a table's data or start work for a request, by table id."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[tuple[str, str]] = []
        for name in ("view_for", "events_for", "record_for", "replay_for", "proof_for"):
            self._spy_table(monkeypatch, views, name)
        calls = self.calls

        async def review_status(self: Reviewer, table_id: str, number: int, record: Any) -> dict[str, Any]:
            calls.append((table_id, "review"))  # a review queued: recorded, never computed here
            return {"status": "pending", "deal": number, "done": 0, "total": None}

        monkeypatch.setattr(Reviewer, "status", review_status)
        start = _Hints.start

        def hint_start(self: _Hints, key: tuple[str, int, int], *args: Any) -> Any:
            calls.append((key[0], "hint"))
            return start(self, key, *args)

        monkeypatch.setattr(_Hints, "start", hint_start)
        commit = ServiceCore._commit

        async def spied_commit(self: ServiceCore, rt: Any, *args: Any, **kwargs: Any) -> Any:
            version = await commit(self, rt, *args, **kwargs)
            calls.append((rt.table.id, "commit"))  # a change stored (a refused plan raises)
            return version

        monkeypatch.setattr(ServiceCore, "_commit", spied_commit)

    def _spy_table(self, monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> None:
        original = getattr(module, name)
        calls = self.calls

        def spy(table: Any, *args: Any, **kwargs: Any) -> Any:
            calls.append((table.id, name))
            return original(table, *args, **kwargs)

        monkeypatch.setattr(module, name, spy)

    def since(self, mark: int, table_id: str) -> list[str]:
        return [what for table, what in self.calls[mark:] if table == table_id]


# -- the tables ---------------------------------------------------------------------------------


@dataclass
class Room:
    """The tables the callers try: a private and a public one whose second deal is being played
    (their seat to move, so nothing happens while they wait), and a private one of another."""

    client: TestClient
    work: Work
    tables: dict[bool, dict[str, str | None]]  # by private: {"id", "token", "invite", "name"}
    other: dict[str, str | None]  # another private table: its seat's token and invitation

    def credentials(self, caller: Caller, private: bool) -> tuple[dict[str, str], str | None]:
        """The headers and the invitation code ``caller`` sends to the table."""
        table = self.tables[private]
        pick = {"own": table, "other": self.other}
        headers: dict[str, str] = {}
        if caller.header is not None:
            headers["Authorization"] = f"Bearer {pick[caller.header]['token']}"
        if caller.cookie is not None:
            headers["Cookie"] = f"paiute_seat_{table['id']}={pick[caller.cookie]['token']}"
        invite = None if caller.invite is None else pick[caller.invite]["invite"]
        return headers, invite


def _new_table(client: TestClient, **body: Any) -> dict[str, str | None]:
    response = client.post("/api/tables", json={"seats": 2, "max_deals": 3, **body})
    assert response.status_code == 201, response.text
    client.cookies.clear()
    data = response.json()
    invite = data["invite"]
    return {
        "id": data["table"]["id"],
        "token": data["token"],
        "invite": None if invite is None else invite.rsplit("invite=", 1)[1],
        "name": data["table"]["name"],
    }


def _seat_state(client: TestClient, table_id: str, token: str) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table_id}/state", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.text
    view: dict[str, Any] = response.json()
    return view


def into_the_second_deal(client: TestClient, table_id: str, token: str, rng: random.Random) -> None:
    """Play the person's seat (bots the other) until the second deal waits for that seat."""
    headers = {"Authorization": f"Bearer {token}"}
    for _ in range(POLLS):
        view = _seat_state(client, table_id, token)
        if view["deal_number"] == 2 and view["status"] in ("cut", "playing") and my_move(view):
            return
        if view["status"] == "cut" and my_move(view):
            body = {"id": f"cut-{view['version']}", "position": rng.randrange(52)}
            response = client.post(f"/api/tables/{table_id}/cut", json=body, headers=headers)
            assert response.status_code == 200, response.text
        elif view["status"] == "playing" and my_move(view):
            action = hurried(rng, view["observation"]["legal_actions"])
            body = {"id": f"a-{view['version']}", "action": action, "expected_version": view["version"]}
            response = client.post(f"/api/tables/{table_id}/actions", json=body, headers=headers)
            assert response.status_code == 200, response.text
        else:
            time.sleep(0.002)
    raise AssertionError(f"table {table_id} never reached its second deal")


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    db_url = f"sqlite:///{tmp_path_factory.mktemp('authority') / 'paiute.db'}"
    app = create_app(db_url, limits=fast_limits(), settings=fast_settings())
    app.state.hint_settings = HintSettings(playouts=1, draw_playouts=1, budget_ms=None, processes=False)
    with pytest.MonkeyPatch.context() as monkeypatch, TestClient(app) as client:
        work = Work(monkeypatch)
        private = _new_table(
            client, name="Hidden room", player_name="Zebulon", bots="greedy", private=True, turn_seconds=None
        )
        public = _new_table(
            client, name="Open room", player_name="Yolanda", bots="greedy", turn_seconds=86_400
        )
        other = _new_table(client, name="Elsewhere", player_name="Xavier", private=True, turn_seconds=None)
        signed = client.post("/api/accounts", json={"name": PLAYER, "password": "a long enough password"})
        assert signed.status_code == 201, signed.text
        client.cookies.clear()
        rng = random.Random(11)
        for table in (private, public):
            assert table["token"] is not None
            assert table["id"] is not None
            start = client.post(
                f"/api/tables/{table['id']}/start",
                json={"id": "start"},
                headers={"Authorization": f"Bearer {table['token']}"},
            )
            assert start.status_code == 200, start.text
            into_the_second_deal(client, table["id"], table["token"], rng)
        yield Room(client, work, {True: private, False: public}, other)


# -- the router ---------------------------------------------------------------------------------


def router_routes(app: FastAPI) -> set[str]:
    """``METHOD path`` of every HTTP route, ``WS path`` and ``MOUNT path`` of the others, the
    included routers' routes too."""
    try:
        from fastapi.routing import iter_route_contexts
    except ImportError:  # a FastAPI whose app.routes already holds the included routes
        found = [(route, str(getattr(route, "path", ""))) for route in app.routes]
    else:
        found = [(context.original_route, str(context.path)) for context in iter_route_contexts(app.routes)]
    keys: set[str] = set()
    for route, path in found:
        if isinstance(route, Mount):
            keys.add(f"MOUNT {path}")
        elif isinstance(route, WebSocketRoute) or type(route).__name__ == "APIWebSocketRoute":
            keys.add(f"WS {path}")
        else:
            keys.update(f"{method} {path}" for method in getattr(route, "methods", None) or ())
    return keys


def test_every_route_and_message_has_an_expected_authority(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'paiute.db'}")
    routes = router_routes(app)
    assert "GET /api/tables/{table_id}/deals/{number}/review" in routes  # the walk reaches included routers
    assert routes - AUTHORITY.keys() == set(), "routes with no expected authority in AUTHORITY"
    assert AUTHORITY.keys() - routes == set(), "AUTHORITY names routes the application does not have"
    messages = {"ping", *ws._MODELS}
    assert messages ^ WS_MESSAGES.keys() == set(), "WebSocket messages with no expected authority"


# -- HTTP -----------------------------------------------------------------------------------------


def _url(key: str, table_id: str, number: int, invite: str | None) -> str:
    path = key.split(" ", 1)[1]
    path = path.replace("{table_id}", table_id).replace("{number}", str(number))
    path = path.replace("{seat}", "7").replace("{lang}", "ro").replace("{name}", PLAYER)
    if path == "/static":
        path = "/static/js/api.js"
    elif path == "/docs/assets":
        path = "/docs/assets/swagger-ui.css"
    return path if invite is None else f"{path}?invite={invite}"


def _ask(room: Room, key: str, caller: Caller, private: bool, number: int) -> Any:
    headers, invite = room.credentials(caller, private)
    method = "GET" if key.startswith("MOUNT ") else key.split(" ", 1)[0]
    url = _url(key, str(room.tables[private]["id"]), number, invite)
    body = BODIES.get(key)
    if body is not None and key.endswith("/join") and invite is not None:
        body = {**body, "invite": invite}
    kwargs: dict[str, Any] = {"headers": headers}
    if method == "POST":
        kwargs["json"] = body
    response = room.client.request(method, url, **kwargs)
    room.client.cookies.clear()  # a seat the route gave (create, join) is not the next caller's
    return response


def _refusal(response: Any) -> tuple[int, str | None]:
    body = response.json()
    return response.status_code, body.get("error", {}).get("code") if isinstance(body, dict) else None


@pytest.mark.parametrize(
    "key",
    sorted(
        key for key, kind in AUTHORITY.items() if kind not in (ANYONE, LOGIN) and not key.startswith("WS ")
    ),
)
@pytest.mark.parametrize("private", [True, False], ids=["private", "public"])
def test_a_table_route_answers_each_caller_as_its_authority_says(room: Room, key: str, private: bool) -> None:
    kind = AUTHORITY[key]
    table_id = str(room.tables[private]["id"])
    numbers = DEALS if "{number}" in key else (1,)
    for caller in CALLERS:
        refused = allowed(kind, caller, private)
        if (
            refused is None
            and (caller.header == "own" or caller.cookie == "own")
            and key in NOT_SENT_BY_THE_SEAT
        ):
            continue
        answers = []
        for number in numbers:
            mark = len(room.work.calls)
            response = _ask(room, key, caller, private, number)
            where = f"{caller.name}: {key} (deal {number}) on the {'private' if private else 'public'} table"
            if refused is None:
                assert response.status_code not in (401, 403), f"{where} was refused: {response.text}"
                if kind == PAGE and private:
                    assert str(room.tables[private]["name"]) not in response.text, where
                continue
            status = {"forbidden": 403, "bad_token": 401}[refused]
            assert _refusal(response) == (status, refused), f"{where}: {response.text}"
            assert not CARD.search(response.text), where
            assert room.work.since(mark, table_id) == [], f"{where} started work for a refused caller"
            answers.append(response.json())
        # One refusal whatever the deal: a stranger cannot tell a finished deal from one in play.
        assert all(answer == answers[0] for answer in answers), answers


@pytest.mark.parametrize("key", sorted(key for key, kind in AUTHORITY.items() if kind == ANYONE))
def test_a_route_without_a_table_answers_anyone(room: Room, key: str) -> None:
    for caller in CALLERS:
        response = _ask(room, key, caller, False, 1)
        assert response.status_code < 400, f"{caller.name}: {key}: {response.text}"


def test_the_account_doors_read_the_name_and_password_only(room: Room) -> None:
    """Sign-up and log-in are the same for every caller: a seat token, a seat cookie or an
    invitation neither helps nor hinders, and nothing is started at a table for them."""
    table_id = str(room.tables[True]["id"])
    mark = len(room.work.calls)
    wrong = {(response.status_code, response.text) for response in (
        _ask(room, "POST /api/login", caller, True, 1) for caller in CALLERS
    )}  # fmt: skip
    assert len(wrong) == 1
    assert _refusal(_ask(room, "POST /api/login", CALLERS[0], True, 1)) == (401, "login_failed")
    for number, caller in enumerate(CALLERS):
        headers, _ = room.credentials(caller, True)
        body = {"name": f"Wanda {number}", "password": "a long enough password"}
        signed = room.client.post("/api/accounts", json=body, headers=headers)
        assert signed.status_code == 201, f"{caller.name}: {signed.text}"
        assert room.client.get("/api/me").json()["account"]["name"] == body["name"]
        assert room.client.get("/api/me/tables").json()["total"] == 0  # no seat came with it
        room.client.cookies.clear()
    assert room.work.since(mark, table_id) == []


def test_an_account_that_holds_no_seat_there_gets_nothing_of_a_table(room: Room) -> None:
    """A stranger's account, even one sending the seat's own token as a header, cannot get a
    seat link, list or claim a table by its id: only a seat token it presents links a seat."""
    private = room.tables[True]
    table_id = str(private["id"])
    signed = room.client.post("/api/accounts", json={"name": "Mallory", "password": "a long enough password"})
    assert signed.status_code == 201, signed.text
    try:
        mark = len(room.work.calls)
        seat_header = {"Authorization": f"Bearer {private['token']}"}
        for headers in ({}, seat_header):
            link = room.client.post(f"/api/me/tables/{table_id}/seat", json={"seat": 0}, headers=headers)
            assert _refusal(link) == (403, "forbidden"), link.text
        guessed = {"seats": [{"table_id": table_id, "token": "not-the-seat-token"}]}
        assert room.client.post("/api/me/claim", json=guessed).json() == {"claimed": []}
        assert room.client.get("/api/me/tables").json()["total"] == 0
        assert room.work.since(mark, table_id) == []
        nothing = room.client.post("/api/me/tables/no-such-table/seat", json={"seat": 0})
        assert _refusal(nothing) == (403, "forbidden")  # the same answer as a table not its own
    finally:
        room.client.cookies.clear()


def test_the_spies_see_the_work_of_a_caller_who_may(room: Room) -> None:
    """The seat's own requests start what the refused callers' did not (the spies can fail)."""
    private = room.tables[True]
    table_id = str(private["id"])
    headers = {"Authorization": f"Bearer {private['token']}"}
    mark = len(room.work.calls)
    assert room.client.get(f"/api/tables/{table_id}/deals/1/review", headers=headers).status_code == 200
    assert room.client.get(f"/api/tables/{table_id}/record", headers=headers).status_code == 200
    assert room.work.since(mark, table_id) == ["record_for", "review", "record_for"]


def test_a_seat_sees_its_private_tables_review_and_the_invitation_too(room: Room) -> None:
    private = room.tables[True]
    table_id = str(private["id"])
    seat = {"Authorization": f"Bearer {private['token']}"}
    review = f"/api/tables/{table_id}/deals/1/review"
    assert room.client.get(review, headers=seat).json()["status"] == "pending"
    assert room.client.get(f"{review}?invite={private['invite']}").status_code == 200
    unfinished = room.client.get(f"/api/tables/{table_id}/deals/2/review", headers=seat)
    assert _refusal(unfinished) == (409, "conflict")  # R9.3, told only to who may see the table


# -- the WebSocket ------------------------------------------------------------------------------


def _hello(caller: Caller, room: Room, private: bool) -> dict[str, Any]:
    table = room.tables[private]
    pick = {"own": table, "other": room.other}
    token = None if caller.header is None else pick[caller.header]["token"]
    invite = None if caller.invite is None else pick[caller.invite]["invite"]
    return {"type": "hello", "token": token, "since": 0, "invite": invite}


def _next(socket: Any) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = socket.receive_json()
        if message.get("type") != "presence":
            return message


@pytest.mark.parametrize("private", [True, False], ids=["private", "public"])
def test_the_websocket_answers_each_caller_as_its_authority_says(room: Room, private: bool) -> None:
    table_id = str(room.tables[private]["id"])
    counter = itertools.count()
    for caller in CALLERS:
        refused = allowed(AUTHORITY["WS /ws/tables/{table_id}"], caller, private, websocket=True)
        where = f"{caller.name} on the {'private' if private else 'public'} table"
        mark = len(room.work.calls)
        with room.client.websocket_connect(f"/ws/tables/{table_id}") as socket:
            socket.send_json(_hello(caller, room, private))
            first = _next(socket)
            if refused is not None:
                assert (first["type"], first["error"]["code"]) == ("error", refused), f"{where}: {first}"
                assert room.work.since(mark, table_id) == [], f"{where}: work started"
                continue
            assert first["type"] == "welcome", f"{where}: {first}"
            seated = first["seat"] is not None
            for kind, authority in WS_MESSAGES.items():
                if seated and kind in NOT_SENT_BY_THE_SEAT:
                    continue
                mark = len(room.work.calls)
                socket.send_json({"type": kind, "id": f"ws-{next(counter)}", **WS_BODIES.get(kind, {})})
                answer = _next(socket)
                while answer["type"] == "update":  # the seat's chat line comes back as an update
                    answer = _next(socket)
                if authority == ANYONE:
                    assert answer["type"] == "pong", f"{where}: {kind}: {answer}"
                elif seated:
                    assert answer["type"] == "ack" or answer["error"]["code"] not in (
                        "bad_token",
                        "forbidden",
                    )
                else:
                    refusal = (answer["type"], answer["error"]["code"])
                    assert refusal == ("error", "bad_token"), f"{where}: {kind}: {answer}"
                    assert room.work.since(mark, table_id) == [], f"{where}: {kind} started work"


# -- the review of a private table, attacked on a real server -----------------------------------


def paced(server: Any, method: str, path: str, token: str | None = None, **kwargs: Any) -> Any:
    """``call``, waiting out the server's request rate per token (no flag lifts it)."""
    for _ in range(100):
        response = call(server, method, path, token, **kwargs)
        if response.status_code != 429:
            return response
        time.sleep(0.5)
    raise AssertionError(f"{method} {path} stayed rate limited")


def test_a_private_tables_review_tells_a_stranger_nothing_on_a_real_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PAIUTE_REVIEW_PLAYOUTS", "1")  # the seat's review below is quick
    with serve(tmp_path) as server:
        made = paced(
            server, "POST", "/api/play", json={"player_name": "Zebulon", "seats": 2, "level": "easy"}
        )
        assert made.status_code == 201, made.text
        table_id, token = made.json()["table"]["id"], made.json()["token"]
        invite = made.json()["invite"].rsplit("invite=", 1)[1]
        other = paced(server, "POST", "/api/tables", json={"player_name": "Xavier", "seats": 2})
        other_token = other.json()["token"]
        rng = random.Random(3)
        for _ in range(POLLS):
            seen = paced(server, "GET", f"/api/tables/{table_id}/state", token)
            assert seen.status_code == 200, seen.text
            view = seen.json()
            if view["deal_number"] == 2 and view["status"] in ("cut", "playing") and my_move(view):
                break
            if view["status"] == "cut" and my_move(view):
                body = {"id": f"cut-{view['version']}", "position": rng.randrange(52)}
                assert (
                    paced(server, "POST", f"/api/tables/{table_id}/cut", token, json=body).status_code == 200
                )
            elif view["status"] == "playing" and my_move(view):
                action = hurried(rng, view["observation"]["legal_actions"])
                body = {"id": f"a-{view['version']}", "action": action, "expected_version": view["version"]}
                assert (
                    paced(server, "POST", f"/api/tables/{table_id}/actions", token, json=body).status_code
                    == 200
                )
            else:
                time.sleep(0.01)
        else:
            raise AssertionError("the table never reached its second deal")

        base = f"/api/tables/{table_id}"
        for stranger in (None, other_token):
            answers = []
            for number in DEALS:  # finished, being played, never dealt
                response = paced(server, "GET", f"{base}/deals/{number}/review", stranger)
                assert response.status_code == 403, response.text
                assert "best" not in response.text
                assert not CARD.search(response.text)
                answers.append(response.json())
            assert answers == [answers[0]] * len(DEALS)  # nothing of the match's progress
            for route in ("state", "events", "record", "deals/1/proof", "deals/1/replay"):
                assert paced(server, "GET", f"{base}/{route}", stranger).status_code == 403, route
        time.sleep(1.0)  # what a stranger could have queued would have begun by now

        # The seat, by its token alone (a seat link: no cookie): the review is queued by this
        # very request (nothing was under way), then made; the deal in play is not reviewed.
        first = paced(server, "GET", f"{base}/deals/1/review", token).json()
        assert first == {"status": "pending", "deal": 1, "done": 0, "total": None}
        assert paced(server, "GET", f"{base}/deals/2/review", token).status_code == 409
        for _ in range(600):
            review = paced(server, "GET", f"{base}/deals/1/review", token).json()
            if review["status"] == "ready":
                break
            time.sleep(0.2)
        else:
            raise AssertionError(f"the review never became ready: {review}")
        assert review["decisions"]
        assert all("best" in decision for decision in review["decisions"])
        by_invite = paced(server, "GET", f"{base}/deals/1/review?invite={invite}")
        assert by_invite.status_code == 200
        assert by_invite.json() == review
