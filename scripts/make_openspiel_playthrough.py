"""Write tests/data/openspiel/python_paiute.txt: OpenSpiel's playthrough of ``python_paiute``.

OpenSpiel checks each of its games against a recorded playthrough: one game played with
uniformly random actions (chance outcomes included), listing the game's type and parameters,
then every state with its strings, tensors, legal actions and returns (only some states in
full, the others as the action applied), made by
``open_spiel.python.algorithms.generate_playthrough``. This script records ours the same way;
tests/envs/test_openspiel_game.py replays the recorded actions and compares the result line by
line, as OpenSpiel's own playthrough test does, so any change in the game's dynamics, strings
or tensors shows up as a diff.

By default the script only compares (``--check`` says the same explicitly): it replays the
recorded actions, prints a diff and exits 1 if the file differs. ``--write`` records a new
playthrough (random actions from ``--seed``); do that only when the game is meant to change::

    .venv/bin/python scripts/make_openspiel_playthrough.py           # compare: exit 1 with a diff
    .venv/bin/python scripts/make_openspiel_playthrough.py --write   # (re)write the file
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from open_spiel.python.algorithms import generate_playthrough  # noqa: E402

import paiute.envs.openspiel  # noqa: E402, F401  (registers python_paiute)

OUTPUT = ROOT / "tests" / "data" / "openspiel" / "python_paiute.txt"
#: Two seats, the default rules; a seed whose random deal is short and ends with a call.
GAME = "python_paiute(players=2)"
SEED = 94


def render(game: str = GAME, seed: int = SEED) -> str:
    """A new playthrough of ``game`` with random actions drawn from ``seed``."""
    return str(generate_playthrough.playthrough(game, None, seed=seed))


def recorded(text: str) -> tuple[str, list[int]]:
    """The game string and the actions (chance outcomes included) of a playthrough text."""
    game = re.search(r"^game: (.*)$", text, re.MULTILINE)
    if game is None:
        raise ValueError("not a playthrough: no 'game:' line")
    actions = [int(found) for found in re.findall(r"^action: (\d+)$", text, re.MULTILINE)]
    return game.group(1), actions


def replay(text: str) -> str:
    """The playthrough regenerated from the game string and actions recorded in ``text``."""
    game, actions = recorded(text)
    return str(generate_playthrough.playthrough(game, actions, seed=0))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="compare with the file (the default)")
    mode.add_argument("--write", action="store_true", help=f"rewrite {OUTPUT.relative_to(ROOT)}")
    parser.add_argument(
        "--seed", type=int, default=SEED, help=f"with --write: random seed of the actions (default {SEED})"
    )
    args = parser.parse_args()
    if not args.write:
        original = OUTPUT.read_text(encoding="utf-8")
        again = replay(original)
        if again == original:
            print(f"{OUTPUT.relative_to(ROOT)}: up to date")
            return 0
        diff = difflib.unified_diff(
            original.splitlines(), again.splitlines(), "recorded", "regenerated", lineterm=""
        )
        print("\n".join(list(diff)[:80]))
        print(
            f"{OUTPUT.relative_to(ROOT)} differs (--write records it again, only if the change is intended)"
        )
        return 1
    text = render(GAME, args.seed)
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT.relative_to(ROOT)}: {len(text.splitlines())} lines")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
