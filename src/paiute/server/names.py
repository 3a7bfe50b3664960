"""Display names at a table: normalised, visible, and not mistakable for one already there.

A name is put in Unicode's NFKC form (so "Ａｎａ" is "Ana"), its runs of spaces made one; it is
refused if it has a control, format (zero-width, bidi override), private-use or unassigned
character, or one that shows as nothing (Unicode's default-ignorable code points, such as
U+3164 HANGUL FILLER, and U+2800 BRAILLE PATTERN BLANK), or if nothing visible is left.

Two names clash when they are equal after case folding, or after mapping every character to
one representative of its set of lookalikes (the confusables of Unicode's UTS #39, from the
``confusable-homoglyphs`` package): "Аna" with a Cyrillic А clashes with "Ana", "Ian" with
"lan".

>>> clean_name("  Ａｎａ   Lee ")
'Ana Lee'
>>> clashes("Аna", ["Ana"]), clashes("ANA", ["ana"]), clashes("Bo", ["Ana"])
(True, True, False)
>>> clean_name("\\u3164")
Traceback (most recent call last):
...
paiute.server.errors.ServiceError: a name may not contain the invisible character U+3164
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable

from paiute.errors import N_
from paiute.server.errors import ServiceError

__all__ = ["NAME_LIMIT", "clashes", "clean_name", "skeleton"]

NAME_LIMIT = 32
#: Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt) and blank-looking
#: characters that are not: each shows as nothing, or as an empty box.
_INVISIBLE_RANGES: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x2800, 0x2800),  # BRAILLE PATTERN BLANK
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
#: Categories refused outright: controls, formats, surrogates, private use, unassigned,
#: line and paragraph separators.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def _invisible(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _INVISIBLE_RANGES)


def clean_name(name: str) -> str:
    """The name as shown (NFKC, single spaces), or ``bad_request`` saying what is wrong."""
    text = unicodedata.normalize("NFKC", name)
    for char in name + text:  # as typed (to name it), then as normalised
        if char in "\t\n\r":
            continue  # white space: made one space below
        if unicodedata.category(char) in _REFUSED_CATEGORIES or _invisible(char):
            raise ServiceError(
                "bad_request",
                N_("a name may not contain the invisible character {char}"),
                char=f"U+{ord(char):04X}",
            )
    text = " ".join(text.split())
    if not 1 <= len(text) <= NAME_LIMIT:
        raise ServiceError("bad_request", N_("a name has 1 to {limit} characters"), limit=NAME_LIMIT)
    if not any(unicodedata.category(char)[0] in "LNPS" for char in text):
        raise ServiceError("bad_request", N_("a name needs at least one visible letter or sign"))
    return text


@functools.cache
def _representatives() -> dict[str, str]:
    """Each confusable character -> one representative of its set of lookalikes."""
    from confusable_homoglyphs.confusables import confusables_data

    parent: dict[str, str] = {}

    def find(char: str) -> str:
        root = char
        while parent.get(root, root) != root:
            root = parent[root]
        parent[char] = root
        return root

    def rank(char: str) -> tuple[bool, int]:
        return (not char.isascii(), ord(char))

    for char, lookalikes in confusables_data.items():
        for entry in lookalikes:
            other = entry["c"]
            if len(char) != 1 or len(other) != 1:
                continue
            a, b = find(char), find(other)
            if a != b:
                low, high = sorted((a, b), key=rank)
                parent[high] = low
    return {char: find(char) for char in parent}


def skeleton(name: str) -> str:
    """``name`` with every character replaced by its lookalikes' representative, case folded."""
    table = _representatives()
    mapped = "".join(table.get(char, char) for char in unicodedata.normalize("NFKC", name))
    folded = mapped.casefold()
    return "".join(table.get(char, char) for char in folded)


def clashes(name: str, taken: Iterable[str | None]) -> bool:
    """Whether ``name`` could be mistaken for one of ``taken`` (case, lookalikes)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    shape = skeleton(name)
    for other in taken:
        if other is None:
            continue
        if unicodedata.normalize("NFKC", other).casefold() == folded or skeleton(other) == shape:
            return True
    return False
