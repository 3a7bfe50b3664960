"""Limits on what clients may send: a rate per connection or token, and a size per request.

A refused message changes nothing; the client is told ``rate_limited`` or ``too_large``.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from starlette.requests import HTTPConnection

from paiute.errors import N_
from paiute.server.errors import ServiceError
from paiute.server.lang import client_language

__all__ = ["BodyLimit", "Limiter", "TokenBucket"]

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Any]
Send = Callable[[Message], Any]


class TokenBucket:
    """At most ``rate`` messages a second, in bursts of up to ``burst``."""

    __slots__ = ("burst", "clock", "last", "rate", "tokens")

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = burst
        self.last = clock()

    def take(self) -> bool:
        """Spend one token if there is one."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Limiter:
    """One bucket per key (a token's hash or an address), the least recent dropped past ``keys``."""

    def __init__(self, rate: float, burst: float, keys: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.keys = keys
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def take(self, key: str) -> bool:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst)
            if len(self._buckets) > self.keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket.take()


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes is refused with 413 ``too_large``.

    Bodies are small, so the body is read (at most ``limit`` bytes) before the app sees it.
    """

    def __init__(self, app: Callable[[Scope, Receive, Send], Any], limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(scope, send)
            return
        body = b""
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.limit:
                await self._refuse(scope, send)
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

    async def _refuse(self, scope: Scope, send: Send) -> None:
        refusal = ServiceError("too_large", N_("the request body is over {limit} bytes"), limit=self.limit)
        error = refusal.to_json(client_language(HTTPConnection(scope)))
        payload = json.dumps({"error": error}, ensure_ascii=False).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(payload)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": payload})
