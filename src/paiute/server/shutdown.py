"""``paiute serve``'s uvicorn server, which says in one line how it stopped.

On SIGTERM or Ctrl-C uvicorn stops listening, closes the connections (each WebSocket with code
1012, so the pages reconnect to whichever server comes up) and then runs the application's
shutdown (:func:`~paiute.server.app.create_app`'s lifespan: the hint and review workers
stopped, the tables' bots and clocks stopped, the writer's last changes committed, the
database closed). :class:`Server` counts the WebSocket connections open when that starts and,
once it is over, hands ``report`` the tables and connections closed and whether the shutdown
went cleanly (no error in the application's part).
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any

import uvicorn

__all__ = ["Server"]


class Server(uvicorn.Server):
    """uvicorn's server over ``app`` (the FastAPI application: its ``state`` holds the
    service); ``report(tables, connections, clean)`` is called once it has stopped."""

    def __init__(self, config: uvicorn.Config, app: Any, report: Callable[[int, int, bool], None]) -> None:
        super().__init__(config)
        self.app = app
        self.report = report

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        state = self.app.state
        service = getattr(state, "service", None)
        connections = 0 if service is None else int(service.connection_count())
        await super().shutdown(sockets)
        tables = getattr(state, "tables_closed", None)
        failed = bool(getattr(self.lifespan, "shutdown_failed", False))
        self.report(int(tables or 0), connections, tables is not None and not failed)
