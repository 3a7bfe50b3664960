"""The examples and scripts write only into the working directory unless asked explicitly.

Each runs (its ``--quick`` mode, or its default, which for the golden-file scripts only
compares) in a copy of the working tree committed to a fresh git repository, with a new empty
working directory, and must leave that copy's ``git status --porcelain`` empty: the package's
data (``src/paiute/players/data``), the golden files (``tests/data``, ``tests/playthroughs``)
and the docs' images are written only with ``--write-shipped`` / ``--write``, which every
``--help`` names.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import _missing

ROOT = Path(__file__).resolve().parents[1]
#: Seconds one command may take (the slowest quick run takes a few).
TIMEOUT = 300


def copy_working_tree(destination: Path) -> None:
    """Copy every file git would commit here (tracked, and untracked but not ignored) into
    ``destination`` and commit it there, so that its ``git status`` starts empty. Numba's
    cached kernels come too: they are keyed by their source file's time and size, which
    ``copy2`` keeps, so the copy loads them instead of compiling them again."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout
    names = [os.fsdecode(name) for name in listed.split(b"\0") if name]
    kernels = [path.relative_to(ROOT) for path in (ROOT / "src").rglob("__pycache__/*.nb[ic]")]
    for name in [*names, *kernels]:
        source = ROOT / name
        if source.is_file():  # a tracked file deleted in the working tree is left out
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    git(destination, "init", "-q")
    git(destination, "add", "-A")
    git(destination, "-c", "user.name=test", "-c", "user.email=test@example.invalid", "commit", "-qm", "copy")


def git(repository: Path, *arguments: str) -> str:
    command = ["git", "-c", "commit.gpgsign=false", *arguments]
    return subprocess.run(command, cwd=repository, capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A committed copy of the working tree (module-wide: each test must leave it clean)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and a git checkout of the repository")
    copy = tmp_path_factory.mktemp("checkout")
    copy_working_tree(copy)
    return copy


def run(checkout: Path, cwd: Path, script: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    """``python <checkout>/<script> <arguments>`` in ``cwd``, importing the copy's package."""
    env = {**os.environ, "PYTHONPATH": str(checkout / "src"), "OMP_NUM_THREADS": "1", "MPLBACKEND": "Agg"}
    return subprocess.run(
        [sys.executable, str(checkout / script), *arguments],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


def written_times(checkout: Path) -> dict[Path, int]:
    """When each file of the checkout was last written (git's own files and Python's and
    Numba's caches aside): a file written again with the same bytes shows here, not in git."""
    return {
        path: path.stat().st_mtime_ns
        for path in checkout.rglob("*")
        if path.is_file()
        and ".git" not in path.relative_to(checkout).parts[:1]
        and "__pycache__" not in path.parts
    }


def assert_clean(checkout: Path, result: subprocess.CompletedProcess[str], before: dict[Path, int]) -> None:
    rewritten = sorted(
        str(path.relative_to(checkout))
        for path, time in written_times(checkout).items()
        if before.get(path) != time
    )
    assert not rewritten, f"the run wrote {rewritten} in the checkout"
    changed = git(checkout, "status", "--porcelain")
    assert not changed, (
        f"the run changed the checkout:\n{changed}\n{result.stdout[-2000:]}{result.stderr[-2000:]}"
    )


#: (script, arguments, files it must write in the working directory); each writes nothing else.
RUNS = [
    ("examples/train_learned.py", ["--quick"], ["learned.npz", "learned_curve.json"]),
    ("examples/train_policy.py", ["--quick"], ["train_policy.png"]),
    ("examples/openspiel_bots.py", ["--quick"], []),
    ("examples/openspiel_ismcts.py", ["--quick"], []),
    ("scripts/make_golden_digest.py", [], []),
    ("scripts/make_openspiel_playthrough.py", [], []),
    ("scripts/make_playout_golden.py", [], []),
    ("scripts/make_playthroughs.py", [], []),
    (
        "scripts/make_feed_model.py",
        ["--preset", "pagat", "--seats", "2", "--deals", "4", "--test", "2", "--workers", "1"],
        ["feed.json"],
    ),
    # A browser and a server for a minute, or the package's catalogues rewritten (that script's
    # job): only their help here.
    ("scripts/make_screenshots.py", ["--help"], []),
    ("scripts/update_catalogues.py", ["--help"], []),
]


@pytest.mark.parametrize(("script", "arguments", "outputs"), RUNS, ids=[run[0] for run in RUNS])
def test_a_default_run_writes_only_into_the_working_directory(
    checkout: Path, tmp_path: Path, script: str, arguments: list[str], outputs: list[str]
) -> None:
    if script == "examples/train_policy.py" and importlib.util.find_spec("torch") is None:
        _missing("examples/train_policy.py needs torch (the train extra): pip install 'paiute[train]'")
    before = written_times(checkout)
    result = run(checkout, tmp_path, script, *arguments)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert_clean(checkout, result, before)
    assert sorted(path.name for path in tmp_path.iterdir() if path.name in outputs) == sorted(outputs)


#: (script, the flag its --help must name for writing into the repository).
WRITERS = [
    ("examples/train_learned.py", "--write-shipped"),
    ("scripts/make_golden_digest.py", "--write"),
    ("scripts/make_openspiel_playthrough.py", "--write"),
    ("scripts/make_playout_golden.py", "--write"),
    ("scripts/make_playthroughs.py", "--write"),
    ("scripts/make_screenshots.py", "--write"),
    ("scripts/make_feed_model.py", "--write-shipped"),
    ("scripts/update_catalogues.py", "src/paiute/locale"),
]


@pytest.mark.parametrize(("script", "flag"), WRITERS, ids=[writer[0] for writer in WRITERS])
def test_the_help_names_what_writes_into_the_repository(
    checkout: Path, tmp_path: Path, script: str, flag: str
) -> None:
    result = run(checkout, tmp_path, script, "--help")
    assert result.returncode == 0, result.stderr[-2000:]
    assert flag in result.stdout


def test_a_golden_file_that_differs_is_reported_not_rewritten(tmp_path: Path) -> None:
    """The golden-file scripts compare by default: a golden file that no longer matches makes
    them exit 1 with the difference, and stays as it was."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and a git checkout of the repository")
    copy, cwd = tmp_path / "checkout", tmp_path / "cwd"
    cwd.mkdir()
    copy_working_tree(copy)
    digest = copy / "tests" / "data" / "golden_evaluator_order.txt"
    digest.write_text(digest.read_text(encoding="utf-8").replace("sha256 ", "sha256 0", 1), encoding="utf-8")
    playthrough = copy / "tests" / "playthroughs" / "pagat_2p_seed9.txt"
    playthrough.write_text(playthrough.read_text(encoding="utf-8") + "an extra line\n", encoding="utf-8")
    git(copy, "-c", "user.name=test", "-c", "user.email=test@example.invalid", "commit", "-qam", "stale")
    for script, names in [
        ("scripts/make_golden_digest.py", ["golden_evaluator_order.txt", "golden digest differs"]),
        ("scripts/make_playthroughs.py", ["pagat_2p_seed9.txt", "-an extra line"]),
    ]:
        before = written_times(copy)
        result = run(copy, cwd, script)
        assert result.returncode == 1, result.stdout[-2000:] + result.stderr[-2000:]
        assert all(name in result.stdout for name in names), result.stdout[-2000:]
        assert_clean(copy, result, before)
    assert not list(cwd.iterdir())
