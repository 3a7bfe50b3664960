"""The server's own refusals in the reader's language (catalogue ``paiute``).

A :class:`~paiute.server.errors.ServiceError` keeps an English template and its parameters:
English clients get exactly the text they always got; a client reading Romanian, Somali or
Bengali gets the whole sentence translated, numbers in its digits. ``code`` and ``rule`` (the
machine fields) never change with the language.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import auth, create, receive, two_people_playing

from paiute.errors import N_
from paiute.i18n import LANGUAGES, translator
from paiute.server.errors import ServiceError


def _act(client: TestClient, table_id: str, token: str, lang: str | None) -> Any:
    headers = auth(token) if lang is None else {**auth(token), "Accept-Language": lang}
    return client.post(
        f"/api/tables/{table_id}/actions", json={"id": "x", "action": "draw stock"}, headers=headers
    )


def test_service_error_keeps_its_english_text_and_translates_it() -> None:
    error = ServiceError("not_your_turn", N_("R4.1 it is seat {seat}'s turn"), seat=1)
    assert error.message == str(error) == "R4.1 it is seat 1's turn"
    assert error.message_in("en") == error.message
    assert error.message_in("ro") == "R4.1 este rândul locului 1"
    assert error.message_in("bn") == "R4.1 এখন আসন ১-এর পালা"
    assert error.to_json("so") == {
        "code": "not_your_turn",
        "message": "R4.1 waa doorka kursiga 1",
        "rule": None,
    }


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_translates_the_server_messages_keeping_the_rule_id(lang: str) -> None:
    error = ServiceError("bad_request", N_("R2.4 the cut is a position from 0 to {last}"), "R2.4", last=53)
    text = error.message_in(lang)
    assert text.startswith("R2.4 ")
    assert (text == error.message) == (lang == "en")


def test_r4_1_refusal_over_http_in_romanian_and_bengali(client: TestClient) -> None:
    table_id, tokens, mover = two_people_playing(client)
    waiting = 1 - mover
    english = _act(client, table_id, tokens[waiting], None)
    assert english.status_code == 409
    assert english.json()["error"] == {
        "code": "not_your_turn",
        "message": f"R4.1 it is seat {mover}'s turn, not seat {waiting}'s",  # byte-identical, as before
        "rule": None,
    }
    expected = {
        "ro": f"R4.1 este rândul locului {mover}, nu al locului {waiting}",
        "bn": "R4.1 এখন আসন {}-এর পালা, আসন {}-এর নয়".format(
            *(translator("bn").number(n) for n in (mover, waiting))
        ),
    }
    for lang, message in expected.items():
        response = _act(client, table_id, tokens[waiting], lang)
        assert response.status_code == 409
        assert response.json()["error"] == {"code": "not_your_turn", "message": message, "rule": None}
    # ?lang= chooses too, and a refusal the server makes before any table is found.
    missing = client.get("/api/tables/nowhere/state", params={"lang": "ro"})
    assert missing.status_code == 404
    assert missing.json()["error"]["message"] == "nu există masa 'nowhere'"
    assert client.get("/api/tables/nowhere/state").json()["error"]["message"] == "there is no table 'nowhere'"


def test_r4_1_refusal_over_the_websocket_in_romanian_and_bengali(client: TestClient) -> None:
    table_id, tokens, mover = two_people_playing(client)
    waiting = 1 - mover
    answers = {}
    for lang in ("en", "ro", "bn"):
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "hello", "token": tokens[waiting], "since": None, "lang": lang})
            assert receive(ws)["type"] == "welcome"
            ws.send_json({"type": "action", "id": "a1", "action": "draw stock"})
            answer = receive(ws)
            assert answer["type"] == "error"
            assert answer["id"] == "a1"
            answers[lang] = answer["error"]
            ws.send_json({"type": "chat", "id": "c1", "text": "   "})  # blank once cleaned
            answers[lang + " chat"] = receive(ws)["error"]
    assert answers["en"]["message"] == f"R4.1 it is seat {mover}'s turn, not seat {waiting}'s"
    assert answers["ro"]["message"] == f"R4.1 este rândul locului {mover}, nu al locului {waiting}"
    bn = translator("bn")
    assert (
        answers["bn"]["message"] == f"R4.1 এখন আসন {bn.number(mover)}-এর পালা, আসন {bn.number(waiting)}-এর নয়"
    )
    assert {(a["code"], a["rule"]) for lang, a in answers.items() if "chat" not in lang} == {
        ("not_your_turn", None)
    }
    assert answers["en chat"]["message"] == "a chat line has 1 to 200 characters"
    assert answers["ro chat"]["message"] == "un mesaj de chat are cel puțin un caracter și cel mult 200"
    assert answers["bn chat"]["message"] == "চ্যাটের একটি লাইনে ১ থেকে ২০০টি অক্ষর থাকে"
    assert {a["code"] for lang, a in answers.items() if "chat" in lang} == {"bad_request"}


def test_websocket_refusal_before_hello_follows_accept_language(client: TestClient) -> None:
    with client.websocket_connect("/ws/tables/" + "x" * 40, headers={"Accept-Language": "ro"}) as ws:
        assert receive(ws)["error"] == {
            "code": "not_found",
            "message": "nu există o astfel de masă",
            "rule": None,
        }


def test_validation_errors_keep_pydantics_detail_inside_a_translated_frame(client: TestClient) -> None:
    table_id, tokens, mover = two_people_playing(client)
    body = {"id": "x" * 65, "action": "draw stock"}
    english = client.post(f"/api/tables/{table_id}/actions", json=body, headers=auth(tokens[mover]))
    romanian = client.post(
        f"/api/tables/{table_id}/actions", json=body, headers={**auth(tokens[mover]), "Accept-Language": "ro"}
    )
    assert english.status_code == romanian.status_code == 422
    where, _, detail = english.json()["error"]["message"].partition(": ")
    assert where == "id"
    assert romanian.json()["error"]["message"] == f"câmpul id: {detail}"  # pydantic's words stay English


def test_an_oversized_body_is_refused_in_the_readers_language(client: TestClient) -> None:
    table_id, token = create(client)
    body = {"id": "x", "text": "y" * 20_000}
    url = f"/api/tables/{table_id}/chat"
    english = client.post(url, json=body, headers=auth(token))
    bengali = client.post(url, json=body, headers={**auth(token), "Accept-Language": "bn"})
    assert english.status_code == bengali.status_code == 413
    limit = client.app.state.settings.max_body  # type: ignore[attr-defined]
    assert english.json()["error"] == {
        "code": "too_large",
        "message": f"the request body is over {limit} bytes",
        "rule": None,
    }
    assert bengali.json()["error"] == {
        "code": "too_large",
        "message": f"অনুরোধের বডি {translator('bn').number(limit)} বাইটের বেশি",
        "rule": None,
    }
