"""The translation layer (paiute.i18n) and its catalogues: complete, consistent, compiled."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from paiute.actions import Action
from paiute.cards import Card
from paiute.chance import SeededChance
from paiute.cli.main import main
from paiute.combos import Category, Value
from paiute.deal import Deal
from paiute.evaluator import Evaluator
from paiute.i18n import LANGUAGES, LOCALE_DIR, choose_language, translator
from paiute.rules import RuleSet

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?:![rsa])?(?::[^{}]*)?\}|%\(\w+\)[sdr]|%[sdr]")
RULE_ID = re.compile(r"\bR\d+(?:\.\d+)?\b")


def _catalogue(lang: str):  # type: ignore[no-untyped-def]
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "paiute.po").open("rb") as file:
        return read_po(file, locale=lang)


def _messages(lang: str) -> list:  # type: ignore[type-arg]
    return [message for message in _catalogue(lang) if message.id]


def _template_ids() -> set[object]:
    with (LOCALE_DIR / "paiute.pot").open("rb") as file:
        return {(m.context, m.id) for m in read_po(file) if m.id}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated_in_every_language(lang: str) -> None:
    catalogue = _catalogue(lang)
    messages = _messages(lang)
    assert {(m.context, m.id) for m in messages} == _template_ids()
    for message in messages:
        assert not message.fuzzy, message.id
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings), f"{lang}: no translation for {message.id!r}"
        if isinstance(message.id, tuple):
            assert len(strings) == catalogue.num_plurals, f"{lang}: plural forms of {message.id!r}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_translations_keep_the_placeholders_and_rule_ids_of_the_message(lang: str) -> None:
    for message in _messages(lang):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = sorted(set(PLACEHOLDER.findall(ids[-1])))
        rules = sorted(RULE_ID.findall(ids[0]))
        for string in strings:
            assert sorted(set(PLACEHOLDER.findall(string))) == wanted, f"{lang}: {message.id!r} -> {string!r}"
            assert sorted(RULE_ID.findall(string)) == rules, f"{lang}: {message.id!r} -> {string!r}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_committed_mo_is_the_compiled_po(lang: str) -> None:
    buffer = io.BytesIO()
    write_mo(buffer, _catalogue(lang))
    assert (LOCALE_DIR / lang / "LC_MESSAGES" / "paiute.mo").read_bytes() == buffer.getvalue(), (
        "run scripts/update_catalogues.py --compile"
    )


def test_choose_language_precedence() -> None:
    env = {"PAIUTE_LANG": "so", "LC_ALL": "bn_BD.UTF-8", "LANG": "ro_RO.UTF-8"}
    assert choose_language("ro", env) == "ro"
    assert choose_language(None, env) == "so"
    assert choose_language(None, {"PAIUTE_LANG": "xx", "LC_ALL": "bn_BD.UTF-8", "LANG": "ro_RO"}) == "bn"
    assert choose_language(None, {"LC_MESSAGES": "ro_RO.UTF-8", "LANG": "bn_BD"}) == "ro"
    assert choose_language(None, {"LANG": "de_DE.UTF-8"}) == "en"
    assert choose_language(None, {}) == "en"


@pytest.mark.parametrize(
    ("n", "expected"), [(1, "1 jucător"), (2, "2 jucători"), (20, "20 de jucători"), (101, "101 jucători")]
)
def test_romanian_has_three_plural_forms(n: int, expected: str) -> None:
    text = translator("ro").ngettext(
        "{n} player ({names}), rules {rules}",
        "{n} players ({names}), rules {rules}",
        n,
        names="a",
        rules="{}",
    )
    assert text.startswith(expected + " (")


def test_english_value_and_card_texts_are_the_existing_ones() -> None:
    en = translator("en")
    for code in range(1 << 12, 8 << 12):
        try:
            value = Value.from_code(code)
        except Exception:  # codes that are not values
            continue
        if value is not None:
            assert en.value(value) == str(value)
    assert en.cards([Card.parse("Th"), Card.parse("Jk2")]) == "T♥ Jk2"


def test_card_letters_and_names_per_language() -> None:
    king = Card.parse("Kh")
    assert translator("ro").card(king) == "R♥"
    assert translator("ro").card_name(king) == "popă de cupă"
    assert translator("bn").card_name(king) == "হরতনের সাহেব"
    assert translator("bn").number(105) == "১০৫"
    assert translator("ro").category(Category.FOUR_TWO) == "Careu/Pereche"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_illegal_action_is_explained_in_each_language_with_its_rule_id(lang: str) -> None:
    deal = Deal.new(RuleSet(), 3, 0, SeededChance(7))
    deal.apply(Action.parse("draw discard") if deal.discard_pile else Action.parse("draw stock"))
    error = deal.why_illegal(Action.parse("draw stock"))
    assert error is not None
    explained = translator(lang).explain(error)
    assert explained.startswith("R4.2 ")
    if lang != "en":
        assert explained != str(error)
    else:
        assert explained == str(error)


def _run(argv: list[str]) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        main(argv)
    return out.getvalue()


def test_cli_speaks_romanian_and_bengali_and_json_is_never_translated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cards = ["3h 3s Ad Ac Ks Kh", "--wild", "3"]
    assert "Careu/Pereche, ași peste popi" in _run(["--lang", "ro", "eval", *cards])
    monkeypatch.setenv("PAIUTE_LANG", "bn")
    assert "সেরা" in _run(["eval", *cards])
    outputs = {lang: _run(["--lang", lang, "eval", *cards, "--json"]) for lang in LANGUAGES}
    assert len(set(outputs.values())) == 1
    json.loads(outputs["en"])
    rules = {lang: _run(["rules", "--lang", lang, "--json"]) for lang in LANGUAGES}
    assert len(set(rules.values())) == 1


def test_cli_help_in_romanian_in_a_fresh_process() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "paiute", "--lang", "ro", "eval", "--help"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert result.stdout.startswith("utilizare: paiute eval")


def test_evaluator_used_in_explanations_is_localised() -> None:
    value = Evaluator().value([Card.parse(t) for t in ["As", "Ks", "Qs", "Js", "Ts"]])
    assert value is not None
    assert translator("ro").value(value) == "Chintă roială"
