"""Sliding sessions (paiute.server.sessions, stored by paiute.server.accounts) on a real server
on 127.0.0.1 whose clock the test moves (``create_app(clock=...)`` served by uvicorn in a
thread): a session used is renewed at most once a renewal interval, its cookie sent again only
then; one unused for the idle time ends, and none outlives its absolute lifetime from its
log-in. Two processes renew a session once (the UPDATE is conditional). Each ``httpx.Client``
is one browser (its own cookies)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from server_helpers import fast_limits, fast_settings
from sqlalchemy import event, select
from sqlalchemy.exc import SQLAlchemyError
from test_server_accounts import error, log_in, me, sign_up
from test_server_accounts_schema import schema_url  # noqa: F401 - a fixture

from paiute.server import create_app
from paiute.server.accounts import AccountStore, name_keys, sessions_table
from paiute.server.db import Store
from paiute.server.migrate import upgrade
from paiute.server.runtime import hash_token
from paiute.server.sessions import (
    SESSION_COOKIE,
    SESSION_IDLE_SECONDS,
    SESSION_LIFETIME_SECONDS,
    SESSION_RENEW_SECONDS,
)

DAY = 24 * 60 * 60.0
HOUR = 60 * 60.0
#: Where each test's clock starts: far apart, so the clock only ever goes forward.
EPOCH_STEP = 10 * SESSION_LIFETIME_SECONDS


class Clock:
    """The server's clock: each test starts it at a fresh day 0 and moves it on."""

    def __init__(self) -> None:
        self.now = 1_900_000_000.0
        self.day_zero = self.now

    def __call__(self) -> float:
        return self.now

    def start(self) -> None:
        self.day_zero = self.now = self.now + EPOCH_STEP

    def at(self, days: float) -> None:
        """Set the clock ``days`` after this test's day 0."""
        self.now = self.day_zero + days * DAY


class Served:
    """``create_app`` under uvicorn on 127.0.0.1 (a thread of this process), until :meth:`stop`."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        config = uvicorn.Config(
            app,
            lifespan="on",
            log_level="warning",
            proxy_headers=True,  # 127.0.0.1 is believed: a test may say "this came over HTTPS"
            forwarded_allow_ips=["127.0.0.1"],
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 60
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


@pytest.fixture(scope="module")
def served_clock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, Clock]]:
    clock = Clock()
    db = tmp_path_factory.mktemp("sessions") / "paiute.db"
    app = create_app(f"sqlite:///{db}", settings=fast_settings(), limits=fast_limits(), clock=clock)
    served = Served(app)
    try:
        yield served, clock
    finally:
        served.stop()


@pytest.fixture
def clock(served_clock: tuple[Served, Clock]) -> Clock:
    """The server's clock at this test's day 0."""
    found = served_clock[1]
    found.start()
    return found


@pytest.fixture
def browsers(served_clock: tuple[Served, Clock]) -> Iterator[Callable[[], httpx.Client]]:
    """Make browsers (clients with their own cookies) for a test; all closed after it."""
    made: list[httpx.Client] = []

    def browser() -> httpx.Client:
        client = httpx.Client(base_url=served_clock[0].url, timeout=30)
        made.append(client)
        return client

    yield browser
    for client in made:
        client.close()


@pytest.fixture
def session_updates(served_clock: tuple[Served, Clock]) -> Iterator[list[str]]:
    """The UPDATEs of the sessions' table the server runs during the test."""
    engine = served_clock[0].app.state.store.engine
    seen: list[str] = []

    def heard(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().upper().startswith("UPDATE PAIUTE_SESSIONS"):
            seen.append(statement)

    event.listen(engine, "before_cursor_execute", heard)
    yield seen
    event.remove(engine, "before_cursor_execute", heard)


def session_cookies(response: httpx.Response) -> list[dict[str, str]]:
    """The session cookie as each ``Set-Cookie`` of the response sets it: its attributes by
    lower-case name (``value`` the cookie's own)."""
    found = []
    for header in response.headers.get_list("set-cookie"):
        first, *rest = (part.strip() for part in header.split(";"))
        name, _, value = first.partition("=")
        if name == SESSION_COOKIE:
            attributes = {key.lower(): val for key, _, val in (part.partition("=") for part in rest)}
            found.append({"value": value, **attributes})
    return found


def stored_expiry(served: Served, client: httpx.Client) -> tuple[float, float]:
    """When the browser's session began and when it expires, as the database keeps them."""
    token = client.cookies[SESSION_COOKIE]
    with served.app.state.store.engine.connect() as connection:
        row = connection.execute(
            select(sessions_table.c.created, sessions_table.c.expires).where(
                sessions_table.c.token == hash_token(token)
            )
        ).one()
    return row.created, row.expires


def signed_up(client: httpx.Client, name: str) -> httpx.Response:
    signed = sign_up(client, name)
    assert signed.status_code == 201, signed.text
    return signed


def me_now(client: httpx.Client) -> tuple[Any, httpx.Response]:
    response = client.get("/api/me")
    assert response.status_code == 200, response.text
    return response.json()["account"], response


# -- sliding and capped ----------------------------------------------------------------------------


def test_a_session_used_on_day_29_is_still_valid_on_day_45(clock: Clock, browsers: Any) -> None:
    client = browsers()
    (cookie,) = session_cookies(signed_up(client, "Aurelia"))
    assert int(cookie["max-age"]) == SESSION_IDLE_SECONDS
    clock.at(29)
    account, response = me_now(client)
    assert account["name"] == "Aurelia"
    (renewed,) = session_cookies(response)
    assert int(renewed["max-age"]) == SESSION_IDLE_SECONDS
    clock.at(45)
    assert me(client)["name"] == "Aurelia"
    clock.at(29 + 30 - 1 / DAY)
    assert me(client)["name"] == "Aurelia"


def test_a_session_left_unused_ends_30_days_after_its_last_use(clock: Clock, browsers: Any) -> None:
    kept, idle = browsers(), browsers()
    signed_up(kept, "Bartholomew")
    assert log_in(idle, "Bartholomew").status_code == 200
    clock.at(30 - 1 / DAY)  # a second before the end: still valid (and renewed, being used)
    assert me(kept)["name"] == "Bartholomew"
    clock.at(30)
    assert me(idle) is None
    assert error(idle.get("/api/me/tables")) == (401, "bad_token")
    assert me(kept)["name"] == "Bartholomew"
    clock.at(30 + 30)  # 30 days after the kept one's last use
    assert me(kept) is None


def test_no_session_outlives_its_absolute_lifetime_however_often_it_is_used(
    clock: Clock, browsers: Any, served_clock: tuple[Served, Clock]
) -> None:
    served = served_clock[0]
    client = browsers()
    signed_up(client, "Cunegonda")
    created, _ = stored_expiry(served, client)
    lifetime_days = SESSION_LIFETIME_SECONDS / DAY
    for day in range(20, 321, 20):  # used every 20 days: renewed each time
        clock.at(day)
        assert me(client)["name"] == "Cunegonda", day
    assert stored_expiry(served, client)[1] == clock.now + SESSION_IDLE_SECONDS
    clock.at(lifetime_days - 25)  # renewed up to the absolute end only
    account, response = me_now(client)
    assert account["name"] == "Cunegonda"
    (renewed,) = session_cookies(response)
    assert int(renewed["max-age"]) == 25 * DAY  # the cookie ends with the session, not later
    assert stored_expiry(served, client)[1] == created + SESSION_LIFETIME_SECONDS
    clock.at(lifetime_days - 1)
    account, response = me_now(client)
    assert account["name"] == "Cunegonda"
    assert session_cookies(response) == []  # nothing left to renew
    clock.at(lifetime_days)
    assert me(client) is None
    assert log_in(client, "Cunegonda").status_code == 200  # the account logs in again
    assert me(client)["name"] == "Cunegonda"


# -- cheap renewal -----------------------------------------------------------------------------------


def test_a_session_is_written_and_its_cookie_sent_again_at_most_once_a_renewal_interval(
    clock: Clock, browsers: Any, session_updates: list[str], served_clock: tuple[Served, Clock]
) -> None:
    served = served_clock[0]
    client = browsers()
    signed_up(client, "Dorothea")
    interval_hours = SESSION_RENEW_SECONDS / HOUR
    for hour in range(int(interval_hours)):  # the first day: nothing to renew
        clock.at(hour / 24)
        account, response = me_now(client)
        assert account["name"] == "Dorothea"
        assert session_cookies(response) == [], hour
    assert session_updates == []
    for day in (1, 2, 5):
        start = clock.day_zero + day * DAY
        for minutes in (0, 1, 90, 600, 23 * 60):  # a day's requests: the first one renews
            clock.now = start + minutes * 60
            account, response = me_now(client)
            assert account["name"] == "Dorothea"
            cookies = session_cookies(response)
            if minutes == 0:
                (renewed,) = cookies
                assert renewed["value"] == client.cookies[SESSION_COOKIE]  # the same session
                assert int(renewed["max-age"]) == SESSION_IDLE_SECONDS
                assert {"httponly", "path"} <= renewed.keys()
                assert renewed["samesite"].lower() == "lax"
            else:
                assert cookies == [], (day, minutes)
        assert stored_expiry(served, client)[1] == start + SESSION_IDLE_SECONDS
    assert len(session_updates) == 3


def test_a_renewed_cookie_over_https_is_secure_and_any_route_reading_the_session_renews(
    clock: Clock, browsers: Any
) -> None:
    client = browsers()
    signed_up(client, "Eleonora")
    clock.at(3)
    tables = client.get("/api/me/tables", headers={"X-Forwarded-Proto": "https"})
    assert tables.status_code == 200, tables.text
    (renewed,) = session_cookies(tables)
    assert "secure" in renewed
    assert int(renewed["max-age"]) == SESSION_IDLE_SECONDS


def test_log_out_and_log_out_everywhere_clear_a_session_due_for_renewal(clock: Clock, browsers: Any) -> None:
    phone, laptop, tablet = browsers(), browsers(), browsers()
    signed_up(phone, "Filippa")
    for client in (laptop, tablet):
        assert log_in(client, "Filippa").status_code == 200
    clock.at(2)  # every session is due for renewal
    out = phone.post("/api/logout")
    assert out.status_code == 200
    (cleared,) = session_cookies(out)  # the clearing only
    assert int(cleared["max-age"]) == 0
    assert me(phone) is None
    everywhere = laptop.post("/api/logout/everywhere")
    assert everywhere.json() == {"sessions": 2}
    (cleared,) = session_cookies(everywhere)  # read (and renewed) on the way, cleared all the same
    assert int(cleared["max-age"]) == 0
    assert me(laptop) is None
    assert me(tablet) is None


# -- two processes ------------------------------------------------------------------------------------


def check_two_processes_renew_a_session_once(url: str) -> None:
    first, second = Store(url), Store(url)  # two processes' connections to one database
    try:
        upgrade(first)
        mine, theirs = AccountStore(first), AccountStore(second)
        account = mine.create("Gaspard", name_keys("Gaspard"), "not a real hash", 0.0)
        assert account is not None
        digest = hash_token("a session token")
        mine.open_session(account.id, digest, 0.0)
        now = 2 * DAY
        mine_read, theirs_read = mine.session(digest, now), theirs.session(digest, now)
        assert mine_read is not None
        assert theirs_read is not None
        assert mine.renew(digest, mine_read[1], now) == now + SESSION_IDLE_SECONDS
        assert theirs.renew(digest, theirs_read[1], now + 1) is None  # the other renewed it first
        again = theirs.session(digest, now + 1)
        assert again is not None
        assert again[1].expires == now + SESSION_IDLE_SECONDS
        assert theirs.renew(digest, again[1], now + 1) is None  # renewed a second ago: not due
    finally:
        first.dispose()
        second.dispose()


def test_two_processes_renew_a_session_once_on_sqlite(tmp_path: Path) -> None:
    check_two_processes_renew_a_session_once(f"sqlite:///{tmp_path / 'paiute.db'}")


def test_two_processes_renew_a_session_once_on_postgresql(schema_url: str) -> None:  # noqa: F811
    check_two_processes_renew_a_session_once(schema_url)


def test_a_renewal_that_fails_leaves_the_session_valid_and_the_cookie_alone(
    clock: Clock, browsers: Any, served_clock: tuple[Served, Clock], monkeypatch: pytest.MonkeyPatch
) -> None:
    served = served_clock[0]
    client = browsers()
    signed_up(client, "Gertrude")
    _, expires = stored_expiry(served, client)

    def failing(*args: Any) -> None:
        raise SQLAlchemyError("the write failed")

    monkeypatch.setattr(served.app.state.accounts.store, "renew", failing)
    clock.at(2)
    account, response = me_now(client)
    assert account["name"] == "Gertrude"
    assert session_cookies(response) == []
    assert stored_expiry(served, client)[1] == expires
    monkeypatch.undo()
    account, response = me_now(client)  # renewed at the next request
    assert len(session_cookies(response)) == 1
    assert stored_expiry(served, client)[1] == clock.now + SESSION_IDLE_SECONDS
