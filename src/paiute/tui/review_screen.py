"""The review of a deal in the terminal game, and the review marks of ``replay --watch``.

:class:`DealReview` reviews a finished deal (:mod:`paiute.analysis.review`) for the person's seats in a
thread of its own, started when the deal ends, while its summary shows; :class:`ReviewScreen`
shows its progress until it is ready, then each decision: what was played, the better action,
the expected chips and the mark. Each decision is estimated from the seat's own view at that
moment (R9), so it tells the person nothing they could not have known.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from paiute.analysis.review import DEFAULT_PLAYOUTS, MARK_WORDS, Decision, Review, action_words, review_record
from paiute.errors import N_
from paiute.i18n import Translator, translator
from paiute.record import Record

__all__ = ["DealReview", "ReviewScreen", "WatchReviews", "mark_note", "review_text"]


class _CancelledError(Exception):
    pass


class DealReview:
    """One deal's review for some seats, computed in a daemon thread; poll :attr:`review`."""

    def __init__(
        self, record: Record, deal: int, seats: Sequence[int], *, playouts: int = DEFAULT_PLAYOUTS
    ) -> None:
        self.deal = deal
        self.seats = tuple(seats)
        self.done = 0
        self.total: int | None = None
        self.review: Review | None = None
        self.error: str | None = None
        self._record = record
        self._playouts = playouts
        self._cancelled = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"review-deal-{deal}", daemon=True)
        self._thread.start()

    def _progress(self, done: int, total: int) -> None:
        if self._cancelled.is_set():
            raise _CancelledError
        self.done, self.total = done, total

    def cancel(self) -> None:
        """Stop after the decision under way (the person went on to the next deal)."""
        self._cancelled.set()

    def _run(self) -> None:
        try:
            self.review = review_record(
                self._record,
                seats=self.seats,
                deal=self.deal,
                playouts=self._playouts,
                progress=self._progress,
            )
        except _CancelledError:
            self.error = "cancelled"
        except Exception as error:  # shown on the screen, never a traceback over the game
            self.error = str(error)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the review (tests); whether it is done."""
        self._thread.join(timeout)
        return not self._thread.is_alive()


def mark_note(decision: Decision, tr: Translator) -> str:
    """One decision in a line: the mark, the better action and the chips it was worth."""
    played = action_words(decision.played, tr)
    ev_played = tr.number(round(decision.ev_played, 2))
    better = decision.better
    if better is None:
        return tr.gettext(N_("{played}: the best action found ({ev} chips)"), played=played, ev=ev_played)
    text = tr.gettext(
        N_("{played} ({ev_played} chips): better {best} ({ev_best} chips)"),
        played=played,
        ev_played=ev_played,
        best=action_words(better, tr),
        ev_best=tr.number(round(decision.ev_best, 2)),
    )
    if decision.mark is None:
        return text
    return tr.gettext(N_("{mark}! {text}"), mark=tr.gettext(MARK_WORDS[decision.mark]), text=text)


def review_text(review: Review, names: Sequence[str], tr: Translator) -> str:
    """The review as lines: per seat a summary, then each decision (action numbers as in the record)."""
    lines: list[str] = []
    for summary in review.summaries:
        accuracy = "-" if summary.accuracy is None else tr.number(round(summary.accuracy, 1))
        lines.append(tr.gettext(N_("seat {seat} {name}"), seat=summary.seat, name=names[summary.seat]))
        lines.append(
            tr.gettext(
                N_(
                    "  accuracy {accuracy}; inaccuracies: {inaccuracies}; mistakes: {mistakes}; "
                    "blunders: {blunders}; expected loss: {loss} chips"
                ),
                accuracy=accuracy,
                inaccuracies=summary.inaccuracies,
                mistakes=summary.mistakes,
                blunders=summary.blunders,
                loss=tr.number(round(summary.loss, 2)),
            )
        )
        for decision in review.decisions:
            if decision.seat == summary.seat:
                lines.append(
                    tr.gettext(
                        N_("  action {action}: {note}"),
                        action=decision.action,
                        note=mark_note(decision, tr),
                    )
                )
        lines.append("")
    return "\n".join(lines).rstrip()


class ReviewScreen(ModalScreen[str]):
    """The review of the deal that just ended: progress, then every decision with its mark."""

    DEFAULT_CSS = """
    ReviewScreen { align: center middle; }
    ReviewScreen #box { width: 100%; max-width: 96; height: 100%; max-height: 30; border: round $accent;
                        background: $surface; }
    ReviewScreen #text { padding: 0 0 0 1; }
    ReviewScreen #keys { height: 1; dock: bottom; background: $primary; color: $text; padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,r,q,space", "close", show=False)]

    def __init__(self, review: DealReview, names: Sequence[str], tr: Translator | None = None) -> None:
        super().__init__()
        self._review = review
        self._names = tuple(names)
        self._tr = tr or translator()
        self._shown = False

    def compose(self) -> ComposeResult:
        tr = self._tr
        with Vertical(id="box") as box:
            box.border_title = tr.gettext(N_("Review of deal {n}"), n=self._review.deal + 1)
            yield Static(tr.gettext(N_("Enter or Escape: back to the summary")), id="keys", markup=False)
            with VerticalScroll(id="scroll"):
                yield Static(self._status(), id="text", markup=False)

    def on_mount(self) -> None:
        self.set_interval(0.25, self._refresh)

    def _status(self) -> str:
        tr, review = self._tr, self._review
        if review.error is not None:
            return tr.gettext(N_("The review failed: {error}"), error=review.error)
        if review.review is None:
            if review.total is None:
                return tr.gettext(N_("Reviewing the deal…"))
            return tr.gettext(
                N_("Reviewing the deal: {done} of {total} decisions…"), done=review.done, total=review.total
            )
        return review_text(review.review, self._names, tr)

    def _refresh(self) -> None:
        if self._shown:
            return
        self._shown = self._review.review is not None or self._review.error is not None
        self.query_one("#text", Static).update(self._status())

    def on_key(self, event: events.Key) -> None:
        if event.key in ("escape", "enter", "r", "q", "space"):
            event.stop()
            self.dismiss("back")

    def action_close(self) -> None:
        self.dismiss("back")


class WatchReviews:
    """The reviews ``paiute replay --watch`` shows as it steps: each finished deal's, for every
    seat, started when the deal is first shown (after the deal nothing is hidden, R9.3; a deal
    still in progress is not reviewed)."""

    def __init__(self, record: Record, *, playouts: int = DEFAULT_PLAYOUTS) -> None:
        self._record = record
        self._playouts = playouts
        self._reviews: dict[int, DealReview] = {}
        self._finished = {index for index, report in enumerate(record.replay().reports) if report.finished}

    def of(self, deal: int) -> DealReview:
        review = self._reviews.get(deal)
        if review is None:
            seats = range(len(self._record.players))
            review = self._reviews[deal] = DealReview(self._record, deal, seats, playouts=self._playouts)
        return review

    def note(
        self, deal: int, count: int, names: Sequence[str], tr: Translator, viewer: int | None = None
    ) -> tuple[str, bool]:
        """The review line of the action just shown (action ``count - 1`` of ``deal``), and
        whether the review is still being computed (then ask again).

        The better action is named only in its own seat's view: it may name a card of that
        seat's hand, which the watch shows nobody else (R9.2, as the table does); the others
        see the mark and the action played (public, R4.5)."""
        if deal not in self._finished:
            return "", False
        review = self.of(deal)
        if review.error is not None:
            return "", False
        if review.review is None:
            if review.total is None:
                return tr.gettext(N_("Reviewing the deal…")), True
            return tr.gettext(
                N_("Reviewing the deal: {done} of {total} decisions…"), done=review.done, total=review.total
            ), True
        for decision in review.review.decisions:
            if decision.action != count - 1:
                continue
            if viewer == decision.seat:
                note = mark_note(decision, tr)
            else:
                note = action_words(decision.played, tr)
                if decision.mark is not None:
                    note = tr.gettext(
                        N_("{mark}! {text}"), mark=tr.gettext(MARK_WORDS[decision.mark]), text=note
                    )
            return tr.gettext(N_("Review: {name}: {note}"), name=names[decision.seat], note=note), False
        return "", False

    def cancel(self) -> None:
        for review in self._reviews.values():
            review.cancel()
