"""The shared conformance records (RECORD.md): every ``ok_*`` record replays to the expected
report, every ``bad_*`` record is refused with the expected error.

The answer under test is what ``paiute replay --json`` prints, computed here with the library:
``Replay.to_json()`` for a good record, ``{"ok": false, "error": ReplayError.to_json()}`` for a
broken rule and ``{"ok": false, "error": {"malformed": message}}`` for a malformed record.
How to compare is set by the README next to the vectors: cards as a set, winners ascending;
for a broken rule ``deal``, ``action``, ``text`` and ``rule`` (or one of
``also_acceptable_rules``), indexes from 0; for a malformed record only the ``malformed`` key
(its message is free). Messages count deals and moves from 1, as people do.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import CONFORMANCE
from paiute.errors import RecordError
from paiute.record import Record, ReplayError

RECORDS = CONFORMANCE / "records"
OK = sorted(RECORDS.glob("ok_*[0-9].json"))
BAD = sorted(RECORDS.glob("bad_*[0-9].json"))


def _expected(path: Path) -> dict[str, Any]:
    return json.loads(path.with_name(path.stem + ".expected.json").read_text(encoding="utf-8"))


def replay_json(text: bytes | str) -> dict[str, Any]:
    """What ``paiute replay --json`` prints for a record's text."""
    try:
        return Record.loads(text).replay().to_json()
    except ReplayError as error:
        return {"ok": False, "error": error.to_json()}
    except RecordError as error:
        return {"ok": False, "error": {"malformed": str(error)}}


def _caller(call: dict[str, Any]) -> dict[str, Any]:
    return {
        "seat": call["seat"],
        "cards": sorted(call["cards"]),  # a set of cards: order is free
        "value": call["value"],
        "first_turn": call["first_turn"],
    }


def _deal(report: dict[str, Any]) -> dict[str, Any]:
    return {
        "dead": report["dead"],
        "callers": [_caller(call) for call in report["callers"]],
        "winners": sorted(report["winners"]),
        "balances": report["balances"],
        "pot": report["pot"],
        "in_progress": report.get("in_progress", False),
    }


def test_the_vectors_are_there() -> None:
    assert len(OK) >= 10
    assert len(BAD) >= 10
    for path in OK + BAD:
        assert path.with_name(path.stem + ".expected.json").is_file(), path


@pytest.mark.parametrize("path", OK, ids=[p.stem for p in OK])
def test_ok_record_replays_to_the_expected_report(path: Path) -> None:
    expected = _expected(path)
    assert expected["ok"] is True
    got = replay_json(path.read_bytes())
    assert got.get("ok") is True, f"{path.name} was refused: {got.get('error')}"
    assert len(got["deals"]) == len(expected["deals"])
    for index, (mine, theirs) in enumerate(zip(got["deals"], expected["deals"], strict=True)):
        assert _deal(mine) == _deal(theirs), f"{path.name} deal {index}"


@pytest.mark.parametrize("path", OK, ids=[p.stem for p in OK])
def test_ok_record_rewrites_to_the_same_record(path: Path) -> None:
    """Reading a conformance record and writing it again loses nothing (RECORD.md)."""
    record = Record.loads(path.read_bytes())
    again = Record.loads(record.dumps())
    assert again == record
    assert again.dumps() == record.dumps()
    assert again.replay().to_json() == record.replay().to_json()


@pytest.mark.parametrize("path", BAD, ids=[p.stem for p in BAD])
def test_bad_record_is_refused_with_the_expected_error(path: Path) -> None:
    expected = _expected(path)
    assert expected["ok"] is False
    got = replay_json(path.read_bytes())
    assert got.get("ok") is False, f"{path.name} was accepted"
    error, want = got["error"], expected["error"]
    if "malformed" in want:
        assert "malformed" in error, f"{path.name}: expected a malformed record, got {error}"
        assert isinstance(error["malformed"], str)
        assert error["malformed"]
        return
    assert "malformed" not in error, f"{path.name}: expected a broken rule, got {error}"
    assert (error["deal"], error["action"], error["text"]) == (
        want["deal"],
        want["action"],
        want["text"],
    ), f"{path.name}: {error}"
    rules = {want["rule"], *expected.get("also_acceptable_rules", [])}
    assert error["rule"] in rules, f"{path.name}: rule {error['rule']}, expected one of {sorted(rules)}"
    # The vectors' indexes are the record's, from 0; the message counts as people do, from 1.
    where = f'deal {want["deal"] + 1}, move {want["action"] + 1} "{want["text"]}": '
    assert error["message"].startswith(where), f"{path.name}: {error['message']}"


@pytest.mark.parametrize("path", BAD, ids=[p.stem for p in BAD])
def test_bad_record_error_is_the_same_as_the_exception(path: Path) -> None:
    """The report names the exception's own fields: a broken rule is a ReplayError carrying
    the deal index, action index, text and rule; a malformed record a RecordError."""
    want = _expected(path)["error"]
    text = path.read_bytes()
    kind = RecordError if "malformed" in want else ReplayError
    with pytest.raises((RecordError, ReplayError)) as caught:
        Record.loads(text).replay()
    assert isinstance(caught.value, kind), f"{path.name}: {caught.value!r}"
    if isinstance(caught.value, ReplayError):
        assert caught.value.deal == want["deal"]
        assert caught.value.index == want["action"]
        assert caught.value.text == want["text"]
