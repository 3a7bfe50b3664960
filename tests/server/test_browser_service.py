"""The table page while the server cannot reach its database (Debian's Chromium through
Playwright, a real ``paiute serve``): a banner says so as soon as the server finds it out (a
``service`` message), and goes once the database is back."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from conftest_browser import STEP_MS, browser, run_server  # noqa: F401 - the fixtures this module uses
from fault_helpers import NO_LIMITS, Table
from playwright.sync_api import Browser, expect


def test_the_table_page_shows_a_banner_while_the_database_is_gone(tmp_path: Path, browser: Browser) -> None:
    with run_server(tmp_path, extra=(*NO_LIMITS, "--db-lock-timeout", "0.5")) as server:
        table = Table.create(server.url)
        assert table.move(server.url).status_code == 200
        page = browser.new_page()
        try:
            page.goto(f"{server.url}/t/{table.table_id}?lang=en")
            expect(page.locator("#conn")).to_have_attribute("data-state", "online", timeout=STEP_MS)
            banner = page.locator("#service-banner")
            expect(banner).to_be_hidden()
            holder = sqlite3.connect(tmp_path / "db.sqlite", isolation_level=None)
            holder.execute("BEGIN IMMEDIATE")  # another program locks the whole file
            try:
                assert table.move(server.url).status_code == 503
                expect(banner).to_be_visible(timeout=STEP_MS)
                expect(banner).to_contain_text("The server cannot reach its database")
            finally:
                holder.execute("ROLLBACK")
                holder.close()
            expect(banner).to_be_hidden(timeout=STEP_MS)
            assert table.move(server.url).status_code == 200  # the refused move, with its id
            table.check(server.url)
        finally:
            page.close()
