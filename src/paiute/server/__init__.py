"""``paiute serve``: the multiplayer web server (FastAPI, WebSockets, SQLite or PostgreSQL).

>>> from paiute.server import Settings, create_app
>>> Settings(bot_delay=0).bot_delay
0

Modules: :mod:`~paiute.server.table` (a table's pure state, rebuilt from its events in
:mod:`~paiute.server.tablestate`, and the plans for new ones; its values in
:mod:`~paiute.server.tabledata`),
:mod:`~paiute.server.views` (the one builder of everything a client is sent),
:mod:`~paiute.server.updates` and :mod:`~paiute.server.patch` (the ``update`` frames, whole
Views or JSON patches of them),
:mod:`~paiute.server.db` and :mod:`~paiute.server.migrate` (storage),
:mod:`~paiute.server.dbcalls` and :mod:`~paiute.server.availability` (database calls bounded
in time, and whether the database answers),
:mod:`~paiute.server.core` (the commit path, bots, clocks; the step due next in
:mod:`~paiute.server.automation`), :mod:`~paiute.server.service`
(the requests and connections over it), :mod:`~paiute.server.abandoned` (the sweep that ends
the tables nobody is at), :mod:`~paiute.server.pubsub`
(fan-out, PostgreSQL LISTEN/NOTIFY), :mod:`~paiute.server.api` and :mod:`~paiute.server.ws`
(HTTP and WebSocket), :mod:`~paiute.server.accounts`, :mod:`~paiute.server.sessions` and
:mod:`~paiute.server.account_api` (optional accounts: sessions, and the seats they gather),
:mod:`~paiute.server.app` (the application factory),
:mod:`~paiute.server.guide` (the facts of the players' rules page, /rules),
:mod:`~paiute.server.lesson` ("Learn to play": a lesson table and its coach).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["Settings", "create_app"]

if TYPE_CHECKING:
    from paiute.server.app import create_app
    from paiute.server.service import Settings


def __getattr__(name: str) -> Any:
    # Lazy, so that ``import paiute.server.table`` does not load FastAPI.
    if name == "create_app":
        from paiute.server.app import create_app

        return create_app
    if name == "Settings":
        from paiute.server.service import Settings

        return Settings
    raise AttributeError(name)
