"""Run the ``paiute`` command as if some optional libraries were not installed.

    python tests/without_extras.py rich,textual,numpy -- eval "3h 3s Ad Ac Ks Kh" --wild 3

Every top-level module named in the first argument is missing: importing it raises
``ModuleNotFoundError`` and ``importlib.util.find_spec`` finds nothing, as on an install without
the extra that brings it. The fast in-suite twin of CI's door test (``.ci/doors.py``), which
installs each extra into a fresh environment.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from types import ModuleType

#: Every library an extra brings that the package imports (``pyproject.toml``'s extras).
OPTIONAL = (
    "rich",
    "textual",
    "platformdirs",
    "openskill",
    "matplotlib",
    "numpy",
    "numba",
    "pettingzoo",
    "gymnasium",
    "pyspiel",
    "open_spiel",
    "ray",
    "torch",
    "fastapi",
    "starlette",
    "pydantic",
    "uvicorn",
    "sqlalchemy",
    "alembic",
    "psycopg",
    "jinja2",
    "limits",
    "secure",
    "confusable_homoglyphs",
    "fastapi_offline",
    "orjson",
    "argon2",
)


class _Absent(importlib.abc.MetaPathFinder):
    def __init__(self, names: frozenset[str]) -> None:
        self.names = names

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname.partition(".")[0] in self.names:
            raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
        return None


def hide(names: frozenset[str]) -> None:
    """Make ``names`` (top-level modules) look uninstalled from now on in this process."""
    sys.meta_path.insert(0, _Absent(names))
    find_spec = importlib.util.find_spec

    def find_spec_without(name: str, package: str | None = None) -> importlib.machinery.ModuleSpec | None:
        if name.partition(".")[0] in names:
            return None
        return find_spec(name, package)

    importlib.util.find_spec = find_spec_without


def main(argv: Sequence[str]) -> int:
    hidden, separator, words = argv[0], argv[1], argv[2:]
    assert separator == "--", "usage: without_extras.py NAME,NAME -- PAIUTE_ARGS"
    hide(frozenset(name for name in hidden.split(",") if name))
    from paiute.cli.main import main as paiute

    return paiute(words)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
