"""Golden playthroughs (OpenSpiel style): every file in tests/playthroughs/ is regenerated in
memory by scripts/make_playthroughs.py and compared line by line.

A failure means the engine now plays, deals or prints differently. If the change is intended,
regenerate with ``.venv/bin/python scripts/make_playthroughs.py --write`` and review the diff.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "make_playthroughs.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_playthroughs", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


MAKE = _load()
PLAYTHROUGHS = MAKE.PLAYTHROUGHS
MAX_DIFF_LINES = 40


@pytest.mark.parametrize("playthrough", PLAYTHROUGHS, ids=[p.name for p in PLAYTHROUGHS])
def test_playthrough_matches_the_golden_file(playthrough: object) -> None:
    path: Path = playthrough.path  # type: ignore[attr-defined]
    assert path.is_file(), f"{path.name} is missing: run scripts/make_playthroughs.py --write"
    text = MAKE.render(playthrough)
    lines = MAKE.diff(playthrough, text, context=1)
    if lines:
        shown = "".join(lines[:MAX_DIFF_LINES])
        more = len(lines) - MAX_DIFF_LINES
        tail = f"\n... {more} more diff lines" if more > 0 else ""
        pytest.fail(
            f"{path.name} differs from a fresh playthrough "
            f"(regenerate with scripts/make_playthroughs.py --write if intended):\n{shown}{tail}",
            pytrace=False,
        )


def test_playthrough_is_deterministic() -> None:
    """The same seed gives the same deal and the same choices (R10.1)."""
    first = PLAYTHROUGHS[0]
    assert MAKE.render(first) == MAKE.render(first)


def test_no_stale_playthrough_files() -> None:
    known = {p.path.name for p in PLAYTHROUGHS}
    found = {path.name for path in (ROOT / "tests" / "playthroughs").glob("*.txt")}
    assert found == known


def test_playthroughs_cover_the_cases() -> None:
    """Both presets, jokers, scale payout, a rebuild, a dead deal, several calls."""
    texts = {p.name: MAKE.render(p) for p in PLAYTHROUGHS}
    presets = {p.preset for p in PLAYTHROUGHS}
    assert presets == {"pagat", "gamerules"}
    assert any(p.options.get("jokers") for p in PLAYTHROUGHS)
    assert any(p.options.get("payout") == "scale" for p in PLAYTHROUGHS)
    assert any("rebuild of" in text for text in texts.values())
    assert any("dead deal (R4.7)" in text for text in texts.values())
    assert any(text.count("\ncall: ") > 1 for text in texts.values())
    for name, text in texts.items():
        assert text.endswith("\n"), name
        assert "\n-- end\n" in text, name
