"""A lesson table ("Learn to play", paiute.server.lesson) over the HTTP API: it plays the same
prepared deal as ``paiute learn``, move for move; each step takes only its own input, a wrong
one is answered and changes nothing; the engine's refusal of R4.3 is the step's answer, in the
reader's language; the bots wait while the coach waits for its person; the table is private,
never rated, one deal long, with hints; the step is read back after a restart."""

from __future__ import annotations

import itertools
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import auth, create, fast_settings, state, wait_for

from paiute.analysis.lesson import LESSON_PACK, Step
from paiute.errors import IllegalActionError
from paiute.fairness import verify_record
from paiute.i18n import translator
from paiute.record import Record
from paiute.server import create_app
from paiute.server.errors import ServiceError
from paiute.server.lesson import lesson_config
from paiute.server.table import LiveTable
from paiute.tui.lesson import Lesson
from test_lesson import walk

#: The step's own input, as the page sends it.
RIGHT: dict[str, dict[str, str]] = {
    "welcome": {"input": "proceed"},
    "wild": {"input": "answer", "card": "7h"},
    "draw": {"input": "action", "action": "draw stock"},
    "discard": {"input": "action", "action": "discard 2c"},
    "take": {"input": "action", "action": "draw discard"},
    "try_taken": {"input": "action", "action": "discard 9s"},
    "discard_other": {"input": "action", "action": "discard Kd"},
    "last_round": {"input": "proceed"},
    "last_draw": {"input": "action", "action": "draw stock"},
    "combinations": {"input": "combinations"},
    "call": {"input": "action", "action": "call"},
    "result": {"input": "proceed"},
    "done": {"input": "proceed"},
}
#: Inputs that do not fit each step (what a newcomer might try), and what the coach says.
WRONG: dict[str, list[tuple[dict[str, str], str]]] = {
    "welcome": [({"input": "action", "action": "draw stock"}, "hint"), ({"input": "answer", "card": "7h"}, "hint")],
    "wild": [({"input": "answer", "card": "2c"}, "not_wild"), ({"input": "action", "action": "draw stock"}, "hint")],
    "draw": [({"input": "action", "action": "draw discard"}, "stock_this_time"), ({"input": "action", "action": "discard 2c"}, "refused")],
    "discard": [({"input": "action", "action": "discard Qd"}, "keep"), ({"input": "proceed"}, "hint")],
    "take": [({"input": "action", "action": "draw stock"}, "take_this_time"), ({"input": "combinations"}, "hint")],
    "try_taken": [({"input": "action", "action": "discard Kd"}, "try_taken_first")],
    "discard_other": [({"input": "action", "action": "discard Qc"}, "keep"), ({"input": "action", "action": "discard 9s"}, "refused")],
    "last_round": [({"input": "action", "action": "draw stock"}, "hint")],
    "last_draw": [({"input": "action", "action": "draw discard"}, "hint"), ({"input": "proceed"}, "hint")],
    "combinations": [({"input": "action", "action": "call"}, "rank_first"), ({"input": "action", "action": "discard 9h"}, "no_discard_now")],
    "call": [({"input": "action", "action": "discard 9h"}, "no_discard_now"), ({"input": "proceed"}, "hint")],
    "result": [({"input": "action", "action": "draw stock"}, "hint")],
    "done": [({"input": "answer", "card": "7h"}, "hint")],
}  # fmt: skip


def _client(db_url: str, **settings: Any) -> TestClient:
    return TestClient(create_app(db_url, settings=fast_settings(**settings)))


def _lesson(client: TestClient, name: str = "Ana") -> tuple[str, str]:
    response = client.post("/api/lessons", json={"player_name": name})
    assert response.status_code == 201, response.text
    client.cookies.clear()
    data = response.json()
    return data["table"]["id"], data["token"]


_IDS = itertools.count()


def _say(client: TestClient, table_id: str, token: str, body: dict[str, str], **query: str) -> Any:
    """A lesson message of the seat (a fresh id each); the acknowledgement."""
    response = client.post(
        f"/api/tables/{table_id}/lesson",
        json={"id": f"lesson-{next(_IDS)}", **body},
        headers=auth(token),
        params=query,
    )
    assert response.status_code == 200, response.text
    return response.json()


def _ready(client: TestClient, table_id: str, token: str) -> dict[str, Any]:
    """The View once the lesson's step can be taken (the bots have played up to it)."""
    return wait_for(client, table_id, token, lambda view: view["lesson"]["ready"])


def _actions(client: TestClient, table_id: str, token: str) -> list[str]:
    events = client.get(f"/api/tables/{table_id}/events", headers=auth(token)).json()["events"]
    return [f"{event['seat']} {event['action']}" for event in events if event["type"] == "action"]


def _walk(client: TestClient, table_id: str, token: str, *, until: str | None = None) -> dict[str, Any]:
    """The step's own input at every step (up to ``until``); the View at the last one."""
    while True:
        view = _ready(client, table_id, token)
        step = view["lesson"]["step"]
        if step == until:
            return view
        answer = _say(client, table_id, token, RIGHT[step])
        assert answer["coach"]["advanced"], (step, answer)
        if step == "done":
            return view


def test_a_lesson_table_plays_the_terminals_deal_move_for_move(db_url: str) -> None:
    terminal = Lesson()
    assert list(walk(terminal)) == list(Step)  # paiute learn, through tests/test_lesson.py
    deal = terminal.session.deal
    assert deal is not None
    expected = [f"{event.seat} {event.action}" for event in deal.events]

    with _client(db_url) as client:
        table_id, token = _lesson(client)
        view = state(client, table_id, token)
        assert [player["name"] for player in view["table"]["players"]] == ["Ana", "Lani", "Kai"]
        _walk(client, table_id, token)
        assert _actions(client, table_id, token) == expected
        ended = wait_for(client, table_id, token, lambda view: view["status"] == "closed")
        assert ended["balances"] == [102, 99, 99]  # Ana's call beat Lani's (R6.4) and won the pot
        assert ended["lesson"]["step"] == "done"


def test_a_wrong_input_is_answered_and_changes_nothing(db_url: str) -> None:
    with _client(db_url) as client:
        table_id, token = _lesson(client)
        seen: list[str] = []
        while True:
            view = _ready(client, table_id, token)
            step = view["lesson"]["step"]
            if step == "done":  # the match has ended by itself after the last step that is stored
                view = wait_for(client, table_id, token, lambda view: view["status"] == "closed")
            seen.append(step)
            for body, says in WRONG[step]:
                answer = _say(client, table_id, token, body)
                coach = answer["coach"]
                assert (coach["says"], coach["advanced"], coach["warning"]) == (says, False, True), (
                    step,
                    body,
                )
                assert coach["step"] == step
                after = state(client, table_id, token)
                assert (after["version"], after["lesson"]["step"]) == (view["version"], step), (step, body)
                assert after["observation"]["hand"] == view["observation"]["hand"]
            answer = _say(client, table_id, token, RIGHT[step])
            assert answer["coach"]["advanced"]
            if step == "done":
                break
        assert seen == [step.value for step in Step]


def test_the_r4_3_refusal_is_the_engines_own_and_the_steps_answer(db_url: str) -> None:
    with _client(db_url) as client:
        table_id, token = _lesson(client)
        view = _walk(client, table_id, token, until="try_taken")
        assert view["lesson"]["facts"] == {"card": "9s"}
        answer = _say(client, table_id, token, RIGHT["try_taken"], lang="bn")["coach"]
        refusal = IllegalActionError(
            "R4.3", "the card taken from the discard pile may not be discarded this turn"
        )
        assert answer["rule"] == "R4.3"
        assert answer["message"] == translator("bn").explain(refusal)
        assert (answer["says"], answer["advanced"], answer["step"]) == ("refused", True, "discard_other")
        after = state(client, table_id, token)
        assert after["lesson"]["step"] == "discard_other"
        assert "9s" in after["observation"]["hand"]  # nothing was played: the card stayed
        assert after["version"] == view["version"] + 1  # only the lesson's step was stored


def test_the_bots_wait_while_the_coach_waits_for_its_person(db_url: str) -> None:
    with _client(db_url) as client:
        table_id, token = _lesson(client)
        welcome = _ready(client, table_id, token)
        assert welcome["lesson"]["step"] == "welcome"
        assert welcome["observation"]["current_seat"] == 1  # Lani is to play: she waits
        time.sleep(0.2)
        assert state(client, table_id, token)["version"] == welcome["version"]
        last_round = _walk(client, table_id, token, until="last_round")
        assert last_round["lesson"]["facts"]["who"] == 1  # Lani called
        assert last_round["observation"]["current_seat"] == 2  # Kai's last turn waits for the coach
        time.sleep(0.2)
        assert state(client, table_id, token)["version"] == last_round["version"]
        result = _walk(client, table_id, token, until="result")
        assert result["status"] == "deal_over"  # the match does not end while the result is read
        time.sleep(0.2)
        assert state(client, table_id, token)["status"] == "deal_over"
        _say(client, table_id, token, RIGHT["result"])
        wait_for(client, table_id, token, lambda view: view["status"] == "closed")


def test_a_lesson_table_is_private_unrated_one_deal_with_hints(db_url: str) -> None:
    with _client(db_url) as client:
        table_id, token = _lesson(client)
        view = _ready(client, table_id, token)
        table = view["table"]
        assert (table["lesson"], table["private"], table["rated"], table["max_deals"]) == (
            True,
            True,
            False,
            1,
        )
        assert view["hints"]["on"] is True
        assert client.get(f"/api/tables/{table_id}/state").status_code == 403  # a stranger sees nothing
        invite = view["invite"].rsplit("invite=", 1)[1]
        watched = client.get(f"/api/tables/{table_id}/state", params={"invite": invite}).json()
        assert watched["table"]["lesson"] is True
        assert watched["lesson"] is None  # the coach names the person's cards: theirs only (R9)
        assert client.get("/api/tables").json()["total"] == 0  # never in the lobby's list


def test_moves_at_a_lesson_table_go_through_the_coach(db_url: str) -> None:
    with _client(db_url) as client:
        table_id, token = _lesson(client)
        _walk(client, table_id, token, until="draw")
        move = {"id": "plain", "action": "draw stock"}
        refused = client.post(f"/api/tables/{table_id}/actions", json=move, headers=auth(token))
        assert (refused.status_code, refused.json()["error"]["code"]) == (409, "conflict")
        bad = client.post(
            f"/api/tables/{table_id}/lesson",
            json={"id": "bad", "input": "answer", "card": "Zz"},
            headers=auth(token),
        )
        assert bad.status_code == 400
        stranger = client.post(f"/api/tables/{table_id}/lesson", json={"id": "x", "input": "proceed"})
        assert stranger.json()["error"]["code"] == "bad_token"
        other_id, other_token = create(client)
        elsewhere = client.post(
            f"/api/tables/{other_id}/lesson", json={"id": "y", "input": "proceed"}, headers=auth(other_token)
        )
        assert (elsewhere.status_code, elsewhere.json()["error"]["code"]) == (409, "conflict")
        assert state(client, table_id, token)["lesson"]["step"] == "draw"


def test_a_repeated_message_is_applied_once(db_url: str) -> None:
    with _client(db_url) as client:
        table_id, token = _lesson(client)
        _ready(client, table_id, token)
        body = {"id": "same", "input": "proceed"}
        first = client.post(f"/api/tables/{table_id}/lesson", json=body, headers=auth(token)).json()
        again = client.post(f"/api/tables/{table_id}/lesson", json=body, headers=auth(token)).json()
        assert first["coach"]["advanced"]
        assert (again["version"], again["coach"]) == (first["version"], None)
        assert state(client, table_id, token)["lesson"]["step"] == "wild"


def test_the_lessons_step_is_read_back_after_a_restart(db_url: str) -> None:
    with _client(db_url) as client:
        table_id, token = _lesson(client)
        before = _walk(client, table_id, token, until="take")
    with _client(db_url) as client:
        after = _ready(client, table_id, token)
        assert after["lesson"] == before["lesson"]
        assert after["observation"]["hand"] == before["observation"]["hand"]
        _walk(client, table_id, token)


def test_r10_2_the_lessons_proof_verifies_over_the_prepared_pack(db_url: str) -> None:
    with _client(db_url) as client:
        table_id, token = _lesson(client)
        _walk(client, table_id, token)
        wait_for(client, table_id, token, lambda view: view["status"] == "closed")
        record = Record.from_json(client.get(f"/api/tables/{table_id}/record", headers=auth(token)).json())
        assert verify_record(record) == [(0, [])]
        assert record.deals[0].deck == LESSON_PACK
        proof = client.get(f"/api/tables/{table_id}/deals/1/proof", headers=auth(token)).json()
        assert proof["deck"] == [str(card) for card in LESSON_PACK]


def test_nobody_hands_a_lessons_seat_to_the_bot() -> None:
    table = LiveTable("t", lesson_config("code"))
    with pytest.raises(ServiceError) as refused:
        table.plan_autoplay(0, "away")
    assert refused.value.code == "conflict"
