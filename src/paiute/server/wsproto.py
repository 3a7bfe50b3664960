"""The WebSocket protocol ``paiute serve`` runs: uvicorn's, with a cheaper permessage-deflate.

Browsers ask for permessage-deflate and every ``update`` carries the whole View (several
kilobytes, most of it the deal's history), so compression stays on: it sends a sixth of the
bytes. uvicorn compresses at zlib's default level (6); at level 1 the frames are about 30%
larger (still a fifth of the raw text) and compressing takes about half the CPU, which on a
busy server is the single largest cost of an update (benchmarks/server_load.py). The window
(4 KiB) and memory settings are uvicorn's.

The subclass builds on uvicorn's sans-I/O protocol, which is not a documented extension
point: :func:`websocket_protocol` falls back to uvicorn's own choice ("auto") when that
class is not there, so a uvicorn release that moves it costs CPU, never a failure to start.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

try:
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
except ImportError:  # pragma: no cover - another uvicorn layout
    WebSocketsSansIOProtocol = None  # type: ignore[assignment,misc]

__all__ = ["COMPRESSION_LEVEL", "WebSocketProtocol", "websocket_protocol"]

#: zlib's level for outgoing frames (1: fastest; uvicorn's default is 6).
COMPRESSION_LEVEL = 1


def websocket_protocol() -> type[Any] | str:
    """What to pass as uvicorn's ``ws``: :class:`WebSocketProtocol`, or "auto" without it."""
    return WebSocketProtocol if WebSocketsSansIOProtocol is not None else "auto"


class WebSocketProtocol(WebSocketsSansIOProtocol or object):  # type: ignore[misc]
    """uvicorn's sans-I/O WebSocket protocol, compressing at :data:`COMPRESSION_LEVEL`."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        if config.ws_per_message_deflate:
            deflate = ServerPerMessageDeflateFactory(
                server_max_window_bits=12,
                client_max_window_bits=12,
                compress_settings={"memLevel": 5, "level": COMPRESSION_LEVEL},
            )
            self.conn = ServerProtocol(
                extensions=[deflate],
                max_size=config.ws_max_size,
                logger=logging.getLogger("uvicorn.error"),
            )
