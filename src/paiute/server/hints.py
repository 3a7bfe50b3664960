"""The hint button's endpoint: ``POST /api/tables/{table_id}/hint`` (paiute.hint).

Only a seated person may ask, with its seat token, and only on its own move: the hint is
worked out from that seat's observation alone (R9), the same figures as ``paiute hint --json``
(``paiute-hint/1``). It never touches the table: the estimate has its own seeded chance,
derived from the table, its version and the seat (so asking again at the same moment gives the
same hint), and nothing is stored.

The estimate runs off the event loop, in this module's own small pool of threads, so that a
table never waits on it and the bots' threads are not crowded; a bounded number run at once
(more is refused with ``unavailable``), each with a playout and a time budget, and a position
already worked out is answered from a small cache. The request takes a token of the same rate
limiter as every request that changes state.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam

from paiute.errors import N_
from paiute.hint import hint
from paiute.observation import Observation
from paiute.server.api import Limited, bearer_token, service_of
from paiute.server.errors import ServiceError

__all__ = ["HintSettings", "router"]

TableId = Annotated[str, PathParam(pattern=r"^[A-Za-z0-9_-]{1,32}$", description="the table's id")]


@dataclass(frozen=True, slots=True)
class HintSettings:
    """How much thinking one hint may take (``app.state.hint_settings`` overrides these)."""

    playouts: int = 24  # determinizations each legal move is played out on
    draw_playouts: int = 12  # playouts counting the draws left
    budget_ms: float | None = 2000.0  # the estimate stops before running past this (None: never)
    workers: int = 2  # hints worked out at once, in their own threads...
    waiting: int = 4  # ...and at most this many more queued; beyond, "unavailable"
    cache: int = 256  # positions remembered (table, version, seat)


class _Hints:
    """The pool, the count of hints under way and the cache of one application."""

    def __init__(self, settings: HintSettings) -> None:
        self.settings = settings
        self.pool = ThreadPoolExecutor(max_workers=settings.workers, thread_name_prefix="paiute-hint")
        self.lock = threading.Lock()
        self.under_way = 0
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

    def work(self, observation: Observation, seed: int) -> dict[str, Any]:
        """In a pool thread: the hint's figures (observation only, R9)."""
        settings = self.settings
        try:
            found = hint(
                observation,
                playouts=settings.playouts,
                draw_playouts=settings.draw_playouts,
                budget_ms=settings.budget_ms,
                seed=seed,
            )
            return found.to_json()
        finally:
            with self.lock:
                self.under_way -= 1


def _hints_of(request: Request) -> _Hints:
    state = request.app.state
    hints: _Hints | None = getattr(state, "hints", None)
    if hints is None:
        hints = state.hints = _Hints(getattr(state, "hint_settings", None) or HintSettings())
    return hints


def _seed(table_id: str, version: int, seat: int) -> int:
    """The hint's own seed: the same position gives the same hint, and no generator of the
    table or its bots is touched."""
    text = f"paiute-hint:{table_id}:{version}:{seat}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:6], "big")


router = APIRouter(prefix="/api")


@router.post(
    "/tables/{table_id}/hint",
    summary="The best move for your seat now, and why (only on your move; paiute-hint/1)",
    dependencies=[Limited],
)
async def table_hint(table_id: TableId, request: Request) -> dict[str, Any]:
    service = service_of(request)
    rt = await service.runtime(table_id, fresh=True)
    seat = service.seat_for(rt, bearer_token(request, table_id), required=True)
    assert seat is not None
    table = rt.table
    deal = table.deal
    if table.status != "playing" or deal is None or deal.is_over or deal.current_seat != seat:
        raise ServiceError("not_your_turn", N_("a hint is for your own move: it is not your turn now"))
    if table.is_bot(seat):  # pragma: no cover - a bot's seat has no token
        raise ServiceError("forbidden", N_("a hint is for a person's seat"))
    version = table.version
    key = (table_id, version, seat)
    hints = _hints_of(request)
    remembered = hints.remembered(key)
    if remembered is not None:
        answer = remembered
    else:
        running = hints.running.get(key)
        if running is None:
            with hints.lock:
                if hints.under_way >= hints.settings.workers + hints.settings.waiting:
                    raise ServiceError(
                        "unavailable", N_("the server is busy working out hints; try again soon")
                    )
                hints.under_way += 1
            observation = deal.observation(seat)  # taken now, on the loop: one consistent view
            loop = asyncio.get_running_loop()
            running = asyncio.ensure_future(
                loop.run_in_executor(hints.pool, hints.work, observation, _seed(table_id, version, seat))
            )
            hints.running[key] = running
            running.add_done_callback(lambda _done: hints.running.pop(key, None))
        # shield: a client that goes away does not cancel the work another request may await
        answer = await asyncio.shield(running)
        hints.remember(key, answer)
    return {"table": table_id, "version": version, "deal": table.deal_number, **answer}
