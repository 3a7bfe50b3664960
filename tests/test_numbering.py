"""One numbering: deals and moves are counted from 1 wherever people read or type them (the
terminal game's review, ``paiute review``, ``replay`` and ``hint``), so a number read in one
is the number another takes; ``--json`` keeps the record's indexes, from 0."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

from paiute import Match, Record, RuleSet, SeededChance
from paiute.cli.main import main
from paiute.players import make_player, play_deal

PLAYOUTS = ["--playouts", "4", "--draw-playouts", "2"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def played(deals: int) -> Record:
    """``deals`` deals of three greedy bots, the first seat named as ``paiute play`` names a person."""
    match = Match(RuleSet(), ["You", "Bo", "Cy"], chance=SeededChance(7))
    for _ in range(deals):
        play_deal(match, [make_player("greedy", seed=seat) for seat in range(3)])
    return Record.from_match(match)


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("numbering") / "match.json"
    path.write_text(played(2).dumps(), encoding="utf-8")
    return path


def hint_json(capsys: pytest.CaptureFixture[str], path: Path, deal: str, move: str) -> dict[str, object]:
    status, out, err = run(capsys, "hint", str(path), "--deal", deal, "--move", move, *PLAYOUTS, "--json")
    assert status == 0, err
    data: dict[str, object] = json.loads(out)
    return data


def test_the_deal_and_move_of_the_terminal_review_are_the_position_paiute_hint_takes(
    capsys: pytest.CaptureFixture[str], record_file: Path
) -> None:
    pytest.importorskip("textual")
    from textual.app import App

    from paiute.i18n import translator
    from paiute.tui.describe import person_names
    from paiute.tui.review_screen import DealReview, ReviewScreen

    record = Record.loads(record_file.read_bytes())
    review = DealReview(record, 1, [0], playouts=4)  # the second deal, the person's seat
    assert review.wait(120)
    assert review.review is not None
    tr = translator("en")
    screen = ReviewScreen(review, person_names(record.players, tr), tr, you=0)

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(screen)

    app = Host()

    async def read() -> str:
        async with app.run_test(size=(110, 40)) as pilot:
            await pilot.pause(0.6)
            return "\n".join(strip.text for strip in app.screen._compositor.render_strips())

    text = asyncio.run(read())
    assert "Your moves" in text
    assert "seat 0" not in text
    deal = re.search(r"Review of deal (\d+)", text)
    move = re.search(r"move (\d+): (.*)", text)
    assert deal is not None
    assert move is not None
    assert deal[1] == "2"
    assert move[2].lstrip().startswith("you ")  # "you drew from the stock", "you discarded 8♣"
    data = hint_json(capsys, record_file, deal[1], move[1])
    decision = review.review.decisions[0]
    assert (data["deal"], data["action"], data["seat"]) == (decision.deal, decision.action, 0)
    status, out, _ = run(capsys, "hint", str(record_file), "--deal", deal[1], "--move", move[1], *PLAYOUTS)
    assert status == 0
    assert out.startswith(f"Deal {deal[1]}, before move {move[1]}: You (seat 0) to move")


def test_the_deal_and_move_of_paiute_review_are_the_position_paiute_hint_takes(
    capsys: pytest.CaptureFixture[str], record_file: Path
) -> None:
    args = ["review", str(record_file), "--seat", "1", "--deal", "2", "--playouts", "2", "--workers", "1"]
    status, table, _ = run(capsys, *args)
    assert status == 0
    rows = [line.split() for line in table.splitlines() if re.match(r"\s+\d+\s+\d+\s", line)]
    assert rows
    assert {row[0] for row in rows} == {"2"}
    status, out, _ = run(capsys, *args, "--json")
    decisions = [json.loads(line) for line in out.splitlines()[:-1]]
    assert len(decisions) == len(rows)
    for row, decision in list(zip(rows, decisions, strict=True))[:3]:
        # The table's numbers, from 1, are --json's indexes, from 0, plus one...
        assert (int(row[0]), int(row[1])) == (decision["deal"] + 1, decision["action"] + 1)
        # ... and paiute hint takes them as they are shown, for the same seat's position.
        data = hint_json(capsys, record_file, row[0], row[1])
        assert (data["deal"], data["action"], data["seat"]) == (decision["deal"], decision["action"], 1)


def test_paiute_replay_and_review_count_the_deals_alike(
    capsys: pytest.CaptureFixture[str], record_file: Path
) -> None:
    status, out, _ = run(capsys, "replay", str(record_file))
    assert status == 0
    assert re.findall(r"^deal (\d+):", out, re.MULTILINE) == ["1", "2"]
    status, out, _ = run(capsys, "review", str(record_file), "--deal", "2", "--playouts", "1", "--json")
    assert status == 0
    assert {json.loads(line)["deal"] for line in out.splitlines()[:-1]} == {1}


def test_hint_action_is_the_former_name_of_move_and_counts_from_1_too(
    capsys: pytest.CaptureFixture[str], record_file: Path
) -> None:
    by_move = hint_json(capsys, record_file, "2", "3")
    status, out, _ = run(
        capsys, "hint", str(record_file), "--deal", "2", "--action", "3", *PLAYOUTS, "--json"
    )
    assert status == 0
    assert json.loads(out) == by_move
    assert (by_move["deal"], by_move["action"]) == (1, 2)
    with pytest.raises(SystemExit):
        main(["hint", "--help"])
    help_text = capsys.readouterr().out
    assert "--move K" in help_text
    assert "from 1" in help_text
    assert "--action K, the option's former name" in help_text  # hidden from the usage, said in words


@pytest.mark.parametrize(
    ("deal", "move", "said"),
    [
        ("3", "1", "--deal 3: this record has 2 deals: choose 1 to 2"),
        ("0", "1", "--deal 0: this record has 2 deals: choose 1 to 2"),
        ("2", "0", "--move 0: choose a move of deal 2 from 1 to {moves}"),
        ("2", "{after}", "--move {after}: choose a move of deal 2 from 1 to {moves}"),
    ],
)
def test_a_number_outside_the_record_is_one_line_naming_the_ones_there(
    capsys: pytest.CaptureFixture[str], record_file: Path, deal: str, move: str, said: str
) -> None:
    moves = len(Record.loads(record_file.read_bytes()).deals[1].actions)  # a finished deal
    move = move.format(after=moves + 1)
    status, out, err = run(capsys, "hint", str(record_file), "--deal", deal, "--move", move)
    assert (status, out) == (2, "")
    assert err == "paiute hint: error: " + said.format(moves=moves, after=moves + 1) + "\n"


def test_a_deal_in_progress_offers_the_move_it_waits_for(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from dataclasses import replace

    record = played(1)
    first = record.deals[0]
    cut = replace(record, deals=(replace(first, actions=first.actions[:5]),))
    path = tmp_path / "in_progress.json"
    path.write_text(cut.dumps(), encoding="utf-8")
    data = hint_json(capsys, path, "1", "6")  # five moves made: the sixth is to be played
    assert data["action"] == 5
    status, _, err = run(capsys, "hint", str(path), "--deal", "1", "--move", "7")
    assert status == 2
    assert err == "paiute hint: error: --move 7: choose a move of deal 1 from 1 to 6\n"


def test_the_review_speaks_as_a_player_in_every_language() -> None:
    from paiute.actions import Action
    from paiute.analysis.review import action_words, advice_words
    from paiute.i18n import LANGUAGES, translator

    english = translator("en")
    assert [action_words(Action.parse(text), english) for text in ("draw stock", "draw discard")] == [
        "drew from the stock",
        "took the discard",
    ]
    assert action_words(Action.parse("discard 8c"), english) == "discarded 8♣"
    assert action_words(Action.parse("call"), english, by_you=True) == "you called with six cards"
    assert advice_words(Action.parse("draw discard"), english) == "take the discard"
    for lang in LANGUAGES:
        tr = translator(lang)
        for text in ("draw stock", "draw discard", "discard 8c", "call 8c", "call"):
            action = Action.parse(text)
            words = {
                action_words(action, tr),
                action_words(action, tr, by_you=True),
                advice_words(action, tr),
            }
            assert len(words) == 3, (lang, text, words)  # played, played by you, advice: three forms
            assert not any(engine in word for word in words for engine in ("draw discard", "draw stock"))


def broken(kind: str) -> dict[str, Any]:
    """``played(2)`` as JSON, its second deal's first move breaking R4.2 (``"rule"``: a discard
    before the draw) or its fourth move no action at all (``"malformed"``)."""
    data: dict[str, Any] = json.loads(played(2).dumps())
    second = data["deals"][1]
    if kind == "rule":
        second["actions"][0] = f"discard {second['deck'][0]}"
    else:
        second["actions"][3] = "fly"
    return data


@pytest.mark.parametrize("command", ["replay", "verify", "review", "hint"])
def test_a_record_that_breaks_a_rule_is_refused_naming_its_deal_and_move_from_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    data = broken("rule")
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    card = data["deals"][1]["deck"][0]
    extra = {"hint": ["--deal", "1", "--move", "1"], "review": ["--playouts", "1"]}.get(command, [])
    status, out, err = run(capsys, command, str(path), *extra)
    assert status == 1
    said = (out + err).strip()
    # deals[1].actions[0] of the record: deal 2, move 1, as the options take them.
    assert said.startswith(f'invalid record: deal 2, move 1 "discard {card}": R4.2 '), said


def test_replay_json_keeps_the_indexes_beside_the_message_people_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(broken("rule")), encoding="utf-8")
    status, out, _ = run(capsys, "replay", str(path), "--json")
    assert status == 1
    error = json.loads(out)["error"]
    assert (error["deal"], error["action"], error["rule"]) == (1, 0, "R4.2")  # the record's indexes
    assert error["message"].startswith(f'deal 2, move 1 "{error["text"]}": R4.2 ')


def test_a_malformed_move_is_named_from_1_too(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "malformed.json"
    path.write_text(json.dumps(broken("malformed")), encoding="utf-8")
    status, out, _ = run(capsys, "replay", str(path))
    assert status == 1
    assert out.startswith("invalid record: malformed record: deal 2, move 4: unknown action 'fly'")
    status, out, _ = run(capsys, "replay", str(path), "--json")
    assert json.loads(out)["error"]["malformed"].startswith("deal 2, move 4: unknown action 'fly'")
