"""An account's sessions: how long one lasts, its cookie, and the cookie sent again when it is renewed.

A session is a random token in an ``HttpOnly``, ``SameSite=Lax`` cookie (``Secure`` over
HTTPS), stored only as its SHA-256 (:class:`~paiute.server.accounts.AccountStore`), until it
expires, its device logs out, or the account logs out everywhere. A session slides: it ends
once unused for :data:`SESSION_IDLE_SECONDS`, and one used at least
:data:`SESSION_RENEW_SECONDS` after its last renewal is renewed (its idle expiry pushed on, one
conditional UPDATE, so two processes renew it once, and the cookie sent again with the new
expiry by :class:`SessionRenewal`); but never past :data:`SESSION_LIFETIME_SECONDS` from its
log-in, when the account logs in again.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.requests import HTTPConnection
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "SESSION_COOKIE",
    "SESSION_IDLE_SECONDS",
    "SESSION_LIFETIME_SECONDS",
    "SESSION_RENEW_SECONDS",
    "SessionRenewal",
    "SessionTimes",
    "mark_renewed",
    "set_session_cookie",
]

SESSION_COOKIE = "paiute_session"
#: Where a request keeps its session renewed (its token and the cookie's new Max-Age), in the
#: request's state, for :class:`SessionRenewal`.
_RENEWED = "paiute_session_renewed"
_DAY = 24 * 60 * 60
#: How long a session lasts unused: each renewal sets its expiry this far from then.
SESSION_IDLE_SECONDS = 30 * _DAY
#: How long after its last renewal (or log-in) a session used is renewed: at most one write a
#: session in this time, however many requests it comes with.
SESSION_RENEW_SECONDS = _DAY
#: How long a session may last from its log-in, however often it is used (then the account
#: logs in again).
SESSION_LIFETIME_SECONDS = 365 * _DAY


@dataclass(frozen=True, slots=True)
class SessionTimes:
    """When a session began (its log-in) and when it ends unless used (its idle expiry).

    Its last renewal is ``expires - SESSION_IDLE_SECONDS``, so no column keeps it: a session
    is due for renewal once no more than ``SESSION_IDLE_SECONDS - SESSION_RENEW_SECONDS`` of it
    are left. A renewal never goes past :attr:`ends`.

    >>> times = SessionTimes(created=0.0, expires=float(SESSION_IDLE_SECONDS))
    >>> times.renewal(SESSION_RENEW_SECONDS - 1.0) is None  # renewed less than a day ago
    True
    >>> times.renewal(29 * _DAY) == 59 * _DAY
    True
    >>> SessionTimes(0.0, 350 * _DAY).renewal(340 * _DAY) == SESSION_LIFETIME_SECONDS
    True
    """

    created: float
    expires: float

    @property
    def ends(self) -> float:
        """The absolute end: :data:`SESSION_LIFETIME_SECONDS` after the log-in."""
        return self.created + SESSION_LIFETIME_SECONDS

    def renewal(self, now: float) -> float | None:
        """The new expiry of the session used at ``now``, or None when it is not due (renewed
        less than :data:`SESSION_RENEW_SECONDS` ago, or already expiring at :attr:`ends`)."""
        if self.expires - now > SESSION_IDLE_SECONDS - SESSION_RENEW_SECONDS:
            return None
        pushed = min(now + SESSION_IDLE_SECONDS, self.ends)
        return pushed if pushed > self.expires else None


def set_session_cookie(response: Response, token: str | None, *, secure: bool, max_age: int) -> None:
    """Set the session cookie (``token``, for ``max_age`` seconds), or clear it (None)."""
    if token is None:
        response.delete_cookie(SESSION_COOKIE, path="/", secure=secure, httponly=True, samesite="lax")
        return
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=max_age,
        path="/",
        secure=secure,
        httponly=True,
        samesite="lax",
    )


class SessionRenewal:
    """ASGI middleware: the response to a request whose session was renewed
    (:meth:`~paiute.server.accounts.Accounts.current`) sets the session cookie again, with the new expiry, so the
    browser keeps it as long as the server does. A response that sets or clears the cookie
    itself (log-in, log-out) is left as it is."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state = scope.setdefault("state", {})  # request.state's own dict

        async def renewing(message: Message) -> None:
            renewed = state.get(_RENEWED)
            if message["type"] == "http.response.start" and renewed is not None:
                headers = list(message.get("headers", []))
                if not _sets_session_cookie(headers):
                    token, max_age = renewed
                    cookie = Response()
                    set_session_cookie(cookie, token, secure=scope.get("scheme") == "https", max_age=max_age)
                    headers += [(name, value) for name, value in cookie.raw_headers if name == b"set-cookie"]
                    message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, renewing)


def _sets_session_cookie(headers: list[tuple[bytes, bytes]]) -> bool:
    prefix = f"{SESSION_COOKIE}=".encode()
    return any(name.lower() == b"set-cookie" and value.startswith(prefix) for name, value in headers)


def mark_renewed(request: HTTPConnection, token: str, max_age: int) -> None:
    """The session of ``request`` (its cookie's ``token``) was just renewed: the response sets
    its cookie again, for ``max_age`` seconds (:class:`SessionRenewal`)."""
    setattr(request.state, _RENEWED, (token, max_age))
