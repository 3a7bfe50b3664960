"""Every snippet of README.md and docs/*.md runs as written (issue 41).

* ``pycon`` blocks are doctests: ``--doctest-glob=*.md`` (pyproject.toml) runs them. Doctest
  finds ``>>>`` in any fence, so a ``python`` fence holding one would run as a doctest too; the
  docs write every doctest as ``pycon`` (checked here), and the scripts below are the rest.
* ``python`` blocks are scripts. pytest-examples' ``find_examples`` finds them; each is saved
  in a new temporary folder, under the name its first comment gives
  (``# .venv/bin/python breakdown.py 20000 2024``), and run there by a fresh interpreter with
  that comment's arguments, as a reader who saved it would run it. A fresh process, not
  ``EvalExample.run`` in this one: ``multiprocessing`` workers import the script again, and
  the script's ``sys.argv`` is its own.
* Shell blocks (the lines after ``$`` in ``console`` blocks, ``bash`` and ``sh`` blocks, and
  indented code blocks) run in order in a new temporary folder holding ``match.json`` and
  ``games.jsonl``, each ``paiute`` line as a subprocess (``python -m paiute``). Counts are
  shrunk only through ``SMALLER_COUNTS``; interactive commands are checked through their
  ``--help``; output shown in a ``console`` block must be printed exactly. Every other line is
  listed in ``NOT_RUN`` with the reason it is not run here. Fences without a language (a
  command's synopsis) and ``json`` blocks are not commands.
* A ``python`` block whose first line names a module (``# my_agent.py  (remarks)``) is a file
  the document's commands import (``PYTHONPATH=. paiute tournament my_agent.make ...``): it is
  saved under that name in the folder of each of the document's shell blocks, and run as a
  script like the others.

benchmarks/README.md is not tested here: its commands are the benchmarks' own, measurements of
minutes that their own tests run small.
"""

from __future__ import annotations

import ast
import importlib.util
import itertools
import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest
from pytest_examples import CodeExample, find_examples

from conftest import _missing

ROOT = Path(__file__).resolve().parents[1]
DOCS = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))
#: Seconds one script or command may take: a first run may compile Numba's kernels (minutes).
TIMEOUT = 900

# -- what the test changes, and what it leaves out ----------------------------------------------

#: The counts a documented command is run with here, each at most this (an option the command
#: leaves out is added at this count: its default is larger). Nothing else of a command changes.
SMALLER_COUNTS: dict[str, dict[str, int]] = {
    "simulate": {"--deals": 40},
    "tournament": {"--deals": 20},
    "odds": {"--turns": 1},
    # A training run of a few seconds: fewer deals, tables and boards, the same method and seed.
    "train dmc": {
        "--deals": 300,
        "--tables": 16,
        "--round-deals": 64,
        "--eval-deals": 100,
        "--final-boards": 2,
        "--warm-start": 8,
    },
    "train ppo": {"--steps": 512, "--envs": 8, "--eval-deals": 100, "--final-boards": 2},
}

#: Counts made smaller only where the command gives them (leaving them out means none at all).
ONLY_WHERE_GIVEN = frozenset({"--warm-start"})

#: A script's arguments here, where its comment's are a long run; the same meaning, smaller.
SMALLER_SCRIPT_ARGS: dict[str, tuple[str, ...]] = {
    "breakdown.py": ("200", "2024"),  # deals, seed: 200 of the main run's 20,000 deals
}

#: The documented command that makes a script's input file, run first in the script's folder.
SCRIPT_INPUTS: dict[str, str] = {
    "odds_chart.py": "paiute odds --wild all --players 4 --turns 10 --json > odds.json",
}

#: Lines of shell blocks that are not the ``paiute`` command, by their start, and why they are
#: not run here.
NOT_RUN: dict[str, str] = {
    "python3 -m venv .venv": "makes a virtual environment and installs the package: CI's own setup",
    "pip install": "installs the package from the package index",
    "OMP_NUM_THREADS=1 python examples/": "an example's training run: tests/test_learned.py runs the "
    "example's --quick mode (tests/test_examples_clean.py too)",
    "OMP_NUM_THREADS=1 python benchmarks/": "a measurement of the learned player (CPU-minutes), not a "
    "check: benchmarks run outside the suite",
    ".venv/bin/python scripts/make_feed_model.py": "makes the guarded player's shipped models again "
    "(minutes): tests/test_make_feed_model.py runs the script",
    "OMP_NUM_THREADS=1 .venv/bin/python scripts/make_learned_model.py": "trains the learned player's "
    "shipped network again (CPU-minutes): tests/test_make_learned_model.py runs the script small, "
    ".ci/research runs it as written",
    "git show": "reads a script out of the project's history",
    "OMP_NUM_THREADS=1 python train_learned_engine.py": "the script `git show` takes from the "
    "history: an old training run of many CPU-minutes",
    "sudo ": "sets up a host as root (docs/hosting.md: packages, PostgreSQL, systemd, nginx): "
    "tests/server/test_hosting.py runs the same deploy/ files on loopback",
    "curl -sS https://games.example.net/": "asks a host that docs/hosting.md set up (a name of "
    "the reader's own): tests/server/test_hosting.py asks its loopback copy",
    "size = 7": "a formula (the encoding's size), not a command",
    "accuracy = ": "a formula (lichess's accuracy), not a command",
}

#: Commands that wait for a person, by subcommand or option, and why: each is run here as
#: ``paiute COMMAND --help`` instead (``play --list`` only lists, and is run as written).
INTERACTIVE: dict[str, str] = {
    "play": "a game at the terminal: it waits for keys",
    "learn": "the lesson at the terminal: it waits for keys",
    "--watch": "steps through a record at the terminal, a key a step",
    "serve": "a web server: it runs until stopped",
}

#: Exit statuses the docs give for a command, where it is not 0.
DOCUMENTED_STATUS: dict[str, int] = {
    # docs/command-line.md: a record without fair-deal proofs is not verified, exit 1.
    "paiute verify games.jsonl --match 1 --json": 1,
}

#: What a command needs beyond the engine (the sim extra), by its subcommand or option.
CLI_NEEDS: dict[str, tuple[tuple[str, str], ...]] = {
    "simulate": (("rich", "sim"),),
    "odds": (("rich", "sim"),),
    "tournament": (("rich", "sim"), ("openskill", "sim")),
    "--plot": (("matplotlib", "sim"),),
    "train": (("torch", "train"), ("numba", "train"), ("sb3_contrib", "train")),
}

#: What a script block needs beyond the engine, by the modules it imports: (module, extra).
SCRIPT_NEEDS: dict[str, tuple[tuple[str, str], ...]] = {
    "numpy": (("numpy", "batch"),),
    "paiute.envs.batch_sim": (("numpy", "rl"), ("numba", "rl")),
    "matplotlib": (("matplotlib", "sim"),),
    "open_spiel": (("pyspiel", "openspiel"),),
    # docs/vector-env.md's MaskablePPO example (the train extra's sb3-contrib).
    "sb3_contrib": (("sb3_contrib", "train"), ("torch", "train")),
}


def require(needs: Iterable[tuple[str, str]]) -> None:
    """Skip when a module of an extra is not installed (fail where PAIUTE_REQUIRE_SERVICES is set)."""
    for module, extra in needs:
        if importlib.util.find_spec(module) is None:
            _missing(f"{module} is not installed: pip install 'paiute[{extra}]'")


def environment(folder: Path) -> dict[str, str]:
    """The commands' environment: saved matches kept in ``folder``, charts drawn off screen."""
    return {
        **os.environ,
        "PAIUTE_DATA_DIR": str(folder / "data"),
        "MPLBACKEND": "Agg",
        "OMP_NUM_THREADS": "1",
    }


# -- the shell blocks --------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One command of a shell block: continuations joined, a loop's variable set."""

    number: int  # its line in the document, from 1
    text: str
    shown: tuple[str, ...] = ()  # the output a console block shows under it


@dataclass(frozen=True)
class ShellBlock:
    doc: str
    number: int
    lines: tuple[Line, ...]

    @property
    def name(self) -> str:
        return f"{self.doc}:{self.number}"


FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+)\s*(?P<lang>[\w-]*)")
CONSOLE = {"console", "shell-session"}
SHELL = {"bash", "sh", "shell"}
LOOP = re.compile(r"for (\w+) in ([^;]+); do\s*")


def console_lines(first: int, body: list[str]) -> list[Line]:
    """The ``$`` lines of a console block, each with the output lines under it."""
    starts = [offset for offset, text in enumerate(body) if text.startswith("$ ")]
    return [
        Line(
            first + start,
            body[start][2:].strip(),
            tuple("\n".join(body[start + 1 : end]).rstrip().splitlines()),
        )
        for start, end in zip(starts, [*starts[1:], len(body)], strict=True)
    ]


def script_lines(first: int, body: list[str]) -> list[Line]:
    """The commands of a bash block: continuation lines joined, comment lines dropped, and
    each ``for NAME in WORDS; do ... done`` loop (nested ones on one line too) unrolled."""
    joined: list[Line] = []
    pending, start = "", first
    for offset, raw in enumerate(body):
        if not pending:
            start = first + offset
        if raw.rstrip().endswith("\\"):
            pending += raw.strip()[:-1].strip() + " "
            continue
        text = pending + raw.strip()
        pending = ""
        if text and not text.startswith("#"):
            joined.append(Line(start, text))
    lines: list[Line] = []
    index = 0
    while index < len(joined):
        header = joined[index]
        loops, rest = [], header.text
        while match := LOOP.match(rest):
            loops.append((match[1], match[2].split()))
            rest = rest[match.end() :]
        index += 1
        if not loops:
            lines.append(header)
            continue
        body_lines = []
        while joined[index].text.replace(";", " ").split() != ["done"] * len(loops):
            body_lines.append(joined[index])
            index += 1
        index += 1
        for values in itertools.product(*(words for _, words in loops)):
            for line in body_lines:
                text = line.text
                for (variable, _), value in zip(loops, values, strict=True):
                    text = text.replace(f"${variable}", value)
                lines.append(Line(line.number, text))
    return lines


def shell_blocks(path: Path) -> list[ShellBlock]:
    """The console, bash and sh blocks of a Markdown file, and its indented code blocks."""
    doc = str(path.relative_to(ROOT))
    text = path.read_text(encoding="utf-8").splitlines()
    blocks: list[ShellBlock] = []
    index, after_blank = 0, True
    while index < len(text):
        fence = FENCE.match(text[index])
        if fence:
            end = index + 1
            while text[end].strip() != fence["fence"]:
                end += 1
            body = [line[len(fence["indent"]) :] for line in text[index + 1 : end]]
            if fence["lang"] in CONSOLE:
                blocks.append(ShellBlock(doc, index + 1, tuple(console_lines(index + 2, body))))
            elif fence["lang"] in SHELL:
                blocks.append(ShellBlock(doc, index + 1, tuple(script_lines(index + 2, body))))
            index, after_blank = end + 1, False
        elif after_blank and text[index].startswith("    ") and text[index].strip():
            start = index
            while index < len(text) and (text[index].startswith("    ") or not text[index].strip()):
                index += 1
            body = [line[4:] for line in text[start:index]]
            blocks.append(ShellBlock(doc, start + 1, tuple(script_lines(start + 1, body))))
            after_blank = True
        else:
            after_blank = not text[index].strip()
            index += 1
    return blocks


BLOCKS = [block for path in DOCS for block in shell_blocks(path)]


def words_of(line: Line) -> list[str]:
    return shlex.split(line.text, comments=True)


def command(line: Line) -> str:
    """The line's words without its comment, as the tables name them."""
    return " ".join(words_of(line))


ASSIGNMENT = re.compile(r"[A-Z_]+=.*")


def is_paiute(words: list[str]) -> bool:
    """Whether a command is ``paiute``, after any ``NAME=value`` settings."""
    rest = list(itertools.dropwhile(ASSIGNMENT.fullmatch, words))
    return bool(rest) and rest[0] in ("paiute", ".venv/bin/paiute")


def is_mkdir(words: list[str]) -> bool:
    """``mkdir -p DIR``: the one other command the blocks need, done by the test itself."""
    return words[:2] == ["mkdir", "-p"]


def not_run_reason(line: Line) -> str | None:
    return next((why for start, why in NOT_RUN.items() if line.text.startswith(start)), None)


# -- the data a block works on ------------------------------------------------------------------


@pytest.fixture(scope="module")
def records() -> dict[str, str]:
    """``match.json``: one deal of three greedy bots; ``games.jsonl``: four such matches."""
    from paiute import Match, Record, RuleSet, SeededChance
    from paiute.players import make_player, play_deal

    def one(seed: int) -> str:
        match = Match(RuleSet(), ["Ana", "Bo", "Cy"], chance=SeededChance(seed))
        play_deal(match, [make_player("greedy", seed=seat) for seat in range(3)])
        return Record.from_match(match).dumps()

    return {"match.json": one(7) + "\n", "games.jsonl": "".join(one(seed) + "\n" for seed in range(4))}


def smaller(subcommand: str, arguments: list[str]) -> list[str]:
    """``arguments`` with the counts of SMALLER_COUNTS, and nothing else changed."""
    arguments = list(arguments)
    method = f"{subcommand} {arguments[0]}" if arguments else subcommand
    for option, most in SMALLER_COUNTS.get(method, SMALLER_COUNTS.get(subcommand, {})).items():
        if option in arguments:
            at = arguments.index(option) + 1
            arguments[at] = str(min(int(arguments[at]), most))
        elif option not in ONLY_WHERE_GIVEN:
            arguments += [option, str(most)]
    return arguments


def interactive(subcommand: str, arguments: list[str]) -> bool:
    """Whether a command waits for a person (see INTERACTIVE)."""
    if subcommand == "play" and "--list" in arguments:
        return False
    return any(word in INTERACTIVE for word in (subcommand, *arguments))


def parse_json(text: str) -> None:
    """Fail unless ``text`` is one JSON document or JSON lines."""
    try:
        json.loads(text)
    except json.JSONDecodeError:
        for line in text.splitlines():
            json.loads(line)


def run_paiute(line: Line, folder: Path) -> None:
    """Run one ``paiute`` line in ``folder`` and check its status and its output."""
    words = words_of(line)
    env = environment(folder)
    while ASSIGNMENT.fullmatch(words[0]):
        name, value = words.pop(0).split("=", 1)
        env[name] = value
    pipe: list[str] = []
    if "|" in words:
        words, pipe = words[: words.index("|")], words[words.index("|") + 1 :]
    into = None
    if ">" in words:
        into = words[words.index(">") + 1]
        words = words[: words.index(">")]
    global_options = words[1:3] if words[1] == "--lang" else []
    subcommand, arguments = words[len(global_options) + 1], words[len(global_options) + 2 :]
    require(need for key in (subcommand, *arguments) for need in CLI_NEEDS.get(key, ()))
    # A command that waits for a person is checked through its --help (INTERACTIVE).
    arguments = ["--help"] if interactive(subcommand, arguments) else smaller(subcommand, arguments)
    argv = [sys.executable, "-m", "paiute", *global_options, subcommand, *arguments]
    done = subprocess.run(
        argv, cwd=folder, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False
    )
    where = f"{line.text!r} (run as {shlex.join(argv[2:])}):\n{done.stderr[-3000:]}"
    assert done.returncode == DOCUMENTED_STATUS.get(command(line), 0), where
    assert done.stdout.strip(), f"no output from {where}"
    if line.shown:
        assert done.stdout.rstrip("\n").splitlines() == list(line.shown), where
    if pipe or "--json" in arguments:
        parse_json(done.stdout)
    if into is not None:
        (folder / into).write_text(done.stdout, encoding="utf-8")


def run_block(block: ShellBlock, folder: Path, records: dict[str, str]) -> None:
    for name, text in {**records, **modules_of(block.doc)}.items():
        (folder / name).write_text(text, encoding="utf-8")
    for line in block.lines:
        words = words_of(line)
        if is_mkdir(words):
            for name in words[2:]:
                (folder / name).mkdir(parents=True, exist_ok=True)
        elif is_paiute(words):
            run_paiute(line, folder)


@pytest.mark.parametrize(
    "block",
    [
        pytest.param(block, id=block.name)
        for block in BLOCKS
        if any(is_paiute(words_of(line)) for line in block.lines)
    ],
)
def test_shell_block_runs_as_written(block: ShellBlock, records: dict[str, str], tmp_path: Path) -> None:
    run_block(block, tmp_path, records)


def test_every_line_not_run_is_listed_with_its_reason() -> None:
    left = [
        f"{block.doc}:{line.number}: {line.text}"
        for block in BLOCKS
        for line in block.lines
        if not is_paiute(words_of(line)) and not is_mkdir(words_of(line)) and not_run_reason(line) is None
    ]
    assert not left, "neither run here nor in NOT_RUN with a reason:\n" + "\n".join(left)
    texts = [line.text for block in BLOCKS for line in block.lines]
    stale = [start for start in NOT_RUN if not any(text.startswith(start) for text in texts)]
    assert not stale, f"NOT_RUN entries that no doc has any more: {stale}"


def test_the_tables_name_documented_commands() -> None:
    texts = {command(line) for block in BLOCKS for line in block.lines}
    named = [*DOCUMENTED_STATUS, *SCRIPT_INPUTS.values()]
    assert [text for text in named if text not in texts] == []


def test_interactive_commands_are_recognised() -> None:
    assert interactive("play", [])
    assert interactive("play", ["--resume", "ID"])
    assert not interactive("play", ["--list"])
    assert interactive("replay", ["match.json", "--watch"])
    assert not interactive("replay", ["match.json", "--json"])


def test_counts_are_only_ever_made_smaller() -> None:
    assert smaller("simulate", ["--deals", "20000", "--seed", "2024"]) == ["--deals", "40", "--seed", "2024"]
    assert smaller("simulate", ["--deals", "10"]) == ["--deals", "10"]
    assert smaller("odds", ["--wild", "all"]) == ["--wild", "all", "--turns", "1"]
    assert smaller("review", ["match.json", "--seat", "1"]) == ["match.json", "--seat", "1"]


def test_bash_loops_and_continuations_are_unrolled() -> None:
    body = ["for opt in a b; do", "  paiute simulate \\", "      --compare $opt", "done", "paiute odds"]
    assert [(line.number, line.text) for line in script_lines(10, body)] == [
        (11, "paiute simulate --compare a"),
        (11, "paiute simulate --compare b"),
        (14, "paiute odds"),
    ]


# -- the Python blocks ----------------------------------------------------------------------------

EXAMPLES = [example for example in find_examples(*DOCS) if example.prefix == "python"]


def example_id(example: CodeExample) -> str:
    return f"{example.path.relative_to(ROOT)}:{example.start_line}"


def test_doctests_are_in_pycon_fences() -> None:
    assert [example_id(example) for example in EXAMPLES if ">>>" in example.source] == []
    assert "--doctest-glob=*.md" in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def script_command(example: CodeExample) -> tuple[str, tuple[str, ...]]:
    """The file name and arguments the block's first comment gives
    (``# .venv/bin/python NAME ARGS...  (remarks)``), else a name of its own and none."""
    first = example.source.splitlines()[0].split()
    if first[:2] == ["#", ".venv/bin/python"]:
        arguments = tuple(itertools.takewhile(lambda word: not word.startswith("("), first[3:]))
        return first[2], arguments
    if module := MODULE_COMMENT.match(example.source):
        return module[1], ()
    return f"{example.path.stem.replace('-', '_')}_{example.start_line}.py", ()


#: The first line of a block that is a module the document's commands import.
MODULE_COMMENT = re.compile(r"# (\w+\.py)(?:\s|$)")


def modules_of(doc: str) -> dict[str, str]:
    """The module blocks of ``doc`` (README.md, docs/NAME.md), by their file names."""
    return {
        module[1]: example.source
        for example in EXAMPLES
        if str(example.path.relative_to(ROOT)) == doc and (module := MODULE_COMMENT.match(example.source))
    }


def imported_modules(source: str) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module)
    return modules


@pytest.mark.parametrize("example", [pytest.param(e, id=example_id(e)) for e in EXAMPLES])
def test_python_block_runs_as_a_script(example: CodeExample, tmp_path: Path) -> None:
    modules = imported_modules(example.source)
    require(
        need
        for key, needs in SCRIPT_NEEDS.items()
        if any(module == key or module.startswith(key + ".") for module in modules)
        for need in needs
    )
    name, arguments = script_command(example)
    arguments = SMALLER_SCRIPT_ARGS.get(name, arguments)
    if name in SCRIPT_INPUTS:
        run_paiute(Line(0, SCRIPT_INPUTS[name]), tmp_path)
    for argument in arguments:  # an output path's folders, as in the repository
        if "/" in argument:
            (tmp_path / argument).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / name).write_text(example.source, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, name, *arguments],
        cwd=tmp_path,
        env=environment(tmp_path),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, (
        f"{example_id(example)} as {name} {' '.join(arguments)}:\n{done.stderr[-3000:]}"
    )


def test_a_module_block_is_saved_beside_its_documents_commands(tmp_path: Path) -> None:
    modules = modules_of("docs/agents.md")
    assert list(modules) == ["my_agent.py"]
    block = ShellBlock("docs/agents.md", 0, ())
    run_block(block, tmp_path, {})
    assert (tmp_path / "my_agent.py").read_text(encoding="utf-8") == modules["my_agent.py"]
