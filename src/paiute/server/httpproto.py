"""uvicorn's HTTP protocol with a deadline for a request's headers (slow-header attacks).

uvicorn closes an idle keep-alive connection (``timeout_keep_alive``) but waits for ever for
the rest of a request's headers: 300 sockets that send half a request hold 300 connections
(and file descriptors) as long as they like. :class:`HttpProtocol` gives every request
``header_seconds`` from its first byte (or from the connection, for the first request) to
finish its headers, then closes the connection. The body has its own deadline
(:class:`paiute.server.limits.BodyLimit`).

This builds on a class uvicorn does not document as an extension point: :func:`http_protocol`
falls back to uvicorn's "auto" when it is not there.
"""

from __future__ import annotations

import asyncio
from typing import Any

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover - httptools missing, or another uvicorn layout
    HttpToolsProtocol = None  # type: ignore[assignment,misc]

__all__ = ["HttpProtocol", "http_protocol"]


def http_protocol(header_seconds: float) -> type[Any] | str:
    """What to pass as uvicorn's ``http``: :class:`HttpProtocol` with that deadline, or "auto"."""
    if HttpToolsProtocol is None:  # pragma: no cover
        return "auto"
    return type("HttpProtocol", (HttpProtocol,), {"header_seconds": header_seconds})


class HttpProtocol(HttpToolsProtocol or object):  # type: ignore[misc]
    """uvicorn's httptools protocol, closing a connection whose headers are late."""

    header_seconds = 10.0
    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:
        super().connection_made(transport)
        self._start_header_timer()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._header_timer is None:
            self._start_header_timer()

    def on_headers_complete(self) -> None:
        self._stop_header_timer()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        super().connection_lost(exc)

    def _start_header_timer(self) -> None:
        self._header_timer = self.loop.call_later(self.header_seconds, self._headers_late)

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_late(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()
