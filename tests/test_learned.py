"""The ``learned`` player (docs/learned.md): registered, legal, repeatable, blind to hidden
cards (R9), picklable, its shipped weights small, and its training script runnable.

No strength or speed is asserted here: the margins and the time per decision are measured in
``benchmarks/learned.py`` (benchmarks/README.md, docs/learned.md).
"""

from __future__ import annotations

import importlib.util
import pickle
import random
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from helpers import play_every_table_size
from paiute import Deal, RuleSet, SeededChance
from paiute.players import PLAYERS, PlayerError, make_player
from paiute.players.learned import DEFAULT_WEIGHTS, LearnedPlayer
from paiute.players.learned_features import (
    FEATURE_NAMES,
    MAX_WEIGHTS_BYTES,
    NUM_FEATURES,
    QNetwork,
    action_features,
)

ROOT = Path(__file__).resolve().parent.parent


def positions(count: int, seed: int) -> list[Deal]:
    """Mid-deal states reached by greedy and random play, at a seat's turn with a choice."""
    rng = random.Random(seed)
    found: list[Deal] = []
    while len(found) < count:
        players = rng.randint(2, 8)
        rules = RuleSet.from_preset(
            rng.choice(["pagat", "gamerules"]), jokers=rng.random() < 0.3, max_players=8
        )
        deal = Deal.new(rules, players, rng.randrange(players), SeededChance(rng.getrandbits(32)))
        bots = [make_player(rng.choice(["greedy", "random"]), seed=seat) for seat in range(players)]
        for _ in range(rng.randint(0, 40)):
            if deal.is_over:
                break
            deal.apply(bots[deal.current_seat].act(deal.observation(deal.current_seat)))
        if not deal.is_over and len(deal.legal_actions()) > 1:
            found.append(deal)
    return found


def test_learned_is_registered() -> None:
    assert "learned" in PLAYERS
    player = make_player("learned:seed=4")
    assert isinstance(player, LearnedPlayer)
    assert (player.name, player.seed) == ("learned", 4)


@pytest.mark.parametrize("preset", ["pagat", "gamerules"])
def test_learned_plays_legal_actions_to_the_end_at_2_to_8_seats(preset: str) -> None:
    """R2.1 (2 to 8 seats with max_players=8), both presets, against random."""
    play_every_table_size(preset, lambda seat: "learned" if seat % 2 == 0 else "random")


def test_learned_is_deterministic_for_a_seed() -> None:
    for deal in positions(12, 3):
        observation = deal.observation(deal.current_seat)
        assert make_player("learned:seed=2").act(observation) is make_player("learned:seed=2").act(
            observation
        )


def test_r9_learned_decisions_do_not_depend_on_hidden_cards() -> None:
    """Re-deal every card the seat cannot see (R9.2, R9.3): same observation, same decision."""
    for index, deal in enumerate(positions(25, 7)):
        seat = deal.current_seat
        observation = deal.observation(seat)
        decision = LearnedPlayer(seed=index).act(observation)
        for redeal in range(2):
            other = deal.resample_hidden(seat, SeededChance(1000 * index + redeal))
            assert other.observation(seat) == observation
            assert LearnedPlayer(seed=index).act(other.observation(seat)) is decision


def test_learned_survives_pickling() -> None:
    """Tournaments send players' specs to worker processes; a player itself pickles too."""
    deal = positions(1, 11)[0]
    observation = deal.observation(deal.current_seat)
    player = make_player("learned:seed=1")
    copy = pickle.loads(pickle.dumps(player))
    assert copy.act(observation) is player.act(observation)


def test_features_have_one_name_per_column() -> None:
    deal = positions(1, 5)[0]
    actions, rows = action_features(deal.observation(deal.current_seat))
    assert rows.shape == (len(actions), NUM_FEATURES) == (len(actions), len(FEATURE_NAMES))
    assert np.isfinite(rows).all()
    assert rows.min() >= 0.0
    assert rows.max() <= 2.0
    assert rows[:, -1].sum() == 1  # greedy's choice is one of the legal actions


def test_shipped_weights_are_small_and_load() -> None:
    assert DEFAULT_WEIGHTS.is_file()
    assert DEFAULT_WEIGHTS.stat().st_size < 5 * 1024 * 1024
    network = QNetwork.load(DEFAULT_WEIGHTS)
    assert network(np.zeros((3, NUM_FEATURES), dtype=np.float32)).shape == (3,)


def test_unreadable_weights_give_one_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_text("not weights")
    deal = positions(1, 2)[0]
    with pytest.raises(PlayerError, match="cannot read the weights"):
        make_player(f"learned:weights={bad}").act(deal.observation(deal.current_seat))


def _saved_with(path: Path, **changes: object) -> Path:
    """The shipped weights saved again at ``path`` with arrays replaced (None: left out)."""
    with np.load(DEFAULT_WEIGHTS, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files}
    for name, value in changes.items():
        if value is None:
            del arrays[name]
        else:
            arrays[name] = np.asarray(value)
    np.savez(path, **arrays)  # type: ignore[arg-type]
    return path


def test_hostile_weights_files_are_refused_with_what_is_wrong(tmp_path: Path) -> None:
    hidden = QNetwork.load(DEFAULT_WEIGHTS).weights[0].shape[1]
    cases = {
        "no such file": tmp_path / "missing.npz",
        "not a regular file": tmp_path,
        "not a .npz file": tmp_path / "text.npz",
        "its arrays take": tmp_path / "bomb.npz",
        "no array 'w2'": _saved_with(tmp_path / "short.npz", w2=None),
        "trained on other features": _saved_with(tmp_path / "features.npz", features=np.array(["x"])),
        "layer 2 has shape": _saved_with(tmp_path / "shape.npz", w2=np.zeros((hidden + 1, hidden))),
        "layer 3 has shape": _saved_with(tmp_path / "value.npz", w3=np.zeros((hidden, 2))),
        "must be finite": _saved_with(tmp_path / "nan.npz", b3=np.array([np.nan])),
    }
    (tmp_path / "text.npz").write_text("not weights")
    # Small on disk, far larger unpacked: refused before a byte of it is unpacked.
    np.savez_compressed(tmp_path / "bomb.npz", w1=np.zeros(MAX_WEIGHTS_BYTES // 8 + 1))
    deal = positions(1, 2)[0]
    for words, path in cases.items():
        with pytest.raises(PlayerError, match=f"cannot read the weights '{re.escape(str(path))}': .*{words}"):
            make_player(f"learned:weights={path}").act(deal.observation(deal.current_seat))


def training_script(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("train_learned", ROOT / "examples" / "train_learned.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "train_learned", module)
    spec.loader.exec_module(module)
    return module


def test_training_deals_go_through_the_pettingzoo_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """The training script plays its deals through paiute.envs.pettingzoo: the learner's
    decisions are at its seats only, its rewards are the env's (zero-sum, R8.6), and the
    behaviour-cloning data is greedy's choice in each position."""
    module = training_script(monkeypatch)
    table = module.training_table()
    assert table.unwrapped.observation_object
    rng = np.random.default_rng(0)
    for seed in range(4):
        decisions, rewards = module.play_deal(table, seed, None, "bc", rng, 0.0)
        assert decisions
        assert {d.seat for d in decisions} <= set(module.LEARNER_SEATS)
        assert all(d.rows[d.chosen, -1] == 1.0 for d in decisions)  # greedy's own choice
        assert sum(rewards.values()) == pytest.approx(0.0)
        assert rewards == {seat: table.unwrapped.table.rewards[seat] for seat in range(4)}


def test_quick_training_writes_weights_the_player_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """examples/train_learned.py --quick: the whole pipeline in a few seconds (no margin)."""
    module = training_script(monkeypatch)
    out, curve, plot = tmp_path / "w.npz", tmp_path / "curve.json", tmp_path / "curve.svg"
    args = ["--quick", "--out", str(out), "--curve", str(curve), "--plot", str(plot)]
    assert module.main(args) == 0
    assert out.is_file()
    assert curve.is_file()
    assert plot.read_text().lstrip().startswith("<?xml")
    player = make_player(f"learned:weights={out}")
    rules = RuleSet()
    deal = Deal.new(rules, 4, 0, SeededChance(1))
    while not deal.is_over:
        deal.apply(player.act(deal.observation(deal.current_seat)))
    assert deal.outcome is not None


def test_threshold_keeps_greedys_choice_unless_another_action_is_clearly_better() -> None:
    """QNetwork.choose: argmax of Q, but greedy's choice (the last feature) unless beaten by
    more than the threshold."""
    rows = np.zeros((3, NUM_FEATURES), dtype=np.float32)
    rows[1, -1] = 1.0  # greedy plays the second action
    rows[2, 0] = 1.0  # the third differs in one input
    hidden = 2
    w1 = np.zeros((NUM_FEATURES, hidden), dtype=np.float32)
    w1[0, 0] = 1.0
    w2 = np.eye(hidden, dtype=np.float32)
    w3 = np.array([[0.5], [0.0]], dtype=np.float32)
    zero = np.zeros(hidden, dtype=np.float32)
    weights = (w1, zero, w2, zero, w3, np.zeros(1, dtype=np.float32))
    assert QNetwork(weights).choose(rows) == 2  # Q: 0, 0, 0.5
    assert QNetwork(weights, threshold=0.4).choose(rows) == 2
    assert QNetwork(weights, threshold=0.6).choose(rows) == 1


def test_saved_networks_load_with_their_threshold(tmp_path: Path) -> None:
    network = QNetwork.initial(hidden=8, seed=3)
    path = tmp_path / "n.npz"
    QNetwork(network.weights, threshold=0.25).save(path, method="dmc")
    loaded = QNetwork.load(path)
    assert loaded.threshold == pytest.approx(0.25)
    rows = np.ones((2, NUM_FEATURES), dtype=np.float32)
    assert np.allclose(loaded(rows), network(rows))


def test_learned_without_numpy_is_refused_when_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    """`paiute play`'s extra (tui) has no NumPy: choosing `learned` there says so in one line."""
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *args: None if name == "numpy" else real(name, *args)
    )
    with pytest.raises(PlayerError, match="needs NumPy"):
        make_player("learned")
