"""The web application: ``create_app(db_url, ...)`` builds it; ``paiute serve`` runs it.

Starting it (the ASGI lifespan) brings the database schema up to date (Alembic), reads back
every table that is not closed and sets their bots and clocks going again.
"""

from __future__ import annotations

import asyncio
import gc
import re
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException

from paiute import __version__
from paiute.i18n import LANGUAGE_NAMES, N_, catalogue_json
from paiute.rules import OPTIONS, PRESETS
from paiute.server import account_api, api, hints, ratings_api, reviews, ws
from paiute.server.accounts import PASSWORD_MIN, Accounts
from paiute.server.db import Store
from paiute.server.errors import ServiceError
from paiute.server.guard import Guard, GuardMiddleware
from paiute.server.guide import how_to_play
from paiute.server.lang import client_language
from paiute.server.limits import BodyLimit, Limiter, Limits
from paiute.server.migrate import upgrade
from paiute.server.names import NAME_LIMIT
from paiute.server.ratings import Ratings
from paiute.server.service import Service, Settings
from paiute.server.sessions import SessionRenewal

__all__ = ["create_app"]

HERE = Path(__file__).resolve().parent
_HTTP_CODES = {400: "bad_request", 401: "bad_token", 403: "forbidden", 404: "not_found", 405: "bad_request"}
#: A table id as the page addresses take it (api.TableId's pattern): anything else is no table.
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")

_DESCRIPTION = """\
Multiplayer Paiute: tables, seats, draws, discards and calls over JSON, live over WebSockets.
The WebSocket protocol (`/ws/tables/{table_id}`) is described in docs/web-protocol.md.
Refusals are `{"error": {"code", "message", "rule"}}`."""


def create_app(
    db_url: str,
    *,
    settings: Settings | None = None,
    clock: Callable[[], float] = time.time,
    on_ready: Callable[[], None] | None = None,
    limits: Limits | None = None,
) -> FastAPI:
    """The application over the database at ``db_url`` (``sqlite:///FILE`` or ``postgresql://...``).

    A bad URL raises :class:`~paiute.server.db.DatabaseError` at once; the database itself is
    opened and migrated when the application starts. ``on_ready`` is called once it serves.
    ``limits`` are what one address or seat may do (:class:`~paiute.server.limits.Limits`).
    """
    settings = settings or Settings()
    limits = limits or Limits()
    store = Store(db_url, settings.db_timeouts)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(upgrade, store)
        service = Service(store, settings, clock)
        app.state.service = service
        await service.start()
        # What is alive now (the modules, the recovered tables) lives as long as the server:
        # freezing it keeps the cyclic garbage collector's full passes, which stop the event
        # loop, from going over it again and again (docs/web-protocol.md has what they cost).
        gc.collect()
        gc.freeze()
        if on_ready is not None:
            on_ready()
        try:
            yield
        finally:
            # The worker processes end with the server (SIGTERM and Ctrl-C come here too).
            await reviews.shutdown(app)
            await hints.shutdown(app)
            app.state.tables_closed = await service.stop()

    # /docs is served below from the fastapi-offline package's assets (no CDN: it works offline).
    app = FastAPI(
        title="Paiute",
        version=__version__,
        description=_DESCRIPTION,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.store = store
    app.state.limits = limits
    app.state.guard = guard = Guard(limits)
    app.state.http_limiter = Limiter(settings.http_rate, settings.http_burst)
    app.state.seat_limiter = Limiter(settings.ws_rate, settings.ws_burst)
    app.state.accounts = Accounts(store, limits, clock)  # optional identity (paiute.server.accounts)
    app.state.ratings = Ratings(store)  # profiles and the leaderboard (paiute.server.ratings)
    app.add_middleware(BodyLimit, limit=settings.max_body, seconds=limits.body_seconds)
    app.add_middleware(SessionRenewal)  # a renewed session's cookie, sent again with its new expiry
    # The guard goes around the whole stack, Starlette's error middleware included, so that it
    # runs before anything else and even a 500 carries the security headers.
    build = app.build_middleware_stack
    app.build_middleware_stack = lambda: GuardMiddleware(build(), guard)  # type: ignore[method-assign]
    _add_error_handlers(app)
    app.include_router(api.router)
    app.include_router(hints.router)  # the hint button (paiute.analysis.hint)
    app.include_router(reviews.router)  # GET .../deals/{n}/review (paiute.server.reviews)
    app.include_router(account_api.router)  # sign up, log in, my tables (paiute.server.accounts)
    app.include_router(ratings_api.router)  # profiles and the leaderboard (paiute.server.ratings)
    app.add_api_websocket_route("/ws/tables/{table_id}", ws.table_socket)
    _add_pages(app)
    return app


def _error(code: str, message: str, status: int, rule: str | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, "rule": rule}}, status_code=status)


def _add_error_handlers(app: FastAPI) -> None:
    async def service_error(request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, ServiceError)
        return _error(error.code, error.message_in(client_language(request)), error.status, error.rule)

    async def invalid(request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, RequestValidationError)
        refusal = validation_error(error.errors())
        return _error("bad_request", refusal.message_in(client_language(request)), 422)

    app.add_exception_handler(ServiceError, service_error)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(StarletteHTTPException, _http_error)


async def _http_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, StarletteHTTPException)
    code = _HTTP_CODES.get(error.status_code, "bad_request")
    return _error(code, str(error.detail), error.status_code)


#: Fields a person types, with whole sentences for too long and empty (the lobby shows them).
_LENGTHS = {
    "player_name": (N_("a name has 1 to {limit} characters"), N_("a name cannot be empty")),
    "name": (N_("a name has 1 to {limit} characters"), N_("a name cannot be empty")),
    "text": (N_("a chat line has 1 to {limit} characters"), N_("a chat line cannot be empty")),
}


def validation_error(problems: Any) -> ServiceError:
    """The first problem pydantic found, as a sentence a person can read (and translate)."""
    if not problems:
        return ServiceError("bad_request", N_("the request does not match the API"))
    first = problems[0]
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body") or "body"
    kind = str(first.get("type", ""))
    context = first.get("ctx") or {}
    sentences = _LENGTHS.get(where)
    if sentences is not None and kind == "string_too_long":
        return ServiceError("bad_request", sentences[0], limit=context.get("max_length"))
    if sentences is not None and kind == "string_too_short":
        return ServiceError("bad_request", sentences[1])
    if kind == "missing":
        return ServiceError("bad_request", N_("{where} is missing"), where=where)
    # pydantic's own English detail, inside a translated frame
    return ServiceError(
        "bad_request", N_("{where}: {detail}"), where=where, detail=first.get("msg", "invalid")
    )


def _add_pages(app: FastAPI) -> None:
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    options: list[dict[str, Any]] = [
        {"name": option.name, "rule": option.rule, "default": option.default, "help": option.help}
        for option in OPTIONS
    ]

    def page(request: Request, name: str, context: dict[str, Any]) -> HTMLResponse:
        # The page is served in the reader's language, its catalogue inline (strings.js reads
        # it), so it shows translated at once; the switcher sets the cookie and reloads.
        lang = client_language(request)
        context = {
            **context,
            "lang": lang,
            "languages": LANGUAGE_NAMES,
            "catalogue": catalogue_json(lang),
            "name_limit": NAME_LIMIT,  # the name fields' maxlength: the server's own limit
        }
        response = templates.TemplateResponse(request, name, context)
        response.headers["Content-Language"] = lang
        response.headers["Vary"] = "Accept-Language, Cookie"
        return response

    def no_table(request: Request) -> HTMLResponse:
        # The address is never echoed back: the page says only that there is no table there.
        response = page(request, "missing.html", {})
        response.status_code = 404
        return response

    async def missing(request: Request, table_id: str) -> HTMLResponse | None:
        """The "no such table" page (404) when ``table_id`` is not a table, else None."""
        if not _TABLE_ID.fullmatch(table_id):
            return no_table(request)
        service: Service = request.app.state.service
        try:
            await service.runtime(table_id)
        except ServiceError as error:
            if error.code != "not_found":
                raise
            return no_table(request)
        return None

    async def not_found(request: Request, error: Exception) -> Response:
        # A page address under /t/ that no route takes (an id with a "/" in it, a path below a
        # table that is no page) is a missing table for a reader too, not a JSON error.
        if request.url.path.startswith("/t/") and request.method in ("GET", "HEAD"):
            return no_table(request)
        return await _http_error(request, error)

    app.add_exception_handler(404, not_found)

    @app.api_route("/", methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False)
    async def lobby(request: Request) -> HTMLResponse:
        return page(
            request,
            "lobby.html",
            {"presets": list(PRESETS), "options": options, "password_min": PASSWORD_MIN},
        )

    @app.api_route(
        "/me/tables", methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False
    )
    async def my_tables_page(request: Request) -> HTMLResponse:
        # The shell only: the page asks GET /api/me/tables with the session cookie.
        return page(request, "my_tables.html", {})

    @app.api_route(
        "/leaderboard", methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False
    )
    async def leaderboard_page(request: Request) -> HTMLResponse:
        # The shell only: the page asks GET /api/leaderboard.
        return page(request, "leaderboard.html", {})

    @app.api_route(
        "/players/{name}", methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False
    )
    async def player_page(request: Request, name: str) -> HTMLResponse:
        # The shell only (the same for any name): the page asks GET /api/players/{name}.
        return page(request, "player.html", {})

    guide = how_to_play()  # the same for every reader: only its words are translated

    @app.api_route("/rules", methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False)
    async def rules_page(request: Request) -> HTMLResponse:
        # How to play, for players: the sentences are strings.js's, the facts the engine's.
        return page(request, "rules.html", {"guide": guide})

    @app.api_route(
        "/t/{table_id}", methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False
    )
    async def table_page(request: Request, table_id: str) -> HTMLResponse:
        return await missing(request, table_id) or page(request, "table.html", {"table_id": table_id})

    @app.api_route(
        "/t/{table_id}/replay", methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False
    )
    async def replay_page(request: Request, table_id: str) -> HTMLResponse:
        return await missing(request, table_id) or page(request, "replay.html", {"table_id": table_id})

    @app.get("/docs", response_class=HTMLResponse, include_in_schema=False)
    async def docs() -> HTMLResponse:
        # Swagger UI from our own static route, started by a static script (no inline script).
        return HTMLResponse(_DOCS_PAGE)

    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    # Swagger UI 5 (OpenAPI 3.1), as the fastapi-offline package ships it
    assets = Path(fastapi_offline.__file__).resolve().parent / "static"
    app.mount("/docs/assets", StaticFiles(directory=str(assets)), name="docs-assets")


_DOCS_PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Paiute - API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" href="/docs/assets/favicon.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/static/js/docs.js"></script>
</body>
</html>
"""
