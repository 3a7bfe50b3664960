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


def test_expired_hits_of_moving_windows_are_swept_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "EXPIRE_EVERY", 0.05)
    store: Any = limits._Store()
    assert store.acquire_entry("gone", 5, 0.1)
    assert store.acquire_entry("kept", 5, 60)
    deadline = time.monotonic() + 5
    while store.events.get("gone") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not store.events.get("gone")
    assert len(store.events["kept"]) == 1


def test_an_exact_limiter_never_lets_more_through_in_any_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """Four hits a minute: four just before a minute's edge, then none just after it (a
    sliding window counter, weighing the last minute's hits down there, lets more through)."""
    now = [1_000_000 * 60 + 59.5]  # half a second before a minute's edge
    monkeypatch.setattr(time, "time", lambda: now[0])
    exact = Limiter(rate=4 / 60, burst=4, exact=True)
    approximate = Limiter(rate=4 / 60, burst=4)
    assert all(exact.take("a") for _ in range(4))
    assert all(approximate.take("a") for _ in range(4))
    now[0] += 30.0  # 29.5 s into the next minute: the four hits are 30 s old
    assert not exact.take("a")
    assert approximate.take("a")  # the counter's approximation, which exact=True avoids
    now[0] += 30.1  # the first four are now past a minute old
    assert exact.take("a")
