"""``paiute learn`` without a screen: the prepared deal holds its script (the engine and the
seeded bots play it), each step's check (a wrong action changes nothing and does not go on),
the engine's own refusal at R4.3, the lesson end to end in ``--plain`` through standard input
in every language, and ``paiute play``'s first run offering the lesson once."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from paiute import Action, Card, RuleSet
from paiute.actions import CALL_SIX, DRAW_DISCARD, DRAW_STOCK
from paiute.cli.main import main
from paiute.combos import Value
from paiute.errors import IllegalActionError
from paiute.i18n import LANGUAGES, translator
from paiute.tui import describe
from paiute.tui.help import GOAL, best_first
from paiute.tui.lesson import LESSON_FILE, NO_LESSON_ENV, OFFER, Lesson, Reply, Step, lesson_turned_off
from paiute.tui.lesson_plain import PlainLesson
from paiute.tui.plain import PlainUI
from paiute.tui.session import PlayConfig, SeatSpec, Session

ROOT = Path(__file__).resolve().parents[1]
C = Card.parse

#: The person's input at each step, as the line mode takes it (an empty line goes on).
PLAIN_SCRIPT = ["", "2", "s", "x 2c", "d", "x 9s", "x Kd", "", "s", "w", "c", "", ""]


def bots(lesson: Lesson) -> None:
    while lesson.bot_to_move():
        lesson.move_bot()


def correct(lesson: Lesson) -> Reply | None:
    """The step's own action (what the coach asks for)."""
    step = lesson.step
    if step in (Step.WELCOME, Step.LAST_ROUND, Step.RESULT, Step.DONE):
        return lesson.proceed()
    if step is Step.WILD:
        return lesson.answer(lesson.hand().index(C("7h")) + 1)
    if step in (Step.DRAW, Step.LAST_DRAW):
        return lesson.draw(DRAW_STOCK)
    if step is Step.TAKE:
        return lesson.draw(DRAW_DISCARD)
    if step is Step.DISCARD:
        return lesson.discard(C("2c"))
    if step is Step.TRY_TAKEN:
        return lesson.discard(C("9s"))
    if step is Step.DISCARD_OTHER:
        return lesson.discard(C("Kd"))
    if step is Step.COMBINATIONS:
        return lesson.combinations()
    assert step is Step.CALL
    return lesson.call(CALL_SIX)


def walk(lesson: Lesson) -> Iterator[Step]:
    """Take every step in turn, the bots playing between; yields each step before it is taken."""
    while not lesson.finished:
        bots(lesson)
        assert lesson.ready(), lesson.step
        yield lesson.step
        reply = correct(lesson)
        assert reply is not None
        assert reply.advanced, (lesson.step, reply)


# -- the prepared deal ---------------------------------------------------------------------------


def test_the_prepared_deal_plays_the_lessons_script_r4_3_r6_4_r7_2() -> None:
    lesson = Lesson()
    assert [step for step in walk(lesson)] == list(Step)
    deal = lesson.session.deal
    assert deal is not None
    assert [f"{event.seat} {event.action}" for event in deal.events] == [
        "1 draw stock", "1 discard 8d", "2 draw stock", "2 discard Kh",
        "0 draw stock", "0 discard 2c",
        "1 draw stock", "1 discard 3c", "2 draw stock", "2 discard 9s",
        "0 draw discard", "0 discard Kd",
        "1 draw stock", "1 call",  # Lani calls: the last round begins (R7.2)
        "2 draw stock", "2 discard 5h",  # Kai's last turn
        "0 draw stock", "0 call",  # the dealer's last turn ends the deal (R7.3)
    ]  # fmt: skip
    outcome = deal.outcome
    assert outcome is not None
    assert [call.value for call in outcome.calls] == [
        Value.parse("three_three J 5"),
        Value.parse("four_two Q 9"),  # beats Lani's call (R6.4) with the wild 7h a queen
    ]
    assert outcome.winners == (0,)
    assert lesson.session.match.balances == (102, 99, 99)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_bots_play_the_same_deal_whatever_breaks_their_ties(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The lesson's seed settles greedy's ties; the deal is built so that no tie decides it.
    monkeypatch.setattr("paiute.tui.lesson.LESSON_SEED", seed)
    lesson = Lesson()
    assert list(walk(lesson)) == list(Step)


# -- each step's check ------------------------------------------------------------------------

WRONG: dict[Step, list[Callable[[Lesson], Reply | None]]] = {
    Step.WELCOME: [lambda it: it.draw(DRAW_STOCK), lambda it: it.answer(2), lambda it: it.call(CALL_SIX)],
    Step.WILD: [lambda it: it.answer(1), lambda it: it.answer(9), lambda it: it.draw(DRAW_STOCK), lambda it: it.proceed()],
    Step.DRAW: [lambda it: it.draw(DRAW_DISCARD), lambda it: it.discard(C("2c")), lambda it: it.proceed()],
    Step.DISCARD: [lambda it: it.discard(C("Qd")), lambda it: it.discard(C("7h")), lambda it: it.draw(DRAW_STOCK)],
    Step.TAKE: [lambda it: it.draw(DRAW_STOCK), lambda it: it.proceed(), lambda it: it.call(CALL_SIX)],
    Step.TRY_TAKEN: [lambda it: it.discard(C("Kd")), lambda it: it.proceed(), lambda it: it.combinations()],
    Step.DISCARD_OTHER: [lambda it: it.discard(C("9s")), lambda it: it.discard(C("Qc")), lambda it: it.answer(4)],
    Step.LAST_ROUND: [lambda it: it.draw(DRAW_STOCK), lambda it: it.discard(C("7h"))],
    Step.LAST_DRAW: [lambda it: it.draw(DRAW_DISCARD), lambda it: it.proceed()],
    Step.COMBINATIONS: [lambda it: it.call(CALL_SIX), lambda it: it.discard(C("9h")), lambda it: it.proceed()],
    Step.CALL: [lambda it: it.discard(C("9h")), lambda it: it.draw(DRAW_STOCK), lambda it: it.proceed()],
    Step.RESULT: [lambda it: it.draw(DRAW_STOCK), lambda it: it.answer(1)],
    Step.DONE: [lambda it: it.draw(DRAW_STOCK), lambda it: it.call(CALL_SIX)],
}  # fmt: skip


@pytest.mark.parametrize("step", list(Step), ids=[step.value for step in Step])
def test_a_wrong_action_does_not_go_on_and_changes_nothing(step: Step) -> None:
    lesson = Lesson()
    for reached in walk(lesson):
        if reached is step:
            break
    before = (lesson.observation(), lesson.step)
    for wrong in WRONG[step]:
        reply = wrong(lesson)
        assert reply is None or not reply.advanced
        assert reply is None or reply.text, "a wrong action always gets words"
        assert (lesson.observation(), lesson.step) == before
    assert lesson.hint().warning
    reply = correct(lesson)
    assert reply is not None
    assert reply.advanced


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_step_is_coached_in_the_readers_language(lang: str) -> None:
    english, other = Lesson(), Lesson(translator(lang))
    for plain in (False, True):
        english.plain = other.plain = plain
        for step, _same in zip(walk(english), walk(other), strict=True):
            assert other.step is step
            assert other.coach() != english.coach(), (lang, step)
            assert other.hint().text != english.hint().text, (lang, step)
        english, other = Lesson(), Lesson(translator(lang))


def test_r4_3_the_engine_refuses_the_taken_card_and_the_coach_explains() -> None:
    lesson = Lesson()
    for step in walk(lesson):
        if step is Step.TRY_TAKEN:
            break
    taken = lesson.observation().taken_card
    assert taken == C("9s")
    reply = lesson.discard(taken)
    assert reply.advanced
    assert reply.warning
    error = lesson.session.why(Action.discard(taken))
    assert error is not None
    assert error.rule == "R4.3"
    assert (
        reply.text == f"Not allowed: {describe.explain(error)}."
    )  # the engine's words, as the game says them
    assert taken in lesson.observation().hand  # nothing was discarded
    assert lesson.coach().startswith("That is rule R4.3: a card taken from the discard pile stays")
    again = lesson.discard(taken)
    assert not again.advanced
    assert "R4.3" in again.text


def test_the_coach_shows_the_best_combination_and_where_it_ranks_r5() -> None:
    lesson = Lesson()
    for step in walk(lesson):
        if step is Step.COMBINATIONS:
            break
    assert "Four/Two, queens over nines: show Q♣ Q♦ 7♥→Q♥ Q♠ 9♥ 9♠ (all six cards)" in lesson.coach()
    reply = lesson.combinations()
    assert reply is not None
    assert reply.text == "Four/Two is number 4 of 6 and Lani's Three/Three number 5: yours is higher."


# -- --plain, end to end --------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plain_lesson_end_to_end_through_standard_input(lang: str) -> None:
    out = io.StringIO()
    tr = translator(lang)
    ended = PlainLesson(io.StringIO("\n".join(PLAIN_SCRIPT) + "\n"), out, tr=tr, echo=True).run()
    text = out.getvalue()
    assert ended == "done", text[-2000:]
    refusal = tr.gettext("Not allowed: {reason}.", reason=describe.explain(lesson_error(), tr))
    assert refusal in text  # the engine's refusal, in the reader's language, R4.3 kept
    assert (
        tr.gettext(
            "Winner: {who} with {value}.",
            who=describe.person_names(["You"], tr)[0],
            value=Value.parse("four_two Q 9"),
        )
        in text
    )
    assert text.count(tr.gettext("Coach: {text}", text="")) >= len(Step)


def lesson_error() -> IllegalActionError:
    """The engine's refusal of the taken 9s (R4.3), as the lesson meets it."""
    lesson = Lesson()
    for step in walk(lesson):
        if step is Step.TRY_TAKEN:
            break
    error = lesson.session.why(Action.discard(C("9s")))
    assert error is not None
    return error


def test_plain_lesson_gentle_hints_and_leaving_asks_first() -> None:
    out = io.StringIO()
    lines = ["", "5", "fold", "x Zz", "h", "2", "q", "n", "?", "q", "y"]
    ended = PlainLesson(io.StringIO("\n".join(lines) + "\n"), out).run()
    text = out.getvalue()
    assert ended == "left"
    assert "Kd is not wild: look for the card marked *." in text
    assert "unknown command 'fold'" in text
    assert "unknown card text 'Zz'" in text
    assert "Coach: Right: 7h* is wild." in text
    assert text.count("Leave the lesson? (y/n)") == 2
    assert "LESSON COMMANDS" in text


def test_learn_plain_subprocess_in_every_language_remembers_it_is_done(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PAIUTE_DATA_DIR": str(tmp_path)}
    for lang in LANGUAGES:
        done = subprocess.run(
            [sys.executable, "-m", "paiute", "--lang", lang, "learn"],  # a pipe: line by line
            input="\n".join(PLAIN_SCRIPT) + "\n",
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
        tr = translator(lang)
        assert tr.gettext("--- Deal {n} is over ---", n=1) in done.stdout
    assert json.loads((tmp_path / LESSON_FILE).read_text())["finished"] is True


# -- paiute play: the first run, the goal, the combinations ----------------------------------------


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def play_at_terminal(
    monkeypatch: pytest.MonkeyPatch, data: Path, lines: list[str], *extra: str
) -> tuple[int, str]:
    out = Terminal()
    monkeypatch.setenv("COLUMNS", "200")  # a wide terminal: lines come whole
    monkeypatch.setattr(sys, "stdin", Terminal("".join(line + "\n" for line in lines)))
    monkeypatch.setattr(sys, "stdout", out)
    argv = ["play", "--plain", "--seed", "1", "--players", "2", "--bots", "random", "--data-dir", str(data)]
    status = main([*argv, *extra])
    return status, out.getvalue()


def test_first_run_offers_the_lesson_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(NO_LESSON_ENV, raising=False)
    status, out = play_at_terminal(monkeypatch, tmp_path, ["", "q"])  # Enter: play
    assert status == 0
    assert OFFER in out
    assert out.index(OFFER) < out.index("=== Deal 1 ===")
    assert GOAL in out  # the first screen says the goal
    assert json.loads((tmp_path / LESSON_FILE).read_text()) == {
        "format": "paiute-lesson/1",
        "offered": True,
        "finished": False,
    }
    status, out = play_at_terminal(monkeypatch, tmp_path, ["q"])
    assert status == 0
    assert OFFER not in out  # offered once


def test_first_run_lesson_taken_then_the_game(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(NO_LESSON_ENV, raising=False)
    status, out = play_at_terminal(monkeypatch, tmp_path, ["L", *PLAIN_SCRIPT, "q"])
    assert status == 0
    assert "Press Enter to start your first real game." in out
    assert out.index("Winner: You with Four/Two, queens over nines.") < out.index("=== Deal 1 ===")
    assert json.loads((tmp_path / LESSON_FILE).read_text())["finished"] is True


@pytest.mark.parametrize("how", ["option", "environment", "saved match", "pipe"])
def test_first_run_offer_is_skipped(how: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(NO_LESSON_ENV, raising=False)
    extra = ["--no-lesson"] if how == "option" else []
    if how == "environment":
        monkeypatch.setenv(NO_LESSON_ENV, "1")
    if how == "saved match":
        (tmp_path / "matches").mkdir()
        play_at_terminal(monkeypatch, tmp_path, ["s", "1", "q"], "--no-lesson")  # a match is saved
    if how == "pipe":  # never waits on a pipe: the commands go straight to the game
        out = io.StringIO()
        monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
        monkeypatch.setattr(sys, "stdout", out)
        argv = [
            "play",
            "--plain",
            "--seed",
            "1",
            "--players",
            "2",
            "--bots",
            "random",
            "--data-dir",
            str(tmp_path),
        ]
        assert main(argv) == 0
        text = out.getvalue()
    else:
        status, text = play_at_terminal(monkeypatch, tmp_path, ["q"], *extra)
        assert status == 0
    assert OFFER not in text
    assert "=== Deal 1 ===" in text
    assert not (tmp_path / LESSON_FILE).exists()


def test_the_environment_variable_turns_the_offer_off() -> None:
    assert lesson_turned_off({NO_LESSON_ENV: "1"})
    assert lesson_turned_off({NO_LESSON_ENV: "yes"})
    assert not lesson_turned_off({NO_LESSON_ENV: "0"})
    assert not lesson_turned_off({NO_LESSON_ENV: ""})
    assert not lesson_turned_off({})


def test_plain_play_says_the_goal_and_w_prints_the_combinations_in_order() -> None:
    rules = RuleSet(royal_high=True)  # the engine's order (R5.8): the Royal Flush first
    config = PlayConfig(rules, (SeatSpec("You"), SeatSpec("Greedy", "greedy")), seed=1)
    out = io.StringIO()
    PlainUI(Session(config), io.StringIO("w\nq\n"), out).run()
    text = out.getvalue()
    assert GOAL in text
    table = text[text.index("COMBINATIONS (R5)") :]
    order = [category.title for category in best_first(rules)]
    assert order[0] == "Royal Flush"
    assert [table.index(f"  {title} ") for title in order] == sorted(
        table.index(f"  {title} ") for title in order
    )
