"""Features and the value network of the ``learned`` player (one implementation, NumPy only).

The ``learned`` player scores every legal action ``a`` of a seat's
:class:`~paiute.observation.Observation` with a small network ``Q(s, a)``, the expected chips
the seat ends the deal with (R8.2) after taking ``a``, and plays the best. The input of ``Q``
is one row of :func:`action_features` per legal action: what the position is (the same for
every action of a decision) and what the action does. Everything comes from the observation
(R9), through the outs counting of ``greedy`` (:mod:`paiute.players.greedy`,
:mod:`paiute.outs`): the score of the hand kept after a discard, the estimated chance that a
call holds up, and, as one more input, whether ``greedy`` itself would pick the action. So the
network starts from greedy's judgement and learns, from the deals' results, where to depart
from it.

The same code builds the features at play time and in ``examples/train_learned.py``; the
network's weights are a small ``.npz`` file (``data/learned.npz`` in this package).

>>> from paiute import Deal, RuleSet, SeededChance
>>> deal = Deal.new(RuleSet(), players=4, dealer=0, chance=SeededChance(2))
>>> _ = deal.apply(deal.legal_actions()[0])  # seat 1 draws from the stock
>>> actions, rows = action_features(deal.observation(1))
>>> rows.shape == (len(actions), NUM_FEATURES), rows.dtype
(True, dtype('float32'))
>>> [str(action) for action, row in zip(actions, rows) if row[-1]]  # greedy's choice
['discard Tc']
"""

from __future__ import annotations

import math
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from paiute.actions import CALL_SIX, DRAW_DISCARD, DRAW_STOCK, Action, ActionKind
from paiute.cards import Card
from paiute.combos import CATEGORY_SHIFT, ROYAL_HIGH_ORDER
from paiute.events import Phase
from paiute.observation import Observation
from paiute.players.greedy import GreedyPlayer, GreedyPosition, ranks_next_seat_collects

__all__ = [
    "FEATURE_NAMES",
    "MAX_WEIGHTS_BYTES",
    "NUM_FEATURES",
    "QNetwork",
    "action_features",
    "greedy_choice",
]

Float32Array = npt.NDArray[np.float32]

_HORIZON = 3  # greedy's default number of draws ahead
_SCORE_CAP = 2.0  # hand scores (outs + potential, paiute.players.greedy) are clipped to this
_KINDS = (
    ActionKind.DRAW_STOCK,
    ActionKind.DRAW_DISCARD,
    ActionKind.DISCARD,
    ActionKind.CALL_FIVE,
    ActionKind.CALL_SIX,
)

#: The name of every column of :func:`action_features`, in order.
FEATURE_NAMES: tuple[str, ...] = (
    # the position (the same for every legal action of a decision)
    "players / 8",
    "last round: a call has been made (R7.2)",
    "the seat's first turn (R5.7)",
    "a Paiute may be called on any turn (R5.7, R2.1)",
    "draw phase (R4.2)",
    "stock size / 40",
    "rebuilds / max_rebuilds (R4.6)",
    "a stock draw would end the deal dead (R4.7)",
    "the seat's draws this deal / 20",
    "seats still to play after this one up to the dealer / players (R7.2)",
    "highest call: category order / 7 (0: none, R5)",
    "highest call: top rank / 14",
    "wild cards in hand / 4 (R3)",
    "unseen wild cards / 4",
    "unseen cards / 54",
    "most cards known in another hand / 6 (R4.5)",
    "cards known in the next seat's hand / 6",
    "actions so far / 200",
    "calls made / players",
    "best kept-hand score after a discard (greedy's outs and potential)",
    # the action
    "draw stock",
    "draw discard",
    "discard",
    "five-card call (R6.2)",
    "six-card call (R6.3)",
    "score of the hand after the action (clipped to 2)",
    "the action makes or allows a call now",
    "the card put down is wild (R3)",
    "the card put down: rank / 12",
    "the card put down: ranks the next seat is known to collect / 3",
    "call: Paiute",
    "call: Three/Three",
    "call: Four/Two",
    "call: Straight Flush",
    "call: Royal Flush",
    "call: Five of a Kind",
    "call: Royal Flush above Five of a Kind (R5.8)",
    "call: top rank / 14",
    "call: estimated chance no later seat beats it (greedy's estimate)",
    "call: the best call of the legal ones (R5)",
    "greedy would play this action",
)
NUM_FEATURES = len(FEATURE_NAMES)
#: The largest weights file read, and the most its arrays may take once unpacked (the shipped
#: file is far smaller).
MAX_WEIGHTS_BYTES = 64 << 20
_STATE = FEATURE_NAMES.index("draw stock")
_AFTER = FEATURE_NAMES.index("score of the hand after the action (clipped to 2)")
_CALL0 = FEATURE_NAMES.index("call: Paiute")


class _MemoizedPosition(GreedyPosition):
    """greedy's reading of the position, remembering each hand's score: the features and
    greedy's own choice score the same kept hands."""

    def __init__(self, observation: Observation) -> None:
        super().__init__(observation)
        self.scores: dict[tuple[tuple[Card, ...], int, bool], float] = {}

    def score(self, hand: Sequence[Card], horizon: int, paiute_now: bool) -> float:
        key = (tuple(hand), horizon, paiute_now)
        value = self.scores.get(key)
        if value is None:
            value = self.scores[key] = super().score(hand, horizon, paiute_now)
        return value


def greedy_choice(observation: Observation, seed: int = 0, position: GreedyPosition | None = None) -> Action:
    """What ``greedy`` plays here; its ties are broken by a generator seeded from ``seed`` and
    the position, so the same observation always gives the same action."""
    player = GreedyPlayer(seed=seed * 1_000_003 + len(observation.history))
    if position is None:
        return player.act(observation)
    return player.act_on(position)  # greedy's own decision on the position already worked out


def action_features(observation: Observation, seed: int = 0) -> tuple[tuple[Action, ...], Float32Array]:
    """The legal actions of ``observation`` and one float32 row of features per action.

    Columns are named by :data:`FEATURE_NAMES`; every value lies in [0, 2].
    """
    actions = observation.legal_actions
    seat = observation.seat
    if not actions or seat is None:
        raise ValueError("action_features needs the observation of the seat to act")
    position = _MemoizedPosition(observation)
    rules = observation.rules
    players = observation.players
    rows = np.zeros((len(actions), NUM_FEATURES), dtype=np.float32)
    state = rows[0, :_STATE]
    draws = sum(1 for event in observation.history if event.seat == seat and event.action.kind.is_draw)
    dead_if_stock = observation.stock_size == 0 and observation.rebuilds >= rules.max_rebuilds
    state[0] = players / 8
    state[1] = bool(observation.calls)
    state[2] = observation.first_turn
    state[3] = position.paiute_any
    state[4] = observation.phase is Phase.DRAW
    state[5] = min(1.0, observation.stock_size / 40)
    state[6] = min(1.0, observation.rebuilds / max(1, rules.max_rebuilds))
    state[7] = dead_if_stock
    state[8] = min(1.0, draws / 20)
    state[9] = ((observation.dealer - seat) % players) / players
    if observation.highest_call is not None:
        code = observation.highest_call.code
        state[10] = (code >> CATEGORY_SHIFT) / ROYAL_HIGH_ORDER
        state[11] = ((code >> 8) & 0xF) / 14
    state[12] = sum(1 for card in observation.hand if card in position.wild) / 4
    state[13] = position.unseen_wild / 4
    state[14] = position.unseen / 54
    others = [len(observation.known_cards[s]) for s in range(players) if s != seat]
    state[15] = max(others, default=0) / 6
    state[16] = len(observation.known_cards[(seat + 1) % players]) / 6
    state[17] = min(1.0, len(observation.history) / 200)
    state[18] = len(observation.calls) / players
    paiute_now = position.first_turn or position.paiute_any  # R5.7
    danger = ranks_next_seat_collects(observation)
    if observation.phase is Phase.DRAW:
        _draw_features(observation, position, actions, rows, paiute_now, dead_if_stock)
    else:
        keep = _discard_features(observation, position, actions, rows, danger)
        state[19] = min(_SCORE_CAP, keep)
    rows[1:, :_STATE] = rows[0, :_STATE]
    greedy = greedy_choice(observation, seed, position)
    for index, action in enumerate(actions):
        rows[index, _STATE + _KINDS.index(action.kind)] = 1.0
        rows[index, -1] = action is greedy
    return actions, rows


def _draw_features(
    observation: Observation,
    position: GreedyPosition,
    actions: Sequence[Action],
    rows: Float32Array,
    paiute_now: bool,
    dead_if_stock: bool,
) -> None:
    """The draw (R4.2): the score of the hand the seat could keep after each pile."""
    hand = observation.hand
    for index, action in enumerate(actions):
        if action is DRAW_DISCARD:
            top = observation.discard_pile[-1]
            taken = (*hand, top)
            if position.best_call_code(taken, top, paiute_now):
                rows[index, _AFTER + 1] = 1.0
                score = _SCORE_CAP
            else:
                score = _best_keep_score(position, taken, top, _HORIZON - 1)
        elif action is DRAW_STOCK:
            if dead_if_stock:
                score = 0.0  # R4.7
            elif observation.stock_size == 1 and observation.stock_bottom is not None:
                drawn = (*hand, observation.stock_bottom)  # R2.6: the last stock card is face up
                if position.best_call_code(drawn, None, paiute_now):
                    rows[index, _AFTER + 1] = 1.0
                    score = _SCORE_CAP
                else:
                    score = _best_keep_score(position, drawn, None, _HORIZON - 1)
            else:
                score = position.score(hand, _HORIZON, paiute_now)
        else:  # pragma: no cover - the draw phase offers only draws (R4.2)
            continue
        rows[index, _AFTER] = min(_SCORE_CAP, score)


def _best_keep_score(
    position: GreedyPosition, held: Sequence[Card], taken: Card | None, horizon: int
) -> float:
    best = 0.0
    for card in held:
        if card != taken:  # R4.3
            kept = [other for other in held if other != card]
            best = max(best, position.score(kept, horizon, position.paiute_any))
    return best


def _discard_features(
    observation: Observation,
    position: GreedyPosition,
    actions: Sequence[Action],
    rows: Float32Array,
    danger: dict[int, int],
) -> float:
    """Discard or call (R4.2, R6): the kept hand's score, the card put down, the call's value;
    returns the best kept-hand score of the discards."""
    hand = observation.hand
    evaluator = position.evaluator
    last_round = bool(observation.calls)
    scores: dict[int, float] = {}
    codes: list[int] = []
    for index, action in enumerate(actions):
        card = action.card
        if card is not None:
            rows[index, _AFTER + 2] = card in position.wild
            rows[index, _AFTER + 3] = (card // 4) / 12 if card < 52 else 1.0
            rows[index, _AFTER + 4] = min(3, danger.get(card // 4, 0)) / 3 if card < 52 else 0.0
        if action.kind is ActionKind.DISCARD and card is not None:
            if last_round:
                score = 0.0  # R7.2: the seat's last turn; only a call counts
            else:
                kept = [other for other in hand if other != card]
                score = position.score(kept, _HORIZON, position.paiute_any)
            scores[index] = score
            rows[index, _AFTER] = min(_SCORE_CAP, score)
            codes.append(0)
        elif action.kind.is_call:
            if action is CALL_SIX:
                code = evaluator.code(hand)
            else:
                code = evaluator.code([other for other in hand if other != card])
            codes.append(code)
            rows[index, _AFTER + 1] = 1.0
            rows[index, _CALL0 + (code >> CATEGORY_SHIFT) - 1] = 1.0
            rows[index, _CALL0 + 7] = ((code >> 8) & 0xF) / 14
            rows[index, _CALL0 + 8] = position.win_chance(code)
        else:  # pragma: no cover - this phase offers only discards and calls (R4.2)
            codes.append(0)
    best = max(codes, default=0)
    if best:
        for index, code in enumerate(codes):
            rows[index, _CALL0 + 9] = code == best
    return max(scores.values(), default=0.0)


@dataclass(frozen=True)
class QNetwork:
    """A two-hidden-layer ReLU network from :func:`action_features` rows to expected chips.

    ``weights`` holds ``w1, b1, w2, b2, w3, b3`` (float32). :meth:`load` reads them from a
    ``.npz`` file, :meth:`save` writes them (with the feature names, checked on load).
    """

    weights: tuple[Float32Array, ...]
    #: How much higher another action's ``Q`` must be than that of greedy's choice for
    #: :meth:`choose` to leave greedy's choice (0: plain argmax).
    threshold: float = 0.0

    def choose(self, rows: Float32Array) -> int:
        """The index of the row to play: the argmax of ``Q``, unless it beats greedy's choice
        (the last feature) by no more than :attr:`threshold`; ties go to the first row."""
        values = self(rows)
        best = int(values.argmax())
        greedy = int(rows[:, -1].argmax())
        return best if values[best] - values[greedy] > self.threshold else greedy

    def __call__(self, rows: Float32Array) -> Float32Array:
        w1, b1, w2, b2, w3, b3 = self.weights
        hidden = np.maximum(rows @ w1 + b1, 0.0)
        hidden = np.maximum(hidden @ w2 + b2, 0.0)
        result: Float32Array = (hidden @ w3 + b3).reshape(-1)
        return result

    @classmethod
    def initial(cls, hidden: int = 64, seed: int = 0) -> QNetwork:
        """He-initialised weights (a fresh network for training)."""
        rng = np.random.default_rng(seed)

        def layer(inputs: int, outputs: int) -> tuple[Float32Array, Float32Array]:
            scale = np.sqrt(2.0 / inputs)
            return (
                (rng.standard_normal((inputs, outputs)) * scale).astype(np.float32),
                np.zeros(outputs, dtype=np.float32),
            )

        w1, b1 = layer(NUM_FEATURES, hidden)
        w2, b2 = layer(hidden, hidden)
        w3, b3 = layer(hidden, 1)
        return cls((w1, b1, w2, b2, w3, b3))

    def save(self, path: str | Path, **meta: object) -> None:
        names = ("w1", "b1", "w2", "b2", "w3", "b3")
        arrays: dict[str, npt.NDArray[np.generic]] = dict(zip(names, self.weights, strict=True))
        arrays["features"] = np.array(FEATURE_NAMES)
        arrays["threshold"] = np.array(self.threshold, dtype=np.float32)
        for key, value in meta.items():
            arrays[f"meta_{key}"] = np.array(value)
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: str | Path) -> QNetwork:
        """The network saved by :meth:`save` at ``path``; a :class:`ValueError` that says what
        is wrong with a file that is not one (or an :class:`OSError` where it cannot be read)."""
        path = Path(path)
        if not path.exists():
            raise ValueError("no such file")
        if not path.is_file() or path.stat().st_size > MAX_WEIGHTS_BYTES:
            raise ValueError(f"not a regular file of at most {MAX_WEIGHTS_BYTES >> 20} MiB")
        try:
            with zipfile.ZipFile(path) as archive:  # what the arrays take once unpacked
                unpacked = sum(member.file_size for member in archive.infolist())
        except zipfile.BadZipFile:
            raise ValueError("not a .npz file of weights (QNetwork.save writes one)") from None
        if unpacked > MAX_WEIGHTS_BYTES:
            raise ValueError(f"its arrays take {unpacked} bytes unpacked, more than {MAX_WEIGHTS_BYTES}")
        names = ("w1", "b1", "w2", "b2", "w3", "b3")
        with np.load(path, allow_pickle=False) as data:
            missing = [name for name in ("features", *names) if name not in data]
            if missing:
                raise ValueError(f"no array {missing[0]!r}: not weights QNetwork.save wrote")
            if tuple(str(name) for name in data["features"]) != FEATURE_NAMES:
                raise ValueError("the weights were trained on other features")
            weights = tuple(np.asarray(data[name], dtype=np.float32) for name in names)
            threshold = float(data["threshold"]) if "threshold" in data else 0.0
        # Layer shapes chain: features -> hidden -> hidden -> one value, each with its bias.
        inputs = NUM_FEATURES
        for index in range(0, 6, 2):
            w, b = weights[index], weights[index + 1]
            outputs = 1 if index == 4 else (w.shape[1] if w.ndim == 2 else -1)
            if w.shape != (inputs, outputs) or b.shape != (outputs,):
                raise ValueError(
                    f"layer {index // 2 + 1} has shape {w.shape} and bias {b.shape}: it must take "
                    f"{inputs} inputs" + (" and give one value" if index == 4 else "")
                )
            inputs = outputs
        if not all(np.isfinite(w).all() for w in weights) or not math.isfinite(threshold):
            raise ValueError("the weights must be finite numbers")
        return cls(weights, threshold)
