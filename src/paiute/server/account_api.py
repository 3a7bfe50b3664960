"""The accounts' routes (:mod:`paiute.server.accounts`): sign up, log in and out, and "my tables".

Every route here but ``GET /api/me`` changes something or reads an account's own data: the
POSTs pass the guard's Origin check like every other (:mod:`paiute.server.guard`), and the
``/api/me/...`` routes answer only the account whose session cookie comes with the request.
A seat token never stands for an account, nor an account for a seat: an account gets a seat's
token by presenting it once (``POST /api/me/claim``) or by taking the seat while logged in,
and may then ask for a fresh link to it (``POST /api/me/tables/{id}/seat``).
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, Field

from paiute.errors import N_
from paiute.server import views
from paiute.server.accounts import PASSWORD_MAX, Account, SeatLink, holds
from paiute.server.api import COOKIE_PREFIX, ERROR_RESPONSES, Limited, TableId, accounts_of, service_of
from paiute.server.errors import ServiceError
from paiute.server.guard import client_address
from paiute.server.names import NAME_LIMIT
from paiute.server.runtime import Runtime, hash_token
from paiute.server.sessions import SESSION_IDLE_SECONDS, set_session_cookie
from paiute.server.table import LiveTable

__all__ = ["CLAIM_LIMIT", "router"]

#: Seat tokens one claim may present (the page's stored seats and its seat cookies together).
CLAIM_LIMIT = 50
_TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")

router = APIRouter(prefix="/api", responses=ERROR_RESPONSES, dependencies=[Limited], tags=["accounts"])


class Credentials(BaseModel):
    name: str = Field(min_length=1, max_length=NAME_LIMIT, description="the account's name")
    password: str = Field(min_length=1, max_length=PASSWORD_MAX, description="never logged or sent back")


class SeatToken(BaseModel):
    table_id: str = Field(pattern=_TABLE_ID.pattern)
    token: str = Field(min_length=1, max_length=64, description="the seat token the page holds")


class Claim(BaseModel):
    seats: list[SeatToken] = Field(default_factory=list, max_length=CLAIM_LIMIT)


class SeatChoice(BaseModel):
    seat: int | None = Field(None, ge=0, le=7, description="which of your seats (default: your first)")


def _session_cookie(request: Request, response: Response, token: str | None) -> None:
    """Set the cookie of a session just opened (``token``: it expires unless used), or clear
    it (None)."""
    secure = request.url.scheme == "https"  # directly, or behind a trusted proxy that says so
    set_session_cookie(response, token, secure=secure, max_age=SESSION_IDLE_SECONDS)


async def _logged_in(request: Request, response: Response, account: Account) -> dict[str, Any]:
    accounts = accounts_of(request)
    await accounts.log_out(request)  # a session this device had before ends here
    _session_cookie(request, response, await accounts.open_session(account))
    return {"account": account.to_json()}


@router.post("/accounts", status_code=201, summary="Sign up: a new account, logged in on this device")
async def sign_up(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    accounts = accounts_of(request)
    account = await accounts.sign_up(body.name, body.password, client_address(request.scope))
    return await _logged_in(request, response, account)


@router.post("/login", summary="Log in on this device (a session cookie)")
async def log_in(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    accounts = accounts_of(request)
    account = await accounts.log_in(body.name, body.password, client_address(request.scope))
    return await _logged_in(request, response, account)


@router.post("/logout", summary="Log out on this device")
async def log_out(request: Request, response: Response) -> dict[str, Any]:
    await accounts_of(request).log_out(request)
    _session_cookie(request, response, None)
    return {"ok": True}


@router.post("/logout/everywhere", summary="Log out on every device (every session of the account ends)")
async def log_out_everywhere(request: Request, response: Response) -> dict[str, Any]:
    accounts = accounts_of(request)
    account = await accounts.required(request)
    ended = await accounts.log_out_everywhere(account)
    _session_cookie(request, response, None)
    return {"sessions": ended}


@router.get("/me", summary="The account logged in on this device (null: none)")
async def me(request: Request) -> dict[str, Any]:
    account = await accounts_of(request).current(request)
    return {"account": None if account is None else account.to_json()}


@router.post(
    "/me/claim", summary="Link the seats this device holds (their tokens, presented once) to your account"
)
async def claim(request: Request, body: Claim | None = None) -> dict[str, Any]:
    accounts = accounts_of(request)
    account = await accounts.required(request)
    presented: dict[tuple[str, str], None] = (
        {(item.table_id, item.token): None for item in body.seats} if body else {}
    )
    for name, value in request.cookies.items():  # the seat cookies the server set
        table_id = name[len(COOKIE_PREFIX) :]
        if name.startswith(COOKIE_PREFIX) and _TABLE_ID.match(table_id) and 0 < len(value) <= 64:
            presented[(table_id, value)] = None
    claimed: list[dict[str, Any]] = []
    for table_id, token in list(presented)[:CLAIM_LIMIT]:
        try:
            rt = await _table(request, table_id)
        except ServiceError:
            continue  # a table that cannot be read now: its seat is not claimed
        digest = hash_token(token)
        seat = None if rt is None else rt.table.seat_of(digest)
        if seat is None:
            continue  # not a seat: nothing is said of the table
        await accounts.link(account, SeatLink(table_id, seat, digest))
        claimed.append({"table_id": table_id, "seat": seat})
    return {"claimed": claimed}


@router.get("/me/tables", summary="Your tables (live and finished), the newest first, one page")
async def my_tables(
    request: Request,
    page: Annotated[int, Query(ge=1, le=10_000)] = 1,
    per_page: Annotated[int, Query(ge=1, le=50)] = 20,
) -> dict[str, Any]:
    accounts = accounts_of(request)
    account = await accounts.required(request)
    lines: list[dict[str, Any]] = []
    total = 0
    for _ in range(3):  # links found stale are dropped, and the page is read again
        links, total = await accounts.links(account, (page - 1) * per_page, per_page)
        lines, stale = [], []
        for link in links:
            try:
                rt = await _table(request, link.table_id)
            except ServiceError:
                continue  # a table that cannot be read now is left out of this page, still linked
            if rt is None or not holds(rt.table, link):
                stale.append(link)  # gone, or left before the start (the seat is someone else's)
                continue
            lines.append(_line(rt, link.seat))
        if not stale:
            break
        await accounts.unlink(account, stale)
        total -= len(stale)
    return {"tables": lines, "total": total, "page": page, "per_page": per_page}


@router.post(
    "/me/tables/{table_id}/seat",
    summary="A fresh seat link to your own seat at a table (to open it on this device)",
)
async def my_seat(table_id: TableId, request: Request, body: SeatChoice | None = None) -> dict[str, Any]:
    accounts = accounts_of(request)
    account = await accounts.required(request)
    wanted = None if body is None else body.seat
    links = [link for link in await accounts.links_at(account, table_id) if wanted in (None, link.seat)]
    if not links:
        raise ServiceError("forbidden", N_("you hold no seat at this table"))
    return await service_of(request).fresh_seat_link(table_id, links[0].seat, links[0].token)


async def _table(request: Request, table_id: str) -> Runtime | None:
    """The table, or None when there is none."""
    try:
        return await service_of(request).runtime(table_id, fresh=True)
    except ServiceError as error:
        if error.code == "not_found":
            return None
        raise


def _line(rt: Runtime, seat: int) -> dict[str, Any]:
    """One of "my tables": the lobby's line for the table, your seat and your result."""
    return {"table": views.summary(rt.table, rt.presence()), "seat": seat, "result": _result(rt.table, seat)}


def _result(table: LiveTable, seat: int) -> dict[str, int] | None:
    """Where a finished match left ``seat``: its chips, their change and its place (1: the most
    chips; seats with as many share a place). None before the end."""
    match = table.match
    if table.status != "closed" or match is None:
        return None
    balances = list(match.balances)
    chips = balances[seat]
    return {
        "chips": chips,
        "change": chips - match.initial_balances[seat],
        "place": 1 + sum(1 for other in balances if other > chips),
        "of": len(balances),
    }
