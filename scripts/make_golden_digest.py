"""Write tests/data/golden_evaluator_order.txt: a digest of how the evaluator orders an
exhaustive class of holdings (R5). tests/test_evaluator.py recomputes it and compares.

The class, with the threes wild (``Evaluator.for_rank("3")``, R3.1), each under ``royal_high``
off and on (R5.8):

* ``six``: every six-card holding made of 0, 1 or 2 wild cards (``3c``, then ``3d``) and a
  multiset of 6, 5 or 4 natural ranks other than three with at most four cards of a rank.
  A rank's copies take the suits in the order c, d, h, s (one card of a rank is a club, two
  are a club and a diamond, ...), so every rank pattern appears once, and the clubs carry any
  straight flush. Each holding is valued by ``best_code``: its best five- or six-card call.
  (12,232 + 4,356 + 1,365 = 17,953 holdings.)
* ``five``: every five-card holding made of 0, 1 or 2 wild cards (``3c``, then ``3d``) and a
  set of 5, 4 or 3 distinct club ranks other than three. Each is valued by ``code`` (R5.10:
  only R5.1-R5.3). (792 + 495 + 220 = 1,507 holdings.)

For each family and ``royal_high`` setting the holdings are sorted by the evaluator's code,
ties by the holding's text, and the file records the SHA-256 of that ordering (one
``"<code> <cards>"`` line per holding) and how many holdings fall in each category. Any change
to the evaluator's ordering changes a hash; the counts show roughly where.

By default the script only compares: it prints the lines that differ from the golden file and
exits 1 if any does (``--check`` says the same explicitly). ``--write`` rewrites the golden
file; do that only when the evaluator's ordering is meant to change::

    python scripts/make_golden_digest.py            # compare (nothing is written)
    python scripts/make_golden_digest.py --write    # rewrite tests/data/golden_evaluator_order.txt
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import sys
from collections import Counter
from collections.abc import Iterator
from itertools import combinations, combinations_with_replacement
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paiute.cards import format_cards, parse_cards  # noqa: E402
from paiute.combos import Category, Value  # noqa: E402
from paiute.evaluator import Evaluator  # noqa: E402

GOLDEN = ROOT / "tests" / "data" / "golden_evaluator_order.txt"
RANKS = [rank for rank in "23456789TJQKA" if rank != "3"]
WILDS = ["3c", "3d"]
SUITS = "cdhs"


def six_card_holdings(royal_high: bool) -> Iterator[tuple[int, str]]:
    """(code, text) of every holding of the ``six`` family."""
    evaluator = Evaluator.for_rank("3", royal_high=royal_high)
    for wild in range(3):
        for ranks in combinations_with_replacement(RANKS, 6 - wild):
            counts = Counter(ranks)
            if max(counts.values()) > 4:
                continue
            texts = [rank + SUITS[i] for rank, n in counts.items() for i in range(n)] + WILDS[:wild]
            held = parse_cards(texts)
            yield evaluator.best_code(held), format_cards(held)


def five_card_holdings(royal_high: bool) -> Iterator[tuple[int, str]]:
    """(code, text) of every holding of the ``five`` family."""
    evaluator = Evaluator.for_rank("3", royal_high=royal_high)
    for wild in range(3):
        for ranks in combinations(RANKS, 5 - wild):
            held = parse_cards([rank + "c" for rank in ranks] + WILDS[:wild])
            yield evaluator.code(held), format_cards(held)


def holdings(royal_high: bool) -> list[tuple[int, str]]:
    """Both families together."""
    return [*six_card_holdings(royal_high), *five_card_holdings(royal_high)]


def _summary(family: str, royal_high: bool, rows: list[tuple[int, str]]) -> list[str]:
    rows = sorted(rows)
    ordering = "".join(f"{code} {text}\n" for code, text in rows)
    digest = hashlib.sha256(ordering.encode()).hexdigest()
    label = f"{family} royal_high={'on' if royal_high else 'off'}"
    counts: Counter[str] = Counter()
    for code, _ in rows:
        value = Value.from_code(code, royal_high=royal_high)
        counts["none" if value is None else value.category.value] += 1
    lines = [f"{label} holdings {len(rows)} distinct_codes {len({code for code, _ in rows})}"]
    lines += [f"{label} {name} {counts[name]}" for name in [c.value for c in Category] + ["none"]]
    lines.append(f"{label} sha256 {digest}")
    return lines


def digest_lines() -> list[str]:
    """The lines of the golden file."""
    lines = ["# Golden digest of the evaluator's ordering; written by scripts/make_golden_digest.py"]
    for royal_high in (False, True):
        lines += _summary("six", royal_high, list(six_card_holdings(royal_high)))
        lines += _summary("five", royal_high, list(five_card_holdings(royal_high)))
    return lines


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="compare with the golden file (the default)")
    mode.add_argument("--write", action="store_true", help=f"rewrite {GOLDEN.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    text = "\n".join(digest_lines()) + "\n"
    if not args.write:
        golden = GOLDEN.read_text(encoding="utf-8") if GOLDEN.is_file() else ""
        if golden == text:
            print("golden digest unchanged")
            return 0
        name = str(GOLDEN.relative_to(ROOT))
        diff = difflib.unified_diff(golden.splitlines(), text.splitlines(), name, "now", lineterm="")
        print("\n".join(diff))
        print("golden digest differs (--write rewrites it, only if the change is intended)")
        return 1
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text(text, encoding="utf-8")
    print(f"wrote {GOLDEN.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
