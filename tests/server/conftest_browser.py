"""Helpers for the browser tests of the web pages (and scripts/make_screenshots.py).

A real ``paiute serve`` in a subprocess (SQLite in a temporary directory, bots without delay),
Debian's Chromium through Playwright (never a downloaded browser), and :class:`TablePage`,
which plays a seat by clicking the table page the way a person would.
"""

from __future__ import annotations

import contextlib
import subprocess
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, Playwright, sync_playwright
from server_helpers import ServerProcess

from conftest import CHROMIUM, chromium_path

STARTUP_SECONDS = 30.0
#: Milliseconds a page may take to answer one click (the server, a bot turn, a re-render).
STEP_MS = 10_000
#: A card of the hand this seat may discard now (the others stay focusable, aria-disabled).
PLAYABLE_CARD = "#hand button.card:not([aria-disabled='true'])"


def launch_chromium(playwright: Playwright, executable: str | None = None) -> Browser:
    return playwright.chromium.launch(executable_path=executable or str(CHROMIUM), args=["--no-sandbox"])


@dataclass
class Server:
    """A running ``paiute serve``: its base URL and process."""

    url: str
    process: subprocess.Popen[str]

    def api(self, method: str, path: str, token: str | None = None, **kwargs: Any) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = httpx.request(method, self.url + path, headers=headers, timeout=10, **kwargs)
        response.raise_for_status()
        return response.json()


@contextlib.contextmanager
def run_server(
    directory: Path,
    *,
    deal_pause: float = 2.0,
    bot_delay: float = 0.0,
    away_grace: float = 30.0,
    extra: Sequence[str] = (),
) -> Iterator[Server]:
    """``paiute serve`` on a free port of 127.0.0.1 until the block ends (``extra``: more flags)."""
    running = ServerProcess(
        f"sqlite:///{directory / 'db.sqlite'}",
        directory / "server.log",
        deal_pause=deal_pause,
        bot_delay=bot_delay,
        away_grace=away_grace,
        extra=extra,
    )
    try:
        httpx.get(running.url + "/api/health", timeout=5).raise_for_status()
        yield Server(running.url, running.process)
    finally:
        running.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for a test module's pages (import this fixture into the module)."""
    with run_server(tmp_path_factory.mktemp("serve"), deal_pause=1.0) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium for a test module (import this fixture into the module)."""
    executable = chromium_path()
    with sync_playwright() as playwright:
        launched = launch_chromium(playwright, executable)
        yield launched
        launched.close()


class TablePage:
    """One seat's (or a spectator's) table page, driven by clicks like a person would."""

    #: Where this page cuts (R2.4); None: where the page proposes (a secure random position).
    #: With a seeded server (``--insecure-deal-seed``) a chosen cut makes every deal the same.
    cut_at: int | None = None

    def __init__(self, page: Page) -> None:
        self.page = page
        self.played: dict[str, int] = {}  # turns this seat has played, per deal

    @property
    def turns(self) -> int:
        """Turns this seat has played in the current deal."""
        return self.played.get(self.data("deal"), 0)

    def data(self, name: str) -> str:
        return self.page.locator("#app").get_attribute(f"data-{name}") or ""

    @property
    def seat(self) -> int | None:
        you = self.data("you")
        return int(you) if you else None

    def hand(self) -> list[str]:
        return self.page.locator("#hand [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")

    def wait_ready(self) -> None:
        """Until the page has its first state from the WebSocket."""
        self.page.wait_for_selector("#app[data-version]", timeout=STEP_MS)

    def _click_and_wait(self, selector: str) -> None:
        version = self.data("version")
        self.page.locator(selector).first.click(timeout=STEP_MS)
        # Done when the server's answer is in: a newer version, or a refusal shown.
        self.page.wait_for_function(
            """v => { const a = document.getElementById('app');
                      return a.dataset.busy === 'false' &&
                             (a.dataset.version !== v || !document.getElementById('message').hidden); }""",
            arg=version,
            timeout=STEP_MS,
        )

    def play_step(self, *, call_after: int = 3) -> str | None:
        """Make this seat's next move if it has one: cut, draw from the stock, call when the
        best call is offered after ``call_after`` turns or in the last round, else discard
        the first card it may. Returns what it did, or None."""
        if self.data("busy") == "true":
            return None
        status = self.data("status")
        if status == "cut":
            if self.page.locator("#cut-controls").is_visible():
                if self.cut_at is not None:  # a chosen cut, not the page's random one
                    self.page.fill("#cut-number", str(self.cut_at))
                    self.page.locator("#cut-number").dispatch_event("change")
                self._click_and_wait("#cut-button")
                return "cut"
            return None
        seat = self.seat
        if status != "playing" or seat is None or self.data("turn") != str(seat):
            return None
        if self.data("phase") == "draw":
            if self.page.locator("#btn-draw-stock").is_enabled():
                self._click_and_wait("#btn-draw-stock")
                return "draw stock"
            self._click_and_wait("#btn-draw-discard")
            return "draw discard"
        deal = self.data("deal")
        self.played[deal] = self.played.get(deal, 0) + 1
        best = self.page.locator("#call-best")
        last_round = self.page.locator("#last-round").is_visible()
        if best.count() and (self.turns > call_after or last_round):
            self._click_and_wait("#call-best")
            return "call"
        self._click_and_wait(PLAYABLE_CARD)
        return "discard"


def play_until(
    pages: list[TablePage], done: Any, *, max_moves: int = 400, seconds: float = 60.0, call_after: int = 3
) -> int:
    """Let every page make its moves until ``done()`` holds; the number of moves made.
    Bounded by ``max_moves`` and by ``seconds``; a page calls as :meth:`TablePage.play_step`
    says (``call_after=0``: at its first chance, for a short deal)."""
    deadline = time.monotonic() + seconds
    moves = 0
    while not done():
        if moves >= max_moves or time.monotonic() > deadline:
            raise AssertionError(f"the pages did not get there in {moves} moves")
        acted = False
        for table_page in pages:
            if table_page.play_step(call_after=call_after) is not None:
                moves += 1
                acted = True
        if not acted:
            pages[0].page.wait_for_timeout(50)
    return moves
