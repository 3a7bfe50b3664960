"""Restarts: a new server on the same database carries every table on where it was."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient
from server_helpers import (
    auth,
    create,
    fast_limits,
    fast_settings,
    my_move,
    play_http,
    start,
    state,
    wait_for,
)

from paiute.fairness import verify_deal
from paiute.record import Record
from paiute.server import create_app


def without_presence(view: dict[str, Any]) -> dict[str, Any]:
    """A view less what depends on this process (connections, a restarted clock)."""
    view = dict(view)
    view["table"] = {**view["table"], "spectators": 0}
    view["table"]["players"] = [{**p, "connected": False} for p in view["table"]["players"]]
    view["clock"] = None
    return view


def test_restart_gives_the_same_state_and_the_match_plays_on(db_url: str) -> None:
    rng = random.Random(11)
    sent: dict[str, dict[str, Any]] = {}
    with TestClient(create_app(db_url, limits=fast_limits(), settings=fast_settings())) as client:
        table_id, token = create(client, seats=3, bots="greedy", max_deals=2)
        start(client, table_id, token)
        moves = 0
        while moves < 6:
            view = wait_for(client, table_id, token, my_move)
            if view["status"] == "cut":
                body = {"id": f"cut{moves}", "position": 3}
                assert (
                    client.post(f"/api/tables/{table_id}/cut", json=body, headers=auth(token)).status_code
                    == 200
                )
                continue
            action = rng.choice(view["observation"]["legal_actions"])
            body = {"id": f"m{moves}", "action": action}
            sent.setdefault(body["id"], body)
            assert (
                client.post(f"/api/tables/{table_id}/actions", json=body, headers=auth(token)).status_code
                == 200
            )
            moves += 1
        before = wait_for(client, table_id, token, my_move)  # quiet: the bots wait for us
        events_before = client.get(f"/api/tables/{table_id}/events", headers=auth(token)).json()
    with TestClient(create_app(db_url, limits=fast_limits(), settings=fast_settings())) as client:
        after = state(client, table_id, token)
        assert without_presence(after) == without_presence(before)
        assert client.get(f"/api/tables/{table_id}/events", headers=auth(token)).json() == events_before
        # A repeated id from before the restart is still answered, not applied; the same id
        # with another action is refused (id_reused).
        again = client.post(f"/api/tables/{table_id}/actions", json=sent["m0"], headers=auth(token))
        assert again.status_code == 200
        other = "call" if sent["m0"]["action"] != "call" else "draw stock"
        reused = client.post(
            f"/api/tables/{table_id}/actions", json={"id": "m0", "action": other}, headers=auth(token)
        )
        assert reused.status_code == 409
        assert reused.json()["error"]["code"] == "id_reused"
        assert state(client, table_id)["version"] == before["version"]
        final = play_http(client, table_id, {0: token}, rng)
        assert final["status"] == "closed"
        record = Record.loads(client.get(f"/api/tables/{table_id}/record").text)
    assert len(record.deals) == 2
    assert record.replay().match.balances == tuple(final["balances"])
    assert [verify_deal(deal) for deal in record.deals] == [[], []]


def test_bots_carry_on_after_a_restart_without_any_request(db_url: str) -> None:
    # The first server never lets its bots move (a long bot delay); the second must.
    with TestClient(
        create_app(db_url, limits=fast_limits(), settings=fast_settings(bot_delay=10_000.0))
    ) as client:
        table_id, token = create(client, seats=4, bots="greedy", max_deals=1)
        start(client, table_id, token)
        if state(client, table_id)["cutter"] == 0:  # we cut; then a bot plays first (R2.4, R4.1)
            body = {"id": "cut", "position": 5}
            assert (
                client.post(f"/api/tables/{table_id}/cut", json=body, headers=auth(token)).status_code == 200
            )
        version = state(client, table_id)["version"]
    with TestClient(create_app(db_url, limits=fast_limits(), settings=fast_settings())) as client:
        # No request moves the table: the recovered bots must (a bot cuts or plays next).
        view = wait_for(client, table_id, token, lambda v: v["version"] > version and my_move(v))
        assert view["status"] in ("cut", "playing", "closed")
        kinds = {
            event["by"]
            for event in client.get(f"/api/tables/{table_id}/events").json()["events"]
            if "by" in event
        }
        assert "bot" in kinds


def test_every_table_is_recovered_on_start(db_url: str) -> None:
    with TestClient(create_app(db_url, limits=fast_limits(), settings=fast_settings())) as client:
        ids = [create(client, name=f"T{number}")[0] for number in range(3)]
    with TestClient(create_app(db_url, limits=fast_limits(), settings=fast_settings())) as client:
        listed = {table["id"] for table in client.get("/api/tables").json()["tables"]}
        assert set(ids) <= listed
        assert client.get("/api/health").json()["tables"] >= 3
