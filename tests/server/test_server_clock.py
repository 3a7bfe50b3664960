"""The turn clock: when it runs out, the server plays the seat's turn (or cut) and says so."""

from __future__ import annotations

from fastapi.testclient import TestClient
from server_helpers import create, fast_limits, fast_settings, join, start, state, wait_for

from paiute.server import create_app


def test_expired_clock_cuts_and_plays_the_turn_with_a_timeout_event(db_url: str) -> None:
    with TestClient(create_app(db_url, limits=fast_limits(), settings=fast_settings())) as client:
        table_id, token = create(client, seats=2, bots=None, turn_seconds=1)
        _, other = join(client, table_id, "Bo")
        start(client, table_id, token)
        view = state(client, table_id, token)
        assert view["clock"]["seconds"] == 1
        assert view["clock"]["seat"] == view["cutter"]
        # Nobody moves: the clock cuts for the cutter (R2.4), then plays the first turn.
        wait_for(
            client,
            table_id,
            token,
            lambda v: v["status"] == "playing" and len(v["observation"]["history"]) >= 2,
        )
        events = client.get(
            f"/api/tables/{table_id}/events", headers={"Authorization": f"Bearer {other}"}
        ).json()
        kinds = [(e["type"], e.get("by")) for e in events["events"]]
        cut_at = kinds.index(("cut", "clock"))
        assert kinds[cut_at - 1] == ("timeout", None)
        turn_at = kinds.index(("timeout", None), cut_at + 1)
        played = kinds[turn_at + 1 : turn_at + 3]
        assert played == [("action", "clock"), ("action", "clock")]  # a draw and a discard (R4.2)
        timeout = events["events"][turn_at]
        assert "clock ran out" in timeout["text"]
        first = events["events"][turn_at + 1]
        assert first["seat"] == timeout["seat"]
        assert first["action"] in ("draw stock", "draw discard")
