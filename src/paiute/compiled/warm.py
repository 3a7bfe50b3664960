"""Getting the compiled core ready without making a table wait.

The search kernels are compiled by Numba on first use and cached on disk (``cache=True``): the
first process after an install compiles them (minutes of CPU), later processes load them from
the cache (seconds; README.md, "Bots, tournaments and the numbers of the game", has the
figures). :func:`prepare` does either in a background thread; :func:`ready` says whether it has
finished, so a player can play a cheaper move until then instead of stalling
(``paiute.players.pimc`` does).

>>> isinstance(ready(), bool)
True
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
import time

from paiute.compiled import available

__all__ = ["error", "prepare", "ready", "seconds"]

_lock = threading.Lock()
_done = threading.Event()
_thread: threading.Thread | None = None
_error: BaseException | None = None
_seconds: float | None = None


def _load() -> None:
    global _error, _seconds
    started = time.perf_counter()
    try:
        # Compiling holds the interpreter lock for most of a minute, which would stall a server's
        # event loop or a terminal's screen: a child process compiles into the disk cache
        # first (or finds it there in a second), and this process then only loads it.
        # A child that cannot start or overruns leaves the compiling to this process.
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            subprocess.run(
                [sys.executable, "-c", "from paiute.compiled.search import warm_up; warm_up()"],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=900,
                check=False,
            )
        from paiute.compiled.search import warm_up

        warm_up()
    except Exception as exception:  # a broken Numba install: callers fall back, and say why
        _error = exception
    finally:
        _seconds = time.perf_counter() - started
        _done.set()


def prepare(*, block: bool = False, timeout: float | None = None) -> bool:
    """Start compiling (or loading) the search kernels in a background thread, once per
    process; with ``block``, wait for them (at most ``timeout`` seconds). Returns
    :func:`ready`."""
    global _thread
    if not available():
        return False
    with _lock:
        if _thread is None:
            _thread = threading.Thread(target=_load, name="paiute-compile", daemon=True)
            _thread.start()
    if block:
        _done.wait(timeout)
    return ready()


def ready() -> bool:
    """Whether the search kernels are compiled and loaded in this process."""
    return _done.is_set() and _error is None


def error() -> BaseException | None:
    """Why the kernels could not be prepared, if they could not."""
    return _error


def seconds() -> float | None:
    """How long preparing took (None until it has finished)."""
    return _seconds
