"""The web pages' catalogues (gettext domain ``web``) and the server's choice of language.

Every string of ``server/static/js/strings.js`` is a message of ``web.pot`` (its key the
context); every language translates all of them with all plural forms and the same
placeholders and rule IDs; the committed ``.mo`` is the compiled ``.po``. The server picks the
language from ``?lang=``, the ``paiute_lang`` cookie or Accept-Language (and the WebSocket
``hello``); only human texts change, never codes, rule IDs or other machine fields.
"""

from __future__ import annotations

import importlib.util
import io
import json
import re
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from server_helpers import receive

from paiute.actions import Action
from paiute.errors import PaiuteError
from paiute.i18n import LANGUAGES, LOCALE_DIR, catalogue_json, translator
from paiute.rules import RuleSet
from paiute.server import Settings, create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
RULE_ID = re.compile(r"\bR\d+(?:\.\d+)?\b")


def _script() -> Any:
    spec = importlib.util.spec_from_file_location(
        "update_catalogues", ROOT / "scripts" / "update_catalogues.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("update_catalogues", module)
    spec.loader.exec_module(module)
    return module


def _catalogue(lang: str):  # type: ignore[no-untyped-def]
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "web.po").open("rb") as file:
        return read_po(file, locale=lang)


def _template() -> dict[str, object]:
    with (LOCALE_DIR / "web.pot").open("rb") as file:
        return {str(m.context): m.id for m in read_po(file) if m.id}


def test_the_template_holds_exactly_the_strings_of_strings_js() -> None:
    strings = _script().web_strings()
    assert len(strings) > 250
    assert _template() == strings, "run scripts/update_catalogues.py --domain web"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_web_message_is_translated_with_all_plural_forms(lang: str) -> None:
    catalogue = _catalogue(lang)
    messages = [m for m in catalogue if m.id]
    assert {m.context: m.id for m in messages} == _template()
    for message in messages:
        assert not message.fuzzy, message.context
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings), f"{lang}: no translation for {message.context}"
        if isinstance(message.id, tuple):
            assert len(strings) == catalogue.num_plurals, f"{lang}: plural forms of {message.context}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_web_translations_keep_placeholders_and_rule_ids(lang: str) -> None:
    for message in _catalogue(lang):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = sorted(set(PLACEHOLDER.findall(ids[-1])))
        rules = sorted(RULE_ID.findall(ids[0]))
        for string in strings:
            found = set(PLACEHOLDER.findall(string))
            if isinstance(message.id, tuple):
                # A plural form may leave the count out ("rebuilt once"), nothing else.
                found |= {"count"} & set(wanted)
            assert sorted(found) == wanted, f"{lang}: {message.context} -> {string!r}"
            assert sorted(RULE_ID.findall(string)) == rules, f"{lang}: {message.context} -> {string!r}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_committed_web_mo_is_the_compiled_po(lang: str) -> None:
    buffer = io.BytesIO()
    write_mo(buffer, _catalogue(lang))
    assert (LOCALE_DIR / lang / "LC_MESSAGES" / "web.mo").read_bytes() == buffer.getvalue(), (
        "run scripts/update_catalogues.py --compile"
    )


def test_catalogue_json_gives_keys_plural_rule_and_forms() -> None:
    ro = catalogue_json("ro")
    assert ro["lang"] == "ro"
    assert ro["nplurals"] == 3
    messages = ro["messages"]
    assert isinstance(messages, dict)
    assert messages["table.hand"] == "Mâna ta"
    assert messages["table.seat.cards"] == ["{count} carte", "{count} cărți", "{count} de cărți"]
    english = catalogue_json("en")["messages"]
    assert isinstance(english, dict)
    assert english["table.hand"] == "Your hand"
    assert english["table.seat.cards"] == ["{count} card", "{count} cards"]
    # The same messages through gettext itself (the web domain of translator()).
    assert translator("bn", "web").pgettext("table.hand", "Your hand") == "আপনার হাত"
    with pytest.raises(PaiuteError):
        catalogue_json("de")


# -- the server --------------------------------------------------------------------------------


def _settings() -> Settings:
    return Settings(bot_delay=0.0, deal_pause=0.0, http_rate=1e9, http_burst=1e9, ws_rate=1e9, ws_burst=1e9)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("i18n") / "db.sqlite"
    with TestClient(create_app(f"sqlite:///{db}", settings=_settings())) as test_client:
        yield test_client


def _table(client: TestClient) -> tuple[str, str]:
    response = client.post("/api/tables", json={"player_name": "Ana", "seats": 2, "bots": "greedy"})
    assert response.status_code == 201, response.text
    client.cookies.clear()
    return response.json()["table"]["id"], response.json()["token"]


def _parse_error(text: str) -> PaiuteError:
    try:
        Action.parse(text)
    except PaiuteError as error:
        return error
    raise AssertionError(f"{text!r} parsed")


def test_api_i18n_serves_each_language_and_refuses_others(client: TestClient) -> None:
    for lang in LANGUAGES:
        response = client.get(f"/api/i18n/{lang}")
        assert response.status_code == 200
        assert response.json() == catalogue_json(lang)
    response = client.get("/api/i18n/de")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_pages_follow_query_then_cookie_then_accept_language(client: TestClient) -> None:
    def page_lang(**kwargs: Any) -> str:
        response = client.get("/", **kwargs)
        assert response.status_code == 200
        match = re.search(r'<html lang="(\w+)">', response.text)
        assert match is not None
        assert response.headers["content-language"] == match.group(1)
        return match.group(1)

    assert page_lang() == "en"
    assert page_lang(headers={"Accept-Language": "fr, bn-BD;q=0.9, ro;q=0.5"}) == "bn"
    client.cookies.set("paiute_lang", "so")
    assert page_lang(headers={"Accept-Language": "bn"}) == "so"
    assert page_lang(params={"lang": "ro"}, headers={"Accept-Language": "bn"}) == "ro"
    client.cookies.set("paiute_lang", "xx")
    assert page_lang(headers={"Accept-Language": "ro"}) == "ro"
    client.cookies.clear()
    page = client.get("/t/anything", headers={"Accept-Language": "bn"}).text
    inline = re.search(r'<script type="application/json" id="paiute-i18n">(.*?)</script>', page, re.DOTALL)
    assert inline is not None
    assert json.loads(inline.group(1)) == catalogue_json("bn")


def test_engine_errors_are_explained_in_the_readers_language_with_machine_fields_unchanged(
    client: TestClient,
) -> None:
    table_id, token = _table(client)
    body = {"id": "m1", "action": "fly away"}
    headers = {"Authorization": f"Bearer {token}"}
    english = client.post(f"/api/tables/{table_id}/actions", json=body, headers=headers).json()["error"]
    assert english["message"] == str(_parse_error("fly away"))
    for lang in ("ro", "so", "bn"):
        response = client.post(
            f"/api/tables/{table_id}/actions", json=body, headers={**headers, "Accept-Language": lang}
        )
        error = response.json()["error"]
        assert response.status_code == 400
        assert error["code"] == english["code"]
        assert error["rule"] == english["rule"]
        assert error["message"] == translator(lang).explain(_parse_error("fly away"))
        assert error["message"] != english["message"]
    # A bad rule option when creating a table: the rule ID stays, the words change.
    bad = {"player_name": "Ana", "seats": 2, "options": {"max_players": 1}}
    refused = client.post("/api/tables", json=bad, params={"lang": "ro"}).json()["error"]
    plain = client.post("/api/tables", json=bad).json()["error"]
    assert refused["code"] == plain["code"] == "bad_request"
    assert refused["rule"] == plain["rule"]
    with pytest.raises(PaiuteError) as raised:
        RuleSet.from_preset("pagat", max_players=1)
    assert refused["message"] == translator("ro").explain(raised.value)
    assert plain["message"] == str(raised.value)


def test_websocket_hello_lang_chooses_the_language_of_errors(client: TestClient) -> None:
    table_id, token = _table(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
        socket.send_json({"type": "hello", "token": token, "since": None, "lang": "bn"})
        assert receive(socket)["type"] == "welcome"
        socket.send_json({"type": "action", "id": "a1", "action": "fly away"})
        answer = receive(socket)  # presence frames (who is connected) are passed over
        assert answer["type"] == "error"
        assert answer["id"] == "a1"
        assert answer["error"]["code"] == "bad_request"
        assert answer["error"]["message"] == translator("bn").explain(_parse_error("fly away"))


def test_presets_help_is_translated_but_machine_fields_are_not(client: TestClient) -> None:
    english = client.get("/api/presets").json()
    romanian = client.get("/api/presets", headers={"Accept-Language": "ro"}).json()
    assert english["presets"] == romanian["presets"]
    assert english["bots"] == romanian["bots"]
    for en_option, ro_option in zip(english["options"], romanian["options"], strict=True):
        assert {k: v for k, v in en_option.items() if k != "help"} == {
            k: v for k, v in ro_option.items() if k != "help"
        }
        assert ro_option["help"] == translator("ro").gettext(en_option["help"])
    assert any(e["help"] != r["help"] for e, r in zip(english["options"], romanian["options"], strict=True))
