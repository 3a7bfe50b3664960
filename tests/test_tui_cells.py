"""Text in terminal columns (paiute.tui.cells): lines broken between words, cut and padded by
the columns a terminal draws (a Bengali vowel sign takes one, a virama or nukta none), labels
that never stand alone, and ``--plain`` broken at a terminal's width."""

from __future__ import annotations

import argparse
import io
import os
import sys
from pathlib import Path

import pytest
from rich.cells import cell_len

from paiute import DRAW_STOCK, RuleSet
from paiute.cli import play_command
from paiute.tui.cells import cut, fit, pad, wrap, wrap_lines
from paiute.tui.describe import display_width
from paiute.tui.plain import wrap_text
from paiute.tui.session import PlayConfig, SeatSpec, Session

BENGALI = "পরামর্শ: K♥ ফেলুন (বিশেষজ্ঞের চাল; নিচে ৬টি চালের প্রতিটি ১৬টি পরীক্ষামূলক খেলায় খেলা হয়েছে)।"


def test_bengali_vowel_signs_take_a_column_where_rich_counts_none() -> None:
    # The cause of the garbled dialogs: rich (and so Textual) gives া ী ে no column.
    assert display_width("খেলায়") == 5  # খ ে ল া য, the nukta on য takes none
    assert cell_len("খেলায়") == 3


@pytest.mark.parametrize("width", [20, 33, 47, 76])
def test_wrapped_bengali_lines_fit_in_terminal_columns_and_lose_no_word(width: int) -> None:
    lines = wrap_lines(BENGALI, width)
    assert len(lines) > 1
    assert all(display_width(line) <= width for line in lines), lines
    assert " ".join(lines).split() == BENGALI.split()
    assert all(line.startswith("  ") for line in lines[1:])  # a broken line goes on indented


def test_a_label_at_the_end_of_a_line_never_stands_alone() -> None:
    row = "  -0.81 [-1.18, -0.45]  K♥ discard  (next player could call with it: 3%)  <- the hint"
    for width in range(40, len(row)):
        lines = wrap_lines(row, width)
        label = next(line for line in lines if "<- the hint" in line)
        assert label.split("<-")[0].strip(), (width, lines)  # a word before the label
        assert all(display_width(line) <= width for line in lines)
    padded = "  +2.00 [+2.00, +2.00]  call Five of a Kind, putting down 9c        <- the hint"
    assert wrap_lines(padded, 70)[-1].split() == ["9c", "<-", "the", "hint"]
    # An arrow inside a line (the keys' help) is a word like any other.
    assert (
        wrap_lines("  1-6 <- ->  choose a card (or click it)  x Enter", 28)[0] == "  1-6 <- ->  choose a card"
    )


def test_cut_fit_and_pad_count_terminal_columns_and_keep_letters_whole() -> None:
    assert cut("পরীক্ষামূলক", 4) == "পরী"  # never "পর" with its vowel sign cut off
    assert cut("ক্ষ", 1) == "ক্ষ"  # at least one letter, with what joins it
    assert fit("Ciyaartoyga wuxuu soo qaatay Q♥", 20) == "Ciyaartoyga wuxuu s…"
    assert display_width(fit(BENGALI, 30)) <= 30
    assert fit("short", 10) == "short"
    assert display_width(pad("আপনার", 9)) == 9


def test_a_word_longer_than_a_line_is_broken_in_a_dialog_and_whole_in_plain() -> None:
    path = "/home/someone/.local/share/paiute/matches/match-20261206-031000-a1b2c3.json"
    assert all(display_width(line) <= 30 for line in wrap_lines(f"Saved to {path}", 30))
    assert wrap(f"Saved to {path}", 30, break_long_words=False).split("\n") == ["Saved to", f"  {path}"]


def test_plain_breaks_lines_by_terminal_columns_not_characters() -> None:
    # 94 characters in 87 columns: len() would break it at 90, a terminal draws it whole.
    assert len(BENGALI) > 90 >= display_width(BENGALI)
    assert wrap_text(BENGALI, 90) == BENGALI
    assert wrap_text(BENGALI, None) == BENGALI
    assert all(display_width(line) <= 40 for line in wrap_text(BENGALI, 40).split("\n"))


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _unfinished_match(matches: Path, seed: int) -> None:
    """A match saved after the person's first move, not finished."""
    session = Session.new(
        PlayConfig(RuleSet(), (SeatSpec("You"), SeatSpec("Greedy", "greedy")), seed=seed), matches
    )
    session.start_deal()
    while not session.is_human(session.current or 0):
        session.apply(session.bot_action())
    session.apply(DRAW_STOCK)
    session.save()
    session.close()


def test_the_saved_match_note_is_broken_between_words_on_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for seed in (1, 2):  # two unfinished matches: the longer note, with --list
        _unfinished_match(tmp_path / "matches", seed)
    args = argparse.Namespace(data_dir=tmp_path)
    monkeypatch.setattr(play_command.shutil, "get_terminal_size", lambda: os.terminal_size((80, 24)))
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    play_command._mention_unfinished(args)
    lines = terminal.getvalue().splitlines()
    assert len(lines) > 1
    assert all(display_width(line) <= 79 for line in lines), lines
    assert all(line.split()[-1] != "show" for line in lines)  # never "... --list show" / "s them all"
    assert " ".join(terminal.getvalue().split()).endswith("paiute play --list shows them all")
    piped = io.StringIO()  # a pipe gets the note whole, on one line
    monkeypatch.setattr(sys, "stderr", piped)
    play_command._mention_unfinished(args)
    assert len(piped.getvalue().splitlines()) == 1
