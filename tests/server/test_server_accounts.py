"""Accounts on a real ``paiute serve`` (127.0.0.1): sign up, log in and out, sessions, the seats
an account gathers (taken while logged in, or claimed with their tokens) and "my tables" from
another client; and what a stranger's account cannot do. Each ``httpx.Client`` is one browser
(its own cookies)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from live_helpers import RELAXED_LIMITS, serve
from server_helpers import ServerProcess, auth, play_http

PASSWORD = "correct horse battery"
#: The module's server believes 127.0.0.1 as a proxy (so a test can say "this came over HTTPS"
#: or "from this address"), and does not limit log-ins per address (one test's server does).
FLAGS = (*RELAXED_LIMITS, "--rate-limit", "0", "--logins-per-minute", "0", "--trusted-proxy", "127.0.0.1")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with serve(tmp_path_factory.mktemp("accounts"), extra=FLAGS) as running:
        yield running


@pytest.fixture
def browsers(server: ServerProcess) -> Iterator[Any]:
    """Make browsers (clients with their own cookies) for a test; all closed after it."""
    made: list[httpx.Client] = []

    def browser() -> httpx.Client:
        client = httpx.Client(base_url=server.url, timeout=30)
        made.append(client)
        return client

    yield browser
    for client in made:
        client.close()


def sign_up(client: httpx.Client, name: str, password: str = PASSWORD, **kwargs: Any) -> httpx.Response:
    return client.post("/api/accounts", json={"name": name, "password": password}, **kwargs)


def log_in(client: httpx.Client, name: str, password: str = PASSWORD, **kwargs: Any) -> httpx.Response:
    return client.post("/api/login", json={"name": name, "password": password}, **kwargs)


def me(client: httpx.Client) -> Any:
    return client.get("/api/me").json()["account"]


def my_tables(client: httpx.Client, **query: Any) -> Any:
    response = client.get("/api/me/tables", params=query)
    assert response.status_code == 200, response.text
    return response.json()


def error(response: httpx.Response) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def play_now(client: httpx.Client, name: str = "Ana") -> tuple[str, str]:
    made = client.post("/api/play", json={"player_name": name, "seats": 2, "level": "easy"})
    assert made.status_code == 201, made.text
    return made.json()["table"]["id"], made.json()["token"]


# -- identity -------------------------------------------------------------------------------------


def test_signing_up_logs_in_with_an_httponly_samesite_lax_cookie(
    browsers: Any, server: ServerProcess
) -> None:
    client = browsers()
    signed = sign_up(client, "Ottilie")
    assert signed.status_code == 201, signed.text
    assert signed.json()["account"]["name"] == "Ottilie"
    assert PASSWORD not in signed.text
    cookie = signed.headers["set-cookie"]
    assert cookie.startswith("paiute_session=")
    flags = {part.strip().split("=")[0].lower() for part in cookie.split(";")[1:]}
    assert {"httponly", "samesite", "path", "max-age"} <= flags
    assert "samesite=lax" in cookie.lower()
    assert "secure" not in flags  # plain HTTP on 127.0.0.1: a Secure cookie would never come back
    assert me(client) == signed.json()["account"]
    assert me(browsers()) is None  # another browser is nobody
    assert PASSWORD not in server.log.read_text()


def test_the_session_cookie_is_secure_over_https_through_the_trusted_proxy(browsers: Any) -> None:
    client = browsers()
    assert sign_up(client, "Sebastiano").status_code == 201
    again = log_in(client, "Sebastiano", headers={"X-Forwarded-Proto": "https"})
    assert again.status_code == 200, again.text
    flags = {part.strip().lower() for part in again.headers["set-cookie"].split(";")[1:]}
    assert {"secure", "httponly", "samesite=lax"} <= flags


def test_a_name_taken_or_one_that_looks_like_it_is_refused(browsers: Any) -> None:
    assert sign_up(browsers(), "Renée").status_code == 201
    for lookalike in ("Renée", "RENÉE", "Rene\u0301\u0435", "  Renée  ", "Ｒｅｎéｅ"):
        refused = sign_up(browsers(), lookalike)
        assert error(refused) == (409, "conflict"), lookalike
    assert sign_up(browsers(), "Renata").status_code == 201
    # The two tests of a clash at a table: case ("I" looks like "l", "i" does not), lookalikes.
    assert sign_up(browsers(), "Isidore").status_code == 201
    assert error(sign_up(browsers(), "ISIDORE")) == (409, "conflict")
    assert sign_up(browsers(), "Ian").status_code == 201
    assert error(sign_up(browsers(), "lan")) == (409, "conflict")
    for typed in ("isidore", "ISIDORE", "\u0406sidore"):  # the last with a Cyrillic I
        client = browsers()
        assert log_in(client, typed).status_code == 200, typed
        assert me(client)["name"] == "Isidore"


def test_a_short_password_is_refused_and_never_echoed(browsers: Any) -> None:
    refused = sign_up(browsers(), "Tancredi", "seven77")
    assert error(refused) == (400, "bad_request")
    assert "seven77" not in refused.text
    assert "8" in refused.json()["error"]["message"]
    assert sign_up(browsers(), "Tancredi", "eight888").status_code == 201


def test_a_wrong_password_and_an_unknown_name_get_the_same_answer(browsers: Any) -> None:
    assert sign_up(browsers(), "Ulrike").status_code == 201
    wrong = log_in(browsers(), "Ulrike", "not her password")
    unknown = log_in(browsers(), "Nobody Here", "not her password")
    invalid = log_in(browsers(), "\u3164", "not her password")  # a name no account can have
    assert error(wrong) == (401, "login_failed")
    assert (wrong.status_code, wrong.text) == (unknown.status_code, unknown.text)
    assert (wrong.status_code, wrong.text) == (invalid.status_code, invalid.text)
    assert "set-cookie" not in wrong.headers
    client = browsers()
    assert log_in(client, "ulrike").status_code == 200  # names are case-folded
    assert me(client)["name"] == "Ulrike"


def test_account_routes_refuse_another_sites_page(browsers: Any) -> None:
    """The guard's Origin check: another site's page cannot sign up, log in or out, or claim."""
    client = browsers()
    assert sign_up(client, "Violetta").status_code == 201
    evil = {"Origin": "http://evil.example"}
    for path, body in (
        ("/api/accounts", {"name": "Wilhelmina", "password": PASSWORD}),
        ("/api/login", {"name": "Violetta", "password": PASSWORD}),
        ("/api/logout", None),
        ("/api/logout/everywhere", None),
        ("/api/me/claim", {"seats": []}),
    ):
        refused = client.post(path, json=body, headers=evil)
        assert error(refused) == (403, "forbidden"), path
    assert me(client)["name"] == "Violetta"  # still logged in: nothing was done


# -- sessions -------------------------------------------------------------------------------------


def test_log_out_ends_this_device_and_log_out_everywhere_every_session(browsers: Any) -> None:
    phone, laptop, tablet = browsers(), browsers(), browsers()
    assert sign_up(phone, "Xanthippe").status_code == 201
    for client in (laptop, tablet):
        assert log_in(client, "Xanthippe").status_code == 200
    assert phone.post("/api/logout").status_code == 200
    assert me(phone) is None
    assert me(laptop)["name"] == me(tablet)["name"] == "Xanthippe"

    ended = laptop.post("/api/logout/everywhere")
    assert ended.status_code == 200
    assert ended.json() == {"sessions": 2}
    for client in (laptop, tablet):
        assert me(client) is None
        assert error(client.get("/api/me/tables")) == (401, "bad_token")
    stolen = tablet.cookies.get("paiute_session")
    assert stolen is not None  # the tablet still sends its cookie: the session itself is gone
    assert error(tablet.post("/api/logout/everywhere")) == (401, "bad_token")
    assert log_in(tablet, "Xanthippe").status_code == 200  # the password still works


# -- seats gathered ---------------------------------------------------------------------------------


def test_a_seat_taken_while_logged_in_is_the_accounts_on_a_second_browser(browsers: Any) -> None:
    home, work = browsers(), browsers()
    assert sign_up(home, "Yevgenia").status_code == 201
    table_id, token = play_now(home, "Yevgenia")
    assert log_in(work, "Yevgenia").status_code == 200
    listed = my_tables(work)
    assert listed["total"] == 1
    (entry,) = listed["tables"]
    assert (entry["table"]["id"], entry["seat"], entry["result"]) == (table_id, 0, None)
    assert entry["table"]["preset"] == "pagat"
    assert entry["table"]["status"] == "playing"
    assert entry["table"]["players"][0]["name"] == "Yevgenia"

    fresh = work.post(f"/api/me/tables/{table_id}/seat", json={"seat": 0})
    assert fresh.status_code == 200, fresh.text
    link = fresh.json()
    assert link["seat_link"] == f"/t/{table_id}#seat={link['token']}"
    assert link["token"] != token
    for held in (link["token"], token):  # the new link, and the first browser's token too
        view = work.get(f"/api/tables/{table_id}/state", headers=auth(held)).json()
        assert view["you"] == 0
    events = work.get(f"/api/tables/{table_id}/events", headers=auth(token)).json()["events"]
    relinked = [event for event in events if event["type"] == "relinked"]
    assert len(relinked) == 1
    assert link["token"] not in str(events)


def test_an_anonymous_seat_is_claimed_by_its_token_or_cookie_never_by_its_table_id(browsers: Any) -> None:
    played = browsers()
    by_token, kept_token = play_now(played, "Zenobia")
    played.cookies.delete(f"paiute_seat_{by_token}")  # this one is presented by its token
    by_cookie, _ = play_now(played, "Zenobia")  # this one's token is in the seat cookie only
    assert error(played.post("/api/me/claim", json={"seats": []})) == (401, "bad_token")  # no account yet

    assert sign_up(played, "Zenobia").status_code == 201
    assert my_tables(played)["total"] == 0  # nothing is the account's until presented
    claim = {
        "seats": [
            {"table_id": by_token, "token": "not-the-token"},  # a table id alone claims nothing
            {"table_id": "no-such-table", "token": kept_token},
            {"table_id": by_token, "token": kept_token},
        ]
    }
    claimed = played.post("/api/me/claim", json=claim)
    assert claimed.status_code == 200, claimed.text
    assert sorted((item["table_id"], item["seat"]) for item in claimed.json()["claimed"]) == sorted(
        [(by_token, 0), (by_cookie, 0)]
    )
    assert {entry["table"]["id"] for entry in my_tables(played)["tables"]} == {by_token, by_cookie}
    again = played.post("/api/me/claim", json=claim).json()["claimed"]
    assert len(again) == 2  # presenting again changes nothing
    assert my_tables(played)["total"] == 2


def test_my_tables_are_newest_first_paged_and_a_seat_left_before_the_start_goes(browsers: Any) -> None:
    client = browsers()
    assert sign_up(client, "Amadeo").status_code == 201
    made = []
    for number in range(3):
        body = {"player_name": "Amadeo", "seats": 2, "name": f"Amadeo {number}", "turn_seconds": 600}
        created = client.post("/api/tables", json=body)
        assert created.status_code == 201, created.text
        made.append((created.json()["table"]["id"], created.json()["token"]))
    newest_first = [table_id for table_id, _ in reversed(made)]
    first = my_tables(client, per_page=2)
    second = my_tables(client, per_page=2, page=2)
    assert (first["total"], second["total"]) == (3, 3)
    assert [entry["table"]["id"] for entry in first["tables"] + second["tables"]] == newest_first
    assert all(entry["table"]["status"] == "waiting" for entry in first["tables"])

    left_id, left_token = made[0]
    left = client.post(f"/api/tables/{left_id}/leave", json={"id": "leave"}, headers=auth(left_token))
    assert left.status_code == 200, left.text
    other = browsers()
    joined = other.post(f"/api/tables/{left_id}/join", json={"name": "Bartholomew"})
    assert joined.json()["seat"] == 0  # someone else holds the seat the account left
    listed = my_tables(client)
    assert [entry["table"]["id"] for entry in listed["tables"]] == newest_first[:2]
    assert listed["total"] == 2
    refused = client.post(f"/api/me/tables/{left_id}/seat", json={"seat": 0})
    assert error(refused) == (403, "forbidden")


def test_a_finished_match_shows_the_accounts_result(browsers: Any) -> None:
    client = browsers()
    assert sign_up(client, "Cordelia").status_code == 201
    body = {"player_name": "Cordelia", "seats": 2, "bots": "greedy", "max_deals": 1, "turn_seconds": 600}
    created = client.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    table_id, token = created.json()["table"]["id"], created.json()["token"]
    assert (
        client.post(f"/api/tables/{table_id}/start", json={"id": "go"}, headers=auth(token)).status_code
        == 200
    )
    final = play_http(client, table_id, {0: token}, random.Random(5))
    balances = final["balances"]
    (entry,) = [entry for entry in my_tables(client)["tables"] if entry["table"]["id"] == table_id]
    assert entry["table"]["status"] == "closed"
    assert entry["result"] == {
        "chips": balances[0],
        "change": balances[0] - 100,
        "place": 1 + sum(1 for other in balances if other > balances[0]),
        "of": 2,
    }


def test_a_stranger_cannot_list_link_or_claim_anothers_tables(browsers: Any) -> None:
    owner, stranger = browsers(), browsers()
    assert sign_up(owner, "Desdemona").status_code == 201
    table_id, _ = play_now(owner, "Desdemona")
    assert sign_up(stranger, "Mallory Eve").status_code == 201
    assert my_tables(stranger)["total"] == 0
    assert error(stranger.post(f"/api/me/tables/{table_id}/seat", json={"seat": 0})) == (403, "forbidden")
    guessed = {"seats": [{"table_id": table_id, "token": "x" * 32}]}
    assert stranger.post("/api/me/claim", json=guessed).json() == {"claimed": []}
    assert my_tables(stranger)["total"] == 0
    anonymous = browsers()
    assert error(anonymous.get("/api/me/tables")) == (401, "bad_token")
    assert error(anonymous.post(f"/api/me/tables/{table_id}/seat")) == (401, "bad_token")
    assert my_tables(owner)["total"] == 1


# -- the log-in limits (a server of their own) -----------------------------------------------------


def test_log_ins_are_limited_per_address_and_per_name(tmp_path: Path) -> None:
    flags = (*RELAXED_LIMITS, "--logins-per-minute", "4", "--trusted-proxy", "127.0.0.1")
    with serve(tmp_path, extra=flags) as limited, httpx.Client(base_url=limited.url, timeout=30) as client:

        def from_address(address: str) -> dict[str, str]:
            return {"X-Forwarded-For": address}

        assert sign_up(client, "Ferdinanda", headers=from_address("10.0.0.1")).status_code == 201
        # Per name, from anywhere: five tries a minute, then even the right password waits.
        for number in range(5):
            guess = f"guess number {number}"
            wrong = log_in(client, "Ferdinanda", guess, headers=from_address(f"10.1.0.{number}"))
            assert error(wrong) == (401, "login_failed")
        right = log_in(client, "Ferdinanda", headers=from_address("10.2.0.1"))
        assert error(right) == (429, "rate_limited")
        # Per address, whatever the name: four tries a minute (the sign-up was one of them).
        for number in range(3):
            assert error(log_in(client, f"Unknown {number}", headers=from_address("10.0.0.1"))) == (
                401,
                "login_failed",
            )
        assert error(log_in(client, "Unknown 9", headers=from_address("10.0.0.1"))) == (429, "rate_limited")
        assert error(log_in(client, "Unknown 9", headers=from_address("10.3.0.1"))) == (401, "login_failed")
