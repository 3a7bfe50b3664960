"""Extract the messages of paiute, update the catalogues of every language, compile them.

Two gettext domains: ``paiute`` (the Python package: engine, CLI, terminal UI) and ``web`` (the
pages of ``paiute serve``: every string of ``server/static/js/strings.js``, its key as the
``msgctxt``, its English text as the ``msgid``, a plural entry's "one"/"other" forms as
``msgid``/``msgid_plural``).

    .venv/bin/python scripts/update_catalogues.py           # extract -> update .po -> compile .mo
    .venv/bin/python scripts/update_catalogues.py --compile # only compile the .po files
    .venv/bin/python scripts/update_catalogues.py --domain web  # only the web pages' catalogues

It writes into the package, as is its job: the templates, ``.po`` and ``.mo`` files under
``src/paiute/locale``. Needs Babel (the ``test`` extra); the package itself reads the compiled
``.mo`` files with the standard library. New messages arrive in each ``.po`` with an empty
translation: fill them in (docs/i18n.md) and run the script again; ``tests/test_i18n.py``
fails until every language is complete. Fuzzy matching is off: a changed English message is a
new message to translate.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "paiute"
LOCALE = PACKAGE / "locale"
TEMPLATE = LOCALE / "paiute.pot"
WEB_TEMPLATE = LOCALE / "web.pot"
WEB_STRINGS = PACKAGE / "server" / "static" / "js" / "strings.js"
DOMAINS = ("paiute", "web")
LANGUAGES = ("en", "ro", "so", "bn")
# N_ (paiute.errors) and NP_ (paiute.i18n, context first) besides gettext's own names.
KEYWORDS = ["-k", "N_", "-k", "NP_:1c,2"]


def pybabel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", *args])


def extract() -> None:
    pybabel(
        "extract",
        "-F",
        str(ROOT / "babel.cfg"),
        *KEYWORDS,
        "--no-location",
        "--sort-output",
        "--no-wrap",
        "--project=paiute",
        "--copyright-holder=The paiute developers",
        "-o",
        str(TEMPLATE),
        str(PACKAGE),
    )


_JS_STRING = r'"(?:[^"\\]|\\.)*"'
_JS_PLURAL = rf"\{{\s*(?:\w+\s*:\s*{_JS_STRING}\s*,?\s*)+\}}"
_JS_ENTRY = re.compile(rf"({_JS_STRING})\s*:\s*({_JS_STRING}|{_JS_PLURAL})", re.DOTALL)
_JS_FORM = re.compile(rf"(\w+)\s*:\s*({_JS_STRING})")


def web_strings(path: Path = WEB_STRINGS) -> dict[str, str | tuple[str, str]]:
    """The English dictionary ``EN`` of strings.js: key -> text, or key -> (one, other)."""
    source = path.read_text(encoding="utf-8")
    start = source.index("export const EN = {")
    body = source[start : source.index("\n};", start)]
    body = "\n".join(line for line in body.splitlines() if not line.strip().startswith("//"))
    entries: dict[str, str | tuple[str, str]] = {}
    for key, value in _JS_ENTRY.findall(body):
        if value.startswith("{"):
            forms = {name: json.loads(text) for name, text in _JS_FORM.findall(value)}
            entries[json.loads(key)] = (forms["one"], forms["other"])
        else:
            entries[json.loads(key)] = json.loads(value)
    return entries


def extract_web() -> None:
    """Write web.pot from strings.js (its keys become each message's context)."""
    catalog = Catalog(project="paiute", copyright_holder="The paiute developers", fuzzy=False)
    for key, text in sorted(web_strings().items()):
        catalog.add(text, context=key)
    with WEB_TEMPLATE.open("wb") as out:
        write_po(out, catalog, width=0, omit_header=False, sort_output=True)


def update(domains: tuple[str, ...] = DOMAINS) -> None:
    templates = {"paiute": TEMPLATE, "web": WEB_TEMPLATE}
    for domain in domains:
        template = templates[domain]
        for lang in LANGUAGES:
            po = LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"
            if po.exists():
                pybabel(
                    "update",
                    "-i",
                    str(template),
                    "-d",
                    str(LOCALE),
                    "-D",
                    domain,
                    "-l",
                    lang,
                    "--no-fuzzy-matching",
                    "--no-wrap",
                    "--ignore-obsolete",
                )
            else:
                pybabel("init", "-i", str(template), "-d", str(LOCALE), "-D", domain, "-l", lang, "--no-wrap")


def compile_all(domains: tuple[str, ...] = DOMAINS) -> None:
    for domain in domains:
        pybabel("compile", "-d", str(LOCALE), "-D", domain, "--statistics")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--compile", action="store_true", help="only compile the .po files into .mo")
    parser.add_argument(
        "--domain", choices=DOMAINS, action="append", help="only this domain (repeatable; default: both)"
    )
    args = parser.parse_args(argv)
    domains = tuple(args.domain or DOMAINS)
    if not args.compile:
        if "paiute" in domains:
            extract()
        if "web" in domains:
            extract_web()
        update(domains)
    compile_all(domains)
    return 0


if __name__ == "__main__":
    sys.exit(main())
