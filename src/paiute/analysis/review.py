"""Game review: what every decision of a finished record cost, as lichess reviews a chess game.

The record is replayed deal by deal (it must have passed :meth:`Record.replay
<paiute.record.Record.replay>`, which is where a broken record is refused). At each decision of
a chosen seat (a turn point with more than one legal action: a forced move is no decision) the
seat's :class:`~paiute.observation.Observation` is taken: only what R9 lets that seat see at that
moment, never the stock order or another seat's unshown cards (R9.2, R9.3). Every legal action is
estimated from it by :func:`paiute.analysis.hint.assess`, the estimate the hint gives there too
(net chips: what the seat expects to end the deal with less what it put in, its stake
included, so 0 is break-even; a 95% interval; paired determinizations), seeded by
:func:`~paiute.analysis.hint.position_seed` from the review's seed, the deal and the action:
``paiute hint`` at that position with the same seed and playouts gives the same figures. The
decision gets:

* ``best``: the hint's move there, the ``expert`` level's move (``expert``, the strongest bot,
  from the same observation; :mod:`paiute.analysis.hint` says why the playouts explain it and never
  overrule it). Not the action with the most chips expected: with a few dozen playouts that
  argmax follows the noise, and played as a bot it loses to ``greedy``
  (``benchmarks/hint_strength.py``). ``net_best`` and its ``interval``;
* ``net_played``: the net chips of the action played;
* ``loss``: the paired advantage of the best action over the one played (the mean difference
  on the same determinizations, :meth:`Estimates.advantage
  <paiute.players.evaluate.Estimates.advantage>`), 0 when the best was played or did no better;
* ``mark``: from the loss relative to the deal's *stake* :func:`deal_stake` (the pot, or with
  ``payout = scale`` what the losers pay for the lowest win), by :data:`THRESHOLDS`:
  ``inaccuracy`` from 0.10 of the stake, ``mistake`` from 0.20, ``blunder`` from 0.30 (lichess
  marks a drop of 0.1 / 0.2 / 0.3 in its winning chances). A loss whose interval reaches 0 is
  never marked: the estimator cannot tell the two actions apart, and noise is not a mistake.
  ``unmarked`` says why a loss has no mark (:class:`Unmarked`): under 0.10 of the stake, or
  within the noise of the playouts.

Each seat's summary gives the total expected loss (the sum of its decisions' losses as they are
shown, to the hundredth of a chip), the count of each mark and an *accuracy*
(lichess's formula: each decision's drop in winning percentage ``100 * loss / stake`` is mapped
to ``103.1668 * exp(-0.04354 * drop) - 3.1669 + 1`` clamped to 0..100, and the seat's accuracy is
the mean of the arithmetic and the harmonic means of its decisions' figures; lichess weights the
arithmetic mean by the position's volatility, which this does not).

Every decision's estimate is seeded from the review's seed, the deal and the action index only,
so the review is the same under the same seed and playouts, in any order and in any process,
and its figures are the hint's at that position.

>>> from paiute import Match, RuleSet, SeededChance
>>> from paiute.players import make_player
>>> from paiute.record import Record
>>> match = Match(RuleSet(), ["Ana", "Bo"], chance=SeededChance(2))
>>> deal = match.start_deal()
>>> bot = make_player("greedy")
>>> while not deal.is_over:
...     _ = match.apply(bot.act(deal.observation(deal.current_seat)))
>>> review = review_record(Record.from_match(match), seats=[1], playouts=2, seed=3)
>>> {decision.seat for decision in review.decisions}
{1}
>>> all(decision.loss >= 0 for decision in review.decisions)
True
>>> review.summaries[0].decisions == len(review.decisions)
True
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from paiute.actions import Action, ActionKind
from paiute.analysis.hint import DEFAULT_PLAYOUTS as HINT_PLAYOUTS
from paiute.analysis.hint import assess, position_seed
from paiute.chance import RecordedChance
from paiute.errors import N_, PaiuteError
from paiute.i18n import Translator, chips_in_hundredths
from paiute.match import Match
from paiute.observation import Observation
from paiute.parallel import default_workers, parallel_map
from paiute.players.base import MAX_ITERATIONS
from paiute.record import Record
from paiute.rules import RuleSet

__all__ = [
    "DEFAULT_PLAYOUTS",
    "MARK_WORDS",
    "PARALLEL_FROM",
    "REVIEW_FORMAT",
    "THRESHOLDS",
    "UNMARKED_WORDS",
    "Decision",
    "DecisionPoint",
    "Mark",
    "Review",
    "ReviewError",
    "SeatSummary",
    "Unmarked",
    "accuracy_of",
    "action_words",
    "advice_words",
    "deal_stake",
    "decision_points",
    "mark_for",
    "move_accuracy",
    "review_header",
    "review_point",
    "review_record",
    "summarize",
    "unmarked_for",
]

#: Determinizations per decision when no other budget is given (each legal action is played out
#: once on each): the hint's, so that a review's figures are the hint's at that position. Small
#: enough that a 4-player deal of about 40 decisions is reviewed in under 30 s on one core
#: (``benchmarks/review_speed.py``).
DEFAULT_PLAYOUTS = HINT_PLAYOUTS

#: The ``format`` of a review's summary line (``paiute review --json``) and of the server's
#: stored review: version 2 gives net chips (``net_played``, ``net_best``, after the stake).
REVIEW_FORMAT = "paiute-review/2"

#: The playouts (decisions times playouts each) from which :func:`review_record` told
#: ``workers=None`` shares the decisions among processes, by estimator. A worker process must
#: start first (its interpreter, then the compiled kernels from the disk cache), and below these
#: a review is done sooner in this process; the compiled estimator reviews far more playouts a
#: second than the pure-Python one, hence its higher threshold (docs/review.md, "Speed", has the
#: figures).
PARALLEL_FROM = {"compiled": 100_000, "python": 250}


class ReviewError(PaiuteError):
    """A review that cannot be made (a seat or deal that is not in the record)."""


class Mark(enum.Enum):
    """How bad a decision was (lichess's three marks)."""

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


class Unmarked(enum.Enum):
    """Why a loss has no mark."""

    SMALL = "small"  # under the first threshold (0.10 of the stake)
    NOISE = "noise"  # its 95% interval reaches 0: the playouts cannot tell the two moves apart


#: Loss as a fraction of the deal's stake from which each mark is given, worst first.
THRESHOLDS: tuple[tuple[Mark, float], ...] = (
    (Mark.BLUNDER, 0.30),
    (Mark.MISTAKE, 0.20),
    (Mark.INACCURACY, 0.10),
)


def deal_stake(rules: RuleSet, players: int, pot: int) -> float:
    """The chips a deal is played for, the scale of the marks.

    With ``payout = pot`` (R8.2) it is the pot, stakes and any carried pot (R8.5): a drop of 0.1
    of the pot is a drop of 10 points in the chance of winning it. With ``payout = scale``
    (R8.4) it is what the other players pay for the lowest win (a Paiute, 1 unit each). Never
    below 1 chip.

    >>> deal_stake(RuleSet(), 4, 4), deal_stake(RuleSet(payout="scale"), 3, 0)
    (4.0, 50.0)
    """
    if rules.payout == "scale":
        return float(max(1, rules.unit * (players - 1)))
    return float(max(1, pot))


def mark_for(loss: float, loss_low: float, stake: float) -> Mark | None:
    """The mark of a decision that lost ``loss`` chips (low end of its interval ``loss_low``).

    >>> mark_for(1.3, 0.9, 4.0), mark_for(0.5, 0.1, 4.0), mark_for(2.0, 0.0, 4.0)
    (<Mark.BLUNDER: 'blunder'>, <Mark.INACCURACY: 'inaccuracy'>, None)
    """
    if not loss_low > 0:  # the interval reaches 0: not told apart from the best (noise)
        return None
    for mark, fraction in THRESHOLDS:
        if loss >= fraction * stake:
            return mark
    return None


def unmarked_for(loss: float, loss_low: float, stake: float) -> Unmarked | None:
    """Why a loss of ``loss`` chips (shown to the hundredth) gets no mark from :func:`mark_for`;
    None for a mark, or for no loss to show.

    >>> unmarked_for(0.2, 0.1, 4.0), unmarked_for(2.0, 0.0, 4.0), unmarked_for(1.3, 0.9, 4.0)
    (<Unmarked.SMALL: 'small'>, <Unmarked.NOISE: 'noise'>, None)
    """
    if chips_in_hundredths(loss) <= 0 or mark_for(loss, loss_low, stake) is not None:
        return None
    return Unmarked.SMALL if loss < THRESHOLDS[-1][1] * stake else Unmarked.NOISE


def move_accuracy(loss: float, stake: float) -> float:
    """Lichess's accuracy of one move from its drop in winning percentage (0 to 100).

    >>> move_accuracy(0.0, 4.0), round(move_accuracy(1.0, 4.0), 1), move_accuracy(4.0, 4.0)
    (100.0, 32.6, 0.0)
    """
    drop = min(100.0, max(0.0, 100.0 * loss / stake))
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * drop) - 3.166924740191411 + 1.0
    return min(100.0, max(0.0, raw))


def accuracy_of(figures: Sequence[float]) -> float | None:
    """A seat's accuracy: the mean of the arithmetic and harmonic means of its moves' figures
    (each floored at 1 for the harmonic mean); None with no decision.

    >>> accuracy_of([100.0, 100.0]), round(accuracy_of([100.0, 50.0]), 2), accuracy_of([])
    (100.0, 70.83, None)
    """
    if not figures:
        return None
    arithmetic = math.fsum(figures) / len(figures)
    harmonic = len(figures) / math.fsum(1.0 / max(1.0, figure) for figure in figures)
    return (arithmetic + harmonic) / 2


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """A decision to review: where it is, what the seat saw (R9) and what it played."""

    deal: int
    action: int
    observation: Observation
    played: Action
    stake: float

    @property
    def seat(self) -> int:
        seat = self.observation.seat
        assert seat is not None
        return seat


@dataclass(frozen=True, slots=True)
class Decision:
    """One reviewed decision (the ``--json`` line of ``paiute review``).

    ``deal`` and ``action`` index the record (from 0, as ``--json`` writes them); people count
    from 1: :attr:`deal_number` and :attr:`move`, the numbers ``paiute hint --deal --move`` takes.
    """

    deal: int
    action: int
    seat: int
    played: Action
    best: Action  # the hint's move: the expert's
    net_played: float  # net chips: what the seat expects to end the deal with less its stake
    net_best: float
    interval: tuple[float, float]  # net_best's 95% interval
    loss: float
    loss_interval: tuple[float, float]  # the paired advantage's 95% interval
    mark: Mark | None
    stake: float  # what the deal is played for (deal_stake): the scale of the marks
    expert: Action  # the expert level's move (HINT_LEVEL), which ``best`` is
    samples: int  # the playouts each action was played out on

    @property
    def accuracy(self) -> float:
        return move_accuracy(self.loss, self.stake)

    @property
    def unmarked(self) -> Unmarked | None:
        """Why the loss has no mark (:func:`unmarked_for`), or None."""
        return unmarked_for(self.loss, self.loss_interval[0], self.stake)

    @property
    def deal_number(self) -> int:
        """The deal as people count it, from 1."""
        return self.deal + 1

    @property
    def move(self) -> int:
        """The move as people count it, from 1 in its deal (every seat's moves, forced ones too)."""
        return self.action + 1

    @property
    def better(self) -> Action | None:
        """The action to name as better than the one played: ``best``, where it is another
        action and worth more on the paired playouts; None where the move played was the hint's
        or did no worse than it (a move the expert did not make is no error in itself)."""
        return self.best if self.best != self.played and self.loss > 0 else None

    def to_json(self) -> dict[str, object]:
        return {
            "deal": self.deal,
            "action": self.action,
            "seat": self.seat,
            "played": str(self.played),
            "best": str(self.best),
            "net_played": _round(self.net_played),
            "net_best": _round(self.net_best),
            "interval": [_round(self.interval[0]), _round(self.interval[1])],
            "loss": _round(self.loss),
            "loss_interval": [_round(self.loss_interval[0]), _round(self.loss_interval[1])],
            "mark": None if self.mark is None else self.mark.value,
            "unmarked": None if self.unmarked is None else self.unmarked.value,
            "stake": self.stake,
            "samples": self.samples,
            "expert": str(self.expert),
            "better": None if self.better is None else str(self.better),
        }


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat's review: decisions, total expected loss, marks and accuracy."""

    seat: int
    decisions: int
    loss: float
    inaccuracies: int
    mistakes: int
    blunders: int
    accuracy: float | None

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "decisions": self.decisions,
            "loss": _round(self.loss),
            "inaccuracy": self.inaccuracies,
            "mistake": self.mistakes,
            "blunder": self.blunders,
            "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
        }


@dataclass(frozen=True, slots=True)
class Review:
    """A record's review: every decision reviewed, in record order, and a summary per seat."""

    decisions: tuple[Decision, ...]
    summaries: tuple[SeatSummary, ...]
    playouts: int
    seed: int

    def summary_json(self) -> dict[str, object]:
        return {
            "format": REVIEW_FORMAT,
            "summary": [summary.to_json() for summary in self.summaries],
            "playouts": self.playouts,
            "seed": self.seed,
        }

    def json_lines(self) -> list[dict[str, object]]:
        """One object per decision, then the summary (``paiute review --json``)."""
        return [decision.to_json() for decision in self.decisions] + [self.summary_json()]


#: Each mark's word for people (the JSON keeps the English value).
MARK_WORDS = {
    Mark.INACCURACY: N_("inaccuracy"),
    Mark.MISTAKE: N_("mistake"),
    Mark.BLUNDER: N_("blunder"),
}


#: Why a loss has no mark, in a word or two (a cell of the review's table; the JSON keeps the
#: English value).
UNMARKED_WORDS = {
    Unmarked.SMALL: N_("small loss"),
    Unmarked.NOISE: N_("within noise"),
}


#: An action played, as a player tells it afterwards ("discarded 8♣"): the review's column
#: "Played", about any seat.
_PLAYED = {
    ActionKind.DRAW_STOCK: N_("drew from the stock"),
    ActionKind.DRAW_DISCARD: N_("took the discard"),
    ActionKind.DISCARD: N_("discarded {card}"),
    ActionKind.CALL_FIVE: N_("called, putting down {card}"),
    ActionKind.CALL_SIX: N_("called with six cards"),
}
#: The same, told to the seat that played it: the person's own review in the terminal game.
_PLAYED_BY_YOU = {
    ActionKind.DRAW_STOCK: N_("you drew from the stock"),
    ActionKind.DRAW_DISCARD: N_("you took the discard"),
    ActionKind.DISCARD: N_("you discarded {card}"),
    ActionKind.CALL_FIVE: N_("you called, putting down {card}"),
    ActionKind.CALL_SIX: N_("you called with six cards"),
}
#: An action to play instead, as advice ("discard 9♠"): the review's better action.
_ADVICE = {
    ActionKind.DRAW_STOCK: N_("draw from the stock"),
    ActionKind.DRAW_DISCARD: N_("take the discard"),
    ActionKind.DISCARD: N_("discard {card}"),
    ActionKind.CALL_FIVE: N_("call, putting down {card}"),
    ActionKind.CALL_SIX: N_("call with six cards"),
}


def _words(templates: dict[ActionKind, str], action: Action, tr: Translator) -> str:
    template = templates[action.kind]
    return tr.gettext(template) if action.card is None else tr.gettext(template, card=action.card)


def action_words(action: Action, tr: Translator, *, by_you: bool = False) -> str:
    """An action played, in the reader's language, as a player tells it (a review's cell);
    ``by_you``: told to the seat that played it.

    >>> from paiute.i18n import translator
    >>> action_words(Action.parse("draw discard"), translator("en"))
    'took the discard'
    >>> action_words(Action.parse("discard 8c"), translator("en"), by_you=True)
    'you discarded 8♣'
    """
    return _words(_PLAYED_BY_YOU if by_you else _PLAYED, action, tr)


def advice_words(action: Action, tr: Translator) -> str:
    """An action to play instead, in the reader's language (a review's better action).

    >>> from paiute.i18n import translator
    >>> advice_words(Action.parse("call"), translator("en")), advice_words(Action.parse("call 7h"), translator("en"))
    ('call with six cards', 'call, putting down 7♥')
    """
    return _words(_ADVICE, action, tr)


def review_header(playouts: int, tr: Translator) -> str:
    """What the review's figures and marks mean, said once above its tables."""
    shares = {
        mark: tr.gettext(N_("{percent}%"), percent=tr.number(round(100 * share)))
        for mark, share in THRESHOLDS
    }
    return tr.ngettext(
        "Chips: what the seat could expect to win or lose this deal after the move, after its stake "
        "(0 is break-even), from {playouts} playout a decision, as the hint gives them. Loss: what "
        "the better move is worth more. Marks by the loss as a share of the pot: inaccuracy from "
        "{inaccuracy}, mistake from {mistake}, blunder from {blunder}; a smaller loss, or one within "
        "the noise of the playouts, is not marked.",
        "Chips: what the seat could expect to win or lose this deal after the move, after its stake "
        "(0 is break-even), from {playouts} playouts a decision, as the hint gives them. Loss: what "
        "the better move is worth more. Marks by the loss as a share of the pot: inaccuracy from "
        "{inaccuracy}, mistake from {mistake}, blunder from {blunder}; a smaller loss, or one within "
        "the noise of the playouts, is not marked.",
        playouts,
        playouts=tr.number(playouts),
        inaccuracy=shares[Mark.INACCURACY],
        mistake=shares[Mark.MISTAKE],
        blunder=shares[Mark.BLUNDER],
    )


def _round(value: float) -> float:
    return round(value, 3) if math.isfinite(value) else value


def decision_points(
    record: Record, seats: Iterable[int] | None = None, deal: int | None = None
) -> list[DecisionPoint]:
    """Every decision of ``seats`` (default all) in ``deal`` (default all finished deals).

    The record is stepped through the engine as :meth:`Record.replay` does (call that first: a
    broken record raises here as there). A deal still in progress is not reviewed: its hidden
    cards are not the reviewer's to show (R9.3), and its decisions are not finished.
    """
    players = len(record.players)
    chosen = set(range(players)) if seats is None else set(seats)
    for seat in chosen:
        if not 0 <= seat < players:
            raise ReviewError(N_("seat {seat} is not one of the {players} seats"), seat=seat, players=players)
    if deal is not None and not 0 <= deal < len(record.deals):
        raise ReviewError(
            N_("deal {deal} is not one of the record's {n} deals"), deal=deal, n=len(record.deals)
        )
    match = Match(
        record.rules,
        record.players,
        balances=record.balances,
        pot=record.pot,
        chance=RecordedChance(()),
        dealer=record.deals[0].dealer if record.deals else None,
    )
    points: list[DecisionPoint] = []
    for index, deal_record in enumerate(record.deals):
        if deal is not None and index > deal:
            break
        state = match.start_deal(
            deal_record.deck,
            chance=RecordedChance(deal_record.rebuilds, deal=index),
            commitment=deal_record.commitment,
        )
        stake = deal_stake(record.rules, players, state.pot)
        found: list[DecisionPoint] = []
        for position, action in enumerate(deal_record.actions):
            seat = state.current_seat
            if (deal is None or index == deal) and seat in chosen and not state.is_over:
                observation = state.observation(seat)  # R9: only what the seat may see now
                if len(observation.legal_actions) > 1:  # one legal action is no decision
                    found.append(DecisionPoint(index, position, observation, action, stake))
            match.apply(action)
        if state.is_over:
            points.extend(found)
    return points


def review_point(
    point: DecisionPoint, playouts: int = DEFAULT_PLAYOUTS, budget_ms: float | None = None, seed: int = 0
) -> Decision:
    """Review one decision from the seat's observation only (R9): the hint's move there, the
    expert's, is the best, and the figures are the hint's there (:func:`~paiute.analysis.hint.assess`
    seeded by :func:`~paiute.analysis.hint.position_seed`)."""
    assessed = assess(
        point.observation,
        playouts=playouts,
        budget_ms=budget_ms,
        seed=position_seed(seed, point.deal, point.action),
    )
    best = assessed.of(assessed.expert)
    played = assessed.of(point.played)
    if best.action == played.action:
        loss, low, high = 0.0, 0.0, 0.0
    else:
        loss, low, high = assessed.advantage(best.action, played.action)
        loss = max(0.0, loss)
    return Decision(
        deal=point.deal,
        action=point.action,
        seat=point.seat,
        played=point.played,
        best=best.action,
        net_played=played.mean,
        net_best=best.mean,
        interval=(best.low, best.high),
        loss=loss,
        loss_interval=(low, high),
        mark=mark_for(loss, low, point.stake),
        stake=point.stake,
        expert=assessed.expert,
        samples=assessed.playouts,
    )


def summarize(decisions: Sequence[Decision], seats: Iterable[int]) -> tuple[SeatSummary, ...]:
    """A summary per seat, in seat order."""
    summaries = []
    for seat in sorted(set(seats)):
        own = [decision for decision in decisions if decision.seat == seat]
        marks = [decision.mark for decision in own]
        summaries.append(
            SeatSummary(
                seat=seat,
                decisions=len(own),
                # The losses as every view shows them, so the total is their sum as read.
                loss=sum(chips_in_hundredths(decision.loss) for decision in own) / 100,
                inaccuracies=marks.count(Mark.INACCURACY),
                mistakes=marks.count(Mark.MISTAKE),
                blunders=marks.count(Mark.BLUNDER),
                accuracy=accuracy_of([decision.accuracy for decision in own]),
            )
        )
    return tuple(summaries)


def _review_job(job: tuple[DecisionPoint, int, float | None, int]) -> Decision:
    point, playouts, budget_ms, seed = job
    return review_point(point, playouts, budget_ms, seed)


def _workers_for(work: int) -> int:
    """Processes for a review of ``work`` playouts: more only where they pay for their start."""
    from paiute.compiled import available

    estimator = "compiled" if available() else "python"
    return min(2, default_workers()) if work >= PARALLEL_FROM[estimator] else 1


def review_record(
    record: Record,
    *,
    seats: Iterable[int] | None = None,
    deal: int | None = None,
    playouts: int = DEFAULT_PLAYOUTS,
    budget_ms: float | None = None,
    seed: int = 0,
    workers: int | None = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review the decisions of ``seats`` (default all) in ``deal`` (default every finished deal).

    ``playouts`` determinizations per decision, or fewer where ``budget_ms`` (milliseconds per
    decision) runs out first: with a time budget the figures depend on the machine's speed;
    without one the review depends only on the record, the seed and ``playouts``. ``workers``
    processes share the decisions (the results are the same for any number); ``None`` chooses:
    up to two processes for a long review (:data:`PARALLEL_FROM`), else this one. ``progress``
    is called with (done, total) after each decision.
    """
    if not 1 <= playouts <= MAX_ITERATIONS:
        raise ReviewError(N_("playouts must be from 1 to {most}, not {n}"), most=MAX_ITERATIONS, n=playouts)
    chosen = list(range(len(record.players))) if seats is None else sorted(set(seats))
    points = decision_points(record, chosen, deal)
    jobs = [(point, playouts, budget_ms, seed) for point in points]
    if workers is None:
        workers = _workers_for(len(jobs) * playouts)
    results: dict[int, Decision] = {}
    if progress is not None:
        progress(0, len(jobs))
    if workers <= 1 or len(jobs) <= 1:
        for index, job in enumerate(jobs):
            results[index] = _review_job(job)
            if progress is not None:
                progress(len(results), len(jobs))
    else:
        for index, decision in parallel_map(_review_job, jobs, workers=workers):
            results[index] = decision
            if progress is not None:
                progress(len(results), len(jobs))
    decisions = tuple(results[index] for index in range(len(jobs)))
    return Review(decisions, summarize(decisions, chosen), playouts, seed)
