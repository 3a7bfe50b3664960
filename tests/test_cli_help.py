"""What the command line says: help text, plurals, placeholders in every language, option
values, table cells (issue 15: points 7, 15, 16, 18)."""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from paiute.cli.main import build_parser, main
from paiute.cli.play_command import build_config
from paiute.cli.tournament_command import _calls, _Pairs
from paiute.i18n import LANGUAGES, translator


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    sys.stdin = io.TextIOWrapper(io.BytesIO(b""), encoding="utf-8")
    try:
        status = main(list(argv))
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    finally:
        sys.stdin = sys.__stdin__
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_tournament_help_says_95_percent_once(capsys: pytest.CaptureFixture[str]) -> None:
    for lang in LANGUAGES:
        status, out, _ = run(capsys, "--lang", lang, "tournament", "--help")
        assert status == 0
        assert "%%" not in out, lang


@pytest.mark.parametrize(
    ("singular", "plural"),
    [
        ("You left the match after {n} deal.", "You left the match after {n} deals."),
        ("The match is over after {n} deal.", "The match is over after {n} deals."),
    ],
)
def test_deal_counts_pluralise_through_ngettext_in_every_language(singular: str, plural: str) -> None:
    english = translator("en")
    assert english.ngettext(singular, plural, 1, n=1).endswith(" after 1 deal.")
    assert english.ngettext(singular, plural, 3, n=3).endswith(" after 3 deals.")
    for lang in LANGUAGES:
        tr = translator(lang)
        one, three = tr.ngettext(singular, plural, 1, n=1), tr.ngettext(singular, plural, 3, n=3)
        assert "(s)" not in one + three, lang
        assert tr.number(3) in three, lang


def _actions(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.Action]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _actions(sub, (*path, name))
        elif action.nargs != 0 and action.help is not argparse.SUPPRESS and not action.choices:
            yield path, action


#: Placeholders that are the same word in every language, or in one of them.
SAME_EVERYWHERE = {"URL"}
SAME_IN = {("ro", "PORT"), ("so", "BOT"), ("so", "URL")}


def test_help_placeholders_are_translated_in_every_language() -> None:
    english = {
        (path, action.dest): action.metavar for path, action in _actions(build_parser(translator("en")))
    }
    for path_dest, metavar in english.items():
        assert metavar is not None, f"{path_dest}: no metavar (argparse would show the English dest)"
    for lang in LANGUAGES:
        if lang == "en":
            continue
        shown = {
            (path, action.dest): action.metavar for path, action in _actions(build_parser(translator(lang)))
        }
        for key, metavar in english.items():
            word = isinstance(metavar, str) and re.search(r"[^\W\d_]{2,}", metavar) is not None
            if word and metavar not in SAME_EVERYWHERE and (lang, metavar) not in SAME_IN:
                assert shown[key] != metavar, f"{lang} {key}: {metavar!r} is not translated"


def test_romanian_play_help_shows_translated_chips(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--lang", "ro", "play", "--help")
    assert status == 0
    assert "--chips CHIPS" not in out
    assert "--chips JETOANE" in out


# -- point 18 ------------------------------------------------------------------------------------


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["play", *argv])


def test_one_bot_spec_fills_three_seats_not_heads_up() -> None:
    config = build_config(parse("--bots", "random"))
    assert [seat.bot for seat in config.seats] == [None, "random", "random"]
    assert len(build_config(parse("--bots", "random", "--players", "2")).seats) == 2
    assert len(build_config(parse("--bots", "random,greedy,random")).seats) == 4
    assert len(build_config(parse("--hotseat", "2", "--bots", "greedy")).seats) == 3
    assert len(build_config(parse()).seats) == 3


def test_play_help_documents_the_seat_count(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "play", "--help")
    text = " ".join(out.split())
    assert "--bots expert plays you against two expert bots" in text
    assert "you against two medium bots" in text  # the default level (paiute.players.DEFAULT_LEVEL)


def test_simulate_compare_prints_off_and_on(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "simulate", "--deals", "4", "--workers", "1", "--compare", "paiute_any_turn")
    assert status == 0
    assert "paiute_any_turn=off" in out
    assert "paiute_any_turn=on" in out
    assert "False" not in out
    assert "True" not in out


# -- point 16: the Calls column ------------------------------------------------------------------


def test_tournament_calls_cell_wraps_only_between_pairs() -> None:
    from rich.console import Console

    calls = {
        "five_of_a_kind": 2,
        "royal_flush": 2,
        "straight_flush": 11,
        "four_two": 18,
        "three_three": 4,
        "paiute": 3,
    }
    pairs = _calls(calls, translator("en"))
    assert pairs == ["5K 2", "RF 2", "SF 11", "4/2 18", "3/3 4", "Paiute 3"]
    for width in range(8, 40):
        console = Console(width=width, file=io.StringIO(), color_system=None)
        console.print(_Pairs(pairs))
        shown = console.file.getvalue().split("\n")  # type: ignore[attr-defined]
        joined = [line.strip() for line in shown if line.strip()]
        assert " ".join(joined) == " ".join(pairs), width


def test_tournament_json_has_no_records_by_default(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, _ = run(capsys, "tournament", "random", "greedy", "--deals", "1", "--workers", "1", "--json")
    assert status == 0
    assert json.loads(out)["records"] is None
    assert list(tmp_path.iterdir()) == []


def test_tournament_help_offers_the_levels_in_every_language(capsys: pytest.CaptureFixture[str]) -> None:
    # Levels are chosen by name wherever a bot is chosen (issue 11), and help names them, with
    # the line-up (4 seats A B A B, both rotations) as its first example.
    from paiute.players import LEVELS

    for lang in LANGUAGES:
        status, out, _ = run(capsys, "--lang", lang, "tournament", "--help")
        assert status == 0
        text = " ".join(out.split())
        assert all(level in text for level in LEVELS), lang
        assert "paiute tournament expert hard --players 4 --seating rotations" in text, lang
