"""The players' rules page, /rules: it answers in every language, every sentence it shows is a
web string of strings.js translated in each catalogue, its combinations are the engine's in
R5's order with examples the evaluator values as said, its rule sets are the server's presets,
and the lobby and the table page link to it."""

from __future__ import annotations

import html
import importlib.util
import json
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import fast_limits, fast_settings

from paiute.cards import parse_cards
from paiute.combos import Category, Value
from paiute.evaluator import Evaluator
from paiute.i18n import LANGUAGES, catalogue_json
from paiute.rules import OPTIONS, PRESETS, RuleSet
from paiute.server import create_app
from paiute.server.guide import EXAMPLE_UPCARD, how_to_play

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "src" / "paiute" / "server"
ATTRIBUTE = re.compile(r'data-i18n(?:-placeholder|-aria)?="([^"]+)"')
LITERAL = re.compile(r'\bt\("([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)"')
DATA = re.compile(r'<script type="application/json" id="rules-data">(.*?)</script>', re.DOTALL)


def english() -> dict[str, object]:
    """strings.js's English dictionary, read as the catalogue script reads it."""
    spec = importlib.util.spec_from_file_location(
        "update_catalogues", ROOT / "scripts" / "update_catalogues.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    strings: dict[str, object] = module.web_strings()
    return strings


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("rules") / "db.sqlite"
    with TestClient(
        create_app(f"sqlite:///{db}", limits=fast_limits(), settings=fast_settings())
    ) as test_client:
        yield test_client


def page_data(text: str) -> dict[str, Any]:
    match = DATA.search(text)
    assert match is not None, "the rules page carries no data"
    data: dict[str, Any] = json.loads(html.unescape(match.group(1)))
    return data


def js_text(value: object) -> str:
    """A JSON value as JavaScript's String() writes it (rules.js builds option keys with it)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def page_keys(text: str) -> set[str]:
    """Every strings.js key the rules page shows: its template's, rules.js's own, and those
    rules.js builds from the page's data (each combination, preset and preset option)."""
    keys = set(ATTRIBUTE.findall(text))
    keys |= set(LITERAL.findall((SERVER / "static" / "js" / "rules.js").read_text(encoding="utf-8")))
    data = page_data(text)
    for combination in data["combinations"]:
        name = combination["name"]
        keys |= {f"rules.combo.{name}", f"rules.combo.{name}.what", f"rules.combo.{name}.ties"}
    for preset in data["presets"]:
        keys |= {f"rules.preset.{preset['name']}", f"lobby.create.preset.{preset['name']}"}
        for option in preset["options"]:
            keys.add(f"rules.option.{option['name']}.{js_text(option['value'])}")
    return keys


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_page_answers_in_each_language(client: TestClient, lang: str) -> None:
    response = client.get("/rules", params={"lang": lang})
    assert response.status_code == 200
    assert f'<html lang="{lang}">' in response.text
    assert response.headers["content-language"] == lang
    assert client.head("/rules", params={"lang": lang}).status_code == 200
    # The same language choice as the other pages: the cookie, then Accept-Language.
    client.cookies.set("paiute_lang", lang)
    assert f'<html lang="{lang}">' in client.get("/rules").text
    client.cookies.clear()
    assert f'<html lang="{lang}">' in client.get("/rules", headers={"Accept-Language": lang}).text


def test_every_string_of_the_rules_page_is_in_strings_js(client: TestClient) -> None:
    keys = page_keys(client.get("/rules").text)
    assert {"rules.goal", "rules.pile.text", "rules.last.text", "rules.combo.four_two.ties"} <= keys
    assert "rules.option.open_discard.true" in keys  # a key built from a preset's option
    missing = sorted(keys - english().keys())
    assert missing == [], f"the rules page shows keys strings.js does not have: {missing}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_string_of_the_rules_page_is_translated_in_each_language(client: TestClient, lang: str) -> None:
    served = client.get("/rules", params={"lang": lang}).text
    messages = catalogue_json(lang)["messages"]
    assert isinstance(messages, dict)
    missing = sorted(page_keys(served) - messages.keys())
    assert missing == [], f"{lang}: no translation for {missing}"


def test_the_combinations_listed_are_the_engines_in_order_with_true_examples(client: TestClient) -> None:
    data = page_data(client.get("/rules").text)
    best_first = sorted(Category, key=Category.order, reverse=True)
    assert [item["name"] for item in data["combinations"]] == [category.value for category in best_first]
    assert [item["rule"] for item in data["combinations"]] == [f"R5.{n}" for n in range(1, 7)]
    evaluator = Evaluator(RuleSet().wild_cards(parse_cards(EXAMPLE_UPCARD)[0]))
    for item, category in zip(data["combinations"], best_first, strict=True):
        shown = parse_cards(item["shown"])
        assert len(shown) == item["cards"] == category.cards
        assert evaluator.value(shown) == Value.from_json(item["value"]), item["name"]
        assert item["units"] == category.units
        assert set(item["wild"]) == {str(card) for card in shown if evaluator.is_wild(card)}
    four_two = Value.from_json(data["combinations"][3]["value"])
    assert str(four_two) == "Four/Two, fives over twos"  # how the table names it (strings.js: "Four / Two")
    assert data["wild_cards"] == ["3c", "3d", "3h", "3s"]


def test_a_royal_high_rule_set_lists_the_royal_flush_first() -> None:
    names = [item["name"] for item in how_to_play(RuleSet(royal_high=True))["combinations"]]
    assert names[:2] == ["royal_flush", "five_of_a_kind"]
    assert how_to_play(RuleSet(royal_high=True))["combinations"][0]["rule"] == "R5.2"


def test_the_rule_sets_are_the_servers_presets_with_their_differences(client: TestClient) -> None:
    data = page_data(client.get("/rules").text)
    offered = client.get("/api/presets").json()["presets"]
    assert [preset["name"] for preset in data["presets"]] == list(offered) == list(PRESETS)
    defaults = RuleSet().options()
    rule_of = {option.name: option.rule for option in OPTIONS}
    for preset in data["presets"]:
        differences = {
            name: value for name, value in offered[preset["name"]].items() if defaults[name] != value
        }
        assert {option["name"]: option["value"] for option in preset["options"]} == differences
        assert all(option["rule"] == rule_of[option["name"]] for option in preset["options"])
    assert [preset["default"] for preset in data["presets"]] == [name == "pagat" for name in PRESETS]
    assert data["stake"] == defaults["stake"]
    assert data["max_rebuilds"] == defaults["max_rebuilds"]
    assert data["unit"] == defaults["unit"]


@pytest.mark.parametrize("lang", ["en", "bn"])
def test_the_lobby_links_to_the_rules_page_in_its_language(client: TestClient, lang: str) -> None:
    lobby = client.get("/", params={"lang": lang}).text
    assert re.search(rf'<nav class="topnav"[^>]*>\s*<a id="rules-link"[^>]*href="/rules\?lang={lang}"', lobby)
    assert f'href="/rules?lang={lang}#presets"' in lobby  # beside the rule-set choice
    assert 'id="presets"' in client.get("/rules").text


def test_the_table_page_opens_the_rules_page_in_a_new_tab(client: TestClient) -> None:
    made = client.post("/api/tables", json={"player_name": "Ana", "seats": 2})
    assert made.status_code == 201, made.text
    client.cookies.clear()
    page = client.get(f"/t/{made.json()['table']['id']}", params={"lang": "ro"}).text
    link = re.search(r'<a id="rules-link"[^>]*>', page)
    assert link is not None
    assert 'href="/rules?lang=ro"' in link.group(0)
    assert 'target="_blank"' in link.group(0)
    assert 'rel="noopener"' in link.group(0)
    assert 'data-i18n-aria="rules.link.new_tab"' in link.group(0)
