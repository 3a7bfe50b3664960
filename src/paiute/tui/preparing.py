"""The line that says a bot is still being prepared (``paiute play``: no stall).

A bot that searches with the compiled core (the ``pimc`` player, chosen by a spec such as
``pimc:ms=100``; no level is one: ``expert`` is ``guarded``, which is pure Python) needs its
Numba kernels; the first process after an install compiles them into the disk cache (minutes of
CPU), later ones load them in seconds (:mod:`paiute.compiled.warm`, in a background thread and a
child process). Until they are ready such a bot plays ``greedy``'s move (the ``hard`` level's),
so no table waits; this line tells the person why the bot plays like that for now, with a
spinner and the seconds so far, and goes away once the kernels are ready. It shows only after
:attr:`BotPreparation.GRACE_S` seconds of waiting: a load from the disk cache is mostly over by
then (README.md, "No stall", has the figures), and a line that flashes "a few minutes" for that
long would say something false. Without Numba there is nothing to prepare (those bots play
greedy's moves for good) and no line.

>>> from paiute.tui.session import PlayConfig, SeatSpec, Session
>>> from paiute.rules import RuleSet
>>> session = Session(PlayConfig(RuleSet(), (SeatSpec("You"), SeatSpec("Bot", "medium"))))
>>> BotPreparation.of_session(session).line() is None  # greedy needs no compiled kernels
True

``paiute tournament`` shows the same line while it prepares the kernels before its workers
start (:meth:`BotPreparation.of_bots`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from paiute import compiled
from paiute.compiled import warm
from paiute.errors import N_
from paiute.i18n import Translator, translator
from paiute.players import make_player
from paiute.tui.session import Session

__all__ = ["COMPILED_PLAYERS", "SPINNER", "BotPreparation"]

#: The players (by their ``name``) that play with the compiled kernels once they are ready.
COMPILED_PLAYERS = frozenset({"pimc", "playout"})
#: The spinner's frames, one every quarter of a second.
SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


class BotPreparation:
    """Whether a bot waits for the compiled kernels, and the words for it.

    ``bots`` are (label, player) pairs: the label a person chose the bot by (a level, or a
    spec). ``label`` is the last compiled bot's (its spec: no level is a compiled bot);
    ``None`` when no bot uses the compiled search. The seconds count from when this
    object was made (made with the bots, which start the preparing).
    """

    #: Seconds of waiting before the line is shown (a load from the disk cache is shorter).
    GRACE_S = 3.0

    def __init__(self, bots: Iterable[tuple[str, object]]) -> None:
        self.started = time.monotonic()
        chosen = [label for label, player in bots if getattr(player, "name", None) in COMPILED_PLAYERS]
        self.label: str | None = chosen[-1] if chosen else None
        #: Whether a line has been shown (so that its end can be told once, in --plain).
        self.shown = False

    @classmethod
    def of_session(cls, session: Session) -> BotPreparation:
        """The bots at a table of the terminal game."""
        seats = zip(session.config.seats, session.players, strict=True)
        return cls((spec.bot, player) for spec, player in seats if spec.bot is not None)

    @classmethod
    def of_bots(cls, specs: Iterable[str]) -> BotPreparation:
        """Bots made by name (``paiute tournament``): making them starts the preparing."""
        return cls((spec, make_player(spec)) for spec in dict.fromkeys(specs))

    def waiting(self) -> bool:
        """A bot at the table plays greedy's moves because the kernels are not ready yet."""
        if self.label is None or not compiled.available():
            return False
        return not warm.ready() and warm.error() is None

    def seconds(self) -> int:
        return int(time.monotonic() - self.started)

    def line(self, tr: Translator | None = None, *, spinner: bool = True) -> str | None:
        """The line to show while the bot is prepared, or ``None`` once it is ready (or
        before :attr:`GRACE_S` seconds of waiting)."""
        if not self.waiting() or time.monotonic() - self.started < self.GRACE_S:
            return None
        assert self.label is not None
        tr = tr or translator()
        self.shown = True
        text = tr.gettext(N_("Preparing the {bot} bot… (one-time, a few minutes)"), bot=self.label)
        frame = SPINNER[int((time.monotonic() - self.started) * 4) % len(SPINNER)] if spinner else ""
        elapsed = tr.gettext(N_("{seconds} s"), seconds=tr.number(self.seconds()))
        return " ".join(part for part in (text, frame, elapsed) if part)

    def ready_line(self, tr: Translator | None = None) -> str:
        """The words for the moment it is ready (after a line was shown)."""
        tr = tr or translator()
        return tr.gettext(N_("The {bot} bot is ready."), bot=self.label or "")
