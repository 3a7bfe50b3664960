"""The WebSocket of a table, ``/ws/tables/{table_id}`` (docs/web-protocol.md).

The first message must be ``hello`` (with the seat token, or null for a spectator, and the
last version the client saw); the server answers ``welcome`` with the state and exactly the
events after that version, then an ``update`` for every change. Messages with an ``id``
(``action``, ``cut``, ``chat``, ``start``, ``leave``, ``lesson``...) are answered with ``ack``
or ``error`` (a ``lesson`` message's ``ack`` carries the coach's answer);
a repeated id gets the first ``ack`` again and is not applied twice. Each message is at most
4096 bytes and a seat may send about 20 a second over all its connections together (a
spectator's connection as much on its own), chat lines about one a second; past that the
message is refused (``too_large``, ``rate_limited``) and changes nothing. A seat may hold
``ws_per_seat`` connections at once and an address ``ws_per_address``
(:class:`~paiute.server.limits.Limits`), each counted from its opening, so connections that
never say ``hello`` fill the address's share too, and each is closed when its ``hello`` has
not come within ``hello_seconds``; a private table is shown only to its seats and to its
invitation code (``invite`` in ``hello``).

The server closes a connection with a code and a short reason (docs/web-protocol.md, *Closing*):
1008 and an error code after a refusal that ends it (its ``error`` message comes first, but for
a flood, which had its errors already), 1013 when it fell too far behind.

Everything this connection is sent goes through its queue in order, so an ``ack`` always
follows the ``update`` of the change it acknowledges.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from pydantic import BaseModel, ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from paiute.i18n import DEFAULT_LANGUAGE, N_
from paiute.server import views
from paiute.server.api import ActionBody, ChatBody, CutBody, LessonBody, SeatBody, StartBody
from paiute.server.errors import ServiceError
from paiute.server.guard import Guard, client_address, may_see
from paiute.server.lang import client_language
from paiute.server.limits import Limiter
from paiute.server.pubsub import Subscriber
from paiute.server.service import Runtime, Service, hash_token

__all__ = ["table_socket"]

#: Refused messages in a row after which a flooding connection is closed.
STRIKES = 200
#: How the server closes a connection: a WebSocket close code and its reason (at most 123 bytes).
Closing = tuple[int, str]
NORMAL: Closing = (1000, "")
#: A refusal that ends the connection (the reason is the error's code); RFC 6455's policy code.
POLICY = 1008
#: A connection that fell too far behind (its client reconnects with ``since``).
BEHIND: Closing = (1013, "too_far_behind")
_TABLE_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
# The messages that must carry an id, each refusal a whole message.
_NEEDS_ID: dict[str, str] = {
    "start": N_("a start message needs an id"),
    "leave": N_("a leave message needs an id"),
    "return": N_("a return message needs an id"),
    "hand_to_bot": N_("a hand_to_bot message needs an id"),
}
_MODELS: dict[str, type[BaseModel]] = {
    "action": ActionBody,
    "cut": CutBody,
    "chat": ChatBody,
    "start": StartBody,
    "leave": StartBody,
    "return": StartBody,
    "hand_to_bot": SeatBody,
    "lesson": LessonBody,
}


def _dumps(message: dict[str, Any]) -> str:
    return views.dumps(message)


def _error(error: ServiceError, client_id: str | None = None, lang: str = DEFAULT_LANGUAGE) -> str:
    return _dumps({"type": "error", "id": client_id, "error": error.to_json(lang)})


async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """Serve one connection to a table."""
    guard: Guard = websocket.app.state.guard
    address = client_address(websocket.scope)
    await websocket.accept()
    lang = client_language(websocket)
    # Counted from the opening, not from the hello: silent connections count against the cap.
    try:
        guard.open_socket(address)
    except ServiceError as error:
        await _refuse(websocket, error, lang)
        return
    try:
        await _greet(websocket, guard, table_id, lang)
    finally:
        guard.close_socket(address)


async def _greet(websocket: WebSocket, guard: Guard, table_id: str, lang: str) -> None:
    """Wait for the hello (at most ``hello_seconds``), check it, then serve the connection."""
    service: Service = websocket.app.state.service
    if not 1 <= len(table_id) <= 32 or not set(table_id) <= _TABLE_ID_CHARS:
        await _refuse(websocket, ServiceError("not_found", N_("there is no such table")), lang)
        return
    seconds = guard.limits.hello_seconds
    try:
        text = await asyncio.wait_for(_receive_text(websocket), timeout=seconds)
    except TimeoutError:
        shown = int(seconds) if seconds == int(seconds) else seconds
        late = ServiceError(
            "timeout",
            N_("no hello within {seconds} s of connecting: the connection is closed"),
            seconds=shown,
        )
        await _refuse(websocket, late, lang)
        return
    except WebSocketDisconnect:
        return
    try:
        hello = _hello(text, service.settings.max_message)
        lang = client_language(websocket, hello["lang"])
    except ServiceError as error:
        await _refuse(websocket, error, lang)
        return
    await _serve(websocket, service, guard, table_id, hello, lang)


async def _serve(
    websocket: WebSocket, service: Service, guard: Guard, table_id: str, hello: dict[str, Any], lang: str
) -> None:
    try:
        may_see((await service.runtime(table_id)).table, hello["token"], hello["invite"])
        rt, sub, _ = await service.connect(table_id, hello["token"], hello["since"], patches=hello["patches"])
    except ServiceError as error:
        await _refuse(websocket, error, lang)
        return
    seat = sub.seat
    try:
        if seat is not None:
            guard.open_seat_socket(table_id, seat)
    except ServiceError as error:
        service.disconnect(rt, sub)
        await _refuse(websocket, error, lang)
        return
    writer = asyncio.get_running_loop().create_task(_write(websocket, sub))
    closing = NORMAL
    try:
        closing = await _read(websocket, service, rt, sub, table_id, hello["token"], lang)
    finally:
        if seat is not None:
            guard.close_seat_socket(table_id, seat)
        service.disconnect(rt, sub)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer
        await _close(websocket, *closing)


async def _receive_text(websocket: WebSocket) -> str:
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    if message.get("text") is not None:
        return str(message["text"])
    try:
        return bytes(message.get("bytes") or b"").decode("utf-8")
    except UnicodeDecodeError:
        return "\x00not utf-8"


def _parse(text: str, limit: int) -> dict[str, Any]:
    if len(text) > limit or len(text.encode("utf-8")) > limit:
        raise ServiceError("too_large", N_("a message has at most {limit} bytes"), limit=limit)
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ServiceError("bad_request", N_("a message is one JSON object")) from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ServiceError("bad_request", N_('a message is a JSON object with a "type"'))
    return data


def _hello(text: str, limit: int) -> dict[str, Any]:
    data = _parse(text, limit)
    if data["type"] != "hello":
        raise ServiceError(
            "bad_request", N_('the first message must be {"type": "hello", "token": ..., "since": ...}')
        )
    token = data.get("token")
    since = data.get("since")
    if token is not None and (not isinstance(token, str) or not 1 <= len(token) <= 128):
        raise ServiceError("bad_token", N_("the seat token is not valid at this table"))
    if since is not None and (
        not isinstance(since, int) or isinstance(since, bool) or not 0 <= since < 2**31
    ):
        raise ServiceError("bad_request", N_("since is a version number (or null)"))
    invite = data.get("invite")
    if invite is not None and (not isinstance(invite, str) or len(invite) > 64):
        raise ServiceError("bad_request", N_("invite is a table's invitation code (or null)"))
    # "lang" chooses the language of error messages; an unknown one is passed over. "patches":
    # true asks for updates that patch the View (anything else: the whole View each time).
    patches = data.get("patches") is True
    return {"token": token, "since": since, "lang": data.get("lang"), "invite": invite, "patches": patches}


async def _read(
    websocket: WebSocket,
    service: Service,
    rt: Runtime,
    sub: Subscriber,
    table_id: str,
    token: str | None,
    lang: str = DEFAULT_LANGUAGE,
) -> Closing:
    """Answer the connection's messages until it goes (or must be closed: how, returned)."""
    settings = service.settings
    # One count per seat over all its connections (and its HTTP commands do not share it).
    limiter: Limiter = websocket.app.state.seat_limiter
    guard: Guard = websocket.app.state.guard
    seated = token is not None and sub.seat is not None
    key = f"{table_id}:{hash_token(token)}" if seated and token is not None else f"watcher:{id(sub)}"
    strikes = 0
    while True:
        try:
            text = await _receive_text(websocket)
        except WebSocketDisconnect:
            return NORMAL
        client_id: str | None = None
        try:
            if not limiter.take(key):
                strikes += 1
                if strikes > STRIKES:  # a flood: every one of them was refused already
                    return POLICY, "rate_limited"
                raise ServiceError("rate_limited", N_("too many messages: slow down"))
            strikes = 0
            data = _parse(text, settings.max_message)
            raw_id = data.get("id")
            client_id = raw_id if isinstance(raw_id, str) and len(raw_id) <= 64 else None
            kind = data["type"]
            if kind == "ping":
                sub.push(_dumps({"type": "pong"}))
                continue
            model = _MODELS.get(kind)
            if model is None:
                raise ServiceError("bad_request", N_("unknown message type {kind!r}"), kind=kind)
            if kind in _NEEDS_ID and not isinstance(raw_id, str):
                raise ServiceError("bad_request", _NEEDS_ID[kind])
            try:
                body = model.model_validate(data)
            except ValidationError as error:
                first = error.errors()[0]
                where = ".".join(str(part) for part in first["loc"]) or "message"
                raise ServiceError(
                    # pydantic's own English detail, inside a translated frame
                    "bad_request",
                    N_("{where}: {detail}"),
                    where=where,
                    detail=first["msg"],
                ) from None
            if kind == "chat" and seated and token is not None:
                guard.may_chat(table_id, hash_token(token))
            fields = body.model_dump()
            answer = await service.command(table_id, token, kind, fields.pop("id"), fields, lang)
            sub.push(_dumps({"type": "ack", **answer}))
        except ServiceError as error:
            sub.push(_error(error, client_id, lang))
        if sub.overflowed:
            return BEHIND


async def _write(websocket: WebSocket, sub: Subscriber) -> None:
    """Send the connection's queue in order; a connection that fell too far behind is closed
    (its client reconnects with ``since``)."""
    while True:
        text = await sub.queue.get()
        if sub.overflowed:
            await _close(websocket, *BEHIND)
            return
        await websocket.send_text(text)


async def _refuse(websocket: WebSocket, error: ServiceError, lang: str = DEFAULT_LANGUAGE) -> None:
    """Send the refusal, then close with 1008 and its code as the reason."""
    with contextlib.suppress(Exception):
        await websocket.send_text(_error(error, None, lang))
    await _close(websocket, POLICY, error.code)


async def _close(websocket: WebSocket, code: int = 1000, reason: str = "") -> None:
    if websocket.application_state != WebSocketState.DISCONNECTED:
        with contextlib.suppress(Exception):
            await websocket.close(code, reason or None)
