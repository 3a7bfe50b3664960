"""Deep Monte Carlo through the compiled vector env (paiute.training.dmc, ``paiute train dmc``)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("numba")
np = pytest.importorskip("numpy")

from paiute.cli.main import main  # noqa: E402
from paiute.training.agent import load, read_mlp  # noqa: E402
from paiute.training.dmc import Batch, train  # noqa: E402
from paiute.training.dmc_settings import Settings  # noqa: E402

SMALL = Settings(
    seed=5,
    deals=128,
    tables=8,
    round_deals=32,
    hidden=(16,),
    batch=64,
    eval_every=64,
    eval_deals=40,
    epsilon=0.1,
)


def digest(batches: list[Batch]) -> str:
    """One hash of a round's decisions, actor by actor."""
    h = hashlib.sha256()
    for batch in batches:
        for array in (batch.observations, batch.actions, batch.returns):
            h.update(np.ascontiguousarray(array).tobytes())
        h.update(str(batch.deals).encode())
    return h.hexdigest()


def run_digests(settings: Settings, out: Path, **kwargs: object) -> list[str]:
    seen: list[str] = []
    train(settings, out, on_round=lambda _, batches: seen.append(digest(batches)), **kwargs)  # type: ignore[arg-type]
    return seen


def weights(out: Path) -> list[np.ndarray]:
    read_mlp.cache_clear()
    with np.load(out / "agent.npz") as data:
        return [data[k] for k in sorted(data.files) if not k.startswith("meta_")]


def test_a_run_writes_its_curve_network_and_checkpoint(tmp_path: Path) -> None:
    _model, progress = train(SMALL, tmp_path)
    assert progress.deals >= SMALL.deals
    assert progress.decisions > progress.deals  # a seat decides several times a deal
    points = [json.loads(line) for line in (tmp_path / "curve.jsonl").read_text().splitlines()]
    assert [p["deals"] for p in points] == sorted(p["deals"] for p in points)
    assert len(points) >= 2
    assert all(p["low"] <= p["mean"] <= p["high"] for p in points)
    assert (tmp_path / "curve.png").stat().st_size > 1000
    assert (tmp_path / "checkpoint.pt").exists()
    assert read_mlp.__wrapped__(str(tmp_path / "agent.npz")).outputs == 111


def test_the_same_seed_makes_the_same_run(tmp_path: Path) -> None:
    first = run_digests(SMALL, tmp_path / "a")
    second = run_digests(SMALL, tmp_path / "b")
    assert first == second
    for a, b in zip(weights(tmp_path / "a"), weights(tmp_path / "b"), strict=True):
        assert np.array_equal(a, b)
    other = run_digests(
        Settings(**{**SMALL.to_json(), "seed": 6, "hidden": (16,), "opponents": ("greedy",)}), tmp_path / "c"
    )
    assert other[0] != first[0]  # another seed deals other deals


def test_a_resumed_run_goes_on_as_if_it_never_stopped(tmp_path: Path) -> None:
    whole = run_digests(SMALL, tmp_path / "whole")
    half = Settings(**{**SMALL.to_json(), "deals": 64, "hidden": (16,), "opponents": ("greedy",)})
    first = run_digests(half, tmp_path / "split")
    rest = run_digests(SMALL, tmp_path / "split", resume=True)
    assert first + rest == whole
    for a, b in zip(weights(tmp_path / "whole"), weights(tmp_path / "split"), strict=True):
        assert np.array_equal(a, b)
    curve = (tmp_path / "split" / "curve.jsonl").read_text().splitlines()
    assert len(curve) == len((tmp_path / "whole" / "curve.jsonl").read_text().splitlines())


def test_self_seats_and_several_actors(tmp_path: Path) -> None:
    settings = Settings(
        **{**SMALL.to_json(), "actors": 2, "hidden": (16,), "opponents": ("greedy", "greedy,self,random")}
    )
    seen = run_digests(settings, tmp_path)
    assert seen


def test_ray_actors_play_the_deals_of_the_single_process_run(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    import ray

    settings = Settings(
        **{
            **SMALL.to_json(),
            "actors": 2,
            "deals": 128,
            "hidden": (16,),
            "opponents": ("greedy", "greedy,self,greedy"),
        }
    )
    local = run_digests(settings, tmp_path / "local")
    try:
        remote = run_digests(settings, tmp_path / "ray", backend="ray")
    finally:
        if ray.is_initialized():
            ray.shutdown()
    assert remote == local
    for a, b in zip(weights(tmp_path / "local"), weights(tmp_path / "ray"), strict=True):
        assert np.array_equal(a, b)


def test_the_network_plays_as_a_player_from_its_seat_alone(tmp_path: Path) -> None:
    """The player (the engine's Observation, encoded) and the vector env's policy (the env's
    vector) choose alike: the encodings agree, so the tournament meets the trained agent."""
    import gymnasium

    import paiute.envs.gymnasium  # noqa: F401

    train(SMALL, tmp_path)
    player = load(str(tmp_path / "agent.npz"))
    env = gymnasium.make("paiute/Paiute-v0", players=4, opponents="greedy", observation_object=True)
    checked = 0
    for seed in range(6):
        vector, info = env.reset(seed=seed)
        done = False
        while not done:
            observation = info["observation_object"]
            mask = info["action_mask"].astype(bool)
            expected = int(player.network.act(vector[None, :], mask[None, :])[0])
            if mask.sum() > 1:
                assert player.act(observation).id == expected
                checked += 1
            vector, _, terminated, truncated, info = env.step(expected)
            done = terminated or truncated
    assert checked > 10


def test_the_trained_agent_enters_a_tournament_by_its_dotted_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    train(SMALL, tmp_path)
    spec = f"paiute.training.agent.load:weights={tmp_path / 'agent.npz'}"
    assert (
        main(["tournament", spec, "random", "--deals", "2", "--players", "4", "--workers", "1", "--json"])
        == 0
    )
    assert "paiute.training.agent.load" in capsys.readouterr().out


def test_the_command_trains_and_plays_the_final_tournament(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert main(["train", "dmc", "--quick", "--out", str(out), "--final-boards", "2", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [row["opponent"] for row in printed["final_tournament"]] == ["random", "greedy", "expert"]
    assert json.loads((out / "results.json").read_text())["deals"] == printed["deals"]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--epsilon", "2"], "--epsilon must lie in [0, 1]"),
        (["--hidden", "wide"], "--hidden: expected widths"),
        (["--actors", "0"], "--actors must be at least 1"),
        (["--opponents", "greedy,random"], "one spec for every other seat or 3"),
        (["--resume"], "holds no checkpoint"),
    ],
)
def test_bad_options_are_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    assert main(["train", "dmc", "--quick", "--out", str(tmp_path / "run"), *argv]) == 2
    error = capsys.readouterr().err.strip()
    assert words in error
    assert "\n" not in error
    assert error.startswith("paiute train: error:")


def test_a_folder_holding_a_run_is_not_overwritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert main(["train", "dmc", "--quick", "--out", str(out), "--final-boards", "0"]) == 0
    before = (out / "curve.jsonl").read_bytes()
    assert main(["train", "dmc", "--quick", "--out", str(out), "--final-boards", "0"]) == 2
    assert "give --resume" in capsys.readouterr().err
    assert (out / "curve.jsonl").read_bytes() == before


def test_a_warm_start_imitates_greedy_before_training(tmp_path: Path) -> None:
    """The warm start learns greedy's moves (its training agreement rises well above a random
    choice's) and is part of the run: the same seed makes the same network."""
    import torch

    from paiute.training.dmc import Learner, imitate_greedy

    settings = Settings(**{**SMALL.to_json(), "hidden": (64,), "opponents": ("greedy",), "warm_deals": 60})
    demonstrations = imitate_greedy(settings)
    assert len(demonstrations.actions) > 60
    assert demonstrations.masks[np.arange(len(demonstrations.actions)), demonstrations.actions].all()

    def agreement(learner: Learner) -> float:
        with torch.no_grad():
            q = learner.model(torch.from_numpy(demonstrations.observations.astype(np.float32))).numpy()
        q[~demonstrations.masks] = -np.inf
        return float((q.argmax(axis=1) == demonstrations.actions).mean())

    learner = Learner(settings, demonstrations.observations.shape[1])
    before = agreement(learner)
    learner.warm_start(demonstrations, epochs=30)
    assert agreement(learner) > max(0.6, before + 0.2)

    first = run_digests(settings, tmp_path / "a")
    second = run_digests(settings, tmp_path / "b")
    assert first == second
    points = [json.loads(line) for line in (tmp_path / "a" / "curve.jsonl").read_text().splitlines()]
    assert points[0]["deals"] == 0
    assert points[0]["warm_deals"] == 60


def test_resume_takes_the_runs_own_settings_and_refuses_to_change_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    small = [
        "--tables",
        "8",
        "--round-deals",
        "32",
        "--hidden",
        "16",
        "--eval-every",
        "64",
        "--eval-deals",
        "40",
    ]
    assert (
        main(
            ["train", "dmc", "--deals", "64", "--seed", "3", *small, "--out", str(out), "--final-boards", "0"]
        )
        == 0
    )
    assert main(["train", "dmc", "--resume", "--deals", "128", "--out", str(out), "--final-boards", "0"]) == 0
    settings = json.loads((out / "settings.json").read_text())
    assert (settings["seed"], settings["tables"], settings["hidden"], settings["deals"]) == (3, 8, [16], 128)
    capsys.readouterr()
    assert main(["train", "dmc", "--resume", "--tables", "9", "--out", str(out)]) == 2
    assert "--tables cannot change in a run under way" in capsys.readouterr().err


def test_the_results_name_the_command_that_makes_the_run_from_nothing(tmp_path: Path) -> None:
    import shlex

    from paiute.cli.main import build_parser
    from paiute.training.dmc_settings import settings_from

    settings = Settings(
        **{
            **SMALL.to_json(),
            "hidden": (16, 8),
            "opponents": ("greedy", "greedy,self,random"),
            "warm_deals": 9,
        }
    )
    words = shlex.split(settings.command(final_boards=7))
    args = build_parser().parse_args(words[1:])
    assert settings_from(args, tmp_path / "new") == settings
    assert args.final_boards == 7
