"""The server's tables at work: accept requests, commit them, then tell everyone.

One path changes a table, :meth:`Service._commit`, and every change takes it (players over
HTTP or WebSocket, bots, clocks, the next deal):

1. take the table's ``asyncio.Lock`` (one change at a time per table, in this process);
2. with PostgreSQL, lock the table's row (``SELECT ... FOR UPDATE``) and first apply the
   events other processes committed meanwhile;
3. answer a repeated client id with its first answer, applying nothing;
4. ask the table for a *plan* (a refusal raises :class:`ServiceError` and changes nothing);
5. write the planned events in one transaction and commit (in a worker thread; with SQLite,
   the one writer thread, whose transaction may carry other tables' changes too:
   :mod:`paiute.server.writer`);
6. only then apply them to the table in memory and put the updates in every subscriber's
   queue; the caller gets its acknowledgement last.

The commit and the steps after it run to the end even if the request that started them is
cancelled, so memory never lags the database. Bots, turn clocks and the pause between deals
are one automation task per table that sleeps until the next thing is due (or the table
changes) and then takes the same path, guarded by the version it planned for.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from sqlalchemy.exc import SQLAlchemyError

from paiute.actions import Action
from paiute.errors import N_, PaiuteError
from paiute.players import Player, make_player
from paiute.record import Record
from paiute.rules import RuleSet
from paiute.server import views
from paiute.server.db import NOTIFY_CHANNEL, DatabaseError, Locked, Store, StoredTable
from paiute.server.deals import deal_source
from paiute.server.errors import ServiceError
from paiute.server.pubsub import Listener, Subscriber
from paiute.server.table import (
    CLOCK_BOT,
    IN_MATCH,
    Draft,
    Table,
    TableConfig,
    TableEvent,
    status_after,
)
from paiute.server.writer import Writer

__all__ = ["Runtime", "Service", "Settings", "hash_token", "new_token"]

log = logging.getLogger("paiute.server")

#: Seconds between two presence frames of one table (a burst of connections makes one).
PRESENCE_EVERY = 0.2

P = ParamSpec("P")
R = TypeVar("R")
Plan = Callable[[Table], list[Draft]]


@dataclass(frozen=True, slots=True)
class Settings:
    """How the server paces and limits play (``paiute serve`` flags set some of them)."""

    bot_delay: float = 0.6  # seconds a bot waits before acting, so people can follow
    deal_pause: float = 3.0  # seconds between the end of a deal and the next commitment
    ws_rate: float = 20.0  # messages per second a WebSocket connection may send...
    ws_burst: float = 40.0  # ...with bursts up to this many
    http_rate: float = 20.0  # requests per second changing state, per token or address...
    http_burst: float = 60.0
    max_message: int = 4096  # bytes in one WebSocket message
    max_body: int = 16384  # bytes in one HTTP request body
    list_limit: int = 200  # tables in the lobby's list
    away_grace: float = 30.0  # seconds a seat whose player went waits before the bot plays it
    turn_seconds: int = 30  # the turn clock of a new table unless it sets its own...
    bank_seconds: int = 60  # ...and each seat's time bank
    #: Tests only: deal from a generator with this seed instead of the secure source (R10.1).
    #: Anyone who knows it knows every hand (``paiute serve --insecure-deal-seed``, loopback only).
    insecure_deal_seed: int | None = None


def hash_token(token: str) -> str:
    """What the database keeps of a seat token: its SHA-256 (a stolen database seats nobody)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass(frozen=True, slots=True)
class _Step:
    kind: str  # "next" (deal), "bot" (a bot's action or cut), "clock" (a timeout), "away"
    seat: int | None
    due: float
    version: int


class Runtime:
    """A table in memory with its lock, its connections and its automation task."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.lock = asyncio.Lock()
        self.subscribers: set[Subscriber] = set()
        self.task: asyncio.Task[None] | None = None
        self.wake = asyncio.Event()
        self.players: dict[int, Player] = {}
        self.updates = views.Updates()  # the update frames, encoded once per version and seat
        self.away: dict[int, float] = {}  # seats whose player went -> when the bot takes over
        self.rematch_lock = asyncio.Lock()
        self.presence_due: asyncio.TimerHandle | None = None  # the next presence frame

    def presence(self) -> views.Presence:
        seats = frozenset(sub.seat for sub in self.subscribers if sub.seat is not None)
        spectators = sum(1 for sub in self.subscribers if sub.seat is None)
        return views.Presence(seats, spectators, tuple(sorted(self.away.items())))

    def connected(self, seat: int) -> bool:
        return any(sub.seat == seat for sub in self.subscribers)


class Service:
    """Every table this process serves, over one :class:`~paiute.server.db.Store`."""

    def __init__(
        self, store: Store, settings: Settings | None = None, clock: Callable[[], float] = time.time
    ):
        self.store = store
        self.settings = settings or Settings()
        self.clock = clock
        self.runtimes: dict[str, Runtime] = {}
        self._load_lock = asyncio.Lock()
        self._closing = False
        self.deals = deal_source(self.settings.insecure_deal_seed)
        if not self.deals.secure:
            log.warning(
                "INSECURE: deals come from a seeded generator (insecure_deal_seed), not the secure "
                "source (R10.1): anyone who knows the seed knows every hand; for tests only"
            )
        self._clock_player = make_player(CLOCK_BOT, seed=self.deals.bot_seed(-1))
        self._listener: Listener | None = None
        self._background: set[asyncio.Task[None]] = set()
        # Database calls get their own threads, so a bot thinking never delays a commit.
        self._db_threads = ThreadPoolExecutor(max_workers=4, thread_name_prefix="paiute-db")
        # SQLite: one writer thread commits the changes of several tables at once (group
        # commit); PostgreSQL commits each change in the transaction that holds its row lock.
        self._writer = None if store.shared else Writer(store)

    # -- life cycle ---------------------------------------------------------------------

    async def start(self) -> None:
        """Recover every table that is not closed (its bots and clocks carry on)."""
        for table_id in await self._db(self.store.active_ids):
            await self.runtime(table_id)
        if self.store.shared:
            self._listener = Listener(
                self.store.listen_url, NOTIFY_CHANNEL, self._notified, self._catch_up_all
            )
            self._listener.start()

    async def stop(self) -> None:
        self._closing = True
        if self._listener is not None:
            await self._listener.stop()
        tasks = [rt.task for rt in self.runtimes.values() if rt.task is not None]
        tasks += list(self._background)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._writer is not None:
            await self._thread(self._writer.close)
        await self._db(self.store.dispose)
        self._db_threads.shutdown(wait=False)

    async def _thread(self, function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Run a (short, synchronous) database call in a database thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db_threads, functools.partial(function, *args, **kwargs))

    async def _db(self, function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """:meth:`_thread`, with a database failure turned into ``unavailable``."""
        try:
            return await self._thread(function, *args, **kwargs)
        except SQLAlchemyError as error:
            log.error("database error: %s", error)
            raise ServiceError("unavailable", N_("the database is not available; try again")) from None

    # -- finding tables -----------------------------------------------------------------

    async def runtime(self, table_id: str, *, fresh: bool = False) -> Runtime:
        """The table ``table_id``, loaded from the database if this process has not yet.

        ``fresh`` (PostgreSQL) first reads the events other processes committed.
        """
        rt = self.runtimes.get(table_id)
        if rt is None:
            async with self._load_lock:
                rt = self.runtimes.get(table_id)
                if rt is None:
                    stored = await self._db(self.store.load, table_id)
                    if stored is None:
                        raise ServiceError(
                            "not_found", N_("there is no table {table_id!r}"), table_id=table_id
                        )
                    rt = Runtime(self._build(stored))
                    self.runtimes[table_id] = rt
                    self._kick(rt)
            return rt
        if fresh and self.store.shared:
            await self._refresh(rt)
        return rt

    def _build(self, stored: StoredTable) -> Table:
        try:
            config = TableConfig.from_json(stored.config)
            table = Table(stored.id, config, stored.created, deals=self.deals)
            for item in stored.events:
                table.apply(item)
        except (PaiuteError, KeyError, TypeError, ValueError) as error:
            log.error("table %s cannot be rebuilt from its events: %s", stored.id, error)
            raise ServiceError(
                "unavailable", N_("table {table_id!r} cannot be read back"), table_id=stored.id
            ) from None
        # A clock that ran while the server was down starts again (nobody could move).
        table.turn_started = max(table.turn_started, self.clock())
        return table

    async def _refresh(self, rt: Runtime) -> None:
        async with rt.lock:
            missed = await self._db(self.store.events_after, rt.table.id, rt.table.version)
            self._apply(rt, missed)
        if missed:
            self._kick(rt)

    def _notified(self, table_id: str, version: int) -> None:
        """Another process committed ``version`` of a table: catch up if we hold it."""
        rt = self.runtimes.get(table_id)
        if rt is None or rt.table.version >= version or self._closing:
            return
        self._spawn(self._refresh(rt))

    async def _catch_up_all(self) -> None:
        for rt in list(self.runtimes.values()):
            await self._refresh(rt)

    def _spawn(self, work: Awaitable[None]) -> None:
        async def run() -> None:
            try:
                await work
            except ServiceError as error:
                log.warning("catching up failed: %s", error.message)

        task = asyncio.get_running_loop().create_task(run())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # -- the one path that changes a table ---------------------------------------------------

    async def _commit(
        self,
        rt: Runtime,
        plan: Plan,
        *,
        client: tuple[str, str] | None = None,
        expected: int | None = None,
        digest: str | None = None,
    ) -> int:
        """Plan, store, then apply and fan out (see the module's docstring); the new version.

        ``digest`` names the request's payload: a repeated client id with another payload is
        refused (``id_reused``), with the same one it gets its first answer."""
        # Shielded: once started, a change is stored and applied even if the caller goes away.
        task = asyncio.get_running_loop().create_task(self._commit_now(rt, plan, client, expected, digest))
        return await asyncio.shield(task)

    async def _commit_now(
        self,
        rt: Runtime,
        plan: Plan,
        client: tuple[str, str] | None,
        expected: int | None,
        digest: str | None = None,
    ) -> int:
        async with rt.lock:
            table = rt.table
            locked: Locked | None = None
            if self.store.shared:
                locked = await self._db(self.store.lock, table.id, table.version)
            try:
                if locked is not None and locked.missed:
                    self._apply(rt, locked.missed)
                if client is not None and client in table.clients:
                    first = table.requests.get(client)
                    if digest is not None and first is not None and first != digest:
                        raise ServiceError(
                            "id_reused",
                            N_("the id {id!r} was already used for another request"),
                            id=client[1],
                        )
                    return table.clients[client]  # a repeated id: the first answer, nothing applied
                if expected is not None and expected != table.version:
                    raise ServiceError(
                        "conflict",
                        N_("the table has moved on: it is at version {version}, not {expected}"),
                        version=table.version,
                        expected=expected,
                    )
                drafts = plan(table)
                if client is not None:
                    last = drafts[-1]
                    named = {"actor": client[0], "id": client[1]}
                    if digest is not None:
                        named["digest"] = digest
                    secret = {**last.secret, "client": named}
                    drafts[-1] = dataclasses.replace(last, secret=secret)
                events = table.number(drafts, self.clock())
                status = status_after(table.status, drafts)
                try:
                    if locked is None and self._writer is not None:
                        await self._writer.append(table.id, events, status)
                    else:
                        await self._thread(self.store.append, table.id, events, status, locked)
                    locked = None  # committed and closed by append
                except (SQLAlchemyError, DatabaseError) as error:
                    locked = None
                    log.error("table %s: storing version %d failed: %s", table.id, events[0].version, error)
                    await self._reload(rt)
                    raise ServiceError(
                        "unavailable", N_("the change could not be stored; try again")
                    ) from None
            finally:
                if locked is not None:
                    await self._thread(self.store.abort, locked)
            try:
                self._apply(rt, events)
            except Exception:  # a bug: memory must still match the database
                log.exception(
                    "table %s: applying version %d failed; reading it back", table.id, events[0].version
                )
                await self._reload(rt)
        self._kick(rt)
        return events[-1].version

    def _apply(self, rt: Runtime, events: list[TableEvent]) -> None:
        """Apply committed events to memory and fan each one out."""
        for item in events:
            rt.table.apply(item)
            self._broadcast(rt, item)
            seat = item.seat
            if item.type == "autoplay" and seat is not None and rt.connected(seat):
                # Another process handed over a seat whose player is here: it is theirs again.
                self._spawn(self._take_back(rt, seat))

    async def _reload(self, rt: Runtime) -> None:
        """Read a table back from the database after a failed write (memory must match it)."""
        stored = await self._thread(self.store.load, rt.table.id)
        if stored is not None:
            table = self._build(stored)
            for item in table.events[rt.table.version :]:
                self._broadcast_on(rt, table, item)
            rt.table = table

    def _broadcast(self, rt: Runtime, item: TableEvent) -> None:
        self._broadcast_on(rt, rt.table, item)

    def _broadcast_on(self, rt: Runtime, table: Table, item: TableEvent) -> None:
        if not rt.subscribers:
            return
        subscribers = list(rt.subscribers)
        try:
            texts = rt.updates.texts(table, item, [sub.seat for sub in subscribers], rt.presence())
        except Exception:  # a bug in a view must not take the service down: drop and re-welcome
            log.exception("table %s: building version %d", table.id, item.version)
            rt.updates = views.Updates()
            for sub in subscribers:
                sub.drop()
            return
        for sub in subscribers:
            sub.push(texts[sub.seat])

    # -- automation: bots, clocks, the next deal ------------------------------------------------

    def _kick(self, rt: Runtime) -> None:
        if self._closing:
            return
        if rt.task is None or rt.task.done():
            rt.task = asyncio.get_running_loop().create_task(self._automate(rt), name=f"table-{rt.table.id}")
        else:
            rt.wake.set()

    def _next_step(self, rt: Runtime) -> _Step | None:
        """The next thing due at the table: the next deal, a bot's move (a bot's seat, or a
        person's handed to the bot while someone is still at the table), a clock running out,
        or a grace period ending."""
        table = rt.table
        settings = self.settings
        version = table.version
        steps: list[_Step] = []
        if table.status == "deal_over":
            steps.append(_Step("next", None, table.changed + settings.deal_pause, version))
        actor = table.actor()
        if actor is not None and table.bot_plays(actor):
            if table.is_bot(actor) or not table.nobody_left():  # nobody there: the table waits
                steps.append(_Step("bot", actor, table.changed + settings.bot_delay, version))
        elif actor is not None:
            deadline = table.deadline()
            if deadline is not None:
                steps.append(_Step("clock", actor, deadline, version))
        for seat, due in list(rt.away.items()):
            if seat in table.autoplay or table.status not in IN_MATCH or rt.connected(seat):
                del rt.away[seat]
            else:
                steps.append(_Step("away", seat, due, version))
        return min(steps, key=lambda step: step.due) if steps else None

    async def _automate(self, rt: Runtime) -> None:
        failures = 0
        while not self._closing:
            step = self._next_step(rt)
            if step is None:
                self._forget_if_closed(rt)
                return
            delay = step.due - self.clock()
            if delay > 0:
                rt.wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(rt.wake.wait(), timeout=delay)
                continue
            try:
                await self._run_step(rt, step)
            except ServiceError as error:
                if error.code != "conflict":
                    log.warning("table %s: %s step failed: %s", rt.table.id, step.kind, error.message)
            except Exception:
                log.exception("table %s: %s step failed", rt.table.id, step.kind)
            if rt.table.version == step.version:  # nothing moved: do not spin
                failures += 1
                await asyncio.sleep(min(5.0, 0.05 * 2**failures))
            else:
                failures = 0

    async def _run_step(self, rt: Runtime, step: _Step) -> None:
        table = rt.table
        seat = step.seat
        plan: Plan
        if step.kind == "next":
            plan = Table.plan_next
        elif step.kind == "clock":
            assert seat is not None
            player = self._clock_player
            connected = rt.connected(seat)
            plan = lambda t: t.plan_timeout(seat, player, connected=connected)  # noqa: E731
        elif step.kind == "away":
            assert seat is not None

            def plan(t: Table) -> list[Draft]:
                if rt.connected(seat):  # back in time
                    raise ServiceError("conflict", N_("the player is back"))
                return t.plan_autoplay(seat, "away")

            try:
                await self._commit(rt, plan)
            finally:
                rt.away.pop(seat, None)
            return
        elif table.status == "cut":
            assert seat is not None
            plan = lambda t: t.plan_cut(seat, None, "bot")  # noqa: E731
        else:
            assert seat is not None
            deal = table.deal
            assert deal is not None
            bot = rt.players.get(seat)
            if bot is None:
                # A person's seat handed to the bot is played as the clock plays it.
                spec = table.seats[seat].bot or CLOCK_BOT
                bot = rt.players[seat] = make_player(spec, seed=self.deals.bot_seed(seat))
            action = await asyncio.to_thread(bot.act, deal.observation(seat))  # R9: only its view
            plan = lambda t: t.plan_action(seat, action, "bot")  # noqa: E731
        await self._commit(rt, plan, expected=step.version)

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
        return seat

    async def create(self, request: dict[str, Any], *, start: bool = False) -> dict[str, Any]:
        """A new table with its creator at seat 0 (``start``: and its match started at once).

        A table has a turn clock unless it is private and asks for none (``turn_seconds``
        null): a public table must not wait for ever on an absent player.
        """
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
            )
        except PaiuteError as error:
            raise ServiceError("bad_request", str(error), _rule_of(str(error)), cause=error) from None
        created = await self._open(config, request["player_name"], 0)
        if start:
            rt = self.runtimes[created["table"]["id"]]
            await self._commit(rt, lambda t: t.plan_start(0))
            created["table"] = views.summary(rt.table, rt.presence())
        return created

    async def _open(
        self, config: TableConfig, name: str, seat: int, table_id: str | None = None
    ) -> dict[str, Any]:
        """Store a new table with ``name`` sitting at ``seat``; the seat's token and links."""
        table_id = table_id or secrets.token_urlsafe(8)
        token = new_token()
        now = self.clock()
        table = Table(table_id, config, now, deals=self.deals)
        events = table.number(table.plan_join(name, seat, hash_token(token), config.invite), now)
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
                return await self._open(config, name, seat, new_id)
        new = await self.runtime(new_id)
        fresh = new_token()
        digest = hash_token(fresh)
        name = old.seats[seat].name or f"Seat {seat + 1}"
        free = not new.table.seats[seat].taken
        invite = new.table.config.invite
        await self._commit(new, lambda t: t.plan_join(name, seat if free else None, digest, invite))
        taken = new.table.seat_of(digest)
        return {
            "table": views.summary(new.table, new.presence()),
            "seat": taken,
            "token": fresh,
            "seat_link": f"/t/{new_id}#seat={fresh}",
            "invite": None if invite is None else f"/t/{new_id}?invite={invite}",
        }

    async def join(self, table_id: str, name: str, seat: int | None, invite: str | None) -> dict[str, Any]:
        rt = await self.runtime(table_id)
        token = new_token()
        digest = hash_token(token)
        await self._commit(rt, lambda t: t.plan_join(name, seat, digest, invite))
        taken = rt.table.seat_of(digest)
        return {"seat": taken, "token": token, "seat_link": f"/t/{table_id}#seat={token}"}

    async def command(
        self, table_id: str, token: str | None, kind: str, client_id: str, fields: dict[str, Any]
    ) -> dict[str, Any]:
        """A seated player's message: ``action``, ``cut``, ``chat``, ``start`` or ``leave``."""
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
        if kind == "action":
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

            def plan(t: Table) -> list[Draft]:
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
        for table_id in await self._db(self.store.public_ids, self.settings.list_limit):
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
        self, table_id: str, token: str | None, since: int | None
    ) -> tuple[Runtime, Subscriber, dict[str, Any]]:
        """Register a connection and build its welcome, with no update lost or repeated between."""
        rt = await self.runtime(table_id, fresh=True)
        seat = self.seat_for(rt, token, required=False)
        sub = Subscriber(seat)
        # No await from here on: the welcome is version N and the queue gets N+1 onwards.
        rt.subscribers.add(sub)
        table = rt.table
        welcome = {
            "type": "welcome",
            "seat": seat,
            "version": table.version,
            "state": views.view_for(table, seat, rt.presence()),
            "events": [] if since is None else views.events_for(table, since, seat),
        }
        sub.push(json.dumps(welcome, separators=(",", ":")))  # first in the queue
        if seat is not None:
            rt.away.pop(seat, None)
            if table.autoplay.get(seat) in ("away", "host", "clock"):
                # The player is back: the seat is theirs again (one who left takes it back
                # by hand, with "return").
                self._spawn(self._take_back(rt, seat))
        self._push_presence(rt)
        return rt, sub, welcome

    def disconnect(self, rt: Runtime, sub: Subscriber) -> None:
        rt.subscribers.discard(sub)
        table = rt.table
        seat = sub.seat
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

    async def _take_back(self, rt: Runtime, seat: int) -> None:
        if rt.table.autoplay.get(seat) in ("away", "host", "clock") and rt.connected(seat):
            await self._commit(rt, lambda t: t.plan_return(seat))

    def _push_presence(self, rt: Runtime) -> None:
        """Tell every connection who is there now (connections, spectators, grace periods),
        at most once per ``PRESENCE_EVERY`` seconds a table: connections that come and go in a
        burst make one frame, not one each for every watcher."""
        if self._closing or rt.presence_due is not None:
            return

        def push() -> None:
            rt.presence_due = None
            if self._closing:
                return
            text = json.dumps(rt.presence().frame(), separators=(",", ":"))
            for sub in list(rt.subscribers):
                sub.push(text)

        rt.presence_due = asyncio.get_running_loop().call_later(PRESENCE_EVERY, push)

    def _forget_if_closed(self, rt: Runtime) -> None:
        """A closed table nobody watches leaves memory (it is read back if asked for again)."""
        table_id = rt.table.id
        if (
            rt.table.status == "closed"
            and not rt.subscribers
            and not rt.rematch_lock.locked()
            and self.runtimes.get(table_id) is rt
        ):
            del self.runtimes[table_id]


def _clean_table_name(name: str) -> str:
    text = " ".join("".join(ch for ch in name if ch.isprintable()).split())
    if not 1 <= len(text) <= 60:
        raise ServiceError("bad_request", N_("a table name has 1 to {limit} characters"), limit=60)
    return text


def _rule_of(message: str) -> str | None:
    """The rule ID a rules error starts with (``R2.1 ...``), if any."""
    head = message.split(" ", 1)[0]
    return head if head.startswith("R") and head[1:2].isdigit() else None
