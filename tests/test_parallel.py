"""Running jobs in parallel: order-independent results, and a stop that really stops."""

from __future__ import annotations

import multiprocessing
import threading
import time

import pytest

from paiute.parallel import ParallelError, parallel_map


def test_results_carry_their_index_whatever_the_workers() -> None:
    jobs = [3, 1, 2, 5, 4]
    for workers in (1, 2):
        results = dict(parallel_map(abs, [-job for job in jobs], workers=workers))
        assert [results[index] for index in range(len(jobs))] == jobs


def test_a_stop_ends_the_running_jobs_processes() -> None:
    """Stopping must not leave workers running (they would keep the program from exiting)."""
    stop = threading.Event()
    threading.Timer(0.5, stop.set).start()
    started = time.monotonic()
    assert list(parallel_map(time.sleep, [60.0, 60.0, 60.0], workers=2, stop=stop)) == []
    assert time.monotonic() - started < 10
    deadline = time.monotonic() + 10
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not multiprocessing.active_children()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"workers": 0}, "at least 1"),
        ({"backend": "mpi"}, "unknown backend"),
        ({"address": "x"}, "ray backend"),
    ],
)
def test_bad_settings_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(ParallelError, match=message):
        parallel_map(abs, [1], **options)  # type: ignore[arg-type]
