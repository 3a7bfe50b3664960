"""The package's import graph, type-checking imports included: no module takes part in a
circle, and the layers of docs/architecture.md hold (``lint-imports`` checks them in CI, from
the contracts in pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

grimp = pytest.importorskip("grimp")

ROOT = Path(__file__).resolve().parents[1]


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of ``graph`` with more than one module, or one
    module that imports itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == node:
                    break
            if len(component) > 1 or node in graph[node]:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_strongly_connected_finds_a_circle_and_nothing_else() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}, "f": set()}
    assert strongly_connected(graph) == [["a", "b", "c"], ["e"]]


def test_no_module_of_the_package_takes_part_in_an_import_circle() -> None:
    imports = grimp.build_graph("paiute", exclude_type_checking_imports=False)
    graph = {module: set(imports.find_modules_directly_imported_by(module)) for module in imports.modules}
    circles = strongly_connected(graph)
    assert circles == [], "import circles (type-checking imports included): " + "; ".join(
        " <-> ".join(circle) for circle in circles
    )


def test_the_import_contracts_hold() -> None:
    command = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if command is None:
        pytest.skip("import-linter is not installed (the test extra has it)")
    done = subprocess.run([command, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
