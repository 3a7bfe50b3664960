"""The package says what and why, never when: no dates and no work history in src/paiute.

Docstrings and comments explain the code as it is; figures, dates and the story of how a choice
was measured belong in docs/ (STYLE.md). This walks every ``*.py``, ``*.js``, ``*.html`` and
``*.css`` file of the package, code and text alike, and names each line that dates something.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "paiute"
SUFFIXES = frozenset({".py", ".js", ".html", ".css"})

_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_ORDINALS = "first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|[0-9]+(?:st|nd|rd|th)"

#: What dates a line, by what it is called in a failure.
PATTERNS: dict[str, re.Pattern[str]] = {
    "an ISO date": re.compile(r"\b20\d\d-\d\d-\d\d\b"),
    "a year and month": re.compile(r"\b20\d\d-(?:0[1-9]|1[0-2])\b"),
    "a dated before, since, until, after or as of": re.compile(
        r"\b(?:before|since|until|after|as of) 20\d\d\b", re.IGNORECASE
    ),
    "a month and year": re.compile(
        rf"\b(?:\d{{1,2}} )?(?:{_MONTHS})(?: \d{{1,2}},?)? 20\d\d\b", re.IGNORECASE
    ),
    "a numbered work session": re.compile(rf"\b(?:{_ORDINALS}) session\b", re.IGNORECASE),
}

#: Lines allowed to match, each as (a folder of the package, the line's pattern), with the reason.
ALLOWED: tuple[tuple[str, re.Pattern[str]], ...] = (
    # Alembic's revision header, which its template (migrations/script.py.mako) writes into every
    # migration: when a schema revision was made, a fact about the database's revisions.
    ("server/migrations/versions/", re.compile(r"^Create Date: ")),
)


def _allowed(relative: str, line: str) -> bool:
    return any(relative.startswith(folder) and pattern.search(line) for folder, pattern in ALLOWED)


def dated_lines(root: Path) -> list[str]:
    """Every line under ``root`` (files of :data:`SUFFIXES`) that dates something, as
    ``path:line: what: text``, the path relative to ``root``'s parent."""
    found = []
    for path in sorted(p for p in root.rglob("*") if p.suffix in SUFFIXES and p.is_file()):
        relative = path.relative_to(root).as_posix()
        shown = path.relative_to(root.parent).as_posix()
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, start=1):
            for what, pattern in PATTERNS.items():
                if pattern.search(line) and not _allowed(relative, line):
                    found.append(f"{shown}:{number}: {what}: {line.strip()}")
                    break
    return found


def test_no_module_of_the_package_dates_anything() -> None:
    found = dated_lines(PACKAGE)
    assert not found, (
        "docstrings and comments say what and why, never when: move these dates and this history "
        "to docs/ (STYLE.md)\n" + "\n".join(found)
    )


@pytest.mark.parametrize(
    "text",
    [
        "the hint's move before 2026-12-05",
        "16 playouts in 0.04 s, 2026-12-03)",
        "the results of 2026-12",
        "the default since 2026",
        "Before 2027 it played greedy's moves",
        "measured in December 2026",
        "on 5 December 2026",
        "on December 5, 2026",
        "in the fourth session",
        "in the 8th session",
    ],
)
def test_the_scan_names_the_file_and_line_of_a_dated_comment(tmp_path: Path, text: str) -> None:
    package = tmp_path / "paiute"
    (package / "players").mkdir(parents=True)
    (package / "players" / "bot.py").write_text(f'"""A bot."""\n\nX = 1  # {text}\n', encoding="utf-8")
    (package / "clean.js").write_text("// Nothing dated here.\n", encoding="utf-8")
    found = dated_lines(package)
    assert len(found) == 1
    assert found[0].startswith("paiute/players/bot.py:3: ")
    assert found[0].endswith(text)


@pytest.mark.parametrize(
    "text",
    [
        'make_player("ismcts:iterations=2000,seed=7")',
        "max_connections: int = 2000  # connections at once",
        "(Furtak & Buro, 2019, with greedy as the model of the opponents)",
        "cut before 20 turns have been played",
        'client_address({"client": ("2001:db8::1", 5000)})',
        '<svg xmlns="http://www.w3.org/2000/svg">',
        "a seat may call since 2 draws ago",
        "The language of a terminal session: --lang",
        "a range of 2000-3000 deals",
    ],
)
def test_the_scan_leaves_numbers_that_date_nothing(tmp_path: Path, text: str) -> None:
    package = tmp_path / "paiute"
    package.mkdir()
    (package / "module.py").write_text(f"# {text}\n", encoding="utf-8")
    assert dated_lines(package) == []


def test_only_alembics_revision_header_is_allowed_and_only_in_migrations(tmp_path: Path) -> None:
    package = tmp_path / "paiute"
    versions = package / "server" / "migrations" / "versions"
    versions.mkdir(parents=True)
    header = '"""A revision.\n\nRevision ID: 0003\nRevises: 0002\nCreate Date: 2026-12-07\n"""\n'
    (versions / "0003_more.py").write_text(header + "# added on 2026-12-07\n", encoding="utf-8")
    (package / "elsewhere.py").write_text(header, encoding="utf-8")
    assert dated_lines(package) == [
        "paiute/elsewhere.py:5: an ISO date: Create Date: 2026-12-07",
        "paiute/server/migrations/versions/0003_more.py:7: an ISO date: # added on 2026-12-07",
    ]
