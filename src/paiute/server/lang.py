"""The language a client reads: for the pages, the error messages and the option help texts.

Chosen, first that is set and supported: an explicit choice (``?lang=`` on an HTTP request,
``"lang"`` in the WebSocket ``hello``), the cookie ``paiute_lang`` (set by the pages' language
switcher), the ``Accept-Language`` header, else English (docs/web-protocol.md, *Languages*).
Machine-readable fields (codes, rule IDs, cards, actions, records) are never translated.
"""

from __future__ import annotations

from starlette.requests import HTTPConnection

from paiute.i18n import DEFAULT_LANGUAGE, LANGUAGES, match_language, parse_accept_language

__all__ = ["COOKIE", "client_language"]

#: The cookie the pages' switcher sets (and localStorage key ``paiute.lang`` remembers).
COOKIE = "paiute_lang"


def _supported(value: object) -> str | None:
    # Exact codes only for explicit choices and the cookie; a tag like "bn-BD" is accepted too.
    return match_language(value) if isinstance(value, str) and len(value) <= 35 else None


def client_language(connection: HTTPConnection, explicit: object = None) -> str:
    """The language of this request or WebSocket: ``explicit``, ``?lang=``, cookie, header."""
    for candidate in (explicit, connection.query_params.get("lang"), connection.cookies.get(COOKIE)):
        lang = _supported(candidate)
        if lang is not None:
            return lang
    header = connection.headers.get("accept-language")
    lang = parse_accept_language(header)
    return lang if lang in LANGUAGES else DEFAULT_LANGUAGE
