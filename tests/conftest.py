"""Shared test fixtures: where the conformance vectors live, hypothesis profiles."""

from __future__ import annotations

import contextlib
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, settings

from paiute.deal import Deal

ROOT = Path(__file__).resolve().parents[1]
# The team's shared vectors (../shared/conformance) when present, else the copy in tests/data.
_SHARED = ROOT.parent / "shared" / "conformance"
CONFORMANCE = _SHARED if _SHARED.is_dir() else ROOT / "tests" / "data" / "conformance"
# The server tests' helpers (tests/server/server_helpers.py) import by their plain name.
sys.path.insert(0, str(ROOT / "tests" / "server"))

settings.register_profile(
    "default", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("ci", max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


# -- Numba's kernels, compiled once before the test workers start ------------------------------
# The search bots' and the batch simulator's kernels are cached on disk on first use; two xdist
# workers that meet them at once would both compile them (minutes of CPU each on 2 cores: the
# suite took 888 s so, 348 s with the cache filled). The controller fills the cache first, in a
# child process; with the cache already filled that costs a few seconds.
_COMPILE = (
    "from paiute.compiled import available\n"
    "if available():\n"
    "    from paiute.compiled.search import warm_up; warm_up()\n"
    "    from paiute.envs.batch_sim import compile_kernels; compile_kernels()\n"
)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    config = session.config
    workers = getattr(config.option, "numprocesses", None)
    if hasattr(config, "workerinput") or not workers or config.option.collectonly:
        return  # a worker, or no workers: each test compiles what it needs, once
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line("compiling Numba's kernels for the workers (after an install: minutes)...")
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _COMPILE], check=False, timeout=1800)
    if reporter is not None:
        outcome = (
            "ready"
            if done.returncode == 0
            else f"not compiled (exit {done.returncode}): the tests compile them"
        )
        reporter.write_line(f"Numba's kernels {outcome} in {time.perf_counter() - started:.0f} s")


# -- system services (installed and started by .ci/services.sh in CI) -------------------------
# Without them the tests that need them are skipped with the reason, except where
# PAIUTE_REQUIRE_SERVICES is set (CI), where a missing service fails the test.
CHROMIUM = Path("/usr/bin/chromium")


def _missing(what: str) -> None:
    if os.environ.get("PAIUTE_REQUIRE_SERVICES"):
        pytest.fail(f"{what} (PAIUTE_REQUIRE_SERVICES is set: run bash .ci/services.sh)")
    pytest.skip(what)


def chromium_path() -> str:
    """Debian's Chromium for the Playwright tests (never a downloaded browser)."""
    if not CHROMIUM.exists():
        _missing("Chromium is not installed: apt-get install chromium")
    return str(CHROMIUM)


def postgres_url() -> str:
    """The PostgreSQL database for the multi-process server tests (PAIUTE_TEST_POSTGRES)."""
    url = os.environ.get("PAIUTE_TEST_POSTGRES")
    if not url:
        _missing("PAIUTE_TEST_POSTGRES is not set: bash .ci/services.sh prints a URL")
    return str(url)


@contextlib.contextmanager
def fresh_schema() -> Iterator[str]:
    """A fresh schema of the PostgreSQL test database, dropped afterwards: the URL whose
    search_path is that schema, so that runs and tests do not see each other's tables."""
    import psycopg  # the server extra's driver: a bare install runs the other tests
    from psycopg import sql

    base = postgres_url()
    schema = f"paiute_test_{secrets.token_hex(4)}"
    with psycopg.connect(base, autocommit=True) as connection:
        connection.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    separator = "&" if "?" in base else "?"
    try:
        yield f"{base}{separator}options={quote(f'-csearch_path={schema}')}"
    finally:
        with psycopg.connect(base, autocommit=True) as connection:
            connection.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))


# -- the server's tests (tests/server): an app over a temporary SQLite file, no pauses --------
# Here rather than in tests/server/conftest.py: two conftest modules would both be imported
# as ``conftest`` (the tests are not packages) and hide each other's names.
@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'paiute.db'}"


@pytest.fixture
def client(db_url: str) -> Iterator[Any]:
    import warnings

    from server_helpers import fast_limits, fast_settings

    with warnings.catch_warnings():
        # Starlette 1.x suggests httpx2 for its test client; httpx works the same here.
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from paiute.server import create_app

    with TestClient(create_app(db_url, limits=fast_limits(), settings=fast_settings())) as test_client:
        yield test_client


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests compare English text: the machine's locale must not choose another language."""
    monkeypatch.setenv("PAIUTE_LANG", "en")


# -- R9 in the environments' texts (tests/envs) ----------------------------------------
def cards_never_shown(deal: Deal, seat: int) -> set[str]:
    """The cards in the other hands that ``seat`` has never seen (R9.2, R9.3): in no event of
    its history (a discard, a take, a call, its own draws), not in the discard pile, not the
    upcard and not wild (every view lists the wild cards, R3.1, which says nothing of where
    they are). A text for ``seat`` that names one of these breaks R9."""
    seen = deal.observation(seat)
    shown = set(seen.discard_pile) | set(deal.wild_cards) | set(seen.hand)
    if seen.upcard is not None:
        shown.add(seen.upcard)
    for event in seen.history:
        if event.card is not None:
            shown.add(event.card)
        if event.call is not None:
            shown |= set(event.call.shown)
    return {str(card) for other in range(deal.players) if other != seat for card in deal.hand(other)} - {
        str(card) for card in shown
    }


@pytest.fixture
def never_shown() -> Callable[[Deal, int], set[str]]:
    return cards_never_shown
