"""The hint button's endpoint: only the seat to move, with its own token; the same figures as
paiute.analysis.hint from that seat's observation (R9); nothing at the table changes."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient
from server_helpers import auth, create, fast_settings, join, start, state

from paiute import pack
from paiute.analysis.hint import hint
from paiute.server import create_app
from paiute.server.hints import HintSettings, _seed

CARD_TEXT = re.compile(r"^(?:[2-9TJQKA][cdhs]|Jk[12])$")
QUICK = HintSettings(playouts=2, draw_playouts=2, budget_ms=None, processes=False)


def _client(db_url: str, hints: HintSettings = QUICK, **settings: Any) -> TestClient:
    app = create_app(db_url, settings=fast_settings(**settings))
    app.state.hint_settings = hints
    return TestClient(app)


def _two_people(client: TestClient) -> tuple[str, dict[int, str]]:
    table_id, token = create(client, seats=2, bots=None)
    _, other = join(client, table_id, "Bo")
    tokens = {0: token, 1: other}
    start(client, table_id, token)
    cutter = state(client, table_id, token)["cutter"]
    response = client.post(
        f"/api/tables/{table_id}/cut", json={"id": "cut", "position": 7}, headers=auth(tokens[cutter])
    )
    assert response.status_code == 200, response.text
    return table_id, tokens


def _hint(client: TestClient, table_id: str, token: str | None) -> Any:
    return client.post(f"/api/tables/{table_id}/hint", headers=auth(token))


def test_the_seat_to_move_gets_the_hint_of_its_observation(db_url: str) -> None:
    with _client(db_url) as client:
        table_id, tokens = _two_people(client)
        view = state(client, table_id)
        mover = view["observation"]["current_seat"]
        version = view["version"]
        response = _hint(client, table_id, tokens[mover])
        assert response.status_code == 200, response.text
        data = response.json()
        assert data["format"] == "paiute-hint/1"
        assert (data["table"], data["version"], data["seat"]) == (table_id, version, mover)
        # The same figures as paiute.analysis.hint from the seat's observation, with the same seed.
        table = client.app.state.service.runtimes[table_id].table  # type: ignore[attr-defined]
        expected = hint(
            table.deal.observation(mover), playouts=2, draw_playouts=2, seed=_seed(table_id, version, mover)
        ).to_json()
        assert {k: v for k, v in data.items() if k not in ("table", "version", "deal")} == expected
        mine = state(client, table_id, tokens[mover])["observation"]
        assert data["recommended"] in mine["legal_actions"]
        # Asking changed nothing at the table, and the same moment gives the same answer.
        assert state(client, table_id)["version"] == version
        assert _hint(client, table_id, tokens[mover]).json() == data


def test_a_hint_names_no_card_outside_the_seats_view(db_url: str) -> None:
    with _client(db_url) as client:
        table_id, tokens = _two_people(client)
        mover = state(client, table_id)["observation"]["current_seat"]
        token = tokens[mover]
        client.post(
            f"/api/tables/{table_id}/actions", json={"id": "a", "action": "draw stock"}, headers=auth(token)
        )
        mine = state(client, table_id, token)["observation"]
        data = _hint(client, table_id, token).json()
        visible = set(mine["hand"]) | set(mine["discard_pile"])
        visible |= {mine["stock_bottom"]} if mine["stock_bottom"] else set()
        unseen = {str(card) for card in pack()} - visible

        def walk(item: object, key: str = "") -> None:
            if isinstance(item, dict):
                for k, v in item.items():
                    walk(v, k)
            elif isinstance(item, list):
                for v in item:
                    walk(v, key)
            elif isinstance(item, str):
                for word in item.split():
                    if CARD_TEXT.match(word):
                        assert word in (unseen if key == "out_cards" else set(mine["hand"])), (key, word)

        walk(data)


def test_a_hint_is_refused_to_another_seat_a_spectator_and_a_stranger(db_url: str) -> None:
    with _client(db_url) as client:
        table_id, tokens = _two_people(client)
        mover = state(client, table_id)["observation"]["current_seat"]
        waiting = _hint(client, table_id, tokens[1 - mover])
        assert waiting.status_code == 409
        assert waiting.json()["error"]["code"] == "not_your_turn"
        spectator = _hint(client, table_id, None)
        assert spectator.status_code == 401
        other_table, other_token = create(client)
        stranger = _hint(client, table_id, other_token)
        assert stranger.status_code == 401
        assert stranger.json()["error"]["code"] == "bad_token"
        assert _hint(client, other_table, other_token).status_code == 409  # not dealt yet


def test_hints_are_rate_limited_like_other_requests(db_url: str) -> None:
    with _client(db_url, http_rate=0.001, http_burst=3) as client:
        table_id, token = create(client, seats=2)
        statuses = [_hint(client, table_id, token).status_code for _ in range(6)]
        assert statuses.count(429) >= 3


def test_the_estimate_runs_off_the_event_loop(db_url: str, monkeypatch: Any) -> None:
    import threading

    import paiute.server.hints as hints_module

    threads: list[str] = []
    real = hints_module.hint

    def spy(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(hints_module, "hint", spy)
    with _client(db_url) as client:
        table_id, tokens = _two_people(client)
        mover = state(client, table_id)["observation"]["current_seat"]
        assert _hint(client, table_id, tokens[mover]).status_code == 200
    assert len(threads) == 1
    assert threads[0].startswith("paiute-hint")  # its own pool, never the loop's thread


def test_worker_processes_give_the_same_figures(db_url: str) -> None:
    with _client(
        db_url, hints=HintSettings(playouts=2, draw_playouts=2, budget_ms=None, workers=1)
    ) as client:
        try:
            table_id, tokens = _two_people(client)
            view = state(client, table_id)
            mover, version = view["observation"]["current_seat"], view["version"]
            response = _hint(client, table_id, tokens[mover])
            assert response.status_code == 200, response.text
            table = client.app.state.service.runtimes[table_id].table  # type: ignore[attr-defined]
            expected = hint(
                table.deal.observation(mover),
                playouts=2,
                draw_playouts=2,
                seed=_seed(table_id, version, mover),
            ).to_json()
            assert {
                k: v for k, v in response.json().items() if k not in ("table", "version", "deal")
            } == expected
        finally:
            client.app.state.hints.pool.shutdown()  # type: ignore[attr-defined]
