"""The NumPy batch evaluator (``paiute.batch``) against the pure-Python evaluator.

* Row by row, ``best_codes``, ``best5_codes`` and ``six_codes`` equal ``Evaluator.best_code``,
  ``Evaluator.best_five_code`` and ``Evaluator.code`` of the six cards: for random holdings
  under every wild configuration (each wild rank, each opposite-colour upcard, jokers in a
  54-card pack), for skewed holdings (many wild cards, one suit), for every multiset of six
  rank symbols, and for rows with repeated cards; with ``royal_high`` off and on.
* Any integer dtype and memory layout is accepted; bad input raises ``ValueError``.
"""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections.abc import Iterable

import pytest

np = pytest.importorskip("numpy")

import paiute.batch as batch_module  # noqa: E402
from paiute.batch import BatchEvaluator  # noqa: E402
from paiute.cards import CARDS, JOKERS, Card, parse_cards  # noqa: E402
from paiute.evaluator import Evaluator  # noqa: E402
from paiute.rules import RuleSet  # noqa: E402

ROYAL = [pytest.param(False, id="royal_low"), pytest.param(True, id="royal_high")]


def random_holdings(rng: np.random.Generator, rows: int, pack_size: int = 52) -> np.ndarray:
    """``rows`` holdings of six different cards drawn from a pack of ``pack_size``."""
    return np.argsort(rng.random((rows, pack_size)), axis=1)[:, :6].astype(np.uint8)


def skewed_holdings(rng: np.random.Generator, wild: Iterable[Card], rows: int) -> np.ndarray:
    """Holdings rich in wild cards and in one suit: where the straight flushes, Five of a
    Kind and the wild-card corner cases are."""
    wild_cards = sorted(int(card) for card in wild)
    out = np.empty((rows, 6), dtype=np.uint8)
    for row in range(rows):
        wilds = int(rng.integers(0, min(len(wild_cards), 6) + 1))
        chosen = [int(card) for card in rng.choice(wild_cards, wilds, replace=False)] if wilds else []
        suit = int(rng.integers(4))
        low = int(rng.integers(0, 13))
        # naturals of one suit from a short run of ranks (an ace-low run sometimes), and now
        # and then one card of another suit
        ranks = [(low + step) % 13 for step in range(int(rng.integers(5, 9)))]
        naturals = [rank * 4 + suit for rank in ranks if rank * 4 + suit not in wild_cards]
        if rng.random() < 0.3:
            naturals.append(int(rng.integers(13)) * 4 + (suit + 1) % 4)
        pool = [card for card in dict.fromkeys(naturals) if card not in chosen]
        rng.shuffle(pool)
        cards = chosen + pool
        while len(cards) < 6:  # top up with any other card
            card = int(rng.integers(52))
            if card not in cards:
                cards.append(card)
        out[row] = rng.permutation(cards[:6])
    return out


def expected(evaluator: Evaluator, holdings: np.ndarray) -> tuple[list[int], list[int], list[int]]:
    rows = [[CARDS[card] for card in row] for row in holdings.tolist()]
    return (
        [evaluator.best_code(row) for row in rows],
        [evaluator.best_five_code(row) for row in rows],
        [evaluator.code(row) for row in rows],
    )


def check(wild: Iterable[Card], holdings: np.ndarray, royal_high: bool) -> None:
    wild = frozenset(wild)
    evaluator = Evaluator(wild, royal_high=royal_high)
    batch = BatchEvaluator(wild, royal_high=royal_high)
    best, best5, six = expected(evaluator, holdings)
    for name, got, want in (
        ("best_codes", batch.best_codes(holdings), best),
        ("best5_codes", batch.best5_codes(holdings), best5),
        ("six_codes", batch.six_codes(holdings), six),
    ):
        assert got.dtype == np.int32
        assert got.shape == (holdings.shape[0],)
        wrong = np.flatnonzero(got != np.array(want, dtype=np.int64))
        if wrong.size:
            row = int(wrong[0])
            cards = " ".join(str(CARDS[card]) for card in holdings[row])
            pytest.fail(
                f"{name}: {wrong.size} rows differ, first row {row} [{cards}] wild "
                f"{sorted(str(card) for card in wild)} royal_high={royal_high}: "
                f"batch {int(got[row])}, evaluator {want[row]}"
            )


# -- differential tests: every wild configuration -------------------------------------------


@pytest.mark.parametrize("royal_high", ROYAL)
def test_random_holdings_every_wild_rank(royal_high: bool) -> None:
    rng = np.random.default_rng(20240601 + royal_high)
    for base in range(0, 52, 4):  # R3.1, wild_colour = any
        check(CARDS[base : base + 4], random_holdings(rng, 2500), royal_high)


@pytest.mark.parametrize("royal_high", ROYAL)
def test_random_holdings_opposite_colour(royal_high: bool) -> None:
    rules = RuleSet(wild_colour="opposite")
    rng = np.random.default_rng(7 + royal_high)
    for upcard in CARDS[:52]:  # R3.3
        wild = rules.wild_cards(upcard)
        assert len(wild) == 2
        check(wild, random_holdings(rng, 400), royal_high)


@pytest.mark.parametrize("royal_high", ROYAL)
def test_random_holdings_jokers(royal_high: bool) -> None:
    rules = RuleSet(jokers=True)
    wild = rules.wild_cards(None)
    assert wild == frozenset(JOKERS)
    rng = np.random.default_rng(54 + royal_high)
    check(wild, random_holdings(rng, 20000, pack_size=rules.pack_size), royal_high)


@pytest.mark.parametrize("royal_high", ROYAL)
def test_skewed_holdings(royal_high: bool) -> None:
    rng = np.random.default_rng(99 + royal_high)
    opposite = RuleSet(wild_colour="opposite")
    configurations: list[Iterable[Card]] = [
        *(CARDS[base : base + 4] for base in (0, 12, 32, 48)),
        *(opposite.wild_cards(CARDS[card]) for card in (1, 22, 47, 51)),
        JOKERS,
        (),
    ]
    for wild in configurations:
        check(wild, skewed_holdings(rng, wild, 1500), royal_high)


@pytest.mark.parametrize("royal_high", ROYAL)
def test_every_rank_multiset(royal_high: bool) -> None:
    """Every multiset of six symbols (13 ranks and "wild"), counts 5 and 6 of a rank included
    (as repeated cards), so every entry of the rank tables is checked."""
    rows: dict[int, list[list[int]]] = {}
    for symbols in itertools.combinations_with_replacement(range(14), 6):
        present = {symbol for symbol in symbols if symbol < 13}
        wild_rank = min(set(range(13)) - present)  # its four cards and the jokers are wild
        wilds = [wild_rank * 4 + i for i in range(4)] + [52, 53]
        row = []
        seen: dict[int, int] = {}
        for symbol in symbols:
            if symbol == 13:
                row.append(wilds.pop())
            else:
                seen[symbol] = seen.get(symbol, 0) + 1
                row.append(symbol * 4 + (seen[symbol] + symbol) % 4)
        rows.setdefault(wild_rank, []).append(row)
    assert sum(len(group) for group in rows.values()) == 27132
    for wild_rank, group in rows.items():
        wild = (*CARDS[wild_rank * 4 : wild_rank * 4 + 4], *JOKERS)
        check(wild, np.array(group, dtype=np.uint8), royal_high)


@pytest.mark.parametrize("royal_high", ROYAL)
def test_repeated_cards_evaluated_as_given(royal_high: bool) -> None:
    """Rows are not checked for repeated cards; they get the evaluator's answer all the same."""
    rng = np.random.default_rng(3 + royal_high)
    holdings = rng.integers(0, 54, size=(4000, 6)).astype(np.uint8)
    holdings[:1000, 1:] = holdings[:1000, :1]  # six times the same card
    check(CARDS[20:24], holdings, royal_high)
    check(JOKERS, holdings, royal_high)


def test_arbitrary_wild_sets() -> None:
    """The constructor takes any set of wild cards, as the evaluator does (up to six wild
    cards in a holding, or none at all)."""
    rng = np.random.default_rng(11)
    for wild in ((), CARDS[:10] + JOKERS, CARDS[3:52:5], (CARDS[51], JOKERS[0])):
        check(wild, random_holdings(rng, 3000, pack_size=54), royal_high=bool(len(wild) % 2))
        check(wild, skewed_holdings(rng, wild, 500), royal_high=True)


# -- the API ----------------------------------------------------------------------------------


def test_known_values() -> None:
    batch = BatchEvaluator.for_rank("3")
    held = np.array(
        [
            parse_cards("3h 3s Ad Ac Ks Kh"),  # Four/Two, aces over kings
            parse_cards("3c 3d 3h 3s 7d 2c"),  # Five of a Kind, sevens
            parse_cards("Th Jh Qh Kh Ah 2c"),  # Royal Flush
            parse_cards("2c 5d 8h Js Kc Ad"),  # nothing
        ],
        dtype=np.uint8,
    )
    assert batch.best_codes(held).tolist() == [3 << 12 | 14 << 8 | 13 << 4, 6 << 12 | 7 << 8, 5 << 12, 0]
    high = BatchEvaluator.for_rank("3", royal_high=True)
    assert high.best_codes(held).tolist()[2] == 7 << 12
    assert high.royal_high
    assert not batch.royal_high


def test_constructors_mirror_evaluator() -> None:
    assert BatchEvaluator.for_rank("q").wild_cards == Evaluator.for_rank("q").wild_cards
    assert BatchEvaluator.for_jokers().wild_cards == frozenset(JOKERS)
    assert BatchEvaluator.for_jokers(royal_high=True).royal_high
    assert BatchEvaluator().wild_cards == frozenset()
    assert "royal_high=False" in repr(BatchEvaluator.for_rank("2"))


def test_dtypes_and_layouts() -> None:
    rng = np.random.default_rng(5)
    holdings = random_holdings(rng, 3000, pack_size=54)
    batch = BatchEvaluator.for_rank("9")
    want = batch.best_codes(holdings)
    for variant in (
        holdings.astype(np.int64),
        holdings.astype(np.int8),
        holdings.astype(np.uint16),
        holdings.astype(np.int32, order="F"),
        np.asfortranarray(holdings),
        np.hstack([holdings, holdings])[:, 6:],  # not contiguous
        holdings.tolist(),
    ):
        assert np.array_equal(batch.best_codes(variant), want)
        assert np.array_equal(batch.six_codes(variant), batch.six_codes(holdings))
        assert np.array_equal(batch.best5_codes(variant), batch.best5_codes(holdings))


def test_empty_input() -> None:
    batch = BatchEvaluator.for_jokers()
    for call in (batch.best_codes, batch.best5_codes, batch.six_codes):
        result = call(np.empty((0, 6), dtype=np.int64))
        assert result.shape == (0,)
        assert result.dtype == np.int32


@pytest.mark.parametrize(
    ("holdings", "message"),
    [
        (np.zeros(6, dtype=np.uint8), r"shape \(N, 6\).*got shape \(6,\)"),
        (np.zeros((4, 5), dtype=np.uint8), r"shape \(N, 6\).*got shape \(4, 5\)"),
        (np.zeros((4, 7), dtype=np.int64), r"got shape \(4, 7\)"),
        (np.zeros((2, 6, 1), dtype=np.uint8), r"got shape \(2, 6, 1\)"),
        (np.zeros((3, 6), dtype=np.float64), r"integer array.*float64"),
        (np.zeros((3, 6), dtype=np.bool_), r"integer array.*bool"),
        ([["As", "Kd", "2c", "3c", "4c", "5c"]], r"integer array"),
    ],
)
def test_bad_shape_or_dtype(holdings: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        BatchEvaluator.for_rank("5").best_codes(holdings)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("dtype", "value"), [(np.uint8, 54), (np.uint8, 255), (np.int64, -1), (np.int64, 1000), (np.int16, 54)]
)
def test_card_out_of_range(dtype: type, value: int) -> None:
    holdings = np.tile(np.arange(6, dtype=dtype), (5, 1))
    holdings[3, 2] = value
    batch = BatchEvaluator()
    for call in (batch.best_codes, batch.best5_codes, batch.six_codes):
        with pytest.raises(
            ValueError, match=rf"card index {value} at row 3, column 2 is out of range: cards are 0\.\.53"
        ):
            call(holdings)


def test_package_does_not_import_batch() -> None:
    """NumPy stays optional: importing the package never imports ``paiute.batch``."""
    code = "import sys, paiute, paiute.evaluator; print('paiute.batch' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


def test_many_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows go in blocks: the answer does not depend on the block size, and is right at the
    edges of blocks and in a short last block."""
    rng = np.random.default_rng(17)
    wild = CARDS[36:40]
    holdings = np.concatenate([random_holdings(rng, 2500), skewed_holdings(rng, wild, 500)])
    holdings = holdings[rng.permutation(holdings.shape[0])]
    check(wild, holdings, royal_high=False)  # one block
    batch = BatchEvaluator(wild, royal_high=True)
    whole = [batch.best_codes(holdings), batch.best5_codes(holdings), batch.six_codes(holdings)]
    monkeypatch.setattr(batch_module, "_BLOCK", 256)
    check(wild, holdings, royal_high=True)  # 12 blocks, the last one short
    assert np.array_equal(batch.best_codes(holdings), whole[0])
    assert np.array_equal(batch.best5_codes(holdings), whole[1])
    assert np.array_equal(batch.six_codes(holdings), whole[2])


def test_large_batch_matches_small_batches() -> None:
    """A batch of several default blocks gives what its slices give (and the evaluator)."""
    rng = np.random.default_rng(23)
    holdings = random_holdings(rng, 150_000, pack_size=54)
    batch = BatchEvaluator.for_jokers(royal_high=True)
    codes = batch.best_codes(holdings)
    slices = [batch.best_codes(holdings[start : start + 9999]) for start in range(0, 150_000, 9999)]
    assert np.array_equal(codes, np.concatenate(slices))
    evaluator = Evaluator.for_jokers(royal_high=True)
    sample = rng.choice(150_000, 3000, replace=False)
    assert codes[sample].tolist() == [
        evaluator.best_code([CARDS[c] for c in holdings[row]]) for row in sample
    ]
