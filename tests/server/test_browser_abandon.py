"""An abandoned table's page (Debian's Chromium through Playwright, a real ``paiute serve``):
whoever opens it reads, in their language, that it ended because nobody played at it for
the server's limit, in the header and in the log.

The table is abandoned beforehand in-process, with an injected clock (no real waiting), in
the database the server then serves."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from conftest_browser import STEP_MS, Server, browser, run_server  # noqa: F401 - the fixtures this module uses
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, expect
from server_helpers import fast_limits, fast_settings, my_move, wait_for

from paiute.i18n import catalogue_json
from paiute.server import create_app
from paiute.server.abandoned import SWEEP_BATCH


def abandon_a_table(directory: Path) -> tuple[str, str]:
    """A "play now" table in ``directory``'s database, ended by the sweep after 30 minutes of
    nobody: its id and invitation code."""
    now = [1000.0]
    app = create_app(
        f"sqlite:///{directory / 'db.sqlite'}",
        limits=fast_limits(),
        settings=fast_settings(),
        clock=lambda: now[0],
    )
    with TestClient(app) as client:
        created = client.post("/api/play", json={"player_name": "Ana", "seats": 2, "level": "hard"}).json()
        table_id = created["table"]["id"]
        wait_for(client, table_id, created["token"], my_move)
        now[0] += 31 * 60.0
        service = client.app.state.service  # type: ignore[attr-defined]
        assert client.portal.call(service.abandoned.sweep, SWEEP_BATCH) == [table_id]  # type: ignore[union-attr]
    return table_id, parse_qs(urlsplit(created["invite"]).query)["invite"][0]


@pytest.fixture(scope="module")
def abandoned(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str, str]]:
    directory = tmp_path_factory.mktemp("abandoned")
    table_id, invite = abandon_a_table(directory)
    with run_server(directory) as running:
        yield running, table_id, invite


@pytest.mark.parametrize("lang", ["en", "ro"])
def test_an_abandoned_table_says_nobody_played_for_thirty_minutes(
    abandoned: tuple[Server, str, str], browser: Browser, lang: str
) -> None:
    server, table_id, invite = abandoned
    # The catalogue's form for 30 (English: the second; Romanian: the third, "de"), or the
    # English text strings.js has where the catalogue has none yet.
    messages = catalogue_json(lang)["messages"]
    assert isinstance(messages, dict)
    forms = messages.get("event.closed.idle")
    form = {"en": 1, "ro": 2}[lang]
    template = forms[form] if forms else "The table has ended: nobody played at it for {count} minutes"
    expected = template.replace("{count}", "30")
    errors: list[str] = []
    context = browser.new_context(locale=lang)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/t/{table_id}?invite={invite}&lang={lang}")
    page.wait_for_selector("#app[data-version]", timeout=STEP_MS)
    expect(page.locator("#table-status")).to_have_text(expected, timeout=STEP_MS)
    expect(page.locator("#log li.ev-closed")).to_have_text(expected, timeout=STEP_MS)
    context.close()
    assert errors == []
