"""The limiters' store (paiute.server.limits): counting a hit never starts a thread (a thread
start holds up the event loop that counts), and expired windows are still swept away."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from paiute.server import limits
from paiute.server.limits import Limiter


def test_counting_hits_starts_no_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    limiter = Limiter(rate=1000, burst=100)
    limiter.take("warm")  # the process's store and its one sweeping thread exist from here
    started: list[threading.Thread] = []
    start = threading.Thread.start

    def counted(thread: threading.Thread) -> None:
        started.append(thread)
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", counted)
    for round_ in range(5):
        for key in range(50):
            assert limiter.take(f"{round_}-{key}")
        time.sleep(0.03)  # past the library's own 10 ms timer, which a hit would start again
    assert started == []


def test_expired_windows_are_swept_out_of_the_store(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "EXPIRE_EVERY", 0.05)
    store: Any = limits._Store()
    store.incr("gone", 0.1)
    store.incr("kept", 60)
    deadline = time.monotonic() + 5
    while "gone" in store.storage and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "gone" not in store.storage
    assert store.get("kept") == 1
