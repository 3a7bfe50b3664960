"""Running jobs in parallel: order-independent results, and a stop that really stops."""

from __future__ import annotations

import multiprocessing
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from paiute.errors import plain_text
from paiute.parallel import ParallelError, parallel_map, ray_cluster


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


@pytest.fixture
def stale_ray_cluster(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A machine where an earlier ``ray start`` left its address behind, long gone: the
    ``ray_current_cluster`` file in Ray's temporary folder, and ``RAY_ADDRESS``."""
    # A short folder of its own: Ray's socket paths must fit in 107 bytes.
    folder = Path(tempfile.mkdtemp(prefix="pr", dir="/tmp"))
    (folder / "ray").mkdir()
    (folder / "ray" / "ray_current_cluster").write_text("127.0.0.1:1\n")
    monkeypatch.setenv("RAY_TMPDIR", str(folder))
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:1")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_ray_without_address_starts_its_own_private_instance(stale_ray_cluster: Path) -> None:
    # Issue 15: no attaching to the stale cluster ("num_cpus and num_gpus must not be
    # provided"): a local instance of this run's own, on 127.0.0.1 only.
    ray = pytest.importorskip("ray")
    with ray_cluster(None, workers=1) as where:
        assert "private local instance on 127.0.0.1" in str(where)
        # A function of paiute (importable by Ray's workers): the text of each argument.
        assert dict(parallel_map(plain_text, [1, 2], backend="ray", workers=1)) == {0: "1", 1: "2"}
        addresses = {node["NodeManagerAddress"] for node in ray.nodes()}
        assert addresses == {"127.0.0.1"}
    assert not ray.is_initialized()
    # parallel_map alone starts (and stops) the same private instance.
    assert dict(parallel_map(plain_text, [3], backend="ray", workers=1)) == {0: "3"}
    assert not ray.is_initialized()
    assert os.environ["RAY_ADDRESS"] == "127.0.0.1:1"  # left as it was
