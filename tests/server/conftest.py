"""Fixtures of the server tests: an app over a temporary SQLite file, with no pauses."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_helpers import fast_settings

with warnings.catch_warnings():
    # Starlette 1.x suggests httpx2 for its test client; httpx works the same for these tests.
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from paiute.server import create_app


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'paiute.db'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, settings=fast_settings())) as test_client:
        yield test_client
