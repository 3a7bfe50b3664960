"""The server's tables at work: accept requests, commit them, then tell everyone.

One path changes a table, :meth:`ServiceCore._commit`, and every change takes it (players over
HTTP or WebSocket, bots, clocks, the next deal):

1. take the table's ``asyncio.Lock`` (one change at a time per table, in this process);
2. with PostgreSQL, lock the table's row (``SELECT ... FOR UPDATE``, waiting for it at most
   the lock timeout) and first apply the events other processes committed meanwhile;
3. answer a repeated client id with its first answer, applying nothing;
4. ask the table for a *plan* (a refusal raises :class:`ServiceError` and changes nothing);
5. write the planned events in one transaction and commit (in a worker thread; with SQLite,
   the one writer thread, whose transaction may carry other tables' changes too:
   :mod:`paiute.server.writer`);
6. only then apply them to the table in memory and put the updates in every subscriber's
   queue; the caller gets its acknowledgement last.

The commit and the steps after it run to the end even if the request that started them is
cancelled, so memory never lags the database. Bots, turn clocks and the pause between deals
are one automation task per table that sleeps until the next thing is due
(:mod:`paiute.server.automation`, or the table changes) and then takes the same path, guarded
by the version it planned for; so does the sweep that ends the tables nobody is at
(:mod:`paiute.server.abandoned`).

Every database call is bounded in time and runs in its lane of threads
(:mod:`paiute.server.dbcalls`); when the database fails, the request is refused
(``unavailable``, nothing applied) and every connection is told that the database is gone,
then that it is back (a ``service`` message, :mod:`paiute.server.availability`).

:class:`ServiceCore` is that path, with the life cycle and the automation;
:class:`~paiute.server.service.Service` adds the requests and the connections on top.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from paiute.errors import N_, PaiuteError
from paiute.players import make_player
from paiute.server import presence, views
from paiute.server.abandoned import AbandonedTables
from paiute.server.automation import Step, next_step
from paiute.server.availability import describe, is_outage, service_message
from paiute.server.db import NOTIFY_CHANNEL, DatabaseError, Locked, Store, StoredTable
from paiute.server.dbcalls import DatabaseCalls
from paiute.server.deals import deal_source
from paiute.server.errors import ServiceError
from paiute.server.pubsub import Listener
from paiute.server.ratings import RatingStore, standings
from paiute.server.runtime import Plan, Runtime, Settings
from paiute.server.table import LiveTable
from paiute.server.tabledata import CLOCK_BOT, IN_MATCH, Draft, TableConfig, TableEvent, status_after
from paiute.server.updates import Updates

__all__ = ["PRESENCE_EVERY", "ServiceCore"]

log = logging.getLogger("paiute.server")

#: Seconds between two presence frames of one table (a burst of connections makes one).
PRESENCE_EVERY = 0.2

P = ParamSpec("P")
R = TypeVar("R")


class ServiceCore:
    """Every table this process holds, over one :class:`~paiute.server.db.Store`: loading,
    the commit path, the fan-out and the automation (requests: :class:`~paiute.server.service.Service`)."""

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
        # Database calls get their own threads, so a bot thinking never delays a commit, and
        # each is bounded in time, so a stalled table never holds up the others.
        self.calls = DatabaseCalls(store)
        self._stop_hearing = store.availability.listen(self._database_changed)
        # This process among those sharing a PostgreSQL database (presence messages).
        self.process_id = secrets.token_hex(6)
        self.ratings = RatingStore(store)  # rated matches are rated at their end (_rate)
        self.abandoned = AbandonedTables(self)  # the sweep that ends the tables nobody is at

    # -- life cycle ---------------------------------------------------------------------

    async def start(self) -> None:
        """Recover every table that is not closed (its bots and clocks carry on)."""
        for table_id in await self.calls.read(self.store.active_ids):
            await self.runtime(table_id)
        if self.store.shared:
            self._listener = Listener(
                self.store.listen_url,
                NOTIFY_CHANNEL,
                self._notified,
                self._catch_up_all,
                self._presence_heard,
                options=self.store.listen_options,
                on_lost=self._listen_lost,
            )
            self._listener.start()
            self._spawn(self._heartbeat())
        self._spawn(self.abandoned.run())
        self._spawn(self._rate_pending())

    async def stop(self) -> int:
        """Stop the automation and the database threads; the number of tables it held."""
        self._closing = True
        held = len(self.runtimes)
        self._stop_hearing()
        # Who is at the tables now is written down: after a restart, their tables are not
        # taken for abandoned.
        with contextlib.suppress(ServiceError):
            await self.abandoned.touch(self.clock())
        if self._listener is not None:
            await self._listener.stop()
            # The other processes learn at once that this one's connections are gone.
            for rt in list(self.runtimes.values()):
                if rt.subscribers or rt.away:
                    empty = presence.message(self.process_id, rt.table.id, (), 0, {})
                    with contextlib.suppress(ServiceError):
                        await self._db(self.store.notify, empty)
        tasks = [rt.task for rt in self.runtimes.values() if rt.task is not None]
        tasks += list(self._background)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.calls.close()
        await asyncio.to_thread(self.store.dispose)
        return held

    async def _db(self, function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Run a (short, synchronous) database call that may write in a database thread; a
        database failure is ``unavailable`` (:mod:`paiute.server.dbcalls`)."""
        return await self.calls.write(function, *args, **kwargs)

    # -- the database gone and back (paiute.server.availability) ---------------------------------

    def _database_changed(self, ok: bool) -> None:
        """Tell every connection that the database is gone, or back; once it is back, catch
        every table up with what other processes stored (PostgreSQL: their notifications
        may have been lost meanwhile)."""
        if self._closing:
            return
        text = views.dumps(service_message(ok))
        for rt in list(self.runtimes.values()):
            for sub in list(rt.subscribers):
                sub.push(text)
        if ok and self.store.shared:
            self._spawn(self._catch_up_all())

    def _listen_lost(self, error: Exception) -> None:
        """The LISTEN connection failed: the database is gone (or the network to it)."""
        if isinstance(error, ServiceError):  # catching up failed, and was reported where it did
            log.debug("catching up after the LISTEN connection was made failed: %s", error.message)
        elif is_outage(error):
            self.store.availability.failed(error, write=False)
        else:
            log.warning("the LISTEN connection failed: %s", describe(error))

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
                    stored = await self.calls.read(self.store.load, table_id)
                    if stored is None:
                        raise ServiceError(
                            "not_found", N_("there is no table {table_id!r}"), table_id=table_id
                        )
                    rt = Runtime(self._build(stored))
                    rt.loaded = self.clock()
                    self.runtimes[table_id] = rt
                    self._kick(rt)
            return rt
        if fresh and self.store.shared:
            await self._refresh(rt)
        return rt

    def _build(self, stored: StoredTable) -> LiveTable:
        try:
            config = TableConfig.from_json(stored.config)
            table = LiveTable(stored.id, config, stored.created, deals=self.deals)
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

    async def _refresh(self, rt: Runtime, version: int | None = None) -> None:
        """Read and apply the events other processes committed; with ``version``, only if
        the table is not at that version yet once its lock is had (a commit of this process
        that was under way has applied it: its own NOTIFY is not read back)."""
        async with rt.lock:
            if version is not None and rt.table.version >= version:
                return
            missed = await self.calls.read(self.store.events_after, rt.table.id, rt.table.version)
            self._apply(rt, missed)
        if missed:
            self._kick(rt)

    def _notified(self, table_id: str, version: int) -> None:
        """Another process committed ``version`` of a table: catch up if we hold it."""
        rt = self.runtimes.get(table_id)
        if rt is None or rt.table.version >= version or self._closing:
            return
        self._spawn(self._refresh(rt, version))

    async def _catch_up_all(self) -> None:
        for rt in list(self.runtimes.values()):
            await self._refresh(rt)

    def _spawn(self, work: Awaitable[None]) -> None:
        async def run() -> None:
            try:
                await work
            except ServiceError as error:
                # The database gone is logged once, where it is found (paiute.server.availability).
                level = logging.DEBUG if error.code == "unavailable" else logging.WARNING
                log.log(level, "catching up failed: %s", error.message)

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
                locked = await self.calls.lock(table.id, table.version)
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
                if not drafts:  # nothing to add (a hint already announced): nothing stored
                    return table.version
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
                    await self.calls.append(table.id, events, status, locked)
                    locked = None  # committed and closed by append
                except (ServiceError, DatabaseError) as error:
                    locked = None  # rolled back and closed by append
                    if isinstance(error, DatabaseError):  # not the database's state: its data's
                        log.error(
                            "table %s: storing version %d failed: %s", table.id, events[0].version, error
                        )
                    await self._reload(rt)
                    raise ServiceError(
                        "unavailable", N_("the change could not be stored; try again")
                    ) from None
            finally:
                if locked is not None:
                    await self.calls.release(locked)
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
            if item.type == "closed" and rt.table.config.rated:
                self._rate(rt.table)
            seat = item.seat
            if item.type == "autoplay" and seat is not None and rt.connected_here(seat):
                # Another process handed over a seat whose player is here: it is theirs again.
                self._spawn(self._take_back(rt, seat))

    async def _reload(self, rt: Runtime) -> None:
        """Read a table back from the database after a failed write (memory must match it).

        A database that cannot be read now leaves memory as it is: a failed commit stored
        nothing (SQLite), and what another process stored is read before the next change
        (PostgreSQL), so memory never goes ahead of the database, only behind it."""
        try:
            stored = await self.calls.read(self.store.load, rt.table.id)
        except ServiceError:
            return
        if stored is not None:
            table = self._build(stored)
            for item in table.events[rt.table.version :]:
                self._broadcast_on(rt, table, item)
            rt.table = table

    def _broadcast(self, rt: Runtime, item: TableEvent) -> None:
        self._broadcast_on(rt, rt.table, item)

    def _broadcast_on(self, rt: Runtime, table: LiveTable, item: TableEvent) -> None:
        if not rt.subscribers:
            return
        subscribers = list(rt.subscribers)
        try:
            keys = [(sub.seat, sub.patches) for sub in subscribers]
            texts = rt.updates.texts(table, item, keys, rt.presence())
        except Exception:  # a bug in a view must not take the service down: drop and re-welcome
            log.exception("table %s: building version %d", table.id, item.version)
            rt.updates = Updates()
            for sub in subscribers:
                sub.drop()
            return
        for sub in subscribers:
            sub.push(texts[(sub.seat, sub.patches)])

    # -- automation: bots, clocks, the next deal ------------------------------------------------

    def _kick(self, rt: Runtime) -> None:
        if self._closing:
            return
        if rt.task is None or rt.task.done():
            rt.task = asyncio.get_running_loop().create_task(self._automate(rt), name=f"table-{rt.table.id}")
        else:
            rt.wake.set()

    async def _automate(self, rt: Runtime) -> None:
        failures = 0
        while not self._closing:
            step = next_step(rt, self.settings)
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
                    level = logging.DEBUG if error.code == "unavailable" else logging.WARNING
                    log.log(level, "table %s: %s step failed: %s", rt.table.id, step.kind, error.message)
            except Exception:
                log.exception("table %s: %s step failed", rt.table.id, step.kind)
            if rt.table.version == step.version:  # nothing moved: do not spin
                failures += 1
                await asyncio.sleep(min(5.0, 0.05 * 2**failures))
            else:
                failures = 0

    async def _run_step(self, rt: Runtime, step: Step) -> None:
        table = rt.table
        seat = step.seat
        plan: Plan
        if step.kind == "next":
            plan = LiveTable.plan_next
        elif step.kind == "clock":
            assert seat is not None
            player = self._clock_player
            connected = rt.connected(seat)
            plan = lambda t: t.plan_timeout(seat, player, connected=connected)  # noqa: E731
        elif step.kind == "away":
            assert seat is not None

            def plan(t: LiveTable) -> list[Draft]:
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
                bot = rt.players[seat] = make_player(spec, seed=table.deals.bot_seed(seat))
            action = await asyncio.to_thread(bot.act, deal.observation(seat))  # R9: only its view
            plan = lambda t: t.plan_action(seat, action, "bot")  # noqa: E731
        await self._commit(rt, plan, expected=step.version)

    async def _take_back(self, rt: Runtime, seat: int) -> None:
        if rt.table.autoplay.get(seat) in ("away", "host", "clock") and rt.connected(seat):
            await self._commit(rt, lambda t: t.plan_return(seat))

    def _push_presence(self, rt: Runtime, *, publish: bool = True) -> None:
        """Tell every connection who is there now (connections, spectators, grace periods),
        at most once per ``PRESENCE_EVERY`` seconds a table: connections that come and go in a
        burst make one frame, not one each for every watcher. ``publish``: what this process
        holds changed, so the other processes sharing the database are told too (a change
        heard from them is not sent back)."""
        rt.presence_publish = rt.presence_publish or publish
        if self._closing or rt.presence_due is not None:
            return

        def push() -> None:
            rt.presence_due = None
            if self._closing:
                return
            frame = rt.presence().frame()
            text = views.dumps(frame)
            for sub in list(rt.subscribers):
                sub.push(text)
            rt.updates.presence(frame)  # the base of the next patches, as each client merges it
            if rt.presence_publish:
                rt.presence_publish = False
                self._publish(rt)

        rt.presence_due = asyncio.get_running_loop().call_later(PRESENCE_EVERY, push)

    # -- presence across processes (paiute.server.presence) -------------------------------------

    def _publish(self, rt: Runtime) -> None:
        """Tell the other processes what this one holds of ``rt``'s table (PostgreSQL only)."""
        if not self.store.shared or self._closing:
            return
        seats, spectators = rt.local_seats(), rt.local_spectators()
        payload = presence.message(self.process_id, rt.table.id, seats, spectators, rt.away)
        self._spawn(self._db(self.store.notify, payload))

    def _presence_heard(self, payload: str) -> None:
        """Another process says what it holds of a table: the table's presence changes."""
        heard = presence.parse(payload, self.clock())
        if heard is None or heard.process == self.process_id or self._closing:
            return
        rt = self.runtimes.get(heard.table_id)
        if rt is None:
            return  # not held here: learnt from its next message once loaded
        before = rt.remote.pop(heard.process, None)
        if not heard.remote.empty:
            rt.remote[heard.process] = heard.remote
        self._remote_changed(rt, before)

    def _remote_changed(self, rt: Runtime, before: presence.Remote | None) -> None:
        """After another process's part changed (or it was forgotten): a seat it had that is
        now connected nowhere, with no grace period anywhere, starts one here; the grace
        periods of seats connected elsewhere end (at the next step); everyone is told."""
        table = rt.table
        if before is not None and table.status in IN_MATCH:
            for seat in before.claims():
                if (
                    not rt.connected(seat)
                    and not rt.away_anywhere(seat)
                    and seat not in table.autoplay
                    and seat in table.persons()
                ):
                    rt.away[seat] = self.clock() + self.settings.away_grace
                    rt.presence_publish = True  # the grace period runs here now: say so
        self._push_presence(rt, publish=rt.presence_publish)
        self._kick(rt)

    async def _heartbeat(self) -> None:
        """Every :data:`~paiute.server.presence.HEARTBEAT` seconds, :meth:`_beat`."""
        while not self._closing:
            await asyncio.sleep(presence.HEARTBEAT)
            self._beat()

    def _beat(self) -> None:
        """Forget the processes not heard from for :data:`~paiute.server.presence.TTL` seconds
        (they died: their seats count as gone), and repeat this process's own messages."""
        now = self.clock()
        for rt in list(self.runtimes.values()):
            for process, remote in list(rt.remote.items()):
                if now - remote.heard > presence.TTL:
                    del rt.remote[process]
                    self._remote_changed(rt, remote)
            if rt.subscribers or rt.away:
                self._publish(rt)

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

    # -- rated matches (paiute.server.ratings) --------------------------------------------------

    def _rate(self, table: LiveTable) -> None:
        """A rated match ended (here, or in another process whose event this one applied):
        rate its seats' accounts. Every process that sees the end tries; the database keeps
        the first (:meth:`~paiute.server.ratings.RatingStore.apply`)."""
        result = standings(table)  # now, from the table as it ended
        table_id = table.id

        async def write() -> None:
            try:
                if await self._db(self.ratings.apply, table_id, result, self.clock()):
                    log.info("table %s: the rated match is rated", table_id)
            except ServiceError as error:
                log.warning("table %s: rating the match failed: %s", table_id, error.message)
            except Exception:
                log.exception("table %s: rating the match failed", table_id)

        self._spawn(write())

    async def _rate_pending(self) -> None:
        """Rate the rated matches that ended while no process could (it stopped between)."""
        try:
            for table_id in await self._db(self.ratings.pending):
                self._rate((await self.runtime(table_id)).table)
        except ServiceError as error:
            log.warning("the rated matches left unrated could not be read: %s", error.message)
