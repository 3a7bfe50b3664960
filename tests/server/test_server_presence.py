"""No table waits for ever: presence is pushed, an absent seat gets a grace period the table
is told about, then the bot plays it until its player comes back; the host may hand an
absent seat to the bot; leaving during a match hands the seat to the bot.

Against a real ``paiute serve`` on 127.0.0.1 (a one-second grace period), over WebSockets.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from live_helpers import Seat, call, new_table, serve, sit
from server_helpers import ServerProcess

GRACE = 1.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with serve(tmp_path_factory.mktemp("presence"), away_grace=GRACE) as running:
        yield running


def two_seats(server: ServerProcess) -> tuple[str, dict[int, str]]:
    table_id, ana = new_table(server)
    seat, bo = sit(server, table_id, "Bo")
    assert seat == 1
    return table_id, {0: ana, 1: bo}


def test_presence_is_pushed_when_a_seat_connects_and_goes(server: ServerProcess) -> None:
    async def scenario() -> None:
        table_id, tokens = two_seats(server)
        ana = await Seat(server, table_id, tokens[0]).open()
        bo = await Seat(server, table_id, tokens[1]).open()
        await ana.until(lambda: any(p["connected"] == [0, 1] for p in ana.presences()))
        await bo.close()
        # Waiting for players: nobody's turn stalls, so no grace period, only the news.
        last = await ana.until(lambda: [p for p in ana.presences() if p["connected"] == [0]])
        assert last[-1]["away"] == []
        await ana.close()

    asyncio.run(scenario())


def test_r4_1_an_absent_seat_is_played_by_the_bot_after_the_grace_and_taken_back(
    server: ServerProcess,
) -> None:
    """The whole cycle: Bo goes mid-match, the table is told the deadline, the bot plays for
    Bo (marked in every view), Bo comes back, takes the seat back and plays on."""

    async def scenario() -> None:
        rng = random.Random(7)
        table_id, tokens = two_seats(server)
        ana = await Seat(server, table_id, tokens[0]).open()
        bo = await Seat(server, table_id, tokens[1]).open()
        watcher = await Seat(server, table_id, None).open()
        assert (await ana.send({"type": "start"}))["type"] == "ack"
        await ana.until(lambda: ana.view["status"] == "cut")
        went = time.time()
        await bo.close()
        frame = await ana.until(lambda: next((p for p in ana.presences() if p["away"]), None))
        (away,) = frame["away"]
        assert away["seat"] == 1
        assert went + GRACE - 0.05 <= away["deadline"] <= time.time() + GRACE + 0.05
        assert ana.view["table"]["players"][1]["connected"] is False
        # The bot takes the seat once the grace has run out...
        await ana.until(lambda: ana.events("autoplay"))
        (handed,) = ana.events("autoplay")
        assert (handed["seat"], handed["reason"]) == (1, "away")
        assert time.time() >= went + GRACE
        for viewer in (ana, watcher):
            await viewer.until(lambda v=viewer: v.view["table"]["players"][1]["autoplay"] == "away")

        # ...and plays Bo's moves (the cut, or its turns) while Ana plays hers.
        def bot_played() -> bool:
            return any(
                e["seat"] == 1 and e.get("by") == "bot"
                for kind in ("cut", "action")
                for e in ana.events(kind)
            )

        for _ in range(200):
            await ana.until(lambda: bot_played() or ana.my_move())
            if bot_played():
                break
            await ana.play(rng)
        else:
            raise AssertionError("the bot never played for the absent seat")
        # Bo comes back: the seat is Bo's again, and Bo plays on.
        back = await Seat(server, table_id, tokens[1]).open()
        await back.until(lambda: back.events("returned"))
        await back.until(lambda: back.view["table"]["players"][1]["autoplay"] is None)
        for _ in range(200):
            await back.until(lambda: back.my_move() or ana.my_move())
            if back.my_move():
                answer = await back.play(rng)
                assert answer["type"] == "ack", answer
                break
            await ana.play(rng)
        else:
            raise AssertionError("Bo never got a move back")
        for seat in (ana, back, watcher):
            await seat.close()

    asyncio.run(scenario())


def test_r2_4_an_absent_cutter_does_not_stall_the_deal(server: ServerProcess) -> None:
    """R2.4: the cutter goes before cutting; after the grace the cut is made for them."""

    async def scenario() -> None:
        table_id, tokens = two_seats(server)
        ana = await Seat(server, table_id, tokens[0]).open()
        bo = await Seat(server, table_id, tokens[1]).open()
        await ana.send({"type": "start"})
        await ana.until(lambda: ana.view["status"] == "cut")
        cutter = ana.view["cutter"]
        gone = {0: ana, 1: bo}[cutter]
        stays = {0: bo, 1: ana}[cutter]
        await gone.close()
        await stays.until(lambda: stays.view["status"] == "playing")
        (cut,) = stays.events("cut")
        assert (cut["seat"], cut["by"]) == (cutter, "bot")
        await stays.close()

    asyncio.run(scenario())


def test_the_host_hands_an_absent_seat_to_the_bot(server: ServerProcess) -> None:
    async def scenario() -> None:
        table_id, tokens = two_seats(server)
        ana = await Seat(server, table_id, tokens[0]).open()
        bo = await Seat(server, table_id, tokens[1]).open()
        await ana.send({"type": "start"})
        # Bo is here: neither Bo nor the host may hand Bo's seat over.
        refused = await ana.send({"type": "hand_to_bot", "target": 1})
        assert refused["error"]["code"] == "conflict"
        not_host = await bo.send({"type": "hand_to_bot", "target": 0})
        assert not_host["error"]["code"] in ("conflict", "forbidden")
        await bo.close()
        await ana.until(lambda: any(p["away"] for p in ana.presences()))
        # Over HTTP, before the grace runs out (it may already have: then it is a conflict).
        answer = call(server, "POST", f"/api/tables/{table_id}/seats/1/bot", tokens[0], json={"id": "h1"})
        assert answer.status_code in (200, 409), answer.text
        await ana.until(lambda: ana.view["table"]["players"][1]["autoplay"] in ("host", "away"))
        other = call(server, "POST", f"/api/tables/{table_id}/seats/1/bot", tokens[1], json={"id": "h2"})
        assert other.status_code in (403, 409)
        await ana.close()

    asyncio.run(scenario())


def test_leaving_during_the_match_hands_the_seat_to_the_bot(server: ServerProcess) -> None:
    """/leave mid-match is not refused for ever: the bot plays the seat; its player may take
    it back with /return; once every person has left, the match ends."""

    async def scenario() -> None:
        table_id, tokens = two_seats(server)
        ana = await Seat(server, table_id, tokens[0]).open()
        await ana.send({"type": "start"})
        left = call(server, "POST", f"/api/tables/{table_id}/leave", tokens[1], json={"id": "bye"})
        assert left.status_code == 200, left.text
        await ana.until(lambda: ana.view["table"]["players"][1]["autoplay"] == "left")
        again = call(server, "POST", f"/api/tables/{table_id}/leave", tokens[1], json={"id": "bye2"})
        assert again.status_code == 409
        back = call(server, "POST", f"/api/tables/{table_id}/return", tokens[1], json={"id": "back"})
        assert back.status_code == 200, back.text
        await ana.until(lambda: ana.view["table"]["players"][1]["autoplay"] is None)
        for token, ident in ((tokens[1], "x1"), (tokens[0], "x2")):
            answer = call(server, "POST", f"/api/tables/{table_id}/leave", token, json={"id": ident})
            assert answer.status_code == 200, answer.text
        await ana.until(lambda: ana.view["status"] == "closed")
        assert ana.events("closed")[-1]["reason"] == "every player has left"
        await ana.close()

    asyncio.run(scenario())


def test_a_seat_whose_clock_runs_out_with_no_connection_goes_to_the_bot(tmp_path: Path) -> None:
    """A player who never connects: the clock plays the first turn (or cut), then the bot
    plays the seat, so the table does not wait out the clock on every turn."""

    async def scenario(server: ServerProcess) -> None:
        table_id, ana_token = new_table(server, turn_seconds=1, bank_seconds=0)
        sit(server, table_id, "Bo")  # who never connects
        ana = await Seat(server, table_id, ana_token).open()
        await ana.send({"type": "start"})
        await ana.until(lambda: ana.events("autoplay"), seconds=30)
        (handed,) = ana.events("autoplay")
        assert (handed["seat"], handed["reason"]) == (1, "clock")
        assert any(e["seat"] == 1 for e in ana.events("timeout"))
        await ana.close()

    with serve(tmp_path, away_grace=600) as server:
        asyncio.run(scenario(server))
