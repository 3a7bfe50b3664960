"""Shared test fixtures: where the conformance vectors live, hypothesis profiles."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]
# The team's shared vectors (../shared/conformance) when present, else the copy in tests/data.
_SHARED = ROOT.parent / "shared" / "conformance"
CONFORMANCE = _SHARED if _SHARED.is_dir() else ROOT / "tests" / "data" / "conformance"

settings.register_profile(
    "default", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("ci", max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


# -- system services (installed and started by .ci/services.sh in CI) -------------------------
# Without them the tests that need them are skipped with the reason, except where
# PAIUTE_REQUIRE_SERVICES is set (CI), where a missing service fails the test.
CHROMIUM = Path("/usr/bin/chromium")


def _missing(what: str) -> None:
    import pytest

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
