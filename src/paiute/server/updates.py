"""The ``update`` frames of a table: the whole View, or a patch of it, built once per seat.

After each event every connection to the table is sent one ``update`` (docs/web-protocol.md).
A connection that asked for patches (``"patches": true`` in ``hello``; the page does) gets the
event and an RFC 6902 patch from the View it last had to the new one
(:mod:`paiute.server.patch`); any other gets the whole View. Both are built here from
:func:`~paiute.server.views.view_for`'s parts, so they hold exactly what that seat may see
(R9), and each is encoded once per seat and version, whatever the number of its connections:

* the part shared by every seat is built once an update, and so is its patch;
* each seat's history, which grows with every action, is kept as JSON text per seat and deal
  (full Views) and is patched by appending only its new entries.

The base of a seat's patches is the View of the last update (or the ``welcome``), with the
``presence`` frames sent since merged into it (:meth:`Updates.presence`: the same merge a
client makes, ``connected``, ``away_until`` and ``spectators`` of ``table``). A seat whose
base is not at the version just before (no connection of it saw the last update) gets the
whole View (``"state"``) instead, which a patching client also accepts. Tests check that every
frame decodes to ``event_for`` and ``view_for``, and that the Views rebuilt from patches are
``view_for``'s.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from paiute.deal import Deal
from paiute.observation import Observation, history_entry_json
from paiute.server.patch import diff
from paiute.server.table import LiveTable, TableEvent
from paiute.server.views import (
    OWN_KEYS,
    Presence,
    SeenMemo,
    dumps,
    event_for,
    last_action,
    own_part,
    shared_part,
)

__all__ = ["Key", "Updates"]

#: A connection's seat (None: a spectator) and whether it takes patches.
Key = tuple[int | None, bool]

#: The keys of an observation that every viewer of a deal sees alike (R4.5, R9.1: public).
#: Their operations are made once an update and go to each viewer whose values before and
#: after are those of the viewer they were made for (compared, never assumed).
_PUBLIC = (
    "rules",
    "players",
    "dealer",
    "current_seat",
    "phase",
    "balances",
    "pot",
    "upcard",
    "initial_discard",
    "wild_cards",
    "stock_size",
    "stock_bottom",
    "rebuilds",
    "discard_pile",
    "hand_sizes",
    "known_cards",
    "taken_card",
    "calls",
    "highest_call",
    "outcome",
)
_PUBLIC_KEYS = frozenset(_PUBLIC)
_public_values = operator.itemgetter(*_PUBLIC)


@dataclass(slots=True)
class _History:
    """The JSON text of a seat's history in one deal, extended as the deal goes on."""

    count: int = 0
    text: str = ""


@dataclass(slots=True)
class _Base:
    """What a seat's connections were last sent (at ``version``): the base of its next patch."""

    version: int
    own: dict[str, Any]  # own_part
    observation: dict[str, Any] | None  # to_json(history=False)
    history: int  # entries of the observation's history
    deal: Deal | None  # the deal of that observation


@dataclass(slots=True)
class _Shared:
    version: int
    view: dict[str, Any]  # shared_part, presence frames merged


class Updates:
    """The ``update`` frames of one table (see the module's docstring)."""

    __slots__ = ("_bases", "_deal", "_history", "_public", "_seen", "_shared")

    def __init__(self) -> None:
        self._history: dict[int | None, _History] = {}
        self._seen: SeenMemo = {}
        self._deal: Deal | None = None
        self._shared: _Shared | None = None
        self._bases: dict[int | None, _Base] = {}
        # This update's operations on the public keys: (values before, values after), text.
        self._public: tuple[tuple[Any, Any], str] | None = None

    def texts(
        self, table: LiveTable, item: TableEvent, keys: Iterable[Key], presence: Presence
    ) -> dict[Key, str]:
        """The ``update`` message of ``item`` (just applied) for each of ``keys``, as JSON text."""
        deal = table.deal
        if deal is not self._deal:  # a new deal (or a table read back): no text carries over
            self._deal = deal
            self._history.clear()
            self._seen.clear()
        version = item.version
        wanted: dict[int | None, set[bool]] = {}
        for seat, patches in keys:
            wanted.setdefault(seat, set()).add(patches)
        shared = shared_part(table, presence)
        before = self._shared
        self._shared = _Shared(version, shared)
        shared_text = ""  # encoded when a whole View goes
        shared_ops: str | None = None  # None: no patch (the whole View goes)
        if before is not None and before.version == version - 1 and any(True in m for m in wanted.values()):
            shared_ops = dumps(diff(before.view, shared))[1:-1]
        texts: dict[Key, str] = {}
        self._public = None
        # Only an action looks different from one seat to another (R4.5: a stock draw's card).
        same_event = None if item.type == "action" else dumps(event_for(table, item, None))
        for seat, modes in wanted.items():
            if same_event is None:
                seen = event_for(table, item, seat)
                self._seen[(version, seat)] = last_action(seen)  # own_part's last_actions use it
                event = dumps(seen)
            else:
                event = same_event
            observation = None if deal is None else deal.observation(seat)
            own = own_part(table, seat, deal, observation, self._seen)
            head = None if observation is None else observation.to_json(history=False)
            base = self._bases.get(seat)
            count = 0 if observation is None else len(observation.history)
            self._bases[seat] = _Base(version, own, head, count, deal)
            prefix = f'{{"type":"update","version":{version},"event":{event},'
            patchable = shared_ops is not None and base is not None and base.version == version - 1
            full = ""
            if False in modes or not patchable:
                shared_text = shared_text or dumps(shared)[:-1]
                observed = (
                    "null" if observation is None or head is None else self._observation(observation, head)
                )
                state = f'{shared_text},"observation":{observed},{dumps(own)[1:]}'
                full = f'{prefix}"state":{state}}}'
            if False in modes:
                texts[(seat, False)] = full
            if True in modes:
                if not patchable or base is None or shared_ops is None:
                    texts[(seat, True)] = full  # no base to patch: the whole View
                    continue
                own_ops = self._patch(base, own, observation, head, deal)
                joined = ",".join(part for part in (shared_ops, own_ops) if part)
                texts[(seat, True)] = f'{prefix}"patch":[{joined}]}}'
        return texts

    def welcomed(self, table: LiveTable, seat: int | None, view: dict[str, Any]) -> None:
        """A connection of ``seat`` was just sent ``view`` (the table's View now): the base of
        its patches, unless the seat's connections already have one at this version."""
        version = view["version"]
        if self._shared is None or self._shared.version != version:
            self._shared = _Shared(
                version,
                {key: value for key, value in view.items() if key not in OWN_KEYS and key != "observation"},
            )
        base = self._bases.get(seat)
        if base is None or base.version != version:
            observed = view["observation"]
            head = None if observed is None else {k: v for k, v in observed.items() if k != "history"}
            count = 0 if observed is None else len(observed["history"])
            own = {key: view[key] for key in OWN_KEYS}
            self._bases[seat] = _Base(version, own, head, count, table.deal)

    def presence(self, frame: dict[str, Any]) -> None:
        """A ``presence`` frame was just sent to every connection: merge it into the base, as
        a client merges it into its View (``table.players[].connected``, ``away_until``,
        ``table.spectators``)."""
        if self._shared is None:
            return
        summary = self._shared.view["table"]
        connected = set(frame["connected"])
        away = {item["seat"]: item["deadline"] for item in frame["away"]}
        for player in summary["players"]:
            player["connected"] = player["seat"] in connected
            player["away_until"] = away.get(player["seat"])
        summary["spectators"] = frame["spectators"]

    def _patch(
        self,
        base: _Base,
        own: dict[str, Any],
        observation: Observation | None,
        head: dict[str, Any] | None,
        deal: Deal | None,
    ) -> str:
        """The operations on a seat's own part and observation, as JSON text less its brackets
        (the shared part's come before them)."""
        ops = diff(base.own, own)
        if observation is None or head is None:
            if base.observation is not None:
                ops.append({"op": "replace", "path": "/observation", "value": None})
            return dumps(ops)[1:-1]
        history = observation.history
        before = base.observation
        if before is None or base.deal is not deal or base.history > len(history):
            whole = dict(head)
            whole["history"] = [history_entry_json(event) for event in history]
            ops.append({"op": "replace", "path": "/observation", "value": whole})
            return dumps(ops)[1:-1]
        values = (_public_values(before), _public_values(head))
        if self._public is not None and self._public[0] == values:
            public = self._public[1]
        else:
            public_ops: list[dict[str, Any]] = []
            for key in _PUBLIC:
                old, new = before[key], head[key]
                if old != new:
                    diff(old, new, f"/observation/{key}", public_ops)
            public = dumps(public_ops)[1:-1]
            if self._public is None:
                self._public = (values, public)
        for key, value in head.items():  # the seat's own: its hand, its legal actions...
            if key in _PUBLIC_KEYS:
                continue
            if key in before:
                if before[key] != value:
                    diff(before[key], value, f"/observation/{key}", ops)
            else:
                ops.append({"op": "add", "path": f"/observation/{key}", "value": value})
        ops.extend({"op": "remove", "path": f"/observation/{key}"} for key in before if key not in head)
        for event in history[base.history :]:
            ops.append({"op": "add", "path": "/observation/history/-", "value": history_entry_json(event)})
        return ",".join(part for part in (public, dumps(ops)[1:-1]) if part)

    def _observation(self, observation: Observation, head: dict[str, Any]) -> str:
        history = self._history.get(observation.seat)
        if history is None or history.count > len(observation.history):
            history = self._history[observation.seat] = _History()
        new = observation.history[history.count :]
        if new:
            added = ",".join(dumps(history_entry_json(event)) for event in new)
            history.text = f"{history.text},{added}" if history.text else added
            history.count += len(new)
        return f'{dumps(head)[:-1]},"history":[{history.text}]}}'
