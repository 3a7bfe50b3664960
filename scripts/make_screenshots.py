"""Take the web pages' screenshots for the docs: docs/img/web-lobby.png, web-table.png,
web-deal-summary.png and the table page in each language, web-table-{en,ro,so,bn}.png
(1280x800), from a real ``paiute serve`` driven by Debian's Chromium. The language shots switch
with the pages' own switcher (Bengali needs a font with its script: .ci/services.sh).

    .venv/bin/python scripts/make_screenshots.py              # the PNG files in the working directory
    .venv/bin/python scripts/make_screenshots.py --out shots  # ... or in another directory
    .venv/bin/python scripts/make_screenshots.py --write      # replace the docs' images in docs/img

Deals are shuffled securely (R10.1), so every run shows other cards: only ``--write`` replaces
the images the docs show.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from paiute.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "server"))
sys.path.insert(1, str(ROOT / "tests"))  # conftest_browser imports the tests' conftest

from conftest_browser import TablePage, launch_chromium, play_until, run_server  # noqa: E402

DOCS_IMAGES = ROOT / "docs" / "img"
VIEWPORT = {"width": 1280, "height": 800}
#: Turns Ana plays before the table is shot, unless a call is offered sooner.
TABLE_TURNS = 8


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--out", type=Path, default=Path(), help="where the PNG files go (default the working directory)"
    )
    where.add_argument(
        "--write", action="store_true", help=f"write them into {DOCS_IMAGES.relative_to(ROOT)}"
    )
    args = parser.parse_args()
    if args.write:
        args.out = DOCS_IMAGES
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, run_server(Path(tmp), deal_pause=2.0) as server:
        # Other tables, so the lobby has something to list.
        server.api(
            "POST",
            "/api/tables",
            json={
                "name": "Sunday family game",
                "player_name": "Grandma",
                "preset": "gamerules",
                "seats": 5,
                "bots": "random",
            },
        )
        busy = server.api(
            "POST",
            "/api/tables",
            json={"name": "Bots only", "player_name": "Dee", "seats": 2, "bots": "greedy"},
        )
        server.api("POST", f"/api/tables/{busy['table']['id']}/start", token=busy["token"])
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            ana = browser.new_context(viewport=VIEWPORT).new_page()  # type: ignore[arg-type]
            ana.goto(server.url + "/")
            ana.fill("#player-name", "Ana")
            ana.fill("#table-name", "Friday game")
            ana.select_option("#seats", "4")
            ana.wait_for_selector("#table-list li.table-item")
            ana.evaluate("document.activeElement.blur()")
            shoot(ana, args.out / "web-lobby.png")

            ana.click("#create-submit")
            ana.wait_for_url("**/t/*")
            table_id = ana.url.rsplit("/", 1)[1]
            bo = browser.new_context(viewport=VIEWPORT).new_page()  # type: ignore[arg-type]
            joined = server.api("POST", f"/api/tables/{table_id}/join", json={"name": "Bo"})
            bo.goto(f"{server.url}/t/{table_id}#seat={joined['token']}")
            players = [TablePage(ana), TablePage(bo)]
            for player in players:
                player.wait_ready()
            ana.click("#start-button")
            first = players[0]

            def ready_to_shoot() -> bool:
                mine = first.data("status") == "playing" and first.data("turn") == "0"
                if not (mine and first.data("phase") == "discard"):
                    return False
                return ana.locator("#call-best").count() > 0 or first.turns >= TABLE_TURNS

            play_until(players, ready_to_shoot, seconds=120)
            bo.fill("#chat-input", "nice upcard!")
            bo.press("#chat-input", "Enter")
            ana.wait_for_selector("#chat li")
            shoot(ana, args.out / "web-table.png")
            for lang in LANGUAGES:
                switch_language(ana, first, lang)
                shoot(ana, args.out / f"web-table-{lang}.png")
            switch_language(ana, first, "en")

            deal = first.data("deal")
            summary = f"Deal {deal}: summary"
            play_until(players, lambda: ana.locator("#open-summary").inner_text() == summary, seconds=120)
            if ana.locator("#summary").is_hidden():
                ana.click("#open-summary")
            ana.wait_for_selector("#proof-status[data-result=verified]")
            shoot(ana, args.out / "web-deal-summary.png")
            browser.close()
    return 0


def switch_language(page: Page, player: TablePage, lang: str) -> None:
    """Choose ``lang`` in the page's switcher (it reloads the page in that language)."""
    if page.get_attribute("html", "lang") != lang:
        page.select_option("#lang-switch", lang)
        page.wait_for_function(f"document.documentElement.lang === {lang!r}")
    player.wait_ready()
    page.wait_for_selector("#chat li")
    page.evaluate("document.fonts.ready")


def shoot(page: Page, path: Path) -> None:
    page.wait_for_timeout(300)  # let the last update paint
    page.screenshot(path=str(path))
    print(f"wrote {path}")


if __name__ == "__main__":
    sys.exit(main())
