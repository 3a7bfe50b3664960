"""Worker processes for root-parallel search: one pipe each, shares sent and collected.

A search player with ``workers=N`` starts ``N - 1`` of them with itself and sends each a
share of every decision (:func:`~paiute.players.search_shares.search_share`); a worker that
cannot start, fails or dies is reported as such, and the player searches its share itself.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import sys
import threading
from multiprocessing.connection import Connection
from typing import Any

from paiute.players.search_shares import ShareResult, search_share

__all__ = ["SearchWorkers"]


def _process_context() -> Any:
    """``fork`` on Linux while this process has a single thread (fast, and scripts need no
    ``if __name__ == "__main__"`` guard); otherwise ``forkserver`` or ``spawn``."""
    methods = multiprocessing.get_all_start_methods()
    if sys.platform == "linux" and "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _worker_main(conn: Connection) -> None:
    """A worker process: run search shares sent down the pipe until ``None`` or EOF."""
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            reply: tuple[ShareResult | None, str | None] = (search_share(*task), None)
        except Exception as error:  # reported to the caller, which searches on without it
            reply = (None, repr(error))
        try:
            conn.send(reply)
        except OSError:
            return


class SearchWorkers:
    """Worker processes, one pipe each, at most one task outstanding per worker.

    Tasks go down the pipes from the calling thread itself: no helper threads (a
    :class:`~concurrent.futures.ProcessPoolExecutor` feeds its queue from a thread that
    waits for the GIL while the caller searches, which delays every share).
    """

    def __init__(self, count: int) -> None:
        context = _process_context()
        self._conns: list[Connection] = []
        self._processes: list[Any] = []
        self._busy: list[bool] = []
        self._alive: list[bool] = []
        for _ in range(count):
            parent, child = context.Pipe()
            process = context.Process(target=_worker_main, args=(child,), daemon=True, name="paiute-search")
            try:
                process.start()
                alive = True
            except (AssertionError, OSError, RuntimeError):
                # E.g. inside a daemonic pool process, which may not have children: its
                # share is then searched in the calling process (see ``act``).
                alive = False
            child.close()
            self._conns.append(parent)
            self._processes.append(process)
            self._busy.append(False)
            self._alive.append(alive)

    def _dead(self, index: int) -> None:
        self._alive[index] = False
        self._busy[index] = False

    def submit(self, index: int, task: tuple[object, ...], wait_idle: float | None) -> bool:
        """Send ``task`` to worker ``index``; ``False`` if it is dead, or still busy with a
        late task after ``wait_idle`` seconds (``None``: wait as long as it takes)."""
        if self._busy[index]:
            self.collect(index, wait_idle)  # a late reply to an earlier decision: drop it
        if not self._alive[index] or self._busy[index]:
            return False
        try:
            self._conns[index].send(task)
        except OSError:
            self._dead(index)
            return False
        self._busy[index] = True
        return True

    def collect(self, index: int, timeout: float | None) -> ShareResult | None:
        """The reply of worker ``index`` within ``timeout`` seconds (``None``: no limit), or
        ``None`` if it failed, died or is not done yet (it stays busy then)."""
        if not self._busy[index]:
            return None
        conn = self._conns[index]
        try:
            if not conn.poll(timeout):
                return None
            reply: tuple[ShareResult | None, str | None] = conn.recv()
        except (EOFError, OSError):
            self._dead(index)
            return None
        self._busy[index] = False
        return reply[0]

    def close(self) -> None:
        for conn, alive in zip(self._conns, self._alive, strict=True):
            if alive:
                with contextlib.suppress(OSError):
                    conn.send(None)
        for process, conn, alive in zip(self._processes, self._conns, self._alive, strict=True):
            if alive or process.pid is not None:
                process.join(0.5)
                if process.is_alive():
                    process.terminate()
            conn.close()
        self._alive = [False] * len(self._alive)
