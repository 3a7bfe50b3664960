"""No stall in ``paiute play`` (issue 11): while the compiled search of a ``pimc`` bot is
prepared (:mod:`paiute.compiled.warm`), the bot plays greedy's moves and the
terminal game says so on a line of its own, which goes away once the kernels are ready, in the
full screen and in ``--plain``. "Not ready" is faked: the kernels' state is monkeypatched, so
nothing compiles here. ``paiute tournament`` shows the same line while it prepares the kernels
before its workers start."""

from __future__ import annotations

import asyncio
import io
import json
import threading

import pytest
from textual.widgets import Static

from paiute import RuleSet, compiled
from paiute.cli.main import main
from paiute.compiled import warm
from paiute.i18n import translator
from paiute.players import pimc
from paiute.tui.app import PlayApp
from paiute.tui.plain import PlainUI
from paiute.tui.preparing import BotPreparation
from paiute.tui.session import PlayConfig, SeatSpec, Session

SEARCH = (SeatSpec("You"), SeatSpec("Bot", "pimc:ms=100"), SeatSpec("Other", "medium"))
LINE = "Preparing the pimc:ms=100 bot… (one-time, a few minutes)"
READY = "The pimc:ms=100 bot is ready."


class Kernels:
    """The faked state of the compiled kernels: Numba installed, not ready until told."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.is_ready = False
        self.is_available = True
        monkeypatch.setattr(compiled, "available", lambda: self.is_available)
        monkeypatch.setattr(warm, "prepare", lambda *, block=False, timeout=None: self.is_ready)
        monkeypatch.setattr(warm, "ready", lambda: self.is_ready)
        monkeypatch.setattr(warm, "error", lambda: None)
        monkeypatch.setattr(BotPreparation, "GRACE_S", 0.0)


def session(seats: tuple[SeatSpec, ...] = SEARCH) -> Session:
    return Session(PlayConfig(RuleSet(), seats, seed=4, hint=2))


def test_the_line_names_the_compiled_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    kernels = Kernels(monkeypatch)
    seats = (SeatSpec("You"), SeatSpec("A", "expert"), SeatSpec("B", "pimc:ms=100"), SeatSpec("C", "easy"))
    preparation = BotPreparation.of_session(session(seats))
    assert preparation.label == "pimc:ms=100"
    line = preparation.line()
    assert line is not None
    assert line.startswith(LINE)
    assert line.endswith(" s")
    ro = preparation.line(translator("ro"))
    assert ro is not None
    assert not ro.startswith(LINE)  # translated
    kernels.is_ready = True
    assert preparation.line() is None


def test_no_line_within_the_grace_of_a_load_from_the_disk_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    Kernels(monkeypatch)
    monkeypatch.setattr(BotPreparation, "GRACE_S", 3600.0)
    preparation = BotPreparation.of_session(session())
    assert preparation.waiting()
    assert preparation.line() is None
    assert not preparation.shown


def test_no_line_without_a_compiled_bot_or_once_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    Kernels(monkeypatch)
    # greedy with and without look-ahead, and guarded (pure Python): nothing compiled
    for level in ("easy", "medium", "hard", "expert"):
        assert BotPreparation.of_session(session((SeatSpec("You"), SeatSpec("Bot", level)))).line() is None
    monkeypatch.setattr(compiled, "available", lambda: False)  # no Numba: greedy's moves for good
    assert BotPreparation.of_session(session()).line() is None


def test_plain_tells_it_is_preparing_then_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    kernels = Kernels(monkeypatch)

    class Input(io.StringIO):
        """Enter (show the table again) once the kernels are ready, then quit."""

        def readline(self, size: int | None = -1) -> str:
            if not kernels.is_ready:
                kernels.is_ready = True
                return "\n"
            return "q\n"

    out = io.StringIO()
    assert PlainUI(session(), Input(), out).run() == 0
    text = out.getvalue()
    assert text.count(LINE) >= 2  # at the start and before the person's first turn
    assert text.count(READY) == 1
    assert text.index(READY) > text.rindex(LINE)


def test_app_shows_the_line_until_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    kernels = Kernels(monkeypatch)
    app = PlayApp(session(), delay=0)

    def shown() -> str:
        widget = app.query_one("#preparing", Static)
        return str(widget.render()) if widget.display else ""

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert shown().startswith(LINE)
            kernels.is_ready = True
            for _ in range(200):  # the line is refreshed four times a second
                await pilot.pause(0.05)
                if not shown():
                    break
            assert shown() == ""
            await pilot.press("q")
            await pilot.pause()

    asyncio.run(scenario())


def test_tournament_says_it_prepares_the_kernels_before_it_plays(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    kernels = Kernels(monkeypatch)
    monkeypatch.setattr(pimc, "available", lambda: kernels.is_available)

    def compiled_later() -> None:
        # "Ready", and then no Numba after all, so that the bots play greedy's moves and
        # nothing compiles in this test.
        kernels.is_ready, kernels.is_available = True, False

    timer = threading.Timer(0.6, compiled_later)
    timer.start()
    argv = [
        "tournament",
        "pimc:ms=100",
        "greedy",
        "--players",
        "2",
        "--deals",
        "1",
        "--workers",
        "1",
        "--json",
    ]
    assert main([*argv, "--seed", "3"]) == 0
    timer.join()
    captured = capsys.readouterr()
    assert json.loads(captured.out)["boards"] == 1  # standard output stays JSON
    # Standard error is not a terminal here: the line once, then that it is ready, before play.
    assert captured.err.count(LINE) == 1
    assert captured.err.index(LINE) < captured.err.index(READY)


def test_tournament_without_a_compiled_bot_prepares_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    Kernels(monkeypatch)  # never ready: a tournament of greedy bots must not wait for it
    argv = ["tournament", "expert", "hard", "--players", "2", "--deals", "1", "--workers", "1", "--json"]
    assert main([*argv, "--seed", "3"]) == 0
    assert "Preparing" not in capsys.readouterr().err
