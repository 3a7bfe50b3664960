"""The JSON HTTP API (everything the pages do), under ``/api``; OpenAPI at ``/openapi.json``.

Bodies are checked by pydantic models with limits on every field; refusals are
``{"error": {"code", "message", "rule"}}`` (:mod:`paiute.server.errors`). A seat is named by
its token, ``Authorization: Bearer TOKEN`` (or the seat cookie the server set); no token is a
spectator. docs/web-protocol.md describes each route.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StringConstraints

from paiute.i18n import LANGUAGES, N_, catalogue_json, translator
from paiute.players import DEFAULT_LEVEL, LEVELS, PLAYERS
from paiute.rules import OPTIONS, PRESETS, RuleSet
from paiute.server.accounts import Accounts, link_new_seat
from paiute.server.errors import ServiceError
from paiute.server.guard import Guard, client_address, may_see
from paiute.server.lang import client_language
from paiute.server.limits import Limiter
from paiute.server.names import NAME_LIMIT
from paiute.server.service import Service, hash_token
from paiute.server.table import BOTS

__all__ = ["COOKIE_PREFIX", "bearer_token", "require_visible", "router"]

COOKIE_PREFIX = "paiute_seat_"

TableId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,32}$", description="the table's id")]
DealNumber = Annotated[int, Path(ge=1, le=1_000_000, description="the deal, counted from 1")]
ClientId = Annotated[str, Field(min_length=1, max_length=64, description="the client's id for this message")]
ShortText = Annotated[str, StringConstraints(max_length=40)]
OptionValue = StrictBool | Annotated[StrictInt, Field(ge=-1_000_000, le=1_000_000)] | ShortText
#: The rule options (paiute.rules.OPTIONS) and the bots (paiute.server.table.BOTS), spelled out
#: so that the OpenAPI schema lists them; a test keeps them in step.
OptionName = Literal[
    "jokers",
    "max_players",
    "upcard_under_stock",
    "open_discard",
    "wild_colour",
    "reshuffle_keeps_top",
    "max_rebuilds",
    "paiute_any_turn",
    "royal_high",
    "payout",
    "stake",
    "ties",
    "unit",
]
BotSpec = Literal["easy", "medium", "hard", "expert", "greedy", "random", "ismcts:ms=200"]
Level = Literal["easy", "medium", "hard", "expert"]


class ErrorDetail(BaseModel):
    code: str
    message: str
    rule: str | None = None


class ErrorBody(BaseModel):
    error: ErrorDetail


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": description}
    for status, description in (
        (400, "bad_request"),
        (401, "bad_token"),
        (403, "forbidden, or hints_off (a hint at a table of people that does not allow them)"),
        (404, "not_found"),
        (409, "not_your_turn, illegal_action (with the rule) or conflict"),
        (413, "too_large"),
        (422, "bad_request (the body does not match the schema)"),
        (429, "rate_limited"),
        (503, "unavailable"),
    )
}


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="ignore")
    name: str = Field("Paiute table", min_length=1, max_length=60)
    player_name: str = Field(min_length=1, max_length=NAME_LIMIT)
    preset: Literal["pagat", "gamerules"] = "pagat"
    options: dict[OptionName, OptionValue] = Field(default_factory=dict, max_length=32)
    seats: int = Field(4, ge=2, le=8, description="2..8, checked against R2.1 (max_players)")
    stake: int | None = Field(None, ge=0, le=1_000_000, description="chips per deal (R8.2 option stake)")
    chips: int = Field(100, ge=1, le=1_000_000_000)
    bots: BotSpec | None = Field(
        None, description="the level of the bots that fill empty seats at the start (easy..expert)"
    )
    private: bool = False
    hints: bool = Field(
        False,
        description="allow hints between people (each ask is told to the table); alone with bots: always on",
    )
    rated: bool = Field(
        False,
        description="a rated match (logged in; every seat an account's, no bots, a clock, no hints)",
    )
    turn_seconds: int | None = Field(
        30, ge=1, le=86_400, description="the turn clock; null (no clock) only for a private table"
    )
    bank_seconds: int | None = Field(
        None, ge=0, le=86_400, description="each seat's time bank (default 60 s with a clock)"
    )
    max_deals: int | None = Field(
        None, ge=1, le=1_000_000, description="the match ends after this many deals"
    )


InviteCode = Annotated[
    str | None, Query(max_length=64, description="a private table's invitation code (to watch it)")
]


class PlayNow(BaseModel):
    model_config = ConfigDict(extra="ignore")
    name: str = Field("Paiute table", min_length=1, max_length=60)
    player_name: str = Field(min_length=1, max_length=32)
    level: Level = Field("medium", description="the bots' level (paiute.players.DEFAULT_LEVEL)")
    seats: int = Field(3, ge=2, le=5)


class SeatBody(BaseModel):
    id: ClientId | None = None
    target: int = Field(ge=0, le=7, description="the absent seat to hand to the bot")


class JoinTable(BaseModel):
    name: str = Field(min_length=1, max_length=NAME_LIMIT)
    seat: int | None = Field(None, ge=0, le=7)
    invite: str | None = Field(None, max_length=64)


class ActionBody(BaseModel):
    id: ClientId
    action: str = Field(min_length=1, max_length=32, examples=["draw stock", "discard 7h", "call 7h", "call"])
    expected_version: int | None = Field(None, ge=0, le=2**31)
    seat: int | None = Field(None, ge=0, le=7, description="optional; refused unless it is your seat")


class CutBody(BaseModel):
    id: ClientId
    position: int = Field(ge=-1_000_000, le=1_000_000, description="0..pack size - 1 (R2.4)")
    expected_version: int | None = Field(None, ge=0, le=2**31)


class ChatBody(BaseModel):
    id: ClientId
    text: str = Field(min_length=1, max_length=200)


class StartBody(BaseModel):
    id: ClientId | None = None


class LessonStart(BaseModel):
    model_config = ConfigDict(extra="ignore")
    player_name: str = Field(min_length=1, max_length=NAME_LIMIT)


class LessonBody(BaseModel):
    id: ClientId
    input: Literal["proceed", "answer", "combinations", "action"] = Field(
        description="go on (a step that is read), a card answered, the combinations looked at, or a move"
    )
    card: str | None = Field(None, min_length=1, max_length=4, description="the card answered (input answer)")
    action: str | None = Field(
        None,
        min_length=1,
        max_length=32,
        examples=["draw stock", "discard 2c", "call"],
        description="input action",
    )


class Ack(BaseModel):
    id: str
    version: int


class Joined(BaseModel):
    seat: int
    token: str
    seat_link: str


def service_of(request: Request) -> Service:
    service: Service = request.app.state.service
    return service


def bearer_token(request: Request, table_id: str | None = None) -> str | None:
    """The seat token of a request: the Authorization header, else the table's seat cookie."""
    header = request.headers.get("authorization")
    if header is not None:
        scheme, _, value = header.partition(" ")
        if scheme.lower() != "bearer" or not value.strip():
            raise ServiceError("bad_token", N_("send the seat token as: Authorization: Bearer TOKEN"))
        return value.strip()
    if table_id is not None:
        return request.cookies.get(COOKIE_PREFIX + table_id)
    return None


def _from_cookie(request: Request) -> bool:
    """A stale seat cookie only makes a reader a spectator; a bad header token is refused."""
    return request.headers.get("authorization") is None


def _limit(request: Request) -> None:
    """Every request, per token (the address is limited before, by the guard, for all)."""
    limiter: Limiter = request.app.state.http_limiter
    header = request.headers.get("authorization")
    if header and not limiter.take(hash_token(header)):
        raise ServiceError("rate_limited", N_("too many requests: slow down"))


Limited = Depends(_limit)
router = APIRouter(prefix="/api", responses=ERROR_RESPONSES, dependencies=[Limited])


def accounts_of(request: Request) -> Accounts:
    accounts: Accounts = request.app.state.accounts
    return accounts


def guard_of(request: Request) -> Guard:
    guard: Guard = request.app.state.guard
    return guard


async def require_visible(request: Request, table_id: str, invite: str | None) -> None:
    """A private table shows nothing to anyone without a seat or its invitation code.

    Every route that reads a table calls it first, before any other answer (a deal's progress,
    a conflict) and before any work is started for the caller.
    """
    rt = await service_of(request).runtime(table_id)
    may_see(rt.table, bearer_token(request, table_id), invite)


def _seat_cookie(request: Request, response: Response, table_id: str, token: str) -> None:
    response.set_cookie(
        COOKIE_PREFIX + table_id,
        token,
        max_age=60 * 60 * 24 * 365,
        httponly=True,
        samesite="strict",
        path="/",
        # over HTTPS (directly, or behind a trusted proxy that says X-Forwarded-Proto: https)
        secure=request.url.scheme == "https",
    )


_DATABASE_DOWN: dict[int | str, dict[str, Any]] = {
    503: {"description": "the database does not answer (`ok` false)"}
}


@router.get("/health", summary="Whether the server serves and its database answers", responses=_DATABASE_DOWN)
async def health(request: Request, response: Response) -> dict[str, Any]:
    service = service_of(request)
    # A SELECT 1 at most once a second, however often this is asked (paiute.server.dbcalls).
    answers = await service.calls.check()
    if not answers:
        response.status_code = 503
    # "deals": "seeded" only on a test server (--insecure-deal-seed): its hands are known.
    return {
        "ok": answers,
        "database": "ok" if answers else "unavailable",
        "tables": len(service.runtimes),
        "deals": "secure" if service.deals.secure else "seeded",
    }


@router.get("/health/live", summary="Whether the process is up (never asks the database)")
async def health_live() -> dict[str, Any]:
    return {"ok": True}


@router.get(
    "/health/ready",
    summary="Whether this process should be sent requests: its database answers",
    responses=_DATABASE_DOWN,
)
async def health_ready(request: Request, response: Response) -> dict[str, Any]:
    answers = await service_of(request).calls.check()
    if not answers:
        response.status_code = 503
    return {"ok": answers, "database": "ok" if answers else "unavailable"}


@router.get("/i18n/{lang}", summary="The web pages' messages in a language (gettext catalogue as JSON)")
async def web_catalogue(lang: str) -> dict[str, Any]:
    if lang not in LANGUAGES:
        raise ServiceError(
            "not_found",
            N_("there is no language {lang!r} (languages: {languages})"),
            lang=lang,
            languages=", ".join(LANGUAGES),
        )
    return catalogue_json(lang)


@router.get("/presets", summary="Presets, options and bots for the table form")
async def presets(request: Request) -> dict[str, Any]:
    # `help` is for people: in the client's language (lang.py); everything else is machine data.
    tr = translator(client_language(request))
    return {
        "presets": {name: RuleSet.from_preset(name).options() for name in PRESETS},
        "options": [
            {
                "name": option.name,
                "rule": option.rule,
                "type": "bool" if option.kind is bool else "int" if option.kind is int else "choice",
                "default": option.default,
                "choices": list(option.choices) if option.choices else None,
                "minimum": option.minimum,
                "maximum": option.maximum,
                "help": tr.gettext(option.help),
            }
            for option in OPTIONS
        ],
        "bots": [spec for spec in BOTS if spec in LEVELS or spec.split(":")[0] in PLAYERS],
        "levels": list(LEVELS),
        "default_level": DEFAULT_LEVEL,
    }


@router.get("/tables", summary="Public tables that are not closed, newest first, one page")
async def list_tables(
    request: Request,
    open: Annotated[bool, Query(description="only tables with a free seat, waiting")] = False,
    preset: Annotated[Literal["pagat", "gamerules"] | None, Query()] = None,
    stake: Annotated[int | None, Query(ge=0, le=1_000_000)] = None,
    page: Annotated[int, Query(ge=1, le=10_000)] = 1,
    per_page: Annotated[int, Query(ge=1, le=50)] = 20,
) -> dict[str, Any]:
    return await service_of(request).list_tables(
        open_seats=open, preset=preset, stake=stake, page=page, per_page=per_page
    )


@router.post("/tables", status_code=201, summary="Create a table; you sit at seat 0")
async def create_table(body: CreateTable, request: Request, response: Response) -> dict[str, Any]:
    fields = body.model_dump()
    if "turn_seconds" not in body.model_fields_set:
        del fields["turn_seconds"]  # the server's default clock
    return await _create_guarded(request, response, fields)


async def _create_guarded(
    request: Request, response: Response, fields: dict[str, Any], *, start: bool = False, lesson: bool = False
) -> dict[str, Any]:
    """Create a table within the creating address's caps (tables a minute, open tables);
    ``lesson``: a lesson table (paiute.server.lesson)."""
    service = service_of(request)
    address = client_address(request.scope)

    def is_open(table_id: str) -> bool:
        rt = service.runtimes.get(table_id)
        return rt is not None and rt.table.status != "closed"

    guard_of(request).before_create(address, is_open)
    if lesson:
        created = await service.create_lesson(fields["player_name"])
    else:
        # A rated table is made by an account (paiute.server.ratings); other tables by anyone.
        account = await accounts_of(request).current(request) if fields.get("rated") else None
        created = await service.create(fields, start=start, account=account)
    guard_of(request).created(address, created["table"]["id"])
    _seat_cookie(request, response, created["table"]["id"], created["token"])
    await link_new_seat(request, created["table"]["id"], created["seat"], created["token"])
    return created


@router.post("/play", status_code=201, summary="Play now against bots of a level (a private table, started)")
async def play_now(body: PlayNow, request: Request, response: Response) -> dict[str, Any]:
    fields = {
        "name": body.name,
        "player_name": body.player_name,
        "seats": body.seats,
        "chips": 100,
        "bots": body.level,
        "private": True,
        "turn_seconds": None,
    }
    return await _create_guarded(request, response, fields, start=True)


@router.post(
    "/lessons",
    status_code=201,
    summary="Learn to play: the guided first deal against two bots (a private table, started)",
)
async def start_lesson(body: LessonStart, request: Request, response: Response) -> dict[str, Any]:
    return await _create_guarded(request, response, {"player_name": body.player_name}, lesson=True)


@router.post(
    "/tables/{table_id}/rematch",
    summary="Accept the rematch of a finished match (a new table, the same settings)",
)
async def rematch(table_id: TableId, request: Request, response: Response) -> dict[str, Any]:
    service = service_of(request)
    address = client_address(request.scope)

    def is_open(other: str) -> bool:
        rt = service.runtimes.get(other)
        return rt is not None and rt.table.status != "closed"

    guard_of(request).before_create(address, is_open)
    made = await service.rematch(table_id, bearer_token(request, table_id))
    guard_of(request).created(address, made["table"]["id"])
    _seat_cookie(request, response, made["table"]["id"], made["token"])
    await link_new_seat(request, made["table"]["id"], made["seat"], made["token"])
    return made


@router.post("/tables/{table_id}/return", summary="Take your seat back from the bot")
async def return_to_seat(
    table_id: TableId, request: Request, body: StartBody | None = None
) -> dict[str, Any]:
    client = body.id if body is not None and body.id is not None else "return"
    return await service_of(request).command(table_id, bearer_token(request, table_id), "return", client, {})


@router.post(
    "/tables/{table_id}/seats/{seat}/bot",
    summary="The host hands an absent seat to the bot",
)
async def hand_to_bot(
    table_id: TableId, seat: Annotated[int, Path(ge=0, le=7)], request: Request, body: StartBody | None = None
) -> dict[str, Any]:
    client = body.id if body is not None and body.id is not None else f"bot-{seat}"
    token = bearer_token(request, table_id)
    return await service_of(request).command(table_id, token, "hand_to_bot", client, {"target": seat})


@router.post("/tables/{table_id}/join", summary="Take a seat")
async def join_table(table_id: TableId, body: JoinTable, request: Request, response: Response) -> Joined:
    address = client_address(request.scope)
    guard_of(request).before_join(table_id, address)
    account = await accounts_of(request).current(request)  # a rated table seats accounts only
    joined = await service_of(request).join(table_id, body.name, body.seat, body.invite, account)
    guard_of(request).joined(table_id, address)
    _seat_cookie(request, response, table_id, joined["token"])
    await link_new_seat(request, table_id, joined["seat"], joined["token"])
    return Joined(**joined)


@router.post("/tables/{table_id}/start", summary="Fill empty seats with bots and deal")
async def start_table(table_id: TableId, request: Request, body: StartBody | None = None) -> dict[str, Any]:
    client = body.id if body is not None and body.id is not None else "start"
    return await service_of(request).command(table_id, bearer_token(request, table_id), "start", client, {})


@router.post(
    "/tables/{table_id}/leave", summary="Leave your seat (during the match the bot plays it to the end)"
)
async def leave_table(table_id: TableId, request: Request, body: StartBody | None = None) -> dict[str, Any]:
    client = body.id if body is not None and body.id is not None else "leave"
    return await service_of(request).command(table_id, bearer_token(request, table_id), "leave", client, {})


@router.get("/tables/{table_id}/state", summary="The table as your seat (or a spectator) sees it")
async def table_state(table_id: TableId, request: Request, invite: InviteCode = None) -> dict[str, Any]:
    await require_visible(request, table_id, invite)
    token = bearer_token(request, table_id)
    return await service_of(request).state(table_id, token, lenient=_from_cookie(request))


@router.get("/tables/{table_id}/events", summary="The events after a version, as your seat sees them")
async def table_events(
    table_id: TableId,
    request: Request,
    since: Annotated[int, Query(ge=0, le=2**31)] = 0,
    invite: InviteCode = None,
) -> dict[str, Any]:
    await require_visible(request, table_id, invite)
    token = bearer_token(request, table_id)
    return await service_of(request).events(table_id, token, since, lenient=_from_cookie(request))


@router.post("/tables/{table_id}/actions", summary="Draw, discard or call")
async def post_action(table_id: TableId, body: ActionBody, request: Request) -> Ack:
    fields = {"action": body.action, "expected_version": body.expected_version, "seat": body.seat}
    answer = await service_of(request).command(
        table_id, bearer_token(request, table_id), "action", body.id, fields
    )
    return Ack(**answer)


@router.post(
    "/tables/{table_id}/lesson",
    summary="At a lesson table: go on, answer, look at the combinations or move; the coach answers",
)
async def post_lesson(table_id: TableId, body: LessonBody, request: Request) -> dict[str, Any]:
    fields = {"input": body.input, "card": body.card, "action": body.action}
    token = bearer_token(request, table_id)
    lang = client_language(request)
    return await service_of(request).command(table_id, token, "lesson", body.id, fields, lang)


@router.post("/tables/{table_id}/cut", summary="Cut the committed pack (R2.4, R10.2)")
async def post_cut(table_id: TableId, body: CutBody, request: Request) -> Ack:
    fields = {"position": body.position, "expected_version": body.expected_version}
    answer = await service_of(request).command(
        table_id, bearer_token(request, table_id), "cut", body.id, fields
    )
    return Ack(**answer)


@router.post("/tables/{table_id}/chat", summary="Say something at the table")
async def post_chat(table_id: TableId, body: ChatBody, request: Request) -> Ack:
    token = bearer_token(request, table_id)
    if token is not None:
        guard_of(request).may_chat(table_id, hash_token(token))
    answer = await service_of(request).command(
        table_id, bearer_token(request, table_id), "chat", body.id, {"text": body.text}
    )
    return Ack(**answer)


@router.get(
    "/tables/{table_id}/record",
    summary="The match's paiute-record/1 file (finished deals, commitments revealed)",
    response_class=JSONResponse,
)
async def table_record(table_id: TableId, request: Request, invite: InviteCode = None) -> Response:
    await require_visible(request, table_id, invite)
    record = await service_of(request).record(table_id)
    return Response(
        record.dumps(),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="paiute-{table_id}.json"'},
    )


@router.get("/tables/{table_id}/deals/{number}/replay", summary="Every state of a finished deal, all shown")
async def deal_replay(
    table_id: TableId, number: DealNumber, request: Request, invite: InviteCode = None
) -> dict[str, Any]:
    await require_visible(request, table_id, invite)
    return await service_of(request).replay(table_id, number)


@router.get(
    "/tables/{table_id}/deals/{number}/proof", summary="The fair-deal proof of a finished deal (R10.2)"
)
async def deal_proof(
    table_id: TableId, number: DealNumber, request: Request, invite: InviteCode = None
) -> dict[str, Any]:
    await require_visible(request, table_id, invite)
    return await service_of(request).proof(table_id, number)
