"""The fast paths of the fan-out: update frames encoded once, and the group commit.

``updates.Updates`` builds each ``update`` frame from the parts of ``view_for`` and keeps each
seat's history as JSON text; every frame must decode to exactly what ``event_for`` and
``view_for`` give (R9: one builder), and a View rebuilt from the patch frames must be
``view_for``'s. ``Store.append_many`` commits several tables' changes in
one transaction; a change that cannot be stored must fail alone.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from paiute.actions import Action
from paiute.rules import RuleSet
from paiute.server import patch, views
from paiute.server.db import DatabaseError, Store
from paiute.server.deals import SeededDeals
from paiute.server.migrate import upgrade
from paiute.server.table import Draft, LiveTable, TableConfig, TableEvent
from paiute.server.updates import Updates
from paiute.server.writer import Writer

SEATS = 3
#: Actions after which a test deal stops (R4.7: a deal need not end by itself).
ACTION_LIMIT = 400


def _apply(table: LiveTable, drafts: list[Draft]) -> list[TableEvent]:
    events = table.number(drafts, 1.0)
    for item in events:
        table.apply(item)
    return events


def _play(table: LiveTable, rng: random.Random, commit: Callable[[list[Draft]], None]) -> None:
    """Join, start and play ``table`` to its end (or ACTION_LIMIT actions into a deal)."""
    for seat in range(SEATS):
        commit(table.plan_join(f"p{seat}", seat, f"hash{seat}", None))
    commit(table.plan_start(0))
    while table.status != "closed":
        if table.status == "cut":
            cutter = table.cutter
            assert cutter is not None
            commit(table.plan_cut(cutter, rng.randrange(52), "player"))
            commit(table.plan_chat(cutter, "good luck"))
        elif table.status == "deal_over":
            commit(table.plan_next())
        else:
            deal = table.deal
            assert deal is not None
            legal = deal.legal_actions()
            calls = [action for action in legal if action.kind.is_call]
            if len(deal.actions) > ACTION_LIMIT and not calls:
                break  # R4.7: a deal that goes on forever; enough was checked
            action = calls[0] if calls and len(deal.actions) > 30 else rng.choice(legal)
            commit(table.plan_action(deal.current_seat, Action.parse(str(action)), "player"))


def _table() -> LiveTable:
    config = TableConfig(name="t", rules=RuleSet.from_preset("pagat"), seats=SEATS, chips=100, max_deals=2)
    # Seeded deals (tests only): how many versions the two deals run to, and so how many
    # patches each viewer gets, is then the same on every run (a secure deal ended early now
    # and then, and fewer than 50 patches reached a seat).
    return LiveTable("T1", config, 0.0, deals=SeededDeals(11))


def test_update_frames_decode_to_event_for_and_view_for() -> None:
    """Every whole-View frame, for every seat and a spectator, at every version of two deals (R9)."""
    table = _table()
    updates = Updates()
    presence = views.Presence(frozenset({0, 2}), 1)
    seats: list[int | None] = [0, 1, 2, None, 1]
    checked = 0

    def commit(drafts: list[Draft]) -> None:
        nonlocal checked
        for item in _apply(table, drafts):
            texts = updates.texts(table, item, [(seat, False) for seat in seats], presence)
            assert set(texts) == {(seat, False) for seat in seats}
            for (seat, _), text in texts.items():
                expected = {
                    "type": "update",
                    "version": item.version,
                    "event": views.event_for(table, item, seat),
                    "state": views.view_for(table, seat, presence),
                }
                assert json.loads(text) == expected
                checked += 1

    _play(table, random.Random(7), commit)
    assert checked > 100


def _merge_presence(view: dict[str, Any], frame: dict[str, Any]) -> None:
    """What a client does with a ``presence`` frame (the page's ``onPresence``)."""
    away = {item["seat"]: item["deadline"] for item in frame["away"]}
    for player in view["table"]["players"]:
        player["connected"] = player["seat"] in frame["connected"]
        player["away_until"] = away.get(player["seat"])
    view["table"]["spectators"] = frame["spectators"]


def test_views_rebuilt_from_patches_are_view_for() -> None:
    """R9 and the patch protocol: a client that applies every ``update``'s patch (and merges
    the presence frames) holds exactly ``view_for`` of its seat at every version, for every
    seat and a spectator, over two whole deals, with connections that come late, go and come
    back; a seat whose last update was not made is sent the whole View. A patch is made only
    of the seat's own Views, so it never holds what its View would not."""
    rng = random.Random(11)
    table = _table()
    updates = Updates()
    presence = views.Presence(frozenset({0}), 0)
    clients: dict[int | None, dict[str, Any]] = {}  # each viewer's View, rebuilt from its frames
    patched: dict[int | None, int] = dict.fromkeys([0, 1, 2, None], 0)
    whole = 0
    sizes: list[tuple[int, int]] = []  # (patch frame, whole-View frame) bytes

    def connect(seat: int | None) -> None:
        view = views.view_for(table, seat, presence)
        updates.welcomed(table, seat, view)
        clients[seat] = json.loads(views.dumps(view))

    def commit(drafts: list[Draft]) -> None:
        nonlocal presence, whole
        for item in table.number(drafts, 1.0):
            # Connections come and go between two versions (before ``item`` is applied).
            if item.version == 3:
                connect(0)  # the first connections come one by one, with presence between
            elif item.version == 5:
                connect(None)
            elif item.version == 9:
                connect(1)
                connect(2)
            elif item.version == 40:
                del clients[2]  # seat 2 goes for a while (its base gets stale)...
            elif item.version == 60:
                connect(2)  # ...and comes back
            if item.version % 7 == 0:  # someone comes or goes: a presence frame to everyone
                seats = frozenset(seat for seat in range(SEATS) if rng.random() < 0.6)
                away = ((1, 1000.0 + item.version),) if 1 not in seats else ()
                presence = views.Presence(seats, rng.randrange(3), away)
                frame = presence.frame()
                updates.presence(frame)
                for view in clients.values():
                    _merge_presence(view, frame)
            table.apply(item)
            # At version 70 seat 0's update is not made (as if its connections had missed it):
            # its next one is the whole View.
            keys = [(seat, True) for seat in clients if (seat, item.version) != (0, 70)]
            if item.version == 80:
                keys.append((1, False))  # a connection of seat 1 that wants whole Views
            texts = updates.texts(table, item, keys, presence)
            assert set(texts) == set(keys)
            for seat, view in list(clients.items()):
                if (seat, True) not in keys:
                    continue
                message = json.loads(texts[(seat, True)])
                assert message["event"] == views.event_for(table, item, seat)
                expected = views.view_for(table, seat, presence)
                if "patch" in message:
                    for op in message["patch"]:  # only the seat's own View's values (R9)
                        assert op["op"] in ("add", "replace", "remove")
                    clients[seat] = patch.apply(view, message["patch"])
                    patched[seat] += 1
                    sizes.append((len(texts[(seat, True)]), len(views.dumps(expected))))
                else:
                    clients[seat] = message["state"]
                    whole += 1
                assert clients[seat] == expected, f"seat {seat} at version {item.version}"
            if (1, False) in texts:
                assert json.loads(texts[(1, False)])["state"] == views.view_for(table, 1, presence)

    _play(table, rng, commit)
    assert min(patched.values()) > 50, patched
    assert whole == 1  # seat 0's, after the one it missed
    patch_bytes = sum(size for size, _ in sizes)
    view_bytes = sum(size for _, size in sizes)
    assert patch_bytes * 4 < view_bytes  # the point of patches: far less to encode and send


def test_patch_round_trip_and_refusals() -> None:
    """``patch.diff`` then ``patch.apply`` gives the new document; a patch that does not fit
    its document is refused with PatchError (a client then asks for the whole View)."""
    same = {"h": 1, "i": 2, "j": 3}
    old = {"a": [1, 2, 3], "b": {"c": "x", "d/e": 1, "f~": 2, **same}, "chat": [1, 2, 3], "pile": [1, 2, 3]}
    new = {"a": [1, 2, 3, 4, 5], "b": {"c": "y", "d/e": 1, "g": None, **same}, "chat": [2, 3, 4], "pile": [1]}
    new["k"] = {"x": 1, "y": 2}
    old["k"] = {"x": 2, "y": 3}
    ops = patch.diff(old, new)
    assert {"op": "add", "path": "/a/-", "value": 4} in ops
    assert {"op": "remove", "path": "/b/f~0"} in ops
    assert {"op": "remove", "path": "/chat/0"} in ops
    assert {"op": "replace", "path": "/k", "value": {"x": 1, "y": 2}} in ops  # mostly changed: whole
    assert patch.apply(json.loads(json.dumps(old)), ops) == new
    assert patch.diff(new, new) == []
    assert patch.pointer("b", "d/e") == "/b/d~1e"
    assert patch.apply({"x": 1}, [{"op": "replace", "path": "", "value": [1]}]) == [1]
    for bad in (
        [{"op": "replace", "path": "/missing", "value": 1}],
        [{"op": "add", "path": "/a/9", "value": 1}],
        [{"op": "move", "path": "/a", "from": "/b"}],
        [{"op": "remove", "path": "/a/01"}],
        [{"op": "add", "path": "/a/0/x", "value": 1}],
        [{"op": "replace", "path": "/a"}],
        ["not an operation"],
        {"op": "replace"},
    ):
        with pytest.raises(patch.PatchError):
            patch.apply(json.loads(json.dumps(old)), bad)  # type: ignore[arg-type]


def _store(tmp_path: Path) -> Store:
    store = Store(f"sqlite:///{tmp_path / 'group.db'}")
    upgrade(store)
    return store


def _new_table(store: Store, table_id: str) -> None:
    store.create(table_id, {"name": table_id}, False, 0.0, [TableEvent(1, "chat", 0, {}, {}, 0.0)])


def test_group_commit_stores_every_change_and_a_conflict_fails_alone(tmp_path: Path) -> None:
    store = _store(tmp_path)
    for table_id in ("a", "b", "c"):
        _new_table(store, table_id)
    good_a = ("a", [TableEvent(2, "chat", 0, {"text": "x"}, {}, 1.0)], "waiting")
    stale_b = ("b", [TableEvent(1, "chat", 0, {"text": "y"}, {}, 1.0)], "waiting")  # version 1 exists
    good_c = ("c", [TableEvent(2, "chat", 0, {}, {}, 1.0), TableEvent(3, "chat", 0, {}, {}, 1.0)], "cut")
    errors = store.append_many([good_a, stale_b, good_c])
    assert errors[0] is None
    assert errors[2] is None
    assert isinstance(errors[1], DatabaseError)
    assert [item.version for item in store.events_after("a", 0)] == [1, 2]
    assert [item.version for item in store.events_after("b", 0)] == [1]
    assert [item.version for item in store.events_after("c", 0)] == [1, 2, 3]
    store.dispose()


def test_writer_answers_each_change_once_committed(tmp_path: Path) -> None:
    store = _store(tmp_path)
    ids = [f"t{n}" for n in range(20)]
    for table_id in ids:
        _new_table(store, table_id)

    async def main() -> None:
        writer = Writer(store)
        try:
            changes = [
                writer.append(table_id, [TableEvent(2, "chat", 0, {}, {}, 1.0)], "waiting")
                for table_id in ids
            ]
            await asyncio.gather(*changes)
            with pytest.raises(DatabaseError):  # version 2 is taken now
                await writer.append(ids[0], [TableEvent(2, "chat", 0, {}, {}, 1.0)], "waiting")
        finally:
            writer.close()

    asyncio.run(main())
    for table_id in ids:
        assert [item.version for item in store.events_after(table_id, 0)] == [1, 2]
    store.dispose()
