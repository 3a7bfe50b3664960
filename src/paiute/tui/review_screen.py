"""The review of a deal in the terminal game, and the review marks of ``replay --watch``.

:class:`DealReview` reviews a finished deal (:mod:`paiute.analysis.review`) for the person's seats in a
thread of its own, started when the deal ends, while its summary shows; :class:`ReviewScreen`
shows its progress until it is ready, then each decision by its move in the deal (from 1, as
``paiute hint --move`` takes it): what was played, the better move, the net chips of each (the
hint's figures there), the loss and its mark, or why a loss has none. Each decision is
estimated from the seat's own view at that moment (R9), so it tells the person nothing they
could not have known.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from paiute.analysis.review import (
    DEFAULT_PLAYOUTS,
    MARK_WORDS,
    THRESHOLDS,
    Decision,
    Review,
    Unmarked,
    action_words,
    advice_words,
    review_header,
    review_record,
)
from paiute.errors import N_
from paiute.i18n import Translator, translator
from paiute.record import Record
from paiute.tui.dialogs import TextScreen

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


def mark_note(decision: Decision, tr: Translator, *, by_you: bool = False) -> str:
    """One decision in a line: the mark, the move played, the better move, the net chips of
    each, the loss and, for a loss with no mark, why; ``by_you``: told to the seat that played
    it ("you discarded 8♣")."""
    played = action_words(decision.played, tr, by_you=by_you)
    chips = tr.chips(decision.net_played)
    better = decision.better
    if better is None:
        return tr.gettext(
            N_("{played} ({chips}): no loss against the hint's move"), played=played, chips=chips
        )
    text = tr.gettext(
        N_("{played} ({chips}); better: {best} ({best_chips}); loss {loss}"),
        played=played,
        chips=chips,
        best=advice_words(better, tr),
        best_chips=tr.chips(decision.net_best),
        loss=tr.chips(decision.loss, signed=False),
    )
    if decision.unmarked is Unmarked.NOISE:
        return tr.ngettext(
            "{text}, not marked: within the noise of {playouts} playout",
            "{text}, not marked: within the noise of {playouts} playouts",
            decision.samples,
            text=text,
            playouts=tr.number(decision.samples),
        )
    if decision.unmarked is Unmarked.SMALL:
        return tr.gettext(
            N_("{text}, not marked: under {share} of the {stake} chips the deal is played for"),
            text=text,
            share=tr.gettext(N_("{percent}%"), percent=tr.number(round(100 * THRESHOLDS[-1][1]))),
            stake=tr.number(round(decision.stake)),
        )
    if decision.mark is None:
        return text
    return tr.gettext(N_("{mark}! {text}"), mark=tr.gettext(MARK_WORDS[decision.mark]), text=text)


def review_text(review: Review, names: Sequence[str], tr: Translator, *, you: int | None = None) -> str:
    """The review as lines: per seat a summary, then each decision by its move in the deal
    (from 1, the number ``paiute hint --move`` takes). ``you``: the seat of the person reading
    it, told "you" (the other seats by name)."""
    lines: list[str] = [review_header(review.playouts, tr), ""]
    for summary in review.summaries:
        yours = summary.seat == you
        accuracy = "-" if summary.accuracy is None else tr.number(round(summary.accuracy, 1)) + "%"
        if yours:
            lines.append(tr.gettext(N_("Your moves")))
        else:
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
                loss=tr.chips(summary.loss, signed=False),
            )
        )
        for decision in review.decisions:
            if decision.seat == summary.seat:
                lines.append(
                    tr.gettext(
                        N_("  move {move}: {note}"),
                        move=decision.move,
                        note=mark_note(decision, tr, by_you=yours),
                    )
                )
        lines.append("")
    return "\n".join(lines).rstrip()


class ReviewScreen(TextScreen):
    """The review of the deal that just ended: progress, then every decision with its mark (a
    dialog of :mod:`paiute.tui.dialogs`: laid out in terminal columns in every language)."""

    def __init__(
        self,
        review: DealReview,
        names: Sequence[str],
        tr: Translator | None = None,
        *,
        you: int | None = None,
    ) -> None:
        self._review = review
        self._names = tuple(names)
        self._tr = tr or translator()
        self._you = you
        self._shown = False
        tr = self._tr
        keys = {key: "back" for key in ("escape", "enter", "r", "q", "space")}
        super().__init__(
            tr.gettext(N_("Review of deal {n}"), n=review.deal + 1),
            self._status(),
            keys,
            tr.gettext(N_("Enter or Escape: back to the summary")),
            max_width=96,
        )

    def on_mount(self) -> None:
        super().on_mount()
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
        return review_text(review.review, self._names, tr, you=self._you)

    def _refresh(self) -> None:
        if self._shown:
            return
        self._shown = self._review.review is not None or self._review.error is not None
        self.set_text(self._status())


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
        """The review line of the move just shown (move ``count`` of deal index ``deal``, moves
        counted from 1), and whether the review is still being computed (then ask again).

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
            if decision.move != count:
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
