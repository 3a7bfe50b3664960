"""Limits on what clients may send: rates per address, token and seat, and sizes and times.

The counting is the ``limits`` library's, in memory: a sliding window counter (two counters
a key, whatever the rate, which near a window's edge weighs the last window's hits down and so
may let a few more through), or for the few hits a minute that guard log-ins and new tables
a moving window (the time of each of the last hits a key, exact); :class:`Limiter` names one
limit ("so many a second, in bursts of so many"). A refused message changes nothing; the client is told ``rate_limited``,
``too_large`` or ``timeout``.

These counts are each process's own. Behind nginx (docs/hosting.md) one client address always
reaches one process, and nginx caps each address's requests itself; the log-ins per account
name, which come from any address, are counted in the database instead
(:mod:`paiute.server.logins`).

>>> limiter = Limiter(rate=1, burst=2)
>>> [limiter.take("a"), limiter.take("a"), limiter.take("a"), limiter.take("b")]
[True, True, False, True]
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import threading
import time
from dataclasses import dataclass

from limits import RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter, SlidingWindowCounterRateLimiter
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from paiute.errors import N_
from paiute.server.errors import ServiceError
from paiute.server.lang import client_language

__all__ = ["BodyLimit", "Limiter", "Limits", "send_error"]


#: A rate at or above this is no limit at all (tests and load runs pass 1e9 or more).
UNLIMITED = 1e8
#: Seconds between two sweeps of the expired windows out of the limiters' store.
EXPIRE_EVERY = 1.0


class _Store(MemoryStorage):
    """The ``limits`` library's store in memory, its expired windows swept by one thread that
    lives as long as the process. The library's own sweeper is a timer thread started again
    by the first hit after the last one ran (most hits, under load), and each thread start
    holds up the event loop that counts the hits until the new thread is scheduled."""

    def __init__(self) -> None:
        super().__init__()
        self.timer.cancel()
        # While this one is alive the library starts no other (it replaces only a dead timer).
        self.timer = threading.Timer(EXPIRE_EVERY, self._sweep)
        self.timer.name = "paiute-limits-expiry"
        self.timer.daemon = True
        self.timer.start()

    def _sweep(self) -> None:
        while True:
            # The library's own expiry: the counts whose window has passed, and the moving
            # windows' hits older than their window.
            self._MemoryStorage__expire_events()  # type: ignore[attr-defined]
            time.sleep(EXPIRE_EVERY)


# One store for every limiter of the process: it expires old windows in one thread.
_STORAGE: MemoryStorage | None = None
_NAMESPACES = itertools.count()


def _storage() -> MemoryStorage:
    global _STORAGE
    if _STORAGE is None:
        _STORAGE = _Store()
    return _STORAGE


@dataclass(frozen=True, slots=True)
class Limits:
    """What one client may do (``paiute serve`` flags set them; docs/web-protocol.md).

    An address is the peer's IP address, or the one a trusted proxy forwards
    (``trusted_proxies``, uvicorn's proxy headers); seats are named by their tokens.
    """

    address_rate: float = 30.0  # requests a second from one address (HTTP and WebSocket)...
    address_burst: float = 300.0  # ...in bursts of up to this many
    tables_per_minute: int = 10  # tables one address may create a minute
    open_tables: int = 10  # tables created by one address that are not closed
    seats_per_address: int = 4  # seats one address may take at one table
    ws_per_seat: int = 4  # WebSocket connections open at once for one seat
    ws_per_address: int = 64  # WebSocket connections open at once from one address
    hello_seconds: float = 5.0  # for a WebSocket's hello, from its opening (then closed, 1008)
    chat_rate: float = 1.0  # chat lines a second one seat may say...
    chat_burst: float = 5.0  # ...in bursts of up to this many
    logins_per_minute: int = 10  # log-ins and sign-ups one address may try a minute
    logins_per_name: int = 5  # wrong passwords a minute for one account name, from any address
    header_seconds: float = 10.0  # to send a request's headers, from connecting
    body_seconds: float = 10.0  # to send a request's body, once its headers are in
    keep_alive_seconds: int = 5  # an idle connection is closed after this
    max_connections: int = 2000  # connections (and requests) at once, past which 503
    trusted_proxies: tuple[str, ...] = ()  # whose X-Forwarded-For / -Proto are believed


class Limiter:
    """At most ``rate`` hits a second per key, in bursts of up to ``burst``.

    ``burst`` hits are allowed in every window of ``burst / rate`` seconds (sliding); with
    ``exact``, never more than ``burst`` in any such window (a moving window: it keeps the
    time of each of the last ``burst`` hits a key, so it is for small bursts).
    """

    def __init__(self, rate: float, burst: float, *, exact: bool = False) -> None:
        self.rate = rate
        self.burst = burst
        self.unlimited = rate >= UNLIMITED or burst >= UNLIMITED
        amount = max(1, int(burst))
        self._item = RateLimitItemPerSecond(amount, max(1, math.ceil(amount / rate)) if rate > 0 else 1)
        strategy = MovingWindowRateLimiter if exact else SlidingWindowCounterRateLimiter
        self._limiter = strategy(_storage())
        self._namespace = f"paiute-{next(_NAMESPACES)}"  # its own keys in the shared store

    def take(self, key: str) -> bool:
        """Count one hit for ``key``; False (and nothing counted) past the limit."""
        if self.unlimited:
            return True
        return bool(self._limiter.hit(self._item, self._namespace, key))


async def send_error(
    scope: Scope, send: Send, error: ServiceError, headers: tuple[tuple[bytes, bytes], ...] = ()
) -> None:
    """Answer an HTTP request with ``{"error": ...}`` (in the client's language)."""
    body = json.dumps({"error": error.to_json(client_language(HTTPConnection(scope)))}, ensure_ascii=False)
    payload = body.encode()
    await send(
        {
            "type": "http.response.start",
            "status": error.status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes is refused with 413 ``too_large``,
    one not in after ``seconds`` with 408 ``timeout`` (a slow body holds nothing for long).

    Bodies are small, so the body is read (at most ``limit`` bytes) before the app sees it.
    """

    def __init__(self, app: ASGIApp, limit: int, seconds: float = 10.0) -> None:
        self.app = app
        self.limit = limit
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        too_large = ServiceError("too_large", N_("the request body is over {limit} bytes"), limit=self.limit)
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await send_error(scope, send, too_large)
            return
        body = b""
        more = True
        try:
            async with asyncio.timeout(self.seconds):
                while more:
                    message = await receive()
                    if message["type"] != "http.request":
                        return  # the client went away
                    body += message.get("body", b"")
                    more = message.get("more_body", False)
                    if len(body) > self.limit:
                        await send_error(scope, send, too_large)
                        return
        except TimeoutError:
            slow = ServiceError(
                "timeout", N_("the request body took over {seconds} seconds"), seconds=self.seconds
            )
            await send_error(scope, send, slow, ((b"connection", b"close"),))
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            result: Message = await receive()
            return result

        await self.app(scope, replay, send)
