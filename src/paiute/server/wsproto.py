"""The WebSocket protocol ``paiute serve`` runs: uvicorn's sans-I/O one, without compression.

Browsers ask for permessage-deflate, and the server declines it (:data:`PER_MESSAGE_DEFLATE`,
uvicorn's ``ws_per_message_deflate``; a client cannot tell but for the absent extension). Since
updates carry a patch of the View instead of the whole View (:mod:`paiute.server.updates`), an
update is about 0.8 KB of JSON: compressing it saves a few hundred bytes a frame and cost about
8% of the server's CPU per action in ``benchmarks/server_load.py`` (zlib level 1; it had been
the largest single cost when every frame carried the whole View), and a context per
connection (the frames differ per seat, so it cannot be shared). A whole View (a ``welcome``,
or an update on a connection that asked for no patches) is 7-13 KB, sent once per connection
or by clients that chose it. docs/web-protocol.md (*Compression*) has the figures.

uvicorn's sans-I/O protocol ("websockets-sansio") is the one ``paiute serve`` was measured
with; :func:`websocket_protocol` falls back to uvicorn's own choice ("auto") in a uvicorn
release without it.
"""

from __future__ import annotations

from uvicorn.config import WS_PROTOCOLS

__all__ = ["PER_MESSAGE_DEFLATE", "websocket_protocol"]

#: Whether the server accepts permessage-deflate (uvicorn's ``ws_per_message_deflate``).
PER_MESSAGE_DEFLATE = False


def websocket_protocol() -> str:
    """What to pass as uvicorn's ``ws``: "websockets-sansio", or "auto" without it."""
    return "websockets-sansio" if "websockets-sansio" in WS_PROTOCOLS else "auto"
