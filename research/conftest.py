"""The experiments' tests (``research/tests``), apart from the main suite: run them from the
repository root with ``.venv/bin/python -m pytest research/tests -n 2`` (``.ci/research``).

``research`` is a package, so pytest puts the repository root on the import path and the
tests import the experiments as ``research.NAME``, as ``python -m research.NAME`` runs them.
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

# The search kernels, compiled once into Numba's disk cache before the test workers start:
# two xdist workers that meet them at once would both compile them.
_COMPILE = (
    "from paiute.compiled import available\n"
    "if available():\n"
    "    from paiute.compiled.search import warm_up; warm_up()\n"
)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    config = session.config
    workers = getattr(config.option, "numprocesses", None)
    if hasattr(config, "workerinput") or not workers or config.option.collectonly:
        return  # a worker, or no workers: each test compiles what it needs, once
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line("compiling Numba's kernels for the workers (after an install: minutes)...")
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _COMPILE], check=False, timeout=1800)
    if reporter is not None:
        outcome = (
            "ready"
            if done.returncode == 0
            else f"not compiled (exit {done.returncode}): the tests compile them"
        )
        reporter.write_line(f"Numba's kernels {outcome} in {time.perf_counter() - started:.0f} s")


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests compare English text: the machine's locale must not choose another language."""
    monkeypatch.setenv("PAIUTE_LANG", "en")
