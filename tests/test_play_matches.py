"""Saved matches of paiute play: no file for an aborted start, a word about unfinished
matches, --list and --resume ID (issue 15, point 10)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from paiute.cli.main import main
from paiute.tui.session import saved_matches


def run(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str = "") -> tuple[int, str, str]:
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8")
    try:
        status = main(list(argv))
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    finally:
        sys.stdin = sys.__stdin__
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def play(capsys: pytest.CaptureFixture[str], data: Path, commands: str, *extra: str) -> tuple[int, str, str]:
    argv = ["play", "--plain", "--seed", "3", "--players", "2", "--bots", "random", "--data-dir", str(data)]
    return run(capsys, *argv, *extra, stdin=commands)


def records(data: Path) -> list[Path]:
    return sorted(p for p in (data / "matches").glob("*.json") if not p.name.endswith(".play.json"))


def test_an_aborted_start_leaves_no_match_to_resume(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, _ = play(capsys, tmp_path, "q\n")  # quit before any turn of one's own
    assert status == 0
    assert records(tmp_path) == []
    assert "Saved to" not in out
    status, _, err = run(capsys, "play", "--plain", "--resume", "--data-dir", str(tmp_path))
    assert status == 2
    assert "no unfinished match to resume" in err


def test_an_unfinished_match_is_mentioned_listed_and_resumed_by_id(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, _, _ = play(capsys, tmp_path, "s\nx 1\nq\n")  # a turn played: saved
    assert status == 0
    (saved,) = records(tmp_path)
    (match,) = saved_matches(tmp_path / "matches")
    assert (match.path, match.finished, match.deals) == (saved, False, 1)

    # A new match says that one is waiting, and how to resume it.
    status, _, err = play(capsys, tmp_path, "q\n")
    assert status == 0
    assert f"note: 1 unfinished match is saved ({match.id}, " in err
    assert f"paiute play --resume {match.id}" in err

    status, out, _ = run(capsys, "play", "--list", "--data-dir", str(tmp_path))
    assert status == 0
    assert out.splitlines()[0].startswith(f"{match.id}  ")
    assert "unfinished" in out.splitlines()[0]
    status, out, _ = run(capsys, "play", "--list", "--json", "--data-dir", str(tmp_path))
    listed = json.loads(out)["matches"]
    assert [(item["id"], item["finished"], item["players"]) for item in listed] == [
        (match.id, False, ["You", "Random"])
    ]

    for wanted in (match.id, match.id[:9], match.id.rsplit("-", 1)[1]):
        status, out, err = run(
            capsys, "play", "--plain", "--resume", wanted, "--data-dir", str(tmp_path), stdin="q\n"
        )
        assert status == 0, (wanted, err)
        assert f"Continue it with: paiute play --resume {match.id}" in out


def test_resume_alone_refuses_to_guess_between_several(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for seed in ("3", "4"):
        argv = [
            "play",
            "--plain",
            "--seed",
            seed,
            "--players",
            "2",
            "--bots",
            "random",
            "--data-dir",
            str(tmp_path),
        ]
        assert run(capsys, *argv, stdin="s\nx 1\nq\n")[0] == 0
    assert len(records(tmp_path)) == 2
    status, out, err = run(capsys, "play", "--plain", "--resume", "--data-dir", str(tmp_path))
    assert (status, out) == (2, "")
    assert "2 unfinished matches" in err
    assert "paiute play --resume ID" in err
    status, _, err = run(capsys, "play", "--plain", "--resume", "nosuchid", "--data-dir", str(tmp_path))
    assert status == 2
    assert "no saved match 'nosuchid'" in err


def test_resume_alone_takes_the_only_unfinished_match_and_says_which(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert play(capsys, tmp_path, "s\nx 1\nq\n")[0] == 0
    (match,) = saved_matches(tmp_path / "matches")
    status, _, err = run(capsys, "play", "--plain", "--resume", "--data-dir", str(tmp_path), stdin="q\n")
    assert status == 0
    assert f"resuming match {match.id}, saved " in err


def test_list_with_no_matches(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, _ = run(capsys, "play", "--list", "--data-dir", str(tmp_path))
    assert status == 0
    assert out.startswith("no saved matches in ")


def test_plain_mode_says_a_new_match_is_saved_from_the_first_move(tmp_path: Path) -> None:
    # Issue 15 point 10: a new match is written at the first person's move, so plain mode does
    # not claim a file that does not exist yet.
    from paiute.rules import RuleSet
    from paiute.tui.plain import PlainUI
    from paiute.tui.session import PlayConfig, SeatSpec, Session

    config = PlayConfig(RuleSet(), (SeatSpec("You"), SeatSpec("Bot", "random")), seed=1)
    session = Session.new(config, tmp_path)
    out = io.StringIO()
    PlainUI(session, io.StringIO("q\n"), out).run()
    assert "from your first move" in out.getvalue()
    assert not list(tmp_path.rglob("*.json"))
