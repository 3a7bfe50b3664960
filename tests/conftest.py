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
