"""The requests of the HTTP API and the WebSocket connections, over the commit path.

:class:`Service` is what the routes (:mod:`paiute.server.api`, :mod:`paiute.server.ws`,
:mod:`paiute.server.hints`, :mod:`paiute.server.reviews`) call: it finds the table, checks
the seat token, and asks :class:`~paiute.server.core.ServiceCore` to commit a plan; the
connections register and leave here (presence, grace periods).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import secrets
from typing import Any

from paiute.actions import Action
from paiute.analysis.lesson import YOU
from paiute.errors import N_, PaiuteError
from paiute.i18n import DEFAULT_LANGUAGE
from paiute.record import Record
from paiute.rules import RuleSet
from paiute.server import views
from paiute.server.accounts import Account
from paiute.server.availability import service_message
from paiute.server.core import ServiceCore
from paiute.server.errors import ServiceError
from paiute.server.lesson import lesson_config, parse_input
from paiute.server.pubsub import Subscriber
from paiute.server.runtime import Plan, Runtime, Settings, hash_token, new_token
from paiute.server.table import LiveTable
from paiute.server.tabledata import IN_MATCH, Draft, TableConfig

__all__ = ["Runtime", "Service", "Settings", "hash_token", "new_token"]


class Service(ServiceCore):
    """Every table this process serves: its requests and connections."""

    # -- requests ---------------------------------------------------------------------------

    def seat_for(
        self, rt: Runtime, token: str | None, *, required: bool, lenient: bool = False
    ) -> int | None:
        """The seat a token holds. A token that holds none is refused, or with ``lenient`` (a
        stale cookie) read as a spectator; a missing token is refused when ``required``."""
        if token is None:
            if required:
                raise ServiceError(
                    "bad_token", N_("this needs your seat token (Authorization: Bearer TOKEN)")
                )
            return None
        seat = rt.table.seat_of(hash_token(token))
        if seat is None and not lenient:
            raise ServiceError("bad_token", N_("this seat token is not valid at this table"))
        rt.saw(seat, self.clock())  # a person is at the table: it is not abandoned
        return seat

    async def create(
        self, request: dict[str, Any], *, start: bool = False, account: Account | None = None
    ) -> dict[str, Any]:
        """A new table with its creator at seat 0 (``start``: and its match started at once).

        A table has a turn clock unless it is private and asks for none (``turn_seconds``
        null): a public table must not wait for ever on an absent player. A rated table
        (``rated``) is made by a logged-in ``account``, which takes seat 0 under its name.
        """
        rated = bool(request.get("rated"))
        if rated and account is None:
            raise ServiceError("forbidden", N_("log in to make a rated table: its players are accounts"))
        options = dict(request.get("options") or {})
        if request.get("stake") is not None:
            options["stake"] = request["stake"]
        settings = self.settings
        private = bool(request.get("private"))
        seconds = request.get("turn_seconds", settings.turn_seconds)
        if seconds is None and not private:
            raise ServiceError(
                "bad_request", N_("only a private table may have no turn clock (turn_seconds null)")
            )
        bank = request.get("bank_seconds")
        try:
            rules = RuleSet.from_preset(request.get("preset", "pagat"), **options)
            config = TableConfig(
                name=_clean_table_name(request.get("name") or "Paiute table"),
                rules=rules,
                seats=request["seats"],
                chips=request["chips"],
                bots=request.get("bots"),
                private=private,
                turn_seconds=seconds,
                max_deals=request.get("max_deals"),
                invite=secrets.token_urlsafe(9) if private else None,
                bank_seconds=0 if seconds is None else settings.bank_seconds if bank is None else bank,
                hints=bool(request.get("hints")),
                rated=rated,
            )
        except PaiuteError as error:
            raise ServiceError("bad_request", str(error), _rule_of(str(error)), cause=error) from None
        if rated and account is not None:
            created = await self._open(config, account.name, 0, account=account.id)
        else:
            created = await self._open(config, request["player_name"], 0)
        if start:
            rt = self.runtimes[created["table"]["id"]]
            await self._commit(rt, lambda t: t.plan_start(0))
            created["table"] = views.summary(rt.table, rt.presence())
        return created

    async def create_lesson(self, name: str) -> dict[str, Any]:
        """A lesson table (:mod:`paiute.server.lesson`) with ``name`` at seat 0, started."""
        created = await self._open(lesson_config(secrets.token_urlsafe(9)), name, YOU)
        rt = self.runtimes[created["table"]["id"]]
        await self._commit(rt, lambda t: t.plan_start(YOU))
        created["table"] = views.summary(rt.table, rt.presence())
        return created

    async def _open(
        self,
        config: TableConfig,
        name: str,
        seat: int,
        table_id: str | None = None,
        *,
        account: str | None = None,
    ) -> dict[str, Any]:
        """Store a new table with ``name`` (of ``account``, at a rated table) sitting at
        ``seat``; the seat's token and links."""
        table_id = table_id or secrets.token_urlsafe(8)
        token = new_token()
        now = self.clock()
        table = LiveTable(table_id, config, now, deals=self.deals)
        events = table.number(table.plan_join(name, seat, hash_token(token), config.invite, account), now)
        await self._db(self.store.create, table_id, config.to_json(), config.private, now, events)
        for item in events:
            table.apply(item)
        rt = Runtime(table)
        self.runtimes[table_id] = rt
        return {
            "table": views.summary(table, rt.presence()),
            "seat": seat,
            "token": token,
            "seat_link": f"/t/{table_id}#seat={token}",
            "invite": None if config.invite is None else f"/t/{table_id}?invite={config.invite}",
        }

    async def rematch(self, table_id: str, token: str | None) -> dict[str, Any]:
        """A seat of a finished match accepts the rematch: the first one makes the new table
        (the same settings, sitting at the same seat), the others sit down at theirs."""
        rt = await self.runtime(table_id, fresh=True)
        seat = self.seat_for(rt, token, required=True)
        assert seat is not None
        old = rt.table
        async with rt.rematch_lock:
            new_id = old.rematch
            if new_id is None:
                new_id = secrets.token_urlsafe(8)
                made = new_id
                await self._commit(rt, lambda t: t.plan_rematch(made))
                config = old.config
                if config.private:
                    config = dataclasses.replace(config, invite=secrets.token_urlsafe(9))
                name = old.seats[seat].name or f"Seat {seat + 1}"
                return await self._open(config, name, seat, new_id, account=old.seats[seat].account)
        new = await self.runtime(new_id)
        fresh = new_token()
        digest = hash_token(fresh)
        name = old.seats[seat].name or f"Seat {seat + 1}"
        free = not new.table.seats[seat].taken
        invite = new.table.config.invite
        account = old.seats[seat].account  # a rated table's seat is its account's again
        await self._commit(new, lambda t: t.plan_join(name, seat if free else None, digest, invite, account))
        taken = new.table.seat_of(digest)
        return {
            "table": views.summary(new.table, new.presence()),
            "seat": taken,
            "token": fresh,
            "seat_link": f"/t/{new_id}#seat={fresh}",
            "invite": None if invite is None else f"/t/{new_id}?invite={invite}",
        }

    async def join(
        self, table_id: str, name: str, seat: int | None, invite: str | None, account: Account | None = None
    ) -> dict[str, Any]:
        """Take a seat as ``name``; at a rated table, as the logged-in ``account`` (its name)."""
        rt = await self.runtime(table_id)
        token = new_token()
        digest = hash_token(token)
        account_id = None if account is None else account.id
        if account is not None and rt.table.config.rated:
            name = account.name
        await self._commit(rt, lambda t: t.plan_join(name, seat, digest, invite, account_id))
        taken = rt.table.seat_of(digest)
        return {"seat": taken, "token": token, "seat_link": f"/t/{table_id}#seat={token}"}

    async def fresh_seat_link(self, table_id: str, seat: int, held_with: str) -> dict[str, Any]:
        """A new token for ``seat``, whose holder took it with the token hashed ``held_with``
        (an account's seat, opened on another device); the seat's other tokens stay valid."""
        rt = await self.runtime(table_id, fresh=True)
        token = new_token()
        digest = hash_token(token)

        def plan(table: LiveTable) -> list[Draft]:
            if table.seat_of(held_with) != seat:
                raise ServiceError("forbidden", N_("you no longer hold a seat at this table"))
            return table.plan_relink(seat, digest)

        await self._commit(rt, plan)
        return {
            "table_id": table_id,
            "seat": seat,
            "token": token,
            "seat_link": f"/t/{table_id}#seat={token}",
        }

    async def announce_hint(self, rt: Runtime, seat: int, moment: int) -> int:
        """Tell the table that ``seat`` asked for a hint at ``moment`` (where hint_policy says
        the table is told; once a seat and moment); the table's version after."""
        return await self._commit(rt, lambda t: t.plan_hint(seat, moment))

    async def command(
        self,
        table_id: str,
        token: str | None,
        kind: str,
        client_id: str,
        fields: dict[str, Any],
        lang: str = DEFAULT_LANGUAGE,
    ) -> dict[str, Any]:
        """A seated player's message: ``action``, ``cut``, ``chat``, ``start``, ``leave``... and
        at a lesson table ``lesson``, whose acknowledgement carries the coach's answer
        (``coach``, in ``lang``; None for a repeated id)."""
        rt = await self.runtime(table_id)
        seat = self.seat_for(rt, token, required=True)
        assert seat is not None
        assert token is not None
        claimed = fields.get("seat")
        if claimed is not None and claimed != seat:
            raise ServiceError(
                "forbidden",
                N_("your token holds seat {seat}: you cannot act for seat {claimed}"),
                seat=seat,
                claimed=claimed,
            )
        plan: Plan
        coach: list[dict[str, Any]] = []
        if kind == "lesson":
            what = parse_input(fields)

            def plan(t: LiveTable) -> list[Draft]:
                answer, drafts = t.plan_lesson(seat, what, lang)
                coach.append(answer)
                return drafts
        elif kind == "action":
            try:
                action = Action.parse(str(fields.get("action", "")))
            except PaiuteError as error:
                raise ServiceError("bad_request", str(error), cause=error) from None
            # A move of a seat the bot plays takes it back first (its player is here).
            plan = lambda t: [*t.take_back(seat), *t.plan_action(seat, action, "player")]  # noqa: E731
        elif kind == "cut":
            position = fields.get("position")
            plan = lambda t: [*t.take_back(seat), *t.plan_cut(seat, position, "player")]  # noqa: E731
        elif kind == "chat":
            line = str(fields.get("text", ""))
            plan = lambda t: t.plan_chat(seat, line)  # noqa: E731
        elif kind == "start":
            plan = lambda t: t.plan_start(seat)  # noqa: E731
        elif kind == "leave":
            plan = lambda t: t.plan_leave(seat)  # noqa: E731
        elif kind == "return":
            plan = lambda t: t.plan_return(seat)  # noqa: E731
        elif kind == "hand_to_bot":
            target = fields.get("target")
            if not isinstance(target, int) or isinstance(target, bool):
                raise ServiceError("bad_request", N_("target is the seat to hand to the bot"))

            def plan(t: LiveTable) -> list[Draft]:
                if rt.connected(target):
                    raise ServiceError(
                        "conflict",
                        N_("seat {seat} is connected: only an absent seat can be handed to the bot"),
                        seat=target,
                    )
                return t.plan_autoplay(target, "host", by=seat)
        else:
            raise ServiceError("bad_request", N_("unknown message type {kind!r}"), kind=kind)
        digest = hashlib.sha256(json.dumps([kind, fields], sort_keys=True).encode()).hexdigest()[:32]
        version = await self._commit(
            rt,
            plan,
            client=(hash_token(token), client_id),
            expected=fields.get("expected_version"),
            digest=digest,
        )
        if kind == "lesson":
            return {"id": client_id, "version": version, "coach": coach[-1] if coach else None}
        return {"id": client_id, "version": version}

    async def list_tables(
        self,
        *,
        open_seats: bool = False,
        preset: str | None = None,
        stake: int | None = None,
        page: int = 1,
        per_page: int = 20,
    ) -> dict[str, Any]:
        """The lobby's public tables, newest first: those with a free seat (``open_seats``), of
        a preset, of a stake; one page of ``per_page``."""
        found = []
        for table_id in await self.calls.read(self.store.public_ids, self.settings.list_limit):
            try:
                rt = await self.runtime(table_id)
            except ServiceError:
                continue
            table = rt.table
            if table.status == "closed" or table.config.private:
                continue
            if open_seats and (table.status != "waiting" or all(seat.taken for seat in table.seats)):
                continue
            if preset is not None and table.rules.preset != preset:
                continue
            if stake is not None and table.rules.stake != stake:
                continue
            found.append(table)
        first = (page - 1) * per_page
        shown = [
            views.summary(table, self.runtimes[table.id].presence())
            for table in found[first : first + per_page]
        ]
        return {"tables": shown, "total": len(found), "page": page, "per_page": per_page}

    async def state(self, table_id: str, token: str | None, *, lenient: bool = False) -> dict[str, Any]:
        rt = await self.runtime(table_id, fresh=True)
        seat = self.seat_for(rt, token, required=False, lenient=lenient)
        return views.view_for(rt.table, seat, rt.presence())

    async def events(
        self, table_id: str, token: str | None, since: int, *, lenient: bool = False
    ) -> dict[str, Any]:
        rt = await self.runtime(table_id, fresh=True)
        seat = self.seat_for(rt, token, required=False, lenient=lenient)
        return {"version": rt.table.version, "events": views.events_for(rt.table, since, seat)}

    async def record(self, table_id: str) -> Record:
        return views.record_for((await self.runtime(table_id, fresh=True)).table)

    async def proof(self, table_id: str, number: int) -> dict[str, Any]:
        return views.proof_for((await self.runtime(table_id, fresh=True)).table, number)

    async def replay(self, table_id: str, number: int) -> dict[str, Any]:
        return views.replay_for((await self.runtime(table_id, fresh=True)).table, number)

    # -- connections --------------------------------------------------------------------------

    async def connect(
        self, table_id: str, token: str | None, since: int | None, *, patches: bool = False
    ) -> tuple[Runtime, Subscriber, dict[str, Any]]:
        """Register a connection and build its welcome, with no update lost or repeated between
        (``patches``: its updates patch the View, :mod:`paiute.server.updates`).

        While the database is unavailable, a table this process holds is welcomed as it holds
        it, and the client is told (a ``service`` message); what other processes stored
        meanwhile comes as updates once the database is back (every table is caught up then).
        """
        rt = await self.runtime(table_id)
        if self.store.shared:
            try:
                await self._refresh(rt)
            except ServiceError as error:
                if error.code != "unavailable":
                    raise
        seat = self.seat_for(rt, token, required=False)
        sub = Subscriber(seat, patches=patches)
        # No await from here on: the welcome is version N and the queue gets N+1 onwards.
        rt.subscribers.add(sub)
        table = rt.table
        state = views.view_for(table, seat, rt.presence())
        welcome = {
            "type": "welcome",
            "seat": seat,
            "version": table.version,
            "state": state,
            "events": [] if since is None else views.events_for(table, since, seat),
        }
        sub.push(views.dumps(welcome))  # first in the queue
        if not self.store.availability.ok:
            sub.push(views.dumps(service_message(False)))
        if patches:
            rt.updates.welcomed(table, seat, state)  # the base of its first patch
        if seat is not None:
            rt.away.pop(seat, None)
            if table.autoplay.get(seat) in ("away", "host", "clock"):
                # The player is back: the seat is theirs again (one who left takes it back
                # by hand, with "return").
                self._spawn(self._take_back(rt, seat))
        self._push_presence(rt)
        return rt, sub, welcome

    def connection_count(self) -> int:
        """The WebSocket connections open to this process's tables."""
        return sum(len(rt.subscribers) for rt in self.runtimes.values())

    def disconnect(self, rt: Runtime, sub: Subscriber) -> None:
        rt.subscribers.discard(sub)
        table = rt.table
        seat = sub.seat
        rt.saw(seat, self.clock())  # the person was at the table until now
        if (
            seat is not None
            and not rt.connected(seat)
            and table.status in IN_MATCH
            and seat not in table.autoplay
            and seat in table.persons()
        ):
            # Its player went: after the grace period (the table is told when) the bot plays.
            rt.away[seat] = self.clock() + self.settings.away_grace
            self._kick(rt)
        self._push_presence(rt)
        self._forget_if_closed(rt)


def _clean_table_name(name: str) -> str:
    text = " ".join("".join(ch for ch in name if ch.isprintable()).split())
    if not 1 <= len(text) <= 60:
        raise ServiceError("bad_request", N_("a table name has 1 to {limit} characters"), limit=60)
    return text


def _rule_of(message: str) -> str | None:
    """The rule ID a rules error starts with (``R2.1 ...``), if any."""
    head = message.split(" ", 1)[0]
    return head if head.startswith("R") and head[1:2].isdigit() else None
