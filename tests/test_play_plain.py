"""``paiute play --plain``: the line-based game, end to end and command by command (R4, R5.7,
R6.4, R9)."""

from __future__ import annotations

import dataclasses
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO, cast

import pytest

from helpers import make_deck
from paiute import Action, Card, Match, Phase, RecordedChance, RuleSet
from paiute.cli.main import main
from paiute.record import Record, load
from paiute.showdown import showdown
from paiute.tui.describe import visible_cards
from paiute.tui.help import PLAIN_COMMANDS
from paiute.tui.plain import PlainUI, parse_command
from paiute.tui.session import PlayConfig, SeatSpec, Session

ROOT = Path(__file__).resolve().parents[1]
CARD_TEXT = re.compile(r"(?<![0-9A-Za-z])([2-9TJQKA][cdhs])(?![0-9A-Za-z])")


def transcript_cards(text: str) -> set[Card]:
    """Every card named in a plain transcript (canonical text, R1.4), help text left out."""
    text = text.replace(PLAIN_COMMANDS.rstrip(), "")
    return {Card.parse(match) for match in CARD_TEXT.findall(text)}


def seen_by(record: Record, seat: int, *, reveal: bool = True) -> set[Card]:
    """Every card ``seat`` was shown during the record's deals (R9), step by step, and with
    ``reveal`` every hand once a deal is over (R9.3)."""
    match = Match(
        record.rules,
        record.players,
        balances=record.balances,
        pot=record.pot,
        chance=RecordedChance(()),
        dealer=record.deals[0].dealer,
    )
    seen: set[Card] = set()
    for deal_record in record.deals:
        deal = match.start_deal(deal_record.deck, chance=RecordedChance(deal_record.rebuilds))
        seen |= visible_cards(deal.observation(seat))
        for action in deal_record.actions:
            match.apply(action)
            seen |= visible_cards(deal.observation(seat))
        if reveal and deal.is_over:  # R9.3: once the deal is over every hand may be shown
            seen |= showdown(deal).cards
    return seen


def only_record(directory: Path) -> Path:
    (path,) = [p for p in (directory / "matches").glob("*.json") if not p.name.endswith(".play.json")]
    return path


SCRIPT = ["c", "s", "c", "1"]


# -- the installed command over pipes ------------------------------------------------------


def test_plain_end_to_end_subprocess_transcript(tmp_path: Path) -> None:
    commands = ["?", "d", "x Ah", *SCRIPT * 40, "p", "h", "q"]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "paiute",
            "play",
            "--plain",
            "--seed",
            "1",
            "--players",
            "2",
            "--bots",
            "random",
            "--hint",
            "2",
            "--data-dir",
            str(tmp_path),
        ],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        check=False,
        env=env,
        timeout=60,
    )
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "=== Deal 1 ===" in out
    assert "Your hand: 1:" in out
    assert "COMMANDS" in out  # ?
    assert "Not allowed: R6.1" in out  # c before drawing
    assert "You drew from the stock: " in out
    assert "Hint: " in out
    assert (
        "Chips you expect to win or lose this deal with each move, after your stake (0 is break-even), with a 95% interval:"
        in out
    )
    assert "Discard pile, bottom to top:" in out
    assert "You left the match" in out
    path = only_record(tmp_path)
    assert f"Saved to {path}" in out
    record = load(path)
    record.replay()  # a valid paiute-record/1
    assert record.players == ("You", "Random")
    # R9: every card in the transcript is one the human seat was shown.
    named = transcript_cards(out)
    seen = seen_by(record, 0)
    assert named, "the transcript names cards"
    assert named <= seen, f"R9: the transcript shows unseen cards {sorted(map(str, named - seen))}"
    # Cards stayed hidden while the first deal lasted: the check is not vacuous.
    assert len(seen_by(dataclasses.replace(record, deals=record.deals[:1]), 0, reveal=False)) < 52
    # The same seed deals the same first deck (R10.1: a seeded shuffle).
    again = subprocess.run(
        [
            sys.executable,
            "-m",
            "paiute",
            "play",
            "--plain",
            "--seed",
            "1",
            "--players",
            "2",
            "--bots",
            "random",
            "--no-save",
        ],
        input="q\n",
        capture_output=True,
        text=True,
        check=False,
        env=env,
        timeout=60,
    )
    first_hand = re.search(r"Your hand: .*", out)
    assert first_hand is not None
    assert first_hand.group(0) in again.stdout


def test_play_without_a_terminal_suggests_plain() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    result = subprocess.run(
        [sys.executable, "-m", "paiute", "play", "--no-save"],
        input="",
        capture_output=True,
        text=True,
        check=False,
        env=env,
        timeout=60,
    )
    assert result.returncode == 2
    assert "not a terminal" in result.stderr
    assert "--plain" in result.stderr


# -- in-process runs -----------------------------------------------------------------------


def run_cli(capsys: pytest.CaptureFixture[str], argv: list[str], lines: list[str]) -> tuple[int, str]:
    sys.stdin = io.StringIO("".join(line + "\n" for line in lines))
    try:
        status = main(argv)
    finally:
        sys.stdin = sys.__stdin__
    return status, capsys.readouterr().out


class Scripted(io.TextIOBase):
    """Input whose next line is computed from the session when it is asked for."""

    def __init__(self, answer: Callable[[], str | None]) -> None:
        self.answer = answer

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        line = self.answer()
        return "" if line is None else line + "\n"


def stacked_session(
    dealer: int, hands: dict[int, str | Sequence[Card]], *, upcard: str, stock: str
) -> Session:
    rules = RuleSet()
    config = PlayConfig(
        rules,
        (SeatSpec("You"), SeatSpec("Greedy", "greedy"), SeatSpec("Random", "random")),
        seed=3,
        hint=2,
    )
    match = Match(rules, config.names, dealer=dealer)
    session = Session(config, match=match)
    match.start_deal(make_deck(3, dealer, hands, upcard=upcard, stock=stock))
    return session


def test_parse_commands() -> None:
    session = stacked_session(2, {0: "3d 3h 3s 7d 9c"}, upcard="3c", stock="7c")
    obs = session.observation(0)
    assert parse_command("s", obs).action is Action.parse("draw stock")
    assert parse_command(" D ", obs).action is Action.parse("draw discard")
    assert parse_command("x 9c", obs).action is Action.parse("discard 9c")
    assert parse_command("x 10h", obs).action is Action.parse("discard Th")
    assert parse_command("c 9c", obs).action is Action.parse("call 9c")
    assert parse_command("c6", obs).action is Action.parse("call")
    assert parse_command("c", obs).meta == "call"
    assert parse_command("h", obs).meta == "hint"
    assert parse_command("q", obs).meta == "quit"
    # Numbers count the hand as shown: by rank, so 3d is card 1 here.
    assert parse_command("1", obs).action is Action.parse("discard 3d")
    assert "no card number 9" in (parse_command("9", obs).error or "")
    assert "'Zz'" in (parse_command("x Zz", obs).error or "")
    assert "unknown command" in (parse_command("fold", obs).error or "")


def test_r4_3_plain_refuses_discarding_the_taken_card() -> None:
    # Seat 1 (Greedy) opens; dealer 0 makes the human act last in the round.
    session = stacked_session(0, {0: "4c 8d Th Qs 2h"}, upcard="5c", stock="Kd")
    out = io.StringIO()
    state = {"step": 0}

    def answer() -> str | None:
        obs = session.observation(0)
        state["step"] += 1
        if state["step"] > 6 or not session.in_deal:
            return None
        if obs.phase is Phase.DRAW:
            return "d" if obs.discard_pile else "s"
        if obs.taken_card is not None and state["step"] < 4:
            return f"x {obs.taken_card}"
        return "1"

    PlainUI(session, cast(TextIO, Scripted(answer)), out).run()
    text = out.getvalue()
    assert "Not allowed: R4.3 the card taken from the discard pile may not be discarded this turn." in text
    assert "may not go back (R4.3)" in text


def test_r5_7_plain_explains_a_paiute_after_the_first_turn() -> None:
    session = stacked_session(2, {0: "Jc Jd 7h 7s 4c"}, upcard="2c", stock="9d Kh Qh 4d")
    for text in ("draw stock", "discard 9d", "draw stock", "discard Kh", "draw stock", "discard Qh"):
        session.apply(Action.parse(text))
    out = io.StringIO()
    PlainUI(session, io.StringIO("s\nc\nc6\n"), out).run()
    text = out.getvalue()
    assert "No call: Paiute, jacks/sevens/fours: not allowed, R5.7 a Paiute may be called only" in text
    assert "Not allowed: R5.7 a Paiute may be called only on the caller's first turn." in text


def test_r6_4_plain_explains_a_call_below_the_highest() -> None:
    session = stacked_session(0, {0: "Qc Qd Qh Qs 9c", 1: "2d 2h 2s Kc Kd"}, upcard="2c", stock="Kh 3c 9d")
    for text in ("draw stock", "call 2d", "draw stock", "discard 3c"):
        session.apply(Action.parse(text))
    out = io.StringIO()
    PlainUI(session, io.StringIO("s\nc6\nc\nx 9d\n\n"), out).run()
    text = out.getvalue()
    assert "Last round (R7.2): equal or beat Five of a Kind, kings (R6.4)." in text
    assert "Four/Two, queens over nines: not allowed, R6.4" in text
    assert "Not allowed: R6.4 Four/Two, queens over nines does not equal or beat the highest call" in text
    assert "Greedy called Five of a Kind, kings" in text
    assert "Winner: Greedy with Five of a Kind, kings." in text
    assert "Chips: You 99 (-1), Greedy 102 (+2), Random 99 (-1); pot 0." in text


def test_plain_call_best_and_chosen(capsys: pytest.CaptureFixture[str]) -> None:
    session = stacked_session(2, {0: "3d 3h 3s 7d 9c"}, upcard="3c", stock="7c")
    out = io.StringIO()
    PlainUI(session, io.StringIO("s\nc 7d\nq\n"), out).run()
    text = out.getvalue()
    assert (
        "You can call! Best: Five of a Kind, sevens: show 7c 7d 3d→7d 3h→7h 3s→7s, put down 9c  [c]" in text
    )
    assert "or Four/Two, nines over sevens: show 9c 3d→9d 3h→9h 3s→9s 7c 7d (all six cards)  [c6]" in text
    assert "You called Straight Flush, jack high: 7c 3d→8c 9c 3h→Tc 3s→Jc, put down 7d" in text


def test_resume_continues_the_same_match_reproducibly(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    commands = SCRIPT * 30
    common = ["play", "--plain", "--seed", "7", "--bots", "random,greedy", "--hint", "2"]
    # One match played straight through...
    status, _ = run_cli(capsys, [*common, "--data-dir", str(tmp_path / "a")], commands)
    assert status == 0
    straight = load(only_record(tmp_path / "a"))
    # ...and the same match interrupted (end of input saves and quits) and resumed.
    cut = 41
    status, out = run_cli(capsys, [*common, "--data-dir", str(tmp_path / "b")], commands[:cut])
    assert status == 0
    assert "Continue it with: paiute play --resume" in out
    interrupted = load(only_record(tmp_path / "b"))
    assert sum(len(deal.actions) for deal in interrupted.deals) < sum(
        len(deal.actions) for deal in straight.deals
    )
    status, out = run_cli(
        capsys, ["play", "--plain", "--resume", "--data-dir", str(tmp_path / "b")], commands[cut:]
    )
    assert status == 0
    assert "Resuming deal" in out
    resumed = load(only_record(tmp_path / "b"))
    assert resumed.dumps() == straight.dumps()
    meta = json.loads(
        only_record(tmp_path / "b").with_name(only_record(tmp_path / "b").stem + ".play.json").read_text()
    )
    assert meta["seed"] == 7
    assert [seat["bot"] for seat in meta["seats"]] == [None, "random", "greedy"]


def test_resume_without_an_unfinished_match_is_an_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status = main(["play", "--plain", "--resume", "--data-dir", str(tmp_path)])
    assert status == 2
    assert "no unfinished match" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "nobody"], "unknown player 'nobody'"),
        (["--players", "9"], "R2.1"),
        (["--players", "3", "--bots", "greedy,random,mc"], "only 2 seats"),
        (["--option", "stake=many"], "stake"),
    ],
)
def test_play_bad_arguments_are_refused(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status = main(["play", "--plain", "--no-save", *argv])
    assert status == 2
    assert message in capsys.readouterr().err


def test_hotseat_plain_hides_hands_between_people(capsys: pytest.CaptureFixture[str]) -> None:
    lines = ["", "s", "1", "", "s", "1", "q"]
    status, out = run_cli(
        capsys,
        [
            "play",
            "--plain",
            "--seed",
            "2",
            "--hotseat",
            "--name",
            "Ana",
            "--name",
            "Bo",
            "--bots",
            "greedy",
            "--no-save",
        ],
        lines,
    )
    assert status == 0
    assert "--- Pass to Ana" in out or "--- Pass to Bo" in out
    # The spectator narration never tells one person the other's stock draw (R9.2).
    assert "drew from the stock: " not in out


def test_play_arguments_make_the_table() -> None:
    from paiute.cli.main import build_parser
    from paiute.cli.play_command import build_config

    parser = build_parser()
    config = build_config(
        parser.parse_args(["play", "--bots", "greedy,greedy,random", "--stake", "5", "--seed", "4"])
    )
    assert config.names == ("You", "Greedy 1", "Greedy 2", "Random")
    assert [seat.bot for seat in config.seats] == [None, "greedy", "greedy", "random"]
    assert config.rules.stake == 5
    assert config.seed == 4
    config = build_config(parser.parse_args(["play", "--players", "5", "--bots", "ismcts:ms=50,random"]))
    assert [seat.bot for seat in config.seats] == [None, "ismcts:ms=50", "random", "ismcts:ms=50", "random"]
    config = build_config(
        parser.parse_args(["play", "--hotseat", "--name", "Ana", "--name", "Bo", "--preset", "gamerules"])
    )
    assert config.names == ("Ana", "Bo", "Medium")  # the default level (medium)
    assert config.humans == (0, 1)
    assert config.rules.open_discard  # R2.7 [gamerules]
    assert build_config(parser.parse_args(["play"])).names == ("You", "Medium 1", "Medium 2")  # level medium


def test_plain_on_a_terminal_wraps_long_lines_between_words_and_loses_no_word() -> None:
    # On a terminal (paiute play --plain passes its width) a long line, such as the hint's or
    # a refusal with its rule, breaks between words, not mid-word as the terminal would.
    def played(width: int | None) -> str:
        session = stacked_session(2, {0: "Jc Jd 7h 7s 4c"}, upcard="2c", stock="9d Kh Qh 4d")
        for text in ("draw stock", "discard 9d", "draw stock", "discard Kh", "draw stock", "discard Qh"):
            session.apply(Action.parse(text))
        out = io.StringIO()
        PlainUI(session, io.StringIO("s\nc\nc6\nh\n"), out, echo=True, width=width).run()
        return out.getvalue()

    whole, wrapped = played(None), played(40)
    assert any(len(line) > 40 for line in whole.splitlines())
    for line in wrapped.splitlines():
        assert len(line) <= 40 or " " not in line.strip(), line  # only a single long word runs over
    assert wrapped.split() == whole.split()  # the same words in the same order
    assert "Not allowed: R5.7 a Paiute may be called only" in " ".join(wrapped.split())
