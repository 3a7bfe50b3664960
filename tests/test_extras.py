"""Every door: the engine commands run on a bare install, and a command whose extra is missing
says in one line which extra to install, never a traceback.

The libraries are hidden in a child process (``tests/without_extras.py``); CI's door test
(``.ci/doors.py``) does the same with real installs into fresh environments.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from paiute import Match, Record, RuleSet, SeededChance
from paiute.players import make_player, play_deal
from without_extras import OPTIONAL

TESTS = Path(__file__).resolve().parent

#: The libraries each extra brings that the package imports (pyproject.toml's extras).
EXTRAS = {
    "": frozenset(),
    "sim": frozenset({"rich", "openskill", "matplotlib", "numpy"}),
    "tui": frozenset({"textual", "rich", "platformdirs"}),
    "learned": frozenset({"numpy"}),
    "web": frozenset(
        {
            "fastapi", "starlette", "pydantic", "uvicorn", "sqlalchemy", "alembic", "psycopg", "jinja2",
            "platformdirs", "limits", "secure", "confusable_homoglyphs", "fastapi_offline", "orjson",
            "argon2", "openskill",
        }
    ),
}  # fmt: skip


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    match = Match(RuleSet(), ["Ana", "Bo", "Cy"], chance=SeededChance(7))
    bots = [make_player("greedy", seed=seat) for seat in range(3)]
    for _ in range(2):
        play_deal(match, bots)
    path = tmp_path_factory.mktemp("record") / "match.json"
    path.write_text(Record.from_match(match).dumps())
    return path


def run_with(extra: str, *words: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``paiute WORDS`` where only ``extra``'s libraries (none for "") are installed."""
    hidden = ",".join(sorted(set(OPTIONAL) - EXTRAS[extra]))
    return subprocess.run(
        [sys.executable, str(TESTS / "without_extras.py"), hidden, "--", *words],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={"PAIUTE_LANG": "en", "PATH": "/usr/bin:/bin", "PAIUTE_DATA_DIR": str(cwd / "data")},
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


BARE_COMMANDS = [
    (("--help",), "evaluate holdings"),
    (("--version",), "paiute "),
    (("eval", "3h 3s Ad Ac Ks Kh", "--wild", "3"), "Four/Two, aces over kings"),
    (("rules", "--preset", "gamerules"), "R8"),
    (("replay", "RECORD"), "record is valid"),
    (("review", "RECORD", "--playouts", "2"), "accuracy"),
    (("hint", "RECORD", "--deal", "1", "--move", "4", "--playouts", "4"), "Hint"),
    (("play", "--plain", "--seed", "1", "--no-save"), "You left the match"),
    (("learn",), "Coach: Welcome!"),  # no terminal, no Textual: the lesson line by line
    *(((name, "--help"), "usage") for name in ("serve", "odds", "tournament", "simulate", "play")),
]  # fmt: skip


@pytest.mark.parametrize(("words", "shown"), BARE_COMMANDS, ids=[" ".join(w) for w, _ in BARE_COMMANDS])
def test_the_engine_commands_run_on_a_bare_install(
    words: tuple[str, ...], shown: str, record: Path, tmp_path: Path
) -> None:
    done = run_with("", *(str(record) if word == "RECORD" else word for word in words), cwd=tmp_path)
    assert "Traceback" not in done.stderr
    assert done.returncode == 0, done.stderr
    assert shown in done.stdout


def test_verify_on_a_bare_install_says_there_is_nothing_to_verify(record: Path, tmp_path: Path) -> None:
    done = run_with("", "verify", str(record), cwd=tmp_path)
    assert done.returncode == 1  # nothing was verified: a record of bots carries no proof (R10.2)
    assert "fair-deal proof" in done.stdout
    assert "Traceback" not in done.stderr


REFUSED = [
    ("", ("odds", "--wild", "any", "--turns", "2"), "sim"),
    ("", ("tournament", "greedy", "random", "--deals", "2"), "sim"),
    ("", ("simulate", "--deals", "2"), "sim"),
    ("", ("serve", "--port", "0"), "web"),
    ("", ("play", "--plain", "--bots", "learned", "--no-save"), "learned"),
    ("tui", ("tournament", "greedy", "random", "--deals", "2"), "sim"),
    ("sim", ("serve", "--port", "0"), "web"),
    ("sim", ("tournament", "greedy", "random", "--deals", "2", "--backend", "ray"), "cluster"),
    ("sim", ("simulate", "--deals", "2", "--backend", "ray"), "cluster"),
    ("web", ("tournament", "greedy", "random", "--deals", "2"), "sim"),
    ("learned", ("odds", "--wild", "any", "--turns", "2"), "sim"),
    ("", ("train", "dmc", "--quick"), "train"),
]


@pytest.mark.parametrize(
    ("extra", "words", "needed"), REFUSED, ids=[f"{e or 'bare'}: {' '.join(w)}" for e, w, _ in REFUSED]
)
def test_a_command_whose_extra_is_missing_names_it_in_one_line(
    extra: str, words: tuple[str, ...], needed: str, tmp_path: Path
) -> None:
    done = run_with(extra, *words, cwd=tmp_path)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stdout + done.stderr
    assert len(lines) == 1, done.stderr
    assert f"pip install 'paiute[{needed}]'" in lines[0]


def test_the_bare_commands_load_no_optional_library(record: Path) -> None:
    """What the engine commands load imports no optional library at all (at module level or
    later): they would fail on a bare install otherwise."""
    program = (
        "import contextlib, io, sys\n"
        "from paiute.cli.main import main\n"
        f"record = {str(record)!r}\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    for words in (['eval', '3h 3s Ad Ac Ks Kh', '--wild', '3'], ['rules'], ['replay', record],\n"
        "                  ['verify', record], ['replay', record, '--json']):\n"
        "        main(words)\n"
        f"optional = {sorted(OPTIONAL)!r}\n"
        "print(sorted({name.partition('.')[0] for name in sys.modules} & set(optional)))\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
