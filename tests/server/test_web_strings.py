"""Every message key the pages name is in strings.js (a missing one shows as the bare key,
as "proof.check.rebuild.seen" once did in the deal summary)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "src" / "paiute" / "server"
ENTRY = re.compile(r'^\s*"([a-z0-9_.]+)":', re.MULTILINE)
QUOTED = re.compile(r'"([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)"')
ATTRIBUTE = re.compile(r'data-i18n(?:-placeholder|-aria)?="([^"]+)"')


def english() -> set[str]:
    source = (STATIC / "static" / "js" / "strings.js").read_text(encoding="utf-8")
    body = source[source.index("export const EN = {") : source.index("\n};")]
    return set(ENTRY.findall(body))


def named_keys() -> set[tuple[str, str]]:
    """(file, key) for every quoted string shaped like a key of a known family."""
    keys = english()
    families = {key.split(".")[0] for key in keys}
    found: set[tuple[str, str]] = set()
    for path in sorted((STATIC / "static" / "js").glob("*.js")):
        if path.name == "strings.js":
            continue
        for key in QUOTED.findall(path.read_text(encoding="utf-8")):
            if key.split(".")[0] in families:
                found.add((path.name, key))
    for path in sorted((STATIC / "templates").glob("*.html")):
        found.update((path.name, key) for key in ATTRIBUTE.findall(path.read_text(encoding="utf-8")))
    return found


@pytest.mark.parametrize(("where", "key"), sorted(named_keys()))
def test_every_key_the_pages_name_has_an_english_text(where: str, key: str) -> None:
    assert key in english(), f"{where} names {key!r}, which strings.js does not have"


def test_the_scan_finds_the_keys() -> None:
    found = {key for _, key in named_keys()}
    assert {"proof.check.rebuild.seen", "table.rematch.join", "table.join.heading"} <= found
