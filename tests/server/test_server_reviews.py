"""Reviews of finished deals over HTTP (paiute.server.reviews): refused before the deal ends
(R9.3), computed in the background with progress, stored with the deal, equal to paiute review."""

from __future__ import annotations

import random
import time

from fastapi.testclient import TestClient
from server_helpers import create, join, play_http, start

from paiute.analysis.review import review_record
from paiute.record import Record
from paiute.server.reviews import Reviewer, reviews_table


def _wait_ready(client: TestClient, url: str) -> tuple[dict, list[dict]]:
    seen = []
    for _ in range(600):
        response = client.get(url)
        assert response.status_code == 200, response.text
        body = response.json()
        seen.append(body)
        if body["status"] == "ready":
            return body, seen
        time.sleep(0.1)
    raise AssertionError(f"the review at {url} never became ready: {seen[-1]}")


def test_review_of_a_finished_deal_is_computed_kept_and_matches_the_cli(client: TestClient) -> None:
    app = client.app
    app.state.reviewer = Reviewer(app, playouts=2)  # type: ignore[attr-defined]
    table_id, token = create(client, seats=2, max_deals=1)
    _, other = join(client, table_id, "Bo")
    start(client, table_id, token)
    play_http(client, table_id, {0: token, 1: other}, random.Random(5))
    url = f"/api/tables/{table_id}/deals/1/review"
    body, seen = _wait_ready(client, url)
    assert seen[0]["status"] == "pending"
    assert body["deal"] == 1
    assert body["players"] == ["Ana", "Bo"]
    record = Record.loads(client.get(f"/api/tables/{table_id}/record").text)
    expected = review_record(record, deal=0, playouts=2, seed=0)
    assert body["decisions"] == [decision.to_json() for decision in expected.decisions]
    assert body["summary"] == [summary.to_json() for summary in expected.summaries]
    # Kept in the database with the deal: a new reviewer (another process) reads it back.
    app.state.reviewer = Reviewer(app, playouts=2)  # type: ignore[attr-defined]
    assert client.get(url).json() == body
    with app.state.store.engine.connect() as connection:  # type: ignore[attr-defined]
        rows = connection.execute(reviews_table.select()).fetchall()
    assert [(row.table_id, row.deal) for row in rows] == [(table_id, 1)]


def test_r9_3_no_review_before_the_deal_ends(client: TestClient) -> None:
    table_id, token = create(client, seats=2, max_deals=1)
    join(client, table_id, "Bo")
    start(client, table_id, token)
    response = client.get(f"/api/tables/{table_id}/deals/1/review")
    assert response.status_code == 409
    assert "R9.3" in response.json()["error"]["message"]
    assert client.get("/api/tables/nosuchtable/deals/1/review").status_code == 404


def test_a_review_stored_in_the_first_format_is_made_again_in_net_chips(client: TestClient) -> None:
    # paiute-review/1 gave each decision's share of the pot (ev_played, ev_best), not its net
    # chips: such a stored review is not shown; it is made again and replaces the old row.
    app = client.app
    app.state.reviewer = Reviewer(app, playouts=2)  # type: ignore[attr-defined]
    table_id, token = create(client, seats=2, max_deals=1)
    _, other = join(client, table_id, "Bo")
    start(client, table_id, token)
    play_http(client, table_id, {0: token, 1: other}, random.Random(5))
    old = {"deal": 1, "players": ["Ana", "Bo"], "playouts": 2, "seed": 0, "decisions": [], "summary": []}
    with app.state.store.engine.begin() as connection:  # type: ignore[attr-defined]
        row = {"table_id": table_id, "deal": 1, "playouts": 2, "data": old, "created": 0.0}
        connection.execute(reviews_table.insert().values(**row))
    url = f"/api/tables/{table_id}/deals/1/review"
    body, seen = _wait_ready(client, url)
    assert seen[0]["status"] == "pending"
    assert body["format"] == "paiute-review/2"
    assert body["decisions"]
    assert {"net_played", "net_best"} <= set(body["decisions"][0])
    with app.state.store.engine.connect() as connection:  # type: ignore[attr-defined]
        rows = connection.execute(reviews_table.select()).fetchall()
    assert [(row.table_id, row.deal, row.data["format"]) for row in rows] == [
        (table_id, 1, "paiute-review/2")
    ]
