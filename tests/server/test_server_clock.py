"""The turn clock: on by default (30 s a turn and a 60 s bank per seat), set at creation, off
only for a private table; when it runs out the server plays the seat's turn (or cut)."""

from __future__ import annotations

from fastapi.testclient import TestClient
from server_helpers import create, fast_limits, fast_settings, join, start, state, wait_for

from paiute.rules import RuleSet
from paiute.server import create_app
from paiute.server.table import Draft, LiveTable, TableConfig

#: A seeded deal (paiute.server.deals) whose first turn does not end it, so that the second
#: seat's clock runs out in the first deal every time (a secure deal could end at once).
DEAL_SEED = 1


def test_expired_clock_cuts_and_plays_the_turn_with_a_timeout_event(db_url: str) -> None:
    settings = fast_settings(insecure_deal_seed=DEAL_SEED)
    with TestClient(create_app(db_url, limits=fast_limits(), settings=settings)) as client:
        table_id, token = create(client, seats=2, bots=None, turn_seconds=1, bank_seconds=0)
        _, other = join(client, table_id, "Bo")
        start(client, table_id, token)
        view = state(client, table_id, token)
        assert view["clock"]["seconds"] == 1
        assert view["clock"]["bank"] == 0
        assert view["clock"]["seat"] == view["cutter"]
        # Nobody moves: the clock cuts for the cutter (R2.4), then plays the first turn.
        wait_for(
            client,
            table_id,
            token,
            lambda v: v["status"] == "playing" and len(v["observation"]["history"]) >= 4,
        )
        events = client.get(
            f"/api/tables/{table_id}/events", headers={"Authorization": f"Bearer {other}"}
        ).json()
        # Neither seat is connected: each goes to the bot after its first timeout (left out here).
        shown = [e for e in events["events"] if e["type"] != "autoplay"]
        kinds = [(e["type"], e.get("by")) for e in shown]
        cut_at = kinds.index(("cut", "clock"))
        assert kinds[cut_at - 1] == ("timeout", None)
        turn_at = kinds.index(("timeout", None), cut_at + 1)
        played = kinds[turn_at + 1 : turn_at + 3]
        assert played == [("action", "clock"), ("action", "clock")]  # a draw and a discard (R4.2)
        timeout = shown[turn_at]
        assert "clock ran out" in timeout["text"]
        first = shown[turn_at + 1]
        assert first["seat"] == timeout["seat"]
        assert first["action"] in ("draw stock", "draw discard")


def test_a_table_has_a_clock_and_a_bank_by_default(db_url: str) -> None:
    with TestClient(create_app(db_url, settings=fast_settings())) as client:
        table_id, token = create(client, seats=2, bots=None)
        summary = state(client, table_id, token)["table"]
        assert (summary["turn_seconds"], summary["bank_seconds"]) == (30, 60)
        join(client, table_id, "Bo")
        start(client, table_id, token)
        view = state(client, table_id, token)
        clock = view["clock"]
        assert clock["seat"] == view["cutter"]
        assert clock["deadline"] == clock["turn_deadline"] + 60
        assert clock["bank"] == 60


def test_no_clock_only_for_a_private_table(db_url: str) -> None:
    with TestClient(create_app(db_url, settings=fast_settings())) as client:
        body = {"player_name": "Ana", "seats": 2, "turn_seconds": None}
        refused = client.post("/api/tables", json=body)
        assert refused.status_code == 400
        assert "private" in refused.json()["error"]["message"]
        made = client.post("/api/tables", json={**body, "private": True})
        assert made.status_code == 201, made.text
        assert made.json()["table"]["turn_seconds"] is None
        assert made.json()["table"]["bank_seconds"] == 0
        chosen = client.post("/api/tables", json={**body, "turn_seconds": 45, "bank_seconds": 5})
        assert (chosen.json()["table"]["turn_seconds"], chosen.json()["table"]["bank_seconds"]) == (45, 5)


def clocked_table(bank: int) -> LiveTable:
    table = LiveTable(
        "t", TableConfig("t", RuleSet.from_preset("pagat"), 2, 100, turn_seconds=10, bank_seconds=bank)
    )
    table.apply(table.number([Draft("joined", 0, {"name": "Ana"}, {"token": "a"})], 0.0)[0])
    table.apply(table.number([Draft("joined", 1, {"name": "Bo"}, {"token": "b"})], 0.0)[0])
    for event in table.number(table.plan_start(0), 100.0):
        table.apply(event)
    return table


def test_a_slow_cut_spends_the_time_bank_from_the_stored_times() -> None:
    """The bank is spent from the events' stored times, so a replay gives the same banks."""
    table = clocked_table(bank=20)
    cutter = table.cutter
    assert cutter is not None
    assert table.deadline() == 100.0 + 10 + 20
    for event in table.number(table.plan_cut(cutter, 3, "player"), 125.0):  # 15 s over the turn
        table.apply(event)
    assert table.banks[cutter] == 5.0
    assert table.banks[1 - cutter] == 20.0
    replayed = LiveTable("t", table.config)
    for event in table.events:
        replayed.apply(event)
    assert replayed.banks == table.banks


def test_a_timeout_empties_the_bank_and_an_absent_seat_goes_to_the_bot() -> None:
    from paiute.players import make_player

    table = clocked_table(bank=20)
    cutter = table.cutter
    assert cutter is not None
    drafts = table.plan_timeout(cutter, make_player("greedy"), connected=False)
    assert [d.type for d in drafts] == ["timeout", "autoplay", "cut", "deal"]
    for event in table.number(drafts, 131.0):
        table.apply(event)
    assert table.banks[cutter] == 0.0
    assert table.autoplay == {cutter: "clock"}
    assert table.bot_plays(cutter)
