"""The HTTP API: lobby, seats, play, refusals that change nothing, records and proofs."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient
from server_helpers import auth, create, fast_limits, fast_settings, join, play_http, start, state, wait_for

from paiute.fairness import verify_deal
from paiute.record import Record
from paiute.server import create_app


def test_presets_lists_presets_options_and_bots(client: TestClient) -> None:
    data = client.get("/api/presets").json()
    assert set(data["presets"]) == {"pagat", "gamerules"}
    assert data["presets"]["gamerules"]["open_discard"] is True
    names = {option["name"]: option for option in data["options"]}
    assert names["wild_colour"]["type"] == "choice"
    assert names["wild_colour"]["choices"] == ["any", "opposite"]
    assert names["jokers"]["type"] == "bool"
    assert "greedy" in data["bots"]


def test_create_list_join_start(client: TestClient) -> None:
    table_id, token = create(client, name="Friday", seats=4, bots="greedy")
    listed = client.get("/api/tables").json()["tables"]
    summary = next(item for item in listed if item["id"] == table_id)
    assert summary["name"] == "Friday"
    assert summary["status"] == "waiting"
    assert [p["taken"] for p in summary["players"]] == [True, False, False, False]
    seat, other = join(client, table_id, "Bo", seat=2)
    assert seat == 2
    assert other != token
    view = state(client, table_id, other)
    assert view["you"] == 2
    assert view["names"] == ["Ana", None, "Bo", None]
    # Only the host (the creator, seat 0) starts the match; a guest is refused.
    refused = client.post(f"/api/tables/{table_id}/start", headers=auth(other), json={"id": "go"})
    assert refused.status_code == 403, refused.text
    assert refused.json()["error"]["code"] == "forbidden"
    start(client, table_id, token)
    view = wait_for(client, table_id, token, lambda v: v["status"] in ("cut", "playing"))
    assert all(name is not None for name in view["names"])
    assert view["table"]["players"][1]["bot"] == "greedy"
    # A match under way takes no one else.
    response = client.post(f"/api/tables/{table_id}/join", json={"name": "Cy"})
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "conflict"


def test_private_table_is_not_listed_and_needs_its_invitation(client: TestClient) -> None:
    response = client.post("/api/tables", json={"player_name": "Ana", "seats": 2, "private": True})
    client.cookies.clear()
    created = response.json()
    table_id = created["table"]["id"]
    code = created["invite"].split("invite=")[1]
    assert table_id not in [t["id"] for t in client.get("/api/tables").json()["tables"]]
    refused = client.post(f"/api/tables/{table_id}/join", json={"name": "Bo"})
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "forbidden"
    for wrong in (code[:-1], code.upper() if code.upper() != code else code + "x", "côde"):
        joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Bo", "invite": wrong})
        assert (joined.status_code, joined.json()["error"]["code"]) == (403, "forbidden"), wrong
        looked = client.get(f"/api/tables/{table_id}/state", params={"invite": wrong})
        assert (looked.status_code, looked.json()["error"]["code"]) == (403, "forbidden"), wrong
    assert client.post(f"/api/tables/{table_id}/join", json={"name": "Bo", "invite": code}).status_code == 200
    client.cookies.clear()
    assert state(client, table_id, created["token"])["invite"] == created["invite"]
    # A private table shows nothing to a spectator without the invitation; with it, not the code.
    assert client.get(f"/api/tables/{table_id}/state").status_code == 403
    watched = client.get(f"/api/tables/{table_id}/state", params={"invite": code})
    assert watched.status_code == 200
    assert watched.json()["invite"] is None


def test_full_match_people_and_bots_over_http(client: TestClient) -> None:
    table_id, token = create(client, seats=3, bots="greedy", max_deals=2)
    _, other = join(client, table_id, "Bo")
    start(client, table_id, token)
    final = play_http(client, table_id, {0: token, 1: other}, random.Random(3))
    assert final["status"] == "closed"
    assert final["table"]["deals"] == 2
    assert sum(final["balances"]) + final["pot"] == 300  # R8.6
    assert final["last_deal"]["deal"] == 2
    response = client.get(f"/api/tables/{table_id}/record")
    assert response.headers["content-disposition"].startswith("attachment")
    record = Record.loads(response.text)
    assert record.replay().match.balances == tuple(final["balances"])
    assert [verify_deal(deal) for deal in record.deals] == [[], []]


def test_r8_2_match_closes_when_a_player_cannot_pay(client: TestClient) -> None:
    table_id, token = create(client, seats=2, bots="greedy", chips=1, max_deals=None)
    start(client, table_id, token)
    final = play_http(client, table_id, {0: token}, random.Random(1))
    events = client.get(f"/api/tables/{table_id}/events").json()["events"]
    assert events[-1]["type"] == "closed"
    assert "R8.2" in events[-1]["reason"]
    assert final["status"] == "closed"


def two_people(client: TestClient, **body: object) -> tuple[str, dict[int, str]]:
    """A two-seat table of two people, dealt and cut: its id and the tokens by seat."""
    table_id, token = create(client, seats=2, bots=None, **body)
    _, other = join(client, table_id, "Bo")
    tokens = {0: token, 1: other}
    start(client, table_id, token)
    view = state(client, table_id, token)
    cutter = view["cutter"]
    response = client.post(
        f"/api/tables/{table_id}/cut", json={"id": "the-cut", "position": 10}, headers=auth(tokens[cutter])
    )
    assert response.status_code == 200, response.text
    return table_id, tokens


def act(
    client: TestClient, table_id: str, token: str | None, action: str, client_id: str = "x", **body: object
):  # type: ignore[no-untyped-def]
    return client.post(
        f"/api/tables/{table_id}/actions",
        json={"id": client_id, "action": action, **body},
        headers=auth(token),
    )


def test_repeated_action_id_is_answered_not_applied_twice(client: TestClient) -> None:
    table_id, tokens = two_people(client)
    view = state(client, table_id)
    mover = tokens[view["observation"]["current_seat"]]
    first = act(client, table_id, mover, "draw stock", "same-id")
    assert first.status_code == 200
    again = act(client, table_id, mover, "draw stock", "same-id")
    assert again.json() == first.json()
    after = state(client, table_id, mover)
    assert after["version"] == first.json()["version"]
    assert len(after["observation"]["hand"]) == 6


def test_r4_1_refusals_change_nothing(client: TestClient) -> None:
    table_id, tokens = two_people(client)
    view = state(client, table_id)
    mover = view["observation"]["current_seat"]
    version = view["version"]
    waiting = tokens[1 - mover]

    def refused(response, status: int, code: str) -> None:  # type: ignore[no-untyped-def]
        assert response.status_code == status, response.text
        assert response.json()["error"]["code"] == code
        assert state(client, table_id)["version"] == version

    refused(act(client, table_id, waiting, "draw stock"), 409, "not_your_turn")
    refused(act(client, table_id, tokens[mover], "draw stock", seat=1 - mover), 403, "forbidden")
    refused(act(client, table_id, "forged-token", "draw stock"), 401, "bad_token")
    refused(act(client, table_id, None, "draw stock"), 401, "bad_token")
    refused(act(client, table_id, tokens[mover], "jump"), 400, "bad_request")
    refused(act(client, table_id, tokens[mover], "draw stock", expected_version=version - 1), 409, "conflict")
    illegal = act(client, table_id, tokens[mover], "discard 2c")
    refused(illegal, 409, "illegal_action")
    assert illegal.json()["error"]["rule"] == "R4.2"
    bad_header = client.post(
        f"/api/tables/{table_id}/actions",
        json={"id": "x", "action": "draw stock"},
        headers={"Authorization": "Basic x"},
    )
    refused(bad_header, 401, "bad_token")
    malformed = client.post(
        f"/api/tables/{table_id}/actions",
        content=b"{not json",
        headers={**auth(tokens[mover]), "Content-Type": "application/json"},
    )
    refused(malformed, 422, "bad_request")
    too_long_id = act(client, table_id, tokens[mover], "draw stock", "x" * 65)
    refused(too_long_id, 422, "bad_request")
    oversized = client.post(
        f"/api/tables/{table_id}/chat", json={"id": "x", "text": "y" * 20_000}, headers=auth(tokens[mover])
    )
    refused(oversized, 413, "too_large")
    assert act(client, table_id, tokens[mover], "draw stock").status_code == 200


def test_r4_3_taken_card_may_not_be_discarded(client: TestClient) -> None:
    table_id, tokens = two_people(client, preset="gamerules")  # R2.7: the discard pile starts open
    view = state(client, table_id)
    mover = tokens[view["observation"]["current_seat"]]
    top = view["observation"]["discard_pile"][-1]
    assert act(client, table_id, mover, "draw discard", "a").status_code == 200
    version = state(client, table_id)["version"]
    response = act(client, table_id, mover, f"discard {top}", "b")
    assert response.status_code == 409
    assert response.json()["error"] == {
        "code": "illegal_action",
        "message": response.json()["error"]["message"],
        "rule": "R4.3",
    }
    assert "R4.3" in response.json()["error"]["message"]
    assert state(client, table_id)["version"] == version


def test_http_flood_is_rate_limited(db_url: str) -> None:
    app = create_app(db_url, limits=fast_limits(), settings=fast_settings(http_rate=0.001, http_burst=3))
    with TestClient(app) as client:
        table_id, token = create(client)
        statuses = [
            client.post(
                f"/api/tables/{table_id}/chat", json={"id": f"c{i}", "text": "hi"}, headers=auth(token)
            ).status_code
            for i in range(6)
        ]
        assert statuses.count(429) >= 3
        chat = state(client, table_id)["chat"]  # the token's own requests are spent
        assert len(chat) == statuses.count(200)


def test_chat_is_a_line_in_every_view(client: TestClient) -> None:
    table_id, token = create(client)
    response = client.post(
        f"/api/tables/{table_id}/chat", json={"id": "c1", "text": "  hello   all "}, headers=auth(token)
    )
    assert response.status_code == 200
    chat = state(client, table_id)["chat"]
    assert chat == [{"version": response.json()["version"], "seat": 0, "name": "Ana", "text": "hello all"}]


def test_r10_2_proof_and_replay_only_after_the_deal(client: TestClient) -> None:
    table_id, tokens = two_people(client)
    for path in ("proof", "replay"):
        response = client.get(f"/api/tables/{table_id}/deals/1/{path}")
        assert response.status_code == 409
        assert response.json()["error"]["code"] == "conflict"
    assert client.get(f"/api/tables/{table_id}/deals/9/proof").status_code == 404
    view = state(client, table_id)
    assert set(view["commitment"]) == {"sha256", "rebuilds"}
    final = play_http(client, table_id, tokens, random.Random(5))
    proof = client.get(f"/api/tables/{table_id}/deals/1/proof").json()
    assert proof["sha256"] == view["commitment"]["sha256"]
    assert proof["cut"] == 10
    assert proof["deck"] == proof["shuffled"][10:] + proof["shuffled"][:10]
    replay = client.get(f"/api/tables/{table_id}/deals/1/replay").json()
    record = Record.loads(client.get(f"/api/tables/{table_id}/record").text)
    assert len(replay["steps"]) == len(record.deals[0].actions) + 1
    first = replay["steps"][0]["state"]
    assert sum(len(hand) for hand in first["hands"]) == 10
    assert len(first["stock"]) == first["stock_size"]
    assert final["last_deal"]["proof_url"] == f"/api/tables/{table_id}/deals/1/proof"


def test_unknown_table_and_bad_ids(client: TestClient) -> None:
    response = client.get("/api/tables/nope/state")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    assert client.get("/api/tables/bad$id/state").status_code == 422


def test_bad_table_options_name_the_rule(client: TestClient) -> None:
    response = client.post("/api/tables", json={"player_name": "Ana", "seats": 6})
    assert response.status_code == 400
    assert response.json()["error"]["rule"] == "R2.1"
    response = client.post("/api/tables", json={"player_name": "Ana", "options": {"wild_colour": "purple"}})
    assert response.status_code == 400
    response = client.post("/api/tables", json={"player_name": "Ana", "bots": "ismcts:iterations=99999999"})
    assert response.status_code == 422  # only the listed bots (no expensive search on demand)


def test_pages_and_openapi(client: TestClient) -> None:
    assert "text/html" in client.get("/").headers["content-type"]
    table_id, _ = create(client)
    assert client.get(f"/t/{table_id}").status_code == 200
    assert client.get(f"/t/{table_id}/replay").status_code == 200
    for missing in ("/t/abc", "/t/abc/replay"):  # no such table: said once, 404
        response = client.get(missing)
        assert response.status_code == 404
        assert "No such table" in response.text
    assert client.head("/").status_code == 200
    assert client.get("/static/css/paiute.css").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    assert "/api/tables/{table_id}/actions" in paths
    assert client.get("/api/health").json()["ok"] is True


def test_seat_cookie_resumes_and_a_stale_one_only_spectates(client: TestClient) -> None:
    response = client.post("/api/tables", json={"player_name": "Ana", "seats": 2})
    table_id = response.json()["table"]["id"]
    assert client.get(f"/api/tables/{table_id}/state").json()["you"] == 0  # the cookie set on create
    client.cookies.set(f"paiute_seat_{table_id}", "stale")
    assert client.get(f"/api/tables/{table_id}/state").json()["you"] is None


def test_the_schema_lists_every_option_and_bot() -> None:
    from typing import get_args

    from paiute.rules import OPTIONS
    from paiute.server.api import BotSpec, OptionName
    from paiute.server.table import BOTS

    assert list(get_args(OptionName)) == [option.name for option in OPTIONS]
    assert get_args(BotSpec) == BOTS
