"""The WebSocket protocol ``paiute serve`` runs: uvicorn's sans-I/O one, without compression.

Browsers ask for permessage-deflate, and the server declines it (:data:`PER_MESSAGE_DEFLATE`,
uvicorn's ``ws_per_message_deflate``; a client cannot tell but for the absent extension). Since
updates carry a patch of the View instead of the whole View (:mod:`paiute.server.updates`), an
update is a small frame: compressing it saves a few hundred bytes and costs a noticeable share
of the server's CPU per action (``benchmarks/server_load.py``), and a context per connection
(the frames differ per seat, so it cannot be shared). A whole View (a ``welcome``, or an update
on a connection that asked for no patches) is several times larger, sent once per connection
or by clients that chose it. docs/web-protocol.md (*Compression*) has the figures.

uvicorn's sans-I/O protocol ("websockets-sansio") is the one the server's load figures are for
(``benchmarks/server_load.py``); :func:`websocket_protocol` falls back to uvicorn's own choice
("auto") in a uvicorn release without it.
"""

from __future__ import annotations

from uvicorn.config import WS_PROTOCOLS

__all__ = ["PER_MESSAGE_DEFLATE", "websocket_protocol"]

#: Whether the server accepts permessage-deflate (uvicorn's ``ws_per_message_deflate``).
PER_MESSAGE_DEFLATE = False


def websocket_protocol() -> str:
    """What to pass as uvicorn's ``ws``: "websockets-sansio", or "auto" without it."""
    return "websockets-sansio" if "websockets-sansio" in WS_PROTOCOLS else "auto"
