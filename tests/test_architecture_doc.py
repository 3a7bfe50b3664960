"""docs/architecture.md is the map: every module of the package is on it, and every file it
names exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "paiute"
MAP = (ROOT / "docs" / "architecture.md").read_text()


def test_every_module_and_package_of_paiute_is_on_the_map() -> None:
    names = {path.stem for path in PACKAGE.glob("*.py") if path.stem not in {"__init__", "__main__"}}
    names |= {f"{path.name}/" for path in PACKAGE.iterdir() if (path / "__init__.py").is_file()}
    for package in ("players", "analysis", "envs", "tui", "compiled"):
        names |= {path.stem for path in (PACKAGE / package).glob("*.py") if path.stem != "__init__"}
    missing = sorted(
        name for name in names if not re.search(rf"`{re.escape(name)}`|\b{re.escape(name)}\b", MAP)
    )
    assert missing == [], f"not on docs/architecture.md: {missing}"


def test_every_file_the_map_names_exists() -> None:
    named = set(re.findall(r"`((?:tests|docs|scripts|\.ci|benchmarks|research)/[\w./-]+)`", MAP))
    named |= {f"tests/{name}" for name in re.findall(r"\(`tests/([\w./-]+)`", MAP)}
    assert named, "the map names no file"
    missing = sorted(name for name in named if not (ROOT / name).exists())
    assert missing == [], f"docs/architecture.md names files that do not exist: {missing}"
