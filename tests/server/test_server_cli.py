"""``paiute serve``: help, one-line errors, and a real server process."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest
from server_helpers import kill_group, reaped_popen

from paiute.cli.main import main


def test_serve_help_has_examples(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["serve", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "examples:" in out
    assert "--db URL" in out
    assert "postgresql://" in out


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("mysql://x/y", "unsupported database"),
        ("::::", "bad database URL"),
        ("sqlite:////no/such/dir/x.db", "cannot use"),
    ],
)
def test_serve_bad_database_is_one_line(url: str, words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--db", url]) == 2
    err = capsys.readouterr().err
    assert words in err
    assert err.count("\n") == 1
    assert "Traceback" not in err


@pytest.mark.parametrize("value", ["lots", "0", "99999999999", ""])
def test_serve_bad_review_playouts_is_one_line_before_it_starts(
    value: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # It was int() at import: a ValueError traceback, or a server whose reviews all failed.
    monkeypatch.setenv("PAIUTE_REVIEW_PLAYOUTS", value)
    assert main(["serve", "--db", f"sqlite:///{tmp_path / 'x.db'}"]) == 2
    err = capsys.readouterr().err
    assert f"PAIUTE_REVIEW_PLAYOUTS={value!r}" in err
    assert "from 1 to 1000000" in err
    assert err.count("\n") == 1
    assert "Traceback" not in err
    assert not (tmp_path / "x.db").exists()  # refused before anything was made


def test_serve_runs_as_a_process_and_prints_its_address(tmp_path: Path) -> None:
    command = [
        sys.executable,
        "-m",
        "paiute",
        "serve",
        "--port",
        "0",
        "--bot-delay",
        "0",
        "--data-dir",
        str(tmp_path),
    ]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = reaped_popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        lines: list[str] = []
        reader = threading.Thread(
            target=lambda: lines.append(process.stdout.readline() if process.stdout else "")
        )
        reader.start()
        reader.join(timeout=60)
        assert lines, "the server printed nothing"
        line = lines[0]
        assert line.startswith("paiute serve: serving at http://127.0.0.1:"), line
        address = line.split()[4]
        health = httpx.get(address + "api/health", timeout=10).json()
        assert health["ok"] is True
        assert health["deals"] == "secure"  # R10.1: without --insecure-deal-seed, always
        created = httpx.post(address + "api/tables", json={"player_name": "Ana", "seats": 2}, timeout=10)
        assert created.status_code == 201
    finally:
        process.terminate()
        process.wait(timeout=30)
        kill_group(process)
    assert (tmp_path / "server.sqlite3").exists()
