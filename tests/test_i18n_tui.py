"""The terminal UI in every language (paiute.i18n): the full-screen game (headless Textual
pilot) in Romanian and Bengali, switching language in the app, Bengali text intact on the
rendered screen, ``paiute play --plain --lang so`` end to end, ``PAIUTE_LANG``, and refusals
that keep their rule ID (R4.2, R4.3) in every language."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.widgets import Static

from helpers import make_deck
from paiute import Match, RuleSet
from paiute.i18n import LANGUAGES, translator
from paiute.tui import describe
from paiute.tui.app import PlayApp
from paiute.tui.help import rules_text, tui_keys
from paiute.tui.session import PlayConfig, SeatSpec, Session
from paiute.tui.widgets import TextScreen

ROOT = Path(__file__).resolve().parents[1]
SIZE = (100, 30)
BOTS = (SeatSpec("You"), SeatSpec("Greedy", "greedy"), SeatSpec("Random", "random"))


def stacked() -> Session:
    """Dealer Random (seat 2): the person at seat 0 plays first, the discard pile empty."""
    rules = RuleSet()
    config = PlayConfig(rules, BOTS, seed=3, hint=2)
    match = Match(rules, config.names, dealer=2)
    session = Session(config, match=match)
    match.start_deal(make_deck(3, 2, {0: "4c 8d Th Qs 2h"}, upcard="5c", stock="Kd 9s"))
    return session


def screen_text(app: App[int]) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def message(app: PlayApp) -> str:
    return str(app.query_one("#message", Static).render())


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(scenario())


# -- the full-screen game ----------------------------------------------------------------------


def test_app_in_romanian_then_switched_to_somali_by_the_l_key() -> None:
    app = PlayApp(stacked(), delay=0, tr=translator("ro"))

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            text = screen_text(app)
            assert "Jucătorul, e rândul tău" in text  # the default name in Romanian
            # Romanian card faces (10, V D R A) and words; the pot and chips in numbers.
            assert "Cartea întoarsă 5♣*, atu cinciari: 5♣ 5♦ 5♥ 5♠. Împarte Random." in text
            assert "Talon 37 (cartea întoarsă dedesubt), teancul de aruncate e gol, pot 3." in text
            assert "10♥" in text
            assert "D♠" in text
            assert "T♥" not in text
            assert "Mâna ta" in text
            assert "s Talon" in text
            assert "x Aruncă" in text
            await pilot.press("d")  # R4.2: the rule ID stays, the reason is Romanian
            assert "Nu este permis: R4.2 teancul de aruncate este gol: trageți din talon." in message(app)
            await pilot.press("s")
            await pilot.pause()
            assert "Jucătorul a tras din talon: R♦" in screen_text(app)

            await pilot.press("l")  # the next language: Somali, the log rewritten too
            await pilot.pause()
            await pilot.pause()
            text = screen_text(app)
            assert app.tr.lang == "so"
            assert "Gacantaada" in text
            assert "s Kaydka" in text
            assert "x Tuur" in text
            assert "Ciyaartoyga wuxuu ka soo qaatay kaydka: K♦" in text
            assert "Mâna ta" not in text
            assert "Talon 37" not in text

    run(scenario)


def test_app_in_bengali_renders_conjuncts_intact_and_help_is_translated() -> None:
    app = PlayApp(stacked(), delay=0, tr=translator("bn"))

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            text = screen_text(app)
            # Words with conjuncts and vowel signs, whole on the rendered screen.
            assert "স্টক ৩৭ (খোলা তাস নিচে), ফেলা গাদা খালি, পট ৩।" in text
            assert "আপনার হাত" in text
            assert "s স্টক" in text
            assert "পাইউট  দান ১  পট ৩  খেলোয়াড়, আপনার পালা" in text
            svg = app.export_screenshot()
            assert "স্টক" in _svg_text(svg)
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, TextScreen)
            help_text = str(app.screen.query_one("#text", Static).render())
            assert "কম্বিনেশন (R5)" in help_text
            assert "এক রকমের পাঁচ" in help_text
            assert "R4.3" in help_text
            assert "ফেলা গাদা থেকে তোলা তাস" in help_text

    run(scenario)


def _svg_text(svg: str) -> str:
    """The characters of an SVG screenshot (entities decoded, tags gone)."""
    import html

    return html.unescape(re.sub(r"<[^>]+>", "", svg)).replace("\xa0", " ")


def test_app_restarted_in_another_language_shows_it() -> None:
    texts = {}
    for lang in ("en", "ro", "bn"):
        app = PlayApp(stacked(), delay=0, tr=translator(lang))

        async def scenario(app: PlayApp = app, lang: str = lang) -> None:
            async with app.run_test(size=SIZE) as pilot:
                await pilot.pause()
                texts[lang] = screen_text(app)

        run(scenario)
    assert "Your hand" in texts["en"]
    assert "Mâna ta" in texts["ro"]
    assert "আপনার হাত" in texts["bn"]
    assert "Your hand" not in texts["ro"] + texts["bn"]


# -- texts of describe and help in every language ----------------------------------------------


def test_describe_and_help_in_every_language_keep_rule_ids() -> None:
    session = stacked()
    obs = session.observation(0)
    for lang in LANGUAGES:
        tr = translator(lang)
        help_text = tui_keys(tr) + rules_text(RuleSet(), tr)
        for rule in ("R1.2", "R4.3", "R5.7", "R6.4", "R7.2", "R8.5", "R9.3"):
            assert rule in help_text, (lang, rule)
        lines = describe.table_lines(obs, session.names, pretty=True, tr=tr)
        assert len(lines) == 2
    english = describe.table_lines(obs, session.names, pretty=True)
    assert english == describe.table_lines(obs, session.names, pretty=True, tr=translator("en"))
    assert describe.signed(-105, translator("bn")) == "-১০৫"


# -- paiute play --plain over pipes -----------------------------------------------------------


def _play(
    args: list[str], commands: list[str], tmp_path: Path, **env: str
) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PAIUTE_DATA_DIR": str(tmp_path), **env}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "paiute",
            "play",
            "--plain",
            "--seed",
            "1",
            "--players",
            "2",
            "--bots",
            "greedy",
            *args,
        ],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("where", ["option", "environment"])
def test_plain_play_in_somali_end_to_end(tmp_path: Path, where: str) -> None:
    args, env = (["--lang", "so"], {}) if where == "option" else ([], {"PAIUTE_LANG": "so"})
    result = _play([*args, "--name", "Ana"], ["d", "x 7h", "?", "q"], tmp_path, **env)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "=== Qaybta 1 ===" in out
    assert "Greedy wuu tuuray 7h" in out  # canonical card text in --plain, in every language
    assert "Ana wuxuu 7h ka qaatay tuurista" in out
    # R4.3 refused with its rule ID, the reason in Somali.
    assert "Lama oggola: R4.3 " in out
    assert "AMARRADA" in out  # the commands help
    assert "Waxaad ka baxday ciyaarta intii qaybta 1 socotay." in out  # left during deal 1
    assert "Greedy discarded" not in out
    assert "Not allowed" not in out


def test_plain_play_saves_the_same_record_in_every_language(tmp_path: Path) -> None:
    records = {}
    for lang in ("en", "bn"):
        directory = tmp_path / lang
        result = _play(["--lang", lang, "--name", "Ana"], ["s", "1", "s", "1", "q"], directory)
        assert result.returncode == 0, result.stderr
        (saved,) = (directory / "matches").glob("*[0-9a-f].json")
        records[lang] = saved.read_text(encoding="utf-8")
    assert records["en"] == records["bn"]  # records are never translated


def test_play_help_in_romanian() -> None:
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    result = subprocess.run(
        [sys.executable, "-m", "paiute", "play", "--help", "--lang", "ro"],
        capture_output=True,
        text=True,
        env=environment,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0
    assert "Joacă un meci de Paiute în terminal" in result.stdout
    assert "nu salva meciul" in result.stdout


# -- the other commands: human output translated, --json identical ------------------------------


def _main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from paiute.cli.main import main

    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize(
    "command",
    [
        ("odds", "--wild", "jokers", "--turns", "2", "--samples", "50", "--quiet"),
        ("tournament", "greedy", "random", "--deals", "2", "--seed", "3", "--workers", "1", "--no-records"),
        ("simulate", "--deals", "6", "--players", "3", "--workers", "1", "--quiet"),
    ],
    ids=["odds", "tournament", "simulate"],
)
def test_json_output_is_identical_in_every_language(
    capsys: pytest.CaptureFixture[str], command: tuple[str, ...]
) -> None:
    outputs = set()
    for lang in LANGUAGES:
        status, out, _err = _main(capsys, "--lang", lang, *command, "--json")
        assert status == 0
        outputs.add(re.sub(r'"elapsed": [0-9.e-]+', "", out))  # the run's own time varies
    assert len(outputs) == 1


def test_odds_tournament_and_simulate_speak_bengali_and_romanian(capsys: pytest.CaptureFixture[str]) -> None:
    _status, out, _err = _main(capsys, "--lang", "bn", "odds", "--wild", "jokers", "--turns", "0", "--quiet")
    assert "ওয়াইল্ড jokers: প্রথম তোলার পর হাতের ছয় তাস (৫৪টি না-দেখা তাসের মধ্যে ২টি ওয়াইল্ড)" in out
    assert "এক রকমের পাঁচ" in out
    assert "০.০১৪৫%" in out  # Bengali digits in the figures
    _status, out, _err = _main(
        capsys,
        "--lang",
        "ro",
        "tournament",
        "greedy",
        "random",
        "--deals",
        "2",
        "--seed",
        "3",
        "--workers",
        "1",
        "--no-records",
    )
    assert "Turneu duplicat, 2 locuri" in out
    assert "Robot" in out
    assert "Jetoane/loc ± IÎ 95%" in out
    _status, out, _err = _main(
        capsys, "--lang", "ro", "simulate", "--deals", "6", "--players", "3", "--workers", "1"
    )
    assert "paiute simulate: 6 din 6 mâini, 3 jucători" in out
    assert "Combinații (R5): proporția mâinilor" in out


def test_help_of_every_command_in_somali(capsys: pytest.CaptureFixture[str]) -> None:
    expected = {
        "tournament": "Ciyaar tartan duplicate ah",
        "simulate": "Ciyaar qaybo badan oo bot-yo ah",
        "odds": "Fursadaha in la hayo isku-dar kasta",
        "serve": "Bilow server-ka webka ee Paiute",
        "play": "Ku ciyaar Paiute terminalka",
    }
    for command, text in expected.items():
        with pytest.raises(SystemExit):
            _main(capsys, "--lang", "so", command, "--help")
        out = capsys.readouterr().out
        assert text in out, command


# -- record, fair-deal and eval messages: English str(), translated for people --------------------


def test_record_errors_keep_their_template_r7_3() -> None:
    from paiute.errors import RecordError
    from paiute.record import Record

    with pytest.raises(RecordError) as caught:
        Record.loads("[]")
    assert str(caught.value) == "a record is a JSON object"
    assert translator("ro").explain(caught.value) == "o înregistrare este un obiect JSON"
    with pytest.raises(RecordError) as caught:
        Record.loads('{"format": "paiute-record/0"}')
    assert str(caught.value) == "unknown format 'paiute-record/0' (expected 'paiute-record/1')"
    assert translator("bn").explain(caught.value) == "অজানা ফরম্যাট 'paiute-record/0' (প্রত্যাশিত 'paiute-record/1')"


def test_fair_deal_problems_are_english_strings_with_a_template_r10_2() -> None:
    from paiute.fairness import Problem, verify_deal
    from paiute.record import DealRecord

    deal = DealRecord(0, (), (), (), None)
    (problem,) = verify_deal(deal)
    assert problem == "R10.2 the deal has no commitment"
    assert isinstance(problem, Problem)
    assert translator("so").gettext(problem.message_id, **problem.params) == "R10.2 qaybtu ma laha ballan"


def test_eval_input_errors_in_romanian(capsys: pytest.CaptureFixture[str]) -> None:
    status, _out, err = _main(capsys, "--lang", "ro", "eval", "3h 3s Ad")
    assert status == 2
    assert "o combinație are 5 sau 6 cărți (R5), s-au dat 3: '3h 3s Ad'" in err


def test_replay_watch_in_romanian_and_hotseat_cover_in_bengali() -> None:
    from paiute import SeededChance
    from paiute.players import make_player, play_deal
    from paiute.record import Record
    from paiute.tui.watch import WatchApp
    from paiute.tui.widgets import CoverScreen

    players = [make_player("greedy", seed=seat) for seat in range(3)]
    match = Match(RuleSet(), ["Ana", "Bo", "Cy"], chance=SeededChance(11))
    play_deal(match, players)
    watch = WatchApp(Record.from_match(match), delay=0.01, tr=translator("ro"))

    async def watching() -> None:
        async with watch.run_test(size=SIZE) as pilot:
            await pilot.pause()
            text = screen_text(watch)
            assert "Reluare  mâna 1/1  mutarea 0/" in text  # moves counted from 1: none shown yet
            assert "vedere: spectator" in text
            assert "-> înainte" in text

    run(watching)

    config = PlayConfig(RuleSet(), (SeatSpec("Ana"), SeatSpec("Bo"), SeatSpec("Greedy", "greedy")), seed=2)
    app = PlayApp(Session.new(config, None), delay=0, tr=translator("bn"))

    async def covering() -> None:
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(50):
                await pilot.pause()
                if isinstance(app.screen, CoverScreen):
                    break
            assert isinstance(app.screen, CoverScreen)
            assert "পর্দা" in screen_text(app)
            assert "তৈরি হলে Enter চাপুন" in screen_text(app)

    run(covering)
