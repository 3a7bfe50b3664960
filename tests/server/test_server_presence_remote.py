"""What one process does with the presence messages of the others (paiute.server.presence),
driven in-process: another process's connection counts as the seat's, its grace period shows,
and when it stops (an empty message), a seat only it had starts its grace period here."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from server_helpers import create, fast_limits, fast_settings, join, start, state

from paiute.server import create_app
from paiute.server.presence import TTL, message, parse


def hear(client: TestClient, payload: str) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    client.portal.call(service._presence_heard, payload)  # type: ignore[union-attr]


def bo(view: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = view["table"]["players"][1]
    return found


def test_another_process_s_connection_counts_then_its_stop_starts_the_grace_here(db_url: str) -> None:
    with TestClient(create_app(db_url, limits=fast_limits(), settings=fast_settings())) as client:
        table_id, token = create(client, seats=2, bots=None)
        join(client, table_id, "Bo")
        start(client, table_id, token)
        assert bo(state(client, table_id))["connected"] is False
        hear(client, message("other", table_id, {1}, 2, {}))  # Bo is connected to "other"
        view = state(client, table_id)
        assert bo(view)["connected"] is True
        assert view["table"]["spectators"] == 2
        # A grace period another process runs is shown, and none starts here.
        hear(client, message("other", table_id, (), 0, {1: 12345.0}))
        assert bo(state(client, table_id))["away_until"] == 12345.0
        service = client.app.state.service  # type: ignore[attr-defined]
        assert service.runtimes[table_id].away == {}
        # The other process stops (an empty message): Bo is connected nowhere and no grace
        # period runs anywhere, so his starts here.
        hear(client, message("other", table_id, (), 0, {}))
        view = state(client, table_id)
        assert bo(view)["connected"] is False
        assert 1 in service.runtimes[table_id].away
        assert bo(view)["away_until"] == service.runtimes[table_id].away[1]
        # This process's own messages and malformed ones change nothing.
        hear(client, message(service.process_id, table_id, {1}, 0, {}))
        hear(client, '{"p": "x", "t": "' + table_id + '", "s": [99], "n": 0, "a": []}')
        assert bo(state(client, table_id))["connected"] is False


def test_a_process_not_heard_from_is_forgotten_and_its_seat_starts_its_grace_here(db_url: str) -> None:
    now = [1000.0]
    app = create_app(db_url, limits=fast_limits(), settings=fast_settings(), clock=lambda: now[0])
    with TestClient(app) as client:
        table_id, token = create(client, seats=2, bots=None)
        join(client, table_id, "Bo")
        start(client, table_id, token)
        service = client.app.state.service  # type: ignore[attr-defined]
        hear(client, message("other", table_id, {1}, 0, {}))
        now[0] += TTL  # not yet
        client.portal.call(service._beat)  # type: ignore[union-attr]
        assert bo(state(client, table_id))["connected"] is True
        now[0] += 1.0  # the other process died: nothing heard for longer than TTL
        client.portal.call(service._beat)  # type: ignore[union-attr]
        view = state(client, table_id)
        assert bo(view)["connected"] is False
        assert bo(view)["away_until"] == now[0] + service.settings.away_grace


def test_a_presence_message_is_read_back_and_bad_ones_are_refused() -> None:
    heard = parse(message("p", "t", [1, 0], 3, {2: 5.5}), now=7.0)
    assert heard is not None
    assert (heard.process, heard.table_id) == ("p", "t")
    assert heard.remote.seats == {0, 1}
    assert (heard.remote.spectators, heard.remote.away, heard.remote.heard) == (3, ((2, 5.5),), 7.0)
    for bad in (
        "",
        "{",
        "[1]",
        '{"p": "p"}',
        '{"p": "p", "t": "t", "s": [true], "n": 0, "a": []}',
        '{"p": "p", "t": "t", "s": [], "n": -1, "a": []}',
        '{"p": "p p", "t": "t", "s": [], "n": 0, "a": []}',
    ):
        assert parse(bad, now=0.0) is None, bad
