"""Errors the server sends to clients: a code, a human sentence and the rule it enforces.

Every refusal, over HTTP or WebSocket, is one :class:`ServiceError`; the body a client sees is
``{"error": {"code": CODE, "message": "...", "rule": "R4.3" | null}}`` (docs/web-protocol.md).
A refused request changes nothing.
"""

from __future__ import annotations

from paiute.errors import PaiuteError
from paiute.i18n import DEFAULT_LANGUAGE, translator

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
    """A refused request: ``code`` (one of :data:`HTTP_STATUS`), a message, maybe a rule ID.

    ``cause`` is the engine's error when the engine refused (an illegal action, a bad action
    text or rule option): its message is then given in the client's language
    (:meth:`paiute.i18n.Translator.explain`, which keeps the rule ID). The server's own
    messages are English in every language.
    """

    def __init__(
        self, code: str, message: str, rule: str | None = None, *, cause: PaiuteError | None = None
    ) -> None:
        super().__init__(message)
        if code not in HTTP_STATUS:
            raise ValueError(f"unknown error code {code!r}")
        self.code = code
        self.message = message
        self.rule = rule
        self.cause = cause

    def message_in(self, lang: str) -> str:
        """The message for a person reading ``lang`` (English: exactly :attr:`message`)."""
        if self.cause is None or lang == DEFAULT_LANGUAGE:
            return self.message
        return translator(lang).explain(self.cause)

    @property
    def status(self) -> int:
        return HTTP_STATUS[self.code]

    def to_json(self, lang: str = DEFAULT_LANGUAGE) -> dict[str, object]:
        """The error body; only ``message`` depends on ``lang``."""
        return {"code": self.code, "message": self.message_in(lang), "rule": self.rule}
