"""Game reviews of finished deals (:mod:`paiute.analysis.review`), computed off the request path and kept.

``GET /api/tables/{id}/deals/{n}/review`` answers at once: the stored review of a finished deal
(``status: "ready"``), or its progress (``status: "pending"``, ``done`` of ``total`` decisions)
after putting it in the queue. One review runs at a time per server process, in one worker
process of its own (a review is CPU work; the event loop and the other tables keep going), one
decision per task so that the page can show progress. A finished review is stored in the
``paiute_reviews`` table (migration 0002) with the deal, and read from there afterwards (by any
server process sharing the database); one stored in an earlier format (:data:`REVIEW_FORMAT`:
the first gave shares of the pot, not net chips) is made again and replaced. A deal in progress
is never reviewed: after the deal
nothing is hidden (R9.3), before it a review would tell who holds what. A private table's
reviews are shown, like its record, only to its seats and its invitation code.

Each decision is estimated from its seat's observation at that moment only (R9), with
:func:`review_playouts` playouts (``PAIUTE_REVIEW_PLAYOUTS`` changes it) and seed 0, so the
review is the one ``paiute review`` makes of the table's record, and its figures are those the
hint button gave at that moment (:mod:`paiute.server.hints` seeds and plays out a position as
the review does).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from sqlalchemy import Column, Float, ForeignKey, Integer, String, Table, delete, insert, select
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from paiute.analysis.review import (
    DEFAULT_PLAYOUTS,
    REVIEW_FORMAT,
    Decision,
    DecisionPoint,
    Review,
    decision_points,
    summarize,
)
from paiute.errors import PaiuteError
from paiute.i18n import N_
from paiute.parallel import process_pool, stop_pool
from paiute.players.base import MAX_ITERATIONS
from paiute.record import Record
from paiute.server.api import (
    ERROR_RESPONSES,
    DealNumber,
    InviteCode,
    Limited,
    TableId,
    require_visible,
    service_of,
)
from paiute.server.db import JSON_COLUMN, metadata
from paiute.server.dbcalls import report
from paiute.server.errors import ServiceError

__all__ = ["MAX_QUEUED", "REVIEW_SEED", "Reviewer", "review_playouts", "reviews_table", "router", "shutdown"]


def review_playouts(environ: Mapping[str, str] = os.environ) -> int:
    """Playouts per decision on the server: ``PAIUTE_REVIEW_PLAYOUTS``, else the review's
    default (a time budget would make a stored review depend on the load of the moment).

    A value that is not a whole number from 1 to :data:`~paiute.players.base.MAX_ITERATIONS`
    is refused, quoted (:class:`~paiute.errors.PaiuteError`): ``paiute serve`` says so in one
    line before it starts.

    >>> review_playouts({"PAIUTE_REVIEW_PLAYOUTS": "6"})
    6
    >>> review_playouts({"PAIUTE_REVIEW_PLAYOUTS": "lots"})
    Traceback (most recent call last):
    ...
    paiute.errors.PaiuteError: PAIUTE_REVIEW_PLAYOUTS='lots': playouts per decision are a whole number from 1 to 1000000
    """
    text = environ.get("PAIUTE_REVIEW_PLAYOUTS")
    if text is None:
        return DEFAULT_PLAYOUTS
    try:
        playouts = int(text.strip())
    except ValueError:
        playouts = 0
    if not 1 <= playouts <= MAX_ITERATIONS:
        raise PaiuteError(
            f"PAIUTE_REVIEW_PLAYOUTS={text!r}: playouts per decision are a whole number from 1 to {MAX_ITERATIONS}"
        )
    return playouts


#: Reviews waiting or running at once, per process; more are refused (503) until some finish.
MAX_QUEUED = 64
#: The seed of every review on the server (and of the hints, :mod:`paiute.server.hints`).
REVIEW_SEED = 0

reviews_table = Table(
    "paiute_reviews",
    metadata,
    Column("table_id", String(32), ForeignKey("paiute_tables.id"), primary_key=True),
    Column("deal", Integer, primary_key=True),  # counted from 1, as the pages and the API count
    Column("playouts", Integer, nullable=False),
    Column("data", JSON_COLUMN, nullable=False),
    Column("created", Float, nullable=False),
)


@dataclass(slots=True)
class _Job:
    table_id: str
    number: int
    record: Record
    done: int = 0
    total: int | None = None


def _review_point(job: tuple[DecisionPoint, int, int]) -> Decision:
    from paiute.analysis.review import review_point

    point, playouts, seed = job
    return review_point(point, playouts, None, seed)


def review_json(record: Record, number: int, review: Review) -> dict[str, Any]:
    """What the API returns of a review (the ``paiute review --json`` lines, gathered)."""
    return {
        "format": REVIEW_FORMAT,
        "deal": number,
        "players": list(record.players),
        "playouts": review.playouts,
        "seed": review.seed,
        "decisions": [decision.to_json() for decision in review.decisions],
        "summary": [summary.to_json() for summary in review.summaries],
    }


class Reviewer:
    """The review queue of one server process: one review at a time, in one worker process."""

    def __init__(self, app: FastAPI, playouts: int | None = None) -> None:
        self._store = app.state.store
        self.playouts = review_playouts() if playouts is None else playouts
        self._jobs: dict[tuple[str, int], _Job] = {}
        self._queue: asyncio.Queue[_Job] = asyncio.Queue()
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._task: asyncio.Task[None] | None = None

    # -- storage (synchronous, run in a thread) -----------------------------------------------

    def _load(self, table_id: str, number: int) -> dict[str, Any] | None:
        query = select(reviews_table.c.data).where(
            reviews_table.c.table_id == table_id, reviews_table.c.deal == number
        )
        with self._store.engine.connect() as connection:
            row = connection.execute(query).first()
        return None if row is None else dict(row.data)

    def _save(self, table_id: str, number: int, data: dict[str, Any]) -> None:
        row = {"table_id": table_id, "deal": number, "playouts": self.playouts, "data": data}
        with contextlib.suppress(IntegrityError), self._store.engine.begin() as connection:
            # A review stored in an earlier format goes; one another process sharing the
            # database stored first (the IntegrityError) is the same review.
            connection.execute(
                delete(reviews_table).where(
                    reviews_table.c.table_id == table_id, reviews_table.c.deal == number
                )
            )
            connection.execute(insert(reviews_table).values(**row, created=time.time()))

    # -- the queue ------------------------------------------------------------------------------

    async def status(self, table_id: str, number: int, record: Record) -> dict[str, Any]:
        try:
            stored = await asyncio.to_thread(self._load, table_id, number)
        except SQLAlchemyError as error:
            raise report(self._store, error, write=False) from None
        if stored is not None and stored.get("format") == REVIEW_FORMAT:  # else made again
            return {"status": "ready", **stored}
        job = self._jobs.get((table_id, number))
        if job is None:
            if len(self._jobs) >= MAX_QUEUED:
                raise ServiceError("unavailable", N_("too many reviews are waiting: try again in a minute"))
            job = _Job(table_id, number, record)
            self._jobs[(table_id, number)] = job
            self._queue.put_nowait(job)
            if self._task is None or self._task.done():
                self._task = asyncio.create_task(self._run())
        return {"status": "pending", "deal": number, "done": job.done, "total": job.total}

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            job = await self._queue.get()
            try:
                await self._review(loop, job)
            except Exception:  # a failed review is forgotten and tried again on the next request
                pass
            finally:
                self._jobs.pop((job.table_id, job.number), None)

    async def _review(self, loop: asyncio.AbstractEventLoop, job: _Job) -> None:
        points = await asyncio.to_thread(decision_points, job.record, None, job.number - 1)
        job.total = len(points)
        if self._pool is None:
            # A fresh interpreter, never a fork of the threaded server (see paiute.parallel).
            self._pool = process_pool(1)
        decisions = []
        for point in points:
            arguments = (point, self.playouts, REVIEW_SEED)
            decisions.append(await loop.run_in_executor(self._pool, _review_point, arguments))
            job.done += 1
        seats = range(len(job.record.players))
        review = Review(tuple(decisions), summarize(decisions, seats), self.playouts, REVIEW_SEED)
        data = review_json(job.record, job.number, review)
        await asyncio.to_thread(self._save, job.table_id, job.number, data)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await asyncio.to_thread(stop_pool, pool, wait=True)  # none outlives the server


def reviewer_of(app: FastAPI) -> Reviewer:
    reviewer: Reviewer | None = getattr(app.state, "reviewer", None)
    if reviewer is None:
        reviewer = app.state.reviewer = Reviewer(app)
    return reviewer


async def shutdown(app: FastAPI) -> None:
    """Stop the review worker of ``app`` (the server is stopping)."""
    reviewer: Reviewer | None = getattr(app.state, "reviewer", None)
    if reviewer is not None:
        await reviewer.stop()


router = APIRouter(prefix="/api", responses=ERROR_RESPONSES)  # the refusals every /api route documents


@router.get(
    "/tables/{table_id}/deals/{number}/review",
    summary="The review of a finished deal: every decision's cost and mark, or its progress",
    dependencies=[Limited],
)
async def deal_review(
    table_id: TableId, number: DealNumber, request: Request, invite: InviteCode = None
) -> dict[str, Any]:
    # Who may see the record may see its review; anyone else learns nothing (not even how far
    # the match is) and starts no work.
    await require_visible(request, table_id, invite)
    record = await service_of(request).record(table_id)
    if number > len(record.deals):
        raise ServiceError(
            "conflict", N_("deal {deal} has not ended: it is revealed when it ends (R9.3)"), deal=number
        )
    return await reviewer_of(request.app).status(table_id, number, record)
