"""What every request passes before the application sees it, and the counts kept per address.

:class:`GuardMiddleware` (pure ASGI, outermost but for uvicorn's proxy headers) does, for every
HTTP request and WebSocket handshake:

* a rate per client address (:attr:`Limits.address_rate`): a random bearer token per request
  changes nothing, the address is counted first. The address is the peer's, or the one a
  proxy named by ``--trusted-proxy`` forwards (uvicorn's ``ProxyHeadersMiddleware`` rewrites
  the scope's client and scheme only for those; nobody else's ``X-Forwarded-For`` is read);
* the Origin check of every request that can change something (every method but GET, HEAD
  and OPTIONS, and every WebSocket): a browser's ``Origin`` (or ``Sec-Fetch-Site``) must be
  this server's own, whatever the content type, so a page elsewhere (another port of the same
  host included) cannot use a victim's seat cookie;
* the security headers on every response (the ``secure`` library builds them): a
  Content-Security-Policy without inline script and with ``frame-ancestors 'none'``,
  X-Frame-Options DENY, nosniff, a Referrer-Policy, and HSTS over HTTPS.

:class:`Guard` keeps the per-address counts the API and the WebSocket check: tables created
and still open, seats taken at a table, WebSocket connections open (per address and per seat).
They live in memory (the addresses are never stored): a restart starts them again.
"""

from __future__ import annotations

import ipaddress
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlsplit

import secure
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from paiute.errors import N_
from paiute.server.errors import ServiceError
from paiute.server.limits import Limiter, Limits, send_error
from paiute.server.service import hash_token
from paiute.server.table import LiveTable, same_invite

__all__ = ["Guard", "GuardMiddleware", "client_address", "may_see", "security_headers"]


_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
#: Keys kept per count before the least recent is forgotten (every loop and map bounded).
KEYS = 100_000


def _policy(style: tuple[str, ...] = ("'self'",)) -> secure.ContentSecurityPolicy:
    return (
        secure.ContentSecurityPolicy()
        .default_src("'self'")
        .script_src("'self'")
        .style_src(*style)
        .img_src("'self'", "data:")
        .connect_src("'self'")  # CSP 3: 'self' covers ws: and wss: to this host
        .font_src("'self'")
        .object_src("'none'")
        .base_uri("'none'")
        .form_action("'self'")
        .frame_ancestors("'none'")
    )


def security_headers(*, https: bool, docs: bool = False) -> list[tuple[bytes, bytes]]:
    """The headers every response carries (``docs``: Swagger UI sets inline styles)."""
    policy = _policy(("'self'", "'unsafe-inline'") if docs else ("'self'",))
    headers = secure.Secure(
        csp=policy,
        xfo=secure.XFrameOptions().deny(),
        xcto=secure.XContentTypeOptions().nosniff(),
        referrer=secure.ReferrerPolicy().same_origin(),
        coop=secure.CrossOriginOpenerPolicy().same_origin(),
        permissions=secure.PermissionsPolicy().geolocation().microphone().camera(),
        hsts=secure.StrictTransportSecurity().max_age(31_536_000) if https else None,
    ).headers
    return [(name.lower().encode(), value.encode()) for name, value in headers.items()]


_HEADERS = {
    (https, docs): security_headers(https=https, docs=docs)
    for https in (False, True)
    for docs in (False, True)
}


def client_address(scope: Mapping[str, Any]) -> str:
    """The client's address: the peer, or what a trusted proxy forwarded (see the module).

    An IPv6 address counts as its /64 network: one subscriber usually has a whole /64, and
    could otherwise take a fresh address for every request.

    >>> client_address({"client": ("2001:db8::1", 5000)}), client_address({"client": ("10.0.0.7", 1)})
    ('2001:db8::/64', '10.0.0.7')
    """
    client = scope.get("client")
    if not client:
        return "?"
    address = str(client[0])
    if ":" in address:
        try:
            return str(ipaddress.ip_network(f"{address}/64", strict=False))
        except ValueError:
            return address
    return address


def _origin(value: str) -> tuple[str, str, int] | None:
    try:
        parts = urlsplit(value)
        scheme = parts.scheme.lower()
        host = (parts.hostname or "").lower()
        port = parts.port or _DEFAULT_PORTS.get(scheme, 0)
    except ValueError:
        return None
    if scheme not in _DEFAULT_PORTS or not host:
        return None
    return scheme, host, port


def _same_origin(scope: Mapping[str, Any], headers: dict[bytes, bytes]) -> bool:
    """Whether a browser sent this request from one of this server's own pages."""
    origin = headers.get(b"origin")
    if origin is None:
        # No Origin: not a browser's cross-origin request (they always send one with a POST
        # or a WebSocket), unless Sec-Fetch-Site says otherwise.
        site = headers.get(b"sec-fetch-site", b"same-origin")
        return site in (b"same-origin", b"none")
    theirs = _origin(origin.decode("latin-1"))
    host = headers.get(b"host")
    if theirs is None or host is None:
        return False
    scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), scope.get("scheme", "http"))
    ours = _origin(f"{scheme}://{host.decode('latin-1')}")
    return ours is not None and theirs == ours


class Guard:
    """The per-address and per-seat counts of one server process (see the module)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.requests = Limiter(limits.address_rate, limits.address_burst)
        self.creations = Limiter(limits.tables_per_minute / 60.0, limits.tables_per_minute, exact=True)
        self.chat = Limiter(limits.chat_rate, limits.chat_burst)
        self._tables: OrderedDict[str, list[str]] = OrderedDict()  # address -> tables created
        self._seats: OrderedDict[tuple[str, str], int] = OrderedDict()  # (table, address) -> joins
        self._sockets: dict[str, int] = {}  # address -> WebSocket connections open
        self._seat_sockets: dict[tuple[str, int], int] = {}  # (table, seat) -> connections open

    # -- tables and seats ----------------------------------------------------------------

    def before_create(self, address: str, is_open: Callable[[str], bool]) -> None:
        """Refuse a new table past the creation rate or the open tables of ``address``."""
        created = [table for table in self._tables.get(address, []) if is_open(table)]
        self._tables[address] = created
        if len(created) >= self.limits.open_tables:
            raise ServiceError(
                "rate_limited",
                N_("your address already has {count} open tables: finish or leave one first"),
                count=len(created),
            )
        if not self.creations.take(address):
            raise ServiceError("rate_limited", N_("too many new tables: wait a minute"))

    def created(self, address: str, table_id: str) -> None:
        self._tables.setdefault(address, []).append(table_id)
        self._tables.move_to_end(address)
        _bound(self._tables)

    def before_join(self, table_id: str, address: str) -> None:
        if self._seats.get((table_id, address), 0) >= self.limits.seats_per_address:
            raise ServiceError(
                "rate_limited",
                N_("your address has taken {count} seats at this table already"),
                count=self.limits.seats_per_address,
            )

    def joined(self, table_id: str, address: str) -> None:
        key = (table_id, address)
        self._seats[key] = self._seats.get(key, 0) + 1
        self._seats.move_to_end(key)
        _bound(self._seats)

    def may_chat(self, table_id: str, token_hash: str) -> None:
        """A seat's chat lines, over HTTP and every connection together."""
        if not self.chat.take(f"{table_id}:{token_hash}"):
            raise ServiceError("rate_limited", N_("too many chat lines: wait a moment"))

    # -- WebSocket connections -------------------------------------------------------------

    def open_socket(self, address: str) -> None:
        """Count a connection from ``address`` (refused past :attr:`Limits.ws_per_address`)."""
        if self._sockets.get(address, 0) >= self.limits.ws_per_address:
            raise ServiceError(
                "rate_limited",
                N_("too many connections from your address ({limit})"),
                limit=self.limits.ws_per_address,
            )
        self._sockets[address] = self._sockets.get(address, 0) + 1

    def close_socket(self, address: str) -> None:
        left = self._sockets.get(address, 0) - 1
        if left > 0:
            self._sockets[address] = left
        else:
            self._sockets.pop(address, None)

    def open_seat_socket(self, table_id: str, seat: int) -> None:
        """Count a connection of a seat (refused past :attr:`Limits.ws_per_seat`)."""
        key = (table_id, seat)
        if self._seat_sockets.get(key, 0) >= self.limits.ws_per_seat:
            raise ServiceError(
                "rate_limited",
                N_("this seat already has {limit} connections: close one first"),
                limit=self.limits.ws_per_seat,
            )
        self._seat_sockets[key] = self._seat_sockets.get(key, 0) + 1

    def close_seat_socket(self, table_id: str, seat: int) -> None:
        key = (table_id, seat)
        left = self._seat_sockets.get(key, 0) - 1
        if left > 0:
            self._seat_sockets[key] = left
        else:
            self._seat_sockets.pop(key, None)


def may_see(table: LiveTable, token: str | None, invite: str | None) -> None:
    """A private table shows nothing (state, events, chat, replays, record, proofs, its
    WebSocket) to anyone without one of its seats or its invitation code."""
    config = table.config
    if not config.private:
        return
    if token is not None and table.seat_of(hash_token(token)) is not None:
        return
    if same_invite(invite, config.invite):
        return
    raise ServiceError(
        "forbidden", N_("this table is private: only its seats and its invitation link can see it")
    )


def _bound(counts: OrderedDict[Any, Any]) -> None:
    while len(counts) > KEYS:
        counts.popitem(last=False)


class GuardMiddleware:
    """ASGI middleware: the address rate, the Origin check and the security headers."""

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        refusal: ServiceError | None = None
        if not self.guard.requests.take(client_address(scope)):
            refusal = ServiceError("rate_limited", N_("too many requests from your address: slow down"))
        elif (kind == "websocket" or scope.get("method") not in _SAFE_METHODS) and not _same_origin(
            scope, headers
        ):
            refusal = ServiceError(
                "forbidden", N_("this request comes from another site's page (its Origin is not this server)")
            )
        if kind == "websocket":
            if refusal is not None:
                await send({"type": "websocket.close", "code": 1008, "reason": refusal.code})
                return
            await self.app(scope, receive, send)
            return
        extra = _HEADERS[(scope.get("scheme") == "https", str(scope.get("path", "")).startswith("/docs"))]

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        if refusal is not None:
            retry = ((b"retry-after", b"1"),) if refusal.code == "rate_limited" else ()
            await send_error(scope, with_headers, refusal, retry)
            return
        await self.app(scope, receive, with_headers)
