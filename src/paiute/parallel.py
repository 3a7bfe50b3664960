"""Running independent jobs on local processes or a Ray cluster, with a stop flag.

Tournaments and simulations split their work into independent, seeded jobs (a board, a chunk
of deals) whose results do not depend on where they run; this module runs them. ``workers=1``
runs in this process; more use fresh local processes (never a fork of a threaded parent); the
``ray`` backend sends them to a Ray cluster (``pip install 'paiute[cluster]'``).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Generator, Sequence
from typing import Any, Protocol, TypeVar

from paiute.errors import N_, Message, PaiuteError

__all__ = [
    "BACKENDS",
    "ParallelError",
    "StopFlag",
    "default_workers",
    "parallel_map",
    "process_pool",
    "ray_cluster",
    "stop_pool",
]

#: Where jobs run: local processes (or in-process with one worker), or a Ray cluster.
BACKENDS = ("local", "ray")

T = TypeVar("T")
R = TypeVar("R")


class ParallelError(PaiuteError):
    """Bad worker settings, or a backend that is not installed."""


class StopFlag(Protocol):
    """Anything with ``is_set()``, such as :class:`threading.Event`."""

    def is_set(self) -> bool: ...


def default_workers() -> int:
    """The processes a local run uses by default: one per usable core."""
    try:
        return len(os.sched_getaffinity(0)) or 2
    except AttributeError:  # not every system has affinity
        return os.cpu_count() or 2


def _ignore_interrupts() -> None:
    # Ctrl-C reaches the whole process group: only the parent decides what to stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def process_pool(workers: int) -> concurrent.futures.ProcessPoolExecutor:
    """A pool of ``workers`` fresh interpreters (forkserver: never a fork of a process whose
    other threads may hold locks) that leave Ctrl-C to their parent; end it with :func:`stop_pool`."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    return concurrent.futures.ProcessPoolExecutor(workers, context, initializer=_ignore_interrupts)


def stop_pool(executor: concurrent.futures.Executor, *, wait: bool = False, seconds: float = 5.0) -> None:
    """End ``executor`` and its processes: what is queued is cancelled, what runs is stopped.

    A running task cannot be cancelled: its process is terminated (the workers ignore Ctrl-C),
    and with ``wait`` each one is waited for (at most ``seconds``, then killed), so that none
    outlives the caller. ProcessPoolExecutor has no public way before Python 3.14, and
    shutdown() forgets its processes, so they are taken first.
    """
    processes = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    if not wait:
        return
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(seconds)
            if process.is_alive():
                process.kill()
                process.join(seconds)


def parallel_map(
    function: Callable[[T], R],
    arguments: Sequence[T],
    *,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    stop: StopFlag | None = None,
) -> Generator[tuple[int, R], None, None]:
    """Call ``function`` on each argument; yield ``(index, result)`` as each one finishes.

    ``backend="local"`` runs ``workers`` processes (one per core by default; ``workers=1``
    runs in this process, in order); ``backend="ray"`` sends tasks to a Ray cluster
    (``address``, or a local one started here; an already started Ray is used as it is),
    ``workers`` being the tasks in flight (default: the cluster's CPUs). ``function`` must be
    importable by name and its arguments picklable. Setting ``stop`` (or closing the
    generator) ends the run: what has finished is yielded, the rest is cancelled and the
    workers are stopped. The order of completion varies; sort by index for repeatable results.
    """
    if backend not in BACKENDS:
        raise ParallelError(f"unknown backend {backend!r} (backends: {', '.join(BACKENDS)})")
    if workers is not None and workers < 1:
        raise ParallelError(f"workers must be at least 1, not {workers}")
    if backend == "ray":
        return _ray_map(function, arguments, workers, address, stop)
    if address is not None:
        raise ParallelError("--address is for the ray backend")
    count = min(workers or default_workers(), max(len(arguments), 1))
    if count == 1:
        return _serial_map(function, arguments, stop)
    return _process_map(function, arguments, count, stop)


def _stopped(stop: StopFlag | None) -> bool:
    return stop is not None and stop.is_set()


def _serial_map(
    function: Callable[[T], R], arguments: Sequence[T], stop: StopFlag | None
) -> Generator[tuple[int, R], None, None]:
    for index, argument in enumerate(arguments):
        if _stopped(stop):
            return
        yield index, function(argument)


def _process_map(
    function: Callable[[T], R], arguments: Sequence[T], workers: int, stop: StopFlag | None
) -> Generator[tuple[int, R], None, None]:
    # Workers start from a fresh interpreter (forkserver), never a fork of a process whose
    # other threads (a progress bar) may hold locks; built-in players register on import.
    executor = process_pool(workers)
    pending: dict[concurrent.futures.Future[R], int] = {}
    submitted = 0
    finished = False
    try:
        while True:
            while submitted < len(arguments) and len(pending) < 2 * workers and not _stopped(stop):
                pending[executor.submit(function, arguments[submitted])] = submitted
                submitted += 1
            if not pending or _stopped(stop):
                break
            done, _ = concurrent.futures.wait(
                pending, timeout=0.2, return_when=concurrent.futures.FIRST_COMPLETED
            )
            for future in sorted(done, key=pending.__getitem__):
                yield pending.pop(future), future.result()
        finished = not pending
    finally:
        if finished:
            executor.shutdown(wait=True)
        else:
            stop_pool(executor)  # a running task cannot be cancelled: its process is stopped


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ParallelError("the ray backend needs Ray: pip install 'paiute[cluster]'") from None
    return ray


def _ray_init(ray: Any, address: str | None, workers: int | None) -> None:
    """Join the cluster at ``address``, or start a private local Ray instance.

    Without an address the instance is this run's own, whatever the machine holds:
    ``address="local"`` ignores ``RAY_ADDRESS`` and the ``ray_current_cluster`` file that an
    earlier ``ray start`` leaves (even for a cluster long gone), and the node listens on
    127.0.0.1 only, never on the network.
    """
    if address is None:
        options: dict[str, Any] = {"address": "local", "_node_ip_address": "127.0.0.1"}
        if workers is not None:
            options["num_cpus"] = workers
    else:
        options = {"address": address}
    try:
        with _loopback_only(address is None):
            ray.init(include_dashboard=False, log_to_driver=False, **options)
    except (ConnectionError, ValueError, RuntimeError) as error:
        where = address if address is not None else "127.0.0.1"
        raise ParallelError(f"Ray at {where}: {error}") from None


@contextlib.contextmanager
def _loopback_only(private: bool) -> Generator[None, None, None]:
    """While a private instance starts: Ray on Linux turns a node address of 127.0.0.1 into
    the machine's network address (to be reachable by other nodes) unless "clusters" are
    off, as they are by default on macOS and Windows; turn them off meanwhile, so that every
    Ray process listens on 127.0.0.1 only."""
    constants = getattr(getattr(sys.modules.get("ray"), "_private", None), "ray_constants", None)
    if not private or constants is None or not hasattr(constants, "ENABLE_RAY_CLUSTER"):
        yield
        return
    saved = constants.ENABLE_RAY_CLUSTER
    constants.ENABLE_RAY_CLUSTER = False
    try:
        yield
    finally:
        constants.ENABLE_RAY_CLUSTER = saved


@contextlib.contextmanager
def ray_cluster(address: str | None = None, workers: int | None = None) -> Generator[Message, None, None]:
    """Ray for the length of a ``with``: joined at ``address`` or a private local instance
    (see :func:`_ray_init`), shut down afterwards; yields a line that says which, for people.
    Work sent with ``backend="ray"`` meanwhile runs there."""
    ray = _import_ray()
    if ray.is_initialized():
        yield Message(N_("Ray: the instance already started in this process"))
        return
    _ray_init(ray, address, workers)
    try:
        cpus = int(ray.cluster_resources().get("CPU", 0))
        nodes = sum(1 for node in ray.nodes() if node.get("Alive"))
        if address is None:
            yield Message(N_("Ray: a private local instance on 127.0.0.1 with {cpus} CPUs"), cpus=cpus)
        else:
            yield Message(
                N_("Ray: joined the cluster at {address}: {nodes} nodes, {cpus} CPUs"),
                address=address,
                nodes=nodes,
                cpus=cpus,
            )
    finally:
        ray.shutdown()


def _ray_map(
    function: Callable[[T], R],
    arguments: Sequence[T],
    workers: int | None,
    address: str | None,
    stop: StopFlag | None,
) -> Generator[tuple[int, R], None, None]:
    ray = _import_ray()  # now, not at the first result
    return _ray_tasks(ray, function, arguments, workers, address, stop)


def _ray_tasks(
    ray: Any,
    function: Callable[[T], R],
    arguments: Sequence[T],
    workers: int | None,
    address: str | None,
    stop: StopFlag | None,
) -> Generator[tuple[int, R], None, None]:
    started = False
    pending: dict[Any, int] = {}
    try:
        if not ray.is_initialized():
            _ray_init(ray, address, workers)
            started = True
        in_flight = 2 * (workers or max(int(ray.cluster_resources().get("CPU", 1)), 1))
        remote = ray.remote(num_cpus=1)(function)  # boards are repeatable: a lost one is retried
        submitted = 0
        while True:
            while submitted < len(arguments) and len(pending) < in_flight and not _stopped(stop):
                pending[remote.remote(arguments[submitted])] = submitted
                submitted += 1
            if not pending or _stopped(stop):
                break
            done, _ = ray.wait(list(pending), num_returns=1, timeout=0.2)
            for reference in sorted(done, key=pending.__getitem__):
                index = pending.pop(reference)
                yield index, ray.get(reference)
    finally:
        for reference in pending:
            with contextlib.suppress(Exception):
                ray.cancel(reference, force=True)
        if started:
            ray.shutdown()
