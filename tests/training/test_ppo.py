"""The MaskablePPO baseline (paiute.training.ppo, ``paiute train ppo``): a --quick run end to
end, the same seed making the same curve and network, the exported network playing the model's
own masked argmax, --resume going on from the checkpoint, and bad options refused in one line."""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numba")
pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")
np = pytest.importorskip("numpy")

import gymnasium as gym  # noqa: E402

import paiute.envs.gymnasium  # noqa: E402, F401 - registers paiute/Paiute-v0
from paiute.cli.main import build_parser  # noqa: E402
from paiute.errors import PaiuteError  # noqa: E402
from paiute.training import ppo, ppo_command  # noqa: E402
from paiute.training.agent import MLP  # noqa: E402

TIMING = ("seconds", "cpu_seconds")


def arguments(*words: str) -> argparse.Namespace:
    """``paiute train ppo WORDS`` as the command parses them."""
    return build_parser().parse_args(["train", "ppo", *words])


def train(out: Path, *words: str) -> dict[str, Any]:
    """A --quick run into ``out``; its results.json."""
    assert ppo_command.run(arguments("--quick", "--out", str(out), *words)) == 0
    results: dict[str, Any] = json.loads((out / "results.json").read_text(encoding="utf-8"))
    return results


def curve(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / "curve.jsonl").read_text(encoding="utf-8").splitlines()]


def untimed(points: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{key: value for key, value in point.items() if key not in TIMING} for point in points]


def network(out: Path) -> MLP:
    with np.load(out / "agent.npz") as data:
        count = sum(1 for key in data.files if key.startswith("w"))
        return MLP([(data[f"w{i}"], data[f"b{i}"]) for i in range(count)])


def assert_same_network(out: Path, other: Path) -> None:
    for (w, b), (w_other, b_other) in zip(network(out).layers, network(other).layers, strict=True):
        assert np.array_equal(w, w_other)
        assert np.array_equal(b, b_other)


def refusal(*words: str) -> str:
    """The one line a bad run is refused with."""
    with pytest.raises(PaiuteError) as caught:
        ppo_command.run(arguments(*words))
    message = str(caught.value)
    assert "\n" not in message
    return message


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ppo") / "run"
    train(out)
    return out


def test_a_quick_run_writes_its_curve_network_checkpoint_and_results(quick_run: Path) -> None:
    for name in (
        "agent.npz",
        "curve.jsonl",
        "curve.png",
        "results.json",
        "checkpoint.zip",
        "checkpoint.json",
    ):
        assert (quick_run / name).stat().st_size > 0, name
    points = curve(quick_run)
    assert [p["steps"] for p in points] == [0, 256, 512]
    assert points[0]["deals"] == 0 < points[1]["deals"] < points[2]["deals"]
    assert all(p["low"] <= p["mean"] <= p["high"] for p in points)
    assert all(p["cpu_seconds"] > 0 and p["seconds"] > 0 for p in points)
    results = json.loads((quick_run / "results.json").read_text(encoding="utf-8"))
    assert results["steps"] == 512
    assert results["deals"] == points[-1]["deals"]
    assert results["cpu_seconds"] > 0
    assert results["cpu_hours"] == pytest.approx(results["cpu_seconds"] / 3600, abs=1e-3)
    assert results["command"].startswith("paiute train ppo --seed 0 --steps 512 ")
    assert results["command"].endswith("--quick")
    assert {"torch", "stable_baselines3", "sb3_contrib"} <= set(results["versions"])
    rows = results["final_tournament"]
    assert [row["opponent"] for row in rows] == ["random", "greedy", "expert"]
    for row in rows:
        assert row["boards"] == 2
        assert math.isfinite(row["low"])
        assert math.isfinite(row["high"])
        assert row["low"] <= row["mean"] <= row["high"]
    assert results["tournament"]["agent"] == f"paiute.training.agent.load:weights={quick_run / 'agent.npz'}"


def test_the_same_seed_makes_the_same_curve_and_network(quick_run: Path, tmp_path: Path) -> None:
    train(tmp_path / "again", "--final-boards", "0")
    assert untimed(curve(tmp_path / "again")) == untimed(curve(quick_run))
    assert_same_network(tmp_path / "again", quick_run)


def test_the_exported_network_plays_the_models_masked_argmax(quick_run: Path) -> None:
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(quick_run / "checkpoint.zip", device="cpu")
    exported, saved = ppo.export_policy(model), network(quick_run)
    for (w, b), (w_saved, b_saved) in zip(exported.layers, saved.layers, strict=True):
        assert np.array_equal(w, w_saved)
        assert np.array_equal(b, b_saved)
    envs = gym.make_vec("paiute/Paiute-v0", num_envs=32, players=4, preset="pagat", opponents="greedy")
    rng = np.random.default_rng(3)
    observations, info = envs.reset(seed=11)
    seen, chosen = [], []
    for _ in range(10):  # 320 observations, new deals among them
        masks = info["action_mask"].astype(bool)
        predicted, _ = model.predict(observations, action_masks=masks, deterministic=True)
        assert np.array_equal(saved.act(observations, masks), predicted)
        seen.append(observations)
        chosen.append(predicted)
        observations, _, _, _, info = envs.step((rng.random(masks.shape) * masks).argmax(axis=1))
    envs.close()
    assert len(np.unique(np.concatenate(chosen))) > 3  # the comparison covers varied choices


def test_a_resumed_run_goes_on_as_if_it_had_never_stopped(quick_run: Path, tmp_path: Path) -> None:
    """Stopped at its checkpoint of 256 steps and resumed to 512, a run makes the curve and the
    network of the run that went to 512 at once; a point written after the checkpoint is dropped."""
    out = tmp_path / "run"
    train(out, "--steps", "256", "--final-boards", "0")
    assert [p["steps"] for p in curve(out)] == [0, 256]
    saved = json.loads((out / "checkpoint.json").read_text(encoding="utf-8"))
    assert saved["steps"] == 256
    with (out / "curve.jsonl").open("a", encoding="utf-8") as file:  # written after the checkpoint
        file.write(json.dumps({**curve(out)[-1], "deals": saved["deals"] + 1, "steps": 300}) + "\n")
    results = train(out, "--resume", "--steps", "512", "--final-boards", "0")
    points = curve(out)
    assert [p["steps"] for p in points] == [0, 256, 512]
    assert points[2]["deals"] > points[1]["deals"] == saved["deals"]
    assert points[2]["cpu_seconds"] > points[1]["cpu_seconds"]
    assert results["steps"] == 512
    assert results["deals"] == points[2]["deals"]
    assert json.loads((out / "checkpoint.json").read_text(encoding="utf-8"))["steps"] == 512
    assert untimed(points) == untimed(curve(quick_run))
    assert_same_network(out, quick_run)


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (("--steps", "0"), "--steps must be at least 1, not 0"),
        (("--envs", "-2"), "--envs must be at least 1"),
        (("--eval-deals", "1"), "--eval-deals must be at least 2"),
        (("--final-boards", "-1"), "--final-boards must be at least 0"),
        (("--threads", "0"), "--threads must be at least 1"),
        (("--preset", "bogus"), "unknown preset 'bogus'"),
        (("--opponents", "nobody"), "opponent 'nobody'"),
        (("--players", "9"), "R2.1 9 players"),
    ],
)
def test_bad_options_are_refused_in_one_line(tmp_path: Path, words: tuple[str, ...], expected: str) -> None:
    assert expected in refusal("--quick", "--out", str(tmp_path / "run"), *words)


def test_a_folder_with_another_run_needs_resume(quick_run: Path, tmp_path: Path) -> None:
    assert "holds another run" in refusal("--quick", "--out", str(quick_run))
    assert "add --resume" in refusal("--quick", "--out", str(quick_run))
    assert "nothing to resume" in refusal("--quick", "--resume", "--out", str(tmp_path))
    message = refusal("--quick", "--resume", "--players", "3", "--out", str(quick_run))
    assert message.startswith("--players 3 differs from the run in")
    assert "is a --quick run: add --quick" in refusal("--resume", "--out", str(quick_run))


def test_missing_training_libraries_name_the_train_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "sb3_contrib", None)  # import sb3_contrib raises ImportError
    assert "pip install 'paiute[train]'" in refusal("--quick", "--out", str(tmp_path / "run"))
