"""Errors the server sends to clients: a code, a human sentence and the rule it enforces.

Every refusal, over HTTP or WebSocket, is one :class:`ServiceError`; the body a client sees is
``{"error": {"code": CODE, "message": "...", "rule": "R4.3" | null}}`` (docs/web-protocol.md).
A refused request changes nothing.
"""

from __future__ import annotations

__all__ = ["HTTP_STATUS", "ServiceError"]

#: The HTTP status of each error code (the WebSocket sends the code alone).
HTTP_STATUS: dict[str, int] = {
    "bad_request": 400,
    "bad_token": 401,
    "forbidden": 403,
    "not_found": 404,
    "not_your_turn": 409,
    "illegal_action": 409,
    "conflict": 409,
    "too_large": 413,
    "rate_limited": 429,
    "unavailable": 503,
}


class ServiceError(Exception):
    """A refused request: ``code`` (one of :data:`HTTP_STATUS`), a message, maybe a rule ID."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        if code not in HTTP_STATUS:
            raise ValueError(f"unknown error code {code!r}")
        self.code = code
        self.message = message
        self.rule = rule

    @property
    def status(self) -> int:
        return HTTP_STATUS[self.code]

    def to_json(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message, "rule": self.rule}
