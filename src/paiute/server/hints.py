"""The hint button's endpoint: ``POST /api/tables/{table_id}/hint`` (paiute.analysis.hint).

Only a seated person may ask, with its seat token, and only on its own move: the hint is
worked out from that seat's observation alone (R9), the same figures as ``paiute hint --json``
(``paiute-hint/2``). Whether hints are on is the table's policy
(:func:`~paiute.server.tabledata.hint_policy`): always for one person with bots; between
people only where the creator allowed them, and then the table is told who asked (a ``hint``
event, once a seat and moment, naming nobody's cards); elsewhere a refusal (``hints_off``)
comes before any work. The estimate has its own seeded chance, derived as the table's review
derives the seed of that decision (:func:`~paiute.analysis.hint.position_seed` of the review's
seed, the deal and the move), with the review's playouts: the hint and the review of the deal
give the same figures for the same moves (unless the hint's time budget cut its playouts
short). Asking again at the same moment gives the same hint, and nothing of it is stored.

The estimate runs off the event loop, in this module's own small pool of worker processes
(fresh interpreters, never a fork of the threaded server), so that neither the table's event
loop nor the bots' threads compete with it for the interpreter; a bounded number run at once
(more is refused with ``unavailable``), each with a playout and a time budget, and a position
already worked out is answered from a small cache. The request takes a token of the same rate
limiter as every request that changes state.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam

from paiute.analysis.hint import hint, position_seed
from paiute.errors import N_
from paiute.observation import Observation
from paiute.parallel import process_pool, stop_pool
from paiute.server.api import ERROR_RESPONSES, Limited, bearer_token, service_of
from paiute.server.errors import ServiceError
from paiute.server.reviews import REVIEW_SEED, review_playouts

__all__ = ["HintSettings", "router", "shutdown"]

TableId = Annotated[str, PathParam(pattern=r"^[A-Za-z0-9_-]{1,32}$", description="the table's id")]


@dataclass(frozen=True, slots=True)
class HintSettings:
    """How much thinking one hint may take (``app.state.hint_settings`` overrides these)."""

    playouts: int | None = None  # determinizations each legal move is played out on (None: the review's)
    draw_playouts: int = 12  # playouts counting the draws left
    budget_ms: float | None = 2000.0  # the estimate stops before running past this (None: never)
    workers: int = 2  # hints worked out at once, in their own processes...
    waiting: int = 4  # ...and at most this many more queued; beyond, "unavailable"
    cache: int = 256  # positions remembered (table, moment, seat)
    processes: bool = True  # False: threads of this process (tests; no process start-up)


def _work(
    observation: Observation, playouts: int, draw_playouts: int, budget_ms: float | None, seed: int
) -> dict[str, Any]:
    """In a worker: the hint's figures, from the seat's observation only (R9)."""
    found = hint(observation, playouts=playouts, draw_playouts=draw_playouts, budget_ms=budget_ms, seed=seed)
    return found.to_json()


class _Hints:
    """The pool, the count of hints under way and the cache of one application."""

    def __init__(self, settings: HintSettings) -> None:
        self.settings = settings
        # The review's playouts unless told otherwise: the same figures as the deal's review.
        self.playouts = review_playouts() if settings.playouts is None else settings.playouts
        self.pool: Executor
        if settings.processes:
            self.pool = process_pool(settings.workers)
        else:
            self.pool = ThreadPoolExecutor(max_workers=settings.workers, thread_name_prefix="paiute-hint")
        self.under_way = 0  # changed on the event loop only
        self.cache: OrderedDict[tuple[str, int, int], dict[str, Any]] = OrderedDict()
        self.running: dict[tuple[str, int, int], asyncio.Future[dict[str, Any]]] = {}

    def remembered(self, key: tuple[str, int, int]) -> dict[str, Any] | None:
        found = self.cache.get(key)
        if found is not None:
            self.cache.move_to_end(key)
        return found

    def remember(self, key: tuple[str, int, int], answer: dict[str, Any]) -> None:
        self.cache[key] = answer
        while len(self.cache) > self.settings.cache:
            self.cache.popitem(last=False)

    def start(
        self, key: tuple[str, int, int], observation: Observation, seed: int
    ) -> asyncio.Future[dict[str, Any]]:
        settings = self.settings
        if self.under_way >= settings.workers + settings.waiting:
            raise ServiceError("unavailable", N_("the server is busy working out hints; try again soon"))
        self.under_way += 1
        loop = asyncio.get_running_loop()
        running: asyncio.Future[dict[str, Any]] = asyncio.ensure_future(
            loop.run_in_executor(
                self.pool,
                _work,
                observation,
                self.playouts,
                settings.draw_playouts,
                settings.budget_ms,
                seed,
            )
        )
        self.running[key] = running

        def finished(_done: object) -> None:
            self.under_way -= 1
            self.running.pop(key, None)

        running.add_done_callback(finished)
        return running


def _hints_of(request: Request) -> _Hints:
    state = request.app.state
    hints: _Hints | None = getattr(state, "hints", None)
    if hints is None:
        hints = state.hints = _Hints(getattr(state, "hint_settings", None) or HintSettings())
    return hints


async def shutdown(app: Any) -> None:
    """End the hint workers of ``app`` (the server is stopping): none outlives it."""
    hints: _Hints | None = getattr(app.state, "hints", None)
    if hints is not None:
        app.state.hints = None
        await asyncio.to_thread(stop_pool, hints.pool, wait=True)


def _seed(deal: int, action: int) -> int:
    """The hint's own seed before action ``action`` of deal ``deal`` (the record's indexes,
    from 0): the seed the table's review gives that decision, so that both show the same
    figures; the same position gives the same hint, and no generator of the table or its bots
    is touched. It depends on public facts only (R9.1: the deal and the move numbers)."""
    return position_seed(REVIEW_SEED, deal, action)


router = APIRouter(prefix="/api", responses=ERROR_RESPONSES)  # the refusals every /api route documents


@router.post(
    "/tables/{table_id}/hint",
    summary="The best move for your seat now, and why (only on your move; paiute-hint/2)",
    dependencies=[Limited],
)
async def table_hint(table_id: TableId, request: Request) -> dict[str, Any]:
    service = service_of(request)
    rt = await service.runtime(table_id, fresh=True)
    seat = service.seat_for(rt, bearer_token(request, table_id), required=True)
    assert seat is not None
    table = rt.table
    moment = table.hint_moment
    # Refused here (hints off for this seat, not its move) before any work starts.
    announce = table.plan_hint(seat, moment)
    deal = table.deal
    assert deal is not None
    observation = deal.observation(seat)  # taken now, on the loop: the view at that moment
    number, version = table.deal_number, table.version
    assert number is not None
    seed = _seed(number - 1, len(deal.actions))  # the position's, as its review seeds it
    if announce:
        version = await service.announce_hint(rt, seat, moment)  # the table sees who asks
    key = (table_id, moment, seat)
    hints = _hints_of(request)
    remembered = hints.remembered(key)
    if remembered is not None:
        answer = remembered
    else:
        running = hints.running.get(key)
        if running is None:
            running = hints.start(key, observation, seed)
        # shield: a client that goes away does not cancel the work another request may await
        answer = await asyncio.shield(running)
        hints.remember(key, answer)
    return {"table": table_id, "version": version, "deal": number, **answer}
