"""The pieces behind the abuse refusals, one at a time (the whole server: test_server_abuse).

Names (normalised, visible, unique after case and lookalikes), the Origin check, the limiter,
the table's stored chat cap, only the host starting, and ``paiute serve``'s flags.
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiute.cli import serve_command
from paiute.cli.main import main
from paiute.rules import RuleSet
from paiute.server.errors import ServiceError
from paiute.server.guard import _same_origin
from paiute.server.limits import Limiter, Limits
from paiute.server.names import NAME_LIMIT, clashes, clean_name, skeleton
from paiute.server.table import CHAT_PER_SEAT, CHAT_STORED, LiveTable, TableConfig


def test_names_are_nfkc_with_single_spaces() -> None:
    assert clean_name("  Ｂｏ \t Lee  ") == "Bo Lee"
    assert clean_name("ﬁona") == "fiona"  # a ligature, taken apart


@pytest.mark.parametrize(
    "name",
    ["\u3164", "\u2800", "\u115f", "\uffa0", "a\u200bb", "a\u200db", "\u202eanA", "x\u2066y", "\ufeffAna"],
)
def test_invisible_and_blank_looking_characters_are_refused(name: str) -> None:
    with pytest.raises(ServiceError, match="invisible character U\\+"):
        clean_name(name)


@pytest.mark.parametrize("name", ["", "   ", "\u0301\u0301", "x" * (NAME_LIMIT + 1), "A\x00na"])
def test_empty_marks_only_too_long_and_control_names_are_refused(name: str) -> None:
    with pytest.raises(ServiceError):
        clean_name(name)


def test_lookalikes_and_case_clash() -> None:
    assert clashes("\u0410na", ["Ana"])  # Cyrillic А
    assert clashes("ΑΝΑ", ["ana"])  # Greek capitals
    assert clashes("lan", ["Ian"])
    assert clashes("ana", ["ANA"])
    assert not clashes("Ana", ["Bo", None])
    assert skeleton("Ａｎａ") == skeleton("ana")


@given(st.text(min_size=1, max_size=40))
def test_a_clean_name_is_stable_and_visible(text: str) -> None:
    try:
        name = clean_name(text)
    except ServiceError:
        return
    assert clean_name(name) == name  # cleaning twice changes nothing
    assert 1 <= len(name) <= NAME_LIMIT
    assert all(unicodedata.category(char) not in ("Cc", "Cf", "Co", "Cn") for char in name)
    assert clashes(name, [name])
    assert clashes(name, [name.swapcase()]) or unicodedata.normalize("NFKC", name.swapcase()).casefold() != (
        unicodedata.normalize("NFKC", name).casefold()
    )


def test_r2_2_a_second_ana_cannot_join() -> None:
    table = LiveTable("t", TableConfig("t", RuleSet(), 3, 20), 0.0)
    for event in table.number(table.plan_join("Ana", 0, "h0", None), 1.0):
        table.apply(event)
    with pytest.raises(ServiceError, match="taken at this table") as refused:
        table.plan_join("\u0410NA", None, "h1", None)
    assert refused.value.code == "conflict"


def test_only_the_host_starts_and_the_chat_stored_is_capped() -> None:
    table = LiveTable("t", TableConfig("t", RuleSet(), 2, 20), 0.0)
    for seat, name in enumerate(("Ana", "Bo")):
        for event in table.number(table.plan_join(name, seat, f"h{seat}", None), 1.0):
            table.apply(event)
    with pytest.raises(ServiceError, match="only the host") as refused:
        table.plan_start(1)
    assert refused.value.code == "forbidden"
    for _ in range(CHAT_PER_SEAT):
        for event in table.number(table.plan_chat(1, "spam"), 2.0):
            table.apply(event)
    with pytest.raises(ServiceError, match="that is the most"):
        table.plan_chat(1, "one more")  # one seat cannot use up the table's chat...
    while table.chat_lines < CHAT_STORED:  # ...but the table's chat has an end too
        table.chat_said.clear()  # (as if other seats had said the rest)
        for event in table.number(table.plan_chat(0, "more"), 2.0):
            table.apply(event)
    with pytest.raises(ServiceError, match="chat is full"):
        table.plan_chat(0, "one more")
    assert len(table.chat) < CHAT_STORED  # and memory keeps only the last lines anyway


@pytest.mark.parametrize(
    ("origin", "host", "same"),
    [
        (b"http://127.0.0.1:8000", b"127.0.0.1:8000", True),
        (b"http://127.0.0.1:8001", b"127.0.0.1:8000", False),  # another port of the same host
        (b"http://localhost:8000", b"127.0.0.1:8000", False),
        (b"https://cards.example", b"cards.example", False),  # the scheme differs (http here)
        (b"http://cards.example:80", b"cards.example", True),
        (b"null", b"127.0.0.1:8000", False),
        (b"garbage", b"127.0.0.1:8000", False),
    ],
)
def test_the_origin_must_be_this_server(origin: bytes, host: bytes, same: bool) -> None:
    assert _same_origin({"scheme": "http"}, {b"origin": origin, b"host": host}) is same


def test_without_origin_only_sec_fetch_site_can_refuse() -> None:
    assert _same_origin({"scheme": "http"}, {b"host": b"h"})  # curl, bots: no browser involved
    assert not _same_origin({"scheme": "http"}, {b"host": b"h", b"sec-fetch-site": b"same-site"})
    assert _same_origin({"scheme": "ws"}, {b"host": b"h:1", b"origin": b"http://h:1"})


def test_the_limiter_counts_each_key_alone_and_a_huge_rate_is_no_limit() -> None:
    limiter = Limiter(rate=1, burst=3)
    assert [limiter.take("a") for _ in range(4)] == [True, True, True, False]
    assert limiter.take("b")
    free = Limiter(rate=1e9, burst=1e9)
    assert all(free.take("a") for _ in range(1000))


def test_serve_flags_are_documented_and_their_defaults_match_the_limits(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for flag in (
        "--trusted-proxy",
        "--address-rate",
        "--max-tables-per-address",
        "--max-seats-per-address",
        "--header-timeout",
        "--max-connections",
    ):
        assert flag in out
    defaults = Limits()
    for name, value in serve_command.LIMIT_DEFAULTS.items():
        assert getattr(defaults, name) == value, name


def test_even_a_crash_answers_with_the_security_headers(db_url: str) -> None:
    from fastapi.testclient import TestClient
    from server_helpers import fast_limits, fast_settings

    from paiute.server import create_app

    app = create_app(db_url, settings=fast_settings(), limits=fast_limits())

    @app.get("/boom")
    async def boom() -> None:
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/boom")
    assert response.status_code == 500
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    assert response.headers["x-content-type-options"] == "nosniff"
