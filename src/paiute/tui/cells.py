"""Text laid out in terminal columns: broken between words, cut or padded to a width.

Every width here is :func:`~paiute.tui.describe.display_width`, the columns a terminal gives a
string: a Bengali vowel sign (Mc) takes one there, though Textual and rich count none, so text
measured with ``len()`` or rich's ``cell_len`` runs past a border in Bengali. The full screen's
dialogs (:mod:`paiute.tui.dialogs`), its seat lines and ``--plain`` all lay text out with these
functions. Nothing here imports Textual or rich: ``--plain`` runs without them.

>>> wrap_lines("  one two three four", 14)
['  one two', '    three four']
>>> fit("Ciyaartoyga wuxuu soo qaatay Q♥", 20)
'Ciyaartoyga wuxuu s…'
>>> pad("আপনার", 7) + "|"
'আপনার  |'
"""

from __future__ import annotations

import re
import unicodedata

from paiute.tui.describe import display_width

__all__ = ["cut", "display_width", "fit", "pad", "wrap", "wrap_lines"]

#: A label that ends a line, after two spaces or more ("K♥ discard  <- the hint", "Four/Two
#: <- best"): it never starts a line alone, it goes with the word before it.
_LABEL = re.compile(r"(?<=\S) {2,}<- (?!.* {2}<- )")
_SPACES = re.compile(r"( +)")


def _is_joined(text: str, index: int) -> bool:
    """Whether a cut before ``text[index]`` would split a character from its marks (a Bengali
    vowel sign, a nukta) or a conjunct (a virama joins the next consonant)."""
    if index <= 0 or index >= len(text):
        return False
    if unicodedata.category(text[index])[0] == "M" or text[index] in "\u200c\u200d":
        return True
    return "VIRAMA" in unicodedata.name(text[index - 1], "")


def cut(text: str, width: int) -> str:
    """The longest start of ``text`` that takes at most ``width`` columns, never cutting a
    letter from its vowel sign; at least one letter when ``width`` is positive (a wide letter
    in a one-column space), so that breaking a long word always goes on.

    >>> cut("পরীক্ষামূলক", 4)
    'পরী'
    """
    used = 0
    end = 0
    for index, char in enumerate(text):
        used += display_width(char)
        if used > width:
            break
        end = index + 1
    while end < len(text) and _is_joined(text, end) and end > 0:
        end -= 1
    if end == 0 and text and width > 0:
        end = 1
        while end < len(text) and _is_joined(text, end):
            end += 1
    return text[:end]


def fit(text: str, width: int, ellipsis: str = "…") -> str:
    """``text`` as it is if it takes at most ``width`` columns, else cut to end in
    ``ellipsis`` within them (a line that must stay one line)."""
    if display_width(text) <= width:
        return text
    return cut(text, width - display_width(ellipsis)) + ellipsis


def pad(text: str, width: int) -> str:
    """``text`` with spaces after it up to ``width`` columns (none if it takes more)."""
    return text + " " * max(width - display_width(text), 0)


def wrap_lines(text: str, width: int, *, break_long_words: bool = True) -> list[str]:
    """``text`` broken between words into lines of at most ``width`` columns: each line of it
    (a paragraph) keeps its indentation, a broken one goes on indented two more; spaces inside
    a line are kept. A label at a line's end (``  <- best``) stays with the word before it.
    A word longer than a line is broken where it must be (``break_long_words``), or else runs
    over, whole (a path to copy, on a terminal that wraps it).

    >>> wrap_lines("a  b", 10), wrap_lines("K♥ discard (noise)    <- the hint", 26)
    (['a  b'], ['K♥ discard', '  (noise)    <- the hint'])
    """
    width = max(width, 1)
    lines: list[str] = []
    for paragraph in text.split("\n"):
        lines += _wrap_paragraph(paragraph, width, break_long_words)
    return lines


def wrap(text: str, width: int, *, break_long_words: bool = True) -> str:
    """:func:`wrap_lines` joined into one string."""
    return "\n".join(wrap_lines(text, width, break_long_words=break_long_words))


def _units(body: str, room: int) -> list[tuple[str, str]]:
    """The words of a line, each with the spaces before it; a closing label glued to the word
    before it (no line break inside), unless together they take more than ``room`` columns."""
    glued = ""
    label = _LABEL.search(body)
    if label is not None:
        start = body.rfind(" ", 0, label.start()) + 1
        if display_width(body[start:]) <= room:
            body, glued = body[:start], body[start:]
    parts = _SPACES.split(body)
    units = [(parts[index - 1] if index else "", parts[index]) for index in range(0, len(parts), 2)]
    units = [(gap, word) for gap, word in units if word]
    if glued:
        gap = body[len(body.rstrip(" ")) :]
        units.append((gap, glued))
    return units


def _wrap_paragraph(paragraph: str, width: int, break_long_words: bool) -> list[str]:
    if display_width(paragraph) <= width:
        return [paragraph]
    indent = paragraph[: len(paragraph) - len(paragraph.lstrip(" "))]
    if display_width(indent) >= width:
        indent = ""
    more = indent + "  " if display_width(indent) + 2 < width else indent
    lines: list[str] = []
    line, empty = indent, True
    for gap, word in _units(paragraph[len(indent) :], width - display_width(more)):
        candidate = line + word if empty else line + gap + word
        if display_width(candidate) <= width:
            line, empty = candidate, False
            continue
        if not empty:
            lines.append(line)
            line = more
        while break_long_words and display_width(line + word) > width:
            head = cut(word, width - display_width(line))
            lines.append(line + head)
            word = word[len(head) :]
            line = more
        line, empty = line + word, False
    lines.append(line)
    return lines
