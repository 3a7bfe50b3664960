"""The fast paths of the fan-out: update frames encoded once, and the group commit.

``views.Updates`` builds each ``update`` frame from the parts of ``view_for`` and keeps each
seat's history as JSON text; every frame must decode to exactly what ``event_for`` and
``view_for`` give (R9: one builder). ``Store.append_many`` commits several tables' changes in
one transaction; a change that cannot be stored must fail alone.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest

from paiute.actions import Action
from paiute.rules import RuleSet
from paiute.server import views
from paiute.server.db import DatabaseError, Store
from paiute.server.migrate import upgrade
from paiute.server.table import Draft, Table, TableConfig, TableEvent
from paiute.server.writer import Writer

SEATS = 3
#: Actions after which a test deal stops (R4.7: a deal need not end by itself).
ACTION_LIMIT = 400


def _apply(table: Table, drafts: list[Draft]) -> list[TableEvent]:
    events = table.number(drafts, 1.0)
    for item in events:
        table.apply(item)
    return events


def test_update_frames_decode_to_event_for_and_view_for() -> None:
    """Every frame, for every seat and a spectator, at every version of two deals (R9)."""
    rng = random.Random(7)
    config = TableConfig(name="t", rules=RuleSet.from_preset("pagat"), seats=SEATS, chips=100, max_deals=2)
    table = Table("T1", config, 0.0)
    updates = views.Updates()
    presence = views.Presence(frozenset({0, 2}), 1)
    seats: list[int | None] = [0, 1, 2, None, 1]
    checked = 0

    def commit(drafts: list[Draft]) -> None:
        nonlocal checked
        for item in _apply(table, drafts):
            texts = updates.texts(table, item, seats, presence)
            assert set(texts) == set(seats)
            for seat, text in texts.items():
                expected = {
                    "type": "update",
                    "version": item.version,
                    "event": views.event_for(table, item, seat),
                    "state": views.view_for(table, seat, presence),
                }
                assert json.loads(text) == expected
                checked += 1

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
    assert checked > 100


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
