"""Extract the messages of paiute, update the catalogues of every language, compile them.

    .venv/bin/python scripts/update_catalogues.py           # extract -> update .po -> compile .mo
    .venv/bin/python scripts/update_catalogues.py --compile # only compile the .po files

Needs Babel (the ``test`` extra); the package itself reads the compiled ``.mo`` files with the
standard library. New messages arrive in each ``.po`` with an empty translation: fill them in
(docs/i18n.md) and run the script again; ``tests/test_i18n.py`` fails until every language is
complete. Fuzzy matching is off: a changed English message is a new message to translate.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from babel.messages.frontend import CommandLineInterface

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "paiute"
LOCALE = PACKAGE / "locale"
TEMPLATE = LOCALE / "paiute.pot"
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


def update() -> None:
    for lang in LANGUAGES:
        po = LOCALE / lang / "LC_MESSAGES" / "paiute.po"
        if po.exists():
            pybabel(
                "update",
                "-i",
                str(TEMPLATE),
                "-d",
                str(LOCALE),
                "-D",
                "paiute",
                "-l",
                lang,
                "--no-fuzzy-matching",
                "--no-wrap",
                "--ignore-obsolete",
            )
        else:
            pybabel("init", "-i", str(TEMPLATE), "-d", str(LOCALE), "-D", "paiute", "-l", lang, "--no-wrap")


def compile_all() -> None:
    pybabel("compile", "-d", str(LOCALE), "-D", "paiute", "--statistics")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--compile", action="store_true", help="only compile the .po files into .mo")
    args = parser.parse_args(argv)
    if not args.compile:
        extract()
        update()
    compile_all()
    return 0


if __name__ == "__main__":
    sys.exit(main())
