"""Page addresses and the end of a match, over HTTP.

A page address under ``/t/`` that is no table's, whatever is in it (characters no table id
has, a ``/``, markup), is the "no such table" page: HTML, 404, in the reader's language, and
nothing of the address is echoed back. The API keeps its JSON refusals. The ``closed`` event
says why the match ended in machine fields (``cause``, with the ``deals`` played or the
``seats`` that cannot pay), which the pages put in the reader's words and plural forms.
"""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient
from server_helpers import auth, create, play_http, start

from paiute.i18n import catalogue_json

HOSTILE = "<script>alert(1)</script>"


def title(lang: str) -> str:
    messages = catalogue_json(lang)["messages"]
    assert isinstance(messages, dict)
    return str(messages["missing.title"])


@pytest.mark.parametrize(
    "path",
    [
        f"/t/{HOSTILE}",
        "/t/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        f"/t/{HOSTILE}/replay",
        "/t/has%20a%20space",
        "/t/has%20a%20space/replay",
        "/t/" + "x" * 33,
        "/t/nosuchtable",
        "/t/nosuchtable/nosuchpage",
    ],
)
def test_a_table_address_that_is_no_table_is_the_missing_page(client: TestClient, path: str) -> None:
    for lang, query, headers in (
        ("ro", "?lang=ro", {}),
        ("bn", "", {"Accept-Language": "bn-BD,bn;q=0.9"}),
        ("en", "", {}),
    ):
        response = client.get(path + query, headers=headers)
        assert response.status_code == 404
        assert response.headers["content-type"].startswith("text/html")
        assert response.headers["content-language"] == lang
        assert title(lang) in response.text
        assert "alert(1)" not in response.text
        assert "has a space" not in response.text


def test_the_api_keeps_its_json_refusals(client: TestClient) -> None:
    bad = client.get("/api/tables/has%20a%20space/state")
    assert bad.status_code == 422
    assert bad.json()["error"]["code"] == "bad_request"
    unknown = client.get("/no/such/page")
    assert unknown.status_code == 404
    assert unknown.json()["error"]["code"] == "not_found"


def test_the_closed_event_says_why_in_machine_fields(client: TestClient) -> None:
    table_id, token = create(client, seats=2, bots="greedy", max_deals=1)
    start(client, table_id, token)
    play_http(client, table_id, {0: token}, random.Random(5))
    events = client.get(f"/api/tables/{table_id}/events?since=0").json()["events"]
    closed = events[-1]
    assert closed["type"] == "closed"
    assert closed["cause"] == "deals"
    assert closed["deals"] == 1
    assert closed["reason"] == "the only deal of the match has been played"


def test_a_match_that_ends_as_a_seat_cannot_pay_names_the_seats(client: TestClient) -> None:
    table_id, token = create(client, seats=2, bots="greedy", chips=1, max_deals=None)
    start(client, table_id, token)
    final = play_http(client, table_id, {0: token}, random.Random(7))
    closed = client.get(f"/api/tables/{table_id}/events?since=0").json()["events"][-1]
    assert closed["cause"] == "stake"
    assert closed["seats"] == [seat for seat, chips in enumerate(final["balances"]) if chips < 1]
    assert closed["seats"]
    assert closed["reason"].endswith("cannot pay the next stake (R8.2)")


def test_a_match_everyone_left_says_so(client: TestClient) -> None:
    table_id, token = create(client, seats=2, bots="greedy")
    start(client, table_id, token)
    left = client.post(f"/api/tables/{table_id}/leave", json={"id": "bye"}, headers=auth(token))
    assert left.status_code == 200, left.text
    closed = client.get(f"/api/tables/{table_id}/events?since=0").json()["events"][-1]
    assert (closed["type"], closed["cause"], closed["reason"]) == ("closed", "left", "every player has left")
