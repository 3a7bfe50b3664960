"""Errors the server sends to clients: a code, a human sentence and the rule it enforces.

Every refusal, over HTTP or WebSocket, is one :class:`ServiceError`; the body a client sees is
``{"error": {"code": CODE, "message": "...", "rule": "R4.3" | null}}`` (docs/web-protocol.md).
A refused request changes nothing.
"""

from __future__ import annotations

from paiute.errors import PaiuteError, format_message
from paiute.i18n import DEFAULT_LANGUAGE, translator

__all__ = ["HTTP_STATUS", "ServiceError"]

#: The HTTP status of each error code (the WebSocket sends the code alone).
HTTP_STATUS: dict[str, int] = {
    "bad_request": 400,
    "bad_token": 401,
    "login_failed": 401,
    "forbidden": 403,
    "hints_off": 403,
    "not_found": 404,
    "not_your_turn": 409,
    "illegal_action": 409,
    "conflict": 409,
    "id_reused": 409,
    "timeout": 408,
    "too_large": 413,
    "rate_limited": 429,
    "unavailable": 503,
}


class ServiceError(Exception):
    """A refused request: ``code`` (one of :data:`HTTP_STATUS`), a message, maybe a rule ID.

    ``message`` is an English template marked with ``N_`` (``paiute`` catalogue), its named
    ``{placeholders}`` filled from ``params``; :attr:`message` is the English text (what the
    API has always sent) and :meth:`message_in` the text in a client's language. ``cause`` is
    the engine's error when the engine refused (an illegal action, a bad action text or rule
    option): its message is then given by :meth:`paiute.i18n.Translator.explain`, which keeps
    the rule ID.

    >>> from paiute.i18n import N_
    >>> error = ServiceError("not_your_turn", N_("R4.1 it is seat {seat}'s turn"), seat=2)
    >>> error.message, error.message_in("bn")
    ("R4.1 it is seat 2's turn", 'R4.1 এখন আসন ২-এর পালা')
    """

    def __init__(
        self,
        code: str,
        message: str,
        rule: str | None = None,
        *,
        cause: PaiuteError | None = None,
        **params: object,
    ) -> None:
        text = format_message(message, params) if params else message
        super().__init__(text)
        if code not in HTTP_STATUS:
            raise ValueError(f"unknown error code {code!r}")
        self.code = code
        self.message = text
        self.message_id = message
        self.params = params
        self.rule = rule
        self.cause = cause

    def message_in(self, lang: str) -> str:
        """The message for a person reading ``lang`` (English: exactly :attr:`message`)."""
        if lang == DEFAULT_LANGUAGE:
            return self.message
        if self.cause is not None:
            return translator(lang).explain(self.cause)
        return translator(lang).gettext(self.message_id, **self.params)

    @property
    def status(self) -> int:
        return HTTP_STATUS[self.code]

    def to_json(self, lang: str = DEFAULT_LANGUAGE) -> dict[str, object]:
        """The error body; only ``message`` depends on ``lang``."""
        return {"code": self.code, "message": self.message_in(lang), "rule": self.rule}
