"""The rules pages in four languages (docs/rules*.md) stay in step with the English one.

docs/rules.md is the source; docs/rules.ro.md, docs/rules.so.md and docs/rules.bn.md translate it.
A translation may word things as its language needs, but it must keep every rule ID (R4.3 ...)
and every `code` span of the English page (option names, presets, modules, identifiers, commands)
exactly as the English page has them; only combination values in words (`Four/Two, aces over
kings`) are translated, and those must be the words the program itself prints in that language.
Every page links the other three.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from paiute.combos import Category, Value
from paiute.i18n import translator
from paiute.rules import OPTIONS, PRESETS

DOCS = Path(__file__).resolve().parent.parent / "docs"
ENGLISH = "rules.md"
TRANSLATIONS = ("rules.ro.md", "rules.so.md", "rules.bn.md")
LANGUAGE_OF = {"rules.md": "en", "rules.ro.md": "ro", "rules.so.md": "so", "rules.bn.md": "bn"}
PAGES = (ENGLISH, *TRANSLATIONS)

RULE_ID = re.compile(r"\bR\d+(?:\.\d+)?\b")
CODE_SPAN = re.compile(r"`([^`]+)`")
LINK_TARGET = re.compile(r"\]\(([^)\s]+)\)")
# A row of the "Combination values" table: | description | `text` | `{"name": ..., "ranks": [...]}` |
VALUE_ROW = re.compile(r"^\|[^|]*\| `([^`]+)` \| `(\{\"name\"[^`]*\})` \|$", re.MULTILINE)
OPTION_NAMES = frozenset(option.name for option in OPTIONS)
COMBINATION_TITLES = tuple(category.title for category in Category)


def read(page: str) -> str:
    """The text of one docs page."""
    return (DOCS / page).read_text(encoding="utf-8")


def rule_ids(text: str) -> set[str]:
    """Every rule ID a page mentions (R1, R4.3, ...)."""
    return set(RULE_ID.findall(text))


def code_spans(text: str) -> set[str]:
    """The text inside every `backtick` span of a page (a span may wrap: whitespace is folded)."""
    return {" ".join(span.split()) for span in CODE_SPAN.findall(text)}


def kept_spans(text: str) -> set[str]:
    """The backticked texts a translation keeps unchanged: all but combination values in words."""
    return {span for span in code_spans(text) if not span.startswith(COMBINATION_TITLES)}


def links(text: str) -> set[str]:
    """The targets of every Markdown link of a page."""
    return set(LINK_TARGET.findall(text))


def test_english_page_mentions_rule_ids_and_options() -> None:
    # Guards the test itself: if the English page lost its IDs or options the checks below
    # would pass on nothing.
    text = read(ENGLISH)
    assert {"R1", "R4.3", "R10.2"}.issubset(rule_ids(text))
    spans = kept_spans(text)
    assert OPTION_NAMES.issubset(spans)
    assert set(PRESETS).issubset(spans)
    assert {"paiute.deal", "paiute.rules", "RuleSet.wild_cards", "draw stock"}.issubset(spans)


@pytest.mark.parametrize("page", TRANSLATIONS)
def test_translation_keeps_every_rule_id(page: str) -> None:
    missing = rule_ids(read(ENGLISH)) - rule_ids(read(page))
    assert not missing, f"docs/{page} lacks rule IDs {sorted(missing)}"


@pytest.mark.parametrize("page", TRANSLATIONS)
def test_translation_keeps_every_code_span(page: str) -> None:
    missing = kept_spans(read(ENGLISH)) - code_spans(read(page))
    assert not missing, f"docs/{page} lacks `{'`, `'.join(sorted(missing))}` in backticks"


@pytest.mark.parametrize("page", TRANSLATIONS)
def test_translation_summarises_every_rule_of_rules_md(page: str) -> None:
    # The summary at the top of each translation covers R1-R10: every rule section is cited.
    ids = rule_ids(read(page))
    assert {f"R{n}" for n in range(1, 11)}.issubset(rule_id.split(".")[0] for rule_id in ids)
    assert {"R5.1", "R5.6", "R6.4", "R7.2", "R8.4"}.issubset(ids)


@pytest.mark.parametrize("page", PAGES)
def test_page_links_the_other_three_languages(page: str) -> None:
    others = set(PAGES) - {page}
    missing = others - links(read(page))
    assert not missing, f"docs/{page} does not link {sorted(missing)}"


@pytest.mark.parametrize("page", PAGES)
def test_combination_values_are_printed_as_the_program_prints_them(page: str) -> None:
    # The table must agree with `paiute ... --lang xx`: the catalogue is the source of the words.
    rows = VALUE_ROW.findall(read(page))
    assert len(rows) == len(Category)
    tr = translator(LANGUAGE_OF[page])
    for text, data in rows:
        value = Value.from_json(json.loads(data))
        assert text == tr.value(value), f"docs/{page}: {text!r} is printed {tr.value(value)!r}"
