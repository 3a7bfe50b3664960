"""The lobby and the end of a match: filters and pages, "play now" against bots of a level,
and the rematch. Against a real ``paiute serve`` on 127.0.0.1."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator

import pytest
from live_helpers import Seat, call, new_table, serve, sit
from server_helpers import ServerProcess

from paiute.players import DEFAULT_LEVEL, LEVELS
from paiute.server.api import Level


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with serve(tmp_path_factory.mktemp("lobby")) as running:
        yield running


def test_the_levels_offered_are_the_players_levels(server: ServerProcess) -> None:
    presets = call(server, "GET", "/api/presets").json()
    assert presets["levels"] == list(LEVELS) == list(Level.__args__)
    assert presets["default_level"] == DEFAULT_LEVEL == "medium"


def test_the_lobby_filters_and_pages(server: ServerProcess) -> None:
    made = []
    for index in range(5):
        table_id, _ = new_table(server, name=f"filter {index}", stake=7 if index % 2 else 3, preset="pagat")
        made.append(table_id)
    full_id, _ = new_table(server, name="full", stake=7)
    sit(server, full_id, "Bo")  # both seats taken: not "open"
    gamerules_id, _ = new_table(server, name="gr", stake=7, preset="gamerules")

    def listed(**params: object) -> dict[str, object]:
        response = call(server, "GET", "/api/tables", params=params)
        assert response.status_code == 200, response.text
        data: dict[str, object] = response.json()
        return data

    seven = listed(stake=7, preset="pagat", per_page=50)
    ids = [table["id"] for table in seven["tables"]]  # type: ignore[attr-defined]
    assert set(ids) >= {made[1], made[3], full_id}
    assert made[0] not in ids
    assert gamerules_id not in ids
    open_seven = listed(stake=7, preset="pagat", open=True, per_page=50)
    open_ids = [table["id"] for table in open_seven["tables"]]  # type: ignore[attr-defined]
    assert full_id not in open_ids
    assert made[1] in open_ids
    # Pages of two, newest first, covering every table once.
    total = listed(stake=7, per_page=2)["total"]
    assert isinstance(total, int)
    assert total >= 4
    paged = []
    for page in range(1, (total + 1) // 2 + 1):
        answer = listed(stake=7, per_page=2, page=page)
        assert answer["page"] == page
        assert answer["per_page"] == 2
        paged += [table["id"] for table in answer["tables"]]  # type: ignore[attr-defined]
    assert len(paged) == total == len(set(paged))
    assert paged.index(gamerules_id) < paged.index(made[1])  # newer first
    assert call(server, "GET", "/api/tables", params={"per_page": 51}).status_code == 422
    assert call(server, "GET", "/api/tables", params={"page": 0}).status_code == 422


def test_play_now_starts_a_private_match_against_bots_of_the_level(server: ServerProcess) -> None:
    answer = call(server, "POST", "/api/play", json={"player_name": "Solo", "level": "easy"})
    assert answer.status_code == 201, answer.text
    data = answer.json()
    table = data["table"]
    assert table["private"] is True
    assert table["bots"] == "easy"
    assert table["status"] == "playing"
    assert [p["bot"] for p in table["players"]] == [None, "easy", "easy"]
    assert data["seat"] == 0
    listed = call(server, "GET", "/api/tables", params={"per_page": 50}).json()
    assert table["id"] not in [t["id"] for t in listed["tables"]]
    default = call(server, "POST", "/api/play", json={"player_name": "Solo"}).json()
    assert default["table"]["bots"] == DEFAULT_LEVEL
    bad = call(server, "POST", "/api/play", json={"player_name": "Solo", "level": "ismcts:ms=9999"})
    assert bad.status_code == 422


def test_a_rematch_seats_those_who_accept_at_a_new_table_with_the_same_settings(
    server: ServerProcess,
) -> None:
    async def scenario() -> None:
        rng = random.Random(3)
        table_id, ana_token = new_table(
            server, seats=3, bots="random", max_deals=1, stake=2, name="Friday", options={"max_rebuilds": 1}
        )
        _, bo_token = sit(server, table_id, "Bo")
        early = call(server, "POST", f"/api/tables/{table_id}/rematch", ana_token)
        assert early.status_code == 409  # not before the match is over
        ana = await Seat(server, table_id, ana_token).open()
        bo = await Seat(server, table_id, bo_token).open()
        await ana.send({"type": "start"})
        for _ in range(2000):
            await ana.until(lambda: ana.view["status"] == "closed" or ana.my_move() or bo.my_move())
            if ana.view["status"] == "closed":
                break
            for seat in (ana, bo):
                if seat.my_move():
                    legal = seat.view.get("observation", {}) or {}
                    calls = [a for a in legal.get("legal_actions", []) if a.startswith("call")]
                    if calls and seat.view["status"] == "playing":
                        await seat.send({"type": "action", "action": calls[0]})
                    else:
                        await seat.play(rng)
        assert ana.view["status"] == "closed"
        first = call(server, "POST", f"/api/tables/{table_id}/rematch", bo_token)
        assert first.status_code == 200, first.text
        made = first.json()
        new_id = made["table"]["id"]
        assert new_id != table_id
        assert made["seat"] == 1
        await ana.until(lambda: ana.view["table"]["rematch"] == new_id)
        assert ana.events("rematch")[0]["table"] == new_id
        second = call(server, "POST", f"/api/tables/{table_id}/rematch", ana_token).json()
        assert (second["table"]["id"], second["seat"]) == (new_id, 0)
        new = call(server, "GET", f"/api/tables/{new_id}/state", made["token"]).json()
        assert new["you"] == 1
        assert new["status"] == "waiting"
        names = [p["name"] for p in new["table"]["players"]]
        assert names == ["Ana", "Bo", None]  # the bot's seat is open again (bots fill it at the start)
        old = call(server, "GET", f"/api/tables/{table_id}/state").json()["table"]
        for key in ("seats", "stake", "bots", "max_deals", "turn_seconds", "bank_seconds", "rules", "name"):
            assert new["table"][key] == old[key], key
        assert call(server, "POST", f"/api/tables/{table_id}/rematch").status_code == 401
        await ana.close()
        await bo.close()

    asyncio.run(scenario())
